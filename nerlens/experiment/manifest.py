"""An experiment's datasets declared in a JSON manifest, checked and read.

    {
      "conll03": {"train": "conll03/train.txt", "gold": "conll03/test.txt",
                  "predictions": {"flair": "flair.txt", "bert": "bert.txt"}},
      "wnut16":  {"train": "wnut16/train.txt", "gold": "wnut16/systems/flair.txt"}
    }

Each entry is a dataset: its training file, its gold file (token first, tag last) and
its predictions (one file, or system name -> file; tag last). Without ``predictions`` the
gold file holds both columns (gold second-to-last, prediction last), named after the
file. Relative paths are read from the manifest's folder. Systems are matched across
datasets by name. A system may have several runs (seeds): ``"predictions": {"flair":
["flair_s1.txt", "flair_s2.txt"], "bert": "bert.txt"}``; its runs become the columns
``flair#1``, ``flair#2`` (one run keeps the system's name). Generated output is given
the same way under ``"generated"``, beside or instead of ``"predictions"``; other
versions of the gold as ``"gold_alt": {"conllpp": "conllpp_test.txt"}`` (version name ->
column file, read as a prediction file is).

``read_manifest`` checks one (errors name the file, line, dataset and offending value)
into declared datasets, the form ``declared_datasets`` makes of the command line's
``--data``/``--pred`` too (``"systems"`` None: the gold file holds both columns);
``read_dataset`` reads one, each run on its own so that an error names the dataset and
the run (``manifest_datasets``: every one of a manifest); ``experiment_datasets`` reads
them all for ``run_experiment``, which takes a manifest's path or a ``Declaration`` (the
command line's) as its datasets.
"""
from __future__ import annotations

import glob
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from nerspan import GOLD, Corpus, FormatError, InputOptions, NameTakenError
from nerspan.errors import load_json
from nerspan.reading.columns import read_text_file
from nerspan.reading.systems import add_gold_versions, named_files, read_systems
from nerspan.reading.training import read_training_file

from .generated import ground_runs
from .runs import check_run_system, existing, naming, run_name

ENTRY_KEYS = ("train", "gold", "predictions", "generated", "gold_alt")
RUN_KEYS = ("systems", "generated", "scored")   # a declared dataset's keys of runs


@dataclass
class Dataset:
    """One dataset, read: the corpus (gold + one column per run) and train path."""

    name: str
    corpus: Corpus
    systems: list            # the corpus columns: one per run
    train: str | None
    runs: dict = field(default_factory=dict)   # system -> its columns (runs)
    versions: dict = field(default_factory=dict)   # other gold version -> its file
    files: dict = field(default_factory=dict)   # column -> its file (scored runs too)


# -- the manifest ------------------------------------------------------------------------
def read_manifest(path, *, train=None, needs_train: bool = False) -> dict:
    """Name -> each dataset of manifest ``path``, declared (the module's form), its paths
    read from the manifest's folder (``train``: the training file of a dataset without
    one; ``needs_train``: each must have one); errors name the file (and line) and the
    entry."""
    path = os.fspath(path)
    text = read_text_file(lambda file, encoding: Path(file).read_text(encoding=encoding),
                          existing(path))
    try:
        entries = load_json(text, path)
    except json.JSONDecodeError as error:
        raise FormatError(f"not JSON: {error.msg} (column {error.colno})", path=path,
                          line=error.lineno) from None
    if not isinstance(entries, dict) or not entries:
        raise FormatError("a manifest is a JSON object: dataset name -> {\"train\": ..., "
                          "\"gold\": ..., \"predictions\": ...}", path=path)
    folder = Path(path).parent
    declared = {name: _entry(entry, folder, f"{path}: dataset {name!r}")
                for name, entry in entries.items()}
    for name, entry in declared.items():
        entry["train"] = entry["train"] or train
        if needs_train and not entry["train"]:
            raise FormatError(f"dataset {name!r} has no \"train\" (the experiment indexes "
                              "each training set)", path=path)
    return declared


