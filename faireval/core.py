"""faireval's options and the reading of its inputs: what ``score`` and ``partial`` share.

``FairevalOptions`` is the record of faireval's own options; ``read_sides`` reads both
sides into a ``Prepared`` (``inputs.prepare``) as ``score`` does; ``scored`` finds the
events and builds the result; ``result_options`` is the ``options`` a result reports
(what shaped its numbers).
"""
from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass
from pathlib import Path

from nerspan import GOLD, PRED, Corpus, Evaluation, InputTypeError
from nerspan.errors import load_json, shown
from nerspan.evaluation import resolve
from nerspan.layers import paired_layers
from nerspan.options import PAIRINGS
from nerspan.records import Record, comma_list, option, switch

from .inputs import Prepared, prepare
from .matching import find_errors
from .result import FOCUS, FairEvalResult, build_result
from .semeval import (MIN_OVERLAP, SCHEMAS, check_min_overlap, check_schemas,
                      semeval_instances, semeval_scores)
from .weights import WEIGHT_NAMES, resolve_weights

# ``score``'s and ``partial``'s keywords gone since 0.2, with what to write instead
MOVED = {"matching": "pairing={value!r} (how the SemEval schemas pair spans); generated "
                     "output's matching is an input option, inputs={{'matching': ...}}"}

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


def read_weights(text: str | None):
    """``weights`` as a command line or a file gives it: a preset's name, a JSON weight
    table, or a JSON file holding one (a key given twice refused: JSON keeps the last).
    ``HEADLINE_WEIGHTS`` are kept for the field's check to refuse, naming what to ask."""
    if text is None or text in WEIGHT_NAMES + HEADLINE_WEIGHTS:
        return text
    table = Path(text).read_text(encoding="utf-8") if os.path.exists(text) else text
    try:
        return load_json(table)
    except json.JSONDecodeError:
        raise ValueError(f"weights must be a preset ({', '.join(WEIGHT_NAMES)}), a JSON "
                         f"weight table or a JSON file, not {text!r}") from None


@dataclass(frozen=True)
class FairevalOptions(Record):
    """faireval's own options (``score``; the command line's flags and the evaluate
    module's features are made of these fields)."""

    weights: object = option(
        None, "a weight table for the weight_table_* scores: \"weighted\" (the paper's "
        "preset: BEs = 0.5 TP + 0.5 FN, BEl = 0.5 TP + 0.5 FP, BEo = 0.5 TP + 0.25 FP + "
        "0.25 FN) or {error type: (TP, FP, FN) shares}; by default none.", _weights,
        parse=read_weights)
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
    keep_duplicates: bool = switch(
        False, "count a mention listed twice on one side of span lists as often as it is "
        "listed, as the reference code does. Off: once, the copies counted in repairs "
        "(duplicates), as nerspan reads span lists.")
    schemas: object = option(
        None, "\"semeval\" adds the SemEval-2013 Task 9.1 schemas as nervaluate counts them "
        "(strict, exact, partial, ent_type; or a list of some) under semeval.",
        lambda name, value: check_schemas(value) or None, parse=comma_list)
    min_overlap: float = option(
        MIN_OVERLAP, "with SemEval schemas: the least overlap of a prediction that may take a gold "
        "span, a fraction of its tokens in (0, 1] (nervaluate's min_overlap_percentage / "
        "100).", lambda name, value: check_min_overlap(value), parse=float)
    pairing: str = option(
        "greedy", "with SemEval schemas: how predictions take gold spans, \"greedy\" (nervaluate's, "
        "in list order) or \"optimal\" (a maximum-weight pairing that does not depend on "
        "the order of the input).", choices=PAIRINGS)
    return_instances: bool = switch(
        False, "with SemEval schemas: add semeval_instances, per schema every span with its "
        "outcome.")

    describes = "faireval"

    def __post_init__(self):
        super().__post_init__()
        # they shape the SemEval numbers only: without schemas they would change nothing
        named = [name for name in ("min_overlap", "pairing", "return_instances")
                 if name in self.given and getattr(self, name) != _DEFAULTS[name]]
        if named and not self.schemas:
            raise ValueError(f"{', '.join(map(self.spelled, named))} appl"
                             f"{'ies' if len(named) == 1 else 'y'} to the SemEval-2013 "
                             "schemas: give schemas='semeval' (--schemas semeval; or some of "
                             f"{', '.join(SCHEMAS)}) as well")


_DEFAULTS = {"min_overlap": MIN_OVERLAP, "pairing": "greedy", "return_instances": False}


