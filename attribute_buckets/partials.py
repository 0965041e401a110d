"""Attribute buckets from partial statistics that merge (METHODS.md §7).

``partial(shard, train=index)`` keeps what ``score``'s result is computed from for one
shard of the test sentences; ``a.merge(b)`` (``a + b``) adds two; ``result()`` has the
``to_dict()`` of ``score`` on the concatenated shards, for any cut and merge order,
bootstrap intervals included.

How it merges:

- The overall scores, per type and repairs are nerspan's ``EntityPartial``.
- Bucket edges are cut from the gold values of the whole test set, which no shard
  knows: a partial keeps, per attribute, the units of each side by VALUE (gold and
  predicted units per distinct value; correct units per distinct (gold value, predicted
  value) pair), and ``result()`` cuts the buckets from the merged gold value counts
  with ``score``'s rules, then sums each bucket's units over the values it holds. The
  values of an attribute are discrete (lengths, ratios of counts, training look-ups), so
  a partial grows with the distinct values, not with the tokens. Each unit's value
  depends on its own sentence and the training index only, which every worker holds
  whole (index once, ship it); a custom attribute must be such a function too.
- ``tag``'s values are entity types, kept by name (a shard numbers only the types it
  saw), with each type's first gold mention by global (sentence, start): the reference
  code's tie break (``compat="interpreteval"``) is the order of first appearance.
- Bootstrap intervals (``bootstrap=N``): a sentence's weight in replicate ``r`` is a
  Poisson(1) draw keyed by (seed, r, global sentence id)
  (``nerspan.partials.sentence_weights``), the same in every shard and in ``score``; a
  partial keeps, per replicate, the weighted units of every value (distinct values x
  distinct values), and ``result()`` sums them per bucket. The weights and counts are
  integers, so the sums are exact in any order: the intervals equal one pass's.
  Partials need an int ``seed`` (None would draw a different one per shard).
- Per-sentence counts only when asked (``per_sentence=True``: each sentence's units
  per value, by global id, and its mention counts): the merged result then has
  ``score``'s ``statistics()`` (the report's paired bootstrap), rows by global sentence
  id; without it there is no ``statistics()``. A merged result keeps no per-unit values.

>>> import attribute_buckets
>>> gold = [["B-PER", "O"], ["B-LOC", "I-LOC", "O"], ["O", "B-ORG"]]
>>> pred = [["B-PER", "O"], ["B-LOC", "O", "O"], ["O", "B-ORG"]]
>>> a = partial(gold[:2], pred[:2], attributes=["eLen", "sLen", "tag"])
>>> b = partial(gold[2:], pred[2:], attributes=["eLen", "sLen", "tag"], first_sentence=2)
>>> (b + a).result().to_dict() == attribute_buckets.score(
...     gold, pred, attributes=["eLen", "sLen", "tag"]).to_dict()
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from nerspan import InputOptions
from nerspan.bootstrap import percentile_interval
from nerspan.migration import migrated
from nerspan.partials import (EntityPartial, Mergeable, Shard, sentence_weights,
                              spans_partial)
from nerspan.scores import sentence_counts

from . import attributes as attrs
from .attributes import TableValues
from .bucketing import assign, bucket_names

from .core import (RENAMED, AttributeBucketsResult, AttributeTable, BucketOptions,
                   attribute_units, bucket_f1_statistic, chosen_attributes, cut_buckets,
                   read_inputs, scoring_context, shown_options, sorted_mean)

NOT_SEEN = (2 ** 63 - 1, 0)  # the first position of a type with no gold mention


@dataclass(frozen=True, eq=False)
class ValueCounts:
    """The units of one side of one attribute by value: ``keys`` (distinct values x 1,
    or x 2 for (gold value, predicted value) pairs), sorted; ``counts``: the units of
    each; ``weighted``: with the bootstrap, ``(distinct values x replicates)``, the
    units of each weighted by their sentence's weight, else None."""

    keys: np.ndarray
    counts: np.ndarray
    weighted: np.ndarray | None = None
    sentences: np.ndarray | None = None

    @classmethod
    def of(cls, keys: np.ndarray, sentence: np.ndarray, along: "Placing") -> "ValueCounts":
        """The counts of units with ``keys`` (units x k) in local ``sentence``s."""
        distinct, inverse = _grouped(keys)
        counts = np.bincount(inverse, minlength=len(distinct)).astype(np.int64)
        return along.counted(distinct, counts, sentence, inverse)

    def merged_with(self, other: "ValueCounts") -> "ValueCounts":
        distinct, inverse = _grouped(np.concatenate([self.keys, other.keys]))
        counts = np.bincount(inverse, weights=np.concatenate([self.counts, other.counts]),
                             minlength=len(distinct)).astype(np.int64)  # exact below 2**53
        weighted = None
        if self.weighted is not None:
            weighted = np.zeros((len(distinct), self.weighted.shape[1]))
            weighted[inverse[:len(self.keys)]] += self.weighted  # keys distinct: no repeat
            weighted[inverse[len(self.keys):]] += other.weighted
        sentences = None
        if self.sentences is not None:  # sentences differ between partials: no repeat
            parts = [part.sentences.copy() for part in (self, other)]
            parts[0][:, 1] = inverse[:len(self.keys)][parts[0][:, 1]]
            parts[1][:, 1] = inverse[len(self.keys):][parts[1][:, 1]]
            sentences = _sorted_rows(np.concatenate(parts))
        return ValueCounts(distinct, counts, weighted, sentences)

    def renumbered(self, codes: np.ndarray) -> "ValueCounts":
        """Keys that are type numbers renumbered by ``codes`` (old number -> new)."""
        if not len(self.keys):
            return self
        keys = codes[self.keys.astype(np.int64)].astype(float)
        distinct, inverse = _grouped(keys)
        order = np.argsort(inverse)  # renumbering keeps the keys distinct
        sentences = None
        if self.sentences is not None:
            sentences = self.sentences.copy()
            sentences[:, 1] = inverse[sentences[:, 1]]
            sentences = _sorted_rows(sentences)
        return ValueCounts(distinct, self.counts[order], None if self.weighted is None
                           else self.weighted[order], sentences)

    def sentence_totals(self, buckets: np.ndarray, n_buckets: int,
                        rows: np.ndarray) -> np.ndarray:
        """``(rows x buckets)``: the units of each sentence per bucket (``rows``: the
        merged sentences' global ids, increasing; ``buckets``: each key's bucket)."""
        row = np.searchsorted(rows, self.sentences[:, 0])
        at = buckets[self.sentences[:, 1]]
        kept = at >= 0
        return np.bincount(row[kept] * n_buckets + at[kept], weights=self.sentences[kept, 2],
                           minlength=len(rows) * n_buckets).reshape(
                               len(rows), n_buckets).astype(np.int64)

    def bucket_totals(self, buckets: np.ndarray, n_buckets: int, weighted: bool = False):
        """Units per bucket (``buckets``: each key's, -1 for none); ``weighted``: per
        replicate, ``(replicates x buckets)``."""
        if not weighted:
            return np.bincount(buckets + 1, weights=self.counts,
                               minlength=n_buckets + 1)[1:].astype(np.int64)
        into = np.zeros((len(buckets), n_buckets + 1))
        into[np.arange(len(buckets)), buckets + 1] = 1.0
        return (into.T @ self.weighted)[1:].T

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and all(
            (a is None and b is None) or (a is not None and b is not None
                                          and np.array_equal(a, b))
            for a, b in ((self.keys, other.keys), (self.counts, other.counts),
                         (self.weighted, other.weighted), (self.sentences, other.sentences)))

    __hash__ = None


