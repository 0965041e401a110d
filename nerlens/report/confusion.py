"""The report's entity confusion matrix: per system, a heat map of gold type x predicted
type over identical spans (``nerspan.confusion``), boundary errors apart, with example
sentences per cell.

``collect`` gives, per system, ``confusion`` and ``boundary_errors`` (as
``nerspan.score(confusion=True)`` reports them) and ``examples``: per cell that is an
error (``"GOLD -> PRED"``, ``"GOLD -> O"`` missed, ``"O -> PRED"`` spurious, ``"boundary
GOLD"`` a boundary error of a gold mention) a few mentions spread over the test set (the
error examples' rows: ``{"sentence", "gold", "predicted"}``, spans ``[type, start, end)``
in the sentence). ``html`` draws the matrix as a table heat map in the colours and scale of
the other heat maps (matplotlib's Blues, log scale, counts in the cells, 0 white), each
cell's examples on hover and listed under the map. ``text`` gives the terminal's view:
the matrix per system, or its largest error cells when it is too wide.
"""
from __future__ import annotations

import textwrap

import numpy as np

from nerspan.confusion import BOUNDARY, OUTSIDE, confusion_types, summed_name
from nerspan.errors import counted

from . import nesting
from .examples import SHOWN, cut_note, window
from .overview import _example
from .page_kit import escape

# Blues of matplotlib (the other heat maps' colour map) at 0, 0.25, 0.5, 0.75 and 1
BLUES = np.array([[247, 251, 255], [198, 219, 239], [107, 174, 214], [33, 113, 181],
                  [8, 48, 107]], dtype=float)
# Greys, the same steps: the boundary errors, set apart from the matrix
GREYS = np.array([[250, 250, 250], [217, 217, 217], [150, 150, 150], [99, 99, 99],
                  [37, 37, 37]], dtype=float)


def collect(evaluation, systems: list) -> dict:
    """``{system: {"confusion", "boundary_errors", "examples"}}`` (see the module): the
    evaluation's matrix of each system (``nerspan.Evaluation.confusion``), the one the
    report adds, and the examples of its cells."""
    corpus, gold = evaluation.corpus, evaluation.gold
    out = {}
    for system in systems:
        data = dict(evaluation.confusion(system))
        data["examples"] = _cell_examples(corpus, gold, evaluation.spans(system),
                                          *evaluation.confusion_cells(system),
                                          evaluation.table.types)
        out[system] = data
    return out


def _cell_examples(corpus, gold, pred, gold_cell, pred_cell, types) -> dict:
    """Cell name -> ``SHOWN`` example rows spread over the test set (in sentence order);
    the mentions are grouped by cell with array operations, rows built for those shown."""
    outside = len(types)
    offsets = corpus.offsets

    def span(spans, k):
        first = int(offsets[spans.sentence[k]])
        return [types[spans.type[k]], int(spans.start[k]) - first, int(spans.end[k]) - first]

    # per gold mention the prediction it is shown with: the one at its start (identical
    # spans) or the first one reaching past its start (a boundary error; predictions of
    # one column never overlap)
    partner = np.where(gold_cell == BOUNDARY, np.searchsorted(pred.end, gold.start, "right"),
                       np.searchsorted(pred.start, gold.start))
    error = gold_cell != gold.type
    cells: dict = {}
    for k in _spread(gold.type[error] * (outside + 2) + np.where(
            gold_cell[error] == BOUNDARY, outside + 1, gold_cell[error]), np.flatnonzero(error)):
        cell = int(gold_cell[k])
        own = types[gold.type[k]]
        name = (f"boundary {own}" if cell == BOUNDARY else f"{own} -> {OUTSIDE}"
                if cell == outside else f"{own} -> {types[cell]}")
        cells.setdefault(name, []).append(
            {"sentence": int(gold.sentence[k]), "gold": span(gold, k),
             "predicted": None if cell == outside else span(pred, int(partner[k]))})
    spurious = np.flatnonzero(pred_cell == outside)
    for k in _spread(pred.type[spurious], spurious):
        cells.setdefault(f"{OUTSIDE} -> {types[pred.type[k]]}", []).append(
            {"sentence": int(pred.sentence[k]), "gold": None, "predicted": span(pred, k)})
    return cells


