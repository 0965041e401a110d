"""An experiment (several datasets, several runs per system) on the command line:
``report --manifest FILE`` (read by ``nerlens.experiment.manifest``, as ``buckets`` and
``hardeval --manifest`` read it), or the same datasets declared in order (the flags' help):
``--data NAME GOLD [TRAIN]``, then its runs ``--pred [NAME:]SYSTEM=FILE`` (and
``--pred-generated``, ``--pred-scored``, ``--gold-alt [NAME:]VERSION=FILE``). Either is
scored by ``nerlens.run_experiment``: experiment.json and experiment.html.
"""
from __future__ import annotations

import argparse
import glob

from nerspan import GOLD

from nerlens.experiment.build import run_experiment as experiment
from nerlens.experiment.manifest import Dataset, check_version, experiment_datasets, read_dataset
from nerlens.experiment.manifest import read_manifest as read_declared
from nerlens.experiment.runs import check_run_system

from .common import UsageError, note, show_progress, write_outputs
from .flags import Shared, add_flags
from .inputs import VERSION_KIND, system_options
from .options import given, inputs_of

GLOB_CHARACTERS = set("*?[")
# each flag that adds a run (its ``_Declare`` kind): its key in a declared dataset, and
# what the run is (the flag's help)
RUN_FLAGS = {"pred": ("systems", ""),
             "pred_generated": ("generated", " given as generated output (an LLM's responses, "
                                "JSON Lines as --generated reads them; grounded in its gold "
                                "sentences)"),
             "pred_scored": ("scored", " given as scored spans (JSON Lines, {\"spans\": [[start, "
                             "end, label, score], ...]} per sentence; its average precision "
                             "over runs)")}
RUN_KINDS = {kind: key for kind, (key, _) in RUN_FLAGS.items()}
FLAG_OF = {**{key: f"--{kind.replace('_', '-')}" for kind, key in RUN_KINDS.items()},
           VERSION_KIND: "--gold-alt"}

# -- the manifest ------------------------------------------------------------------------
def read_manifest(path: str, args, outside_scheme_is_error: bool = False) -> list[Dataset]:
    """The datasets of a manifest file, in file order, read with the reading flags of
    ``args`` (buckets, hardeval: their gold versions refused, as these score none)."""
    declared = read_declared(path)
    for name, entry in declared.items():
        if entry["gold_alt"]:
            raise UsageError(f"{path}: dataset {name!r}: \"gold_alt\" (other gold versions) "
                             f"is read by nerlens report --manifest {path}, not by "
                             f"nerlens {args.command}: leave it out here")
    return [read_dataset(name, entry, **system_options(args, outside_scheme_is_error))
            for name, entry in declared.items()]


