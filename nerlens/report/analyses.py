"""The papers' analyses and figures beyond the headline numbers, for the report.

- tough_mentions: the spread of each subset's recall across the systems, and the subsets
  under ``min_share`` of the gold mentions (left out of the report's recall table);
- hardeval: the corpus statistics (Tables 1-2, and the % of test tokens per subset of
  Table 4) and the most frequent tokens of each hard subset with each system's errors;
- figures: FairEval's error types (traditional vs fair) and confusion heat maps, the
  attribute buckets' self-diagnosis histograms, the overview heat map (every system's
  bucket F1 against its overall F1), and the figures across datasets of an experiment.

Everything is computed from what the report already holds (the corpus, the training
index, the family result dicts); nothing here feeds back into the headline numbers.
"""
from __future__ import annotations

import numpy as np

from nerspan import GOLD

from nerlens.families import family_module, family_package

from .statistics import figure_png

HARD_TOKENS_SHOWN = 5


def analyses(corpus, index, system_names, results, families, scheme, mode,
             min_share: float = 0.0, context=None) -> dict:
    """Family -> its extra analyses (JSON-ready); only for the families that ran. The
    gold ``context`` of ``corpus`` (``nerspan.GoldContext``) gives the gold decoded and
    classified once."""
    out = {}
    if "tough_mentions" in families:
        tough_mentions = family_package("tough_mentions")
        per_system = {s: results[s]["tough_mentions"] for s in system_names}
        first = per_system[system_names[0]]
        out["tough_mentions"] = {
            "min_share": min_share,
            "small_subsets": tough_mentions.small_subsets(first, min_share),
            "recall_spread": (tough_mentions.recall_spread(per_system)
                              if len(system_names) > 1 else None)}
    if "hardeval" in families and index is not None:
        hardeval = family_package("hardeval")
        if context is None:
            codes = hardeval.classify_tokens(corpus, index, scheme, mode)
        else:
            codes = hardeval.gold_token_classes(context)
        wrong = {s: hardeval.token_errors(corpus, s, GOLD, scheme, mode, context=context)
                 for s in system_names}
        test = corpus.select([GOLD]) if context is None else context
        out["hardeval"] = {
            "corpus_statistics": hardeval.corpus_statistics(
                index, {"test": test}, scheme, mode, {"test": codes}),
            "tokens": hardeval.hard_tokens(corpus, codes, wrong, HARD_TOKENS_SHOWN),
            "diff_token_errors": diff_token_errors(corpus, codes, wrong)}
    return out


def diff_token_errors(corpus, codes, wrong: dict) -> dict:
    """System -> the label-shifted (diff) tokens it gets wrong: sentence, position in the
    sentence, token, subset (diff-I, diff-O, diff-E) and both raw tags. (hardeval
    compares BILOU labels, so a token can be wrong while its raw tags agree: its
    mention's boundary differs.)"""
    hardeval = family_package("hardeval")
    diff = np.isin(codes, hardeval.GROUPS["diff"])
    out = {}
    for system, errors in wrong.items():
        rows = []
        for position in np.flatnonzero(diff & errors).tolist():
            sentence = int(np.searchsorted(corpus.offsets, position, side="right") - 1)
            index = position - int(corpus.offsets[sentence])
            rows.append({"sentence": sentence, "token_index": index,
                         "token": corpus.vocab[corpus.tokens[position]],
                         "subset": hardeval.LEAF_NAMES[codes[position]],
                         "gold_tag": corpus.labels[corpus.column(GOLD)[position]],
                         "predicted_tag": corpus.labels[corpus.column(system)[position]]})
        out[system] = rows
    return out


# -- figures -----------------------------------------------------------------------------
FAIREVAL_ERRORS_TITLE = "FairEval: errors by type, traditional vs fair counting"


def faireval_confusion_title(system: str) -> str:
    return f"FairEval: confusion of errors, {system}"


