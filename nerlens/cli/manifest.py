"""The datasets of an experiment (several datasets, several runs per system), declared on
the command line or in a JSON manifest and read through ``nerspan.reading`` as GOLD and
PRED are (``inputs``); ``buckets --manifest`` and ``hardeval --manifest`` read the
manifest too. ``nerlens report`` writes experiment.json and experiment.html.

Declared on the command line, in order:

    nerlens report --data conll03 test.txt train.txt --pred flair=f1.txt flair=f2.txt \\
                       bert=b.txt --data wnut16 wtest.txt wtrain.txt --pred 'flair=w*.txt'

``--data NAME GOLD [TRAIN]`` starts a dataset (TRAIN defaults to --train); each following
``--pred SYSTEM=FILE`` adds a run of SYSTEM to it (a repeated SYSTEM is another run; a
quoted FILE pattern with * or ? adds every matching file, sorted, as runs);
``--pred NAME:SYSTEM=FILE`` adds it to dataset NAME wherever it stands;
``--pred-generated [NAME:]SYSTEM=FILE.jsonl`` the same for a run of generated output (an
LLM's responses, as ``--generated`` reads them; --occurrences, --fuzzy);
``--pred-scored [NAME:]SYSTEM=FILE.jsonl`` for a run of scored spans (``{"spans": [[start,
end, label, score], ...]}`` per sentence, the API's ``"scored"``): turned on the dial by
its dataset's report, its average precision folded over runs;
``--gold-alt [NAME:]VERSION=FILE`` adds another version of the gold (a corrected release,
a re-annotation) to the last --data (or to dataset NAME): its page and JSON then score
every run under each version (the API's ``"gold_alt"``).

Or a manifest (``--manifest FILE``):

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
``flair#1``, ``flair#2`` (one run keeps the system's name); ``Dataset.runs`` maps each
system to them. Generated output is given the same way under ``"generated"``, beside or
instead of ``"predictions"``: ``"generated": {"gpt": ["gpt_s1.jsonl", "gpt_s2.jsonl"]}``.
Other versions of the gold: ``"gold_alt": {"conllpp": "conllpp_test.txt"}`` (version
name -> column file, read as a prediction file is).

Each dataset's generated runs are grounded in its gold sentences as the one-dataset
report grounds them (``nerlens.experiment.generated.ground_runs``, with --occurrences and
--fuzzy).
"""
from __future__ import annotations

import argparse
import glob
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from nerspan import GOLD, Corpus, NerspanError
from nerspan.reading.columns import undecodable_error
from nerspan.reading.forms import finished
from nerspan.reading.systems import add_systems, named_files, read_gold, read_systems

from nerlens.experiment.build import run_experiment as experiment
from nerlens.experiment.generated import ground_runs
from nerlens.experiment.runs import check_run_system, run_name, with_place

from .common import UsageError, check_file, describe, load_json, note, show_progress, write_outputs
from .inputs import VERSION_KIND, add_predictions, read_training, system_options
from .options import given, inputs_of

GLOB_CHARACTERS = set("*?[")
# the flags that add a run (their ``_Declare`` kind) -> the key of its dataset's entry
RUN_KINDS = {"pred": "systems", "pred_generated": "generated", "pred_scored": "scored"}
FLAG_OF = {"systems": "--pred", "generated": "--pred-generated", "scored": "--pred-scored"}


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
def read_manifest(path: str, args, outside_scheme_is_error: bool = False,
                  versions: bool = False) -> list[Dataset]:
    """The datasets of a manifest file, in file order, read as --data/--pred are
    (``read_dataset``) with the reading flags of ``args`` (--comment-prefix, --encoding,
    --allow-token-mismatch, ...); ``outside_scheme_is_error`` as the report reads them."""
    return [read_dataset(args, name, entry, outside_scheme_is_error)
            for name, entry in manifest_entries(path, args, versions).items()]


def manifest_entries(path: str, args, versions: bool = False) -> dict:
    """Name -> each entry of manifest ``path`` in ``declared_datasets``' form, its paths
    read from the manifest's folder (errors name the file and entry). ``versions``: the
    command scores gold versions (``"gold_alt"``); else an entry holding them is refused,
    never read and then ignored."""
    try:
        text = Path(check_file(path)).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise undecodable_error(path, "utf-8-sig", error) from None
    try:
        entries = load_json(text, path)
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}:{error.lineno}: not JSON: {error.msg} (column "
                         f"{error.colno})") from None
    if not isinstance(entries, dict) or not entries:
        raise UsageError(f"{path}: a manifest is a JSON object: dataset name -> "
                         "{\"train\": ..., \"gold\": ..., \"predictions\": ...}")
    for name, entry in entries.items():
        if not versions and isinstance(entry, dict) and "gold_alt" in entry:
            raise UsageError(f"{path}: dataset {name!r}: \"gold_alt\" (other gold versions) "
                             f"is read by nerlens report --manifest {path}, not by "
                             f"nerlens {args.command}: leave it out here")
    folder = Path(path).parent
    return {name: _entry(entry, folder, f"{path}: dataset {name!r}")
            for name, entry in entries.items()}


