"""Column files (CoNLL style) into a ``Corpus``.

The rules, in one place:

- One token per row. Columns are separated by runs of ASCII whitespace (tabs, spaces);
  other Unicode spaces (U+00A0, ...) belong to the token. A row that starts with a tab
  has an empty first column (some systems print a token they cannot write as nothing).
- Every token row of a file has the same number of columns as its first token row: a
  row with more or fewer columns is an error naming the line, because counting columns
  from the end would silently read another column there (a token with a space in it).
  With ``missing_tag``, a row that lacks only its last column gets that tag instead; the
  rows are listed in ``corpus.source.repaired_lines``.
- A blank line ends a sentence; a ``-DOCSTART-`` row is a document break, never a token.
- With ``comment_prefix``, a line starting with it is a comment where a sentence can
  begin (at the start of the file, after a blank line, a ``-DOCSTART-`` row or another
  comment); inside a sentence it is a token row. GermEval 2014 puts a ``#\\t<url>`` line
  before each sentence, and system outputs hold real ``#`` tokens inside sentences.
  So the lines of one sentence are consecutive rows (``token_line`` relies on it).
- A UTF-8 byte-order mark at the start of the file is dropped, never part of a token.
- Bytes that do not decode raise ``FormatError`` naming the file, line and byte offset.
"""
from __future__ import annotations

import codecs
import os
from array import array
import re
import warnings
from typing import Mapping, Sequence

import numpy as np

from ..corpus import Corpus, Source
from ..flat import GOLD, PRED, Interner, _offsets, int32_array
from ..errors import (AmbiguousInputError, EmptyInputError, FormatError, TokenMismatchError,
                     TooFewColumnsError, counted)
from ..schemes import FALLBACK_PREFIXES, from_suffix, split_tag

DOCSTART = "-DOCSTART-"
SHOWN_CHARACTERS = 80  # an offending value is cut to this many characters in messages
COMPARE_BLOCK = 1 << 18  # tokens compared at once (token_mismatches)
_ASCII_SPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # what str.split() splits ASCII text on
_SEPARATORS = re.compile(f"[{re.escape(_ASCII_SPACE)}]+")
# What str.split() also splits on (str.isspace beyond ASCII): a chunk holding one is read
# line by line, where _split_unicode keeps these in the token.
_OTHER_SPACE = re.compile("[\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")
_IS_ASCII_SPACE = np.zeros(256, dtype=bool)  # byte -> is it one of _ASCII_SPACE
_IS_ASCII_SPACE[list(_ASCII_SPACE.encode("ascii"))] = True
COLUMNS_HINT = ("are the column indexes right? columns, token_column / --gold-tag-column, "
                "--pred-tag-column, --token-column")
# Token rows looked at to find the columns that may hold tags beside the last one
# (``columns=None``): a column with a value that is no tag among them is none.
PREFIX_ROWS = 100
# Characters read at once: a chunk's split fields (~60 bytes each) and NumPy passes add
# ~2 MiB to the peak memory (1 << 18: 8 MiB, 1 << 20: 18 MiB, and none was faster).
READ_CHUNK = 1 << 16


