"""The corpus model: interned tokens and tags as flat integer arrays.

A ``Corpus`` holds one sentence segmentation (``offsets``), optionally the tokens, and
any number of tag columns (gold, one or several systems) over one shared label
vocabulary. Everything downstream works on these arrays.

A corpus is immutable and checks itself when built (``Corpus.__post_init__``, NumPy
passes, no loop per token): whoever holds one may rely on its shape and ids, and no one
can change it afterwards (its arrays are read-only, its columns a read-only mapping).
Other corpora come from its methods (``select``, ``renamed``, ``paired``,
``with_columns``, ``with_tags``, ``with_tokens``, ``without_tokens``, ``subset``,
``block``), which check only what they change.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from typing import Mapping, Sequence

import numpy as np

from .arrow_columns import is_arrow
from .dataset_input import arrow_arrays, arrow_words, dataset_arrays
from .errors import (EmptyInputError, InputTypeError, LabelIdError, LengthMismatchError,
                     NameTakenError, NerspanError, SentenceCountError, counted)
from .flat import (GOLD, IGNORE_INDEX, PRED, Interner, _any_outside, _as_sentences,
                   _flatten_ids, _id_outside, _intern, _kept_lengths, _lengths, _offsets,
                   as_label_list, check_shapes, parting, ranges, side_name)
# read from here before flat.py held them (nerlens.report, the commands, tests)
from .flat import _a, _row_counts, as_sentences, first_outside, int32_array  # noqa: F401


@dataclass(frozen=True)
class Source:
    """Where a corpus came from, so that errors can name the file and line."""

    path: str | None = None
    sentence_lines: np.ndarray | None = None  # 1-based line of each sentence's first token
    repaired_lines: tuple = ()  # lines whose missing tag was filled in by the reader
    # column -> sentence of every span that span input widened to token boundaries
    snapped: Mapping = field(default_factory=dict)
    # column -> sentence of every identical mention (type and span) that span input gave
    # again and reading dropped (scored mentions kept at a threshold: the lower scores)
    duplicates: Mapping = field(default_factory=dict)
    # column -> sentence of every mention that type processing retyped / dropped
    # (``nerspan.type_processing``); a column named here is processed already
    types_mapped: Mapping = field(default_factory=dict)
    types_removed: Mapping = field(default_factory=dict)
    types_seen: frozenset = frozenset()  # the types of processed columns, before processing
    # column -> sentence of every invalid transition / tag outside the scheme in tags
    # that type processing wrote anew (still counted as repairs)
    retyped_transitions: Mapping = field(default_factory=dict)
    retyped_outside: Mapping = field(default_factory=dict)
    retyped_discarded: Mapping = field(default_factory=dict)  # strict mode's discards
    # column -> what reading and grounding generated predictions did to it (a
    # ``nerspan.generative.GenerativeRepairs``: its ungrounded entities are predictions)
    generated: Mapping = field(default_factory=dict)
    # each sentence's number in the input it was read from, for a corpus of some of its
    # sentences (``Corpus.subset``: the gold sentences generated output answers); None:
    # the sentences are numbered 0, 1, ... as they are here
    sentence_numbers: np.ndarray | None = None
    # column -> its mentions as read from span lists (a ``nerspan.spans.Spans`` at the
    # corpus's offsets, in list order), which entity scores read (``Corpus.span_table``). When they
    # nest or overlap tags cannot hold them, so the column's tags are all O and reading
    # them is a ``SpanShapeError`` (``Corpus.column``, ``Corpus.mentions``); else the
    # column holds their IOB2 tags
    mentions: Mapping = field(default_factory=dict)

    def number(self, sentence: int) -> int:
        """Sentence ``sentence``'s number in the input it was read from."""
        numbers = self.sentence_numbers
        return sentence if numbers is None else int(numbers[sentence])

    def locate(self, sentence: int) -> dict:
        if self.sentence_lines is None or not 0 <= sentence < len(self.sentence_lines):
            return {"path": self.path}
        return {"path": self.path, "line": int(self.sentence_lines[sentence])}


# The fields of ``Source`` that hold, per column, the sentence of every span changed:
# those counted in ``repairs`` under their own name (``nerspan.spans.Repairs``), and the
# repairs of tags that type processing wrote anew (added to invalid_transitions,
# outside_scheme and, in strict mode, discarded_chunks and lenient_chunks).
CHANGE_KINDS = ("snapped", "types_mapped", "types_removed", "duplicates")
PER_COLUMN = CHANGE_KINDS + ("retyped_transitions", "retyped_outside",
                             "retyped_discarded")


