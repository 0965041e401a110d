"""``score``: bucket-wise precision, recall and F1 per attribute, and the result object."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

import numpy as np

from nerspan import EntityScores, Evaluation, InputOptions, NameTakenError, NerspanError
from nerspan.flat import ranges
from nerspan.evaluation import resolve
from nerspan.migration import migrated
from nerspan.options import check_fraction, check_int
from nerspan.partials import sentence_weights
from nerspan.reading.training import TRAIN_FORMS
from nerspan.records import Record, comma_list, option, optional, switch
from nerspan.schemes import get_scheme
from nerspan.scores import entity_scores, equal_keys, is_flat, match
from nerspan.spans import LabelTable, repairs_dict
from nerspan.threshold_form import stating_threshold
from nerspan.bootstrap import (Statistic, f1_or_nan_statistic, f1_statistic,
                               percentile_interval, resample)
from nerspan.errors import counted
from nerspan.result import Result, entity_row, undefined_keys
from nerspan.scores import safe_divide, sentence_counts

from . import attributes as attrs
from .attributes import (Context, FREQUENCY_NORMS, Side, TableValues,
                         reference_token_values)
from .bucketing import (assign, bucket_names, edges_buckets, equal_width_buckets,
                        reference_buckets, strategy_buckets)
from .discrete import DISCRETE, tag_buckets
from .shapes import check_shapes
from .tables import training_tables

COMPATS = (None, "interpreteval")
STATISTIC_PREFIX = "attribute_buckets"
# Every bucket is a row of each attribute's table: 10,000 took 4 s on 2,000 sentences,
# a million never finished; a thousand already reads as a curve, not a breakdown.
MAX_BUCKETS = 1000


# F1 from totals (correct, predicted, gold); NaN for an empty bucket (no gold and no
# predicted unit), where the reported F1 is None
bucket_f1_statistic = f1_or_nan_statistic


@dataclass(frozen=True)
class AttributeTable:
    """The buckets of one attribute and their counts.

    ``counts`` is ``(sentences x buckets x 3)``: per sentence and bucket, the correct,
    predicted and gold units (mentions, or tokens for token attributes).
    ``gold_values`` / ``predicted_values`` hold the attribute value of every unit: gold
    and predicted mentions in corpus order; for token attributes every token in corpus
    order (with ``compat="interpreteval"``: the tokens inside mentions). Token values
    are kept as look-ups in the attribute's table (``kept_gold_values`` and
    ``kept_predicted_values`` are then ``attributes.TableValues``) and read on first
    access.
    """

    attribute: str
    unit: str                     # "mention" or "token"
    strategy: str
    buckets: tuple                # Bucket per bucket (the interval predicted values use)
    names: tuple
    counts: np.ndarray
    n_gold: int                   # all gold units, bucketed or not
    n_predicted: int
    mean_value: float | None      # mean value over the gold units (zeta); None for tag
    intervals: dict | None = None  # bucket index -> bootstrap Interval of F1
    # per gold / predicted unit: an array, or attributes.TableValues
    kept_gold_values: np.ndarray | TableValues | None = field(default=None, repr=False)
    kept_predicted_values: np.ndarray | TableValues | None = field(default=None,
                                                                         repr=False)
    gold_buckets: tuple | None = None   # only when gold units use other intervals (compat)

    @cached_property
    def gold_values(self) -> np.ndarray | None:
        """The attribute value of every gold unit (float)."""
        return _read_values(self.kept_gold_values)

    @cached_property
    def predicted_values(self) -> np.ndarray | None:
        """The attribute value of every predicted unit (float)."""
        if self.kept_predicted_values is self.kept_gold_values:   # tFre: label-free
            return self.gold_values
        return _read_values(self.kept_predicted_values)

    # summed over the sentences once: a row per bucket reads them (``to_list``), and a
    # sum per read made the table quadratic in the buckets (a type each for ``tag``)
    @cached_property
    def gold(self) -> np.ndarray:
        return self.counts[:, :, 2].sum(axis=0)

    @cached_property
    def predicted(self) -> np.ndarray:
        return self.counts[:, :, 1].sum(axis=0)

    @cached_property
    def correct(self) -> np.ndarray:
        return self.counts[:, :, 0].sum(axis=0)

    def scores(self) -> list[tuple]:
        """(precision, recall, f1) per bucket; None where undefined (empty side)."""
        correct, predicted, gold = self.correct, self.predicted, self.gold
        columns = (safe_divide(correct, predicted, np.nan), safe_divide(correct, gold, np.nan),
                   safe_divide(2 * correct, predicted + gold, np.nan))
        return [tuple(_none_if_nan(x) for x in row) for row in zip(*columns)]

    def f1(self) -> list:
        return [s[2] for s in self.scores()]

    def to_list(self) -> list[dict]:
        rows = []
        gold, predicted, correct = (self.gold.tolist(), self.predicted.tolist(),
                                    self.correct.tolist())
        for i, (bucket, name, (p, r, f)) in enumerate(zip(self.buckets, self.names, self.scores())):
            row = {"name": name, "interval": bucket.label(), "gold": gold[i],
                   "predicted": predicted[i], "correct": correct[i],
                   "precision": p, "recall": r, "f1": f}
            row.update(bucket.to_dict())
            if self.gold_buckets is not None and self.gold_buckets[i] != bucket:
                row["gold_interval"] = self.gold_buckets[i].label()
            if self.intervals is not None:
                ci = self.intervals[i]
                row["f1_interval"] = [_none_if_nan(ci.low), _none_if_nan(ci.high)]
            rows.append(row)
        return rows

    def summary(self) -> dict:
        return {"unit": self.unit, "strategy": self.strategy, "n_gold": self.n_gold,
                "n_predicted": self.n_predicted,
                "outside_gold": self.n_gold - int(self.gold.sum()),
                "outside_predicted": self.n_predicted - int(self.predicted.sum()),
                "mean_value": self.mean_value}


def _per_type(entity: EntityScores) -> dict:
    """Exact-match scores per type, None where a ratio is undefined (as in the buckets)."""
    return {t: entity_row(c, p, g) for t, c, p, g in zip(
        entity.types, entity.correct.tolist(), entity.predicted.tolist(), entity.gold.tolist())}


def _none_if_nan(x: float):
    return None if x != x else float(x)


def _read_values(kept):
    """Kept unit values as an array: ``TableValues`` read, arrays (or None) as they are."""
    return kept.values() if isinstance(kept, TableValues) else kept


@dataclass(frozen=True)
class AttributeBucketsResult(Result):
    """Overall micro P/R/F1 and, per attribute, the bucket table.

    ``to_dict()`` gives ``precision``, ``recall``, ``f1`` (nerspan's entity scores:
    ``zero_division=0``, listed in ``undefined``) and ``buckets`` (attribute -> list of
    bucket rows in bucket order) plus ``attributes`` (per attribute: unit, strategy,
    counts outside every bucket, mean gold value), ``per_type`` (per entity type of gold
    or predictions: exact-match ``precision``, ``recall``, ``f1``, None where undefined,
    and the ``support``, ``predicted`` and ``correct`` mentions), ``options`` and
    ``repairs``.
    """

    precision: float
    recall: float
    f1: float
    tables: dict                          # attribute -> AttributeTable
    overall_counts: np.ndarray            # sentences x (correct, predicted, gold)
    options: dict = field(default_factory=dict)
    repairs: dict = field(default_factory=dict)
    confidence: float | None = None
    entity: EntityScores | None = field(default=None, repr=False, compare=False)

    def __getitem__(self, attribute: str) -> AttributeTable:
        return self.tables[attribute]

    def bucket_f1(self, attribute: str) -> list:
        return self.tables[attribute].f1()

    def undefined(self) -> list:
        """The headline ratios that took ``zero_division`` (nerspan's entity scores)."""
        zero_division = [] if self.entity is None else \
            [u for u in self.entity.undefined() if "/" not in u]
        return undefined_keys({"precision": self.precision, "recall": self.recall,
                               "f1": self.f1}, zero_division)

    def plain_dict(self) -> dict:
        out = {"precision": self.precision, "recall": self.recall, "f1": self.f1,
               "buckets": {name: table.to_list() for name, table in self.tables.items()},
               "attributes": {name: table.summary() for name, table in self.tables.items()},
               "per_type": _per_type(self.entity) if self.entity is not None else {},
               "undefined": self.undefined(),
               "options": dict(self.options),
               "repairs": self.repairs or repairs_dict(None, None)}
        if self.confidence is not None:
            out["options"]["confidence"] = self.confidence
        return out

    def statistics(self) -> list[Statistic]:
        """Every reported F1 as a ``nerspan.bootstrap.Statistic`` (per-sentence counts of
        correct, predicted and gold units) for the report's bootstrap.

        ``attribute_buckets.f1`` is the overall F1; ``attribute_buckets.buckets.<attr>.<i>``
        the F1 of bucket ``i`` (NaN where ``to_dict`` says None).
        """
        out = [Statistic(f"{STATISTIC_PREFIX}.f1", self.overall_counts, f1_statistic,
                         int(self.overall_counts[:, 2].sum()))]
        for name, table in self.tables.items():
            out += bucket_statistics(name, table.counts)
        return out


def bucket_statistics(attribute: str, counts: np.ndarray) -> list[Statistic]:
    """The F1 of every bucket of one attribute as a ``Statistic``; ``counts`` is
    ``(sentences x buckets x 3)`` as in ``AttributeTable``."""
    return [Statistic(f"{STATISTIC_PREFIX}.buckets.{attribute}.{i}", counts[:, i, :],
                      bucket_f1_statistic, int(counts[:, i, 2].sum()))
            for i in range(counts.shape[1])]


def _attributes(name: str, value):
    chosen_attributes(value)   # checked: names, or a mapping to names and functions
    return value


def _edges(name: str, value):
    if not isinstance(value, Mapping):
        raise TypeError("bucket_edges must map attribute names to lists of edges, not "
                        f"{type(value).__name__}")
    return value


@dataclass(frozen=True)
class BucketOptions(Record):
    """attribute_buckets' own options (``score``; the command line's flags and the
    evaluate module's features are made of these fields)."""

    attributes: object = option(
        None, "names among ATTRIBUTES (default: all nine), or a mapping name -> a built-in "
        "name or a function f(corpus, spans, train_index) -> values (one float per span).",
        _attributes, parse=comma_list)
    n_buckets: int = option(
        4, f"buckets per attribute (named XS, S, L, XL; 2 to {MAX_BUCKETS}); tag has one "
        "bucket per gold entity type instead.",
        lambda name, value: check_int(name, value, minimum=2, maximum=MAX_BUCKETS), parse=int)
    bucket_edges: object = option(
        None, "attribute -> increasing edges [e0, ..., ek] giving the buckets [e0, e1], "
        "(e1, e2], ..., (e_{k-1}, ek] instead of the strategy's.", _edges, flag=None)
    equal_width: bool = switch(
        False, "cut the value range evenly (the paper's section 3.2 alternative) wherever "
        "the default cuts into equal counts; {0}, {1} and eLen's buckets stay.")
    lowercase: bool = switch(
        True, "lowercase tokens before looking them up in training (default, as the "
        "reference code), or compare them as written.")
    frequency_norm: str = option(
        "ratio", "\"ratio\" (the paper) or \"rank5\" (the reference code: occurrences / the "
        "5th largest count, capped at 1).", choices=FREQUENCY_NORMS)
    compat: str | None = option(
        None, "\"interpreteval\" reproduces the reference code (InterpretEval).",
        choices=COMPATS)
    bootstrap: int = option(
        0, "if > 0, that many sentence resamples give a percentile interval (confidence) on "
        "every bucket F1 (f1_interval): Poisson(1) sentence weights drawn per (seed, "
        "resample, sentence), so that partials draw them alike.",
        lambda name, value: check_int(name, value, minimum=0), parse=int)
    seed: int | None = option(0, "the seed of bootstrap's resamples.",
                              lambda name, value: check_int(name, value),
                              parse=optional(int))
    confidence: float = option(0.95, "the level of bootstrap's intervals.", check_fraction,
                               parse=float)

    describes = "attribute_buckets"

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "frequency_norm", _check_options(
            self.compat, self.frequency_norm, self.equal_width, self.lowercase))
        _check_bucket_edges(self.bucket_edges, chosen_attributes(self.attributes))


