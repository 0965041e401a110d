"""Encodings as data: how each scheme writes mentions as tags; repair and convert.

Where ``nerspan.schemes`` says how a scheme's tags are read, a ``Writing`` says how its
mentions are written: the prefix of a mention's first, inner and last token and of a
one-token mention, and what changes where a mention touches one of its own type (IOB1
begins the second with ``B-``, IOE1 ends the first with ``E-``, IO cannot part them).
``encode`` writes the mentions of a whole corpus at once from these tables.

On that rest seqscore's file tools (``seqscore/encoding.py``, ``scripts/seqscore.py``):

- ``convert``: the mentions of valid tags in one scheme, written in another; seqscore's
  ``convert`` on every scheme both have (IOB1, IOB2, IOBES, BILOU, BMES, IO). Tags with
  an invalid transition are refused, as seqscore refuses them, unless ``repair`` names
  a method. Adjacent mentions of one type that IO cannot part are refused, where
  seqscore merges them, unless ``lossy=True`` (merged as seqscore merges them, counted).
- ``repair``: ``"conlleval"`` keeps every chunk of the lenient reading (conlleval.pl's)
  and writes it as the scheme does; ``"discard"`` keeps only the chunks that are
  already written so (the others become ``O``). On IOB2 these are seqscore's methods of
  the same names, tag for tag, and on IOB1 its ``conlleval``; seqscore repairs no other
  scheme, nerlens repairs all of them by the same two rules. What changed is listed.

>>> convert([["B-PER", "I-PER", "O", "B-LOC"]], "IOB2", "BILOU").tags()
[['B-PER', 'L-PER', 'O', 'U-LOC']]
>>> fixed = repair([["O", "I-PER", "I-PER", "B-LOC", "I-ORG"]], "IOB2", "discard")
>>> fixed.tags(), fixed.counts["discarded_chunks"]
([['O', 'O', 'O', 'B-LOC', 'O']], 2)
"""
from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field

import numpy as np

from .corpus import GOLD, Corpus, ranges
from .errors import NerspanError, TagColumnWarning, counted
from .options import check_bool
from .schemes import PREFIX_NAMES, O, Scheme, get_scheme
from .spans import LabelTable, Spans, check_tags, decode
from .tagfiles import TagFile, tag_source, write_tags
from .validation import check_valid, token_lines

REPAIR_METHODS = ("conlleval", "discard")
# What a ``Retagged`` counts, in words (``Retagged.counts_text``): the type counts
# (``nerspan.type_processing.process_retagged``) are of mentions, not of types
COUNT_NOUNS = {"invalid_transitions": ("invalid transition",),
               "changed_tags": ("changed tag",), "chunks": ("chunk",),
               "discarded_chunks": ("discarded chunk",), "merged_pairs": ("merged pair",),
               "types_mapped": ("mention retyped", "mentions retyped"),
               "types_removed": ("mention removed", "mentions removed")}


class UnwritableMentionError(NerspanError):
    """The target scheme cannot write the mentions apart (IO: two adjacent mentions of
    one type would read as one)."""


@dataclass(frozen=True)
class Writing:
    """How a scheme writes a mention, in canonical prefixes (O, B, I, E, S).

    ``after_same``: the first token's prefix when the mention begins right where one of
    its type ends (IOB1: B); ``before_same``: the last token's when one of its type
    begins right after it (IOE1: E); ``parts_same``: False when the scheme cannot write
    two such mentions apart (IO).
    """

    first: str
    inside: str
    last: str
    single: str
    after_same: str | None = None
    before_same: str | None = None
    parts_same: bool = True

    def code(self, letter: str) -> int:
        return PREFIX_NAMES.index(letter)


_BIES = Writing("B", "I", "E", "S")
WRITINGS = {
    "IOB1": Writing("I", "I", "I", "I", after_same="B"),
    "IOB2": Writing("B", "I", "I", "B"),
    "IOE1": Writing("I", "I", "I", "I", before_same="E"),
    "IOE2": Writing("I", "I", "E", "E"),
    "IOBES": _BIES, "BILOU": _BIES, "BMES": _BIES,
    "IO": Writing("I", "I", "I", "I", parts_same=False),
}


