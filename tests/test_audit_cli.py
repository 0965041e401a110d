"""``nerlens diff``, ``agreement`` and ``suspects``: the library's results through the
command line (the same numbers as ``nerspan.audit`` on the same tags), the input forms
of scoring, and bad input as one line naming its source."""
from __future__ import annotations

import json
import re

import pytest

import nerspan
from nerspan import Evaluation
from nerspan.audit import (agreement, agreement_parts, diff, diff_parts, in_sentence, suspects,
                           suspects_parts)
from nerlens.cli import main
from nerlens.report import blocks

WORDS = [["Ana", "Lima", "lives", "in", "Rio", "."], ["Rio", "beat", "Santos", "FC", "."],
         ["Lima", "and", "Rio", "won", "."]]
A = [["B-PER", "I-PER", "O", "O", "B-LOC", "O"], ["B-LOC", "O", "B-ORG", "I-ORG", "O"],
     ["B-PER", "O", "B-LOC", "O", "O"]]
B = [["B-PER", "O", "O", "O", "B-LOC", "O"], ["B-ORG", "O", "B-ORG", "O", "O"],
     ["B-LOC", "O", "B-LOC", "O", "B-MISC"]]
SYSTEMS = {"one": [["B-PER", "I-PER", "O", "O", "B-LOC", "O"],
                   ["B-ORG", "O", "B-ORG", "I-ORG", "O"], ["B-LOC", "O", "B-LOC", "O", "O"]],
           "two": [["B-PER", "I-PER", "O", "O", "B-ORG", "O"],
                   ["B-ORG", "O", "B-ORG", "I-ORG", "O"], ["B-LOC", "O", "B-LOC", "O", "O"]]}


def write(path, tags, words=WORDS):
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts))
                                for ws, ts in zip(words, tags)) + "\n", encoding="utf-8")
    return str(path)


