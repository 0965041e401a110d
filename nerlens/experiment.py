"""Whole experiments in one report: several datasets, several runs per system.

    import nerlens
    exp = nerlens.experiment({
        "conll03": {"gold": "conll03/test.txt", "train": "conll03/train.txt",
                    "systems": {"flair": ["flair_s1.txt", "flair_s2.txt"], "bert": "bert.txt"}},
        "wnut16": {"gold": "wnut16/test.txt", "train": "wnut16/train.txt",
                   "systems": {"flair": "wnut_flair.txt", "bert": "wnut_bert.txt"}}})
    print(exp.summary()); exp.to_html("experiment.html"); exp.to_json("experiment.json")

Each dataset is scored by the one-dataset ``nerlens.report`` (the runs of a system are
its columns ``system#1``, ``system#2``, ...; one run keeps the system's name), so every
per-dataset number is the report's own. On top of the reports:

- every headline number as mean +- standard deviation over a system's runs (sample
  standard deviation, n - 1; TMR's table layout), per dataset;
- the attribute-wise view across datasets (zeta, rho) and the model-wise Spearman
  correlations averaged over datasets, on bucket F1 averaged over each system's runs;
  a value is marked non-significant when the Friedman test (do the buckets differ?) over
  the runs, as InterpretEval, has a Holm-adjusted p >= alpha (Holm over the tests of
  each view);
- Wilcoxon signed-rank tests between every two systems on the headline numbers, paired
  over runs x datasets (run k of one system with run k of the other, in each dataset),
  with Holm's correction over the pairs of systems, for each statistic;
- the radar chart of zeta/rho and the heat map of relative change against the baseline.

The sentence-bootstrap intervals of the per-dataset reports answer another question
(test-set sampling); the standard deviations and tests here are over runs and datasets.
"""
from __future__ import annotations

import errno
import json
import os
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Mapping

import numpy as np

from nerspan import InputTypeError, NameTakenError, NerspanError, check_fraction
from nerspan.errors import shown
from nerspan.significance import (defined_pairs, holm, mean_difference, mean_std,
                                  result_or_reason, wilcoxon)

from .report import Report, report
from .report_names import pair_key
from .systems import check_system_name, check_system_names
from .families import METHODS_ORDER as FAMILIES  # the report's order

RUN_SEPARATOR = "#"
ALPHA = 0.05
ENTRY_KEYS = {"gold", "train", "systems", "tokens", "corpus"}

# (statistic key, header): the headline numbers of the experiment tables (those present)
HEADLINE = (("entity_f1", "entity F1"), ("entity_precision", "precision"),
            ("entity_recall", "recall"),
            ("tough_mentions.recall_unseen_any", "recall on unseen mentions"),
            ("hardeval.hardeval", "hardeval (lower is better)"),
            ("faireval.fair_f1", "fair F1"))


def run_name(system: str, k: int, n_runs: int) -> str:
    """The report column of run ``k`` (0-based) of ``system``."""
    return system if n_runs == 1 else f"{system}{RUN_SEPARATOR}{k + 1}"


@dataclass
class Experiment:
    """What ``experiment()`` computed; ``to_dict()``/``to_json()``/``to_html()``/``summary()``."""

    reports: dict            # dataset -> its Report (runs as columns)
    runs: dict               # dataset -> system -> [report columns]
    systems: list            # every system, in order of first appearance
    aggregate: dict          # dataset -> system -> statistic -> {mean, std, n}
    tough_mentions: dict     # dataset -> system -> subset -> {mean, std, n}
    attribute_wise: dict     # dataset -> attribute -> {zeta, rho, friedman}
    model_wise: dict         # system -> attribute -> {spearman, std, per_dataset, friedman}
    wilcoxon: dict           # "A vs B" -> statistic -> {statistic, pvalue, pvalue_holm, ...}
    higher_is_better: dict   # statistic -> bool
    info: dict
    figures: dict = field(default_factory=dict)   # title -> PNG bytes
    findings: list = field(default_factory=list)

    @property
    def datasets(self) -> list:
        return list(self.reports)

    def aggregate_cell(self, dataset: str, system: str, statistic: str) -> dict | None:
        """``{mean, std, n}`` of a statistic over the system's runs on the dataset (mean
        None: undefined in every run); None when the system has no run there."""
        by_system = self.aggregate[dataset]
        if system not in by_system:
            return None
        return by_system[system].get(statistic, {"mean": None, "std": None, "n": 0})

    def to_dict(self) -> dict:
        return {"info": self.info, "systems": self.systems, "runs": self.runs,
                "findings": self.findings, "aggregate": self.aggregate,
                "tough_mentions": self.tough_mentions, "attribute_wise": self.attribute_wise,
                "model_wise": self.model_wise, "wilcoxon": self.wilcoxon,
                "higher_is_better": self.higher_is_better,
                "datasets": {name: r.to_dict() for name, r in self.reports.items()}}

    def to_json(self, path: str | Path | None = None) -> str:
        from .jsonable import json_ready

        text = json.dumps(json_ready(self.to_dict()), indent=2, ensure_ascii=False)
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    def to_html(self, path: str | Path | None = None) -> str:
        from .experiment_html import render

        text = render(self)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def summary(self) -> str:
        """The terminal view (fits 100 columns): findings, entity F1 mean +- std per
        system and dataset, the significant Wilcoxon tests."""
        from .experiment_text import summary

        return summary(self)


