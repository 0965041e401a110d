"""Partial statistics that merge (METHODS.md §7): entity scores shard by shard.

``partial(shard)`` keeps, for one shard of the sentences, what ``nerspan.score``'s
result is computed from; ``a.merge(b)`` (``a + b``) adds two partials; ``result()``
gives the ``EntityScores`` that ``nerspan.score`` gives on the concatenated shards, the
same ``to_dict()`` (and ``to_dict(beta=2)``) for any cut of the sentences and any order
of merging.

How results merge
-----------------
- A partial holds counts per entity type (gold, predicted and correct mentions), both
  sides' repairs (``nerspan.spans.Repairs``), the options that shaped the numbers
  (scheme, mode, ``zero_division``) and the number of sentences. Its size grows with the
  types, not with the tokens.
- Counts are summed. A ratio (precision, recall, F1, their averages, F-beta) is never
  averaged over shards: ``result()`` computes it once, from the summed counts.
- A sentence keeps its global id, its place in the whole input: a shard says where its
  sentences sit (``first_sentence``, or ``sentence_ids`` in increasing order), and the
  repairs name sentences by these ids, merged as ``Repairs.merged`` merges them (counts
  summed, the first sentences by id kept); an input error inside a shard names the
  sentence by its global id, as one pass would.
- The empty partial (``EntityPartial()``, also what an empty shard gives) is the
  identity of ``merge``; two partials scored with different options do not merge.
- Generated output (METHODS.md §6) merges too: its grounding record
  (``GenerativeRepairs``) keeps its counts whole and, of each kind it lists, the first
  ``MAX_LISTED`` entities by global sentence id (``GenerativeRepairs.bounded``, merged by
  ``merged_by_id``), so that what ``to_dict`` lists does not depend on the cut. A
  shard's model type names are matched to the whole's gold types, which a shard may
  lack: ``partial`` takes them (``types``, required with generated output). String
  matching (``matching="strings"``) merges as ``StringPartial``: its counts per type
  summed, its record and repairs merged the same way.
- A family merges through its descriptor's ``partial`` (``nerspan.family.Family``), its
  partial a ``Mergeable``: every family does (``tough_mentions.partials``,
  ``hardeval.partials``, ``faireval.partials``, ``attribute_buckets.partials``, each
  docstring saying how).

>>> import nerspan
>>> gold = [["B-PER", "I-PER", "O"], ["B-LOC", "O"], ["I-ORG", "O"]]
>>> pred = [["B-PER", "I-PER", "O"], ["O", "O"], ["B-ORG", "O"]]
>>> a = partial(gold[:2], pred[:2])
>>> b = partial(gold[2:], pred[2:], first_sentence=2)
>>> merged = (a + b).result().to_dict()
>>> merged == nerspan.score(gold, pred).to_dict()
True
>>> merged["recall"], merged["repairs"]["gold"]["sentences"]
(0.6666666666666666, [2])
"""
from __future__ import annotations

import dataclasses
import math
from contextlib import contextmanager
from dataclasses import dataclass
from functools import reduce

import numpy as np

from .errors import EmptyInputError, NerspanError
from .evaluation import resolve
from .flat import GAMMA64 as _GAMMA, mixed64 as _mixed
from .generative.detect import is_generated_input
from .generative.form import mapped_names
from .generative.grounding import Grounded
from .generative.reading import Generated, read_generated
from .generative.repairs import LISTED_KINDS
from .generative.strings import StringCounts, StringScores, refuse_unread, string_counts
from .generative.type_names import known_names
from .migration import migrated
from .options import check_int, check_zero_division
from .records import InputOptions
from .schemes import get_scheme
from .scores import EntityScores, entity_scores
from .spans import LabelTable, Repairs, Spans, repairs_dict


# what ``partial`` says of generated predictions without the whole's gold types
GENERATED_NEEDS_TYPES = ("generated output in a partial needs types=...: the entity types "
                         "of the whole's gold (a model's type names are matched to them, "
                         "and a shard may lack some)")