def _sorted_rows(rows: np.ndarray) -> np.ndarray:
    """Rows ``(sentence, key, units)`` by sentence, then key."""
    return rows[np.lexsort((rows[:, 1], rows[:, 0]))]


@dataclass(frozen=True)
class Placing:
    """How a shard's units are counted beyond their values: ``weights`` (sentences x
    replicates) with the bootstrap, else None; ``ids`` (each sentence's global id)
    when per-sentence counts are kept, else None."""

    weights: np.ndarray | None = None
    ids: np.ndarray | None = None

    def counted(self, distinct, counts, sentence, key) -> ValueCounts:
        """``ValueCounts`` of units in local ``sentence``s with ``key`` (index into
        ``distinct``): arrays, or callables giving them when needed."""
        if self.weights is None and self.ids is None:
            return ValueCounts(distinct, counts)
        sentence, key = (found() if callable(found) else found for found in (sentence, key))
        weighted = None if self.weights is None else \
            _weighted(self.weights, sentence, key, len(distinct))
        sentences = None
        if self.ids is not None:
            cells, units = np.unique(key * len(self.ids) + sentence, return_counts=True)
            sentences = _sorted_rows(np.column_stack(
                [self.ids[cells % len(self.ids)], cells // len(self.ids), units]))
        return ValueCounts(distinct, counts, weighted, sentences)


def _grouped(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``keys`` (units x k) in increasing order (first column
    first) and each unit's row among them: each column numbered by its distinct values
    (in order), the numbers combined into one. Rows of equal values (one column, or a
    correct unit valued alike on both sides) are grouped by their first column."""
    if keys.shape[1] == 1 or np.array_equal(keys[:, 0], keys[:, 1:].T[0]):
        values, inverse = np.unique(keys[:, 0], return_inverse=True)
        return np.repeat(values[:, None], keys.shape[1], axis=1), inverse.ravel()
    combined, distinct = np.zeros(len(keys), dtype=np.int64), []
    for column in keys.T:
        values, number = np.unique(column, return_inverse=True)
        combined = combined * len(values) + number.ravel()
        distinct.append(values)
    rows, inverse = np.unique(combined, return_inverse=True)
    out = np.empty((len(rows), keys.shape[1]))
    for k in range(keys.shape[1] - 1, -1, -1):
        rows, at = np.divmod(rows, len(distinct[k])) if len(distinct[k]) else (rows, rows)
        out[:, k] = distinct[k][at]
    return out, inverse.ravel()


def _weighted(by_sentence: np.ndarray, sentence: np.ndarray, value: np.ndarray,
              n_values: int) -> np.ndarray:
    """``(values x replicates)``: the units of each value, weighted by their sentence's
    weight (``by_sentence``: the shard's sentences x replicates, float32): a sparse
    (values x sentences) count matrix times the weights. Sums of products of integers:
    exact in float32 while every sum stays below 2**24 (a value's sum is at most all
    units times the largest weight), which takes a quarter of float64's time; else in
    float64."""
    from scipy import sparse  # when a bootstrap is asked: importing nerlens stays light

    exact = len(value) * float(by_sentence.max(initial=0)) < 2 ** 24
    dtype = np.float32 if exact else np.float64
    units = sparse.csr_matrix((np.ones(len(value), dtype), (value, sentence)),
                              shape=(n_values, len(by_sentence)))
    return np.asarray(units @ by_sentence.astype(dtype, copy=False), dtype=np.float64)


@dataclass(frozen=True, eq=False)
class AttributePartial:
    """One attribute of a shard: ``gold``, ``predicted`` and ``correct`` units by value
    (``ValueCounts``); for ``tag``, ``types``: the type names its values number, sorted,
    and ``first``: each type's first gold mention, (global sentence, start)."""

    name: str
    unit: str
    gold: ValueCounts
    predicted: ValueCounts
    correct: ValueCounts
    types: tuple = ()
    first: tuple = ()

    def sides(self) -> tuple:
        return self.gold, self.predicted, self.correct

    def merged_with(self, other: "AttributePartial") -> "AttributePartial":
        sides, types, first = (self.sides(), other.sides()), (), ()
        if self.types or other.types:
            firsts = {}
            for part in (self, other):
                for name, place in zip(part.types, part.first):
                    firsts[name] = min(firsts.get(name, NOT_SEEN), place)
            types = tuple(sorted(firsts))
            first = tuple(firsts[name] for name in types)
            sides = tuple(part.sides_in(types) for part in (self, other))
        gold, predicted, correct = (x.merged_with(y) for x, y in zip(*sides))
        return AttributePartial(self.name, self.unit, gold, predicted, correct, types, first)

    def sides_in(self, types: tuple) -> tuple:
        """Its sides, type numbers renumbered into ``types`` (which hold its own)."""
        position = {name: i for i, name in enumerate(types)}
        codes = np.array([position[name] for name in self.types], dtype=np.int64)
        return tuple(side.renumbered(codes) for side in self.sides())

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and (
            self.name, self.unit, self.types, self.first) == (
            other.name, other.unit, other.types, other.first) and \
            self.sides() == other.sides()

    __hash__ = None


@dataclass(frozen=True, eq=False)
class BucketsPartial(Mergeable):
    """What the attribute buckets of some sentences are computed from (module
    docstring).

    Attributes:
        entity: nerspan's ``EntityPartial`` of the same sentences.
        attributes: an ``AttributePartial`` per attribute scored, in ``score``'s order.
        options: the ``BucketOptions``, scheme, mode and ``per_sentence`` as items;
            ``()`` when empty.
        sentence_counts: with ``per_sentence``, ``(sentences x 4)``: each sentence's
            global id and its correct, predicted and gold mentions, by id; else None.
    """

    entity: EntityPartial = field(default_factory=EntityPartial)
    attributes: tuple = ()
    options: tuple = ()
    sentence_counts: np.ndarray | None = None

    def merged_with(self, other: "BucketsPartial") -> "BucketsPartial":
        """Value counts merged per attribute, the entity partials merged."""
        counts = None
        if self.sentence_counts is not None:
            counts = np.concatenate([self.sentence_counts, other.sentence_counts])
            counts = counts[np.argsort(counts[:, 0])]
        return BucketsPartial(self.entity.merge(other.entity),
                              tuple(a.merged_with(b) for a, b in zip(self.attributes,
                                                                    other.attributes)),
                              self.options, counts)

    def computed(self) -> "MergedAttributeBuckets":
        """``score``'s result of every sentence merged here (its ``to_dict()``)."""
        scores = self.entity.result()
        options = dict(self.options)
        record = options["bucket_options"]
        chosen = chosen_attributes(record.attributes)
        edges = record.bucket_edges or {}
        rows = None if self.sentence_counts is None else self.sentence_counts[:, 0]
        tables = {part.name: _merged_table(part, chosen[part.name], record,
                                           edges.get(part.name), rows)
                  for part in self.attributes}
        totals = np.array([[scores.n_correct, scores.n_predicted, scores.n_gold]]) \
            if rows is None else self.sentence_counts[:, 1:]
        return MergedAttributeBuckets(
            *scores.micro(), tables, totals,
            shown_options(record, chosen, options["scheme"], options["mode"]),
            scores.repairs, record.confidence if record.bootstrap else None, scores,
            rows is not None)

    def __eq__(self, other) -> bool:
        same_counts = (self.sentence_counts is None and other.sentence_counts is None) or (
            self.sentence_counts is not None and other.sentence_counts is not None
            and np.array_equal(self.sentence_counts, other.sentence_counts))
        return type(other) is type(self) and (self.entity, self.options) == (
            other.entity, other.options) and self.attributes == other.attributes and \
            same_counts

    __hash__ = None


@dataclass(frozen=True)
class MergedAttributeBuckets(AttributeBucketsResult):
    """The attribute buckets of merged partials: ``score``'s ``to_dict(beta=)``, its
    tables and analyses (``analysis`` reads bucket F1s and mean values). Without
    ``per_sentence`` each table's ``counts`` is one row, the totals of every sentence,
    and there is no ``statistics()``; with it, ``statistics()`` is ``score``'s (rows
    by global sentence id). ``gold_values`` and ``predicted_values`` are None (a
    partial keeps values, not units)."""

    per_sentence: bool = False

    def statistics(self) -> list:
        if self.per_sentence:
            return super().statistics()
        raise ValueError("a result merged from partials keeps no per-sentence counts, "
                         "which the report's bootstrap resamples: give partial "
                         "per_sentence=True, or use the partials' bootstrap "
                         "(options={'bootstrap': N, 'seed': S})")


def _merged_table(part: AttributePartial, function, record: BucketOptions, edges,
                  rows: np.ndarray | None) -> AttributeTable:
    """One attribute's table of the merged value counts, cut as ``score`` cuts it;
    ``rows``: the global ids of the sentences whose counts are kept (else None)."""
    builtin = attrs.ATTRIBUTE_TABLE[function] if isinstance(function, str) else None
    discrete = builtin is not None and not builtin.ordered
    gold, predicted, correct = part.sides()
    n_gold, n_predicted = int(gold.counts.sum()), int(predicted.counts.sum())
    distribution = (_by_first_mention(part), None) if discrete else \
        (gold.keys[:, 0], gold.counts)
    mean = sorted_mean(*distribution) if n_gold and not discrete else None
    strategy, gold_buckets, pred_buckets = cut_buckets(
        part.types, part.name, builtin, distribution, record.n_buckets, edges,
        record.compat, record.equal_width)
    n_buckets = len(pred_buckets)
    pair = (assign(correct.keys[:, 0], gold_buckets), assign(correct.keys[:, 1], pred_buckets))
    placed = ((correct, np.where((pair[0] == pair[1]) & (pair[1] >= 0), pair[1], -1)),
              (predicted, assign(predicted.keys[:, 0], pred_buckets)),
              (gold, assign(gold.keys[:, 0], gold_buckets)))
    totals = np.stack([side.bucket_totals(at, n_buckets) for side, at in placed],
                      axis=-1)[None]
    intervals = _intervals(placed, totals[0], record.confidence) if record.bootstrap \
        else None
    if rows is not None:
        totals = np.stack([side.sentence_totals(at, n_buckets, rows) for side, at in placed],
                          axis=-1)
    names = tuple(b.label() for b in pred_buckets) if discrete else bucket_names(n_buckets)
    return AttributeTable(part.name, part.unit, strategy, tuple(pred_buckets), names, totals,
                          n_gold, n_predicted, mean, intervals, None, None,
                          None if gold_buckets is pred_buckets else tuple(gold_buckets))


def _by_first_mention(part: AttributePartial) -> np.ndarray:
    """``tag``'s gold values as ``score`` reads them: a type number per gold mention,
    the types in the order of their first gold mention (the reference's tie break)."""
    per_type = np.zeros(len(part.types), dtype=np.int64)
    per_type[part.gold.keys[:, 0].astype(np.int64)] = part.gold.counts
    order = sorted(range(len(part.types)), key=lambda i: part.first[i])
    return np.repeat(np.array(order, dtype=np.int64), per_type[order]).astype(float)


def _intervals(placed, totals: np.ndarray, confidence: float) -> dict:
    """Bucket index -> the percentile interval of its F1 over the replicates, from the
    weighted units of each value summed per bucket (as ``score``'s ``resample``)."""
    n_buckets = len(totals)
    weighted = [side.bucket_totals(at, n_buckets, weighted=True) for side, at in placed]
    out = {}
    for i in range(n_buckets):
        samples = bucket_f1_statistic(np.stack([w[:, i] for w in weighted], axis=1))
        estimate = float(bucket_f1_statistic(totals[i][None].astype(float))[0])
        out[i] = percentile_interval(samples, estimate, confidence)
    return out


# -- a shard -----------------------------------------------------------------------------
@migrated(record=BucketOptions, **RENAMED)
def partial(references, predictions=None, *, tokens=None, train=None,
            scheme: str | None = None, mode: str | None = None, label_list=None,
            inputs=None, attributes=None, n_buckets: int = 4,
            bucket_edges: Mapping | None = None, lowercase: bool = True,
            compat: str | None = None, options=None, first_sentence: int = 0,
            sentence_ids=None, per_sentence: bool = False, types=None) -> BucketsPartial:
    """The partial attribute buckets of one shard of the test sentences.

    Args:
        references, ..., options: as ``attribute_buckets.score`` takes them, for the
            shard's sentences; ``train``: the whole training data, best a prebuilt
            ``nerspan.TrainIndex`` (indexed once, shipped to every worker). With
            ``bootstrap``, ``seed`` must be an int (every shard draws with it).
        first_sentence, sentence_ids: where the shard's sentences sit in the whole
            (``nerspan.partial``).
        per_sentence: keep each sentence's counts, so that the merged result has
            ``score``'s ``statistics()`` (the report's paired bootstrap); the partial
            then grows with the sentences.
        types: with generated predictions, the whole's gold types (``nerspan.partial``).

    An empty shard (no sentence on either side) gives the empty partial. An input
    error names the sentence by its global id.
    """
    options = BucketOptions.of(options).with_keywords(
        attributes=attributes, n_buckets=n_buckets, bucket_edges=bucket_edges,
        lowercase=lowercase, compat=compat)
    chosen = chosen_attributes(options.attributes)
    if options.bootstrap and options.seed is None:
        raise ValueError("partials draw the bootstrap's weights from the seed, which every "
                         "shard must share: give options={'seed': an int}")
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    shard = Shard(first_sentence, sentence_ids)
    with shard.named():
        reading = shard.read_typed(lambda read_as: read_inputs(
            references, read_as, chosen, train=train, scheme=scheme, mode=mode,
            inputs=inputs), references, predictions, inputs, types)
        if reading is None:
            return BucketsPartial()
        context, corpus, gold, pred, index = reading
        entity = spans_partial(gold, pred, 0.0, shard)
        ids = shard.global_ids(np.arange(corpus.n_sentences))
        # sentences x replicates in C order: the sparse products read it by sentence
        along = Placing(np.ascontiguousarray(sentence_weights(
            ids, options.bootstrap, options.seed).T) if options.bootstrap else None,
            ids if per_sentence else None)
        parts = _attribute_partials(context, corpus, gold, pred, index, chosen, options,
                                    shard, along)
    kept = np.column_stack([ids, sentence_counts(gold, pred, corpus.n_sentences)]) \
        if per_sentence else None
    return BucketsPartial(entity, parts, (("bucket_options", options),
                                          ("scheme", context.scheme),
                                          ("mode", context.mode),
                                          ("per_sentence", bool(per_sentence))), kept)


def _attribute_partials(context, corpus, gold, pred, index, chosen: dict,
                        options: BucketOptions, shard: Shard, along: Placing) -> tuple:
    """An ``AttributePartial`` per attribute ``chosen``, in order."""
    ctx, pred_side, pairs, cached = scoring_context(context, corpus, gold, pred, index,
                                                    options)
    words, out = _WordRows(corpus), []
    for name, function in chosen.items():
        unit, (gold_at, gold_values), (pred_at, pred_values), unit_pairs = attribute_units(
            ctx, pred_side, name, function, options.compat, pairs, cached)
        sides = [_side_counts(gold_values, gold_at, words, along)]
        sides.append(sides[0] if pred_values is gold_values else
                     _side_counts(pred_values, pred_at, words, along))
        sides.append(_correct_counts(gold_values, pred_values, pred_at, unit_pairs, words,
                                     along))
        if isinstance(function, str) and not attrs.ATTRIBUTE_TABLE[function].ordered:
            out.append(_types_by_name(name, unit, sides, ctx, shard))
        else:
            out.append(AttributePartial(name, unit, *sides))
    return tuple(out)


def _side_counts(values, sentence, words: "_WordRows", along: Placing) -> ValueCounts:
    """One side's units by value: ``values`` an array per unit (in ``sentence``s) or
    kept as look-ups (``TableValues``: every token, sentence None)."""
    if isinstance(values, TableValues):
        return _table_counts(values, 1, words, None, along)
    return ValueCounts.of(np.asarray(values, dtype=float)[:, None], sentence, along)


def _correct_counts(gold_values, pred_values, pred_at, pairs, words: "_WordRows",
                    along: Placing) -> ValueCounts:
    """The units scored correct when their two values fall in one bucket, by (gold
    value, predicted value): ``pairs`` a mask over tokens whose labels agree (then both
    sides read one table cell), or (gold index, predicted index) arrays
    (``core._correct``)."""
    if isinstance(pairs, np.ndarray):
        return _table_counts(gold_values, 2, words, np.flatnonzero(pairs), along)
    gold_index, pred_index = pairs
    keys = np.column_stack([gold_values[gold_index], pred_values[pred_index]])
    return ValueCounts.of(keys.astype(float).reshape(-1, 2), pred_at[pred_index], along)


class _WordRows:
    """A shard's words' rows in a token table: a token's row is its word's
    (``attributes.Context.table_rows``), so each word's is found once per shard and
    array of token rows (one scatter of the tokens), whichever attribute reads it."""

    def __init__(self, corpus):
        self.corpus = corpus
        self._found = {}   # id of the token rows -> (the token rows, each word's row)

    def of(self, token_rows: np.ndarray) -> np.ndarray:
        """Each word's row, from every token's ``token_rows``."""
        kept = self._found.get(id(token_rows))
        if kept is None or kept[0] is not token_rows:  # an id names one live array only
            by_word = np.zeros(len(self.corpus.vocab), dtype=np.int64)
            by_word[self.corpus.tokens] = token_rows
            kept = self._found[id(token_rows)] = (token_rows, by_word)
        return kept[1]


def _table_counts(values: TableValues, columns: int, words: _WordRows,
                  at: np.ndarray | None, along: Placing) -> ValueCounts:
    """The tokens ``at`` (None: every token) by their table cell's value, repeated in
    ``columns`` key columns: counted per (word, label code) of the shard, then per value
    (no sort of the tokens). The shard's words stand for the table's rows, so the counts
    grow with what the shard holds, not with the table (the training words x labels),
    which every shard would pay for again."""
    corpus = words.corpus
    word = corpus.tokens if at is None else corpus.tokens[at]
    width = 1 if values.labels is None else values.table.shape[1]
    key = np.multiply(word, width, dtype=np.int64)
    if values.labels is not None:
        key += values.labels if at is None else values.labels[at]
    per_key = np.bincount(key, minlength=len(corpus.vocab) * width)
    occupied = np.flatnonzero(per_key)
    word_id, label = np.divmod(occupied, width)
    value = values.table[words.of(values.rows)[word_id], label].astype(float)
    distinct, inverse = _grouped(np.repeat(value[:, None], columns, axis=1))
    counts = np.bincount(inverse, weights=per_key[occupied], minlength=len(distinct))
    group = np.zeros(len(per_key), dtype=np.int64)
    group[occupied] = inverse
    return along.counted(distinct, counts.astype(np.int64),
                         lambda: corpus.sentence_of_position if at is None else
                         np.searchsorted(corpus.offsets, at, side="right") - 1,
                         lambda: group[key])


def _types_by_name(name: str, unit: str, sides: list, ctx, shard: Shard) -> AttributePartial:
    """``tag``'s sides with the shard's type numbers renumbered into its types sorted
    by name, and each type's first gold mention (global sentence, start)."""
    types = tuple(sorted(ctx.types))
    position = {t: i for i, t in enumerate(types)}
    codes = np.array([position[t] for t in ctx.types], dtype=np.int64)
    spans = ctx.gold.spans
    numbers, at = np.unique(spans.type, return_index=True)
    sentence = spans.sentence[at]
    first = dict.fromkeys(types, NOT_SEEN)
    for number, global_id, start in zip(
            numbers.tolist(), shard.global_ids(sentence).tolist(),
            (spans.start[at] - ctx.corpus.offsets[sentence]).tolist()):
        first[ctx.types[number]] = (global_id, start)
    return AttributePartial(name, unit, *(side.renumbered(codes) for side in sides), types,
                            tuple(first[t] for t in types))


__all__ = ["partial", "BucketsPartial", "AttributePartial", "ValueCounts",
           "MergedAttributeBuckets"]
