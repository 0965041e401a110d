"""An experiment as one self-contained HTML page, built with the report's page kit
(``nerlens.report.page_kit``) and sections (``nerlens.report.html``): findings and
contents first, then the tables over runs and datasets, the figures across datasets, the
tests, and one section per dataset holding that dataset's report (without its error
examples: report.json has them)."""
from __future__ import annotations

from nerspan.errors import counted

from nerlens.report.analyses import RADAR_TITLE, dataset_heatmap_title
from nerlens.report.html import SUBSET_HEADERS, SUBSET_LEGEND, page_sections
from nerlens.report.names import attribute_name
from nerlens.report.page_kit import Raw, contents, escape, figure, page, section, table

from .findings import RULES
from .over_runs import HEADLINE

STYLE = """
.toc ol ol{columns:1;margin:.1em 0 .3em}.dataset>section>h3{font-size:1.2em;border-bottom:1px solid #e5e5e5}
.ns{color:#888}.sig{font-weight:700}
"""
LEFT_OUT = {"examples"}   # one filter script per page: the examples stay in report.json


# The two marks of an empty cell: the system has no run on that dataset, or it has runs
# and the number is undefined in every one of them.
NO_RUN = "<span class='note'>no run</span>"
UNDEFINED = "&ndash;"
MARKS_LEGEND = ("no run = the system has no run on that dataset; &ndash; = undefined in "
                "every run (e.g. recall on unseen mentions when every mention is seen, "
                "hardeval with no unseen or label-shifted token)")


def pm(value: dict | None, runs: int | None = None) -> Raw:
    """Mean +- std in percent as a table cell, with (n runs) unless n is ``runs`` (the
    row says it); ``NO_RUN`` for no value (no run), ``UNDEFINED`` for no mean."""
    if value is None:
        return Raw(NO_RUN)
    if value.get("mean") is None:
        return Raw(UNDEFINED)
    text = f"{100 * value['mean']:.2f}"
    if value.get("std") is not None:
        text += f" <span class='note'>&plusmn; {100 * value['std']:.2f}</span>"
    if value["n"] != runs:
        text += f" <span class='note'>({value['n']})</span>"
    return Raw(f"<span class='ci'>{text}</span>")


def marked(value, test: dict | None, digits: int = 2) -> Raw:
    """A number from an attribute view, marked † when its Friedman test is not significant
    (or could not be run); the title gives the test."""
    if value is None:
        return Raw("&ndash;")
    text = f"{value:.{digits}f}"
    if not test or not test.get("significant"):
        why = (test or {}).get("error") or (
            f"Friedman p = {test['pvalue']:.3g}, Holm-adjusted {test['pvalue_holm']:.3g}"
            if test and test.get("pvalue") is not None else "no test")
        return Raw(f"<span class='ns' title='{escape(why)}'>{text}&dagger;</span>")
    return Raw(f"<span title='Friedman Holm-adjusted p = {test['pvalue_holm']:.3g}'>{text}"
               "</span>")


def _findings(experiment) -> str:
    items = "".join(f"<li data-rule='{escape(f['rule'])}'>{escape(f['text'])}</li>"
                    for f in experiment.findings) or "<li>None whose evidence holds.</li>"
    rules = "".join(f"<li><b>{escape(k)}</b>: {escape(v)}</li>" for k, v in RULES.items())
    return (f"<ul class='findings'>{items}</ul><details><summary>How findings are chosen"
            f"</summary><ul class='note'>{rules}</ul></details>")


def _holistic(experiment) -> str:
    names = experiment.datasets
    parts = []
    for key, title in HEADLINE:
        if key not in experiment.higher_is_better:
            continue
        rows = [[Raw(escape(s))] + [pm(experiment.aggregate_cell(d, s, key)) for d in names]
                for s in experiment.systems]
        parts.append(f"<div><h4>{escape(title)}</h4>{table(['system', *names], rows)}</div>")
    return (f"<div class='tiles'>{''.join(parts)}</div><p class='note'>Percent: mean &plusmn; sample standard deviation "
            f"(n &minus; 1) over the system's runs, (runs) in brackets; {MARKS_LEGEND}. "
            "Every other statistic is in experiment.json (aggregate) and in each dataset's "
            "section.</p>")


def _tough_mentions(experiment) -> str:
    parts = []
    for name, by_system in experiment.tough_mentions.items():
        subsets = list(next(iter(by_system.values())))
        runs = {s: len(experiment.runs[name][s]) for s in by_system}
        rows = [[Raw(f"{escape(s)} <span class='note'>({runs[s]})</span>")]
                + [pm(by_system[s][k], runs[s]) for k in subsets] for s in by_system]
        parts += [f"<h3>{escape(name)}</h3>",
                  table(["system"] + [SUBSET_HEADERS.get(k, k) for k in subsets], rows)]
    if not parts:
        return "<p class='note'>tough_mentions did not run.</p>"
    return "".join(parts) + (f"<p class='note'>Recall (%) per subset, mean &plusmn; sample "
                             "std over the system's runs, (runs) after its name, as TMR's "
                             "tables; a cell over fewer runs (a subset empty in some) says "
                             "how many; &ndash; = undefined in every run (the subset is "
                             f"empty). {SUBSET_LEGEND}</p>")


def _alpha_note(experiment) -> str:
    return (f"&dagger; = not significant: the Friedman test over the runs (do the buckets "
            f"differ?) has a Holm-adjusted p of at least {experiment.info['alpha']:g}, or "
            "could not be run (fewer than 2 runs or 3 buckets shared by all runs); Holm's "
            "correction runs over the Friedman tests of the table (one family per table). "
            "Hover a value for its test.")


