"""What the nerlens report and experiment show of the attribute buckets, as plain data.

- names: ``attribute_name`` (from the attribute's record), ``bucket_label`` and
  ``statistic_name`` (``buckets.eLen.0`` -> ``F1, entity length (eLen) XS {1}``);
- ``figures``: the bucket F1 chart of every attribute (the report's bootstrap intervals as
  error bars), the self-diagnosis histograms and the overview heat map;
- ``section`` and ``overview``: the page blocks of the report;
- ``bucket_gap``, ``token_bucket_gap``: the findings' rules;
- the paper's views of several systems (``nerlens buckets``): ``diagnosis_blocks``
  (model-wise, attribute-wise, comparative), ``significance_blocks`` (Friedman and
  Wilcoxon over runs or datasets), and over the datasets of a manifest
  ``over_datasets`` and ``datasets_blocks``;
- over the runs of an experiment: ``views`` (the attribute-wise and model-wise views on
  bucket F1 averaged over runs, each value with its Friedman test), ``experiment_sections``,
  ``experiment_figures`` (radar chart and relative heat map across datasets) and the rule
  ``attribute``.
"""
from __future__ import annotations

import numpy as np

from nerspan.blocks import (Collapsed, Few, Figure, FiguresCapNote, Heading, Hover, Marked,
                            Note, Noted, Table)
from nerspan.bootstrap import MIN_SUPPORT
from nerspan.errors import counted
from nerspan.family import (ExperimentView, Section, finding, interval_text, no_gold_note,
                             percent, usable)
from nerspan.significance import holm, mean_std, result_or_reason

from . import analysis, plots
from .analysis import attribute_name, degenerate
from .attributes import TOKEN
from .core import STATISTIC_PREFIX

BUCKETS = "buckets."   # a bucket's statistic: buckets.<attribute>.<index>


# -- names -------------------------------------------------------------------------------
def bucket_label(bucket: dict) -> str:
    """A bucket's name with its interval; a type bucket is named by its type alone."""
    if bucket["interval"] == bucket["name"]:
        return str(bucket["name"])
    return f"{bucket['name']} {bucket['interval']}"


def statistic_key(attribute: str, index: int) -> str:
    """The report's statistic of bucket ``index`` of ``attribute``."""
    return f"{STATISTIC_PREFIX}.{BUCKETS}{attribute}.{index}"


def statistic_name(key: str, first=None) -> str | None:
    """The name of a bucket's statistic (``buckets.eLen.0``), read from the buckets of
    ``first`` (a result dict); None for another key or an unknown bucket.

    >>> first = {"buckets": {"eLen": [{"name": "XS", "interval": "{1}"}]}}
    >>> statistic_name("buckets.eLen.0", first)
    'F1, entity length (eLen) XS {1}'
    """
    if not key.startswith(BUCKETS):
        return None
    attribute, _, index = key[len(BUCKETS):].rpartition(".")
    rows = (first or {}).get("buckets", {}).get(attribute)
    if rows is None or not index.isdigit() or int(index) >= len(rows):
        return None
    return f"F1, {attribute_name(attribute)} {bucket_label(rows[int(index)])}"


# -- figures -----------------------------------------------------------------------------
OVERVIEW_TITLE = "Overview: bucket F1 minus each system's overall F1"


KEY_TITLE = "Systems: the colours of the bucket charts"


def bucket_figure_title(attribute: str) -> str:
    return f"F1 by {attribute} bucket"


def self_diagnosis_title(system: str) -> str:
    return f"Self-diagnosis, {system}"


def figures(view) -> dict:
    """Title -> Figure: each attribute's bucket F1, all systems in one chart (with the
    report's intervals as error bars) and, for several systems, one key of their colours
    for all the charts; the self-diagnosis of the systems ``view.drawn``; the overview
    heat map (every system's bucket F1 against its overall F1)."""
    first = view.first()
    shown = {system: with_intervals(result, view.intervals.get(system, {}))
             for system, result in view.results.items()}
    out = {KEY_TITLE: plots.system_key(list(shown))} if len(shown) > 1 else {}
    out.update({bucket_figure_title(a): plots.bucket_chart(shown, a, legend=False)
                for a in plots.drawable(shown, first["buckets"])})
    for system in view.drawn:
        out[self_diagnosis_title(system)] = plots.self_diagnosis_chart(
            view.results[system], title=f"Self-diagnosis: {system}")
    out.update(overview_figure(view))
    return out


