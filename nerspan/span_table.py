"""One side's mentions as a table that may nest and overlap: what tags cannot hold.

``SpanRows`` is one side's spans as read (``nerspan.reading.span_lists.read_spans``):
sentence, token start, end (exclusive) and label, in list order. Every side read from
span lists keeps them as ``nerspan.spans.Spans`` at the corpus's positions
(``Source.mentions``, per column of a ``Corpus``), which its entity scores read
(``nerspan.spans.table_spans``): spans are never written as tags to be decoded back. A side whose spans are flat also has its IOB2 tags, for what
reads tags; a side whose spans nest or overlap (or repeat one mention) has none: whatever
needs one tag per token (decoding a tag column, the families that score tags, the
report) meets ``SpanShapeError`` instead: nothing is flattened in silence.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .errors import NerspanError, shown
from .flat import owned


class SpanShapeError(NerspanError):
    """Spans that nest or overlap where one tag per token is needed."""


# What makes nested or overlapping spans scoreable where tags are needed: the option
# that scores each layer of mentions apart (the layers of ``InputOptions``).
LAYERS_HINT = ("score the layers separately with layers=... (--layers), or score the spans "
               "as they are with nerspan.score, nerspan.Evaluation's entity scores or "
               "faireval.score")
# What scores discontinuous mentions where a reader keeps one span per mention.
FRAGMENT_REMEDY = ("score discontinuous mentions with nerspan.score (exact match on the "
                   "fragment set)")


@dataclass(frozen=True)
class SpanRows:
    """One side's spans as flat arrays in list order: sentence, token start, end (exclusive).

    ``snapped`` holds the sentence of every span that ``snap=True`` widened;
    ``invalid_transitions`` counts what lenient decoding of per-sub-token pipeline output
    repaired (see ``nerspan.Repairs``).

    A discontinuous mention (several fragments) is one row spanning its first fragment's
    start to its last fragment's end, and its fragments are rows of the fragment table
    (``fragment_row``: the row they belong to, ``fragment_start``, ``fragment_end``),
    sorted by row and start, disjoint and not touching (``normal_fragments``). A
    contiguous mention has no fragment row: its span is its one fragment.
    """

    sentence: np.ndarray
    start: np.ndarray
    end: np.ndarray
    labels: list
    snapped: np.ndarray
    invalid_transitions: int = 0
    fragment_row: np.ndarray = field(default_factory=lambda: _NONE.copy())
    fragment_start: np.ndarray = field(default_factory=lambda: _NONE.copy())
    fragment_end: np.ndarray = field(default_factory=lambda: _NONE.copy())

    def __len__(self) -> int:
        return len(self.start)

    def to_lists(self, n_sentences: int) -> list[list[tuple]]:
        """Per sentence, ``(label, start, end)`` tuples (faireval's order)."""
        out = [[] for _ in range(n_sentences)]
        for s, label, a, b in zip(self.sentence.tolist(), self.labels, self.start.tolist(),
                                  self.end.tolist()):
            out[s].append((label, a, b))
        return out

    def needs_table(self) -> bool:
        """Whether tags cannot hold these spans: some nest, overlap, repeat a mention
        or have several fragments (found once: every read of the column asks)."""
        return self._tags_cannot_hold

    @cached_property
    def label_codes(self) -> tuple[np.ndarray, tuple]:
        """``(codes, names)``: every row's label as an index of ``names``, its distinct
        labels sorted; found once for whatever reads the table (its tags, its spans)."""
        names = tuple(sorted(set(self.labels)))
        index = {label: k for k, label in enumerate(names)}
        return np.fromiter(map(index.__getitem__, self.labels), dtype=np.int32,
                           count=len(self)), names

    @cached_property
    def _tags_cannot_hold(self) -> bool:
        return len(self.fragment_row) > 0 or self.first_overlap() is not None

    def fragments_of(self, row: int) -> list:
        """The fragments of row ``row``, ``[start, end]`` lists."""
        mine = np.flatnonzero(self.fragment_row == row)
        if not len(mine):
            return [[int(self.start[row]), int(self.end[row])]]
        return [[int(a), int(b)] for a, b in zip(self.fragment_start[mine].tolist(),
                                                 self.fragment_end[mine].tolist())]

    def check_contiguous(self, side: str, reader: str, remedy: str = FRAGMENT_REMEDY
                         ) -> None:
        """Refuse discontinuous mentions where ``reader`` (what it is, how it fails:
        "a dial over scored predictions keeps one span per mention") cannot take them:
        one ``SpanShapeError`` naming the first, ``remedy`` the way to score it, rather
        than its bounds in silence."""
        if len(self.fragment_row):
            raise self._discontinuous(int(self.fragment_row[0]), side, reader, remedy)

    def _discontinuous(self, k: int, side: str, reader: str, remedy: str) -> SpanShapeError:
        return discontinuous_error(self.labels[k], self.fragments_of(k), int(self.sentence[k]),
                                   side, reader, remedy)

    def first_overlap(self) -> tuple[int, int] | None:
        """The first two spans (row indices) of one sentence that share a token (a
        repeated mention too), in sentence and start order; None when the spans are flat."""
        return first_overlap(self.sentence, self.start, self.end)

    def shape_error(self, side: str) -> SpanShapeError:
        """The one error of spans that tags cannot hold (``overlap_error``)."""
        pair = self.first_overlap()
        if pair is None:
            return self._discontinuous(int(self.fragment_row[0]), side, TAGS_READER,
                                       LAYERS_HINT)
        return overlap_error([(int(self.start[k]), int(self.end[k]), self.labels[k])
                              for k in pair], side, int(self.sentence[pair[0]]))


def first_overlap(sentence: np.ndarray, start: np.ndarray, end: np.ndarray
                  ) -> tuple[int, int] | None:
    """The first two spans (indices) of one sentence that share a token (a repeated
    mention too), in sentence and start order; None when the spans are flat. ``start``
    and ``end`` may be in the sentence or flat positions: the order is the same."""
    order = np.lexsort((end, start, sentence))
    sentence, start, end = sentence[order], start[order], end[order]
    # a span overlaps an earlier one iff it starts before the furthest end so far
    furthest = _running_max_per_group(end, sentence)
    clash = np.flatnonzero((sentence[1:] == sentence[:-1]) & (start[1:] < furthest[:-1]))
    if not len(clash):
        return None
    k = clash[0] + 1
    earlier = np.flatnonzero((sentence[:k] == sentence[k]) & (end[:k] > start[k]))
    return int(order[earlier[0]]), int(order[k])


def overlap_error(pair: list, side: str, sentence: int) -> SpanShapeError:
    """The one error of spans that tags cannot hold: the shape, the side, the sentence,
    the two spans (``(start, end, label)`` in the sentence, as ``first_overlap`` finds
    them), and the option that scores them."""
    (a_start, a_end, a_label), (b_start, b_end, b_label) = pair
    shown_pair = [f"({start}, {end}, {shown(label)})" for start, end, label in pair]
    shape = ("repeat one mention" if pair[0] == pair[1]
             else "nest" if a_start <= b_start and b_end <= a_end else "overlap")
    return SpanShapeError(f"spans {shown_pair[0]} and {shown_pair[1]} {shape}: tags (one per "
                          "token) cannot hold nested or overlapping spans, and this scorer "
                          f"reads tags; {LAYERS_HINT}", side=side, sentence=sentence)


def discontinuous_error(label: str, fragments: list, sentence: int, side: str, reader: str,
                        remedy: str) -> SpanShapeError:
    """The error of a discontinuous mention (``label``, its ``fragments`` in its
    sentence) where ``reader`` (what it is, how it fails) cannot take it; ``remedy``
    the way to score it."""
    return SpanShapeError(f"span {shown(label)} of fragments {fragments} is discontinuous, "
                          f"and {reader}; {remedy}", side=side, sentence=sentence)


# Tags cannot hold a discontinuous mention: what ``shape_error`` says of one.
TAGS_READER = "tags (one per token) cannot hold discontinuous mentions: this scorer reads tags"


def rows_at(sentence: np.ndarray, in_sentence_order: bool, sentences: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """``(taken, renumbered)``: the rows (of sentences ``sentence``) of the corpus of
    ``sentences`` (indices of this one's, repeated in a resample), in that order, and
    their sentences there."""
    n = max(int(sentence.max()) + 1 if len(sentence) else 0,
            int(sentences.max()) + 1 if len(sentences) else 0)
    if in_sentence_order and _is_run(sentences):   # a block: rows in a run too
        lo, hi = np.searchsorted(sentence, [sentences[0], sentences[-1] + 1])
        return np.arange(lo, hi), sentence[lo:hi] - sentences[0]
    order = np.argsort(sentence, kind="stable")
    taken, renumbered = owned(sentence[order], n, sentences)
    return order[taken], renumbered


_NONE = np.zeros(0, dtype=np.int64)


def normal_fragments(fragments: list) -> list:
    """A mention's fragments as a set: sorted, and those that overlap or touch joined
    (the tokens they cover are the mention's), so that order and repeats do not matter.

    >>> normal_fragments([[5, 6], [0, 2], [1, 3], [3, 4]])
    [[0, 4], [5, 6]]
    """
    out = []
    for start, end in sorted(fragments):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return out


def _is_run(sentences: np.ndarray) -> bool:
    """Whether ``sentences`` are consecutive ascending numbers (a block of a corpus)."""
    return len(sentences) > 0 and int(sentences[-1]) - int(sentences[0]) == len(sentences) - 1 \
        and bool((np.diff(sentences) == 1).all())


def _running_max_per_group(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """The running maximum of ``values`` restarting where ``groups`` (sorted) changes:
    one accumulate over values shifted so each group lies above every earlier one."""
    if not len(values):
        return values
    shift = (np.int64(values.max()) + 1) * groups
    return np.maximum.accumulate(values + shift) - shift