def _entry(entry, folder: Path, where: str) -> dict:
    """One manifest entry in ``declared_datasets``' form (``"systems"`` None: its gold
    file holds both columns); errors name ``where``, the file and dataset."""
    if not isinstance(entry, dict) or "gold" not in entry:
        raise UsageError(f"{where}: needs at least \"gold\"")
    unknown = set(entry) - {"train", "gold", "predictions", "generated", "gold_alt"}
    if unknown:
        raise UsageError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         "(allowed: train, gold, predictions, generated, gold_alt)")

    def resolve(value) -> str:
        if not isinstance(value, str):
            raise UsageError(f"{where}: file names must be strings, not {value!r}")
        return str(folder / value)

    declared = {"train": resolve(entry["train"]) if entry.get("train") else None,
                "gold": resolve(entry["gold"]), "systems": None, "generated": {},
                "scored": {}, "gold_alt": {}}
    predictions, generated = entry.get("predictions"), entry.get("generated")
    if predictions is not None or generated is not None:
        if isinstance(predictions, str):
            predictions = named_files([predictions])  # named after the file, as PRED is
        if not isinstance(predictions, (dict, type(None))) or not (predictions or generated):
            raise UsageError(f"{where}: \"predictions\" is a file or an object name -> file "
                             "(or a list of files: the system's runs)")
        if generated is not None and (not isinstance(generated, dict) or not generated):
            raise UsageError(f"{where}: \"generated\" is an object name -> JSON Lines file (or "
                             "a list of files: the system's runs)")
        declared["systems"] = {}
        for section, key in ((predictions or {}, "systems"), (generated or {}, "generated")):
            for system, value in section.items():
                check_run_system(system, where)
                if system in declared["systems"] or system in declared["generated"]:
                    raise UsageError(f"{where}: system {system!r} is in \"predictions\" and "
                                     "in \"generated\": give each system's output once")
                files = value if isinstance(value, list) else [value]
                if not files:
                    raise UsageError(f"{where}: system {system!r} has an empty list of runs")
                declared[key][system] = [resolve(f) for f in files]
    versions = entry.get("gold_alt")
    if versions is not None and (not isinstance(versions, dict) or not versions):
        raise UsageError(f"{where}: \"gold_alt\" is an object: version name -> gold file "
                         "(e.g. {\"conllpp\": \"conllpp_test.txt\"})")
    for version, file in (versions or {}).items():
        check_version(declared, version, where)
        declared["gold_alt"][version] = resolve(file)
    return declared


def check_version(dataset: dict, version: str, where: str, apart: str = "") -> str:
    """``version`` if it may name another gold version of ``dataset`` (declared): not the
    gold's name nor a system's, given once (``where``: the flag or the manifest's entry;
    ``apart``: a hint of a free name)."""
    if version == GOLD or any(version in (dataset[key] or {}) for key in FLAG_OF):
        owner = "the gold" if version == GOLD else "a system"
        raise UsageError(f"{where}: gold version {version!r} names {owner} already: name the "
                         f"gold version apart{apart}")
    check_run_system(version, f"{where}, gold version")
    if version in dataset["gold_alt"]:
        raise UsageError(f"{where}: gold version {version!r} is given already: give each "
                         "version once")
    return version


def read_dataset(args, name: str, entry: dict, outside_scheme_is_error: bool = True
                 ) -> Dataset:
    """One declared dataset (``declared_datasets``' form) read: its gold and a column per
    run, read one by one so that an error names the dataset and the system's run; its
    scored span files checked; a column per gold version (``add_versions``)."""
    if entry["train"] is not None:
        with naming(f"dataset {name!r}"):
            check_file(entry["train"])
    if entry["systems"] is None:   # the gold file holds both columns
        with naming(f"dataset {name!r}"):
            corpus, systems = read_systems(check_file(entry["gold"]), None,
                                           **system_options(args, outside_scheme_is_error))
        runs, files = {system: [system] for system in systems}, dict.fromkeys(systems,
                                                                              entry["gold"])
    else:
        runs, files, generated = run_columns(entry["systems"], entry["generated"])
        corpus = read_runs(name, entry["gold"], files, args, outside_scheme_is_error,
                           generated)
        files = {**files, **generated}
        systems = list(files)
    scored = run_columns(entry["scored"], {})[1]   # column -> scored span file
    for column, file in scored.items():
        with naming(f"dataset {name!r}, system {column!r}"):
            check_file(file)
    corpus = add_versions(name, corpus, entry["gold_alt"], args, outside_scheme_is_error)
    return Dataset(name, corpus, systems, entry["train"], runs, entry["gold_alt"],
                   {**files, **scored})


