"""Tags to spans, for a whole corpus at once.

Decoding works on the canonical prefix code and type id of every token. Every sentence
is read as if a sentinel ``O`` came before and after it, so that mentions never cross a
sentence and every mention is closed; the scheme's lookup tables, indexed by label
pair, then say for every position at once whether a mention starts, continues or ends
there.
"""
from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .corpus import CHANGE_KINDS, Corpus
from .span_table import FRAGMENT_REMEDY, LAYERS_HINT, SpanShapeError, rows_at
from .flat import GAMMA64, GOLD, mixed64, owned, ranges, side_name
from .errors import DecodingWarning, InvalidTagError, counted, shown
from .schemes import (FALLBACK_PREFIXES, LENIENT_TABLES, N_PREFIXES, O, Scheme,
                      check_mode, get_scheme, split_tag)


@dataclass(frozen=True)
class LabelTable:
    """Per-label canonical prefix and type id, for one label vocabulary and scheme."""

    prefix: np.ndarray       # uint8, canonical prefix code per label id
    type: np.ndarray         # int32, type id per label id (-1 for O)
    types: tuple             # type vocabulary, sorted
    outside_scheme: np.ndarray  # bool, label's prefix letter is not one of the scheme's
    unreadable: tuple        # labels with no meaning at all (unknown prefix letter)

    @classmethod
    def build(cls, labels, scheme: Scheme) -> "LabelTable":
        parsed = [split_tag(label) for label in labels]
        types = tuple(sorted({t for p, t in parsed if p != "O"}))
        type_index = {t: i for i, t in enumerate(types)}
        prefix = np.zeros(len(labels), dtype=np.uint8)
        type_ids = np.full(len(labels), -1, dtype=np.int32)
        outside = np.zeros(len(labels), dtype=bool)
        unreadable = []
        for i, (letter, entity_type) in enumerate(parsed):
            if tag_problem(labels[i]) is not None:
                unreadable.append(labels[i])
                continue
            code = scheme.prefixes.get(letter)
            if code is None:
                outside[i] = True
                code = FALLBACK_PREFIXES.get(letter)
                if code is None:
                    unreadable.append(labels[i])
                    continue
            prefix[i] = code
            if code != O:
                type_ids[i] = type_index[entity_type]
        return cls(prefix, type_ids, types, outside, tuple(unreadable))


