"""The numbers of an experiment over runs and datasets, from its per-dataset reports.

- ``aggregate``: every headline number, mean +- sample std over each system's runs;
- ``tough_mentions_over_runs``: TMR's recall per subset, mean +- std over the runs;
- ``attribute_views``: the attribute-wise (zeta, rho) and model-wise (Spearman) views on
  bucket F1 averaged over the runs, each value with its Friedman test over the runs;
- ``wilcoxon_tests``: Wilcoxon between every two systems on each ``HEADLINE`` number,
  paired over runs x datasets.

Holm's correction runs over each family of tests (the Friedman tests of one view; the
pairs of systems for one statistic). The tests are ``nerspan.significance``'s.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from nerspan.significance import (defined_pairs, holm, mean_difference, mean_std,
                                  result_or_reason, wilcoxon)

from nerlens.families import family_package
from nerlens.report.names import pair_key

# (statistic key, header): the headline numbers of the experiment tables (those present)
HEADLINE = (("entity_f1", "entity F1"), ("entity_precision", "precision"),
            ("entity_recall", "recall"),
            ("tough_mentions.recall_unseen_any", "recall on unseen mentions"),
            ("hardeval.hardeval", "hardeval (lower is better)"),
            ("faireval.fair_f1", "fair F1"))


def aggregate(reports: dict, runs: dict) -> dict:
    """Dataset -> system -> statistic -> ``{mean, std, n}`` over the system's runs."""
    return {name: {system: {stat: mean_std(r.estimates[c].get(stat)
                                           for c in runs[name][system])
                            for stat in r.higher_is_better}
                   for system in runs[name]}
            for name, r in reports.items()}


def tough_mentions_over_runs(reports: dict, runs: dict) -> dict:
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


def bucket_results(reports: dict, runs: dict) -> dict:
    """Dataset -> system -> bucket results averaged over its runs."""
    return {name: {system: averaged_buckets([r.results[c]["attribute_buckets"]
                                             for c in columns])
                   for system, columns in runs[name].items()}
            for name, r in reports.items()}


def attribute_views(reports: dict, runs: dict, systems: list, alpha: float):
    """(attribute-wise per dataset, model-wise averaged over datasets), each value with
    its Friedman test over runs (Holm over the Friedman tests of each view)."""
    if not all("attribute_buckets" in r.info.get("families", []) for r in reports.values()):
        return {}, {}
    analysis = family_package("attribute_buckets").analysis
    averaged = bucket_results(reports, runs)
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


def wilcoxon_tests(reports: dict, runs: dict, systems: list, higher: dict,
                   alpha: float) -> dict:
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
            out[pair][stat]["significant"] = p is not None and p < alpha
    return out
