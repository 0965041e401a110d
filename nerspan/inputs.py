"""Normalising the input forms every family accepts into a ``Corpus`` or a ``TrainIndex``."""
from __future__ import annotations

import os

from .corpus import GOLD, PRED, Corpus
from .readers import read_columns
from .schemes import Scheme
from .train_index import TrainIndex


def as_corpus(references, predictions=None, tokens=None, label_list=None) -> Corpus:
    """A corpus with columns ``gold`` (and ``pred``) from any accepted input form.

    - a ``Corpus`` (``predictions`` then may be another corpus or tag lists);
    - lists of tag strings per sentence;
    - lists of label ids (or padded 2-D arrays) with ``label_list``: -100 positions dropped.
    """
    if isinstance(references, Corpus):
        corpus = references
        if predictions is None:
            return corpus
        if isinstance(predictions, Corpus):
            return corpus.select([GOLD]).with_columns(predictions.select(
                [PRED if PRED in predictions.columns else GOLD]), {GOLD: PRED})
        other = Corpus.from_tags(predictions)
        return corpus.select([GOLD]).with_columns(other, {GOLD: PRED})
    if label_list is not None:
        return Corpus.from_ids(references, predictions, label_list, tokens)
    return Corpus.from_tags(references, predictions, tokens)


def as_train_index(train, scheme: str | Scheme = "IOB2", mode: str = "lenient",
                   train_tags=None, **read_options) -> TrainIndex:
    """A ``TrainIndex`` from any accepted training-data form (built once).

    ``train`` may be a ``TrainIndex`` (returned as is), a ``Corpus`` with tokens, a
    ``datasets.Dataset`` split, a path to a column file (token first, tag last), or a list
    of token lists with ``train_tags`` (a list of tag lists).
    """
    if isinstance(train, TrainIndex):
        return train
    if isinstance(train, Corpus):
        corpus = train
    elif isinstance(train, (str, os.PathLike)):
        corpus = read_columns(train, **read_options)
    elif hasattr(train, "features") and hasattr(train, "column_names"):
        corpus = Corpus.from_dataset(train, **read_options)
    elif train_tags is not None:
        corpus = Corpus.from_tags(train_tags, tokens=train)
    elif isinstance(train, tuple) and len(train) == 2:
        corpus = Corpus.from_tags(train[1], tokens=train[0])
    else:
        raise TypeError("train must be a TrainIndex, a Corpus, a datasets split, a column "
                        "file path, or tokens with train_tags")
    return TrainIndex.build(corpus, GOLD, scheme, mode)
