"""``nerlens report``: every registered family (or those of ``--families``), several
systems, intervals, JSON and HTML (``nerlens.build_report``). An experiment (several
datasets, several runs per system), declared by ``--manifest FILE`` or by ``--data`` and
its runs ``--pred`` in order (``nerlens.experiment.manifest.Declaration``), is scored by
``nerlens.run_experiment``. The reading is the library's; here, the flags and the errors
in their terms."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nerspan.records import Record, ScoringOptions, option

from nerlens.demo import DEMOS
from nerlens.experiment.build import run_experiment as experiment
from nerlens.experiment.manifest import Declaration
from nerlens.families import family_names
from nerlens.report.build import build_report
from nerlens.report.generated import records as generated_records
from nerlens.report.options import ReportOptions

from .common import UsageError, note, write_outputs
from .flags import Shared, add_flags, record_of
from .inputs import (UNGROUNDED, Declare, Inputs, add_input_arguments,
                     add_train_arguments, refuse_files_with_demo)
from .options import inputs_of


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    add_train_arguments(parser, required=False)
    add_flags(parser, ReportOptions, notes={"families": f"({', '.join(family_names())})"})
    add_flags(parser, ScoringOptions, ("beta",))
    add_flags(parser, Shared, ("workers",))
    add_flags(parser, Flags, ("demo",))
    add_flags(parser, Inputs, ("scored",), notes={"scored": "adds the confidence section"})
    add_flags(parser, Inputs, ("gold_alt",))
    add_flags(parser, Flags, ("output",))
    group = parser.add_argument_group(
        "experiments (several datasets, several runs per system)",
        "Either --manifest FILE, or --data and --pred in order (e.g. --data conll03 test.txt "
        "train.txt --pred flair=s1.txt flair=s2.txt bert=b.txt --data wnut16 ...). Writes "
        "experiment.json and experiment.html: per-dataset sections, mean +- std over runs, "
        "Wilcoxon tests with Holm's correction.")
    add_flags(group, Flags, ("data", "pred", "pred_generated", "pred_scored"))
    add_flags(group, Shared, ("manifest",), notes={"manifest": "and generated output (a "
                                                   "list of files: a system's runs)"})
    parser.set_defaults(declared=[])


# what each flag that adds a run of an experiment takes
RUN = ("on the last --data (or on dataset NAME); a repeated SYSTEM is another run; a quoted "
       "FILE pattern (* ?) adds every matching file as a run")


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    demo: str | None = option(
        None, "the embedded WNUT-17 demo: spaCy's output and a memorisation baseline; --demo "
        "generative: LLM-style responses to 24 of its sentences beside spaCy's output; --demo "
        "confidence: a CRF's scored mentions beside spaCy's output (the confidence section)",
        nargs="?", const=DEMOS[0], metavar="NAME")
    output: str = option(".", "folder for report.json and report.html")
    data: list | None = option(None, "a dataset: its name, gold column file and training file "
                               "(default --train); repeat for each dataset", action=Declare,
                               nargs="+", metavar=("NAME GOLD", "TRAIN"))
    pred: list | None = option(None, f"a run of SYSTEM {RUN}", action=Declare, nargs="+",
                               metavar="[NAME:]SYSTEM=FILE")
    pred_generated: list | None = option(
        None, "a run of SYSTEM given as generated output (an LLM's responses, JSON Lines as "
        f"--generated reads them; grounded in its gold sentences) {RUN}", action=Declare,
        nargs="+", metavar="[NAME:]SYSTEM=FILE")
    pred_scored: list | None = option(
        None, "a run of SYSTEM given as scored spans (JSON Lines, {\"spans\": [[start, end, "
        "label, score], ...]} per sentence; its average precision over runs) " + RUN,
        action=Declare, nargs="+", metavar="[NAME:]SYSTEM=FILE")


def _demo_or_files(args) -> None:
    """--demo takes an optional NAME, so argparse reads ``--demo GOLD`` as a name: an
    existing file there is GOLD (which --demo refuses, naming it; ``build_report`` refuses
    a name of no demo). Files given with --demo are refused naming their flags, as is no
    GOLD without it."""
    if args.demo not in (None, *DEMOS) and Path(args.demo).exists():
        args.predictions = ([args.gold] if args.gold else []) + list(args.predictions)
        args.gold, args.demo = args.demo, DEMOS[0]
    if args.demo:
        refuse_files_with_demo(args)
    elif not args.gold:
        raise UsageError("give GOLD (a column file or a saved datasets folder) and PRED "
                         "file(s) (or --demo)")


def refuse_one_dataset_flags(args) -> None:
    """The flags of one dataset's report, which an experiment does not read (its files
    are declared with --data and --pred; its datasets scored in one process)."""
    mixed = [flag for flag, value in (
        ("GOLD/PRED", args.predictions or args.gold), ("--demo", args.demo),
        ("--generated (give --pred-generated)", args.generated), ("--jsonl", args.jsonl),
        ("--scored (give --pred-scored)", args.scored),
        ("--workers (an experiment's datasets are scored in one process)", args.workers != 1))
        if value]
    if mixed:
        raise UsageError(f"an experiment (--data/--pred or --manifest) reads every file from "
                         f"its declaration: leave out {', '.join(mixed)}")


def run(args) -> int:
    """The report of GOLD [PRED ...] or of --demo, or an experiment's of its declaration
    (--manifest, or --data and --pred): STEM.json and STEM.html into --output."""
    declaration = Declaration(args.declared, args.manifest, args.train)
    settings = record_of(args, ReportOptions, beta=args.beta)
    options = dict(scheme=args.scheme, mode=args.mode, inputs=inputs_of(args),
                   **settings.to_dict())
    if declaration:   # a --gold-alt alone is another version of the one dataset's gold
        refuse_one_dataset_flags(args)
        result = experiment(declaration, **options)
    else:
        _demo_or_files(args)
        result = build_report(args.gold, args.predictions or None, args.train,
                              generated=args.generated, scored=args.scored,
                              gold_alt=args.gold_alt, demo=args.demo, workers=args.workers,
                              **options)
    for name, report in (result.reports if declaration else {None: result}).items():
        for system, record in generated_records(report.results).items():   # as load_systems
            where = "" if name is None else f"dataset {name!r}, "
            note(f"{where}{system}: {record['summary']}; {UNGROUNDED}")
    write_outputs(result, args, "experiment" if declaration else "report")
    return 0
