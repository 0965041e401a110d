"""The audit on real files: CoNLL-2003 test against CoNLL++'s corrected labels, with two of
the shared system outputs (../shared/data/conll03; skipped, saying so, when absent).

METHODS §10 states the diff's count (309 changed tags in 186 sentences); the rest is
checked against the peers and plain counts over the files' own lines.
"""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import nerspan
from nerspan.audit import agreement, corrections_found, diff, score_golds, suspects
from nerspan.reading.columns import read_predictions
from tests.conftest import shared_path

SYSTEMS = ("spanner_bert_9246.txt", "spacy_sm_mapped_5953.txt")


@pytest.fixture(scope="module")
def conll():
    folder = shared_path("data", "conll03")
    corpus = nerspan.read_columns(shared_path("data", "conll03", "test.txt"))
    corpus = read_predictions(corpus, folder / "conllpp_test.txt", name="conllpp")
    for name in SYSTEMS:
        corpus = read_predictions(corpus, shared_path("data", "conll03", "systems", name),
                                  name=name)
    return corpus


def tags(corpus, column):
    return [corpus.tags(column, i) for i in range(corpus.n_sentences)]


def test_conllpp_changes_309_tags_in_186_sentences(conll):
    result = diff(conll, columns=("gold", "conllpp")).to_dict()
    assert result["changed_tags"] == 309 and len(result["changed_tag_sentences"]) == 186
    for side in "ab":
        assert sum(k[side] for k in result["kinds"].values()) == result["mentions"][side]
    changed_sentences = {c["sentence"] for c in result["changes"]}
    assert changed_sentences <= set(result["changed_tag_sentences"])


def test_the_agreement_of_the_two_golds_equals_the_peers(conll):
    result = agreement(conll, columns=("gold", "conllpp")).to_dict()
    scores = nerspan.score(tags(conll, "gold"), tags(conll, "conllpp")).to_dict()
    assert result["f1"] == scores["f1"]
    flat = [np.concatenate([np.array(s, dtype=object) for s in tags(conll, c)])
            for c in ("gold", "conllpp")]
    assert result["kappa"] == pytest.approx(cohen_kappa_score(*flat), abs=1e-12)


def test_two_systems_under_both_golds_and_the_suspects(conll):
    spans = {c: nerspan.decode(conll, c) for c in conll.columns}
    result = score_golds({"conll03": spans["gold"], "conllpp": spans["conllpp"]},
                         {s: spans[s] for s in SYSTEMS}, bootstrap=100).to_dict()
    for system in SYSTEMS:
        for gold, column in (("conll03", "gold"), ("conllpp", "conllpp")):
            theirs = nerspan.score(tags(conll, column), tags(conll, system)).to_dict()
            assert result["scores"][system][gold]["f1"] == theirs["f1"]
    ranked = suspects(spans["gold"], {s: spans[s] for s in SYSTEMS}, corpus=conll)
    found = corrections_found(ranked, diff(conll, columns=("gold", "conllpp")), (100,))
    # the suspects find more of CoNLL++'s changes than a random ranking would
    assert found["top"][100]["found"] > found["top"][100]["expected_at_random"]