# What to do where a scheme cannot part adjacent mentions of one type (converting)
CONVERT_REMEDY = ("convert to a scheme that parts them (IOB2, IOBES, ...), or merge them "
                  "knowingly (lossy=True, --lossy: the pairs merged are counted)")


def encode(spans: Spans, scheme: str | Scheme, corpus: Corpus | None = None,
           lossy: bool = False, remedy: str = CONVERT_REMEDY
           ) -> tuple[np.ndarray, np.ndarray]:
    """Every token's canonical prefix (uint8) and type id (int32, -1 for O) when
    ``spans`` (sorted, not overlapping) are written in ``scheme``.

    Raises ``UnwritableMentionError`` (naming the first place, in ``corpus`` if given,
    and ``remedy``) when the scheme cannot part two adjacent mentions of one type, unless
    ``lossy``: then they are written as the scheme writes them, and read back as one
    mention (``merged_pairs`` counts them).
    """
    scheme = get_scheme(scheme)
    writing = WRITINGS[scheme.name]
    start, end, kind = spans.start, spans.end, spans.type
    length = end - start
    n = int(spans.offsets[-1])
    prefix = np.zeros(n, dtype=np.uint8)
    types = np.full(n, -1, dtype=np.int32)
    inner = ranges(start, length)
    prefix[inner] = writing.code(writing.inside)
    types[inner] = np.repeat(kind.astype(np.int32), length)
    prefix[end - 1] = writing.code(writing.last)
    prefix[start] = writing.code(writing.first)
    prefix[start[length == 1]] = writing.code(writing.single)
    touching = np.flatnonzero(_touching(spans)) + 1  # the second of each touching pair
    if len(touching) and not writing.parts_same and not lossy:
        raise _unwritable(spans, touching, scheme, corpus, remedy)
    if len(touching) and writing.after_same:
        prefix[start[touching]] = writing.code(writing.after_same)
    if len(touching) and writing.before_same:
        prefix[end[touching - 1] - 1] = writing.code(writing.before_same)
    return prefix, types


def merged_pairs(spans: Spans, scheme: str | Scheme) -> int:
    """The pairs of adjacent mentions of one type that ``scheme`` writes as one mention
    (0 where it parts them)."""
    if WRITINGS[get_scheme(scheme).name].parts_same:
        return 0
    return int(np.count_nonzero(_touching(spans)))


def _touching(spans: Spans) -> np.ndarray:
    """For each pair of consecutive spans, whether the second begins where the first
    ends, in the same sentence, with the same type."""
    start, end, offsets = spans.start[1:], spans.end[:-1], spans.offsets
    head = offsets[np.minimum(np.searchsorted(offsets, start), len(offsets) - 1)] == start
    return (start == end) & (spans.type[1:] == spans.type[:-1]) & ~head


def _unwritable(spans: Spans, touching: np.ndarray, scheme: Scheme, corpus, remedy: str
                ) -> NerspanError:
    i = int(touching[0])
    sentence = int(spans.sentence[i])
    base = int(spans.offsets[sentence])
    a, b, c = (int(x) - base for x in (spans.start[i - 1], spans.start[i], spans.end[i]))
    problem = (f"{scheme.name} cannot write the {spans.types[spans.type[i]]} mention at "
               f"{b}-{c} apart from the one at {a}-{b} right before it: adjacent mentions "
               f"of one type read as one mention in {scheme.name} "
               f"({counted(len(touching), 'such pair')} in all); {remedy}")
    where = corpus.source.locate(sentence) if corpus is not None else {}
    line = where.get("line")
    return UnwritableMentionError(problem, sentence, where.get("path"),
                                  None if line is None else line + b, position=b)


