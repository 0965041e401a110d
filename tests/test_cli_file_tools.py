"""The file tools on the command line (validate, repair, convert, count, summarize,
score --error-counts) against seqscore's command line (a test-only dependency) on random
files with invalid transitions, and against the library functions they print."""
from __future__ import annotations

import contextlib
import io
import json
import random
import re

import pytest

from nerlens.cli import main
from nerspan.counts import error_counts, summarize
from nerspan.encodings import repair
from nerspan.validation import validate

pytest.importorskip("seqscore")
from click.testing import CliRunner  # noqa: E402
from seqscore.scripts import seqscore as seqscore_cli  # noqa: E402

from tests.test_encodings import (PEER_NAMES, SCHEMES, WORDS, file_tags,  # noqa: E402
                                  random_corpus, write_file)


def nerlens(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def nerlens_json(*argv):
    code, out, err = nerlens(*argv, "--format", "json")
    assert code in (0, 1), err
    return json.loads(out)


def seqscore(command, *args, code=0):
    result = CliRunner().invoke(command, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def random_file(tmp_path, name, scheme, seed, corrupt=0.2, sentences=80):
    rnd = random.Random(f"{name}{scheme}{seed}")
    return write_file(tmp_path / name, random_corpus(rnd, scheme, sentences, corrupt=corrupt),
                      rnd)


@pytest.mark.parametrize("scheme", ["IOB1", "IOB2", "IOBES", "BILOU"])
def test_validate(tmp_path, scheme):
    path = random_file(tmp_path, "in.txt", scheme, 1)
    code, out, _ = nerlens("validate", path, "--scheme", scheme)
    result = nerlens_json("validate", path, "--scheme", scheme)
    expected = validate(path, scheme)
    assert code == 1 and not result["valid"] and expected.problems
    assert result["errors"] == [problem.to_dict() for problem in expected.problems]
    assert all({"file", "line", "token", "rule"} <= set(e) and e["line"] for e in result["errors"])
    assert out.splitlines()[:-1] == expected.messages()
    # seqscore finds as many problems, and fails as well
    theirs = seqscore(seqscore_cli.validate, "--labels", PEER_NAMES[scheme], path, code=1)
    assert f"Encountered {len(expected.problems)} errors in {expected.tokens} tokens, " \
           f"{expected.sentences} sequences, and {result['documents']} document(s)" in theirs
    assert len([line for line in theirs.splitlines()[1:] if line.strip()]) == \
        len(expected.problems)  # one line per problem
    valid = random_file(tmp_path, "valid.txt", scheme, 1, corrupt=0.0)
    assert nerlens("validate", valid, "--scheme", scheme)[0] == 0


@pytest.mark.parametrize("scheme,method", [("IOB2", "conlleval"), ("IOB2", "discard"),
                                           ("IOB1", "conlleval")])
def test_repair_equals_seqscore(tmp_path, scheme, method):
    path = random_file(tmp_path, "in.txt", scheme, 2)
    result = nerlens_json("repair", path, tmp_path / "ours.txt", "--scheme", scheme,
                          "--method", method)
    seqscore(seqscore_cli.repair, "--labels", PEER_NAMES[scheme], "--repair-method", method,
             "-q", path, tmp_path / "theirs.txt")
    assert file_tags(tmp_path / "ours.txt") == file_tags(tmp_path / "theirs.txt")
    assert result["changes"] and all(c["line"] and c["tag"] != c["repaired"]
                                     for c in result["changes"])
    code, out, _ = nerlens("repair", path, tmp_path / "again.txt", "--scheme", scheme,
                           "--method", method)
    assert code == 0 and len(out.splitlines()) == len(result["changes"])


# to IO: nerlens refuses adjacent mentions of one type where seqscore merges them, and
# merges them as seqscore does with --lossy
PEER_PAIRS = [(a, b) for a in PEER_NAMES for b in PEER_NAMES if a != b]


@pytest.mark.parametrize("source,target", PEER_PAIRS[::3] + [("IOB2", "IO"), ("BILOU", "IO")])
def test_convert_equals_seqscore(tmp_path, source, target):
    path = random_file(tmp_path, "in.txt", source, 3, corrupt=0.0)
    lossy = ["--lossy"] if target == "IO" else []
    assert nerlens("convert", path, tmp_path / "ours.txt", "--from", source, "--to",
                   target, *lossy)[0] == 0
    seqscore(seqscore_cli.convert, "--input-labels", PEER_NAMES[source], "--output-labels",
             PEER_NAMES[target], path, tmp_path / "theirs.txt")
    assert file_tags(tmp_path / "ours.txt") == file_tags(tmp_path / "theirs.txt")


@pytest.mark.parametrize("source", SCHEMES)
def test_convert_round_trips_through_every_scheme(tmp_path, source):
    path = random_file(tmp_path, "in.txt", source, 4, corrupt=0.0)
    for target in SCHEMES:
        there, back = tmp_path / f"{target}.txt", tmp_path / f"{target}.back.txt"
        code, _, err = nerlens("convert", path, there, "--from", source, "--to", target)
        if code:  # only IO refuses: it cannot part adjacent mentions of one type
            assert target == "IO" and "IO cannot write the" in err and "Traceback" not in err
            continue
        assert nerlens("convert", there, back, "--from", target, "--to", source)[0] == 0
        assert file_tags(back) == file_tags(path), (source, target)


def test_convert_to_io_names_the_place(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("Ann B-PER\nBob B-PER\n", encoding="utf-8")
    code, _, err = nerlens("convert", path, tmp_path / "out.txt", "--from", "IOB2", "--to",
                           "IO")
    assert code == 2 and "in.txt:2" in err and "adjacent mentions of one type" in err


def test_writing_over_the_file_read_is_refused(tmp_path):
    """repair and convert read IN as they write OUT: OUT the same file would empty it."""
    path = tmp_path / "in.txt"
    path.write_text("Ann I-PER\nran O\n", encoding="utf-8")
    code, _, err = nerlens("repair", path, path)
    assert code == 2 and err.strip().endswith("write to another file"), err
    with pytest.raises(ValueError, match=r"in.txt: the file read is .*in.txt; write to"):
        repair(str(path), "IOB2").write(path)   # the library refuses it, not only the CLI
    assert path.read_text(encoding="utf-8") == "Ann I-PER\nran O\n"


def test_count_and_summarize_equal_seqscore(tmp_path):
    paths = [random_file(tmp_path, f"f{i}.txt", "IOB2", 5 + i, corrupt=0.0) for i in range(2)]
    rows = nerlens_json("count", *paths)
    theirs = [line.split("\t") for line in seqscore(seqscore_cli.count, "-q",
                                                     *paths).splitlines()]
    assert [(r["count"], r["type"], r["text"]) for r in rows] == \
        [(int(n), kind, text) for n, kind, text in theirs]
    code, out, _ = nerlens("count", *paths)
    assert [line.split("\t") for line in out.splitlines()] == theirs
    summary = nerlens_json("summarize", *paths)
    assert summary == json.loads(json.dumps(summarize([str(p) for p in paths])))
    for part, path in zip(summary["files"], paths):
        text = seqscore(seqscore_cli.summarize, "--labels", "BIO", path)
        assert f"contains {part['documents']} document(s) and {part['sentences']} " \
               "sentences" in text
    text = seqscore(seqscore_cli.summarize, "--labels", "BIO", *paths)
    for kind, n in summary["mentions"].items():
        assert re.search(rf"\| {kind} +\| +{n} \|", text), (kind, n)
    assert re.search(rf"\| TOTAL +\| +{summary['total']} \|", text)


def test_count_with_types_equals_seqscore_process_then_count(tmp_path):
    path = random_file(tmp_path, "in.txt", "IOB2", 8, corrupt=0.0)
    (tmp_path / "map.json").write_text(json.dumps({"PER": ["ORG"]}))
    seqscore(seqscore_cli.process, "--labels", "BIO", "--type-map", tmp_path / "map.json",
             "--remove-types", "LOC", path, tmp_path / "processed.txt")
    theirs = [line.split("\t") for line in seqscore(seqscore_cli.count, "-q",
                                                     tmp_path / "processed.txt").splitlines()]
    ours = nerlens_json("count", path, "--type-map", "ORG=PER", "--remove-types", "LOC")
    assert [(r["count"], r["type"], r["text"]) for r in ours] == \
        [(int(n), kind, text) for n, kind, text in theirs] and ours


def test_score_error_counts(tmp_path):
    rnd = random.Random(9)
    gold = random_corpus(rnd, "IOB2", 100, corrupt=0.0)
    pred = [[t if rnd.random() > 0.3 else rnd.choice(["O", "B-PER", "I-LOC"]) for t in tags]
            for tags in gold]
    words = [[rnd.choice(WORDS) for _ in tags] for tags in gold]
    paths = []
    for name, tags in (("gold", gold), ("pred", pred)):
        lines = [line for w, s in zip(words, tags) for line in
                 [f"{a}\t{b}" for a, b in zip(w, s)] + [""]]
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(tmp_path / name)
    result = nerlens_json("score", *paths, "--error-counts")
    assert result["error_counts"] == error_counts(*map(str, paths), repair="conlleval")
    assert result["error_counts"]
    code, out, _ = nerlens("score", *paths, "--error-counts")
    assert code == 0 and "count\terror\ttype\ttext" in out


def test_invalid_tags_are_refused_with_the_commands_that_help(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("Ann O\nBob I-PER\n", encoding="utf-8")
    for command in (["count", path], ["summarize", path],
                    ["convert", path, tmp_path / "o.txt", "--to", "IOBES"]):
        code, _, err = nerlens(*command)
        assert code == 2 and "Traceback" not in err
        assert f"nerlens validate {path} --scheme IOB2" in err and "--repair conlleval" in err
        assert nerlens(*command, "--repair", "conlleval")[0] == 0
        assert nerlens("validate", path)[0] == 1
