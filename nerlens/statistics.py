"""Per-family glue for the report: scoring, bootstrap statistics, HTML sections, figures.

Every headline number of a family is re-expressed by the family's result object as
``nerspan.bootstrap.Statistic``s (``result.statistics()``): per-sentence counts and the
function that turns their totals into the number. The estimate of each statistic equals
the number the family reports (tests check this), so the intervals are intervals of
exactly the published numbers.
"""
from __future__ import annotations

import importlib

import numpy as np

from nerspan import GOLD, PRED, LabelTable, decode, entity_scores, get_scheme
from nerspan.bootstrap import Statistic, f1_statistic
from nerspan.scores import sentence_counts

FAMILIES = ("tough_mentions", "hardeval", "faireval", "attribute_buckets")
TITLES = {"tough_mentions": "Tough mentions: recall on unseen and type-confusable mentions",
          "hardeval": "hardeval: token error rates on unseen and label-shifted tokens",
          "faireval": "faireval: error types without double penalties",
          "attribute_buckets": "Attribute buckets: F1 by entity and sentence attributes"}


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


# Family numbers that restate nerspan's entity scores (the families' tests assert the
# equality): the report shows them once, as entity_*.
SAME_AS_ENTITY = {"tough_mentions.precision", "tough_mentions.recall", "tough_mentions.f1",
                  "attribute_buckets.f1"}


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
    from attribute_buckets.plots import bucket_chart

    from .report import figure_png

    shown = {system: _with_intervals(result, (intervals or {}).get(system, {}))
             for system, result in results.items()}
    out = {}
    for attribute in next(iter(shown.values()))["buckets"]:
        figure = bucket_chart(shown, attribute)
        out[bucket_figure_title(attribute)] = figure_png(figure)
        plt.close(figure)
    return out


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


# -- HTML sections -----------------------------------------------------------------------
def family_sections(report, table, raw) -> list[tuple[str, str, str]]:
    """``(anchor, title, body)`` of each family that ran, in ``FAMILIES`` order."""
    families = [f for f in FAMILIES if f in report.info.get("families", FAMILIES)]
    return [(family, TITLES[family], SECTIONS[family](report, table, raw))
            for family in families]


def _results(report, family: str) -> dict:
    return {system: report.results[system][family] for system in report.systems}


def _tough_mentions_section(report, table, raw) -> str:
    results = _results(report, "tough_mentions")
    first = next(iter(results.values()))
    subsets = list(first["counts"])
    composition = first["composition"]
    types = list(first["per_type"]) + ["overall"]
    rows = [[subset, raw(str(first["counts"][subset]))]
            + [composition[subset].get(t) for t in types] for subset in subsets]
    parts = ["<h3>Data composition (share of all gold mentions)</h3>",
             table(["subset", "mentions"] + types, rows)]
    rows = [[system] + [r["recall"] if s == "all" else r.get(f"recall_{s}") for s in subsets]
            for system, r in results.items()]
    parts += ["<h3>Recall per subset</h3>", table(["system"] + subsets, rows),
              "<p class='note'>Recall only: false positives cannot be assigned to a subset, "
              "so precision and F1 are not defined on subsets. &ndash; = empty subset.</p>"]
    return "".join(parts)


def _hardeval_section(report, table, raw) -> str:
    results = _results(report, "hardeval")
    first = next(iter(results.values()))
    names = list(first["subsets"])
    rows = [["tokens", None] + [raw(str(first["subsets"][n]["tokens"])) for n in names]]
    rows += [[system, r["hardeval"]] + [r["subsets"][n]["ter"] for n in names]
             for system, r in results.items()]
    breakdown = [[system] + [r["error_breakdown"][k] for k in ("unseen", "diff", "other")]
                 for system, r in results.items()]
    return (table(["system", "hardeval"] + names, rows)
            + "<p class='note'>Token error rate (%) per subset; lower is better.</p>"
            + "<h3>Share of all errors</h3>"
            + table(["system", "unseen", "diff", "other"], breakdown))


FAIREVAL_COUNTS = ("TP", "FP", "FN", "LE", "BE", "BEs", "BEl", "BEo", "LBE")


def _faireval_section(report, table, raw) -> str:
    parts = []
    for system, result in _results(report, "faireval").items():
        rows = [[label] + [raw(str(row[c])) for c in FAIREVAL_COUNTS]
                + [row["traditional_f1"], row["fair_f1"]]
                for label, row in result["per_label"].items()]
        rows.append([raw("<b>overall</b>")] + [raw(str(result["counts"][c]))
                                               for c in FAIREVAL_COUNTS]
                    + [result["traditional_f1"], result["fair_f1"]])
        confusion = result["confusion"]
        columns = list(next(iter(confusion.values()))) if confusion else []
        matrix = [[raw(str(row_label))] + [raw(str(confusion[row_label][c])) for c in columns]
                  for row_label in confusion]
        parts += [f"<h3>{_escape(system)}: per label</h3>",
                  table(["label", *FAIREVAL_COUNTS, "traditional F1", "fair F1"], rows),
                  f"<h3>{_escape(system)}: confusion of errors</h3>",
                  table(["target \\ system", *columns], matrix)]
    parts.append("<p class='note'>Rows: target label (FP = no target span); columns: system "
                 "label (FN = no system span); the diagonal holds boundary errors.</p>")
    return "".join(parts)


def _attribute_buckets_section(report, table, raw) -> str:
    from .report import png_data_uri

    results = _results(report, "attribute_buckets")
    first = next(iter(results.values()))
    parts = []
    for attribute, buckets in first["buckets"].items():
        parts.append(f"<h3>{_escape(attribute)}</h3>")
        title = bucket_figure_title(attribute)
        if title in report.figures:
            parts.append(f"<figure><img alt='{_escape(title)}' "
                         f"src='{png_data_uri(report.figures[title])}'></figure>")
        rows = []
        for i, bucket in enumerate(buckets):
            rows.append([raw(_escape(f"{bucket['name']} {bucket['interval']}")),
                         raw(str(bucket["gold"]))]
                        + [r["buckets"][attribute][i]["f1"] for r in results.values()])
        parts.append(table(["bucket", "gold"] + list(results), rows))
    diagnoses = []
    for system, result in results.items():
        for attribute, buckets in result["buckets"].items():
            scored = [(b["f1"], b["name"]) for b in buckets if b["f1"] is not None]
            if len(scored) >= 2:
                (worst, worst_name), (best, best_name) = min(scored), max(scored)
                diagnoses.append([system, attribute, raw(_escape(best_name)), best,
                                  raw(_escape(worst_name)), worst, best - worst])
    if diagnoses:
        parts += ["<h3>Self-diagnosis: best and worst bucket</h3>",
                  table(["system", "attribute", "best", "F1", "worst", "F1", "gap"],
                        diagnoses)]
    return "".join(parts)


def _escape(value) -> str:
    import html

    return html.escape(str(value))


SECTIONS = {"tough_mentions": _tough_mentions_section, "hardeval": _hardeval_section,
            "faireval": _faireval_section, "attribute_buckets": _attribute_buckets_section}
