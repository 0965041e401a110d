"""FairEval's confusion of errors in the size of the errors, never labels x labels.

The counts are computed from the errors (``FairEvalResult.error_cells``) and
``error_confusion["matrix"]`` holds the non-zero cells only; the tables and heat maps lay
them out as the paper's Figure 2, the labels beyond ``CONFUSION_LABELS`` summed as
"other". The oracle for the layout is the dense matrix and the dense fold the heat map
used before (written out here with NumPy on the dense view).
"""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
from faireval import plots
from faireval.result import (NO_SYSTEM, NO_TARGET, confusion_layout, confusion_table,
                             error_confusion, summed_name)
import nerlens
from nerlens.report.blocks import section_text
from nerlens.families import get_family
from nerlens.report.html import family_sections
from nerlens.trainer import make_compute_metrics

span = st.tuples(st.sampled_from("ABCDE"), st.integers(0, 9), st.integers(1, 4)).map(
    lambda x: (x[0], x[1], x[1] + x[2]))
corpus = st.lists(st.tuples(st.lists(span, max_size=5), st.lists(span, max_size=5)),
                  min_size=1, max_size=5)
TAGS = ["O", "B-A", "I-A", "B-B", "I-B", "B-C", "I-C", "E-A", "S-B", "B-A|I-C", "I-B|B-A"]


def errors(result, confusion_tp=False) -> int:
    """The events the confusion counts: LE, BE, LBE, FN, FP (and TP with confusion_tp)."""
    c = result.counts
    return c["LE"] + c["BE"] + c["LBE"] + c["FN"] + c["FP"] + (c["TP"] if confusion_tp else 0)


def dense_layout(result, max_labels):
    """The layout as it was computed before: every cell of the dense matrix, the labels
    with the fewest errors (the later on ties) folded into "other"."""
    labels, m = list(result.labels), result.confusion_matrix.astype(float)
    n = len(labels)
    m[n, n] = np.nan
    if n <= max_labels:
        return labels, m, 0
    row_col = np.nansum(m[:n], 1) + np.nansum(m[:, :n], 0)
    kept = np.sort(np.argsort(-row_col, kind="stable")[:max_labels])
    cell = np.full(n + 1, max_labels)
    cell[kept] = np.arange(max_labels)
    cell[-1] = max_labels + 1
    folded = np.zeros((max_labels + 2, max_labels + 2))
    np.add.at(folded, np.ix_(cell, cell), np.nan_to_num(m))
    folded[-1, -1] = np.nan
    return [labels[k] for k in kept] + [summed_name(n - max_labels, labels)], folded, \
        n - max_labels


