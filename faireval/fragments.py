"""Mentions as fragment sets: what faireval's matching and the SemEval schemas read.

A mention is its type and its set of fragments (``nerspan.Spans``: a contiguous mention
is one row, a discontinuous one a row spanning its fragments, whose fragments are rows
of its fragment table). Two mentions are the same span when their
fragment sets are equal (Dai et al., ACL 2020: exact match on the fragment set), they
overlap when the tokens they cover intersect, and a mention's length is the number of
tokens it covers. A contiguous mention's covered tokens are its interval, so flat input
meets exactly the interval arithmetic it met before fragments.
"""
from __future__ import annotations

import numpy as np

from nerspan.spans import Spans


def covered_lengths(table: Spans) -> np.ndarray:
    """Per row, the tokens it covers: ``end - start`` less the gaps between fragments."""
    length = (table.end - table.start).astype(np.int64)
    if table.has_fragments:
        owner, start, end = table.fragments
        covered = np.bincount(owner, minlength=len(table), weights=end - start)
        split = table.discontinuous
        length[split] = covered[split].astype(np.int64)
    return length


def shape_ids(*tables: Spans) -> list:
    """Per table, per row: 0 for a contiguous mention, else an id (from 1) of its
    fragment set, equal across the tables for equal fragment sets. With sentence,
    start, end and type it identifies a mention."""
    ids, out = {}, []
    for table in tables:
        shape = np.zeros(len(table), dtype=np.int64)
        for row, fragments in fragment_sets(table).items():
            shape[row] = ids.setdefault(fragments, len(ids) + 1)
        out.append(shape)
    return out


def fragment_sets(table: Spans, local: bool = False) -> dict:
    """Discontinuous row -> its fragments as a tuple of ``(start, end)`` pairs
    (``local``: in its sentence, else flat positions)."""
    out: dict = {}
    owner, starts, ends = table.fragment_table
    base = table.base[owner] if local else np.zeros(len(owner), dtype=np.int64)
    for row, start, end in zip(owner.tolist(), (starts - base).tolist(),
                               (ends - base).tolist()):
        out[row] = out.get(row, ()) + ((start, end),)
    return out


def covered_bits(table: Spans, rows: np.ndarray) -> list:
    """Per row of ``rows``, the tokens it covers as a bitmask (bit i: token start + i)."""
    starts, ends = table.start[rows].tolist(), table.end[rows].tolist()
    bits = [(1 << (end - start)) - 1 for start, end in zip(starts, ends)]
    if table.has_fragments:
        split = fragment_sets(table)
        for k, row in enumerate(np.asarray(rows).tolist()):
            if row in split:
                bits[k] = sum(((1 << (end - start)) - 1) << (start - starts[k])
                              for start, end in split[row])
    return bits


def shared_tokens(a: Spans, rows_a: np.ndarray, b: Spans,
                  rows_b: np.ndarray) -> np.ndarray:
    """Per pair ``(rows_a[k], rows_b[k])`` of one sentence, the tokens both cover:
    interval arithmetic for two contiguous mentions, bitmasks where one is not."""
    shared = (np.minimum(a.end[rows_a], b.end[rows_b])
              - np.maximum(a.start[rows_a], b.start[rows_b])).astype(np.int64)
    shared = np.maximum(shared, 0)
    split = np.flatnonzero(a.discontinuous[rows_a] | b.discontinuous[rows_b])
    if len(split):
        bits_a = covered_bits(a, rows_a[split])
        bits_b = covered_bits(b, rows_b[split])
        starts_a, starts_b = a.start[rows_a[split]].tolist(), b.start[rows_b[split]].tolist()
        shared[split] = [_aligned(x, sx, y, sy).bit_count()
                         for x, sx, y, sy in zip(bits_a, starts_a, bits_b, starts_b)]
    return shared


def _aligned(x: int, x_start: int, y: int, y_start: int) -> int:
    """The bits two masks share, the masks starting at tokens ``x_start`` and ``y_start``."""
    low = min(x_start, y_start)
    return (x << (x_start - low)) & (y << (y_start - low))


def covers(x: int, x_start: int, y: int, y_start: int) -> bool:
    """Whether the tokens of mask ``x`` hold every token of mask ``y``."""
    low = min(x_start, y_start)
    return not (y << (y_start - low)) & ~(x << (x_start - low))


__all__ = ["covered_lengths", "shape_ids", "fragment_sets", "covered_bits", "shared_tokens",
           "covers"]