def overview_figure(view) -> dict:
    """The overview heat map (systems x buckets of the entity attributes)."""
    results = dict(view.results)
    # entity attributes only: token attributes score every token (O included), so their F1
    # is not comparable with entity F1
    attributes = [a for a in plots.drawable(results, view.first()["buckets"])
                  if analysis.unit(view.first(), a) != TOKEN]
    if not attributes:
        return {}
    # the difference, not the ratio: a weak system's ratios would wash out every other row
    figure = plots.heatmap(results, attributes=attributes, width=12.5, difference=True,
                           height=max(2.5, 0.3 * len(view.systems) + 2.2),
                           title=OVERVIEW_TITLE)
    return {OVERVIEW_TITLE: figure}


def with_intervals(result: dict, intervals: dict) -> dict:
    """``result`` with each bucket's ``f1_interval`` from the report's intervals."""
    if not intervals:
        return result
    buckets = {}
    for attribute, rows in result["buckets"].items():
        buckets[attribute] = []
        for i, row in enumerate(rows):
            ci = intervals.get(statistic_key(attribute, i)) or {}
            low, high = ci.get("low"), ci.get("high")
            if low is not None and np.isnan(low):
                low = high = None
            buckets[attribute].append({**row, "f1_interval": (low, high)})
    return {**result, "buckets": buckets}


# -- the report's page -------------------------------------------------------------------
TOKEN_NOTE = ("Scored over tokens, O included (every token is a unit): token F1, not "
              "comparable with entity F1.")
# what the heat maps' marks mean (plots._relative_map draws them)
MAP_MARKS = ("A faded cell marked *: a bucket of fewer than "
             f"{counted(MIN_SUPPORT, 'gold unit')} (the tables' *); a number in a cell: its "
             "value, beyond the colour scale's end (the scale leaves out outliers, so that "
             "one bucket cannot wash the others out).")
OVERVIEW_NOTE = (
    "Each cell: the system's F1 on the bucket minus its overall entity F1, in points "
    "(\u221220 = 20 points below its overall F1); green: the system does better on the "
    "bucket than overall, red: worse; \u2013: undefined (a bucket without gold or "
    "predicted mentions). "
    "Columns: the buckets of each attribute (their intervals are in the attribute buckets "
    "section). The token attributes (token label consistency, token frequency) are left "
    "out: they score every token, O included, so their F1 is not comparable with entity "
    f"F1. {MAP_MARKS}")


def overview(view) -> tuple:
    """The overview heat map and what it shows (the report's overview section)."""
    if OVERVIEW_TITLE not in view.figures:
        return no_gold_note(view, "no bucket of an entity attribute holds one, so there is "
                            "no overview.") or (
            Note("No overview: the attribute buckets did not run, or figures were turned "
                 "off."),)
    return Figure(OVERVIEW_TITLE), Note(OVERVIEW_NOTE)


NO_GOLD = ("every bucket of an entity attribute holds 0 gold mentions, so its recall is "
           "undefined and its F1 is 0 where a system predicted mentions (each a false "
           "positive), undefined (\u2013) where it predicted none; no chart is drawn for "
           "them, and entity type (tag) has no bucket. The token attributes score every "
           "token (O included) and stay defined.")


def section(view) -> tuple:
    """Per attribute its chart (each system's overall F1 as a dashed line) and the F1 of
    every bucket and system (collapsed beyond two systems; buckets empty by construction
    left out, and said; buckets of fewer than ``MIN_SUPPORT`` gold units marked *); the
    self-diagnosis (best and worst bucket) of every system, and its histograms."""
    first = view.first()
    blocks = [*no_gold_note(view, NO_GOLD)]
    blocks += [Figure(KEY_TITLE)] if KEY_TITLE in view.figures else []
    for attribute, buckets in first["buckets"].items():
        blocks += _attribute_blocks(view, attribute, buckets)
    return (*blocks, *_diagnosis_blocks(view))


FEW_NOTE = f"* = a bucket of fewer than {counted(MIN_SUPPORT, 'gold unit')}."


