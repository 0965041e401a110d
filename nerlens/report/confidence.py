"""The report's confidence section: scores with a dial (METHODS §8).

A system given with a confidence per mention (``report(..., scored={name: ...})``) is a
system of the report like any other, its every mention kept; this section turns the
dial. Per scored system: the precision-recall curve (``nerspan.sweeps``), average
precision, the threshold of the highest F1 (chosen on the test split itself: the
operating point says what that choice inflates, ``nerspan.operating_points``), the
reliability diagram, and the headline numbers (entity P/R/F1 and every family's
``Headline``s) with every mention kept, at the default 0.5, at the chosen threshold and
along the curve (every distinct confidence, or ``GRID_POINTS`` quantiles). Each family
scores the mentions kept at a threshold as it scores any prediction (its public
``score`` on the report's evaluation); no family is named here.
"""
from __future__ import annotations

import numpy as np

import dataclasses

from nerspan.family import finding, percent
from nerspan.flat import GOLD
from nerspan.generative.form import is_generated
from nerspan.generative.scored_output import scored_generated
from nerspan.operating_points import operating_point
from nerspan.scored import ScoredMentions, check_fits, scored_spans
from nerspan.sweeps import GRID_POINTS, sweep_spans
from nerspan.sweep_view import DEFAULT_THRESHOLD

from nerlens.families import get_family
from nerspan.reading.systems import add_systems, check_system_name

from .dial_charts import PALETTE, Chart, nice_ceiling
from .names import headlines as headlines_of
from .statistics import family_statistics
from .page_kit import Raw, escape, table

# The thresholds the section compares (its "at" keys, in page order).
EVERY, DEFAULT, CHOSEN = "every mention", "default 0.5", "chosen"
ENTITY_NAMES = {"entity_precision": "entity precision", "entity_recall": "entity recall",
                "entity_f1": "entity F1"}
# The page draws at most this many points of a curve (report.json keeps the grid's).
CURVE_POINTS = 400
RULE = ("For a system with a confidence per mention: the threshold of the highest entity "
        "F1 is not the default 0.5 and F1 there is higher. It is chosen on the test split "
        "itself, so the finding states what choosing there inflates (2-fold "
        "cross-fitting: thresholds chosen on one half of the sentences score the other).")


def with_scored(corpus, system_names: list, scored) -> tuple:
    """``(corpus, system names, name -> ScoredMentions)``: one system column per scored
    system (its every mention as tags), read with gold's words (``scored``: name ->
    ``ScoredMentions``, scored span lists, one list per sentence of gold, or generated
    output whose entities carry a score, grounded in gold's words: its entities found
    nowhere are the column's wrong predictions, as any generated system's)."""
    words = None if corpus.tokens is None else \
        [corpus.sentence_tokens(i) for i in range(corpus.n_sentences)]
    mentions = {}
    for name, given in scored.items():
        check_system_name(name, "scored", [*corpus.columns, *system_names])
        side = f"scored system {name!r}"
        if isinstance(given, ScoredMentions):
            found = given
        elif is_generated(given):
            found = scored_generated(given, corpus.select([GOLD]), None, side)
        else:
            found = scored_spans(given, side, tokens=words)
        check_fits(found, corpus, side)
        corpus, _ = add_systems(corpus, {name: kept_spans(found, 0.0)}, check=False)
        if found.repairs.generated is not None:   # its ungrounded entities count
            source = corpus.source
            corpus = corpus.with_source(dataclasses.replace(source, generated={
                **source.generated, name: found.repairs.generated}))
        mentions[name] = found
    return corpus, [*system_names, *mentions], mentions


def kept_spans(mentions: ScoredMentions, threshold: float) -> list[list[tuple]]:
    """Per sentence, ``(start, end, type)`` of the mentions of confidence >= threshold."""
    out = [[] for _ in range(mentions.n_sentences)]
    for s, a, b, name in kept_spans_flat(mentions, threshold):
        out[s].append((a, b, name))
    return out


def kept_tags(mentions: ScoredMentions, threshold: float, lengths: np.ndarray
              ) -> list[list[str]]:
    """Per sentence (of ``lengths`` tokens), the IOB2 tags of the mentions of confidence
    >= threshold: what each family reads fastest as predictions."""
    out = [["O"] * n for n in lengths.tolist()]
    for s, a, b, name in kept_spans_flat(mentions, threshold):
        out[s][a:b] = [f"B-{name}"] + [f"I-{name}"] * (b - a - 1)
    return out


def kept_spans_flat(mentions: ScoredMentions, threshold: float):
    """``(sentence, start, end, type)`` of each mention of confidence >= threshold."""
    keep = mentions.confidence >= threshold
    return zip(mentions.sentence[keep].tolist(), mentions.start[keep].tolist(),
               mentions.end[keep].tolist(), [mentions.types[t] for t in
                                             mentions.type[keep].tolist()])


def collect(context, mentions: dict, families, options=None) -> dict:
    """System -> its dial (``system_dial``), for every scored system."""
    return {name: system_dial(context, found, families, options or {})
            for name, found in mentions.items()}


