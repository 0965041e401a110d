"""Scored predictions read from files, for the commands that read confidences
(``nerlens sweep``, ``nerlens score --threshold``): each file as the library takes it, so
that the command calls ``nerspan.sweep`` or ``nerspan.score`` exactly as the API does.

PRED is a JSON Lines span file whose spans carry a ``score`` (one line per sentence of
GOLD, as ``nerlens/data/wnut17/crf_scored.jsonl``), against GOLD as a column file or, with
--jsonl, a span file; ``--generated FILE.jsonl`` is generated output with a ``score`` per
entity (``nerspan.generative.scored_output``), grounded in GOLD's sentences. An error in a
file names it, its line and its side.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field

import nerspan
from nerspan import read_span_jsonl
from nerspan.options import check_confidence
from nerspan.reading.systems import (answers_located, named_files, read_answers, read_gold,
                                     read_scored_spans, span_errors_located, span_files)

from .common import UsageError, check_file, prediction_paths
from .inputs import system_options
from .options import given, inputs_of


@dataclass(frozen=True)
class ScoredFile:
    """One system's scored predictions and the gold they answer, as the library reads
    them: ``references`` (gold spans, or a gold ``Corpus``), ``predictions`` (scored span
    lists, or generated responses), ``words`` (the input options ``tokens``/``texts``
    they are read on) and ``located`` (a context naming a file and line in an error)."""

    name: str
    references: object
    predictions: list
    words: dict = field(default_factory=dict)
    located: object = field(default_factory=nullcontext)

    def call(self, function, args, **options):
        """``function(references, predictions, scheme=, mode=, inputs=, **options)``:
        ``nerspan.score`` or ``nerspan.sweep`` on this file, the input options those of
        the flags (``options``' ``inputs`` keys added)."""
        fixed = options.pop("inputs", {})
        with self.located:
            return function(self.references, self.predictions, scheme=args.scheme,
                            mode=args.mode, inputs=inputs_of(args, **self.words, **fixed),
                            **options)


def scored_span_files(args, gold_path: str, pred_paths: list) -> list[ScoredFile]:
    """Each PRED span file (scores on its spans) against GOLD: a column file, or with
    --jsonl a span file."""
    if given(args, "jsonl"):
        gold = read_span_jsonl(check_file(gold_path), args.encoding)
        words = {"tokens": gold["tokens"], "texts": gold["texts"]}
        paths = named_files([check_file(path) for path in pred_paths])
        return [ScoredFile(name, gold["spans"], pred["spans"], words,
                           span_errors_located(gold_path, gold, path, pred))
                for name, path, pred in span_files(gold_path, gold, paths, args.encoding)]
    references = read_gold(check_file(gold_path), **_gold_reading(args))
    files = []
    for name, path in named_files([check_file(path) for path in pred_paths]).items():
        pred = read_scored_spans(path, references, args.encoding, gold_name=gold_path,
                                 tag_file=f"score its tags (nerlens score {gold_path} {path})")
        files.append(ScoredFile(name, references, pred["spans"], {},
                                span_errors_located(gold_path, {"lines": None}, path, pred)))
    return files


def scored_generated_files(args, gold_path: str, paths: list) -> list[ScoredFile]:
    """Each --generated file (a score per entity) against the GOLD sentences it answers
    (GOLD a column file or a saved split)."""
    if given(args, "jsonl"):
        raise UsageError("--generated reads GOLD as a column file or a saved split, not "
                         "with --jsonl span files: leave --jsonl out")
    corpus = read_gold(check_file(gold_path), **_gold_reading(args))
    files = []
    for name, path in named_files([check_file(path) for path in paths]).items():
        answered, read = read_answers(corpus, path, args.encoding)
        words = {"tokens": read["tokens"]} if answered.tokens is None else {}
        files.append(ScoredFile(name, answered, read["responses"], words,
                                answers_located(f"generated {name!r} ({path})", answered,
                                                read)))
    return files


def _gold_reading(args) -> dict:
    """How GOLD is read (``nerspan.reading.systems.read_gold``): as every command reads
    it, a prefix outside the scheme an error (the spans are scored as IOB2)."""
    return system_options(args, outside_scheme_is_error=True)


def scores_at_threshold(args, demo: tuple | None = None) -> dict:
    """``nerlens score --threshold T``: name -> the result dict of ``nerspan.score`` of
    each PRED span file and --generated file at the threshold, as the API gives it for the
    same files (``inputs={"threshold": T}``, which names the threshold in its options;
    ``--beta``'s F-beta added); ``demo``: the demo's GOLD and scored PRED instead of the
    files."""
    refused = [flag for flag, is_given in (("--error-counts", args.error_counts),
                                           ("--confusion", args.confusion),
                                           ("--matching strings", args.matching == "strings"))
               if is_given]
    if refused:
        raise UsageError(f"{' and '.join(refused)} do{'es' if len(refused) == 1 else ''} not "
                         "apply to scored predictions kept at --threshold: leave "
                         f"{'it' if len(refused) == 1 else 'them'} out")
    gold, preds = demo or (args.gold, prediction_paths(args))
    generated = given(args, "generated") or []
    if not gold or not (preds or generated):
        raise UsageError("--threshold reads scored predictions: give GOLD and PRED span "
                         "files whose spans carry a \"score\" (nerlens score GOLD "
                         "PRED.jsonl --threshold 0.5), or --generated files whose entities "
                         "carry one (nerlens score GOLD --generated FILE.jsonl --threshold "
                         "0.5)")
    files = (scored_span_files(args, gold, preds) if preds else []) + \
        (scored_generated_files(args, gold, generated) if generated else [])
    return {scored.name: scored.call(nerspan.score, args).to_dict(beta=args.beta)
            for scored in files}


def confidence(text: str) -> float:
    """--threshold's text: a number in [0, 1], refused as the flag is read."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 <= value <= 1:
        raise ValueError(f"expected a confidence, a number in [0, 1], not {text!r}")
    return check_confidence(value, "--threshold")
