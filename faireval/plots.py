"""The paper's two figures (matplotlib, drawn off-screen; imported only when drawn).

- ``error_distribution``: Figure 1, the errors of one or several systems as counted by
  traditional evaluation (FP and FN only) and by fair evaluation (FP, FN, LE, BE, LBE),
  as stacked bars: where traditional counting sees two errors, fair counting sees one;
- ``confusion_heatmap``: Figure 2, the confusion matrix of errors (target label x system
  label; the diagonal holds boundary errors, the FN column and FP row the unmatched spans)
  as a heat map with the counts written in the cells; beyond ``HEATMAP_LABELS`` labels
  those with the fewest errors are summed as "other (N labels)".

Both take a result object or its ``to_dict()``; they return a
``matplotlib.figure.Figure`` and, given ``path``, save it (PNG or SVG by suffix).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from nerspan.names import file_stems

from .result import CONFUSION_LABELS, confusion_layout, error_confusion

ERROR_TYPES = ("FP", "FN", "LE", "BE", "LBE")
# the smallest text, in points: 9 pt is 11 px at the report's 90 dpi, readable at 1280 px
SMALL = 9
# what an undefined number shows, as in the report's tables
UNDEFINED = "\u2013"
COLOURS = {"FP": "tab:red", "FN": "tab:orange", "LE": "tab:blue", "BE": "tab:green",
           "LBE": "tab:purple"}


def _as_dict(result) -> dict:
    return result.to_dict() if hasattr(result, "to_dict") else result


def _figure(width: float, height: float):
    from matplotlib.figure import Figure   # no pyplot: no global state, no GUI backend
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(figure, path):
    if path is not None:
        path = Path(path)
        if path.suffix.lower() not in (".png", ".svg"):
            raise ValueError(f"{path}: figures are saved as .png or .svg")
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, format=path.suffix[1:].lower())
    return figure


def error_counts(result) -> dict:
    """``{"traditional": {FP, FN}, "fair": {FP, FN, LE, BE, LBE}}``: the numbers of Figure 1.

    >>> import faireval
    >>> r = faireval.score([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]])
    >>> error_counts(r)["traditional"], error_counts(r)["fair"]["BE"]
    ({'FP': 1, 'FN': 1}, 1)
    """
    data = _as_dict(result)
    traditional = data["traditional_counts"]
    return {"traditional": {"FP": int(traditional["FP"]), "FN": int(traditional["FN"])},
            "fair": {kind: int(data["counts"][kind]) for kind in ERROR_TYPES}}


def error_distribution(results, path=None, width: float | None = None, height: float = 3.2):
    """Figure 1: stacked bars of error counts, traditional vs fair, for each system.

    ``results``: one result, or system name -> result.
    """
    systems = ({"system": _as_dict(results)} if _is_result(results)
               else {str(k): _as_dict(v) for k, v in results.items()})
    rows, labels = [], []
    for name, data in systems.items():
        counts = error_counts(data)
        for counting in ("traditional", "fair"):
            rows.append(counts[counting])
            labels.append(f"{name}: {counting}" if len(systems) > 1 else counting)
    # a row of 0.3 inch holds its one-line label (27 px at the report's 90 dpi)
    figure = _figure(width or 7.5, max(height, 0.3 * len(rows) + 1.4))
    axes = figure.add_subplot()
    y = np.arange(len(rows))[::-1]
    left = np.zeros(len(rows))
    total = max(sum(row.values()) for row in rows) or 1
    for kind in ERROR_TYPES:
        values = np.array([row.get(kind, 0) for row in rows], dtype=float)
        axes.barh(y, values, left=left, color=COLOURS[kind], label=kind, height=0.6)
        for yi, start, value in zip(y, left, values):
            if value >= 0.06 * total:      # a number only where it fits in its segment
                axes.text(start + value / 2, yi, str(int(value)), ha="center", va="center",
                          fontsize=SMALL, color="white")
        left += values
    for yi, value in zip(y, left):
        axes.text(value, yi, f" {int(value)}", va="center", fontsize=SMALL)
    axes.set_yticks(y, labels, fontsize=SMALL)
    axes.tick_params(axis="x", labelsize=SMALL)
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.set_xlim(0, total * 1.12)
    axes.set_xlabel("errors (count)")
    axes.set_title("Errors by type: traditional vs fair counting")
    # outside the axes: never over a bar
    axes.legend(fontsize=SMALL, loc="upper left", bbox_to_anchor=(1.01, 1),
                title="error type", title_fontsize=SMALL)
    return _save(figure, path)


# A heat map shows at most this many labels, those with the most errors; the others are
# summed in one row and column, "other (N labels)", so that the figure stays readable and takes the
# same time whatever the number of labels (100 labels, 10,000 written cells, took 8-25 s
# a figure: the report's figures took 30-100 s for numbers found in 0.4). The tables of
# the confusion fold the same labels (``faireval.result.CONFUSION_LABELS``).
HEATMAP_LABELS = CONFUSION_LABELS


def confusion_cells(result, max_labels: int = HEATMAP_LABELS) -> tuple:
    """The rows, columns and counts the heat map draws (``confusion_layout``'s; the FP x
    FN corner, no cell, is NaN), and how many labels it summed.

    The labels beyond ``max_labels`` with the fewest errors (row and column, FP and FN
    included; the later on ties) are summed in one row and column (``summed_name``) before the
    FP row and FN column; the others keep their order. The work is in the non-zero
    cells, never labels x labels.

    >>> confusion = {"matrix": {"A": {"A": 1, "B": 5, "C": 0}, "B": {"A": 0, "B": 0, "C": 1},
    ...                         "C": {"A": 1, "B": 0, "C": 0}},
    ...              "FN": {"A": 2, "B": 0, "C": 0}, "FP": {"A": 0, "B": 3, "C": 0}}
    >>> rows, columns, counts, summed = confusion_cells({"error_confusion": confusion},
    ...                                                 max_labels=2)
    >>> rows[2], columns[3], summed
    ('other (1 label)', 'no system span (FN)', 1)
    >>> counts.tolist()
    [[1.0, 5.0, 0.0, 2.0], [0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 3.0, 0.0, nan]]
    """
    rows, columns, counts, summed = confusion_layout(error_confusion(_as_dict(result)),
                                                     max_labels)
    matrix = np.array([[np.nan if c is None else c for c in cells] for cells in counts],
                      dtype=float)
    return rows, columns, matrix, summed


def confusion_heatmap(result, path=None, title: str | None = None, width: float | None = None,
                      height: float | None = None, max_labels: int = HEATMAP_LABELS):
    """Figure 2: the confusion matrix of errors as a heat map, counts in the cells.

    Rows: target label, then the system spans without a target span (FP); columns:
    system label, then the target spans without a system span (FN), set apart by a line.
    The colour scale is logarithmic in the count (0 is white). Beyond ``max_labels``
    labels, those with the fewest errors are summed as ``other`` (``confusion_cells``);
    the axis titles say how many.
    """
    rows, columns, matrix, summed = confusion_cells(result, max_labels)
    counts = np.nan_to_num(matrix)
    figure = _figure(width or max(4.5, 0.75 * len(columns) + 2.5),
                     height or max(3.2, 0.5 * len(rows) + 1.6))
    axes = figure.add_subplot()
    limit = float(np.log1p(counts.max())) if counts.size else 1.0
    shown = np.ma.masked_where(counts == 0, np.log1p(counts))
    image = axes.imshow(shown, cmap="Blues", aspect="auto", vmin=0, vmax=limit or 1.0)
    for (i, j), value in np.ndenumerate(matrix):
        if value != value:   # the FP x FN corner: no span on either side, not a cell
            axes.text(j, i, UNDEFINED, ha="center", va="center", fontsize=SMALL,
                      color="grey")
            continue
        dark = limit and np.log1p(value) > 0.6 * limit
        axes.text(j, i, str(int(value)), ha="center", va="center", fontsize=SMALL,
                  color="white" if dark else "black")
    n = len(columns) - 1   # the unmatched spans' row and column, set apart from the labels
    axes.axhline(n - 0.5, color="grey", linewidth=1)
    axes.axvline(n - 0.5, color="grey", linewidth=1)
    axes.set_xticks(np.arange(len(columns)), columns, fontsize=SMALL, rotation=45, ha="right")
    axes.set_yticks(np.arange(len(rows)), rows, fontsize=SMALL)
    # rows[-2]: the summed labels' row, when there is one (``summed_name``)
    other = f"; {rows[-2]}: the labels with the fewest errors, summed" if summed else ""
    axes.set_xlabel(f"system label (FN: no system span{other})")
    axes.set_ylabel(f"target label (FP: no target span{other and '; ' + rows[-2] + ' summed'})")
    axes.set_title(title or "Confusion of errors\n(diagonal: boundary errors)", fontsize=10)
    bar = figure.colorbar(image, ax=axes)
    bar.set_label("errors (count, log scale)")
    ticks = [t for t in (1, 10, 100, 1000, 10000) if t <= max(counts.max(), 1)]
    bar.set_ticks(np.log1p(ticks), labels=[str(t) for t in ticks])
    bar.ax.tick_params(labelsize=SMALL)
    return _save(figure, path)


def _is_result(value) -> bool:
    return hasattr(value, "to_dict") or (isinstance(value, dict) and (
        "error_confusion" in value or "confusion" in value))   # or saved before the rename


def save_all(results: dict, folder, fmt: str = "png") -> list[Path]:
    """What ``nerlens faireval --plot DIR`` writes: Figure 1 for all systems, and Figure 2
    for each system (``confusion_<system>.<fmt>``)."""
    folder = Path(folder)
    written = [folder / f"error_types.{fmt}"]
    _close(error_distribution(results, written[0]))
    stems = file_stems(results)  # distinct: one figure never replaces another
    for name, result in results.items():
        path = folder / f"confusion_{stems[name]}.{fmt}"
        _close(confusion_heatmap(result, path, title=f"Confusion of errors: {name}\n"
                                                     "(diagonal: boundary errors)"))
        written.append(path)
    return written


def _close(figure) -> None:
    figure.clear()
