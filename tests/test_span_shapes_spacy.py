"""Differential test: entity scores of nested, overlapping and multi-label span lists
equal spaCy's ``Scorer.score_spans(..., allow_overlap=True)`` (a blank pipeline, no
model), micro and per type."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan

spacy = pytest.importorskip("spacy")
from spacy.scorer import Scorer  # noqa: E402
from spacy.tokens import Doc, Span  # noqa: E402
from spacy.training import Example  # noqa: E402

LENGTH = 7
TYPES = ["PER", "LOC", "ORG", "MISC"]
NLP = spacy.blank("en")


def span():
    return st.tuples(st.integers(0, LENGTH - 1), st.integers(1, LENGTH),
                     st.sampled_from(TYPES)).filter(lambda s: s[0] < s[1])


def sides():
    sentence = st.lists(span(), max_size=8)
    return st.integers(1, 5).flatmap(lambda n: st.tuples(
        st.lists(sentence, min_size=n, max_size=n), st.lists(sentence, min_size=n,
                                                              max_size=n)))


def doc_of(words, spans) -> Doc:
    doc = Doc(NLP.vocab, words=words)
    doc.spans["sc"] = [Span(doc, a, b, label=label) for a, b, label in spans]
    return doc


def spacy_scores(gold, pred) -> dict:
    words = [f"w{i}" for i in range(LENGTH)]
    examples = [Example(doc_of(words, p), doc_of(words, g)) for g, p in zip(gold, pred)]
    return Scorer.score_spans(examples, "spans_sc", allow_overlap=True,
                              getter=lambda doc, attr: doc.spans.get(attr[len("spans_"):], []))


@settings(max_examples=100, deadline=None)
@given(sides())
def test_exact_match_on_overlapping_spans_equals_spacy_score_spans(case):
    gold, pred = case
    theirs = spacy_scores(gold, pred)
    ours = nerspan.score(gold, pred, tokens=[[f"w{i}" for i in range(LENGTH)]] * len(gold))
    if theirs["spans_sc_p"] is None:   # spaCy scores nothing without any span
        assert ours.n_gold == ours.n_predicted == 0
        return
    assert ours.micro() == pytest.approx((theirs["spans_sc_p"], theirs["spans_sc_r"],
                                          theirs["spans_sc_f"]), abs=1e-12)
    per_type = ours.to_dict()["per_type"]
    assert set(per_type) == set(theirs["spans_sc_per_type"])
    for label, row in theirs["spans_sc_per_type"].items():
        assert (per_type[label]["precision"], per_type[label]["recall"],
                per_type[label]["f1"]) == pytest.approx((row["p"], row["r"], row["f"]),
                                                        abs=1e-12)