@settings(max_examples=80, deadline=None, database=None)
@given(corpus, st.booleans(), st.integers(1, 6))
def test_the_matrix_has_a_cell_per_error_at_most_and_the_dense_counts(pairs, tp, max_labels):
    result = faireval.score([t for t, _ in pairs], [s for _, s in pairs], confusion_tp=tp,
                            return_pairs=True)
    confusion = result.to_dict()["error_confusion"]
    matrix = confusion["matrix"]
    cells = [count for row in matrix.values() for count in row.values()]
    # the result's size: at most one cell per error, none zero; FN and FP one per label
    assert len(cells) <= errors(result, tp) and all(cells)
    assert len(result.error_cells) <= errors(result, tp)
    assert list(confusion["FN"]) == list(confusion["FP"]) == list(result.labels)
    c = result.counts
    assert sum(cells) == c["LE"] + c["BE"] + c["LBE"] + (c["TP"] if tp else 0)
    assert (sum(confusion["FN"].values()), sum(confusion["FP"].values())) == (c["FN"], c["FP"])
    # the oracle: the events of ``pairs`` (found apart from the counts) by label pair
    events = Counter((e["target"] and e["target"][0], e["system"] and e["system"][0])
                     for sentence in result.pairs for e in sentence if tp or e["type"] != "TP")
    assert {(t, s): v for t, row in matrix.items() for s, v in row.items()} == {
        key: v for key, v in events.items() if None not in key}
    assert {t: v for t, v in confusion["FN"].items() if v} == {
        t: v for (t, s), v in events.items() if s is None}
    assert {s: v for s, v in confusion["FP"].items() if v} == {
        s: v for (t, s), v in events.items() if t is None}
    # the dense view, FairEval's (labels + 1)^2 layout, holds the same cells
    dense = result.confusion_matrix
    n = len(result.labels)
    index = {label: k for k, label in enumerate(result.labels)}
    assert {(index[t], index[s]): v for t, row in matrix.items() for s, v in row.items()} \
        == {(i, j): int(dense[i, j]) for i, j in zip(*np.nonzero(dense[:n, :n]))}
    assert [confusion["FN"][label] for label in result.labels] == dense[:n, n].tolist()
    assert [confusion["FP"][label] for label in result.labels] == dense[n, :n].tolist()
    # the tables: the dense layout and its fold, from the non-zero cells alone
    names, counts, summed = dense_layout(result, max_labels)
    rows, columns, table, got_summed = confusion_layout(confusion, max_labels)
    assert rows == names + [NO_TARGET] and columns == names + [NO_SYSTEM]
    assert got_summed == summed
    assert np.array_equal(np.array(table, dtype=float), counts, equal_nan=True)


@settings(max_examples=60, deadline=None, database=None)
@given(corpus, st.integers(1, 6))
def test_a_result_saved_with_every_cell_reads_and_draws_the_same(pairs, max_labels):
    result = faireval.score([t for t, _ in pairs], [s for _, s in pairs])
    new = result.to_dict()["error_confusion"]
    labels, dense, n = list(result.labels), result.confusion_matrix, len(result.labels)
    old = {"matrix": {t: {s: int(dense[i, j]) for j, s in enumerate(labels)}
                      for i, t in enumerate(labels)},
           "FN": {t: int(dense[i, n]) for i, t in enumerate(labels)},
           "FP": {s: int(dense[n, j]) for j, s in enumerate(labels)}}
    saved = {"confusion": old}   # the key of results saved before the rename
    assert error_confusion(saved) == new
    assert confusion_table(old, max_labels) == confusion_table(new, max_labels)
    a, b = plots.confusion_cells(saved, max_labels), plots.confusion_cells(result, max_labels)
    assert a[:2] == b[:2] and a[3] == b[3] and np.array_equal(a[2], b[2], equal_nan=True)


tagged = st.lists(st.lists(st.sampled_from(TAGS), min_size=1, max_size=8), min_size=1,
                  max_size=4)


@settings(max_examples=80, deadline=None, database=None)
@given(tagged, st.booleans())
def test_gold_equal_to_prediction_has_no_error_to_confuse(sentences, tp):
    # any tags, repaired or not: the same on both sides, every span a TP
    result = faireval.score(sentences, [list(s) for s in sentences], confusion_tp=tp)
    confusion = result.to_dict()["error_confusion"]
    assert errors(result) == 0
    assert set(confusion["FN"].values()) <= {0} and set(confusion["FP"].values()) <= {0}
    if not tp:
        assert confusion["matrix"] == {} and len(result.error_cells) == 0
    else:   # the diagonal: each label's TPs
        tps = {label: row["TP"] for label, row in result.per_type().items() if row["TP"]}
        assert confusion["matrix"] == {label: {label: n} for label, n in tps.items()}


