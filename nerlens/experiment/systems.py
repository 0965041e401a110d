"""A dataset's report seen per system over its runs, not per run.

The report of a dataset has one column per run (``flair#1``, ``flair#2``, ...). Its page
would compare runs; the experiment's page compares systems. ``system_results`` folds each
system's runs into one result dict of the family's own shape, every number the mean over
the runs: a fraction becomes a ``Mean`` and a count that varies a ``MeanCount`` (floats
that carry their sample standard deviation and run count), a count every run shares stays
an int. A family's section, overview and figures read that dict through an ordinary
``ReportView`` (``system_view``), so they draw one panel per system, never "the first
systems only"; ``over_runs_cell`` turns the carried numbers into mean +- std cells.

A derived number (a difference of two means, a maximum) is a plain float again: its
standard deviation over runs is not the difference of the standard deviations, and the
page shows no std for it.
"""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Mapping

from nerspan.blocks import Few, Noted, OverRuns, Table, Tiles
from nerspan.family import ReportView
from nerspan.significance import mean_std

from nerlens.report.views import ran, report_view


class Mean(float):
    """The mean over runs of a fraction, with ``std`` (sample, None for one run) and
    ``n`` (runs with a defined value).

    >>> m = Mean(0.5, 0.1, 3); (float(m), m.std, m.n, float(m - 0.25))
    (0.5, 0.1, 3, 0.25)
    """

    std: float | None
    n: int

    def __new__(cls, value: float, std: float | None, n: int):
        made = super().__new__(cls, value)
        made.std, made.n = std, n
        return made

    def __reduce__(self):  # pickled (multiprocessing, caches) with its std and n
        return (type(self), (float(self), self.std, self.n))

    def summary(self) -> dict:
        """``{"mean", "std", "n"}`` as ``nerspan.significance.mean_std`` gives."""
        return {"mean": float(self), "std": self.std, "n": self.n}


class MeanCount(Mean):
    """The mean over runs of a count that differs between runs; as text ``4.3 ± 0.6``
    (a family writing a count into a sentence or a text cell shows its spread too).

    >>> str(MeanCount(13 / 3, 0.577, 3)), f"{MeanCount(2.0, None, 1)}"
    ('4.3 \\xb1 0.6', '2.0')
    """

    def __str__(self) -> str:
        text = f"{float(self):.1f}"
        return text if self.std is None else f"{text} \u00b1 {self.std:.1f}"

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else format(float(self), spec)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def folded(values: list):
    """One value for the same place of every run's result (see the module docstring):
    dicts and equally long lists place by place; numbers as their mean; the rest kept
    when every run agrees, else the distinct values joined by " / ".

    >>> folded([{"f1": 0.5, "tp": 3, "gold": 7}, {"f1": 0.7, "tp": 4, "gold": 7}])
    {'f1': 0.6, 'tp': 3.5, 'gold': 7}
    >>> folded([{"f1": None}, {"f1": None}]), folded(["PER", "LOC", "PER"])
    ({'f1': None}, 'PER / LOC')
    """
    first = values[0]
    if all(isinstance(v, Mapping) for v in values):
        keys = dict.fromkeys(k for v in values for k in v)
        return {k: folded([v[k] for v in values if k in v]) for k in keys}
    if all(isinstance(v, (list, tuple)) for v in values):
        if len({len(v) for v in values}) == 1:
            return type(first)(folded(list(column)) for column in zip(*values))
        return first   # lists of items (listings) cannot be lined up: the first run's
    if all(v is None or _is_number(v) for v in values):
        if all(isinstance(v, int) for v in values) and len(set(values)) == 1:
            return first   # a count every run shares (gold counts)
        cell = mean_std(values)
        if cell["mean"] is None:
            return None
        counts = all(isinstance(v, int) for v in values if v is not None)
        defined = {v for v in values if v is not None and v == v}
        # runs that agree give their number as it is (mean_std rounds to 12 digits)
        mean = defined.pop() if len(defined) == 1 else cell["mean"]
        return (MeanCount if counts else Mean)(mean, cell["std"], cell["n"])
    if all(v == first for v in values):
        return first
    return " / ".join(dict.fromkeys(map(str, values)))


