"""The corpus model: interned tokens and tags as flat integer arrays.

A ``Corpus`` holds one sentence segmentation (``offsets``), optionally the tokens, and
any number of tag columns (gold, one or several systems) over one shared label
vocabulary. Everything downstream works on these arrays.
"""
from __future__ import annotations

from array import array
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from operator import attrgetter
from typing import Mapping, Sequence

import numpy as np

from .errors import (EmptyInputError, InputTypeError, InvalidTagError, LabelIdError,
                     LengthMismatchError, NameTakenError, NerspanError, SentenceCountError,
                     counted, shown)

GOLD = "gold"
PRED = "pred"
IGNORE_INDEX = -100


@dataclass(frozen=True)
class Source:
    """Where a corpus came from, so that errors can name the file and line."""

    path: str | None = None
    sentence_lines: np.ndarray | None = None  # 1-based line of each sentence's first token
    repaired_lines: tuple = ()  # lines whose missing tag was filled in by the reader
    # column -> sentence of every span that span input widened to token boundaries
    snapped: Mapping = field(default_factory=dict)

    def locate(self, sentence: int) -> dict:
        if self.sentence_lines is None or not 0 <= sentence < len(self.sentence_lines):
            return {"path": self.path}
        return {"path": self.path, "line": int(self.sentence_lines[sentence])}


