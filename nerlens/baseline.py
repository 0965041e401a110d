"""The memorisation baseline: every token gets its most frequent training tag.

A floor that any trained model should beat, and a sharp probe of the methods: it is
perfect on nothing unseen, so its recall on unseen mentions and its error rate on unseen
tokens show what memorising the training set alone achieves.
"""
from __future__ import annotations

import numpy as np

from nerspan import Corpus, TrainIndex
from nerspan.flat import GOLD

MEMORISATION_NOTE = (
    "memorisation is a baseline, not a model: each test token gets the tag it carried most "
    "often in training (a token never seen in training gets O). It can only find mentions "
    "made of training tokens, so it shows what memorising the training data alone "
    "achieves; any trained model should beat it.")


def memorisation_tags(train: TrainIndex, corpus: Corpus) -> np.ndarray:
    """Label ids (into ``corpus.labels`` extended as needed) of the baseline's tags.

    Each test token takes the tag it carried most often in training (exact, case-sensitive
    match; ties go to the tag seen first in training); an unseen token gets ``O``.
    Returns ``(ids, labels)`` where ``labels`` extends ``corpus.labels`` with any training
    tag it lacks.
    """
    train_corpus = train.corpus
    train_ids = train_corpus.column(GOLD).astype(np.int64)
    n_labels = len(train_corpus.labels)
    counts = np.bincount(train_corpus.tokens.astype(np.int64) * n_labels + train_ids,
                         minlength=len(train_corpus.vocab) * n_labels)
    best_train_label = counts.reshape(len(train_corpus.vocab), n_labels).argmax(axis=1)
    labels = list(corpus.labels)
    index = {label: i for i, label in enumerate(labels)}
    for label in list(train_corpus.labels) + ["O"]:
        if label not in index:
            index[label] = len(labels)
            labels.append(label)
    to_corpus_label = np.array([index[label] for label in train_corpus.labels], dtype=np.int32)
    rows = train.rows_for(corpus)
    ids = np.full(corpus.n_tokens, index["O"], dtype=np.int32)
    seen = rows >= 0
    ids[seen] = to_corpus_label[best_train_label[rows[seen]]]
    return ids, tuple(labels)


def with_memorisation_baseline(train: TrainIndex, corpus: Corpus, name: str = "memorisation") -> Corpus:
    """``corpus`` plus a tag column ``name`` holding the baseline's predictions."""
    ids, labels = memorisation_tags(train, corpus)
    return corpus.with_column(name, ids, labels)
