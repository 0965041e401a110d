"""Scored predictions read from files: a JSON Lines span file whose spans carry a
``score`` (one line per sentence of GOLD) or generated output with a ``score`` per entity,
which of the two ``nerspan.reading.systems.file_form`` says. ``sweep`` and ``score
--threshold`` call ``nerspan.sweep`` / ``nerspan.score`` on each file as the API does
(``ScoredFile``); ``report --scored`` and ``suspects --scored`` add them as scored
mentions (``scored_mentions``). An error in a file names it, its line and its side.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field

import nerspan
from nerspan import read_span_jsonl
from nerspan.flat import GOLD
from nerspan.errors import counted
from nerspan.options import check_confidence
from nerspan.reading import systems as library
from nerspan.reading.systems import (answers_located, check_jsonl, file_form, named_files,
                                     span_errors_located)
from nerspan.scored import check_fits
from nerspan.threshold_form import scored_of

from .common import UsageError, check_file, prediction_paths
from .flags import number_flag
from .inputs import load_systems, read_gold, system_options
from .options import given, inputs_of


@dataclass(frozen=True)
class ScoredFile:
    """One system's scored predictions and the gold they answer, as the library reads
    them: ``references`` (gold spans or ``Corpus``), ``predictions`` (scored span lists
    or generated responses), ``words`` (input options ``tokens``/``texts``), ``located``
    (naming a file and line in an error), ``read`` (the file as read)."""

    name: str
    references: object
    predictions: list
    words: dict = field(default_factory=dict)
    located: object = field(default_factory=nullcontext)
    read: dict = field(default_factory=dict)

    def call(self, function, args, **options):
        """``nerspan.score`` or ``nerspan.sweep`` on this file with the flags' options
        (``options``' ``inputs`` keys added)."""
        fixed = options.pop("inputs", {})
        with self.located:
            return function(self.references, self.predictions, scheme=args.scheme,
                            mode=args.mode, inputs=inputs_of(args, **self.words, **fixed),
                            **options)


def scored_files(args, gold_path: str, paths: list) -> list[ScoredFile]:
    """Each scored file of ``paths`` against GOLD: a column file or a saved split, or with
    --jsonl a span file (each file then a scored span file)."""
    paths = named_files(paths)
    if not given(args, "jsonl"):
        corpus = library.read_gold(check_file(gold_path),
                                   **system_options(args, outside_scheme_is_error=True))
        return [scored_file(args, corpus, name, path, gold_path)
                for name, path in paths.items()]
    check_jsonl(inputs_of(args), given(args, "generated"))
    gold = read_span_jsonl(check_file(gold_path), args.encoding)
    words = {"tokens": gold["tokens"], "texts": gold["texts"]}
    return [ScoredFile(name, gold["spans"], pred["spans"], words,
                       span_errors_located(gold_path, gold, path, pred))
            for name, path, pred in library.span_files(gold_path, gold, paths, args.encoding)]


def scored_file(args, corpus, name: str, path: str, gold_name: str) -> ScoredFile:
    """One scored file against the gold ``corpus`` (``gold_name`` in errors)."""
    if file_form(path, args.encoding) == "generated":
        answered, read = library.read_answers(corpus, path, args.encoding)
        words = {"tokens": read["tokens"]} if answered.tokens is None else {}
        return ScoredFile(name, answered, read["responses"], words,
                          answers_located(f"generated {name!r} ({path})", answered, read),
                          read)
    command = "score" if args.command == "sweep" else args.command   # one that reads tags
    read = library.read_scored_spans(path, corpus, args.encoding, gold_name=gold_name,
                                     tag_file=f"score its tags (nerlens {command} "
                                     f"{gold_name} {path})")
    return ScoredFile(name, corpus, read["spans"], {},
                      span_errors_located(gold_name, {"lines": None}, path, read))


def scores_at_threshold(args, demo: tuple | None = None) -> dict:
    """``nerlens score --threshold T``: name -> ``nerspan.score``'s result dict (with
    --beta) of each PRED and --generated file at T, as the API gives it (``inputs=
    {"threshold": T}``); ``demo``: the demo's GOLD and scored PRED instead."""
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
    return {scored.name: scored.call(nerspan.score, args).to_dict(beta=args.beta)
            for scored in scored_files(args, gold, [*preds, *generated])}


# --threshold: a number in [0, 1], refused as the flag is read
confidence = number_flag(float, "expected a confidence, a number in [0, 1], not {text!r}",
                         lambda value: 0 <= value <= 1,
                         check=lambda value: check_confidence(value, "--threshold"))


def add_scored_argument(parser, effect: str) -> None:
    """--scored FILE.jsonl (repeatable): a system with a confidence per mention; ``effect``:
    what the command does with it."""
    parser.add_argument("--scored", action="append", default=None, metavar="FILE.jsonl",
                        help="a system with a confidence per mention: a JSON Lines span file, "
                             "one line per sentence of GOLD, each span with a \"score\"; or "
                             "generated output, one \"response\" per sentence of GOLD, each "
                             "entity with a \"score\" (named after its file; repeatable); "
                             + effect)


def load_with_scored(args, outside_scheme_is_error: bool = False) -> tuple:
    """``(corpus, systems, scored)``: GOLD with the PRED and --generated systems
    (``load_systems``; GOLD alone with only --scored files) and name -> the scored
    mentions of each --scored file, named apart from the PRED files' systems."""
    if args.scored and not prediction_paths(args) and not given(args, "generated"):
        if given(args, "jsonl"):
            raise UsageError("--scored reads GOLD as a column file: leave --jsonl out")
        corpus, systems = read_gold(args, args.gold or "", outside_scheme_is_error=True), []
    else:
        corpus, systems = load_systems(args, outside_scheme_is_error)
    named = list(named_files(prediction_paths(args) + list(args.scored or [])).items())
    files = dict(named[len(prediction_paths(args)):])
    for name, path in files.items():
        if name in systems:   # a --generated file of the same name
            raise UsageError(f"--scored {path}: {name!r} names a system already: give the "
                             "file another name")
    return corpus, systems, scored_mentions(args, corpus, files)


def scored_mentions(args, corpus, files: dict) -> dict:
    """Name -> the ``ScoredMentions`` of each --scored file (name -> path) over GOLD's
    sentences (``corpus``), all of which generated output must answer, in order."""
    scored = {}
    for name, path in files.items():
        one = scored_file(args, corpus, name, path, args.gold)
        # generated output's "sentence" indices (its line count is checked as read)
        if one.read.get("sentences") not in (None, list(range(corpus.n_sentences))):
            raise UsageError(
                f"{path} answers {counted(one.references.n_sentences, 'sentence')} of "
                f"{args.gold}'s {corpus.n_sentences} (\"sentence\" indices): nerlens "
                f"{args.command} needs every sentence answered, in order; sweep the ones "
                f"answered with nerlens sweep {args.gold} --generated {path}")
        with one.located:   # generated output or span lists, as the API reads them
            scored[name] = scored_of(one.predictions, corpus.select([GOLD]), inputs_of(args))
            if "responses" not in one.read:   # generated output is grounded in its sentences
                check_fits(scored[name], corpus, "predictions")
    return scored
