"""An experiment as one self-contained HTML page, built with the report's page kit
(``nerlens.report.page_kit``) and blocks: findings and contents first, then the tables
over runs and datasets (each run's numbers one click away), the families' sections (their
``ExperimentPart``: e.g. recall per subset over runs, the attribute views and the figures
across datasets), the tests, and one section per dataset (``dataset_page``: every table
per system over its runs, each run's tables closed below; its error examples are in
experiment.json)."""
from __future__ import annotations

from nerspan.errors import counted

from nerlens.report import blocks
from nerlens.report.overview import OPTION_NAMES
from nerlens.report.page_kit import Raw, contents, escape, page, section, table
from nerlens.report.views import every_family

from . import dataset_page, generated
from .findings import rules
from .over_runs import experiment_view, family_parts, headline, run_value

STYLE = """
.toc ol ol{columns:1;margin:.1em 0 .3em}.dataset>section>h3{font-size:1.2em;border-bottom:1px solid #e5e5e5}
.ns{color:#888}.sig{font-weight:700}
details{margin:.4em 0}summary{cursor:pointer;color:#246}
"""


def marks_legend() -> str:
    """The two marks of an empty cell: the system has no run on that dataset, or it has
    runs and the number is undefined in every one of them (with the families' examples)."""
    examples = [h.undefined for f in every_family() for h in f.headline if h.undefined]
    return ("no run = the system has no run on that dataset; &ndash; = undefined in every "
            "run" + (f" (e.g. {escape(', '.join(examples))})" if examples else ""))


def pm(value: dict | None, runs: int | None = None) -> Raw:
    """Mean +- std in percent as a table cell (``nerspan.blocks.OverRuns``)."""
    return Raw(blocks.over_runs_html(value, runs))


def _findings(experiment) -> str:
    items = "".join(f"<li data-rule='{escape(f['rule'])}'>{escape(f['text'])}</li>"
                    for f in experiment.findings) or "<li>None whose evidence holds.</li>"
    rules_ = "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>"
                     for k, v in rules(experiment).items())
    return (f"<ul class='findings'>{items}</ul><details><summary>How findings are chosen"
            f"</summary><ul class='note'>{rules_}</ul></details>")


def _holistic(experiment) -> str:
    names = experiment.datasets
    parts = []
    for key, title in headline(experiment.info.get("beta", 1.0)):
        if key not in experiment.higher_is_better:
            continue
        rows = [[Raw(escape(s))] + [pm(experiment.aggregate_cell(d, s, key)) for d in names]
                for s in experiment.systems]
        parts.append(f"<div><h4>{escape(title)}</h4>{table(['system', *names], rows)}</div>")
    return (f"<div class='tiles'>{''.join(parts)}</div><p class='note'>Percent: mean &plusmn; sample standard deviation "
            f"(n &minus; 1) over the system's runs, (runs) in brackets; {marks_legend()}. "
            "Every other statistic is in each dataset's section and in experiment.json "
            "(aggregate).</p>" + _each_run(experiment))


def _each_run(experiment) -> str:
    """The headline numbers of every run, closed: run k of each system per dataset."""
    names = experiment.datasets
    parts = []
    for key, title in headline(experiment.info.get("beta", 1.0)):
        if key not in experiment.higher_is_better:
            continue
        rows = []
        for s in experiment.systems:
            most = max(len(experiment.runs[d].get(s, ())) for d in names)
            for k in range(most):
                row = [Raw(escape(f"{s}, run {k + 1}"))]
                for d in names:
                    columns = experiment.runs[d].get(s, ())
                    row.append(run_value(experiment.reports[d], columns[k], key)
                               if k < len(columns) else Raw(blocks.NO_RUN))
                rows.append(row)
        parts.append(f"<div><h4>{escape(title)}</h4>{table(['run', *names], rows)}</div>")
    runs = sum(len(c) for by in experiment.runs.values() for c in by.values())
    return (f"<details><summary>Each run's numbers ({counted(runs, 'run')})</summary>"
            f"<div class='tiles'>{''.join(parts)}</div></details>")


def family_sections(experiment) -> list[tuple[str, str, str]]:
    """``(anchor, title, body)`` of every registered family's experiment sections (a
    family that did not run says so)."""
    out = []
    for family, part in family_parts():
        for one in part.sections(experiment_view(experiment, family)):
            out.append((one.anchor, one.title, blocks.html(one.blocks, experiment)))
    return out


def _test_cells(t: dict) -> list:
    """Δ (points), uncorrected p and Holm-adjusted p of one Wilcoxon test."""
    diff = "&ndash;" if t["difference"] is None else f"{100 * t['difference']:+.2f}"
    if t["pvalue_holm"] is None:
        return [Raw(diff), Raw("&ndash;"),
                Raw(f"<span class='ns' title='{escape(t.get('error', ''))}'>&ndash;</span>")]
    cls = "sig" if t["significant"] else "ns"
    return [Raw(diff), Raw(f"{t['pvalue']:.3g}"),
            Raw(f"<span class='{cls}'>{t['pvalue_holm']:.3g}</span>")]


