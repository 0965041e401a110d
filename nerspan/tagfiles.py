"""One tag column in, one tag column out: the sources of validate, repair, convert and count.

A source is lists of tags per sentence (with ``tokens``, optionally), a column of a
``Corpus``, or a column file (a path, or a ``TagFile`` saying which columns to read). A
file is read by ``nerspan.read_columns`` (its rules: blank lines end sentences,
``-DOCSTART-`` rows are document breaks), so that errors name its lines; a file
retagged by repair or convert is written back line for line, only the tag field of each
token row replaced: documents, comments, the other columns and the separators stay as
they were.
"""
from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from .corpus import GOLD, Corpus
from .reading.columns import DOCSTART, other_tag_columns, read_columns

TAGS = "tags"  # the corpus column a tag file is read into, and how errors name it
# What nerspan.reading.columns splits columns on: ASCII whitespace only (U+00A0 and the other
# Unicode spaces belong to a token).
_ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
_FIELD = re.compile(f"[^{re.escape(_ASCII_SPACE)}]+")
_DOCSTART_ROW = re.compile(
    f"[{re.escape(_ASCII_SPACE)}]*{re.escape(DOCSTART)}(?=[{re.escape(_ASCII_SPACE)}]|$)")


@dataclass(frozen=True)
class TagFile:
    """A column file read for one tag column: which columns, how its lines are read.

    ``tag_column`` and ``token_column`` index the columns (negative from the end; the
    defaults read ``token ... tag`` files: ``tag_column=None`` is the last column, not
    chosen: ``other_tag_columns`` names the other columns that hold tags);
    ``token_column=None`` reads no tokens.
    """

    path: str
    tag_column: int | None = None
    token_column: int | None = 0
    comment_prefix: str | None = None
    encoding: str = "utf-8"

    @property
    def column(self) -> int:
        """The index of the tag column read (negative from the end)."""
        return -1 if self.tag_column is None else self.tag_column

    def read(self) -> Corpus:
        """The file as a corpus with one tag column, ``"tags"``."""
        return read_columns(self.path, {TAGS: self.column}, token_column=self.token_column,
                            comment_prefix=self.comment_prefix, encoding=self.encoding)

    def other_tag_columns(self) -> dict:
        """Column -> the entity types it shares with the last one, for the other columns
        that hold tags (``nerspan.reading.columns.other_tag_columns``), when no ``tag_column``
        was chosen; else ``{}``."""
        if self.tag_column is not None:
            return {}
        return other_tag_columns(self.path, self.token_column, self.comment_prefix,
                                 self.encoding)

    def column_note(self, done: str = "read", does: str = "reads") -> str | None:
        """Which column was read, when no ``tag_column`` was chosen and another column
        holds tags of the same types (``other_tag_columns``), and how to read that one;
        None otherwise (``column_note``)."""
        return column_note(self.column, self.other_tag_columns(), done, does)

    def lines(self) -> Iterable[str]:
        """The file's lines, newlines kept (a byte-order mark dropped)."""
        with open(self.path, encoding=_reading_codec(self.encoding)) as handle:
            yield from handle

    def rewrite(self, out: str | os.PathLike, tags: Iterable[str]) -> None:
        """Write the file to ``out`` with the tag field of its token rows replaced by
        ``tags`` (one per token row, in order); every other line is copied. ``out`` is
        not this file: it is read as ``out`` is written."""
        if os.path.exists(out) and os.path.samefile(self.path, out):
            raise ValueError(f"{os.fspath(out)}: the file read is {self.path}; write to "
                             "another file")
        tags = iter(tags)
        with open(out, "w", encoding=_writing_codec(self.encoding)) as handle:
            handle.writelines(self._rewritten(self.lines(), tags))

    def _rewritten(self, lines: Iterable[str], tags) -> Iterable[str]:
        """The token rows as ``read_columns`` finds them: a comment only where a sentence
        may begin, a blank or ``-DOCSTART-`` row ends a sentence."""
        prefix, column, in_sentence = self.comment_prefix, self.column, False
        for line in lines:
            if not in_sentence and prefix is not None and line.startswith(prefix):
                yield line
                continue
            fields = line.split() if line.isascii() else _FIELD.findall(line)
            if not fields or fields[0] == DOCSTART:
                in_sentence = False
                yield line
                continue
            in_sentence = True
            if column == -1:  # the last field ends where the line's spaces begin
                head = line.rstrip(_ASCII_SPACE)
                cut = len(head) - len(fields[-1])
                yield head[:cut] + next(tags) + line[len(head):]
            else:
                yield _with_field(line, column, next(tags))

    def documents(self, corpus: Corpus) -> int:
        """How many documents hold the sentences of ``corpus`` (this file read): the
        ``-DOCSTART-`` rows part them, and a part without a sentence is no document (as
        seqscore counts them); a file without those rows is one document."""
        if not corpus.n_sentences:
            return 0
        return int(len(np.unique(self.sentence_documents(corpus))))

    def sentence_documents(self, corpus: Corpus) -> np.ndarray:
        """The document of every sentence of ``corpus`` (this file read): the number of
        ``-DOCSTART-`` rows above its first line (a part without a sentence skips a
        number)."""
        rows = [number for number, line in enumerate(self.lines(), 1)
                if DOCSTART in line and _DOCSTART_ROW.match(line)]
        return np.searchsorted(np.array(rows, dtype=np.int64), corpus.source.sentence_lines)


