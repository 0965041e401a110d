"""Findings of an experiment: short statements from its numbers over runs and datasets.

Each rule (the experiment's own, ``RULES``, then those of the families' experiment parts;
all shown on the page) states something only when its evidence holds; a finding is plain
data (``rule``, ``text``, ``evidence``) as the report's findings.
"""
from __future__ import annotations

from itertools import combinations

from nerspan.errors import counted
from nerspan.family import finding, percent

from nerlens.report.names import pair_key

from . import generated
from .over_runs import experiment_view, family_parts

RULES = {
    generated.RULE: "On each dataset, for each run of a system given as generated output (an "
                    "LLM's responses), the share of its entities that are not in their "
                    "sentence (a wrong prediction in every precision), the responses that could "
                    "not be read and the share of entities that became spans; stated first.",
    "best": "The system with the highest mean entity F1 on each dataset (mean \u00b1 sample "
            "standard deviation over its runs), and whether the Wilcoxon test over runs "
            "shows it apart from the runner-up.",
    "run_spread": "How far each system's runs spread on entity F1: the largest range (best "
                  "minus worst run) over the datasets where it has two or more runs.",
    "wilcoxon": "A system beats another on entity F1 when the Wilcoxon signed-rank test over "
                "the paired runs of all datasets has a Holm-adjusted p below alpha; stated "
                "as 'no difference shown' otherwise.",
}


def _pm(cell: dict) -> str:
    text = percent(cell["mean"])
    if cell.get("std") is not None:
        text += f" \u00b1 {100 * cell['std']:.1f}"
    return text + f" over {counted(cell['n'], 'run')}"


def _test(experiment, a: str, b: str) -> dict | None:
    """The Wilcoxon test of entity F1 between systems ``a`` and ``b`` (either order)."""
    tests = experiment.wilcoxon.get(pair_key(a, b)) or experiment.wilcoxon.get(pair_key(b, a))
    return (tests or {}).get("entity_f1")


def best(experiment) -> list[dict]:
    out = []
    for name, by_system in experiment.aggregate.items():
        scored = [(cell["entity_f1"]["mean"], s) for s, cell in by_system.items()
                  if cell.get("entity_f1", {}).get("mean") is not None]
        if len(scored) < 2:
            continue
        (value, system), (_, second) = sorted(scored, reverse=True)[:2]
        test = _test(experiment, system, second)
        # a lead the tests over runs do not carry is said to be one
        tested = "" if test is None or test.get("significant") else (
            f"; not shown apart from {second} (Wilcoxon over the paired runs of all "
            f"datasets, {counted(test['n_pairs'], 'pair')})")
        out.append(finding("best", system, f"{name}: {system} has the highest entity F1, "
                            f"{_pm(by_system[system]['entity_f1'])}{tested}.", dataset=name,
                            f1=by_system[system]["entity_f1"], runner_up=second))
    return out


def run_spread(experiment) -> list[dict]:
    """Per system, the dataset where its runs' entity F1 spreads most (a statement about
    run variance: the only finding that looks at single runs)."""
    out = []
    for system in experiment.systems:
        widest = None
        for name, report in experiment.reports.items():
            values = [report.estimates[c].get("entity_f1")
                      for c in experiment.runs[name].get(system, ())]
            values = [v for v in values if v is not None and v == v]
            if len(values) >= 2 and (widest is None or max(values) - min(values) > widest[0]):
                widest = (max(values) - min(values), name, min(values), max(values))
        if widest is None:
            continue
        spread, name, low, high = widest
        cell = experiment.aggregate[name][system]["entity_f1"]
        out.append(finding(
            "run_spread", system,
            f"{system}'s runs spread {100 * spread:.1f} entity-F1 points on {name} "
            f"({percent(low)} to {percent(high)}, std {100 * cell['std']:.1f} over "
            f"{counted(cell['n'], 'run')}).", dataset=name, range=spread, min=low,
            max=high, std=cell["std"], n=cell["n"]))
    return out


def significant_differences(experiment) -> list[dict]:
    out, tested = [], 0
    alpha = experiment.info["alpha"]
    for a, b in combinations(experiment.systems, 2):
        pair = pair_key(a, b)
        test = experiment.wilcoxon[pair].get("entity_f1")
        if not test or test.get("pvalue") is None:
            continue
        tested += 1
        if not test["significant"]:
            continue
        winner, loser = (a, b) if test["difference"] > 0 else (b, a)
        out.append(finding(
            "wilcoxon", winner,
            f"{winner} beats {loser} on entity F1: {100 * abs(test['difference']):.1f} points "
            f"on average over {counted(test['n_pairs'], 'paired run')} (Wilcoxon, "
            f"Holm-adjusted p = {test['pvalue_holm']:.3g}).", pair=pair, **test))
    if tested and not out:
        most = max(t["entity_f1"]["n_pairs"] for t in experiment.wilcoxon.values()
                   if "entity_f1" in t)
        out.append(finding(
            "wilcoxon", None,
            "No two systems differ significantly on entity F1 (Wilcoxon over at most "
            f"{counted(most, 'paired run')}, Holm's correction over the pairs, alpha {alpha:g})"
            + ("; with fewer than 6 pairs no two-sided p reaches 0.05." if most < 6 else "."),
            n_pairs=most))
    return out


def rules(experiment) -> dict:
    """Rule name -> what the page says of it: the experiment's, then the families'."""
    return {**RULES, **{rule.name: rule.text for _, part in family_parts() for rule in part.findings}}


def findings(experiment) -> list[dict]:
    # what could not be scored comes first, as in the report
    out = (generated.findings(experiment) + best(experiment)
           + significant_differences(experiment) + run_spread(experiment))
    for family, part in family_parts():
        view = experiment_view(experiment, family)
        for rule in part.findings:
            out += rule.function(view)
    return out
