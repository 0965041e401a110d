"""Findings: short, quantified statements generated from the report's numbers.

Each finding is stated only when the rule of its kind (``RULES``, shown on the page and
in the README) holds on the report's estimates, bootstrap intervals and paired
comparisons; a rule that needs intervals states nothing without the bootstrap. A finding
is plain data (``rule``, ``system``, ``text``, ``evidence`` with the numbers as fractions),
listed in report.json under ``findings``; the page and the terminal show the first
``SHOWN_PER_RULE`` of each rule (largest effect first) and say how many more there are.
"""
from __future__ import annotations

from nerspan.bootstrap import MIN_SUPPORT
from nerspan.errors import counted

from nerlens.families import family_package

from .names import attribute_name, bucket_label, pair_key

SHOWN_PER_RULE = 3

RULES = {
    "no_seen_mentions": "The test set has no gold mention whose text and type occur in "
                        "training: recall on seen mentions is undefined.",
    "paired": "A system beats the baseline on entity F1 when it is better in at least "
              "(1 + confidence) / 2 of the paired bootstrap resamples (97.5% at 95% "
              "confidence), and worse when in at most (1 - confidence) / 2.",
    "seen_unseen_gap": "Recall on seen vs unseen mentions (tough mentions): stated when each "
                       "subset holds at least "
                       f"{counted(MIN_SUPPORT, 'gold mention')} and the two bootstrap "
                       "intervals do not overlap.",
    "bucket_gap": "Largest bucket gap of a system: over the entity attributes, the best "
                  "and the worst bucket F1 among buckets with at least "
                  f"{counted(MIN_SUPPORT, 'gold item')} whose intervals do not overlap; the "
                  "attribute with the largest gap.",
    "token_bucket_gap": "The same over the token attributes (tCon, tFre), whose buckets "
                        "score tokens, O included: their F1 is compared only with each "
                        "other, never with entity F1.",
    "boundary_errors": "Share of a system's errors that are boundary errors (FairEval BE + "
                       "LBE over FP + FN + LE + BE + LBE): stated when the system makes at "
                       f"least {counted(MIN_SUPPORT, 'error')} (a count, no interval).",
}


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _interval(ci: dict) -> str:
    return f"[{100 * ci['low']:.1f}, {100 * ci['high']:.1f}]"


def _usable(ci: dict | None) -> bool:
    """An interval that can carry evidence: defined and on enough items."""
    return bool(ci) and ci.get("low") is not None and ci["low"] == ci["low"] \
        and not ci.get("too_small") and ci.get("support", 0) >= MIN_SUPPORT


def _finding(rule: str, system, text: str, size: float, **evidence) -> dict:
    return {"rule": rule, "system": system, "text": text, "size": size, "evidence": evidence}


def no_seen_mentions(report) -> list[dict]:
    counts = [report.results[s].get("tough_mentions", {}).get("counts") for s in report.systems]
    counts = next((c for c in counts if c), None)
    if not counts or counts.get("seen") != 0 or not counts.get("all"):
        return []
    return [_finding("no_seen_mentions", None,
                     f"None of the {counted(counts['all'], 'gold mention')} of the test set "
                     "occurs in training with its type: every mention is unseen, recall on seen "
                     "mentions is undefined.", 1.0, seen=0, mentions=counts["all"])]


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
        out.append(_finding("paired", system, text, abs(mine - theirs), winner=winner,
                            loser=loser, share_of_resamples=share, winner_f1=f1s[0],
                            loser_f1=f1s[1], probability_better_than_baseline=p))
    return out


def seen_unseen_gap(report) -> list[dict]:
    out = []
    for system in report.systems:
        names = ("tough_mentions.recall_seen", "tough_mentions.recall_unseen_any")
        seen, unseen = (report.intervals.get(system, {}).get(n) for n in names)
        if not (_usable(seen) and _usable(unseen)):
            continue
        if seen["low"] <= unseen["high"] and unseen["low"] <= seen["high"]:
            continue
        a, b = (report.estimates[system][n] for n in names)
        out.append(_finding(
            "seen_unseen_gap", system,
            f"{system} recalls {percent(a)} of seen mentions {_interval(seen)} but "
            f"{percent(b)} of unseen ones {_interval(unseen)}.", abs(a - b),
            recall_seen=a, recall_unseen=b, interval_seen=seen, interval_unseen=unseen))
    return out