def _attribute_blocks(view, attribute: str, buckets: list) -> list:
    """One attribute's heading, chart and table of F1 per bucket and system."""
    first, results = view.first(), view.results
    tokens = analysis.unit(first, attribute) == TOKEN
    blocks = [Heading(attribute_name(attribute))] + ([Note(TOKEN_NOTE)] if tokens else [])
    if not buckets:
        return blocks + [Note("No bucket: gold has no mention, so no type to make one.")]
    blocks.append(Figure(bucket_figure_title(attribute)))
    rows = [[bucket_label(bucket), str(bucket["gold"])]
            + [few(r["buckets"][attribute][i]["f1"], bucket["gold"]) for r in results.values()]
            for i, bucket in enumerate(buckets) if not degenerate(bucket)]
    left_out = [bucket_label(b) for b in buckets if degenerate(b)]
    if left_out:
        blocks.append(Note(f"Left out: {', '.join(left_out)}, empty by construction (two "
                           "bucket edges fell on the same value, so no value lies "
                           "inside)."))
    small = any(b["gold"] < MIN_SUPPORT for b in buckets if not degenerate(b))
    table = Table(["bucket", "gold tokens" if tokens else "gold mentions"] + list(results),
                  rows, note=FEW_NOTE if small else "", system_columns=2)
    # the summary sits under the attribute's heading: it names the table, not the attribute
    return blocks + [Collapsed(f"{'Token F1' if tokens else 'F1'} per bucket (%), every system",
                               (table,), opened=len(results) <= 2)]


def few(cell, gold: int):
    """A bucket's F1 cell, marked * (``Few``) when the bucket holds fewer than
    ``MIN_SUPPORT`` gold units, as the report's intervals and heat maps mark it."""
    return Few(cell) if cell is not None and gold < MIN_SUPPORT else cell


def _diagnosis_blocks(view) -> list:
    """The self-diagnosis table (best and worst bucket of every attribute and system) and
    the systems' histograms."""
    results, diagnoses = view.results, []
    for system, result in results.items():
        for attribute, row in analysis.self_diagnosis(result).items():
            scored = [b for b in result["buckets"][attribute] if b["f1"] is not None]
            if len(scored) >= 2:  # one scored bucket has no best and worst
                tokens = ", token F1" if analysis.unit(result, attribute) == TOKEN else ""
                diagnoses.append([system, attribute_name(attribute) + tokens,
                                  str(row["best"]), row["best_f1"], str(row["worst"]),
                                  row["worst_f1"], row["gap"]])
    if not diagnoses:
        return []
    blocks = [Heading("Self-diagnosis: best and worst bucket"),
              Collapsed(f"Every attribute, {counted(len(results), 'system')}",
                        (Table(["system", "attribute", "best", "F1", "worst", "F1", "gap"],
                               diagnoses),), opened=len(diagnoses) <= 20)]
    charts = [self_diagnosis_title(system) for system in results]
    if any(title in view.figures for title in charts):
        blocks += [Figure(title) for title in charts]
        blocks.append(Note("Each chart draws the entity attributes beside the system's "
                           "entity F1, and the token attributes (token F1) apart, beside "
                           "the F1 over all tokens."))
    return blocks + [FiguresCapNote()]


# -- the headline ------------------------------------------------------------------------
GAP_NOTE = (f"the largest difference of F1 between two buckets of one entity attribute, "
            f"among buckets of at least {counted(MIN_SUPPORT, 'gold mention')}")


def largest_gap(result: dict) -> tuple:
    """``(gap, "attribute: best vs worst")``: the largest F1 gap between two buckets of
    an entity attribute (buckets of at least ``MIN_SUPPORT`` gold mentions; the token
    attributes score tokens and are left out); ``(None, "")`` without two such buckets.

    >>> rows = [{"name": "XS", "f1": 0.9, "gold": 40}, {"name": "S", "f1": 0.5, "gold": 30},
    ...         {"name": "L", "f1": 0.1, "gold": 2}]
    >>> gap, what = largest_gap({"buckets": {"eLen": rows}})
    >>> round(gap, 2), what
    (0.4, 'entity length (eLen): XS vs S')
    """
    best = None
    for attribute, rows in result.get("buckets", {}).items():
        if analysis.unit(result, attribute) == TOKEN:
            continue
        scored = [(r["f1"], str(r["name"])) for r in rows
                  if r["f1"] is not None and r["gold"] >= MIN_SUPPORT]
        if len(scored) >= 2:
            (low, low_name), (high, high_name) = min(scored), max(scored)
            if best is None or high - low > best[0]:
                best = (high - low, f"{attribute_name(attribute)}: {high_name} vs {low_name}")
    return best or (None, "")


