"""Whole experiments in one report: several datasets, several runs per system.

    import nerlens
    exp = nerlens.run_experiment({
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
- the radar chart of zeta/rho and the heat map of relative change against the baseline;
- each family's figures of each dataset per system, its runs folded into one result
  (``systems``, ``dataset_page``): the reports themselves draw no figure (their columns
  are runs), so every system has its figures.

The sentence-bootstrap intervals of the per-dataset reports answer another question
(test-set sampling); the standard deviations and tests here are over runs and datasets.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from nerspan import InputOptions, InputTypeError
from nerspan.migration import migrated
from nerspan.options import check_fraction
from nerspan.errors import shown
from nerspan.reading.systems import read_systems

from nerlens.jsonable import json_ready
from nerlens.report.analyses import figure_pngs
from nerlens.report.build import Report, build_report, input_names
from nerlens.report.options import ReportOptions

from . import dataset_page, findings, generated, html, text
from .manifest import Declaration
from .over_runs import aggregate, dial_higher, experiment_view, family_parts, wilcoxon_tests
from .runs import check_entry, check_pairs, naming, run_columns, scored_columns

ALPHA = 0.05


@dataclass
class Experiment:
    """What ``experiment()`` computed; ``to_dict()``/``to_json()``/``to_html()``/``summary()``."""

    reports: dict            # dataset -> its Report (runs as columns)
    runs: dict               # dataset -> system -> [report columns]
    systems: list            # every system, in order of first appearance
    aggregate: dict          # dataset -> system -> statistic -> {mean, std, n}
    wilcoxon: dict           # "A vs B" -> statistic -> {statistic, pvalue, pvalue_holm, ...}
    higher_is_better: dict   # statistic -> bool
    info: dict
    # what the families add (``ExperimentPart``), key -> data, each key also an attribute:
    # tough_mentions (dataset -> system -> subset -> {mean, std, n}), attribute_wise
    # (dataset -> attribute -> {zeta, rho, friedman}), model_wise (system -> attribute ->
    # {spearman, std, per_dataset, friedman})
    views: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)   # title -> PNG bytes
    # dataset -> title -> PNG bytes: each family's figures per system, its runs folded
    system_figures: dict = field(default_factory=dict)
    findings: list = field(default_factory=list)
    # dataset -> system -> run column -> what reading and grounding did to that run's
    # generated output (``generated.records``); empty without generated output
    generated: dict = field(default_factory=dict)

    def __getattr__(self, name: str):
        views = self.__dict__.get("views") or {}
        if name in views:
            return views[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

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
                "findings": self.findings, "aggregate": self.aggregate, **self.views,
                "generated": self.generated,
                "wilcoxon": self.wilcoxon,
                "higher_is_better": self.higher_is_better,
                "datasets": {name: r.to_dict() for name, r in self.reports.items()}}

    def to_json(self, path: str | Path | None = None) -> str:
        json_text = json.dumps(json_ready(self.to_dict()), indent=2, ensure_ascii=False)
        if path is not None:
            Path(path).write_text(json_text + "\n", encoding="utf-8")
        return json_text

    def to_html(self, path: str | Path | None = None) -> str:
        page = html.render(self)
        if path is not None:
            Path(path).write_text(page, encoding="utf-8")
        return page

    def summary(self) -> str:
        """The terminal view (fits 100 columns): findings, entity F1 mean +- std per
        system and dataset, the significant Wilcoxon tests."""
        return text.summary(self)


@migrated
def run_experiment(datasets: Mapping | str | os.PathLike | Declaration, *,
                   baseline: str | None = None, scheme: str = "IOB2", mode: str = "lenient",
                   inputs=None, bootstrap: int = 1000, seed: int = 0,
                   confidence: float = 0.95, families=None, figures: bool = True,
                   min_share: float = 0.0, alpha: float = ALPHA, progress: bool = False,
                   sources: Mapping | None = None, beta: float = 1.0) -> Experiment:
    """Score every dataset with ``nerlens.build_report`` and aggregate over runs and
    datasets.

    ``datasets`` is a JSON manifest's path (``nerlens.experiment.manifest``: read and
    checked as ``nerlens report --manifest`` reads it), the command line's declaration
    (``nerlens.experiment.manifest.Declaration``: --data, --pred, ... in order), or maps a dataset name to
    ``{"gold": column file or tag lists, "train": training data (anything ``report``
    takes), "systems": {system: prediction or [run, run, ...]}}`` (``"tokens"`` with tag
    lists; ``"gold_tag_column"``, a column file's gold column, and ``"gold_alt"``, other
    versions of the gold, as ``report`` takes them: each dataset's page then shows its runs under every version); or, instead of
    ``gold``, a prebuilt ``"corpus"`` whose ``systems`` map to column names (one or a list
    of runs; its ``"gold_alt"`` may list the columns holding other versions). Systems are
    matched across datasets by name; ``baseline`` (default: the first system) must be in
    every dataset. ``alpha`` is the significance level of the marks. ``sources``: dataset
    -> the input files its provenance names. The other options are ``build_report``'s
    and apply to every dataset (``inputs``: the input options, ``nerspan.InputOptions``).

    Generated output (an LLM's responses): ``"generated": {system: file or [run, run,
    ...]}`` beside (or instead of) ``"systems"``, each file a JSON Lines file as
    ``nerspan.reading.systems.read_systems``' ``generated=`` reads (one object per sentence with
    ``"response"``; ``"tokens"``/``"text"``, ``"sentence"``). A dataset's runs are
    grounded in its gold sentences as the one-dataset report grounds them
    (``add_generated``, with the input options ``occurrences`` and ``fuzzy``), so each
    run's numbers are
    ``report``'s for that file; a system may be generated output on one dataset and a
    tagger on another. What grounding did is in ``Experiment.generated`` (dataset ->
    system -> run), in each run's repairs and in a finding per dataset and run.

    Predictions with a confidence per mention: ``"scored": {system: run or [run, run,
    ...]}`` (a list is always a list of runs), each run a ``nerspan.scored.ScoredMentions``,
    a scored span file (JSON Lines, ``{"spans": [[start, end, label, score], ...]}`` per
    sentence) or per-sentence scored predictions in a list (``[run]``): scored span lists
    or generated output whose entities carry a ``score``. Each run is a system of its
    dataset's report with every mention kept, and turned on the dial there (its
    confidence section); its average precision is folded over the system's runs (mean +-
    std, ``aggregate[dataset][system]["average_precision"]``) and tested between every
    two scored systems (Wilcoxon over runs x datasets, Holm over the pairs), as F1 is.

    ``beta`` (a number > 0; 1, the default, adds nothing): every dataset's report gives
    the entity F-beta beside F1 (``report(beta=...)``: statistic ``entity_f2``), and the
    experiment takes it as F1: mean +- std over runs, a Wilcoxon test between every two
    systems, shown as "entity F2" beside "entity F1".
    """
    if isinstance(datasets, (str, os.PathLike)):   # a manifest, read as the CLI reads it
        datasets = Declaration(manifest=datasets)
    if isinstance(datasets, Declaration):
        datasets, read = datasets.read(scheme=scheme, mode=mode, inputs=inputs)
        sources = read if sources is None else sources
    if not isinstance(datasets, Mapping) or not datasets:
        raise InputTypeError("datasets must map each dataset's name to {\"gold\": ..., "
                             "\"train\": ..., \"systems\": {...}}")
    alpha = check_fraction("alpha", alpha)
    settings = ReportOptions(bootstrap=bootstrap, seed=seed, confidence=confidence,
                             baseline=baseline, families=families, min_share=min_share,
                             beta=beta, figures=figures, progress=progress)
    inputs = InputOptions.of(inputs)
    if sources is not None and not isinstance(sources, Mapping):
        raise InputTypeError(f"sources must map each dataset's name to its input files, not "
                             f"{shown(sources)} (a {type(sources).__name__})")
    entries = {name: check_entry(name, entry) for name, entry in datasets.items()}
    runs, predictions, grounded, scored = {}, {}, {}, {}
    for name, entry in entries.items():
        runs[name], predictions[name] = run_columns(name, entry)
        grounded[name] = generated.generated_columns(name, entry, runs[name])
        scored[name] = scored_columns(name, entry, runs[name])
    systems = list(dict.fromkeys(s for by_system in runs.values() for s in by_system))
    check_pairs(systems)
    baseline = baseline or systems[0]
    for name, by_system in runs.items():
        if baseline not in by_system:
            raise ValueError(f"dataset {name!r} has no system {baseline!r} (the baseline): "
                             "choose a baseline every dataset has")

    # the reports draw no figure: their columns are runs; the page draws per system
    options = {**settings.to_dict(), "families": settings.run_families(), "figures": False,
               "scheme": scheme, "mode": mode}
    reports = {name: _report(name, entry, runs[name], predictions[name], grounded[name],
                             inputs, baseline, (sources or {}).get(name),
                             {**options, "scored": scored[name]})
               for name, entry in entries.items()}
    higher = {}
    for r in reports.values():
        higher.update(r.higher_is_better)
    higher.update(dial_higher(reports))
    result = Experiment(
        reports, runs, systems, aggregate(reports, runs),
        wilcoxon_tests(reports, runs, systems, higher, alpha, settings.beta), higher,
        {"baseline": baseline, "alpha": alpha, **_info(options, runs)})
    for family, part in family_parts():
        view = experiment_view(result, family)
        result.views.update(part.compute(view) if view.ran else {k: {} for k in part.keys})
    if settings.figures:
        _draw(result, options["families"], baseline)
    result.generated = generated.records(reports, runs)
    result.findings = findings.findings(result)
    return result


def _info(options: dict, runs: dict) -> dict:
    """The experiment's options, run counts and the statistics' conventions."""
    return {**{k: options[k] for k in ("scheme", "mode", "bootstrap", "seed")},
            "families": list(options["families"]),
            **({"beta": options["beta"]} if options["beta"] != 1 else {}),
            "n_runs": {name: {s: len(c) for s, c in by_system.items()}
                       for name, by_system in runs.items()},
            "std": "sample standard deviation over runs (n - 1)",
            "correction": "Holm over the pairs of systems for each statistic (Wilcoxon); Holm "
                          "over the Friedman tests of each view (attribute-wise, model-wise)"}


def _report(name, entry: Mapping, runs: dict, predictions: dict, grounded: dict,
            inputs: InputOptions, baseline: str, sources, options: dict) -> Report:
    """The one-dataset report of one entry, its runs as columns; errors name the dataset."""
    versions = entry.get("gold_alt")
    # a prebuilt corpus holds its versions as columns: "gold_alt" names them
    named = "corpus" in entry and isinstance(versions, (list, tuple))
    options = {**options, "baseline": runs[baseline][0], "sources": sources,
               "gold_alt": None if named else versions,
               "gold_alt_names": list(versions) if named else ()}
    if entry.get("gold_tag_column") is not None:
        inputs = inputs.replace(gold_tag_column=entry["gold_tag_column"])
    with naming(f"dataset {name!r}"):
        if grounded:   # the corpus the report would read, plus the grounded runs
            corpus = entry.get("corpus")
            if corpus is None:
                # read as the report reads them: a file's tags checked, naming its line
                corpus, _ = read_systems(entry["gold"], predictions, scheme=options["scheme"],
                                         mode=options["mode"], outside_scheme_is_error=True,
                                         check=isinstance(entry["gold"], (str, os.PathLike)),
                                         inputs=inputs.replace(tokens=entry.get("tokens")))
            corpus = generated.ground_runs(corpus, grounded, inputs)
            columns = [c for cs in runs.values() for c in cs if c not in options["scored"]]
            if sources is None:   # the files, named as build_report() names what it reads
                options["sources"] = input_names(entry.get("gold", entry.get("corpus")),
                                                 {**predictions, **grounded},
                                                 entry.get("train"))
            return build_report(None, corpus=corpus, system_names=columns,
                                train=entry.get("train"), inputs=inputs, **options)
        if "corpus" in entry:
            columns = [c for cs in runs.values() for c in cs if c not in options["scored"]]
            return build_report(None, corpus=entry["corpus"], system_names=columns,
                                train=entry.get("train"), inputs=inputs, **options)
        return build_report(entry["gold"], predictions, entry.get("train"),
                            tokens=entry.get("tokens"), inputs=inputs, **options)


def _draw(experiment: Experiment, families, baseline: str) -> None:
    """The page's figures (across datasets) and each dataset's per system, as PNG bytes:
    drawn in one go, shared out over the workers (``figure_pngs``)."""
    drawn = {(None, title): figure for title, figure in _figures(experiment, families).items()}
    for name, r in experiment.reports.items():
        drawn.update({(name, title): figure for title, figure in
                      dataset_page.figures(r, experiment.runs[name], baseline).items()})
    pngs = figure_pngs(drawn)
    experiment.figures = {title: png for (name, title), png in pngs.items() if name is None}
    experiment.system_figures = {name: {title: png for (of, title), png in pngs.items()
                                        if of == name} for name in experiment.reports}


def _figures(experiment: Experiment, families) -> dict:
    """Title -> Figure of the figures across datasets of the families that ran."""
    out = {}
    for family, part in family_parts():
        if part.figures is not None and family.name in families:
            out.update(part.figures(experiment_view(experiment, family)))
    return out