# 0.2: attribute_buckets' case_sensitive (default False) is lowercase (default True)
RENAMED = dict(case_sensitive="lowercase, its opposite (case_sensitive=True is lowercase=False; tough_mentions' case_sensitive keeps its name)")


@migrated(record=BucketOptions, **RENAMED)
def score(references, predictions=None, *, tokens=None, train=None, scheme: str | None = None,
          mode: str | None = None, label_list=None, inputs=None, attributes=None,
          n_buckets: int = 4, bucket_edges: Mapping | None = None,
          lowercase: bool = True, compat: str | None = None,
          options=None) -> AttributeBucketsResult:
    """Bucket-wise precision, recall and F1 for the nine attributes of Fu et al. (2020).

    Args:
        references, predictions: tag lists per sentence, label ids with ``label_list``,
            span lists per sentence, a ``datasets`` split, or a ``nerspan.Corpus`` (then
            ``predictions`` may be omitted: the columns ``gold_column`` and
            ``pred_column`` are scored); or ``references`` a ``nerspan.Evaluation`` and
            ``predictions`` a system's name (gold decoded, and the gold mentions'
            attribute values computed, once for any number of systems). The attributes
            that look at training data need the test words (``tokens``). Span lists
            that nest, overlap or have fragments, and gold with layers (the input
            option ``layers``), are scored as they are: exact match on (type, fragment
            set); the token attributes refuse mentions that share a token
            (``attribute_buckets.shapes``).
        train: training data: a ``TrainIndex``, a ``Corpus``, a ``datasets`` split, a
            column file path, or a ``(tokens, tags)`` pair. Needed by oDen, eCon, eFre,
            tCon and tFre; read with layers, every layer's mentions count (tCon, which
            counts one tag per training token, refuses it).
        scheme, mode: how tags are decoded (``nerspan.decode``; default IOB2, lenient).
        label_list, inputs: the tags in id order for label ids; the other input options
            (``nerspan.InputOptions`` or a dict of them).
        attributes, n_buckets, bucket_edges, lowercase, compat: options of
            ``BucketOptions`` (each field's doc says what it does); ``options``: that
            record (or a dict) with the others (``equal_width``, ``frequency_norm``,
            ``bootstrap``, ``seed``, ``confidence``), the keywords given put over it.

    >>> r = score([["O", "B-LOC", "I-LOC", "O"]], [["O", "B-LOC", "I-LOC", "O"]],
    ...           tokens=[["in", "New", "York", "today"]],
    ...           train=([["New", "York", "is", "big"]], [["B-LOC", "I-LOC", "O", "O"]]))
    >>> r.f1, [b["gold"] for b in r.to_dict()["buckets"]["eLen"]]
    (1.0, [0, 1, 0, 0])
    >>> r.to_dict()["buckets"]["eCon"][-1]["interval"], r.to_dict()["buckets"]["eCon"][-1]["gold"]
    ('{1}', 1)
    """
    options = BucketOptions.of(options).with_keywords(
        attributes=attributes, n_buckets=n_buckets, bucket_edges=bucket_edges,
        lowercase=lowercase, compat=compat)
    chosen = chosen_attributes(options.attributes)
    context, corpus, gold, pred, index = read_inputs(
        references, predictions, chosen, train=train, scheme=scheme, mode=mode,
        inputs=InputOptions.of(inputs, tokens=tokens, label_list=label_list))
    return stating_threshold(_scored(context, corpus, gold, pred, index, chosen, options),
                             predictions, inputs)


