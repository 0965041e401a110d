"""``faireval.read_files``: the one place that decides what form faireval's files are
(tags, FairEval span files, JSON Lines spans, generated output kept with
``overlaps="keep"``), for the API and ``nerlens faireval`` alike, with the same refusals."""
from __future__ import annotations

import json

import pytest

import faireval
from nerlens.cli import main

GOLD = "John NNP B-PER\nSmith NNP I-PER\n, $, O\nsaw VBD O\nParis NNP B-LOC\n\n"
TOKENS = [["John", "Smith", ",", "saw", "Paris"]]
POS = [["NNP", "NNP", "$,", "VBD", "NNP"]]
# the second entity takes the comma: kept, nested in the first, one token too long
KEPT = ['[["John Smith", "PER"], ["Smith ,", "PER"], ["Paris", "LOC"]]']


def run(capsys, args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path):
    (tmp_path / "gold.txt").write_text(GOLD, encoding="utf-8")
    (tmp_path / "llm.jsonl").write_text("".join(json.dumps({"response": r}) + "\n"
                                                for r in KEPT), encoding="utf-8")
    return str(tmp_path / "gold.txt"), str(tmp_path / "llm.jsonl")


def test_kept_generated_output_is_read_as_it_is_with_gold_s_pos_tags(tmp_path, capsys):
    gold, llm = write(tmp_path)
    options = faireval.FairevalOptions(ignore_punct=True)
    read = faireval.read_files(gold, [], [llm], inputs={"overlaps": "keep",
                                                        "gold_tag_column": 2},
                               options=options)
    assert read.corpus is None and read.systems == [] and read.pos == POS
    [one] = read.answers
    got = one.call(faireval.score, options=options, pos=read.pos).to_dict()
    api = faireval.score([["B-PER", "I-PER", "O", "O", "B-LOC"]], KEPT, tokens=TOKENS,
                         inputs={"overlaps": "keep"}, pos=POS, ignore_punct=True).to_dict()
    assert got["counts"] == api["counts"] and got["f1"] == api["f1"]
    # --ignore-punct with --overlaps keep: the POS column read, as the API's pos=
    code, out, err = run(capsys, ["faireval", gold, "--generated", llm, "--overlaps", "keep",
                                  "--ignore-punct", "--gold-tag-column", "2", "--format",
                                  "json"])
    assert code == 0, err
    assert json.loads(out)["counts"] == api["counts"] and "note: llm: " in err


@pytest.mark.parametrize("reading, inputs, keywords, message", [
    ({}, {"overlaps": "keep"}, {},
     r"overlaps='keep' \(--overlaps keep\) applies to generated output: give "
     r"generated=\[FILE.jsonl\]"),
    ({"span_files": True}, {}, {"options": {"ignore_punct": True}},
     r"ignore_punct \(--ignore-punct\) reads the POS tags of gold's column file"),
    ({}, {"overlaps": "keep"}, {"generated": ["llm.jsonl"], "confusion": True},
     r"confusion \(--confusion\) counts flat mentions, overlaps='keep' \(--overlaps keep\)"),
])
def test_what_the_files_cannot_give_is_refused_naming_keyword_and_flag(
        tmp_path, reading, inputs, keywords, message):
    gold, _ = write(tmp_path)
    with pytest.raises(ValueError, match=message):
        faireval.read_files(gold, [gold], reading=reading, inputs=inputs, **keywords)


def test_span_files_with_confusion_name_the_system_after_its_file(tmp_path, capsys):
    # the matrix's evaluation holds the predictions as its "pred" column; the result is
    # still the file's (it failed: no system 's')
    (tmp_path / "t.spans").write_text("PER\t1\t2\t1, 2\nLOC\t4\t4\t4\n\n", encoding="utf-8")
    (tmp_path / "s.spans").write_text("PER\t1\t1\t1\nLOC\t4\t4\t4\n\n", encoding="utf-8")
    code, out, err = run(capsys, ["faireval", "--spans", tmp_path / "t.spans",
                                  tmp_path / "s.spans", "--confusion", "--format", "json"])
    assert code == 0, err
    result = json.loads(out)
    assert result["counts"]["BEs"] == 1 and result["confusion"] == {"LOC": {"LOC": 1}}
