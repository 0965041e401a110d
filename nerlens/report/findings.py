"""Findings: short, quantified statements generated from the report's numbers.

Each finding is stated only when the rule of its kind holds on the report's estimates,
bootstrap intervals and paired comparisons; a rule that needs intervals states nothing
without the bootstrap. The rules are the report's own (``paired``) and those of each
family that ran (``Family.findings``): first the warnings about the test data, then the
paired comparison, then the families' rules in the report's order, last the confidence
section's (a scored system's F1 peaking away from 0.5). Every rule's text is
shown on the page. A finding is plain data (``rule``, ``system``, ``text``, ``evidence``
with the numbers as fractions), listed in report.json under ``findings``; the page and
the terminal show the first ``SHOWN_PER_RULE`` of each rule (largest effect first) and say
how many more there are.
"""
from __future__ import annotations

from nerspan.family import Rule, finding, percent

from . import confidence, generated, gold_audit
from .names import pair_key
from .views import every_family, ran, report_view

SHOWN_PER_RULE = 3

PAIRED = ("A system beats the reference system (option baseline; default: the first "
          "system) on entity F1, or the other way round, when it is better in at least "
          "(1 + confidence) / 2 of the paired bootstrap resamples (97.5% at 95% "
          "confidence), and worse when in at most (1 - confidence) / 2.")


def paired(report) -> list[dict]:
    level = (1 + report.info.get("confidence", 0.95)) / 2
    baseline = report.info.get("baseline")
    out = []
    for system in report.systems:
        p = report.comparisons.get(pair_key(system, baseline), {}).get("entity_f1")
        if p is None or p != p:
            continue
        mine, theirs = report.estimates[system]["entity_f1"], report.estimates[baseline]["entity_f1"]
        if p >= level:
            winner, loser, share, f1s = system, baseline, p, (mine, theirs)
        elif p <= 1 - level:
            winner, loser, share, f1s = baseline, system, 1 - p, (theirs, mine)
        else:
            continue
        text = (f"{winner} beats {loser} on entity F1 in {percent(share)} of paired "
                f"resamples ({percent(f1s[0])} vs {percent(f1s[1])}).")
        out.append(finding("paired", system, text, size=abs(mine - theirs), winner=winner,
                           loser=loser, share_of_resamples=share, winner_f1=f1s[0],
                           loser_f1=f1s[1], probability_better_than_baseline=p))
    return out


def rules(families) -> list[tuple]:
    """``(rule, family or None)`` in the order findings are stated: the warnings of the
    ``families`` (descriptors, in the report's order), the paired comparison, their other
    rules."""
    found = [(rule, family) for family in families for rule in family.findings]
    return ([(Rule("generated_output", generated.RULE, generated.usable, warning=True), None)]
            + [(r, f) for r, f in found if r.warning] + [(Rule("paired", PAIRED, paired), None)]
            + [(gold_audit.FINDINGS, None)] + [(r, f) for r, f in found if not r.warning]
            + [(Rule("confidence_peak", confidence.RULE, confidence.findings), None)])


def all_rules() -> dict:
    """Rule name -> its text, of the report and of every registered family."""
    return {rule.name: rule.text for rule, _ in rules(every_family())}


def rule_texts(report) -> dict:
    """Rule name -> what the page says of it (the rules of the families that ran)."""
    return {rule.name: rule.text for rule, _ in rules(ran(report))}


def findings(report) -> list[dict]:
    """Every finding whose rule holds, rule by rule, largest effect first."""
    out = []
    for rule, family in rules(ran(report)):
        found = rule.function(report if family is None else report_view(report, family))
        out += sorted(found, key=lambda f: -f["size"])
    return out


def shown(found: list[dict]) -> tuple[list[dict], int]:
    """The findings the page and the terminal list (``SHOWN_PER_RULE`` of each rule) and
    how many are left for report.json."""
    kept, per_rule = [], {}
    for finding_ in found:
        per_rule[finding_["rule"]] = per_rule.get(finding_["rule"], 0) + 1
        if per_rule[finding_["rule"]] <= SHOWN_PER_RULE:
            kept.append(finding_)
    return kept, len(found) - len(kept)