def _followed(source: Source, places, totals: bool = True) -> dict:
    """``Source``'s per-sentence records (``PER_COLUMN``, and ``generated``: each
    column's ``GenerativeRepairs``, whose ungrounded entities are predictions) for the
    corpus of some of its sentences: every sentence ``i`` is at ``places(i)`` there (none,
    one, or several in a resample). A generated record that lost its listings of the
    other sentences would lose their false positives; it keeps the output's totals, or
    with ``totals`` False none (``GenerativeRepairs.at``)."""
    out = {kind: {column: tuple(sorted(k for i in sentences for k in places(i)))
                  for column, sentences in getattr(source, kind).items()}
           for kind in PER_COLUMN}
    out["generated"] = {column: record.at(places, totals)
                        for column, record in source.generated.items()}
    return out


def _mentions_at(source: Source, sentences: np.ndarray) -> dict:
    """``Source.mentions`` of the corpus of ``sentences`` (indices of this one's)."""
    return {column: rows.at(sentences) for column, rows in source.mentions.items()}


@dataclass(frozen=True)
class Corpus:
    """Sentences of tokens with one or more tag columns, checked when built.

    Attributes:
        offsets: int64 array of length ``n_sentences + 1``, from 0, never decreasing;
            sentence ``i`` covers positions ``offsets[i]:offsets[i + 1]`` of every flat
            array.
        columns: column name (a string) -> integer array of label ids, one per token,
            each inside ``labels`` (a read-only mapping).
        labels: label vocabulary (strings); ``labels[id]`` is the tag string.
        tokens: integer array of token ids inside ``vocab``, one per token, or None when
            no tokens were given.
        vocab: token vocabulary (strings); ``vocab[id]`` is the token string.
        source: where the corpus came from (file, lines), for error messages.

    Building one checks all of this in NumPy passes (``InputTypeError``,
    ``LengthMismatchError``, ``LabelIdError`` otherwise) and makes every array a
    read-only view, so that no holder can change a corpus another holds.

    >>> c = Corpus(np.array([0, 2]), {"gold": np.array([0, 3])}, ("O", "B-PER"))
    Traceback (most recent call last):
    ...
    nerspan.errors.LabelIdError: column 'gold', sentence 0, position 1: id 3 is outside the label list (0..1)
    """

    offsets: np.ndarray
    columns: Mapping[str, np.ndarray]
    labels: tuple
    tokens: np.ndarray | None = None
    vocab: tuple = ()
    source: Source = field(default_factory=Source)

    def __post_init__(self):
        self._check(_FIELDS, set(self.columns))

    def _check(self, changed, new_columns=()) -> None:
        """Check (and freeze) the fields ``changed`` and the columns ``new_columns``; a
        field that is not changed was checked when the corpus it comes from was built."""
        put = object.__setattr__.__get__(self)
        if "offsets" in changed:
            put("offsets", _checked_offsets(self.offsets))
        if "labels" in changed:
            put("labels", _checked_strings(self.labels, "labels"))
        if "vocab" in changed:
            put("vocab", _checked_strings(self.vocab, "vocab"))
        if "columns" in changed or "offsets" in changed:
            checked = set(self.columns) if "offsets" in changed else set(new_columns)
            put("columns", _checked_columns(self, checked))
        if ("tokens" in changed or "offsets" in changed) and self.tokens is not None:
            put("tokens", _checked_ids(self.tokens, self, len(self.vocab), "tokens"))

    def _derive(self, *, new_columns=(), **changes) -> "Corpus":
        """A corpus of this one's fields with ``changes``; only those are checked (and
        of the columns, those named by ``new_columns``)."""
        corpus = object.__new__(Corpus)
        for name in _FIELDS + ("source",):
            object.__setattr__(corpus, name, changes.get(name, getattr(self, name)))
        corpus._check(set(changes), new_columns)
        return corpus

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
        """The label ids of the tag column ``name``; a ``SpanShapeError`` when its
        mentions nest or overlap (``Source.mentions``: no tags hold them)."""
        rows = self.mentions(name)
        if rows is not None:
            raise rows.shape_error(side_name(name))
        return self._ids(name)

    def _ids(self, name: str) -> np.ndarray:
        try:
            return self.columns[name]
        except KeyError:
            raise KeyError(f"corpus has no tag column {name!r}; it has {list(self.columns)}") from None

    def mentions(self, name: str) -> "Spans | None":
        """The mentions of column ``name`` when they nest or overlap, else None (its
        tags hold them)."""
        rows = self.source.mentions.get(name)
        return rows if rows is not None and rows.needs_table() else None

    def span_table(self, name: str) -> "Spans | None":
        """The mentions of column ``name`` as read from span lists (flat or not), else
        None (it was read as tags)."""
        return self.source.mentions.get(name)

    def tags(self, name: str, sentence: int, start: int = 0, end: int | None = None
             ) -> list[str]:
        """The tag strings of one sentence of one column; with ``start`` and ``end``
        those of its tokens ``[start, end)`` alone (read without the rest of the
        sentence: a mention's tags in a sentence of a million tokens)."""
        first, last = int(self.offsets[sentence]), int(self.offsets[sentence + 1])
        stop = last if end is None else min(last, first + end)
        return [self.labels[i] for i in self.column(name)[first + start:stop]]

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

    # -- other corpora from this one -------------------------------------------------
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
        renamed = {name: (names or {}).get(name, name) for name in other.columns}
        columns = joined_columns(self.columns.items(), (
            (renamed[name], ids if same_ids and ids.dtype == np.int32 else remap[ids])
            for name, ids in other.columns.items()))
        source = self.source
        # what span input, type processing or grounding did stays with its column
        for kind in PER_COLUMN + ("generated", "mentions"):
            theirs = getattr(other.source, kind)
            if theirs:
                moved = {renamed.get(c, c): v for c, v in theirs.items() if c in other.columns}
                source = replace(source, **{kind: {**getattr(source, kind), **moved}})
        changes = dict(columns=columns, source=source)
        if len(labels) != len(self.labels):
            changes["labels"] = tuple(labels)
        return self._derive(**changes, new_columns=renamed.values())

    def with_column(self, name: str, ids: np.ndarray, labels: Sequence[str] | None = None
                    ) -> "Corpus":
        """This corpus plus the tag column ``name`` of label ids over ``labels``, which
        extend this corpus's labels (default: they are this corpus's)."""
        changes = {"columns": joined_columns(self.columns.items(), [(name, ids)])}
        if labels is not None:
            labels = tuple(labels)
            if labels[:len(self.labels)] != self.labels:
                raise ValueError("labels must extend the corpus's labels: its ids keep "
                                 "their meaning")
            changes["labels"] = labels
        return self._derive(**changes, new_columns=[name])

    def with_tags(self, columns: Mapping[str, np.ndarray], labels: Sequence[str] | None = None,
                  source: Source | None = None) -> "Corpus":
        """The same sentences and words with the tag ``columns`` alone, over ``labels``
        (default: this corpus's), and ``source`` if given."""
        changes = {"columns": dict(columns)}
        if labels is not None:
            changes["labels"] = tuple(labels)
        source = self.source if source is None else source
        # a flat span table is the mentions of the tags it was read with: other tags
        # (retyped, relabelled) or none drop it
        kept = {c: rows for c, rows in source.mentions.items()
                if rows.needs_table() or columns.get(c) is self.columns.get(c)}
        changes["source"] = replace(source, mentions=kept) if len(kept) != len(
            source.mentions) else source
        return self._derive(**changes, new_columns=list(columns))

    def renamed(self, names: Mapping[str, str]) -> "Corpus":
        """The same corpus with the columns ``names`` maps renamed (a name taken by
        another column is an error)."""
        columns = joined_columns((names.get(name, name), ids)
                                 for name, ids in self.columns.items())
        mentions = {names.get(c, c): rows for c, rows in self.source.mentions.items()}
        return self._derive(columns=columns,
                            source=replace(self.source, mentions=mentions))

    def select(self, columns: Sequence[str]) -> "Corpus":
        """The corpus with the tag ``columns`` alone, in that order."""
        mentions = {c: rows for c, rows in self.source.mentions.items() if c in columns}
        return self._derive(columns={c: self._ids(c) for c in columns},
                            source=replace(self.source, mentions=mentions))

    def paired(self, gold_column: str = GOLD, pred_column: str | None = PRED) -> "Corpus":
        """The columns ``gold_column`` and ``pred_column`` alone, named ``GOLD`` and
        ``PRED`` (``pred_column`` None: the gold column alone): one system against gold,
        as every family scores it."""
        columns = {GOLD: self._ids(gold_column)}
        if pred_column is not None:
            columns[PRED] = self._ids(pred_column)
        names = {gold_column: GOLD, pred_column: PRED}
        source = self.source
        # what input repaired follows its column
        for kind in ("snapped", "duplicates", "generated", "mentions"):
            mine = getattr(source, kind)
            if mine:
                source = replace(source, **{kind: {names[c]: v for c, v in mine.items()
                                                   if c in names}})
        return self._derive(columns=columns, source=source)

    def with_tokens(self, tokens) -> "Corpus":
        """This corpus with the words ``tokens`` (lists per sentence, or a ``Corpus``
        holding them) of the same shape; errors name ``tokens``."""
        token_ids, lengths, vocab = _interned_words(tokens)  # one pass; no tag column made up
        if not np.array_equal(lengths, self.lengths):
            words = Corpus(_offsets(lengths), {}, (), token_ids, tuple(vocab))
            check_same_shape(self, words, "tokens")
        return self._derive(tokens=token_ids, vocab=tuple(vocab))

    def without_tokens(self) -> "Corpus":
        """This corpus without its words (``tokens`` None): enough for entity scores."""
        return self._derive(tokens=None, vocab=())

    def with_source(self, source: Source) -> "Corpus":
        """The same corpus said to come from ``source``."""
        return self._derive(source=source)

    def subset(self, sentences: np.ndarray) -> "Corpus":
        """The corpus restricted to (or resampled as) the given sentence indices; its
        ``source.sentence_numbers`` keep each sentence's number in the whole input."""
        sentences = np.asarray(sentences, dtype=np.int64)
        lengths = self.lengths[sentences]
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        positions = ranges(self.offsets[sentences], lengths)
        columns = {name: ids[positions] for name, ids in self.columns.items()}
        tokens = None if self.tokens is None else self.tokens[positions]
        lines = self.source.sentence_lines
        placed: dict = {}   # sentence -> its places here (a resample repeats sentences)
        for k, i in enumerate(sentences.tolist()):
            placed.setdefault(i, []).append(k)
        numbers = self.source.sentence_numbers
        source = Source(self.source.path, None if lines is None else lines[sentences],
                        self.source.repaired_lines,
                        **_followed(self.source, lambda i: placed.get(i, ())),
                        sentence_numbers=sentences if numbers is None else numbers[sentences],
                        mentions=_mentions_at(self.source, sentences))
        return self._derive(offsets=offsets, columns=columns, tokens=tokens, source=source)

    def block(self, first: int, stop: int) -> "Corpus":
        """Sentences ``first`` to ``stop`` (exclusive) as a corpus of views of this one's
        arrays (no copy), with their file lines and snapped spans, renumbered.

        Whatever their cut, the blocks' records add up to this corpus's (merged by
        sentence: ``nerspan.partials``), so that any user of blocks merges their results
        to one pass's. A generated record gives each block the listings of its sentences;
        its totals (``GenerativeRepairs.at``), which are not kept per sentence, go with
        sentence 0: the block that holds it carries them, the others none, so that they
        are counted once."""
        a, b = int(self.offsets[first]), int(self.offsets[stop])
        lines, numbers = self.source.sentence_lines, self.source.sentence_numbers
        source = Source(self.source.path, None if lines is None else lines[first:stop],
                        **_followed(self.source,
                                    lambda i: (i - first,) if first <= i < stop else (),
                                    totals=first == 0 < stop),
                        sentence_numbers=None if numbers is None else numbers[first:stop],
                        mentions=_mentions_at(self.source, np.arange(first, stop)))
        return self._derive(offsets=self.offsets[first:stop + 1] - a,
                            columns={name: ids[a:b] for name, ids in self.columns.items()},
                            tokens=None if self.tokens is None else self.tokens[a:b],
                            source=source)

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
        ref, pred, labels, words, ignore = dataset_arrays(
            dataset, tags_column, tokens_column, predictions, ignore_index)
        return cls._from_flat_ids(ref, pred, labels, words, ignore)

    @classmethod
    def from_arrow(cls, references, predictions=None, tokens=None, label_list=None,
                   ignore_index: int = IGNORE_INDEX) -> "Corpus":
        """Build a corpus from Arrow list arrays (``pyarrow``; evaluate stores a module's
        inputs so), read through their buffers: no Python object is made per tag.

        ``references`` hold tag strings, or label ids with ``label_list`` (positions
        whose reference id is ``ignore_index`` are dropped, as ``from_ids`` drops them);
        ``predictions`` the same beside them (an Arrow array, or lists); ``tokens`` an
        Arrow array or lists per sentence. The same corpus as ``from_tags`` and
        ``from_ids`` build of the same lists.

        >>> import pyarrow as pa
        >>> c = Corpus.from_arrow(pa.array([["B-PER", "O"]]), pa.array([["O", "O"]]),
        ...                       pa.array([["Ana", "sang"]]))
        >>> c.tags("gold", 0), c.tags("pred", 0), c.sentence_tokens(0)
        (['B-PER', 'O'], ['O', 'O'], ['Ana', 'sang'])
        """
        ref, pred, labels, ignore = arrow_arrays(references, predictions, label_list,
                                                 ignore_index)
        words = arrow_words(tokens) if is_arrow(tokens) else _interned_words(tokens)
        if words is not None and ignore is None:   # the tags' error names the odd input
            check_shapes({"references": ref[1], **({} if pred is None else
                                                   {"predictions": pred[1]}),
                          "tokens": words[1]})
        return cls._from_flat_ids(ref, pred, labels, words, ignore)


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