def read_columns(path: str | os.PathLike, columns: Mapping[str, int] | None = None,
                 token_column: int | None = 0, comment_prefix: str | None = None,
                 encoding: str = "utf-8", missing_tag: str | None = None,
                 keep_tokens: bool = True, reference: Corpus | None = None) -> Corpus:
    """Read a column file (the rules are in this module's docstring).

    Args:
        columns: tag column name -> column index (negative counts from the end);
            default ``{"gold": -1}``, then checked: when another column (not the
            token's) holds tags of the same entity types as the last one (a ``token
            gold prediction`` file, GermEval's outer and inner columns), which one is
            gold is not guessed: ``AmbiguousInputError``, naming the columns (give
            ``columns`` to choose; CoNLL-2003's chunk column, of other types, is no
            such column).
        token_column: index of the token column, or None for no tokens.
        keep_tokens: False: the token column still counts in every row's width (a row
            without it is an error, as with True) but its values are not read into the
            corpus (``corpus.tokens`` is None): a third less memory for a
            ``token gold pred`` file when no token check needs them.
        comment_prefix: skip comment lines starting with it (``"#"``) before sentences.
        encoding: the file's text encoding (default UTF-8, with or without a BOM).
        missing_tag: if given, a token row that lacks its last column gets this tag (the
            lines are listed in ``corpus.source.repaired_lines``); otherwise such a row
            is an error.
        reference: the corpus this file should match (a prediction file's gold): the
            file is read into its vocabularies (``corpus.labels`` and ``corpus.vocab``
            begin with ``reference``'s, the file's other tags and tokens follow in order
            of first appearance), so that ``Corpus.with_columns`` need not remap the tag
            ids; while the file's tokens are ``reference``'s, they are compared as they
            are read and ``corpus.tokens`` is a view of ``reference.tokens``, not a copy.

    Raises ``FormatError`` naming the file and line for a row with a wrong number of
    columns or bytes that do not decode, ``EmptyInputError`` for a file without tokens.
    """
    chosen = columns is not None
    columns = dict(columns or {GOLD: -1})
    path = os.fspath(path)
    if comment_prefix == "":
        raise ValueError("comment_prefix is empty: every line would be a comment; give the "
                         "characters comment lines start with, e.g. '#'")
    needed = [c for c in list(columns.values()) + [token_column] if c is not None]
    # Columns counted from the start and from the end must not meet: "token ... gold pred"
    # with token 0, gold -2, pred -1 needs three columns, not two.
    from_start = max([c + 1 for c in needed if c >= 0], default=0)
    from_end = max([-c for c in needed if c < 0], default=0)
    min_width = max(from_start + from_end, 1)
    if codecs.lookup(encoding).name == "utf-8":
        encoding = "utf-8-sig"  # the same codec, and a leading BOM is dropped
    keep_tokens = keep_tokens and token_column is not None
    # read beside the tag columns (never into the corpus): the columns that may hold tags
    others = [] if chosen else _tag_column_candidates(path, encoding, comment_prefix,
                                                      token_column)
    wanted = list(columns.values()) + others + ([token_column] if keep_tokens else [])
    try:
        with open(path, encoding=encoding) as handle:
            rows = _read_rows(handle, path, wanted, min_width, comment_prefix, missing_tag,
                              _Rows(len(wanted), reference if keep_tokens else None))
    except UnicodeDecodeError as error:
        raise undecodable_error(path, encoding, error) from None
    if not rows.lengths:
        raise EmptyInputError("the file is empty: no token in it", path=path)
    if others:
        check_gold_column(path, _shared_types(
            rows.interners[0], dict(zip(others, rows.interners[1:1 + len(others)]))))
    if len(rows.repaired) == len(rows.ids[0]):  # a repair of every row is none
        raise TooFewColumnsError(
            f"no row has {counted(min_width, 'column')}: missing_tag / --missing-tag gives "
            f"a tag to rows without one, not to a file without that column ({COLUMNS_HINT})",
            path=path, line=rows.repaired[0], sentence=0)
    labels, interned = _merged_labels(rows, list(columns),
                                      () if reference is None else reference.labels)
    token_ids, vocab = None, ()
    if keep_tokens:
        token_ids, vocab = rows.token_ids(), tuple(rows.interners[-1])
    offsets = _offsets(np.frombuffer(rows.lengths, dtype=np.int64))
    return Corpus(offsets, interned, labels, token_ids, vocab,
                  Source(path, np.frombuffer(rows.lines, dtype=np.int64),
                         tuple(rows.repaired)))


