"""FairEval's Figure 1 (errors by type, traditional vs fair counting) and Figure 2 (the
confusion matrix of errors as a heat map), in Python and from ``nerlens faireval --plot``."""
from __future__ import annotations

import numpy as np

import faireval
from faireval import plots
from nerlens.cli import main

from .conftest import shared_path

GOLD = [["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG"]]
PRED = [["B-PER", "O", "O", "B-ORG", "O", "O"]]


def test_error_counts_are_the_figure_numbers():
    result = faireval.score(GOLD, PRED)
    counts = plots.error_counts(result)
    # traditional: 2 system spans, 3 target spans, no TP -> 2 FP, 3 FN
    assert counts["traditional"] == {"FP": 2, "FN": 3}
    # fair: one BE (PER), one LE (LOC as ORG), the ORG target unmatched
    assert counts["fair"] == {"FP": 0, "FN": 1, "LE": 1, "BE": 1, "LBE": 0}
    assert plots.error_counts(result.to_dict()) == counts


def test_figures_have_titles_labels_and_cell_texts(tmp_path):
    result = faireval.score(GOLD, PRED)
    figure = plots.error_distribution({"a": result, "b": result.to_dict()})
    axes = figure.axes[0]
    assert "traditional vs fair" in axes.get_title() and axes.get_xlabel() == "errors (count)"
    assert [t.get_text() for t in axes.get_legend().get_texts()] == list(plots.ERROR_TYPES)
    heat = plots.confusion_heatmap(result)
    axes = heat.axes[0]
    assert axes.get_ylabel().startswith("target label") and "FN" in axes.get_xlabel()
    cells = [t.get_text() for t in axes.texts]
    rows = list(result.labels) + ["no target span (FP)"]   # every label, zero or not
    assert len(cells) == len(rows) ** 2 and cells[-1] == plots.UNDEFINED  # FP x FN: no cell
    assert [t.get_text() for t in axes.get_yticklabels()] == rows
    written = plots.save_all({"sys": result}, tmp_path)
    assert [p.name for p in written] == ["error_types.png", "confusion_sys.png"]
    assert all(p.stat().st_size > 5000 for p in written)


def test_cli_plot_on_germeval_spans(tmp_path, capsys):
    target = shared_path("data", "faireval", "target", "ner_spans.csv")
    system = shared_path("data", "faireval", "system", "ner_spans.csv")
    assert main(["faireval", "--spans", str(target), str(system), "--plot",
                 str(tmp_path)]) == 0
    assert f"figures written to {tmp_path}" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["confusion_ner_spans.png",
                                                          "error_types.png"]
    # the published counts are what Figure 1 draws (LE 252, BE 180, LBE 155, FN 462, FP 253)
    result = faireval.score(faireval.read_span_file(target), faireval.read_span_file(system))
    assert plots.error_counts(result)["fair"] == {"FP": 253, "FN": 462, "LE": 252, "BE": 180,
                                                  "LBE": 155}


def test_heatmap_of_many_labels_sums_the_rest_as_other():
    """100 labels once drew 10,201 cells with their counts (25 s a figure, every system
    of a report); beyond ``HEATMAP_LABELS`` the labels with the fewest errors are summed
    as "other (80 labels)", and the chart says so."""
    types = [f"T{i:03d}" for i in range(100)]
    gold = [[f"B-{t}", "O", f"B-{t}", "O"] for t in types]
    pred = [list(sentence) for sentence in gold]
    for i in range(20):   # two boundary errors each for the first 20 labels
        pred[i][1] = pred[i][3] = f"I-{types[i]}"
    pred[50][0] = "B-T051"   # one confusion between two of the others
    result = faireval.score(gold, pred)
    confusion = result.to_dict()["error_confusion"]
    figure = plots.confusion_heatmap(result)
    axes = figure.axes[0]
    n = plots.HEATMAP_LABELS + 2   # the labels kept, other, FP / FN
    assert len(axes.texts) == n * n
    rows = [label.get_text() for label in axes.get_yticklabels()]
    assert rows == types[:20] + ["other (80 labels)", "no target span (FP)"]
    assert "other (80 labels): the labels with the fewest errors" in axes.get_xlabel()
    _, _, counts, summed = plots.confusion_cells(result)
    assert summed == 80 and counts.shape == (n, n)
    assert np.nansum(counts) == sum(sum(row.values()) for row in confusion["matrix"].values()) \
        + sum(confusion["FN"].values()) + sum(confusion["FP"].values())
    assert counts[0, 0] == confusion["matrix"]["T000"]["T000"] == 2
    assert counts[20, 20] == confusion["matrix"]["T050"]["T051"] == 1
    small = plots.confusion_heatmap(faireval.score(GOLD, PRED)).axes[0]
    assert "other" not in small.get_xlabel()   # a few labels: all drawn, as before