@dataclass(frozen=True)
class Spans:
    """Mentions of one tag column, sorted by position (as decoded and as entity scores
    read them; span lists are read in their order, ``read_spans``, as faireval reads them).

    ``start``/``end`` are flat corpus positions (``end`` exclusive); ``sentence`` is the
    sentence index, found from the corpus ``offsets`` when first read (entity scores
    never need it); ``type`` indexes ``types``. Mentions read from a table
    (``table_spans``) may nest, overlap and be discontinuous: ``fragments`` is then
    ``(owner, start, end)``, the fragments of every mention of several (``owner`` its
    index here), sorted by owner and start; ``start``/``end`` of such a mention span its
    first to its last fragment. ``repairs`` counts what lenient decoding
    had to repair (see ``Repairs``); ``scheme`` and ``mode`` say how the column was
    decoded (results report them among their ``options``).
    """

    start: np.ndarray
    end: np.ndarray
    offsets: np.ndarray
    type: np.ndarray
    types: tuple
    repairs: "Repairs" = field(default=None)
    scheme: str | None = None
    mode: str | None = None
    fragments: tuple | None = None

    @cached_property
    def sentence(self) -> np.ndarray:
        return np.searchsorted(self.offsets, self.start, side="right") - 1

    def __len__(self) -> int:
        return len(self.start)

    @property
    def length(self) -> np.ndarray:
        return self.end - self.start

    def take(self, indices: np.ndarray) -> "Spans":
        """The mentions at ``indices`` (in order), decoded as these were."""
        fragments = self.fragments
        if fragments is not None:
            owner, start, end = fragments
            taken, owner = owned(owner, len(self), np.asarray(indices).reshape(-1))
            fragments = (owner, start[taken], end[taken])
        return dataclasses.replace(self, start=self.start[indices], end=self.end[indices],
                                   type=self.type[indices], fragments=fragments)

    @property
    def has_fragments(self) -> bool:
        return self.fragments is not None and len(self.fragments[0]) > 0

    @property
    def fragment_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``fragments``, or three empty arrays when no mention has several."""
        return self.fragments if self.has_fragments else (_NO_ROWS,) * 3

    @property
    def discontinuous(self) -> np.ndarray:
        """Per mention: is it a mention of several fragments."""
        mask = np.zeros(len(self), dtype=bool)
        mask[self.fragment_table[0]] = True
        return mask

    @property
    def base(self) -> np.ndarray:
        """Per mention, the flat position of its sentence's first token: ``start - base``
        is its start in its sentence, as span lists and results give it."""
        return self.offsets[self.sentence]

    def fragments_of(self, k: int) -> list:
        """Mention ``k``'s fragments as ``[start, end]`` lists in its sentence."""
        owner, start, end = self.fragment_table
        base = int(self.offsets[self.sentence[k]])
        mine = np.flatnonzero(owner == k)
        if not len(mine):
            return [[int(self.start[k]) - base, int(self.end[k]) - base]]
        return [[a - base, b - base] for a, b in zip(start[mine].tolist(), end[mine].tolist())]

    def pieces(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(owner, start, end)``: the token runs every mention covers (its span, or
        each of its fragments), ``owner`` its index."""
        if not self.has_fragments:
            return np.arange(len(self)), self.start, self.end
        owner, start, end = self.fragments
        whole = np.ones(len(self), dtype=bool)
        whole[owner] = False
        kept = np.flatnonzero(whole)
        return (np.concatenate([kept, owner]), np.concatenate([self.start[kept], start]),
                np.concatenate([self.end[kept], end]))

    def io_codes(self, n_positions: int) -> np.ndarray:
        """Per flat position: 0 outside every span, ``1 + type`` inside a span of that
        type (a discontinuous mention's fragments, not its gaps)."""
        owner, start, end = self.pieces()
        io = np.zeros(n_positions, dtype=np.int64)
        io[ranges(start, end - start)] = 1 + np.repeat(self.type[owner].astype(np.int64),
                                                       end - start)
        return io

    def key(self, n_positions: int, typed: bool = True) -> np.ndarray:
        """One int64 per span identifying (start, end, type), for set operations
        (``typed=False``: (start, end) alone). A discontinuous mention's key is a 63-bit
        hash of its type and fragment set, negative (``fragment_keys``): equal keys of
        such mentions are checked to be equal fragments where they pair
        (``check_same_fragments``)."""
        span_type = self.type if typed else np.zeros_like(self.type)
        key = (self.start * (n_positions + 1) + self.end) * (len(self.types) + 1) + span_type
        if self.has_fragments:
            owners, hashed = fragment_keys(*self.fragments, span_type, n_positions)
            key[owners] = hashed
        return key

    def to_list(self, corpus: Corpus | None = None) -> list[list[tuple]]:
        """Per sentence, ``(type, start, end)`` with sentence-relative offsets."""
        n = int(self.sentence.max()) + 1 if len(self) else 0
        if corpus is not None:
            n = corpus.n_sentences
            base = corpus.offsets[self.sentence]
        else:
            base = np.zeros(len(self), dtype=np.int64)
        out = [[] for _ in range(n)]
        for s, t, a, b in zip(self.sentence.tolist(), self.type.tolist(),
                              (self.start - base).tolist(), (self.end - base).tolist()):
            out[s].append((self.types[t], a, b))
        return out

    def needs_table(self) -> bool:
        """Whether tags cannot hold these mentions: some nest, overlap, repeat a mention
        or have several fragments (found once: every read of the column asks)."""
        return self._tags_cannot_hold

    @cached_property
    def _in_sentence_order(self) -> bool:
        # found once: every bootstrap resample of the column asks (``at``)
        return bool((self.sentence[1:] >= self.sentence[:-1]).all())

    @cached_property
    def _tags_cannot_hold(self) -> bool:
        return self.has_fragments or self.first_overlap() is not None

    def first_overlap(self) -> tuple[int, int] | None:
        """The first two mentions (indices) of one sentence that share a token (a
        repeated mention too), in sentence and start order; None when they are flat."""
        return first_overlap(self.sentence, self.start, self.end)

    def shape_error(self, side: str) -> SpanShapeError:
        """The one error of mentions that tags cannot hold (``overlap_error``, or the
        first discontinuous one's)."""
        pair = self.first_overlap()
        if pair is None:
            return self._discontinuous(int(self.fragment_table[0][0]), side, TAGS_READER,
                                       LAYERS_HINT)
        base = self.base
        return overlap_error([(int(self.start[k] - base[k]), int(self.end[k] - base[k]),
                               self.types[self.type[k]]) for k in pair], side,
                             int(self.sentence[pair[0]]))

    def check_contiguous(self, side: str, reader: str, remedy: str = FRAGMENT_REMEDY
                         ) -> None:
        """Refuse discontinuous mentions where ``reader`` (what it is, how it fails:
        "a dial over scored predictions keeps one span per mention") cannot take them:
        one ``SpanShapeError`` naming the first, ``remedy`` the way to score it, rather
        than its bounds in silence."""
        if self.has_fragments:
            raise self._discontinuous(int(self.fragments[0][0]), side, reader, remedy)

    def _discontinuous(self, k: int, side: str, reader: str, remedy: str) -> SpanShapeError:
        return discontinuous_error(self.types[self.type[k]], self.fragments_of(k),
                                   int(self.sentence[k]), side, reader, remedy)

    def at(self, sentences: np.ndarray) -> "Spans":
        """The mentions of the corpus of ``sentences`` (each an index of this one's, as
        ``Corpus.subset`` takes them; repeated in a resample), in that order, at that
        corpus's flat positions (``offsets`` its own); ``repairs`` kept.

        >>> from nerspan import Corpus
        >>> c = Corpus.from_tags([["B-PER", "O"], ["O", "B-LOC"]])
        >>> at = decode(c).at([1, 1, 0])
        >>> at.to_list(c.subset([1, 1, 0])), at.start.tolist()
        ([[('LOC', 1, 2)], [('LOC', 1, 2)], [('PER', 0, 1)]], [1, 3, 4])
        """
        sentences = np.asarray(sentences, dtype=np.int64)
        taken, renumbered = rows_at(self.sentence, self._in_sentence_order, sentences)
        offsets = np.concatenate([[0], np.cumsum(np.diff(self.offsets)[sentences])]
                                 ).astype(np.int64)
        shift = offsets[renumbered] - self.offsets[self.sentence[taken]]
        return self.take(taken)._shifted(shift, offsets)

    def on(self, offsets: np.ndarray) -> "Spans":
        """These mentions at the flat positions of ``offsets`` (as many sentences, each
        long enough to hold its mentions): the layout of a corpus whose sentences are
        longer than the mentions told."""
        offsets = np.asarray(offsets, dtype=np.int64)
        if np.array_equal(offsets, self.offsets):
            return self
        return self._shifted(offsets[self.sentence] - self.offsets[self.sentence], offsets)

    def _shifted(self, shift: np.ndarray, offsets: np.ndarray) -> "Spans":
        """These mentions moved by ``shift`` (per mention) onto ``offsets``."""
        fragments = self.fragments
        if fragments is not None:
            owner, start, end = fragments
            fragments = (owner, start + shift[owner], end + shift[owner])
        return dataclasses.replace(self, start=self.start + shift, end=self.end + shift,
                                   offsets=offsets, fragments=fragments)

    def with_types(self, types: tuple) -> "Spans":
        """These mentions with their types as indices of ``types`` (which holds them)."""
        index = {name: k for k, name in enumerate(types)}
        type_ids = np.array([index[name] for name in self.types] or [0], dtype=np.int32)
        return dataclasses.replace(self, type=type_ids[self.type], types=tuple(types))


_NO_ROWS = np.zeros(0, dtype=np.int64)


def first_overlap(sentence: np.ndarray, start: np.ndarray, end: np.ndarray
                  ) -> tuple[int, int] | None:
    """The first two spans (indices) of one sentence that share a token (a repeated
    mention too), in sentence and start order; None when the spans are flat. ``start``
    and ``end`` may be in the sentence or flat positions: the order is the same."""
    order = np.lexsort((end, start, sentence))
    sentence, start, end = sentence[order], start[order], end[order]
    # a span overlaps an earlier one iff it starts before the furthest end so far
    furthest = _running_max_per_group(end, sentence)
    clash = np.flatnonzero((sentence[1:] == sentence[:-1]) & (start[1:] < furthest[:-1]))
    if not len(clash):
        return None
    k = clash[0] + 1
    earlier = np.flatnonzero((sentence[:k] == sentence[k]) & (end[:k] > start[k]))
    return int(order[earlier[0]]), int(order[k])


def overlap_error(pair: list, side: str, sentence: int) -> SpanShapeError:
    """The one error of spans that tags cannot hold: the shape, the side, the sentence,
    the two spans (``(start, end, label)`` in the sentence, as ``first_overlap`` finds
    them), and the option that scores them."""
    (a_start, a_end, a_label), (b_start, b_end, b_label) = pair
    shown_pair = [f"({start}, {end}, {shown(label)})" for start, end, label in pair]
    shape = ("repeat one mention" if pair[0] == pair[1]
             else "nest" if a_start <= b_start and b_end <= a_end else "overlap")
    return SpanShapeError(f"spans {shown_pair[0]} and {shown_pair[1]} {shape}: tags (one per "
                          "token) cannot hold nested or overlapping spans, and this scorer "
                          f"reads tags; {LAYERS_HINT}", side=side, sentence=sentence)


def discontinuous_error(label: str, fragments: list, sentence: int, side: str, reader: str,
                        remedy: str) -> SpanShapeError:
    """The error of a discontinuous mention (``label``, its ``fragments`` in its
    sentence) where ``reader`` (what it is, how it fails) cannot take it; ``remedy``
    the way to score it."""
    return SpanShapeError(f"span {shown(label)} of fragments {fragments} is discontinuous, "
                          f"and {reader}; {remedy}", side=side, sentence=sentence)


# Tags cannot hold a discontinuous mention: what ``shape_error`` says of one.
TAGS_READER = "tags (one per token) cannot hold discontinuous mentions: this scorer reads tags"


def _running_max_per_group(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """The running maximum of ``values`` restarting where ``groups`` (sorted) changes:
    one accumulate over values shifted so each group lies above every earlier one."""
    if not len(values):
        return values
    shift = (np.int64(values.max()) + 1) * groups
    return np.maximum.accumulate(values + shift) - shift


def fragment_keys(owner: np.ndarray, start: np.ndarray, end: np.ndarray,
                  span_type: np.ndarray, n_positions: int) -> tuple[np.ndarray, np.ndarray]:
    """``(owners, keys)``: per mention of several fragments (``owner`` sorted, fragments
    sorted by start within it) one int64 key, a hash of its type and its fragments in
    order, with the sign bit set (a contiguous mention's key is never negative). Each
    fragment is mixed with its rank in the mention (SplitMix64), the mixes summed per
    mention (modulo 2**64), then mixed with the type: one pass over the fragments."""
    bounds = np.flatnonzero(np.concatenate([[True], owner[1:] != owner[:-1]]))
    rank = np.arange(len(owner)) - np.repeat(bounds, np.diff(np.append(bounds, len(owner))))
    value = (start * (n_positions + 1) + end).astype(np.uint64)
    mixed = mixed64(mixed64((rank + 1).astype(np.uint64) * GAMMA64) + value * GAMMA64)
    owners = owner[bounds]
    summed = np.add.reduceat(mixed, bounds) + (span_type[owners].astype(np.uint64)
                                                + np.uint64(1)) * GAMMA64
    hashed = (mixed64(summed) >> np.uint64(1)) | np.uint64(1 << 63)
    return owners, hashed.view(np.int64)


def check_same_fragments(a: Spans, at_a: np.ndarray, b: Spans, at_b: np.ndarray) -> None:
    """Mentions ``a[at_a[k]]`` and ``b[at_b[k]]``, paired by equal keys, have equal
    fragments (a hash collision of ``fragment_keys`` is an error, never a match)."""
    sides = []
    for spans, at in ((a, at_a), (b, at_b)):
        owner, start, end = spans.fragments if spans.has_fragments else (np.zeros(0, int),) * 3
        taken, renumbered = owned(owner, len(spans), at)
        sides.append((np.bincount(renumbered, minlength=len(at)), start[taken], end[taken]))
    (count_a, start_a, end_a), (count_b, start_b, end_b) = sides
    if not (np.array_equal(count_a, count_b) and np.array_equal(start_a, start_b)
            and np.array_equal(end_a, end_b)):
        raise RuntimeError("two different fragment sets share a 63-bit key: please report "
                           "this input (mentions are never paired on a collision)")


@dataclass(frozen=True)
class Repairs:
    """What lenient decoding repaired in one column: never silent.

    ``invalid_transitions``: tag transitions that are not valid under the declared scheme
    (e.g. ``O`` -> ``I-PER`` in IOB2), read as conlleval.pl reads them.
    ``outside_scheme``: tags whose prefix letter the scheme does not have (e.g. ``S-`` in
    IOB2), read by their usual meaning. ``snapped``: character spans of span input
    widened to token boundaries (``snap=True``, see ``nerspan.reading.span_lists``).
    ``types_mapped``, ``types_removed``: mentions retyped or dropped by type processing
    (``keep_types``, ``remove_types``, ``type_map``; ``nerspan.type_processing``).
    ``sentences``: the first sentences concerned.

    Strict mode repairs nothing but discards: ``discarded_chunks`` counts the chunks of
    the lenient (conlleval) reading that strict decoding does not keep as they are, out
    of ``lenient_chunks``; ``invalid_transitions`` still counts what made them invalid,
    and ``sentences`` lists the first sentences that lost a chunk. Both are None in
    lenient mode (None in ``to_dict`` too: not applicable).
    """

    invalid_transitions: int = 0
    outside_scheme: int = 0
    sentences: tuple = ()
    snapped: int = 0
    discarded_chunks: int | None = None
    lenient_chunks: int | None = None
    types_mapped: int = 0
    types_removed: int = 0
    # generated predictions: what reading and grounding did (``nerspan.generative``'s
    # ``GenerativeRepairs``, read by its methods only: this module imports none of it)
    generated: object = None
    # each sentence's number in the input it was read from (``Source.sentence_numbers``
    # of a corpus of some of gold's sentences: those generated output answers), so that
    # ``to_dict`` names sentences as errors and examples do; None: their places
    sentence_numbers: object = field(default=None, compare=False, repr=False)
    # span input that gave one mention (type and span) twice on a side: removed, counted
    duplicates: int = 0

    @property
    def total(self) -> int:
        return (self.invalid_transitions + self.outside_scheme + self.snapped
                + (self.discarded_chunks or 0) + self.types_mapped + self.types_removed
                + self.duplicates
                + (self.generated.total if self.generated is not None else 0))

    def unplaced(self) -> dict:
        """type -> predicted entities that have no span (generated entities not found in
        their sentence): false positives the entity scores add."""
        return {} if self.generated is None else self.generated.ungrounded_by_type()

    @property
    def mostly_discarded(self) -> bool:
        """Strict decoding lost more than half of the column's chunks."""
        return bool(self.lenient_chunks) and 2 * self.discarded_chunks > self.lenient_chunks

    def to_dict(self) -> dict:
        """Every kind in ``REPAIR_KINDS``, plain Python values: counts as int,
        ``discarded_chunks``/``lenient_chunks`` None in lenient mode (not applicable);
        sentences by their numbers in the input (``sentence_numbers``), the generated
        record's listings too."""
        numbers = self.sentence_numbers
        return {"invalid_transitions": int(self.invalid_transitions),
                "outside_scheme": int(self.outside_scheme),
                "snapped": int(self.snapped),
                "discarded_chunks": _int_or_none(self.discarded_chunks),
                "lenient_chunks": _int_or_none(self.lenient_chunks),
                "types_mapped": int(self.types_mapped),
                "types_removed": int(self.types_removed),
                "duplicates": int(self.duplicates),
                "sentences": [int(s if numbers is None else numbers[s])
                              for s in self.sentences],
                **({} if self.generated is None
                   else {"generative": self.generated.to_dict(numbers)})}

    @classmethod
    def merged(cls, parts) -> "Repairs":
        """One column's repairs from several decodings of it (the levels of multi-level
        tags): counts summed, sentences merged (numbers kept by global id, a partial's,
        united: ``nerspan.partials.numbers_by_id``)."""
        parts = [p for p in parts if p is not None]
        if not parts:
            return cls()
        strict = [p for p in parts if p.discarded_chunks is not None]
        numbers = [p.sentence_numbers for p in parts if p.sentence_numbers is not None]
        if numbers and all(isinstance(found, dict) for found in numbers):
            numbers = [{s: n for found in numbers for s, n in found.items()}]
        return cls(sum(p.invalid_transitions for p in parts),
                   sum(p.outside_scheme for p in parts),
                   tuple(sorted({int(s) for p in parts for s in p.sentences}))[:20],
                   sum(p.snapped for p in parts),
                   sum(p.discarded_chunks for p in strict) if strict else None,
                   sum(p.lenient_chunks for p in strict) if strict else None,
                   sum(p.types_mapped for p in parts), sum(p.types_removed for p in parts),
                   next((p.generated for p in parts if p.generated is not None), None),
                   numbers[0] if numbers else None,
                   sum(p.duplicates for p in parts))


# The keys of one column's ``repairs`` dict, in every family's result.
REPAIR_KINDS = ("invalid_transitions", "outside_scheme", "snapped", "discarded_chunks",
                "lenient_chunks", "types_mapped", "types_removed", "duplicates", "sentences")


def repairs_dict(gold: Repairs | None, pred: Repairs | None) -> dict:
    """A result's ``repairs``: ``{"gold": {...}, "pred": {...}}``, both with the keys of
    ``REPAIR_KINDS`` (zeros when nothing was repaired), plain JSON values.

    >>> repairs_dict(None, Repairs(2, 0, (0,)))["pred"]["invalid_transitions"]
    2
    """
    return {"gold": (gold or Repairs()).to_dict(), "pred": (pred or Repairs()).to_dict()}


def _int_or_none(value):
    return None if value is None else int(value)


def repair_note(column: str, repairs: dict, scheme: str,
                look_alike: tuple | None = None) -> str:
    """The one-line note the command line prints for a column's ``repairs`` dict;
    ``look_alike``: the column's ``likely_scheme``, named when strict decoding lost
    most of its chunks.

    >>> repair_note("pred", {"invalid_transitions": 2, "outside_scheme": 0}, "IOB2")
    'note: lenient decoding repaired 2 invalid transitions and 0 tags outside the IOB2 scheme in the pred column'
    """
    name = get_scheme(scheme).name
    if repairs.get("discarded_chunks") is not None:
        note = (f"note: strict {name} decoding discarded {repairs['discarded_chunks']} of the "
                f"{counted(repairs['lenient_chunks'], 'chunk')} of the {column} column "
                f"({counted(repairs['invalid_transitions'], 'invalid transition')})")
        if 2 * repairs["discarded_chunks"] > repairs["lenient_chunks"]:
            note += f": most of them; do the tags follow {name}? " + scheme_hint(
                look_alike, command_line=True)
        return note
    return (f"note: lenient decoding repaired "
            f"{counted(repairs['invalid_transitions'], 'invalid transition')} and "
            f"{counted(repairs['outside_scheme'], 'tag')} outside the {name} scheme in the "
            f"{column} column")


# The schemes a column's tags may look like, in the order one is named when several read
# them equally well (IOB2 tags are valid IOB1 only where no mention follows O)
LOOK_ALIKES = ("IOB2", "IOBES", "BILOU", "IOB1", "IOE2", "IOE1", "BMES", "IO")


def likely_scheme(corpus: Corpus, column: str, declared: str | Scheme
                  ) -> tuple[str, int] | None:
    """``(scheme, chunks it discards)``: the scheme whose strict decoding keeps most of
    the lenient chunks of ``column``, among those with every prefix letter the column
    uses (ties: the first of ``LOOK_ALIKES``), when it discards fewer than ``declared``
    does; else None. What strict decoding's note names when it loses most chunks (IOB2
    tags read as IOBES).

    >>> likely_scheme(Corpus.from_tags([["B-PER", "I-PER", "O", "B-LOC"]]), GOLD, "IOBES")
    ('IOB2', 0)
    """
    declared = get_scheme(declared)
    ids = corpus.column(column)
    letters = {split_tag(corpus.labels[k])[0] for k in np.unique(ids).tolist()} - {"O"}
    found = {}
    for name in (declared.name,) + LOOK_ALIKES:
        scheme = get_scheme(name)
        if name in found or not letters <= set(scheme.prefixes):
            continue
        *_, repairs = _strict_spans(corpus, ids, LabelTable.build(corpus.labels, scheme),
                                    scheme)
        found[name] = repairs.discarded_chunks
    best = min(LOOK_ALIKES, key=lambda name: found.get(name, np.inf))
    if best not in found or found[best] >= found.get(declared.name, np.inf):
        return None
    return best, int(found[best])


def types_note(column: str, repairs: dict, what: str = "mention", name: str = "") -> str | None:
    """The note of what the type options did to a column's mentions (``what``: mention or
    string; ``name``: the system, before it); None: they did nothing."""
    if not (repairs.get("types_mapped") or repairs.get("types_removed")):
        return None
    return (f"note: {name}{counted(repairs['types_mapped'], what)} of {column} retyped, "
            f"{repairs['types_removed']} dropped (--type-map, --keep-types, --remove-types)")


def reading_notes(corpus: Corpus, name: str, column: str, repairs: dict, scheme: str) -> list:
    """The notes the command line prints of what reading did to a column (``name`` in
    ``corpus``): repaired or discarded chunks (``repair_note``, naming the scheme the tags
    look like when strict decoding lost most of them), the type options' work
    (``types_note``), snapping's."""
    discarded = repairs.get("discarded_chunks")
    notes = []
    if repairs["invalid_transitions"] or repairs["outside_scheme"] or discarded:
        lost_most = discarded is not None and 2 * discarded > repairs["lenient_chunks"]
        notes.append(repair_note(column, repairs, scheme, likely_scheme(corpus, name, scheme)
                                 if lost_most else None))
    notes.append(types_note(column, repairs))
    if repairs.get("snapped"):
        notes.append(f"note: {counted(repairs['snapped'], 'span')} of {column} widened to "
                     "token boundaries (--snap)")
    return [note for note in notes if note]


def scheme_hint(look_alike: tuple | None, command_line: bool = False) -> str:
    """What strict decoding's note suggests: the scheme the tags look like
    (``likely_scheme``), if any, then lenient mode; in the API's words or the command
    line's flags.

    >>> scheme_hint(("IOB2", 0)), scheme_hint(None, command_line=True)
    ("They read as IOB2 (strict IOB2 decoding keeps every chunk): declare scheme='IOB2', or use mode='lenient'", '(declare their scheme with --scheme, or use --mode lenient)')
    """
    lenient = "--mode lenient" if command_line else "mode='lenient'"
    if look_alike is None:
        return (f"(declare their scheme{' with --scheme' if command_line else ''}, or use "
                f"{lenient})")
    name, discarded = look_alike
    kept = "every chunk" if not discarded else f"all but {counted(discarded, 'chunk')}"
    declare = f"--scheme {name}" if command_line else f"declare scheme={name!r}"
    return (f"They read as {name} (strict {name} decoding keeps {kept}): {declare}, or use "
            f"{lenient}")


def decode(corpus: Corpus, column: str = GOLD, scheme: str | Scheme = "IOB2",
           mode: str = "lenient", labels: LabelTable | None = None,
           side: str | None = None) -> Spans:
    """Decode one tag column of ``corpus`` into spans.

    ``mode="lenient"`` applies conlleval.pl's chunk rules (seqeval's default mode);
    ``mode="strict"`` keeps only mentions valid under ``scheme`` (seqeval's strict mode)
    and raises ``InvalidTagError`` for a tag whose prefix the scheme does not have. The
    chunks strict mode discards are counted in ``repairs``; losing most of a column's
    chunks also raises a ``DecodingWarning``. ``side`` names the column in errors
    (default: ``references`` for gold, ``predictions`` for pred, else the column name).

    >>> from nerspan import Corpus
    >>> c = Corpus.from_tags([["O", "I-PER", "I-PER", "B-LOC"]])
    >>> decode(c).to_list(c)
    [[('PER', 1, 3), ('LOC', 3, 4)]]
    >>> strict = decode(c, mode="strict")
    >>> strict.to_list(c), strict.repairs.discarded_chunks, strict.repairs.lenient_chunks
    ([[('LOC', 3, 4)]], 1, 2)
    """
    scheme = get_scheme(scheme)
    check_mode(mode)
    table = labels if labels is not None else LabelTable.build(corpus.labels, scheme)
    ids = corpus.column(column)
    check_tags(corpus, ids, table, scheme, mode, side or side_name(column))
    if mode == "lenient":
        start, end, repairs = _lenient(corpus, ids, table, scheme)
    else:
        start, end, repairs = _strict_spans(corpus, ids, table, scheme)
        if repairs.mostly_discarded:
            warnings.warn(_discard_warning(corpus, column, scheme, repairs,
                                           side or side_name(column)), stacklevel=2)
    span_type = np.take(table.type, np.take(ids, start))  # take: faster than indexing
    return Spans(start, end, corpus.offsets, span_type, table.types,
                 _with_source_repairs(corpus, column, repairs), scheme.name, mode)


def _with_source_repairs(corpus: Corpus, column: str, repairs: Repairs) -> Repairs:
    """``repairs`` of decoding ``column`` plus what its ``corpus.source`` records: what
    span input (snapped) and type processing changed, generated output's record, the
    sentences' numbers."""
    changed = {kind: getattr(corpus.source, kind).get(column, ()) for kind in CHANGE_KINDS}
    # repairs of tags that type processing wrote anew (valid now): counted still
    rewritten = [corpus.source.retyped_transitions.get(column, ()),
                 corpus.source.retyped_outside.get(column, ()),
                 corpus.source.retyped_discarded.get(column, ())]
    if any(changed.values()) or any(rewritten):
        sentences = tuple(sorted(set(repairs.sentences).union(*changed.values(),
                                                              *rewritten)))[:20]
        strict = {} if repairs.discarded_chunks is None else dict(
            discarded_chunks=repairs.discarded_chunks + len(rewritten[2]),
            lenient_chunks=repairs.lenient_chunks + len(rewritten[2]))
        repairs = dataclasses.replace(
            repairs, sentences=sentences, **{kind: len(v) for kind, v in changed.items()},
            invalid_transitions=repairs.invalid_transitions + len(rewritten[0]),
            outside_scheme=repairs.outside_scheme + len(rewritten[1]), **strict)
    generated = corpus.source.generated.get(column)
    if generated is not None:
        sentences = tuple(sorted(set(repairs.sentences) | set(generated.sentences())))[:20]
        repairs = dataclasses.replace(repairs, sentences=sentences, generated=generated)
    if corpus.source.sentence_numbers is not None:
        repairs = dataclasses.replace(repairs, sentence_numbers=corpus.source.sentence_numbers)
    return repairs


def column_spans(corpus: Corpus, column: str = GOLD, scheme: str | Scheme = "IOB2",
                 mode: str = "lenient", labels: LabelTable | None = None,
                 side: str | None = None, flat: bool = False) -> Spans:
    """The mentions of ``column``, what every reader of a side's mentions reads: its
    span table when it was read from span lists (``table_spans``: no tags decoded
    back), else its tags decoded (``decode``; ``side`` names the column in errors).
    ``flat``: the reader takes one tag per token, so mentions that nest, overlap or
    split are a ``SpanShapeError`` (``Corpus.column``), as when its tags are read."""
    if flat:
        corpus.column(column)
    if corpus.span_table(column) is not None:
        return table_spans(corpus, column, scheme, mode, labels)
    return decode(corpus, column, scheme, mode, labels, side)


def table_spans(corpus: Corpus, column: str, scheme: str | Scheme = "IOB2",
                mode: str = "lenient", labels: LabelTable | None = None) -> Spans:
    """The mentions of a column read from span lists (``Corpus.span_table``) as
    ``Spans``, sorted by start, end and type; a mention given twice is kept once and
    counted (``Repairs.duplicates``). Span input is IOB2 tags' mentions: ``scheme`` and
    ``mode`` are only reported, and the repairs of flat spans are those decoding their
    tags would count (``flat_table_spans``)."""
    scheme = get_scheme(scheme)
    table = labels if labels is not None else LabelTable.build(corpus.labels, scheme)
    stored = corpus.span_table(column)
    spans = dataclasses.replace(stored.with_types(table.types), repairs=None,
                                scheme=scheme.name, mode=mode)
    if not stored.needs_table():
        return flat_table_spans(corpus, column, spans)
    key = spans.key(corpus.n_tokens)
    distinct, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    check_same_fragments(spans, first[inverse.ravel()], spans, np.arange(len(spans)))
    first = first[np.lexsort((distinct, spans.end[first], spans.start[first]))]
    repeated = np.ones(len(spans), dtype=bool)
    repeated[first] = False
    snapped = corpus.source.snapped.get(column, ())
    sentences = set(snapped) | set(spans.sentence[repeated].tolist())
    repairs = Repairs(stored.repairs.invalid_transitions, 0, tuple(sorted(sentences))[:20],
                      snapped=len(snapped), duplicates=int(repeated.sum()),
                      sentence_numbers=corpus.source.sentence_numbers)
    return dataclasses.replace(spans.take(first), repairs=repairs)


def flat_table_spans(corpus: Corpus, column: str, spans: Spans) -> Spans:
    """Flat mentions of span input (no two share a token) in position order, with the
    repairs of decoding their IOB2 tags (none; strict mode keeps every chunk) plus what
    the corpus records of the column (snapped spans, type processing): the numbers of
    the tags, without writing and decoding them."""
    if (spans.start[1:] < spans.start[:-1]).any():
        spans = spans.take(np.argsort(spans.start, kind="stable"))
    repairs = (Repairs() if spans.mode == "lenient"
               else Repairs(discarded_chunks=0, lenient_chunks=len(spans)))
    return dataclasses.replace(spans, repairs=_with_source_repairs(corpus, column, repairs))


def _discard_warning(corpus: Corpus, column: str, scheme: Scheme, repairs: Repairs,
                     side: str) -> DecodingWarning:
    """The warning of a strict decoding that lost most chunks, naming the scheme the
    tags look like; ``command_line``: the same words with the command line's flags
    (what ``nerlens`` prints)."""
    look_alike = likely_scheme(corpus, column, scheme)
    head = (f"strict {scheme.name} decoding discarded {repairs.discarded_chunks} of the "
            f"{counted(repairs.lenient_chunks, 'chunk')} of the {side}: do the tags follow "
            f"{scheme.name}? ")
    warning = DecodingWarning(head + scheme_hint(look_alike))
    warning.command_line = head + scheme_hint(look_alike, command_line=True)
    return warning


DECODE_BLOCK = 1 << 20  # positions per block: decoding temporaries stay this small


# A transition's lenient flags, one byte: a mention starts at the current token, one
# ends just before it, the transition is invalid under the scheme.
START, END, INVALID = 1, 2, 4


def _lenient(corpus: Corpus, ids: np.ndarray, table: LabelTable, scheme: Scheme) -> tuple:
    """conlleval's chunks of one column: flat ``start``, ``end`` (exclusive), ``Repairs``.

    Every transition is the pair ``(previous label, label)``, the previous label of a
    sentence's first token being a sentinel ``O``; one look-up per position reads its
    flags (``Transitions``). A sentence's last token is followed by a sentinel: those
    transitions are looked up per sentence, and a mention they end ends at the
    sentence's end. The column is read in blocks of ``DECODE_BLOCK`` positions, so that
    memory stays proportional to the spans.
    """
    by_code = (LENIENT_TABLES["start"] * START | LENIENT_TABLES["end"] * END
               | ~scheme.tables["valid"] * INVALID)
    flags = Transitions(table, by_code)
    nonempty, heads, tails = corpus.nonempty_sentences
    into_sentinel = flags.of(np.arange(flags.sentinel + 1), flags.sentinel)  # per label
    final = np.take(into_sentinel, np.take(ids, tails - 1))  # take: 3x faster here
    closed = tails[(final & END) != 0]  # a mention ends with its sentence
    repairs = _RepairCount(corpus, table, nonempty[(final & INVALID) != 0])
    events = []
    for a in range(0, len(ids), DECODE_BLOCK):
        b = min(a + DECODE_BLOCK, len(ids))
        flag = flags.at(ids, a, b, heads)
        flag[closed[np.searchsorted(closed, a):np.searchsorted(closed, b)] - a] |= END
        # one scan finds every flagged position (flatnonzero on bools: 4x faster than on
        # bytes); the few found are then read by their flag bits
        at = np.flatnonzero(flag != 0)
        flag_at = flag[at]
        events.append(np.repeat(at + a if a else at, np.take(_EVENTS, flag_at)))
        invalid = (flag_at & INVALID) != 0
        if invalid.any():
            repairs.add_invalid(at[invalid] + a)
        repairs.add_outside(ids, a, b)
    events.append(closed[len(closed) - 1:][closed[-1:] == len(ids)])
    # Every mention starts once and ends once, and ends before the next one starts:
    # in position order the events alternate start, end, start, end ... (a position
    # that ends one mention and starts the next holds two equal events). Reading them
    # so takes a third of the time of two boolean selections.
    events = _joined(events)
    return events[0::2], events[1::2], repairs.result()


# How many events (a start, an end) a position's lenient flags hold.
_EVENTS = np.array([((f & START) != 0) + ((f & END) != 0) for f in range(256)], dtype=np.intp)

# Up to this many labels (the sentinel included) the flags of every label pair are
# tabulated: one look-up per position. Beyond, the table would grow as the square of
# the labels (6.4 GB for 80,000), so each position's transition code is computed from
# per-label arrays instead: two look-ups, memory linear in the labels.
PAIR_TABLE_LABELS = 256
# Positions whose codes are computed at once: temporaries that stay in cache (a whole
# block's at once took twice as long in decoding, in page faults).
CODE_CHUNK = 1 << 16


class Transitions:
    """The flags (one byte) of every transition ``(previous label, label)`` of a label
    vocabulary, read position by position; label id ``len(labels)`` is the sentinel O.

    A transition's flags depend only on its code (``code``): the two canonical prefixes
    and whether the types are the same, 50 values; ``by_code`` holds their flags.
    """

    def __init__(self, table: LabelTable, by_code: np.ndarray):
        self.prefix = np.append(table.prefix, np.uint8(O))
        self.type = np.append(table.type, np.int32(-1))
        self.sentinel = len(table.prefix)
        by_byte = np.zeros(256, dtype=np.uint8)
        by_byte[:len(by_code)] = by_code
        self.by_code, self.by_byte = by_byte, by_byte.tobytes()
        labels = np.arange(self.sentinel + 1)
        self.pairs = (self.of(labels[:, None], labels[None, :])
                      if len(labels) <= PAIR_TABLE_LABELS else None)

    def code(self, previous: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """``(previous prefix * N_PREFIXES + prefix) * 2 + same type`` (uint8, < 50),
        the index of the scheme tables."""
        prefixes = self.prefix[previous] * np.uint8(N_PREFIXES) + self.prefix[labels]
        return prefixes * np.uint8(2) + (self.type[previous] == self.type[labels])

    def of(self, previous: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """The flags of the transitions ``previous -> labels`` (arrays of label ids)."""
        return self.by_code[self.code(previous, labels)]

    def at(self, ids: np.ndarray, a: int, b: int, heads: np.ndarray) -> np.ndarray:
        """The flags at positions ``a:b`` of ``ids`` (uint8, writable); the sentence
        ``heads`` follow the sentinel."""
        heads = heads[np.searchsorted(heads, a):np.searchsorted(heads, b)] - a
        previous = ids[a - 1] if a else self.sentinel
        if self.pairs is not None:
            return _pair_flags_at(ids[a:b], previous, heads, self.pairs)
        code = np.empty(b - a, dtype=np.uint8)
        for c in range(a, b, CODE_CHUNK):
            self._codes(ids[c:min(c + CODE_CHUNK + 1, b)], code[c - a:])
        code[0] = self.code(np.array([previous]), ids[a:a + 1])[0]
        code[heads] = self.code(np.full(len(heads), self.sentinel), ids[a:b][heads])
        # a bytearray: the flags stay writable (lenient decoding marks sentence ends)
        return np.frombuffer(bytearray(code).translate(self.by_byte), dtype=np.uint8)

    def _codes(self, labels: np.ndarray, out: np.ndarray) -> None:
        """The codes of the transitions within ``labels`` into ``out[1:]`` (the first
        label is the previous of the second): prefix and type looked up per position,
        the pairs compared and combined in bytes."""
        prefix, types = np.take(self.prefix, labels), np.take(self.type, labels)
        out = out[1:len(labels)]
        np.multiply(prefix[:-1], np.uint8(2 * N_PREFIXES), out=out)
        out += types[:-1] == types[1:]
        out += prefix[1:] * np.uint8(2)


def _pair_flags_at(labels: np.ndarray, previous: int, heads: np.ndarray, pairs: np.ndarray
                   ) -> np.ndarray:
    """``pairs[previous label, label]`` for ``labels`` (uint8, writable), the first
    following ``previous`` and the ``heads`` the sentinel (the last label of ``pairs``).

    A pair is ``previous * stride + label``. With at most 15 labels it fits in a byte:
    byte arithmetic and ``bytes.translate`` take half the time of int64 pairs and
    ``np.take`` (0.7 vs 1.55 ms on 750k tokens).
    """
    sentinel = len(pairs) - 1
    small = sentinel < 16
    stride = 16 if small else sentinel + 1
    labels = labels.astype(np.uint8) if small else labels
    pair = np.empty(len(labels), dtype=np.uint8 if small else np.int64)
    pair[0] = previous * stride
    np.multiply(labels[:-1], stride, out=pair[1:])
    pair[heads] = sentinel * stride
    pair += labels
    if not small:
        return np.take(pairs, pair)
    by_byte = np.zeros((16, 16), dtype=np.uint8)
    by_byte[:sentinel + 1, :sentinel + 1] = pairs
    return np.frombuffer(bytearray(pair).translate(by_byte.tobytes()), dtype=np.uint8)


def _joined(parts: list) -> np.ndarray:
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


class _RepairCount:
    """Lenient decoding's ``Repairs``, gathered block by block: invalid transitions
    into tokens and out of sentences (``final``: sentence indices), tags outside the
    scheme; of the sentences concerned only the first 20 are kept."""

    def __init__(self, corpus: Corpus, table: LabelTable, final: np.ndarray):
        self.offsets, self.outside = corpus.offsets, table.outside_scheme
        self.n_invalid, self.n_outside = len(final), 0
        self.sentences = [final[:20]]

    def add_invalid(self, positions: np.ndarray) -> None:
        self.n_invalid += len(positions)
        self._note(positions)

    def add_outside(self, ids: np.ndarray, a: int, b: int) -> None:
        if self.outside.any():
            outside = np.flatnonzero(np.take(self.outside, ids[a:b])) + a
            self.n_outside += len(outside)
            self._note(outside)

    def _note(self, positions: np.ndarray) -> None:
        """Note the first 20 sentences of ``positions`` (ascending)."""
        if len(positions):
            sentence = np.searchsorted(self.offsets, positions, side="right") - 1
            self.sentences.append(sentence[np.flatnonzero(np.diff(sentence, prepend=-1))[:20]])

    def result(self) -> Repairs:
        if not (self.n_invalid or self.n_outside):
            return Repairs()
        sentences = np.unique(np.concatenate(self.sentences))[:20]
        return Repairs(self.n_invalid, self.n_outside, tuple(int(s) for s in sentences))


# The questions strict decoding asks of a transition, one bit each of a label pair's byte.
STRICT_BITS = {"lenient_start": 1, "lenient_end": 2, "start": 4, "inside": 8, "end": 16,
               "valid": 32}


def _strict_spans(corpus: Corpus, ids: np.ndarray, table: LabelTable, scheme: Scheme
                  ) -> tuple:
    """seqeval's strict mentions of one column: flat ``start``, ``end``, ``Repairs``.

    The corpus is laid out with a sentinel ``O`` after every sentence (label id
    ``len(labels)``), so that mentions never cross a sentence and every mention is
    closed; one look-up per position of that layout reads the answers of every question
    (``STRICT_BITS``) about its transition.
    """
    n, n_sent = corpus.n_tokens, corpus.n_sentences
    sentinel = len(table.prefix)
    ext_pos = np.arange(n, dtype=np.int64) + corpus.sentence_of_position
    ext_ids = np.full(n + n_sent, sentinel, dtype=ids.dtype)
    ext_ids[ext_pos] = ids
    tables = {"lenient_start": LENIENT_TABLES["start"], "lenient_end": LENIENT_TABLES["end"],
              **scheme.tables}
    by_code = sum(tables[question] * bit for question, bit in STRICT_BITS.items())
    flags = Transitions(table, by_code)
    flag = flags.at(ext_ids, 0, len(ext_ids), np.zeros(0, dtype=np.int64))

    def lookup(question: str) -> np.ndarray:
        return (flag & STRICT_BITS[question]) != 0

    lenient = (np.flatnonzero(lookup("lenient_start")), np.flatnonzero(lookup("lenient_end")))
    start, end = _strict(lookup)
    n_invalid = len(flag) - int(np.count_nonzero(lookup("valid")))
    repairs = _discards(corpus, n_invalid, lenient, (start, end))
    sentence = np.searchsorted(ext_pos_of_sentence(corpus), start, side="right") - 1
    return start - sentence, end - sentence, repairs


def check_tags(corpus: Corpus, ids: np.ndarray, table: LabelTable, scheme: Scheme,
               mode: str, side: str) -> None:
    """Raise ``InvalidTagError`` for the first tag of ``ids`` (one column of ``corpus``)
    that is not a tag at all, or, in strict mode, whose prefix is outside ``scheme``.

    The checks are look-ups in the per-label ``table``; the column is scanned only when
    some label of the vocabulary is bad, and then only the bad labels are searched for.
    """
    if table.unreadable:
        unreadable = set(table.unreadable)  # a tuple's look-ups: labels x bad labels
        bad_ids = [i for i, label in enumerate(corpus.labels) if label in unreadable]
        mask = np.isin(ids, bad_ids)
        if mask.any():
            label = corpus.labels[ids[np.argmax(mask)]]
            _raise_at(corpus, mask, side, tag_problem(label) or
                      f"{shown(label)} is not a tag: expected O or PREFIX-TYPE with a prefix "
                      f"among {', '.join(sorted(set(scheme.prefixes) | set('BIES')))}")
    if mode == "strict" and table.outside_scheme.any():
        mask = table.outside_scheme[ids]
        if mask.any():
            label = corpus.labels[ids[np.argmax(mask)]]
            _raise_at(corpus, mask, side,
                      f"tag {shown(label)} is not in the {scheme.name} scheme (allowed "
                      f"prefixes: {', '.join(scheme.prefixes)})")


def tag_problem(label: str) -> str | None:
    """Why ``label`` cannot be a tag in any scheme, or None if it may be one.

    >>> tag_problem("B-PER "), tag_problem("B-PER")
    ("tag 'B-PER ' contains whitespace", None)
    """
    if label == "":
        return "the empty string is not a tag (write O for outside)"
    if label.split() != [label]:  # whitespace anywhere, in one C call per label
        return f"tag {shown(label)} contains whitespace"
    prefix, _, entity_type = label.partition("-")
    if prefix == "O" and label != "O":  # O-PER, and O- with no type
        return f"{shown(label)} is not a tag: O takes no type"
    return None


def _raise_at(corpus: Corpus, mask: np.ndarray, side: str, problem: str):
    """``problem`` at the first position of ``mask``: the sentence, the position in it and,
    for a file, the token's own line."""
    position = int(np.argmax(mask))
    sentence = _sentence_of(corpus, position)
    index = position - int(corpus.offsets[sentence])
    where = corpus.source.locate(sentence)
    line = where.get("line")
    raise InvalidTagError(problem, sentence, where["path"], None if line is None else line + index,
                          side=side, position=index)


def ext_pos_of_sentence(corpus: Corpus) -> np.ndarray:
    """Start of each sentence in the layout with one sentinel per sentence."""
    return corpus.offsets[:-1] + np.arange(corpus.n_sentences)


def _strict(lookup) -> tuple[np.ndarray, np.ndarray]:
    """seqeval's strict scan, vectorised; ``lookup(question)`` says at every position
    whether its transition starts, continues ("inside") or ends a mention.

    The scan moves token by token; at a start it jumps to the first position after it
    that does not continue the mention and keeps the mention only if that position ends
    it. A start the scan jumps over is not seen: it is one whose previous start's jump
    lands after it.
    """
    is_end = lookup("end")
    starts = np.flatnonzero(lookup("start"))
    landing = _next_outside(starts, np.flatnonzero(lookup("inside")))
    seen = np.ones(len(starts), dtype=bool)
    np.greater_equal(starts[1:], landing[:-1], out=seen[1:])
    starts, ends = starts[seen], landing[seen]
    keep = ends < len(is_end)
    keep[keep] = is_end[ends[keep]]
    return starts[keep], ends[keep]


def _next_outside(positions: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """For every position, the first later position not among ``inside`` (sorted);
    found from the runs of consecutive inside positions, a fraction of the tokens."""
    breaks = np.flatnonzero(np.diff(inside) != 1)
    run_first = inside[np.concatenate([[0], breaks + 1])] if len(inside) else inside
    run_last = inside[np.concatenate([breaks, [len(inside) - 1]])] if len(inside) else inside
    after = positions + 1
    run = np.searchsorted(run_last, after)  # the first run that does not end before
    landing = after.copy()
    in_run = run < len(run_last)
    in_run[in_run] = run_first[run[in_run]] <= after[in_run]
    landing[in_run] = run_last[run[in_run]] + 1
    return landing


def _discards(corpus, invalid: int, lenient, strict) -> Repairs:
    """What strict decoding discarded: the lenient chunks it does not keep as they are."""
    (starts, ends), (kept_starts, kept_ends) = lenient, strict
    kept = np.zeros(len(starts), dtype=bool)
    if len(kept_starts):  # both sorted, starts unique: pair them by binary search
        at = np.minimum(np.searchsorted(kept_starts, starts), len(kept_starts) - 1)
        kept = (kept_starts[at] == starts) & (kept_ends[at] == ends)
    lost = starts[~kept]
    sentences = np.unique(np.searchsorted(ext_pos_of_sentence(corpus), lost, side="right") - 1)
    return Repairs(invalid, 0, tuple(int(s) for s in sentences[:20]),
                   discarded_chunks=len(lost), lenient_chunks=len(starts))


def _sentence_of(corpus: Corpus, position: int) -> int:
    return int(np.searchsorted(corpus.offsets, position, side="right") - 1)