# -- findings ----------------------------------------------------------------------------
BUCKET_GAP = ("Largest bucket gap of a system: over the entity attributes, the best and the "
              f"worst bucket F1 among buckets with at least {counted(MIN_SUPPORT, 'gold item')}"
              " whose intervals do not overlap; the attribute with the largest gap.")
TOKEN_BUCKET_GAP = ("The same over the token attributes (token label consistency and token "
                    "frequency), whose buckets score "
                    "tokens, O included: their F1 is compared only with each other, never "
                    "with entity F1.")


def bucket_gap(view) -> list[dict]:
    """Largest gap over the entity attributes (F1 over mentions)."""
    return _bucket_gaps(view, tokens=False)


def token_bucket_gap(view) -> list[dict]:
    """Largest gap over the token attributes (F1 over tokens), ranked apart: a token F1
    near 100% says nothing about entity F1."""
    return _bucket_gaps(view, tokens=True)


def _bucket_gaps(view, tokens: bool) -> list[dict]:
    out = []
    for system in view.systems:
        result = view.results.get(system, {})
        best_gap = None
        for attribute, rows in result.get("buckets", {}).items():
            if (analysis.unit(result, attribute) == TOKEN) != tokens:
                continue
            gap = _gap(view, system, attribute, rows)
            if gap and (best_gap is None or gap[0] > best_gap[0]):
                best_gap = gap
        if best_gap:
            out.append(_gap_finding(system, tokens, *best_gap))
    return out


def _gap(view, system: str, attribute: str, rows: list) -> tuple | None:
    """``(gap, attribute, best row, its interval, worst row, its interval)`` when the
    best and worst usable buckets' intervals do not overlap."""
    scored = []
    for i, row in enumerate(rows):
        ci = view.intervals.get(system, {}).get(statistic_key(attribute, i))
        if row.get("f1") is not None and usable(ci):
            scored.append((row["f1"], i, ci))
    if len(scored) < 2:
        return None
    (low_f1, low_i, low_ci), (high_f1, high_i, high_ci) = min(scored), max(scored)
    if low_ci["high"] >= high_ci["low"]:
        return None
    return high_f1 - low_f1, attribute, rows[high_i], high_ci, rows[low_i], low_ci


def _gap_finding(system, tokens: bool, gap, attribute, high, high_ci, low, low_ci) -> dict:
    where, score, note = (("over tokens ", "token F1", " (F1 over every token, O included; "
                           "not comparable with entity F1)") if tokens else ("", "F1", ""))
    return finding(
        "token_bucket_gap" if tokens else "bucket_gap", system,
        f"{system}'s largest bucket gap {where}is in {attribute_name(attribute)}: {score} "
        f"{percent(high['f1'])} {interval_text(high_ci)} for {bucket_label(high)} vs "
        f"{percent(low['f1'])} {interval_text(low_ci)} for {bucket_label(low)}{note}.",
        size=gap, attribute=attribute, best=bucket_label(high), worst=bucket_label(low),
        best_f1=high["f1"], worst_f1=low["f1"], unit="token" if tokens else "mention")


# -- the paper's views of several systems (nerlens buckets) ------------------------------
def diagnosis_blocks(results: dict) -> tuple:
    """The paper's views beyond the section's self-diagnosis, of system -> result dict:
    model-wise, attribute-wise, and the comparative diagnosis of the first system with
    each other."""
    view = analysis.summary(results)
    attributes = list(next(iter(results.values()))["buckets"])
    attribute_view = view["attribute_wise"]
    out = (Heading("Model-wise (Spearman of F1 with bucket order / std of bucket F1 %)"),
           Table(["system"] + attributes, [[system] + [
               _spearman_spread(view["model_wise"][system][a]) for a in attributes]
               for system in results]),
           Heading("Attribute-wise (zeta = mean value over gold units; rho = mean |Spearman|)"),
           Table(["", *attributes],
                 [["zeta"] + [analysis.zeta_text(attribute_view[a]["zeta"]) for a in attributes],
                  ["rho"] + [_shown(attribute_view[a]["rho"], ".2f") for a in attributes]]))
    first, *others = results
    for b in others:  # keyed "first vs b" (never split: a name may hold " vs ")
        per_attribute = view["comparative_diagnosis"][f"{first} vs {b}"]
        out += (Heading(f"Comparative diagnosis, {first} minus {b} (F1 points)"),
                Table(["attribute", "largest", "at", "smallest", "at"],
                      [[attr, f"{100 * d['exceeds_by']:+.1f}", d["most_exceeds"],
                        f"{100 * d['trails_by']:+.1f}", d["most_trails"]]
                       for attr, d in per_attribute.items() if "most_exceeds" in d]))
    return out


