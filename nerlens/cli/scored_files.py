"""Scored predictions on the command line: a JSON Lines span file whose spans carry a
``score`` or generated output with a ``score`` per entity, read by
``nerspan.reading.answers`` (``sweep`` and ``score --threshold`` call its
``read_scored_files``). Here: --threshold's parser (``confidence``) and the --scored
systems of ``report`` and ``suspects`` (``load_with_scored``).
"""
from __future__ import annotations

from nerspan.options import check_confidence
from nerspan.reading.answers import scored_mentions
from nerspan.reading.systems import named_files

from .common import UsageError, prediction_paths
from .flags import add_flags, number_flag
from .inputs import Inputs, load_systems, read_gold
from .options import given, inputs_of


# --threshold: a number in [0, 1], refused as the flag is read
confidence = number_flag(float, "expected a confidence, a number in [0, 1], not {text!r}",
                         lambda value: 0 <= value <= 1,
                         check=lambda value: check_confidence(value, "--threshold"))


def add_scored_argument(parser, effect: str) -> None:
    """--scored FILE.jsonl (repeatable); ``effect``: what the command does with it."""
    add_flags(parser, Inputs, ("scored",), notes={"scored": effect})


def load_with_scored(args, outside_scheme_is_error: bool = False) -> tuple:
    """``(corpus, systems, scored)``: GOLD with the PRED and --generated systems
    (``load_systems``, which refuses no GOLD; GOLD alone with only --scored files) and
    name -> the scored mentions of each --scored file, named apart from the systems."""
    if args.scored and args.gold and not (prediction_paths(args) or given(args, "generated")):
        if given(args, "jsonl"):
            raise UsageError("--scored reads GOLD as a column file: leave --jsonl out")
        corpus, systems = read_gold(args, args.gold, outside_scheme_is_error=True), []
    else:
        corpus, systems = load_systems(args, outside_scheme_is_error)
    return corpus, systems, scored_mentions(
        corpus, named_files(args.scored or [], taken=systems), gold_name=args.gold,
        inputs=inputs_of(args), needed_by=f"nerlens {args.command}",
        tag_file=f"score its tags (nerlens {args.command} {{gold}} {{path}})")