def headline_weights_error(weights: str) -> str:
    """What a ``weights`` value of ``HEADLINE_WEIGHTS`` is told (the CLI says it too)."""
    return (f"weights={weights!r} chose the headline scores until nerlens 0.2: precision, "
            "recall and f1 are the exact-match scores in every result, the fair ones "
            "fair_precision, fair_recall and fair_f1; leave weights out (it adds "
            "weight_table_* scores: 'weighted' or a table)")


def two_columns(references, predictions, scheme, mode, train, inputs):
    """``(references, predictions, context, system, scheme, mode)`` for ``prepare``: an
    evaluation (or a Corpus with other column names) becomes a Corpus with the columns
    ``gold`` and ``pred`` and their later layers (``nerspan.layers``: every layer's
    mentions are scored, as span lists that nest are); ``system`` names the predictions'
    column in the evaluation's own corpus (its spans decoded once there), else None."""
    context = system = None
    gold_column, pred_column = inputs.gold_column, inputs.pred_column
    if isinstance(references, Evaluation):
        context, corpus, gold_column, pred_column = resolve(
            references, predictions, scheme=scheme, mode=mode, train=train, inputs=inputs,
            layered=True, tables=True)
        scheme, mode, predictions = context.scheme, context.mode, None
        references = corpus
        system = pred_column if corpus is context.corpus else None
    scheme, mode = scheme or "IOB2", mode or "lenient"
    if isinstance(references, Corpus) and predictions is None \
            and (gold_column, pred_column) != (GOLD, PRED):
        references = paired_layers(references, gold_column, pred_column)
    return references, predictions, context, system, scheme, mode


def read_sides(references, predictions, options: FairevalOptions, *, train, scheme, mode,
               inputs, pos, shard: bool = False) -> tuple[Prepared, str, str]:
    """``(prepared, scheme, mode)``: both sides read as ``score`` reads them, with the
    options' punctuation and label filter; ``shard``: a shard's, every repair kept and
    no label filter (``partials`` applies it, ``inputs.label_filtered``)."""
    references, predictions, context, system, scheme, mode = two_columns(
        references, predictions, scheme, mode, train, inputs)
    if context is not None:
        inputs = inputs.replace(label_list=None)  # the evaluation's corpus holds tags
        if isinstance(pos, str):
            pos = [context.corpus.tags(pos, i) for i in range(context.corpus.n_sentences)]
    prepared = prepare(references, predictions, scheme=scheme, mode=mode, pos=pos,
                       ignore_punct=options.ignore_punct,
                       labels=None if shard else options.labels,
                       exclude=() if shard else options.exclude, inputs=inputs,
                       context=context, system=system, shard=shard,
                       keep_duplicates=options.keep_duplicates)
    return prepared, scheme, mode


def scored(prepared: Prepared, options: FairevalOptions, scheme: str, mode: str
           ) -> FairEvalResult:
    """The result of ``prepared`` (its events found here), before the check of a weight
    table's sums (``score`` checks them, a merged partial on the whole's counts)."""
    events = find_errors(prepared, options.reference_iteration)
    weight_table = None if options.weights is None else resolve_weights(options.weights)
    schemas = check_schemas(options.schemas)
    pairing = dict(min_overlap=options.min_overlap, pairing=options.pairing)
    result = build_result(prepared, events, options.focus, options.weights, weight_table,
                          resolve_weights("fair"), options.confusion_tp,
                          options.return_pairs,
                          semeval=semeval_scores(prepared, schemas, **pairing) if schemas
                          else (None, None),
                          options={**result_options(options, scheme, mode),
                                   **prepared.read_options})
    if options.return_instances and schemas:
        result = dataclasses.replace(result, instances=semeval_instances(
            prepared, schemas, **pairing))
    return result


def result_options(options: FairevalOptions, scheme: str, mode: str) -> dict:
    """What shaped a result's numbers, as its ``options`` reports them."""
    weight_table = None if options.weights is None else resolve_weights(options.weights)
    shown = {"weights": None if weight_table is None else
             options.weights if isinstance(options.weights, str) else
             {kind: list(shares) for kind, shares in weight_table.items()},
             "focus": options.focus, "labels": options.labels,
             "exclude": None if options.exclude is None else list(options.exclude),
             "ignore_punct": options.ignore_punct, "confusion_tp": options.confusion_tp,
             "reference_iteration": options.reference_iteration,
             "keep_duplicates": options.keep_duplicates, "scheme": scheme,
             "mode": mode, "schemas": list(check_schemas(options.schemas))}
    if shown["schemas"]:   # they shape the SemEval numbers only
        shown.update(min_overlap=options.min_overlap, pairing=options.pairing)
    return shown


__all__ = ["FairevalOptions", "HEADLINE_WEIGHTS", "MOVED", "headline_weights_error",
           "read_sides", "read_weights", "result_options", "scored", "two_columns"]
