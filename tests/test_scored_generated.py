"""Generated output with a score per entity (nerspan.generative.scored_output, METHODS §6
and §8): the scores survive grounding, so the sweep and the report's confidence section
read LLM output. Every curve point is checked against brute force: the entities kept at
that threshold scored by nerspan.score as any generated output is."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerlens
import nerspan
from nerspan import Corpus, InputTypeError, NerspanError
from nerspan.generative import read_generated
from nerspan.generative.scored_output import scored_generated

WORDS = ("Ada", "Paris", "Rome", "ACME", "in", "and", "visits")
TAGS = ("O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG")
# each text has one type, so that no two grounded spans overlap (grounding resolves
# overlaps before any threshold; with none, filtering the entities first is the same)
TYPE_OF = {"Ada": "PER", "ada": "PER", "Paris": "LOC", "paris": "LOC", "Rome": "LOC",
           "ACME": "ORG", "Oz": "LOC", "Atlantis": "LOC", "Zed": "PER"}
SCORES = st.sampled_from([0.0, 0.2, 0.5, 0.7, 1.0]) | st.floats(0, 1)


@st.composite
def generated_cases(draw):
    """``(gold tags, tokens, entity lists with scores)``: texts of one word, found or
    not (Oz, Atlantis, Zed), in any case, some listed twice with two scores."""
    gold, tokens, outputs = [], [], []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 7))
        tokens.append(draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)))
        gold.append(draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)))
        texts = draw(st.lists(st.sampled_from(sorted(TYPE_OF)), max_size=6))
        outputs.append([{"text": text, "type": TYPE_OF[text], "score": draw(SCORES)}
                        for text in texts])
    return gold, tokens, outputs


def kept_entities(outputs, threshold: float) -> list:
    """The entities of confidence >= threshold, as unscored generated output."""
    return [[{"text": e["text"], "type": e["type"]} for e in entities
             if e["score"] >= threshold] for entities in outputs]


@settings(max_examples=120, deadline=None)
@given(generated_cases())
def test_every_curve_point_is_nerspan_score_of_the_entities_kept(case):
    gold, tokens, outputs = case
    sweep = nerspan.sweep(gold, outputs, tokens=tokens)
    curve = sweep.curve
    # every score given; a repeat's lower one may be no mention's confidence
    scores = sorted({e["score"] for entities in outputs for e in entities}, reverse=True)
    assert set(curve.threshold.tolist()) <= set(scores)
    points = {t: k for k, t in enumerate(curve.threshold.tolist())}
    for threshold in scores:
        brute = nerspan.score(gold, kept_entities(outputs, threshold), tokens=tokens)
        if threshold in points:
            k = points[threshold]
            assert (int(curve.correct[k]), int(curve.predicted[k])) == \
                (brute.n_correct, brute.n_predicted)
            assert (curve.precision[k], curve.recall[k], curve.f1[k]) == \
                pytest.approx(brute.micro())
        assert sweep.at(threshold).micro() == pytest.approx(brute.micro())
        assert sweep.counts_at(threshold) == (brute.n_correct, brute.n_predicted,
                                              brute.n_gold)
        for name, row in brute.to_dict()["per_type"].items():
            typed = sweep.type_curves[name]
            at = np.flatnonzero(typed.threshold >= threshold)
            predicted = int(typed.predicted[at[-1]]) if len(at) else 0
            correct = int(typed.correct[at[-1]]) if len(at) else 0
            assert (correct, predicted, typed.gold) == \
                (row["correct"], row["predicted"], row["support"])
    # average precision from the brute-force points: sum (R_n - R_{n-1}) P_n
    if sum(map(len, (s for s in gold))) and scores:
        previous, ap = 0.0, 0.0
        for threshold in curve.threshold.tolist():
            precision, recall, _ = nerspan.score(gold, kept_entities(outputs, threshold),
                                                 tokens=tokens).micro()
            ap += (recall - previous) * precision
            previous = recall
        if sweep.average_precision is not None:
            assert sweep.average_precision == pytest.approx(ap)


@settings(max_examples=60, deadline=None)
@given(generated_cases())
def test_every_mention_kept_is_nerspan_score_of_the_output_and_calibration_counts_all(case):
    gold, tokens, outputs = case
    sweep = nerspan.sweep(gold, outputs, tokens=tokens)
    whole = nerspan.score(gold, outputs, tokens=tokens)   # the scores are ignored there
    assert sweep.at(0.0).micro() == pytest.approx(whole.micro())
    assert sweep.headline()["predicted"] == whole.n_predicted
    table = sweep.calibration["reliability"]
    assert sum(row["count"] for row in table) == whole.n_predicted


def test_a_mention_keeps_the_highest_score_of_its_entities_and_duplicates_are_counted():
    tokens = [["Ada", "visits", "Paris", "and", "Paris"]]
    gold = [["B-PER", "O", "B-LOC", "O", "B-LOC"]]
    # "paris" and "Paris" ground to the same two spans: each keeps 0.8, two merged
    outputs = [[{"text": "Paris", "type": "LOC", "score": 0.3},
                {"text": "paris", "type": "LOC", "score": 0.8},
                {"text": "Ada", "type": "PER", "score": 0.6}]]
    mentions = scored_generated(outputs, Corpus.from_tags(gold, tokens=tokens))
    assert mentions.to_lists() == [[
        {"start": 0, "end": 1, "label": "PER", "score": 0.6},
        {"start": 2, "end": 3, "label": "LOC", "score": 0.8},
        {"start": 4, "end": 5, "label": "LOC", "score": 0.8}]]
    assert mentions.duplicates == 2
    sweep = nerspan.sweep(gold, outputs, tokens=tokens)
    assert sweep.repairs["pred"]["duplicates"] == 2
    assert sweep.curve.threshold.tolist() == [0.8, 0.6]
    assert sweep.curve.recall.tolist() == [2 / 3, 1.0]


def test_an_entity_found_nowhere_is_a_wrong_prediction_where_it_is_kept():
    tokens = [["Ada", "in", "Rome"], ["ACME"]]
    gold = [["B-PER", "O", "B-LOC"], ["B-ORG"]]
    outputs = [[{"text": "Ada", "type": "PER", "score": 0.9},
                {"text": "Oz", "type": "LOC", "score": 0.5},
                {"text": "oz", "type": "LOC", "score": 0.7}],     # a repeat: 0.7 kept
               [{"text": "Atlantis", "type": "GPE", "score": 0.2}]]
    sweep = nerspan.sweep(gold, outputs, tokens=tokens)
    # 0.9: Ada right; 0.7: Oz wrong; 0.2: Atlantis (GPE, no gold type) wrong
    assert sweep.curve.threshold.tolist() == [0.9, 0.7, 0.2]
    assert sweep.curve.predicted.tolist() == [1, 2, 3]
    assert sweep.curve.correct.tolist() == [1, 1, 1]
    assert sweep.type_curves["GPE"].predicted.tolist() == [1]
    at = sweep.at(0.6).to_dict()
    assert at["per_type"]["LOC"]["predicted"] == 1 and "GPE" not in at["per_type"]
    assert at["repairs"]["pred"]["generative"]["ungrounded"] == 1
    assert sweep.at({"PER": 0.9, "LOC": 0.8, "GPE": 0.1}).micro() == \
        pytest.approx((0.5, 1 / 3, 0.4))
    with pytest.raises(ValueError, match="GPE"):
        sweep.at({"PER": 0.5, "LOC": 0.5})
    half = sweep.subset(np.array([False, True]))
    assert half.curve.predicted.tolist() == [1] and half.curve.correct.tolist() == [0]


def test_the_forms_the_generated_reader_takes_carry_their_score():
    tokens = [["Ada", "in", "Paris"]] * 3
    gold = [["B-PER", "O", "B-LOC"]] * 3
    outputs = ['Sure:\n```json\n[{"text": "Ada", "type": "person", "confidence": 0.4}]\n```',
               {"LOC": [{"text": "Paris", "score": 0.9}]},
               '[{"Text": "Paris", "Type": "LOC", "Score": 0.6}]']
    sweep = nerspan.sweep(gold, outputs, tokens=tokens,
                          inputs={"type_map": {"person": "PER"}})
    assert sweep.curve.threshold.tolist() == [0.9, 0.6, 0.4]
    assert sweep.curve.correct.tolist() == [1, 2, 3]
    read = read_generated(outputs, scored=True)
    assert [len(s) for s in read.scores] == [1, 1, 1]
    assert read_generated(outputs).scores is None


@pytest.mark.parametrize("entity, error, message", [
    ({"text": "Ada", "type": "PER", "score": 1.5}, NerspanError,
     r"sentence 1: entity 0 'Ada' \(PER\): 1.5 is not a confidence"),
    ({"text": "Ada", "type": "PER", "score": "high"}, InputTypeError,
     r"sentence 1: entity 0 'Ada' \(PER\): 'high' \(str\) is not a confidence"),
    ({"text": "Ada", "type": "PER", "score": float("nan")}, NerspanError,
     "nan is not a confidence"),
    ({"text": "Ada", "type": "PER", "score": True}, InputTypeError, "is not a confidence"),
    ({"text": "Ada", "type": "PER"}, NerspanError,
     r"sentence 1: entity 0 'Ada' \(PER\) has no score: .*'score' or 'confidence'"),
    (["Ada", "PER"], NerspanError, "has no score"),
])
def test_a_bad_or_missing_score_is_an_error_naming_the_sentence_and_entity(entity, error,
                                                                            message):
    tokens = [["Paris"], ["Ada"]]
    outputs = [[{"text": "Paris", "type": "LOC", "score": 0.5}], [entity]]
    with pytest.raises(error, match=message):
        nerspan.sweep([["B-LOC"], ["B-PER"]], outputs, tokens=tokens)
    with pytest.raises(error, match="scored system 'llm'"):
        nerlens.build_report([["B-LOC"], ["B-PER"]], tokens=tokens, scored={"llm": outputs},
                             families=[], bootstrap=0)


def test_output_read_without_scores_is_refused_by_name():
    tokens = [["Ada"]]
    read = read_generated([[{"text": "Ada", "type": "PER", "score": 0.5}]])
    with pytest.raises(InputTypeError, match=r"read_generated\(..., scored=True\)"):
        scored_generated(read, Corpus.from_tags([["B-PER"]], tokens=tokens))


def test_overlaps_are_resolved_by_grounding_before_any_threshold():
    # "Paris Hilton" (PER) and "Paris" (LOC) overlap: the longer wins whatever the
    # scores, and keeps its own; the dropped span is not revived below it
    tokens = [["Paris", "Hilton", "left"]]
    gold = [["B-PER", "I-PER", "O"]]
    outputs = [[{"text": "Paris Hilton", "type": "PER", "score": 0.3},
                {"text": "Paris", "type": "LOC", "score": 0.9}]]
    sweep = nerspan.sweep(gold, outputs, tokens=tokens)
    assert sweep.curve.threshold.tolist() == [0.3]
    assert sweep.at(0.5).micro() == (0.0, 0.0, 0.0)
    assert sweep.repairs["pred"]["generative"]["dropped_overlaps"] == 1


def test_ordered_occurrences_give_each_listing_its_own_score():
    tokens = [["Washington", "was", "born", "in", "Washington"]]
    gold = [["B-PER", "O", "O", "O", "B-LOC"]]
    outputs = [[{"text": "Washington", "type": "PER", "score": 0.8},
                {"text": "Washington", "type": "LOC", "score": 0.4}]]
    sweep = nerspan.sweep(gold, outputs, tokens=tokens, inputs={"occurrences": "ordered"})
    assert sweep.curve.threshold.tolist() == [0.8, 0.4]
    assert sweep.curve.correct.tolist() == [1, 2]


def test_the_report_turns_scored_generated_output_on_the_dial():
    tokens = [["Ada", "in", "Paris", "and", "Rome"], ["ACME", "hires"]]
    gold = [["B-PER", "O", "B-LOC", "O", "B-LOC"], ["B-ORG", "O"]]
    outputs = [json.dumps([{"text": "Ada", "type": "PER", "score": 0.9},
                           {"text": "Paris", "type": "LOC", "score": 0.3},
                           {"text": "in", "type": "LOC", "score": 0.8},
                           {"text": "Oz", "type": "LOC", "score": 0.5}]),
               [{"text": "ACME", "type": "ORG", "score": 0.7}]]
    report = nerlens.build_report(gold, tokens=tokens, scored={"llm": outputs},
                                  families=["faireval"], bootstrap=0)
    dial = report.confidence["llm"]
    sweep = nerspan.sweep(gold, outputs, tokens=tokens)
    assert dial["average_precision"] == pytest.approx(sweep.average_precision)
    every = nerspan.score(gold, outputs, tokens=tokens)   # Oz: a wrong prediction
    assert report.results["llm"]["entity"]["precision"] == pytest.approx(every.micro()[0])
    assert dial["at"]["every mention"]["entity_precision"] == pytest.approx(every.micro()[0])
    at_half = nerspan.score(gold, kept_entities([json.loads(outputs[0]), outputs[1]], 0.5),
                            tokens=tokens)
    assert dial["at"]["default 0.5"]["entity_f1"] == pytest.approx(at_half.micro()[2])
    assert "generative" in report.results["llm"]["entity"]["repairs"]["pred"]


def test_type_options_process_scored_predictions_as_they_process_any():
    tokens = [["Ada", "in", "Rome"]]
    gold = [["B-PER", "O", "B-LOC"]]
    outputs = [[{"text": "Ada", "type": "person", "score": 0.9},
                {"text": "Rome", "type": "LOC", "score": 0.8},
                {"text": "Oz", "type": "LOC", "score": 0.7}]]
    mapped = nerspan.sweep(gold, outputs, tokens=tokens,
                           inputs={"type_map": {"person": "PER"}})
    assert mapped.curve.correct.tolist() == [1, 2, 2]
    assert mapped.repairs["pred"]["types_mapped"] == 1
    kept = nerspan.sweep(gold, outputs, tokens=tokens,
                         inputs={"type_map": {"person": "PER"}, "keep_types": ["PER"]})
    # Rome and the hallucinated Oz (LOC) are removed, not wrong predictions of PER
    assert kept.curve.predicted.tolist() == [1] and kept.curve.f1.tolist() == [1.0]
    assert kept.repairs["pred"]["types_removed"] == 2
    spans = nerspan.sweep(gold, [[(0, 1, "person", 0.9)]], inputs={"type_map": {"person": "PER"}})
    assert spans.curve.correct.tolist() == [1]
