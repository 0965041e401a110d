"""Names a reader understands for the report's statistics.

report.json keeps the stable keys (``attribute_buckets.buckets.eLen.0``,
``tough_mentions.recall_unseen_any``); the page and the terminal show what they mean
("F1, entity length XS {1}", "recall, unseen mentions (any)"), as each family names its
statistics (``Family.statistic_name``). Every number of the report is a fraction in
[0, 1]; the page and the terminal show it in percent and say so.
"""
from __future__ import annotations

from typing import Mapping

from nerlens.families import registered


def pair_key(system: str, other: str) -> str:
    """The key of a comparison of ``system`` with ``other`` (``comparisons``, Wilcoxon
    tests): ``"system vs other"``. Built, never split back: a system's name may hold
    " vs ".

    >>> pair_key("x vs y", "base")
    'x vs y vs base'
    """
    return f"{system} vs {other}"


ENTITY = {"entity_f1": "entity F1", "entity_precision": "entity precision",
          "entity_recall": "entity recall"}


def fbeta_name(name: str) -> str | None:
    """The readable name of an F-beta key (``f2``, ``entity_f0.5``: "F2", "entity
    F0.5"), or None for another key.

    >>> fbeta_name("entity_f2"), fbeta_name("f0.5"), fbeta_name("entity_f1"), fbeta_name("2")
    ('entity F2', 'F0.5', None, None)
    """
    stem, found, beta = name.rpartition("f")
    if not found or stem not in ("", "entity_") or beta in ("", "1"):
        return None
    try:
        float(beta)
    except ValueError:
        return None
    return f"{stem.replace('_', ' ')}F{beta}"


def statistic_label(name: str, first: Mapping | None = None) -> str:
    """The readable name of a report statistic (``family.key``), as its family names it;
    ``first`` maps a family's name to one system's result dict (for names read from the
    results, such as the buckets'). An unknown statistic keeps its key.

    >>> statistic_label("entity_f1"), statistic_label("hardeval.ter_unseen")
    ('entity F1', 'token error rate, unseen tokens')
    >>> statistic_label("something.new")
    'something.new'
    """
    if name in ENTITY:
        return ENTITY[name]
    if fbeta_name(name):   # the entity F-beta of report(beta=...)
        return fbeta_name(name)
    family, _, key = name.partition(".")
    descriptor = registered().get(family)
    label = descriptor.statistic_label(key, (first or {}).get(family)) if descriptor else None
    return label or name


def first_results(report) -> dict:
    """Family -> the first system's result dict (what ``statistic_label`` reads)."""
    return dict(report.results[report.systems[0]]) if report.systems else {}