class _Rows:
    """What ``_read_rows`` gathers: per wanted column its ids (``array('i')``) and the
    ``Interner`` they index; sentence lengths and first lines (``array('q')``); lines
    that got ``missing_tag``. With a ``reference`` corpus holding tokens, the last
    column (the tokens) is interned into its vocabulary and compared with its tokens
    (``_SameTokens``)."""

    def __init__(self, n_columns: int, reference: Corpus | None = None):
        self.ids = [array("i") for _ in range(n_columns)]
        self.interners = [Interner() for _ in range(n_columns)]
        self.lengths, self.lines, self.repaired = array("q"), array("q"), []
        self.same_tokens = None
        if reference is not None and reference.tokens is not None:
            self.interners[-1] = Interner({word: i for i, word in enumerate(reference.vocab)})
            if reference.tokens.dtype == np.int32:  # so that a view of them is int32 too
                self.same_tokens = _SameTokens(reference.tokens, self.ids[-1])

    def token_ids(self) -> np.ndarray:
        """The ids of the last column, the tokens."""
        if self.same_tokens is None:
            return int32_array(self.ids[-1])
        return self.same_tokens.ids()


class _SameTokens:
    """Token ids read against ``reference`` tokens, in its vocabulary. ``check`` (called
    between sentences once ``block``, the ids read since the last check, holds
    ``COMPARE_BLOCK`` of them) compares and empties the block while the file's tokens
    are the reference's; from the first difference on, every id is kept in ``own``."""

    def __init__(self, reference: np.ndarray, block: array):
        self.reference, self.block = reference, block
        self.same = 0  # how many leading tokens are the reference's
        self.own = None  # array('i') of every id read, once one differs

    def check(self) -> None:
        if self.own is None:
            ids = np.array(self.block, dtype=np.int32)  # a copy: a view would pin the block
            if np.array_equal(ids, self.reference[self.same:self.same + len(ids)]):
                self.same += len(ids)
            else:
                self.own = array("i", self.reference[:self.same].astype(np.int32).tobytes())
        if self.own is not None:
            self.own.extend(self.block)
        del self.block[:]

    def ids(self) -> np.ndarray:
        """Every id read: a view of the reference's while they are the same."""
        self.check()
        if self.own is None:
            return self.reference[:self.same]
        return int32_array(self.own)


def _read_rows(handle, path, wanted, min_width, comment_prefix, missing_tag,
               rows: _Rows) -> _Rows:
    """Stream the rows of ``handle`` into ``rows``: every wanted value is interned as it
    is read, so only integer arrays grow with the file (one id per token and column).

    The text is read ``READ_CHUNK`` characters at a time, cut after its last newline;
    a chunk of plain rows is split and interned in C (``_RowReader.plain_chunk``), any
    other chunk line by line (``_RowReader.lines``), which also names the line of an
    error.
    """
    reader = _RowReader(rows, path, wanted, min_width, comment_prefix, missing_tag,
                        handle.encoding)
    number, rest = 0, []  # lines read; the text after the last newline, in pieces
    while text := handle.read(READ_CHUNK):
        cut = text.rfind("\n") + 1
        if not cut:  # inside a long line: joined once it ends (no quadratic copying)
            rest.append(text)
            continue
        chunk = "".join(rest) + text[:cut]
        rest = [text[cut:]]
        if not reader.plain_chunk(chunk, number):
            reader.lines(chunk.split("\n")[:-1], number)
        number += chunk.count("\n")
    if rest := "".join(rest):  # a last line without a newline
        reader.lines([rest], number)
    if reader.current:
        rows.lengths.append(reader.current)
    return rows