def add_versions(name: str, corpus: Corpus, versions: dict, args,
                 outside_scheme_is_error: bool = True) -> Corpus:
    """``corpus`` of dataset ``name`` with a column per other gold version (name ->
    file), each read and checked as a --gold-alt file is (``inputs.add_predictions``):
    an error names the dataset, the version, the file and line."""
    for version, file in versions.items():
        with naming(f"dataset {name!r}"):
            corpus, _ = add_predictions(args, corpus, [file], outside_scheme_is_error,
                                        names=[version], what="gold version")
    return corpus


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


def read_runs(name: str, gold: str, files: dict, args, outside_scheme_is_error: bool,
              generated: dict | None = None) -> Corpus:
    """The corpus of one dataset: its gold file and one column per run file (column ->
    file), read one by one so that an error names the dataset and the system's run; then
    the runs of generated output (column -> JSON Lines file), grounded in gold's
    sentences together (``ground_runs``: they answer the same sentences)."""
    if generated and inputs_of(args).types.processing:
        # gold's types are processed as it is read; the report grounds first
        raise UsageError("--keep-types, --remove-types and --type-map do not apply to the "
                         "generated output of an experiment: leave them out, or score each "
                         "dataset with nerlens report GOLD --generated FILE")
    options = system_options(args, outside_scheme_is_error)
    with naming(f"dataset {name!r}"):
        corpus = read_gold(check_file(gold), **options)
    for column, file in files.items():
        with naming(f"dataset {name!r}, system {column!r}"):
            corpus, _ = add_systems(corpus, {column: check_file(file)}, **options)
    for column, file in (generated or {}).items():
        with naming(f"dataset {name!r}, system {column!r}"):
            check_file(file)
    with naming(f"dataset {name!r}"):   # read as every input is (--suffix, the type flags)
        corpus = finished(corpus, [GOLD, *files], options["inputs"], args.scheme, args.mode)
        corpus = ground_runs(corpus, generated or {}, options["inputs"])
    for column in generated or {}:   # as the one-dataset report notes each file
        note(f"dataset {name!r}, {column}: {corpus.source.generated[column].summary()}")
    return corpus


@contextmanager
def naming(where: str):
    """Errors of reading an experiment's file also name its place (``where``: the
    dataset, a system's run): an input error keeps its file, line and sentence and names
    the place before its side; a missing or unreadable file names it after the file."""
    try:
        yield
    except NerspanError as error:
        raise with_place(error, where) from None
    except (UsageError, OSError) as error:
        raise UsageError(f"{describe(error)} ({where})") from None


# -- --data / --pred on the command line --------------------------------------------------
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
    group.add_argument("--pred-scored", nargs="+", action=_Declare,
                       metavar="[NAME:]SYSTEM=FILE.jsonl",
                       help="a run of SYSTEM given as scored spans (JSON Lines, {\"spans\": "
                            "[[start, end, label, score], ...]} per sentence) on the last "
                            "--data (or on dataset NAME): its average precision over runs")
    group.add_argument("--manifest", metavar="FILE",
                       help="a JSON manifest: dataset -> {train, gold, predictions: {system: "
                            "file or [run files]}, generated: {system: JSON Lines file or "
                            "[run files]}}")
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
    runs, last = [], None  # (key, --pred entry, dataset, system, file pattern)
    versions = []          # (--gold-alt entry, dataset, version, file)
    for kind, values in declared:
        if kind == VERSION_KIND:
            versions += [_parsed_version(*value, last) for value in values]
            continue
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
        datasets[name] = {"gold": gold, "train": train, **{key: {} for key in FLAG_OF},
                          "gold_alt": {}}
        last = name
    for key, entry, name, system, pattern in runs:  # once every dataset is declared
        flag = FLAG_OF[key]
        if name not in datasets:
            raise UsageError(f"{flag} {entry}: no dataset {name!r} (declared: "
                             f"{', '.join(datasets) or 'none'})")
        other = next((k for k in FLAG_OF if k != key and system in datasets[name][k]), None)
        if other is not None:
            first, second = sorted((key, other), key=list(FLAG_OF).index)
            raise UsageError(f"{flag} {entry}: system {system!r} has runs of {FLAG_OF[first]} "
                             f"and of {FLAG_OF[second]} on dataset {name!r}: give its "
                             "output one way")
        datasets[name][key].setdefault(system, []).extend(_files(f"{flag} {entry}", pattern))
    for name, entry in datasets.items():
        if not any(entry[key] for key in FLAG_OF):
            raise UsageError(f"--data {name}: no predictions: add --pred SYSTEM=FILE after it")
    for entry, name, version, path in versions:
        _add_version(datasets, entry, name, version, path)
    return datasets


