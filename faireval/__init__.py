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
import warnings
from typing import Sequence

from nerspan import GOLD, PRED, Corpus, GoldContext, NerspanError
from nerspan.confusion import confusion_dict, context_confusion
from nerspan.gold_context import resolve
from nerspan.fbeta import fbeta_option
from nerspan.input_options import OPTION_NAMES, input_options
from nerspan.options import MATCHING, check_bool

from .family import describe
from .inputs import PUNCT_TAGS, Prepared, prepare
from .matching import Events, find_errors
from .result import FOCUS, FairEvalResult, build_result, prf, prf_from_errors
from .semeval import (MIN_OVERLAP, SCHEMAS, check_matching, check_min_overlap, check_schemas,
                      semeval_instances, semeval_scores, write_instances_csv)
from .spanfile import read_span_file, spans_to_tags, write_span_file
from .weights import (COUNT_NAMES, ERROR_TYPES, PRESETS, WEIGHT_NAMES, check_sums,
                      resolve_weights)

__version__ = "0.1.0"


# What ``weights`` accepted when it chose the headline scores: the headline is now
# always the exact-match scores, so these add nothing and warn (one release).
HEADLINE_WEIGHTS = ("traditional", "fair")
# ``matching`` here is how the SemEval-2013 schemas pair spans (greedy, optimal): FairEval
# grounds generated predictions always (their string matching gives no spans to classify)
INPUT_OPTIONS = tuple(name for name in OPTION_NAMES if name != "matching")
GROUNDED = MATCHING[0]


