"""Views across subsets and systems, as the paper's tables use them.

- ``small_subsets``: the subsets that hold less than ``min_share`` of the gold mentions
  (overall, and of each type's mentions); the paper leaves subsets under 1% out of its
  result tables (``min_share=0.01``), since a recall on a handful of mentions says little.
- ``recall_spread``: per subset, how far the systems' recalls lie apart (its section 4.3:
  overall scores hide differences that the tough subsets show).

Both read result dicts (``ToughMentionsResult.to_dict()``) or result objects.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from .core import ALL_SUBSETS, SUBSETS


def _as_dict(result) -> dict:
    return result.to_dict() if hasattr(result, "to_dict") else result


def subset_recall(result: Mapping, subset: str) -> float | None:
    """A result dict's recall on ``subset`` (one of ``ALL_SUBSETS``): ``recall_<subset>``,
    for ``all`` the overall recall. With no gold mention every subset is empty and its
    recall undefined (None), ``all`` too (the overall ``recall`` is then 0, nerspan's
    ``zero_division``, not a recall of the empty subset).

    >>> subset_recall({"recall": 0.5, "counts": {"all": 4}}, "all")
    0.5
    >>> print(subset_recall({"recall": 0.0, "counts": {"all": 0}}, "all"))
    None
    """
    if subset != "all":
        return result.get(f"recall_{subset}")
    return None if result.get("counts", {}).get("all") == 0 else result["recall"]


def check_min_share(min_share: float) -> float:
    """``min_share`` as a float in [0, 1) (0 keeps every subset)."""
    value = float(min_share)
    if not 0 <= value < 1:
        raise ValueError(f"min_share is a fraction of the gold mentions in [0, 1), "
                         f"not {min_share!r} (the paper's rule is 0.01)")
    return value


def small_subsets(result, min_share: float = 0.01) -> dict:
    """``{"overall": [...], "per_type": {type: [...]}}``: the subsets (of ``SUBSETS``)
    holding less than ``min_share`` of all gold mentions, or of the type's mentions.

    An empty subset is always small (its share is 0); with no gold mention at all
    every subset is.

    >>> d = {"counts": {"all": 200, **{s: 10 for s in SUBSETS}, "tcm_seen": 1},
    ...      "per_type": {"LOC": {"counts": {"all": 100, **{s: 5 for s in SUBSETS}}}}}
    >>> small_subsets(d)["overall"], small_subsets(d)["per_type"]["LOC"]
    (['tcm_seen'], [])
    """
    min_share = check_min_share(min_share)
    data = _as_dict(result)

    def below(counts: Mapping) -> list:
        total = counts["all"]
        return [s for s in SUBSETS if not total or counts[s] / total < min_share]

    return {"overall": below(data["counts"]),
            "per_type": {t: below(row["counts"]) for t, row in data["per_type"].items()}}


def recall_spread(results: Mapping) -> dict:
    """Subset -> ``{"min", "max", "range", "mean", "std", "n_systems"}`` of the recalls
    of several systems (``results``: system -> result); "all" is the overall recall.

    Systems without a recall on the subset (empty subset) are left out; the numbers are
    None when no system has one. ``std`` is the population standard deviation.

    >>> a = {"recall": 0.9, **{f"recall_{s}": 0.8 for s in SUBSETS}}
    >>> b = {"recall": 0.8, **{f"recall_{s}": 0.4 for s in SUBSETS}}
    >>> spread = recall_spread({"a": a, "b": b})
    >>> round(spread["all"]["range"], 4), round(spread["seen"]["range"], 4)
    (0.1, 0.4)
    """
    data = {name: _as_dict(r) for name, r in results.items()}
    out = {}
    for subset in ALL_SUBSETS:
        values = np.array([r for r in (subset_recall(d, subset) for d in data.values())
                           if r is not None], float)
        if not len(values):
            out[subset] = {"min": None, "max": None, "range": None, "mean": None,
                           "std": None, "n_systems": 0}
            continue
        out[subset] = {"min": float(values.min()), "max": float(values.max()),
                       "range": float(values.max() - values.min()),
                       "mean": float(values.mean()), "std": float(values.std()),
                       "n_systems": int(len(values))}
    return out