def read_inputs(references, predictions, chosen: dict, *, train, scheme, mode,
                inputs: InputOptions) -> tuple:
    """``(evaluation, corpus, gold spans, predicted spans, training index)`` of the
    inputs ``score`` takes, the training data checked for the attributes ``chosen``."""
    # gold with layers and mentions that nest or have fragments are scored as they are
    # (``shapes``: what one label per token cannot hold is refused per attribute)
    context, corpus, _, pred_column = resolve(references, predictions, scheme=scheme,
                                              mode=mode, train=train, inputs=inputs,
                                              layered=True, tables=True)
    _check_training(context, corpus, chosen, train)
    index = context.index(train)
    table = LabelTable.build(corpus.labels, get_scheme(context.scheme))
    gold = context.gold_spans(table)
    return context, corpus, gold, context.pred_spans(corpus, pred_column, table), index


def scoring_context(context: Evaluation, corpus, gold, pred, index,
                    options: BucketOptions) -> tuple:
    """``(attribute context, predicted side, exact mention pairs, gold values kept)``:
    what every attribute of one system is computed with."""
    lowercase, compat = options.lowercase, options.compat
    gold_side, pred_side = Side.of(gold, corpus.n_tokens), Side.of(pred, corpus.n_tokens)
    builtins = [attrs.ATTRIBUTE_TABLE[f] for f in
                chosen_attributes(options.attributes).values() if isinstance(f, str)]
    check_shapes(gold_side, pred_side, index,
                 [a.name for a in builtins if a.level == attrs.TOKEN],
                 [a.name for a in builtins if a.training_labels], compat)
    tables = training_tables(index, lowercase) if index is not None else None
    ctx = Context(corpus, gold_side, gold.types, index, tables, options.frequency_norm,
                  compat)
    cached = _GoldValues(context, (lowercase, options.frequency_norm, compat, gold.types))
    return ctx, pred_side, _mention_pairs(gold, pred), cached