def _attribute_wise(experiment) -> str:
    if not experiment.attribute_wise:
        return "<p class='note'>The attribute buckets did not run.</p>"
    names = experiment.datasets
    attributes = list(next(iter(experiment.attribute_wise.values())))
    header = ["attribute"] + [f"{h} {d}" for d in names for h in ("zeta", "rho")]
    rows = []
    for a in attributes:
        row = [Raw(f"<span title='{escape(a)}'>{escape(attribute_name(a))}</span>")]
        for d in names:
            view = experiment.attribute_wise[d][a]
            row += [Raw("&ndash;" if view["zeta"] is None else f"{view['zeta']:.3g}"),
                    marked(view["rho"], view["friedman"])]
        rows.append(row)
    return (figure(experiment, RADAR_TITLE) + table(header, rows)
            + "<p class='note'>zeta: the mean attribute value over the gold units of the "
              "dataset; rho: the mean over systems of |Spearman| between bucket order and "
              "bucket F1 (bucket F1 averaged over each system's runs first). "
              f"{_alpha_note(experiment)}</p>")


def _model_wise(experiment) -> str:
    if not experiment.model_wise:
        return "<p class='note'>The attribute buckets did not run.</p>"
    attributes = list(next(iter(experiment.model_wise.values())))
    rows = []
    for system, by_attribute in experiment.model_wise.items():
        row = [Raw(escape(system))]
        for a in attributes:
            v = by_attribute[a]
            cell = marked(v["spearman"], v["friedman"])
            if v["spearman_std"] is not None:
                cell = Raw(f"{cell} <span class='note'>&plusmn; {v['spearman_std']:.2f}</span>")
            row.append(cell)
        rows.append(row)
    return (table(["system"] + attributes, rows)
            + "<p class='note'>Columns: the attributes by their keys (names in the "
              "attribute-wise table). Spearman correlation of bucket F1 (averaged over the runs) "
              "with bucket order, averaged over the datasets (&plusmn; std over datasets): "
              "&gt; 0 the system gets better along the attribute, &lt; 0 worse. The Friedman "
              f"test pools the system's runs of every dataset. {_alpha_note(experiment)}</p>")


def _heatmap(experiment) -> str:
    picture = figure(experiment, dataset_heatmap_title(experiment.info["baseline"]))
    if not picture:
        return "<p class='note'>No heat map: one system, or the figures were turned off.</p>"
    return picture + (f"<p class='note'>Each cell: (bucket F1 &minus; the baseline "
                      f"{escape(experiment.info['baseline'])}'s bucket F1) / the baseline's, on "
                      "bucket F1 averaged over the runs; one row per dataset and system; "
                      "blank: an empty bucket.</p>")


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
    headers = dict(HEADLINE)
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
              "minus second system, in points (for hardeval lower is better). A pair of runs "
              "in which either number is undefined is left out; &ndash; = no test (fewer "
              "than 2 pairs with defined numbers; hover the adjusted p for why), not "
              "counted in Holm's correction. With fewer than "
              "6 pairs no two-sided p reaches 0.05. These tests are over runs (training "
              "variance); the bootstrap intervals of each dataset's section are over test "
              "sentences, another question.</p>")


def _provenance(experiment) -> str:
    info = experiment.info
    rows = [[k, info[k]] for k in ("baseline", "alpha", "scheme", "mode", "bootstrap", "seed")]
    rows.append(["families", ", ".join(info["families"])])
    rows += [[f"runs on {d}", ", ".join(f"{s} {n}" for s, n in by.items())]
             for d, by in info["n_runs"].items()]
    return table(["", "value"], [[Raw(escape(k)), Raw(escape(v))] for k, v in rows], text=True) + \
        "<p class='note'>Each dataset's inputs are in its section's provenance.</p>"


def _dataset(experiment, k: int, name: str) -> tuple[str, list]:
    """The dataset's section and its ``(anchor, title)`` entries for the contents."""
    report = experiment.reports[name]
    prefix = f"d{k + 1}-"
    inner = [(prefix + a, t, b) for a, t, b in page_sections(report) if a not in LEFT_OUT]
    runs = experiment.runs[name]
    intro = (f"<p>{counted(report.info['sentences'], 'sentence')}, "
             f"{counted(report.info['tokens'], 'token')}; "
             + "; ".join(f"{escape(s)}: {counted(len(c), 'run')}"
                         + (f" ({escape(', '.join(c))})" if len(c) > 1 else "")
                         for s, c in runs.items())
             + ". The runs are this report's systems; its error examples are in "
               "experiment.json.</p>")
    body = intro + "".join(f"<section id='{a}'><h3>{escape(t)}</h3>{b}</section>"
                           for a, t, b in inner)
    html = (f"<section id='d{k + 1}' class='dataset'><h2>Dataset {escape(name)}</h2>{body}"
            "</section>")
    return html, [(a, t) for a, t, _ in inner]


def render(experiment) -> str:
    top = [("findings", "Findings", _findings(experiment)),
           ("holistic", "Systems x datasets: mean and std over runs", _holistic(experiment)),
           ("tmr", "Recall per subset over runs (tough mentions)",
            _tough_mentions(experiment)),
           ("attribute_wise", "Attribute-wise view across datasets", _attribute_wise(experiment)),
           ("model_wise", "Model-wise correlations averaged over datasets",
            _model_wise(experiment)),
           ("heatmap", "Relative change against the baseline, per dataset",
            _heatmap(experiment)),
           ("significance", "Wilcoxon tests between systems", _significance(experiment))]
    datasets = [_dataset(experiment, k, name) for k, name in enumerate(experiment.datasets)]
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
