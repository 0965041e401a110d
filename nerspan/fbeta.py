"""F-beta beside F1: seqeval's ``fbeta``, under a key that names beta.

F = (1 + b^2) P R / (b^2 P + R), 0 where the denominator is 0 (seqeval 1.2.2's
``precision_recall_fscore_support(..., beta=b)``, term for term, so the numbers are
equal to the last bit). ``beta`` must be a number in [1e-150, 1e150] (``BETA_RANGE``):
F-beta squares it, and the square must be a float, neither infinite (past about 1.3e154
it overflows, where seqeval raises OverflowError) nor 0 (below about 1.5e-154: F-beta
would silently be the precision); ``beta=1`` adds nothing (F1 is reported already), and a result states a ``beta`` other than 1 in its
``options``.

The key: ``f`` and beta written as Python writes the float, shortest, without a
trailing ``.0``: ``f2``, ``f0.5``, ``f1.5``, ``f0.25``, ``f10``. Wherever a result has
``f1`` beside ``precision`` and ``recall`` (or ``X_f1`` beside ``X_precision`` and
``X_recall``: ``fair_f1``, ``traditional_f1``, a SemEval schema's, a bucket's, a
per-type row's), ``with_fbeta`` adds the F-beta of those P and R right after it
(``fair_f2``); means over types (``macro_``, ``weighted_``) are means of the per-type
F-beta, which ``nerspan.EntityScores`` computes itself.

>>> fbeta_key(2), fbeta_key(0.5), fbeta_key(1.25)
('f2', 'f0.5', 'f1.25')
>>> with_fbeta({"precision": 0.5, "recall": 1.0, "f1": 2 / 3}, 2)["f2"]
0.8333333333333334
>>> check_beta(0)
Traceback (most recent call last):
...
ValueError: beta must be a number > 0 (the weight of recall against precision in F-beta), not 0
>>> check_beta(1e200)
Traceback (most recent call last):
...
ValueError: beta must be at most 1e+150 (F-beta squares it, and the square of a larger beta overflows a float), not 1e+200
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from .errors import InputTypeError, shown

# the prefixes of means over types: their F-beta is a mean of F-betas, not F of means
MEANS = ("macro_", "weighted_")
# the betas whose square is a float, neither infinite nor 0 (with a margin): round bounds
BETA_RANGE = (1e-150, 1e150)


def check_beta(beta) -> float:
    """``beta`` as a float: a number > 0 within ``BETA_RANGE`` (a bool or a string is an
    error)."""
    if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real):
        raise InputTypeError(f"beta must be a number > 0, not {shown(beta)} "
                             f"(a {type(beta).__name__})")
    if not (beta > 0 and math.isfinite(beta)):
        raise ValueError("beta must be a number > 0 (the weight of recall against "
                         f"precision in F-beta), not {beta}")
    low, high = BETA_RANGE
    if beta > high:
        raise ValueError(f"beta must be at most {high:g} (F-beta squares it, and the "
                         f"square of a larger beta overflows a float), not {beta:g}")
    if beta < low:
        raise ValueError(f"beta must be at least {low:g} (F-beta squares it, and the "
                         "square of a smaller beta is 0 in a float: F-beta would be the "
                         f"precision), not {beta:g}")
    return float(beta)


def fbeta_key(beta: float, prefix: str = "") -> str:
    """``prefix + "f" + beta``, beta as Python's shortest float text without ``.0``."""
    text = repr(float(beta))
    return f"{prefix}f{text[:-2] if text.endswith('.0') else text}"


def fbeta(precision, recall, beta: float):
    """seqeval's F-beta of ``precision`` and ``recall`` (arrays or floats): 0 where
    b^2 P + R is 0."""
    beta2 = beta ** 2
    precision = np.asarray(precision, dtype=float)
    recall = np.asarray(recall, dtype=float)
    denom = np.atleast_1d(beta2 * precision + recall).copy()
    denom[denom == 0.0] = 1  # as seqeval: the numerator is 0 there too
    out = (1 + beta2) * np.atleast_1d(precision) * np.atleast_1d(recall) / denom
    return out if np.ndim(precision) or np.ndim(recall) else float(out[0])


def fbeta_value(precision, recall, f1, beta: float):
    """F-beta of one row's values: None where ``f1`` is undefined (None); 0 where P or
    R is undefined but F1 is not (nothing was correct)."""
    if f1 is None:
        return None
    if precision is None or recall is None:
        return 0.0
    return fbeta(precision, recall, beta)


def with_fbeta(out, beta: float, means: dict | None = None):
    """``out`` (a result dict, changed in place and returned) with the F-beta beside every
    ``f1``/``X_f1`` that has its precision and recall, in every nested dict and list, and
    beside each top-level key of ``means`` (a mean over types: key -> its F-beta);
    ``beta=1`` changes nothing. ``nerspan.result.Result.to_dict`` calls it."""
    if beta == 1:
        return out
    if isinstance(out, list):
        for item in out:
            with_fbeta(item, beta)
        return out
    if not isinstance(out, dict):
        return out
    for value in out.values():
        if isinstance(value, (dict, list)):
            with_fbeta(value, beta)
    added = {key: (fbeta_key(beta, key[:-2]), value) for key, value in (means or {}).items()}
    for key in out:
        if not isinstance(key, str) or not (key == "f1" or key.endswith("_f1")):
            continue
        stem = key[:-2]
        if stem.startswith(MEANS) or f"{stem}precision" not in out \
                or f"{stem}recall" not in out:
            continue
        value = out[key]
        if value is not None and not isinstance(value, numbers.Real):
            continue
        added[key] = (fbeta_key(beta, stem), fbeta_value(
            out[f"{stem}precision"], out[f"{stem}recall"], value, beta))
    if added:
        items = list(out.items())
        out.clear()
        for key, value in items:
            out[key] = value
            if key in added:
                name, fb = added[key]
                out[name] = fb
    return out


__all__ = ["BETA_RANGE", "check_beta", "fbeta_key", "fbeta", "fbeta_value", "with_fbeta"]
