"""Weight tables: how much each error type counts as TP, FP and FN.

A table maps an error type to its ``(TP, FP, FN)`` shares. The eight counted types are
TP, FP, FN, LE, BEs, BEl, BEo and LBE; a ``BE`` entry stands for all three boundary
subtypes unless a subtype has an entry of its own. Types a user table leaves out keep
their default: TP, FP and FN count as themselves; LE, BE and LBE as in the fair preset.

>>> resolve_weights("weighted")["BEs"]
(0.5, 0.0, 0.5)
>>> resolve_weights({"BE": (0.5, 0.25, 0.25)})["BEl"]
(0.5, 0.25, 0.25)
>>> resolve_weights({"be": {"TP": 1}})["BEo"]
(1.0, 0.0, 0.0)
"""
from __future__ import annotations

import math
import sys
from typing import Mapping

# Every counted error type, in the order of the result's count arrays.
ERROR_TYPES = ("TP", "LE", "BEs", "BEl", "BEo", "LBE", "FN", "FP")
BOUNDARY_TYPES = ("BEs", "BEl", "BEo")
# The nine counts reported (BE = BEs + BEl + BEo).
COUNT_NAMES = ("TP", "FP", "FN", "LE", "BE", "BEs", "BEl", "BEo", "LBE")

HALF = (0.0, 0.5, 0.5)
IDENTITY = {"TP": (1.0, 0.0, 0.0), "FP": (0.0, 1.0, 0.0), "FN": (0.0, 0.0, 1.0)}

PRESETS = {
    # The paper's fair evaluation: every LE, BE and LBE is half an FP and half an FN.
    "fair": {**IDENTITY, "LE": HALF, "BEs": HALF, "BEl": HALF, "BEo": HALF, "LBE": HALF},
    # The paper's published weighted preset: boundary errors are half right.
    "weighted": {**IDENTITY, "LE": HALF, "LBE": HALF,
                 "BEs": (0.5, 0.0, 0.5), "BEl": (0.5, 0.5, 0.0), "BEo": (0.5, 0.25, 0.25)},
}
# The presets ``score(weights=...)`` takes by name ("fair" is the fair scores' own table).
WEIGHT_NAMES = ("weighted",)

_CANONICAL = {name.lower(): name for name in ERROR_TYPES + ("BE",)}


def resolve_weights(weights) -> dict:
    """The full table (error type -> (TP, FP, FN) shares) for a preset name or a user table.

    Raises ``ValueError`` for an unknown preset or error type, a share that is negative
    or not a finite number, or a share given for something other than TP, FP or FN.
    """
    if isinstance(weights, str):
        if weights not in PRESETS:
            raise ValueError(f"weights must be one of: {', '.join(WEIGHT_NAMES)}, or a table "
                             f"mapping error types to (TP, FP, FN) shares, not {weights!r}")
        return dict(PRESETS[weights])
    if not isinstance(weights, Mapping):
        raise ValueError("weights must be a preset name or a mapping from error type to "
                         f"(TP, FP, FN) shares, not {type(weights).__name__}")
    given = {}
    for key, shares in weights.items():
        name = _CANONICAL.get(str(key).lower())
        if name is None:
            raise ValueError(f"unknown error type {key!r} in the weight table; known: "
                             f"{', '.join(COUNT_NAMES)}")
        given[name] = _shares(name, shares)
    table = dict(PRESETS["fair"])
    for subtype in BOUNDARY_TYPES:  # a BE entry covers the subtypes it does not name
        if "BE" in given:
            table[subtype] = given["BE"]
    table.update({k: v for k, v in given.items() if k != "BE"})
    return table


def check_sums(table: dict, kind_counts) -> None:
    """Raise ``ValueError`` when a weight table's TP, FP and FN over these counts (in
    ``ERROR_TYPES`` order) do not fit in a float with room to spare: shares such as 1e308
    would turn the scores into inf and NaN. Per-label sums are parts of these.

    >>> check_sums(resolve_weights({"LE": (1e308, 0, 0)}), [0, 2, 0, 0, 0, 0, 0, 0])
    Traceback (most recent call last):
    ...
    ValueError: weights: the weighted TP + FP + FN of these counts (TP 0, LE 2, BEs 0, BEl 0, BEo 0, LBE 0, FN 0, FP 0) is too large for a float; use shares of the size of the presets' (0 to 1)
    """
    counts = [int(n) for n in kind_counts]
    total = sum(n * sum(table[kind]) for kind, n in zip(ERROR_TYPES, counts))  # inf, no error
    if not total * 4 < sys.float_info.max:  # room for sums taken in another order
        listed = ", ".join(f"{kind} {n}" for kind, n in zip(ERROR_TYPES, counts))
        raise ValueError(f"weights: the weighted TP + FP + FN of these counts ({listed}) is "
                         "too large for a float; use shares of the size of the presets' "
                         "(0 to 1)")


def _shares(name: str, shares) -> tuple:
    if isinstance(shares, Mapping):
        unknown = set(shares) - {"TP", "FP", "FN"}
        if unknown:
            raise ValueError(f"weight of {name}: shares may only be given for TP, FP and "
                             f"FN, not {', '.join(sorted(map(str, unknown)))}")
        shares = (shares.get("TP", 0.0), shares.get("FP", 0.0), shares.get("FN", 0.0))
    try:
        values = tuple(float(v) for v in shares)
    except OverflowError:   # an int beyond any float (10 ** 400)
        raise ValueError(f"weight of {name} has a share too large for a float (over "
                         f"{sys.float_info.max:.3g})") from None
    except (TypeError, ValueError):
        raise ValueError(f"weight of {name} must be three numbers (TP, FP, FN) or a "
                         f"mapping, not {shares!r}") from None
    if len(values) != 3:
        raise ValueError(f"weight of {name} must have three shares (TP, FP, FN), "
                         f"got {len(values)}")
    if any(not math.isfinite(v) or v < 0 for v in values):
        raise ValueError(f"weight of {name} has a negative or non-finite share: {shares!r}")
    return values