class _RowReader:
    """The reading of ``_read_rows``, chunk after chunk: the row width (set by the first
    token row) and the tokens of the sentence being read carry over."""

    def __init__(self, rows, path, wanted, min_width, comment_prefix, missing_tag,
                 encoding):
        self.rows, self.path, self.wanted, self.min_width = rows, path, wanted, min_width
        self.comment_prefix, self.missing_tag = comment_prefix, missing_tag
        self.encoding = encoding
        self.width = self.first = None  # of the first token row: width; (line, first field)
        self.current = 0  # tokens of the sentence being read

    def lines(self, texts: list, number: int) -> None:
        """Read the lines ``texts`` (without newlines), the first one line ``number + 1``."""
        rows, comment_prefix, missing_tag = self.rows, self.comment_prefix, self.missing_tag
        sinks = [(index, ids.append, interner.__getitem__)
                 for index, ids, interner in zip(self.wanted, rows.ids, rows.interners)]
        lengths, lines, repaired = rows.lengths, rows.lines, rows.repaired
        checked = rows.same_tokens
        current, width = self.current, self.width
        for number, line in enumerate(texts, number + 1):
            if current == 0 and comment_prefix is not None and line.startswith(comment_prefix):
                continue
            fields = line.split() if line.isascii() else _split_unicode(line)
            if not fields or fields[0] == DOCSTART:
                if current:
                    lengths.append(current)
                    current = 0
                    if checked and len(checked.block) >= COMPARE_BLOCK:
                        checked.check()
                continue
            if line[0] == "\t":
                fields.insert(0, "")
            if width is None:
                width = self.width = max(len(fields), self.min_width)
                self.first = (number, fields[0])
            if len(fields) != width:
                if not (missing_tag is not None and len(fields) == width - 1):
                    raise self.width_error(fields, line, number, len(lengths))
                fields.append(missing_tag)
                repaired.append(number)
            if current == 0:
                lines.append(number)
            current += 1
            for index, append, intern in sinks:
                append(intern(fields[index]))
        self.current = current

    def plain_chunk(self, chunk: str, number: int) -> bool:
        """Read ``chunk`` (whole lines, the first one line ``number + 1``) in C if its
        rows are plain: no comment prefix, no leading tab, no space but ASCII's, every
        token row as wide as the first; False (nothing read) otherwise."""
        prefix = self.comment_prefix
        if (chunk[0] == "\t" or "\n\t" in chunk or (prefix is not None and prefix in chunk)
                or (not chunk.isascii() and _OTHER_SPACE.search(chunk))):
            return False
        counts, document_breaks = _line_fields(chunk)
        fields = chunk.split()
        if document_breaks.any():  # blank rows, as far as sentences go
            ends = np.cumsum(counts)
            for line in np.flatnonzero(document_breaks)[::-1].tolist():
                del fields[ends[line] - counts[line]:ends[line]]
            counts[document_breaks] = 0
        token_lines = np.flatnonzero(counts)
        if len(token_lines):
            width = self.width or max(int(counts[token_lines[0]]), self.min_width)
            if np.any(counts[token_lines] != width):
                return False
            if self.width is None:
                self.width, self.first = width, (number + int(token_lines[0]) + 1, fields[0])
            rows = self.rows
            for index, ids, interner in zip(self.wanted, rows.ids, rows.interners):
                values = fields[index % width::width]
                ids.frombytes(np.fromiter(map(interner.__getitem__, values), dtype=np.int32,
                                          count=len(values)).tobytes())
            del fields  # before the token check: the chunk's strings are no longer needed
            if rows.same_tokens and len(rows.same_tokens.block) >= COMPARE_BLOCK:
                rows.same_tokens.check()
        self.sentences(token_lines, len(counts), number)
        return True

    def sentences(self, token_lines: np.ndarray, n_lines: int, number: int) -> None:
        """The sentence lengths and first lines of a chunk of ``n_lines`` lines whose
        token rows are ``token_lines`` (0-based in the chunk): a run of token rows is a
        sentence; the one open before the chunk goes on if the chunk starts with a token
        row, and the last one stays open if the chunk ends with one."""
        rows, current = self.rows, self.current
        if not len(token_lines):
            if current and n_lines:
                rows.lengths.append(current)
                self.current = 0
            return
        runs = np.concatenate([[0], np.flatnonzero(np.diff(token_lines) > 1) + 1])
        sizes = np.diff(runs, append=len(token_lines)).tolist()
        firsts = (token_lines[runs] + (number + 1)).tolist()
        if current and token_lines[0] == 0:  # the open sentence goes on
            sizes[0] += current
            firsts = firsts[1:]
        elif current:
            rows.lengths.append(current)
        self.current = sizes.pop() if token_lines[-1] == n_lines - 1 else 0
        rows.lines.extend(firsts)
        rows.lengths.extend(sizes)

    def width_error(self, fields, line, number, sentence) -> FormatError:
        """The error of a token row whose width is not the first token row's. A short
        first row is the file's width when no row is wider: the file lacks a column
        (``TooFewColumnsError``), and filling rows (``missing_tag``) is no remedy."""
        (first_row, first_field), width, min_width = self.first, self.width, self.min_width
        error, have = FormatError, counted(len(fields), "column")
        if len(fields) < min_width and number == first_row \
                and _widest_row(self.path, self.encoding, self.comment_prefix) < min_width:
            error, problem = TooFewColumnsError, (f"{have}, and no row has {min_width} "
                                                  f"({COLUMNS_HINT})")
        elif len(fields) < min_width:
            hint = ("a row without its tag? missing_tag / --missing-tag gives such rows a "
                    "tag" if len(fields) == min_width - 1 else COLUMNS_HINT)
            problem = f"{have}, need at least {min_width} ({hint})"
        else:
            problem = (f"{have}, but line {first_row} has {width}: every row of a column "
                       "file needs the same columns (a token with a space in it?")
            problem += (" comment lines? give comment_prefix / --comment-prefix)"
                        if first_field.startswith("#") or fields[0].startswith("#") else ")")
        return error(f"{problem}: {shown(line.strip())}", path=self.path, line=number,
                     sentence=sentence)


