"""Generated output (an LLM's responses) in an experiment.

A dataset may give, beside or instead of its ``systems``, ``"generated": {system: file or
[run, run, ...]}``: JSON Lines files of a model's responses (``nerspan.reading.systems``'
``generated=``). Run k of system ``gpt`` is the column ``gpt#2`` as a tagger's run is.
All of a dataset's runs are grounded in its gold sentences by one call of
``nerspan.reading.systems.add_generated``, the one-dataset report's own grounding: lines carrying
``"sentence"`` indices restrict the dataset to those sentences, and every run must answer
the same ones. An error names the dataset and the run, with the file and line.

What grounding did travels with each column into its report's results (``repairs``),
so the dataset's page lists it per run; ``records`` gathers it per dataset, system and
run (``table_rows``: the page's table of it), and ``findings`` states the report's
``generated_output`` finding per dataset and run.
"""
from __future__ import annotations

import os
from typing import Mapping

from nerspan import Corpus, InputTypeError, NerspanError
from nerspan.errors import shown

from nerspan.generative import LEVELS

from nerlens.report import generated as report_generated
from nerspan.reading.systems import add_generated

from .runs import check_run_system, existing, run_name, with_place

PathLike = (str, os.PathLike)
RULE = "generated_output"
# The record's counts shown per run (key -> header), then the entities grounded per level.
COUNTS = {"responses": "responses", "entities": "entities", "usable": "usable",
          "parse_failures": "unreadable", "rejected": "rejected",
          "unknown_types": "unknown type", "duplicates": "listed twice",
          "ungrounded": "ungrounded", "dropped_overlaps": "overlap dropped"}
NOTE = ("Per run of generated output: responses read, entities read and those that became "
        "spans (usable); what did not (unreadable responses, items that are no entity, types "
        "gold does not have, entities listed twice, not found in their sentence: each a "
        "wrong prediction, overlapping spans dropped); and the entities found at each "
        "grounding level. experiment.json lists them with the model's text (each dataset's "
        "examples).")


def generated_columns(name, entry: Mapping, runs: dict) -> dict:
    """Column -> file of the dataset's generated runs (its ``"generated"``), each
    system's columns added to ``runs`` (system -> columns; a system may not be a tagger
    and generated output on one dataset)."""
    given = entry.get("generated")
    if given is None:
        return {}
    where = f"dataset {name!r}"
    if not isinstance(given, Mapping):
        raise InputTypeError(f"{where}: \"generated\" maps each system's name to a JSON Lines "
                             f"file of its responses or a list of runs, not a "
                             f"{type(given).__name__}")
    files = {}
    for system, value in given.items():
        check_run_system(system, where)
        if system in runs:
            raise ValueError(f"{where}: system {system!r} is given in \"systems\" and in "
                             "\"generated\": give each system's output once")
        paths = list(value) if isinstance(value, (list, tuple)) else [value]
        if not paths:
            raise ValueError(f"{where}: system {system!r} has no generated output")
        runs[system] = [run_name(system, k, len(paths)) for k in range(len(paths))]
        for column, path in zip(runs[system], paths):
            if not isinstance(path, PathLike):
                raise InputTypeError(f"{where}, system {column!r}: generated output is a JSON "
                                     f"Lines file, not {shown(path)} (a {type(path).__name__})")
            existing(path, f"{where}, system {column!r}")
            files[column] = path
    return files


def ground_runs(corpus: Corpus, files: Mapping, inputs=None) -> Corpus:
    """``corpus`` plus one column per generated run (column -> file), grounded by
    ``add_generated`` in one call (``inputs``: the input options, ``occurrences``,
    ``fuzzy``, ``encoding``); an input error about one file names its run (the caller
    names the dataset)."""
    if not files:
        return corpus
    try:
        grounded, _ = add_generated(corpus, dict(files), inputs=inputs)
    except NerspanError as error:
        column = next((c for c, path in files.items()
                       if error.path is not None and os.fspath(path) == error.path), None)
        if column is None:
            raise
        raise with_place(error, f"system {column!r}") from None
    return grounded


def records(reports: Mapping, runs: Mapping) -> dict:
    """Dataset -> system -> column -> what reading and grounding did to that run (the
    record's counts, levels and summary; the listings stay in the dataset's report)."""
    out: dict = {}
    for name, report in reports.items():
        found = report_generated.records(report.results)
        for system, columns in runs[name].items():
            mine = {c: {k: v for k, v in found[c].items() if k != "listed"}
                    for c in columns if c in found}
            if mine:
                out.setdefault(name, {})[system] = mine
    return out


def table_rows(experiment) -> tuple[list, list]:
    """(header, rows): one row per dataset and run of generated output, its counts and
    the entities grounded per level (``LEVELS``)."""
    header = ["dataset", "run", *COUNTS.values(), *(f"found {level.replace('_', '-')}"
                                                     for level in LEVELS)]
    rows = [[name, column, *(record[k] for k in COUNTS),
             *(record["levels"].get(level, 0) for level in LEVELS)]
            for name, by_system in experiment.generated.items()
            for by_run in by_system.values() for column, record in by_run.items()]
    return header, rows


def findings(experiment) -> list[dict]:
    """The report's ``generated_output`` finding of every generated run, per dataset."""
    out = []
    for name, report in experiment.reports.items():
        for item in report_generated.usable(report):
            out.append({**item, "text": f"{name}: {item['text']}",
                        "evidence": {**item["evidence"], "dataset": name}})
    return out