def _parsed_version(target: str, path: str, last: str | None) -> tuple[str, str, str, str]:
    """``(entry, dataset, version, file)`` of a --gold-alt ``target=path`` (``last``: the
    --data before it, the dataset of VERSION=FILE)."""
    entry = f"{target}={path}"
    return entry, *_target(f"--gold-alt {entry}", target, last, f"--gold-alt NAME:{entry}"), path


def _target(where: str, target: str, last: str | None, written: str) -> tuple[str, str]:
    """``(dataset, rest)`` of ``[DATASET:]REST``: DATASET, or the --data before it
    (``last``; none yet: an error naming ``where`` and the entry ``written`` with NAME)."""
    name, colon, named = target.rpartition(":")
    if not colon and last is None:
        raise UsageError(f"{where}: no dataset yet: put it after --data NAME GOLD TRAIN, or "
                         f"write {written}")
    return (name if colon else last), named


def _add_version(datasets: dict, entry: str, name: str, version: str, path: str) -> None:
    """Gold version ``version`` (file ``path``) of dataset ``name``, checked: a dataset
    declared, a name neither the gold's nor a system's of that dataset, given once."""
    flag = f"--gold-alt {entry}"
    if name not in datasets:
        known = next(iter(datasets), "NAME")
        raise UsageError(f"{flag}: no dataset {name!r} (declared: {', '.join(datasets) or 'none'}"
                         f"): write --gold-alt {known}:{version}={path}")
    dataset = datasets[name]
    taken = {GOLD, *(system for key in FLAG_OF for system in dataset[key])}
    free = next(f"{version}_{k}" for k in range(2, len(taken) + 3)
                if f"{version}_{k}" not in taken)
    check_version(dataset, version, f"{flag}: dataset {name!r}",
                  f", e.g. --gold-alt {name}:{free}={path}")
    dataset["gold_alt"][version] = path


def _parsed_run(entry: str, last: str | None, kind: str = "pred"
                ) -> tuple[str, str, str, str]:
    """``(entry, dataset, system, file pattern)`` of a --pred (``kind``: or
    --pred-generated, --pred-scored) entry (``last``: the --data before it, the dataset of
    SYSTEM=FILE)."""
    flag = FLAG_OF[RUN_KINDS[kind]]
    target, equals, pattern = entry.partition("=")
    if not equals or not target or not pattern:
        raise UsageError(f"{flag} {entry}: write SYSTEM=FILE or NAME:SYSTEM=FILE")
    name, system = _target(f"{flag} {entry}", target, last, "NAME:SYSTEM=FILE")
    return entry, name, check_run_system(system, f"{flag} {entry}"), pattern


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
    if given(args, "manifest"):
        if any(kind == VERSION_KIND for kind, _ in args.declared):
            raise UsageError("--gold-alt: an experiment of --manifest takes each dataset's gold "
                             "versions in its entry: \"gold_alt\": {\"NAME\": \"FILE\"}")
        if args.declared:
            raise UsageError("give --manifest or --data/--pred, not both")
        declared = manifest_entries(args.manifest, args, versions=True)
        for name, entry in declared.items():
            entry["train"] = entry["train"] or given(args, "train")
            if not entry["train"]:
                raise UsageError(f"{args.manifest}: dataset {name!r} has no \"train\" "
                                 "(the experiment indexes each training set)")
    else:
        declared = declared_datasets(args.declared, given(args, "train"))
    datasets, inputs = {}, {}
    for name, entry in declared.items():
        data = read_dataset(args, name, entry)
        with naming(f"dataset {name!r}"):
            training = read_training(args, True, data.train)
        # a prebuilt corpus: "gold_alt" names the columns of its versions
        versions = {"gold_alt": data.versions} if data.versions else {}
        datasets[name] = {"corpus": data.corpus, "train": training, "systems": data.runs,
                          "scored": entry["scored"], **{k: list(v) for k, v in versions.items()}}
        inputs[name] = {"gold": entry["gold"], "train": data.train, "systems": data.files,
                        **versions}
    return datasets, inputs


def run_experiment(args) -> int:
    datasets, sources = experiment_inputs(args)
    result = experiment(datasets, baseline=args.baseline, scheme=args.scheme, mode=args.mode,
                        inputs=inputs_of(args), bootstrap=args.bootstrap, seed=args.seed,
                        min_share=args.min_share, families=given(args, "families"),
                        progress=show_progress(args), sources=sources, beta=args.beta)
    write_outputs(result, args, "experiment")
    return 0