def _tag_column_candidates(path: str, encoding: str, comment_prefix: str | None,
                           token_column: int | None) -> list:
    """The columns (0-based, never the token's nor the last) whose values in the first
    ``PREFIX_ROWS`` token rows are all tags: those that may hold tags beside the last."""
    rows = _first_token_rows(path, encoding, comment_prefix)
    width = len(rows[0]) if rows else 0
    if width < 3 or any(len(row) != width for row in rows):  # reading names a bad row
        return []
    token = None if token_column is None or not -width <= token_column < width \
        else token_column % width
    return [k for k in range(width - 1)
            if k != token and tag_types({row[k] for row in rows}) is not None]


def _first_token_rows(path: str, encoding: str, comment_prefix: str | None) -> list:
    """The fields of the first ``PREFIX_ROWS`` token rows of ``path`` (fewer if the file
    is shorter or stops decoding there: reading it names the problem)."""
    rows, in_sentence = [], False
    try:
        with open(path, encoding=encoding) as handle:
            for line in handle:
                if not in_sentence and comment_prefix is not None \
                        and line.startswith(comment_prefix):
                    continue
                fields = line.split() if line.isascii() else _split_unicode(line)
                in_sentence = bool(fields) and fields[0] != DOCSTART
                if in_sentence:
                    rows.append(([""] if line[0] == "\t" else []) + fields)
                    if len(rows) == PREFIX_ROWS:
                        break
    except UnicodeDecodeError:
        pass
    return rows


def row_width(path, encoding: str = "utf-8", comment_prefix: str | None = None) -> int:
    """The number of columns of the first token row of ``path`` (0: no token row)."""
    if codecs.lookup(encoding).name == "utf-8":
        encoding = "utf-8-sig"
    rows = _first_token_rows(os.fspath(path), encoding, comment_prefix)
    return len(rows[0]) if rows else 0


def tag_types(values) -> set | None:
    """The entity types of ``values`` if every one is a tag (``O`` or ``PREFIX-TYPE``,
    or all of them written type first, ``TYPE-PREFIX``), else None.

    >>> sorted(tag_types({"B-PER", "I-PER", "O", "B-LOC"})), tag_types({"NN", "O"})
    (['LOC', 'PER'], None)
    >>> sorted(tag_types({"PER-B", "O"}))
    ['PER']
    """
    for read in (str, from_suffix):
        types = set()
        for value in values:
            prefix, entity_type = split_tag(read(value))
            if value != "O" and (prefix == "O" or prefix not in FALLBACK_PREFIXES):
                break
            if value != "O":
                types.add(entity_type)
        else:
            return types
    return None