def bootstrap_seed(seed: int | None) -> int:
    """The bootstrap's seed; None: one drawn at random."""
    return int(np.random.default_rng().integers(2 ** 63)) if seed is None else seed


def shown_options(options: BucketOptions, chosen, scheme: str, mode: str) -> dict:
    """The options a result reports (``to_dict()["options"]``)."""
    return {"n_buckets": options.n_buckets, "equal_width": options.equal_width,
            "lowercase": options.lowercase,
            "frequency_norm": options.frequency_norm, "compat": options.compat,
            "scheme": scheme, "mode": mode, "bootstrap": options.bootstrap,
            "seed": options.seed, "attributes": list(chosen),
            "bucket_edges": _plain_edges(options.bucket_edges)}


def _scored(context, corpus, gold, pred, index, chosen: dict,
            options: BucketOptions) -> AttributeBucketsResult:
    """The bucket tables of every attribute ``chosen`` for one system (``pred``)."""
    overall = entity_scores(gold, pred)
    ctx, pred_side, pairs, cached = scoring_context(context, corpus, gold, pred, index,
                                                    options)
    # drawn once, per (seed, replicate, sentence) as partials draw them: every
    # attribute's bootstrap is a product with these weights (``resample``)
    weights = sentence_weights(np.arange(corpus.n_sentences), options.bootstrap,
                               bootstrap_seed(options.seed)) if options.bootstrap else None
    edges = options.bucket_edges or {}
    result_tables = {name: _attribute_table(ctx, pred_side, name, function, options.n_buckets,
                                            edges.get(name), options.compat, weights,
                                            options.confidence, pairs, options.equal_width,
                                            cached)
                     for name, function in chosen.items()}
    return AttributeBucketsResult(*overall.micro(), result_tables,
                                  sentence_counts(gold, pred, corpus.n_sentences),
                                  shown_options(options, chosen, context.scheme,
                                                context.mode),
                                  overall.repairs,
                                  options.confidence if options.bootstrap else None, overall)


