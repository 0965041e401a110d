"""Scored predictions on the command line (issue 40): ``nerlens score --threshold T`` gives
``nerspan.score(..., inputs={"threshold": T})`` of the same files (scored span files,
generated output with a score per entity), and ``nerlens sweep --generated FILE.jsonl``
gives ``nerspan.sweep`` of that output."""
from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import nerspan
from nerspan import Corpus, read_columns, read_span_jsonl
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_scored

GOLD = "John B-PER\nSmith I-PER\nsaw O\nParis B-LOC\n\nAda B-PER\nmet O\nBob B-PER\n\nOslo B-LOC\n"
WORDS = [["John", "Smith", "saw", "Paris"], ["Ada", "met", "Bob"], ["Oslo"]]
GOLD_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "O", "B-PER"], ["B-LOC"]]
SPANS = [[[0, 2, "PER", 0.9], [3, 4, "PER", 0.55]], [[0, 1, "PER", 0.7], [2, 3, "PER", 0.3]],
         [[0, 1, "LOC", 0.45]]]
# a score per entity; "Zed" is found nowhere (a wrong prediction where it is kept), and
# one response is a dict from type to entities
RESPONSES = [[{"text": "John Smith", "type": "PER", "score": 0.9},
              {"text": "Paris", "type": "PER", "score": 0.55}],
             [{"text": "Ada", "type": "PER", "score": 0.7},
              {"text": "Bob", "type": "PER", "score": 0.3},
              {"text": "Zed", "type": "LOC", "score": 0.8}],
             {"LOC": [{"text": "Oslo", "score": 0.45}]}]
THRESHOLDS = [0.0, 0.3, 0.45, 0.5, 0.7, 0.9, 1.0]


def write_lines(path, key: str, values: list) -> str:
    path.write_text("".join(json.dumps({key: value}) + "\n" for value in values),
                    encoding="utf-8")
    return str(path)


@pytest.fixture
def paths(tmp_path) -> dict:
    (tmp_path / "gold.txt").write_text(GOLD, encoding="utf-8")
    span_gold = tmp_path / "gold.jsonl"
    span_gold.write_text("".join(
        json.dumps({"tokens": words, "spans": spans}) + "\n" for words, spans in zip(
            WORDS, [[[0, 2, "PER"], [3, 4, "LOC"]], [[0, 1, "PER"], [2, 3, "PER"]],
                    [[0, 1, "LOC"]]])), encoding="utf-8")
    return {"gold": str(tmp_path / "gold.txt"), "span_gold": str(span_gold),
            "pred": write_lines(tmp_path / "pred.jsonl", "spans", SPANS),
            "llm": write_lines(tmp_path / "llm.jsonl", "response", RESPONSES)}


def run(capsys, args: list) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def plain(value):
    return json.loads(json.dumps(value))


def api_score(predictions, threshold: float, **inputs) -> dict:
    corpus = Corpus.from_tags(GOLD_TAGS, tokens=WORDS)
    result = nerspan.score(corpus, predictions,
                           inputs={"threshold": threshold, **inputs}).to_dict()
    assert result["options"]["threshold"] == threshold   # the API names it, as the CLI
    return plain(result)


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_threshold_on_a_span_file_is_nerspan_score_at_it(paths, capsys, threshold):
    code, out, err = run(capsys, ["score", paths["gold"], paths["pred"], "--threshold",
                                  threshold, "--format", "json"])
    assert code == 0, err
    assert json.loads(out) == api_score(SPANS, threshold)
    # and the same with a span file as GOLD (--jsonl)
    code, out, err = run(capsys, ["score", "--jsonl", paths["span_gold"], paths["pred"],
                                  "--threshold", threshold, "--format", "json"])
    assert code == 0, err
    assert json.loads(out) == api_score(SPANS, threshold)


@pytest.mark.parametrize("threshold", THRESHOLDS)
def test_threshold_on_generated_output_is_nerspan_score_at_it(paths, capsys, threshold):
    code, out, err = run(capsys, ["score", paths["gold"], "--generated", paths["llm"],
                                  "--threshold", threshold, "--format", "json"])
    assert code == 0, err
    assert json.loads(out) == api_score(RESPONSES, threshold)
    assert "llm: 5 of 6 entities usable" in err


@settings(max_examples=25, deadline=None)
@given(st.floats(0, 1))
def test_every_threshold_keeps_what_the_curve_keeps(threshold):
    """The CLI's numbers at T are the sweep's curve at T (each mention kept at >= T)."""
    with tempfile.TemporaryDirectory() as folder:
        gold = Path(folder) / "gold.txt"
        gold.write_text(GOLD, encoding="utf-8")
        pred = write_lines(Path(folder) / "pred.jsonl", "spans", SPANS)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["score", str(gold), pred, "--threshold", repr(threshold),
                         "--format", "json"]) == 0
    result = json.loads(out.getvalue())
    assert (result["correct"], result["predicted"], result["gold"]) == \
        nerspan.sweep(GOLD_TAGS, SPANS).counts_at(threshold)


def test_several_files_and_the_text_view(paths, capsys):
    code, out, err = run(capsys, ["score", paths["gold"], paths["pred"], "--generated",
                                  paths["llm"], "--threshold", "0.5", "--beta", "2"])
    assert code == 0, err
    expected = {"pred": api_score(SPANS, 0.5), "llm": api_score(RESPONSES, 0.5)}
    for name, result in expected.items():
        section = out.split(f"== {name}\n")[1]
        assert section.startswith(
            f"kept the mentions of confidence >= 0.5: {result['gold']} phrases; found: "
            f"{result['predicted']} phrases; correct: {result['correct']}.\n"
            f"precision: {100 * result['precision']:6.2f}%; recall: "
            f"{100 * result['recall']:6.2f}%; FB1: {100 * result['f1']:6.2f}; F2:")