def other_tag_columns(path: str | os.PathLike, token_column: int | None = 0,
                      comment_prefix: str | None = None, encoding: str = "utf-8") -> dict:
    """Column (0-based) -> the entity types it shares with the last column, for every
    other column of the file (not the token's) that holds tags: what ``read_columns``
    refuses to guess past when no column is given (read again, only when the first rows
    show such a column): ``{1: ['PER']}`` for a ``token gold prediction`` file whose
    columns share the type PER.
    """
    path = os.fspath(path)
    if codecs.lookup(encoding).name == "utf-8":
        encoding = "utf-8-sig"
    candidates = _tag_column_candidates(path, encoding, comment_prefix, token_column)
    if not candidates:
        return {}
    corpus = read_columns(path, {GOLD: -1, **{str(k): k for k in candidates}},
                          token_column=token_column, comment_prefix=comment_prefix,
                          encoding=encoding, keep_tokens=False)
    values = {name: [corpus.labels[k] for k in np.unique(ids).tolist()]
              for name, ids in corpus.columns.items()}
    return _shared_types(values.pop(GOLD), {int(name): v for name, v in values.items()})


def _shared_types(gold, others: dict) -> dict:
    """Column -> the types its tags (``others[column]``, values) share with ``gold``'s
    (the values of the last column), for the columns that share any."""
    gold_types = tag_types(gold)
    if not gold_types:  # no tag, or no typed one: nothing to mistake
        return {}
    shared = {column: sorted(gold_types & (tag_types(values) or set()))
              for column, values in others.items()}
    return {column: types for column, types in shared.items() if types}


def check_gold_column(path: str, others: dict) -> None:
    """Refuse reading gold from the last column of ``path`` when ``others`` (column ->
    the entity types it shares with it, ``other_tag_columns``) names another column."""
    if not others:
        return
    column, shared = next(iter(others.items()))
    raise AmbiguousInputError(
        f"gold is read from the last column, and column {column} holds tags of the same "
        f"entity types ({', '.join(shared[:5])}{', ...' if len(shared) > 5 else ''}): a "
        f"file of tokens, gold and predicted tags? Say which column is gold's: "
        f"columns={{'gold': {column}}} / gold_tag_column={column} / --gold-tag-column "
        f"{column} (-1: the last); a file of gold and predictions is scored given alone "
        "(GOLD without PRED; nerspan.read_system_file)", path=path)


def _line_fields(chunk: str) -> tuple[np.ndarray, np.ndarray]:
    """Per line of ``chunk`` (whole lines, no space but ASCII's): how many fields
    ``str.split`` finds in it, and whether its first field is ``-DOCSTART-``."""
    data = chunk.encode("utf-8", "surrogatepass")  # any other character: bytes >= 0x80
    text = np.frombuffer(data, dtype=np.uint8)
    space = _IS_ASCII_SPACE[text]
    starts = ~space
    starts[1:] &= space[:-1]  # a field starts after a space or at the chunk's start
    newlines = np.flatnonzero(text == 10)
    fields_so_far = np.cumsum(starts, dtype=np.int32)  # fields started up to each byte
    counts = np.diff(fields_so_far[newlines], prepend=0)
    document_breaks = np.zeros(len(newlines), dtype=bool)
    for match in re.finditer(re.escape(DOCSTART.encode()), data):  # a few per document
        at, end = match.span()
        line = int(np.searchsorted(newlines, at))
        before = fields_so_far[newlines[line - 1]] if line else 0
        if starts[at] and fields_so_far[at] == before + 1 and space[end]:
            document_breaks[line] = True
    return counts, document_breaks


def _merged_labels(rows: _Rows, names: list, start: Sequence[str]) -> tuple[tuple, dict]:
    """One label vocabulary for the tag columns (``names``, the first ones of ``rows``):
    ``start``, then the other tags in the order of first appearance column after column;
    and every column's ids in it."""
    labels = Interner({label: i for i, label in enumerate(start)})
    interned = {}
    for name, ids, interner in zip(names, rows.ids, rows.interners):
        remap = np.array([labels[label] for label in interner] or [0], dtype=np.int32)
        column = interned[name] = int32_array(ids)
        if not np.array_equal(remap, np.arange(len(remap))):
            for a in range(0, len(column), 1 << 20):  # in place, block by block
                column[a:a + (1 << 20)] = remap[column[a:a + (1 << 20)]]
    return tuple(labels), interned


