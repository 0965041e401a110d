"""attribute_buckets beyond one dataset: equal-width buckets, the cross-dataset views and
tests (zeta/rho per dataset, Friedman, Wilcoxon), their figures, and the CLI routes
(``--equal-width``, ``--manifest FILE``, ``--runs``, ``--plot``)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import attribute_buckets
from attribute_buckets import analysis, plots, report
from nerlens.cli import main
from nerlens.report import blocks

TRAIN = ([["Kim", "lives", "in", "New", "York"], ["New", "York", "is", "big"],
          ["Kim", "met", "Ana", "in", "Rome"]],
         [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "I-ORG", "O", "O"],
          ["B-PER", "O", "B-PER", "O", "B-LOC"]])
TOKENS = [["Ana", "visited", "New", "York"], ["Kim", "is", "big"],
          ["Rome", "and", "Paris", "and", "the", "United", "Nations", "met", "today"]]
GOLD = [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O"],
        ["B-LOC", "O", "B-LOC", "O", "O", "B-ORG", "I-ORG", "O", "O"]]
PRED_A = [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O"],
          ["B-LOC", "O", "O", "O", "O", "B-ORG", "I-ORG", "O", "O"]]
PRED_B = [["B-PER", "O", "B-LOC", "O"], ["O", "O", "O"],
          ["B-LOC", "O", "B-LOC", "O", "O", "B-LOC", "I-LOC", "O", "O"]]


def score(pred, **options):
    return attribute_buckets.score(GOLD, pred, tokens=TOKENS, train=(TRAIN[0], TRAIN[1]), **options)


def test_equal_width_cuts_the_value_range_evenly():
    result = score(PRED_A, attributes=["sLen"], n_buckets=2,
                   options={"equal_width": True}).to_dict()
    # sentence lengths of the gold mentions: 4, 4, 3, 9, 9, 9 -> range [3, 9], edge at 6
    assert [b["interval"] for b in result["buckets"]["sLen"]] == ["[0, 6]", "(6, inf)"]
    assert [b["gold"] for b in result["buckets"]["sLen"]] == [3, 3]
    assert result["options"]["equal_width"] is True
    counted = score(PRED_A, attributes=["sLen"], n_buckets=2).to_dict()
    assert counted["options"]["equal_width"] is False
    # eLen keeps its length buckets under equal width
    same = score(PRED_A, attributes=["eLen"],
                 options={"equal_width": True}).to_dict()["buckets"]["eLen"]
    assert [b["interval"] for b in same] == ["{1}", "{2}", "{3}", "[4, inf)"]
    with pytest.raises(ValueError, match="equal_width"):
        score(PRED_A, options={"equal_width": True}, compat="interpreteval")


def test_equal_width_through_evaluate_module():
    import evaluate
    metric = evaluate.load("metrics/attribute_buckets", train=(TRAIN[0], TRAIN[1]))
    out = metric.compute(references=GOLD, predictions=PRED_A, tokens=TOKENS,
                         attributes=["sLen"], n_buckets=2, equal_width=True)
    assert [b["interval"] for b in out["buckets"]["sLen"]] == ["[0, 6]", "(6, inf)"]


def datasets():
    a, b = score(PRED_A).to_dict(), score(PRED_B).to_dict()
    a2, b2 = score(PRED_A, n_buckets=4).to_dict(), score(PRED_B, n_buckets=4).to_dict()
    return {"one": {"A": a, "B": b}, "two": {"A": a2, "B": b2}}


def test_cross_dataset_views_and_tests():
    data = datasets()
    views = analysis.attribute_wise_datasets(data)
    assert views["one"]["eLen"] == analysis.attribute_wise(data["one"])["eLen"]
    rows, attrs, cube = analysis.relative_change_datasets(data, "A")
    assert rows == ["one: B", "two: B"] and attrs[0] == "eLen"
    # tag has other buckets (types) in every dataset: the cross-dataset views leave it out
    assert "tag" not in attrs and "tag" not in views["one"]
    assert np.allclose(cube[0], analysis.relative_change(data["one"], "A", attrs)[2][0],
                       equal_nan=True)
    tests = analysis.significance_datasets(data, "A")
    assert tests["n_datasets"] == 2 and set(tests["wilcoxon"]) == {"B vs A"}
    overall = tests["wilcoxon"]["B vs A"]["overall"]
    # two paired F1 values: the test runs (statistic and p-value defined)
    assert overall["n_pairs"] == 2 and 0 <= overall["pvalue"] <= 1
    for attribute, entry in tests["friedman"]["A"].items():
        assert entry["pvalue"] is None or 0 <= entry["pvalue"] <= 1, attribute
    with pytest.raises(ValueError, match="baseline"):
        analysis.relative_change_datasets(data, "C")
    # the tests pair every system with the baseline on every dataset: both checked first
    with pytest.raises(ValueError, match=r"baseline 'C' is not one of the systems \['A', 'B'\]"):
        analysis.significance_datasets(data, "C")
    with pytest.raises(ValueError, match=r"dataset 'two' has systems \['A'\], the first one "
                                         r"\['A', 'B'\]: give every dataset the same systems"):
        analysis.significance_datasets({**data, "two": {"A": data["two"]["A"]}})


def test_the_command_s_views_are_the_family_s():
    """``nerlens buckets`` draws what attribute_buckets.report builds, usable without it."""
    data = datasets()
    runs = {name: {"A": ["A"], "B": ["B"]} for name in data}
    out, averaged = report.over_datasets(data, runs, "A")
    assert out["significance"] == analysis.significance_datasets(data, "A")
    assert out["attribute_wise"] == analysis.attribute_wise_datasets(averaged)
    text = blocks.text(report.datasets_blocks(out, averaged))
    assert text.startswith("Overall F1 (%)\n") and "Attribute-wise rho" in text
    assert "B vs A" in text
    diagnosis = blocks.text(report.diagnosis_blocks(data["one"]))
    assert "Model-wise" in diagnosis and "Comparative diagnosis, A minus B" in diagnosis


def test_new_figures_draw(tmp_path):
    data = datasets()
    for figure, name in [(plots.radar_chart(data), "radar"),
                         (plots.dataset_heatmap(data, "A"), "heat"),
                         (plots.self_diagnosis_chart(data["one"]["B"]), "self")]:
        path = plots.save(figure, tmp_path / f"{name}.png")
        assert path.stat().st_size > 5000
        assert figure.axes[0].get_title()
    written = plots.save_datasets(data, tmp_path / "d")
    assert sorted(p.name for p in written) == ["heatmap_datasets.png", "radar.png"]


# -- CLI -----------------------------------------------------------------------------------
def write(path, tokens, tags):
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts))
                                for ws, ts in zip(tokens, tags)) + "\n")
    return path


@pytest.fixture
def files(tmp_path):
    write(tmp_path / "train.txt", *TRAIN)
    write(tmp_path / "gold.txt", TOKENS, GOLD)
    write(tmp_path / "a.txt", TOKENS, PRED_A)
    write(tmp_path / "b.txt", TOKENS, PRED_B)
    return tmp_path


def test_cli_equal_width_json_matches_the_api(files, capsys):
    assert main(["buckets", "--train", str(files / "train.txt"), str(files / "gold.txt"),
                 str(files / "a.txt"), "--equal-width", "--n-buckets", "2", "--attributes",
                 "sLen", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads(json.dumps(score(PRED_A, attributes=["sLen"], n_buckets=2,
                                              options={"equal_width": True}).to_dict()))


def test_cli_datasets_manifest(files, capsys, tmp_path):
    manifest = files / "experiment.json"
    manifest.write_text(json.dumps({
        name: {"train": "train.txt", "gold": "gold.txt",
               "predictions": {"A": "a.txt", "B": "b.txt"}} for name in ("one", "two")}))
    plots_dir = tmp_path / "charts"
    assert main(["buckets", "--manifest", str(manifest), "--format", "json",
                 "--plot", str(plots_dir)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"datasets", "runs", "attribute_wise", "significance"}
    assert out["datasets"]["one"]["A"]["f1"] == score(PRED_A).f1
    assert set(out["significance"]["wilcoxon"]) == {"B vs A"}
    assert sorted(p.name for p in plots_dir.iterdir()) == ["heatmap_datasets.png", "radar.png"]
    assert main(["buckets", "--manifest", str(manifest), "--baseline", "B"]) == 0
    text = capsys.readouterr().out
    assert "A vs B" in text and "Friedman" in text and "Attribute-wise zeta" in text
    assert main(["buckets", "--manifest", str(manifest), "--baseline", "C"]) == 2
    assert "not one of the systems" in capsys.readouterr().err
    manifest.write_text(json.dumps({"one": {"train": "train.txt", "gold": "gold.txt",
                                            "predictions": {"A": "a.txt"}},
                                    "two": {"train": "train.txt", "gold": "gold.txt",
                                            "predictions": {"B": "b.txt"}}}))
    assert main(["buckets", "--manifest", str(manifest)]) == 2
    assert "same systems" in capsys.readouterr().err


def test_cli_runs_friedman(files, capsys):
    assert main(["buckets", "--train", str(files / "train.txt"), str(files / "gold.txt"),
                 str(files / "a.txt"), str(files / "b.txt"), "--runs", "--format",
                 "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["runs"]) == {"a", "b"}
    assert out["significance"]["n_datasets"] == 2
    assert set(out["significance"]["friedman"]) == {"system"}
    assert main(["buckets", "--train", str(files / "train.txt"), str(files / "gold.txt"),
                 str(files / "a.txt"), "--runs"]) == 2
    assert "at least two PRED files" in capsys.readouterr().err


def test_cli_plot_writes_self_diagnosis(files, capsys, tmp_path):
    folder = tmp_path / "c"
    assert main(["buckets", "--train", str(files / "train.txt"), str(files / "gold.txt"),
                 str(files / "a.txt"), str(files / "b.txt"), "--plot", str(folder),
                 "--attributes", "eLen,sLen,eDen"]) == 0
    names = sorted(p.name for p in folder.iterdir())
    assert "self_diagnosis_a.png" in names and "self_diagnosis_b.png" in names