def tag_labels(prefix: np.ndarray, types: np.ndarray, names: tuple, scheme: Scheme
               ) -> tuple[np.ndarray, tuple]:
    """``(ids, labels)``: every token's tag as an id (int32) into ``labels``, the tags
    ``prefix`` and ``types`` (type ids into ``names``) make in ``scheme``'s letters."""
    letter = {code: name for name, code in scheme.prefixes.items()}
    width = len(names) + 1
    key = prefix.astype(np.int64) * width + (types + 1)
    used = np.flatnonzero(np.bincount(key, minlength=1))
    remap = np.zeros(len(used) and int(used[-1]) + 1, dtype=np.int32)
    remap[used] = np.arange(len(used), dtype=np.int32)
    labels = tuple("O" if k // width == O else
                   f"{letter[k // width]}-{names[k % width - 1]}" if names[k % width - 1]
                   else letter[k // width] for k in used.tolist())
    return remap[key], labels


@dataclass(frozen=True)
class Change:
    """One tag that repair changed: where it is, what it was, what it is now."""

    sentence: int
    position: int
    tag: str
    repaired: str
    token: str | None = None
    line: int | None = None
    path: str | None = None

    def message(self) -> str:
        """One line: ``file:line: tag -> repaired`` and the token."""
        token = f" (token {self.token!r})" if self.token is not None else ""
        return f"{self.path}:{self.line}: {self.tag} -> {self.repaired}{token}"

    def to_dict(self) -> dict:
        return {"file": self.path, "line": self.line, "sentence": self.sentence,
                "position": self.position, "token": self.token, "tag": self.tag,
                "repaired": self.repaired}


@dataclass(frozen=True)
class Retagged:
    """A tag column written anew (by ``repair`` or ``convert``).

    ``ids`` index ``labels``: the new tags of every token of ``corpus`` (the input, tag
    column ``column``), in ``scheme``. ``method``: the repair method (None: none);
    ``changes``: what it changed (``Change``, in order), ``counts`` how much:
    ``invalid_transitions`` (with the prefixes outside the scheme: the problems
    ``validate`` finds), ``changed_tags``, ``chunks`` (of the lenient reading) and
    ``discarded_chunks``.
    """

    corpus: Corpus
    column: str
    ids: np.ndarray
    labels: tuple
    scheme: str
    method: str | None = None
    changes: tuple = ()
    counts: dict = field(default_factory=dict)
    file: TagFile | None = None

    def tags(self) -> list[list[str]]:
        """The new tags, one list per sentence."""
        flat = np.asarray(self.labels, dtype=object)[self.ids].tolist()
        offsets = self.corpus.offsets.tolist()
        return [flat[a:b] for a, b in zip(offsets[:-1], offsets[1:])]

    def write(self, out: str | os.PathLike) -> None:
        """Write the new tags to ``out``: a file source line for line with only its
        tag field replaced, other sources as ``token<TAB>tag`` rows."""
        if self.file is not None:
            self.file.rewrite(out, np.asarray(self.labels, dtype=object)[self.ids])
        else:
            write_tags(out, self.corpus, self.tags())

    def counts_text(self) -> str:
        """The scheme and the counts in words (``COUNT_NOUNS``): ``IOB2; 2 changed tags``."""
        counts = ", ".join(counted(value, *COUNT_NOUNS.get(key, (key.replace("_", " "),)))
                           for key, value in self.counts.items())
        return self.scheme + (f"; {counts}" if counts else "")

    def to_dict(self) -> dict:
        """Plain JSON: scheme, repair method, counts and the changes listed."""
        return {"scheme": self.scheme, "file": self.file and self.file.path,
                "repair": self.method, **{k: int(v) for k, v in self.counts.items()},
                "changes": [change.to_dict() for change in self.changes]}


def check_repair(method: str | None, allow_none: bool = True) -> str | None:
    """``method`` if it is a repair method (or None, when allowed), else ValueError."""
    if (method is None and allow_none) or method in REPAIR_METHODS:
        return method
    choices = ", ".join(repr(m) for m in REPAIR_METHODS)
    raise ValueError(f"unknown repair method {method!r}; choose {choices}"
                     + (" or None (refuse invalid tags)" if allow_none else ""))


def repair(source, scheme: str | Scheme = "IOB2", method: str = "conlleval", *,
           column: str = GOLD, tokens=None, **file_options) -> Retagged:
    """The tags of ``source`` with their invalid transitions repaired by ``method``.

    Args:
        source: a column file (a path or ``TagFile``), a ``Corpus`` (its ``column``), or
            lists of tags per sentence (``tokens`` per sentence, optionally).
        scheme: the tags' scheme; the repaired tags are in it too.
        method: ``"conlleval"`` writes every chunk conlleval.pl reads (an ``I-PER``
            after ``O`` begins one); ``"discard"`` turns the chunks that are not
            written as ``scheme`` writes them into ``O``.
        file_options: for a path: ``tag_column``, ``token_column``, ``comment_prefix``,
            ``encoding`` (see ``nerspan.tagfiles.TagFile``). A file read at its last
            column (no ``tag_column``) while another holds tags of the same types warns
            (``nerspan.errors.TagColumnWarning``) naming both.

    Raises ``InvalidTagError`` (file:line) for a tag whose prefix ``scheme`` lacks
    (seqscore stops there too): it has no meaning to repair by.

    >>> repair([["O", "I-PER", "I-PER"]], "IOB2").tags()
    [['O', 'B-PER', 'I-PER']]
    >>> print(repair([["B-PER", "I-PER", "O"]], "IOBES", "conlleval").changes[0].repaired)
    E-PER
    """
    check_repair(method, allow_none=False)
    corpus, column, file = _read_source(source, column, tokens, file_options)
    scheme = get_scheme(scheme)
    table = _checked_table(corpus, column, scheme)
    spans, prefix, types, counts, changes = _repaired(corpus, column, table, scheme, method)
    ids, labels = tag_labels(prefix, types, table.types, scheme)
    return Retagged(corpus, column, ids, labels, scheme.name, method, changes, counts, file)


def _read_source(source, column: str, tokens, file_options: dict) -> tuple:
    """``tag_source``; a file read at its last column while another column holds tags of
    the same types warns (``TagColumnWarning``) naming both: count, summarize, convert
    and repair read one column, and the user learns which."""
    corpus, column, file = tag_source(source, column=column, tokens=tokens, **file_options)
    note = file.column_note() if file is not None else None
    if note:
        warnings.warn(TagColumnWarning(f"{file.path}: {note}"), stacklevel=4)
    return corpus, column, file


def _checked_table(corpus: Corpus, column: str, scheme: Scheme) -> LabelTable:
    """The column's label table; ``InvalidTagError`` for a tag that is none, or whose
    prefix ``scheme`` does not have."""
    table = LabelTable.build(corpus.labels, scheme)
    check_tags(corpus, corpus.column(column), table, scheme, "strict", "tags")
    return table


def _repaired(corpus: Corpus, column: str, table: LabelTable, scheme: Scheme, method: str
              ) -> tuple:
    """``(spans, prefix, types, counts, changes)`` of a column repaired by ``method``."""
    ids = corpus.column(column)
    lenient = decode(corpus, column, scheme, "lenient", table)
    before = (np.take(table.prefix, ids), np.take(table.type, ids))
    prefix, types = encode(lenient, scheme, corpus)
    spans = lenient
    if method == "discard":  # the chunks already written as the scheme writes them
        differs = np.concatenate([[0], np.cumsum((prefix != before[0])
                                                 | (types != before[1]))])
        spans = lenient.take(np.flatnonzero(differs[lenient.end] == differs[lenient.start]))
        prefix, types = encode(spans, scheme, corpus)
    changed = np.flatnonzero((prefix != before[0]) | (types != before[1]))
    counts = {"invalid_transitions": lenient.repairs.invalid_transitions,
              "changed_tags": len(changed), "chunks": len(lenient),
              "discarded_chunks": len(lenient) - len(spans)}
    new_ids, new_labels = tag_labels(prefix[changed], types[changed], table.types, scheme)
    return spans, prefix, types, counts, tuple(_changes(corpus, ids, changed, new_ids,
                                                        new_labels))


def _changes(corpus: Corpus, ids: np.ndarray, changed: np.ndarray, new_ids, new_labels):
    """A ``Change`` per flat position of ``changed`` (new tags: ``new_ids`` into
    ``new_labels``, one per position)."""
    sentence = np.searchsorted(corpus.offsets, changed, side="right") - 1
    index = changed - corpus.offsets[sentence]
    lines = token_lines(corpus, sentence, index)
    words = (np.asarray(corpus.vocab, dtype=object)[corpus.tokens[changed]]
             if corpus.tokens is not None else [None] * len(changed))
    for p, s, i, new, line, word in zip(changed.tolist(), sentence.tolist(), index.tolist(),
                                        new_ids.tolist(), lines, words):
        yield Change(s, i, corpus.labels[ids[p]], new_labels[new], word, line,
                     corpus.source.path)


@dataclass(frozen=True)
class Mentions:
    """The mentions of a tag column (``spans``), read from ``corpus``'s ``column``
    (``file``: the file it came from, or None); ``repaired``: how its tags were
    repaired first (None: they were valid)."""

    spans: Spans
    corpus: Corpus
    column: str
    file: TagFile | None = None
    repaired: Retagged | None = None


def mentions(source, scheme: str | Scheme = "IOB2", *, repair: str | None = None,
             column: str = GOLD, tokens=None, **file_options) -> Mentions:
    """The mentions of a tag column in ``scheme`` (sources as ``repair``'s).

    Without ``repair`` the tags must be valid (``InvalidTransitionError`` names the
    first problem, as seqscore stops at it); with ``repair`` (``"conlleval"`` or
    ``"discard"``) they are repaired first.

    >>> found = mentions([["B-PER", "I-PER", "O"]], "IOB2")
    >>> found.spans.to_list(found.corpus), found.repaired
    ([[('PER', 0, 2)]], None)
    """
    check_repair(repair)
    corpus, column, file = _read_source(source, column, tokens, file_options)
    scheme = get_scheme(scheme)
    table = _checked_table(corpus, column, scheme)
    if repair is None:
        check_valid(corpus, column, table, scheme)
        return Mentions(decode(corpus, column, scheme, "lenient", table), corpus, column, file)
    spans, prefix, types, counts, changes = _repaired(corpus, column, table, scheme, repair)
    ids, labels = tag_labels(prefix, types, table.types, scheme)
    return Mentions(spans, corpus, column, file, Retagged(
        corpus, column, ids, labels, scheme.name, repair, changes, counts, file))


def convert(source, from_scheme: str | Scheme, to_scheme: str | Scheme, *,
            repair: str | None = None, lossy: bool = False, column: str = GOLD,
            tokens=None, **file_options) -> Retagged:
    """The mentions of ``source``'s tags in ``from_scheme``, written in ``to_scheme``.

    Args:
        source: a column file (path or ``TagFile``), a ``Corpus`` (its ``column``), or
            lists of tags per sentence (``tokens`` per sentence, optionally).
        from_scheme, to_scheme: any of ``nerspan.schemes.SCHEMES``.
        repair: None (default): tags with an invalid transition are refused
            (``InvalidTransitionError``, as seqscore's ``convert``); ``"conlleval"`` or
            ``"discard"``: repaired first (``repair``), the changes listed.
        lossy: False (default): ``UnwritableMentionError`` naming the first place where
            ``to_scheme`` cannot keep the mentions apart (IO: adjacent mentions of one
            type); True: write them as seqscore's ``convert`` does, so that they read
            as one mention, and count them (``counts["merged_pairs"]``).

    >>> convert([["B-PER", "B-PER", "I-PER"]], "IOB2", "IOB1").tags()
    [['I-PER', 'B-PER', 'I-PER']]
    >>> convert([["B-PER", "B-PER"]], "IOB2", "IO")
    Traceback (most recent call last):
    ...
    nerspan.encodings.UnwritableMentionError: sentence 0, position 1: IO cannot write the PER mention at 1-2 apart from the one at 0-1 right before it: adjacent mentions of one type read as one mention in IO (1 such pair in all); convert to a scheme that parts them (IOB2, IOBES, ...), or merge them knowingly (lossy=True, --lossy: the pairs merged are counted)
    >>> merged = convert([["B-PER", "B-PER"]], "IOB2", "IO", lossy=True)
    >>> merged.tags(), merged.counts["merged_pairs"]
    ([['I-PER', 'I-PER']], 1)
    """
    target = get_scheme(to_scheme)  # an unknown name fails before any reading
    lossy = check_bool("lossy", lossy)
    found = mentions(source, from_scheme, repair=repair, column=column, tokens=tokens,
                     **file_options)
    prefix, types = encode(found.spans, target, found.corpus, lossy=lossy)
    ids, labels = tag_labels(prefix, types, found.spans.types, target)
    done = found.repaired or Retagged(found.corpus, found.column, ids, labels, target.name)
    counts = dict(done.counts)
    if lossy:
        counts["merged_pairs"] = merged_pairs(found.spans, target)
    return Retagged(found.corpus, found.column, ids, labels, target.name, done.method,
                    done.changes, counts, found.file)
