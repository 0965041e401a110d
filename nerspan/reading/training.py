"""Training data in any form, indexed once: ``as_train_index``.

``train`` may be a ``TrainIndex`` (taken as built), a ``Corpus`` with tokens, a
``datasets`` split, a column file (its tag column ``train_tag_column``, its tokens
``train_token_column`` of the input options' files part; without ``train_tag_column``,
the columns ``layers`` as layers when the file has them: every layer's mentions are
training mentions), or a ``(tokens, tags)`` or ``(tokens, span lists)`` pair of lists
per sentence (span lists may nest, overlap and have fragments: every span is a training
mention). The training tags are read as the gold and the predictions are: tags written
type first turned round (``suffix``), entity types processed (``keep_types``,
``remove_types``, ``type_map``), by ``nerspan.reading.forms.finished``.

>>> index = as_train_index(([["Kim", "runs"]], [["B-PER", "O"]]))
>>> index.corpus.n_tokens
2
"""
from __future__ import annotations

import os
from pathlib import Path

from ..corpus import Corpus
from ..errors import InputTypeError, NerspanError, shown
from ..flat import GOLD, _a
from ..layers import layer_column, layer_columns
from ..migration import migrated
from ..records import InputOptions
from ..schemes import Scheme
from ..train_index import TrainIndex
from .columns import read_columns, row_width
from .forms import finished, is_dataset
from .span_lists import from_spans, span_sides
from .systems import check_tags, read_training, warn_repairs

# What train= may be, wherever it is taken.
TRAIN_FORMS = ("a TrainIndex, a Corpus with tokens, a datasets split, a column file path, "
               "or a (tokens, tags) pair of lists per sentence (tags or span lists)")
# how an error about the training data names its sides
TRAIN_SIDES = {"references": "training tags", "tokens": "training tokens"}
_TRAIN_NAMES = {GOLD: "training tags", "tokens": "training tokens"}


@migrated
def as_train_index(train, scheme: str | Scheme = "IOB2", mode: str = "lenient", *,
                   inputs=None) -> TrainIndex:
    """A ``TrainIndex`` from any accepted training-data form (built once; a
    ``TrainIndex`` is returned as it is). ``inputs``: the input options
    (``nerspan.InputOptions`` or a dict): how a file is read, ``suffix`` and the type
    options, which apply to the training tags as to gold's."""
    if isinstance(train, TrainIndex):
        return train
    if train is None:
        raise InputTypeError(f"training data is needed: pass train=... ({TRAIN_FORMS})")
    inputs = InputOptions.of(inputs)
    try:
        read = _train_corpus(train, inputs)
        corpus = finished(read, layer_columns(read), inputs,
                          scheme.name if isinstance(scheme, Scheme) else scheme, mode,
                          check=False)   # its types are checked beside gold's
        return TrainIndex.build(corpus, GOLD, scheme, mode)
    except NerspanError as error:  # name the training data, not "references"
        raise error.on_side(TRAIN_SIDES.get(error.side, error.side)) from None


def _train_corpus(train, inputs: InputOptions) -> Corpus:
    files = inputs.files
    if isinstance(train, Corpus):
        return train
    if isinstance(train, (str, os.PathLike)):
        return read_columns(train, _train_columns(train, inputs),
                            token_column=files.train_token_column,
                            comment_prefix=files.comment_prefix, encoding=files.encoding,
                            missing_tag=files.missing_tag)
    if is_dataset(train):
        return Corpus.from_dataset(train, tags_column=files.tags_column,
                                   tokens_column=files.tokens_column)
    if isinstance(train, tuple) and len(train) == 2:
        if isinstance(train[0], (str, bytes, os.PathLike)):
            raise InputTypeError("train's tokens must be token lists per sentence, not "
                                 f"{shown(train[0])}: give a column file as train=...")
        if span_sides(train[1], words=train[0])[0]:   # every span a mention (may nest)
            return from_spans(train[1], tokens=train[0])
        return Corpus.from_tags(train[1], tokens=train[0], names=_TRAIN_NAMES)
    raise InputTypeError(f"train must be {TRAIN_FORMS}, not {shown(train)} "
                         f"({_a(type(train).__name__)})")


def read_training_file(path, *, scheme: str = "IOB2", mode: str = "lenient", inputs=None,
                       outside_scheme_is_error: bool = False, on_repairs=None) -> Corpus:
    """The training data of ``path`` as ``nerspan.reading.systems.read_training`` reads
    it (one tag column: ``train_tag_column``, default the last), except that with the
    input option ``layers`` (and no ``train_tag_column``) a column file that has those
    columns gives them as its layers, each checked: every layer's mentions are training
    mentions, inner ones included (GermEval's training file, read as its test file is).
    A file without them has one tag column: read as before."""
    inputs = InputOptions.of(inputs)
    files = inputs.files
    options = dict(scheme=scheme, mode=mode, inputs=inputs,
                   outside_scheme_is_error=outside_scheme_is_error, on_repairs=on_repairs)
    if (inputs.layers is None or files.train_tag_column is not None or Path(path).is_dir()
            or not _has_layers(path, inputs)):
        return read_training(path, **options)
    corpus = read_columns(path, _train_columns(path, inputs),
                          token_column=files.train_token_column,
                          comment_prefix=files.comment_prefix, encoding=files.encoding,
                          missing_tag=files.missing_tag)
    (on_repairs or warn_repairs)(corpus)
    for k, column in enumerate(layer_columns(corpus), 1):
        check_tags(corpus, column, scheme, mode, f"training layer {k}",
                   outside_scheme_is_error, inputs.suffix)
    return corpus


def _has_layers(path, inputs: InputOptions) -> bool:
    """Whether the column file ``path`` has every column of ``layers``."""
    width = row_width(path, inputs.files.encoding, inputs.files.comment_prefix)
    return all(-width <= column < width for column in inputs.layers)


def _train_columns(path, inputs: InputOptions) -> dict | None:
    """The tag columns of a training file: ``train_tag_column``; else, with ``layers``
    that the file has, those columns as its layers (every layer's mentions are training
    mentions); else the default (``read_columns``: the last column)."""
    if inputs.files.train_tag_column is not None:
        return {GOLD: inputs.files.train_tag_column}
    if inputs.layers is not None and _has_layers(path, inputs):
        return {layer_column(GOLD, k): column for k, column in enumerate(inputs.layers, 1)}
    return None


__all__ = ["as_train_index", "read_training_file", "TRAIN_FORMS"]
