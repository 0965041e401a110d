"""List columns of Arrow arrays (``datasets`` splits) as flat NumPy arrays.

A ``datasets.Dataset`` stores a sequence column as an Arrow list array: one offsets
buffer and one values buffer. Integer values are read as a NumPy view and strings are
dictionary-encoded in Arrow, so no Python object is made per token; only the distinct
strings become Python strings.
"""
from __future__ import annotations

import numpy as np

from .errors import InputTypeError, InvalidTagError, NerspanError


def is_arrow(value) -> bool:
    """Whether ``value`` is a pyarrow array or chunked array (without importing pyarrow)."""
    return type(value).__module__.startswith("pyarrow") and hasattr(value, "type")


def dataset_column(dataset, name: str, side: str | None = None, what: str = "column"):
    """Column ``name`` of a datasets split as Arrow data (row selections applied); an
    error naming ``side`` when the split has no such column."""
    if name not in dataset.column_names:
        raise NerspanError(f"the split has no {what} {name!r}; its columns are "
                           f"{dataset.column_names}", side=side)
    if getattr(dataset, "_indices", True) is None and hasattr(dataset, "data"):
        # no row selection: the backing table's column as it is (``with_format`` copies
        # the split's metadata first, ~2.5 ms of the 9 ms a whole split took)
        return dataset.data.column(name)
    return dataset.with_format("arrow")[name]


def list_column(column, side: str) -> tuple:
    """``(values, lengths)`` of an Arrow list column: values as a flat Arrow array,
    lengths as int64 NumPy. A missing (null) sentence is an error naming ``side``."""
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if not (pa.types.is_list(column.type) or pa.types.is_large_list(column.type)
            or pa.types.is_fixed_size_list(column.type)):
        raise InputTypeError(f"{side} must be a list column (one list per sentence), "
                             f"not Arrow type {column.type}")
    if column.null_count:
        sentence = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0])
        raise InputTypeError("the sentence is None; expected a list of tags per sentence",
                             sentence=sentence, side=side)
    if pa.types.is_fixed_size_list(column.type):
        lengths = np.full(len(column), column.type.list_size, dtype=np.int64)
    else:  # offsets of a sliced array start above 0: lengths are their differences
        lengths = np.diff(column.offsets.to_numpy()).astype(np.int64)
    values = column.flatten()
    if pa.types.is_dictionary(values.type):  # categorical tags (pandas, Polars): the values
        values = values.dictionary_decode()
    return values, lengths


def null_error(values, lengths: np.ndarray, side: str, what: str = "tag"):
    """``InvalidTagError`` at the first null of ``values`` (the error path only)."""
    position = int(np.flatnonzero(values.is_null().to_numpy(zero_copy_only=False))[0])
    starts = np.concatenate([[0], np.cumsum(lengths)])
    sentence = int(np.searchsorted(starts, position, side="right") - 1)
    return InvalidTagError(f"None is not a {what}", sentence=sentence, side=side,
                           position=position - int(starts[sentence]))


def is_string_type(values) -> bool:
    """Whether Arrow ``values`` are strings (or nothing at all: only empty sentences)."""
    import pyarrow as pa

    kind = values.type
    return (pa.types.is_string(kind) or pa.types.is_large_string(kind)
            or (pa.types.is_null(kind) and len(values) == 0))


def integer_values(values, lengths: np.ndarray, side: str) -> np.ndarray | None:
    """Integer Arrow values as int64 NumPy (a view when they are int64); None when the
    values are not integers."""
    import pyarrow as pa

    if pa.types.is_null(values.type) and len(values) == 0:  # only empty sentences
        return np.zeros(0, dtype=np.int64)
    if not pa.types.is_integer(values.type):
        return None
    if values.null_count:
        raise null_error(values, lengths, side, "label id")
    return values.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)


def encoded_strings(values, lengths: np.ndarray, side: str, what: str = "tag"
                    ) -> tuple[np.ndarray, list]:
    """``(ids, distinct)``: string Arrow values dictionary-encoded in Arrow, in order of
    first appearance (as ``Corpus.from_tags`` interns them)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_null(values.type) and len(values) == 0:  # only empty sentences
        return np.zeros(0, dtype=np.int32), []
    if values.null_count:
        raise null_error(values, lengths, side, what)
    encoded = pc.dictionary_encode(values)
    ids = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
    return ids, encoded.dictionary.to_pylist()
