"""Suspect gold (``nerspan.audit.suspect_gold``) and the surface forms it reads
(``nerspan.audit.surface_forms``).

The trie's occurrences are checked against every window compared word by word; a small
corpus's ranking and evidence against numbers derived by hand from the definitions in
the module's docstring; the ranking's independence of the systems' order by hypothesis;
the random baseline against an enumeration of every ranking.
"""
from __future__ import annotations

import itertools
import json
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerspan import Corpus, TrainIndex, decode
from nerspan.audit import corrections_found, diff_spans, expected_at_random, suspects
from nerspan.audit.surface_forms import PARTIAL, UNLABELLED, TextTrie, occurrence_labels

TOKENS = [["Paris", "is", "nice"], ["Paris", "again"], ["I", "love", "Paris"],
          ["Kim", "met", "Lee"], ["Lee", "said"]]
GOLD = [["B-PER", "O", "O"], ["B-LOC", "O"], ["O", "O", "B-LOC"], ["B-PER", "O", "O"],
        ["B-PER", "O"]]
RIGHT = [["B-LOC", "O", "O"], ["B-LOC", "O"], ["O", "O", "B-LOC"], ["B-PER", "O", "B-PER"],
         ["B-PER", "O"]]
QUIET = [["B-LOC", "O", "O"], ["B-LOC", "O"], ["O", "O", "B-LOC"], ["B-PER", "O", "O"],
         ["B-PER", "O"]]
SYSTEMS = {"a": RIGHT, "b": RIGHT, "c": QUIET}


def example(systems=SYSTEMS, **options):
    corpus = Corpus.from_tags(GOLD, tokens=TOKENS, columns=systems)
    spans = {c: decode(corpus, c) for c in corpus.columns}
    return suspects(spans["gold"], {n: spans[n] for n in systems}, corpus=corpus, **options)


def test_the_ranking_and_evidence_of_a_small_corpus():
    found = example(documents=[0, 0, 0, 1, 1])
    rows = found.to_dict()["suspects"]
    # Paris s0 (PER): 3 of 3 systems read LOC; 2 other occurrences, both LOC, in gold and
    # in its document: 1 + 2/3 + 2/3. Lee s3 (missing): 2 of 3 systems; Lee is PER once
    # elsewhere, in its document too: 2/3 + 1/2 + 1/2. Lee s4 (PER): no system disagrees;
    # its other occurrence is unlabelled: 0 + 1/2 + 1/2. Paris s1, s2 (LOC): 1 of 2
    # others is LOC: 0 + 1/3 + 1/3. Kim: no other occurrence, no disagreement: 0.
    assert [(r["kind"], r["sentence"], r["text"]) for r in rows] == [
        ("gold", 0, "Paris"), ("missing", 3, "Lee"), ("gold", 4, "Lee"),
        ("gold", 1, "Paris"), ("gold", 2, "Paris")]
    assert [r["score"] for r in rows] == pytest.approx(
        [1 + 4 / 3, 2 / 3 + 1, 1.0, 2 / 3, 2 / 3])
    first = rows[0]
    assert first["systems"] == {"agree": 3, "of": 3, "names": ["a", "b", "c"],
                                "reading": {"start": 0, "end": 1, "type": "LOC"},
                                "weight": 3.0, "confidence": None}
    assert first["surface"] == {"gold": {"LOC": 2}, "train": None, "document": {"LOC": 2}}
    assert rows[1]["systems"]["names"] == ["a", "b"]
    assert rows[1]["surface"]["gold"] == {"PER": 1}
    assert rows[2]["surface"]["gold"] == {"O": 1}
    result = found.to_dict()
    assert (result["candidates"], result["gold_mentions"], result["missing_mentions"],
            result["scored"]) == (6, 5, 1, 5)
    assert json.loads(json.dumps(result, allow_nan=False)) == result


def test_training_data_and_confidences_add_their_evidence():
    train = TrainIndex.build(Corpus.from_tags([["B-LOC", "O"], ["B-LOC"]],
                                              tokens=[["Paris", "today"], ["Paris"]]))
    confident = {"a": np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])}
    found = example(train=train, confidences=confident)
    first = found.to_dict()["suspects"][0]
    assert first["surface"]["train"] == {"LOC": 2}
    # 2 other LOC in gold, 2 in training: 4 / (0 + 4 + 1); a votes 0.9, b and c 1 each
    assert first["parts"]["surface"] == pytest.approx(4 / 5)
    assert first["systems"]["weight"] == pytest.approx(2.9)
    assert first["systems"]["confidence"] == pytest.approx(0.9)
    assert first["parts"]["document"] == 0.0


