"""The training-set index: built once from a training corpus, reused by every evaluation.

It answers the questions the four methods ask of the training data:
- which mention texts occur, and with which types (and how often);
- how often each token string carries each IO label (``O`` or ``I-TYPE``);
- and any table a family derives from these (``derived``), built once and kept.
Case-insensitive variants are derived on first use and cached.
"""
from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np

from .corpus import GOLD, Corpus
from .errors import InputTypeError
from .schemes import Scheme
from .layers import decode_layers, in_types, nesting_layers
from .spans import Spans


def mention_texts(corpus: Corpus, spans: Spans, lowercase: bool = False) -> list[str]:
    """The text of every span: its tokens joined by one space.

    Each distinct token sequence is joined once (spans grouped by length, their token-id
    rows numbered by ``row_ids``): the Python work grows with the distinct texts, not
    with the mentions. A discontinuous mention's text is the words of its fragments,
    the fragments joined by one space too (``fragment_texts``).
    """
    if corpus.tokens is None:
        raise ValueError("this corpus has no tokens")
    if spans.has_fragments:
        return fragment_texts(corpus, spans, lowercase)
    words = [w.lower() for w in corpus.vocab] if lowercase else corpus.vocab
    texts = np.empty(len(spans), dtype=object)
    for length in np.unique(spans.length).tolist():
        members = np.flatnonzero(spans.length == length)
        rows = corpus.tokens[spans.start[members][:, None] + np.arange(max(length, 0))]
        first, inverse = row_ids(rows, len(corpus.vocab))
        joined = np.empty(len(first), dtype=object)
        joined[:] = [" ".join(map(words.__getitem__, row)) for row in rows[first].tolist()]
        texts[members] = joined[inverse]
    return texts.tolist()


def fragment_texts(corpus: Corpus, spans: Spans, lowercase: bool = False) -> list[str]:
    """``mention_texts`` of spans some of which are discontinuous: each such mention's
    fragments' texts joined by one space (a Python step per fragment, not per mention).

    >>> from nerspan import Corpus, Spans
    >>> c = Corpus.from_tags([["O", "O", "O"]], tokens=[["left", "and", "right"]])
    >>> one = np.array([0])
    >>> s = Spans(one * 0, one * 3, c.offsets, one * 0, ("X",),
    ...           fragments=(np.array([0, 0]), np.array([0, 2]), np.array([1, 3])))
    >>> fragment_texts(c, s)
    ['left right']
    """
    texts = mention_texts(corpus, dataclasses.replace(spans, fragments=None), lowercase)
    owner, start, end = spans.fragments
    pieces = mention_texts(corpus, dataclasses.replace(
        spans, start=start, end=end, type=np.zeros(len(owner), dtype=spans.type.dtype),
        fragments=None), lowercase)
    joined: dict = {}
    for mention, piece in zip(owner.tolist(), pieces):   # sorted by owner, then start
        joined.setdefault(mention, []).append(piece)
    for mention, parts in joined.items():
        texts[mention] = " ".join(parts)
    return texts