def _plain_edges(bucket_edges) -> dict | None:
    """Hand-given bucket edges in JSON's types (infinite edges as None)."""
    if not bucket_edges:
        return None
    return {name: [float(e) if math.isfinite(e) else None for e in edges]
            for name, edges in bucket_edges.items()}


def _check_options(compat, frequency_norm: str, equal_width, lowercase) -> str:
    """``compat`` and ``frequency_norm`` checked; the norm ``compat`` implies."""
    if compat not in COMPATS:
        raise ValueError(f"compat must be None or 'interpreteval', not {compat!r}")
    if frequency_norm not in FREQUENCY_NORMS:
        raise ValueError(f"frequency_norm must be one of {FREQUENCY_NORMS}, "
                         f"not {frequency_norm!r}")
    if compat == "interpreteval":
        if equal_width:
            raise ValueError("compat='interpreteval' uses the reference code's buckets; "
                             "it cannot be combined with equal_width=True")
        if not lowercase:
            raise ValueError("compat='interpreteval' lowercases every training look-up; "
                             "it cannot be combined with lowercase=False")
        frequency_norm = "rank5"
    return frequency_norm


def _check_training(context: Evaluation, corpus, chosen: dict, train) -> None:
    """The attributes that look at training data need it, and the test tokens."""
    needs_train = [a for a, f in chosen.items()
                   if isinstance(f, str) and attrs.ATTRIBUTE_TABLE[f].needs_training]
    if not needs_train:
        return
    if corpus.tokens is None:
        raise ValueError(f"{', '.join(needs_train)} need the test tokens: pass tokens=...")
    if train is None and context.train is None:
        raise ValueError(
            f"{', '.join(needs_train)} need training data: pass train=... ({TRAIN_FORMS}); "
            "or choose attributes=('eLen', 'sLen', 'eDen')")


class _GoldValues:
    """The gold units' attribute values of built-in attributes, kept in the gold context
    (``key``: the options and gold types they depend on) for every later system: the
    mentions' values, and of token attributes the distinct values with their counts."""

    def __init__(self, context: Evaluation, key: tuple):
        self.context, self.key = context, key

    def get(self, name: str, build):
        return self.context.derived(("attribute_buckets.gold_values", name) + self.key, build)


# -- one attribute -----------------------------------------------------------------------
def attribute_units(ctx, pred_side, name, function, compat, mention_pairs,
                    cached: _GoldValues | None = None) -> tuple:
    """``(unit, gold units, predicted units, pairs)`` of one attribute: units
    ``(sentence, values)`` per side (see ``_token_units``, ``_mention_units``) and the
    pairs of units scored correct when in the same bucket (``_correct``)."""
    builtin = attrs.ATTRIBUTE_TABLE[function] if isinstance(function, str) else None
    if builtin is not None and builtin.level == attrs.TOKEN:
        return ("token",) + _token_units(ctx, ctx.gold, pred_side, builtin, compat)
    return ("mention",) + _mention_units(ctx, ctx.gold, pred_side, name, function, cached,
                                         mention_pairs) + (mention_pairs,)


