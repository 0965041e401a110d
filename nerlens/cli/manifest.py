"""An experiment (several datasets, several runs per system) on the command line:
``report --manifest FILE`` (read by ``nerlens.experiment.manifest``, as ``buckets`` and
``hardeval --manifest`` read it), or the same datasets declared in order (the flags' help):
``--data NAME GOLD [TRAIN]``, then its runs ``--pred [NAME:]SYSTEM=FILE`` (and
``--pred-generated``, ``--pred-scored``, ``--gold-alt [NAME:]VERSION=FILE``). Either is
scored by ``nerlens.run_experiment``: experiment.json and experiment.html. The reading is
the library's; here, the flags and the errors in their terms.
"""
from __future__ import annotations

import argparse

from nerlens.experiment.build import run_experiment as experiment
from nerlens.experiment.manifest import declared_datasets, experiment_datasets

from .common import UsageError, note, show_progress, write_outputs
from .flags import Shared, add_flags
from .inputs import VERSION_KIND, system_options
from .options import given, inputs_of

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
    return any(kind != VERSION_KIND for kind, _ in given(args, "declared") or ()) or \
        bool(given(args, "manifest"))


def refuse_one_dataset_flags(args) -> None:
    """The flags of one dataset's report, which an experiment does not read."""
    if given(args, "scored"):
        raise UsageError("--scored adds a system to one dataset's report, not to an "
                         "experiment's datasets")
    if given(args, "workers", 1) != 1:
        raise UsageError("--workers scores one dataset's report; an experiment's datasets "
                         "are scored in one process")
    mixed = [flag for flag, value in (
        ("GOLD/PRED", given(args, "predictions") or given(args, "gold")),
        ("--demo", given(args, "demo")),
        ("--generated (give --pred-generated)", given(args, "generated")),
        ("--jsonl", given(args, "jsonl"))) if value]
    if mixed:
        raise UsageError(f"an experiment (--data/--pred or --manifest) reads every file from "
                         f"its declaration: leave out {', '.join(mixed)}")


def run_experiment(args) -> int:
    """``nerlens.run_experiment`` of --manifest or of --data/--pred, read with the reading
    flags; experiment.json and experiment.html into --output."""
    refuse_one_dataset_flags(args)
    declared = declared_datasets(args.declared, given(args, "train"),
                                 manifest=given(args, "manifest"))
    datasets, sources = experiment_datasets(declared, **system_options(args, True))
    for name, dataset in datasets.items():   # as the one-dataset report notes each file
        for column, record in dataset["corpus"].source.generated.items():
            note(f"dataset {name!r}, {column}: {record.summary()}")
    result = experiment(datasets, baseline=args.baseline, scheme=args.scheme, mode=args.mode,
                        inputs=inputs_of(args), bootstrap=args.bootstrap, seed=args.seed,
                        min_share=args.min_share, families=given(args, "families"),
                        progress=show_progress(args), sources=sources, beta=args.beta)
    write_outputs(result, args, "experiment")
    return 0