def test_type_flags_process_the_kept_mentions_as_the_api_does(paths, capsys):
    code, out, err = run(capsys, ["score", paths["gold"], paths["pred"], "--threshold", "0.5",
                                  "--type-map", "PER=LOC", "--format", "json"])
    assert code == 0
    assert json.loads(out) == api_score(SPANS, 0.5, type_map={"PER": "LOC"})
    assert "note: 3 mentions of pred retyped, 0 dropped (--type-map" in err


def test_the_demo_at_a_threshold_is_the_demo_sweep_at_it(capsys):
    code, out, err = run(capsys, ["score", "--demo", "--threshold", "0.5", "--format", "json"])
    assert code == 0, err
    gold = read_columns(demo_gold(), {"gold": -1})
    scored = read_span_jsonl(next(iter(demo_scored().values())))["spans"]
    expected = nerspan.score(gold, scored, inputs={"threshold": 0.5}).to_dict()
    result = json.loads(out)
    assert (result["correct"], result["predicted"], result["gold"]) == \
        (expected["correct"], expected["predicted"], expected["gold"]) == \
        nerspan.sweep(gold, scored).counts_at(0.5)


@pytest.mark.parametrize("flags, message", [
    (["--threshold", "0.5", "--confusion"], r"--confusion does not apply to scored "
                                            r"predictions kept at --threshold: leave it out"),
    (["--threshold", "0.5", "--error-counts", "--confusion"],
     r"--error-counts and --confusion do not apply .*: leave them out"),
])
def test_bad_threshold_flags(paths, capsys, flags, message):
    code, out, err = run(capsys, ["score", paths["gold"], paths["pred"], *flags])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.search(message, err), err


def test_sweep_of_generated_output_is_nerspan_sweep(paths, capsys):
    code, out, err = run(capsys, ["sweep", paths["gold"], "--generated", paths["llm"],
                                  "--format", "json"])
    assert code == 0, err
    corpus = Corpus.from_tags(GOLD_TAGS, tokens=WORDS)
    assert json.loads(out) == plain(nerspan.sweep(corpus, RESPONSES).to_dict())
    # chosen on a dev split of generated output too
    code, out, err = run(capsys, ["sweep", paths["gold"], "--generated", paths["llm"],
                                  "--choose-on", paths["gold"], paths["llm"], "--per-type",
                                  "--format", "json"])
    assert code == 0, err
    expected = nerspan.sweep(corpus, RESPONSES, choose_on=(corpus, RESPONSES), per_type=True)
    assert json.loads(out) == plain(expected.to_dict())


def test_sweep_text_of_generated_output(paths, capsys):
    code, out, err = run(capsys, ["sweep", paths["gold"], "--generated", paths["llm"]])
    assert code == 0, err
    sweep = nerspan.sweep(Corpus.from_tags(GOLD_TAGS, tokens=WORDS), RESPONSES)
    p, r, f1 = sweep.at(0.5).micro()
    row = next(line for line in out.splitlines() if line.startswith("threshold 0.5"))
    assert row.split()[3:6] == [f"{100 * p:.2f}", f"{100 * r:.2f}", f"{100 * f1:.2f}"]
    assert "found nowhere" in out


@pytest.mark.parametrize("command", [
    ["score", "{gold}", "{pred}", "--threshold", "0.5"], ["sweep", "{gold}", "{pred}"],
    ["report", "{gold}", "--scored", "{pred}"]])
@pytest.mark.parametrize("case, message", [
    ("tags", r"{pred}: not a JSON Lines span file whose spans carry a \"score\"; a tag file "
             r"carries no confidence: score (its tags|it without)"),
    ("short", r"{pred}: 2 lines of spans, but \S*gold\S* holds 3 sentences: one line is "
              r"needed per sentence"),
])
def test_every_reader_of_scored_span_files_refuses_alike(paths, capsys, command, case,
                                                         message):
    """One reader (``nerspan.reading.systems.read_scored_spans``) behind --threshold,
    sweep and --scored (and a family's --threshold, tests/test_cli_threshold_families.py):
    a tag file and a file short of gold's sentences are refused with the same words,
    naming the file."""
    pred = paths["gold"] if case == "tags" else paths["pred"]
    if case == "short":
        write_lines(Path(pred), "spans", SPANS[:2])
    code, out, err = run(capsys, [arg.format(**{**paths, "pred": pred}) for arg in command])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.search(message.replace("{pred}", re.escape(pred)), err), err


@pytest.mark.parametrize("text, form", [
    ("John B-PER\n", "columns"), ('{"spans": [[0, 1, "PER", 0.5]]}\n', "spans"),
    ('\n\ufeff{"response": []}\n', "generated"), ('{"response": [], "spans": []}\n', "spans"),
    ("", "spans"), ("{nope\n", "spans"), ('{ "spans": [\n', "spans"),
    ("{\tO\nhi\tO\n", "columns"), ("{ PUNCT O\n", "columns")])
def test_the_form_of_a_prediction_file_is_told_by_its_first_line(tmp_path, text, form):
    path = tmp_path / "pred.jsonl"
    path.write_text(text, encoding="utf-8")
    assert nerspan.reading.systems.file_form(path) == form
