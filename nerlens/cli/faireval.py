"""``nerlens faireval``: FairEval error types and traditional/fair/weight-table scores."""
from __future__ import annotations

import sys
from dataclasses import dataclass

import faireval
from faireval import plots, report
from nerspan import Evaluation
from nerspan.records import option

from nerlens.families import result_dict

from .common import UsageError, note, prediction_paths
from .family import add_family_arguments, score_systems, show_scores
from .flags import Shared, add_flags, record_of
from .inputs import UNGROUNDED, system_options


@dataclass(frozen=True)
class Flags(faireval.ReadOptions):
    """The command's flags: faireval's reading options, the CSV listing of instances."""

    csv: str | None = option(None, "with --schemas: write the per-instance listing as CSV to "
                             "FILE (FILE-SYSTEM.csv per system when there are several)",
                             metavar="FILE")


def add_arguments(parser) -> None:
    add_family_arguments(parser, "faireval")
    add_flags(parser, Shared, ("plot", "plot_format"),
              notes={"plot": "(the paper's figures: error types, traditional vs fair "
                     "counting, and each system's confusion matrix as a heat map)"})
    add_flags(parser, Flags)


def run(args) -> int:
    """The files ``faireval.read_files`` reads, scored with ``faireval.FairevalOptions``."""
    if args.csv and not args.schemas:
        raise UsageError("--csv lists the instances of the SemEval-2013 schemas: add "
                         f"--schemas semeval (or some of {', '.join(faireval.SCHEMAS)})")
    options = record_of(args, faireval.FairevalOptions,
                        return_instances=bool(args.return_instances or args.csv))
    read = faireval.read_files(args.gold, prediction_paths(args), args.generated,
                               reading=record_of(args, faireval.ReadOptions), options=options,
                               confusion=args.confusion, **system_options(args))
    results = score_systems(args, faireval.FAMILY, read.corpus, read.systems, None, options,
                            pos=read.pos)[1] if read.systems else {}
    for one in read.answers:   # scored as they are (nested spans too), the matrix read as tags
        matrix_of = one.call(Evaluation.build) if args.confusion else None
        results[one.name] = result_dict(one.call(faireval.score, options=options, pos=read.pos),
                                        args.beta, matrix_of)
    for name, result in results.items():   # what each generated output held
        if "generative" in result["repairs"].get("pred", {}):
            note(f"{name}: {result['repairs']['pred']['generative']['summary']}; {UNGROUNDED}")
    for path in faireval.write_systems_csv(results, args.csv) if args.csv else ():
        print(f"nerlens: wrote {path}", file=sys.stderr)
    for result in results.values() if args.csv and not args.return_instances else ():
        result.pop("semeval_instances", None)   # asked for the file, not for the listing
    return show_scores(args, faireval.FAMILY, results, head=report.countings_blocks(results),
                       plot=plots.save_all, what="figures")