@dataclass(frozen=True)
class Corpus:
    """Sentences of tokens with one or more tag columns.

    Attributes:
        offsets: int64 array of length ``n_sentences + 1``; sentence ``i`` covers
            positions ``offsets[i]:offsets[i + 1]`` of every flat array.
        columns: column name -> int32 array of label ids (one per token).
        labels: label vocabulary; ``labels[id]`` is the tag string.
        tokens: int32 array of token ids, or None when no tokens were given.
        vocab: token vocabulary; ``vocab[id]`` is the token string.
    """

    offsets: np.ndarray
    columns: Mapping[str, np.ndarray]
    labels: tuple
    tokens: np.ndarray | None = None
    vocab: tuple = ()
    source: Source = field(default_factory=Source)

    # -- shape -------------------------------------------------------------------------
    @property
    def n_sentences(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_tokens(self) -> int:
        return int(self.offsets[-1])

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    @cached_property
    def sentence_of_position(self) -> np.ndarray:
        """Sentence index of every flat position (computed once, read-only)."""
        index = np.repeat(np.arange(self.n_sentences), self.lengths)
        index.flags.writeable = False
        return index

    @cached_property
    def nonempty_sentences(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(indices, first positions, end positions)`` of the sentences that have
        tokens (computed once: every column's decoding reads them)."""
        indices = np.flatnonzero(self.lengths > 0)
        return indices, self.offsets[indices], self.offsets[indices + 1]

    def column(self, name: str) -> np.ndarray:
        try:
            return self.columns[name]
        except KeyError:
            raise KeyError(f"corpus has no tag column {name!r}; it has {list(self.columns)}") from None

    def tags(self, name: str, sentence: int) -> list[str]:
        """The tag strings of one sentence of one column."""
        ids = self.column(name)[self.offsets[sentence]:self.offsets[sentence + 1]]
        return [self.labels[i] for i in ids]

    def sentence_tokens(self, sentence: int) -> list[str]:
        if self.tokens is None:
            raise ValueError("this corpus has no tokens")
        ids = self.tokens[self.offsets[sentence]:self.offsets[sentence + 1]]
        return [self.vocab[i] for i in ids]

    def token_strings(self) -> np.ndarray:
        """Every token as a string (object array); for building indexes, not hot paths."""
        if self.tokens is None:
            raise ValueError("this corpus has no tokens")
        return np.asarray(self.vocab, dtype=object)[self.tokens]

    def error(self, cls, problem: str, sentence: int | None = None,
              **details) -> NerspanError:
        """An exception of type ``cls`` that names the sentence and, if known, file and line;
        ``details`` (``side``, ``position``) go to the exception."""
        where = self.source.locate(sentence) if sentence is not None else {"path": self.source.path}
        return cls(problem, sentence=sentence, **where, **details)

    # -- combining ---------------------------------------------------------------------
    def with_columns(self, other: "Corpus", names: Mapping[str, str] | None = None,
                     what: str = "predictions") -> "Corpus":
        """This corpus plus ``other``'s columns (renamed by ``names``), checked for shape.

        Label vocabularies are merged; ``other``'s ids are remapped into the union. When
        ``other``'s labels start with this corpus's (a prediction file read with
        ``read_columns(reference=...)``), its ids already are the union's: its arrays are
        shared, not copied (a copy is 0.3x a two-file input in peak memory). A name
        this corpus has already is an error (``joined_columns``).
        """
        check_same_shape(self, other, what=what)
        labels = list(self.labels)
        index = {label: i for i, label in enumerate(labels)}
        for label in other.labels:
            if label not in index:
                index[label] = len(labels)
                labels.append(label)
        remap = np.array([index[label] for label in other.labels] or [0], dtype=np.int32)
        same_ids = bool(np.array_equal(remap, np.arange(len(remap))))
        columns = joined_columns(self.columns.items(), (
            ((names or {}).get(name, name),
             ids if same_ids and ids.dtype == np.int32 else remap[ids])
            for name, ids in other.columns.items()))
        source = self.source
        if other.source.snapped:  # what span input repaired stays with its column
            snapped = {(names or {}).get(c, c): v for c, v in other.source.snapped.items()
                       if c in other.columns}
            source = replace(source, snapped={**source.snapped, **snapped})
        return Corpus(self.offsets, columns, tuple(labels), self.tokens, self.vocab, source)

    def renamed(self, names: Mapping[str, str]) -> "Corpus":
        """The same corpus with the columns ``names`` maps renamed (a name taken by
        another column is an error)."""
        columns = joined_columns((names.get(name, name), ids)
                                 for name, ids in self.columns.items())
        return Corpus(self.offsets, columns, self.labels, self.tokens, self.vocab, self.source)

    def select(self, columns: Sequence[str]) -> "Corpus":
        return Corpus(self.offsets, {c: self.column(c) for c in columns}, self.labels,
                      self.tokens, self.vocab, self.source)

    def subset(self, sentences: np.ndarray) -> "Corpus":
        """The corpus restricted to (or resampled as) the given sentence indices."""
        sentences = np.asarray(sentences, dtype=np.int64)
        lengths = self.lengths[sentences]
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        positions = ranges(self.offsets[sentences], lengths)
        columns = {name: ids[positions] for name, ids in self.columns.items()}
        tokens = None if self.tokens is None else self.tokens[positions]
        lines = self.source.sentence_lines
        source = Source(self.source.path, None if lines is None else lines[sentences],
                        self.source.repaired_lines)
        return Corpus(offsets, columns, self.labels, tokens, self.vocab, source)

    # -- builders ----------------------------------------------------------------------
    @classmethod
    def from_tags(cls, references: Sequence[Sequence[str]],
                  predictions: Sequence[Sequence[str]] | None = None,
                  tokens: Sequence[Sequence[str]] | None = None,
                  columns: Mapping[str, Sequence[Sequence[str]]] | None = None, *,
                  names: Mapping[str, str] | None = None) -> "Corpus":
        """Build a corpus from lists of tag strings (one list per sentence).

        ``references`` becomes column ``"gold"``, ``predictions`` column ``"pred"``;
        ``columns`` adds more named columns (several systems). ``names`` says how errors
        name a column or ``"tokens"`` (default: references, predictions, the column's
        name, tokens; the training data is named train_tags and train_tokens).

        >>> c = Corpus.from_tags([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]])
        >>> c.n_sentences, c.n_tokens, c.tags("pred", 0)
        (1, 3, ['B-PER', 'O', 'O'])
        """
        named = joined_columns([(GOLD, references)],
                               [] if predictions is None else [(PRED, predictions)],
                               (columns or {}).items())
        name = lambda column: (names or {}).get(column, side_name(column))  # noqa: E731
        sentences = {column: _as_sentences(seqs, name(column)) for column, seqs in named.items()}
        if tokens is not None:
            sentences["tokens"] = tokens = _as_sentences(tokens, name("tokens"))
        lengths = {column: _lengths(seqs) for column, seqs in sentences.items()}
        if len(lengths[GOLD]) == 0:
            raise EmptyInputError(f"{name(GOLD)} hold no sentence")
        check_shapes({name(column): these for column, these in lengths.items()})
        label_index = Interner()
        interned = {column: _intern(sentences[column], label_index, int(lengths[column].sum()),
                                    name(column)) for column in named}
        offsets = _offsets(lengths[GOLD])
        token_ids, vocab = None, ()
        if tokens is not None:
            vocab_index = Interner()
            token_ids = _intern(tokens, vocab_index, int(offsets[-1]), name("tokens"), "words")
            vocab = tuple(vocab_index)
        return cls(offsets, interned, tuple(label_index), token_ids, vocab)

    @classmethod
    def from_ids(cls, references, predictions=None, label_list: Sequence[str] = (),
                 tokens=None, ignore_index: int = IGNORE_INDEX) -> "Corpus":
        """Build a corpus from label ids and the label list (``id2label``).

        ``references`` and ``predictions`` are ragged lists of id lists or padded 2-D
        arrays (as ``Trainer`` gives them). Every position whose *reference* id is
        ``ignore_index`` (-100) is dropped from both, together with its token if tokens
        are given at that granularity; ``tokens`` may instead hold only the kept
        positions (one token per word), which is checked. ``tokens`` may also be a
        ``Corpus`` whose tokens were interned before (the Trainer helper interns the
        evaluation words once, not at every evaluation).

        >>> c = Corpus.from_ids([[0, 1, -100, 0]], [[0, 1, 1, 2]], ["O", "B-PER", "I-PER"])
        >>> c.tags("gold", 0), c.tags("pred", 0)
        (['O', 'B-PER', 'O'], ['O', 'B-PER', 'I-PER'])
        """
        label_list = as_label_list(label_list)
        ref = _flatten_ids(references, "references")
        pred = None if predictions is None else _flatten_ids(predictions, "predictions")
        return cls._from_flat_ids(ref, pred, label_list, _interned_words(tokens), ignore_index)

    @classmethod
    def _from_flat_ids(cls, ref: tuple, pred: tuple | None, label_list: tuple,
                       words: tuple | None = None, ignore_index: int | None = IGNORE_INDEX
                       ) -> "Corpus":
        """The corpus of flat ids: ``ref`` and ``pred`` are ``(flat ids, sentence
        lengths)``, ``words`` is ``(flat token ids, lengths, vocab)`` or None. Positions
        where the reference is ``ignore_index`` are dropped (None: nothing is)."""
        ref_flat, ref_lengths = ref
        if len(ref_lengths) == 0:
            raise EmptyInputError("references hold no sentence")
        columns = {GOLD: ref_flat}
        if pred is not None:
            check_shapes({"references": ref_lengths, "predictions": pred[1]})
            columns[PRED] = pred[0]
        keep = None if ignore_index is None else ref_flat != ignore_index
        if keep is not None and keep.all():
            keep = None  # nothing to drop: the ids are used as they are
        kept_lengths = ref_lengths if keep is None else _kept_lengths(keep, ref_lengths)
        for name, flat in columns.items():
            kept = flat if keep is None else flat[keep]
            if _any_outside(kept, len(label_list)):
                raise _id_outside(flat, keep, ref_lengths, len(label_list), side_name(name))
            columns[name] = kept.astype(np.int32, copy=False)
        token_ids, vocab = None, ()
        if words is not None:
            token_ids, token_lengths, vocab = words
            if len(token_lengths) != len(ref_lengths):
                raise SentenceCountError(
                    f"tokens hold {counted(len(token_lengths), 'sentence')}, references "
                    f"{len(ref_lengths)}")
            if np.array_equal(token_lengths, ref_lengths):
                token_ids = token_ids if keep is None else token_ids[keep]
            else:
                check_shapes({"references without -100": kept_lengths, "tokens": token_lengths},
                             blame="tokens")
        return cls(_offsets(kept_lengths), columns, label_list, token_ids, tuple(vocab))

    @classmethod
    def from_dataset(cls, dataset, tags_column: str = "ner_tags",
                     tokens_column: str | None = "tokens", predictions=None,
                     ignore_index: int = IGNORE_INDEX) -> "Corpus":
        """Build a corpus from a ``datasets.Dataset`` split whose tag column is a sequence
        of ``ClassLabel`` ids or of tag strings, read through its Arrow buffers.

        ``predictions`` may be the name of another column of the split, an Arrow list
        array, a NumPy array (2-D, each row a sentence's ids then ``ignore_index``
        padding; or ragged), or lists of tags or ids per sentence (ids in the
        ``ClassLabel`` order).
        """
        from .dataset_input import dataset_corpus

        return dataset_corpus(cls, dataset, tags_column, tokens_column, predictions,
                              ignore_index)


def check_same_shape(corpus: Corpus, other: Corpus, what: str = "predictions") -> None:
    """Raise unless the two corpora have the same sentences and sentence lengths."""
    if other.n_sentences != corpus.n_sentences:
        raise _count_error(corpus, other, what)
    mismatch = np.flatnonzero(other.lengths != corpus.lengths)
    if len(mismatch):
        i = int(mismatch[0])
        raise other.error(
            LengthMismatchError,
            f"length mismatch: {what} have {counted(int(other.lengths[i]), 'token')}, the "
            f"reference {counted(int(corpus.lengths[i]), 'token')}"
            + (f" ({counted(len(mismatch), 'sentence')} differ)" if len(mismatch) > 1
               else ""), i)


def parting(expected: np.ndarray, found: np.ndarray) -> int:
    """The sentence where two segmentations (sentence lengths) part: the first whose
    lengths differ, else the first that only one of them has.

    >>> parting(np.array([3, 1, 2]), np.array([3, 3]))
    1
    """
    n = min(len(expected), len(found))
    differ = np.flatnonzero(expected[:n] != found[:n])
    return int(differ[0]) if len(differ) else n


def _count_error(corpus: Corpus, other: Corpus, what: str) -> SentenceCountError:
    """Sentence counts that differ, named where the corpora part (``parting``): in a
    file, the row of ``other`` where one sentence goes on and the other has ended, and
    the reference's row there."""
    k = parting(corpus.lengths, other.lengths)
    problem = (f"{what} hold {counted(other.n_sentences, 'sentence')}, the reference "
               f"{counted(corpus.n_sentences, 'sentence')}")
    if k == other.n_sentences:
        return SentenceCountError(f"{problem}; after its last sentence, the reference goes "
                                  f"on{_row(corpus, k, 0)}", k, other.source.path)
    if k == corpus.n_sentences:
        return other.error(SentenceCountError, f"{problem}; the reference has no sentence "
                                               "from this one on", k)
    rows = min(int(other.lengths[k]), int(corpus.lengths[k]))
    lines = other.source.sentence_lines
    return SentenceCountError(
        f"{problem}; they part here: this sentence has "
        f"{counted(int(other.lengths[k]), 'token')}, the reference's "
        f"{int(corpus.lengths[k])}{_row(corpus, k, rows)} (a blank line missing or extra?)",
        k, other.source.path, None if lines is None else int(lines[k]) + rows)


def _row(corpus: Corpus, sentence: int, row: int) -> str:
    """`` at FILE:LINE``, the line of ``row`` (0-based) of ``sentence`` of a corpus read
    from a file (a row past the sentence's end: the line after it), or nothing."""
    where = corpus.source.locate(sentence)
    return f" at {where['path']}:{where['line'] + row}" if "line" in where else ""


def joined_columns(*groups) -> dict:
    """name -> column of every ``(name, column)`` pair of ``groups``, in order.

    A name given twice is an error (``NameTakenError``), never a column silently
    replaced: a system named after the gold column once took its place and was scored
    against itself.

    >>> joined_columns([("gold", 1)], [("gold", 2)])
    Traceback (most recent call last):
    ...
    nerspan.errors.NameTakenError: two tag columns named 'gold': a column is never replaced by another; give the system another name
    """
    columns = {}
    for name, column in chain.from_iterable(groups):
        if name in columns:
            raise NameTakenError(f"two tag columns named {name!r}: a column is never "
                                  "replaced by another; give the system another name")
        columns[name] = column
    return columns


# -- helpers -----------------------------------------------------------------------------
SIDE_NAMES = {GOLD: "references", PRED: "predictions"}
IDS_HINT = ("pass label ids (logits.argmax(-1)); for a Trainer, "
            "nerlens.trainer.make_compute_metrics does this")


def side_name(column: str) -> str:
    """How errors name a tag column: the API's argument name for gold and pred."""
    return SIDE_NAMES.get(column, column)


def _as_sentences(seqs, name: str):
    """``seqs`` as a list (or tuple) of sentences, each a sequence that is not a string.

    The check runs over the distinct types of the sentences (one pass in C), never per
    token; ``name`` is the side that errors name.
    """
    return _checked_sentences(seqs, name)[0]


def _checked_sentences(seqs, name: str) -> tuple:
    """``(sentences, their distinct types)``: ``_as_sentences`` and the types it checked
    (so that callers do not pass over the sentences again for them)."""
    if seqs is None:
        raise InputTypeError(f"{name} is None: expected a list of sentences (lists of tags)")
    if isinstance(seqs, (str, bytes)):
        raise InputTypeError(f"{name} must be a list of sentences (lists of tags), not a string")
    if isinstance(seqs, (Mapping, AbstractSet)) or not hasattr(seqs, "__iter__"):
        raise InputTypeError(f"{name} must be a list of sentences (lists of tags), "
                             f"not {_a(type(seqs).__name__)}")
    seqs = list(seqs) if not isinstance(seqs, (list, tuple)) else seqs
    kinds = set(map(type, seqs))
    for kind in kinds - _SENTENCE_TYPES:
        # a set has no order: its tags would meet the other side's in any order
        if issubclass(kind, (str, bytes, Mapping, AbstractSet)) or not hasattr(kind, "__len__"):
            i = next(i for i, seq in enumerate(seqs) if type(seq) is kind)
            what = ("a string" if issubclass(kind, (str, bytes)) else "None"
                    if kind is type(None) else f"{_a(kind.__name__)} ({shown(seqs[i])})")
            raise InputTypeError(f"the sentence is {what}; expected a list of tags per "
                                 "sentence", sentence=i, side=name)
    if np.ndarray in kinds:
        _refuse_scalar_arrays(seqs, kinds, name)
    return seqs, kinds


def _a(noun: str) -> str:
    return ("an " if noun[:1] in ("a", "e", "i", "o", "u") else "a ") + noun


def _refuse_scalar_arrays(seqs, kinds: set, name: str) -> None:
    """Raise for the first sentence that is a 0-d array (one value, not a sequence)."""
    arrays = seqs if kinds == {np.ndarray} else [s for s in seqs if type(s) is np.ndarray]
    if 0 in set(map(_NDIM, arrays)):
        i = next(i for i, seq in enumerate(seqs) if type(seq) is np.ndarray and seq.ndim == 0)
        raise InputTypeError(f"the sentence is a 0-d array ({shown(seqs[i])}); expected a "
                             "list of tags per sentence", sentence=i, side=name)


_SENTENCE_TYPES = {list, tuple, np.ndarray}
as_sentences = _as_sentences  # for the evaluate modules' early check


def _lengths(seqs) -> np.ndarray:
    # np.fromiter with a count: 1.3-2.0 ms on 50k sentences, a list then np.array 1.6-2.7
    return np.fromiter(map(len, seqs), dtype=np.int64, count=len(seqs))


def _offsets(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


def check_shapes(lengths: Mapping[str, np.ndarray], blame: str | None = None) -> None:
    """Raise unless the inputs named by ``lengths`` (their sentence lengths) have the same
    number of sentences and the same lengths.

    Of three inputs (references, predictions, tokens), the error names the one that
    disagrees with the two others as its side; of two, ``blame`` if given. Otherwise it
    names both and blames neither: predictions longer than references may be either's
    fault.
    """
    counts = {name: len(these) for name, these in lengths.items()}
    if len(set(counts.values())) > 1:
        odd, other, side = _disagreement(counts, blame)
        # where the lengths part before the shorter input ends (a sentence split or joined)
        k = parting(lengths[other], lengths[odd])
        where = f"; they part at sentence {k}" if k < min(counts.values()) else ""
        raise SentenceCountError(f"{odd} hold {counted(counts[odd], 'sentence')}, {other} "
                                 f"{counts[other]}{where}", side=side)
    table = np.stack(list(lengths.values()))
    differ = np.flatnonzero((table != table[0]).any(axis=0))
    if len(differ):
        i = int(differ[0])
        at = {name: int(these[i]) for name, these in lengths.items()}
        odd, other, side = _disagreement(at, blame)
        more = f" ({counted(len(differ), 'sentence')} differ)" if len(differ) > 1 else ""
        raise LengthMismatchError(f"{odd} have {counted(at[odd], 'item')}, {other} "
                                  f"{at[other]}{more}", sentence=i, side=side)


def _disagreement(values: Mapping[str, int], blame: str | None) -> tuple:
    """``(the input named first, one it disagrees with, the side blamed or None)``."""
    names = list(values)
    side = blame
    if len(names) > 2:  # the one whose value differs from the others', which agree
        lone = [n for n in names
                if len(others := {values[m] for m in names if m != n}) == 1
                and values[n] not in others]
        side = lone[0] if lone else None
    odd = side or next(n for n in reversed(names) if values[n] != values[names[0]])
    return odd, next(n for n in names if values[n] != values[odd]), side


class Interner(dict):
    """str -> id, adding unseen strings as they come (one pass, no separate set)."""

    def __missing__(self, key):
        value = self[key] = len(self)
        return value


def _intern(seqs, index: dict, total: int, name: str, what: str = "tags") -> np.ndarray:
    """Map every string of ``seqs`` to its id in ``index`` (adding new strings).

    Anything but a string (an id, None, a list nested too deep) is an error naming the
    side ``name``, sentence and position; it is found after the fact, from the interned
    vocabulary, so the common case costs nothing extra.

    One dict pass per column. While there are fewer than 256 distinct strings (tags) the
    ids are collected as bytes (``bytearray(map(...))``); past that ``bytearray`` raises
    ValueError and the pass starts over into ``np.fromiter`` (the strings already interned
    keep their ids, so ids stay in order of first appearance). Measured on 750k tags
    (issue 18; best of 9 in one run, CPU time, three runs): ``bytearray`` 22-26 ms,
    ``bytes(map(...))`` 24-29 ms, ``np.fromiter`` 32-35 ms; ``array('i')``,
    ``dict.fromkeys`` pre-fill plus a pass, ``pandas.factorize`` and ``np.unique`` on an
    object array slower still.
    """
    interner = index if isinstance(index, Interner) else Interner(index)
    try:
        ids = _interned_ids(interner, seqs, total)
        clean = all(isinstance(item, str) for item in interner)
    except TypeError:  # an unhashable item: a list where a tag should be
        clean = False
    if not clean:
        _raise_not_string(seqs, name, what)
    if interner is not index:
        index.update(interner)
    return ids


def _interned_ids(interner: "Interner", seqs, total: int) -> np.ndarray:
    """The int32 ids of the flat items of ``seqs`` (one pass; two when ids pass 255)."""
    if len(interner) < 256:
        try:
            small = bytearray(map(interner.__getitem__, chain.from_iterable(seqs)))
        except ValueError:  # an id reached 256: not a byte
            pass
        else:
            if len(small) == total:
                return np.frombuffer(small, dtype=np.uint8).astype(np.int32)
    return np.fromiter(map(interner.__getitem__, chain.from_iterable(seqs)),
                       dtype=np.int32, count=total)


def int32_array(ids: array) -> np.ndarray:
    """An ``array('i')`` as int32 NumPy, without a copy when C ints are 32 bits."""
    if ids.itemsize != 4:
        return np.array(ids, dtype=np.int32)
    return np.frombuffer(ids, dtype=np.int32) if len(ids) else np.zeros(0, dtype=np.int32)


def _raise_not_string(seqs, name: str, what: str):
    """Name the first item of ``seqs`` that is not a string (the error path only)."""
    for i, seq in enumerate(seqs):
        for j, item in enumerate(seq):
            if isinstance(item, str):
                continue
            if isinstance(item, (list, tuple, np.ndarray)):
                problem = (f"{shown(item)} is a list: {name} are nested too deep (expected one "
                           f"list of {what} per sentence)")
                if what == "tags" and len(item) and not isinstance(item[0], str):
                    problem += f"; for logits, {IDS_HINT}"
            else:
                problem = f"{shown(item)} of type {type(item).__name__} is not a string"
                if what == "tags" and isinstance(item, (int, np.integer)):
                    problem += "; label ids need label_list=[...] (the tags in id order)"
            raise InvalidTagError(problem, sentence=i, side=name, position=j)
    raise AssertionError("no offending item found")  # pragma: no cover


def as_label_list(label_list) -> tuple:
    """The tags in id order from a list or an ``id2label`` dict ``{id: tag}``.

    A dict must map exactly the ids 0..n-1 (ints, or strings of them as in a JSON
    config); anything else is ambiguous and refused.

    >>> as_label_list({1: "B-PER", 0: "O"})
    ('O', 'B-PER')
    """
    if label_list is None or isinstance(label_list, (str, bytes, AbstractSet)) \
            or not hasattr(label_list, "__iter__"):
        raise InputTypeError(f"label_list must be the tags in id order (a list, or an "
                             f"id2label dict), not {shown(label_list)}")
    if isinstance(label_list, Mapping):
        by_id = {_label_id(key): tag for key, tag in label_list.items()}
        if None in by_id or len(by_id) != len(label_list):  # 1.5, or both 0 and "0"
            raise InputTypeError("label_list as a dict must map integer ids to tags "
                                 f"(id2label), got keys {shown(list(label_list)[:10])}")
        if sorted(by_id) != list(range(len(by_id))):
            missing = sorted(set(range(max(by_id, default=-1) + 1)) - set(by_id))[:10]
            raise LabelIdError(f"label_list as a dict must map every id 0..{len(by_id) - 1} "
                               f"to a tag; ids {sorted(by_id)[:10]} given, missing {missing}")
        label_list = [by_id[i] for i in range(len(by_id))]
    labels = tuple(label_list)
    bad = [label for label in labels if not isinstance(label, str)]
    if bad:
        raise InputTypeError(f"label_list must hold tag strings, not {shown(bad[0])} of type "
                             f"{type(bad[0]).__name__}")
    if not labels:
        raise EmptyInputError("label_list is empty: pass the model's id2label labels in id "
                              "order")
    return labels


def _label_id(key) -> int | None:
    """An id2label key as an int: an int, or a string of one (a JSON config's keys);
    None for anything else (a float, a bool)."""
    if isinstance(key, (int, np.integer)) and not isinstance(key, (bool, np.bool_)):
        return int(key)
    if isinstance(key, str) and key.strip().lstrip("-").isdigit():
        return int(key)
    return None


def _flatten_ids(seqs, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Flat integer ids and sentence lengths from a padded 2-D array or ragged lists.

    Integral floats (``1.0``) are accepted as ids; a fractional one, a bool, a string or
    a list nested too deep is an error naming the side, sentence and position.
    """
    if isinstance(seqs, np.ndarray) and seqs.dtype != object and seqs.ndim != 1:
        if seqs.ndim != 2:
            raise InputTypeError(f"{name} is a {seqs.ndim}-D array of shape {seqs.shape}; "
                                 f"expected one id per token (2-D): {IDS_HINT}")
        n, width = seqs.shape
        lengths = np.full(n, width, dtype=np.int64)
        return _integral_ids(seqs.ravel(), lengths, name), lengths
    # rows of arrays (a ragged object array, slices of a Trainer's batches): joined in C
    joined = _arrow_joined(seqs) if isinstance(seqs, (list, tuple, np.ndarray)) else None
    if joined is None:
        seqs, kinds = _checked_sentences(seqs, name)
        joined = _joined_rows(seqs) if kinds == {np.ndarray} else None
    if joined is not None:
        return _integral_ids(joined[0], joined[1], name), joined[1]
    lengths = _lengths(seqs)
    values = _python_ints(seqs, lengths, name) if not kinds - {list, tuple} else None
    if values is not None:
        return values, lengths
    flat = list(chain.from_iterable(seqs))
    # a bool or what is not a number is named before np.array reads it: bools as 0 and 1
    # among ints, and a string would turn every id into a string
    position = first_outside(flat, _NUMBERS)
    if position is not None:
        value = flat[position]
        _raise_bad_id(bool(value) if type(value) in _BOOLS else value, position, lengths, name)
    values = np.array(flat)
    if values.dtype.kind not in "iuf":  # objects: an int beyond 64 bits; a timedelta
        position = next((k for k, v in enumerate(flat) if np.asarray(v).dtype.kind not in "iuf"), 0)
        _raise_bad_id(flat[position], position, lengths, name)
    return _integral_ids(values, lengths, name), lengths


def first_outside(items: list, allowed: tuple) -> int | None:
    """The position of the first item that is a bool or not an instance of ``allowed``;
    None when there is none (the distinct types are read first, in one pass in C)."""
    if all(kind not in _BOOLS and issubclass(kind, allowed) for kind in set(map(type, items))):
        return None
    return next(k for k, v in enumerate(items) if type(v) in _BOOLS or not isinstance(v, allowed))


def _python_ints(seqs, lengths: np.ndarray, name: str) -> np.ndarray | None:
    """The ids of list sentences that hold Python ints only, flat, as int32 (int64 when
    one does not fit); None for anything else, which the general path reads or names.

    The exact types are read first (one pass in C): ``np.fromiter`` would read ``True``
    as 1 and truncate 1.5. The copy is then one more pass in C, where the general path
    builds a list of every id and lets ``np.array`` find their type (36 vs 43 ms on 750k
    ids).
    """
    if set(map(type, chain.from_iterable(seqs))) != {int}:
        return None
    total = int(lengths.sum())
    for dtype in (np.int32, np.int64):
        try:
            return np.fromiter(chain.from_iterable(seqs), dtype, count=total)
        except OverflowError:  # an id beyond the type
            continue
    position, value = next((k, v) for k, v in enumerate(chain.from_iterable(seqs))
                           if not _INT64.min <= v <= _INT64.max)
    _raise_bad_id(value, position, lengths, name)


def _joined_rows(rows) -> tuple[np.ndarray, np.ndarray] | None:
    """``(flat values, lengths)`` of 1-D NumPy rows of mixed dtypes, or None when a row
    is not 1-D, is bool, or the values are objects (the caller's list path then names
    the offending item)."""
    if any(dtype.kind == "b" for dtype in set(map(_DTYPE, rows))):
        return None  # np.concatenate would read them as 0 and 1 among ints
    try:
        values = np.concatenate(rows)
    except ValueError:  # rows of different dimensions, 0-d rows, no rows
        return None
    if values.ndim != 1 or values.dtype == object:
        return None
    return values, _lengths(rows)


def _arrow_joined(rows) -> tuple[np.ndarray, np.ndarray] | None:
    """``(flat values, lengths)`` of rows that are 1-D NumPy arrays of one numeric
    dtype, or None (other rows take the checked path, which names what is wrong).

    pyarrow joins them, given that dtype so that it converts nothing: one pass in C++
    that also refuses a row that is not 1-D (4 ms on 50k rows of ~15 ids, where
    ``np.concatenate`` takes 8). Reading the dtypes first is the only other pass: a row
    without one (a list) stops it, and every row's dtype equal to one numeric
    ``np.dtype`` means every row is an array or array-like pyarrow reads as such.

    The rows are joined ``JOIN_ROWS`` at a time, each block into buffers of pyarrow's
    system pool (the heap NumPy uses), and the blocks then into one NumPy array, as
    int32 when integer ids fit (the corpus keeps int32 ids: this saves it a copy). In
    one call pyarrow grows a column's buffer by reallocating it, a copy into fresh
    pages at every doubling: on 750k ids that was ~3,400 page faults in one call of
    two (5 vs 9-13 ms), and Arrow's default pool, which keeps its pages, left NumPy's
    temporaries to fault instead. Blocks of 4,096 rows reuse freed heap memory: a
    score of 750k ragged ids after a seqeval run faults ~240 pages instead of ~3,000
    and takes 28 instead of 31 ms (mean of the faster half of 100 runs).
    """
    try:
        dtypes = list(map(_DTYPE, rows))
    except AttributeError:  # a row that is not an array
        return None
    dtype = dtypes[0] if dtypes else None
    if not isinstance(dtype, np.dtype) or dtype.kind not in "iuf":
        return None
    # rows of one array share one dtype object: list.count finds it by identity before
    # it compares, 0.4 ms on 50k rows where a set hashes every dtype (0.8 ms)
    if dtypes.count(dtype) != len(dtypes):
        return None
    try:
        import pyarrow as pa

        list_type, pool = pa.list_(pa.from_numpy_dtype(dtype)), pa.system_memory_pool()
        blocks = [pa.array(rows[a:a + JOIN_ROWS], type=list_type, memory_pool=pool)
                  for a in range(0, len(rows), JOIN_ROWS)]
    except (ImportError, ValueError, TypeError, OverflowError):  # ArrowInvalid is a ValueError
        return None
    except Exception as error:  # other Arrow errors (capacity): the checked path decides
        if type(error).__module__.startswith("pyarrow"):
            return None
        raise
    values = [block.values.to_numpy(zero_copy_only=False) for block in blocks]
    lengths = np.concatenate([np.diff(block.offsets.to_numpy()) for block in blocks])
    narrow = dtype.kind in "iu" and dtype.itemsize > 4 and all(map(_fits_int32, values))
    return (np.concatenate(values, dtype=np.int32 if narrow else dtype, casting="unsafe"),
            lengths.astype(np.int64, copy=False))


JOIN_ROWS = 4096  # rows per pyarrow call in _arrow_joined


def _fits_int32(values: np.ndarray) -> bool:
    """Whether every value fits int32: one unsigned maximum when none is negative."""
    return (not _any_outside(values, _INT32.max + 1)
            or bool(_INT32.min <= values.min() and values.max() <= _INT32.max))


_INT32, _INT64 = np.iinfo(np.int32), np.iinfo(np.int64)


_DTYPE = attrgetter("dtype")
_NDIM = attrgetter("ndim")
_BOOLS = {bool, np.bool_}
_NUMBERS = (int, float, np.integer, np.floating)


def _interned_words(tokens) -> tuple | None:
    """``(flat token ids, sentence lengths, vocab)`` of words per sentence, or of a
    ``Corpus`` that holds them already interned."""
    if tokens is None:
        return None
    if isinstance(tokens, Corpus):
        if tokens.tokens is None:
            raise ValueError("the tokens corpus has no tokens")
        return tokens.tokens, tokens.lengths, tokens.vocab
    tokens = _as_sentences(tokens, "tokens")
    lengths = _lengths(tokens)
    vocab_index = Interner()
    ids = _intern(tokens, vocab_index, int(lengths.sum()), "tokens", "words")
    return ids, lengths, tuple(vocab_index)


def _kept_lengths(keep: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Per sentence, how many positions ``keep`` keeps."""
    width = int(lengths[0])
    if width and width * len(lengths) == len(keep) and (lengths == width).all():
        return _row_counts(keep.reshape(len(lengths), width))  # a padded 2-D array
    kept_before = _offsets(keep.astype(np.int64))  # kept positions before each position
    starts = _offsets(lengths)
    return kept_before[starts[1:]] - kept_before[starts[:-1]]


def _row_counts(mask: np.ndarray) -> np.ndarray:
    """The number of True values in every row of a 2-D boolean array, as int64.

    Summed as bytes into the smallest type that holds the width: 1.0 ms on 50k rows of
    34, ``mask.sum(axis=1)`` 1.8 ms (it adds every value as an int64).
    """
    counts = np.add.reduce(mask.view(np.uint8), axis=1,
                           dtype=np.min_scalar_type(mask.shape[1]))
    return counts.astype(np.int64)


def _any_outside(ids: np.ndarray, n_labels: int) -> bool:
    """Whether an integer id is outside ``0..n_labels - 1``: one unsigned maximum, in
    which negative ids wrap to huge values (half the time of ``min`` and ``max``)."""
    if not len(ids):
        return False
    if ids.dtype.kind == "i":
        ids = ids.view(ids.dtype.str.replace("i", "u"))
    return int(ids.max()) >= n_labels


def _id_outside(flat, keep, lengths, n_labels: int, side: str) -> LabelIdError:
    """The error for the first kept id of ``flat`` outside ``0..n_labels - 1``."""
    bad = (flat < 0) | (flat >= n_labels)
    if keep is not None:
        bad &= keep
    position = int(np.argmax(bad))
    starts = _offsets(lengths)
    sentence = int(np.searchsorted(starts, position, side="right") - 1)
    return LabelIdError(
        f"id {int(flat[position])} is outside the label list (0..{n_labels - 1})",
        sentence=sentence, side=side, position=int(position - starts[sentence]))


def _integral_ids(values: np.ndarray, lengths: np.ndarray, name: str) -> np.ndarray:
    """``values`` as integer ids: integers as they are (the corpus checks their range),
    integral floats as int64; anything else is an error naming its position."""
    if values.dtype.kind in "iu":
        return values
    if values.dtype.kind == "f":
        bad = ~np.isfinite(values) | (values != np.round(values)) | (np.abs(values) >= 2**63)
        if not bad.any():
            return values.astype(np.int64)
        position = int(np.argmax(bad))
        if np.isfinite(values[position]) and abs(values[position]) >= 2**63:  # beyond int64
            _raise_bad_id(int(values[position]), position, lengths, name)
    else:  # bools, strings
        position = 0
    _raise_bad_id(values[position].item() if hasattr(values[position], "item")
                  else values[position], position, lengths, name)


def _raise_bad_id(value, position: int, lengths: np.ndarray, name: str):
    starts = _offsets(lengths)
    sentence = int(np.searchsorted(starts, position, side="right") - 1)
    if isinstance(value, (list, tuple)) or isinstance(value, np.ndarray) and value.ndim:
        problem = f"{shown(value)} is a list: ids nested too deep; {IDS_HINT}"
    elif isinstance(value, str):
        problem = (f"{shown(value)} is a string: with label_list, {name} must be integer "
                   "label ids (or drop label_list and pass tag strings)")
    elif isinstance(value, int) and not isinstance(value, bool):  # beyond 64 bits
        problem = f"id {value} is outside the label list"
    else:
        problem = f"{shown(value)} is not an integer label id"
    raise LabelIdError(problem, sentence=sentence, side=name,
                       position=position - int(starts[sentence]))


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(s, s + n)`` for every (s, n), without a Python loop.

    >>> ranges(np.array([3, 10]), np.array([2, 3])).tolist()
    [3, 4, 10, 11, 12]
    """
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    nonempty = lengths > 0
    starts, lengths = starts[nonempty], lengths[nonempty]
    steps = np.ones(total, dtype=np.int64)
    heads = np.cumsum(lengths)[:-1]
    steps[0] = starts[0]
    steps[heads] = starts[1:] - (starts[:-1] + lengths[:-1] - 1)
    return np.cumsum(steps)
