"""The page kit: what the report's page and the experiment's page are built with.

Escaping, numbers as table cells, tables, inline figures, sections, the table of contents
and the page shell (one self-contained HTML document: inline CSS, pictures as data URIs).
Nothing here knows a report or an experiment: a ``figure`` reads the ``figures`` of
whatever holds them.
"""
from __future__ import annotations

import base64
import html

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em;color:#222;max-width:1200px}
h1{font-size:1.6em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0 1.2em}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
.tiles{display:flex;flex-wrap:wrap;gap:0 1.5em}.tiles>div{min-width:0;max-width:100%}.tiles h4{margin:.4em 0 0}
.wide{overflow-x:auto;max-width:100%}.text td,.text th{text-align:left}.notes{background:#f6f8fa;border-left:4px solid #8ab;padding:.2em 1em}
.toc>ol{columns:2;max-width:52em}.toc li{break-inside:avoid}.findings li{margin:.3em 0}.findings{font-size:1.05em}
.small{color:#a33}.ci,.w{white-space:nowrap}.gold{border-bottom:3px solid #2a7}.pred{background:#fd7}
.examples li{margin:.35em 0}.kind{display:inline-block;min-width:17em;font-weight:600}.note{color:#555;font-size:.9em}img{max-width:100%;border:1px solid #eee;margin:.4em 0}
"""


# Tables with one column per system are cut into tables of at most this many systems:
# wider ones would not fit a 1280 px page
SYSTEMS_PER_TABLE = 6
# the mark of a number computed on fewer than MIN_SUPPORT items (nerspan.bootstrap), in
# every table that marks one (intervals, buckets)
FEW_MARK = " <span class='small' title='fewer than min_support items'>*</span>"


class Raw(str):
    """Already-escaped HTML for a table cell."""


def escape(value) -> str:
    """``value`` as text in HTML.

    >>> escape("<b> & 'x'")
    '&lt;b&gt; &amp; &#x27;x&#x27;'
    """
    return html.escape(str(value))


def number(value, percent: bool = True) -> str:
    """A number as a cell: percent with 2 decimals (or 4 significant digits with
    ``percent=False``); None and NaN as a dash.

    >>> number(0.12345), number(None), number(1.5, percent=False)
    ('12.35', '&ndash;', '1.5')
    """
    if value is None:
        return "&ndash;"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if value != value:  # NaN
            return "&ndash;"
        return f"{100 * value:.2f}" if percent else f"{value:.4g}"
    return escape(value)


def table(header: list, rows: list[list], percent: bool = True, text: bool = False) -> str:
    """Rows of cells (numbers as percent unless ``percent=False``; ``Raw`` HTML as is);
    ``text=True`` aligns every column left (tables of words)."""
    head = "".join(f"<th>{header_html(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{cell if isinstance(cell, Raw) else number(cell, percent)}</td>"
                         for cell in row) + "</tr>" for row in rows)
    # a table wider than the page scrolls inside its box, the page never does
    return (f"<div class='wide{' text' if text else ''}'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
            "</table></div>")


def header_html(text) -> str:
    """A column header: its words kept whole, a line broken between them only (not in
    "unseen-O" nor inside "musicartist"), a long system name after its underscores.

    >>> header_html("unseen-O rate"), header_html("my_system")
    ("<span class='w'>unseen-O</span> <span class='w'>rate</span>", 'my_<wbr>system')
    """
    return " ".join(word.replace("_", "_<wbr>") if "_" in word
                    else f"<span class='w'>{word}</span>" if word else word
                    for word in escape(text).split(" "))


def png_data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def figure(holder, title: str) -> str:
    """The picture of that title in ``holder.figures`` (title -> PNG bytes) as an inline
    image ('' when it was not drawn)."""
    if title not in holder.figures:
        return ""
    return (f"<figure><img alt='{escape(title)}' src='{png_data_uri(holder.figures[title])}'>"
            "</figure>")


def section(anchor: str, title: str, body: str) -> str:
    return f"<section id='{anchor}'><h2>{escape(title)}</h2>{body}</section>"


def contents(entries: list) -> str:
    """The table of contents: ``(anchor, title, children)`` entries, ``children`` being
    entries of the same kind (an empty list for none)."""
    def items(rows):
        return "".join(f"<li><a href='#{anchor}'>{escape(title)}</a>"
                       + (f"<ol>{items(children)}</ol>" if children else "") + "</li>"
                       for anchor, title, children in rows)

    return f"<nav class='toc'><h2>Contents</h2><ol>{items(entries)}</ol></nav>"


def page(title: str, body: str, style: str = "") -> str:
    """A self-contained page around ``body`` in the report's style (plus ``style``)."""
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{escape(title)}</title>"
            f"<style>{STYLE}{style}</style></head><body>{body}</body></html>")
