"""Names a reader understands for the report's statistics.

report.json keeps the stable keys (``attribute_buckets.buckets.eLen.0``,
``tough_mentions.recall_unseen_any``); the page and the terminal show what they mean
("F1, entity length XS {1}", "recall, unseen mentions (any)"), as each family names its
statistics (``Family.statistic_name``). Every number of the report is a fraction in
[0, 1]; the page and the terminal show it in percent and say so.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from nerlens.families import registered
from nerspan.layers import LAYER_MARK, layer_title


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
    >>> statistic_label("hardeval.ter_unseen@layer2")
    'token error rate, unseen tokens, layer 2'
    >>> statistic_label("something.new")
    'something.new'
    """
    if name in ENTITY:
        return ENTITY[name]
    if fbeta_name(name):   # the entity F-beta of report(beta=...)
        return fbeta_name(name)
    family, _, key = name.partition(".")
    key, per_layer, layer = key.partition(LAYER_MARK)   # a result scored per gold layer
    descriptor = registered().get(family)
    label = descriptor.statistic_label(key, (first or {}).get(family)) if descriptor else None
    return (label + (f", {layer_title(layer)}" if per_layer else "")) if label else name



def layer_statistic(name: str, layer) -> str:
    """The name of statistic ``name`` of one gold layer of a result scored per layer
    (``hardeval.ter@layer2``); layer 1 too is named, having no number over the layers
    together beside it.

    >>> layer_statistic("hardeval.ter", "1")
    'hardeval.ter@layer1'
    """
    return f"{name}{LAYER_MARK}{layer}"


def headlines(family, computed: Mapping) -> list:
    """``family``'s ``Headline``s as the report computed them (``computed``: statistic
    name -> anything, such as ``higher_is_better``): each as declared, or, where its
    result was scored per gold layer (``layer_statistic``), one per layer, its key and
    names saying which."""
    out = []
    for h in family.headline:
        stem = family.key(h.key) + LAYER_MARK
        layers = sorted({name[len(stem):] for name in computed if name.startswith(stem)},
                        key=int)
        if h.value is not None or family.key(h.key) in computed or not layers:
            out.append(h)
            continue
        out += [replace(h, key=layer_statistic(h.key, k), column=f"{h.column} L{k}",
                        legend=f"{h.legend}, {layer_title(k)}",
                        title=f"{h.title}, {layer_title(k)}") for k in layers]
    return out


def first_results(report) -> dict:
    """Family -> the first system's result dict (what ``statistic_label`` reads)."""
    return dict(report.results[report.systems[0]]) if report.systems else {}