def _spread(keys: np.ndarray, indices: np.ndarray) -> list:
    """Of ``indices`` (in text order), ``SHOWN`` per key spread evenly over the key's
    mentions (as ``examples.shown_examples``), grouped by key."""
    order = np.argsort(keys, kind="stable")
    _, first, count = np.unique(keys[order], return_index=True, return_counts=True)
    out = []
    for lo, n in zip(first.tolist(), count.tolist()):
        picked = np.linspace(0, n - 1, min(n, SHOWN)).round().astype(int)
        out += indices[order[lo + picked]].tolist()
    return out


def sentences(confusion: dict, corpus) -> dict:
    """Sentence index (a string) -> tokens, of every example listed."""
    wanted = {row["sentence"] for data in confusion.values()
              for rows in data["examples"].values() for row in rows}
    return {str(i): corpus.sentence_tokens(i) for i in sorted(wanted)}


# -- the page ----------------------------------------------------------------------------
STYLE = ("<style>.heat td{min-width:3.2em;text-align:center}.heat .diag{outline:2px solid #2a7;"
         "outline-offset:-3px}.heat .apart{border-left:3px double #888;background:#f6f6f6}"
         ".heat tr.apart td,.heat tr.apart th{border-top:3px double #888;background:#f6f6f6}"
         ".heat th{text-align:center}</style>")


def colour(count: int, largest: int, steps: np.ndarray = BLUES) -> tuple[str, str]:
    """Background and text colour of a cell: ``steps`` (Blues) on log(1 + count), 0
    white."""
    if count <= 0 or largest <= 0:
        return "#ffffff", "#222"
    share = np.log1p(count) / np.log1p(largest)
    position = share * (len(steps) - 1)
    low = int(min(position, len(steps) - 2))
    rgb = steps[low] + (steps[low + 1] - steps[low]) * (position - low)
    return "#%02x%02x%02x" % tuple(int(round(c)) for c in rgb), \
        "#fff" if share > 0.6 else "#222"


NOT_COMPUTED = "No confusion matrix was computed."


def html(report) -> str:
    """The section: one heat map per system (the first open), its examples listed."""
    confusion = getattr(report, "confusion", None) or {}
    if not confusion:
        return f"<p class='note'>{escape(nesting.left_out(report, 'confusion') or NOT_COMPUTED)}</p>"
    parts = [STYLE, "<p>Gold type (rows) against predicted type (columns) over mentions "
             "whose spans are identical: the outlined diagonal holds the correct mentions, "
             "the rest labeling errors; column <b>O (missed)</b> the gold mentions no "
             "prediction touches, row <b>O (spurious)</b> the predictions that touch no "
             "gold mention. Mentions whose spans overlap but differ are boundary errors: they "
             "are not in the matrix but counted apart, in the grey column (gold mentions, by "
             "gold type) and row (predictions, by predicted type). Cells hold mention counts; "
             "the colour is log-scaled; hover a cell for its share and examples. "
             "report.json has the matrix under <code>confusion</code>.</p>"]
    for n, (system, data) in enumerate(confusion.items()):
        parts.append(f"<details{' open' if n == 0 else ''}><summary><b>{escape(system)}</b>"
                     f"</summary>{_heat_map(report, data)}{_listed(report, data)}</details>")
    return "".join(parts)


# types a heat map shows: beyond them, those in the fewest cells are summed (as FairEval's
# confusion of errors folds its labels), so a page stays the same size whatever the types
HEAT_MAP_TYPES = 20


