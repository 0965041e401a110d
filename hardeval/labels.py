"""The label each token is compared on: the ``error_labels`` conventions.

- ``"bilou"`` (default, the reference code): gold and predicted tags are decoded to
  mentions, re-encoded as BILOU and compared token by token. On IOB2 data both are
  decoded the reference way (``reference_mentions``): an ``I`` that follows ``O`` is
  dropped and ``B-X I-Y`` is one mention of type X. This differs from conlleval's repair
  (which starts a mention at such an ``I`` and splits at a type change), so it has its
  own decoder here; every repair is counted. The reference code assumes valid IOB2
  gold, where every rule agrees; invalid gold is read by the same rule as the
  predictions, so that identical gold and predictions never count an error. Other
  schemes decode both with ``nerspan.decode`` (scheme and mode); a side read from span
  lists gives its table's mentions (``nerspan.spans.column_spans``), not its tags decoded.
  Token labels read tags where they need them (the reference reading, ``"bio"``): a
  span side's are the IOB2 tags written from its table.
- ``"bio"``: the raw tags are compared.
- ``"io"``: IO labels with type (``I-TYPE`` inside a mention, ``O`` outside).

Labels are integer codes per token: ``0`` is ``O``; for ``"io"`` ``1 + t``; for
``"bilou"`` ``1 + 4 t + k`` with ``k`` indexing ``"BILU"``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from nerspan import Corpus, Spans
from nerspan.flat import ranges
from nerspan.schemes import get_scheme
from nerspan.spans import LabelTable, Repairs
from nerspan.corpus import CHANGE_KINDS, side_name
from nerspan.schemes import B, E, I, S
from nerspan.spans import check_tags, column_spans


ERROR_LABELS = ("bilou", "bio", "io")
BILOU = "BILU"


def check_error_labels(value: str) -> str:
    name = str(value).lower()
    if name not in ERROR_LABELS:
        raise ValueError(f"error_labels must be one of {', '.join(ERROR_LABELS)}, not {value!r}")
    return name


@dataclass(frozen=True)
class ReferenceRepairs:
    """What the reference decoder repaired in the predictions.

    ``dropped_inside``: ``I`` tags outside any mention (after ``O`` or at a sentence
    start), read as ``O``. ``mixed_type``: ``I-Y`` tags continuing a mention of another
    type X, read as part of the X mention. ``sentences``: the first sentences concerned.
    """

    dropped_inside: int = 0
    mixed_type: int = 0
    sentences: tuple = ()

    @property
    def total(self) -> int:
        return self.dropped_inside + self.mixed_type

    def to_dict(self) -> dict:
        return {"dropped_inside": self.dropped_inside, "mixed_type": self.mixed_type,
                "sentences": list(self.sentences)}


def reference_mentions(corpus: Corpus, column: str, table: LabelTable):
    """Mentions of ``column`` decoded as the reference code decodes predictions.

    A mention starts at a ``B`` (or ``S``) tag and extends over the ``I`` (or ``E``) tags
    that follow it in the same sentence, whatever their type; an ``I`` with no mention to
    continue is dropped. Returns ``(start, end, type, ReferenceRepairs)``.

    >>> from nerspan import Corpus, LabelTable, get_scheme
    >>> c = Corpus.from_tags([["O", "I-PER", "B-ORG", "I-LOC", "O"]])
    >>> table = LabelTable.build(c.labels, get_scheme("IOB2"))
    >>> start, end, type_, repairs = reference_mentions(c, "gold", table)
    >>> start.tolist(), end.tolist(), [table.types[t] for t in type_]
    ([2], [4], ['ORG'])
    >>> repairs.dropped_inside, repairs.mixed_type
    (1, 1)
    """
    ids = corpus.column(column)
    prefix = table.prefix[ids]
    types = table.type[ids]
    n = corpus.n_tokens
    starts_here = (prefix == B) | (prefix == S)
    continues = (prefix == I) | (prefix == E)
    sentence_head = np.zeros(n, dtype=bool)
    sentence_head[corpus.offsets[:-1][corpus.lengths > 0]] = True
    # The anchor of a position: the last position at or before it, in its sentence, that
    # does not continue (a continuation at a sentence head is its own anchor).
    index = np.arange(n, dtype=np.int64)
    anchor = np.maximum.accumulate(np.where(~continues | sentence_head, index, 0)) if n else index
    in_mention = starts_here | (continues & starts_here[anchor])
    dropped = continues & ~in_mention
    mixed = continues & in_mention & (types != types[anchor])
    next_continues = np.zeros(n, dtype=bool)
    next_continues[:-1] = continues[1:] & ~sentence_head[1:]
    start = np.flatnonzero(starts_here)
    end = np.flatnonzero(in_mention & ~next_continues) + 1
    bad = np.unique(corpus.sentence_of_position[dropped | mixed])
    repairs = ReferenceRepairs(int(dropped.sum()), int(mixed.sum()),
                               tuple(int(s) for s in bad[:20]))
    return start, end, types[start].astype(np.int64), repairs


def encode(start: np.ndarray, end: np.ndarray, type_: np.ndarray, n: int,
           convention: str) -> np.ndarray:
    """Per-token label codes of mentions under ``"io"`` or ``"bilou"``.

    >>> encode(np.array([0, 3]), np.array([3, 4]), np.array([1, 0]), 5, "bilou").tolist()
    [5, 6, 7, 4, 0]
    """
    length = np.asarray(end, dtype=np.int64) - start
    codes = np.zeros(n, dtype=np.int64)
    where = ranges(start, length)
    per_token_type = np.repeat(np.asarray(type_, dtype=np.int64), length)
    if convention == "io":
        codes[where] = 1 + per_token_type
        return codes
    k = np.full(len(where), BILOU.index("I"), dtype=np.int64)
    first = np.cumsum(length) - length
    k[first[length > 1]] = BILOU.index("B")
    k[(first + length - 1)[length > 1]] = BILOU.index("L")
    k[first[length == 1]] = BILOU.index("U")
    codes[where] = 1 + 4 * per_token_type + k
    return codes


def spans_codes(spans: Spans, n: int, convention: str) -> np.ndarray:
    return encode(spans.start, spans.end, spans.type, n, convention)


def compared_codes(corpus: Corpus, gold_column: str, pred_column: str, gold_spans: Spans,
                   table: LabelTable, scheme, mode: str, error_labels: str,
                   gold_reference=None, pred_spans: Spans | None = None):
    """Per-token label codes of gold and prediction under ``error_labels`` and the
    repairs made to get them: ``{"gold": ..., "pred": ...}``, both with nerspan's kinds
    (``nerspan.REPAIR_KINDS``) and the reference decoder's (``REFERENCE_KINDS``).

    The two columns are always read by one rule (see the module docstring);
    ``gold_spans`` is the gold column decoded with ``scheme`` and ``mode``;
    ``gold_reference``, when given, is ``reference_codes`` of the gold column made before
    (a gold context keeps it for every system); ``pred_spans``, when given, is the
    prediction column decoded the same way (a gold context's, decoded once per system).
    """
    scheme = get_scheme(scheme)
    n = corpus.n_tokens
    if error_labels == "bilou" and scheme.name == "IOB2":
        if gold_reference is None:
            gold_reference = reference_codes(corpus, gold_column, table, scheme, mode)
        gold_codes, gold_found = gold_reference
        pred_codes, pred_found = reference_codes(corpus, pred_column, table, scheme, mode)
        return gold_codes, pred_codes, {"gold": _side(gold_spans.repairs, gold_found),
                                        "pred": _side(_snapped(corpus, pred_column),
                                                      pred_found)}
    if error_labels == "bio":
        check_tags(corpus, corpus.column(pred_column), table, scheme, mode,
                   side_name(pred_column))
        return (corpus.column(gold_column).astype(np.int64),
                corpus.column(pred_column).astype(np.int64),
                {"gold": _side(gold_spans.repairs, None),
                 "pred": _side(_snapped(corpus, pred_column), None)})
    if pred_spans is None:
        pred_spans = column_spans(corpus, pred_column, scheme, mode, table, flat=True)
    return (spans_codes(gold_spans, n, error_labels), spans_codes(pred_spans, n, error_labels),
            {"gold": _side(gold_spans.repairs, None), "pred": _side(pred_spans.repairs, None)})


def reads_spans(scheme, error_labels: str) -> bool:
    """Whether ``compared_codes`` reads the predictions as decoded spans (neither the
    reference code's own reading of IOB2 into BILOU nor ``bio``'s tags as they are)."""
    return error_labels != "bio" and not (error_labels == "bilou"
                                          and get_scheme(scheme).name == "IOB2")


def reference_codes(corpus: Corpus, column: str, table: LabelTable, scheme, mode: str):
    """BILOU codes of ``column`` read as the reference code reads it, and its repairs
    (``ReferenceRepairs``)."""
    check_tags(corpus, corpus.column(column), table, get_scheme(scheme), mode,
               side_name(column))
    start, end, type_, found = reference_mentions(corpus, column, table)
    return encode(start, end, type_, corpus.n_tokens, "bilou"), found


# The reference decoder's repair kinds, beside nerspan's in hardeval's ``repairs``.
REFERENCE_KINDS = ("dropped_inside", "mixed_type")


def _snapped(corpus: Corpus, column: str) -> Repairs:
    """The repairs of a column read without nerspan's decoding: span input widened to
    token boundaries (``snap=True``), the mentions type processing retyped or dropped
    (``type_map``, ``keep_types``, ``remove_types``), and what grounding generated
    predictions did (their ungrounded entities have no token: hardeval reports them,
    never scores), if any."""
    changed = {kind: getattr(corpus.source, kind).get(column, ()) for kind in CHANGE_KINDS}
    generated = corpus.source.generated.get(column)
    sentences = set().union(*changed.values(),
                            generated.sentences() if generated is not None else ())
    return Repairs(sentences=tuple(sorted(sentences))[:20], generated=generated,
                   sentence_numbers=corpus.source.sentence_numbers,
                   **{kind: len(sentences) for kind, sentences in changed.items()})


def _side(decoded: Repairs | None, reference: ReferenceRepairs | None) -> dict:
    """One column's repairs: nerspan's decoding (None: the column was not decoded by
    nerspan) and the reference decoder's (None: not used), sentences merged."""
    decoded, reference = decoded or Repairs(), reference or ReferenceRepairs()
    # merged as places, then named (to_dict: by gold's numbers where they differ)
    sentences = tuple(sorted(set(decoded.sentences) | set(reference.sentences)))[:20]
    out = replace(decoded, sentences=sentences).to_dict()
    out.update(dropped_inside=int(reference.dropped_inside),
               mixed_type=int(reference.mixed_type))
    return out


def label_names(codes: np.ndarray, convention: str, types: tuple, labels: tuple) -> list[str]:
    """Codes back to tag strings (for ``return_hard_tokens``)."""
    if convention == "bio":
        return [labels[c] for c in codes.tolist()]
    if convention == "io":
        return ["O" if c == 0 else f"I-{types[c - 1]}" for c in codes.tolist()]
    return ["O" if c == 0 else f"{BILOU[(c - 1) % 4]}-{types[(c - 1) // 4]}"
            for c in codes.tolist()]
