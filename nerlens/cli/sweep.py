"""``nerlens sweep GOLD PRED``: scored predictions at every threshold (METHODS §8).

GOLD is a column file (token first, tag last; with --jsonl a JSON Lines span file); PRED
a JSON Lines span file whose spans carry a ``score`` (one line per sentence of GOLD, as
``nerlens/data/wnut17/crf_scored.jsonl``), or ``--generated FILE.jsonl``, generated output
with a score per entity (``nerspan.generative.scored_output``; ``scored_files`` reads
both). ``nerspan.sweep`` gives the curve, average
precision, the best thresholds, the calibration and the operating point: chosen on
``--choose-on DEV_GOLD DEV_PRED`` and applied here, or else chosen on the split that is
scored, which the output says inflates its F1, and by how much.
"""
from __future__ import annotations

from dataclasses import dataclass

import nerspan
from nerspan import InputOptions
from nerspan.blocks import Heading, Note, Table
from nerspan.errors import counted
from nerspan.records import FileOptions, GeneratedOptions, Record, switch
from nerspan.result import entity_row

from nerlens.demo import demo_gold, demo_scored
from nerlens.report import blocks
from nerlens.report.confidence import DEFAULT_THRESHOLD

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
    if args.predictions:
        raise UsageError(f"--generated {first} is the scored predictions: give GOLD and "
                         f"either PRED or --generated (nerlens sweep {args.gold} --generated "
                         f"{first})")
    if len(args.generated) > 1:
        raise UsageError(f"a sweep is of one system: give one --generated file (nerlens "
                         f"sweep {args.gold or 'GOLD'} --generated {first})")
    if not args.gold:
        raise UsageError(f"give GOLD, the column file the generated output answers "
                         f"(nerlens sweep GOLD --generated {first})")
    return args.gold, first


def run(args) -> int:
    gold, pred = files(args)
    chosen_on = given(args, "choose_on")
    dev = read_sweep(args, *chosen_on) if chosen_on else None
    if dev is not None and not len(dev.confidence):
        raise UsageError(f"--choose-on: {chosen_on[1]} holds no scored mention to choose a "
                         "threshold on")
    sweep = read_sweep(args, gold, pred, choose_on=dev, per_type=given(args, "per_type"))
    found = finding(sweep, chosen_on)
    if args.format == "json":
        if found:
            note(found)
        print_json(sweep.to_dict())
        return 0
    print("\n\n".join(map(blocks.text, sweep_blocks(sweep, given(args, "per_type")))))
    if found:
        print(f"\nfinding: {found}")
    return 0


def finding(sweep, chosen_on) -> str | None:
    """What the operating point says of itself: chosen on the split that is scored, the
    F1 it inflates and by how much (None when chosen on a dev split, or nothing was
    predicted to choose on)."""
    point = sweep.operating_point
    if point is None or not point.chosen_on_scored:
        return None
    return (f"the threshold{'s were' if point.per_type else ' was'} chosen on the split "
            f"that is scored: its F1 there, {100 * point.f1_chosen_on_scored:.2f}, is "
            f"inflated by {100 * point.inflation:+.2f} points (chosen on the other half of "
            f"its sentences: {100 * point.f1_chosen_elsewhere:.2f}); choose on a dev split: "
            "--choose-on DEV_GOLD DEV_PRED")


def sweep_blocks(sweep, per_type: bool) -> list:
    """The curve in a few rows: every mention kept, the default and the best threshold,
    the operating point, average precision, calibration; with ``per_type`` a row a type:
    parts of page blocks, drawn as the report draws its sections."""
    result, point = sweep.to_dict(), sweep.operating_point
    cuts = [("every mention kept", 0.0, 0.0),
            (f"threshold {DEFAULT_THRESHOLD}", DEFAULT_THRESHOLD, DEFAULT_THRESHOLD)]
    if result["best_threshold"] is not None:
        cuts.append(("best F1 here", result["best_threshold"], result["best_threshold"]))
    if point is not None:
        where = "this split" if point.chosen_on_scored else "--choose-on"
        cuts.append((f"chosen on {where}", point.threshold,
                     point.threshold if point.threshold is not None else point.thresholds))
    unplaced = len(sweep.unplaced_confidence)
    out = [(Note(f"{counted(len(sweep.confidence), 'scored mention')} "
                + (f"(and {counted(unplaced, 'generated entity', 'generated entities')} "
                   "found nowhere in its sentence, a wrong prediction where kept) "
                   if unplaced else "")
                + f"against {counted(len(sweep.gold), 'gold mention')}; average precision "
                f"{blocks.cell_text(result['average_precision'])}, expected calibration error "
                f"{blocks.cell_text(result['ece'])}"),
           Table(["mentions kept", "threshold", "P", "R", "F1", "correct", "predicted"],
                 [_scores_row(name, shown, *sweep.counts_at(cut)) for name, shown, cut in cuts])),
           (Heading("Reliability (confidence bins)"), Table(["bin", "mentions", "mean confidence", "share correct"],
                 [[f"{row['lower']:.1f}-{row['upper']:.1f}", row["count"],
                   row["mean_confidence"], row["share_correct"]]
                  for row in result["reliability"]]))]
    return out + ([per_type_blocks(result)] if per_type else [])


def _scores_row(name: str, threshold, correct: int, predicted: int, gold: int) -> list:
    """``[name, threshold, P, R, F1, correct, predicted]`` (an undefined ratio is 0, as in
    ``nerspan.score``)."""
    row = entity_row(correct, predicted, gold, 0.0)
    return [name, "per type" if threshold is None else f"{threshold:g}", row["precision"],
            row["recall"], row["f1"], correct, predicted]


def per_type_blocks(result: dict) -> tuple:
    """Per type: gold mentions, average precision, the best threshold and F1 there, F1 of
    every mention kept, and the threshold the operating point applies."""
    applied = result.get("operating_point", {}).get("thresholds", {})
    rows = [[name, row["support"], row["average_precision"],
             "-" if row["best_threshold"] is None else f"{row['best_threshold']:g}",
             row["best_f1"], row["f1"], "-" if applied.get(name) is None else f"{applied[name]:g}"]
            for name, row in sorted(result["per_type"].items())]
    return (Heading("Per type"), Table(["type", "gold", "AP", "best threshold", "best F1", "F1 all",
                                "threshold applied"], rows))
