"""Buckets: intervals of attribute values, the paper's strategies, and the reference's.

A ``Bucket`` is an interval of values, ``[low, high]`` with either end open, or a single
value (``low == high``, both closed). Edges are always computed from the GOLD values
(the test mentions or tokens the bucket scores are about) and then applied unchanged to
the predicted values, so that precision and recall of a bucket talk about the same
interval.

Strategies (``n`` = the number of buckets, default 4):

- ``"length"`` (eLen): ``{1}, {2}, ..., {n-1}, [n, inf)``.
- ``"consistency"`` (eCon, tCon): ``{0}``, then ``n - 2`` equal-count buckets over the
  values in ``(0, 1)``, then ``{1}``.
- ``"zero_then_equal"`` (eFre, tFre, oDen): ``{0}``, then ``n - 1`` equal-count buckets
  over the positive values, the last one open to ``inf``.
- ``"equal"`` (sLen, eDen): ``n`` equal-count buckets ``[0, e1], (e1, e2], ..., (e, inf)``.

Equal-count edges and ties: with the ``m`` region values sorted as ``s``, edge ``j`` is
``s[ceil(j * m / k) - 1]`` and intervals are closed on the right, so a value equal to an
edge belongs to the LOWER bucket and all units with the same value always share a
bucket. When ties make two edges equal, the bucket between them is empty: it is kept,
with count 0 and no score.

>>> buckets = equal_count([1, 2, 3, 4, 5, 6], 3)
>>> [b.label() for b in buckets]
['[0, 2]', '(2, 4]', '(4, inf)']
>>> assign(np.array([0.5, 2.0, 3.0, 9.0]), buckets).tolist()
[0, 0, 1, 2]
>>> [b.label() for b in equal_count([1, 2, 2, 2, 3, 4], 3)]   # a tie empties (2, 2]
['[0, 2]', '(2, 2]', '(2, inf)']
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nerspan import NerspanError
from nerspan.errors import counted

STRATEGIES = ("length", "consistency", "zero_then_equal", "equal")
# The reference code's rules (compat="interpreteval"), which attribute follows which is in
# the attribute's record (``attributes.ATTRIBUTE_TABLE``): fixed intervals (eCon, tCon);
# single-value buckets for 1 .. n-1 (eLen) or for 0 (eFre, tFre, oDen), the rest by greedy
# accumulation; greedy accumulation alone (sLen, eDen).
REFERENCE_RULES = ("fixed", "length", "zero", "greedy")
REFERENCE_FIXED = [(0.0, 0.0, True, True), (0.0, 0.5, False, True),
                   (0.5, 0.999, False, True), (1.0, 1.0, True, True)]

# Bucket names by number of buckets; other counts are named B1, B2, ...
NAMES = {1: ("ALL",), 2: ("S", "L"), 3: ("S", "M", "L"), 4: ("XS", "S", "L", "XL"),
         5: ("XS", "S", "M", "L", "XL"), 6: ("XXS", "XS", "S", "L", "XL", "XXL"),
         7: ("XXS", "XS", "S", "M", "L", "XL", "XXL")}


def bucket_names(n: int) -> tuple:
    """``XS, S, L, XL`` for 4 buckets; see ``NAMES``; ``B1 .. Bn`` beyond 7.

    >>> bucket_names(4), bucket_names(9)[-1]
    (('XS', 'S', 'L', 'XL'), 'B9')
    """
    return NAMES.get(n, tuple(f"B{i + 1}" for i in range(n)))


@dataclass(frozen=True)
class Bucket:
    """An interval of attribute values."""

    low: float
    high: float
    low_closed: bool = True
    high_closed: bool = True

    @property
    def is_point(self) -> bool:
        return self.low == self.high and self.low_closed and self.high_closed

    def contains(self, values: np.ndarray) -> np.ndarray:
        values = np.asarray(values, dtype=float)
        above = values >= self.low if self.low_closed else values > self.low
        below = values <= self.high if self.high_closed else values < self.high
        return above & below

    def label(self) -> str:
        """``{0}``, ``(0, 0.5]``, ``[4, inf)``: the interval as text."""
        if self.is_point:
            return "{" + _number(self.low) + "}"
        return ("[" if self.low_closed else "(") + _number(self.low) + ", " + \
            _number(self.high) + ("]" if self.high_closed else ")")

    def to_dict(self) -> dict:
        return {"low": _finite(self.low), "high": _finite(self.high),
                "low_closed": self.low_closed, "high_closed": self.high_closed}


def _number(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4g}"


def _finite(x: float):
    return None if math.isinf(x) else float(x)


def assign(values: np.ndarray, buckets) -> np.ndarray:
    """Index of the first bucket containing each value; -1 where none does.

    >>> from attribute_buckets.discrete import Category
    >>> assign(np.array([2.0, 0.0, 5.0]), [Category("A", (0,)), Category("B", (2, 0))]).tolist()
    [1, 0, -1]
    """
    values = np.asarray(values, dtype=float)
    codes = [getattr(bucket, "codes", None) for bucket in buckets]
    if buckets and all(c is not None for c in codes):   # categories (``discrete``)
        return _category_index(values, codes)
    out = np.full(len(values), -1, dtype=np.int64)
    for i in range(len(buckets) - 1, -1, -1):   # the first match wins
        out[buckets[i].contains(values)] = i
    return out


def _category_index(values: np.ndarray, codes: list) -> np.ndarray:
    """``assign`` for buckets that are sets of codes: one sorted look-up of every value,
    linear in the values whatever the number of buckets (a type each, for ``tag``)."""
    first = {}
    for i in range(len(codes) - 1, -1, -1):   # the first bucket holding a code wins
        first.update(dict.fromkeys(map(float, codes[i]), i))
    keys = np.array(sorted(first), dtype=float)
    if not len(keys):
        return np.full(len(values), -1, dtype=np.int64)
    at = np.minimum(np.searchsorted(keys, values), len(keys) - 1)
    index = np.array([first[k] for k in keys.tolist()], dtype=np.int64)
    return np.where(keys[at] == values, index[at], -1)


def equal_count(values, k: int, low: float = 0.0, high: float = math.inf,
                low_closed: bool = True, high_closed: bool = False, counts=None) -> list:
    """``k`` buckets over ``(low, high)`` holding about the same number of ``values``.

    Edges come from the sorted values (ties stay together in the lower bucket); the
    outer ends are ``low`` and ``high``. With no values every bucket but the last is
    empty. ``counts``: how many units have each value (default one each).

    >>> [b.label() for b in equal_count([1, 2], 2, counts=[3, 1])]   # as [1, 1, 1, 2]
    ['[0, 1]', '(1, inf)']
    """
    if k < 1:
        raise ValueError("a bucketing needs at least one bucket")
    ordered, ends = _sorted_runs(values, counts)
    m = int(ends[-1]) if len(ends) else 0
    if m:
        # unit i of the sorted units has the value of the first run ending after it
        edges = [float(ordered[np.searchsorted(ends, math.ceil(j * m / k) - 1, "right")])
                 for j in range(1, k)]
    else:
        edges = [low] * (k - 1)
    bounds = [low] + edges + [high]
    out = []
    for j in range(k):
        out.append(Bucket(bounds[j], bounds[j + 1], low_closed if j == 0 else False,
                          high_closed if j == k - 1 else True))
    return out


def _sorted_runs(values, counts) -> tuple[np.ndarray, np.ndarray]:
    """The values in increasing order and, for each, where its run of units ends among
    the sorted units (cumulative counts); ``counts`` None: one unit per value."""
    values = np.asarray(values, dtype=float)
    if counts is None:
        ordered = np.sort(values)
        return ordered, np.arange(1, len(ordered) + 1)
    order = np.argsort(values, kind="stable")
    return values[order], np.cumsum(np.asarray(counts, dtype=np.int64)[order])


def strategy_buckets(strategy: str, gold_values, n_buckets: int, cut=None,
                     counts=None) -> list:
    """The paper's buckets for one strategy (see the module docstring); ``cut`` divides
    the parts that are not fixed ({0}, {1}, lengths): ``equal_count`` by default.
    ``counts``: how many gold units have each of ``gold_values`` (default one each)."""
    if n_buckets < 2:
        raise ValueError(f"n_buckets must be at least 2, not {n_buckets}")
    cut = cut or equal_count
    gold_values = np.asarray(gold_values, dtype=float)

    def part(where):   # the values where ``where`` holds, and their counts
        return gold_values[where], None if counts is None else np.asarray(counts)[where]

    if strategy == "length":
        points = [Bucket(float(v), float(v)) for v in range(1, n_buckets)]
        return points + [Bucket(float(n_buckets), math.inf, True, False)]
    if strategy == "consistency":
        if n_buckets == 2:
            return [Bucket(0.0, 0.0), Bucket(0.0, 1.0, False, True)]
        inner, inner_counts = part((gold_values > 0) & (gold_values < 1))
        middle = cut(inner, n_buckets - 2, 0.0, 1.0, False, False, inner_counts)
        return [Bucket(0.0, 0.0)] + middle + [Bucket(1.0, 1.0)]
    if strategy == "zero_then_equal":
        positive, positive_counts = part(gold_values > 0)
        return [Bucket(0.0, 0.0)] + cut(positive, n_buckets - 1, 0.0, math.inf, False, False,
                                        positive_counts)
    if strategy == "equal":
        return cut(gold_values, n_buckets, 0.0, math.inf, True, False, counts)
    raise ValueError(f"unknown bucketing strategy {strategy!r}; one of {', '.join(STRATEGIES)}")


def edges_buckets(edges) -> list:
    """Buckets from user edges ``[e0, e1, ..., ek]``: ``[e0, e1], (e1, e2], ..., (e_{k-1}, ek]``.

    Values outside ``[e0, ek]`` fall in no bucket (reported as ``outside``).

    >>> [b.label() for b in edges_buckets([0, 0.5, 1])]
    ['[0, 0.5]', '(0.5, 1]']
    """
    try:
        edges = [float(e) for e in edges]
    except (TypeError, ValueError):
        raise NerspanError(f"bucket_edges must be numbers: {edges}") from None
    if len(edges) < 2:
        raise NerspanError("bucket_edges needs at least two edges (one bucket)")
    if any(math.isnan(e) for e in edges):  # NaN compares false: it would pass the order check
        raise NerspanError(f"bucket_edges must be numbers, not NaN: {edges}")
    if any(b < a for a, b in zip(edges, edges[1:])):
        raise NerspanError(f"bucket_edges must not decrease: {edges}")
    return [Bucket(edges[i], edges[i + 1], i == 0, True) for i in range(len(edges) - 1)]


# -- the reference code (compat="interpreteval") -----------------------------------------
def reference_buckets(rule: str, gold_values, n_buckets: int, name: str | None = None
                      ) -> tuple[list, list]:
    """Buckets as the reference code finds them by ``rule`` (``REFERENCE_RULES``):
    ``(for_gold, for_predicted)``; ``name``: the attribute, for errors.

    ``"fixed"``: the intervals ``{0}, (0, 0.5], (0.5, 0.999], {1}`` (a value in
    ``(0.999, 1)`` falls in none). The others: single-value buckets for the configured
    values present in gold (``"length"``: ``1 .. n-1``; ``"zero"``: ``0``; ``"greedy"``:
    none), then greedy accumulation over the other distinct values in increasing order: a
    bucket is closed as soon as it holds MORE than (remaining units / remaining buckets);
    what is left at the end is the last bucket. This can give fewer buckets than asked
    for. For predicted values the accumulated groups become intervals ``(previous upper,
    upper]`` (the first group, if it comes first, ``(its lowest value, upper]``, which
    leaves that lowest value out); a group of one value stays a single value. Gold units
    keep the group they were accumulated in.

    >>> gold, pred = reference_buckets("greedy", [5, 5, 6, 7, 8, 9, 9, 9], 4)
    >>> [b.label() for b in gold], [b.label() for b in pred]
    (['[5, 6]', '(6, 9]'], ['(5, 6]', '(6, 9]'])
    """
    if rule == "fixed":
        fixed = [Bucket(*spec) for spec in REFERENCE_FIXED]
        return fixed, fixed
    points = {"length": tuple(float(v) for v in range(1, n_buckets)), "zero": (0.0,),
              "greedy": ()}
    if rule not in points:
        raise ValueError(f"unknown reference rule {rule!r}; one of {', '.join(REFERENCE_RULES)}")
    groups = _reference_groups(name or rule, gold_values, n_buckets, points[rule])
    return _reference_group_buckets(groups)


def _reference_groups(attribute: str, gold_values, n_buckets: int, hardcoded) -> list:
    """The reference code's groups of gold values, ``(first value, last value, is single
    value)``: the single values in ``hardcoded`` present in gold, then greedy
    accumulation over the other distinct values (see ``reference_buckets``)."""
    values = np.asarray(gold_values, dtype=float)
    distinct, counts = np.unique(values, return_counts=True)
    present = dict(zip(distinct.tolist(), counts.tolist()))
    groups = []            # (first value, last value, is single value)
    remaining, remaining_buckets = len(values), n_buckets
    for value in hardcoded:
        if value in present:
            groups.append((value, value, True))
            remaining -= present[value]
            remaining_buckets -= 1
    if remaining_buckets <= 0 and remaining:
        raise NerspanError(f"{attribute}: {counted(n_buckets, 'bucket')} leave none for the "
                           "values beyond the single-value buckets")
    average = remaining / remaining_buckets if remaining_buckets > 0 else math.inf
    group, held = [], 0
    for value, count in zip(distinct.tolist(), counts.tolist()):
        if value in hardcoded:
            continue
        group.append(value)
        held += count
        if held > average:
            groups.append((group[0], group[-1], len(group) == 1))
            group, held = [], 0
    if held:
        groups.append((group[0], group[-1], len(group) == 1))
    return groups


def _reference_group_buckets(groups: list) -> tuple[list, list]:
    """``(for_gold, for_predicted)`` buckets of the reference code's groups, in value
    order (see ``reference_buckets``)."""
    gold_buckets, pred_buckets = [], []
    last = None
    for index, (first, final, single) in enumerate(groups):
        if single:
            gold_buckets.append(Bucket(first, first))
            pred_buckets.append(Bucket(first, first))
            last = first
            continue
        lower = first if index == 0 else last
        gold_buckets.append(Bucket(first if index == 0 else lower, final, index == 0, True))
        pred_buckets.append(Bucket(lower, final, False, True))
        last = final
    order = sorted(range(len(groups)), key=lambda i: (pred_buckets[i].low,
                                                      not pred_buckets[i].is_point,
                                                      pred_buckets[i].high))
    return [gold_buckets[i] for i in order], [pred_buckets[i] for i in order]


# -- equal width (the paper's "divide the value range evenly", option equal_width) -------
def equal_width(values, k: int, low: float = 0.0, high: float = math.inf,
                low_closed: bool = True, high_closed: bool = False, counts=None) -> list:
    """``k`` buckets cutting the range ``[min(values), max(values)]`` into equal widths.

    Inner edges are ``min + j * (max - min) / k``; intervals are closed on the right (a
    value on an edge belongs to the lower bucket) and the outer ends are ``low`` and
    ``high``, as in ``equal_count``. With no values, or one distinct value, every bucket
    but the first is empty. ``counts``: how many units have each value (default one
    each; a value no unit has is no value).

    >>> [b.label() for b in equal_width([1, 2, 3, 10], 3)]
    ['[0, 4]', '(4, 7]', '(7, inf)']
    >>> assign(np.array([1.0, 3.0, 10.0]), equal_width([1, 2, 3, 10], 3)).tolist()
    [0, 0, 2]
    """
    if k < 1:
        raise ValueError("a bucketing needs at least one bucket")
    values = np.asarray(values, dtype=float)
    if counts is not None:
        values = values[np.asarray(counts) > 0]
    if len(values):
        first, last = float(values.min()), float(values.max())
        edges = [first + j * (last - first) / k for j in range(1, k)]
    else:
        edges = [low] * (k - 1)
    bounds = [low] + edges + [high]
    return [Bucket(bounds[j], bounds[j + 1], low_closed if j == 0 else False,
                   high_closed if j == k - 1 else True) for j in range(k)]


def equal_width_buckets(strategy: str, gold_values, n_buckets: int, counts=None) -> list:
    """A strategy's buckets (``strategy_buckets``) with every equal-count part cut by
    equal width instead: the {0} and {1} buckets of eCon, tCon, eFre, tFre and oDen stay,
    eLen keeps its length buckets.

    >>> [b.label() for b in equal_width_buckets("equal", [2, 4, 6, 8, 30], 2)]
    ['[0, 16]', '(16, inf)']
    >>> [b.label() for b in equal_width_buckets("zero_then_equal", [0, 0.2, 0.4, 1.0], 3)]
    ['{0}', '(0, 0.6]', '(0.6, inf)']
    """
    return strategy_buckets(strategy, gold_values, n_buckets, cut=equal_width, counts=counts)
