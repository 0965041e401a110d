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

from .scores import prf_from_counts, safe_divide

BATCH_CELLS = 20_000_000  # weights cells per batch, to bound memory on large corpora


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap interval of one statistic."""

    estimate: float
    low: float
    high: float
    n_samples: int
    confidence: float


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


def f1_statistic(totals: np.ndarray) -> np.ndarray:
    """F1 from totals with columns (correct, predicted, gold); 0 when undefined, like the
    point estimate."""
    return safe_divide(2 * totals[:, 0], totals[:, 1] + totals[:, 2], 0.0)


def f1_or_nan_statistic(totals: np.ndarray) -> np.ndarray:
    """F1 from totals (correct, predicted, gold); NaN where undefined (nothing predicted
    and nothing to find: an empty bucket, whose reported F1 is None)."""
    return safe_divide(2 * totals[:, 0], totals[:, 1] + totals[:, 2], np.nan)


def ratio_statistic(totals: np.ndarray) -> np.ndarray:
    """First column over second; NaN where the second is 0 (an empty resampled subset)."""
    return safe_divide(totals[:, 0], totals[:, 1], np.nan)


def prf_f1_statistic(totals: np.ndarray) -> np.ndarray:
    """F1 from totals (correct, predicted, gold) through precision and recall, with the
    float operations of ``nerspan.prf_from_counts``, so that it equals the point estimates bit for bit."""
    return prf_from_counts(totals[:, 0], totals[:, 1], totals[:, 2])[2]


def ratio_or_zero_statistic(totals: np.ndarray) -> np.ndarray:
    """First column over second; 0 where the second is 0, like nerspan's precision and
    recall (``zero_division=0``)."""
    return safe_divide(totals[:, 0], totals[:, 1], 0.0)


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
    """Every statistic in every resample: (samples x statistics), one matrix product per
    batch of resamples.

    ``weights`` (``sample_weights``: float32) is read as float64 a batch of rows at a
    time (``BATCH_CELLS``), never copied whole: a float64 copy of it, per system, was
    twice the weights themselves (5 GiB at 10M tokens and 1,000 samples). The counts of
    the statistics nerlens reports are integers or multiples of 1/4 (FairEval's shares,
    SemEval's half credit), whose float sums are exact in any order: the values are those
    of one product of the whole matrix, bit for bit.

    >>> hits = np.array([[1, 1], [0, 1], [1, 1], [1, 1]])   # per sentence: hits, total
    >>> recall = Statistic("recall", hits, ratio_statistic, support=4)
    >>> values = resample([recall], sample_weights(4, n_samples=200, seed=1))
    >>> ci = percentile_interval(values[:, 0], recall.estimate())
    >>> ci.estimate, 0 <= ci.low <= ci.estimate <= ci.high <= 1
    (0.75, True)
    """
    if not statistics:
        return np.empty((len(weights), 0))
    blocks = [np.asarray(s.counts, float).reshape(len(s.counts), -1) for s in statistics]
    counts = np.concatenate(blocks, axis=1)
    out = np.empty((len(weights), len(statistics)))
    rows = max(1, BATCH_CELLS // max(1, counts.shape[0]))
    for start in range(0, len(weights), rows):
        totals = np.asarray(weights[start:start + rows], dtype=float) @ counts
        column = 0
        for i, (statistic, block) in enumerate(zip(statistics, blocks)):
            out[start:start + rows, i] = statistic.function(
                totals[:, column:column + block.shape[1]])
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
