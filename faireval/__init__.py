"""faireval: fine-grained NER error types without double penalties (Ortmann 2022).

Every target (gold) and system span ends up in exactly the events the paper's
Algorithm 2 finds: TP, labeling error (LE), boundary error (BE, with subtypes BEs =
system span smaller, BEl = larger, BEo = overlapping), labeling-boundary error (LBE), FN
and FP. A near miss is then one error, not an FP plus an FN: the fair scores count each
LE, BE and LBE as half an FP and half an FN.

>>> import faireval
>>> result = faireval.score([["B-PER", "I-PER", "O", "B-LOC"]],
...                         [["B-PER", "O", "O", "B-ORG"]])
>>> result.counts["BE"], result.counts["LE"], result.counts["TP"]
(1, 1, 0)
>>> d = result.to_dict()
>>> d["f1"], d["fair_f1"]
(0.0, 0.0)
>>> spans = faireval.score([[("PER", 0, 2), ("LOC", 3, 4)]],
...                        [[("PER", 0, 2), ("LOC", 3, 5)]], weights="weighted")
>>> spans.counts["BEl"], round(spans.fair()[0], 4), spans.weight_table_scores()[:2]
(1, 0.6667, (0.75, 1.0))
>>> d = spans.to_dict()
>>> d["f1"], round(d["fair_f1"], 4), round(d["weight_table_f1"], 4)
(0.5, 0.6667, 0.8571)

``precision``, ``recall`` and ``f1`` are the exact-match scores, as in every family's
result; the fair ones are ``fair_*``, those of a weight table ``weight_table_*``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

from nerspan import GOLD, PRED, Corpus, Evaluation, InputOptions, InputTypeError
from nerspan.errors import shown
from nerspan.evaluation import resolve
from nerspan.migration import migrated, moved_names
from nerspan.options import PAIRINGS
from nerspan.records import Record, comma_list, option, switch

from .family import describe
from .inputs import PUNCT_TAGS, Prepared, prepare
from .matching import Events, find_errors
from .result import FOCUS, FairEvalResult, build_result, prf_from_errors
from .semeval import (MIN_OVERLAP, SCHEMAS, check_min_overlap, check_schemas,
                      semeval_instances, semeval_scores, write_instances_csv)
from .spanfile import read_span_file, spans_to_tags, write_span_file
from .weights import (COUNT_NAMES, ERROR_TYPES, PRESETS, WEIGHT_NAMES, check_sums,
                      resolve_weights)

__version__ = "0.1.0"


# What ``weights`` accepted when it chose the headline scores: the headline is always the
# exact-match scores, so these are refused, naming what to ask for instead.
HEADLINE_WEIGHTS = ("traditional", "fair")


def _labels(name: str, value):
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InputTypeError(f"{name} must be a list of label strings, not {shown(value)}")
    return list(value)


def _weights(name: str, value):
    if isinstance(value, str) and value in HEADLINE_WEIGHTS:
        raise ValueError(headline_weights_error(value))
    resolve_weights(value)   # checked here; a table's sums are checked on the counts
    return value


@dataclass(frozen=True)
class FairevalOptions(Record):
    """faireval's own options (``score``; the command line's flags and the evaluate
    module's features are made of these fields)."""

    weights: object = option(
        None, "a weight table for the weight_table_* scores: \"weighted\" (the paper's "
        "preset: BEs = 0.5 TP + 0.5 FN, BEl = 0.5 TP + 0.5 FP, BEo = 0.5 TP + 0.25 FP + "
        "0.25 FN) or {error type: (TP, FP, FN) shares}; None adds none.", _weights)
    focus: str = option(
        "target", "\"target\" counts LE and LBE under the target label per label, "
        "\"system\" under the system label; overall counts do not change.", choices=FOCUS)
    labels: object = option(None, "evaluate only these labels (in this order); spans of "
                            "other labels are removed before matching.", _labels,
                            parse=comma_list)
    exclude: object = option((), "drop the spans of these labels before matching.",
                             _labels, parse=comma_list)
    ignore_punct: bool = switch(
        False, "remove punctuation tokens (by pos, see PUNCT_TAGS) from every span before "
        "matching; spans shrink past them and vanish when empty.")
    confusion_tp: bool = switch(False, "also put the TPs on the diagonal of error_confusion.")
    return_pairs: bool = switch(False, "add pairs: per sentence, every event with its spans.")
    reference_iteration: bool = switch(
        False, "reproduce the reference code's numbers: within a BE/LBE pass the span right "
        "after a match is skipped. Off: the paper's algorithm.")
    schemas: object = option(
        None, "\"semeval\" adds the SemEval-2013 Task 9.1 schemas as nervaluate counts them "
        "(strict, exact, partial, ent_type; or a list of some) under semeval.",
        lambda name, value: check_schemas(value) or None, parse=comma_list)
    min_overlap: float = option(
        MIN_OVERLAP, "with schemas: the least overlap of a prediction that may take a gold "
        "span, a fraction of its tokens in (0, 1] (nervaluate's min_overlap_percentage / "
        "100).", lambda name, value: check_min_overlap(value), parse=float)
    pairing: str = option(
        "greedy", "with schemas: how predictions take gold spans, \"greedy\" (nervaluate's, "
        "in list order) or \"optimal\" (a maximum-weight pairing that does not depend on "
        "the order of the input).", choices=PAIRINGS)
    return_instances: bool = switch(
        False, "with schemas: add semeval_instances, per schema every span with its "
        "outcome.")

    describes = "faireval"

    def __post_init__(self):
        super().__post_init__()
        # they shape the SemEval numbers only: without schemas they would change nothing
        named = [name for name in ("min_overlap", "pairing", "return_instances")
                 if name in self.given and getattr(self, name) != _DEFAULTS[name]]
        if named and not self.schemas:
            raise ValueError(f"{', '.join(named)} appl{'ies' if len(named) == 1 else 'y'} "
                             "to the SemEval-2013 schemas: give schemas='semeval' (or some "
                             f"of {', '.join(SCHEMAS)}) as well")