def _significance(experiment) -> str:
    if not experiment.wilcoxon:
        return "<p class='note'>One system: nothing to compare.</p>"
    headers = dict(headline(experiment.info.get("beta", 1.0)))
    stats = list(next(iter(experiment.wilcoxon.values())))
    first, rest = stats[0], stats[1:]
    columns = ["pairs of runs", "Δ (points)", "p", "p, Holm"]
    rows = [[Raw(escape(pair)), Raw(str(tests[first]["n_pairs"]))] + _test_cells(tests[first])
            for pair, tests in experiment.wilcoxon.items()]
    parts = [f"<h3>{escape(headers[first])}</h3>", table(["pair", *columns], rows)]
    if rest:
        rows = [[Raw(escape(pair)), Raw(escape(headers[s])), Raw(str(tests[s]["n_pairs"]))]
                + _test_cells(tests[s]) for pair, tests in experiment.wilcoxon.items()
                for s in rest]
        parts.append("<details><summary>The other headline numbers</summary>"
                     + table(["pair", "statistic", *columns], rows) + "</details>")
    n_tests = sum(1 for tests in experiment.wilcoxon.values()
                  if tests[first]["pvalue"] is not None)
    return ("".join(parts)
            + f"<p><b>Multiple comparisons:</b> the p-values are corrected with Holm's "
              f"step-down method over the {counted(n_tests, 'pair')} of "
              "systems, separately for each "
              "statistic (one family of tests per statistic); "
              f"<span class='sig'>bold</span> = significant at alpha "
              f"{experiment.info['alpha']:g} after the correction.</p><p class='note'>"
              "Wilcoxon signed-rank test between the two systems, paired over runs and "
              "datasets: run k of one system with run k of the other on the same dataset "
              "(a system with fewer runs pairs only those). &Delta; = mean difference, first "
              f"minus second system, in points{_lower_note(experiment)}. A pair of runs "
              "in which either number is undefined is left out; &ndash; = no test (fewer "
              "than 2 pairs with defined numbers; hover the adjusted p for why), not "
              "counted in Holm's correction. With fewer than "
              "6 pairs no two-sided p reaches 0.05. These tests are over runs (training "
              "variance); the bootstrap intervals of each dataset's section are over test "
              "sentences, another question.</p>")


def _lower_note(experiment) -> str:
    """`` (for X lower is better)``: the headline statistics tested where lower is
    better, by their short names (``Headline.column``)."""
    lower = [h.column for f in every_family() for h in f.headline
             if experiment.higher_is_better.get(f.key(h.key)) is False]
    return f" (for {', '.join(lower)} lower is better)" if lower else ""


def _provenance(experiment) -> str:
    info = experiment.info
    rows = [[k, info[k]] for k in ("baseline", "alpha", "scheme", "mode")]
    if "beta" in info:   # named as the one-dataset report names it
        rows.append([OPTION_NAMES["beta"], info["beta"]])
    rows += [["bootstrap samples", info["bootstrap"]], ["seed", info["seed"]]]
    # the families by the first part of their titles (their names are report.json keys)
    titles = {f.name: f.title.split(":")[0] for f in every_family()}
    rows.append(["families", ", ".join(titles.get(f, f) for f in info["families"])])
    rows += [[f"runs on {d}", ", ".join(f"{s} {n}" for s, n in by.items())]
             for d, by in info["n_runs"].items()]
    return table(["", "value"], [[Raw(escape(k)), Raw(escape(v))] for k, v in rows], text=True) + \
        "<p class='note'>Each dataset's inputs are in its section (Runs: repairs and inputs).</p>"


def _generated(experiment) -> str:
    """The counts of every run, then the entities found per grounding level: two tables,
    each narrow enough for the page (one of 17 columns overflowed it)."""
    header, rows = generated.table_rows(experiment)
    rows = [[Raw(escape(d)), Raw(escape(r)), *counts] for d, r, *counts in rows]
    split = 2 + len(generated.COUNTS)
    return (table(header[:split], [row[:split] for row in rows], percent=False)
            + table(header[:2] + header[split:], [row[:2] + row[split:] for row in rows],
                    percent=False)
            + f"<p class='note'>{escape(generated.NOTE)}</p>")


def render(experiment) -> str:
    top = [("findings", "Findings", _findings(experiment)),
           *([("generated", "Generated output: what grounding did", _generated(experiment))]
             if experiment.generated else []),
           ("holistic", "Systems x datasets: mean and std over runs", _holistic(experiment)),
           *family_sections(experiment),
           ("significance", "Wilcoxon tests between systems", _significance(experiment))]
    datasets = [dataset_page.section(experiment, k, name)
                for k, name in enumerate(experiment.datasets)]
    entries = [(a, t, []) for a, t, _ in top]
    entries += [(f"d{k + 1}", f"Dataset {name}", [(a, t, []) for a, t in sub])
                for k, (name, (_, sub)) in enumerate(zip(experiment.datasets, datasets))]
    entries.append(("provenance", "Provenance", []))
    runs = sum(len(c) for by in experiment.runs.values() for c in by.values())
    parts = [f"<h1>nerlens experiment</h1><p>Datasets: {escape(', '.join(experiment.datasets))}; "
             f"systems: {escape(', '.join(experiment.systems))}; {counted(runs, 'run')} scored; "
             "baseline "
             f"{escape(experiment.info['baseline'])}.</p>",
             section(*top[0]), contents(entries)]
    parts += [section(*s) for s in top[1:]]
    parts += [html for html, _ in datasets]
    parts.append(section("provenance", "Provenance", _provenance(experiment)))
    return page("nerlens experiment", "".join(parts), STYLE)