def bucket_gap(report) -> list[dict]:
    """Largest gap over the entity attributes (F1 over mentions)."""
    return _bucket_gaps(report, tokens=False)


def token_bucket_gap(report) -> list[dict]:
    """Largest gap over the token attributes (F1 over tokens), ranked apart: a token F1
    near 100% says nothing about entity F1."""
    return _bucket_gaps(report, tokens=True)


def _bucket_gaps(report, tokens: bool) -> list[dict]:
    unit = family_package("attribute_buckets").analysis.unit
    out = []
    for system in report.systems:
        result = report.results[system].get("attribute_buckets", {})
        best_gap = None
        for attribute, rows in result.get("buckets", {}).items():
            if (unit(result, attribute) == "token") != tokens:
                continue
            gap = _gap(report, system, attribute, rows)
            if gap and (best_gap is None or gap[0] > best_gap[0]):
                best_gap = gap
        if best_gap:
            out.append(_gap_finding(system, tokens, *best_gap))
    return out


def _gap(report, system: str, attribute: str, rows: list) -> tuple | None:
    """``(gap, attribute, best row, its interval, worst row, its interval)`` when the
    best and worst usable buckets' intervals do not overlap."""
    scored = []
    for i, row in enumerate(rows):
        ci = report.intervals.get(system, {}).get(f"attribute_buckets.buckets.{attribute}.{i}")
        if row.get("f1") is not None and _usable(ci):
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
    return _finding(
        "token_bucket_gap" if tokens else "bucket_gap", system,
        f"{system}'s largest bucket gap {where}is in {attribute_name(attribute)}: {score} "
        f"{percent(high['f1'])} {_interval(high_ci)} for {bucket_label(high)} vs "
        f"{percent(low['f1'])} {_interval(low_ci)} for {bucket_label(low)}{note}.", gap,
        attribute=attribute, best=bucket_label(high), worst=bucket_label(low),
        best_f1=high["f1"], worst_f1=low["f1"], unit="token" if tokens else "mention")


def boundary_errors(report) -> list[dict]:
    out = []
    for system in report.systems:
        counts = report.results[system].get("faireval", {}).get("counts")
        if not counts:
            continue
        errors = sum(counts[k] for k in ("FP", "FN", "LE", "BE", "LBE"))
        if errors < MIN_SUPPORT:
            continue
        share = (counts["BE"] + counts["LBE"]) / errors
        out.append(_finding(
            "boundary_errors", system,
            f"{percent(share)} of {system}'s {counted(errors, 'error')} are boundary errors "
            f"({counts['BE']} BE, {counts['LBE']} LBE; FairEval counting).", share,
            share=share, errors=errors, BE=counts["BE"], LBE=counts["LBE"]))
    return out


GENERATORS = (no_seen_mentions, paired, seen_unseen_gap, bucket_gap, token_bucket_gap,
              boundary_errors)


def findings(report) -> list[dict]:
    """Every finding whose rule holds, rule by rule (``RULES`` order), largest effect first."""
    out = []
    for generate in GENERATORS:
        out += sorted(generate(report), key=lambda f: -f["size"])
    return out


def shown(found: list[dict]) -> tuple[list[dict], int]:
    """The findings the page and the terminal list (``SHOWN_PER_RULE`` of each rule) and
    how many are left for report.json."""
    kept, per_rule = [], {}
    for finding in found:
        per_rule[finding["rule"]] = per_rule.get(finding["rule"], 0) + 1
        if per_rule[finding["rule"]] <= SHOWN_PER_RULE:
            kept.append(finding)
    return kept, len(found) - len(kept)

