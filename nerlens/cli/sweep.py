"""``nerlens sweep GOLD PRED``: scored predictions at every threshold (METHODS §8):
``nerspan.sweep`` of GOLD and PRED, a span file whose spans carry a ``score`` or
--generated output with a score per entity (``scored_files`` reads both), drawn by
``nerspan.sweep_view``; the thresholds are chosen on --choose-on's dev split, else on the
split that is scored, and the finding says by how much that inflates its F1.
"""
from __future__ import annotations

from dataclasses import dataclass

import nerspan
from nerspan import InputOptions
from nerspan.records import FileOptions, GeneratedOptions, Record, switch
from nerspan.sweep_view import inflation_finding, sweep_blocks

from nerlens.demo import demo_gold, demo_scored
from nerlens.report import blocks

from .common import UsageError, note, print_json
from .flags import DECODING, Shared, add_flags
from .inputs import SPAN_FILES, fraction, refuse_files_with_demo
from .options import given
from .scored_files import scored_files

def add_arguments(parser) -> None:
    parser.add_argument("gold", nargs="?", help="gold column file (token first, tag last), "
                                                "or with --jsonl a JSON Lines span file")
    parser.add_argument("predictions", nargs="?",
                        help="scored predictions: a JSON Lines span file, one line per "
                             "sentence of GOLD, each span with a \"score\" in [0, 1]")
    parser.add_argument("--generated", action="append", default=None, metavar="FILE.jsonl",
                        help="scored generated output instead of PRED: one object per "
                             "sentence of GOLD with \"response\" (an entity list or a dict "
                             "from type to entities), each entity with a \"score\" in [0, "
                             "1]; grounded in GOLD's words (--occurrences, --fuzzy); with "
                             "--choose-on, DEV_PRED is such a file too")
    parser.add_argument("--choose-on", nargs=2, metavar=("DEV_GOLD", "DEV_PRED"),
                        help="choose the thresholds on this dev split (gold and scored "
                             "predictions, read as GOLD and PRED) and apply them to "
                             "GOLD PRED; default: chosen on GOLD PRED itself, which "
                             "inflates its F1 (the output says by how much)")
    add_flags(parser, Flags)
    add_flags(parser, Shared, DECODING)
    add_flags(parser, FileOptions, ("gold_tag_column", "token_column", "comment_prefix",
                                    "encoding", "missing_tag"))
    add_flags(parser, InputOptions, SPAN_FILES)
    add_flags(parser, GeneratedOptions, ("occurrences", "fuzzy"), parse={"fuzzy": fraction})


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    per_type: bool = switch(False, "one threshold per entity type (chosen where that type's "
                            "F1 is highest), and the per-type curve summary in the text "
                            "view")
    demo: bool = switch(False, "sweep the embedded demo: a CRF's scored mentions on the "
                        "WNUT-17 test split")


def read_sweep(args, gold_path: str, pred_path: str, **dial) -> nerspan.sweeps.Sweep:
    """The sweep of one split's files (``nerspan.sweep``; ``dial``: ``choose_on``,
    ``per_type``): PRED a scored span file, or with --generated generated output with a
    score per entity; an error in PRED named by its file and line."""
    return scored_files(args, gold_path, [pred_path])[0].call(nerspan.sweep, **dial)


def files(args) -> tuple[str, str]:
    """GOLD and PRED (the demo's with --demo)."""
    if args.demo:
        refuse_files_with_demo(args)
        if given(args, "choose_on"):
            raise UsageError("--demo has no dev split: --choose-on would choose on the "
                             "demo's test split, as the demo does without it")
        if given(args, "jsonl"):
            raise UsageError("--demo reads the demo's column file: leave --jsonl out")
        return str(demo_gold()), str(next(iter(demo_scored().values())))
    if given(args, "generated"):
        return generated_files(args)
    if not args.gold or not args.predictions:
        raise UsageError("give GOLD (a column file, or a span file with --jsonl) and PRED "
                         "(a JSON Lines span file whose spans carry a \"score\"), or GOLD "
                         "and --generated FILE.jsonl (generated output, each entity with a "
                         "\"score\"), or --demo")
    if given(args, "jsonl") and args.scheme.upper() not in ("IOB2", "BIO"):
        raise UsageError("--jsonl spans are read as IOB2 tags: --scheme applies to GOLD "
                         "column files")
    return args.gold, args.predictions


def generated_files(args) -> tuple[str, str]:
    """GOLD and the --generated file (one: a sweep is of one system)."""
    first = args.generated[0]
    command = f"(nerlens sweep {args.gold or 'GOLD'} --generated {first})"
    if args.predictions:
        raise UsageError(f"--generated {first} is the scored predictions: give GOLD and "
                         f"either PRED or --generated {command}")
    if len(args.generated) > 1:
        raise UsageError(f"a sweep is of one system: give one --generated file {command}")
    if not args.gold:
        raise UsageError(f"give GOLD, the column file the generated output answers {command}")
    return args.gold, first


def run(args) -> int:
    gold, pred = files(args)
    chosen_on, per_type = given(args, "choose_on"), given(args, "per_type")
    dev = read_sweep(args, *chosen_on) if chosen_on else None
    if dev is not None and not len(dev.confidence):
        raise UsageError(f"--choose-on: {chosen_on[1]} holds no scored mention to choose a "
                         "threshold on")
    sweep = read_sweep(args, gold, pred, choose_on=dev, per_type=per_type)
    found = inflation_finding(sweep)
    found = found and f"{found}; choose on a dev split: --choose-on DEV_GOLD DEV_PRED"
    if args.format == "json":
        if found:
            note(found)
        print_json(sweep.to_dict())
    else:
        print("\n\n".join(map(blocks.text, sweep_blocks(sweep, per_type, "--choose-on"))))
        if found:
            print(f"\nfinding: {found}")
    return 0
