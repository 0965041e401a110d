"""Mention shapes as the attributes read them: nested, overlapping, multi-label and
discontinuous mentions (``nerspan.Spans`` read from a table or from layers).

A mention's tokens are those of its fragments, in order (never the gap between them): its
length is how many they are, its words their words joined by one space. What truly needs
one label per token (the token attributes' F1, tCon's training counts, the reference
code) refuses mentions that share a token, naming the attribute and the shape.
"""
from __future__ import annotations

import numpy as np

from nerspan import Spans
from nerspan.errors import shown
from nerspan.flat import GOLD, PRED, ranges, side_name
from nerspan.layers import refuse_layered_training
from nerspan.scores import is_flat
from nerspan.span_table import SpanShapeError

TRAINING = "training tags"   # how errors name the training side
LEAVE_OUT = ("leave it out (attributes=... naming mention attributes only: the mention "
             "attributes take every shape)")


def covered_lengths(spans: Spans) -> np.ndarray:
    """The tokens every mention covers: its span's, or the sum of its fragments'."""
    if not spans.has_fragments:
        return spans.length
    owner, start, end = spans.pieces()
    return np.bincount(owner, weights=end - start, minlength=len(spans)).astype(np.int64)


class WordPositions:
    """The corpus positions of every mention's tokens, fragment after fragment:
    ``of(members, length)`` is the ``(members x length)`` matrix of mentions that all
    cover ``length`` tokens."""

    def __init__(self, spans: Spans):
        self.spans = spans
        if spans.has_fragments:
            owner, start, end = spans.pieces()
            order = np.lexsort((start, owner))
            self.flat = ranges(start[order], (end - start)[order])
            covered = covered_lengths(spans)
            self.first = np.concatenate([[0], np.cumsum(covered)[:-1]]).astype(np.int64)

    def of(self, members: np.ndarray, length: int) -> np.ndarray:
        if not self.spans.has_fragments:
            return self.spans.start[members][:, None] + np.arange(length)
        return self.flat[self.first[members][:, None] + np.arange(length)]


def shared_token(spans: Spans) -> tuple[int, int] | None:
    """The first two mentions (indices) that cover one token, in position order (a
    token inside a mention and one nested in it, two overlapping mentions, one span of
    two types); None when every token is in at most one mention."""
    owner, start, end = spans.pieces()
    if not len(owner):
        return None
    order = np.lexsort((end, start))
    owner, start, end = owner[order], start[order], end[order]
    furthest = np.maximum.accumulate(end)
    clash = np.flatnonzero(start[1:] < furthest[:-1])
    if not len(clash):
        return None
    k = clash[0] + 1
    earlier = np.flatnonzero(end[:k] > start[k])
    return int(owner[earlier[0]]), int(owner[k])


def describe(spans: Spans, a: int, b: int) -> str:
    """Two mentions that share a token, and how (sentence-relative positions): one's
    tokens inside the other's nest, the outer one named first."""
    tokens_a, tokens_b = _tokens(spans, a), _tokens(spans, b)
    if tokens_a < tokens_b:
        a, b = b, a
    shape = "are one span of two types" if tokens_a == tokens_b else \
        "nest" if tokens_a < tokens_b or tokens_b < tokens_a else "overlap"
    return f"spans {_shown_mention(spans, a)} and {_shown_mention(spans, b)} {shape}"


def _tokens(spans: Spans, k: int) -> set:
    """The positions mention ``k`` covers."""
    owner, start, end = spans.pieces()
    mine = np.flatnonzero(owner == k)
    return set(ranges(start[mine], end[mine] - start[mine]).tolist())


def _shown_mention(spans: Spans, k: int) -> str:
    """``(start, end, type)``, or ``(fragments [[s, e], ...], type)`` of mention ``k``."""
    base = int(spans.offsets[spans.sentence[k]])
    label = shown(spans.types[spans.type[k]])
    if spans.has_fragments and k in spans.fragments[0]:
        owner, start, end = spans.fragments
        pieces = [[a - base, b - base] for a, b in zip(start[owner == k].tolist(),
                                                       end[owner == k].tolist())]
        return f"(fragments {pieces}, {label})"
    return f"({int(spans.start[k]) - base}, {int(spans.end[k]) - base}, {label})"


def one_label_error(spans: Spans, side: str, what: str) -> SpanShapeError | None:
    """The error of ``what`` (one label per token) on ``side``'s mentions when two of
    them share a token; None when none do."""
    found = None if is_flat(spans) else shared_token(spans)
    if found is None:
        return None
    a, b = found
    return SpanShapeError(f"{describe(spans, a, b)}: {what} reads one label per token, "
                          f"which cannot hold mentions that share a token; {LEAVE_OUT}",
                          side=side, sentence=int(spans.sentence[a]))


def check_shapes(gold, pred, index, token_attributes: list, label_attributes: list,
                 compat: str | None) -> None:
    """Refuse what one label per token cannot hold, naming the attribute and the shape:
    the token attributes (``token_attributes``, scored by the label of every token) on a
    side whose mentions share a token (``gold``/``pred``: ``attributes.Side``); the
    attributes counting the training label of every token (``label_attributes``) on
    training with layers or mentions that share one; ``compat`` on any shape tags
    cannot hold, on either side or in training (the reference code reads tags)."""
    sides = [(side_name(GOLD), gold.spans), (side_name(PRED), pred.spans)]
    training = [] if index is None else [(TRAINING, index.spans)]
    checks = [(f"compat={compat!r}", sides + training, tag_error)] if compat else []
    checks += [(f"the token attribute {name}", sides, one_label_error)
               for name in token_attributes]
    checks += [(f"the token attribute {name}", training, one_label_error)
               for name in label_attributes]
    for what, where, error_of in checks:
        for side, spans in where:
            if side == TRAINING:
                refuse_layered_training(index.layers, what)
            error = error_of(spans, side, what)
            if error is not None:
                raise error


def tag_error(spans: Spans, side: str, what: str) -> SpanShapeError | None:
    """The error of ``what`` (tags) on mentions that share a token or have fragments."""
    error = one_label_error(spans, side, what)
    if error is not None or not spans.has_fragments:
        return error
    k = int(spans.fragments[0][0])
    return SpanShapeError(f"span {_shown_mention(spans, k)} is discontinuous: {what} reads "
                          "one tag per token, which cannot hold discontinuous mentions; "
                          f"{LEAVE_OUT}", side=side, sentence=int(spans.sentence[k]))