def _attribute_table(ctx, pred_side, name, function, n_buckets, edges, compat, weights,
                     confidence, mention_pairs, equal_width=False,
                     cached: _GoldValues | None = None) -> AttributeTable:
    builtin = attrs.ATTRIBUTE_TABLE[function] if isinstance(function, str) else None
    unit, gold_units, pred_units, pairs = attribute_units(ctx, pred_side, name, function,
                                                          compat, mention_pairs, cached)
    gold_sentence, gold_values = gold_units
    pred_sentence, pred_values = pred_units
    discrete = builtin is not None and not builtin.ordered
    distribution = _gold_distribution(gold_values, builtin, cached)
    # summed in sorted order, so that the mean does not depend on the sentence order;
    # a discrete attribute (type codes) has no mean
    mean = sorted_mean(*distribution) if len(gold_values) and not discrete else None
    strategy, gold_buckets, pred_buckets = cut_buckets(ctx.types, name, builtin,
                                                       distribution, n_buckets, edges,
                                                       compat, equal_width)
    gold_bucket = _assigned(gold_values, gold_buckets)
    pred_bucket = _assigned(pred_values, pred_buckets)
    nb = len(pred_buckets)
    correct_sentence, correct_bucket = _correct(pairs, gold_bucket, pred_bucket, pred_sentence)
    counts = _sentence_bucket_counts(((correct_sentence, correct_bucket),
                                      (pred_sentence, pred_bucket),
                                      (gold_sentence, gold_bucket)), ctx.corpus.lengths, nb,
                                     _count_dtype(ctx.corpus, ctx.gold.spans,
                                                  pred_side.spans))
    intervals = None
    if weights is not None:
        statistics = bucket_statistics(name, counts)
        samples = resample(statistics, weights)
        intervals = {i: percentile_interval(samples[:, i], statistic.estimate(), confidence)
                     for i, statistic in enumerate(statistics)}
    names = tuple(b.label() for b in pred_buckets) if discrete else bucket_names(nb)
    return AttributeTable(name, unit, strategy, tuple(pred_buckets), names, counts,
                          len(gold_values), len(pred_values), mean, intervals,
                          gold_values, pred_values,
                          None if gold_buckets is pred_buckets else tuple(gold_buckets))


def _gold_distribution(gold_values, builtin, cached: _GoldValues | None) -> tuple:
    """``(values, counts)`` the gold buckets are cut from: values kept as look-ups
    (tokens) give their distinct values and the units of each (kept in the gold
    context), an array itself and None (one unit each)."""
    if not isinstance(gold_values, TableValues):
        return gold_values, None
    return gold_values.value_counts() if cached is None else \
        cached.get(builtin.name, gold_values.value_counts)


def sorted_mean(values: np.ndarray, counts: np.ndarray | None) -> float:
    """The mean of the units' values, summed in increasing order (``counts``: units per
    value, the values increasing; None: one unit each)."""
    return float(np.mean(np.sort(values) if counts is None else np.repeat(values, counts)))


def cut_buckets(types, name, builtin, distribution, n_buckets, edges, compat, equal_width):
    """``(strategy, gold buckets, predicted buckets)`` of one attribute (``builtin``: its
    record, None for a custom one), cut from the gold ``(values, counts)`` (see
    ``_gold_distribution``); ``types``: the entity types that ``tag``'s values number."""
    gold_values, counts = distribution
    strategy = "edges" if edges is not None else builtin.bucketing if builtin else "equal"
    if builtin is not None and builtin.bucketing == DISCRETE:
        if edges is not None:
            raise ValueError(f"{name} is discrete (one bucket per entity type): "
                             "bucket_edges does not apply to it")
        buckets = tag_buckets(types, gold_values, compat)
        return DISCRETE, buckets, buckets
    if edges is not None:
        buckets = edges_buckets(edges)
        return strategy, buckets, buckets
    if compat == "interpreteval" and builtin is not None:
        if counts is not None:   # the reference's rule reads every unit's value
            gold_values = np.repeat(gold_values, counts)
        return ("reference",) + tuple(reference_buckets(builtin.compat, gold_values,
                                                        n_buckets, builtin.name))
    if equal_width:
        buckets = equal_width_buckets(strategy, gold_values, n_buckets, counts)
    else:
        buckets = strategy_buckets(strategy, gold_values, n_buckets, counts=counts)
    return strategy, buckets, buckets


def _assigned(values, buckets) -> np.ndarray:
    """Bucket of every unit; values kept as look-ups (``TableValues``) are bucketed by
    assigning the few table cells."""
    if not isinstance(values, TableValues):
        return assign(values, buckets)
    # int8 buckets when they fit: the array gathered from them has one entry per token
    small = np.int8 if len(buckets) < 127 else np.int64
    return values.take(assign(values.table.ravel(), buckets).astype(small)
                       .reshape(values.table.shape))


