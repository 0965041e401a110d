"""The FairEval span-file format, and spans back to BIO tags.

A span file holds one span per line, ``LABEL<TAB>begin<TAB>end<TAB>tokens`` with 1-based
inclusive token indices (``tokens`` lists them joined by ``, ``), and a blank line
between sentences. A sentence without spans is the single line ``NONE 999 999 999``
(tab separated): a placeholder, not a span, wherever it appears. Other spans labelled
NONE are spans (the reference script drops every NONE and EMPTY span:
``exclude=["NONE", "EMPTY"]`` does the same).

Inside nerlens a span is ``(label, start, end)`` with 0-based ``start`` and exclusive
``end``, so the file line ``PER 6 7 6, 7`` is ``("PER", 5, 7)``.
"""
from __future__ import annotations

import os

from nerspan.errors import (EmptyInputError, FormatError, InputTypeError, NerspanError,
                            counted)
from nerspan.reading.answers import Answers
from nerspan.reading.columns import read_text_file
from nerspan.reading.systems import check_jsonl, named_files
from nerspan.records import InputOptions

PLACEHOLDER = ("NONE", "999", "999", "999")


def read_span_file(path: str | os.PathLike, encoding: str = "utf-8") -> list[list[tuple]]:
    """Spans per sentence, ``(label, start, end)`` 0-based with ``end`` exclusive.

    Runs of blank lines separate sentences. Raises ``FormatError`` naming the file and
    line for a line that is not four tab-separated fields, an index that is not a
    positive integer, ``end < begin``, or a token list that is not ``begin..end``
    (discontinuous spans are not supported), or undecodable bytes (a UTF-8 BOM is
    dropped). An empty token field means ``begin..end``.
    """
    return read_text_file(_read_spans, os.fspath(path), encoding)


def read_span_files(target, systems, *, scheme: str = "IOB2", mode: str = "lenient",
                    inputs=None) -> list[Answers]:
    """``target`` and one system's FairEval span files (``systems``: a list of one, or
    name -> file), read by ``read_span_file`` to be scored as they are: the ``Answers``
    of the system (``one.call(faireval.score)``). The JSON Lines span options are refused
    (``nerspan.reading.systems.check_jsonl``)."""
    inputs = InputOptions.of(inputs)
    check_jsonl(inputs)
    systems = named_files(systems)
    if not target or len(systems) != 1:
        raise InputTypeError("FairEval span files (--spans) are read as a target file and "
                             f"one system file, not {counted(len(systems), 'system file')}")
    [(name, path)] = systems.items()
    return [Answers(name, read_span_file(target, inputs.files.encoding),
                    read_span_file(path, inputs.files.encoding), scheme, mode,
                    InputOptions.of(None, types=inputs.types))]   # the type options apply


def _read_spans(path: str, encoding: str) -> list[list[tuple]]:
    sentences: list[list[tuple]] = []
    current: list[tuple] | None = None
    with open(path, encoding=encoding) as handle:
        for number, raw in enumerate(handle, 1):
            line = raw.rstrip("\r\n")
            if not line.strip():
                if current is not None:
                    sentences.append(current)
                    current = None
                continue
            if current is None:
                current = []
            fields = line.split("\t")
            if tuple(f.strip() for f in fields) == PLACEHOLDER:
                continue
            current.append(_parse_line(fields, path, number, len(sentences)))
    if current is not None:
        sentences.append(current)
    if not sentences:
        raise EmptyInputError("no sentence in the span file", path=path)
    return sentences


def _parse_line(fields: list[str], path: str, line: int, sentence: int) -> tuple:
    def fail(problem: str) -> NerspanError:
        return FormatError(problem, sentence=sentence, path=path, line=line)

    if len(fields) != 4:
        raise fail(f"expected 4 tab-separated fields (LABEL, begin, end, tokens), "
                   f"found {len(fields)}: {chr(9).join(fields)!r}")
    label, begin, end, tokens = (f.strip() for f in fields)
    if not label:
        raise fail("missing label")
    try:
        begin, end = int(begin), int(end)
    except ValueError:
        raise fail(f"begin and end must be integers, got {fields[1]!r} and {fields[2]!r}") from None
    if begin < 1:
        raise fail(f"begin {begin} is not a 1-based token index")
    if end < begin:
        raise fail(f"end {end} lies before begin {begin}")
    if tokens and tokens != ", ".join(map(str, range(begin, end + 1))):
        try:
            listed = [int(t) for t in tokens.split(",")]
        except ValueError:
            raise fail(f"token indices must be integers separated by commas: {tokens!r}") from None
        if listed != list(range(begin, end + 1)):
            raise fail(f"token indices {tokens!r} are not the range {begin}..{end} "
                       "(discontinuous spans are not supported)")
    return (label, begin - 1, end)


def write_span_file(path: str | os.PathLike, sentences, encoding: str = "utf-8") -> None:
    """Write spans per sentence (0-based, end exclusive) in the span-file format.

    Raises ``NerspanError`` naming the sentence for a span whose line would be the
    placeholder (``("NONE", 998, 999)``: it would read back as no span), and for a label
    that would not read back as it is (empty, blank at either end, or holding a tab or a
    line break).
    """
    lines = []
    for i, spans in enumerate(sentences):
        if not spans:
            lines.append("\t".join(PLACEHOLDER))
        for label, start, end in spans:
            fields = (str(label), str(start + 1), str(end))
            if fields == PLACEHOLDER[:3]:
                raise NerspanError(f"span ({label!r}, {start}, {end}) would be written as the "
                                   "placeholder line NONE 999 999 999, which reads back as "
                                   "no span", sentence=i)
            if fields[0] != fields[0].strip() or not fields[0] or "\t" in fields[0]:
                raise NerspanError(f"label {label!r} would not read back from a span file "
                                   "(empty, blank at an end, or holding a tab or line break)",
                                   sentence=i)
            lines.append("\t".join(fields + (", ".join(map(str, range(start + 1, end + 1))),)))
        lines.append("")
    with open(path, "w", encoding=encoding) as handle:
        handle.write("".join(line + "\n" for line in lines))


def spans_to_tags(sentences, lengths) -> list[list[str]]:
    """BIO (IOB2) tags for single-level spans: one tag list per sentence.

    ``lengths`` gives each sentence's number of tokens. Raises ``NerspanError`` for
    spans that overlap (they need multi-level tags) or lie outside the sentence.

    >>> spans_to_tags([[("PER", 0, 2), ("LOC", 3, 4)], []], [4, 2])
    [['B-PER', 'I-PER', 'O', 'B-LOC'], ['O', 'O']]
    """
    if len(sentences) != len(lengths):
        raise NerspanError(f"{counted(len(sentences), 'sentence')} of spans but "
                           f"{counted(len(lengths), 'length')}")
    tags = []
    for i, (spans, n) in enumerate(zip(sentences, lengths)):
        row = ["O"] * int(n)
        for label, start, end in sorted(spans, key=lambda s: (s[1], s[2])):
            if not 0 <= start < end <= n:
                raise NerspanError(f"span ({label!r}, {start}, {end}) lies outside the "
                                   f"sentence of {counted(int(n), 'token')}", sentence=i)
            if any(t != "O" for t in row[start:end]):
                raise NerspanError(f"span ({label!r}, {start}, {end}) overlaps another span: "
                                   "single-level BIO cannot hold it", sentence=i)
            row[start] = f"B-{label}"
            row[start + 1:end] = [f"I-{label}"] * (end - start - 1)
        tags.append(row)
    return tags
