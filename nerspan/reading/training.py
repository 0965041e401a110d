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
from ..errors import FormatError, InputTypeError, NerspanError, shown
from ..flat import GOLD, _a
from ..layers import layer_column, layer_columns
from ..migration import migrated
from ..records import InputOptions
from ..schemes import Scheme
from ..train_index import TrainIndex
from .columns import read_columns, row_width
from .forms import finished, is_dataset
from .span_lists import from_spans, span_sides
from .span_lists import read_span_jsonl
from .systems import (SPAN_OPTIONS, check_tags, file_form, load_saved_split,
                      span_errors_located, warn_repairs)

# What train= may be, wherever it is taken.
TRAIN_FORMS = ("a TrainIndex, a Corpus with tokens, a datasets split, a column file path, "
               "or a (tokens, tags) pair of lists per sentence (tags or span lists)")
# What a training file may be (--train, train=...).
TRAIN_FILES = ("a column file (token first, tag last), a JSON Lines span file with \"tokens\" "
               "or \"text\" per line, or a folder saved by a datasets split's save_to_disk")
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
        return _train_file(train, inputs)[0]
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


def _train_file(path, inputs: InputOptions, default_column: dict | None = None
                ) -> tuple[Corpus, str]:
    """A training file and its form, recognised as a prediction file's is: ``"saved"``, a
    folder saved by ``save_to_disk`` (its ``train`` split); ``"spans"``, a JSON Lines span
    file with its words (every span a training mention); ``"columns"``, a column file
    (``_train_columns``, else ``default_column``). Generated output is a model's answer,
    never training data."""
    files = inputs.files
    if Path(path).is_dir():
        return Corpus.from_dataset(load_saved_split(path, None, "train"),
                                   tags_column=files.tags_column,
                                   tokens_column=files.tokens_column), "saved"
    form = file_form(path, files.encoding)
    if form == "columns":
        return read_columns(path, _train_columns(path, inputs) or default_column,
                            token_column=files.train_token_column,
                            comment_prefix=files.comment_prefix, encoding=files.encoding,
                            missing_tag=files.missing_tag), form
    read = read_span_jsonl(path, files.encoding) if form == "spans" else None
    if read is None or (read["tokens"] is None and read["texts"] is None):
        what = "generated output (a model's answers)" if read is None else \
            "a span file without \"tokens\" or \"text\""
        raise FormatError(f"{what} is no training data: training data is {TRAIN_FILES}",
                          path=os.fspath(path))
    # read as a --jsonl span file is (offsets, snap, inclusive_end), errors naming its side
    spans = {name: inputs.value(name) for name in SPAN_OPTIONS}
    try:
        with span_errors_located(path, read, path, read):
            return from_spans(read["spans"], tokens=read["tokens"],
                              inputs={"texts": read["texts"], **spans}), form
    except NerspanError as error:
        raise error.on_side(TRAIN_SIDES.get(error.side, error.side)) from None


def read_training_file(path, *, scheme: str = "IOB2", mode: str = "lenient", inputs=None,
                       outside_scheme_is_error: bool = False, on_repairs=None) -> Corpus:
    """The training data of ``path`` as read for ``as_train_index`` to index
    (``_train_file``); a column file's rows filled by ``missing_tag`` told to
    ``on_repairs`` and its tags checked (``check_tags``; ``outside_scheme_is_error`` as
    for gold): one tag column (``train_tag_column``, default the last, never guessed), or
    with the input option ``layers`` (and no ``train_tag_column``) those columns as its
    layers when the file has them, each checked: every layer's mentions are training
    mentions, inner ones included (GermEval's training file, read as its test file is)."""
    inputs = InputOptions.of(inputs)
    corpus, form = _train_file(path, inputs, {GOLD: -1})
    if form != "columns":
        return corpus
    (on_repairs or warn_repairs)(corpus)
    layered = inputs.files.train_tag_column is None and _train_columns(path, inputs) is not None
    for k, column in enumerate(layer_columns(corpus), 1):
        check_tags(corpus, column, scheme, mode, f"training layer {k}" if layered else
                   "training", outside_scheme_is_error, inputs.suffix)
    return corpus


def read_training_index(path, *, scheme: str = "IOB2", mode: str = "lenient", inputs=None,
                        outside_scheme_is_error: bool = False, on_repairs=None) -> TrainIndex:
    """The training file ``path`` read and checked (``read_training_file``, the same
    keywords) and indexed (``as_train_index``): in one call, as a command line reads one."""
    return as_train_index(read_training_file(
        path, scheme=scheme, mode=mode, inputs=inputs, on_repairs=on_repairs,
        outside_scheme_is_error=outside_scheme_is_error), scheme, mode, inputs=inputs)


def _has_layers(path, inputs: InputOptions) -> bool:
    """Whether the column file ``path`` has every column of ``layers``."""
    width = row_width(path, inputs.files.encoding, inputs.files.comment_prefix)
    return all(-width <= column < width for column in inputs.layers)


def _train_columns(path, inputs: InputOptions) -> dict | None:
    """The tag columns of a training file: ``train_tag_column``; else, with ``layers``
    that the file has, those columns as its layers (every layer's mentions are training
    mentions); else None (the caller's default)."""
    if inputs.files.train_tag_column is not None:
        return {GOLD: inputs.files.train_tag_column}
    if inputs.layers is not None and _has_layers(path, inputs):
        return {layer_column(GOLD, k): column for k, column in enumerate(inputs.layers, 1)}
    return None


__all__ = ["as_train_index", "read_training_file", "read_training_index", "TRAIN_FORMS",
           "TRAIN_FILES"]