def _split_unicode(line: str) -> list:
    stripped = line.strip(_ASCII_SPACE)
    return _SEPARATORS.split(stripped) if stripped else []


def _widest_row(path, encoding: str, comment_prefix: str | None) -> int:
    """The most columns a row of ``path`` has (read again, on the way to an error)."""
    widest = 0
    with open(path, encoding=encoding) as handle:
        for line in handle:
            if comment_prefix is None or not line.startswith(comment_prefix):
                fields = line.split() if line.isascii() else _split_unicode(line)
                if fields[:1] != [DOCSTART]:
                    widest = max(widest, len(fields) + (line[:1] == "\t"))
    return widest


def shown(value: str, limit: int = SHOWN_CHARACTERS) -> str:
    """``repr(value)``, cut to ``limit`` characters, saying how long the whole value is.

    >>> shown("Paris")
    "'Paris'"
    >>> shown("x" * 100, 5)
    "'xxxxx'... (100 characters)"
    """
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value)} characters)"


def undecodable_error(path: str, encoding: str, error: UnicodeDecodeError) -> FormatError:
    """``FormatError`` naming the first line of ``path`` that does not decode, its byte
    offset, and what to do (a UTF-16 or binary file is recognised)."""
    shown_name = "UTF-8" if encoding == "utf-8-sig" else encoding
    encoding = "utf-8" if encoding == "utf-8-sig" else encoding  # offsets count the BOM
    with open(path, "rb") as handle:
        head = handle.read(4096)
        handle.seek(0)
        offset = 0
        for number, raw in enumerate(handle, 1):
            try:
                raw.decode(encoding)
            except UnicodeDecodeError as bad:
                byte = raw[bad.start]
                problem = (f"not {shown_name} text: byte 0x{byte:02x} at byte offset "
                           f"{offset + bad.start} does not decode; {_encoding_hint(head)}")
                return FormatError(problem, path=path, line=number)
            offset += len(raw)
    return FormatError(f"not {shown_name} text ({error.reason}); {_encoding_hint(head)}",
                       path=path)


def read_text_file(reader, path, encoding: str = "utf-8"):
    """``reader(path, encoding=...)``, a UTF-8 BOM dropped and undecodable bytes named
    (file, line, byte offset), as ``read_columns`` does for column files."""
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    try:
        return reader(path, encoding=codec)
    except UnicodeDecodeError as error:
        raise undecodable_error(path, codec, error) from None


def _encoding_hint(head: bytes) -> str:
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return ("it starts with a UTF-16 byte-order mark: convert it to UTF-8 or give "
                "encoding='utf-16' (--encoding utf-16)")
    if b"\x00" in head:
        return "it holds NUL bytes: a binary file, or UTF-16/32 text, not a column file?"
    return ("if it is in another encoding, give it with encoding= (--encoding), "
            "e.g. latin-1")


def token_line(corpus: Corpus, position: int) -> int | None:
    """The file line of the token at flat ``position`` of a corpus read from a file.

    Exact because a sentence's rows are consecutive lines (comments come only between
    sentences); None when the corpus does not come from a file.
    """
    lines = corpus.source.sentence_lines
    if lines is None:
        return None
    sentence = int(np.searchsorted(corpus.offsets, position, side="right") - 1)
    return int(lines[sentence]) + position - int(corpus.offsets[sentence])


def token_mismatches(gold: Corpus, other: Corpus) -> np.ndarray:
    """Flat positions where ``other``'s token differs from ``gold``'s (same shape).

    Compared in blocks of ``COMPARE_BLOCK`` positions: a whole-corpus temporary would
    add 0.5x a 100 MB file to the peak memory of scoring two files.
    """
    if _read_as_gold(other, gold):  # compared while it was read (read_columns(reference=))
        return np.zeros(0, dtype=np.int64)
    index = {word: i for i, word in enumerate(gold.vocab)}
    remap = np.array([index.get(word, -1) for word in other.vocab] or [-1], dtype=np.int32)
    differ = [np.flatnonzero(remap[other.tokens[a:a + COMPARE_BLOCK]]
                             != gold.tokens[a:a + COMPARE_BLOCK]) + a
              for a in range(0, len(gold.tokens), COMPARE_BLOCK)]
    return np.concatenate(differ) if differ else np.zeros(0, dtype=np.int64)


