"""Bootstrap over sentences, vectorised: confidence intervals and paired comparisons.

Every score nerlens reports is a function of counts that add up over sentences (correct,
predicted and gold mentions; errors and tokens of a subset; ...). A bootstrap sample is a
multiset of sentences, i.e. a vector of sentence weights, so all samples at once are one
matrix product ``weights (samples x sentences) @ counts (sentences x k)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .scores import prf_from_counts

BATCH_CELLS = 20_000_000  # weights cells per batch, to bound memory on large corpora


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap interval of one statistic."""

    estimate: float
    low: float
    high: float
    n_samples: int
    confidence: float

    def to_dict(self) -> dict:
        return {"estimate": self.estimate, "low": self.low, "high": self.high,
                "n_samples": self.n_samples, "confidence": self.confidence}


def sample_weights(n_sentences: int, n_samples: int = 1000, seed: int | None = 0) -> np.ndarray:
    """How often each sentence is drawn in each resample: float array (samples x sentences).

    Deterministic for a seed. Compute it once and multiply every count matrix of the same
    corpus by it: all systems and statistics then share the same resamples (paired).
    """
    if n_sentences == 0:
        raise ValueError("cannot bootstrap an empty corpus")
    rng = np.random.default_rng(seed)
    weights = np.empty((n_samples, n_sentences), dtype=np.float32)
    per_batch = max(1, BATCH_CELLS // n_sentences)  # bounds the int64 temporaries
    for start in range(0, n_samples, per_batch):
        size = min(per_batch, n_samples - start)
        picks = rng.integers(0, n_sentences, size=(size, n_sentences))
        picks += (np.arange(size) * n_sentences)[:, None]
        weights[start:start + size] = np.bincount(
            picks.ravel(), minlength=size * n_sentences).reshape(size, n_sentences)
    return weights


def sample_totals(counts: np.ndarray, n_samples: int = 1000, seed: int | None = 0,
                  weights: np.ndarray | None = None) -> np.ndarray:
    """Column totals of ``counts`` (sentences x k) in every resample: (samples x k)."""
    counts = np.asarray(counts, dtype=float)
    if counts.ndim == 1:
        counts = counts[:, None]
    if weights is None:
        weights = sample_weights(counts.shape[0], n_samples, seed)
    return weights.astype(float) @ counts


def interval(counts: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray],
             n_samples: int = 1000, seed: int | None = 0, confidence: float = 0.95,
             weights: np.ndarray | None = None) -> Interval:
    """Percentile interval of ``statistic(totals)`` where totals are resampled column sums.

    ``statistic`` maps an array (n x k) of count totals to n values (NaN where undefined;
    such samples are left out of the percentiles).

    >>> import numpy as np

from .scores import prf
    >>> hits = np.array([[1, 1], [0, 1], [1, 1], [1, 1]])   # per sentence: hits, total
    >>> ci = interval(hits, lambda t: t[:, 0] / t[:, 1], n_samples=200, seed=1)
    >>> ci.estimate, 0 <= ci.low <= ci.estimate <= ci.high <= 1
    (0.75, True)
    """
    counts = np.asarray(counts, dtype=float)
    if counts.ndim == 1:
        counts = counts[:, None]
    estimate = float(statistic(counts.sum(axis=0, keepdims=True))[0])
    values = statistic(sample_totals(counts, n_samples, seed, weights))
    return percentile_interval(values, estimate, confidence)


def paired_probability(counts_a: np.ndarray, counts_b: np.ndarray,
                       statistic: Callable[[np.ndarray], np.ndarray], n_samples: int = 1000,
                       seed: int | None = 0, higher_is_better: bool = True,
                       weights: np.ndarray | None = None) -> float:
    """Share of paired resamples on which system A is better than system B.

    Both count matrices cover the same sentences; the same sentence weights are used for
    both (a paired bootstrap). Ties count half.
    """
    counts_a = np.asarray(counts_a, dtype=float)
    counts_b = np.asarray(counts_b, dtype=float)
    if counts_a.shape[0] != counts_b.shape[0]:
        raise ValueError("paired bootstrap needs the same sentences for both systems")
    both = np.concatenate([counts_a.reshape(len(counts_a), -1),
                           counts_b.reshape(len(counts_b), -1)], axis=1)
    totals = sample_totals(both, n_samples, seed, weights)
    k = counts_a.reshape(len(counts_a), -1).shape[1]
    return probability_better(statistic(totals[:, :k]), statistic(totals[:, k:]),
                              higher_is_better)