class Mergeable:
    """What every family's partial keeps (a frozen dataclass with ``options``, the
    options that shaped its numbers as ``(name, value)`` items, ``()`` when empty):
    ``merge`` (``+``; ``sum`` too) refuses partials of other options and returns the
    other partial when one is empty; ``result`` refuses the empty partial. A family's
    partial defines ``merged_with(other)`` (two non-empty partials of the same options)
    and ``computed()`` (its result)."""

    options: tuple = ()

    @property
    def empty(self) -> bool:
        """Nothing scored: the identity of ``merge``."""
        return not self.options

    def merge(self, other):
        """Both partials' statistics as one."""
        if type(other) is not type(self):
            raise TypeError(f"a {type(self).__name__} merges with its kind, not "
                            f"{type(other).__name__}")
        if self.empty or other.empty:
            return other if self.empty else self
        if self.options != other.options:
            raise ValueError(f"partials scored with different options do not merge: "
                             f"{dict(self.options)} and {dict(other.options)}")
        return self.merged_with(other)

    def __add__(self, other):
        return self.merge(other)

    def __radd__(self, other):  # sum(partials) starts from 0
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def result(self):
        """The result of every sentence merged here: ``score``'s on the whole."""
        if self.empty:
            raise EmptyInputError("no sentence was scored: every partial merged is empty")
        return self.computed()


@dataclass(frozen=True)
class EntityPartial(Mergeable):
    """What ``nerspan.score``'s result of some sentences is computed from (see the
    module docstring): plain tuples, so that a partial pickles small and compares equal.

    Attributes:
        types: the entity types with a gold or predicted mention, sorted.
        gold, predicted, correct: mentions per type, in ``types`` order.
        gold_repairs, pred_repairs: what decoding repaired, sentences by global id.
        options: ``scheme``, ``mode``, ``zero_division`` as items; ``()`` when empty.
        n_sentences: the sentences scored.
    """

    types: tuple = ()
    gold: tuple = ()
    predicted: tuple = ()
    correct: tuple = ()
    gold_repairs: Repairs | None = None
    pred_repairs: Repairs | None = None
    options: tuple = ()
    n_sentences: int = 0

    def merged_with(self, other: "EntityPartial") -> "EntityPartial":
        """Counts summed per type, repairs merged."""
        counts = {}
        for part in (self, other):
            for row in zip(part.types, part.gold, part.predicted, part.correct):
                old = counts.get(row[0], (0, 0, 0))
                counts[row[0]] = tuple(a + b for a, b in zip(old, row[1:]))
        types = tuple(sorted(counts))
        gold, predicted, correct = (tuple(counts[t][k] for t in types) for k in range(3))
        return EntityPartial(types, gold, predicted, correct,
                             merged_repairs(self.gold_repairs, other.gold_repairs),
                             merged_repairs(self.pred_repairs, other.pred_repairs),
                             self.options, self.n_sentences + other.n_sentences)

    def computed(self) -> EntityScores:
        """``nerspan.score``'s result of every sentence merged here. Entities of
        generated output that found no span (``pred_repairs.unplaced()``, streaming's
        whole record) are wrong predictions of their type."""
        unplaced = self.pred_repairs.unplaced() if self.pred_repairs is not None else {}
        types = tuple(sorted(set(self.types) | set(unplaced)))
        index = {name: i for i, name in enumerate(types)}
        counts = np.zeros((3, len(types)), dtype=np.int64)  # gold, predicted, correct
        at = [index[name] for name in self.types]
        counts[:, at] += np.array([self.gold, self.predicted, self.correct],
                                  dtype=np.int64).reshape(3, -1)
        for name, n in unplaced.items():
            counts[1, index[name]] += n
        present = np.flatnonzero((counts[0] > 0) | (counts[1] > 0))
        options = dict(self.options)
        return EntityScores(tuple(types[i] for i in present), counts[0, present],
                            counts[1, present], counts[2, present],
                            options.pop("zero_division"),
                            repairs_dict(self.gold_repairs, self.pred_repairs), options)


