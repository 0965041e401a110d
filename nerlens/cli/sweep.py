"""``nerlens sweep GOLD PRED``: scored predictions at every threshold (METHODS §8), by
``nerspan.dial.sweep_files`` with ``SweepOptions``' flags, drawn by ``nerspan.sweep_view``;
the finding says how much choosing the thresholds on the scored split inflates its F1.
"""
from __future__ import annotations

from dataclasses import dataclass

from nerspan import InputOptions
from nerspan.dial import SweepOptions, sweep_files
from nerspan.records import (FileOptions, GeneratedOptions, Record, ScoringOptions, option,
                             switch)
from nerspan.sweep_view import inflation_finding, sweep_blocks

from nerlens.demo import demo_gold, demo_scored
from nerlens.report import blocks

from .common import UsageError, note, show_result
from .flags import Shared, add_flags, record_of
from .inputs import SPAN_FILES, Inputs, refuse_files_with_demo, system_options


def add_arguments(parser) -> None:
    add_flags(parser, Inputs, ("gold",), notes={"gold": "or with --jsonl a JSON Lines span file"})
    add_flags(parser, Flags)
    add_flags(parser, SweepOptions)
    add_flags(parser, Inputs, ("generated",), notes={"generated": (
        "- in a sweep, one file instead of PRED, each entity with a \"score\" in [0, 1]; "
        "grounded in GOLD's words (--occurrences, --fuzzy); with --choose-on, DEV_PRED is "
        "such a file too")})
    add_flags(parser, ScoringOptions, ("scheme", "mode"))
    add_flags(parser, Shared, ("format",))
    add_flags(parser, FileOptions, ("gold_tag_column", "token_column", "comment_prefix",
                                    "encoding", "missing_tag"))
    add_flags(parser, InputOptions, SPAN_FILES)
    add_flags(parser, GeneratedOptions, ("occurrences", "fuzzy"))


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    predictions: str | None = option(
        None, "scored predictions: a JSON Lines span file, one line per sentence of GOLD, "
        "each span with a \"score\" in [0, 1]", flag="predictions", nargs="?")
    demo: bool = switch(False, "sweep the embedded demo: a CRF's scored mentions on the "
                        "WNUT-17 test split")


def files(args) -> tuple[str, str]:
    """GOLD and its one scored file, PRED or --generated (the demo's with --demo)."""
    if args.demo:
        refuse_files_with_demo(args)
        if args.choose_on or args.jsonl:
            flag = "--choose-on" if args.choose_on else "--jsonl"
            raise UsageError("--demo sweeps the demo's test split alone (a column file, no "
                             f"dev split): leave {flag} out")
        return str(demo_gold()), str(next(iter(demo_scored().values())))
    scored = ([args.predictions] if args.predictions else []) + (args.generated or [])
    if not args.gold or len(scored) != 1:
        one = f"--generated {args.generated[0]}" if args.generated else "PRED.jsonl"
        raise UsageError(f"{'a sweep is of one system: ' if len(scored) > 1 else ''}give "
                         "GOLD (a column file, or a span file with --jsonl) and either PRED (a "
                         "JSON Lines span file whose spans carry a \"score\") or one "
                         "--generated file (generated output, each entity with a \"score\"), "
                         f"or --demo (nerlens sweep {args.gold or 'GOLD'} {one})")
    return args.gold, scored[0]


def run(args) -> int:
    sweep = sweep_files(*files(args), record_of(args, SweepOptions),
                        **system_options(args, outside_scheme_is_error=True))
    found = inflation_finding(sweep)
    found = found and f"{found}; choose on a dev split: --choose-on DEV_GOLD DEV_PRED"
    if found and args.format == "json":   # the text view says it below the tables
        note(found)
    return show_result(args, sweep.to_dict(), lambda _: "\n\n".join([
        *map(blocks.text, sweep_blocks(sweep, args.per_type, "--choose-on")),
        *([f"finding: {found}"] if found else [])]))
