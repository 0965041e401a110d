"""The report as one self-contained HTML page: inline CSS, pictures as data URIs, no script.

Sections: summary (with intervals), paired comparisons, tough mentions (composition and
recall), hardeval, faireval (per-label table and confusion matrix), attribute buckets
(charts, tables and diagnoses). Each section is present whenever its family ran.
"""
from __future__ import annotations

import html

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em;color:#222;max-width:1200px}
h1{font-size:1.6em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0 1.2em}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
.small{color:#a33}.note{color:#555;font-size:.9em}img{max-width:100%;border:1px solid #eee;margin:.4em 0}
"""


def _e(value) -> str:
    return html.escape(str(value))


def _number(value, percent: bool = True) -> str:
    if value is None:
        return "&ndash;"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if value != value:  # NaN
            return "&ndash;"
        return f"{100 * value:.2f}" if percent else f"{value:.4g}"
    return _e(value)


def table(header: list, rows: list[list], percent: bool = True) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{cell if isinstance(cell, Raw) else _number(cell, percent)}</td>"
                         for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Raw(str):
    """Already-escaped HTML for a table cell."""


def section(anchor: str, title: str, body: str) -> str:
    return f"<section id='{anchor}'><h2>{_e(title)}</h2>{body}</section>"


def _summary(report) -> str:
    rows = []
    for name, higher in report.higher_is_better.items():
        row = [name + ("" if higher else " ↓")]
        for system in report.systems:
            value = report.estimates[system].get(name)
            interval = report.intervals.get(system, {}).get(name)
            text = _number(value)
            if interval and interval["low"] is not None and interval["low"] == interval["low"]:
                text += f" <span class='note'>[{100 * interval['low']:.2f}, " \
                        f"{100 * interval['high']:.2f}]</span>"
            if interval and interval.get("too_small"):
                text += " <span class='small' title='fewer than min_support items'>*</span>"
            row.append(Raw(text))
        rows.append(row)
    info = report.info
    note = (f"<p class='note'>{info['sentences']} sentences, {info['tokens']} tokens; scheme "
            f"{_e(info['scheme'])}, {_e(info['mode'])} decoding. Percentages; ↓ = lower is "
            "better.")
    if info.get("bootstrap"):
        note += (f" Brackets: {info['confidence']:.0%} percentile bootstrap interval over "
                 f"sentences ({info['bootstrap']} samples, seed {info['seed']}); * marks "
                 f"numbers computed on fewer than {info['min_support']} items.")
    return table(["statistic"] + report.systems, rows) + note + "</p>"


def _comparisons(report) -> str:
    if not report.comparisons:
        return "<p class='note'>No paired comparison (one system, or no bootstrap).</p>"
    pairs = list(report.comparisons)
    rows = [[name] + [report.comparisons[p].get(name) for p in pairs]
            for name in report.higher_is_better]
    return (table(["statistic"] + [f"P({p.replace(' vs ', ' better than ')})" for p in pairs],
                  rows)
            + "<p class='note'>Paired bootstrap: the share of resamples (the same sentences "
              "for both systems) in which the first system is better; ties count half.</p>")


def render(report) -> str:
    from .statistics import family_sections

    parts = [f"<h1>nerlens report</h1><p>Systems: {_e(', '.join(report.systems))}</p>",
             section("summary", "Summary", _summary(report)),
             section("comparisons", "Paired comparisons", _comparisons(report))]
    for anchor, title, body in family_sections(report, table, Raw):
        parts.append(section(anchor, title, body))
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<title>nerlens report</title>"
            f"<style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")