@dataclass(frozen=True)
class StringPartial(Mergeable):
    """What string matching's result (``matching="strings"``, ``StringScores``) of some
    sentences is computed from: ``StringCounts``' counts per type (gold, predicted,
    correct, found), summed; both sides' repairs and the record of what reading did,
    sentences by global id, merged as ``EntityPartial``'s. ``options``: ``script``,
    ``word_overlap``; ``()`` when empty."""

    types: tuple = ()
    counts: tuple = ()
    gold_repairs: Repairs | None = None
    pred_repairs: Repairs | None = None
    record: object = None
    options: tuple = ()
    n_sentences: int = 0

    def merged_with(self, other: "StringPartial") -> "StringPartial":
        """Counts summed per type, repairs and records merged."""
        counts = dict(zip(self.types, self.counts))
        for name, row in zip(other.types, other.counts):
            counts[name] = tuple(map(sum, zip(counts.get(name, (0, 0, 0, 0)), row)))
        types = tuple(sorted(counts))
        return StringPartial(types, tuple(counts[t] for t in types),
                             merged_repairs(self.gold_repairs, other.gold_repairs),
                             merged_repairs(self.pred_repairs, other.pred_repairs),
                             self.record.merged_by_id(other.record), self.options,
                             self.n_sentences + other.n_sentences)

    def computed(self) -> StringScores:
        """``nerspan.score``'s result (``matching="strings"``) of every sentence here."""
        options = dict(self.options)
        return StringCounts(self.types, self.counts, self.gold_repairs,
                            self.pred_repairs, self.record, options["script"],
                            options["word_overlap"]).scores()


def string_partial(references, predictions, inputs: InputOptions, scheme: str, mode: str,
                   shard: Shard, types) -> StringPartial:
    """The ``StringPartial`` of one shard (``partial`` with ``matching="strings"``)."""
    if _holds_no_sentence(references) and (predictions is None
                                           or _holds_no_sentence(predictions)):
        return StringPartial()
    if types is None:
        raise ValueError(GENERATED_NEEDS_TYPES)
    with shard.named():
        counts = string_counts(references, predictions, types=_type_names(types),
                               scheme=scheme, mode=mode, inputs=inputs)
    n_sentences = counts.record.responses
    if shard.ids is not None and len(shard.ids) != n_sentences:
        raise ValueError(f"sentence_ids names {len(shard.ids)} sentences, the shard "
                         f"holds {n_sentences}")
    return StringPartial(counts.types, counts.counts, placed(counts.gold_repairs, shard),
                         placed(counts.pred_repairs, shard),
                         counts.record.bounded(shard.global_ids),
                         (("script", counts.script), ("word_overlap", counts.word_overlap)),
                         n_sentences)


@dataclass(frozen=True, eq=False)
class SentenceRows:
    """Per-sentence counts a partial keeps when asked (``per_sentence=True``), for a
    merged result's ``statistics()`` (the report's paired bootstrap): ``ids``, the
    global ids of the sentences scored, increasing; ``rows``, int64 ``(rows x k)``, the
    first column a global sentence id (one row per sentence, or several: a family's
    cells), sorted by it. It grows with the sentences."""

    ids: np.ndarray
    rows: np.ndarray

    @classmethod
    def of(cls, ids, *columns) -> "SentenceRows":
        """The rows ``[ids of the rows, *columns]`` of the sentences ``ids``."""
        ids = np.asarray(ids, dtype=np.int64)
        rows = np.column_stack([np.asarray(column, dtype=np.int64) for column in columns])
        return cls(ids, rows[np.argsort(rows[:, 0], kind="stable")])

    def merged_with(self, other: "SentenceRows", their_rows=None) -> "SentenceRows":
        """Both shards' sentences (disjoint) and rows, by id; ``their_rows``: ``other``'s
        rows as this family renumbered them (default: as they are)."""
        rows = np.concatenate([self.rows, other.rows if their_rows is None else their_rows])
        return SentenceRows(np.union1d(self.ids, other.ids),
                            rows[np.argsort(rows[:, 0], kind="stable")])

    def places(self) -> np.ndarray:
        """Each row's sentence as a place among ``ids`` (0 .. sentences - 1)."""
        return np.searchsorted(self.ids, self.rows[:, 0])

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        mine, theirs = (np.unique(part.rows, axis=0) for part in (self, other))
        return np.array_equal(self.ids, other.ids) and np.array_equal(mine, theirs)

    __hash__ = None


