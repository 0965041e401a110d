"""``--jsonl`` span files and ``faireval --schemas semeval`` on the command line."""
from __future__ import annotations

import json

import pytest

from nerlens.cli import main

TOKENS = [["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London"], ["Paris", "is", "far"]]
GOLD_TAGS = [["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC"], ["B-LOC", "O", "O"]]
PRED_TAGS = [["B-PER", "I-PER", "O", "O", "O", "O", "B-ORG"], ["O", "O", "O"]]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        json.dumps({"tokens": TOKENS[0], "spans": [[0, 2, "PER"], [3, 5, "PER"], [6, 7, "LOC"]]})
        + "\n" + json.dumps({"text": "Paris is far", "spans": [[0, 1, "LOC"]]}) + "\n")
    system = tmp_path / "system.jsonl"   # a pipeline's grouped output: character offsets
    system.write_text(json.dumps({"spans": [
        {"entity_group": "PER", "start": 0, "end": 12, "word": "Ada Lovelace", "score": 0.9},
        {"entity_group": "ORG", "start": 36, "end": 42, "word": "London", "score": 0.5}]})
        + "\n" + json.dumps({"spans": []}) + "\n")
    columns = tmp_path / "both.txt"
    columns.write_text("\n\n".join("\n".join(f"{t} {g} {p}" for t, g, p in zip(*s))
                                   for s in zip(TOKENS, GOLD_TAGS, PRED_TAGS)) + "\n")
    return dict(gold=gold, system=system, columns=columns, tmp=tmp_path)


@pytest.mark.parametrize("command", ["score", "faireval"])
def test_jsonl_spans_score_like_the_column_file(capsys, files, command):
    code, by_spans, _ = run(capsys, command, "--jsonl", files["gold"], files["system"],
                            "--format", "json")
    assert code == 0
    code, by_tags, _ = run(capsys, command, files["columns"], "--format", "json")
    assert code == 0
    by_spans, by_tags = json.loads(by_spans), json.loads(by_tags)
    by_tags.pop("accuracy", None), by_spans.pop("accuracy", None)
    assert by_spans == by_tags


def test_faireval_schemas_semeval(capsys, files):
    code, out, _ = run(capsys, "faireval", "--jsonl", files["gold"], files["system"],
                       "--schemas", "semeval", "--format", "json")
    semeval = json.loads(out)["semeval"]
    assert code == 0 and list(semeval) == ["strict", "exact", "partial", "ent_type"]
    strict = semeval["strict"]
    assert (strict["correct"], strict["incorrect"], strict["missed"], strict["possible"],
            strict["actual"]) == (1, 1, 2, 4, 2)
    code, out, _ = run(capsys, "faireval", files["columns"], "--schemas", "strict")
    assert code == 0 and "SemEval-2013 schemas" in out and "spurious" in out


def test_jsonl_errors_are_one_line(capsys, files):
    bad = files["tmp"] / "bad.jsonl"
    bad.write_text('{"spans": []}\n{"spans": [[0, 2]]}\n')
    code, out, err = run(capsys, "score", "--jsonl", files["gold"], bad)
    assert code == 2 and not out
    assert err.strip().endswith("a span must be (start, end, label), (label, start, end) or "
                                "a dict, got (0, 2)") and "sentence 1" in err
    bad.write_text('{"spans": []}\nnot json\n')
    code, _, err = run(capsys, "score", "--jsonl", files["gold"], bad)
    assert code == 2 and f"{bad}:2, sentence 1: not JSON" in err
    code, _, err = run(capsys, "score", "--jsonl", "--scheme", "IOBES", files["gold"],
                       files["system"])
    assert code == 2 and "spans (--jsonl) are scored as IOB2 tags" in err


def test_jsonl_snap_is_counted(capsys, files):
    files["system"].write_text(json.dumps({"spans": [
        {"entity_group": "PER", "start": 0, "end": 7, "word": "Ada Lov", "score": 0.9}]})
        + "\n" + json.dumps({"spans": []}) + "\n")
    code, _, err = run(capsys, "score", "--jsonl", files["gold"], files["system"])
    assert code == 2 and "does not fall on token boundaries" in err
    code, out, err = run(capsys, "score", "--jsonl", "--snap", files["gold"], files["system"])
    assert code == 0 and "1 span of pred widened to token boundaries" in err


def test_report_reads_jsonl(capsys, files):
    train = files["tmp"] / "train.txt"
    train.write_text("Ada B-PER\nmet O\nParis B-LOC\n")
    code, out, _ = run(capsys, "report", "--jsonl", files["gold"], files["system"],
                       "--train", train, "--bootstrap", 10, "--output", files["tmp"] / "out",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["results"]["system"]["entity"]["correct"] == 1
    assert data["results"]["system"]["faireval"]["semeval"]["strict"]["correct"] == 1
    assert "faireval.semeval.partial.f1" in data["estimates"]["system"]
