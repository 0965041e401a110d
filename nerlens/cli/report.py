"""``nerlens report``: every registered family (or those of ``--families``), several
systems, intervals, JSON and HTML. An experiment (several datasets, several runs per
system): ``--manifest FILE`` (read by ``nerlens.experiment.manifest``, as ``buckets`` and
``hardeval --manifest`` read it), or the same datasets declared in order (the flags' help):
``--data NAME GOLD [TRAIN]``, then its runs ``--pred [NAME:]SYSTEM=FILE`` (and
``--pred-generated``, ``--pred-scored``, ``--gold-alt [NAME:]VERSION=FILE``), scored by
``nerlens.run_experiment``: experiment.json and experiment.html. The reading is the
library's; here, the flags and the errors in their terms."""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from nerspan.records import FileOptions, Record, option

from nerlens.demo import DEMOS, demo_inputs
from nerlens.experiment.build import run_experiment as experiment
from nerlens.experiment.manifest import declared_datasets, experiment_datasets
from nerlens.families import check_families, family_names
from nerlens.report.build import build_report

from .common import UsageError, note, show_progress, write_outputs
from .flags import Shared, add_alias, add_flags
from .inputs import (UNGROUNDED, VERSION_KIND, Inputs, add_input_arguments,
                     add_scored_argument, add_train_arguments, refuse_files_with_demo,
                     system_options)
from .options import inputs_of


def add_arguments(parser) -> None:
    add_input_arguments(parser, Flags, decoding=("scheme", "mode"))
    add_alias(parser, "--gold", "GOLD (the first argument)", "gold_option")
    add_alias(parser, "--dataset", "GOLD (the first argument)", "dataset_option")
    add_train_arguments(parser, required=False)
    add_flags(parser, FileOptions, ("split", "tokens_column", "tags_column"))
    add_flags(parser, Shared, ("bootstrap", "seed", "baseline", "min_share", "beta", "workers"))
    add_flags(parser, Flags, ("families", "demo"))
    add_scored_argument(parser, "adds the confidence section")
    add_flags(parser, Inputs, ("gold_alt",))
    add_flags(parser, Flags, ("progress", "output", "format"))
    add_experiment_arguments(parser)


def family_list(text: str) -> tuple:
    """--families: comma-separated names of registered families."""
    return check_families([name.strip() for name in text.split(",") if name.strip()])


class DemoName(argparse.Action):
    """--demo [NAME]: without NAME, spaCy's demo."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values or DEMOS[0])


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    gold: str | None = option(None, "gold column file (token first, tag last), or a datasets "
                              "split or DatasetDict saved with save_to_disk (see --split)",
                              flag="gold", nargs="?")
    predictions: list | None = option(None, "prediction column file(s), tag last",
                                      flag="predictions", nargs="*")
    families: tuple | None = option(
        None, "the metric families to run, comma-separated (default: every registered one: "
        + ", ".join(family_names()) + ")", parse=family_list, metavar="NAME,...")
    demo: str | None = option(
        None, "the embedded WNUT-17 demo: spaCy's output and a memorisation baseline; --demo "
        "generative: LLM-style responses to 24 of its sentences beside spaCy's output; --demo "
        "confidence: a CRF's scored mentions beside spaCy's output (the confidence section)",
        action=DemoName, nargs="?", metavar="NAME")
    progress: bool | None = option(None, "a progress bar on stderr (default: when stderr is a "
                                   "terminal)", parse=None, action=argparse.BooleanOptionalAction)
    output: str = option(".", "folder for report.json and report.html")
    format: str = option("table", "what to print: the summary table or the JSON",
                         choices=("table", "json"))


def _demo_name(args) -> None:
    """--demo takes an optional NAME, so argparse reads ``--demo GOLD`` as a name: an
    existing file there is GOLD (which --demo refuses, naming it); else the name must be
    one of ``DEMOS``."""
    if args.demo in (None, *DEMOS):
        return
    if not Path(args.demo).exists():
        raise UsageError(f"--demo {args.demo!r}: the demos are {', '.join(DEMOS)}")
    args.predictions = ([args.gold] if args.gold else []) + list(args.predictions)
    args.gold, args.demo = args.demo, DEMOS[0]


def _inputs(args) -> dict:
    """The ``build_report`` inputs: the --demo named, or the files as given (the library
    reads them, as it reads them for the API)."""
    if args.demo:
        refuse_files_with_demo(args)
        return demo_inputs(args.demo, args.scheme, args.mode)
    if not args.gold:
        raise UsageError("give GOLD (a column file or a saved datasets folder) and PRED "
                         "file(s) (or --demo)")
    return dict(gold=args.gold, systems=args.predictions, generated=args.generated,
                scored=args.scored, gold_alt=args.gold_alt, train=args.train)


def run(args) -> int:
    if is_experiment(args):
        return run_experiment(args)
    _demo_name(args)
    result = build_report(**_inputs(args), scheme=args.scheme, mode=args.mode,
                          inputs=inputs_of(args), bootstrap=args.bootstrap, seed=args.seed,
                          baseline=args.baseline, min_share=args.min_share,
                          families=args.families, progress=show_progress(args),
                          beta=args.beta, workers=args.workers)
    for name, results in result.results.items():   # what reading generated output did
        generative = results["entity"]["repairs"]["pred"].get("generative")
        if generative:
            note(f"{name}: {generative['summary']}; {UNGROUNDED}")
    write_outputs(result, args, "report")
    return 0


# -- experiments --------------------------------------------------------------------------
# what each flag that adds a run adds (the flag's help): its kind in ``declared``, as
# ``nerlens.experiment.manifest.declared_datasets`` reads it
RUN_FLAGS = {"pred": "",
             "pred_generated": " given as generated output (an LLM's responses, JSON Lines "
                               "as --generated reads them; grounded in its gold sentences)",
             "pred_scored": " given as scored spans (JSON Lines, {\"spans\": [[start, end, "
                            "label, score], ...]} per sentence; its average precision over "
                            "runs)"}


class _Declare(argparse.Action):
    """Keeps --data and --pred in the order given (a --pred belongs to the last --data)."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.declared = [*(getattr(namespace, "declared", None) or []),
                              (self.dest, list(values))]