def _spearman_spread(entry: dict) -> str:
    std = None if entry["std"] is None else 100 * entry["std"]
    return f"{_shown(entry['spearman'], '+.2f')}/{_shown(std, '.1f')}"


def _shown(value, spec: str = ".4g") -> str:
    """A number as these views write it (``spec``), - for undefined."""
    return "-" if value is None else format(value, spec)


def significance_blocks(significance: dict) -> tuple:
    """Friedman (per system and attribute) and Wilcoxon (per pair) p-values as tables,
    each with its Holm-adjusted p-value (``analysis.significance_runs``)."""
    friedman = significance["friedman"]
    attrs = list(next(iter(friedman.values())))
    n = significance["n_datasets"]
    over = (f"the runs of {counted(n, 'dataset')}"
            if max(significance.get("n_runs", {}).values(), default=n) > n
            else counted(n, "dataset/run", "datasets/runs"))
    out = (Note(f"Friedman test across buckets over {over} (p / Holm-adjusted p over the "
                "table's tests; - = not computable):"),
           Table(["system"] + attrs, [[system] + [_tested(friedman[system][a]) for a in attrs]
                                      for system in friedman]))
    if significance["wilcoxon"]:
        keys = ["overall"] + attrs
        out += (Note("Wilcoxon signed-rank test, paired F1 (overall) and bucket F1 (per "
                     f"attribute) over {over}, run k with run k (p / Holm-adjusted p over "
                     "the pairs, per column):"),
                Table(["pair"] + keys, [[pair] + [_tested(entry[k]) for k in keys]
                                        for pair, entry in significance["wilcoxon"].items()]))
    return out


def _tested(test: dict) -> str:
    """A test's p-value and its Holm-adjusted one (``p/holm``), or - when not computable."""
    if test.get("pvalue") is None:
        return "-"
    return f"{_shown(test['pvalue'])}/{_shown(test.get('pvalue_holm'))}"


def over_datasets(results: dict, runs: dict, baseline: str) -> tuple[dict, dict]:
    """``(result, averaged)`` of the datasets of a manifest (``results``: dataset ->
    report column -> result dict; ``runs``: dataset -> system -> its columns): the result
    holds ``datasets``, ``runs``, ``attribute_wise`` (zeta/rho per dataset) and
    ``significance`` (``analysis.significance_runs`` against ``baseline``); ``averaged``
    is dataset -> system -> its result averaged over its runs (``bucket_results``)."""
    systems = tuple(next(iter(runs.values())))
    averaged = bucket_results(ExperimentView("attribute_buckets", tuple(results), systems,
                                             runs, results))
    return {"datasets": results, "runs": runs,
            "attribute_wise": analysis.attribute_wise_datasets(averaged),
            "significance": analysis.significance_runs(results, runs, baseline)}, averaged


def datasets_blocks(result: dict, averaged: dict) -> tuple:
    """``over_datasets``'s views: overall F1 (datasets x systems, mean over runs),
    zeta and rho per dataset, the tests."""
    several = any(len(c) > 1 for by_system in result["runs"].values() for c in by_system.values())
    systems = list(next(iter(averaged.values())))
    parts = (Heading(f"Overall F1 (%{', mean over runs' if several else ''})"),
             Table(["dataset"] + systems, [[name] + [r[s]["f1"] for s in systems]
                                           for name, r in averaged.items()]))
    attrs = list(next(iter(result["attribute_wise"].values())))
    for key, title, shown in (("zeta", "mean attribute value over gold units", analysis.zeta_text),
                              ("rho", "mean |Spearman| over systems",
                               lambda rho: _shown(rho, ".2f"))):
        parts += (Heading(f"Attribute-wise {key} ({title})"),
                  Table(["dataset"] + attrs, [[name] + [shown(view[a][key]) for a in attrs]
                                              for name, view in result["attribute_wise"].items()]))
    return parts + significance_blocks(result["significance"])


