"""Which test tokens are hard: unseen in training, or carrying an unusual label.

Every test token falls in exactly one of six leaf subsets, stored as a small integer
code per token (``OTHER`` ... ``DIFF_E``); the named subsets of the paper's table are
unions of leaves (``GROUPS``). The classification only needs, per token string, how
often training saw it outside a mention (``O``) and inside a mention of each type
(``I-TYPE``): ``nerspan.TrainIndex.io_counts``. k-fold classification derives the
counts of "all folds but one" by subtraction, so each fold costs one ``bincount``.
"""
from __future__ import annotations

import numpy as np

from nerspan import (GOLD, Corpus, Evaluation, InputTypeError, NerspanError, Spans, TrainIndex)
from nerspan.schemes import get_scheme
from nerspan.spans import LabelTable, column_spans
from nerspan.layers import (is_layered, layer_columns, refuse_layered_training,
                            refuse_layers)
from nerspan.migration import migrated

# Leaf subsets: one code per token.
OTHER, UNSEEN_I, UNSEEN_O, DIFF_I, DIFF_O, DIFF_E = range(6)
LEAF_NAMES = ("other", "unseen_i", "unseen_o", "diff_i", "diff_o", "diff_e")

# The paper's subsets (rows of its table) as unions of leaves, in report order. A
# subset's key is one word everywhere: ``subsets``, ``per_type`` rows, ``tokens``, the
# analyses; its TER is ``ter_`` + key (the paper writes unseen-I, diff-E: ``TITLES``).
GROUPS = {
    "all": (OTHER, UNSEEN_I, UNSEEN_O, DIFF_I, DIFF_O, DIFF_E),
    "unseen": (UNSEEN_I, UNSEEN_O),
    "unseen_i": (UNSEEN_I,),
    "unseen_o": (UNSEEN_O,),
    "diff": (DIFF_I, DIFF_O, DIFF_E),
    "diff_i": (DIFF_I,),
    "diff_o": (DIFF_O,),
    "diff_e": (DIFF_E,),
    "other": (OTHER,),
}

# How the paper (and the metric card's prose) writes each subset.
TITLES = {name: name.replace("_i", "-I").replace("_o", "-O").replace("_e", "-E")
          for name in GROUPS}
# The keys before issue 29 (unseen-I ...), still read where a subset is named.
OLD_NAMES = {title: name for name, title in TITLES.items() if title != name}
# A subset's column in every table of them, the page's and the terminal's: the paper's
# short name (unseen-I, diff-E), the union of the diff subsets by what it holds.
HEADERS = {**TITLES, "diff": "label-shifted"}
HEADER_LEGEND = ("unseen: test tokens never seen in training, inside a gold mention "
                 "(unseen-I) or outside (unseen-O); label-shifted: tokens whose most "
                 "frequent training label is another one: mostly O in training, in a mention "
                 "here (diff-I), mostly in mentions in training, O here (diff-O), mostly "
                 "another type (diff-E); other: every other token.")


def subset_name(name: str) -> str:
    """The key of a subset; an old key (``"diff-E"``) is an error naming the new one.

    >>> subset_name("unseen")
    'unseen'
    >>> subset_name("diff-E")
    Traceback (most recent call last):
    ...
    KeyError: "the subset 'diff-E' is 'diff_e' since nerlens 0.2"
    """
    if name in OLD_NAMES:
        raise KeyError(f"the subset {name!r} is {OLD_NAMES[name]!r} since nerlens 0.2")
    return name


class Subsets(dict):
    """Subset key -> its counts; an old key (``"diff-E"``) is an error naming the new one."""

    def __missing__(self, key):
        subset_name(key)   # an old key: the error naming the new one
        raise KeyError(key)


