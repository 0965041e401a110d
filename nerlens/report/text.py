"""The report in the terminal: findings first, then one compact row per system.

Fits ``WIDTH`` columns whatever the number of systems: each system is one row of the
headline numbers (percent, one decimal); every other statistic is in report.html and
report.json. Undefined numbers print as ``-``.
"""
from __future__ import annotations

import textwrap

from nerspan.bootstrap import MIN_SUPPORT
from nerspan.errors import counted
from nerspan.fbeta import fbeta_key

from . import confusion
from .findings import shown
from .names import headlines, pair_key
from .repairs import decoding_repairs
from .views import every_family

WIDTH = 100
UNDEFINED = "-"

# (statistic key, column header, legend): entity precision and recall, then the families'
# headline statistics; a column appears when its statistic was computed
ENTITY_COLUMNS = (("entity_precision", "P", "entity precision"),
                  ("entity_recall", "R", "entity recall"))


def columns(report) -> list[tuple]:
    """The headline columns of the report: ``(statistic key, header, legend)``."""
    beta = report.info.get("beta", 1)
    fbeta = [(fbeta_key(beta, "entity_"), f"F{fbeta_key(beta)[1:]}",
              f"entity F-beta, beta {beta:g}")] if beta != 1 else []
    found = fbeta + list(ENTITY_COLUMNS) + [(family.key(h.key), h.column, h.legend)
                                            for family in every_family()
                                            for h in headlines(family,
                                                               report.higher_is_better)]
    return [c for c in found if c[0] in report.higher_is_better]


def _value(value) -> str:
    if value is None or value != value:
        return UNDEFINED
    return f"{100 * value:.1f}"


def _with_interval(value, interval) -> str:
    text = _value(value)
    if text != UNDEFINED and interval and interval.get("low") is not None \
            and interval["low"] == interval["low"]:
        text += f" [{100 * interval['low']:.1f}, {100 * interval['high']:.1f}]"
    return text + _few(text, interval)


def _few(text: str, interval) -> str:
    """``*`` after a number computed on fewer than ``MIN_SUPPORT`` items (its interval
    says so), as the page marks it; nothing after an undefined one."""
    return "*" if text != UNDEFINED and interval and interval.get("too_small") else ""


def wrap(text: str, **indents) -> str:
    """``text`` filled to ``WIDTH`` columns (words and hyphenated names kept whole)."""
    return textwrap.fill(text, WIDTH, break_on_hyphens=False, **indents)


def fit(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters, ending in ".." when cut."""
    return name if len(name) <= width else name[:width - 2] + ".."


def headline_table(report) -> str:
    """One row per system: entity F1 with its interval, the headline numbers, and the
    probability of beating the reference system (option ``baseline``) on entity F1."""
    chosen = columns(report)
    first = "F1 [CI]" if report.info.get("bootstrap") else "F1"
    header = [first] + [c[1] for c in chosen] + (["P>ref"] if report.comparisons else [])
    baseline = report.info.get("baseline")
    rows = []
    for system in report.systems:
        estimates, intervals = report.estimates[system], report.intervals.get(system, {})
        row = [_with_interval(estimates.get("entity_f1"), intervals.get("entity_f1"))]
        row += [_value(estimates.get(key)) + _few(_value(estimates.get(key)), intervals.get(key))
                for key, _, _ in chosen]
        if report.comparisons:
            pair = report.comparisons.get(pair_key(system, baseline))
            same = estimates.get("entity_f1") == report.estimates[baseline].get("entity_f1")
            row.append("ref" if system == baseline else "tie" if same else
                       _value(pair.get("entity_f1") if pair else None))
        rows.append(row)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    name_width = max(6, min(max(len(s) for s in report.systems),
                            WIDTH - sum(widths) - 2 * len(widths)))
    lines = [row_line(["system"] + header, [name_width] + widths)]
    lines.append(row_line(["-" * w for w in [name_width] + widths], [name_width] + widths))
    lines += [row_line([fit(s, name_width)] + r, [name_width] + widths)
              for s, r in zip(report.systems, rows)]
    return "\n".join(lines)


def row_line(cells: list, widths: list) -> str:
    """One row of a text table: the first cell left-aligned, the others right."""
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                     for i, (c, w) in enumerate(zip(cells, widths))).rstrip()


def legend(report) -> str:
    info = report.info
    parts = ["Percent."]
    if info.get("bootstrap"):
        parts.append(f"F1 [CI]: entity F1 and its {info['confidence']:.0%} percentile "
                     f"bootstrap interval over sentences ({counted(info['bootstrap'], 'sample')}"
                     f", seed {info['seed']}). *: a number computed on fewer than "
                     f"{counted(MIN_SUPPORT, 'item')}.")
    else:
        parts.append("F1: entity F1 (no bootstrap, so no interval).")
    parts += [f"{header}: {text}." for _, header, text in columns(report)]
    if report.comparisons:
        parts.append(f"P>ref: share of paired resamples in which the system's entity F1 "
                     f"beats the reference system {info.get('baseline')}'s (ref); tie: the "
                     "same entity F1 on the test set.")
    parts.append(f"{UNDEFINED} = undefined. Every statistic, per type and per bucket, is in "
                 "report.html and report.json.")
    return wrap(" ".join(parts))


def findings_text(report) -> list[str]:
    kept, more = shown(report.findings)
    if not kept:
        return ["Findings: none whose evidence holds (see report.html for the rules)."]
    lines = ["Findings:"]
    for finding in kept:
        lines.append(wrap(finding["text"], initial_indent="- ", subsequent_indent="  "))
    if more:
        lines.append(f"  ({more} more in report.json and report.html)")
    return lines


def repairs_text(repairs: dict, shown_systems: int = 5) -> list[str]:
    lines = []
    for system, by_source in list(repairs.items())[:shown_systems]:
        counts = [f"{source} {kind.replace('_', ' ')} {n}" for source, kinds in by_source.items()
                  for kind, n in kinds.items()]
        lines.append(wrap(f"{system}: " + ", ".join(counts), initial_indent="- ",
                           subsequent_indent="  "))
    if len(repairs) > shown_systems:
        rest = len(repairs) - shown_systems
        lines.append(f"  ({counted(rest, 'more system', 'more systems')} in report.json)")
    return ["Repairs made while decoding:"] + lines if lines else []


def summary(report, nested: str = "") -> str:
    """The terminal view: notes, findings, the headline table, its legend, ``nested``
    (the nested view's text, when gold nests), the entity confusion matrices, the
    repairs."""
    info = report.info
    lines = [f"nerlens report: {counted(len(report.systems), 'system')}, "
             f"{counted(info['sentences'], 'sentence')}, {counted(info['tokens'], 'token')}; "
             f"scheme {info['scheme']}, {info['mode']} decoding."]
    lines += [wrap(note) for note in info.get("notes", [])]
    lines += [""] + findings_text(report) + ["", headline_table(report), legend(report)]
    if nested:
        lines += ["", nested]
    matrices = confusion.text(report, WIDTH)
    if matrices:
        lines += [""] + matrices
    repaired = repairs_text(decoding_repairs(report.results))
    if repaired:
        lines += [""] + repaired
    return "\n".join(lines)
