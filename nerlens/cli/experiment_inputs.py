"""``nerlens report`` over a whole experiment: several datasets, several runs per system.

Declared on the command line, in order:

    nerlens report --data conll03 test.txt train.txt --pred flair=f1.txt flair=f2.txt \\
                       bert=b.txt --data wnut16 wtest.txt wtrain.txt --pred 'flair=w*.txt'

``--data NAME GOLD [TRAIN]`` starts a dataset (TRAIN defaults to --train); each following
``--pred SYSTEM=FILE`` adds a run of SYSTEM to it (a repeated SYSTEM is another run; a
quoted FILE pattern with * or ? adds every matching file, sorted, as runs);
``--pred NAME:SYSTEM=FILE`` adds it to dataset NAME wherever it stands;
``--pred-generated [NAME:]SYSTEM=FILE.jsonl`` the same for a run of generated output (an
LLM's responses, as ``--generated`` reads them; --occurrences, --fuzzy). Or a JSON
manifest (``--manifest FILE``, see ``manifest.py``) with lists of files as runs.
Writes experiment.json and experiment.html.
"""
from __future__ import annotations

import argparse
import copy
import glob
from pathlib import Path

from nerlens.experiment.build import run_experiment as experiment
from nerlens.experiment.runs import check_run_system, run_name
from nerspan.reading.systems import load_saved_split

from .common import UsageError, show_progress, write_outputs
from .inputs import read_training
from .manifest import naming, read_manifest, read_runs
from .options import given, inputs_of

GLOB_CHARACTERS = set("*?[")
# the flags that add a run (their ``_Declare`` kind) -> the key of its dataset's entry
RUN_KINDS = {"pred": "systems", "pred_generated": "generated"}
FLAG_OF = {"systems": "--pred", "generated": "--pred-generated"}


class _Declare(argparse.Action):
    """Keeps --data and --pred in the order given (a --pred belongs to the last --data)."""

    def __call__(self, parser, namespace, values, option_string=None):
        declared = list(getattr(namespace, "declared", None) or [])
        declared.append((self.dest, list(values)))
        namespace.declared = declared


def add_experiment_arguments(parser) -> None:
    group = parser.add_argument_group(
        "experiments (several datasets, several runs per system)",
        "Either --manifest FILE, or --data and --pred in order: e.g. --data conll03 "
        "test.txt train.txt --pred flair=s1.txt flair=s2.txt bert=b.txt --data wnut16 "
        "wtest.txt wtrain.txt --pred 'flair=wnut_flair_*.txt' bert=wb.txt. Writes "
        "experiment.json and experiment.html (per-dataset sections, mean +- std over runs, "
        "Wilcoxon tests with Holm's correction).")
    group.add_argument("--data", nargs="+", action=_Declare, metavar=("NAME GOLD", "TRAIN"),
                       help="a dataset: its name, gold column file and training file "
                            "(default --train); repeat for each dataset")
    group.add_argument("--pred", nargs="+", action=_Declare, metavar="[NAME:]SYSTEM=FILE",
                       help="a run of SYSTEM on the last --data (or on dataset NAME); a "
                            "repeated SYSTEM is another run; a quoted FILE pattern (* ?) "
                            "adds every matching file as a run")
    group.add_argument("--pred-generated", nargs="+", action=_Declare,
                       metavar="[NAME:]SYSTEM=FILE.jsonl",
                       help="a run of SYSTEM given as generated output (an LLM's responses, "
                            "JSON Lines as --generated reads them) on the last --data (or "
                            "on dataset NAME); grounded in its gold sentences")
    group.add_argument("--manifest", metavar="FILE",
                       help="a JSON manifest: dataset -> {train, gold, predictions: {system: "
                            "file or [run files]}, generated: {system: JSON Lines file or "
                            "[run files]}}")
    parser.set_defaults(declared=[])