def add_experiment_arguments(parser) -> None:
    group = parser.add_argument_group(
        "experiments (several datasets, several runs per system)",
        "Either --manifest FILE, or --data and --pred in order (e.g. --data conll03 test.txt "
        "train.txt --pred flair=s1.txt flair=s2.txt bert=b.txt --data wnut16 ...). Writes "
        "experiment.json and experiment.html: per-dataset sections, mean +- std over runs, "
        "Wilcoxon tests with Holm's correction.")
    group.add_argument("--data", nargs="+", action=_Declare, metavar=("NAME GOLD", "TRAIN"),
                       help="a dataset: its name, gold column file and training file "
                            "(default --train); repeat for each dataset")
    for kind, what in RUN_FLAGS.items():   # a run on the last --data, or on dataset NAME
        group.add_argument("--" + kind.replace("_", "-"), nargs="+", action=_Declare,
                           metavar="[NAME:]SYSTEM=FILE",
                           help=f"a run of SYSTEM{what} on the last --data (or on dataset "
                                "NAME); a repeated SYSTEM is another run; a quoted FILE "
                                "pattern (* ?) adds every matching file as a run")
    add_flags(group, Shared, ("manifest",), notes={"manifest": "and generated output (a "
                                                   "list of files: a system's runs)"})
    parser.set_defaults(declared=[])


def is_experiment(args) -> bool:
    """--data/--pred or --manifest (a --gold-alt alone is in ``declared`` too: a version
    of the one-dataset report)."""
    return any(kind != VERSION_KIND for kind, _ in args.declared) or bool(args.manifest)


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


def run_experiment(args) -> int:
    """``nerlens.run_experiment`` of --manifest or of --data/--pred, read with the reading
    flags; experiment.json and experiment.html into --output."""
    refuse_one_dataset_flags(args)
    declared = declared_datasets(args.declared, args.train, manifest=args.manifest)
    datasets, sources = experiment_datasets(declared, **system_options(args, True))
    for name, dataset in datasets.items():   # as the one-dataset report notes each file
        for column, record in dataset["corpus"].source.generated.items():
            note(f"dataset {name!r}, {column}: {record.summary()}")
    result = experiment(datasets, baseline=args.baseline, scheme=args.scheme, mode=args.mode,
                        inputs=inputs_of(args), bootstrap=args.bootstrap, seed=args.seed,
                        min_share=args.min_share, families=args.families,
                        progress=show_progress(args), sources=sources, beta=args.beta)
    write_outputs(result, args, "experiment")
    return 0