def _entry(entry, folder: Path, where: str) -> dict:
    """One manifest entry declared (``"systems"`` None: its gold file holds both
    columns); errors name ``where``, the file and dataset."""
    if not isinstance(entry, dict) or "gold" not in entry:
        raise FormatError(f"{where}: needs at least \"gold\"")
    unknown = set(entry) - set(ENTRY_KEYS)
    if unknown:
        raise FormatError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                          f"(allowed: {', '.join(ENTRY_KEYS)})")

    def resolve(value) -> str:
        if not isinstance(value, str):
            raise FormatError(f"{where}: file names must be strings, not {value!r}")
        return str(folder / value)

    declared = {"train": resolve(entry["train"]) if entry.get("train") else None,
                "gold": resolve(entry["gold"]), "systems": None, "generated": {},
                "scored": {}, "gold_alt": {}}
    predictions, generated = entry.get("predictions"), entry.get("generated")
    if predictions is not None or generated is not None:
        if isinstance(predictions, str):
            predictions = named_files([predictions])  # named after the file, as PRED is
        if not isinstance(predictions, (dict, type(None))) or not (predictions or generated):
            raise FormatError(f"{where}: \"predictions\" is a file or an object name -> file "
                              "(or a list of files: the system's runs)")
        if generated is not None and (not isinstance(generated, dict) or not generated):
            raise FormatError(f"{where}: \"generated\" is an object name -> JSON Lines file "
                              "(or a list of files: the system's runs)")
        declared["systems"] = {}
        for section, key in ((predictions or {}, "systems"), (generated or {}, "generated")):
            for system, value in section.items():
                check_run_system(system, where)
                if system in declared["systems"] or system in declared["generated"]:
                    raise NameTakenError(f"system {system!r} is in \"predictions\" and in "
                                         "\"generated\": give each system's output once",
                                         side=where)
                files = value if isinstance(value, list) else [value]
                if not files:
                    raise FormatError(f"{where}: system {system!r} has an empty list of runs")
                declared[key][system] = [resolve(f) for f in files]
    versions = entry.get("gold_alt")
    if versions is not None and (not isinstance(versions, dict) or not versions):
        raise FormatError(f"{where}: \"gold_alt\" is an object: version name -> gold file "
                          "(e.g. {\"conllpp\": \"conllpp_test.txt\"})")
    for version, file in (versions or {}).items():
        check_version(declared, version, where)
        declared["gold_alt"][version] = resolve(file)
    return declared


def check_version(dataset: dict, version: str, where: str, apart: str = "") -> str:
    """``version`` if it may name another gold version of ``dataset`` (declared): not the
    gold's name nor a system's, given once (``where``: the flag or the manifest's entry;
    ``apart``: a hint of a free name)."""
    if version == GOLD or any(version in (dataset[key] or {}) for key in RUN_KEYS):
        owner = "the gold" if version == GOLD else "a system"
        raise NameTakenError(f"gold version {version!r} names {owner} already: name the gold "
                             f"version apart{apart}", side=where)
    check_run_system(version, f"{where}, gold version")
    if version in dataset["gold_alt"]:
        raise NameTakenError(f"gold version {version!r} is given already: give each version "
                             "once", side=where)
    return version


# -- the same datasets declared in order on the command line ------------------------------
@dataclass
class Declaration:
    """An experiment as the command line declares it: ``entries``, the ``(flag, values)``
    of --data, --pred, --pred-generated, --pred-scored and --gold-alt in the order given
    (``declared_datasets``), or a ``manifest``; ``train``: the training file of a dataset
    declared without one."""

    entries: list = field(default_factory=list)
    manifest: str | os.PathLike | None = None
    train: str | None = None

    def __bool__(self) -> bool:
        """Whether it declares datasets (a --gold-alt alone is another version of one
        dataset's gold, for the one-dataset report)."""
        return bool(self.manifest) or any(kind != "gold_alt" for kind, _ in self.entries)

    def read(self, **options) -> tuple[dict, dict]:
        """``experiment_datasets`` (``options``: its keywords) of the datasets declared."""
        return experiment_datasets(declared_datasets(self.entries, self.train,
                                                     manifest=self.manifest), **options)