# -- over the runs and datasets of an experiment -----------------------------------------
def averaged_buckets(results: list) -> dict:
    """One result dict whose bucket F1 (and overall F1) are the means over ``results``
    (runs of a system on one dataset: the same buckets); a bucket empty in any run stays
    empty."""
    first = results[0]
    buckets = {}
    for attribute, rows in first["buckets"].items():
        buckets[attribute] = []
        for i, row in enumerate(rows):
            values = [r["buckets"][attribute][i]["f1"] for r in results]
            buckets[attribute].append({**row, "f1": None if any(v is None for v in values)
                                       else float(np.mean(values))})
    return {**first, "buckets": buckets, "f1": float(np.mean([r["f1"] for r in results]))}


def bucket_results(view) -> dict:
    """Dataset -> system -> bucket results averaged over its runs."""
    return {name: {system: averaged_buckets([view.results[name][c] for c in columns])
                   for system, columns in view.runs[name].items()}
            for name in view.datasets}


def views(view) -> dict:
    """``{"attribute_wise": dataset -> attribute -> {zeta, rho, friedman}, "model_wise":
    system -> attribute -> {spearman, ..., friedman}}`` on bucket F1 averaged over runs,
    each value with its Friedman test over the runs (Holm over the tests of each view)."""
    if not all(name in view.results for name in view.datasets):
        return {"attribute_wise": {}, "model_wise": {}}
    alpha = view.info["alpha"]
    averaged = bucket_results(view)
    by_dataset = analysis.attribute_wise_datasets(averaged)
    attributes = list(next(iter(by_dataset.values())))
    tests = {}
    attribute_wise = {}
    for name, one in by_dataset.items():
        # do the buckets differ on this dataset? blocks: every run of every system
        blocks = [view.results[name][c] for columns in view.runs[name].values()
                  for c in columns]
        attribute_wise[name] = {}
        for attribute in attributes:
            test = result_or_reason(analysis.friedman_buckets, blocks, attribute)
            tests[("attribute_wise", name, attribute)] = test
            attribute_wise[name][attribute] = {**one[attribute], "friedman": test}
    model_wise = {}
    for system in view.systems:
        per_dataset = {name: analysis.model_wise({system: averaged[name][system]},
                                                 attributes)[system]
                       for name in averaged if system in averaged[name]}
        blocks = [view.results[name][c] for name in per_dataset for c in view.runs[name][system]]
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
    for kind in ("attribute_wise", "model_wise"):   # one family of tests per view
        adjusted = holm({key: test.get("pvalue") for key, test in tests.items()
                         if key[0] == kind})
        for key, p in adjusted.items():
            tests[key]["pvalue_holm"] = p
            tests[key]["significant"] = p is not None and p < alpha
    return {"attribute_wise": attribute_wise, "model_wise": model_wise}


RADAR_TITLE = "Attribute-wise zeta and rho across datasets"


def dataset_heatmap_title(baseline: str) -> str:
    return f"Relative change of bucket F1 against {baseline}, per dataset"


def dataset_figures(datasets: dict, baseline: str | None = None) -> dict:
    """Title -> Figure of the cross-dataset figures: the radar chart of zeta/rho (one
    polygon per dataset) and, with two or more systems, the heat map of relative change
    against ``baseline`` (default: the first system).

    ``datasets`` maps a dataset name to ``{system: attribute_buckets result dict}``.
    """
    out = {RADAR_TITLE: plots.radar_chart(datasets)}
    systems = list(next(iter(datasets.values())))
    if len(systems) >= 2:
        baseline = baseline or systems[0]
        out[dataset_heatmap_title(baseline)] = plots.dataset_heatmap(datasets, baseline)
    return out


def experiment_figures(view) -> dict:
    """The radar chart and the relative heat map across datasets (bucket F1 averaged over
    runs), on the systems every dataset has."""
    averaged = bucket_results(view)
    shared = [s for s in next(iter(averaged.values()))
              if all(s in by_system for by_system in averaged.values())]
    try:
        return dataset_figures({name: {s: by_system[s] for s in shared}
                                for name, by_system in averaged.items()},
                               view.info["baseline"])
    except ValueError:   # fewer than 3 ordered attributes: no radar chart
        return {}