_DEFAULTS = {"min_overlap": MIN_OVERLAP, "pairing": "greedy", "return_instances": False}


@migrated(matching="pairing={value!r} (how the SemEval schemas pair spans); generated "
                   "output's matching is an input option, inputs={{'matching': ...}}")
def score(references, predictions=None, *, tokens=None, train=None, scheme: str | None = None,
          mode: str | None = None, label_list=None, inputs=None, pos=None, weights=None,
          focus: str = "target", labels: Sequence[str] | None = None,
          exclude: Sequence[str] = (), ignore_punct: bool = False, confusion_tp: bool = False,
          return_pairs: bool = False, reference_iteration: bool = False, schemas=None,
          min_overlap: float = MIN_OVERLAP, pairing: str = "greedy",
          return_instances: bool = False, options=None) -> FairEvalResult:
    """FairEval error counts and traditional, fair and (if asked) weight-table scores.

    Args:
        references: the target annotation: a ``nerspan.Corpus`` (columns
            ``gold_column`` and ``pred_column``; then ``predictions`` may be omitted), a
            ``nerspan.Evaluation`` (with a system's name as ``predictions``), a
            ``datasets`` split, tag lists per sentence (any scheme of the core;
            multi-level tags ``B-X|I-Y``, outer level first), or span lists per sentence
            ``[(label, start, end), ...]``, 0-based, ``end`` exclusive, possibly nested
            or overlapping (``read_span_file`` reads FairEval's files).
        predictions: the system annotation, in the same form.
        tokens, label_list, inputs: the words, the tags in id order for label ids, the
            other input options (``nerspan.InputOptions`` or a dict of them).
        train: accepted and ignored (faireval needs no training data), so that every
            family can be called the same way.
        scheme, mode: how tags are decoded (see ``nerspan.decode``; default IOB2,
            lenient).
        pos: POS tags per sentence (a list of lists, or a column name of the Corpus), for
            ``ignore_punct``.
        options: a ``FairevalOptions`` record (or a dict of its fields); the keywords
            ``weights``, ``focus``, ``labels``, ``exclude``, ``ignore_punct``,
            ``confusion_tp``, ``return_pairs``, ``reference_iteration``, ``schemas``,
            ``min_overlap``, ``pairing`` and ``return_instances`` are its fields (each
            field's doc says what it does), put over it.

    The headline ``precision``/``recall``/``f1`` are the exact-match scores, ``fair_*``
    the fair ones; FairEval's matrix of errors is ``error_confusion``. Raises
    ``nerspan.NerspanError`` (a ``ValueError``) naming the sentence for bad spans or
    tags, and ``ValueError`` for a bad option.
    """
    options = FairevalOptions.of(options).with_keywords(
        weights=weights, focus=focus, labels=labels, exclude=exclude,
        ignore_punct=ignore_punct, confusion_tp=confusion_tp, return_pairs=return_pairs,
        reference_iteration=reference_iteration, schemas=schemas, min_overlap=min_overlap,
        pairing=pairing, return_instances=return_instances)
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    references, predictions, context, system, scheme, mode = _two_columns(
        references, predictions, scheme, mode, train, inputs)
    if context is not None:
        inputs = inputs.replace(label_list=None)  # the evaluation's corpus holds tags
        if isinstance(pos, str):
            pos = [context.corpus.tags(pos, i) for i in range(context.corpus.n_sentences)]
    prepared = prepare(references, predictions, scheme=scheme, mode=mode, pos=pos,
                       ignore_punct=options.ignore_punct, labels=options.labels,
                       exclude=options.exclude, inputs=inputs, context=context, system=system)
    return _result(prepared, find_errors(prepared, options.reference_iteration), options,
                   scheme, mode)