# each flag that declares an experiment's datasets after ``--data NAME GOLD [TRAIN]`` (its
# kind in the declaration: the flag's dest) -> the key of the declared dataset it fills
DECLARED_KEYS = {"pred": "systems", "pred_generated": "generated", "pred_scored": "scored",
                 "gold_alt": "gold_alt"}


def _flag(kind: str) -> str:
    return "--" + kind.replace("_", "-")


def declared_datasets(declared: list, default_train: str | None, manifest=None) -> dict:
    """Declared datasets (``read_manifest``'s form) of the command line's ``(kind,
    values)`` entries in order: ``("data", [NAME, GOLD, TRAIN?])``, then each run
    (``"pred"``, ``"pred_generated"``, ``"pred_scored"``: ``[NAME:]SYSTEM=FILE`` values,
    FILE a glob pattern too) and gold version (``"gold_alt"``) of the last --data, or of
    dataset NAME, which may come later; errors name the flag and its value. With
    ``manifest`` (--manifest FILE), those of the manifest, each with a training file
    (``default_train`` by default), and no entries."""
    if manifest:
        if any(kind == "gold_alt" for kind, _ in declared):
            raise ValueError("--gold-alt: an experiment of --manifest takes each dataset's "
                             "gold versions in its entry: \"gold_alt\": {\"NAME\": \"FILE\"}")
        if declared:
            raise ValueError("give --manifest or --data/--pred, not both")
        return read_manifest(manifest, train=default_train, needs_train=True)
    datasets: dict = {}
    runs, last = [], None  # (kind, entry, dataset, system or version, file pattern)
    for kind, values in declared:
        if kind in DECLARED_KEYS:
            runs += [(kind, *_parsed(kind, value, last)) for value in values]
            continue
        if len(values) not in (2, 3):
            raise ValueError(f"--data {' '.join(values)}: give NAME GOLD [TRAIN] (2 or 3 "
                             f"values, not {len(values)})")
        name, gold, train = *values[:2], (values[2:] or [default_train])[0]
        if name in datasets:
            raise ValueError(f"--data {name}: dataset {name!r} is declared twice")
        if not train:
            raise ValueError(f"--data {' '.join(values)}: no training file: give it as "
                             "the third value or with --train")
        datasets[last := name] = {"gold": gold, "train": train,
                                  **{key: {} for key in DECLARED_KEYS.values()}}
    for kind, entry, name, system, pattern in runs:  # once every dataset is declared
        key, where = DECLARED_KEYS[kind], f"{_flag(kind)} {entry}"
        if name not in datasets:
            hint = f": write {_flag(kind)} {next(iter(datasets), 'NAME')}:{system}={pattern}" \
                if kind == "gold_alt" else ""
            raise ValueError(f"{where}: no dataset {name!r} (declared: "
                             f"{', '.join(datasets) or 'none'}){hint}")
        other = next((k for k in RUN_KEYS if k != key and system in datasets[name][k]), None)
        if kind != "gold_alt" and other is not None:
            first, second = (_flag(k) for k, v in DECLARED_KEYS.items() if v in (key, other))
            raise ValueError(f"{where}: system {system!r} has runs of {first} and of {second} "
                             f"on dataset {name!r}: give its output one way")
        if kind != "gold_alt":
            datasets[name][key].setdefault(system, []).extend(_files(where, pattern))
    for name, entry in datasets.items():
        if not any(entry[key] for key in RUN_KEYS):
            raise ValueError(f"--data {name}: no predictions: add --pred SYSTEM=FILE after it")
    for kind, entry, name, version, path in runs:   # once every system is declared
        if kind == "gold_alt":
            _add_version(datasets[name], f"--gold-alt {entry}", name, version, path)
    return datasets


