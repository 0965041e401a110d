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
``partial`` gives the same result from shards' partial statistics that merge
(``faireval.partials``).
"""
from __future__ import annotations

from typing import Sequence

from nerspan import InputOptions
from nerspan.migration import migrated, moved_names
from nerspan.threshold_form import stating_threshold

from .core import (HEADLINE_WEIGHTS, MOVED, FairevalOptions, headline_weights_error,
                   read_sides, read_weights, scored)
from .family import describe
from .files import Files, ReadOptions, read_files
from .inputs import PUNCT_TAGS, Prepared, prepare
from .matching import Events, find_errors
from .partials import FairevalPartial, partial
from .result import FairEvalResult, prf_from_errors
from .semeval import (MIN_OVERLAP, SCHEMAS, semeval_instances, semeval_scores,
                      write_instances_csv, write_systems_csv)
from .spanfile import read_span_file, read_span_files, spans_to_tags, write_span_file
from .weights import (COUNT_NAMES, ERROR_TYPES, PRESETS, WEIGHT_NAMES, check_sums,
                      resolve_weights)

__version__ = "0.1.0"


@migrated(**MOVED)
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
            or overlapping (``read_span_file`` reads FairEval's files), and mentions of
            several fragments (``{"label", "fragments": [[s, e], ...]}``, BigBio's
            ``{"type", "offsets"}`` in characters): a mention is its type and fragment
            set (``faireval.fragments``); a mention listed twice on a side counts once
            (``repairs``' ``duplicates``). Gold with layers (a Corpus with the columns
            ``gold``, ``gold@layer2``, ...: the input option ``layers``,
            ``nerspan.layers``), and predictions with layers, are the union of their
            layers' mentions, scored as those mentions given as span lists that nest
            (a mention in two layers counts once; ``options["layers"]`` says how many
            layers each side had).
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
            field's doc says what it does), put over it. ``keep_duplicates`` (count every
            copy of a mention listed twice, as FairEval's script and nervaluate do) is
            given in ``options`` only (``--keep-duplicates``; the module's keyword).

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
    prepared, scheme, mode = read_sides(references, predictions, options, train=train,
                                        scheme=scheme, mode=mode, inputs=inputs, pos=pos)
    result = scored(prepared, options, scheme, mode)
    if result.weight_table is not None:   # its sums over these counts, never inf or NaN
        check_sums(result.weight_table, result.kind_counts)
    return stating_threshold(result, predictions, inputs)


__all__ = ["score", "FAMILY", "FairevalOptions", "FairEvalResult", "HEADLINE_WEIGHTS",
           "headline_weights_error", "SCHEMAS", "semeval_scores", "semeval_instances",
           "write_instances_csv", "write_systems_csv", "prf_from_errors", "read_span_file",
           "read_span_files", "write_span_file", "spans_to_tags", "resolve_weights",
           "read_weights", "PRESETS", "WEIGHT_NAMES", "ERROR_TYPES", "COUNT_NAMES",
           "PUNCT_TAGS", "Prepared", "Events", "prepare", "find_errors", "partial",
           "FairevalPartial", "read_files", "ReadOptions", "Files"]


# The package's descriptor for nerlens (``nerspan.family.Family``).
FAMILY = describe(score, FairevalOptions, partial)

# 0.1's alias, gone in 0.2: an error naming its new spelling.
__getattr__ = moved_names(__name__, {"prf": "faireval.prf_from_errors"})
