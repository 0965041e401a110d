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
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from nerspan import GOLD, Corpus
from nerlens.systems import read_systems

from .common import UsageError, check_file, system_name, system_options


@dataclass
class Dataset:
    """One manifest entry, read: the corpus (gold + one column per system) and train path."""

    name: str
    corpus: Corpus
    systems: list
    train: str | None


def read_manifest(path: str, args) -> list[Dataset]:
    """The datasets of a manifest file, in file order (errors name the file and entry).
    Its files are read and checked as GOLD and PRED are, with the reading flags of
    ``args`` (--comment-prefix, --encoding, --allow-token-mismatch, ...)."""
    text = Path(check_file(path)).read_text(encoding="utf-8")
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"{path}: not JSON ({error.msg}, line {error.lineno})") from None
    if not isinstance(entries, dict) or not entries:
        raise UsageError(f"{path}: a manifest is a JSON object: dataset name -> "
                         "{\"train\": ..., \"gold\": ..., \"predictions\": ...}")
    folder = Path(path).parent
    return [_dataset(name, entry, folder, path, args)
            for name, entry in entries.items()]


def _dataset(name: str, entry, folder: Path, path: str, args) -> Dataset:
    where = f"{path}: dataset {name!r}"
    if not isinstance(entry, dict) or "gold" not in entry:
        raise UsageError(f"{where}: needs at least \"gold\"")
    unknown = set(entry) - {"train", "gold", "predictions"}
    if unknown:
        raise UsageError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                         "(allowed: train, gold, predictions)")

    def resolve(value) -> str:
        if not isinstance(value, str):
            raise UsageError(f"{where}: file names must be strings, not {value!r}")
        return check_file(str(folder / value))

    train = resolve(entry["train"]) if entry.get("train") else None
    predictions = entry.get("predictions")
    if predictions is None:
        corpus, systems = read_systems(resolve(entry["gold"]), None, **system_options(args))
        return Dataset(name, corpus, systems, train)
    if isinstance(predictions, str):
        predictions = {system_name(predictions): predictions}
    if not isinstance(predictions, dict) or not predictions:
        raise UsageError(f"{where}: \"predictions\" is a file or an object name -> file")
    if GOLD in predictions:
        raise UsageError(f"{where}: {GOLD!r} cannot name a system")
    corpus, systems = read_systems(resolve(entry["gold"]),
                                   {system: resolve(f) for system, f in predictions.items()},
                                   **system_options(args))
    return Dataset(name, corpus, systems, train)