def folded(data: dict, max_types: int | None = HEAT_MAP_TYPES) -> tuple:
    """``(types, matrix, boundary, summed)``: a result's ``confusion`` and
    ``boundary_errors`` (non-zero cells, or every cell as saved before) over at most
    ``max_types`` types: beyond them, the types with the fewest mentions in the matrix and
    the boundary errors are summed in one row and column (``summed_name``, the last type;
    ``summed`` says how many). The work is in the size of the dicts.

    >>> data = {"confusion": {"A": {"A": 3, "O": 1}, "B": {"C": 1}, "O": {"C": 1}},
    ...         "boundary_errors": {"gold": {"A": 0, "B": 0, "C": 0},
    ...                             "predicted": {"A": 0, "B": 0, "C": 1}}}
    >>> types, matrix, boundary, summed = folded(data, max_types=1)
    >>> types, matrix, boundary["predicted"], summed
    (['A', 'other (2 types)'], {'A': {'A': 3, 'O': 1}, 'other (2 types)': \
{'other (2 types)': 1}, 'O': {'other (2 types)': 1}}, {'A': 0, 'other (2 types)': 1}, 2)
    """
    matrix, boundary = data["confusion"], data["boundary_errors"]
    types = confusion_types(data)
    if max_types is None or len(types) <= max_types:
        return types, matrix, boundary, 0
    mentions = dict.fromkeys(types, 0)
    for gold_type, row in matrix.items():
        for predicted, count in row.items():
            for name in {gold_type, predicted} - {OUTSIDE}:
                mentions[name] += count
    for counts in boundary.values():
        for name, count in counts.items():
            mentions[name] += count
    kept = set(sorted(types, key=lambda t: -mentions[t])[:max_types])  # stable: by name
    other = summed_name(len(types) - max_types, types, "type")
    name = {t: t if t in kept else other for t in types} | {OUTSIDE: OUTSIDE}
    summed: dict = {}
    for gold_type, row in matrix.items():
        for predicted, count in row.items():
            cells = summed.setdefault(name[gold_type], {})
            cells[name[predicted]] = cells.get(name[predicted], 0) + count
    shown = [t for t in types if t in kept] + [other]
    order = {t: k for k, t in enumerate(shown + [OUTSIDE])}
    summed = {g: dict(sorted(row.items(), key=lambda cell: order[cell[0]]))
              for g, row in sorted(summed.items(), key=lambda row: order[row[0]])}
    folded_boundary = {side: {t: 0 for t in shown} for side in boundary}
    for side, counts in boundary.items():
        for t, count in counts.items():
            folded_boundary[side][name[t]] += count
    return shown, summed, folded_boundary, len(types) - max_types


def _heat_map(report, data: dict) -> str:
    types, matrix, boundary, summed = folded(data)
    if not types:
        return "<p class='note'>No mention in gold or predictions.</p>"
    columns = types + [OUTSIDE]
    largest = max([n for row in matrix.values() for n in row.values()]
                  + list(boundary["gold"].values()) + list(boundary["predicted"].values()))
    examples = data["examples"]
    head = "".join(f"<th>{escape(c)}</th>" for c in types) + "<th>O (missed)</th>"
    rows = [f"<tr><th>gold \\ predicted</th>{head}<th class='apart'>boundary errors"
            "</th></tr>"]
    for gold_type in columns:
        cells = []
        row = matrix.get(gold_type, {})
        row_total = sum(row.values()) + boundary["gold"].get(gold_type, 0)
        for predicted in columns:
            if gold_type == OUTSIDE and predicted == OUTSIDE:
                cells.append("<td title='not counted: no mention on either side'></td>")
                continue
            count = row.get(predicted, 0)
            name = f"{gold_type} -> {predicted}"
            cells.append(_cell(report, count, largest, name, examples.get(name, []),
                               _share(count, row_total, gold_type),
                               " class='diag'" if gold_type == predicted else ""))
        if gold_type == OUTSIDE:
            cells.append("<td class='apart'></td>")
        else:
            count = boundary["gold"].get(gold_type, 0)
            name = f"boundary {gold_type}"
            cells.append(_cell(report, count, largest, name, examples.get(name, []),
                               _share(count, row_total, gold_type), " class='apart'", GREYS))
        label = "O (spurious)" if gold_type == OUTSIDE else gold_type
        rows.append(f"<tr><th>{escape(label)}</th>{''.join(cells)}</tr>")
    predicted_row = "".join(
        _cell(report, boundary["predicted"].get(t, 0), largest, "", [],
              f"{boundary['predicted'].get(t, 0)} predicted {t} mentions overlap a gold "
              "mention with a different span", "", GREYS) for t in types)
    rows.append(f"<tr class='apart'><th>boundary errors (predicted)</th>{predicted_row}"
                "<td></td><td></td></tr>")
    note = (f"<p class='note'>The {summed} types in the fewest mentions are summed in "
            f"\"{escape(types[-1])}\" (every non-zero cell is in report.json).</p>"
            if summed else "")
    return f"{note}<div class='wide'><table class='heat'>{''.join(rows)}</table></div>"


