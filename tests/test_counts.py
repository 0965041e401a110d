"""Counts (nerspan.counts) against seqscore's count, summarize and --error-counts.

seqscore 0.9.0 (a test-only dependency) is run through its own command line (click's
runner) on random files with invalid transitions, repaired by both methods.
"""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from nerspan.counts import count, error_counts, summarize
from nerspan.encodings import repair
from nerspan.errors import InputTypeError
from nerspan.tagfiles import TagFile
from nerspan.validation import InvalidTransitionError
from tests.conftest import shared_path

pytest.importorskip("seqscore")
from click.testing import CliRunner  # noqa: E402
from seqscore.scripts import seqscore as seqscore_cli  # noqa: E402

from tests.test_encodings import (PEER_NAMES, WORDS, random_corpus,  # noqa: E402
                                  random_sentence, write_file)


def run(command, *args):
    result = CliRunner().invoke(command, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def peer_count(*args):
    rows = [line.split("\t") for line in run(seqscore_cli.count, "-q", *args).splitlines()]
    return [{"count": int(n), "type": kind, "text": text} for n, kind, text in rows]


def random_file(tmp_path, name, scheme, seed, corrupt=0.2, sentences=120):
    rnd = random.Random(f"{name}{scheme}{seed}")
    return write_file(tmp_path / name, random_corpus(rnd, scheme, sentences, corrupt=corrupt),
                      rnd)


@pytest.mark.parametrize("scheme,method", [("IOB2", "conlleval"), ("IOB2", "discard"),
                                           ("IOB1", "conlleval")])
@pytest.mark.parametrize("seed", range(3))
def test_count_equals_seqscore_with_repairs(tmp_path, scheme, method, seed):
    path = random_file(tmp_path, "tags.txt", scheme, seed)
    expected = peer_count("--labels", PEER_NAMES[scheme], "--repair-method", method, path)
    assert count(path, scheme, repair=method) == expected and len(expected) > 20


@pytest.mark.parametrize("scheme", ["IOBES", "BILOU", "BMES", "IO", "IOB2"])
def test_count_and_summary_equal_seqscore_on_valid_files(tmp_path, scheme):
    paths = [random_file(tmp_path, f"{i}.txt", scheme, i, corrupt=0.0) for i in range(2)]
    labels = ("--labels", PEER_NAMES[scheme])
    assert count(paths[0], scheme) == peer_count(*labels, paths[0])
    assert count(paths, scheme) == peer_count(*labels, *paths)  # several files: added
    for files in ([paths[0]], paths):
        output = run(seqscore_cli.summarize, *labels, *files)
        ours = summarize(files if len(files) > 1 else files[0], scheme)
        assert _summary_table(output) == ours["mentions"]
        assert f"| TOTAL         | {ours['total']:7,} |" in output
        for one, part in zip(files, ours.get("files", [ours])):
            assert (f"File {str(one)!r} contains {part['documents']} document(s) and "
                    f"{part['sentences']} sentences") in output


def _summary_table(output: str) -> dict:
    rows = re.findall(r"^\| (\S+)\s+\|\s+([\d,]+) \|$", output, re.MULTILINE)
    return {kind: int(n.replace(",", "")) for kind, n in rows if kind != "TOTAL"}


def test_count_fixtures():
    samples = shared_path("fixtures", "seqscore", "samples")
    expected = [line.split("\t") for line in
                (samples / "invalid_count.csv").read_text().splitlines()]
    rows = count(samples / "invalid.bio", repair="conlleval")
    assert [[str(r["count"]), r["type"], r["text"]] for r in rows] == expected
    reference = [line.split("\t") for line in
                 (samples / "reference_count.csv").read_text().splitlines()]
    assert [[str(r["count"]), r["type"], r["text"]] for r in count(samples / "reference.bio")
            ] == reference


def test_documents_are_counted_as_seqscore_counts_them(tmp_path):
    # DOCSTART rows first, twice in a row (an empty document), and last
    path = tmp_path / "docs.txt"
    path.write_text("-DOCSTART-\tO\n\n-DOCSTART-\tO\n\nAnn\tB-PER\n\nBob\tB-PER\n\n"
                    "-DOCSTART-\tO\n\nin\tO\n\n-DOCSTART-\tO\n", encoding="utf-8")
    ours = summarize(path)
    assert (ours["documents"], ours["sentences"], ours["tokens"]) == (2, 3, 3)
    assert "contains 2 document(s) and 3 sentences" in run(seqscore_cli.summarize, path)
    assert summarize([["B-PER"]])["documents"] is None  # tag lists do not say
    plain = tmp_path / "plain.txt"
    plain.write_text("Ann\tB-PER\n\nBob\tO\n", encoding="utf-8")
    assert summarize(plain)["documents"] == 1


@pytest.mark.parametrize("method", [None, "conlleval", "discard"])
@pytest.mark.parametrize("seed", range(3))
def test_error_counts_equal_seqscore(tmp_path, method, seed):
    rnd = random.Random(seed)
    corrupt = 0.0 if method is None else 0.15
    gold = random_corpus(rnd, "IOB2", 150, corrupt=corrupt)
    if method is None:  # valid tags on both sides
        pred = [random_sentence(rnd, "IOB2", len(tags), corrupt=0.0) for tags in gold]
    else:  # the gold tags, a third of them replaced
        pred = [[t if rnd.random() > 0.3 else rnd.choice(["O", "B-PER", "I-LOC", "B-ORG"])
                 for t in tags] for tags in gold]
    words = [[rnd.choice(WORDS) for _ in tags] for tags in gold]
    paths = [_write(tmp_path / name, words, tags) for name, tags in (("gold", gold),
                                                                     ("pred", pred))]
    output = run(seqscore_cli.score, "--labels", "BIO", "--reference", paths[0],
                 "--error-counts", "--score-format", "delim", "-q",
                 *(["--repair-method", method] if method else []), paths[1])
    theirs = [dict(zip(("count", "error", "type", "text"), line.split("\t")))
              for line in output.splitlines()[1:]]
    for row in theirs:
        row["count"] = int(row["count"])
    ours = error_counts(paths[0], paths[1], repair=method)
    # ties of count and text come in the order seqscore's sets give (hash order): the
    # rows are the same, sorted by count and text the same way
    assert Counter(map(_key, ours)) == Counter(map(_key, theirs)) and len(ours) > 20
    assert [(r["count"], r["text"]) for r in ours] == [(r["count"], r["text"]) for r in theirs]
    assert error_counts(gold, pred, tokens=words, repair=method) == ours


def _key(row: dict) -> tuple:
    return tuple(row.values())


def _write(path, words, tags):
    path.write_text("".join("".join(f"{w}\t{t}\n" for w, t in zip(ws, ts)) + "\n"
                            for ws, ts in zip(words, tags)), encoding="utf-8")
    return path


def test_error_counts_fixture():
    samples = shared_path("fixtures", "seqscore", "samples")
    expected = shared_path("fixtures", "seqscore", "expected",
                           "samples_predicted.error_counts.tsv")
    rows = error_counts(samples / "reference.bio", samples / "predicted.bio")
    assert [list(map(str, r.values())) for r in rows] == [
        line.split("\t") for line in expected.read_text().splitlines()[1:]]


def test_error_counts_read_each_files_own_tag_column(tmp_path):
    """A CoNLL-2003 gold (token, POS, chunk, NER: tag column 3) beside a token-tag
    prediction file: the prediction is read at its own last column, not at gold's index
    (which it does not have), and equals the same pair written token-tag."""
    words = [["Ann", "met", "Bob", "in", "Oslo"], ["Oslo", "won"]]
    gold = [["B-PER", "O", "B-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    pred = [["B-PER", "O", "O", "O", "B-ORG"], ["B-ORG", "O"]]
    conll = tmp_path / "gold.conll"
    conll.write_text("".join("".join(f"{w} NNP B-NP {t}\n" for w, t in zip(ws, ts)) + "\n"
                             for ws, ts in zip(words, gold)), encoding="utf-8")
    plain_gold, plain_pred = _write(tmp_path / "gold.txt", words, gold), \
        _write(tmp_path / "pred.txt", words, pred)
    expected = error_counts(plain_gold, plain_pred)
    assert error_counts(conll, plain_pred, tag_column=3) == expected
    assert error_counts(gold, pred, tokens=words) == expected
    assert {(r["error"], r["text"]) for r in expected} == {("FN", "Bob"), ("FN", "Oslo"),
                                                          ("FP", "Oslo")}
    # a TagFile chooses the prediction file's column
    wide = tmp_path / "pred.conll"
    wide.write_text("".join("".join(f"{w} {t} NNP\n" for w, t in zip(ws, ts)) + "\n"
                            for ws, ts in zip(words, pred)), encoding="utf-8")
    assert error_counts(conll, TagFile(str(wide), tag_column=1), tag_column=3) == expected


def test_counts_refuse_invalid_tags_and_need_tokens(tmp_path):
    path = tmp_path / "tags.txt"
    path.write_text("Ann\tO\nOslo\tI-LOC\n", encoding="utf-8")
    with pytest.raises(InvalidTransitionError, match=rf"{path}:2, sentence 0, position 1: "
                                                     "1 problem under IOB2"):
        count(path)
    assert count(path, repair="conlleval") == [{"count": 1, "type": "LOC", "text": "Oslo"}]
    assert summarize(path, repair="discard")["total"] == 0
    with pytest.raises(InputTypeError, match="counting mentions by text needs the tokens"):
        count([["B-PER"]])
    with pytest.raises(ValueError, match="unknown repair method 'fix'"):
        summarize(path, repair="fix")
    # the repairs counted are the ones repair lists
    assert repair(path, "IOB2", "conlleval").counts["changed_tags"] == 1
