"""``nerlens faireval``: FairEval error types and traditional/fair/weight-table scores."""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import faireval
from faireval import plots
from faireval.report import countings_blocks
from faireval.semeval import check_min_overlap
from nerlens.report.blocks import section_text
from nerspan import PRED, Evaluation
from nerspan.reading.columns import column_values, read_text_file
from nerspan.reading.systems import named_files, span_errors_located
from nerspan.records import Record, option, switch

from .common import UsageError, check_file, with_confusion
from .family import add_family_arguments, print_scores, save_plots, score_family
from .flags import Shared, add_flags, number_flag, record_of
from .inputs import read_span_files, refuse_span_flags, score_generated
from .options import given, inputs_of, weight_table


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


def options(args):
    """faireval's options of the flags (``faireval.FairevalOptions``, which refuses the
    SemEval ones without --schemas); --csv lists the SemEval-2013 schemas' instances."""
    if args.csv and not args.schemas:
        raise UsageError("--csv lists the instances of the SemEval-2013 schemas: add "
                         f"--schemas semeval (or some of {', '.join(faireval.SCHEMAS)})")
    return record_of(args, faireval.FairevalOptions, weights=weight_table(args.weights),
                     return_instances=bool(args.return_instances or args.csv))


def _scored(args, references, predictions, kwargs: dict, **reading) -> dict:
    """One pair of span lists scored as they are (nested spans too), with --confusion
    the matrix of both read as every family reads them."""
    result = faireval.score(references, predictions, scheme=args.scheme, mode=args.mode,
                            options=kwargs, **reading).to_dict(beta=args.beta)
    evaluation = Evaluation.build(references, predictions, scheme=args.scheme,
                                  mode=args.mode, **reading) if args.confusion else None
    return with_confusion(result, evaluation, PRED, args.confusion)


def compute(args) -> dict:
    """System name -> result dict (compute()'s keys)."""
    kwargs = options(args)
    if args.overlaps == "keep":   # before the span files: it is --generated's
        return keep_overlaps(args, kwargs)
    if (args.spans or args.jsonl) and args.ignore_punct:
        raise UsageError("--ignore-punct needs POS tags, which span files do not have")
    if args.spans:
        preds = args.predictions if isinstance(args.predictions, list) else [args.predictions]
        if not args.gold or len(preds) != 1 or not preds[0]:
            raise UsageError("--spans needs TARGET and SYSTEM span files")
        refuse_span_flags(args)
        target, system = (read_text_file(faireval.read_span_file, check_file(path),
                                         args.encoding) for path in (args.gold, preds[0]))
        [name] = named_files(preds)
        return {name: _scored(args, target, system, kwargs)}
    if args.jsonl:  # span lists as they are: nested and overlapping spans are scored too
        gold, systems = read_span_files(args)
        results = {}
        for name, path, system in systems:
            with span_errors_located(args.gold, gold, path, system):
                results[name] = _scored(args, gold["spans"], system["spans"], kwargs,
                                        tokens=gold["tokens"], inputs=inputs_of(
                                            args, texts=gold["texts"], jsonl=False))
        return results
    return score_family(args, "faireval", options=kwargs, pos=pos_tags(args))[2]


def pos_tags(args) -> list | None:
    """With --ignore-punct, GOLD's POS tags (--pos-column), a list per sentence."""
    files = inputs_of(args).files
    return column_values(args.gold, args.pos_column, token_column=args.token_column,
                         comment_prefix=files.comment_prefix, encoding=files.encoding,
                         missing_tag=files.missing_tag) if args.ignore_punct else None


def keep_overlaps(args, kwargs: dict) -> dict:
    """--generated output with --overlaps keep: each file's responses as
    ``faireval.score(gold, responses, overlaps="keep", ...)`` scores them (its grounded
    spans nested and overlapping as they are), the PRED files as usual."""
    if not given(args, "generated"):
        raise UsageError("--overlaps keep applies to --generated output: nerlens faireval "
                         f"{args.gold or 'GOLD'} --generated FILE.jsonl --overlaps keep")
    if args.ignore_punct:
        raise UsageError("--ignore-punct is not read with --overlaps keep: give one of them")
    if args.confusion:   # the entity matrix pairs flat mentions, as nerlens score does
        raise UsageError("--confusion counts flat mentions, --overlaps keep keeps nested and "
                         "overlapping spans: give one of them")
    # the PRED files as without --generated (the flags that read it left out)
    results = compute(argparse.Namespace(**{**vars(args), "generated": None,
                                            "overlaps": "drop"})) if args.predictions else {}
    return {**results, **score_generated(args, faireval.score, options=kwargs)}


def run(args) -> int:
    results = compute(args)
    if args.csv:
        for path in faireval.write_systems_csv(results, args.csv):
            print(f"nerlens: wrote {path}", file=sys.stderr)
        if not args.return_instances:  # asked for the file, not for the listing in the output
            for result in results.values():
                result.pop("semeval_instances", None)
    print_scores(args, results, section_text(faireval.FAMILY, results,
                                             head=countings_blocks(results)))
    return save_plots(args, plots.save_all, results, what="figures")