# -- the checks every corpus passes when built -----------------------------------------
_FIELDS = ("offsets", "columns", "labels", "tokens", "vocab")


class Columns(dict):
    """A corpus's tag columns: name -> label ids, read-only (a corpus never changes)."""

    def _refuse(self, *args, **kwargs):
        raise TypeError("a corpus's columns cannot change: make another corpus with "
                        "with_columns, with_column, select or renamed")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self):
        return Columns, (dict(self),)


def _frozen(values: np.ndarray) -> np.ndarray:
    """A read-only view of ``values`` (the caller's own array stays as it was)."""
    view = values.view()
    view.flags.writeable = False
    return view


def _checked_offsets(offsets) -> np.ndarray:
    offsets = np.asarray(offsets)
    if offsets.ndim != 1 or offsets.dtype.kind not in "iu" or not len(offsets):
        raise InputTypeError("corpus offsets must be a 1-D integer array of n_sentences "
                             f"+ 1 positions, not {offsets.dtype} of shape {offsets.shape}")
    if offsets[0] != 0 or (len(offsets) > 1 and bool((offsets[1:] < offsets[:-1]).any())):
        bad = 0 if offsets[0] != 0 else int(np.argmax(offsets[1:] < offsets[:-1])) + 1
        raise InputTypeError(f"corpus offsets must start at 0 and never decrease: offset "
                             f"{bad} is {int(offsets[bad])}")
    return _frozen(offsets.astype(np.int64, copy=False))


