"""Each family scores at a threshold (issue 40, METHODS §8): with the input option
``threshold``, scored predictions (scored span lists, generated output with a score per
entity, ScoredMentions) are scored by every family's own ``score`` exactly as the
mentions kept at that threshold, given as plain span lists, are."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerspan import Corpus, Evaluation
from nerspan.scored import scored_spans

TOKENS = [["Ada", "Lee", "in", "Paris", "and", "Rome"], ["ACME", "hires", "Bob"],
          ["Oslo", "is", "cold"]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC", "O", "B-LOC"], ["B-ORG", "O", "B-PER"],
        ["B-LOC", "O", "O"]]
TRAIN = ([["Ada", "Lee", "met", "Bob"], ["Paris", "and", "ACME"]],
         [["B-PER", "I-PER", "O", "B-PER"], ["B-LOC", "O", "B-ORG"]])
SCORED = [[(0, 2, "PER", 0.9), (3, 4, "ORG", 0.55), (5, 6, "LOC", 0.2), (2, 3, "LOC", 0.5)],
          [(0, 1, "ORG", 0.7), (2, 3, "PER", 0.35)], [(0, 1, "LOC", 0.5)]]
# each family's score, with the data it needs
FAMILIES = {
    "tough_mentions": lambda gold, pred, **kw: tough_mentions.score(
        gold, pred, tokens=TOKENS, train=TRAIN, **kw),
    "hardeval": lambda gold, pred, **kw: hardeval.score(gold, pred, tokens=TOKENS,
                                                        train=TRAIN, **kw),
    "faireval": lambda gold, pred, **kw: faireval.score(gold, pred, tokens=TOKENS, **kw),
    "attribute_buckets": lambda gold, pred, **kw: attribute_buckets.score(
        gold, pred, tokens=TOKENS, train=TRAIN, **kw),
    "nerspan": lambda gold, pred, **kw: nerspan.score(gold, pred, tokens=TOKENS, **kw),
}


def kept(scored, threshold: float) -> list:
    return [[(a, b, label) for a, b, label, s in sentence if s >= threshold]
            for sentence in scored]


@pytest.mark.parametrize("family", list(FAMILIES))
@pytest.mark.parametrize("threshold", [0.0, 0.35, 0.5, 0.6, 1.0])
def test_a_family_scores_at_a_threshold_as_it_scores_the_kept_mentions(family, threshold):
    score = FAMILIES[family]
    at = score(GOLD, SCORED, inputs={"threshold": threshold}).to_dict()
    assert at["options"].pop("threshold") == threshold   # the result says it
    assert at == score(GOLD, kept(SCORED, threshold)).to_dict()


@pytest.mark.parametrize("family", list(FAMILIES))
def test_identical_mentions_keep_the_higher_score_counted_in_every_familys_repairs(family):
    # issue 40: copies of mentions with other scores; each mention keeps the higher (a
    # kept one's copy at 0.1 drops nothing, a dropped one's copy at 0.8 keeps it), and
    # the copies are counted, as the sweep counts them
    copies = [[*sentence, (*sentence[0][:3], 0.1)] for sentence in SCORED]
    copies[0].append((5, 6, "LOC", 0.8))
    higher = [[(a, b, label, 0.8 if (a, label) == (5, "LOC") else s)
               for a, b, label, s in sentence] for sentence in SCORED]
    score = FAMILIES[family]
    at = score(GOLD, copies, inputs={"threshold": 0.5}).to_dict()
    plain = score(GOLD, kept(higher, 0.5)).to_dict()
    assert (at["repairs"]["pred"].pop("duplicates"), at["repairs"]["pred"].pop("sentences"),
            at["options"].pop("threshold")) == (4, [0, 1, 2], 0.5)
    assert (plain["repairs"]["pred"].pop("duplicates"),
            plain["repairs"]["pred"].pop("sentences")) == (0, [])
    assert at == plain
    assert nerspan.sweep(GOLD, copies, tokens=TOKENS).repairs["pred"]["duplicates"] == 4


@pytest.mark.parametrize("family", ["tough_mentions", "faireval", "nerspan"])
def test_generated_output_and_scored_mentions_at_a_threshold(family):
    score = FAMILIES[family]
    generated = [[{"text": "Ada Lee", "type": "PER", "score": 0.9},
                  {"text": "Paris", "type": "ORG", "score": 0.55},
                  {"text": "Atlantis", "type": "LOC", "score": 0.6}],
                 [{"text": "ACME", "type": "ORG", "score": 0.7}],
                 [{"text": "Oslo", "type": "LOC", "score": 0.3}]]
    unscored = [[{"text": e["text"], "type": e["type"]} for e in sentence if e["score"] >= 0.5]
                for sentence in generated]
    at = score(GOLD, generated, inputs={"threshold": 0.5}).to_dict()
    filtered = score(GOLD, unscored).to_dict()
    assert at["options"].pop("threshold") == 0.5
    # the record of reading and grounding counts the whole output read; what is kept of
    # it, the spans and the entities found nowhere, is the filtered output's
    record, their_record = (d["repairs"]["pred"].pop("generative") for d in (at, filtered))
    assert at == filtered
    assert record["listed"]["ungrounded"] == their_record["listed"]["ungrounded"] == \
        [{"sentence": 0, "text": "Atlantis", "type": "LOC"}]
    mentions = scored_spans(SCORED)
    at = score(GOLD, mentions, inputs={"threshold": 0.5}).to_dict()
    assert at["options"].pop("threshold") == 0.5
    assert at == score(GOLD, kept(SCORED, 0.5)).to_dict()


def test_an_evaluation_scores_scored_systems_at_a_threshold():
    evaluation = Evaluation.build(Corpus.from_tags(GOLD, tokens=TOKENS), train=TRAIN)
    at = tough_mentions.score(evaluation, SCORED, inputs={"threshold": 0.5}).to_dict()
    assert at["options"].pop("threshold") == 0.5
    assert at == tough_mentions.score(evaluation, kept(SCORED, 0.5)).to_dict()
    # a system's name is no scored prediction: nothing is kept at the threshold
    evaluation = Evaluation.build(Corpus.from_tags(GOLD, tokens=TOKENS), GOLD, train=TRAIN)
    assert "threshold" not in tough_mentions.score(
        evaluation, "pred", inputs={"threshold": 0.5}).to_dict()["options"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["PER", "LOC", "ORG"]),
                          st.floats(0, 1)), max_size=6, unique_by=lambda x: x[0]),
       st.floats(0, 1))
def test_nerspan_score_at_a_threshold_is_the_sweeps_point(mentions, threshold):
    scored = [[(a, a + 1, label, s) for a, label, s in mentions], [], []]
    at = nerspan.score(GOLD, scored, tokens=TOKENS, inputs={"threshold": threshold})
    assert at.micro() == nerspan.sweep(GOLD, scored, tokens=TOKENS).at(threshold).micro()


def test_a_bad_threshold_or_a_missing_score_is_named():
    with pytest.raises(ValueError, match=r"threshold: 1.5 is not a confidence"):
        nerspan.score(GOLD, SCORED, tokens=TOKENS, inputs={"threshold": 1.5})
    with pytest.raises(nerspan.InputTypeError, match=r"threshold: 'high' \(str\)"):
        tough_mentions.score(GOLD, SCORED, tokens=TOKENS, train=TRAIN,
                             inputs={"threshold": "high"})
    with pytest.raises(nerspan.NerspanError, match="sentence 0: span 0 .* has no score"):
        faireval.score(GOLD, [[(0, 2, "PER")], [], []], tokens=TOKENS,
                       inputs={"threshold": 0.5})
    # without a threshold a score is ignored where a span form allows it
    assert nerspan.score(GOLD, [[{"start": 0, "end": 2, "label": "PER", "score": 0.1}], [], []],
                         tokens=TOKENS).micro()[0] == 1.0


def test_spans_snapped_to_words_are_counted_at_a_threshold_as_in_the_sweep():
    # GLiNER's character offsets, one span inside a word: widened (snap), counted
    gliner = [[{"start": 0, "end": 2, "label": "PER", "score": 0.9},
               {"start": 11, "end": 16, "label": "LOC", "score": 0.8}], [], []]
    texts = [" ".join(words) for words in TOKENS]
    inputs = {"texts": texts, "offsets": "chars", "snap": True}
    at = nerspan.score(GOLD, gliner, inputs={**inputs, "threshold": 0.5}).to_dict()
    swept = nerspan.sweep(GOLD, gliner, inputs=inputs).to_dict()
    assert at["repairs"]["pred"]["snapped"] == swept["repairs"]["pred"]["snapped"] == 1
    assert at["repairs"] == swept["repairs"]