def test_the_score_sums_the_evidence_asked_for():
    alone = example(evidence=("systems",)).to_dict()["suspects"]
    assert [(r["sentence"], r["score"]) for r in alone] == [(0, 1.0), (3, 2 / 3)]
    with pytest.raises(ValueError, match="evidence must be parts among systems, surface, document"):
        example(evidence=("votes",))


def test_a_span_fewer_systems_predict_than_asked_is_no_candidate():
    assert example(min_systems=3).to_dict()["missing_mentions"] == 0
    assert example(min_systems=1).to_dict()["missing_mentions"] == 1


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="confidences of a: one per predicted mention"):
        example(confidences={"a": [0.5]})
    with pytest.raises(ValueError, match=r"confidences of a: 1.5 \(mention 0\)"):
        example(confidences={"a": [1.5] * 6})
    with pytest.raises(ValueError, match=r"confidences of \['z'\]: no such system"):
        example(confidences={"z": [0.5]})
    with pytest.raises(ValueError, match="documents: one document number per sentence"):
        example(documents=[0, 1])
    with pytest.raises(ValueError, match="min_systems"):
        example(min_systems=0)


WORDS = ["a", "b", "c"]
TAGS = ["O", "O", "B-PER", "I-PER", "B-LOC"]


def corpora():
    """Sentences of words from a small vocabulary (texts repeat), gold and three systems."""
    def tagged(words):
        shape = lambda: st.tuples(*[st.lists(st.sampled_from(TAGS), min_size=len(s),  # noqa: E731
                                             max_size=len(s)) for s in words]).map(list)
        return st.tuples(st.just(words), shape(), st.lists(shape(), min_size=3, max_size=3),
                         st.lists(st.floats(0, 1), min_size=40, max_size=40))
    return st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6), min_size=1,
                    max_size=6).flatmap(tagged)


@settings(max_examples=60, deadline=None)
@given(corpora(), st.permutations(range(3)))
def test_the_ranking_is_independent_of_the_order_of_the_systems(case, permutation):
    words, gold, systems, numbers = case
    names = ["x", "y", "z"]
    corpus = Corpus.from_tags(gold, tokens=words, columns=dict(zip(names, systems)))
    spans = {c: decode(corpus, c) for c in corpus.columns}
    confidences = {n: np.array(numbers[:len(spans[n])]) for n in names[:2]}
    runs = []
    for order in (range(3), permutation):
        chosen = {names[i]: spans[names[i]] for i in order}
        runs.append(suspects(spans["gold"], chosen, corpus=corpus, confidences=confidences,
                             documents=[i % 2 for i in range(corpus.n_sentences)]))
    assert np.array_equal(runs[0].order, runs[1].order)
    assert runs[0].to_dict()["suspects"] == runs[1].to_dict()["suspects"]
    ranked = runs[0]
    score, spans_ = ranked.score[ranked.order], ranked.found.spans
    assert np.all(np.diff(score) <= 0)
    ties = np.flatnonzero(np.diff(score) == 0)
    place = list(zip(spans_.sentence[ranked.order].tolist(), spans_.start[ranked.order].tolist()))
    assert all(place[i] <= place[i + 1] for i in ties.tolist())


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=7), min_size=1, max_size=5),
       st.data())
