"""Scored predictions read from files: a JSON Lines span file whose spans carry a
``score`` (one line per sentence of GOLD, as ``nerlens/data/wnut17/crf_scored.jsonl``) or
generated output with a ``score`` per entity (``nerspan.generative.scored_output``),
grounded in GOLD's sentences; which of the two a file is, ``nerspan.reading.systems``'
``file_form`` says. ``nerlens sweep`` and ``nerlens score --threshold`` call
``nerspan.sweep`` / ``nerspan.score`` on each file exactly as the API does
(``ScoredFile``); ``nerlens report --scored`` and ``suspects --scored`` add them as
scored mentions (``scored_mentions``). An error in a file names it, its line and its side.
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
from nerspan.reading.systems import answers_located, file_form, named_files, span_errors_located
from nerspan.scored import check_fits
from nerspan.threshold_form import scored_of

from .common import UsageError, check_file, prediction_paths
from .inputs import load_systems, read_gold, system_options
from .options import given, inputs_of


@dataclass(frozen=True)
class ScoredFile:
    """One system's scored predictions and the gold they answer, as the library reads
    them: ``references`` (gold spans, or a gold ``Corpus``), ``predictions`` (scored span
    lists, or generated responses), ``words`` (the input options ``tokens``/``texts``
    they are read on), ``located`` (a context naming a file and line in an error) and
    ``read``, the file as read (generated output: ``"responses"``, ``"sentences"``)."""

    name: str
    references: object
    predictions: list
    words: dict = field(default_factory=dict)
    located: object = field(default_factory=nullcontext)
    read: dict = field(default_factory=dict)

    def call(self, function, args, **options):
        """``function(references, predictions, scheme=, mode=, inputs=, **options)``:
        ``nerspan.score`` or ``nerspan.sweep`` on this file, the input options those of
        the flags (``options``' ``inputs`` keys added)."""
        fixed = options.pop("inputs", {})
        with self.located:
            return function(self.references, self.predictions, scheme=args.scheme,
                            mode=args.mode, inputs=inputs_of(args, **self.words, **fixed),
                            **options)


def scored_files(args, gold_path: str, paths: list) -> list[ScoredFile]:
    """Each scored file of ``paths`` against GOLD: a column file or a saved split (each
    file a scored span file or generated output, as ``file_form`` says), or with --jsonl
    a span file (each file a scored span file)."""
    paths = named_files([check_file(path) for path in paths])
    if not given(args, "jsonl"):
        corpus = library.read_gold(check_file(gold_path),
                                   **system_options(args, outside_scheme_is_error=True))
        return [scored_file(args, corpus, name, path, gold_path)
                for name, path in paths.items()]
    if given(args, "generated"):
        raise UsageError("--generated reads GOLD as a column file or a saved split, not "
                         "with --jsonl span files: leave --jsonl out")
    gold = read_span_jsonl(check_file(gold_path), args.encoding)
    words = {"tokens": gold["tokens"], "texts": gold["texts"]}
    return [ScoredFile(name, gold["spans"], pred["spans"], words,
                       span_errors_located(gold_path, gold, path, pred))
            for name, path, pred in library.span_files(gold_path, gold, paths, args.encoding)]


def scored_file(args, corpus, name: str, path: str, gold_name: str) -> ScoredFile:
    """One scored file against the gold ``corpus`` (``gold_name`` in errors): generated
    output against the sentences it answers, or a span file, one line a sentence."""
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
    return {scored.name: scored.call(nerspan.score, args).to_dict(beta=args.beta)
            for scored in scored_files(args, gold, [*preds, *generated])}


def confidence(text: str) -> float:
    """--threshold's text: a number in [0, 1], refused as the flag is read."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 <= value <= 1:
        raise ValueError(f"expected a confidence, a number in [0, 1], not {text!r}")
    return check_confidence(value, "--threshold")


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
    """``(corpus, systems, scored)``: GOLD with the PRED and --generated systems as
    columns (``load_systems``; GOLD alone when there are only --scored files) and name ->
    the scored mentions of each --scored file, named apart from the PRED files' systems
    (flair.txt, flair.jsonl)."""
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
    """Name -> the scored mentions (``nerspan.scored.ScoredMentions``) of each --scored
    file (``files``: name -> path) over GOLD's sentences (``corpus``), each of which
    generated output must answer, in order. An error names the file and line."""
    scored = {}
    for name, path in files.items():
        one = scored_file(args, corpus, name, check_file(path), args.gold)
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
