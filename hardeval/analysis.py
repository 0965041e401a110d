"""The paper's analyses beside the scores: ranked hard tokens and corpus statistics.

- ``hard_tokens``: per subset, the token strings that occur most often in it (the paper's
  section 3.2 lists them: e.g. United, Santa, New for diff-E on the CoNLL-2003 test set),
  with each system's errors on them (``systems_hard_tokens``: those of an evaluation's
  systems).
- ``corpus_statistics``: the statistics of the paper's Tables 1-2 (ambiguous tokens and
  mentions in training; unique and unseen-unique mentions of each evaluation set) and the
  share of evaluation tokens per subset (its Table 4).

Definitions where the paper is terse (the metric card repeats them):
- an *ambiguous token* is a token string seen with two or more IO labels (``O``, ``I-X``,
  ``I-Y`` ...) in the corpus; an *ambiguous mention* a mention text annotated with two or
  more types in the corpus (as the authors' data scripts count it); both are given as
  unique strings and as occurrences;
- a mention of an evaluation set is *unseen* when its text is no training mention text
  (case-sensitive), whatever its type.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from nerspan import GOLD, Corpus, Evaluation, TrainIndex
from nerspan.schemes import get_scheme
from nerspan.spans import LabelTable, column_spans
from nerspan.train_index import mention_texts

from .core import _compared_labels   # the one definition of an error
from .labels import check_error_labels
from .subsets import (GROUPS, classify_tokens, count_share, gold_io, subset_name,
                      subset_shares)


def hard_tokens(corpus: Corpus, codes: np.ndarray, wrong: Mapping[str, np.ndarray] | None = None,
                top: int = 10, subsets: Sequence[str] | None = None) -> dict:
    """Subset -> the ``top`` token strings most frequent in it, most frequent first.

    Args:
        corpus: the evaluation corpus (with tokens).
        codes: the leaf subset code of every token (``classify_tokens``, ``kfold_subsets``).
        wrong: system name -> boolean array, True where the system's label is an error
            (``token_errors``); each row then gives the system's errors on the token.
        top: how many tokens per subset (ties at the cut are broken by token string).
        subsets: names among ``GROUPS`` (default: every subset but ``all`` and ``other``).

    Each row: ``{"token", "count", "errors": {system: n}}``.

    >>> c = Corpus.from_tags([["B-LOC", "O", "B-LOC"]], tokens=[["Rome", "is", "Rome"]])
    >>> hard_tokens(c, np.array([1, 0, 1]), top=1, subsets=["unseen_i"])
    {'unseen_i': [{'token': 'Rome', 'count': 2, 'errors': {}}]}
    """
    if corpus.tokens is None:
        raise ValueError("hard tokens need the corpus tokens")
    if top < 1:
        raise ValueError(f"top must be at least 1, not {top}")
    names = list(map(subset_name, subsets)) if subsets is not None else [n for n in GROUPS
                                                        if n not in ("all", "other")]
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        raise ValueError(f"unknown subset(s) {unknown}; choose among {list(GROUPS)}")
    codes = np.asarray(codes, dtype=np.int64)
    n_vocab = len(corpus.vocab)
    tokens = corpus.tokens.astype(np.int64)
    wrong = dict(wrong or {})
    vocab = np.asarray(corpus.vocab, dtype=object)
    out = {}
    for name in names:
        here = np.isin(codes, GROUPS[name])
        counts = np.bincount(tokens[here], minlength=n_vocab)
        present = np.flatnonzero(counts)
        # most frequent first, then by token string: a stable order for ties
        order = present[np.lexsort((vocab[present].astype(str), -counts[present]))][:top]
        errors = {system: np.bincount(tokens[here & mask], minlength=n_vocab)
                  for system, mask in wrong.items()}
        out[name] = [{"token": str(vocab[t]), "count": int(counts[t]),
                      "errors": {s: int(e[t]) for s, e in errors.items()}} for t in order]
    return out


def systems_hard_tokens(context: Evaluation, results: Mapping[str, dict], codes: np.ndarray,
                        top: int, error_labels: str = "bilou") -> dict:
    """``hard_tokens`` of the gold of ``context`` (a ``nerspan.Evaluation``) with the
    errors of each system of ``results`` (name -> its result dict: its predictions are
    the corpus column ``pred_column``, else its name), as ``error_labels`` compares them."""
    wrong = {system: token_errors(context.corpus, result.get("pred_column", system), GOLD,
                                  context.scheme, context.mode, error_labels, context)
             for system, result in results.items()}
    return hard_tokens(context.corpus, codes, wrong, top)


def token_errors(corpus: Corpus, pred_column: str, gold_column: str = GOLD,
                 scheme: str = "IOB2", mode: str = "lenient",
                 error_labels: str = "bilou", context=None) -> np.ndarray:
    """True for every token whose compared label (``error_labels``) is wrong; the gold
    ``context`` of ``corpus`` (a ``nerspan.Evaluation``) gives its gold decoded once."""
    gold, pred, _, _ = _compared_labels(corpus, gold_column, pred_column, scheme, mode,
                                        check_error_labels(error_labels), context)
    return gold != pred


def corpus_statistics(train: TrainIndex, evaluation: Mapping[str, Corpus] | None = None,
                      scheme: str = "IOB2", mode: str = "lenient",
                      codes: Mapping[str, np.ndarray] | None = None) -> dict:
    """The statistics of the paper's Tables 1-2, and its Table 4 shares.

    Args:
        train: the training index.
        evaluation: name (e.g. ``"dev"``, ``"test"``) -> gold corpus with tokens, or a
            ``nerspan.Evaluation`` (its gold spans, decoded once, are used).
        codes: name -> leaf subset codes of that corpus (default: classified against
            ``train`` with ``classify_tokens``).

    Returns ``{"train": {...}, "<name>": {...}}``: for every corpus its sentences, tokens,
    mentions, unique mentions, ambiguous tokens and mentions; for the evaluation sets also
    unseen mentions and unique mentions (text never a training mention) and ``subsets``
    (``subset_shares``).
    """
    # the index's spans are the training column decoded once (with their own scheme and
    # mode, which must be those asked for to be used here)
    indexed = (train.spans.scheme, train.spans.mode) == (get_scheme(scheme).name, mode)
    out = {"train": _one_corpus(train.corpus, train.spans, scheme, mode, decoded=indexed)}
    known = set(mention_texts(train.corpus, train.spans))
    for name, corpus in (evaluation or {}).items():
        if isinstance(corpus, Evaluation):
            table, spans, corpus = corpus.table, corpus.gold, corpus.gold_corpus()
        else:
            table = LabelTable.build(corpus.labels, get_scheme(scheme))
            spans = column_spans(corpus, GOLD, scheme, mode, table, flat=True)
        row = _one_corpus(corpus, spans, scheme, mode, table, decoded=True)
        texts = mention_texts(corpus, spans)
        unseen = [t not in known for t in texts]
        unique_unseen = {t for t, u in zip(texts, unseen) if u}
        row.update(unseen_mentions=count_share(sum(unseen), len(texts)),
                   unseen_unique_mentions=count_share(len(unique_unseen), len(set(texts))))
        leaf_codes = (codes or {}).get(name)
        if leaf_codes is None:
            leaf_codes = classify_tokens(corpus, train, scheme, mode, spans=spans)
        row["subsets"] = subset_shares(leaf_codes)
        out[name] = row
    return out


def _one_corpus(corpus: Corpus, spans, scheme: str, mode: str, table=None,
                decoded: bool = False) -> dict:
    """The statistics of one corpus; ``decoded``: ``spans`` are its gold column decoded
    with ``scheme``, ``mode`` and ``table`` (else the column is decoded again)."""
    io, _, _ = gold_io(corpus, GOLD, scheme, mode, table, spans=spans if decoded else None)
    tokens = corpus.tokens.astype(np.int64)
    width = int(io.max(initial=0)) + 1
    pairs = np.unique(tokens * width + io)          # distinct (token, IO label)
    labels_per_token = np.bincount(pairs // width, minlength=len(corpus.vocab))
    ambiguous = labels_per_token >= 2
    present = labels_per_token > 0
    texts = mention_texts(corpus, spans)
    types_of: dict = {}
    for text, t in zip(texts, spans.type.tolist()):
        types_of.setdefault(text, set()).add(t)
    ambiguous_texts = {text for text, kinds in types_of.items() if len(kinds) >= 2}
    return {
        "sentences": corpus.n_sentences, "tokens": corpus.n_tokens,
        "mentions": len(texts), "unique_mentions": len(types_of),
        "ambiguous_tokens": count_share(int(ambiguous[tokens].sum()), corpus.n_tokens),
        "ambiguous_unique_tokens": count_share(int(ambiguous.sum()), int(present.sum())),
        "ambiguous_mentions": count_share(sum(t in ambiguous_texts for t in texts), len(texts)),
        "ambiguous_unique_mentions": count_share(len(ambiguous_texts), len(types_of)),
    }

