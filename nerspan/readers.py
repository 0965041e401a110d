"""Column files (CoNLL style) into a ``Corpus``.

One token per line, columns separated by any run of tabs or spaces; a blank line ends a
sentence; a ``-DOCSTART-`` line is a document break, never a token; lines starting with
``comment_prefix`` (e.g. ``#`` in GermEval) are skipped when it is given.
"""
from __future__ import annotations

import os
from typing import Mapping

import numpy as np

from .corpus import GOLD, PRED, Corpus, Interner, Source, _offsets
from .errors import EmptyInputError, FormatError

DOCSTART = "-DOCSTART-"


def read_columns(path: str | os.PathLike, columns: Mapping[str, int] | None = None,
                 token_column: int | None = 0, comment_prefix: str | None = None,
                 encoding: str = "utf-8", missing_tag: str | None = None) -> Corpus:
    """Read a column file.

    Args:
        columns: tag column name -> column index (negative counts from the end);
            default ``{"gold": -1}``.
        token_column: index of the token column, or None for no tokens.
        comment_prefix: skip lines starting with it (``"#"``); None keeps them as tokens.
        missing_tag: if given, a token line that lacks its last column gets this tag (the
            lines are listed in ``corpus.source.repaired_lines``); otherwise such a line
            is an error.

    Raises ``FormatError`` naming the file and line for a line with too few columns,
    ``EmptyInputError`` for a file without tokens.
    """
    columns = dict(columns or {GOLD: -1})
    path = os.fspath(path)
    needed = [c for c in list(columns.values()) + [token_column] if c is not None]
    # Columns counted from the start and from the end must not meet: "token ... gold pred"
    # with token 0, gold -2, pred -1 needs three columns, not two.
    from_start = max([c + 1 for c in needed if c >= 0], default=0)
    from_end = max([-c for c in needed if c < 0], default=0)
    min_width = max(from_start + from_end, 1)
    tags = {name: [] for name in columns}
    tokens: list = []
    lengths: list = []
    lines: list = []
    repaired: list = []  # lines that got missing_tag
    current = 0
    first_line = 0
    with open(path, encoding=encoding) as handle:
        for number, raw in enumerate(handle, 1):
            line = raw.rstrip("\r\n")
            if comment_prefix is not None and line.startswith(comment_prefix):
                continue
            fields = line.split()
            if not line.strip() or fields[0] == DOCSTART:
                if current:
                    lengths.append(current)
                    lines.append(first_line)
                    current = 0
                continue
            if len(fields) < min_width:
                if missing_tag is None or len(fields) != min_width - 1:
                    raise FormatError(
                        f"{len(fields)} column(s), need at least {min_width} "
                        f"(a token without a tag?): {line.strip()!r}", path=path, line=number,
                        sentence=len(lengths))
                fields = fields + [missing_tag]
                repaired.append(number)
            if current == 0:
                first_line = number
            current += 1
            if token_column is not None:
                tokens.append(fields[token_column])
            for name, index in columns.items():
                tags[name].append(fields[index])
    if current:
        lengths.append(current)
        lines.append(first_line)
    if not lengths:
        raise EmptyInputError("the file is empty: no token in it", path=path)
    offsets = _offsets(np.asarray(lengths, dtype=np.int64))
    label_index = Interner()
    interned = {name: _intern_flat(seq, label_index) for name, seq in tags.items()}
    token_ids, vocab = None, ()
    if token_column is not None:
        vocab_index = Interner()
        token_ids = _intern_flat(tokens, vocab_index)
        vocab = tuple(vocab_index)
    return Corpus(offsets, interned, tuple(label_index), token_ids, vocab,
                  Source(path, np.asarray(lines, dtype=np.int64), tuple(repaired)))


def read_system_file(path, comment_prefix=None) -> Corpus:
    """A ``token gold pred`` file (gold = second-to-last column, prediction = last)."""
    return read_columns(path, {GOLD: -2, PRED: -1}, comment_prefix=comment_prefix)


def _intern_flat(items: list, index: Interner) -> np.ndarray:
    return np.fromiter(map(index.__getitem__, items), dtype=np.int32, count=len(items))
