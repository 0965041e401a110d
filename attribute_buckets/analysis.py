"""The paper's three views across systems and datasets, and the significance tests.

All functions take result objects (``AttributeBucketsResult``) or their ``to_dict()``
dicts, keyed by system name where several systems are compared.

- model-wise: ``model_wise`` — per system and attribute, the Spearman correlation of
  bucket F1 with bucket order (does the system get better or worse along the
  attribute?) and the standard deviation of bucket F1 (how much does it care?);
- attribute-wise: ``attribute_wise`` — per attribute, zeta (mean attribute value over
  the test units of a dataset) and rho (mean over systems of |Spearman|);
- bucket-wise: ``self_diagnosis`` (best and worst bucket of a system and their gap) and
  ``comparative_diagnosis`` (buckets where system A most exceeds and most trails B);
- significance: ``friedman_buckets`` across buckets and ``wilcoxon_systems`` between two
  systems, over repeated runs or datasets (the tests themselves, ``friedman`` and
  ``wilcoxon``, are ``nerspan.significance``'s).

Empty buckets (F1 None) are left out of every statistic. A discrete attribute (``tag``:
one bucket per entity type) has no bucket order and no mean value: its Spearman, zeta and
rho are None; its spread and the bucket-wise views are computed as for the others.

A token attribute (tCon, tFre) scores tokens, O included, not mentions: its bucket F1 is
compared only with the F1 over all its tokens (``overall_f1``), never with the entity F1
(``unit`` tells which).

>>> a = {"f1": 0.9, "buckets": {"eLen": [{"name": "XS", "f1": 0.95}, {"name": "S", "f1": 0.9},
...                                     {"name": "L", "f1": 0.8}, {"name": "XL", "f1": None}]},
...      "attributes": {"eLen": {"mean_value": 1.4}}}
>>> model_wise({"A": a})["A"]["eLen"]["spearman"]
-1.0
>>> self_diagnosis(a)["eLen"]["worst"], round(self_diagnosis(a)["eLen"]["gap"], 4)
('L', 0.15)
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

# the tests are nerspan's; friedman, wilcoxon and defined_pairs stay importable from here
from nerspan.significance import (defined_pairs, friedman, holm,  # noqa: F401
                                  result_or_reason, wilcoxon)

from .attributes import ATTRIBUTE_TABLE, MENTION
from .discrete import DISCRETE


def _as_dict(result) -> dict:
    return result.to_dict() if hasattr(result, "to_dict") else result


def attribute_name(attribute: str) -> str:
    """``eLen`` -> ``entity length (eLen)``; an unknown (custom) attribute as it is.

    >>> attribute_name("tCon"), attribute_name("position")
    ('token label consistency (tCon)', 'position')
    """
    record = ATTRIBUTE_TABLE.get(attribute)
    return f"{record.title} ({attribute})" if record else attribute


def degenerate(row: Mapping) -> bool:
    """A bucket empty by construction: its interval holds no value (``(a, a]``: two
    equal-frequency edges fell on the same value), so it never scores anything.

    >>> degenerate({"low": 0.5, "high": 0.5, "low_closed": False, "high_closed": True})
    True
    >>> degenerate({"low": 1, "high": 1, "low_closed": True, "high_closed": True})
    False
    """
    low, high = row.get("low"), row.get("high")
    return (low is not None and low == high
            and not (row.get("low_closed") and row.get("high_closed")))


def without_degenerate(result) -> dict:
    """``result`` (a dict) without its buckets empty by construction (``degenerate``)."""
    data = _as_dict(result)
    return {**data, "buckets": {a: [r for r in rows if not degenerate(r)]
                                for a, rows in data["buckets"].items()}}


def bucket_f1(result, attribute: str) -> list:
    """Bucket F1 of one attribute in bucket order (None for an empty bucket)."""
    if hasattr(result, "bucket_f1"):
        return result.bucket_f1(attribute)
    return [row["f1"] for row in result["buckets"][attribute]]


def _attributes(results: Mapping, attributes=None) -> list:
    if attributes is not None:
        return list(attributes)
    first = next(iter(results.values()))
    return list(first.tables if hasattr(first, "tables") else first["buckets"])


def order_correlation(f1s: Sequence) -> float | None:
    """Spearman correlation of bucket F1 with bucket order (empty buckets left out);
    None with fewer than 3 scored buckets or constant F1.

    >>> order_correlation([0.5, 0.7, None, 0.9])
    1.0
    """
    from scipy.stats import spearmanr
    pairs = [(i, f) for i, f in enumerate(f1s) if f is not None]
    if len(pairs) < 3 or len({f for _, f in pairs}) < 2:
        return None
    rho = spearmanr([i for i, _ in pairs], [f for _, f in pairs])[0]
    return None if rho != rho else float(rho)


def spread(f1s: Sequence) -> float | None:
    """Standard deviation (population) of the scored bucket F1; None without any."""
    values = [f for f in f1s if f is not None]
    return float(np.std(values)) if values else None


def is_ordered(result, attribute: str) -> bool:
    """Whether the buckets of ``attribute`` have an order (every attribute but a discrete
    one such as ``tag``, by the ``strategy`` the result reports)."""
    if hasattr(result, "tables"):
        return result.tables[attribute].strategy != DISCRETE
    strategy = result.get("attributes", {}).get(attribute, {}).get("strategy")
    if strategy:
        return strategy != DISCRETE
    return ATTRIBUTE_TABLE[attribute].ordered if attribute in ATTRIBUTE_TABLE else True


def unit(result, attribute: str) -> str:
    """``"token"`` or ``"mention"``: what the buckets of ``attribute`` score (the
    ``unit`` the result reports; a result without it: by the attribute's name)."""
    if hasattr(result, "tables"):
        return result.tables[attribute].unit
    reported = result.get("attributes", {}).get(attribute, {}).get("unit")
    if reported:
        return reported
    return ATTRIBUTE_TABLE[attribute].level if attribute in ATTRIBUTE_TABLE else MENTION


def overall_f1(result, attribute: str) -> float | None:
    """The overall F1 that the bucket F1 of ``attribute`` compare with: the entity F1
    for a mention attribute; for a token attribute the F1 over all its tokens (its
    buckets' correct, predicted and gold tokens pooled), which the entity F1 is not.

    >>> tokens = {"f1": 0.2, "attributes": {"tCon": {"unit": "token"}}, "buckets": {"tCon": [
    ...     {"correct": 8, "predicted": 9, "gold": 9}, {"correct": 1, "predicted": 1, "gold": 1}]}}
    >>> overall_f1(tokens, "tCon"), overall_f1(tokens, "eLen")
    (0.9, 0.2)
    """
    data = _as_dict(result)
    if unit(data, attribute) != "token":
        return data["f1"]
    rows = data["buckets"][attribute]
    correct, predicted, gold = (sum(row[k] for row in rows)
                                for k in ("correct", "predicted", "gold"))
    return 2 * correct / (predicted + gold) if predicted + gold else None


def model_wise(results: Mapping, attributes=None) -> dict:
    """System -> attribute -> ``{"spearman": ..., "std": ...}`` (Spearman None for a
    discrete attribute: its buckets have no order)."""
    out = {}
    for system, result in results.items():
        out[system] = {}
        for attribute in _attributes(results, attributes):
            f1s = bucket_f1(result, attribute)
            rho = order_correlation(f1s) if is_ordered(result, attribute) else None
            out[system][attribute] = {"spearman": rho, "std": spread(f1s)}
    return out


def attribute_wise(results: Mapping, attributes=None) -> dict:
    """Attribute -> ``{"zeta": mean attribute value over the gold units, "rho": mean over
    systems of |Spearman| (None if no system has one)}`` for systems on ONE dataset."""
    per_system = model_wise(results, attributes)
    first = next(iter(results.values()))
    out = {}
    for attribute in _attributes(results, attributes):
        values = [abs(s[attribute]["spearman"]) for s in per_system.values()
                  if s[attribute]["spearman"] is not None]
        zeta = (first.tables[attribute].mean_value if hasattr(first, "tables")
                else first["attributes"][attribute]["mean_value"])
        out[attribute] = {"zeta": zeta,
                          "rho": float(np.mean(values)) if values else None}
    return out


def zeta_text(zeta: float | None) -> str | None:
    """A zeta as every view writes it (the page, ``nerlens buckets``): 3 significant
    digits, never in exponent notation (a frequency's zeta is small); None stays None.

    >>> zeta_text(20.44), zeta_text(0.0008317), zeta_text(0.84), zeta_text(None)
    ('20.4', '0.000832', '0.84', None)
    """
    if zeta is None:
        return None
    return np.format_float_positional(zeta, precision=3, unique=False, fractional=False,
                                      trim="-")


def self_diagnosis(result, attributes=None) -> dict:
    """Attribute -> best and worst bucket (name, interval, F1) and ``gap`` = best - worst;
    of buckets of equal F1, the first in the attribute's order (the report's table too)."""
    data = _as_dict(result)
    out = {}
    for attribute in attributes or list(data["buckets"]):
        rows = [r for r in data["buckets"][attribute] if r["f1"] is not None]
        if not rows:
            out[attribute] = None
            continue
        best = max(rows, key=lambda r: r["f1"])
        worst = min(rows, key=lambda r: r["f1"])
        out[attribute] = {"best": best["name"], "best_interval": best.get("interval"),
                          "best_f1": best["f1"], "worst": worst["name"],
                          "worst_interval": worst.get("interval"), "worst_f1": worst["f1"],
                          "gap": best["f1"] - worst["f1"]}
    return out


def comparative_diagnosis(result_a, result_b, attributes=None) -> dict:
    """Attribute -> where A most exceeds B and where it most trails B.

    ``differences`` lists F1(A) - F1(B) per bucket (None where either is empty); the
    two systems must have been scored on the same test set (same buckets).
    """
    a, b = _as_dict(result_a), _as_dict(result_b)
    out = {}
    for attribute in attributes or list(a["buckets"]):
        rows_a, rows_b = a["buckets"][attribute], b["buckets"][attribute]
        if [r["name"] for r in rows_a] != [r["name"] for r in rows_b] or \
                [r.get("interval") for r in rows_a] != [r.get("interval") for r in rows_b]:
            raise ValueError(f"{attribute}: the two results have different buckets; "
                             "compare systems scored on the same test set")
        differences = [None if ra["f1"] is None or rb["f1"] is None else ra["f1"] - rb["f1"]
                       for ra, rb in zip(rows_a, rows_b)]
        scored = [(d, r["name"]) for d, r in zip(differences, rows_a) if d is not None]
        entry = {"differences": differences, "names": [r["name"] for r in rows_a]}
        if scored:
            top, bottom = max(scored), min(scored)
            entry.update({"most_exceeds": top[1], "exceeds_by": top[0],
                          "most_trails": bottom[1], "trails_by": bottom[0]})
        out[attribute] = entry
    return out


def friedman_buckets(results: Sequence, attribute: str) -> dict:
    """``friedman`` over the bucket F1 of one attribute in several runs or datasets of one
    system; buckets empty in any run are left out."""
    matrix = np.asarray([[np.nan if f is None else f for f in bucket_f1(r, attribute)]
                         for r in results], dtype=float)
    keep = ~np.isnan(matrix).any(axis=0)
    return friedman(matrix[:, keep])


def wilcoxon_systems(results_a: Sequence, results_b: Sequence, attribute: str | None = None) -> dict:
    """Wilcoxon between two systems over repeated runs or datasets: paired overall F1
    (``attribute=None``) or paired bucket F1 of one attribute (all buckets of all runs)."""
    if attribute is None:
        return wilcoxon([_as_dict(r)["f1"] for r in results_a],
                        [_as_dict(r)["f1"] for r in results_b])
    a = [f for r in results_a for f in bucket_f1(r, attribute)]
    b = [f for r in results_b for f in bucket_f1(r, attribute)]
    return wilcoxon(a, b)


def relative_change(results: Mapping, baseline: str | None = None, attributes=None,
                    difference: bool = False):
    """The heat map's numbers: ``(rows, attributes, array rows x attributes x buckets)``.

    With ``baseline`` (a key of ``results``): (F1 - baseline bucket F1) / baseline bucket
    F1 for every other system. Without: each system's bucket F1 relative to its own
    overall F1 (``overall_f1``: over tokens for a token attribute).
    ``difference=True`` gives F1 - reference instead (bounded by [-1, 1]:
    a weak system's ratios grow without bound). NaN for empty buckets (and padding when
    attributes have fewer buckets).
    """
    attributes = _attributes(results, attributes)
    width = max(len(_as_dict(r)["buckets"][a]) for r in results.values() for a in attributes)
    results = {name: _as_dict(r) for name, r in results.items()}
    rows = [name for name in results if name != baseline]
    out = np.full((len(rows), len(attributes), width), np.nan)
    for i, name in enumerate(rows):
        data = _as_dict(results[name])
        for j, attribute in enumerate(attributes):
            f1s = bucket_f1(data, attribute)
            if baseline is None:
                reference = [overall_f1(data, attribute)] * len(f1s)
            else:
                reference = bucket_f1(results[baseline], attribute)
            for k, (f, ref) in enumerate(zip(f1s, reference)):
                if f is not None and ref is not None and difference:
                    out[i, j, k] = f - ref
                elif f is not None and ref:
                    out[i, j, k] = (f - ref) / ref
    return rows, attributes, out


def bucket_gold(result, attributes, width: int) -> np.ndarray:
    """Gold units per bucket, ``attributes x width`` (NaN past an attribute's buckets):
    what a bucket's F1 is computed on (its statistic's support), for marking the
    buckets of fewer than ``MIN_SUPPORT`` items as the tables do."""
    data = _as_dict(result)
    out = np.full((len(attributes), width), np.nan)
    for j, attribute in enumerate(attributes):
        gold = [row["gold"] for row in data["buckets"][attribute]]
        out[j, :len(gold)] = gold
    return out


def summary(results: Mapping, attributes=None) -> dict:
    """All three views for several systems on one dataset (what the CLI prints)."""
    systems = list(results)
    results = {name: _as_dict(r) for name, r in results.items()}
    out = {"model_wise": model_wise(results, attributes),
           "attribute_wise": attribute_wise(results, attributes),
           "self_diagnosis": {s: self_diagnosis(results[s], attributes) for s in systems}}
    if len(systems) >= 2:
        out["comparative_diagnosis"] = {
            f"{systems[0]} vs {other}": comparative_diagnosis(results[systems[0]],
                                                              results[other], attributes)
            for other in systems[1:]}
    return out


# -- across datasets ----------------------------------------------------------------------
def ordered_attributes(results: Mapping, attributes=None) -> list:
    """The attributes whose buckets have an order: what views across datasets compare
    (a discrete attribute such as ``tag`` has other buckets in every dataset)."""
    first = next(iter(results.values()))
    return [a for a in _attributes(results, attributes) if is_ordered(first, a)]


def attribute_wise_datasets(datasets: Mapping, attributes=None) -> dict:
    """Dataset -> ``attribute_wise`` of its systems: zeta and rho per ordered attribute
    for every dataset (the paper's Figure 4 draws them as radar charts)."""
    attributes = ordered_attributes(next(iter(datasets.values())), attributes)
    return {name: attribute_wise({s: _as_dict(r) for s, r in results.items()}, attributes)
            for name, results in datasets.items()}


def relative_change_datasets(datasets: Mapping, baseline: str, attributes=None):
    """The cross-dataset heat map's numbers against a ``baseline`` system (Figure 6).

    ``datasets`` maps a dataset name to ``{system: result}``; each must hold ``baseline``.
    Returns ``(rows, attributes, array)`` as ``relative_change``, one row per (dataset,
    other system), named ``"dataset: system"``.
    """
    rows, attrs, cube, _ = relative_change_gold(datasets, baseline, attributes)
    return rows, attrs, cube


def relative_change_gold(datasets: Mapping, baseline: str, attributes=None):
    """``relative_change_datasets`` and the gold units of each row's buckets (an array
    of the cube's shape: ``bucket_gold`` of the row's dataset)."""
    rows, cubes, golds, attrs = [], [], [], None
    attributes = ordered_attributes(next(iter(datasets.values())), attributes)
    for name, results in datasets.items():
        if baseline not in results:
            raise ValueError(f"dataset {name!r} has no system {baseline!r} (the baseline)")
        names, attrs_here, cube = relative_change(results, baseline, attributes)
        attrs = attrs or attrs_here
        rows += [f"{name}: {system}" for system in names]
        cubes.append(cube)
        gold = bucket_gold(results[baseline], attrs, cube.shape[2])
        golds.append(np.broadcast_to(gold, cube.shape))
    width = max(c.shape[2] for c in cubes)

    def joined(arrays):
        return np.concatenate([np.pad(a, ((0, 0), (0, 0), (0, width - a.shape[2])),
                                      constant_values=np.nan) for a in arrays], axis=0)

    return rows, attrs, joined(cubes), joined(golds)


def significance_datasets(datasets: Mapping, baseline: str | None = None,
                          attributes=None, alpha: float = 0.05) -> dict:
    """The paper's tests over datasets (or repeated runs given as datasets), each system
    one result per dataset: ``significance_runs`` with one run each.

    ``datasets`` maps a dataset name to ``{system: result}``.
    """
    runs = {name: {system: [system] for system in results}
            for name, results in datasets.items()}
    return significance_runs(datasets, runs, baseline, attributes, alpha)


def significance_runs(datasets: Mapping, runs: Mapping, baseline: str | None = None,
                      attributes=None, alpha: float = 0.05) -> dict:
    """The paper's tests over the runs of systems on several datasets, Holm-corrected.

    ``datasets``: dataset -> column (one run of a system) -> result; ``runs``: dataset ->
    system -> its columns (every dataset the same systems; the experiment's reading of a
    manifest).

    - ``friedman``: system -> attribute -> do its buckets differ? (bucket F1 of every run
      on every dataset; buckets empty in some run left out; None with fewer than 2 runs
      or 3 buckets, with ``error`` saying why); Holm's correction over the table's tests
      (every system and attribute), as the experiment's model-wise view;
    - ``wilcoxon``: "system vs baseline" -> ``overall`` (paired F1) and per attribute
      (paired bucket F1), run k of one system paired with run k of the other on each
      dataset (a system with fewer runs pairs only those), as the experiment pairs them;
      Holm's correction over the pairs, one family per statistic. ``baseline`` defaults to
      the first system (``checked_baseline``: every dataset the same systems).

    Every test holds ``pvalue_holm`` and ``significant`` (Holm-adjusted p < ``alpha``).
    """
    names = list(datasets)
    baseline = checked_baseline(runs, baseline)
    systems = list(runs[names[0]])
    first = datasets[names[0]][runs[names[0]][systems[0]][0]]
    attrs = _attributes({"first": first}, attributes)
    out = {"friedman": {}, "wilcoxon": {}, "n_datasets": len(names), "alpha": alpha,
           "n_runs": {s: sum(len(runs[n][s]) for n in names) for s in systems}}
    for system in systems:
        blocks = [_as_dict(datasets[n][c]) for n in names for c in runs[n][system]]
        out["friedman"][system] = {a: result_or_reason(friedman_buckets, blocks, a)
                                   for a in attrs}
    for system in systems:
        if system == baseline:
            continue
        pairs = [(_as_dict(datasets[n][a]), _as_dict(datasets[n][b])) for n in names
                 for a, b in zip(runs[n][system], runs[n][baseline])]
        mine, base = [p[0] for p in pairs], [p[1] for p in pairs]
        entry = {"overall": result_or_reason(wilcoxon_systems, mine, base)}
        entry.update({a: result_or_reason(wilcoxon_systems, mine, base, a) for a in attrs})
        out["wilcoxon"][f"{system} vs {baseline}"] = entry
    _holm_correct([test for tests in out["friedman"].values() for test in tests.values()],
                  alpha)
    for statistic in ["overall", *attrs]:
        _holm_correct([entry[statistic] for entry in out["wilcoxon"].values()], alpha)
    return out


def checked_baseline(runs: Mapping, baseline: str | None = None) -> str:
    """``baseline`` (default: the first system) of ``runs`` (dataset -> system -> its
    columns) once every dataset has the first one's systems and it is one of them: the
    tests pair each system with the baseline on every dataset."""
    names = list(runs)
    systems = list(runs[names[0]])
    for name in names[1:]:
        if list(runs[name]) != systems:
            raise ValueError(f"dataset {name!r} has systems {list(runs[name])}, the first "
                             f"one {systems}: give every dataset the same systems")
    baseline = baseline or systems[0]
    if baseline not in systems:
        raise ValueError(f"baseline {baseline!r} is not one of the systems {systems}")
    return baseline


def _holm_correct(tests: list, alpha: float) -> None:
    """Adds ``pvalue_holm`` (Holm over ``tests``, one family) and ``significant`` to each
    test."""
    adjusted = holm({k: test.get("pvalue") for k, test in enumerate(tests)})
    for k, test in enumerate(tests):
        test["pvalue_holm"] = adjusted[k]
        test["significant"] = adjusted[k] is not None and adjusted[k] < alpha