def _checked_strings(values, name: str) -> tuple:
    """``values`` as a tuple of strings (their types read in one pass in C)."""
    values = values if type(values) is tuple else tuple(values)
    if not all(issubclass(kind, str) for kind in set(map(type, values))):
        bad = next(v for v in values if not isinstance(v, str))
        raise InputTypeError(f"corpus {name} must be strings, not {bad!r} "
                             f"({type(bad).__name__})")
    return values


def _checked_columns(corpus: Corpus, check: set) -> Columns:
    """The columns as a read-only mapping: names strings, the arrays named by ``check``
    checked and frozen (the others come checked from another corpus)."""
    columns = corpus.columns
    if not isinstance(columns, Mapping):
        raise InputTypeError(f"corpus columns must map names to ids, not "
                             f"{type(columns).__name__}")
    for name in columns:
        if type(name) is not str:
            raise InputTypeError(f"a corpus column name must be a string, not {name!r}")
    return Columns({name: _checked_ids(ids, corpus, len(corpus.labels), f"column {name!r}")
                    if name in check else ids for name, ids in columns.items()})


def _checked_ids(ids, corpus: Corpus, n_ids: int, side: str) -> np.ndarray:
    """``ids`` if they are one integer id below ``n_ids`` per token of ``corpus``."""
    ids = np.asarray(ids)
    if ids.ndim != 1 or ids.dtype.kind not in "iu":
        raise InputTypeError(f"{side} must be a 1-D integer array of ids, not {ids.dtype} "
                             f"of shape {ids.shape}")
    if len(ids) != corpus.n_tokens:
        raise LengthMismatchError(f"{side} holds {counted(len(ids), 'id')} for "
                                  f"{counted(corpus.n_tokens, 'token')}")
    if _any_outside(ids, n_ids):
        error = _id_outside(ids, None, corpus.lengths, n_ids, side)
        if side == "tokens":
            error = LabelIdError(error.problem.replace("label list", "vocabulary"),
                                 error.sentence, side=side, position=error.position)
        raise error
    return ids if not ids.flags.writeable else _frozen(ids)
