"""The entity confusion matrix: gold type x predicted type over mentions with identical spans.

Every gold mention and every prediction falls in exactly one place:

- a gold mention whose span a prediction has exactly: cell ``[gold type][predicted
  type]`` (the diagonal holds the correct mentions, the rest labeling errors);
- a gold mention that no prediction touches: ``[gold type]["O"]`` (missed);
- a prediction that touches no gold mention: ``["O"][predicted type]`` (spurious);
- a mention of either side that overlaps a mention of the other side without an
  identical span: a boundary error, left out of the matrix and counted apart per type
  and side (``boundary_errors``: ``gold`` under the gold type, ``predicted`` under the
  predicted type), as FairEval keeps boundary errors (BE, LBE) apart from labeling
  errors (LE).

A generated prediction that has no span (an entity whose text is not in its sentence,
``Repairs.unplaced``) touches no gold mention: it is spurious, in ``["O"][its type]``, as
it is a false positive in every precision.

So a row of a gold type sums to its gold mentions minus its boundary errors, a column
of a predicted type to its predictions minus theirs. ``["O"]["O"]`` is never counted.
The result holds the non-zero cells only (a missing cell, or a missing row, is 0), so it
grows with the mentions, never with types x types; ``boundary_errors`` names every type
of either side. Mentions of one flat tag column never overlap, so spans pair through one
look-up table and overlaps through one cumulative sum: linear in tokens and mentions.

Spans that nest or overlap (span lists kept as tables, ``nerspan.span_table``) pair on
their keys instead (sorting: linear after a sort): a gold mention and a prediction of
the same span and type first (the diagonal), then the mentions left of one span of the
two sides, k-th with k-th in type order (a span labelled PER and LOC in gold, PER and ORG
predicted: PER on the diagonal, LOC as ORG). A mention left unpaired that a mention of
the other side touches is a boundary error; one no mention touches, missed or spurious.

>>> from nerspan import Corpus, LabelTable, decode, get_scheme
>>> corpus = Corpus.from_tags([["B-PER", "I-PER", "O", "B-LOC", "B-ORG", "O"]],
...                           [["B-PER", "I-PER", "O", "B-ORG", "O", "B-LOC"]])
>>> table = LabelTable.build(corpus.labels, get_scheme("IOB2"))
>>> gold, pred = (decode(corpus, side, "IOB2", "lenient", table) for side in ("gold", "pred"))
>>> out = confusion_dict(gold, pred)
>>> out["confusion"]
{'LOC': {'ORG': 1}, 'ORG': {'O': 1}, 'PER': {'PER': 1}, 'O': {'LOC': 1}}
>>> out["boundary_errors"]["gold"]
{'LOC': 0, 'ORG': 0, 'PER': 0}
"""
from __future__ import annotations

import numpy as np

from .errors import counted
from .scores import equal_keys, is_flat
from .spans import Spans

OUTSIDE = "O"
BOUNDARY = -1   # a mention's cell: a boundary error, not in the matrix
PAIRED = -2     # a prediction's cell: counted on its gold mention's row


def _overlapping(spans: Spans, other: Spans, n_positions: int) -> np.ndarray:
    """Per span of ``spans``: does any span of ``other`` cover one of its tokens (the
    tokens of its fragments, for a discontinuous mention)."""
    _, other_start, other_end = other.pieces()
    inside = (np.bincount(other_start, minlength=n_positions + 1)
              - np.bincount(other_end, minlength=n_positions + 1))
    covered = np.concatenate([[0], np.cumsum(np.cumsum(inside)[:-1] > 0)])
    if not spans.has_fragments:
        return covered[spans.end] - covered[spans.start] > 0
    owner, start, end = spans.pieces()
    return np.bincount(owner, covered[end] - covered[start] > 0, minlength=len(spans)) > 0