def _result(prepared: Prepared, events: Events, options: FairevalOptions, scheme: str,
            mode: str) -> FairEvalResult:
    weight_table = None if options.weights is None else resolve_weights(options.weights)
    schemas = check_schemas(options.schemas)
    shown = {"weights": None if weight_table is None else
             options.weights if isinstance(options.weights, str) else
             {kind: list(shares) for kind, shares in weight_table.items()},
             "focus": options.focus, "labels": options.labels,
             "exclude": None if options.exclude is None else list(options.exclude),
             "ignore_punct": options.ignore_punct, "confusion_tp": options.confusion_tp,
             "reference_iteration": options.reference_iteration, "scheme": scheme,
             "mode": mode, "schemas": list(schemas)}
    pairing = dict(min_overlap=options.min_overlap, pairing=options.pairing)
    if schemas:   # they shape the SemEval numbers only
        shown.update(pairing)
    result = build_result(prepared, events, options.focus, options.weights, weight_table,
                          resolve_weights("fair"), options.confusion_tp,
                          options.return_pairs,
                          semeval=semeval_scores(prepared, schemas, **pairing) if schemas
                          else (None, None), options=shown)
    if options.return_instances and schemas:
        result = dataclasses.replace(result, instances=semeval_instances(
            prepared, schemas, **pairing))
    if weight_table is not None:   # its sums over these counts, never inf or NaN
        check_sums(weight_table, result.kind_counts)
    return result


def headline_weights_error(weights: str) -> str:
    """What a ``weights`` value of ``HEADLINE_WEIGHTS`` is told (the CLI says it too)."""
    return (f"weights={weights!r} chose the headline scores until nerlens 0.2: precision, "
            "recall and f1 are the exact-match scores in every result, the fair ones "
            "fair_precision, fair_recall and fair_f1; leave weights out (it adds "
            "weight_table_* scores: 'weighted' or a table)")


def _two_columns(references, predictions, scheme, mode, train, inputs):
    """``(references, predictions, context, system, scheme, mode)`` for ``prepare``: an
    evaluation (or a Corpus with other column names) becomes a Corpus with the columns
    ``gold`` and ``pred``; ``system`` names the predictions' column in the evaluation's
    own corpus (its spans decoded once there), else None."""
    context = system = None
    gold_column, pred_column = inputs.gold_column, inputs.pred_column
    if isinstance(references, Evaluation):
        context, corpus, gold_column, pred_column = resolve(
            references, predictions, scheme=scheme, mode=mode, train=train, inputs=inputs)
        scheme, mode, predictions = context.scheme, context.mode, None
        references = corpus
        system = pred_column if corpus is context.corpus else None
    scheme, mode = scheme or "IOB2", mode or "lenient"
    if isinstance(references, Corpus) and predictions is None \
            and (gold_column, pred_column) != (GOLD, PRED):
        references = references.paired(gold_column, pred_column)
    return references, predictions, context, system, scheme, mode


__all__ = ["score", "FAMILY", "FairevalOptions", "FairEvalResult", "HEADLINE_WEIGHTS",
           "headline_weights_error", "SCHEMAS", "semeval_scores", "semeval_instances",
           "write_instances_csv", "prf_from_errors",
           "read_span_file", "write_span_file",
           "spans_to_tags", "resolve_weights", "PRESETS", "WEIGHT_NAMES", "ERROR_TYPES",
           "COUNT_NAMES", "PUNCT_TAGS", "Prepared", "Events", "prepare", "find_errors"]


# The package's descriptor for nerlens (``nerspan.family.Family``).
FAMILY = describe(score, FairevalOptions)

# 0.1's alias, gone in 0.2: an error naming its new spelling.
__getattr__ = moved_names(__name__, {"prf": "faireval.prf_from_errors"})
