"""Two annotations of the same tokens, read for a diff or an agreement: a ``Corpus``
with both as tag columns, or two lists of tag lists per sentence.

Generated output (entity strings without offsets, ``nerspan.generative``) is refused on
either side: it is a model's answer, no annotation of the tokens, and grounding it would
make up the offsets a diff compares.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..corpus import Corpus
from ..errors import InputTypeError
from ..flat import GOLD, PRED
from ..generative.form import is_generated
from ..schemes import get_scheme
from ..spans import LabelTable, Spans, column_spans


@dataclass(frozen=True)
class TwoAnnotations:
    """Both sides decoded: the corpus, the two column names, their spans and the
    positions whose tags differ."""

    corpus: Corpus
    columns: tuple
    a: Spans
    b: Spans
    names: tuple

    @property
    def changed_tags(self) -> np.ndarray:
        return np.flatnonzero(self.corpus.column(self.columns[0])
                              != self.corpus.column(self.columns[1]))

    @property
    def tag_ids(self) -> tuple[np.ndarray, np.ndarray]:
        return self.corpus.column(self.columns[0]), self.corpus.column(self.columns[1])


def read_two(annotation_a, annotation_b=None, *, columns: tuple = (GOLD, PRED),
             names: tuple | None = None, tokens=None, scheme: str = "IOB2",
             mode: str = "lenient") -> TwoAnnotations:
    """Read and decode two annotations of the same tokens.

    Args:
        annotation_a, annotation_b: lists of tags per sentence each; or a ``Corpus``
            as ``annotation_a`` holding both as tag columns (``columns``: A's, B's).
            Generated output is refused on either side (``InputTypeError``).
        names: what A and B are called in results (default: the column names of a
            corpus, else ``("a", "b")``).
        tokens: the words per sentence (tag lists only), for the texts of mentions.
        scheme, mode: how both sides' tags are decoded (``nerspan.decode``), with one
            label table: their types share ids (a side read from span lists: its
            table's mentions, ``column_spans``).

    >>> two = read_two([["B-PER", "O"]], [["B-LOC", "O"]])
    >>> two.a.types, two.changed_tags.tolist()
    (('LOC', 'PER'), [0])
    """
    for side, value in (("A", annotation_a), ("B", annotation_b)):
        if value is not None and not isinstance(value, Corpus) and is_generated(value):
            raise InputTypeError(
                f"annotation {side} is generated output (entity strings without offsets): "
                "a diff or an agreement compares two annotations of the same tokens; "
                "ground the output first and compare it as predictions, never as a gold side",
                side=side)
    if isinstance(annotation_a, Corpus):
        if annotation_b is not None:
            raise InputTypeError("with a Corpus as annotation A, name its two columns by "
                                 "columns=(a, b) and leave annotation B out")
        corpus = annotation_a
        _check_columns(corpus, columns)
        names = names or columns
    else:
        if annotation_b is None:
            raise InputTypeError("annotation B is None: give the second annotation (tags "
                                 "per sentence), or a Corpus with both as columns")
        corpus = Corpus.from_tags(annotation_a, annotation_b, tokens,
                                  names={GOLD: "annotation A", PRED: "annotation B"})
        columns, names = (GOLD, PRED), names or ("a", "b")
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    a, b = (column_spans(corpus, column, scheme, mode, table, f"annotation {side}", flat=True)
            for column, side in zip(columns, "AB"))
    return TwoAnnotations(corpus, tuple(columns), a, b, tuple(names))


def _check_columns(corpus: Corpus, columns: tuple) -> None:
    """Two columns, neither holding grounded generated output: no annotation to compare."""
    for column in columns:
        corpus.column(column)  # a missing column: the corpus names the ones it has
        if column in corpus.source.generated:
            raise InputTypeError(f"column {column!r} holds generated output grounded in the "
                                 "text: a diff or an agreement compares annotations of the "
                                 "same tokens, never generated output as a gold side; score "
                                 "it as a system's predictions (nerspan.score; nerlens score "
                                 "GOLD --generated FILE.jsonl)", side=column)
    if len(columns) != 2:
        raise InputTypeError(f"a diff or an agreement compares two annotations, A and B: "
                             f"give two columns, not {len(columns)} ({', '.join(columns)})")