def system_dial(context, mentions: ScoredMentions, families, options) -> dict:
    """One scored system on the dial: ``average_precision``, ``ece``, ``reliability``,
    ``chosen`` (the operating point chosen on this split: ``threshold``,
    ``f1_chosen_on_scored``, ``f1_chosen_elsewhere``, ``inflation``; None without
    predictions), ``curve`` (P, R, F1 along the grid), ``at`` (threshold key -> its
    ``threshold`` and headline numbers) and ``along`` (``threshold``: the grid, and per
    headline statistic its values there)."""
    sweep = sweep_spans(context.gold, mentions)
    point = operating_point(sweep, sweep) if len(sweep.confidence) else None
    thresholds = {EVERY: 0.0, DEFAULT: DEFAULT_THRESHOLD}
    if point is not None:
        thresholds[CHOSEN] = point.threshold
    at = {key: {"threshold": t, **headlines(context, sweep, mentions, t, families, options)}
          for key, t in thresholds.items()}
    grid = sweep.grid(GRID_POINTS).tolist()
    rows = [headlines(context, sweep, mentions, t, families, options) for t in grid]
    along = {"threshold": grid, **{key: [row[key] for row in rows] for key in at[EVERY]
                                   if key != "threshold"}}
    chosen = None if point is None else {
        key: getattr(point, key) for key in ("threshold", "f1_chosen_on_scored",
                                             "f1_chosen_elsewhere", "inflation")}
    return {"average_precision": sweep.average_precision, "ece": sweep.calibration["ece"],
            "reliability": sweep.calibration["reliability"], "chosen": chosen,
            "curve": _thinned(sweep.curve.to_dict()), "at": at, "along": along}


def _thinned(curve: dict) -> dict:
    """The curve's threshold, precision, recall and F1 at no more than ``CURVE_POINTS``
    of its points (evenly spaced, the last kept)."""
    n = len(curve["threshold"])
    keep = np.unique(np.linspace(0, n - 1, min(n, CURVE_POINTS)).round().astype(int)) \
        if n else np.zeros(0, dtype=int)
    return {key: [curve[key][k] for k in keep.tolist()]
            for key in ("threshold", "precision", "recall", "f1")}


def headlines(context, sweep, mentions, threshold: float, families, options) -> dict:
    """Entity precision, recall, F1 (``sweep.at``) and every family's headline statistics
    (its ``score`` of the mentions kept; a ``Headline.value`` from its result) at one
    threshold, by the report's statistic names."""
    precision, recall, f1 = sweep.at(threshold).micro()
    out = {"entity_precision": float(precision), "entity_recall": float(recall),
           "entity_f1": float(f1)}
    kept = kept_tags(mentions, threshold, np.diff(context.corpus.offsets))
    for name in families:
        family = get_family(name)
        if not family.headline:
            continue
        result = family.score(context, kept, **{**family.report_options,
                                               **options.get(name, {})})
        estimates = {s.name: s.estimate() for s in family_statistics(family, result)}
        for headline in headlines_of(family, estimates):   # per gold layer, where scored so
            key = family.key(headline.key)
            value = headline.value(result.to_dict())[0] if headline.value else \
                estimates.get(key)
            out[key] = None if value is None or value != value else float(value)
    return out


def statistic_names(families, computed=()) -> dict:
    """Statistic key -> its human name: entity P/R/F1, then the families' headlines (as
    ``computed``, the keys of the numbers on the dial, holds them: per gold layer where
    a family scored so)."""
    names = dict(ENTITY_NAMES)
    for name in families:
        family = get_family(name)
        names.update({family.key(h.key): h.title for h in headlines_of(family, computed)})
    return names


def findings(report) -> list[dict]:
    """Per scored system whose F1 peaks away from 0.5, higher there: "F1 peaks at 0.26,
    not at 0.5: +2.0 points", with what choosing on the test split inflates."""
    out = []
    for system, dial in report.confidence.items():
        chosen = dial["chosen"]
        if chosen is None or chosen["threshold"] == DEFAULT_THRESHOLD:
            continue
        default, best = dial["at"][DEFAULT]["entity_f1"], dial["at"][CHOSEN]["entity_f1"]
        if best <= default:
            continue
        text = (f"{system}: F1 peaks at threshold {chosen['threshold']:.2f}, not at 0.5: "
                f"{100 * (best - default):+.1f} points ({percent(default)} -> "
                f"{percent(best)}); chosen on this test split, which inflates it by about "
                f"{100 * chosen['inflation']:.1f} points (2-fold cross-fitting).")
        out.append(finding("confidence_peak", system, text, size=best - default,
                           threshold=chosen["threshold"], f1_at_default=default,
                           f1_at_chosen=best, inflation=chosen["inflation"]))
    return out


def sections(report) -> list[tuple[str, str, str]]:
    """The section's ``(anchor, title, body)``, none when no system carries scores."""
    if not report.confidence:
        return []
    return [("confidence", "Confidence: the scores with a dial", html(report))]