def test_ten_thousand_labels_give_a_result_in_the_size_of_the_errors():
    # one mention of each label, 30 of them confused with the next label: the dense
    # matrix would hold 10^8 cells; the result holds 30, and a table 22 x 22
    n = 10_000
    labels = [f"T{i:05d}" for i in range(n)]
    gold = [[f"B-{label}", "O"] for label in labels]
    pred = [list(sentence) for sentence in gold]
    for i in range(0, 300, 10):
        pred[i][0] = f"B-{labels[i + 1]}"
    result = faireval.score(gold, pred)
    confusion = result.to_dict()["error_confusion"]
    assert result.counts["LE"] == 30 and len(result.error_cells) == 30
    assert sum(len(row) for row in confusion["matrix"].values()) == 30
    assert confusion["matrix"][labels[10]] == {labels[11]: 1}
    assert len(confusion["FN"]) == len(confusion["FP"]) == n
    rows, columns, table, summed = confusion_layout(confusion)
    size = faireval.result.CONFUSION_LABELS + 2
    assert summed == n - faireval.result.CONFUSION_LABELS and len(rows) == len(table) == size
    assert sum(c for row in table for c in row if c is not None) == 30
    json.dumps(confusion)   # plain JSON


def test_the_trainer_logs_the_non_zero_cells_and_every_labels_fn_and_fp():
    labels = ["O", "B-A", "I-A", "B-B", "I-B", "B-C", "I-C"]
    gold = [["B-A", "I-A", "O", "B-B"], ["B-C", "O", "B-A", "O"]]
    pred = [["B-B", "I-B", "O", "B-B"], ["O", "O", "B-A", "I-A"]]   # LE A->B, FN C, BE A
    compute = make_compute_metrics(labels, metrics=["faireval"], detail="all")
    logged = compute.compute([[labels.index(t) for t in s] for s in gold],
                             [[labels.index(t) for t in s] for s in pred])
    cells = {k: v for k, v in logged.items()
             if k.startswith("faireval_error_confusion_matrix_")}
    assert cells == {"faireval_error_confusion_matrix_A_B": 1.0,
                     "faireval_error_confusion_matrix_A_A": 1.0}
    for side in ("FN", "FP"):
        assert {k for k in logged if k.startswith(f"faireval_error_confusion_{side}_")} == {
            f"faireval_error_confusion_{side}_{label}" for label in "ABC"}
    assert logged["faireval_error_confusion_FN_C"] == 1.0


def test_tables_of_many_labels_fold_them_and_say_so():
    # 30 labels, the first 25 with a boundary error each: the report's table and the
    # command line's show 20 labels, "other" (10 summed) and the unmatched spans
    types = [f"T{i:02d}" for i in range(30)]
    gold = [[f"B-{t}", "O"] for t in types]
    pred = [[f"B-{t}", f"I-{t}" if i < 25 else "O"] for i, t in enumerate(types)]
    note = "The 10 labels with the fewest errors are summed in \"other (10 labels)\""
    result = faireval.score(gold, pred).to_dict()
    text = section_text(get_family("faireval"), {"a": result}).split(
        "a: confusion of errors\n")[1]
    lines = text.split("\nRows: ")[0].splitlines()
    assert [line.split()[0] for line in lines[2:]] == types[:20] + ["other", "no"]
    assert note in " ".join(text.split("\n"))
    page = nerlens.build_report(gold, {"a": pred}, tokens=[["w", "x"]] * 30, bootstrap=0,
                          families=["faireval"], figures=False)
    html = {anchor: body for anchor, _, body in family_sections(page)}["faireval"]
    matrix = html.split("a: confusion of errors</h3>")[1]
    assert note in matrix
    assert len(matrix.split("</table>")[0].split("<tr>")) - 2 == 22   # header row apart


def test_the_summed_row_is_named_apart_from_a_label_called_other():
    """A type may be called "other": the row and column summing the labels with the
    fewest errors never take a label's name."""
    labels = ["other"] + [f"T{i}" for i in range(5)]
    confusion = {"matrix": {"other": {"T0": 3}, "T0": {"other": 2}},
                 "FN": {label: 1 for label in labels}, "FP": {label: 0 for label in labels}}
    rows, columns, _, summed = confusion_layout(confusion, max_labels=2)
    assert summed == 4 and rows[:2] == ["other", "T0"]
    assert rows[2] == columns[2] == "other (4 labels)" not in labels
    assert len(set(rows)) == len(rows)
