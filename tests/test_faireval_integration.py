"""faireval through evaluate, the CLI and the Space app."""
from __future__ import annotations

import doctest
import importlib.util
import json
import sys

import pytest

import faireval
from nerlens.cli import main

from .conftest import REPO, shared_path

REFERENCES = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "I-ORG", "O", "B-MISC"]]
PREDICTIONS = [["B-PER", "O", "O", "B-ORG", "O"], ["B-ORG", "I-ORG", "I-ORG", "O"]]


@pytest.fixture(scope="module")
def metric():
    evaluate = pytest.importorskip("evaluate")
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.chdir(REPO)
    yield evaluate.load("metrics/faireval")
    monkeypatch.undo()


def test_evaluate_module_computes_what_score_computes(metric):
    for options in ({}, {"weights": "weighted", "focus": "system", "confusion_tp": True}):
        got = metric.compute(predictions=PREDICTIONS, references=REFERENCES, **options)
        assert got == faireval.score(REFERENCES, PREDICTIONS, **options).to_dict()
    assert set(got) >= {"traditional_f1", "fair_f1", "weight_table_f1", "counts", "per_type",
                        "error_confusion"}
    assert all(0.0 <= v <= 1.0 for v in got.values() if isinstance(v, float))


def test_evaluate_module_docstring_examples_run(metric, monkeypatch):
    monkeypatch.chdir(REPO)
    module = sys.modules[type(metric).__module__]
    test = doctest.DocTestParser().get_doctest(module._KWARGS_DESCRIPTION, {}, "kwargs", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False) == (0, len(test.examples))
    assert len(test.examples) >= 5


def test_space_app_builds_and_computes_the_example():
    pytest.importorskip("gradio")
    spec = importlib.util.spec_from_file_location("faireval_app", REPO / "metrics" / "faireval" / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)
    result = app.demo.example_result()
    assert app.demo.family == "faireval" and isinstance(result["fair_f1"], float)
    assert "weight_table_f1" not in result   # weights "none" by default
    assert "weight_table_f1" in app.demo.example_result({"weights": "weighted"})
    assert result["counts"]["LE"] == 1 and result["counts"]["BEs"] == 2
    # the page: the sentences with the error kinds' legend, the family's tables
    page = app.demo.example_page()
    assert "wrong label (LE)" in page and "Acme" in page and "Error" not in page


def test_metric_card_header_and_sections():
    text = (REPO / "metrics" / "faireval" / "README.md").read_text()
    header = text.split("---")[1]
    for field in ("title:", "emoji:", "colorFrom:", "colorTo:", "sdk: gradio",
                  "sdk_version: 6.31.0", "app_file: app.py", "pinned: false", "- evaluate",
                  "- metric", "description:"):
        assert field in header
    for section in ("## Metric description", "## How to use", "## Inputs", "## Output values",
                    "## Examples", "## Limitations and bias", "## Citation"):
        assert section in text
    result = doctest.testfile(str(REPO / "metrics" / "faireval" / "README.md"),
                              module_relative=False)
    assert result.attempted > 0 and result.failed == 0
    assert (REPO / "metrics" / "faireval" / "requirements.txt").read_text().split() == [
        "nerlens", "gradio"]


# -- CLI ---------------------------------------------------------------------------------
def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def column_file(tmp_path):
    path = tmp_path / "both.txt"
    path.write_text("a NN B-PER B-PER\nb NN I-PER O\n, $, O O\nc NE B-LOC B-ORG\n\n"
                    "( $( B-ORG B-ORG\nd NE I-ORG I-ORG\n) $( I-ORG O\n")
    return path