def f1_statistic(totals: np.ndarray) -> np.ndarray:
    """F1 from totals with columns (correct, predicted, gold); 0 when undefined, like the
    point estimate."""
    correct, predicted, gold = totals[:, 0], totals[:, 1], totals[:, 2]
    denominator = predicted + gold
    return np.divide(2 * correct, denominator, out=np.zeros(len(totals)), where=denominator > 0)


def ratio_statistic(totals: np.ndarray) -> np.ndarray:
    """First column over second; NaN where the second is 0 (an empty resampled subset)."""
    numerator, denominator = totals[:, 0], totals[:, 1]
    return np.divide(numerator, denominator, out=np.full(len(totals), np.nan),
                     where=denominator > 0)


def prf_f1_statistic(totals: np.ndarray) -> np.ndarray:
    """F1 from totals (correct, predicted, gold) through precision and recall, with the
    float operations of ``nerspan.prf_from_counts``, so that it equals the point estimates bit for bit."""
    return prf_from_counts(totals[:, 0], totals[:, 1], totals[:, 2])[2]


def ratio_or_zero_statistic(totals: np.ndarray) -> np.ndarray:
    """First column over second; 0 where the second is 0, like nerspan's precision and
    recall (``zero_division=0``)."""
    numerator, denominator = totals[:, 0], totals[:, 1]
    return np.divide(numerator, denominator, out=np.zeros(len(totals)), where=denominator > 0)


# The minimum size of the set a number is computed on (mentions, tokens) below which the
# report flags the number as too small to say anything: a 95% interval of a proportion
# from fewer than 30 items is wider than +-0.15 even near 0 or 1.
MIN_SUPPORT = 30


@dataclass(frozen=True)
class Statistic:
    """A reported number as a function of per-sentence counts, ready to bootstrap.

    ``counts`` is (sentences x k); ``function`` maps totals (n x k) to n values (NaN where
    undefined); ``support`` is the size of the set the number is computed on.
    """

    name: str
    counts: np.ndarray
    function: Callable[[np.ndarray], np.ndarray]
    support: int
    higher_is_better: bool = True

    @property
    def too_small(self) -> bool:
        return self.support < MIN_SUPPORT

    def estimate(self) -> float:
        return float(self.function(np.asarray(self.counts, float).sum(0, keepdims=True))[0])


def resample(statistics: list[Statistic], weights: np.ndarray) -> np.ndarray:
    """Every statistic in every resample: (samples x statistics), one matrix product."""
    if not statistics:
        return np.empty((len(weights), 0))
    blocks = [np.asarray(s.counts, float).reshape(len(s.counts), -1) for s in statistics]
    totals = weights.astype(float) @ np.concatenate(blocks, axis=1)
    out = np.empty((len(weights), len(statistics)))
    column = 0
    for i, (statistic, block) in enumerate(zip(statistics, blocks)):
        out[:, i] = statistic.function(totals[:, column:column + block.shape[1]])
        column += block.shape[1]
    return out


def percentile_interval(values: np.ndarray, estimate: float, confidence: float = 0.95) -> Interval:
    """Percentile interval of one statistic's resampled values (NaN samples left out)."""
    finite = values[~np.isnan(values)]
    if not len(finite):
        return Interval(estimate, float("nan"), float("nan"), len(values), confidence)
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(finite, [tail, 100 - tail])
    return Interval(estimate, float(low), float(high), len(values), confidence)


def probability_better(a: np.ndarray, b: np.ndarray, higher_is_better: bool = True) -> float:
    """Share of paired resamples where ``a`` beats ``b`` (ties count half; NaN pairs left out)."""
    if not higher_is_better:
        a, b = -a, -b
    valid = ~(np.isnan(a) | np.isnan(b))
    if not valid.any():
        return float("nan")
    return float(np.mean((a[valid] > b[valid]) + 0.5 * (a[valid] == b[valid])))