def _share(count: int, total: int, gold_type: str) -> str:
    if gold_type == OUTSIDE or not total:
        return counted(count, "mention")
    return f"{count} of {total} gold {gold_type} mentions ({100 * count / total:.1f}%)"


def _cell(report, count: int, largest: int, name: str, rows: list, share: str,
          attributes: str, steps: np.ndarray = BLUES) -> str:
    background, text_colour = colour(count, largest, steps)
    hover = [share] + [_plain(report, row) for row in rows[:SHOWN]]
    title = escape("\n".join(hover))
    return (f"<td{attributes} style='background:{background};color:{text_colour}' "
            f"title='{title}'>{count}</td>")


def _plain(report, row: dict) -> str:
    """One example as plain text (for a hover): its window of the sentence
    (``examples.window``), the mentions bracketed, each cut end an ellipsis saying how
    many tokens it leaves out."""
    tokens = report.example_sentences.get(str(row["sentence"]), [])
    spans = [(side, span) for side, span in (("gold", row["gold"]), ("pred", row["predicted"]))
             if span]
    low, high = window(len(tokens), (row["gold"], row["predicted"]))
    words = [f"\u2026 ({cut_note(low)})"] if low else []
    for i in range(low, high):
        opened = "".join(f"[{side} {span[0]}: " for side, span in spans if span[1] == i)
        closed = "]" * sum(1 for _, span in spans if span[2] - 1 == i)
        words.append(f"{opened}{tokens[i]}{closed}")
    if high < len(tokens):
        words.append(f"\u2026 ({cut_note(len(tokens) - high)})")
    return f"sentence {row['sentence']}: " + " ".join(words)


def _listed(report, data: dict) -> str:
    """The examples of every cell that is an error, under the map, each labelled with
    its cell."""
    items = "".join(_example(report, name, row, {name: name}, {})
                    for name, rows in sorted(data["examples"].items()) for row in rows)
    if not items:
        return "<p class='note'>No error: every mention is on the diagonal.</p>"
    return ("<details><summary>Example sentences per cell (a few each, spread over the test "
            f"set)</summary><ul class='examples'>{items}</ul></details>")


# -- the terminal -------------------------------------------------------------------------
# systems whose matrix the terminal shows (every one is on the page and in report.json)
TEXT_SYSTEMS = 3
# the largest error cells listed for a system whose matrix is too wide for the terminal
TEXT_CELLS = 8
BOUNDARY_NAME = "boundary"
TEXT_NOTE = ("Entity confusion matrix, mentions: gold type (rows) x predicted type (columns) "
             "over identical spans; diagonal = correct; column O = missed, row O = spurious; "
             "boundary = overlapping mentions with another span, counted apart (gold by "
             "gold type in the column, predictions by predicted type in the row).")


