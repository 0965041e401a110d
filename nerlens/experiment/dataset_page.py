"""One dataset of an experiment on its page: its systems over their runs, each run one
click away.

The dataset's report has one column per run; here every table is per system (mean +-
sample standard deviation over its runs, ``systems``) and every system has its figures
(drawn at build time from the folded results: ``figures``). Each family's section shows
its system tables and figures, open when it has no figure (short), and below them, in a
closed ``<details>``, the same section per run. The report's findings and paired
comparisons (run against run) are left out: the experiment's findings and Wilcoxon tests
compare systems over runs.
"""
from __future__ import annotations

from types import SimpleNamespace

from nerspan.blocks import Figure, Table, Tiles
from nerspan.errors import counted

from nerlens.report import blocks, gold_audit, overview
from nerlens.report.names import statistic_label
from nerlens.report.page_kit import Raw, escape, number, table
from nerlens.report.repairs import decoding_repairs
from nerlens.report.views import every_family, ran, report_view

from .over_runs import headline
from .systems import over_runs_blocks, system_report, system_view


FAMILY = " class='family'"   # a family's section: its blocks, the family's own words


def figures(report, runs: dict, baseline: str) -> dict:
    """Title -> Figure of every family's figures of ``report`` per system (its runs folded;
    every system drawn)."""
    folded = system_report(report, runs, baseline)
    out = {}
    for family in ran(report):
        if family.figures is not None:
            out.update(family.figures(system_view(folded, family)))
    return out


def _folded(experiment, name: str) -> SimpleNamespace:
    folded = system_report(experiment.reports[name], experiment.runs[name],
                           experiment.info["baseline"])
    folded.figures = experiment.system_figures.get(name, {})
    return folded


def _runs_shown(runs: dict) -> int | None:
    """The number of runs every system has (cells then omit it), else None."""
    counts = {len(columns) for columns in runs.values()}
    return counts.pop() if len(counts) == 1 else None


def _has_figure(family_blocks) -> bool:
    return any(isinstance(b, Figure) or (isinstance(b, Tiles) and _has_figure(
        [inner for _, inner in b.tiles])) for b in family_blocks)


def _counts(family_blocks, drawn) -> str:
    """`` (3 tables, 12 figures)``: what a closed part holds."""
    flat = [inner for b in family_blocks
            for inner in ([i for _, i in b.tiles] if isinstance(b, Tiles) else [b])]
    tables = sum(isinstance(b, Table) for b in flat)
    figures = sum(isinstance(b, Figure) and b.title in drawn for b in flat)
    parts = [counted(n, what) for n, what in ((tables, "table"), (figures, "figure")) if n]
    return f" ({', '.join(parts)})" if parts else ""


def _details(summary: str, body: str, open_: bool = False) -> str:
    return (f"<details{' open' if open_ else ''}><summary>{summary}</summary>{body}"
            "</details>")


def _summary(experiment, name: str, folded) -> str:
    """Headline numbers per system over runs; every statistic, then each run, closed."""
    report, runs = experiment.reports[name], experiment.runs[name]
    shown = _runs_shown(runs)
    keys = [(k, t) for k, t in headline(report.info.get("beta", 1.0))
            if k in report.higher_is_better]
    rows = [[Raw(escape(s))] + [Raw(blocks.over_runs_html(experiment.aggregate_cell(name, s, k),
                                                          shown)) for k, _ in keys]
            for s in runs]
    first = folded.results[folded.systems[0]]
    every = [[Raw(_statistic(stat, higher, first))]
             + [Raw(blocks.over_runs_html(experiment.aggregate_cell(name, s, stat), shown))
                for s in runs]
             for stat, higher in report.higher_is_better.items()]
    columns = [c for cs in runs.values() for c in cs]
    each = [[Raw(_statistic(stat, higher, first))]
            + [Raw(_with_interval(report, c, stat)) for c in columns]
            for stat, higher in report.higher_is_better.items()]
    note = ("Percent: mean &plusmn; sample standard deviation over the system's runs"
            + ("" if shown else ", (runs) where a system has fewer")
            + f"; &darr; = lower is better; {overview.UNDEFINED_NOTE}.")
    if report.info.get("bootstrap"):
        note += (" The runs' brackets: their " f"{report.info['confidence']:.0%} bootstrap "
                 "interval over test sentences (another question than the spread over runs).")
    return (table(["system", *[t for _, t in keys]], rows)
            + f"<p class='note'>{note}</p>"
            + _details(f"Every statistic over runs ({len(every)})",
                       table(["statistic", *runs], every))
            + _details(f"Every statistic of each run ({counted(len(columns), 'run')})",
                       table(["statistic", *columns], each)))


