"""Normalising the input forms every family accepts into a ``Corpus`` or a ``TrainIndex``."""
from __future__ import annotations

import os

from .corpus import (GOLD, PRED, Corpus, _a, _interned_words, _offsets, as_label_list,
                     check_same_shape, side_name)
from .errors import InputTypeError, NerspanError, shown
from .input_options import input_options
from .readers import read_columns
from .schemes import Scheme
from .span_input import check_span_scheme, from_spans, span_sides
from .train_index import TrainIndex


@input_options(positional=("tokens", "label_list"))
def as_corpus(references, predictions=None, *, scheme=None, words: bool = True,
              inputs) -> Corpus:
    """A corpus with columns ``gold`` (and ``pred``) from any accepted input form.

    - a ``Corpus`` (``predictions`` then may be another corpus, tag lists or spans);
    - lists of tag strings per sentence;
    - lists of label ids (or padded 2-D arrays) with ``label_list``: -100 positions dropped;
    - a ``datasets`` split (``ner_tags`` and, if it has one, ``tokens`` columns) with
      predictions as a column name, an Arrow or NumPy array, or lists
      (``Corpus.from_dataset``);
    - span lists per sentence on either side (``nerspan.span_input.from_spans``); the
      input options (``nerspan.InputOptions``) say how each form is read.

    ``scheme``: the scheme the tags will be decoded with, checked against span input
    (which becomes IOB2 tags). ``words=False``: a split's token column is not read.

    Args:
        references, predictions: the two sides, in any of the forms above.
    """
    tokens, label_list = inputs.tokens, inputs.label_list
    if is_dataset(references):  # read through its Arrow buffers
        return _split_corpus(references, predictions, inputs, words)
    if label_list is None:
        forms = span_sides(references, predictions, inputs)
        if True in forms:
            if scheme is not None:
                check_span_scheme(scheme)
            return from_spans(references, predictions, inputs=inputs)
    if isinstance(references, Corpus):
        corpus = references
        if predictions is not None:
            if isinstance(predictions, Corpus):
                other = predictions.select([PRED if PRED in predictions.columns else GOLD])
            else:
                other = _predictions_corpus(predictions, label_list)
            corpus = corpus.select([GOLD]).with_columns(other, {GOLD: PRED})
        return corpus if tokens is None else with_tokens(corpus, tokens)
    if label_list is not None:
        return Corpus.from_ids(references, predictions, label_list, tokens)
    return Corpus.from_tags(references, predictions, tokens)


def _split_corpus(split, predictions, inputs, words: bool) -> Corpus:
    """A ``datasets`` split's corpus: ``tokens`` given are its words (its token column
    is then not read), else its ``tokens`` column if it has one and ``words`` are wanted."""
    if inputs.label_list is not None:
        check_split_labels(split, inputs.label_list)
    column = "tokens" if words and inputs.tokens is None and \
        "tokens" in split.column_names else None
    corpus = Corpus.from_dataset(split, tokens_column=column, predictions=predictions)
    return corpus if inputs.tokens is None else with_tokens(corpus, inputs.tokens)


def _predictions_corpus(predictions, label_list) -> Corpus:
    """The predictions given beside a ``Corpus``, as a corpus of their own (its gold
    column); errors name the predictions, not the references."""
    try:
        if label_list is not None:
            return Corpus.from_ids(predictions, label_list=label_list)
        return Corpus.from_tags(predictions)
    except NerspanError as error:
        if error.side == side_name(GOLD):
            raise error.on_side(side_name(PRED)) from None
        raise


def check_split_labels(split, label_list) -> None:
    """``label_list`` given with a split must be the names of its ClassLabel tags: its
    ids, and the predicted ids, are read with those names."""
    feature = split.features.get("ner_tags")
    names = getattr(getattr(feature, "feature", None), "names", None)
    labels = as_label_list(label_list)
    if names is not None and tuple(names) != labels:
        raise InputTypeError(f"label_list {shown(list(labels)[:10])} is not the split's "
                             f"ClassLabel names {shown(list(names)[:10])}, with which its "
                             "ids and the predicted ids are read")


