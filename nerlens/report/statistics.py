"""Per-family glue for the report: scoring, bootstrap statistics, figures.

Every headline number of a family is re-expressed by the family's result object as
``nerspan.bootstrap.Statistic``s (``result.statistics()``): per-sentence counts and the
function that turns their totals into the number. The estimate of each statistic equals
the number the family reports (tests check this), so the intervals are intervals of
exactly the published numbers.
"""
from __future__ import annotations

import io

import numpy as np

from nerspan import GOLD, PRED, decode
from nerspan.schemes import get_scheme
from nerspan.scores import entity_scores
from nerspan.spans import LabelTable
from nerspan.bootstrap import Statistic, f1_statistic, ratio_or_zero_statistic
from nerspan.scores import sentence_counts

from nerlens.families import family_package


def score_family(family: str, corpus, index, scheme: str, mode: str, **options):
    """The family's result object for a corpus with gold/pred columns and tokens, or for
    a ``nerspan.GoldContext`` (with ``pred_column=`` the system's column of its corpus:
    gold decoded and classified once for all systems); ``options`` go to the family's
    ``score``."""
    module = family_package(family)
    if family == "faireval":  # the report shows faireval's SemEval-2013 schemas too
        options = {"schemas": "semeval", **options}
    return module.score(corpus, scheme=scheme, mode=mode, train=index, **options)


def entity_statistics(corpus, scheme: str, mode: str, pred_column: str = PRED,
                      context=None) -> tuple[dict, list[Statistic]]:
    """nerspan's entity scores and the entity F1/precision/recall statistics of the
    column ``pred_column``; a gold ``context`` of ``corpus`` gives the gold decoded."""
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    gold = (decode(corpus, GOLD, scheme, mode, table) if context is None
            else context.gold_spans(table))
    pred = decode(corpus, pred_column, scheme, mode, table)
    counts = sentence_counts(gold, pred, corpus.n_sentences)
    n_gold = int(counts[:, 2].sum())
    return entity_scores(gold, pred).to_dict(), [
        Statistic("entity_f1", counts, f1_statistic, n_gold),
        Statistic("entity_precision", counts[:, [0, 1]], ratio_or_zero_statistic,
                  int(counts[:, 1].sum())),
        Statistic("entity_recall", counts[:, [0, 2]], ratio_or_zero_statistic, n_gold),
    ]


# Family numbers that restate nerspan's entity scores (the families' tests assert the
# equality): the report shows them once, as entity_*.
SAME_AS_ENTITY = {"tough_mentions.precision", "tough_mentions.recall", "tough_mentions.f1",
                  "attribute_buckets.f1", "faireval.traditional_f1"}


def family_statistics(result) -> list[Statistic]:
    """The bootstrap statistics a family's result object provides (less the restated
    entity scores)."""
    return [s for s in result.statistics() if s.name not in SAME_AS_ENTITY]


# -- figures -----------------------------------------------------------------------------
def bucket_figures(results: dict, intervals: dict | None = None) -> dict:
    """Chart title -> PNG bytes of each attribute's bucket F1, all systems in one chart.

    ``results`` maps a system name to its ``attribute_buckets`` result dict; the report's
    bootstrap ``intervals`` (system -> statistic -> low/high), when given, become the
    error bars.
    """
    import matplotlib.pyplot as plt

    bucket_chart = family_package("attribute_buckets").plots.bucket_chart
    shown = {system: _with_intervals(result, (intervals or {}).get(system, {}))
             for system, result in results.items()}
    out = {}
    for attribute in next(iter(shown.values()))["buckets"]:
        figure = bucket_chart(shown, attribute)
        out[bucket_figure_title(attribute)] = figure_png(figure)
        plt.close(figure)
    return out


def figure_png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)  # the charts lay themselves out
    return buffer.getvalue()


def bucket_figure_title(attribute: str) -> str:
    return f"F1 by {attribute} bucket"


def _with_intervals(result: dict, intervals: dict) -> dict:
    """``result`` with each bucket's ``f1_interval`` from the report's intervals."""
    if not intervals:
        return result
    buckets = {}
    for attribute, rows in result["buckets"].items():
        buckets[attribute] = []
        for i, row in enumerate(rows):
            ci = intervals.get(f"attribute_buckets.buckets.{attribute}.{i}") or {}
            low, high = ci.get("low"), ci.get("high")
            if low is not None and np.isnan(low):
                low = high = None
            buckets[attribute].append({**row, "f1_interval": (low, high)})
    return {**result, "buckets": buckets}
