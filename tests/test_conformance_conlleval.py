"""nerlens equals conlleval.pl on the harvested fixtures (shared/fixtures/conlleval)."""
from __future__ import annotations

import json

import pytest

from nerlens.engines import score_corpus
from nerspan.conlleval import conlleval_text
from nerspan import PRED, decode, read_columns
from seqeval.metrics.sequence_labeling import get_entities

from .conftest import shared_path

BIO_EIO = [f"random_{kind}_{i}" for kind in ("BIO", "EIO") for i in range(10)]
EDGE_WITHOUT_S = ["edge_i_after_o_and_type_switch", "edge_docstart_and_blank_lines",
                  "edge_untyped_tags", "edge_all_O"]
BIOES = [f"random_BIOES_{i}" for i in range(10)]


def expected_cases():
    return json.loads(shared_path("fixtures", "conlleval", "cases.json").read_text())["cases"]


def score_file(name: str, scheme: str = "IOB2") -> dict:
    # conlleval reads column 3 as gold and column 4 (the last) as the prediction
    path = shared_path("fixtures", "conlleval", f"{name}.txt")
    corpus = read_columns(path, {"gold": -2, PRED: -1})
    return score_corpus(corpus, [PRED], scheme=scheme)[PRED]


@pytest.mark.parametrize("name", BIO_EIO + EDGE_WITHOUT_S)
def test_counts_and_scores_equal_conlleval(name):
    expected = expected_cases()[name]
    got = score_file(name, "IOE2" if "EIO" in name else "IOB2")
    # conlleval.pl (2004) reads a -DOCSTART- line as an O/O token; nerlens never does
    # (documented difference: it changes the token count and accuracy, nothing else).
    text = shared_path("fixtures", "conlleval", f"{name}.txt").read_text()
    docstarts = sum(line.startswith("-DOCSTART-") for line in text.splitlines())
    assert got["tokens"] + docstarts == expected["tokens"]
    correct_tags = got["accuracy"] * got["tokens"] + docstarts
    assert round(100 * correct_tags / expected["tokens"], 2) == pytest.approx(expected["accuracy"])
    assert (got["gold"], got["predicted"], got["correct"]) == (
        expected["gold_phrases"], expected["found_phrases"], expected["correct_phrases"])
    for ours, theirs in (("precision", "precision"), ("recall", "recall"), ("f1", "fb1")):
        assert round(100 * got[ours], 2) == pytest.approx(expected[theirs], abs=1e-9), ours
    for entity_type, row in expected.get("per_type", {}).items():
        ours = got["per_type"][entity_type]
        assert ours["predicted"] == row["found"]
        assert round(100 * ours["precision"], 2) == pytest.approx(row["precision"], abs=1e-9)
        assert round(100 * ours["recall"], 2) == pytest.approx(row["recall"], abs=1e-9)
        assert round(100 * ours["f1"], 2) == pytest.approx(row["fb1"], abs=1e-9)


PRINTED_SAME = [n for n in BIO_EIO + EDGE_WITHOUT_S
                if n not in ("edge_untyped_tags", "edge_docstart_and_blank_lines")]


@pytest.mark.parametrize("name", PRINTED_SAME)
def test_printed_report_is_conllevals_text(name):
    """The table ``nerlens score`` prints is conlleval.pl's output, character for character.

    Left out: edge_untyped_tags (conlleval.pl prints its empty type's row twice) and
    edge_docstart_and_blank_lines (conlleval.pl counts -DOCSTART- as a token).
    """
    expected = shared_path("fixtures", "conlleval", f"{name}.expected.txt").read_text()
    got = score_file(name, "IOE2" if "EIO" in name else "IOB2")
    assert conlleval_text(got) + "\n" == expected


def seqeval_default_counts(path):
    corpus = read_columns(path, {"gold": -2, PRED: -1})
    sentences = range(corpus.n_sentences)
    gold = {tuple(e) for e in get_entities([corpus.tags("gold", i) for i in sentences])}
    pred = {tuple(e) for e in get_entities([corpus.tags(PRED, i) for i in sentences])}
    return len(gold), len(pred), len(gold & pred)


@pytest.mark.parametrize("name", BIOES + ["edge_e_then_b_iobes"])
def test_iobes_follows_seqeval_default_mode(name):
    """The 2004 conlleval.pl knows no S- and continues a chunk at B- after E-; there
    nerlens follows seqeval's default mode (documented difference)."""
    path = shared_path("fixtures", "conlleval", f"{name}.txt")
    got = score_file(name, "IOBES")
    assert (got["gold"], got["predicted"], got["correct"]) == seqeval_default_counts(path)


def test_documented_difference_e_then_b():
    """North/B African/E Grand/B Prix/E: two mentions for nerlens (and seqeval), one for
    conlleval.pl, which does not start a chunk at B- after E-."""
    expected = expected_cases()["edge_e_then_b_iobes"]
    assert expected["gold_phrases"] == 1
    path = shared_path("fixtures", "conlleval", "edge_e_then_b_iobes.txt")
    corpus = read_columns(path, {"gold": -2, PRED: -1})
    spans = decode(corpus, "gold", "IOBES")
    assert spans.to_list(corpus) == [[("MISC", 0, 2), ("MISC", 2, 4)]]


def test_bioes_fixtures_show_the_difference():
    """On the random BIOES files conlleval.pl's phrase counts are not seqeval's: the
    difference pinned above is real on these files, and nerlens takes seqeval's side."""
    differing = 0
    for name in BIOES:
        expected = expected_cases()[name]
        conlleval = (expected["gold_phrases"], expected["found_phrases"], expected["correct_phrases"])
        path = shared_path("fixtures", "conlleval", f"{name}.txt")
        differing += conlleval != seqeval_default_counts(path)
    assert differing > 0
