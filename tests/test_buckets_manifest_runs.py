"""``nerlens buckets --manifest FILE`` reads a manifest as ``nerlens report --manifest``
does (issue 37): a system's runs are its runs, not systems of their own (``spacy#1..#3``,
and ``--baseline spacy`` failed), and its tests are Holm-corrected. The oracle of the
tests is the experiment of the same manifest: it pairs the same runs, so its Wilcoxon on
entity F1 and its model-wise Friedman tests have the same p-values."""
from __future__ import annotations

import json

import pytest

from attribute_buckets import analysis
from nerlens.cli import main
from nerspan.significance import holm

from .test_experiment import files, parts  # noqa: F401 (fixtures: two small datasets)


@pytest.fixture
def manifest(files):  # noqa: F811
    path = files / "runs.json"
    path.write_text(json.dumps({
        name: {"train": "train.txt", "gold": f"{name}_gold.txt",
               "predictions": {"spacy": [f"{name}_spacy_{k}.txt" for k in range(3)],
                               "oracle": [f"{name}_oracle_{k}.txt" for k in range(3)]}}
        for name in ("a", "b")}))
    return path


def test_runs_are_runs_and_the_tests_the_experiments(manifest, tmp_path, capsys):
    assert main(["buckets", "--manifest", str(manifest), "--baseline", "spacy",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["runs"]["a"] == {"spacy": ["spacy#1", "spacy#2", "spacy#3"],
                                "oracle": ["oracle#1", "oracle#2", "oracle#3"]}
    assert set(out["datasets"]["a"]) == {f"{s}#{k}" for s in ("spacy", "oracle")
                                         for k in (1, 2, 3)}
    significance = out["significance"]
    assert set(significance["friedman"]) == {"spacy", "oracle"}
    assert set(significance["wilcoxon"]) == {"oracle vs spacy"}
    assert significance["n_runs"] == {"spacy": 6, "oracle": 6}
    assert set(out["attribute_wise"]["a"]) >= {"eLen", "tCon"}
    assert main(["report", "--manifest", str(manifest), "--no-progress", "--bootstrap", "0",
                 "--output", str(tmp_path)]) == 0
    capsys.readouterr()
    experiment = json.loads((tmp_path / "experiment.json").read_text())
    assert experiment["runs"] == out["runs"]
    # the same pairs of runs: Wilcoxon on F1 (the buckets' overall F1 is entity F1)
    ours = significance["wilcoxon"]["oracle vs spacy"]["overall"]
    theirs = experiment["wilcoxon"]["spacy vs oracle"]["entity_f1"]
    assert ours["pvalue"] == pytest.approx(theirs["pvalue"])
    # the same blocks: each system's runs on every dataset
    for system in ("spacy", "oracle"):
        for attribute, test in experiment["model_wise"][system].items():
            mine = significance["friedman"][system][attribute]
            assert mine.get("pvalue") == pytest.approx(test["friedman"].get("pvalue")), attribute


def test_tests_are_holm_corrected(manifest, capsys):
    assert main(["buckets", "--manifest", str(manifest), "--format", "json"]) == 0
    significance = json.loads(capsys.readouterr().out)["significance"]
    friedman = {(s, a): t for s, tests in significance["friedman"].items()
                for a, t in tests.items()}
    adjusted = holm({key: t.get("pvalue") for key, t in friedman.items()})
    assert any(t.get("pvalue") is not None for t in friedman.values())
    for key, test in friedman.items():   # one family: the table's tests
        assert test["pvalue_holm"] == adjusted[key]
        assert test["significant"] == (adjusted[key] is not None and adjusted[key] < 0.05)
    for entry in significance["wilcoxon"].values():
        for test in entry.values():      # one pair: Holm leaves each p as it is
            assert test["pvalue_holm"] == (None if test.get("pvalue") is None
                                           else round(test["pvalue"], 12))


def test_holm_over_pairs_per_statistic():
    """Three systems: each statistic's Wilcoxon tests of the two pairs with the baseline
    are one family."""
    from .test_buckets_experiments import PRED_A, PRED_B, score

    runs = {name: {s: [s] for s in ("A", "B", "C")} for name in ("d1", "d2", "d3")}
    results = {name: {"A": score(PRED_A).to_dict(), "B": score(PRED_B).to_dict(),
                      "C": score(PRED_B, n_buckets=3).to_dict()} for name in runs}
    out = analysis.significance_runs(results, runs, "A")
    for statistic in out["wilcoxon"]["B vs A"]:
        tests = {pair: entry[statistic] for pair, entry in out["wilcoxon"].items()}
        adjusted = holm({pair: t.get("pvalue") for pair, t in tests.items()})
        assert {pair: t["pvalue_holm"] for pair, t in tests.items()} == adjusted


def test_text_names_systems_and_holm(manifest, tmp_path, capsys):
    plots = tmp_path / "charts"
    assert main(["buckets", "--manifest", str(manifest), "--baseline", "oracle",
                 "--plot", str(plots)]) == 0
    out = capsys.readouterr().out
    assert "#" not in out.split("Friedman")[0]           # systems, not their runs
    assert "Overall F1 (%, mean over runs)" in out
    assert "over the runs of 2 datasets" in out and "Holm-adjusted" in out
    assert "spacy vs oracle" in out
    assert sorted(p.name for p in plots.iterdir()) == ["heatmap_datasets.png", "radar.png"]
    assert main(["buckets", "--manifest", str(manifest), "--baseline", "spacy#1"]) == 2
    assert "not one of the systems" in capsys.readouterr().err