def _with_field(line: str, column: int, value: str) -> str:
    """``line`` with its field ``column`` replaced by ``value`` (a row starting with a
    tab has an empty first field, as ``read_columns`` reads it).

    >>> _with_field("Paris  NNP\\tB-LOC\\n", -1, "I-LOC")
    'Paris  NNP\\tI-LOC\\n'
    >>> _with_field("\\tO\\n", 0, "x")
    'x\\tO\\n'
    """
    spans = [m.span() for m in _FIELD.finditer(line)]
    if line[:1] == "\t":
        spans.insert(0, (0, 0))
    start, end = spans[column]
    return line[:start] + value + line[end:]


def _reading_codec(encoding: str) -> str:
    return "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding


def _writing_codec(encoding: str) -> str:
    return "utf-8" if codecs.lookup(encoding).name == "utf-8" else encoding


def column_note(tag_column: int, others: dict, done: str = "read", does: str = "reads"
                ) -> str | None:
    """The one line a reader of a tag file's results needs when another column than the
    one read (``tag_column``) holds tags of the same types (``others``: column -> the
    types, ``TagFile.other_tag_columns``): which was read, which other, and the option
    that reads it; None when ``others`` is empty.

    >>> column_note(-1, {1: ["PER"]})
    'read the last column; column 1 holds tags of the same types too (PER): tag_column=1 (--tag-column 1) reads it'
    """
    if not others:
        return None
    column, types = next(iter(others.items()))
    which = "the last column" if tag_column == -1 else f"column {tag_column}"
    return (f"{done} {which}; column {column} holds tags of the same types too "
            f"({', '.join(types[:5])}{', ...' if len(types) > 5 else ''}): "
            f"tag_column={column} (--tag-column {column}) {does} it")


def tag_source(source, *, column: str = GOLD, tokens=None, tag_column: int | None = None,
               token_column: int | None = 0, comment_prefix: str | None = None,
               encoding: str = "utf-8") -> tuple[Corpus, str, TagFile | None]:
    """``(corpus, column, file)`` for a source: a path or ``TagFile`` (read, column
    ``"tags"``), a ``Corpus`` (its ``column``), or lists of tags per sentence (column
    ``"gold"``, with ``tokens`` per sentence if given); ``file`` is None but for files.

    >>> corpus, column, file = tag_source([["B-PER", "O"]], tokens=[["Ann", "runs"]])
    >>> corpus.tags(column, 0), corpus.sentence_tokens(0), file
    (['B-PER', 'O'], ['Ann', 'runs'], None)
    """
    if isinstance(source, (str, os.PathLike)):
        source = TagFile(os.fspath(source), tag_column, token_column, comment_prefix,
                         encoding)
    if isinstance(source, TagFile):
        return source.read(), TAGS, source
    if isinstance(source, Corpus):
        source.column(column)  # a KeyError naming the columns it has
        return source, column, None
    return Corpus.from_tags(source, tokens=tokens, names={GOLD: TAGS}), GOLD, None


def write_tags(out: str | os.PathLike, corpus: Corpus, tags: list) -> None:
    """Write ``tags`` (per sentence) as a column file: ``token<TAB>tag`` rows (the tag
    alone without tokens), a blank line after each sentence."""
    with open(out, "w", encoding="utf-8") as handle:
        for i, sentence in enumerate(tags):
            words = corpus.sentence_tokens(i) if corpus.tokens is not None else None
            for k, tag in enumerate(sentence):
                handle.write(f"{words[k]}\t{tag}\n" if words is not None else f"{tag}\n")
            handle.write("\n")