@migrated
def classify(rows: np.ndarray, counts: np.ndarray, gold_inside: np.ndarray,
             gold_column: np.ndarray, strict_diff: bool = False) -> np.ndarray:
    """The leaf subset code of every token.

    Args:
        rows: row of each token in ``counts``; -1 when the token string is unseen.
        counts: int ``[n_rows, 1 + n_types]``; column 0 counts ``O``, column ``1 + t``
            counts ``I-type t`` (``TrainIndex.io_counts``).
        gold_inside: whether each token's gold IO label is ``I-*``.
        gold_column: the ``counts`` column of each token's gold ``I-X``; -1 when the
            token is ``O`` or ``X`` never occurs in training (its count is then 0).
        strict_diff: a token is diff only if its gold label (``I``, ``O`` or ``I-X``)
            never occurs with it in training (the paper's strict variant).

    >>> counts = np.array([[5, 1, 0], [1, 3, 0], [0, 1, 2]])  # O, I-LOC, I-PER per row
    >>> rows = np.array([-1, 0, 1, 2, 2])
    >>> inside = np.array([True, True, False, True, True])
    >>> column = np.array([1, 1, -1, 1, 2])
    >>> [LEAF_NAMES[c] for c in classify(rows, counts, inside, column)]
    ['unseen_i', 'diff_i', 'diff_o', 'diff_e', 'other']
    >>> [LEAF_NAMES[c] for c in classify(rows, counts, inside, column, strict_diff=True)]
    ['unseen_i', 'other', 'other', 'other', 'other']
    """
    rows = np.asarray(rows, dtype=np.int64)
    gold_inside = np.asarray(gold_inside, dtype=bool)
    gold_column = np.asarray(gold_column, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    seen = rows >= 0
    row = np.where(seen, rows, 0)
    inside_counts = counts[:, 1:]
    o = counts[:, 0][row] if len(counts) else np.zeros(len(rows), dtype=np.int64)
    i = inside_counts.sum(axis=1)[row] if len(counts) else np.zeros_like(o)
    top = (inside_counts.max(axis=1) if inside_counts.shape[1] else
           np.zeros(len(counts), dtype=np.int64))[row] if len(counts) else np.zeros_like(o)
    known = gold_column > 0
    x = np.where(known, counts[row, np.where(known, gold_column, 0)] if len(counts) else 0, 0)

    diff_i = seen & gold_inside & (o > i)
    diff_o = seen & ~gold_inside & (i > o)
    diff_e = seen & gold_inside & (i >= o) & (x < top)   # ties (x == top) are never diff
    if strict_diff:
        diff_i &= i == 0
        diff_o &= o == 0
        diff_e &= x == 0
    codes = np.full(len(rows), OTHER, dtype=np.int8)
    codes[~seen & gold_inside] = UNSEEN_I
    codes[~seen & ~gold_inside] = UNSEEN_O
    codes[diff_i] = DIFF_I
    codes[diff_o] = DIFF_O
    codes[diff_e] = DIFF_E
    return codes


def gold_io(corpus: Corpus, column: str = GOLD, scheme: str = "IOB2", mode: str = "lenient",
            table: LabelTable | None = None, spans: Spans | None = None):
    """(io, types, spans): ``io[p]`` is 0 for ``O``, ``1 + t`` inside a mention of ``types[t]``;
    ``spans``, when given, are the column already decoded (a gold context's)."""
    if spans is None:
        table = table if table is not None else LabelTable.build(corpus.labels,
                                                                 get_scheme(scheme))
        spans = column_spans(corpus, column, scheme, mode, table, flat=True)
    return spans.io_codes(corpus.n_tokens), spans.types, spans


@migrated
def classify_tokens(corpus: Corpus, train: TrainIndex, scheme: str = "IOB2",
                    mode: str = "lenient", strict_diff: bool = False, column: str = GOLD,
                    spans: Spans | None = None, rows: np.ndarray | None = None
                    ) -> np.ndarray:
    """The leaf subset code of every token of ``corpus`` against the training index
    (``strict_diff``: see ``classify``).

    Token strings are compared case-sensitively; the gold mentions of ``column`` are
    decoded with ``scheme``/``mode`` (unless ``spans`` gives them decoded) and reduced
    to IO labels. ``rows``: each word's row in ``train`` when looked up already
    (``train.token_rows(corpus.vocab)``, as ``gold_word_rows`` keeps it).
    """
    if corpus.tokens is None:
        raise ValueError("hardeval needs the test tokens: pass tokens=... (one list of "
                         "words per sentence) or precomputed subsets=...")
    refuse_layered_training(train.layers, ONE_LAYER)
    io, types, _ = gold_io(corpus, column, scheme, mode, spans=spans)
    train_column = {t: 1 + i for i, t in enumerate(train.types)}
    to_train = np.array([0] + [train_column.get(t, -1) for t in types], dtype=np.int64)
    if rows is None:   # per test word
        rows = train.token_rows(corpus.vocab)
    table = train_cell_codes(train, strict_diff)
    if table is not None:   # the cell of each token's (word, gold label), looked up
        return table[rows[corpus.tokens], to_train[io]]
    # a label vocabulary of thousands of types: the tokens are classified one by one; a
    # vocabulary entry with no count (an index built from ``Corpus.subset`` keeps the
    # whole vocabulary) does not make a token seen
    seen = rows >= 0
    seen[seen] = train.io_counts.sum(axis=1)[rows[seen]] > 0
    return classify(np.where(seen, rows, -1)[corpus.tokens], train.io_counts, io > 0,
                    to_train[io], strict_diff)


def train_cell_codes(train: TrainIndex, strict_diff: bool = False) -> np.ndarray | None:
    """The leaf code of every (training word, gold label) cell, classified once per index
    and ``strict_diff`` and kept on it (``TrainIndex.derived``), so that each shard of a
    test set (or each evaluation) looks its tokens up instead of classifying its own
    words: rows are the index's words, then one row (the last, ``-1``) for a word
    unseen in training; columns are ``O``, each training type's ``I-type``, then one
    (the last, ``-1``) for a type training never saw. None when the table would hold
    more cells than the training data has tokens, past 65,536 (a label vocabulary of
    thousands of types): the caller then classifies the test tokens."""
    n_rows, width = len(train.io_counts) + 1, len(train.types) + 2
    if n_rows * width > max(train.corpus.n_tokens, 1 << 16):
        return None

    def build() -> np.ndarray:
        # a vocabulary entry with no count (an index built from ``Corpus.subset`` keeps
        # the whole vocabulary) does not make a word seen
        rows = np.arange(n_rows - 1, dtype=np.int64)
        rows = np.append(np.where(train.io_counts.sum(axis=1) > 0, rows, -1), -1)
        columns = np.append(np.arange(width - 1), -1)
        codes = classify(np.repeat(rows, width), train.io_counts,
                         np.tile(columns != 0, n_rows), np.tile(columns, n_rows),
                         strict_diff)
        return codes.reshape(n_rows, width)
    return train.derived(("hardeval.cell_codes", bool(strict_diff)), build)


# what hardeval says to gold with layers (nerspan.layers): never the first layer alone
ONE_LAYER = "hardeval (its token error rates are defined on one tag per token)"


def gold_token_classes(context: Evaluation, strict_diff: bool = False,
                       folds: tuple | None = None) -> np.ndarray:
    """The leaf subset code of every token of the context's corpus, classified once per
    context and ``strict_diff`` setting against the context's training index, or with
    ``folds`` (``(k, seed)``) by k-fold cross-validation over its gold
    (``kfold_subsets``)."""
    if folds is not None:
        return context.derived(
            ("hardeval.kfold_classes", folds, bool(strict_diff)),
            lambda: kfold_subsets(context.corpus, *folds, context.scheme, context.mode,
                                  strict_diff, context.gold_column))
    refuse_layers(context.corpus, context.gold_column, ONE_LAYER)
    if context.corpus.tokens is None:
        raise ValueError("hardeval needs the test tokens: pass tokens=... (one list of "
                         "words per sentence) or precomputed subsets=...")
    return context.derived(
        ("hardeval.token_classes", bool(strict_diff)),
        lambda: classify_tokens(context.corpus, context.train, context.scheme, context.mode,
                                strict_diff, context.gold_column, spans=context.gold,
                                rows=gold_word_rows(context)))


def gold_word_rows(context: Evaluation) -> np.ndarray:
    """The row of each word of the context's corpus in its training index (-1: unseen
    in training), looked up once per context: its classification (``classify_tokens``)
    and a shard's seen words (``partials._leaf_words``) both read them."""
    return context.derived("hardeval.word_rows",
                           lambda: context.train.token_rows(context.corpus.vocab))


@migrated
def kfold_subsets(corpus: Corpus, k: int = 10, seed: int = 0, scheme: str = "IOB2",
                  mode: str = "lenient", strict_diff: bool = False, column: str = GOLD
                  ) -> np.ndarray:
    """Leaf subset codes of every token, each fold classified against the other k-1 folds
    (``strict_diff``: see ``classify``).

    A sentence's fold comes from the seed and its place in the corpus (``kfold_folds``),
    so the folds are deterministic for a seed and do not depend on how the corpus is cut
    into shards (``hardeval.partial(..., options={"kfold": k})``). Pass the result as
    ``score(..., subsets=codes)`` to score predictions of a k-fold experiment without
    leaking the test fold into its own subsets.

    >>> from nerspan import Corpus
    >>> c = Corpus.from_tags([["B-PER"], ["B-PER"], ["O"], ["O"]],
    ...                      tokens=[["Kim"], ["Kim"], ["Kim"], ["Lee"]])
    >>> [LEAF_NAMES[code] for code in kfold_subsets(c, k=4)]
    ['other', 'other', 'diff_o', 'unseen_o']
    """
    if corpus.tokens is None:
        raise ValueError("k-fold subsets need the corpus tokens")
    if is_layered(corpus, column):
        raise InputTypeError(
            f"gold has {len(layer_columns(corpus, column))} layers, and kfold_subsets gives "
            "one code per token: hardeval.score(corpus, options={'kfold': k}) scores "
            "each layer by k-fold over that layer (hardeval.partial too, its shards "
            "merged), or read one layer (gold_tag_column / --gold-tag-column)")
    io, _, _ = gold_io(corpus, column, scheme, mode)
    fold_of_token = kfold_folds(corpus.n_sentences, k, seed)[corpus.sentence_of_position]
    return fold_classes(corpus.tokens.astype(np.int64), io, fold_of_token, k, strict_diff)


def fold_classes(word: np.ndarray, io: np.ndarray, fold: np.ndarray, k: int,
                 strict_diff: bool = False, weights: np.ndarray | None = None
                 ) -> np.ndarray:
    """The leaf code of each item (a token, or with ``weights`` a group of that many
    tokens): its ``word`` id and gold ``io`` code (``gold_io``) classified against the
    (word, io) counts of the items of the other folds (``fold``: 0..k-1). Each fold
    costs one ``bincount``: "all folds but one" is the total minus the fold."""
    width = int(io.max(initial=0)) + 1
    n_words = int(word.max(initial=-1)) + 1
    key = word * width + io

    def counted(where=None):
        chosen = key if where is None else key[where]
        chosen_weights = weights if where is None or weights is None else weights[where]
        return np.bincount(chosen, weights=chosen_weights,
                           minlength=n_words * width).astype(np.int64)

    total = counted()
    codes = np.empty(len(word), dtype=np.int8)
    for one in range(k):
        here = fold == one
        others = (total - counted(here)).reshape(n_words, width)
        rows = word[here]
        rows = np.where(others.sum(axis=1)[rows] > 0, rows, -1)
        codes[here] = classify(rows, others, io[here] > 0,
                               np.where(io[here] > 0, io[here], -1), strict_diff)
    return codes


def kfold_folds(n_sentences: int, k: int = 10, seed: int = 0) -> np.ndarray:
    """The fold (0..k-1) of every sentence of a corpus: ``sentence_folds`` of its ids.

    >>> sorted(np.bincount(kfold_folds(10, k=3, seed=1)).tolist())
    [3, 3, 4]
    """
    check_folds(n_sentences, k)
    return sentence_folds(np.arange(n_sentences), k, seed)


def kfold_summary(folds: tuple, n_sentences: int, codes: np.ndarray,
                  weights: np.ndarray | None = None) -> dict:
    """What k-fold subsets are (a result's ``kfold``): k, the seed (``folds``), the
    sentences of each fold (``kfold_folds``) and the tokens of each subset
    (``subset_shares`` of the ``codes``)."""
    k, seed = folds
    return {"k": k, "seed": seed,
            "fold_sentences": np.bincount(kfold_folds(n_sentences, k, seed),
                                          minlength=k).tolist(),
            "subsets": subset_shares(codes, weights)}


def subset_shares(codes: np.ndarray, weights: np.ndarray | None = None) -> dict:
    """Subset -> ``{"count": tokens, "share": of all tokens}`` (the paper's Table 4 sizes)
    of the leaf ``codes`` of tokens (``weights``: of groups of that many tokens).

    >>> subset_shares(np.array([0, 0, 1, 5]))["diff"]
    {'count': 1, 'share': 0.25}
    """
    leaf = np.bincount(np.asarray(codes, dtype=np.int64), weights=weights,
                       minlength=len(LEAF_NAMES))
    total = int(leaf.sum())
    return {name: count_share(int(leaf[list(leaves)].sum()), total)
            for name, leaves in GROUPS.items()}


def count_share(count: int, total: int) -> dict:
    return {"count": int(count), "share": count / total if total else None}


def check_folds(n_sentences: int, k: int) -> None:
    if not 2 <= k <= n_sentences:
        raise NerspanError(f"k must be between 2 and the number of sentences "
                           f"({n_sentences}), not {k}")


# splitmix64 (Steele et al. 2014): a sentence's key from the seed and its id, in uint64
# arithmetic that wraps around
_MIX = tuple(np.uint64(c) for c in (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9,
                                     0x94D049BB133111EB))


def _mixed(x: np.ndarray) -> np.ndarray:
    x = x + _MIX[0]
    x = (x ^ (x >> np.uint64(30))) * _MIX[1]
    x = (x ^ (x >> np.uint64(27))) * _MIX[2]
    return x ^ (x >> np.uint64(31))


def sentence_folds(sentence_ids, k: int, seed: int = 0) -> np.ndarray:
    """The fold (0..k-1) of each sentence, from ``seed`` and its global id alone.

    The ids are cut into blocks of ``k`` consecutive ids (0..k-1, k..2k-1, ...); a
    block's ids take the k folds in an order drawn from the seed and the ids (each id's
    splitmix64 key, the folds in the order of the keys). Folds differ in size by one
    sentence at most, and a sentence's fold does not depend on the other sentences, on
    their number nor on how the corpus is cut.

    >>> sentence_folds([7, 2], k=3).tolist() == kfold_folds(9, k=3)[[7, 2]].tolist()
    True
    """
    k = int(k)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"the fold seed is a non-negative integer, not {seed!r}")
    ids = np.asarray(sentence_ids, dtype=np.int64)
    folds = np.empty(len(ids), dtype=np.int64)
    seeded = _mixed(np.array([seed], dtype=np.uint64))[0]
    place = np.arange(k, dtype=np.int64)
    step = max(1, (1 << 20) // k)   # k keys per id: bounded memory on any corpus
    for at in range(0, len(ids), step):
        chunk = ids[at:at + step]
        first = chunk - chunk % k
        keys = _mixed((first[:, None] + place).astype(np.uint64) ^ seeded)
        own = keys[np.arange(len(chunk)), chunk - first][:, None]
        before = (keys < own) | ((keys == own) & (place < (chunk - first)[:, None]))
        folds[at:at + step] = before.sum(axis=1)
    return folds