@fbeta_option
@input_options(*INPUT_OPTIONS)
def score(references, predictions=None, *, weights=None, focus: str = "target",
          labels: Sequence[str] | None = None, exclude: Sequence[str] = (),
          ignore_punct: bool = False, pos=None, confusion_tp: bool = False,
          return_pairs: bool = False, reference_iteration: bool = False,
          scheme: str | None = None, mode: str | None = None, schemas=None,
          min_overlap: float = MIN_OVERLAP, matching: str = "greedy",
          return_instances: bool = False, train=None,
          train_tokens=None, train_tags=None, train_options: dict | None = None,
          confusion: bool = False, inputs) -> FairEvalResult:
    """FairEval error counts and traditional, fair and (if asked) weight-table scores.

    Args:
        references: the target annotation: a ``nerspan.Corpus`` (columns
            ``gold_column`` and ``pred_column``; then ``predictions`` may be omitted), a
            ``nerspan.GoldContext`` (gold decoded once for any number of systems), a
            ``datasets`` split, tag lists per sentence (any
            scheme of the core; multi-level tags ``B-X|I-Y``, outer level first), or span
            lists per sentence ``[(label, start, end), ...]``, 0-based, ``end`` exclusive,
            possibly nested or overlapping (``read_span_file`` reads FairEval's files).
        predictions: the system annotation, in the same form.
        weights: a weight table for the ``weight_table_*`` scores: ``"weighted"`` (the
            paper's preset: BEs = 0.5 TP + 0.5 FN, BEl = 0.5 TP + 0.5 FP, BEo = 0.5 TP +
            0.25 FP + 0.25 FN) or a table ``{error type: (TP, FP, FN) shares}``; None
            (default) adds none. The headline ``precision``/``recall``/``f1`` are always
            the exact-match scores and ``fair_*`` the fair ones; ``"fair"`` and
            ``"traditional"``, which once chose the headline, are deprecated and add
            nothing.
        focus: ``"target"`` counts LE and LBE under the target label per label,
            ``"system"`` under the system label. Overall counts do not change.
        labels: evaluate only these labels (in this order); ``exclude``: drop these.
            Spans of other labels are removed before matching.
        ignore_punct: remove punctuation tokens (by ``pos``, see ``PUNCT_TAGS``) from
            every span before matching; spans shrink past them and vanish when empty.
        pos: POS tags per sentence (a list of lists, or a column name of the Corpus).
        confusion_tp: also put the TPs on the confusion matrix's diagonal.
        return_pairs: add ``pairs``: per sentence, every event with its spans.
        reference_iteration: reproduce the reference code's numbers: it removes each
            matched span from the list it is iterating over, so within a BE/LBE pass the
            span right after a match is skipped (it may still match in a later pass).
            Off by default: the paper's algorithm, which gives the published results.
        scheme, mode: how tags are decoded (see ``nerspan.decode``; default IOB2,
            lenient).
        schemas: ``"semeval"`` adds the SemEval-2013 Task 9.1 schemas as nervaluate
            counts them (strict, exact, partial, ent_type; or a list of some of them)
            under ``semeval`` in ``to_dict()``: the same spans, another accounting
            (``faireval.semeval``).
        min_overlap: with ``schemas``: the least overlap of a prediction that may take a
            gold span, a fraction of the gold span's tokens in (0, 1] (nervaluate's
            ``min_overlap_percentage`` / 100, equal numbers; default 0.01 as nervaluate).
        matching: with ``schemas``: ``"greedy"`` (nervaluate's, predictions in list
            order) or ``"optimal"`` (a maximum-weight pairing, correct pairs first, that
            does not depend on the order of the input). ``"grounded"``, generated
            output's value in the other families, is what faireval always does with
            generated output (the pairing stays greedy); ``"strings"`` is
            ``nerspan.score``'s alone.
        return_instances: with ``schemas``: add ``semeval_instances``, per schema every
            predicted and gold span with its outcome (correct, incorrect, partial,
            spurious, missed) and the gold span a prediction took
            (``faireval.semeval.semeval_instances``; ``write_instances_csv`` writes them).
        train, train_tokens, train_tags, train_options: accepted and ignored (faireval
            needs no training data), so that every family can be called the same way.
        confusion: add the entity confusion matrix, ``confusion[gold type][predicted
            type]`` over mentions with identical spans ("O": missed, spurious), and
            ``boundary_errors`` per type apart, as ``nerspan.score(confusion=True)``
            gives them (``nerspan.confusion``): of the spans decoded here (tags), before
            ``labels``, ``exclude`` and ``ignore_punct`` filter them; span lists and
            multi-level tags are read for it as ``nerspan.score`` reads them (flat
            spans). FairEval's own matrix of errors is ``error_confusion``
            (``confusion_tp``), whatever this option.

    Raises ``nerspan.NerspanError`` (a ``ValueError``) naming the sentence for bad spans
    or tags, and ``ValueError`` for a bad option.
    """
    _check_flags(ignore_punct=ignore_punct, confusion_tp=confusion_tp,
                 return_pairs=return_pairs, reference_iteration=reference_iteration,
                 return_instances=return_instances, confusion=confusion)
    # "grounded" is generated output's matching (nerspan.InputOptions), which faireval
    # always does: accepted as every family accepts it, the SemEval pairing its default
    if matching == GROUNDED:
        matching = "greedy"
    min_overlap, matching = check_min_overlap(min_overlap), check_matching(matching)
    _check_semeval_options(schemas, min_overlap=min_overlap != MIN_OVERLAP,
                           matching=matching != "greedy", return_instances=return_instances)
    if focus not in FOCUS:
        raise ValueError(f"focus must be 'target' or 'system', not {focus!r}")
    weight_table = _weight_table(weights)
    schemas = check_schemas(schemas)
    given = (references, predictions, inputs)   # as given: the entity matrix may read them
    references, predictions, context, system, scheme, mode = _two_columns(
        references, predictions, scheme, mode, train, inputs)
    if context is not None:
        inputs = inputs.replace(label_list=None)  # the context's corpus holds tags
        if isinstance(pos, str):
            pos = [context.corpus.tags(pos, i) for i in range(context.corpus.n_sentences)]
    prepared = prepare(references, predictions, scheme=scheme, mode=mode, pos=pos,
                       ignore_punct=ignore_punct, labels=labels, exclude=exclude,
                       inputs=inputs, context=context, system=system)
    events = find_errors(prepared, reference_iteration)
    options = {"weights": None if weight_table is None else
               weights if isinstance(weights, str) else
               {kind: list(shares) for kind, shares in weight_table.items()},
               "focus": focus, "labels": None if labels is None else list(labels),
               "exclude": None if exclude is None else list(exclude),
               "ignore_punct": ignore_punct, "confusion_tp": confusion_tp,
               "reference_iteration": reference_iteration, "scheme": scheme,
               "mode": mode, "schemas": list(schemas)}
    if schemas:   # they shape the SemEval numbers only
        options.update(min_overlap=min_overlap, matching=matching)
    matched = dict(min_overlap=min_overlap, matching=matching)
    result = build_result(prepared, events, focus, weights, weight_table,
                          resolve_weights("fair"), confusion_tp, return_pairs,
                          semeval=semeval_scores(prepared, schemas, **matched) if schemas
                          else (None, None), options=options)
    if return_instances and schemas:
        result = dataclasses.replace(result, instances=semeval_instances(
            prepared, schemas, **matched))
    if weight_table is not None:   # its sums over these counts, never inf or NaN
        check_sums(weight_table, result.kind_counts)
    if confusion:
        result = dataclasses.replace(result, entity_confusion=_entity_confusion(
            prepared, *given, scheme, mode))
    return result


