"""FairEval: fine-grained NER error types without double penalties (an evaluate metric)."""
import importlib.util

import evaluate

# Without nerlens, name the one package to install. evaluate's own check reads the
# column-0 imports below (all from nerlens) and asks for "pip install nerlens"; this
# guard says the same to an import that bypasses that check.
if importlib.util.find_spec("nerlens") is None:
    raise ModuleNotFoundError("the faireval metric needs nerlens: pip install nerlens",
                              name="nerlens")
from nerlens.families import family_package
from nerlens.metric_support import (OptionsMixin, input_features, module_result,
                                    per_example_option)

# the family package, never this script (run from this folder it would shadow it)
faireval = family_package("faireval")

_CITATION = """\
@inproceedings{ortmann-2022-fine,
    title = "Fine-Grained Error Analysis and Fair Evaluation of Labeled Spans",
    author = "Ortmann, Katrin",
    booktitle = "Proceedings of the Thirteenth Language Resources and Evaluation Conference",
    month = jun,
    year = "2022",
    address = "Marseille, France",
    publisher = "European Language Resources Association",
    url = "https://aclanthology.org/2022.lrec-1.150",
    pages = "1400--1407",
}
"""

_DESCRIPTION = """\
FairEval (Ortmann, 2022) sorts every disagreement between target and system spans into
error types: labeling errors (LE: right span, wrong label), boundary errors (BE: right
label, overlapping span; BEs = system span smaller, BEl = larger, BEo = crossing),
labeling-boundary errors (LBE), false negatives and false positives. Traditional scores
count a near miss twice (an FP and an FN); the fair scores count each LE, BE and LBE as
half an FP and half an FN; weight-table scores use any table of (TP, FP, FN) shares.
The headline precision, recall and f1 are the exact-match scores, as in every nerlens
module; the fair ones are fair_precision, fair_recall and fair_f1.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predicted tag lists, one per sentence (any scheme of nerspan;
        multi-level tags are written "B-X|I-Y", outer level first), or span lists per
        sentence: dicts {"label", "start", "end"} (token offsets, end exclusive) or a
        transformers token-classification pipeline's output dicts (character offsets).
    references: list of reference (target) tag lists or span lists, same sentences.
    predictions may be generated output (an LLM's): per sentence the response (a
        string: JSON, a code fence, inline <TYPE>...</TYPE> markup, prose) or a list of
        {"text", "type"} dicts; each entity is located in the sentence's tokens
        (options occurrences, fuzzy; matching="grounded"), one not found is a wrong
        prediction (an FP); overlaps="keep" keeps nested and overlapping grounded spans
        (default "drop": the longer wins); give tokens to evaluate.load(...) or
        compute(...); repairs["pred"]["generative"] counts what could not be used.
    tokens, texts: the words or the text that character offsets refer to.
    label_list: the tags in id order (a list, or model.config.id2label): predictions and
        references are then label ids as a Trainer gives them (lists or padded arrays of
        ints; positions whose reference id is -100 are dropped from both sides), with the
        numbers of the tag route. At evaluate.load(...) or at compute(...).
    inclusive_end: token spans have inclusive ends (nervaluate's layout).
    snap: widen character spans that miss token boundaries (counted in repairs).
    offsets: what start and end of {"label", "start", "end"} dicts count: "tokens", or
        "chars" of texts (spaCy, GLiNER); None: decided from the spans, refused when
        both fit.
    schemas: "semeval" adds the SemEval-2013 schemas (strict, exact, partial, ent_type)
        as nervaluate counts them. With schemas: min_overlap, the least overlap of a
        prediction that may take a gold span (a fraction of its tokens in (0, 1],
        nervaluate's min_overlap_percentage / 100, default 0.01); pairing, "greedy"
        (nervaluate's) or "optimal" (a maximum-weight pairing, independent of the order);
        return_instances, add semeval_instances (every span with its outcome per schema).
    weights: "weighted" (the paper's preset) or a table {error type: (TP, FP, FN)
        shares} adds the weight_table_* keys; None (default) adds none.
    focus: "target" (default) counts LE and LBE under the target label per label,
        "system" under the system label.
    labels: evaluate only these labels (in this order). exclude: drop these labels.
    ignore_punct: remove punctuation tokens (by pos) from every span before matching.
    pos: POS tags per sentence, needed by ignore_punct. With ignore_punct=True given to
        evaluate.load(...), pos is an input given with each batch like the tags (aligned
        in batched and distributed runs); as a compute option it is deprecated.
    confusion_tp: put TPs on the confusion matrix's diagonal as well.
    return_pairs: add "pairs", every event per sentence with its spans.
    reference_iteration: reproduce the numbers of the reference code (see the card).
    scheme: tag scheme, default "IOB2". mode: "lenient" (default) or "strict".
    confusion: also give the entity confusion matrix, confusion[gold type][predicted
        type] over mentions with identical spans ("O": missed, spurious), and
        boundary_errors per type apart (nerspan.Evaluation.confusion).
    beta: also report F-beta beside every F1 (a number > 0, seqeval's beta) under a key
        naming it: f2, f0.5 (fair_f2, a schema's f2, per type...); 1 (default) adds none.
Options may also be given to evaluate.load(...); compute(...) overrides them.
Returns:
    precision, recall, f1: exact-match scores, the same numbers as every nerlens module's
        (zero division gives 0, listed in undefined).
    traditional_precision, traditional_recall, traditional_f1: the same exact-match
        scores, None where undefined (as fair_* and weight_table_*).
    fair_precision, fair_recall, fair_f1: LE, BE and LBE count half FP, half FN.
    weight_table_precision, weight_table_recall, weight_table_f1: with weights="weighted"
        or a table.
    counts: TP, FP, FN, LE, BE, BEs, BEl, BEo, LBE. traditional_counts: TP, FP, FN.
    per_type: label -> counts and scores. error_confusion (FairEval's confusion of
    errors): "matrix" (target label ->
    system label -> count, non-zero cells only: a missing one is 0), "FN" (target label -> target spans no system span took) and
    "FP" (system label -> system spans no target span took).
    confusion, boundary_errors (with confusion=True): the entity confusion matrix.
    semeval (with schemas): schema -> correct, incorrect, partial, missed, spurious,
    possible, actual, precision, recall, f1 and per_type.
    options, repairs: the options used and what decoding repaired (gold and pred).
    An undefined score (no span on the side it divides by) is None, except the headline.
Examples:
    >>> import evaluate
    >>> faireval_metric = evaluate.load("metrics/faireval")
    >>> references = [["B-PER", "I-PER", "O", "B-LOC", "O"]]
    >>> predictions = [["B-PER", "O", "O", "B-ORG", "O"]]
    >>> results = faireval_metric.compute(predictions=predictions, references=references)
    >>> results["counts"]["BE"], results["counts"]["LE"]
    (1, 1)
    >>> round(results["f1"], 4), round(results["fair_f1"], 4)
    (0.0, 0.0)
    >>> references = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O"]]
    >>> predictions = [["B-PER", "I-PER", "O", "B-LOC", "I-LOC"], ["B-ORG", "O"]]
    >>> results = faireval_metric.compute(predictions=predictions, references=references,
    ...                                   weights="weighted")
    >>> results["counts"]["TP"], results["counts"]["BEl"]
    (2, 1)
    >>> [round(results[k], 4) for k in ("f1", "fair_f1", "weight_table_f1")]
    [0.6667, 0.8, 0.9091]
"""

@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Faireval(OptionsMixin, evaluate.Metric):
    """FairEval error types and traditional, fair and weight-table scores."""

    FAMILY = "faireval"
    DATA = ("pos",)

    def _per_token(self) -> tuple:
        # evaluate.load(..., ignore_punct=True) without pos: POS tags come per example
        punct = self._load_options.get("ignore_punct") and "pos" not in self._load_options
        return ("pos",) if punct else ()

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=input_features(per_token=self._per_token()),
            homepage="https://github.com/katrinortmann/FairEval",
            reference_urls=["https://aclanthology.org/2022.lrec-1.150"],
        )

    def _compute(self, predictions, references, **kwargs):
        settings = self._settings(kwargs)
        predictions, references = self._read(settings, predictions, references)
        per_example_option("faireval", "pos", kwargs.get("pos"), "pos" in self._per_token(),
                           "ignore_punct=True")
        # spans go to faireval as they are: it scores nested and overlapping spans
        return module_result(faireval.score, references, predictions,
                             as_given=True, **settings)
