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

So a row of a gold type sums to its gold mentions minus its boundary errors, a column
of a predicted type to its predictions minus theirs. ``["O"]["O"]`` is never counted
and not in the result. Mentions of one flat tag column never overlap, so spans pair
through one look-up table and overlaps through one cumulative sum: linear in tokens
and mentions; the matrix has at most (types + 1)^2 cells.

>>> from nerspan import Corpus, LabelTable, decode, get_scheme
>>> corpus = Corpus.from_tags([["B-PER", "I-PER", "O", "B-LOC", "B-ORG", "O"]],
...                           [["B-PER", "I-PER", "O", "B-ORG", "O", "B-LOC"]])
>>> table = LabelTable.build(corpus.labels, get_scheme("IOB2"))
>>> gold, pred = (decode(corpus, side, "IOB2", "lenient", table) for side in ("gold", "pred"))
>>> out = confusion_dict(gold, pred)
>>> out["confusion"]["PER"]["PER"], out["confusion"]["LOC"]["ORG"], out["confusion"]["ORG"]["O"]
(1, 1, 1)
>>> out["confusion"]["O"]["LOC"], out["boundary_errors"]["gold"]["LOC"]
(1, 0)
"""
from __future__ import annotations

import numpy as np

from .options import check_bool
from .schemes import get_scheme
from .spans import LabelTable, Spans

OUTSIDE = "O"
BOUNDARY = -1   # a mention's cell: a boundary error, not in the matrix
PAIRED = -2     # a prediction's cell: counted on its gold mention's row


def _overlapping(spans: Spans, other: Spans, n_positions: int) -> np.ndarray:
    """Per span of ``spans``: does any span of ``other`` cover one of its tokens."""
    inside = (np.bincount(other.start, minlength=n_positions + 1)
              - np.bincount(other.end, minlength=n_positions + 1))
    covered = np.concatenate([[0], np.cumsum(np.cumsum(inside)[:-1] > 0)])
    return covered[spans.end] - covered[spans.start] > 0


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
    if len(gold) and len(pred):
        gold_at = np.full(n_positions, -1, dtype=np.int64)
        gold_at[gold.start] = np.arange(len(gold))
        index = gold_at[pred.start]
        same = (index >= 0) & (gold.end[index] == pred.end)
        gold_cell[_overlapping(gold, pred, n_positions)] = BOUNDARY
        pred_cell[_overlapping(pred, gold, n_positions)] = BOUNDARY
        gold_cell[index[same]] = pred.type[same]
        pred_cell[same] = PAIRED
    return gold_cell, pred_cell


def confusion_counts(gold: Spans, pred: Spans, cells: tuple | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(matrix, gold boundary errors, predicted boundary errors)`` over the type ids
    (and "O" last): an integer (types + 1)^2 matrix and two arrays per type; ``cells``:
    ``confusion_cells(gold, pred)`` when found already."""
    gold_cell, pred_cell = cells if cells is not None else confusion_cells(gold, pred)
    size = len(gold.types) + 1
    rows = np.concatenate([gold.type[gold_cell >= 0], np.full(np.sum(pred_cell == size - 1),
                                                                size - 1)])
    cols = np.concatenate([gold_cell[gold_cell >= 0], pred.type[pred_cell == size - 1]])
    matrix = np.bincount(rows.astype(np.int64) * size + cols,
                         minlength=size * size).reshape(size, size)
    return (matrix, np.bincount(gold.type[gold_cell == BOUNDARY], minlength=size - 1),
            np.bincount(pred.type[pred_cell == BOUNDARY], minlength=size - 1))


def confusion_dict(gold: Spans, pred: Spans, cells: tuple | None = None) -> dict:
    """``{"confusion": {gold type: {predicted type: count}}, "boundary_errors": {"gold":
    {type: count}, "predicted": {type: count}}}`` over the types of either side (sorted,
    "O" last; ``["O"]["O"]`` left out); ``cells``: ``confusion_cells(gold, pred)``
    when found already."""
    n_types = len(gold.types)
    present = np.flatnonzero(np.bincount(gold.type, minlength=n_types)
                             + np.bincount(pred.type, minlength=n_types))
    return counts_dict(gold.types, present, *confusion_counts(gold, pred, cells))


def counts_dict(types: tuple, present, matrix: np.ndarray, gold_be: np.ndarray,
                pred_be: np.ndarray) -> dict:
    """``confusion_dict`` of counts over all of ``types`` (``confusion_counts``, summed
    over blocks of a corpus, say), for the type ids ``present``."""
    present = [int(i) for i in present]
    n_types = len(types)
    names = [types[i] for i in present] + [OUTSIDE]
    at = present + [n_types]
    confusion = {name: {other: int(matrix[i, j]) for other, j in zip(names, at)
                        if not (i == n_types and j == n_types)}
                 for name, i in zip(names, at)}
    boundary = {"gold": {types[i]: int(gold_be[i]) for i in present},
                "predicted": {types[i]: int(pred_be[i]) for i in present}}
    return {"confusion": confusion, "boundary_errors": boundary}


# The keys ``confusion=True`` adds to a result, in every family, module and command.
CONFUSION_KEYS = ("confusion", "boundary_errors")


def context_confusion(context, column: str, corpus=None) -> dict:
    """``confusion_dict`` of the system ``column`` of ``corpus`` (a scoring corpus of the
    ``nerspan.GoldContext`` ``context``; default its own) against the context's gold, as
    every family reads them: the gold decoded once, the system once per context (when
    ``corpus`` is the context's own)."""
    corpus = context.corpus if corpus is None else corpus
    table = LabelTable.build(corpus.labels, get_scheme(context.scheme))
    return confusion_dict(context.gold_spans(table), context.pred_spans(corpus, column, table))


def entity_confusion(confusion, gold: Spans, pred: Spans) -> dict | None:
    """A family's ``confusion`` option (checked: a bool) applied to its decoded spans:
    ``confusion_dict(gold, pred)``, or None when not asked for."""
    return confusion_dict(gold, pred) if check_bool("confusion", confusion) else None


def with_confusion(out: dict, matrix: dict | None) -> dict:
    """A result dict ``out`` with the keys of ``matrix`` (``confusion_dict``; None: none
    asked for) added: what every family's ``to_dict`` does with its matrix."""
    if matrix is not None:
        out.update(matrix)
    return out


__all__ = ["confusion_cells", "confusion_counts", "confusion_dict", "counts_dict", "OUTSIDE",
           "BOUNDARY", "PAIRED", "CONFUSION_KEYS", "context_confusion",
           "entity_confusion", "with_confusion"]
