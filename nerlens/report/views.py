"""One report as each family sees it (``nerspan.family.ReportView``), and the families of
a report in its order."""
from __future__ import annotations

from nerspan.family import Family, ReportView

from nerlens.families import in_report_order, registered

# Per-system figures are drawn for this many systems (the first ones, baseline first):
# each costs twice a bucket chart; with 15 systems all of them would triple the time of
# the report's figures, and 4 of them kept the 15-system report slower than seqeval's
# classification_report (benchmarks/bench_report.py). The page says so; the tables
# cover every system.
FIGURE_SYSTEMS = 2


def figure_systems(system_names) -> list:
    """The systems that get per-system figures in the report."""
    return list(system_names)[:FIGURE_SYSTEMS]


def ran(report) -> list[Family]:
    """The descriptors of the families the report ran, in the report's order."""
    return in_report_order(report.info.get("families", ()))


def report_view(report, family: Family) -> ReportView:
    """``report`` as ``family`` sees it; an empty view (no results) when it did not run."""
    did = family.name in report.info.get("families", ())
    results = {s: report.results[s][family.name] for s in report.systems} if did else {}
    return ReportView(family.name, tuple(report.systems), results, report.estimates,
                      report.intervals, report.analyses.get(family.name, {}),
                      frozenset(report.figures),
                      tuple(figure_systems(report.systems)) if did else (), report.info)


def every_family() -> list[Family]:
    """Every registered family, in the report's order (the shared sections are made of
    every family's part, even of one that did not run: it says so)."""
    return list(registered().values())