# -- --data / --pred on the command line --------------------------------------------------
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
    for key, what in RUN_FLAGS.values():   # a run on the last --data, or on dataset NAME
        group.add_argument(FLAG_OF[key], nargs="+", action=_Declare, metavar="[NAME:]SYSTEM=FILE",
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


def _files(entry: str, pattern: str) -> list[str]:
    """The files of a run's pattern (``entry``: the flag and its value, for errors)."""
    if not GLOB_CHARACTERS & set(pattern):
        return [pattern]
    found = sorted(glob.glob(pattern))
    if not found:
        raise UsageError(f"{entry}: no file matches {pattern!r}")
    return found


def declared_datasets(declared: list, default_train: str | None) -> dict:
    """Name -> {"gold", "train", "systems": {system: [files]}, "generated": {system:
    [files]}, "scored": {system: [files]}, "gold_alt": {version: file}} from the --data,
    --pred, --pred-generated, --pred-scored and --gold-alt entries in order (a --pred
    NAME:SYSTEM=FILE may come before --data NAME); errors name the entry."""
    datasets: dict = {}
    runs, last = [], None  # (key, flag, entry, dataset, system or version, file pattern)
    for kind, values in declared:
        if kind in RUN_KINDS or kind == VERSION_KIND:
            key = RUN_KINDS.get(kind, VERSION_KIND)
            runs += [(key, FLAG_OF[key], *_parsed(FLAG_OF[key], value, last))
                     for value in values]
            continue
        if len(values) not in (2, 3):
            raise UsageError(f"--data {' '.join(values)}: give NAME GOLD [TRAIN] (2 or 3 "
                             f"values, not {len(values)})")
        name, gold = values[0], values[1]
        train = values[2] if len(values) == 3 else default_train
        if name in datasets:
            raise UsageError(f"--data {name}: dataset {name!r} is declared twice")
        if not train:
            raise UsageError(f"--data {' '.join(values)}: no training file: give it as "
                             "the third value or with --train")
        datasets[name] = {"gold": gold, "train": train, **{key: {} for key in FLAG_OF}}
        last = name
    for key, flag, entry, name, system, pattern in runs:  # once every dataset is declared
        if name not in datasets:
            hint = f": write {flag} {next(iter(datasets), 'NAME')}:{system}={pattern}" \
                if key == VERSION_KIND else ""
            raise UsageError(f"{flag} {entry}: no dataset {name!r} (declared: "
                             f"{', '.join(datasets) or 'none'}){hint}")
        if key == VERSION_KIND:   # once every system is declared
            continue
        other = next((k for k in RUN_KINDS.values()
                      if k != key and system in datasets[name][k]), None)
        if other is not None:
            first, second = sorted((key, other), key=list(FLAG_OF).index)
            raise UsageError(f"{flag} {entry}: system {system!r} has runs of {FLAG_OF[first]} "
                             f"and of {FLAG_OF[second]} on dataset {name!r}: give its "
                             "output one way")
        datasets[name][key].setdefault(system, []).extend(_files(f"{flag} {entry}", pattern))
    for name, entry in datasets.items():
        if not any(entry[key] for key in RUN_KINDS.values()):
            raise UsageError(f"--data {name}: no predictions: add --pred SYSTEM=FILE after it")
    for key, flag, entry, name, version, path in runs:
        if key == VERSION_KIND:
            _add_version(datasets[name], f"{flag} {entry}", name, version, path)
    return datasets


def _parsed(flag: str, value, last: str | None) -> tuple[str, str, str, str]:
    """``(entry, dataset, system or version, file pattern)`` of a ``[NAME:]SYSTEM=FILE``
    value of ``flag`` (--gold-alt: ``(target, file)`` parsed); ``last``: the --data
    before it, the dataset without NAME."""
    entry = value if isinstance(value, str) else "=".join(value)
    target, equals, pattern = entry.partition("=")
    if not equals or not target or not pattern:
        raise UsageError(f"{flag} {entry}: write SYSTEM=FILE or NAME:SYSTEM=FILE")
    name, colon, named = target.rpartition(":")
    if not colon and last is None:
        written = f"{flag} NAME:{entry}" if flag == FLAG_OF[VERSION_KIND] else "NAME:SYSTEM=FILE"
        raise UsageError(f"{flag} {entry}: no dataset yet: put it after --data NAME GOLD TRAIN, "
                         f"or write {written}")
    if flag != FLAG_OF[VERSION_KIND]:
        check_run_system(named, f"{flag} {entry}")
    return entry, (name if colon else last), named, pattern


def _add_version(dataset: dict, where: str, name: str, version: str, path: str) -> None:
    """Gold version ``version`` (file ``path``) of dataset ``name``, checked: a name
    neither the gold's nor a system's of that dataset, given once (``where``: the flag)."""
    taken = {GOLD, *(system for key in RUN_KINDS.values() for system in dataset[key])}
    free = next(f"{version}_{k}" for k in range(2, len(taken) + 3)
                if f"{version}_{k}" not in taken)
    check_version(dataset, version, f"{where}: dataset {name!r}",
                  f", e.g. --gold-alt {name}:{free}={path}")
    dataset[VERSION_KIND][version] = path


def run_experiment(args) -> int:
    """``nerlens.run_experiment`` of --manifest or of --data/--pred, read with the reading
    flags; experiment.json and experiment.html into --output."""
    mixed = [flag for flag, value in (
        ("GOLD/PRED", given(args, "predictions") or given(args, "gold")),
        ("--demo", given(args, "demo")),
        ("--generated (give --pred-generated)", given(args, "generated")),
        ("--jsonl", given(args, "jsonl"))) if value]
    if mixed:
        raise UsageError(f"an experiment (--data/--pred or --manifest) reads every file from "
                         f"its declaration: leave out {', '.join(mixed)}")
    if given(args, "manifest"):
        if any(kind == VERSION_KIND for kind, _ in args.declared):
            raise UsageError("--gold-alt: an experiment of --manifest takes each dataset's gold "
                             "versions in its entry: \"gold_alt\": {\"NAME\": \"FILE\"}")
        if args.declared:
            raise UsageError("give --manifest or --data/--pred, not both")
        declared = read_declared(args.manifest, train=given(args, "train"), needs_train=True)
    else:
        declared = declared_datasets(args.declared, given(args, "train"))
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