def self_diagnosis_title(system: str) -> str:
    return f"Self-diagnosis, {system}"


# Per-system figures are drawn for this many systems (the first ones, baseline first):
# each costs as much as a bucket chart, and with 15 systems they would triple the time
# of the report's figures. The page says so; the tables cover every system.
FIGURE_SYSTEMS = 4


def figure_systems(system_names) -> list:
    """The systems that get per-system figures in the report."""
    return list(system_names)[:FIGURE_SYSTEMS]


def figures(results: dict, system_names, families) -> dict:
    """Title -> PNG bytes of FairEval's two figures and the self-diagnosis histograms
    (Figure 1 covers every system; the per-system ones ``figure_systems``)."""
    out = {}
    if "faireval" in families:
        plots = family_module("faireval", "plots")
        per_system = {s: results[s]["faireval"] for s in system_names}
        out[FAIREVAL_ERRORS_TITLE] = _png(plots.error_distribution(per_system))
        for system in figure_systems(system_names):
            result = per_system[system]
            title = f"Confusion of errors: {system}\n(diagonal: boundary errors)"
            out[faireval_confusion_title(system)] = _png(
                plots.confusion_heatmap(result, title=title))
    if "attribute_buckets" in families:
        plots = family_package("attribute_buckets").plots
        for system in figure_systems(system_names):
            out[self_diagnosis_title(system)] = _png(plots.self_diagnosis_chart(
                results[system]["attribute_buckets"], title=f"Self-diagnosis: {system}"))
    return out


def _png(figure) -> bytes:
    """The figure as PNG bytes; the figure is cleared (its memory freed)."""
    png = figure_png(figure)
    figure.clear()
    return png


OVERVIEW_TITLE = "Overview: bucket F1 minus each system's overall F1"


def overview_figure(results: dict, system_names: list, families, drawn: bool) -> dict:
    """The overview heat map (systems x attribute buckets), one figure for all systems."""
    if not drawn or "attribute_buckets" not in families:
        return {}
    buckets = family_package("attribute_buckets")
    shown = {s: results[s]["attribute_buckets"] for s in system_names}
    # entity attributes only: token attributes score every token (O included), so their F1
    # is not comparable with entity F1
    attributes = [a for a in shown[system_names[0]]["buckets"]
                  if a not in buckets.TOKEN_ATTRIBUTES]
    if not attributes:
        return {}
    # the difference, not the ratio: a weak system's ratios would wash out every other row;
    # heatmap draws a pyplot-free Figure: nothing to close
    figure = buckets.plots.heatmap(shown, attributes=attributes, width=12.5, difference=True,
                                   height=max(2.5, 0.3 * len(system_names) + 2.2))
    figure.axes[0].set_title(OVERVIEW_TITLE)
    return {OVERVIEW_TITLE: figure_png(figure)}


# -- across datasets: the slot a multi-dataset report fills (issue 16) -------------------
RADAR_TITLE = "Attribute-wise zeta and rho across datasets"


def dataset_heatmap_title(baseline: str) -> str:
    return f"Relative change of bucket F1 against {baseline}, per dataset"


def dataset_figures(datasets: dict, baseline: str | None = None) -> dict:
    """Title -> PNG bytes of the cross-dataset figures of the attribute buckets: the radar
    chart of zeta/rho (one polygon per dataset) and, with two or more systems, the heat
    map of relative change against ``baseline`` (default: the first system).

    ``datasets`` maps a dataset name to ``{system: attribute_buckets result dict}``.
    """
    plots = family_package("attribute_buckets").plots
    out = {RADAR_TITLE: _png(plots.radar_chart(datasets))}
    systems = list(next(iter(datasets.values())))
    if len(systems) >= 2:
        baseline = baseline or systems[0]
        out[dataset_heatmap_title(baseline)] = _png(plots.dataset_heatmap(datasets, baseline))
    return out