class Shard:
    """Where a shard's sentences sit in the whole: sentence ``s`` of the shard is
    ``sentence_ids[s]``, or ``first_sentence + s``; both checked (ids non-negative,
    increasing, one per sentence of the shard)."""

    def __init__(self, first_sentence: int = 0, sentence_ids=None):
        self.first = check_int("first_sentence", first_sentence, minimum=0)
        self.ids = None
        if sentence_ids is None:
            return
        if first_sentence:
            raise ValueError("give first_sentence or sentence_ids, not both")
        ids = np.asarray(list(sentence_ids))
        if len(ids) and (ids.dtype.kind not in "iu" or ids.ndim != 1 or ids.min() < 0
                         or (np.diff(ids) <= 0).any()):
            raise ValueError("sentence_ids: the global id of each sentence of the shard, "
                             "non-negative integers in increasing order")
        self.ids = ids.astype(np.int64)

    def global_ids(self, sentences) -> np.ndarray:
        """The global ids of the shard's sentences ``sentences`` (local indices)."""
        sentences = np.asarray(sentences, dtype=np.int64)
        return self.ids[sentences] if self.ids is not None else sentences + self.first

    @contextmanager
    def named(self):
        """An input error raised inside names its sentence by its global id, as scoring
        the whole would."""
        try:
            yield
        except NerspanError as error:
            if error.sentence is None or (self.ids is None and not self.first):
                raise
            raise type(error)(error.problem, int(self.global_ids(error.sentence)),
                              error.path, error.line, side=error.side,
                              position=error.position) from None

    def read(self, read, references, predictions) -> tuple | None:
        """``read()`` (a family's reading of the shard: ``(evaluation, corpus, ...)``, the
        second item what holds its ``n_sentences``), or None for an empty shard: no
        sentence on either side (``predictions`` empty, or None beside references of no
        sentence)."""
        if predictions is None and _holds_no_sentence(references):
            return None   # before reading: one pass refuses None beside a list
        try:
            reading = read()
        except EmptyInputError:
            if not (predictions is None or _holds_no_sentence(predictions)):
                raise
            return None
        n_sentences = reading[1].n_sentences
        if self.ids is not None and len(self.ids) != n_sentences:
            raise ValueError(f"sentence_ids names {len(self.ids)} sentences, the shard "
                             f"holds {n_sentences}")
        return reading

    def read_typed(self, read, references, predictions, inputs, types,
                   generated=lambda reading: bool(reading[1].source.generated)
                   ) -> tuple | None:
        """``read(predictions as read)`` (``read``), the predictions read as
        ``shard_predictions`` reads them, or None for an empty shard. Generated output
        is detected once (a pass over the shard's sentences): with ``types`` before
        reading, which needs them; without, of lists on both sides (read by the tag,
        span or generated forms), by the reader alone, and output it read as generated
        (``generated(reading)``: it left a record, by default in the corpus' source) is
        refused after the fact, as ``shard_predictions`` refuses it before."""
        if types is not None or not all(isinstance(side, (list, tuple))
                                        for side in (references, predictions)):
            read_as = shard_predictions(predictions, inputs, types)
            return self.read(lambda: read(read_as), references, predictions)
        try:
            reading = self.read(lambda: read(predictions), references, predictions)
        except Exception:
            _refuse_untyped(predictions)
            raise
        if reading is not None and generated(reading):
            _refuse_untyped(predictions)
        return reading


def _holds_no_sentence(side) -> bool:
    """A list (or any sized input) of no sentence."""
    return hasattr(side, "__len__") and not isinstance(side, str) and len(side) == 0


def spans_partial(gold: Spans, pred: Spans, zero_division: float = 0.0,
                  shard: Shard | None = None, numbers=None) -> EntityPartial:
    """The partial of decoded ``gold`` and ``pred`` spans of one ``shard`` (default:
    the whole, from sentence 0); ``numbers``: each global sentence's number in the input
    it was read from (``Source.sentence_numbers``), named by ``to_dict``. Generated
    entities without a span are counted by ``computed``, from the record's whole counts,
    not here."""
    shard = shard or Shard()
    pred_repairs = placed(pred.repairs, shard, numbers)
    if pred.repairs is not None and pred.repairs.generated is not None:
        pred = dataclasses.replace(pred, repairs=dataclasses.replace(pred.repairs,
                                                                     generated=None))
    scores = entity_scores(gold, pred, zero_division)
    return EntityPartial(scores.types, tuple(scores.gold.tolist()),
                         tuple(scores.predicted.tolist()), tuple(scores.correct.tolist()),
                         placed(gold.repairs, shard, numbers), pred_repairs,
                         (("scheme", gold.scheme), ("mode", gold.mode),
                          ("zero_division", float(zero_division))),
                         len(gold.offsets) - 1)