def _parsed(kind: str, value, last: str | None) -> tuple[str, str, str, str]:
    """``(entry, dataset, system or version, file pattern)`` of a ``[NAME:]SYSTEM=FILE``
    value of flag ``kind`` (--gold-alt: ``(target, file)`` parsed); ``last``: the --data
    before it, the dataset without NAME."""
    entry, flag = value if isinstance(value, str) else "=".join(value), _flag(kind)
    target, equals, pattern = entry.partition("=")
    if not equals or not target or not pattern:
        raise ValueError(f"{flag} {entry}: write SYSTEM=FILE or NAME:SYSTEM=FILE")
    name, colon, named = target.rpartition(":")
    if not colon and last is None:
        written = f"{flag} NAME:{entry}" if kind == "gold_alt" else "NAME:SYSTEM=FILE"
        raise ValueError(f"{flag} {entry}: no dataset yet: put it after --data NAME GOLD TRAIN, "
                         f"or write {written}")
    if kind != "gold_alt":
        check_run_system(named, f"{flag} {entry}")
    return entry, (name if colon else last), named, pattern


def _files(where: str, pattern: str) -> list[str]:
    """The files of a run's pattern (``where``: the flag and its value, for errors)."""
    if not set("*?[") & set(pattern):
        return [pattern]
    found = sorted(glob.glob(pattern))
    if not found:
        raise ValueError(f"{where}: no file matches {pattern!r}")
    return found


def _add_version(dataset: dict, where: str, name: str, version: str, path: str) -> None:
    """Gold version ``version`` (file ``path``) of dataset ``name``, checked as a
    manifest's (``check_version``), the error naming a free name."""
    taken = {GOLD, *(system for key in RUN_KEYS for system in dataset[key])}
    free = next(f"{version}_{k}" for k in range(2, len(taken) + 3)
                if f"{version}_{k}" not in taken)
    check_version(dataset, version, f"{where}: dataset {name!r}",
                  f", e.g. --gold-alt {name}:{free}={path}")
    dataset["gold_alt"][version] = path


# -- reading a declared dataset ------------------------------------------------------------
def read_dataset(name: str, entry: dict, *, scheme: str = "IOB2", mode: str = "lenient",
                 inputs=None, outside_scheme_is_error: bool = True,
                 on_repairs=None) -> Dataset:
    """One declared dataset read: its gold and a column per run, read one by one so that
    an error names the dataset and the system's run (``inputs``: the input options); its
    scored span files checked; a column per gold version, read as a prediction is."""
    options = dict(scheme=scheme, mode=mode, inputs=InputOptions.of(inputs),
                   outside_scheme_is_error=outside_scheme_is_error, on_repairs=on_repairs)
    if entry["train"] is not None:
        existing(entry["train"], f"dataset {name!r}")
    if entry["systems"] is None:   # the gold file holds both columns
        with naming(f"dataset {name!r}"):
            corpus, systems = read_systems(existing(entry["gold"]), None, **options)
        runs, files = {system: [system] for system in systems}, dict.fromkeys(systems,
                                                                              entry["gold"])
    else:
        runs, files, generated = run_columns(entry["systems"], entry["generated"])
        corpus = _read_runs(name, entry["gold"], files, generated, options)
        files = {**files, **generated}
        systems = list(files)
    scored = run_columns(entry["scored"], {})[1]   # column -> scored span file
    for column, file in scored.items():
        existing(file, f"dataset {name!r}, system {column!r}")
    with naming(f"dataset {name!r}"):
        corpus, _ = add_gold_versions(corpus, entry["gold"], [
            (version, existing(file)) for version, file in entry["gold_alt"].items()], **options)
    return Dataset(name, corpus, systems, entry["train"], runs, entry["gold_alt"],
                   {**files, **scored})


