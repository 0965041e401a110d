"""A benchmark stand-in for evaluate's published ``seqeval`` module, written from its card.

Like that module: features are sequences of strings, ``compute`` runs seqeval's
``classification_report`` (``output_dict=True``) on the lists and returns per-type
dicts plus ``overall_precision/recall/f1/accuracy``. Used only by
``benchmarks/bench_evaluate.py`` so that both sides pay the same evaluate overhead.
"""
import datasets
import evaluate
from seqeval.metrics import accuracy_score
from seqeval.metrics import classification_report


class SeqevalStyle(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=__doc__, citation="", inputs_description="",
            features=datasets.Features({
                "predictions": datasets.Sequence(datasets.Value("string")),
                "references": datasets.Sequence(datasets.Value("string"))}))

    def _compute(self, predictions, references, zero_division="warn"):
        report = classification_report(y_true=references, y_pred=predictions,
                                        output_dict=True, zero_division=zero_division)
        report.pop("macro avg")
        report.pop("weighted avg")
        overall = report.pop("micro avg")
        scores = {name: {"precision": values["precision"], "recall": values["recall"],
                         "f1": values["f1-score"], "number": values["support"]}
                  for name, values in report.items()}
        scores["overall_precision"] = overall["precision"]
        scores["overall_recall"] = overall["recall"]
        scores["overall_f1"] = overall["f1-score"]
        scores["overall_accuracy"] = accuracy_score(y_true=references, y_pred=predictions)
        return scores
