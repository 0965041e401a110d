"""Mentions of two flat annotations of the same tokens, side by side: shared type ids,
exact and same-fragment partners, and which mentions overlap which.

A flat annotation (one tag column, decoded) has mentions sorted by start that never
overlap each other, so their ends are sorted too: the mentions of one side overlapping a
mention ``[s, e)`` of the other form one run, found by two binary searches (the first
whose end is past ``s``, the first that starts at or after ``e``). Every function here is
a few NumPy passes over the mentions; the pairs of overlapping mentions of two flat
sides are at most as many as their mentions together.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..flat import ranges
from ..spans import Spans


def on_shared_types(*spans: Spans) -> list[Spans]:
    """Every one of ``spans`` with its type ids over the sorted union of their types,
    so that two mentions of the same type have the same id on any side.

    >>> from nerspan import Corpus, decode
    >>> a = decode(Corpus.from_tags([["B-PER", "B-LOC"]]))
    >>> b = decode(Corpus.from_tags([["B-ORG", "O"]]))
    >>> [(s.types, s.type.tolist()) for s in on_shared_types(a, b)]
    [(('LOC', 'ORG', 'PER'), [2, 0]), (('LOC', 'ORG', 'PER'), [1])]
    """
    types = tuple(sorted(set().union(*(s.types for s in spans))))
    index = {t: i for i, t in enumerate(types)}
    out = []
    for side in spans:
        if side.types == types:
            out.append(side)
            continue
        remap = np.array([index[t] for t in side.types] or [0], dtype=np.int32)
        out.append(dataclasses.replace(side, types=types,
                                       type=remap[side.type] if len(side) else
                                       side.type.astype(np.int32)))
    return out


def check_flat(spans: Spans, side: str) -> None:
    """Raise ``ValueError`` unless the mentions of ``spans`` are sorted by start and
    overlap no other mention of theirs (one tag column decoded is always so)."""
    if len(spans) > 1 and not (spans.start[1:] >= spans.end[:-1]).all():
        at = int(np.argmax(spans.start[1:] < spans.end[:-1]))
        raise ValueError(
            f"{side}: mentions [{int(spans.start[at])}, {int(spans.end[at])}) and "
            f"[{int(spans.start[at + 1])}, {int(spans.end[at + 1])}) overlap; the audit "
            "reads flat annotations (one tag column each)")


def partners(a: Spans, b: Spans) -> tuple[np.ndarray, np.ndarray]:
    """``(same, exact)`` for the mentions of ``a``: the mention of ``b`` with the same
    fragments (start and end; -1 where none has), and whether its type is the same too.
    Both sides flat, on shared types."""
    same = np.full(len(a), -1, dtype=np.int64)
    if len(a) and len(b):
        at = np.minimum(np.searchsorted(b.start, a.start), len(b) - 1)
        found = (b.start[at] == a.start) & (b.end[at] == a.end)
        same[found] = at[found]
    exact = same >= 0
    exact[exact] = b.type[same[exact]] == a.type[exact]
    return same, exact


def overlap_runs(a: Spans, b: Spans) -> tuple[np.ndarray, np.ndarray]:
    """``(first, count)``: for every mention of ``a``, the first mention of ``b``
    (flat) overlapping it and how many do (0: none; then ``first`` is meaningless)."""
    first = np.searchsorted(b.end, a.start, side="right")
    count = np.searchsorted(b.start, a.end, side="left") - first
    return first, np.maximum(count, 0)


def overlap_pairs(a: Spans, b: Spans) -> tuple[np.ndarray, np.ndarray]:
    """``(i, j)``: every pair of a mention ``i`` of ``a`` and ``j`` of ``b`` (both flat)
    that share a token, ordered by ``i`` then ``j``.

    >>> from nerspan import Corpus, decode
    >>> c = Corpus.from_tags([["B-PER", "I-PER", "I-PER", "O"]], [["B-PER", "B-LOC", "O", "B-X"]])
    >>> [x.tolist() for x in overlap_pairs(decode(c), decode(c, "pred"))]
    [[0, 0], [0, 1]]
    """
    first, count = overlap_runs(a, b)
    return np.repeat(np.arange(len(a)), count), ranges(first, count)


def overlap_size(a: Spans, b: Spans, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Tokens shared by the mentions ``a[i]`` and ``b[j]`` (pairs of equal length)."""
    return (np.minimum(a.end[i], b.end[j]) - np.maximum(a.start[i], b.start[j]))