def manifest_datasets(path, *, without_versions: str | None = None, needs_train: bool = False,
                      **options) -> list:
    """The datasets of manifest ``path`` (``Dataset``), in file order, each read by
    ``read_dataset`` (``options``: its keywords; ``needs_train``: each must have a
    "train"). ``without_versions``: the reader, which scores one gold (named in the
    error): other gold versions ("gold_alt") are refused."""
    declared = read_manifest(path, needs_train=needs_train)
    for name, entry in declared.items():
        if without_versions and entry["gold_alt"]:
            raise ValueError(f"{path}: dataset {name!r}: \"gold_alt\" (other gold versions) "
                             f"is read by nerlens report --manifest {path}, not by "
                             f"{without_versions}: leave it out here")
    return [read_dataset(name, entry, **options) for name, entry in declared.items()]


def run_columns(predictions: dict, generated: dict) -> tuple[dict, dict, dict]:
    """``(system -> its columns, column -> file, column -> generated file)`` of the run
    files of each system (system -> [files]), as predictions and as generated output."""
    runs: dict = {}
    columns: tuple = ({}, {})
    for declared, into in zip((predictions, generated), columns):
        for system, paths in declared.items():
            runs[system] = [run_name(system, k, len(paths)) for k in range(len(paths))]
            into.update(zip(runs[system], paths))
    return runs, *columns


def _read_runs(name: str, gold: str, files: dict, generated: dict, options: dict) -> Corpus:
    """The corpus of one dataset: its gold file and one column per run file (column ->
    file), read one by one (``read_systems``, as a report given files reads them); then the
    runs of generated output (column -> JSON Lines file), grounded in gold's sentences
    together (``ground_runs``: they answer the same sentences)."""
    inputs = options["inputs"]
    if generated and inputs.types.processing:
        # gold's types are processed as it is read; the report grounds first
        raise ValueError("--keep-types, --remove-types and --type-map do not apply to the "
                         "generated output of an experiment: leave them out, or score each "
                         "dataset with nerlens report GOLD --generated FILE")
    gold = existing(gold, f"dataset {name!r}")
    for column, file in {**files, **generated}.items():
        existing(file, f"dataset {name!r}, system {column!r}")
    with naming(f"dataset {name!r}"):   # read as every input is (suffix, the type options)
        corpus, _ = read_systems(gold, files, **options)
        return ground_runs(corpus, generated, inputs)


def experiment_datasets(declared: dict, *, scheme: str = "IOB2", mode: str = "lenient",
                        inputs=None, outside_scheme_is_error: bool = True,
                        on_repairs=None) -> tuple[dict, dict]:
    """``(datasets for run_experiment with prebuilt corpora, the input files of each for
    its provenance)`` of declared datasets (``read_manifest``'s form), each read by
    ``read_dataset`` with its training data (the keywords: how they are read)."""
    options = dict(scheme=scheme, mode=mode, inputs=InputOptions.of(inputs),
                   outside_scheme_is_error=outside_scheme_is_error, on_repairs=on_repairs)
    datasets, sources = {}, {}
    for name, entry in declared.items():
        data = read_dataset(name, entry, **options)
        with naming(f"dataset {name!r}"):
            training = read_training_file(existing(data.train), **options)
        # a prebuilt corpus: "gold_alt" names the columns of its versions
        versions = {"gold_alt": data.versions} if data.versions else {}
        datasets[name] = {"corpus": data.corpus, "train": training, "systems": data.runs,
                          "scored": entry["scored"], **{k: list(v) for k, v in versions.items()}}
        sources[name] = {"gold": entry["gold"], "train": data.train, "systems": data.files,
                         **versions}
    return datasets, sources
