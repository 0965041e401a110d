"""What tags cannot hold: the error of spans that nest, overlap or split where one tag
per token is needed, and the helpers of span tables (``nerspan.spans.Spans``).

Every side read from span lists (``nerspan.reading.span_lists.read_spans``) keeps its
mentions as ``Spans`` at the corpus's positions (``Source.mentions``, per column of a
``Corpus``), which its entity scores read (``nerspan.spans.table_spans``): spans are
never written as tags to be decoded back. A side whose spans are flat also has its IOB2
tags, for what reads tags; a side whose spans nest or overlap (or repeat one mention)
has none: whatever needs one tag per token (decoding a tag column, the families that
score tags, the report) meets ``SpanShapeError`` instead: nothing is flattened in silence.
"""
from __future__ import annotations

import numpy as np

from .errors import NerspanError
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
