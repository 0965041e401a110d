"""``nerlens score``: conlleval-style table, JSON keys, the demo, errors with exit code 2."""
from __future__ import annotations

import json

import pytest

from nerlens.cli import main

from .conftest import shared_path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_runs_and_prints_the_table(capsys):
    code, out, err = run(capsys, "score", "--demo")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("processed ") and "phrases; found:" in first
    assert "person: precision:" in out
    assert "FB1:  19.97" in first + out  # spaCy's published F1 on WNUT-17, in its file name


def test_json_keys_and_fractions(capsys, tmp_path):
    path = tmp_path / "both.txt"
    path.write_text("John B-PER B-PER\nSmith I-PER O\nin O O\nParis B-LOC B-LOC\n")
    code, out, _ = run(capsys, "score", str(path), "--format", "json")
    assert code == 0
    result = json.loads(out)
    assert (result["gold"], result["predicted"], result["correct"]) == (2, 2, 1)
    assert result["precision"] == result["recall"] == result["f1"] == 0.5
    assert result["per_type"]["PER"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 1,
                                         "predicted": 1, "correct": 0}


def test_gold_and_prediction_files(capsys, tmp_path):
    gold = tmp_path / "gold.txt"
    pred = tmp_path / "pred.txt"
    gold.write_text("John B-PER\nSmith I-PER\n\nParis B-LOC\n")
    pred.write_text("John X B-PER\nSmith X I-PER\n\nParis X O\n")
    code, out, _ = run(capsys, "score", str(gold), str(pred), "--format", "json")
    assert code == 0 and json.loads(out)["recall"] == 0.5
    code, out, _ = run(capsys, "score", str(gold), str(pred), "--mode", "strict", "--scheme", "BIO")
    assert code == 0 and "found: 1 phrases; correct: 1." in out


@pytest.mark.parametrize("pred_text,message", [
    ("John B-PER\nSmith I-PER\n", r"pred.txt, sentence 1: predictions hold 1 sentence, the "
                                   r"reference 2 sentences; after its last sentence, the "
                                   r"reference goes on at \S*gold.txt:4$"),
    ("John B-PER\nSmith I-PER\n\nParis B-LOC\nnow O\n",
     r"pred.txt:4, sentence 1: length mismatch: predictions have 2 tokens, the reference 1 token"),
    ("", r"pred.txt: the file is empty: no token in it"),
    ("John\nSmith I-PER\n\nParis O\n", r"pred.txt:1, sentence 0: 1 column, need at least 2"),
])
def test_bad_input_exit_code_2_naming_file_and_line(capsys, tmp_path, pred_text, message):
    gold = tmp_path / "gold.txt"
    gold.write_text("John B-PER\nSmith I-PER\n\nParis B-LOC\n")
    pred = tmp_path / "pred.txt"
    pred.write_text(pred_text)
    code, out, err = run(capsys, "score", str(gold), str(pred))
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert __import__("re").search(message, err), err


def test_strict_mode_refuses_tags_outside_the_scheme(capsys, tmp_path):
    path = tmp_path / "both.txt"
    path.write_text("a O O\n\nb S-PER O\n")
    code, _, err = run(capsys, "score", str(path), "--mode", "strict")
    assert code == 2 and "both.txt:3, sentence 1: gold tag 'S-PER' is not in the IOB2 scheme" in err


def test_missing_file(capsys):
    code, _, err = run(capsys, "score", "/nonexistent/gold.txt")
    assert code == 2 and "/nonexistent/gold.txt" in err


def generated_as_pred(tmp_path):
    """A gold file and a file of generated output (one "response" per sentence)."""
    gold, answers = tmp_path / "gold.txt", tmp_path / "answers.jsonl"
    gold.write_text("John B-PER\nSmith I-PER\n\nParis B-LOC\n", encoding="utf-8")
    answers.write_text('{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n',
                       encoding="utf-8")
    return gold, answers


@pytest.mark.parametrize("command", ["score", "report", "faireval"])
def test_generated_output_given_as_pred_names_generated(capsys, tmp_path, command):
    """A JSON Lines file of generated output in PRED's place is not read as a column
    file, by any command (the reader refuses it): the error names --generated, which
    reads it."""
    gold, answers = generated_as_pred(tmp_path)
    code, out, err = run(capsys, command, str(gold), str(answers))
    assert code == 2 and out == ""
    assert err.strip() == (f"nerlens: error: {answers}: holds generated output (a \"response\" "
                           f"per line), not tags: give it with generated= / --generated "
                           f"(nerlens score {gold} --generated {answers})")


def test_generated_output_given_as_pred_scored_with_generated(capsys, tmp_path):
    """The command the error names scores the file; as a scored file (--threshold) its
    reader takes generated output in PRED's place."""
    gold, answers = generated_as_pred(tmp_path)
    code, out, _ = run(capsys, "score", str(gold), "--generated", str(answers))
    assert code == 0 and "FB1:  66.67" in out
    # scored predictions: their reader takes generated output in PRED's place
    answers.write_text('{"response": "[]"}\n{"response": "[{\\"text\\": \\"Paris\\", '
                       '\\"type\\": \\"LOC\\", \\"score\\": 0.9}]"}\n', encoding="utf-8")
    code, out, _ = run(capsys, "score", str(gold), str(answers), "--threshold", "0.5")
    assert code == 0 and "FB1:  66.67" in out


def test_several_systems(capsys, tmp_path):
    gold = tmp_path / "gold.txt"
    gold.write_text("John B-PER\nSmith I-PER\n")
    for name, tags in (("a", "B-PER\nI-PER\n"), ("b", "B-PER\nO\n")):
        (tmp_path / f"{name}.txt").write_text(
            "".join(f"{w} {t}\n" for w, t in zip(("John", "Smith"), tags.split())))
    code, out, _ = run(capsys, "score", str(gold), str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                       "--format", "json")
    result = json.loads(out)
    assert code == 0 and result["a"]["f1"] == 1.0 and result["b"]["f1"] == 0.0


def test_real_system_file_matches_library(capsys):
    path = shared_path("data", "wnut17", "systems", "spacy_sm_mapped_1997.txt")
    code, out, _ = run(capsys, "score", str(path), "--format", "json")
    assert code == 0 and round(100 * json.loads(out)["f1"], 2) == 19.97  # the published F1 in its name
