"""``nerlens faireval``: FairEval error types and traditional/fair/weight-table scores."""
from __future__ import annotations

import sys
from dataclasses import dataclass

import faireval
from faireval import plots
from faireval.report import countings_blocks
from faireval.semeval import check_min_overlap
from nerspan import PRED, Evaluation
from nerspan.reading.answers import read_span_answers
from nerspan.reading.columns import column_values
from nerspan.reading.systems import read_systems
from nerspan.records import Record, option, switch

from .common import UsageError, prediction_paths
from .family import add_family_arguments, score_family, score_systems, show_scores
from .flags import Shared, add_flags, number_flag, record_of
from .inputs import score_generated, system_options
from .options import given, inputs_of


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags: FairEval's span files, the POS column, the CSV listing."""

    spans: bool = switch(False, "GOLD and PRED are FairEval span files (LABEL begin end "
                         "tokens)")
    pos_column: int = option(1, "POS column of GOLD for --ignore-punct (default 1)", parse=int)
    csv: str | None = option(None, "with --schemas: write the per-instance listing as CSV to "
                             "FILE (FILE-SYSTEM.csv per system when there are several)",
                             metavar="FILE")


# --min-overlap: a fraction in (0, 1], as the SemEval schemas check it
MIN_OVERLAP = number_flag(float, "must be a fraction in (0, 1], not {text!r}",
                          check=check_min_overlap)


def add_arguments(parser) -> None:
    add_family_arguments(parser, "faireval", parse={"min_overlap": MIN_OVERLAP})
    add_flags(parser, Shared, ("plot", "plot_format"),
              notes={"plot": "(the paper's figures: error types, traditional vs fair "
                     "counting, and each system's confusion matrix as a heat map)"})
    add_flags(parser, Flags)


def compute(args) -> dict:
    """System name -> result dict: GOLD and PRED read as every family reads them (with
    --ignore-punct, GOLD's POS tags), or span files (--spans, --jsonl) and, with
    --overlaps keep, --generated output scored as they are (nested spans too). The
    options are ``faireval.FairevalOptions``, which reads --weights and refuses the
    SemEval ones without --schemas; --csv lists the SemEval-2013 schemas' instances."""
    if args.csv and not args.schemas:
        raise UsageError("--csv lists the instances of the SemEval-2013 schemas: add "
                         f"--schemas semeval (or some of {', '.join(faireval.SCHEMAS)})")
    kwargs = record_of(args, faireval.FairevalOptions,
                       return_instances=bool(args.return_instances or args.csv))
    if refuse_unread(args):   # --overlaps keep: the PRED files as usual (no training set)
        results = score_systems(args, faireval.FAMILY, *read_systems(
            args.gold, prediction_paths(args), **system_options(args)), None,
            kwargs)[1] if args.predictions else {}
        return {**results, **score_generated(args, faireval.score, options=kwargs)}
    if not (args.spans or args.jsonl):
        return score_family(args, "faireval", options=kwargs, pos=pos_tags(args))[2]
    read = faireval.read_span_files if args.spans else read_span_answers
    results = {}
    for one in read(args.gold, prediction_paths(args), scheme=args.scheme, mode=args.mode,
                    inputs=inputs_of(args)):
        results[one.name] = result = one.call(faireval.score, options=kwargs).to_dict(
            beta=args.beta)
        if args.confusion:   # the matrix of both sides read as tags are
            result.update(one.call(Evaluation.build).confusion(PRED))
    return results


def refuse_unread(args) -> bool:
    """Whether --overlaps keep is given, refusing it without --generated and the flags
    that the files scored as they are do not read."""
    keep = args.overlaps == "keep"
    if keep and not given(args, "generated"):
        raise UsageError("--overlaps keep applies to --generated output: nerlens faireval "
                         f"{args.gold or 'GOLD'} --generated FILE.jsonl --overlaps keep")
    if args.ignore_punct and (keep or args.spans or args.jsonl):
        raise UsageError("--ignore-punct reads the POS tags of GOLD's column file: give it "
                         "without --spans, --jsonl and --overlaps keep")
    if args.confusion and keep:   # the entity matrix pairs flat mentions
        raise UsageError("--confusion counts flat mentions, --overlaps keep keeps nested and "
                         "overlapping spans: give one of them")
    return keep


def pos_tags(args) -> list | None:
    """With --ignore-punct, GOLD's POS tags (--pos-column), a list per sentence."""
    files = inputs_of(args).files
    return column_values(args.gold, args.pos_column, token_column=args.token_column,
                         comment_prefix=files.comment_prefix, encoding=files.encoding,
                         missing_tag=files.missing_tag) if args.ignore_punct else None


def run(args) -> int:
    results = compute(args)
    if args.csv:
        for path in faireval.write_systems_csv(results, args.csv):
            print(f"nerlens: wrote {path}", file=sys.stderr)
        if not args.return_instances:  # asked for the file, not for the listing in the output
            for result in results.values():
                result.pop("semeval_instances", None)
    return show_scores(args, faireval.FAMILY, results, head=countings_blocks(results),
                       plot=plots.save_all, what="figures")