def _correct(pairs, gold_bucket, pred_bucket, pred_sentence) -> tuple:
    """``(sentence, bucket)`` of the correct predicted units: paired with a gold unit of
    the same bucket. ``pairs``: (gold index, predicted index) arrays, or a mask over units
    that are the same on both sides (tokens) saying where the labels agree."""
    if isinstance(pairs, np.ndarray):
        return pred_sentence, np.where(pairs & (gold_bucket == pred_bucket), pred_bucket, -1)
    gold_index, pred_index = pairs
    same = (gold_bucket[gold_index] == pred_bucket[pred_index]) & (pred_bucket[pred_index] >= 0)
    return pred_sentence[pred_index[same]], pred_bucket[pred_index[same]]


def _count_dtype(corpus, *sides) -> type:
    """The smallest signed integer type holding any count of units of one sentence (at
    most its length, or its mentions on a side ``sides``: mentions that nest may be
    more): the result keeps ``sentences x buckets x 3`` counts for every attribute.
    Sums over sentences still accumulate in int64 (NumPy's rule for small integers) and
    the bootstrap reads the counts as floats."""
    longest = int(corpus.lengths.max()) if corpus.n_sentences else 0
    for spans in sides:
        if len(spans) and not is_flat(spans):
            longest = max(longest, int(np.bincount(spans.sentence).max()))
    for dtype in (np.int8, np.int16, np.int32):
        if longest <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def _sentence_bucket_counts(columns, lengths: np.ndarray, n_buckets: int,
                            dtype=np.int64) -> np.ndarray:
    """``(sentences x buckets x len(columns))`` of ``dtype``: per column ``(sentence,
    bucket)`` of its units, the units per sentence and bucket; ``sentence`` None: the
    units are every token in corpus order (sentences of ``lengths`` tokens).

    A unit in no bucket (-1) counts in an extra column dropped at the end, which spares
    selecting the bucketed units first.
    """
    n_sentences, width = len(lengths), n_buckets + 1
    first_cells = np.arange(n_sentences) * width + 1
    counts = np.empty((n_sentences, n_buckets, len(columns)), dtype=dtype)
    for k, (sentence, bucket) in enumerate(columns):
        # an int64 per unit (np.bincount reads int64 anyway), freed before the next one
        cells = np.repeat(first_cells, lengths) if sentence is None else first_cells[sentence]
        cells += bucket
        flat = np.bincount(cells, minlength=n_sentences * width).reshape(n_sentences, width)
        del cells
        counts[:, :, k] = flat[:, 1:]
        del flat
    return counts


def _mention_units(ctx, gold_side, pred_side, name, function, cached=None, pairs=None):
    gold, pred = gold_side.spans, pred_side.spans
    if isinstance(function, str):
        compute = attrs.ATTRIBUTE_TABLE[function].values
        build = lambda: np.asarray(compute(ctx, gold), dtype=float)  # noqa: E731
        gold_values = build() if cached is None else cached.get(function, build)
        pred_values = _predicted_values(ctx, compute, gold, pred, gold_values, pairs)
    else:
        gold_values = _custom_values(function, ctx, gold, name, "gold")
        pred_values = _custom_values(function, ctx, pred, name, "predicted")
    return (gold.sentence, gold_values), (pred.sentence, pred_values)


def _predicted_values(ctx, compute, gold, pred, gold_values, pairs) -> np.ndarray:
    """A built-in attribute of every predicted mention. Its value depends only on the
    mention's own sentence, position, length and type, so an exactly predicted mention
    (``pairs``) takes its gold mention's value and only the others are computed."""
    if pairs is None or gold.types != pred.types:
        return np.asarray(compute(ctx, pred), dtype=float)
    gold_index, pred_index = pairs
    values = np.empty(len(pred))
    values[pred_index] = gold_values[gold_index]
    others = ctx.cached("unpaired_predictions", lambda: _unpaired(pred, pred_index))
    values[others[0]] = np.asarray(compute(ctx, others[1]), dtype=float)
    return values


def _unpaired(pred, pred_index) -> tuple:
    """``(indices, Spans)`` of the predicted mentions outside ``pred_index``."""
    rest = np.ones(len(pred), dtype=bool)
    rest[pred_index] = False
    rest = np.flatnonzero(rest)
    return rest, pred.take(rest)


def _mention_pairs(gold, pred) -> tuple[np.ndarray, np.ndarray]:
    """(gold index, predicted index) of every exactly predicted mention: the gold
    mention starting where it starts, or, where mentions nest or have fragments (several
    may start at one token), the gold mention of its (type, fragment set) key."""
    _, pred_ok = match(gold, pred)
    pred_index = np.flatnonzero(pred_ok)
    if len(gold) and not (is_flat(gold) and is_flat(pred)):
        n_positions = int(gold.offsets[-1])
        hit, gold_index = equal_keys(pred.key(n_positions)[pred_index],
                                     gold.key(n_positions))
        return gold_index.astype(np.int64), pred_index[hit].astype(np.int64)
    gold_index = np.searchsorted(gold.start, pred.start[pred_index]) if len(gold) else pred_index
    return gold_index.astype(np.int64), pred_index.astype(np.int64)


