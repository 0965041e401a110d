"""The datasets and runs of an experiment: checked, and named as report columns.

An experiment maps each dataset's name to its gold, training data and systems; a system
has one prediction or a list of runs. Run k of system ``flair`` is the column
``flair#2`` of its dataset's report (one run keeps the system's name), so a system's
name may not hold ``RUN_SEPARATOR``. Errors name the dataset and the system's run.
"""
from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path
from typing import Mapping

from nerspan import InputTypeError, NameTakenError, NerspanError
from nerspan.errors import shown
from nerspan.reading.span_lists import read_span_jsonl

from nerlens.report.names import pair_key
from nerspan.reading.systems import check_system_name, check_system_names

RUN_SEPARATOR = "#"
ENTRY_KEYS = {"gold", "train", "systems", "generated", "scored", "tokens", "corpus",
              "gold_tag_column", "gold_alt"}


def run_name(system: str, k: int, n_runs: int) -> str:
    """The report column of run ``k`` (0-based) of ``system``."""
    return system if n_runs == 1 else f"{system}{RUN_SEPARATOR}{k + 1}"


def _is_runs(value) -> bool:
    """A list of predictions (files or tag lists), not one prediction's tag lists."""
    if not isinstance(value, (list, tuple)) or not value:
        return False
    first = value[0]
    if isinstance(first, (str, Path)):
        return True
    return isinstance(first, (list, tuple)) and bool(first) and \
        isinstance(first[0], (list, tuple))


def check_entry(name, entry) -> dict:
    """``entry`` if it declares one dataset: gold or a corpus, and systems with predictions."""
    where = f"dataset {name!r}"
    if not isinstance(entry, Mapping):
        raise InputTypeError(f"{where}: give a mapping with \"gold\", \"train\" and "
                             f"\"systems\", not a {type(entry).__name__}")
    unknown = set(entry) - ENTRY_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                         f"(allowed: {', '.join(sorted(ENTRY_KEYS))})")
    if ("gold" in entry) == ("corpus" in entry):
        raise ValueError(f"{where}: give \"gold\" (a column file or tag lists) or a prebuilt "
                         "\"corpus\", one of the two")
    systems = entry.get("systems")
    # generated output, or scored predictions, alone are a dataset's systems too
    others = entry.get("generated") or entry.get("scored")
    if others and systems is None:
        systems = {}
    if not isinstance(systems, Mapping) or not (systems or others):
        raise ValueError(f"{where}: \"systems\" maps each system's name to its predictions "
                         "(one, or a list of runs), \"generated\" to its generated output "
                         "(JSON Lines files), \"scored\" to predictions with a confidence "
                         "per mention")
    if entry.get("scored") is not None and not isinstance(entry["scored"], Mapping):
        raise InputTypeError(f"{where}: \"scored\" maps each system's name to its scored "
                             f"predictions, not {shown(entry['scored'])}")
    for system, value in systems.items():
        check_run_system(system, where)
        if value is None or (isinstance(value, (list, tuple)) and not value):
            raise ValueError(f"{where}: system {system!r} has no predictions")
    return entry


def check_run_system(system, where: str) -> str:
    """``system`` if it may name a system of an experiment: a name ``check_system_name``
    accepts, without ``RUN_SEPARATOR`` (a system named ``flair#1`` would be the column
    of run 1 of ``flair``)."""
    check_system_name(system, where)
    if RUN_SEPARATOR in system:
        raise NameTakenError(f"system {system!r}: {RUN_SEPARATOR!r} is kept for the run "
                              "columns (system#1, system#2, ...)", side=where)
    return system


def run_columns(name, entry) -> tuple[dict, dict]:
    """(system -> [column], column -> prediction or None for a prebuilt corpus)."""
    runs, predictions = {}, {}
    for system, value in (entry.get("systems") or {}).items():
        if "corpus" in entry:
            given = list(value) if isinstance(value, (list, tuple)) else [value]
            missing = [c for c in given if c not in entry["corpus"].columns]
            if missing:
                raise ValueError(f"dataset {name!r}: system {system!r}: no column "
                                 f"{', '.join(map(repr, missing))} in the corpus")
            runs[system] = check_system_names(
                given, f"dataset {name!r}, system {system!r}",
                [c for columns in runs.values() for c in columns])
            continue
        values = list(value) if _is_runs(value) else [value]
        runs[system] = [run_name(system, k, len(values)) for k in range(len(values))]
        for column, prediction in zip(runs[system], values):
            # checked here, where the run is known: the report would name the file only
            if isinstance(prediction, (str, os.PathLike)):
                existing(prediction, f"dataset {name!r}, system {column!r}")
        predictions.update(zip(runs[system], values))
    return runs, predictions


def scored_columns(name, entry, runs: dict) -> dict:
    """Column -> scored predictions of each run of ``entry["scored"]`` (a file read as
    scored spans), its columns added to ``runs`` (system -> [column]); a list is a list
    of runs."""
    out = {}
    for system, value in (entry.get("scored") or {}).items():
        where = f"dataset {name!r}, scored system {system!r}"
        check_run_system(system, where)
        if system in runs:
            raise NameTakenError(f"{system!r} is a system of the dataset already: a system "
                                 "is given once, in \"systems\", \"generated\" or "
                                 "\"scored\"", side=f"dataset {name!r}")
        values = list(value) if isinstance(value, (list, tuple)) else [value]
        if not values:
            raise ValueError(f"{where}: no run")
        runs[system] = [run_name(system, k, len(values)) for k in range(len(values))]
        for column, run in zip(runs[system], values):
            out[column] = read_span_jsonl(run)["spans"] \
                if isinstance(run, (str, os.PathLike)) else run
    return out


def check_pairs(systems: list) -> None:
    """Every two systems have a Wilcoxon key of their own (``pair_key``): "x vs y" and
    "z" would share one with "x" and "y vs z", and one test would replace the other."""
    pairs: dict = {}
    for a, b in combinations(systems, 2):
        key = pair_key(a, b)
        if key in pairs:
            raise NameTakenError(f"systems {a!r} and {b!r} are the pair {key!r}, as "
                                 f"{pairs[key][0]!r} and {pairs[key][1]!r} are: rename one "
                                 "(\" vs \" joins the two systems of a pair)")
        pairs[key] = (a, b)


def with_place(error: NerspanError, where: str) -> NerspanError:
    """The same input error (sentence, position, file and line kept) naming ``where``
    (a dataset, a system's run) before its side."""
    return error.on_side(where if error.side is None else f"{where}, {error.side}")


def existing(path, where: str | None = None) -> str:
    """``path`` if it is a file there; else a FileNotFoundError naming it (and ``where``,
    as ``naming`` names a place)."""
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, "no such file" + (f" ({where})" if where else ""),
                                os.fspath(path))
    return os.fspath(path)


@contextmanager
def naming(where: str):
    """Errors within also name their place (``where``: a dataset, a system's run): an
    input error keeps its sentence, position, file and line and names the place before
    its side; a file error names it after its reason; another error has its message
    prefixed (when the class allows)."""
    try:
        yield
    except NerspanError as error:
        raise with_place(error, where) from None
    except OSError as error:
        if error.filename is None:
            raise
        reason = "no such file" if isinstance(error, FileNotFoundError) else error.strerror
        raise type(error)(error.errno, f"{reason} ({where})", error.filename) from None
    except (ValueError, TypeError) as error:
        try:
            placed = type(error)(f"{where}: {error}")
        except Exception:  # noqa: BLE001 - an error class with another signature
            raise error from None
        raise placed from error