def _alpha_note(view) -> str:
    return (f"\u2020 = not significant: the Friedman test over the runs (do the buckets "
            f"differ?) has a Holm-adjusted p of at least {view.info['alpha']:g}, or could "
            "not be run (fewer than 2 runs or 3 buckets shared by all runs); Holm's "
            "correction runs over the Friedman tests of the table (one family per table). "
            "Hover a value for its test.")


def experiment_sections(view) -> tuple:
    """The attribute-wise view, the model-wise view and the relative heat map."""
    return (Section("attribute_wise", "Attribute-wise view across datasets",
                    _attribute_wise(view)),
            Section("model_wise", "Model-wise correlations averaged over datasets",
                    _model_wise(view)),
            Section("heatmap", "Relative change against the baseline, per dataset",
                    _heatmap(view)))


NOT_RUN = (Note("The attribute buckets did not run."),)


def _attribute_wise(view) -> tuple:
    by_dataset = view.data.get("attribute_wise")
    if not by_dataset:
        return NOT_RUN
    attributes = list(next(iter(by_dataset.values())))
    header = ["attribute"] + [f"{h} {d}" for d in view.datasets for h in ("zeta", "rho")]
    rows = []
    for a in attributes:
        row = [Hover(attribute_name(a), a)]
        for d in view.datasets:
            one = by_dataset[d][a]
            row += [analysis.zeta_text(one["zeta"]),
                    Marked(one["rho"], one["friedman"])]
        rows.append(row)
    return (Figure(RADAR_TITLE),
            Table(header, rows,
                  note="zeta: the mean attribute value over the gold units of the dataset; "
                       "rho: the mean over systems of |Spearman| between bucket order and "
                       "bucket F1 (bucket F1 averaged over each system's runs first). "
                       f"{_alpha_note(view)}"))


def _model_wise(view) -> tuple:
    by_system = view.data.get("model_wise")
    if not by_system:
        return NOT_RUN
    attributes = list(next(iter(by_system.values())))
    rows = []
    for system, by_attribute in by_system.items():
        row = [system]
        for a in attributes:
            v = by_attribute[a]
            cell = Marked(v["spearman"], v["friedman"])
            if v["spearman_std"] is not None:
                cell = Noted(cell, f"\u00b1 {v['spearman_std']:.2f}")
            row.append(cell)
        rows.append(row)
    return (Table(["system"] + attributes, rows,
                  note="Columns: the attributes by their keys (names in the attribute-wise "
                       "table). Spearman correlation of bucket F1 (averaged over the runs) "
                       "with bucket order, averaged over the datasets (\u00b1 std over "
                       "datasets): > 0 the system gets better along the attribute, < 0 "
                       "worse. The Friedman test pools the system's runs of every dataset. "
                       f"{_alpha_note(view)}"),)


def _heatmap(view) -> tuple:
    baseline = view.info["baseline"]
    title = dataset_heatmap_title(baseline)
    if title not in view.figures:
        return (Note("No heat map: one system, or the figures were turned off."),)
    return (Figure(title),
            Note(f"Each cell: (bucket F1 \u2212 the baseline {baseline}'s bucket F1) / the "
                 "baseline's, in percent (+50% = half as good again as the baseline), on "
                 "bucket F1 averaged over the runs; one row per dataset and system; \u2013: "
                 "an empty bucket, or one where the baseline's F1 is 0. The token attributes "
                 "are left out, as in each dataset's overview (they score every token, O "
                 f"included). {MAP_MARKS}"))


ATTRIBUTE = ("On each dataset, the attribute whose buckets matter most for the systems "
             "(largest rho) among those whose Friedman test over runs is significant after "
             "Holm's correction.")


def attribute(view) -> list[dict]:
    out = []
    for name, one in view.data.get("attribute_wise", {}).items():
        scored = [(v["rho"], a) for a, v in one.items()
                  if v.get("rho") is not None and v["friedman"].get("significant")]
        if not scored:
            continue
        rho, which = max(scored)
        out.append(finding("attribute", None,
                           f"{name}: {attribute_name(which)} matters most (rho {rho:.2f}, "
                           "buckets differ by Friedman, Holm-adjusted p = "
                           f"{one[which]['friedman']['pvalue_holm']:.3g}).",
                           dataset=name, attribute=which, rho=rho))
    return out