def text(report, width: int) -> list[str]:
    """The section in the terminal: per system (the first ``TEXT_SYSTEMS``) the matrix
    when it fits ``width`` columns, else its ``TEXT_CELLS`` largest error cells; no
    lines when no matrix was computed."""
    confusion = getattr(report, "confusion", None) or {}
    lines = matrices_text(confusion, width, TEXT_SYSTEMS)
    if len(confusion) > TEXT_SYSTEMS:
        rest = len(confusion) - TEXT_SYSTEMS
        lines.append(f"({counted(rest, 'more system', 'more systems')}: report.html, "
                     "report.json)")
    return lines


def matrices_text(confusion: dict, width: int, limit: int | None = None) -> list[str]:
    """The one terminal view of entity confusion matrices (the report's, and every
    command's ``--confusion``): ``confusion`` maps a system to a result holding
    ``confusion`` and ``boundary_errors`` (``nerspan.confusion``); the note, then per
    system (the first ``limit``; None: all) the matrix when it fits ``width`` columns,
    else its ``TEXT_CELLS`` largest error cells. No lines for no system."""
    if not confusion:
        return []
    lines = textwrap.wrap(TEXT_NOTE, width, break_on_hyphens=False)
    for system, data in list(confusion.items())[:limit]:
        lines.append(f"{system}:")
        lines += _text_matrix(data, width - 2) or _text_cells(data, width - 2)
    return lines


def _text_matrix(data: dict, width: int) -> list[str]:
    """The matrix as indented text rows, or [] when it is wider than ``width`` (every
    type takes a column of at least its name's width, two spaces apart)."""
    matrix, boundary = data["confusion"], data["boundary_errors"]
    types = confusion_types(data)
    if not types:
        return ["  no mention in gold or predictions"]
    if sum(len(t) + 2 for t in types) > width:   # before a row of types x types is built
        return []
    head = ["gold \\ pred", *types, OUTSIDE, BOUNDARY_NAME]
    cell = lambda g, p: str(matrix.get(g, {}).get(p, 0))  # noqa: E731
    rows = [[t, *(cell(t, p) for p in types + [OUTSIDE]), str(boundary["gold"].get(t, 0))]
            for t in types]
    rows.append([OUTSIDE, *(cell(OUTSIDE, p) for p in types), "", ""])
    rows.append([BOUNDARY_NAME, *(str(boundary["predicted"].get(p, 0)) for p in types), "",
                 ""])
    widths = [max(len(row[k]) for row in [head] + rows) for k in range(len(head))]
    if sum(widths) + 2 * (len(widths) - 1) > width:
        return []
    return ["  " + "  ".join(c.ljust(w) if k == 0 else c.rjust(w)
                             for k, (c, w) in enumerate(zip(row, widths))).rstrip()
            for row in [head] + rows]


def _text_cells(data: dict, width: int) -> list[str]:
    """The largest error cells (off the diagonal), the correct mentions and the boundary
    errors, as wrapped indented text."""
    matrix, boundary = data["confusion"], data["boundary_errors"]
    cells = sorted(((n, g, p) for g, row in matrix.items() for p, n in row.items()
                    if g != p and n), key=lambda cell: (-cell[0], cell[1], cell[2]))
    correct = sum(row.get(g, 0) for g, row in matrix.items() if g != OUTSIDE)
    shown = ", ".join(f"{g} -> {p} {n}" for n, g, p in cells[:TEXT_CELLS])
    more = len(cells) - TEXT_CELLS
    text = (f"{len(confusion_types(data))} types, too many for a matrix here; largest "
            f"errors: {shown or 'none'}" + (f" ({counted(more, 'more cell', 'more cells')})"
                                            if more > 0 else "")
            + f"; correct {correct}; boundary errors: gold {sum(boundary['gold'].values())}, "
            f"predicted {sum(boundary['predicted'].values())}.")
    return textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="  ",
                         break_on_hyphens=False)


__all__ = ["collect", "sentences", "html", "colour", "text", "matrices_text", "folded",
           "HEAT_MAP_TYPES"]