def is_experiment(args) -> bool:
    return bool(given(args, "declared") or given(args, "manifest"))


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
    [files]}} from the --data, --pred and --pred-generated entries in order (a --pred
    NAME:SYSTEM=FILE may come before --data NAME); errors name the entry."""
    datasets: dict = {}
    runs, last = [], None  # (key, --pred entry, dataset, system, file pattern)
    for kind, values in declared:
        if kind in RUN_KINDS:
            runs += [(RUN_KINDS[kind], *_parsed_run(entry, last, kind)) for entry in values]
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
        datasets[name] = {"gold": gold, "train": train, "systems": {}, "generated": {}}
        last = name
    for key, entry, name, system, pattern in runs:  # once every dataset is declared
        flag = FLAG_OF[key]
        if name not in datasets:
            raise UsageError(f"{flag} {entry}: no dataset {name!r} (declared: "
                             f"{', '.join(datasets) or 'none'})")
        other = datasets[name]["generated" if key == "systems" else "systems"]
        if system in other:
            raise UsageError(f"{flag} {entry}: system {system!r} has runs of --pred and of "
                             f"--pred-generated on dataset {name!r}: give its output one way")
        datasets[name][key].setdefault(system, []).extend(_files(f"{flag} {entry}", pattern))
    for name, entry in datasets.items():
        if not entry["systems"] and not entry["generated"]:
            raise UsageError(f"--data {name}: no predictions: add --pred SYSTEM=FILE after it")
    return datasets


def _parsed_run(entry: str, last: str | None, kind: str = "pred"
                ) -> tuple[str, str, str, str]:
    """``(entry, dataset, system, file pattern)`` of a --pred (``kind``: or
    --pred-generated) entry (``last``: the --data before it, the dataset of
    SYSTEM=FILE)."""
    flag = FLAG_OF[RUN_KINDS[kind]]
    target, equals, pattern = entry.partition("=")
    if not equals or not target or not pattern:
        raise UsageError(f"{flag} {entry}: write SYSTEM=FILE or NAME:SYSTEM=FILE")
    name, colon, system = target.rpartition(":")
    if not colon:
        if last is None:
            raise UsageError(f"{flag} {entry}: no dataset yet: put it after --data "
                             "NAME GOLD TRAIN, or write NAME:SYSTEM=FILE")
        name = last
    return entry, name, check_run_system(system, f"{flag} {entry}"), pattern


def _training(args, path: str):
    if Path(path).is_dir():
        return load_saved_split(path, None, "train")
    with_train = copy.copy(args)
    with_train.train = path
    return read_training(with_train, outside_scheme_is_error=True)


def experiment_inputs(args) -> tuple[dict, dict]:
    """(datasets for ``nerlens.run_experiment`` with prebuilt corpora, the input files
    for the provenance), from --manifest or from --data/--pred."""
    mixed = [flag for flag, value in (("GOLD/PRED", given(args, "predictions")
                                       or given(args, "gold")),
                                      ("--gold", given(args, "gold_option")),
                                      ("--dataset", given(args, "dataset_option")),
                                      ("--demo", given(args, "demo")),
                                      ("--generated (give --pred-generated)",
                                       given(args, "generated")),
                                      ("--jsonl", given(args, "jsonl"))) if value]
    if mixed:
        raise UsageError(f"an experiment (--data/--pred or --manifest) reads every file from "
                         f"its declaration: leave out {', '.join(mixed)}")
    datasets, inputs = {}, {}
    if given(args, "manifest"):
        if args.declared:
            raise UsageError("give --manifest or --data/--pred, not both")
        for entry in read_manifest(args.manifest, args, outside_scheme_is_error=True):
            train = entry.train or given(args, "train")
            if not train:
                raise UsageError(f"{args.manifest}: dataset {entry.name!r} has no \"train\" "
                                 "(the experiment indexes each training set)")
            with naming(f"dataset {entry.name!r}"):
                training = _training(args, train)
            datasets[entry.name] = {"corpus": entry.corpus, "train": training,
                                    "systems": entry.runs}
            inputs[entry.name] = {"gold": f"{args.manifest}: {entry.name}", "train": train,
                                  "systems": {c: args.manifest for c in entry.systems}}
        return datasets, inputs
    for name, entry in declared_datasets(args.declared, given(args, "train")).items():
        datasets[name], inputs[name] = _declared_dataset(args, name, entry)
    return datasets, inputs


def _declared_dataset(args, name: str, entry: dict) -> tuple[dict, dict]:
    """(the experiment's entry, its provenance) of one --data dataset: its files read
    and checked one by one, so that an error names the dataset and the system's run."""
    runs, files, generated = {}, {}, {}
    for key, into in (("systems", files), ("generated", generated)):
        for system, paths in entry.get(key, {}).items():
            runs[system] = [run_name(system, k, len(paths)) for k in range(len(paths))]
            into.update(zip(runs[system], paths))
    corpus = read_runs(name, entry["gold"], files, args, outside_scheme_is_error=True,
                       generated=generated)
    with naming(f"dataset {name!r}"):
        training = _training(args, entry["train"])
    return ({"corpus": corpus, "train": training, "systems": runs},
            {"gold": entry["gold"], "train": entry["train"],
             "systems": {**files, **generated}})


def run_experiment(args) -> int:
    datasets, sources = experiment_inputs(args)
    result = experiment(datasets, baseline=args.baseline, scheme=args.scheme, mode=args.mode,
                        inputs=inputs_of(args), bootstrap=args.bootstrap, seed=args.seed,
                        min_share=args.min_share, families=given(args, "families"),
                        progress=show_progress(args), sources=sources, beta=args.beta)
    write_outputs(result, args, "experiment")
    return 0
