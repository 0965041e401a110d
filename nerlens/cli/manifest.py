"""A small JSON manifest for experiments over several datasets (or domains).

    {
      "conll03": {"train": "conll03/train.txt", "gold": "conll03/test.txt",
                  "predictions": {"flair": "flair.txt", "bert": "bert.txt"}},
      "wnut16":  {"train": "wnut16/train.txt", "gold": "wnut16/systems/flair.txt"}
    }

Each entry is a dataset: its training file, its gold file (token first, tag last) and
its predictions (one file, or system name -> file; tag last). Without ``predictions`` the
gold file holds both columns (gold second-to-last, prediction last), named after the
file. Relative paths are read from the manifest's folder. Systems are matched across
datasets by name.

A system may have several runs (seeds): ``"predictions": {"flair": ["flair_s1.txt",
"flair_s2.txt"], "bert": "bert.txt"}``. Its runs become the columns ``flair#1``,
``flair#2`` (one run keeps the system's name); ``Dataset.runs`` maps each system to them.

Generated output (an LLM's responses, JSON Lines as ``--generated`` reads them) is given
the same way under ``"generated"``, beside or instead of ``"predictions"``:
``"generated": {"gpt": ["gpt_s1.jsonl", "gpt_s2.jsonl"]}``. Each dataset's runs are
grounded in its gold sentences as the one-dataset report grounds them
(``nerlens.experiment.generated.ground_runs``, with --occurrences and --fuzzy).
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from nerspan import GOLD, Corpus, NerspanError
from nerspan.reading.columns import undecodable_error
from nerspan.reading.forms import finished

from nerlens.experiment.generated import ground_runs
from nerlens.experiment.runs import check_run_system, run_name, with_place
from nerspan.reading.systems import add_systems, named_files, read_gold, read_systems

from .common import UsageError, check_file, describe, load_json, note
from .inputs import system_options
from .options import inputs_of


@dataclass
class Dataset:
    """One manifest entry, read: the corpus (gold + one column per system) and train path."""

    name: str
    corpus: Corpus
    systems: list            # the corpus columns: one per run
    train: str | None
    runs: dict = field(default_factory=dict)   # system -> its columns (runs)


def read_manifest(path: str, args, outside_scheme_is_error: bool = False) -> list[Dataset]:
    """The datasets of a manifest file, in file order (errors name the file and entry,
    and a file's errors the dataset and system). Its files are read and checked as GOLD
    and PRED are, with the reading flags of ``args`` (--comment-prefix, --encoding,
    --allow-token-mismatch, ...); ``outside_scheme_is_error`` as the report reads them."""
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
    folder = Path(path).parent
    return [_dataset(name, entry, folder, path, args, outside_scheme_is_error)
            for name, entry in entries.items()]


def _dataset(name: str, entry, folder: Path, path: str, args,
             outside_scheme_is_error: bool) -> Dataset:
    where = f"{path}: dataset {name!r}"
    if not isinstance(entry, dict) or "gold" not in entry:
        raise UsageError(f"{where}: needs at least \"gold\"")
    unknown = set(entry) - {"train", "gold", "predictions", "generated"}
    if unknown:
        raise UsageError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         "(allowed: train, gold, predictions, generated)")

    def resolve(value) -> str:
        if not isinstance(value, str):
            raise UsageError(f"{where}: file names must be strings, not {value!r}")
        return str(folder / value)

    train = resolve(entry["train"]) if entry.get("train") else None
    if train is not None:
        with naming(f"dataset {name!r}"):
            check_file(train)
    predictions, generated = entry.get("predictions"), entry.get("generated")
    if generated is not None and predictions is None:
        predictions = {}   # gold alone, then the generated runs
    if predictions is None:
        gold = resolve(entry["gold"])
        with naming(f"dataset {name!r}"):
            corpus, systems = read_systems(check_file(gold), None,
                                           **system_options(args, outside_scheme_is_error))
        return Dataset(name, corpus, systems, train, {system: [system] for system in systems})
    if isinstance(predictions, str):
        predictions = named_files([predictions])  # named after the file, as PRED is
    if not isinstance(predictions, dict) or not (predictions or generated):
        raise UsageError(f"{where}: \"predictions\" is a file or an object name -> file "
                         "(or a list of files: the system's runs)")
    if generated is not None and (not isinstance(generated, dict) or not generated):
        raise UsageError(f"{where}: \"generated\" is an object name -> JSON Lines file (or "
                         "a list of files: the system's runs)")
    runs, files, generated_files = {}, {}, {}
    for declared, into in ((predictions, files), (generated or {}, generated_files)):
        for system, value in declared.items():
            check_run_system(system, where)
            if system in runs:
                raise UsageError(f"{where}: system {system!r} is in \"predictions\" and in "
                                 "\"generated\": give each system's output once")
            given = value if isinstance(value, list) else [value]
            if not given:
                raise UsageError(f"{where}: system {system!r} has an empty list of runs")
            runs[system] = [run_name(system, k, len(given)) for k in range(len(given))]
            into.update(zip(runs[system], (resolve(f) for f in given)))
    corpus = read_runs(name, resolve(entry["gold"]), files, args, outside_scheme_is_error,
                       generated_files)
    return Dataset(name, corpus, [*files, *generated_files], train, runs)


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