def confusion_cells(gold: Spans, pred: Spans) -> tuple[np.ndarray, np.ndarray]:
    """Per gold mention the predicted type id of its cell (``len(types)`` for "O",
    ``BOUNDARY``); per prediction ``PAIRED`` (on its gold mention's row), ``BOUNDARY``
    or ``len(types)`` (spurious, row "O")."""
    if gold.types != pred.types:
        raise ValueError("gold and predicted spans come from different label tables")
    outside = len(gold.types)
    n_positions = int(gold.offsets[-1]) if len(gold.offsets) else 0
    gold_cell = np.full(len(gold), outside, dtype=np.int64)
    pred_cell = np.full(len(pred), outside, dtype=np.int64)
    if len(gold) and len(pred) and not (is_flat(gold) and is_flat(pred)):
        _nested_cells(gold, pred, n_positions, gold_cell, pred_cell)
    elif len(gold) and len(pred):
        gold_at = np.full(n_positions, -1, dtype=np.int64)
        gold_at[gold.start] = np.arange(len(gold))
        index = gold_at[pred.start]
        same = (index >= 0) & (gold.end[index] == pred.end)
        gold_cell[_overlapping(gold, pred, n_positions)] = BOUNDARY
        pred_cell[_overlapping(pred, gold, n_positions)] = BOUNDARY
        gold_cell[index[same]] = pred.type[same]
        pred_cell[same] = PAIRED
    return gold_cell, pred_cell


def _nested_cells(gold: Spans, pred: Spans, n_positions: int, gold_cell: np.ndarray,
                  pred_cell: np.ndarray) -> None:
    """``confusion_cells`` of spans that nest or overlap (filled in place): identical
    (span, type) first, then the rest of each span k-th with k-th (module docstring)."""
    gold_cell[_overlapping(gold, pred, n_positions)] = BOUNDARY
    pred_cell[_overlapping(pred, gold, n_positions)] = BOUNDARY
    at_gold, at_pred = equal_keys(gold.key(n_positions), pred.key(n_positions))
    gold_left, pred_left = _others(len(gold), at_gold), _others(len(pred), at_pred)
    span_key = [s.key(n_positions, typed=False)[left]
                for s, left in ((gold, gold_left), (pred, pred_left))]
    spans, dense = np.unique(np.concatenate(span_key), return_inverse=True)
    dense = dense.ravel()
    size = len(dense) + 1
    ranked = [dense[:len(gold_left)], dense[len(gold_left):]]
    ranked = [d * size + _rank_in_group(d, s.type[left]) for d, s, left in
              ((ranked[0], gold, gold_left), (ranked[1], pred, pred_left))]
    left_gold, left_pred = equal_keys(*ranked)
    at_gold = np.concatenate([at_gold, gold_left[left_gold]])
    at_pred = np.concatenate([at_pred, pred_left[left_pred]])
    gold_cell[at_gold] = pred.type[at_pred]
    pred_cell[at_pred] = PAIRED


def _others(n: int, taken: np.ndarray) -> np.ndarray:
    """The indices below ``n`` not in ``taken`` (in order; a mask, no sort)."""
    left = np.ones(n, dtype=bool)
    left[taken] = False
    return np.flatnonzero(left)


def _rank_in_group(group: np.ndarray, order_by: np.ndarray) -> np.ndarray:
    """Each item's rank among the items of its ``group`` ordered by ``order_by``."""
    order = np.lexsort((order_by, group))
    sorted_group = group[order]
    first = np.flatnonzero(np.concatenate([[True], sorted_group[1:] != sorted_group[:-1]]))
    starts = np.repeat(first, np.diff(np.concatenate([first, [len(group)]])))
    rank = np.empty(len(group), dtype=np.int64)
    rank[order] = np.arange(len(group)) - starts
    return rank