def run(capsys, argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as usage:   # argparse's usage errors
        code = usage.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    return {"a": write(tmp_path / "a.txt", A), "b": write(tmp_path / "b.txt", B),
            **{name: write(tmp_path / f"{name}.txt", tags) for name, tags in SYSTEMS.items()}}


def test_diff_json_is_the_library_s_diff(files, capsys):
    code, out, err = run(capsys, ["diff", files["a"], files["b"], "--format", "json"])
    assert code == 0 and err == ""
    expected = diff(A, B, tokens=WORDS, names=(files["a"], files["b"])).to_dict()
    assert json.loads(out) == json.loads(json.dumps(expected))


def test_diff_text_counts_the_kinds_and_lists_the_changes(files, capsys):
    code, out, _ = run(capsys, ["diff", files["a"], files["b"]])
    result = diff(A, B, tokens=WORDS).to_dict()
    assert code == 0
    assert f"{result['changed_tags']} changed tags in " \
           f"{len(result['changed_tag_sentences'])} sentences" in out
    for change in result["changes"]:   # every change listed with its text
        assert change["text"] in out and change["kind"] in out
    kinds = {line.split()[0]: line.split()[1:3] for line in out.splitlines()
             if line.split()[:1] and line.split()[0] in result["kinds"]}
    for kind, count in result["kinds"].items():
        shown = [str(count["a"]) if kind != "added" else "-",
                 str(count["b"]) if kind != "removed" else "-"]
        assert kinds[kind] == shown, kind


def drawn(parts) -> str:
    return "\n\n".join(map(blocks.text, parts))


def test_the_text_views_are_the_library_s(files, capsys):
    """What the commands print is the library's view of the result (``*_parts``)."""
    both = nerspan.Corpus.from_tags(A, B, tokens=WORDS)
    for command, compare, parts in (("diff", diff, diff_parts),
                                    ("agreement", agreement, agreement_parts)):
        _, out, _ = run(capsys, [command, files["a"], files["b"]])
        result = compare(both, names=(files["a"], files["b"])).to_dict()
        assert out == drawn(parts(result)) + "\n"
    shown = diff(A, B, tokens=WORDS).to_dict()   # one change listed, the others counted
    assert drawn(diff_parts(shown, listed=1)).endswith(
        f"({len(shown['changes']) - 1} more changes in --format json)")
    corpus = nerspan.Corpus.from_tags(A, SYSTEMS["one"], tokens=WORDS)
    found = suspects(Evaluation(corpus).gold, {"one": Evaluation(corpus).spans("pred")},
                     corpus=corpus, min_systems=1).to_dict()
    text = drawn(suspects_parts(found, corpus.sentence_tokens))
    assert text.startswith(f"{found['candidates']} candidates")
    assert len(text.splitlines()) == 1 + 2 * len(found["suspects"])


def test_agreement_json_is_the_library_s_agreement(files, capsys):
    code, out, _ = run(capsys, ["agreement", files["a"], files["b"], "--format", "json"])
    expected = agreement(A, B, names=(files["a"], files["b"])).to_dict()
    assert code == 0 and json.loads(out) == json.loads(json.dumps(expected))
    code, out, _ = run(capsys, ["agreement", files["a"], files["b"]])
    assert f"{100 * expected['f1']:.2f}" in out and f"{100 * expected['kappa']:.2f}" in out


def test_a_file_holding_both_annotations_and_span_files_read_as_in_scoring(tmp_path, capsys,
                                                                          files):
    both = tmp_path / "both.txt"
    both.write_text("\n\n".join("\n".join(f"{w} {a} {b}" for w, a, b in zip(*row))
                                for row in zip(WORDS, A, B)) + "\n", encoding="utf-8")
    _, out, _ = run(capsys, ["diff", both, "--format", "json"])
    _, paired, _ = run(capsys, ["diff", files["a"], files["b"], "--format", "json"])
    assert json.loads(out)["kinds"] == json.loads(paired)["kinds"]
    spans = {}
    for side, tags in (("a", A), ("b", B)):
        corpus = nerspan.Corpus.from_tags(tags, tokens=WORDS)
        rows = nerspan.decode(corpus).to_list(corpus)
        spans[side] = tmp_path / f"{side}.jsonl"
        spans[side].write_text("".join(json.dumps({"tokens": w, "spans": [list(s[1:]) + [s[0]]
                                                                            for s in r]}) + "\n"
                                       for w, r in zip(WORDS, rows)), encoding="utf-8")
    code, out, err = run(capsys, ["diff", spans["a"], spans["b"], "--jsonl", "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["kinds"] == json.loads(paired)["kinds"]


def test_suspects_json_is_the_library_s_ranking(files, capsys, tmp_path):
    train = write(tmp_path / "train.txt", [["B-LOC", "O", "O", "O", "B-LOC", "O"]],
                  [WORDS[0]])
    code, out, err = run(capsys, ["suspects", files["a"], files["one"], files["two"],
                                  "--train", train, "--min-systems", "1", "--format", "json"])
    assert code == 0, err
    corpus = nerspan.Corpus.from_tags(A, tokens=WORDS, columns=SYSTEMS)
    index = nerspan.as_train_index(([WORDS[0]], [["B-LOC", "O", "O", "O", "B-LOC",
                                                          "O"]]))
    context = Evaluation(corpus, train=index)
    expected = suspects(context.gold, {n: context.spans(n) for n in SYSTEMS},
                        corpus=corpus, train=index, min_systems=1).to_dict()
    got = json.loads(out)
    assert got["suspects"] == json.loads(json.dumps(expected["suspects"]))
    assert got["suspects"], "the systems disagree with gold: there are suspects"
    code, text, _ = run(capsys, ["suspects", files["a"], files["one"], files["two"]])
    first = got["suspects"][0]
    assert code == 0 and f"sentence {first['sentence']}:" in text and "[" in text


def test_a_document_s_labels_are_evidence_when_the_file_has_documents(tmp_path, capsys,
                                                                      files):
    body = open(files["a"], encoding="utf-8").read().split("\n\n")
    gold = tmp_path / "docs.txt"
    gold.write_text("-DOCSTART- O\n\n" + body[0] + "\n\n-DOCSTART- O\n\n"
                    + "\n\n".join(body[1:]), encoding="utf-8")
    _, out, _ = run(capsys, ["suspects", gold, files["one"], files["two"], "--format", "json"])
    result = json.loads(out)
    assert result["options"]["documents"] is True
    assert all(row["surface"]["document"] is not None for row in result["suspects"])
    _, out, _ = run(capsys, ["suspects", files["a"], files["one"], files["two"],
                             "--format", "json"])
    assert json.loads(out)["options"]["documents"] is False   # one document: not known


def test_in_sentence_brackets_the_suspect():
    assert in_sentence(["a", "b"], 0, 1) == "[a] b"
    assert in_sentence(list("abcdefghij"), 8, 10, 3) == "... f g h [i j]"


BAD = {
    "generated": (["diff", "{a}", "--generated", "{llm}"],
                  r"column 'llm' holds generated output .* never generated output as a gold "
                  r"side; .*nerlens score GOLD --generated FILE.jsonl\)$"),
    "generated_agreement": (["agreement", "{a}", "{b}", "--generated", "{llm}"],
                            r"column 'llm' holds generated output grounded in the text: a "
                            r"diff or an agreement compares annotations of the same tokens"),
    "three": (["diff", "{a}", "{b}", "{one}"], r"unrecognized arguments: \S*one.txt"),
    "missing": (["agreement", "{a}", "{a}x"], r"\S*a.txtx: no such file$"),
    "token_mismatch": (["diff", "{a}", "{shifted}"],
                       r"shifted.txt:1, sentence 0: token 'Eva' differs from 'Ana' at "
                       r"\S*a.txt:1"),
    "bad_tag": (["diff", "{a}", "{badtag}"],
                r"badtag.txt:1, sentence 0: prediction tag 'PER' is not a tag"),
    "evidence": (["suspects", "{a}", "{one}", "--evidence", "systems,luck"],
                 r"error: argument --evidence: evidence must be parts among systems, surface, "
                 r"document, comma-separated, at least one; not 'systems,luck' \(see"),
    "min_systems": (["suspects", "{a}", "{one}", "--min-systems", "0"],
                    r"error: argument --min-systems: min_systems must be at least 1, not 0 \(see"),
    "listed": (["suspects", "{a}", "{one}", "--listed", "-1"],
               r"error: argument --listed: listed must be at least 0, not -1 \(see"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_naming_its_source(case, files, capsys, tmp_path):
    files = {**files, "shifted": write(tmp_path / "shifted.txt", B,
                                       [["Eva"] + WORDS[0][1:]] + WORDS[1:]),
             "badtag": write(tmp_path / "badtag.txt", [["PER"] + B[0][1:]] + B[1:]),
             "llm": tmp_path / "llm.jsonl"}
    files["llm"].write_text('{"response": "<PER>Ana</PER>"}\n' * len(WORDS), encoding="utf-8")
    argv, pattern = BAD[case]
    code, out, err = run(capsys, [arg.format(**files) for arg in argv])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.search(pattern, err), err


def test_suspects_weigh_a_scored_system_s_votes_by_its_confidences(files, capsys, tmp_path):
    """--scored FILE.jsonl: a system whose mentions carry confidences, as the library's
    ``suspects(..., confidences=...)`` takes them (one per mention, in its spans' order)."""
    corpus = nerspan.Corpus.from_tags(A, tokens=WORDS, columns=SYSTEMS)
    context = Evaluation(corpus)
    two = context.spans("two")
    confidence = [0.95, 0.2, 0.6, 0.85, 0.4, 0.7, 0.5][:len(two)]
    rows = [[] for _ in WORDS]
    for k, (start, end, sentence) in enumerate(zip(two.start, two.end, two.sentence)):
        offset = int(corpus.offsets[sentence])
        rows[sentence].append([int(start) - offset, int(end) - offset,
                               two.types[two.type[k]], confidence[k]])
    scored = tmp_path / "two.jsonl"
    scored.write_text("".join(json.dumps({"spans": r}) + "\n" for r in rows), encoding="utf-8")
    code, out, err = run(capsys, ["suspects", files["a"], files["one"], "--scored", scored,
                                  "--min-systems", "1", "--format", "json"])
    assert code == 0, err
    expected = suspects(context.gold, {"one": context.spans("one"), "two": two},
                        corpus=corpus, min_systems=1,
                        confidences={"two": confidence}).to_dict()
    got = json.loads(out)
    assert got == json.loads(json.dumps(expected))
    assert got["options"]["confidences"] == ["two"]
    assert any(row["systems"].get("confidence") is not None for row in got["suspects"])
    # unscored, the same mentions vote 1 each: another ranking
    plain = suspects(context.gold, {"one": context.spans("one"), "two": two},
                     corpus=corpus, min_systems=1).to_dict()
    assert [row["score"] for row in plain["suspects"]] != \
        [row["score"] for row in got["suspects"]]
    code, text, err = run(capsys, ["suspects", files["a"], files["one"], "--scored", scored,
                                   "--min-systems", "1"])
    assert code == 0 and "confidence up to" in text


def test_suspects_of_scored_systems_alone_and_bad_scores(files, capsys, tmp_path):
    scored = tmp_path / "llm.jsonl"
    scored.write_text("".join(json.dumps({"response": r}) + "\n" for r in (
        [{"text": "Ana", "type": "PER", "score": 0.9}],
        [{"text": "Rio", "type": "ORG", "score": 0.8}],
        [{"text": "Lima", "type": "LOC", "score": 0.7}])), encoding="utf-8")
    code, out, err = run(capsys, ["suspects", files["a"], "--scored", scored, "--min-systems",
                                  "1", "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["options"]["confidences"] == ["llm"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"spans": [[0, 2, "PER", 1.5]]}\n{"spans": []}\n{"spans": []}\n',
                   encoding="utf-8")
    code, out, err = run(capsys, ["suspects", files["a"], "--scored", bad])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert re.search(r"bad.jsonl:1, predictions, sentence 0: .*1.5 is not a confidence", err)