def test_cli_json_has_compute_keys(capsys, column_file):
    code, out, _ = run(capsys, "faireval", str(column_file), "--format", "json",
                       "--weights", "weighted", "--focus", "system")
    assert code == 0
    got = json.loads(out)
    refs = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "I-ORG"]]
    preds = [["B-PER", "O", "O", "B-ORG"], ["B-ORG", "I-ORG", "O"]]
    expected = faireval.score(refs, preds, weights="weighted", focus="system").to_dict()
    assert got == json.loads(json.dumps(expected))
    assert got["counts"]["BEs"] == 2 and got["counts"]["LE"] == 1


def test_cli_ignore_punct_labels_and_table(capsys, column_file):
    code, out, _ = run(capsys, "faireval", str(column_file), "--format", "json",
                       "--ignore-punct")
    assert code == 0
    # ORG(0,3) over "( d )" shrinks to (1,2) and equals the system's ORG(0,2) shrunk
    assert json.loads(out)["counts"]["TP"] == 1
    code, out, _ = run(capsys, "faireval", str(column_file), "--labels", "PER",
                       "--confusion-tp")
    assert code == 0
    assert "FairEval scores" in out and ": confusion of errors" in out
    assert "ORG" not in out and "overall" in out


def test_cli_span_files(capsys, tmp_path):
    target, system = tmp_path / "target.csv", tmp_path / "system.csv"
    target.write_text("PER\t1\t2\t1, 2\n\nNONE\t999\t999\t999\n\n")
    system.write_text("PER\t2\t2\t2\n\nLOC\t1\t1\t1\n\n")
    code, out, _ = run(capsys, "faireval", "--spans", str(target), str(system),
                       "--format", "json")
    assert code == 0
    assert json.loads(out)["counts"] == {"TP": 0, "FP": 1, "FN": 0, "LE": 0, "BE": 1,
                                         "BEs": 1, "BEl": 0, "BEo": 0, "LBE": 0}


def test_span_lists_and_span_files_take_the_type_options(capsys, tmp_path):
    """The type options apply to span lists scored as they are (the API, --spans), as
    they do to tags: mapped and dropped mentions counted in repairs, a type named that
    no span has refused."""
    gold, pred = [[("PER", 0, 2)], [("LOC", 0, 1)]], [[("PERSON", 0, 2)], [("LOC", 0, 1)]]
    assert faireval.score(gold, pred).to_dict()["counts"]["LE"] == 1
    mapped = faireval.score(gold, pred, inputs={"type_map": {"PERSON": "PER"}}).to_dict()
    assert mapped["counts"]["TP"] == 2 and mapped["repairs"]["pred"]["types_mapped"] == 1
    kept = faireval.score(gold, pred, inputs={"keep_types": ["LOC"]}).to_dict()
    assert kept["counts"]["TP"] == 1 and kept["repairs"]["gold"]["types_removed"] == 1
    target, system = tmp_path / "target.csv", tmp_path / "system.csv"
    target.write_text("PER\t1\t2\t1, 2\n\nLOC\t1\t1\t1\n\n")
    system.write_text("PERSON\t1\t2\t1, 2\n\nLOC\t1\t1\t1\n\n")
    code, out, _ = run(capsys, "faireval", "--spans", str(target), str(system),
                       "--type-map", "PERSON=PER", "--format", "json")
    assert code == 0 and json.loads(out)["counts"]["TP"] == 2
    code, _, err = run(capsys, "faireval", "--spans", str(target), str(system),
                       "--keep-types", "ORG")
    assert code == 2 and "kept type 'ORG' occurs in no tag" in err
    for path, sides in ((target, gold), (system, pred)):   # JSON Lines span files too
        path.write_text("".join(json.dumps({"spans": [{"label": t, "start": a, "end": b}
                                                       for t, a, b in spans]}) + "\n"
                                for spans in sides))
    code, out, _ = run(capsys, "faireval", "--jsonl", str(target), str(system),
                       "--type-map", "PERSON=PER", "--format", "json")
    assert code == 0 and json.loads(out)["counts"]["TP"] == 2