def _custom_values(function, ctx, spans, name, side) -> np.ndarray:
    values = np.asarray(function(ctx.corpus, spans, ctx.train), dtype=float).ravel()
    if len(values) != len(spans):
        raise NerspanError(f"attribute {name!r} gave {counted(len(values), 'value')} for "
                           f"{counted(len(spans), f'{side} mention')}")
    if np.isnan(values).any():
        raise NerspanError(f"attribute {name!r} gave NaN for a {side} mention")
    return values


def _token_units(ctx, gold_side, pred_side, attribute, compat):
    """Scored tokens, ``(sentence, values)`` per side and the mask of tokens whose labels
    agree: every token (sentence None) with its value kept as a look-up by its IO label
    (default), or, as the reference code, only the tokens inside mentions (gold tokens
    in gold mentions, predicted tokens in predicted mentions; then pairs of indices)."""
    if compat == "interpreteval":
        return _reference_token_units(ctx, gold_side, pred_side, attribute)
    table = attribute.table(ctx)
    rows = ctx.table_rows()
    gold = TableValues.of(table, rows, gold_side.io)
    # a label-free table (tFre) gives both sides the same values: one object
    pred = gold if gold.labels is None else TableValues.of(table, rows, pred_side.io)
    return (None, gold), (None, pred), gold_side.io == pred_side.io


def _reference_token_units(ctx, gold_side, pred_side, attribute):
    """The reference code's token units: the tokens inside mentions, valued as it does
    (``attributes.reference_token_values``), paired by position."""
    function = attribute.values
    units = []
    for side in (gold_side, pred_side):
        positions = ranges(side.spans.start, side.spans.length)
        labels = side.io[positions]
        first = np.zeros(len(positions), dtype=bool)
        first[np.cumsum(side.spans.length) - side.spans.length] = True
        values = reference_token_values(ctx, positions, labels, first, function)
        units.append((positions, labels, values))
    (gp, gl, gv), (pp, pl, pv) = units
    # a position is inside at most one mention per side: pair them by position
    common, gold_index, pred_index = np.intersect1d(gp, pp, assume_unique=True,
                                                    return_indices=True)
    agree = gl[gold_index] == pl[pred_index]
    # sentences of the mention tokens only (not the corpus's array of one per token)
    gold_sentence, pred_sentence = (
        np.searchsorted(ctx.corpus.offsets, positions, side="right") - 1 for positions in (gp, pp))
    return ((gold_sentence, gv), (pred_sentence, pv),
            (gold_index[agree].astype(np.int64), pred_index[agree].astype(np.int64)))


def _check_bucket_edges(bucket_edges, chosen: dict) -> None:
    """Edges must be a mapping whose keys are attributes being computed: edges for an
    attribute that is not computed would silently do nothing."""
    if bucket_edges is None:
        return
    unknown = [name for name in bucket_edges if name not in chosen]
    if unknown:
        raise ValueError(f"bucket_edges names {unknown}, which are not among the attributes "
                         f"computed: {', '.join(chosen)}")


def chosen_attributes(attributes) -> dict:
    """name -> built-in name or custom function."""
    if attributes is None:
        return {a: a for a in attrs.ATTRIBUTE_TABLE}
    if isinstance(attributes, str):
        attributes = [attributes]
    if isinstance(attributes, Mapping):
        items = list(attributes.items())
    else:
        items = [(a, a) for a in attributes]
    out = {}
    for name, function in items:
        if isinstance(function, str):
            if function not in attrs.ATTRIBUTE_TABLE:
                raise ValueError(f"unknown attribute {function!r}; built-in ones: "
                                 f"{', '.join(attrs.ATTRIBUTE_TABLE)}")
        elif not callable(function):
            raise TypeError(f"attribute {name!r} must be a built-in name or a function "
                            "f(corpus, spans, train_index) -> values")
        if name in attrs.ATTRIBUTE_TABLE and function != name:  # pages title it as the built-in
            raise NameTakenError(f"attribute {name!r} is a built-in attribute's name: give "
                                 f"{'the function' if callable(function) else repr(function)}"
                                 " another name")
        if str(name) in out:
            raise NameTakenError(f"attribute {str(name)!r} is given twice")
        out[str(name)] = function
    if not out:
        raise ValueError("attributes is empty")
    return out


