"""Per-family glue for the report: scoring, bootstrap statistics, HTML sections.

Every headline number of a family is re-expressed as a ``nerspan.bootstrap.Statistic``:
per-sentence counts and the function that turns their totals into the number. The
estimate of each statistic equals the number the family reports (tests check this), so
the intervals are intervals of exactly the published numbers.
"""
from __future__ import annotations

import importlib

import numpy as np

from nerspan import GOLD, PRED, LabelTable, decode, entity_scores, get_scheme
from nerspan.bootstrap import Statistic, f1_statistic, ratio_statistic
from nerspan.scores import sentence_counts

FAMILIES = ("tough_mentions", "hardeval", "faireval", "attribute_buckets")


def score_family(family: str, corpus, index, scheme: str, mode: str):
    """The family's result object for a corpus with gold/pred columns and tokens."""
    module = importlib.import_module(family)
    return module.score(corpus, scheme=scheme, mode=mode, train=index)


def entity_statistics(corpus, scheme: str, mode: str) -> tuple[dict, list[Statistic]]:
    """nerspan's entity scores and the entity F1/precision/recall statistics."""
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    gold = decode(corpus, GOLD, scheme, mode, table)
    pred = decode(corpus, PRED, scheme, mode, table)
    counts = sentence_counts(gold, pred, corpus.n_sentences)
    n_gold = int(counts[:, 2].sum())
    return entity_scores(gold, pred).to_dict(), [
        Statistic("entity_f1", counts, f1_statistic, n_gold),
        Statistic("entity_precision", counts[:, [0, 1]], _ratio_or_zero,
                  int(counts[:, 1].sum())),
        Statistic("entity_recall", counts[:, [0, 2]], _ratio_or_zero, n_gold),
    ]


def _ratio_or_zero(totals: np.ndarray) -> np.ndarray:
    """Precision/recall as nerspan reports them: 0 (zero_division) when undefined."""
    return np.divide(totals[:, 0], totals[:, 1], out=np.zeros(len(totals)),
                     where=totals[:, 1] > 0)


def family_statistics(family: str, result, corpus, scheme: str, mode: str) -> list[Statistic]:
    return STATISTICS[family](result, corpus)


STATISTICS = {}