def test_the_trie_finds_every_window_with_one_of_the_texts(sentences, data):
    words = np.array([w for s in sentences for w in s], dtype=np.int64)
    sentence = np.repeat(np.arange(len(sentences)), [len(s) for s in sentences])
    offsets = np.concatenate([[0], np.cumsum([len(s) for s in sentences])])
    picks = data.draw(st.lists(st.tuples(st.integers(0, len(sentences) - 1),
                                         st.integers(0, 6), st.integers(1, 4)), max_size=6))
    windows = [(int(offsets[s]) + a, min(n, len(sentences[s]) - a)) for s, a, n in picks
               if a < len(sentences[s])]
    starts = np.array([w[0] for w in windows], dtype=np.int64)
    lengths = np.array([w[1] for w in windows], dtype=np.int64)
    trie, text = TextTrie.build(words, starts, lengths, base=5)
    texts = {tuple(words[a:a + n].tolist()) for a, n in windows}
    by_text = {}
    for (a, n), t in zip(windows, text.tolist()):
        assert by_text.setdefault(tuple(words[a:a + n].tolist()), t) == t
    assert len(set(by_text.values())) == len(by_text)  # one id per text, none shared
    found = trie.occurrences(words, sentence)
    expected = {(a, n) for a in range(len(words)) for n in range(1, 5)
                if a + n <= len(words) and sentence[a + n - 1] == sentence[a]
                and tuple(words[a:a + n].tolist()) in texts}
    assert set(zip(found[0].tolist(), found[1].tolist())) == expected
    for a, n, t in zip(*(f.tolist() for f in found)):
        assert by_text[tuple(words[a:a + n].tolist())] == t


def test_an_occurrence_is_a_mention_outside_every_mention_or_neither():
    corpus = Corpus.from_tags([["B-PER", "I-PER", "O", "B-LOC", "O"]])
    spans = decode(corpus)
    starts, lengths = np.array([0, 0, 2, 3, 1, 4]), np.array([2, 1, 1, 1, 2, 1])
    labels = occurrence_labels(starts, lengths, spans, 5, np.array([10, 20]))
    assert labels.tolist() == [20, PARTIAL, UNLABELLED, 10, PARTIAL, UNLABELLED]


def test_the_random_expectation_equals_the_mean_over_every_ranking():
    covering = {"u": {0}, "v": {1, 2}, "w": {2}, "x": set()}
    n, top = 5, 2
    total = 0
    for ranking in itertools.permutations(range(n)):
        first = set(ranking[:top])
        total += sum(bool(c & first) for c in covering.values())
    counts = np.array([len(c) for c in covering.values()])
    assert expected_at_random(counts, n, top) == pytest.approx(
        total / len(list(itertools.permutations(range(n)))))
    assert expected_at_random(np.array([1, 3]), 10, 4) == pytest.approx(
        4 / 10 + 1 - comb(7, 4) / comb(10, 4))
    assert expected_at_random(np.array([2]), 3, 3) == 1.0


def test_the_corrections_found_in_the_first_places():
    corpus = Corpus.from_tags(GOLD, tokens=TOKENS, columns={**SYSTEMS, "fixed": RIGHT})
    spans = {c: decode(corpus, c) for c in corpus.columns}
    ranked = suspects(spans["gold"], {n: spans[n] for n in SYSTEMS}, corpus=corpus)
    correction = diff_spans(spans["gold"], spans["fixed"], corpus)
    found = corrections_found(ranked, correction, tops=(1, 2, 6))
    # the changes: Paris s0 (retyped, ranked 1st) and Lee s3 (added, its candidate 2nd),
    # each found by one of the 6 candidates
    assert found["changes"] == 2 and found["candidates"] == 6
    assert [found["top"][t]["found"] for t in (1, 2, 6)] == [1, 2, 2]
    assert found["top"][1]["expected_at_random"] == pytest.approx(2 / 6)
    with pytest.raises(ValueError, match="not the suspects' gold"):
        corrections_found(ranked, diff_spans(spans["fixed"], spans["gold"], corpus))


@settings(max_examples=40, deadline=None)
@given(corpora())
def test_systems_that_copy_gold_accuse_nothing(case):
    """Systems predicting gold exactly: no missing candidate, no system evidence, and with
    the systems' evidence alone every score is 0."""
    words, gold, _, _ = case
    corpus = Corpus.from_tags(gold, tokens=words, columns={"x": gold, "y": gold})
    spans = {c: decode(corpus, c) for c in corpus.columns}
    systems = {"x": spans["x"], "y": spans["y"]}
    ranked = suspects(spans["gold"], systems, corpus=corpus, min_systems=1)
    assert len(ranked) == len(spans["gold"]) and not ranked.found.agree.any()
    assert (ranked.parts["systems"] == 0).all()
    alone = suspects(spans["gold"], systems, corpus=corpus, evidence=("systems",))
    assert (alone.score == 0).all() and alone.to_dict()["suspects"] == []
