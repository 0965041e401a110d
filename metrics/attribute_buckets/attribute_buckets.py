"""attribute_buckets: bucket-wise NER scores by entity and sentence attributes (an evaluate metric)."""
import importlib.util

import evaluate

# Without nerlens, name the one package to install. evaluate's own check reads the
# column-0 imports below (all from nerlens) and asks for "pip install nerlens"; this
# guard says the same to an import that bypasses that check.
if importlib.util.find_spec("nerlens") is None:
    raise ModuleNotFoundError("the attribute_buckets metric needs nerlens: pip install nerlens",
                              name="nerlens")
from nerlens.families import family_package
from nerlens.metric_support import TrainingDataMixin, module_result

# the family package, never this script (run from this folder it would shadow it)
attribute_buckets = family_package("attribute_buckets")

_CITATION = """\
@inproceedings{fu-etal-2020-interpretable,
    title = "Interpretable Multi-dataset Evaluation for Named Entity Recognition",
    author = "Fu, Jinlan and Liu, Pengfei and Neubig, Graham",
    booktitle = "Proceedings of the 2020 Conference on Empirical Methods in Natural Language Processing (EMNLP)",
    month = nov,
    year = "2020",
    address = "Online",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2020.emnlp-main.489",
    doi = "10.18653/v1/2020.emnlp-main.489",
    pages = "6058--6069",
}
"""