# -- inputs ----------------------------------------------------------------------------
def _is_runs(value) -> bool:
    """A list of predictions (files or tag lists), not one prediction's tag lists."""
    if not isinstance(value, (list, tuple)) or not value:
        return False
    first = value[0]
    if isinstance(first, (str, Path)):
        return True
    return isinstance(first, (list, tuple)) and bool(first) and \
        isinstance(first[0], (list, tuple))


def _check_entry(name, entry) -> dict:
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
    if not isinstance(systems, Mapping) or not systems:
        raise ValueError(f"{where}: \"systems\" maps each system's name to its predictions "
                         "(one, or a list of runs)")
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


def _columns(name, entry) -> tuple[dict, dict]:
    """(system -> [column], column -> prediction or None for a prebuilt corpus)."""
    runs, predictions = {}, {}
    for system, value in entry["systems"].items():
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
            if isinstance(prediction, (str, os.PathLike)) and not os.path.exists(prediction):
                raise FileNotFoundError(errno.ENOENT, f"dataset {name!r}, system {column!r}: "
                                        "no such file", os.fspath(prediction))
        predictions.update(zip(runs[system], values))
    return runs, predictions


def _check_pairs(systems: list) -> None:
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


def _named(name, error: Exception) -> Exception:
    """The same error naming the dataset: an input error keeps its sentence, position,
    file and line; a file error its file; another error has its message prefixed (when
    the class allows)."""
    if isinstance(error, NerspanError):
        return with_place(error, f"dataset {name!r}")
    if isinstance(error, OSError) and error.errno is not None:
        return type(error)(error.errno, f"dataset {name!r}: {error.strerror}", error.filename)
    try:
        return type(error)(f"dataset {name!r}: {error}")
    except Exception:  # noqa: BLE001 - an error class with another signature
        return error