@input_options(positional=("tokens", "label_list", "gold_column", "pred_column"))
def as_corpus_columns(references, predictions=None, *, scheme=None, words: bool = True,
                      inputs) -> tuple[Corpus, str, str]:
    """``as_corpus`` and the names of the gold and predicted columns to score.

    The given names apply to a ``Corpus`` passed alone (it may hold many columns);
    every other input form builds the columns ``GOLD`` and ``PRED``.
    """
    if predictions is None and not isinstance(references, Corpus):
        raise InputTypeError("predictions is None: pass the predicted tags (a list per "
                             "sentence), or a Corpus with a pred column as references")
    corpus = as_corpus(references, predictions, scheme=scheme, words=words, inputs=inputs)
    if isinstance(references, Corpus) and predictions is None:
        return corpus, inputs.gold_column, inputs.pred_column
    return corpus, GOLD, PRED


def is_dataset(value) -> bool:
    """Whether ``value`` is a ``datasets.Dataset`` split (duck-typed: no import).

    The class is asked first: on a split, reading ``features`` copies them (~0.7 ms).
    """
    return all(hasattr(type(value), name) for name in _DATASET_ATTRIBUTES) \
        or all(hasattr(value, name) for name in _DATASET_ATTRIBUTES)


_DATASET_ATTRIBUTES = ("features", "column_names", "with_format")


def with_tokens(corpus: Corpus, tokens) -> Corpus:
    """``corpus`` with the words ``tokens`` (lists per sentence) of the same shape."""
    token_ids, lengths, vocab = _interned_words(tokens)  # one pass; no tag column made up
    words = Corpus(_offsets(lengths), {}, (), token_ids, tuple(vocab))
    check_same_shape(corpus, words, "tokens")
    return Corpus(corpus.offsets, corpus.columns, corpus.labels, words.tokens, words.vocab,
                  corpus.source)


def as_train_index(train=None, scheme: str | Scheme = "IOB2", mode: str = "lenient",
                   train_tags=None, *, train_tokens=None, **read_options) -> TrainIndex:
    """A ``TrainIndex`` from any accepted training-data form (built once).

    ``train`` may be a ``TrainIndex`` (returned as is), a ``Corpus`` with tokens, a
    ``datasets.Dataset`` split, a path to a column file (token first, tag last), or a list
    of token lists with ``train_tags`` (a list of tag lists); or give ``train_tokens`` and
    ``train_tags`` instead of ``train``. ``read_options`` go to ``read_columns`` or
    ``Corpus.from_dataset``.
    """
    if train is None:
        if train_tokens is None:
            raise InputTypeError(f"training data is needed: pass train=... ({TRAIN_FORMS}) "
                                 "or train_tokens=... with train_tags=...")
        if train_tags is None:
            raise InputTypeError("train_tokens needs train_tags")
        if isinstance(train_tokens, (str, bytes, os.PathLike)):
            raise InputTypeError("train_tokens must be token lists per sentence, not "
                                 f"{shown(train_tokens)}: give a column file as train=...")
        train = train_tokens
    if isinstance(train, TrainIndex):
        return train
    try:
        return _train_index(train, scheme, mode, train_tags, read_options)
    except NerspanError as error:  # name the training data, not "references"
        raise error.on_side(TRAIN_SIDES.get(error.side, error.side)) from None


TRAIN_SIDES = {"references": "train_tags", "tokens": "train_tokens"}
# What train= may be, wherever it is taken (the Trainer helper takes train= only).
TRAIN_FORMS = ("a TrainIndex, a Corpus with tokens, a datasets split, a column file path, "
               "or a (train_tokens, train_tags) pair of lists per sentence")


_TRAIN_NAMES = {GOLD: "train_tags", "tokens": "train_tokens"}


def _train_index(train, scheme, mode, train_tags, read_options) -> TrainIndex:
    if isinstance(train, Corpus):
        corpus = train
    elif isinstance(train, (str, os.PathLike)):
        if train_tags is not None:  # a file holds its own tags
            raise InputTypeError(f"train is a column file ({shown(str(train))}): train_tags "
                                 "would not be read; give the file alone, or token lists")
        corpus = read_columns(train, **read_options)
    elif is_dataset(train):
        corpus = Corpus.from_dataset(train, **read_options)
    elif train_tags is not None:
        corpus = Corpus.from_tags(train_tags, tokens=train, names=_TRAIN_NAMES)
    elif isinstance(train, tuple) and len(train) == 2:
        corpus = Corpus.from_tags(train[1], tokens=train[0], names=_TRAIN_NAMES)
    else:
        raise InputTypeError(f"train must be {TRAIN_FORMS}, not {shown(train)} "
                             f"({_a(type(train).__name__)})")
    return TrainIndex.build(corpus, GOLD, scheme, mode)
