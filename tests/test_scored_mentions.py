"""Scored mentions (nerspan.scored): every form users have, read by the span readers with
the scores carried alongside, token probabilities, and the errors naming sentence, span
and value."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import nerspan
from nerspan import Corpus, InputTypeError, LabelIdError, LengthMismatchError, NerspanError
from nerspan import decode
from nerspan.scored import scored_spans, scored_tokens
from nerspan.sweeps import sweep_spans

TOKENS = [["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London"]]
TEXT = [" ".join(TOKENS[0])]
# (start, end, label, score) in tokens; the characters of the same words in TEXT
EXPECTED = [[{"start": 0, "end": 2, "label": "PER", "score": 0.9},
             {"start": 3, "end": 5, "label": "PER", "score": 0.5},
             {"start": 6, "end": 7, "label": "LOC", "score": 0.25}]]


def test_every_scored_span_form_gives_the_same_table():
    forms = {
        "tuples": ([[(0, 2, "PER", 0.9), (3, 5, "PER", 0.5), (6, 7, "LOC", 0.25)]], {}),
        "FairEval's order, lists": ([[["PER", 0, 2, 0.9], ["PER", 3, 5, 0.5],
                                      ["LOC", 6, 7, 0.25]]], {}),
        "span dicts": ([[{"label": "PER", "start": 0, "end": 2, "score": 0.9},
                         {"label": "LOC", "start": 6, "end": 7, "score": 0.25},
                         {"label": "PER", "start": 3, "end": 5, "score": 0.5}]], {}),
        "a pipeline's grouped output": (
            [[{"entity_group": "PER", "start": 0, "end": 12, "word": "Ada Lovelace",
               "score": np.float32(0.9)},
              {"entity_group": "PER", "start": 17, "end": 32, "score": np.float32(0.5)},
              {"entity_group": "LOC", "start": 36, "end": 42, "score": np.float32(0.25)}]],
            {"tokens": TOKENS}),
        "GLiNER": ([[{"start": 0, "end": 12, "text": "Ada Lovelace", "label": "PER",
                      "score": 0.9},
                     {"start": 17, "end": 32, "text": "Charles Babbage", "label": "PER",
                      "score": 0.5},
                     {"start": 36, "end": 42, "text": "London", "label": "LOC",
                      "score": 0.25}]], {"texts": TEXT, "offsets": "chars"}),
    }
    for name, (predictions, options) in forms.items():
        table = scored_spans(predictions, inputs=options)
        got = table.to_lists()
        assert [[{**m, "score": pytest.approx(m["score"], rel=1e-7)} for m in s]
                for s in EXPECTED] == got, name
        assert table.duplicates == 0 and table.n_sentences == 1


def test_snapped_character_spans_are_counted():
    table = scored_spans([[{"start": 0, "end": 7, "label": "PER", "score": 0.6}]],
                         inputs={"texts": TEXT, "offsets": "chars", "snap": True})
    assert table.to_lists()[0] == [{"start": 0, "end": 2, "label": "PER", "score": 0.6}]
    assert table.repairs.snapped == 1 and table.repairs.sentences == (0,)


def test_per_sub_token_pipeline_output_takes_the_scores_of_the_words():
    # "Lovelace" in two sub-tokens: the word takes the first one's tag and score; the
    # second (0.1, not a word start) is not read
    raw = [[{"entity": "B-PER", "start": 0, "end": 3, "index": 1, "score": 0.9},
            {"entity": "I-PER", "start": 4, "end": 8, "index": 2, "score": 0.6},
            {"entity": "I-PER", "start": 8, "end": 12, "index": 3, "score": 0.1},
            {"entity": "B-LOC", "start": 36, "end": 42, "index": 9, "score": 0.7}]]
    assert scored_spans(raw, tokens=TOKENS).to_lists() == [[
        {"start": 0, "end": 2, "label": "PER", "score": 0.6},
        {"start": 6, "end": 7, "label": "LOC", "score": 0.7}]]
    mean = scored_spans(raw, tokens=TOKENS, aggregate="mean")
    assert mean.confidence.tolist() == [pytest.approx(0.75), 0.7]
    assert mean.options == {"aggregate": "mean"}


def test_identical_mentions_keep_the_higher_score_and_are_counted():
    table = scored_spans([[(0, 1, "PER", 0.2), (0, 1, "PER", 0.7), (0, 1, "LOC", 0.1)],
                          [(1, 2, "PER", 0.3), (1, 2, "PER", 0.3)]])
    assert table.duplicates == 2
    assert table.to_lists() == [
        [{"start": 0, "end": 1, "label": "LOC", "score": 0.1},
         {"start": 0, "end": 1, "label": "PER", "score": 0.7}],
        [{"start": 1, "end": 2, "label": "PER", "score": 0.3}]]


@pytest.mark.parametrize("item, error, message", [
    ((0, 1, "PER", 1.2), NerspanError, r"\(0, 1, 'PER', 1.2\): 1.2 is not a confidence "
                                       r"\(a number in \[0, 1\]\)"),
    ((0, 1, "PER", -0.1), NerspanError, r"\(0, 1, 'PER', -0.1\): -0.1 is not a confidence"),
    ((0, 1, "PER", math.nan), NerspanError, r"\(0, 1, 'PER', nan\): nan is not a confidence"),
    ((0, 1, "PER", "0.5"), InputTypeError, r".*: '0.5' \(str\) is not a confidence"),
    ((0, 1, "PER", True), InputTypeError, r".*: True \(bool\) is not a confidence"),
    ((0, 1, "PER", None), InputTypeError, r".*: None \(NoneType\) is not a confidence"),
    ({"label": "PER", "start": 0, "end": 1}, NerspanError,
     r"\{'label': 'PER', 'start': 0, 'end': 1\} has no score"),
    ((0, 1, "PER"), NerspanError, r"\(0, 1, 'PER'\) has no score: scored predictions "
                                  r"are \(start, end, label, score\)"),
])
def test_a_bad_score_names_sentence_span_and_value(item, error, message):
    predictions = [[(0, 1, "PER", 0.5)], [(1, 2, "LOC", 0.5), item]]
    with pytest.raises(error, match=r"^predictions, sentence 1: span 1 " + message):
        scored_spans(predictions)
    dicts = [[{"label": "PER", "start": 0, "end": 1, "score": 0.5}],
             [{"label": "LOC", "start": 1, "end": 2, "score": 0.5},
              item if isinstance(item, dict) else {"label": "PER", "start": 0, "end": 1,
                                                   "score": item[-1]}]]
    if not isinstance(item, dict) and len(item) == 4 and item[-1] is not None:
        with pytest.raises(error, match=r"^predictions, sentence 1: span 1 \{.*\}: "):
            scored_spans(dicts)


def test_spans_are_checked_by_the_span_readers():
    with pytest.raises(NerspanError, match=r"predictions, sentence 0: span \(2, 1, 'PER'\) is "
                                           "empty or reversed"):
        scored_spans([[(2, 1, "PER", 0.5)]])
    with pytest.raises(InputTypeError, match="predictions is None"):
        scored_spans(None)
    with pytest.raises(ValueError, match="aggregate must be one of 'min', 'mean'"):
        scored_spans([[]], aggregate="max")


# -- token probabilities -------------------------------------------------------------------

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


@st.composite
def token_cases(draw):
    """``(logits, label_ids)``: padded, with -100 where positions are dropped."""
    n, width = draw(st.integers(1, 4)), draw(st.integers(1, 7))
    logits = draw(hnp.arrays(np.float64, (n, width, len(LABELS)),
                             elements=st.floats(-4, 4, allow_nan=False)))
    labels = draw(hnp.arrays(np.int64, (n, width),
                             elements=st.sampled_from([-100, 0, 1, 2, 3, 4])))
    return logits, labels


def brute_force(logits, label_ids, aggregate):
    """Per sentence, the mentions of the argmax tags with min/mean probabilities."""
    out = []
    for sentence_logits, ids in zip(logits, label_ids):
        kept = sentence_logits[ids != -100]
        probabilities = np.exp(kept) / np.exp(kept).sum(axis=1, keepdims=True)
        tags = [LABELS[k] for k in kept.argmax(axis=1)]
        corpus = Corpus.from_tags([tags])
        spans = []
        for label, start, end in decode(corpus).to_list(corpus)[0]:
            values = probabilities.max(axis=1)[start:end]
            spans.append((start, end, label, values.min() if aggregate == "min"
                          else values.mean()))
        out.append(spans)
    return out


@settings(max_examples=100, deadline=None)
@given(token_cases(), st.sampled_from(["min", "mean"]))
def test_token_probabilities_give_the_mentions_of_the_argmax_tags(case, aggregate):
    logits, label_ids = case
    if not (label_ids != -100).any(axis=1).all():
        label_ids[:, 0] = 0  # every sentence keeps a position
    table = scored_tokens(logits, LABELS, label_ids=label_ids, aggregate=aggregate,
                          logits=True)
    got = [[(m["start"], m["end"], m["label"], m["score"]) for m in s]
           for s in table.to_lists()]
    expected = brute_force(logits, label_ids, aggregate)
    assert [[s[:3] for s in sentence] for sentence in got] == \
        [[s[:3] for s in sentence] for sentence in expected]
    assert [s[3] for sentence in got for s in sentence] == pytest.approx(
        [s[3] for sentence in expected for s in sentence], rel=1e-9)


def test_a_trainers_logits_swept_at_zero_are_nerspan_score_of_the_argmax():
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(6, 9, len(LABELS)))
    label_ids = rng.choice([-100, 0, 0, 1, 2, 3, 4], size=(6, 9))
    label_ids[:, 0] = 0
    gold = decode(Corpus.from_ids(label_ids, label_list=LABELS))
    sweep = sweep_spans(gold, scored_tokens(logits, LABELS, label_ids=label_ids))
    expected = nerspan.score(label_ids, logits.argmax(-1), label_list=LABELS)
    assert sweep.at(0.0).to_dict() == expected.to_dict()


def test_probabilities_are_told_from_logits_or_said():
    probabilities = np.array([[[0.2, 0.8, 0.0, 0.0, 0.0], [0.1, 0.0, 0.7, 0.1, 0.1]]])
    table = scored_tokens(probabilities, LABELS)
    assert table.to_lists() == [[{"start": 0, "end": 2, "label": "PER", "score": 0.7}]]
    as_logits = scored_tokens(probabilities, LABELS, logits=True)
    softmax = np.exp(probabilities[0]) / np.exp(probabilities[0]).sum(axis=1, keepdims=True)
    assert as_logits.confidence[0] == pytest.approx(softmax.max(axis=1).min())


def test_a_crfs_marginals_with_its_own_path():
    # ragged per-sentence marginals; the Viterbi path may differ from the argmax
    marginals = [np.array([[0.4, 0.6, 0, 0, 0], [0.5, 0, 0.5, 0, 0]]),
                 np.array([[0.9, 0.1, 0, 0, 0]])]
    table = scored_tokens(marginals, LABELS, predicted=[[1, 2], [0]])
    assert table.to_lists() == [[{"start": 0, "end": 2, "label": "PER", "score": 0.5}], []]


@pytest.mark.parametrize("kwargs, error, message", [
    ({"probabilities": np.full((1, 2, 5), np.nan)}, LabelIdError,
     r"predictions, sentence 0, position 0: probabilities \[nan, nan, nan, nan, nan\] are "
     "not all numbers"),
    ({"probabilities": np.full((1, 2, 5), 2.0), "logits": False}, NerspanError,
     r"predictions, sentence 0, position 0: probabilities .* are not all in \[0, 1\] "
     r"\(logits=True reads logits\)"),
    ({"probabilities": np.zeros((1, 2, 4))}, InputTypeError,
     "probabilities over 4 labels, but label_list has 5"),
    ({"probabilities": np.zeros((1, 2, 5)), "label_ids": [[0, 0, 0]]}, LengthMismatchError,
     "one row of probabilities is needed per label position"),
    ({"probabilities": np.zeros((1, 2, 5)), "predicted": [[0, 7]]}, LabelIdError,
     r"predictions, sentence 0, position 1: predicted id 7 is outside the label list"),
    ({"probabilities": "logits"}, InputTypeError, "probabilities must be an array"),
])
def test_bad_token_probabilities_name_what_is_wrong(kwargs, error, message):
    with pytest.raises(error, match=message):
        scored_tokens(label_list=LABELS, **kwargs)