# -- the experiment -----------------------------------------------------------------------
def experiment(datasets: Mapping, *, baseline: str | None = None, scheme: str = "IOB2",
               mode: str = "lenient", bootstrap: int = 1000, seed: int = 0,
               confidence: float = 0.95, families=FAMILIES, figures: bool = True,
               min_share: float = 0.0, alpha: float = ALPHA, progress: bool = False,
               inputs: Mapping | None = None) -> Experiment:
    """Score every dataset with ``nerlens.report`` and aggregate over runs and datasets.

    ``datasets`` maps a dataset name to ``{"gold": column file or tag lists, "train":
    training data (anything ``report`` takes), "systems": {system: prediction or [run,
    run, ...]}}`` (``"tokens"`` with tag lists); or, instead of ``gold``, a prebuilt
    ``"corpus"`` whose ``systems`` map to column names (one or a list of runs). Systems are
    matched across datasets by name; ``baseline`` (default: the first system) must be in
    every dataset. ``alpha`` is the significance level of the marks. The other options
    are ``report``'s and apply to every dataset.
    """
    if not isinstance(datasets, Mapping) or not datasets:
        raise InputTypeError("datasets must map each dataset's name to {\"gold\": ..., "
                             "\"train\": ..., \"systems\": {...}}")
    alpha = check_fraction("alpha", alpha)
    if inputs is not None and not isinstance(inputs, Mapping):
        raise InputTypeError(f"inputs must map each dataset's name to its input files, not "
                             f"{shown(inputs)} (a {type(inputs).__name__})")
    entries = {name: _check_entry(name, entry) for name, entry in datasets.items()}
    runs, predictions = {}, {}
    for name, entry in entries.items():
        runs[name], predictions[name] = _columns(name, entry)
    systems = list(dict.fromkeys(s for by_system in runs.values() for s in by_system))
    _check_pairs(systems)
    baseline = baseline or systems[0]
    for name, by_system in runs.items():
        if baseline not in by_system:
            raise ValueError(f"dataset {name!r} has no system {baseline!r} (the baseline): "
                             "choose a baseline every dataset has")

    options = dict(scheme=scheme, mode=mode, bootstrap=bootstrap, seed=seed,
                   confidence=confidence, families=families, figures=figures,
                   min_share=min_share, progress=progress)
    reports = {name: _report(name, entry, runs[name], predictions[name], baseline,
                             (inputs or {}).get(name), options)
               for name, entry in entries.items()}
    higher = {}
    for r in reports.values():
        higher.update(r.higher_is_better)
    aggregate = {name: {system: {stat: mean_std(r.estimates[c].get(stat)
                                                for c in runs[name][system])
                                 for stat in r.higher_is_better}
                        for system in runs[name]}
                 for name, r in reports.items()}
    result = Experiment(
        reports, runs, systems, aggregate, _tough_mentions(reports, runs),
        *_attribute_views(reports, runs, systems, alpha),
        _wilcoxon(reports, runs, systems, higher), higher,
        {"baseline": baseline, "alpha": alpha, **_info(options, runs)})
    for pair in result.wilcoxon.values():
        for test in pair.values():
            test["significant"] = test["pvalue_holm"] is not None and \
                test["pvalue_holm"] < alpha
    if figures and "attribute_buckets" in families:
        result.figures = _figures(reports, runs, baseline)
    from .experiment_findings import findings

    result.findings = findings(result)
    return result


def _info(options: dict, runs: dict) -> dict:
    """The experiment's options, run counts and the statistics' conventions."""
    return {**{k: options[k] for k in ("scheme", "mode", "bootstrap", "seed")},
            "families": list(options["families"]),
            "n_runs": {name: {s: len(c) for s, c in by_system.items()}
                       for name, by_system in runs.items()},
            "std": "sample standard deviation over runs (n - 1)",
            "correction": "Holm over the pairs of systems for each statistic (Wilcoxon); Holm "
                          "over the Friedman tests of each view (attribute-wise, model-wise)"}


def _report(name, entry: Mapping, runs: dict, predictions: dict, baseline: str, inputs,
            options: dict) -> Report:
    """The one-dataset report of one entry, its runs as columns; errors name the dataset."""
    options = {**options, "baseline": runs[baseline][0], "inputs": inputs}
    try:
        if "corpus" in entry:
            columns = [c for cs in runs.values() for c in cs]
            return report(None, corpus=entry["corpus"], system_names=columns,
                          train=entry.get("train"), **options)
        return report(entry["gold"], predictions, entry.get("train"),
                      tokens=entry.get("tokens"), **options)
    except (ValueError, TypeError, OSError) as error:
        raise _named(name, error) from error


def _tough_mentions(reports: dict, runs: dict) -> dict:
    """Dataset -> system -> subset -> recall mean +- std over runs (TMR's Table 3)."""
    out = {}
    for name, r in reports.items():
        if "tough_mentions" not in r.info.get("families", []):
            continue
        out[name] = {}
        for system, columns in runs[name].items():
            results = [r.results[c]["tough_mentions"] for c in columns]
            out[name][system] = {
                subset: mean_std(x["recall"] if subset == "all" else x.get(f"recall_{subset}")
                                 for x in results)
                for subset in results[0]["counts"]}
    return out


def averaged_buckets(results: list) -> dict:
    """One attribute-buckets result dict whose bucket F1 (and overall F1) are the means
    over ``results`` (runs of a system on one dataset: the same buckets); a bucket empty
    in any run stays empty."""
    first = results[0]
    buckets = {}
    for attribute, rows in first["buckets"].items():
        buckets[attribute] = []
        for i, row in enumerate(rows):
            values = [r["buckets"][attribute][i]["f1"] for r in results]
            buckets[attribute].append({**row, "f1": None if any(v is None for v in values)
                                       else float(np.mean(values))})
    return {**first, "buckets": buckets, "f1": float(np.mean([r["f1"] for r in results]))}


def _bucket_results(reports: dict, runs: dict) -> dict:
    """Dataset -> system -> bucket results averaged over its runs."""
    return {name: {system: averaged_buckets([r.results[c]["attribute_buckets"]
                                             for c in columns])
                   for system, columns in runs[name].items()}
            for name, r in reports.items()}