def _entity_confusion(prepared: Prepared, references, predictions, inputs, scheme,
                      mode) -> dict:
    """The entity confusion matrix (``confusion=True``): of the single-level spans
    ``prepare`` decoded; else (span lists, which may nest; multi-level tags) of both
    sides as given, read as ``nerspan.score`` reads them."""
    if prepared.decoded is not None:
        return confusion_dict(*prepared.decoded)
    try:
        context, corpus, _, pred_column = resolve(references, predictions, scheme=scheme,
                                                  mode=mode, inputs=inputs)
    except NerspanError as error:   # nested spans, overlaps="keep": scored, but no matrix
        raise type(error)(
            f"{error.problem} (confusion=True counts flat mentions, read as nerspan.score "
            "reads them: leave confusion out to score these spans with faireval)",
            error.sentence, error.path, error.line, side=error.side,
            position=error.position) from None
    return context_confusion(context, pred_column, corpus)


def headline_weights_warning(weights: str) -> str:
    """What a ``weights`` value of ``HEADLINE_WEIGHTS`` is told (the CLI prints it too)."""
    return (f"weights={weights!r} is deprecated and adds nothing: precision, recall and f1 "
            "are the exact-match scores in every result, the fair ones fair_precision, "
            f"fair_recall and fair_f1 (weights={weights!r} goes in the next release)")


def _weight_table(weights) -> dict | None:
    """The table of the ``weight_table_*`` scores, None when none was asked for."""
    if weights is None:
        return None
    if isinstance(weights, str) and weights in HEADLINE_WEIGHTS:
        warnings.warn(headline_weights_warning(weights), DeprecationWarning, stacklevel=3)
        return None
    return resolve_weights(weights)


def _check_semeval_options(schemas, **given) -> None:
    """The SemEval options shape the schemas' numbers only: given without ``schemas``
    they would change nothing, silently, so they are refused."""
    named = [name for name, set_ in given.items() if set_]
    if named and not schemas:
        raise ValueError(f"{', '.join(named)} appl{'ies' if len(named) == 1 else 'y'} to "
                         "the SemEval-2013 schemas: give schemas='semeval' (or some of "
                         f"{', '.join(SCHEMAS)}) as well")


def _check_flags(**flags) -> None:
    for name, flag in flags.items():
        check_bool(name, flag)


def _two_columns(references, predictions, scheme, mode, train, inputs):
    """``(references, predictions, context, system, scheme, mode)`` for ``prepare``: a
    gold context (or a Corpus with other column names) becomes a Corpus with the columns
    ``gold`` and ``pred``; ``system`` names the predictions' column in the context's own
    corpus (its spans decoded once there), else None."""
    context = system = None
    gold_column, pred_column = inputs.gold_column, inputs.pred_column
    if isinstance(references, GoldContext):
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


__all__ = ["score", "FAMILY", "FairEvalResult", "HEADLINE_WEIGHTS", "headline_weights_warning",
           "SCHEMAS", "semeval_scores", "semeval_instances", "write_instances_csv",
           "prf_from_errors", "prf",
           "read_span_file", "write_span_file",
           "spans_to_tags", "resolve_weights", "PRESETS", "WEIGHT_NAMES", "ERROR_TYPES",
           "COUNT_NAMES", "PUNCT_TAGS", "Prepared", "Events", "prepare", "find_errors"]


# The package's descriptor for nerlens (``nerspan.family.Family``).
FAMILY = describe(score)