def placed(repairs: Repairs | None, shard: Shard, numbers=None) -> Repairs | None:
    """``repairs`` of a ``shard``, sentences by global id, named by ``numbers`` (see
    ``spans_partial``); a generated record as a partial keeps it (``bounded``). Without
    ``numbers``, repairs that name their sentences by number (``Repairs.
    sentence_numbers``: a shard of a corpus of some of gold's sentences, each numbered
    in gold) keep the number of each sentence they list by global id
    (``numbers_by_id``), so that the merged repairs name them as one pass does."""
    if repairs is None:
        return None
    sentences = tuple(shard.global_ids(list(repairs.sentences)).tolist())
    generated = None if repairs.generated is None else repairs.generated.bounded()
    if numbers is None and repairs.sentence_numbers is not None:
        numbers = numbers_by_id(repairs.sentence_numbers, shard, repairs.sentences,
                                generated)
    if generated is not None:
        generated = generated.bounded(shard.global_ids)
    return dataclasses.replace(repairs, sentences=sentences, sentence_numbers=numbers,
                               generated=generated)


def numbers_by_id(numbers, shard: Shard, sentences, record=None) -> dict:
    """global id -> number in gold (``numbers``: the shard's ``Source.
    sentence_numbers``) of the shard's ``sentences`` and of those its generated
    ``record`` (``bounded``, or None) lists: what names them once merged
    (``kept_numbers``)."""
    local = sorted({*map(int, sentences), *_listed_sentences(record)})
    return dict(zip(shard.global_ids(local).tolist(), (int(numbers[s]) for s in local)))


def kept_numbers(parts, sentences, record=None) -> dict:
    """Shards' ``numbers_by_id`` (``parts``) as one, of the sentences their merged
    listings still name (``sentences``: the first by id; the generated ``record``'s):
    as small as the listings, whatever the shards."""
    named = {*sentences, *_listed_sentences(record)}
    return {s: n for found in parts for s, n in found.items() if s in named}


def _listed_sentences(record) -> set:
    """The sentences a generated record (or None) lists."""
    return set() if record is None else {item.sentence for kind in LISTED_KINDS
                                         for item in getattr(record, kind)}


def shard_predictions(predictions, inputs, types):
    """A shard's predictions as its partial reads them: generated output read with its
    type names matched to the whole's gold ``types`` (``read_typed`` of one pass
    matches them to the shard's gold, which may lack some), anything else as given.
    With ``types``, a shard whose every sentence's output is empty is generated output
    too (the whole's is: alone it could be empty span lists)."""
    if isinstance(predictions, (Generated, Grounded)) or _holds_no_sentence(predictions):
        return predictions   # an empty shard: read as one
    found = is_generated_input(predictions)   # None: every sentence empty
    if found is False or (found is None and types is None):
        return predictions
    if types is None:
        raise ValueError(GENERATED_NEEDS_TYPES)
    names, type_map = known_names(_type_names(types), mapped_names(inputs))
    return read_generated(predictions, types=names, type_map=type_map)


def _refuse_untyped(predictions) -> None:
    """Raise ``GENERATED_NEEDS_TYPES`` when ``predictions`` are generated output."""
    if is_generated_input(predictions) is True:
        raise ValueError(GENERATED_NEEDS_TYPES) from None


def _type_names(types) -> set:
    """``types`` (``partial``'s: the whole's gold types), checked, as a set."""
    if isinstance(types, str) or not all(isinstance(t, str) for t in types):
        raise TypeError(f"types: the entity types of the whole's gold, strings, not "
                        f"{types!r}")
    return set(types)


def merged_repairs(a: Repairs | None, b: Repairs | None) -> Repairs | None:
    """Two shards' repairs of one side merged (``Repairs.merged``), their generated
    records too (``GenerativeRepairs.merged_by_id``), and the numbers in gold of the
    sentences they name (``kept_numbers``)."""
    if a is None and b is None:
        return None
    out = Repairs.merged([a, b])
    records = [r.generated for r in (a, b) if r is not None and r.generated is not None]
    if len(records) == 2:
        out = dataclasses.replace(out, generated=records[0].merged_by_id(records[1]))
    if isinstance(out.sentence_numbers, dict):   # by global id: those still named
        out = dataclasses.replace(out, sentence_numbers=kept_numbers(
            [out.sentence_numbers], out.sentences, out.generated))
    return out


