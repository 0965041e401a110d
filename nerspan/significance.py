"""Statistics over repeated runs and datasets: mean and standard deviation, and the
significance tests (Wilcoxon signed-rank, Friedman, Holm's correction).

A score may be undefined in a run (recall on an empty subset): None or NaN. Every
function here leaves such a score out and counts only the others (``n``, ``n_pairs``);
a test whose p-value would be undefined raises ValueError instead of returning NaN
(``result_or_reason`` turns that into a result that says why), and ``holm`` never
counts a missing p-value.

- ``mean_std``: mean and sample standard deviation (n - 1) of the defined values;
- ``defined_pairs`` and ``mean_difference``: paired scores of two systems, both defined;
- ``wilcoxon``: Wilcoxon signed-rank test between paired scores of two systems;
- ``friedman``: Friedman test, do the columns (buckets) of runs x columns differ?
- ``holm``: Holm's step-down adjusted p-values of one family of tests;
- ``kendall_tau_a``: Kendall's tau-a between two orderings of the same items;
- ``result_or_reason``: a test's result, or ``{"statistic": None, "pvalue": None,
  "error": why}`` when the scores cannot carry it.

scipy.stats is imported only when a test runs.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np


def is_defined(score) -> bool:
    """Whether ``score`` is a number: not None, not NaN, not infinite.

    >>> is_defined(0.5), is_defined(None), is_defined(float("nan"))
    (True, False, False)
    """
    return score is not None and bool(np.isfinite(score))


def mean_std(values) -> dict:
    """``{"mean", "std", "n"}`` of the defined values (None and NaN left out); ``std`` is
    the sample standard deviation (n - 1), None for fewer than two values.

    >>> mean_std([0.5, None, 0.7])
    {'mean': 0.6, 'std': 0.141421356237, 'n': 2}
    >>> mean_std([None, float("nan")])
    {'mean': None, 'std': None, 'n': 0}
    """
    kept = [float(v) for v in values if v is not None and v == v]
    if not kept:
        return {"mean": None, "std": None, "n": 0}
    std = float(np.std(kept, ddof=1)) if len(kept) > 1 else None
    return {"mean": round(float(np.mean(kept)), 12),
            "std": None if std is None else round(std, 12),
            "n": len(kept)}


def defined_pairs(scores_a: Sequence, scores_b: Sequence) -> list:
    """The pairs of scores that are both defined: a None or NaN score (an undefined
    statistic, such as recall on an empty subset) leaves its pair out.

    >>> defined_pairs([0.5, None, float("nan"), 0.7], [0.4, 0.6, 0.2, None])
    [(0.5, 0.4)]
    """
    return [(float(x), float(y)) for x, y in zip(scores_a, scores_b)
            if is_defined(x) and is_defined(y)]


def mean_difference(scores_a: Sequence, scores_b: Sequence) -> float | None:
    """The mean of a - b over the defined pairs (``defined_pairs``); None without any.

    >>> round(mean_difference([0.9, 0.8, None], [0.7, 0.7, 0.1]), 12)
    0.15
    >>> mean_difference([None], [0.5]) is None
    True
    """
    pairs = defined_pairs(scores_a, scores_b)
    return float(np.mean([x - y for x, y in pairs])) if pairs else None


def wilcoxon(scores_a: Sequence, scores_b: Sequence) -> dict:
    """Wilcoxon signed-rank test between paired scores of two systems (over repeated
    runs, datasets, or buckets); pairs with an undefined score (None or NaN) are left out
    (``defined_pairs``) and not counted in ``n_pairs``. Identical scores give p = 1.

    >>> wilcoxon([0.9, 0.8, 0.85, 0.7, 0.95, None], [0.5, 0.6, 0.55, 0.6, 0.5, 0.4])
    {'statistic': 0.0, 'pvalue': 0.0625, 'n_pairs': 5}
    >>> wilcoxon([0.5, 0.6], [0.5, 0.6])
    {'statistic': 0.0, 'pvalue': 1.0, 'n_pairs': 2}
    """
    from scipy.stats import wilcoxon as scipy_wilcoxon
    if len(scores_a) != len(scores_b):
        raise ValueError("wilcoxon needs the same number of scores for both systems")
    pairs = defined_pairs(scores_a, scores_b)
    if len(pairs) < 2:
        raise ValueError("wilcoxon needs at least 2 paired scores (pairs with an "
                         "undefined score are left out)")
    a, b = np.asarray(pairs, dtype=float).T
    if np.all(a == b):
        return {"statistic": 0.0, "pvalue": 1.0, "n_pairs": len(pairs)}
    statistic, p = scipy_wilcoxon(a, b)
    return {"statistic": float(statistic), "pvalue": _defined_pvalue("wilcoxon", p),
            "n_pairs": len(pairs)}


def friedman(scores) -> dict:
    """Friedman test: do the columns differ? ``scores`` is (runs or datasets x buckets)
    of one system's bucket F1 (rows with an empty bucket are an error). When every run
    gives all its buckets the same F1 the test is undefined (its statistic divides by
    zero): a ValueError, never a NaN p-value.

    >>> friedman([[0.5, 0.6, 0.7], [0.4, 0.6, 0.8], [0.5, 0.7, 0.9]])["n_buckets"]
    3
    """
    from scipy.stats import friedmanchisquare
    matrix = np.asarray(scores, dtype=float)
    if matrix.ndim != 2 or matrix.shape[1] < 3 or matrix.shape[0] < 2:
        raise ValueError("friedman needs at least 2 runs/datasets x 3 buckets of F1")
    if np.isnan(matrix).any():
        raise ValueError("friedman: a bucket is empty (F1 None) in some run")
    if (matrix == matrix[:, :1]).all():
        raise ValueError("friedman: undefined, every run gives all its buckets the same F1")
    statistic, p = friedmanchisquare(*matrix.T)
    return {"statistic": float(statistic), "pvalue": _defined_pvalue("friedman", p),
            "n_runs": int(matrix.shape[0]), "n_buckets": int(matrix.shape[1])}


def _defined_pvalue(test: str, p) -> float:
    """``p`` as a float; a NaN p-value is an error, so that no caller counts it as a
    test (Holm's correction would)."""
    if not np.isfinite(p):
        raise ValueError(f"{test}: undefined on these scores (no p-value)")
    return float(p)


def holm(pvalues: Mapping) -> dict:
    """Holm's step-down adjusted p-values (key -> p): the i-th smallest of the m defined
    p-values becomes max over j <= i of min(1, (m - j + 1) p_j). A test without a defined
    p-value (None or NaN) is not counted in m and gets None.

    >>> holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": None, "e": float("nan")})
    {'a': 0.03, 'b': 0.06, 'c': 0.06, 'd': None, 'e': None}
    """
    # sorted by p alone: tied p-values get the same adjusted value in any order
    defined = sorted(((p, k) for k, p in pvalues.items() if p is not None and p == p),
                     key=lambda item: item[0])
    m, running, out = len(defined), 0.0, {k: None for k in pvalues}
    for i, (p, key) in enumerate(defined):
        running = max(running, min(1.0, (m - i) * p))
        out[key] = round(running, 12)
    return out


def kendall_tau_a(scores_a: Sequence, scores_b: Sequence) -> dict:
    """Kendall's tau-a of two scorings of the same items (systems under two golds):
    over every pair of items, ``(concordant - discordant) / pairs``; a pair tied on
    either side is neither (tau-a keeps it in ``pairs``). ``{"tau", "concordant",
    "discordant", "tied", "pairs"}``; tau None for fewer than two items. Without ties it
    equals scipy's ``kendalltau`` (tau-b).

    >>> kendall_tau_a([0.9, 0.8, 0.7], [0.9, 0.7, 0.8])
    {'tau': 0.333333333333, 'concordant': 2, 'discordant': 1, 'tied': 0, 'pairs': 3}
    """
    a, b = np.asarray(scores_a, dtype=float), np.asarray(scores_b, dtype=float)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError("kendall_tau_a needs two scorings of the same items (1-D, equal length)")
    if np.isnan(a).any() or np.isnan(b).any():
        raise ValueError("kendall_tau_a: a score is undefined (NaN)")
    upper = np.triu_indices(len(a), k=1)
    product = (np.sign(a[:, None] - a[None, :]) * np.sign(b[:, None] - b[None, :]))[upper]
    concordant, discordant = int((product > 0).sum()), int((product < 0).sum())
    pairs = len(product)
    return {"tau": round((concordant - discordant) / pairs, 12) if pairs else None,
            "concordant": concordant, "discordant": discordant,
            "tied": pairs - concordant - discordant, "pairs": pairs}


def result_or_reason(test: Callable[..., dict], *args) -> dict:
    """``test(*args)``, or ``{"statistic": None, "pvalue": None, "error": why}`` when the
    scores cannot carry it (too few runs or buckets, empty buckets, all tied).

    >>> result_or_reason(wilcoxon, [0.5], [0.4])["error"]
    'wilcoxon needs at least 2 paired scores (pairs with an undefined score are left out)'
    """
    try:
        return test(*args)
    except ValueError as error:
        return {"statistic": None, "pvalue": None, "error": str(error)}