_DESCRIPTION = """\
attribute_buckets (Fu, Liu and Neubig, EMNLP 2020) breaks entity-level F1 down by nine
attributes: entity length (eLen), sentence length (sLen), entity density (eDen), OOV
density (oDen), entity label consistency (eCon), entity frequency (eFre) and entity type
(tag) for mentions; token label consistency (tCon) and token frequency (tFre) for
tokens. Each attribute's values are cut into buckets (edges from the gold values;
default 4 buckets named XS, S, L, XL; for tag one bucket per gold type, by name) and
precision, recall and F1 are reported per bucket: gold mentions
are bucketed by their own value (recall), predicted mentions by the value computed for
them (precision). It shows where a system fails: long entities, rare or inconsistently
labelled ones, dense or unfamiliar sentences.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predicted tag lists, one per sentence.
    references: list of reference tag lists, same shape.
    predictions may be generated output (an LLM's): per sentence the response (a
        string: JSON, a code fence, inline <TYPE>...</TYPE> markup, prose) or a list of
        {"text", "type"} dicts; each entity is located in the sentence's tokens
        (options occurrences, fuzzy; matching="grounded"), one not found is a wrong
        prediction; repairs["pred"]["generative"] counts what could not be used.
    predictions, references may also be span lists per sentence: dicts {"label", "start",
        "end"} (token offsets, end exclusive) or a transformers token-classification
        pipeline's output dicts (character offsets); options texts, inclusive_end, snap,
        offsets ("chars": the dicts count characters of texts, as spaCy writes them)
        (nerspan.InputOptions, the same in every family); an empty span list is no mention.
    label_list: the tags in id order (a list, or model.config.id2label): predictions and
        references are then label ids as a Trainer gives them (lists or padded arrays of
        ints; positions whose reference id is -100 are dropped from both sides), with the
        numbers of the tag route. At evaluate.load(...) or at compute(...).
    tokens: the test words per sentence (or give them to evaluate.load(...)).
    train: training data: a datasets split, a column file path, a nerspan Corpus or
        TrainIndex; or a (tokens, tags) pair of lists per sentence. Give it
        to evaluate.load(...) to index it once, or to compute(...). Needed by oDen, eCon,
        eFre, tCon and tFre.
    n_buckets: buckets per attribute (default 4: XS, S, L, XL; 2 to 1000).
    attributes: attribute names to compute (default all nine), or a mapping name ->
        function f(corpus, spans, train_index) -> one value per span.
    bucket_edges: attribute -> increasing edges [e0, ..., ek] (buckets [e0, e1], (e1, e2], ...).
    equal_width: cut each attribute's value range evenly instead of into equal counts
        (default False); the {0} and {1} buckets and eLen's length buckets stay.
    lowercase: lowercase tokens before looking them up in training (default True, as the
        reference code); False compares them as written.
    frequency_norm: "ratio" (default, the paper) or "rank5" (the reference code).
    compat: None, or "interpreteval" to reproduce the reference code (InterpretEval).
    bootstrap: number of sentence resamples for an interval on every bucket F1 (0 = none);
        seed, confidence (default 0.95).
    scheme: tag scheme, default "IOB2". mode: "lenient" (default) or "strict".
    confusion: also give the entity confusion matrix, confusion[gold type][predicted
        type] over mentions with identical spans ("O": missed, spurious), and
        boundary_errors per type apart (nerspan.Evaluation.confusion).
    beta: also report F-beta beside every F1 (a number > 0, seqeval's beta) under a key
        naming it: f2, f0.5 (fair_f2, a schema's f2, per type...); 1 (default) adds none.
Returns:
    precision, recall, f1: overall entity-level micro scores (as seqeval).
    buckets: attribute -> list of buckets in order, each with name, interval, gold,
        predicted, correct, precision, recall, f1 (None where undefined: no predicted
        unit for precision, no gold unit for recall, neither for f1), low, high (for
        tag: value, the type) and, with bootstrap, f1_interval.
    attributes: attribute -> unit (mention/token), strategy, n_gold, n_predicted,
        outside_gold, outside_predicted (units in no bucket), mean_value (over gold;
        None for tag).
    per_type: type -> precision, recall, f1 (None where undefined), support, predicted,
        correct. undefined: which of the overall precision and recall were 0 by
        zero division.
    options, repairs: the options used and what decoding repaired (gold and pred).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/attribute_buckets",
    ...                        train=([["Kim", "lives", "in", "New", "York"],
    ...                                ["New", "York", "is", "big"], ["Kim", "met", "Ana"]],
    ...                               [["B-PER", "O", "O", "B-LOC", "I-LOC"],
    ...                                ["B-ORG", "I-ORG", "O", "O"], ["B-PER", "O", "B-PER"]]))
    >>> results = metric.compute(references=[["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O"]],
    ...                          predictions=[["B-PER", "O", "B-LOC", "O"], ["B-PER", "O", "O"]],
    ...                          tokens=[["Ana", "visited", "New", "York"], ["Kim", "is", "big"]])
    >>> round(results["f1"], 4)
    0.6667
    >>> [(b["name"], b["interval"], b["gold"], b["predicted"], b["f1"]) for b in results["buckets"]["eLen"]]
    [('XS', '{1}', 2, 3, 0.8), ('S', '{2}', 1, 0, 0.0), ('L', '{3}', 0, 0, None), ('XL', '[4, inf)', 0, 0, None)]
    >>> [(b["interval"], b["gold"], b["f1"]) for b in results["buckets"]["eCon"]]
    [('{0}', 0, 0.0), ('(0, 0.5]', 1, 0.0), ('(0.5, 1)', 0, None), ('{1}', 2, 1.0)]
"""

@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class AttributeBuckets(TrainingDataMixin, evaluate.Metric):
    """Bucket-wise precision, recall and F1 by entity and sentence attributes."""

    FAMILY = "attribute_buckets"

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=self.input_features(),
            reference_urls=["https://aclanthology.org/2020.emnlp-main.489",
                            "https://github.com/neulab/InterpretEval"],
        )

    def _compute(self, predictions, references, tokens=None, train=None, **kwargs):
        settings = self._settings(kwargs)
        predictions, references = self._read(settings, predictions, references,
                                             self._tokens_for(tokens))
        return module_result(attribute_buckets.score, references, predictions,
                             train=self._index_for(train, settings), **settings)