def merged(partials):
    """The partials of a non-empty list merged (any partials of one family)."""
    return reduce(lambda a, b: a.merge(b), partials)


@migrated
def partial(references, predictions=None, *, tokens=None, scheme: str = "IOB2",
            mode: str = "lenient", label_list=None, zero_division: float = 0.0,
            inputs=None, first_sentence: int = 0, sentence_ids=None,
            types=None) -> EntityPartial | StringPartial:
    """The partial entity scores of one shard of the sentences (module docstring).

    Args:
        references, predictions, tokens, scheme, mode, label_list, zero_division,
            inputs: as ``nerspan.score`` takes them, for the shard's sentences only.
        first_sentence: the global id of the shard's first sentence (its sentences
            follow one another), or
        sentence_ids: the global id of each of its sentences, increasing.
        types: with generated predictions (required then), the entity types of the
            whole's gold, which the model's type names are matched to.

    With ``inputs={"matching": "strings"}`` the partial is a ``StringPartial``.

    An empty shard (no sentence on either side) gives the empty partial. An input
    error names the sentence by its global id.
    """
    zero_division = check_zero_division(zero_division)
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    shard = Shard(first_sentence, sentence_ids)
    if inputs.generated.matching == "strings":
        refuse_unread(inputs.generated, zero_division != 0)
        return string_partial(references, predictions, inputs, scheme, mode, shard, types)
    with shard.named():
        reading = shard.read_typed(lambda read_as: resolve(
            references, read_as, scheme=scheme, mode=mode, inputs=inputs, words=False,
            tables=True), references, predictions, inputs, types)
        if reading is None:
            return EntityPartial()
        evaluation, corpus, _, pred_column = reading
        table = LabelTable.build(corpus.labels, get_scheme(evaluation.scheme))
        gold = evaluation.gold_spans(table)
        pred = evaluation.pred_spans(corpus, pred_column, table)
    return spans_partial(gold, pred, zero_division, shard)


# Poisson(1) bootstrap weights, one per (seed, replicate, global sentence id): a hash of
# the three (SplitMix64's finaliser) read as a uniform, inverted through Poisson(1)'s
# distribution function. A sentence gets the same weight in whatever shard it sits.
_POISSON_ONE = np.cumsum([math.exp(-1) / math.factorial(k) for k in range(20)])
_WEIGHT_CELLS = 4_000_000  # hashed cells per batch: bounds the uint64 temporaries


def sentence_weights(sentence_ids, n_samples: int, seed: int) -> np.ndarray:
    """How often each sentence is drawn in each bootstrap replicate, ``(n_samples x
    sentences)`` float32: Poisson(1) draws that depend on ``(seed, replicate, global
    sentence id)`` only, so that a shard draws its sentences' weights as the whole
    input would (METHODS.md §7). Deterministic for a seed (an int).

    >>> whole = sentence_weights(range(6), 50, seed=3)
    >>> bool((sentence_weights([2, 5], 50, seed=3) == whole[:, [2, 5]]).all())
    True
    """
    ids = np.asarray(sentence_ids, dtype=np.int64).astype(np.uint64)
    key = _mixed(np.array([int(seed) % 2**64], dtype=np.uint64) + _GAMMA)
    per_sentence = _mixed(ids * _GAMMA + key)
    out = np.empty((n_samples, len(ids)), dtype=np.float32)
    rows = max(1, _WEIGHT_CELLS // max(1, len(ids)))
    for start in range(0, n_samples, rows):
        replicate = np.arange(start + 1, min(start + rows, n_samples) + 1, dtype=np.uint64)
        bits = _mixed(per_sentence[None, :] ^ (replicate * _GAMMA)[:, None])
        uniform = (bits >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
        out[start:start + len(replicate)] = np.searchsorted(_POISSON_ONE, uniform, "right")
    return out


__all__ = ["GENERATED_NEEDS_TYPES", "Mergeable", "EntityPartial", "StringPartial",
           "SentenceRows", "Shard", "partial", "spans_partial", "string_partial", "merged",
           "merged_repairs", "placed", "numbers_by_id", "kept_numbers", "shard_predictions",
           "sentence_weights"]
