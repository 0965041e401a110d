"""``Corpus.from_dataset`` and ``Corpus.from_arrow``: a ``datasets`` split, or Arrow list
arrays (what evaluate hands a module's ``_compute``), read through their Arrow buffers.

Tag and token columns are Arrow list arrays: their offsets give the sentence lengths,
integer values (``ClassLabel`` ids, label ids) are used as a NumPy view and strings are
dictionary-encoded in Arrow. Predictions come as another column, an Arrow array, a NumPy
array (padded 2-D or ragged) or lists; every form ends as flat ids over one label list,
which ``Corpus.from_dataset`` builds a corpus of as ``Corpus.from_ids`` does.
"""
from __future__ import annotations

import numpy as np

from .arrow_columns import (dataset_column, encoded_strings, integer_values, is_arrow,
                            is_string_type, list_column)
from .flat import (IGNORE_INDEX, Interner, _as_sentences, _flatten_ids, _intern, _integral_ids,
                   _lengths, as_label_list)
from .errors import (EmptyInputError, InputTypeError, LengthMismatchError, SentenceCountError,
                     counted)


def dataset_arrays(dataset, tags_column: str = "ner_tags",
                   tokens_column: str | None = "tokens", predictions=None,
                   ignore_index: int = IGNORE_INDEX) -> tuple:
    """``(references, predictions, labels, words, ignore_index)`` of a split, as
    ``Corpus._from_flat_ids`` takes them (see ``Corpus.from_dataset``): references and
    predictions as ``(flat ids, lengths)``, words as ``(flat ids, lengths, vocab)``;
    ``ignore_index`` None for tag strings (no id is ignored)."""
    tags = dataset_column(dataset, tags_column, "references", "tag column")
    if isinstance(predictions, str):
        predictions = dataset_column(dataset, predictions, "predictions")
    names = getattr(getattr(dataset.features[tags_column], "feature", None), "names", None)
    ref, pred, labels, ignore = arrow_arrays(tags, predictions, names, ignore_index)
    words = None
    if tokens_column:
        words = arrow_words(dataset_column(dataset, tokens_column, "tokens", "token column"))
    return ref, pred, labels, words, ignore


def arrow_arrays(references, predictions=None, label_list=None,
                 ignore_index: int = IGNORE_INDEX) -> tuple:
    """``(references, predictions, labels, ignore_index)`` of an Arrow list array of
    references and the predictions beside it, as ``Corpus._from_flat_ids`` takes them:
    tag strings (``ignore_index`` None: no id is ignored), or label ids named by
    ``label_list`` (the predictions may be tag strings of those names)."""
    values, lengths = list_column(references, "references")
    if len(lengths) == 0:
        raise EmptyInputError("references hold no sentence")
    if label_list is None:
        gold_ids, labels = _string_tags(values, lengths, "references")
        pred = None if predictions is None else _predicted_tags(predictions, labels, lengths)
        return (gold_ids, lengths), pred, tuple(labels), None
    labels = list(as_label_list(label_list))
    gold_ids = integer_values(values, lengths, "references")
    if gold_ids is None:
        raise InputTypeError(f"references must be label ids with label_list, not Arrow "
                             f"type {values.type}")
    pred = None if predictions is None else _predicted_ids(predictions, labels, lengths,
                                                          ignore_index)
    return (gold_ids, lengths), pred, tuple(labels), ignore_index


def arrow_words(tokens) -> tuple:
    """``(flat token ids, sentence lengths, vocab)`` of an Arrow list array of words."""
    values, lengths = list_column(tokens, "tokens")
    ids, vocab = encoded_strings(values, lengths, "tokens", "word")
    return ids, lengths, vocab


def _string_tags(values, lengths, side: str) -> tuple[np.ndarray, list]:
    if not is_string_type(values):
        raise InputTypeError(f"{side} must hold tag strings or ClassLabel ids (a ClassLabel "
                             f"sequence feature), not Arrow type {values.type}")
    return encoded_strings(values, lengths, side)


def _predicted_tags(predictions, labels: list, lengths) -> tuple:
    """Predicted tag strings as ``(ids, lengths)``; ``labels`` grows by their new tags."""
    if is_arrow(predictions):
        values, pred_lengths = list_column(predictions, "predictions")
        ids, distinct = _string_tags(values, pred_lengths, "predictions")
        index = Interner({label: i for i, label in enumerate(labels)})
        remap = np.array([index[tag] for tag in distinct] or [0], dtype=np.int32)
        labels[:] = list(index)
        return remap[ids], pred_lengths
    seqs = _as_sentences(predictions, "predictions")
    pred_lengths = _lengths(seqs)
    index = Interner({label: i for i, label in enumerate(labels)})
    ids = _intern(seqs, index, int(pred_lengths.sum()), "predictions")
    labels[:] = list(index)
    return ids, pred_lengths


def _predicted_ids(predictions, labels: list, lengths, ignore_index: int) -> tuple:
    """Predictions for ``ClassLabel`` gold as ``(ids, lengths)``; tag strings are mapped
    to ids (``labels`` grows by tags it lacks)."""
    if is_arrow(predictions):
        values, pred_lengths = list_column(predictions, "predictions")
        ids = integer_values(values, pred_lengths, "predictions")
        if ids is None:
            return _predicted_tags(predictions, labels, lengths)
        return ids, pred_lengths
    if isinstance(predictions, np.ndarray) and predictions.ndim == 2 \
            and predictions.dtype != object:
        return _unpadded(predictions, lengths, ignore_index), lengths
    seqs = _as_sentences(predictions, "predictions")
    first = next((seq[0] for seq in seqs if len(seq)), None)
    if isinstance(first, str):
        return _predicted_tags(seqs, labels, lengths)
    return _flatten_ids(seqs, "predictions")


def _unpadded(array: np.ndarray, lengths: np.ndarray, ignore_index: int) -> np.ndarray:
    """The first ``lengths[i]`` ids of every row of a padded 2-D array, flat; the rest of
    each row must be padding (``ignore_index``)."""
    n, width = array.shape
    if n != len(lengths):
        raise SentenceCountError(f"predictions hold {counted(n, 'sentence')}, references "
                                 f"{len(lengths)}")
    if len(lengths) and lengths.max() > width:
        i = int(np.argmax(lengths > width))
        raise LengthMismatchError(f"predictions have {counted(width, 'item')}, references "
                                  f"{int(lengths[i])}", sentence=i, side="predictions")
    # the smallest integer type that holds the width: 0.6 ms on 50k x 34, int64 1.5 ms
    small = np.min_scalar_type(width)
    inside = np.arange(width, dtype=small) < lengths.astype(small)[:, None]
    # padding holds only ignore_index when there are enough of them (an ignore_index
    # among the kept ids is caught by the label-list check instead)
    if np.count_nonzero(array == ignore_index) < array.size - int(lengths.sum()):
        i = int(np.argmax(((array != ignore_index) & ~inside).any(axis=1)))
        extra = int(np.count_nonzero(array[i] != ignore_index) - lengths[i])
        raise LengthMismatchError(
            f"predictions have {counted(extra, 'id')} beyond the "
            f"{counted(int(lengths[i]), 'token')} of the "
            f"reference (padding must be {ignore_index})", sentence=i, side="predictions")
    return _integral_ids(array[inside], lengths, "predictions")