def row_ids(rows: np.ndarray, base: int) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)``: the first row of each distinct row of ``rows`` (n x L, values
    in ``[0, base)``) and each row's index into ``first``.

    Columns are folded into one int64 key per row (``key * base + value``); when the
    next fold could pass 2**62 the keys are first renumbered densely (``np.unique``), so
    any L works, and short rows cost one sort. Faster than ``np.unique(axis=0)``, which
    sorts rows as raw bytes.

    >>> first, inverse = row_ids(np.array([[1, 2], [0, 2], [1, 2]]), 3)
    >>> first.tolist(), inverse.tolist()
    ([1, 0], [1, 0, 1])
    """
    base = max(int(base), 1)
    keys = np.zeros(len(rows), dtype=np.int64)
    bound = 1   # every key is below this
    for column in rows.T:
        if bound * base >= 2**62:
            _, keys = np.unique(keys, return_inverse=True)
            keys, bound = keys.ravel().astype(np.int64), len(rows)
        keys = keys * base + column
        bound *= base
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first, inverse.ravel()


def types_that_occur(spans: Spans) -> Spans:
    """``spans`` with ``types`` narrowed to the types of its mentions (sorted as before).

    A label vocabulary may name far more types than the data holds (a model's
    ``id2label`` of 80,000 labels): tables per word and type stay as wide as the data.

    >>> from nerspan import Corpus, decode
    >>> c = Corpus.from_ids([[1, 0, 3]], None, ["O", "B-A", "B-B", "B-C"])
    >>> spans = types_that_occur(decode(c))
    >>> spans.types, spans.type.tolist()
    (('A', 'C'), [0, 1])
    """
    used = np.unique(spans.type)
    if len(used) == len(spans.types):
        return spans
    renumbered = np.searchsorted(used, spans.type).astype(spans.type.dtype)
    return dataclasses.replace(spans, type=renumbered,
                               types=tuple(spans.types[t] for t in used.tolist()))


@dataclass
class TrainIndex:
    """Index of a training corpus (tokens + gold tags).

    Attributes:
        corpus: the training corpus; ``spans``: its gold mentions.
        types: the entity types of the training data (of its mentions: not every type
            its label vocabulary may name).
        vocab: token string -> row of ``io_counts``.
        io_counts: int64 ``[len(vocab), 1 + len(types)]``; column 0 counts ``O``,
            column ``1 + t`` counts ``I-types[t]`` (tokens inside a mention of type t).
            When the training tags have layers (``nerspan.layers``; span lists that
            nest: ``nesting_layers``), the first layer's: a count per token needs one
            tag per token.
        layers: how many tag columns the training mentions (``spans``, every layer's,
            nested or not) come from; for span lists that nest, their depth
            (``nesting_layers``).
    """

    corpus: Corpus
    spans: Spans
    types: tuple
    vocab: dict
    io_counts: np.ndarray
    _cache: dict = field(default_factory=dict, repr=False)
    layers: int = 1

    @classmethod
    def build(cls, train: Corpus, column: str = GOLD, scheme: str | Scheme = "IOB2",
              mode: str = "lenient") -> "TrainIndex":
        """Index ``train`` (which must have tokens) once."""
        if train.tokens is None:
            raise InputTypeError("the training corpus needs tokens (a Corpus built with "
                                 "tokens=..., or train_tokens with train_tags)")
        # the training tags named as such in a warning or error (not "references")
        decoded = decode_layers(train, column, scheme, mode, named="training tags")
        spans = types_that_occur(decoded.union)
        # per token: of the first layer (a count per token needs one tag per token)
        n_layers, first = len(decoded.layers), spans
        if n_layers > 1:
            first = in_types(types_that_occur(decoded.layers[0]), spans.types)
        elif train.mentions(column) is not None:   # span lists that nest: their layers
            layer = nesting_layers(spans)
            n_layers = int(layer.max()) if len(layer) else 1
            first = spans.take(np.flatnonzero(layer == 1))
        io = first.io_codes(train.n_tokens)  # 0 = O, 1 + t = I-type t
        width = 1 + len(spans.types)
        counts = np.bincount(train.tokens.astype(np.int64) * width + io,
                             minlength=len(train.vocab) * width).reshape(len(train.vocab), width)
        vocab = {w: i for i, w in enumerate(train.vocab)}
        return cls(train, spans, spans.types, vocab, counts, layers=n_layers)

    # -- tokens --------------------------------------------------------------------------
    def token_rows(self, words, lowercase: bool = False) -> np.ndarray:
        """Row of each word in the (lowercased) count tables, -1 when unseen in training.

        Lowercased, a word found as written takes its training word's lowercased row
        (``_lower_rows``); only the others are lowercased and looked up: lowercasing
        makes a new string to hash per word (a shard's 9,000 words: 1.3x the time of
        looking them up as written first)."""
        # map over C-level methods: no Python frame per word; the rows found gathered in
        # a list and converted at once (np.fromiter, taking them one Python int at a
        # time, took 1.05x to 1.3x as long over a shard's 9,000 words: every shard of a
        # partial looks its own words up)
        rows = np.array(list(map(self.vocab.get, words, repeat(-1))), dtype=np.int64)
        if lowercase:
            found = rows >= 0
            rows[found] = self._lower_rows()[rows[found]]
            missed = np.flatnonzero(~found)
            keys = map(str.lower, map(words.__getitem__, missed.tolist()))
            rows[missed] = list(map(self._lower()["vocab"].get, keys, repeat(-1)))
        return rows

    def token_label_counts(self, lowercase: bool = False) -> np.ndarray:
        """``io_counts``, merged over case when ``lowercase``."""
        return self._lower()["io_counts"] if lowercase else self.io_counts

    def rows_for(self, corpus: Corpus, lowercase: bool = False) -> np.ndarray:
        """Row of every token of ``corpus`` in the count tables (-1 = unseen)."""
        if corpus.tokens is None:
            raise InputTypeError("the corpus needs tokens")
        return self.token_rows(corpus.vocab, lowercase)[corpus.tokens]

    # -- mentions ------------------------------------------------------------------------
    def mention_types(self, lowercase: bool = False) -> dict:
        """Mention text -> Counter of its types in training."""
        key = ("mentions", lowercase)
        if key not in self._cache:
            table = defaultdict(Counter)
            texts = mention_texts(self.corpus, self.spans, lowercase)
            for text, t in zip(texts, self.spans.type.tolist()):
                table[text][self.types[t]] += 1
            self._cache[key] = dict(table)
        return self._cache[key]

    @property
    def n_mentions(self) -> int:
        return len(self.spans)

    # -- derived tables ------------------------------------------------------------------
    def derived(self, key, build):
        """The table ``build()`` makes from this index, built on first use and kept.

        Families keep their own training-side tables here (``key`` names the family and
        its options), so every evaluation against one index reuses them.
        """
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def _lower_rows(self) -> np.ndarray:
        """The row in the lowercased tables of each word of the training vocabulary."""
        vocab = self._lower()["vocab"]
        return self.derived("lower_rows", lambda: np.array(
            [vocab[word.lower()] for word in self.corpus.vocab], dtype=np.int64))

    def _lower(self) -> dict:
        if "lower" not in self._cache:
            lower_vocab: dict = {}
            row = np.fromiter((lower_vocab.setdefault(w.lower(), len(lower_vocab))
                               for w in self.corpus.vocab), dtype=np.int64,
                              count=len(self.corpus.vocab))
            counts = np.zeros((len(lower_vocab), self.io_counts.shape[1]), dtype=np.int64)
            np.add.at(counts, row, self.io_counts)
            self._cache["lower"] = {"vocab": lower_vocab, "io_counts": counts}
        return self._cache["lower"]

