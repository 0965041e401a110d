"""Scored predictions on the command line (``nerspan.reading.answers`` reads them): a JSON
Lines span file whose spans carry a ``score`` or generated output with a ``score`` per
entity. ``sweep`` and ``score --threshold`` score each file as the API does
(``scored_files``); ``report --scored`` and ``suspects --scored`` add them as scored
mentions (``load_with_scored``).
"""
from __future__ import annotations

import nerspan
from nerspan.options import check_confidence
from nerspan.reading.answers import read_scored_files, scored_mentions
from nerspan.reading.systems import check_jsonl, named_files

from .common import UsageError, check_file, prediction_paths
from .flags import add_flags, number_flag
from .inputs import Inputs, load_systems, read_gold, system_options
from .options import given, inputs_of


def scored_files(args, gold_path: str, paths: list) -> list:
    """Each scored file of ``paths`` against GOLD (``read_scored_files``)."""
    check_jsonl(inputs_of(args), given(args, "generated"))
    return read_scored_files(check_file(gold_path), paths, **system_options(args, True),
                             tag_file=tag_file(args))


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
    return {scored.name: scored.call(nerspan.score).to_dict(beta=args.beta)
            for scored in scored_files(args, gold, [*preds, *generated])}


# --threshold: a number in [0, 1], refused as the flag is read
confidence = number_flag(float, "expected a confidence, a number in [0, 1], not {text!r}",
                         lambda value: 0 <= value <= 1,
                         check=lambda value: check_confidence(value, "--threshold"))


def add_scored_argument(parser, effect: str) -> None:
    """--scored FILE.jsonl (repeatable); ``effect``: what the command does with it."""
    add_flags(parser, Inputs, ("scored",), notes={"scored": effect})


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
    return corpus, systems, scored_mentions(
        corpus, files, gold_name=args.gold, inputs=inputs_of(args),
        tag_file=tag_file(args), needed_by=f"nerlens {args.command}")


def tag_file(args) -> str:
    """What to do with a tag file given as scored predictions: score it with a command
    that reads tags (this one, but for ``sweep``)."""
    command = "score" if args.command == "sweep" else args.command
    return "score its tags (nerlens %s {gold} {path})" % command