def test_cli_labels_named_fp_and_fn_stay_apart_from_the_unmatched_spans(capsys, tmp_path):
    target, system = tmp_path / "target.csv", tmp_path / "system.csv"
    target.write_text("FP\t1\t1\t1\nFN\t2\t2\t2\n\n")   # FP labelled FN: an LE
    system.write_text("FN\t1\t1\t1\n\n")                  # FN(2,2) is missed: an FN
    code, out, _ = run(capsys, "faireval", "--spans", str(target), str(system))
    assert code == 0
    table = out.split(": confusion of errors\n")[1].split("\nRows: ")[0]
    assert [line.split("  ")[0].strip() for line in table.splitlines()] == [
        "target \\ system", "-------------------", "FN", "FP", "no target span (FP)"]
    assert [line.split()[-3:] for line in table.splitlines()[2:]] == [
        ["0", "0", "1"], ["1", "0", "0"], ["0", "0", "-"]]
    code, out, _ = run(capsys, "faireval", "--spans", str(target), str(system),
                       "--format", "json")
    # the matrix's non-zero cells only; FN and FP give every label
    assert json.loads(out)["error_confusion"] == {"matrix": {"FP": {"FN": 1}},
                                                  "FN": {"FN": 1, "FP": 0},
                                                  "FP": {"FN": 0, "FP": 0}}


def test_cli_published_ner_table(capsys):
    target = shared_path("data", "faireval", "target", "ner_spans.csv")
    system = shared_path("data", "faireval", "system", "ner_spans.csv")
    code, out, _ = run(capsys, "faireval", "--spans", str(target), str(system))
    assert code == 0
    lines = out.splitlines()
    # the published traditional (the entity scores) and fair scores
    assert any(l.split()[1:] == ["86.66", "83.51", "85.05"] for l in lines)
    assert any(l.split()[1:] == ["fair", "90.42", "87.23", "88.80"] for l in lines)


def test_cli_errors_exit_2_with_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("PER\t3\t2\t\n")
    code, _, err = run(capsys, "faireval", "--spans", str(bad), str(bad))
    assert code == 2 and "bad.csv:1" in err and "before begin" in err
    assert len(err.strip().splitlines()) == 1
    good = tmp_path / "good.csv"
    good.write_text("PER\t1\t2\t1, 2\n")
    with pytest.raises(SystemExit) as exited:   # read as the flag is (faireval.read_weights)
        run(capsys, "faireval", "--spans", str(good), str(good), "--weights", "odd")
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "argument --weights: weights must be a preset" in err
    with pytest.raises(SystemExit) as exited:   # refused by the field's check as read
        run(capsys, "faireval", "--spans", str(good), str(good), "--weights",
            '{"LE": [0, -1, 1]}')
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "argument --weights: " in err and "negative" in err
    code, _, err = run(capsys, "faireval", "--spans", str(good), str(good), "--weights",
                       '{"TP": [1e308, 1e308, 0]}')
    assert code == 2 and "weights: the weighted TP + FP + FN" in err and "too large" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("old", ["fair", "traditional"])
def test_cli_weights_that_chose_the_headline_are_refused(capsys, column_file, old):
    # deprecated in 0.1, refused in 0.2 with one line saying to leave --weights out
    with pytest.raises(SystemExit) as exited:   # refused by the field's check as read
        run(capsys, "faireval", str(column_file), "--format", "json", "--weights", old)
    out, err = capsys.readouterr()
    assert exited.value.code == 2 and out == "" and err.startswith(
        f"nerlens faireval: error: argument --weights: weights={old!r} chose the headline")
    assert len(err.strip().splitlines()) == 1 and "leave weights out" in err
    code, plain, _ = run(capsys, "faireval", str(column_file), "--format", "json")
    assert code == 0 and json.loads(plain)["options"]["weights"] is None


def test_cli_text_names_the_weight_table_scores(capsys, column_file):
    code, out, _ = run(capsys, "faireval", str(column_file), "--weights", "weighted")
    assert code == 0 and "weight table (--weights)" in out and " fair " in out