def html(report) -> str:
    """The section: the rule, a summary row per scored system, then per system its
    curves and its headline numbers at each threshold."""
    confidence = report.confidence
    names = statistic_names(report.info.get("families", ()),
                            {key for dial in confidence.values() for key in dial["at"][DEFAULT]})
    summary = [[name, dial["average_precision"], dial["ece"],
                Raw(_threshold(dial["chosen"])),
                dial["at"][DEFAULT]["entity_f1"],
                None if dial["chosen"] is None else dial["at"][CHOSEN]["entity_f1"],
                None if dial["chosen"] is None else dial["chosen"]["inflation"]]
               for name, dial in confidence.items()]
    parts = [f"<p class='note'>{escape(RULE)} Each family scores the mentions kept at a "
             "threshold as it scores any prediction; every other section of the report "
             "scores every mention.</p>",
             table(["system", "average precision", "ECE", "chosen threshold",
                    "entity F1 at 0.5", "entity F1 at chosen", "inflation (estimate)"],
                   summary),
             f"<div class='tiles'><div>{pr_chart(confidence).svg()}</div></div>",
             "<p class='note'>On each curve a square marks the mentions kept at 0.5, a "
             "circle those kept at the chosen threshold.</p>"]
    for k, (name, dial) in enumerate(confidence.items()):
        parts.append(f"<h3>{escape(name)}</h3>" + system_html(name, dial, names,
                                                               PALETTE[k % len(PALETTE)]))
    return "".join(parts)


def _threshold(chosen) -> str:
    return "&ndash;" if chosen is None else f"{chosen['threshold']:g}"


def system_html(name: str, dial: dict, names: dict, color: str) -> str:
    """One system: its reliability diagram and headlines along the curve, then the
    table of its headline numbers with every mention, at 0.5 and at the chosen point."""
    keys = [key for key in dial["at"][EVERY] if key != "threshold"]
    header = ["statistic", *[f"{key} ({dial['at'][key]['threshold']:g})"
                             for key in dial["at"]]]
    rows = [[names.get(key, key), *[dial["at"][at][key] for at in dial["at"]]]
            for key in keys]
    if CHOSEN in dial["at"]:
        header.append("chosen - 0.5")
        for row, key in zip(rows, keys):
            a, b = dial["at"][CHOSEN][key], dial["at"][DEFAULT][key]
            row.append(None if a is None or b is None else a - b)
    charts = (reliability_chart(name, dial, color), along_chart(name, dial, names))
    return ("<div class='tiles'>" + "".join(f"<div>{c.svg()}</div>" for c in charts)
            + "</div>" + table(header, rows))


def pr_chart(confidence: dict) -> Chart:
    """Precision against recall, one line per system; a circle marks the chosen point,
    a square the default 0.5."""
    top = max((max(d["curve"]["recall"], default=0.0) for d in confidence.values()),
              default=0.0)
    chart = Chart("Precision-recall curves", "recall (%)", "precision (%)",
                  x_max=nice_ceiling(min(1.0, top * 1.02)), x_tick=lambda v: f"{100 * v:g}")
    for name, dial in confidence.items():
        color = PALETTE[len(chart.legend) % len(PALETTE)]
        curve = dial["curve"]
        chart.line(f"{name} (AP {100 * (dial['average_precision'] or 0):.1f})",
                   curve["recall"], curve["precision"], color=color)
        for key, square in ((DEFAULT, True), (CHOSEN, False)):
            if key in dial["at"]:
                at = dial["at"][key]
                chart.point(f"{name} at {at['threshold']:g}", at["entity_recall"],
                            at["entity_precision"], color, square=square)
    return chart


def reliability_chart(name: str, dial: dict, color: str) -> Chart:
    """Share correct per confidence bin (bars), against the diagonal of perfect
    calibration."""
    chart = Chart(f"{name}: reliability (ECE {100 * (dial['ece'] or 0):.1f})",
                  "confidence", "share correct (%)")
    chart.line("perfect calibration", [0, 1], [0, 1], dashed=True, color="#999")
    for row in dial["reliability"]:
        if row["count"]:
            chart.bar(row["lower"], row["upper"], row["share_correct"], color,
                      f"{row['count']} mentions, mean confidence "
                      f"{row['mean_confidence']:.2f}, {percent(row['share_correct'])} correct")
    chart.legend.append(("share correct per bin", color, "bar"))
    return chart


def along_chart(name: str, dial: dict, names: dict) -> Chart:
    """Every headline number against the threshold (a rule at 0.5 and at the chosen
    threshold)."""
    along = dial["along"]
    drawn = {key: column for key, column in along.items()
             if key not in ("threshold", "entity_precision")}   # precision: the PR curve's
    values = [v for column in drawn.values() for v in column if v is not None]
    chart = Chart(f"{name}: headlines along the curve", "threshold", "%",
                  y_max=nice_ceiling(min(1.0, max(values, default=1.0) * 1.05)))
    for key, column in drawn.items():
        chart.line(names.get(key, key), along["threshold"], column)
    chart.vertical(DEFAULT_THRESHOLD, "0.5")
    if dial["chosen"] is not None:
        chart.vertical(dial["chosen"]["threshold"], "chosen")
    return chart


__all__ = ["with_scored", "check_fits", "collect", "findings", "sections", "kept_spans"]