def confusion_counts(gold: Spans, pred: Spans, cells: tuple | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(cells, gold boundary errors, predicted boundary errors)`` over the type ids (and
    "O" as id ``len(types)``): ``cells`` the non-zero cells of the matrix, one row
    ``(gold id, predicted id, count)`` each, sorted; the boundary errors an array per
    type. ``cells``: ``confusion_cells(gold, pred)`` when found already."""
    gold_cell, pred_cell = cells if cells is not None else confusion_cells(gold, pred)
    outside = len(gold.types)
    spurious = pred_cell == outside
    rows = np.concatenate([gold.type[gold_cell >= 0], np.full(np.sum(spurious), outside)])
    cols = np.concatenate([gold_cell[gold_cell >= 0], pred.type[spurious]])
    return (_cells(rows.astype(np.int64) * (outside + 1) + cols, None, outside + 1),
            np.bincount(gold.type[gold_cell == BOUNDARY], minlength=outside),
            np.bincount(pred.type[pred_cell == BOUNDARY], minlength=outside))


def _cells(keys: np.ndarray, counts: np.ndarray | None, size: int) -> np.ndarray:
    """``(k x 3)`` rows ``(row, column, count)``: the counts (default 1 each) of the
    cells ``row * size + column`` in ``keys`` summed, zeros left out, sorted."""
    distinct, where = np.unique(keys, return_inverse=True)
    summed = np.bincount(where.ravel(), counts, minlength=len(distinct)).astype(np.int64)
    kept = summed != 0
    return np.stack([distinct[kept] // size, distinct[kept] % size, summed[kept]], axis=1)


def summed_counts(parts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``confusion_counts`` of several blocks of a corpus (over one label table) added up:
    the cells of equal ids summed, the boundary errors summed."""
    parts = list(parts)
    cells = np.concatenate([p[0] for p in parts]).reshape(-1, 3)
    size = int(cells[:, :2].max()) + 1 if len(cells) else 1
    return (_cells(cells[:, 0] * size + cells[:, 1], cells[:, 2], size),
            sum(p[1] for p in parts), sum(p[2] for p in parts))


def confusion_dict(gold: Spans, pred: Spans, cells: tuple | None = None) -> dict:
    """``{"confusion": {gold type: {predicted type: count}}, "boundary_errors": {"gold":
    {type: count}, "predicted": {type: count}}}``: the non-zero cells (types sorted, "O"
    last), the boundary errors of every type of either side; the predictions without a
    span (``pred.repairs.unplaced()``) spurious. ``cells``: ``confusion_cells(gold,
    pred)`` when found already."""
    n_types = len(gold.types)
    present = np.flatnonzero(np.bincount(gold.type, minlength=n_types)
                             + np.bincount(pred.type, minlength=n_types))
    unplaced = pred.repairs.unplaced() if pred.repairs is not None else {}
    return counts_dict(gold.types, present, *confusion_counts(gold, pred, cells),
                       unplaced=unplaced)


def counts_dict(types: tuple, present, cells: np.ndarray, gold_be: np.ndarray,
                pred_be: np.ndarray, unplaced: dict | None = None) -> dict:
    """``confusion_dict`` of counts over ``types`` (``confusion_counts``, or
    ``summed_counts`` of blocks of a corpus), whose type ids ``present`` occur;
    ``unplaced``: type -> predictions without a span (spurious; their types need not be
    in ``types``)."""
    names = [*types, OUTSIDE]
    confusion: dict = {}
    for gold_id, pred_id, count in cells.tolist():
        confusion.setdefault(names[gold_id], {})[names[pred_id]] = count
    if unplaced:
        spurious = confusion.pop(OUTSIDE, {})
        for name, count in unplaced.items():
            spurious[name] = spurious.get(name, 0) + int(count)
        confusion[OUTSIDE] = dict(sorted(spurious.items()))
    every = sorted({types[int(i)] for i in present} | set(unplaced or ()))
    at = {name: i for i, name in enumerate(types)}
    boundary = {side: {name: int(counts[at[name]]) if name in at else 0 for name in every}
                for side, counts in (("gold", gold_be), ("predicted", pred_be))}
    return {"confusion": confusion, "boundary_errors": boundary}


def confusion_types(data: dict) -> list:
    """Every type of a result's ``confusion`` and ``boundary_errors`` (either side's, as
    the matrix's rows and columns), sorted: of a result holding the non-zero cells, as of
    one saved with every cell, zeros included (as
    written before)."""
    matrix, boundary = data["confusion"], data["boundary_errors"]
    return sorted(({*matrix, *boundary["gold"], *boundary["predicted"]}
                   | {p for row in matrix.values() for p in row}) - {OUTSIDE})


def summed_name(summed: int, labels, noun: str = "label") -> str:
    """The name of the row and column of a table that sums ``summed`` of its ``labels``
    (the others than those shown): one no label has (a type may well be called "other").

    >>> summed_name(3, ["other", "PER"]), summed_name(3, ["other (3 labels)"])
    ('other (3 labels)', 'other (3 labels)*')
    >>> summed_name(1, ["PER"], "type")
    'other (1 type)'
    """
    name = f"other ({counted(summed, noun)})"
    while name in labels:
        name += "*"
    return name


# The keys the entity confusion matrix adds to a result (``nerspan.Evaluation.confusion``),
# in every module and command.
CONFUSION_KEYS = ("confusion", "boundary_errors")


__all__ = ["confusion_cells", "confusion_counts", "summed_counts", "confusion_dict",
           "counts_dict", "confusion_types", "summed_name", "OUTSIDE", "BOUNDARY", "PAIRED",
           "CONFUSION_KEYS"]