def system_results(report, runs: Mapping) -> dict:
    """System -> family -> its result folded over the system's runs (``runs``: system ->
    the report's columns)."""
    families = report.info.get("families", ())
    return {system: {family: folded([report.results[c][family] for c in columns])
                     for family in families}
            for system, columns in runs.items()}


def by_system(data, runs: Mapping):
    """``data`` (a family's analyses) with every mapping keyed by the runs (its keys: the
    report's columns) keyed by the systems instead, each value folded over the runs.

    >>> by_system({"top": [{"errors": {"a#1": 1, "a#2": 3}}]}, {"a": ["a#1", "a#2"]})
    {'top': [{'errors': {'a': 2.0}}]}
    """
    columns = {c for cs in runs.values() for c in cs}
    if isinstance(data, Mapping):
        if data and set(data) == columns:
            return {s: folded([data[c] for c in cs]) for s, cs in runs.items()}
        return {k: by_system(v, runs) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return type(data)(by_system(v, runs) for v in data)
    return data


def system_report(report, runs: Mapping, baseline: str) -> SimpleNamespace:
    """What a ``ReportView`` reads of a report, per system: folded results and analyses,
    estimates as ``Mean``s, no intervals (they are per run) and the experiment's
    baseline."""
    estimates = {system: {stat: _mean(mean_std(report.estimates[c].get(stat) for c in cs))
                          for stat in report.higher_is_better}
                 for system, cs in runs.items()}
    results = system_results(report, runs)
    return SimpleNamespace(systems=list(runs), results=results, estimates=estimates,
                           intervals={}, analyses=system_analyses(report, results, runs),
                           figures={}, info={**report.info, "baseline": baseline})


def system_analyses(report, results: dict, runs: Mapping) -> dict:
    """Family -> its analyses over the systems: computed again from the folded results
    when the family's ``analyses`` reads the results alone (a spread across systems must
    count systems, not runs); else the report's (they read the gold, which the report
    does not keep) with their parts keyed by runs folded per system (``by_system``)."""
    out = {}
    for family in ran(report):
        if family.name not in report.analyses:
            continue
        settings = {name: report.info.get(name) for name in family.settings}
        mine = {s: results[s][family.name] for s in results}
        try:
            out[family.name] = family.analyses(None, mine, settings)
        except (AttributeError, TypeError):   # it reads the gold context, not kept
            out[family.name] = by_system(report.analyses[family.name], runs)
    return out


def _mean(cell: dict):
    return None if cell["mean"] is None else Mean(cell["mean"], cell["std"], cell["n"])


def system_view(report, family) -> ReportView:
    """``report`` (a ``system_report``) as ``family`` sees it, every system drawn."""
    view = report_view(report, family)
    return ReportView(view.family, view.systems, view.results, view.estimates,
                      view.intervals, view.analyses, view.figures, view.systems, view.info)


def over_runs_cell(cell, runs: int | None):
    """A block's cell with the numbers carried over runs made mean +- std cells
    (``OverRuns``; a count as text); other cells as they are."""
    if isinstance(cell, MeanCount):
        return str(cell)
    if isinstance(cell, Mean):
        return OverRuns(cell.summary(), runs)
    if isinstance(cell, Noted):
        return Noted(over_runs_cell(cell.cell, runs), cell.note)
    if isinstance(cell, Few):
        return Few(over_runs_cell(cell.cell, runs))
    return cell


def over_runs_blocks(blocks, runs: int | None) -> tuple:
    """The blocks with every carried number as a mean +- std cell."""
    out = []
    for block in blocks:
        if isinstance(block, Table):
            block = replace(block, rows=[[over_runs_cell(c, runs) for c in row]
                                         for row in block.rows])
        elif isinstance(block, Tiles):
            block = Tiles([(title, over_runs_blocks([inner], runs)[0])
                           for title, inner in block.tiles])
        out.append(block)
    return tuple(out)