def _read_as_gold(other: Corpus, gold: Corpus) -> bool:
    """Whether ``other``'s tokens are ``gold``'s own array in ``gold``'s vocabulary (what
    ``read_columns(reference=gold)`` gives while every token is gold's)."""
    mine, theirs = other.tokens, gold.tokens
    return (mine.dtype == theirs.dtype and mine.shape == theirs.shape
            and mine.strides == theirs.strides
            and mine.__array_interface__["data"][0] == theirs.__array_interface__["data"][0]
            and other.vocab[:len(gold.vocab)] == gold.vocab)


def check_tokens(gold: Corpus, other: Corpus, allow_token_mismatch: bool = False) -> int:
    """Raise ``TokenMismatchError`` at the first row whose token differs between the files.

    With ``allow_token_mismatch`` (some systems normalise quotes or brackets) the
    difference is accepted, counted and returned; a warning names the first row.
    Corpora without tokens are not compared (0).
    """
    if gold.tokens is None or other.tokens is None:
        return 0
    differ = token_mismatches(gold, other)
    if not len(differ):
        return 0
    position = int(differ[0])
    sentence = int(np.searchsorted(gold.offsets, position, side="right") - 1)
    ours = other.vocab[other.tokens[position]]
    theirs = gold.vocab[gold.tokens[position]]
    where = (f"{gold.source.path}:{token_line(gold, position)}" if gold.source.path
             else "the reference")
    problem = (f"token {shown(ours)} differs from {shown(theirs)} at {where}"
               + (f" ({counted(len(differ), 'token')} differ)" if len(differ) > 1 else ""))
    if not allow_token_mismatch:
        remedy = ("if the system normalises tokens (quotes, brackets), accept it with "
                  "allow_token_mismatch=True (--allow-token-mismatch)")
        if 2 * len(differ) > gold.n_tokens:
            remedy = ("most tokens differ: is the gold token in another column "
                      "(token_column / --token-column)? " + remedy)
        raise TokenMismatchError(f"{problem}; {remedy}",
            sentence=sentence, path=other.source.path, line=token_line(other, position))
    place = f"{other.source.path}:{token_line(other, position)}" if other.source.path else ""
    warnings.warn(f"{place + ': ' if place else ''}{problem}; accepted "
                  "(allow_token_mismatch)", stacklevel=2)
    return len(differ)


def read_predictions(gold: Corpus, path: str | os.PathLike, column: int = -1, *,
                     name: str = PRED, allow_token_mismatch: bool = False,
                     **read_options) -> Corpus:
    """``gold`` plus the tag ``column`` of the prediction file ``path`` as column ``name``.

    The file must have gold's sentences and lengths and, unless
    ``allow_token_mismatch``, the same token on every row (``check_tokens``).
    ``read_options`` go to ``read_columns`` (``token_column``, ``comment_prefix``,
    ``encoding``, ``missing_tag``).
    """
    other = read_columns(path, {PRED: column}, reference=gold, **read_options)
    merged = gold.with_columns(other, {PRED: name})
    check_tokens(gold, other, allow_token_mismatch)
    return merged


def read_system_file(path, comment_prefix=None, **read_options) -> Corpus:
    """A ``token gold pred`` file (gold = second-to-last column, prediction = last)."""
    return read_columns(path, {GOLD: -2, PRED: -1}, comment_prefix=comment_prefix,
                        **read_options)


def column_values(path, column: int, **read_options) -> list[list[str]]:
    """One column of a column file (a POS column, say) as a list of values per sentence;
    ``read_options`` as ``read_columns`` takes them."""
    corpus = read_columns(path, {GOLD: column}, **read_options)
    return [corpus.tags(GOLD, i) for i in range(corpus.n_sentences)]