def _statistic(stat: str, higher: bool, first: dict) -> str:
    """A statistic's human name (its key on hover), marked when lower is better."""
    return (f"<span title='{escape(stat)}'>{escape(statistic_label(stat, first))}</span>"
            + ("" if higher else " &darr;"))


def _with_interval(report, column: str, stat: str) -> str:
    text = number(report.estimates[column].get(stat))
    ci = report.intervals.get(column, {}).get(stat)
    if ci and ci.get("low") is not None and ci["low"] == ci["low"]:
        text += (f" <span class='note ci'>[{100 * ci['low']:.2f}, "
                 f"{100 * ci['high']:.2f}]</span>")
    return text


def _overview(folded) -> str:
    parts = [blocks.html(family.overview(system_view(folded, family)), folded)
             for family in every_family() if family.overview is not None]
    return "".join(parts)


def _family(experiment, name: str, folded, family) -> str:
    """The family's section per system (over runs), then per run (closed)."""
    report, runs = experiment.reports[name], experiment.runs[name]
    mine = over_runs_blocks(family.section(system_view(folded, family)), _runs_shown(runs))
    each = family.section(report_view(report, family))
    shown = _counts(mine, folded.figures)
    return (_details(f"Per system, mean &plusmn; std over its runs{shown}",
                     blocks.html(mine, folded), open_=not _has_figure(mine))
            + _details("Per run", blocks.html(each, report)))


def _runs(report) -> str:
    """The runs' repairs and inputs (one report's provenance: runs are its columns)."""
    return (overview.repairs(decoding_repairs(report.results), report.info["mode"])
            + overview.provenance(report))


def section(experiment, k: int, name: str) -> tuple[str, list]:
    """The dataset's section and its ``(anchor, title)`` entries for the contents."""
    report, runs = experiment.reports[name], experiment.runs[name]
    folded = _folded(experiment, name)
    prefix = f"d{k + 1}-"
    inner = [(prefix + "summary", "Headline numbers over runs",
              _summary(experiment, name, folded))]
    drawn = _overview(folded)
    if drawn:
        inner.append((prefix + "overview", "Where each system is weaker or stronger", drawn))
    inner += [(prefix + anchor, title, body) for anchor, title, body in
              gold_audit.sections(report)]   # with gold versions: every run under each
    inner += [(prefix + f.name, f.title, _family(experiment, name, folded, f))
              for f in ran(report) if f.section is not None]
    inner.append((prefix + "runs", "Runs: repairs and inputs",
                  _details(f"Each run's repairs and input files "
                           f"({counted(sum(map(len, runs.values())), 'run')})",
                           _runs(report))))
    intro = (f"<p>{counted(report.info['sentences'], 'sentence')}, "
             f"{counted(report.info['tokens'], 'token')}; "
             + "; ".join(f"{escape(s)}: {counted(len(c), 'run')}" for s, c in runs.items())
             + ". Every table is per system over its runs (mean &plusmn; std); each run's "
               "tables are one click away (Per run). Error examples are in "
               "experiment.json.</p>")
    families = {prefix + f.name for f in ran(report)}
    body = intro + "".join(f"<section id='{a}'{FAMILY if a in families else ''}>"
                           f"<h3>{escape(t)}</h3>{b}</section>" for a, t, b in inner)
    html = (f"<section id='d{k + 1}' class='dataset'><h2>Dataset {escape(name)}</h2>{body}"
            "</section>")
    return html, [(a, t) for a, t, _ in inner]