def _attribute_views(reports: dict, runs: dict, systems: list, alpha: float):
    """(attribute-wise per dataset, model-wise averaged over datasets), each value with
    its Friedman test over runs (Holm over the Friedman tests of each view)."""
    if not all("attribute_buckets" in r.info.get("families", []) for r in reports.values()):
        return {}, {}
    from attribute_buckets import analysis

    averaged = _bucket_results(reports, runs)
    views = analysis.attribute_wise_datasets(averaged)
    attributes = list(next(iter(views.values())))
    tests = {}
    attribute_wise = {}
    for name, view in views.items():
        # do the buckets differ on this dataset? blocks: every run of every system
        blocks = [reports[name].results[c]["attribute_buckets"]
                  for columns in runs[name].values() for c in columns]
        attribute_wise[name] = {}
        for attribute in attributes:
            test = result_or_reason(analysis.friedman_buckets, blocks, attribute)
            tests[("attribute_wise", name, attribute)] = test
            attribute_wise[name][attribute] = {**view[attribute], "friedman": test}
    model_wise = {}
    for system in systems:
        per_dataset = {name: analysis.model_wise({system: averaged[name][system]},
                                                 attributes)[system]
                       for name in averaged if system in averaged[name]}
        blocks = [reports[name].results[c]["attribute_buckets"]
                  for name in per_dataset for c in runs[name][system]]
        model_wise[system] = {}
        for attribute in attributes:
            test = result_or_reason(analysis.friedman_buckets, blocks, attribute)
            tests[("model_wise", system, attribute)] = test
            spearman = mean_std(d[attribute]["spearman"] for d in per_dataset.values())
            model_wise[system][attribute] = {
                "spearman": spearman["mean"], "spearman_std": spearman["std"],
                "spread": mean_std(d[attribute]["std"] for d in per_dataset.values())["mean"],
                "n_datasets": spearman["n"],
                "per_dataset": {n: d[attribute] for n, d in per_dataset.items()},
                "friedman": test}
    for view in ("attribute_wise", "model_wise"):   # one family of tests per view
        adjusted = holm({key: test.get("pvalue") for key, test in tests.items()
                         if key[0] == view})
        for key, p in adjusted.items():
            tests[key]["pvalue_holm"] = p
            tests[key]["significant"] = p is not None and p < alpha
    return attribute_wise, model_wise


def _wilcoxon(reports: dict, runs: dict, systems: list, higher: dict) -> dict:
    """"A vs B" -> statistic -> Wilcoxon over runs x datasets, with Holm's correction over
    the pairs of systems (one family per statistic); ``difference`` = mean of A - B."""
    statistics = [key for key, _ in HEADLINE if key in higher]
    out, pvalues = {}, {}
    for a, b in combinations(systems, 2):
        pair = pair_key(a, b)
        out[pair] = {}
        for stat in statistics:
            xs, ys = [], []
            for name, r in reports.items():
                if a in runs[name] and b in runs[name]:
                    for ca, cb in zip(runs[name][a], runs[name][b]):
                        xs.append(r.estimates[ca].get(stat))
                        ys.append(r.estimates[cb].get(stat))
            test = result_or_reason(wilcoxon, xs, ys)
            # an undefined run's pair is left out
            test["n_pairs"] = len(defined_pairs(xs, ys))
            test["difference"] = mean_difference(xs, ys)
            out[pair][stat] = test
            pvalues[(pair, stat)] = test.get("pvalue")
    for stat in statistics:   # one family of tests per statistic: all pairs of systems
        adjusted = holm({pair: p for (pair, s), p in pvalues.items() if s == stat})
        for pair, p in adjusted.items():
            out[pair][stat]["pvalue_holm"] = p
    return out


def _figures(reports: dict, runs: dict, baseline: str) -> dict:
    """The radar chart and the relative heat map across datasets (bucket F1 averaged over
    runs), on the systems every dataset has."""
    from .report_analyses import dataset_figures

    averaged = _bucket_results(reports, runs)
    shared = [s for s in next(iter(averaged.values()))
              if all(s in by_system for by_system in averaged.values())]
    try:
        return dataset_figures({name: {s: by_system[s] for s in shared}
                                for name, by_system in averaged.items()}, baseline)
    except ValueError:   # fewer than 3 ordered attributes: no radar chart
        return {}
