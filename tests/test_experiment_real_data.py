"""An experiment on real data: CoNLL-2003 and WNUT-16 with the systems both have
(InterpretEval's Flair and ELMo). On CoNLL-2003 the three Flair outputs (InterpretEval's
Flair+GloVe, SpanNER's Flair+GloVe and Flair) stand in for three runs of "flair", the
three ELMo outputs for "elmo"; WNUT-16 has one run of each."""
from __future__ import annotations

import json

import pytest

from nerlens.cli import main

from .conftest import shared_path

PUBLISHED = {"interpreteval_flair_glove_9303": 0.9303, "spanner_flair_glove_9302": 0.9302,
             "spanner_flair_9241": 0.9241, "interpreteval_elmo_glove_9222": 0.9222,
             "spanner_elmo_glove_9211": 0.9211, "spanner_elmo_9199": 0.9199}


def experiment_argv(data) -> list[str]:
    conll, wnut = data / "conll03", data / "wnut16"
    for path in (conll / "test.txt", wnut / "test.txt", wnut / "systems"):
        if not path.exists():
            pytest.skip(f"needs {path}")
    return ["--data", "conll03", str(conll / "test.txt"), str(conll / "train.txt"),
            "--pred", f"flair={conll}/systems/*flair*.txt", f"elmo={conll}/systems/*elmo*.txt",
            "--data", "wnut16", str(wnut / "test.txt"), str(wnut / "train.txt"),
            "--pred", f"flair={wnut}/systems/interpreteval_flair_glove_4596.txt",
            f"elmo={wnut}/systems/interpreteval_elmo_glove_4533.txt"]


def test_conll03_and_wnut16_over_runs(tmp_path, capsys):
    argv = experiment_argv(shared_path("data"))
    assert main(["report", "--no-progress", "--bootstrap", "100", "--output", str(tmp_path),
                 *argv]) == 0
    text = capsys.readouterr().out
    assert max(map(len, text.splitlines())) <= 100
    data = json.loads((tmp_path / "experiment.json").read_text())
    runs = data["runs"]["conll03"]
    assert runs == {"flair": ["flair#1", "flair#2", "flair#3"],
                    "elmo": ["elmo#1", "elmo#2", "elmo#3"]}
    # each run is the published system: its F1 as published, and the mean of the three
    inputs = data["datasets"]["conll03"]["info"]["provenance"]["inputs"]["systems"]
    estimates = data["datasets"]["conll03"]["estimates"]
    for system, columns in runs.items():
        published = []
        for column in columns:
            name = inputs[column].rsplit("/", 1)[-1][:-4]
            assert estimates[column]["entity_f1"] == pytest.approx(PUBLISHED[name], abs=6e-4)
            published.append(PUBLISHED[name])
        cell = data["aggregate"]["conll03"][system]["entity_f1"]
        assert cell["n"] == 3 and cell["mean"] == pytest.approx(sum(published) / 3, abs=6e-4)
        assert 0 < cell["std"] < 0.01
    assert data["aggregate"]["wnut16"]["flair"]["entity_f1"]["mean"] == \
        pytest.approx(0.4596, abs=6e-4)
    assert data["aggregate"]["wnut16"]["flair"]["entity_f1"]["std"] is None
    test = data["wilcoxon"]["flair vs elmo"]["entity_f1"]
    assert test["n_pairs"] == 4 and test["difference"] > 0 and not test["significant"]
    assert set(data["attribute_wise"]) == {"conll03", "wnut16"}
    page = (tmp_path / "experiment.html").read_text()
    assert "Attribute-wise view across datasets" in page and "Holm" in page
