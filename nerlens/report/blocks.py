"""Page blocks (``nerspan.blocks``, what a family's section is made of) as HTML and text.

``html(blocks, holder)`` renders with the page kit: ``holder`` is what holds the figures
(a report, an experiment: ``holder.figures``, title -> PNG bytes), ``cap_note`` the HTML a
``FiguresCapNote`` stands for. ``text(blocks)`` renders for a terminal (figures by title);
``section_text`` a family's section of its result dicts without a report.
Prose (headings, notes) is escaped and its non-ASCII punctuation written as named
entities (``–`` as ``&ndash;``), so that a page stays ASCII.
"""
from __future__ import annotations

import html as html_module
from html.entities import codepoint2name

from nerspan.blocks import (Collapsed, Few, Figure, FiguresCapNote, Heading, Hover, Marked,
                            Note, Noted, OverRuns, Strong, Table, Tiles)
from nerspan.family import Family, ReportView
from nerspan.fbeta import fbeta_key

from .page_kit import FEW_MARK, SYSTEMS_PER_TABLE, Raw, escape, figure, number, table
from .text import UNDEFINED as DASH
from .text import row_line, wrap


def prose(text: str) -> str:
    """Text of a heading or a note as HTML: escaped (quotes kept), non-ASCII characters
    that have a named entity written as that entity.

    >>> prose("a < b \u2013 x's \u00b1 1")
    "a &lt; b &ndash; x's &plusmn; 1"
    """
    escaped = html_module.escape(str(text), quote=False)
    return "".join(f"&{codepoint2name[ord(c)]};" if ord(c) > 127 and ord(c) in codepoint2name
                   else c for c in escaped)


# -- HTML --------------------------------------------------------------------------------
def html(blocks, holder, cap_note: str = "") -> str:
    """The blocks as HTML (see the module docstring)."""
    return "".join(_block_html(block, holder, cap_note) for block in blocks)


def _block_html(block, holder, cap_note: str) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}>{prose(block.text)}</h{block.level}>"
    if isinstance(block, Note):
        return f"<p class='note'>{prose(block.text)}</p>"
    if isinstance(block, Table):
        rows = [[Raw(cell_html(cell, block.percent)) for cell in row] for row in block.rows]
        out = "".join(table([block.header[k] for k in kept], [[row[k] for k in kept]
                                                             for row in rows],
                            percent=block.percent)
                      for kept in column_chunks(len(block.header), block.system_columns))
        return out + (f"<p class='note'>{prose(block.note)}</p>" if block.note else "")
    if isinstance(block, Figure):
        return figure(holder, block.title)
    if isinstance(block, Tiles):
        return "<div class='tiles'>" + "".join(
            f"<div><h4>{prose(title)}</h4>{_block_html(inner, holder, cap_note)}</div>"
            for title, inner in block.tiles) + "</div>"
    if isinstance(block, FiguresCapNote):
        return cap_note
    if isinstance(block, Collapsed):
        return (f"<details{' open' if block.opened else ''}><summary>{prose(block.summary)}"
                f"</summary>{html(block.blocks, holder, cap_note)}</details>")
    raise TypeError(f"not a page block: {block!r}")


def column_chunks(width: int, system_columns: int | None) -> list[list[int]]:
    """The columns of each table a table of ``width`` columns is shown as: all of them, or
    with ``system_columns`` its leading columns and at most ``SYSTEMS_PER_TABLE`` systems'
    (more would not fit a 1280 px page).

    >>> column_chunks(3, None), column_chunks(10, 2)
    ([[0, 1, 2]], [[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 8, 9]])
    """
    if system_columns is None or width - system_columns <= SYSTEMS_PER_TABLE:
        return [list(range(width))]
    lead = list(range(system_columns))
    return [lead + list(range(start, min(width, start + SYSTEMS_PER_TABLE)))
            for start in range(system_columns, width, SYSTEMS_PER_TABLE)]


def cell_html(cell, percent: bool = True) -> str:
    """A table cell (``nerspan.blocks``) as HTML.

    >>> cell_html(0.5), cell_html(None), cell_html(3), cell_html(Strong("all"))
    ('50.00', '&ndash;', '3', '<b>all</b>')
    """
    if isinstance(cell, Strong):
        return f"<b>{escape(cell.text)}</b>"
    if isinstance(cell, Hover):
        return f"<span title='{escape(cell.title)}'>{escape(cell.text)}</span>"
    if isinstance(cell, Noted):
        return f"{cell_html(cell.cell, percent)} <span class='note'>{prose(cell.note)}</span>"
    if isinstance(cell, Few):
        return cell_html(cell.cell, percent) + FEW_MARK
    if isinstance(cell, OverRuns):
        return over_runs_html(cell.value, cell.runs)
    if isinstance(cell, Marked):
        return marked_html(cell.value, cell.test, cell.digits)
    return number(cell, percent)


NO_RUN = "<span class='note'>no run</span>"
UNDEFINED = "&ndash;"


def over_runs_html(value, runs: int | None = None) -> str:
    """Mean +- std in percent, with (n runs) unless n is ``runs``; ``NO_RUN`` for no
    value (no run), ``UNDEFINED`` for no mean. Each part stays whole; a table too wide
    for the page puts the std under its mean rather than overflow."""
    if value is None:
        return NO_RUN
    if value.get("mean") is None:
        return UNDEFINED
    text = f"{100 * value['mean']:.2f}"
    if value.get("std") is not None:
        text += f" <span class='note ci'>&plusmn;&nbsp;{100 * value['std']:.2f}</span>"
    if value["n"] != runs:
        text += f" <span class='note ci'>({value['n']})</span>"
    return text


def marked_html(value, test, digits: int = 2) -> str:
    """A number marked † when its test is not significant (or could not be run); the
    title gives the test."""
    if value is None:
        return "&ndash;"
    text = f"{value:.{digits}f}"
    if not test or not test.get("significant"):
        why = (test or {}).get("error") or (
            f"Friedman p = {test['pvalue']:.3g}, Holm-adjusted {test['pvalue_holm']:.3g}"
            if test and test.get("pvalue") is not None else "no test")
        return f"<span class='ns' title='{escape(why)}'>{text}&dagger;</span>"
    return f"<span title='Friedman Holm-adjusted p = {test['pvalue_holm']:.3g}'>{text}</span>"


# -- text --------------------------------------------------------------------------------
def text(blocks, figures=(), cap_note: str = "") -> str:
    """The blocks for a terminal: tables aligned, notes wrapped to ``WIDTH`` columns,
    a figure by its title when it is among ``figures``.

    >>> print(text([Heading("Recall"), Table(["system", "recall"], [["a", 0.5]], note="%.")]))
    Recall
    system  recall
    ------  ------
    a        50.00
    %.
    """
    lines: list = []
    for block in blocks:
        lines += _block_text(block, figures, cap_note)
    return "\n".join(lines)


def parts_text(parts) -> str:
    """Parts of page blocks (a library's ``*_parts`` view: a list of block lists) for a
    terminal, a blank line between parts."""
    return "\n\n".join(map(text, parts))


def _block_text(block, figures, cap_note: str) -> list:
    if isinstance(block, Heading):
        return [block.text]
    if isinstance(block, Note):
        return [wrap(block.text)]
    if isinstance(block, Table):
        cells = [list(block.header)] + [[cell_text(c, block.percent) for c in row]
                                         for row in block.rows]
        widths = [max(len(row[i]) for row in cells if i < len(row))
                  for i in range(len(cells[0]))]
        out = [row_line(cells[0], widths), row_line(["-" * w for w in widths], widths)]
        out += [row_line(row, widths) for row in cells[1:]]
        return out + ([wrap(block.note)] if block.note else [])
    if isinstance(block, Figure):
        return [f"[figure: {block.title}]"] if block.title in figures else []
    if isinstance(block, Tiles):
        return [line for title, inner in block.tiles   # a blank line before each tile
                for line in ["", title] + _block_text(inner, figures, cap_note)]
    if isinstance(block, FiguresCapNote):
        return [wrap(cap_note)] if cap_note else []
    if isinstance(block, Collapsed):
        return [block.summary] + [line for inner in block.blocks
                                  for line in _block_text(inner, figures, cap_note)]
    raise TypeError(f"not a page block: {block!r}")


def cell_text(cell, percent: bool = True) -> str:
    """A table cell as text (``-`` for undefined, † for not significant)."""
    if isinstance(cell, (Strong, Hover)):
        return cell.text
    if isinstance(cell, Noted):
        return f"{cell_text(cell.cell, percent)} {cell.note}"
    if isinstance(cell, Few):
        return cell_text(cell.cell, percent) + "*"
    if isinstance(cell, OverRuns):
        value = cell.value
        if value is None:
            return "no run"
        if value.get("mean") is None:
            return DASH
        out = f"{100 * value['mean']:.2f}"
        if value.get("std") is not None:
            out += f" \u00b1 {100 * value['std']:.2f}"
        return out + (f" ({value['n']})" if value["n"] != cell.runs else "")
    if isinstance(cell, Marked):
        if cell.value is None:
            return DASH
        mark = "" if cell.test and cell.test.get("significant") else "\u2020"
        return f"{cell.value:.{cell.digits}f}{mark}"
    if cell is None or (isinstance(cell, float) and cell != cell):
        return DASH
    if isinstance(cell, float) and not isinstance(cell, bool):
        return f"{100 * cell:.2f}" if percent else f"{cell:.4g}"
    return str(cell)


# -- a family's section of result dicts -----------------------------------------------
def section_text(family: Family, results: dict, analyses: dict | None = None,
                 head: tuple = (), tail: tuple = ()) -> str:
    """The family's section of the report (its blocks) for a terminal, of its result
    dicts (system -> result; ``analyses``: the family's of them) without a report: after
    the entity scores they restate (F-beta too, scored with a beta) and ``head``, before
    ``tail`` (the caller's own blocks). What the family commands print."""
    view = ReportView(family.name, tuple(results), results, analyses=analyses or {},
                      drawn=tuple(results), info={})
    return text(entity_blocks(results) + head + tuple(family.section(view)) + tail)


# the entity scores a family's result may restate (nerspan's), shown before its section
ENTITY_SCORES = ("precision", "recall", "f1")


def score_keys(result: dict) -> list:
    """precision, recall, F1 and, scored with a beta other than 1, F-beta."""
    beta = result.get("options", {}).get("beta", 1.0)
    return [*ENTITY_SCORES] + ([fbeta_key(beta)] if beta != 1 else [])


def entity_blocks(results: dict) -> tuple:
    """One row per system of the entity scores the family's result restates, when it
    holds them all (and F-beta, scored with a beta)."""
    first = next(iter(results.values()))
    keys = score_keys(first)
    if not all(key in first for key in keys):
        return ()
    return (Heading("Entity scores (%)"),
            Table(["system", *keys], [[name] + [r[k] for k in keys]
                                      for name, r in results.items()]))
