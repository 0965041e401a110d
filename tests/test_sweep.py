"""The sweep (nerspan.sweeps, METHODS §8): every curve point is nerspan.score of the
mentions kept, average precision is scikit-learn's times the share of gold ever predicted,
the calibration error is the plain definition's, and the operating points."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
from nerspan import Corpus, NerspanError, SentenceCountError, decode
from nerspan.operating_points import choose_thresholds, operating_point
from nerspan.result import SHARED_KEYS, Result
from nerspan.scored import scored_spans
from nerspan.sweeps import N_BINS, sweep_spans

TYPES = ("PER", "LOC", "ORG")
TAGS = ("O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG")
# a few values make ties between mentions; any float in [0, 1] makes the rest
SCORES = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]) | st.floats(0, 1)


@st.composite
def scored_cases(draw, max_sentences: int = 5):
    """``(gold tags, scored spans)``: predictions do not overlap (``nerspan.score`` reads
    them as tags), some are written twice with two scores."""
    gold, predictions = [], []
    for _ in range(draw(st.integers(1, max_sentences))):
        length = draw(st.integers(0, 8))
        gold.append(draw(st.lists(st.sampled_from(TAGS), min_size=length, max_size=length)))
        spans, position = [], 0
        while position < length:
            if draw(st.booleans()):
                size = draw(st.integers(1, min(3, length - position)))
                label = draw(st.sampled_from(TYPES))
                spans.append((position, position + size, label, draw(SCORES)))
                if draw(st.integers(0, 4)) == 0:
                    spans.append((position, position + size, label, draw(SCORES)))
                position += size
            else:
                position += 1
        predictions.append(draw(st.permutations(spans)))
    return gold, predictions


def deduplicated(predictions) -> list[dict]:
    """Per sentence, (start, end, label) -> the highest of its scores."""
    out = []
    for spans in predictions:
        best = {}
        for start, end, label, score in spans:
            best[(start, end, label)] = max(score, best.get((start, end, label), -1.0))
        out.append(best)
    return out


def kept_at(predictions, threshold: float) -> list[list[tuple]]:
    return [[span for span, score in sentence.items() if score >= threshold]
            for sentence in deduplicated(predictions)]


def sweep_of(gold, predictions, zero_division=0.0):
    return sweep_spans(decode(Corpus.from_tags(gold)), scored_spans(predictions),
                       zero_division=zero_division)


@settings(max_examples=150, deadline=None)
@given(scored_cases(), st.sampled_from([0.0, 1.0]))
def test_every_curve_point_is_nerspan_score_of_the_mentions_kept(case, zero_division):
    gold, predictions = case
    sweep = sweep_of(gold, predictions, zero_division)
    curve = sweep.curve
    distinct = sorted({s for sentence in deduplicated(predictions) for s in sentence.values()},
                      reverse=True)
    assert curve.threshold.tolist() == distinct
    for k, threshold in enumerate(distinct):
        expected = nerspan.score(gold, kept_at(predictions, threshold),
                                 zero_division=zero_division)
        assert (curve.precision[k], curve.recall[k], curve.f1[k]) == expected.micro()
        assert (curve.predicted[k], curve.correct[k]) == (expected.n_predicted,
                                                          expected.n_correct)
        rows = expected.to_dict()["per_type"]
        for name, type_curve in sweep.type_curves.items():
            at = np.flatnonzero(type_curve.threshold >= threshold)
            if not len(at):
                continue  # no mention of the type kept
            point = type_curve.point(int(at[-1]))
            row = rows[name]
            assert point["predicted"] == row["predicted"] and point["correct"] == row["correct"]
            assert (point["precision"], point["recall"], point["f1"]) == \
                (row["precision"], row["recall"], row["f1"])
            assert type_curve.gold == row["support"]


@settings(max_examples=100, deadline=None)
@given(scored_cases(), st.sampled_from([0.0, 1.0]), SCORES)
def test_at_a_threshold_is_the_whole_result_of_nerspan_score(case, zero_division, threshold):
    gold, predictions = case
    sweep = sweep_of(gold, predictions, zero_division)
    for t in {threshold, 0.0, 1.0, *sweep.curve.threshold.tolist()}:
        expected = nerspan.score(gold, kept_at(predictions, t), zero_division=zero_division)
        at = sweep.at(t)
        assert at.micro() == expected.micro()
        # the same result as nerspan.score's at the threshold (identical mentions dropped
        # counted in its repairs), which names the threshold in its options
        direct = nerspan.score(gold, predictions, zero_division=zero_division,
                               inputs={"threshold": t}).to_dict()
        assert direct["options"].pop("threshold") == t
        assert at.to_dict() == direct
        direct["repairs"]["pred"].update(duplicates=0, sentences=[])
        assert direct == expected.to_dict()


@settings(max_examples=150, deadline=None)
@given(scored_cases())
def test_average_precision_is_scikit_learns_times_the_share_of_gold_ever_predicted(case):
    metrics = pytest.importorskip("sklearn.metrics")
    gold, predictions = case
    sweep = sweep_of(gold, predictions)
    gold_mentions = {(s, start, end, label) for s, sentence in enumerate(
        decode(Corpus.from_tags(gold)).to_list(Corpus.from_tags(gold)))
        for label, start, end in sentence}
    scored = [((s, *span), score) for s, sentence in enumerate(deduplicated(predictions))
              for span, score in sentence.items()]
    correct = [mention in gold_mentions for mention, _ in scored]
    if not gold_mentions:
        assert sweep.average_precision is None
    elif not any(correct):
        assert sweep.average_precision == 0.0
    else:
        expected = metrics.average_precision_score(correct, [s for _, s in scored]) \
            * sum(correct) / len(gold_mentions)
        assert sweep.average_precision == pytest.approx(expected, rel=1e-12, abs=1e-15)


def plain_ece(confidences: list[float], correct: list[bool]) -> float:
    """The expected calibration error as METHODS §8 writes it, one mention at a time."""
    bins = [[] for _ in range(10)]
    for confidence, ok in zip(confidences, correct):
        k = max(k for k in range(10) if k / 10 <= confidence)
        bins[k].append((confidence, ok))
    return sum(len(b) / len(confidences) * abs(sum(ok for _, ok in b) / len(b)
                                               - sum(c for c, _ in b) / len(b))
               for b in bins if b)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(SCORES, st.booleans()), min_size=1, max_size=40))
def test_ece_is_the_plain_definition(mentions):
    predictions = [[(k, k + 1, "PER", score) for k, (score, _) in enumerate(mentions)]]
    # the correct ones are gold mentions of one token
    gold = [["B-PER" if ok else "O" for _, ok in mentions]]
    sweep = sweep_of(gold, predictions)
    expected = plain_ece([s for s, _ in mentions], [ok for _, ok in mentions])
    assert sweep.calibration["ece"] == pytest.approx(expected, rel=1e-12, abs=1e-15)
    rows = sweep.calibration["reliability"]
    assert len(rows) == N_BINS and sum(row["count"] for row in rows) == len(mentions)


def test_ece_bins_take_their_lower_edge_and_one_the_last():
    confidences = [0.0, 0.1, 0.3, 0.7, 0.9, 1.0]
    sweep = sweep_of([["O"] * 6], [[(k, k + 1, "PER", c) for k, c in enumerate(confidences)]])
    counts = [row["count"] for row in sweep.calibration["reliability"]]
    assert counts == [1, 1, 0, 1, 0, 0, 0, 1, 0, 2]
    assert sweep.calibration["ece"] == pytest.approx(sum(confidences) / 6)


def test_gold_as_predictions_with_confidence_one_is_perfect():
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG"], []]
    spans = [[(start, end, label, 1.0) for label, start, end in sentence]
             for sentence in decode(Corpus.from_tags(gold)).to_list(Corpus.from_tags(gold))]
    result = sweep_of(gold, spans).to_dict()
    assert (result["precision"], result["recall"], result["f1"]) == (1.0, 1.0, 1.0)
    assert result["average_precision"] == 1.0 and result["ece"] == 0.0
    assert (result["best_threshold"], result["best_f1"]) == (1.0, 1.0)
    assert all(row["average_precision"] == 1.0 and row["best_f1"] == 1.0
               for row in result["per_type"].values())


def test_the_best_threshold_is_the_highest_among_ties():
    # F1 2/3 at 0.9 (1 of 1, gold 2) and at 0.5 (2 of 4): the higher threshold
    gold = [["B-PER", "O", "B-PER", "O", "O"]]
    predictions = [[(0, 1, "PER", 0.9), (1, 2, "PER", 0.7), (2, 3, "PER", 0.5),
                    (3, 4, "PER", 0.5)]]
    sweep = sweep_of(gold, predictions)
    assert sweep.curve.f1[0] == sweep.curve.f1[-1] == max(sweep.curve.f1)
    assert sweep.best_threshold == 0.9 and sweep.best_thresholds() == {"PER": 0.9}


def test_duplicates_keep_the_higher_score_and_are_counted():
    sweep = sweep_of([["B-PER", "O"]], [[(0, 1, "PER", 0.2), (0, 1, "PER", 0.8),
                                         (0, 1, "LOC", 0.3)]])
    assert sweep.curve.threshold.tolist() == [0.8, 0.3]
    result = sweep.to_dict()
    assert result["repairs"]["pred"]["duplicates"] == 1
    assert result["repairs"]["gold"]["duplicates"] == 0


@settings(max_examples=80, deadline=None)
@given(scored_cases(), SCORES)
def test_duplicates_are_counted_alike_in_the_sweep_at_its_points_and_at_a_threshold(
        case, threshold):
    # issue 40: two identical mentions keep the higher score, the others counted in the
    # repairs of every result made of them, whatever the threshold keeps
    gold, predictions = case
    dropped = sum(len(sentence) for sentence in predictions) - \
        sum(len(sentence) for sentence in deduplicated(predictions))
    sentences = sorted(i for i, sentence in enumerate(predictions)
                       if len(sentence) > len(deduplicated([sentence])[0]))
    sweep = nerspan.sweep(gold, predictions)
    at = nerspan.score(gold, predictions, inputs={"threshold": threshold})
    for result in (sweep.to_dict(), sweep.at(threshold).to_dict(), at.to_dict()):
        assert result["repairs"]["pred"]["duplicates"] == dropped
        assert result["repairs"]["pred"]["sentences"] == sentences[:20]
    # the higher score is the one kept: the kept mentions scored as plain spans
    assert at.micro() == nerspan.score(gold, kept_at(predictions, threshold)).micro()


def test_overlapping_predictions_are_scored_as_mentions():
    # nested and overlapping predicted mentions (GLiNER with flat_ner=False): each
    # counts; the one identical to the gold mention is correct
    sweep = sweep_of([["B-ORG", "I-ORG", "I-ORG"]],
                     [[(0, 3, "ORG", 0.6), (0, 1, "LOC", 0.9), (1, 3, "ORG", 0.4)]])
    assert sweep.curve.correct.tolist() == [0, 1, 1]
    assert sweep.at(0.5).to_dict()["per_type"]["LOC"]["predicted"] == 1


def test_the_result_is_plain_json_with_the_contract_keys():
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG"]]
    sweep = sweep_of(gold, [[(0, 2, "PER", 0.9), (3, 4, "ORG", 0.3)], []])
    result = sweep.to_dict()
    assert isinstance(sweep, Result) and isinstance(operating_point(sweep, sweep), Result)
    assert json.loads(json.dumps(result)) == result
    assert set(SHARED_KEYS) <= set(result)
    assert list(result["per_type"]) == ["LOC", "ORG", "PER"]
    assert result["per_type"]["LOC"]["best_threshold"] is None  # never predicted
    assert result["per_type"]["LOC"]["average_precision"] == 0.0
    assert result["per_type"]["ORG"]["average_precision"] == 0.0
    assert result["undefined"] == ["LOC/precision"]  # as nerspan.score lists it
    assert result["curve"]["threshold"] == [0.9, 0.3]


def test_undefined_numbers_are_none_and_listed():
    result = sweep_of([["O", "O"]], [[]]).to_dict()
    assert result["average_precision"] is None and result["ece"] is None
    assert result["best_threshold"] is None
    assert {"precision", "recall", "average_precision", "best_threshold", "ece"} <= \
        set(result["undefined"])


def test_the_grid_is_every_distinct_confidence_or_quantiles():
    scores = np.linspace(0, 1, 500).tolist()
    sweep = sweep_of([["O"] * 500], [[(k, k + 1, "PER", s) for k, s in enumerate(scores)]])
    assert sweep.grid(1000).tolist() == sorted(scores, reverse=True)
    grid = sweep.grid(11)
    assert len(grid) == 11 and grid[0] == 1.0 and grid[-1] == 0.0
    assert set(grid.tolist()) <= set(scores) and list(grid) == sorted(grid, reverse=True)


def test_bad_sweeps_name_what_is_wrong():
    gold = decode(Corpus.from_tags([["B-PER", "O"]]))
    with pytest.raises(SentenceCountError, match="predictions hold 2 sentences, references 1"):
        sweep_spans(gold, scored_spans([[], []]))
    with pytest.raises(NerspanError, match=r"predictions, sentence 0: span \(1, 3, 'PER'\) "
                                           r"reaches past the end of the sentence \(2 tokens\)"):
        sweep_spans(gold, scored_spans([[(1, 3, "PER", 0.5)]]))
    sweep = sweep_spans(gold, scored_spans([[(0, 1, "PER", 0.5), (1, 2, "LOC", 0.5)]]))
    with pytest.raises(ValueError, match=r"'PRE' is no entity type .*did you mean 'PER'"):
        sweep.at({"PRE": 0.5})
    with pytest.raises(ValueError, match="thresholds give none for the predicted 1 type LOC"):
        sweep.at({"PER": 0.5})
    with pytest.raises(ValueError, match=r"threshold: 1.5 is not a confidence"):
        sweep.at(1.5)
    with pytest.raises(ValueError, match="zero_division must be 0 or 1"):
        sweep_spans(gold, scored_spans([[]]), zero_division=0.5)


# -- operating points ----------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(scored_cases(max_sentences=6), scored_cases(max_sentences=6), st.booleans())
def test_thresholds_chosen_on_dev_score_test_as_nerspan_score(dev_case, test_case, per_type):
    dev, test = sweep_of(*dev_case), sweep_of(*test_case)
    if not len(dev.confidence):
        with pytest.raises(ValueError, match="no predicted mention to choose a threshold on"):
            operating_point(dev, test, per_type=per_type)
        return
    point = operating_point(dev, test, per_type=per_type)
    chosen = choose_thresholds(dev, per_type)
    gold, predictions = test_case
    if per_type:
        fallback = dev.best_threshold
        kept = [[span for span, s in sentence.items()
                 if s >= chosen.get(span[2], fallback)]
                for sentence in deduplicated(predictions)]
        assert set(point.fallback_types) == {t for t in test.type_curves if t not in chosen}
    else:
        kept = kept_at(predictions, chosen)
        assert point.threshold == dev.best_threshold
    scores = point.scores.to_dict()
    assert scores["repairs"]["pred"] == test.to_dict()["repairs"]["pred"]   # duplicates
    scores["repairs"]["pred"].update(duplicates=0, sentences=[])
    assert scores == nerspan.score(gold, kept).to_dict()
    assert point.chosen_on_scored is dev.same_data(test)
    if not point.chosen_on_scored:
        assert point.f1_chosen_elsewhere == point.scores.micro()[2]
        assert point.inflation >= -1e-12 or per_type  # the test split's own best is best


def test_choosing_on_the_scored_split_says_so_and_estimates_the_inflation():
    # first half: the correct mentions score high; second half: low. Chosen on the whole,
    # the threshold keeps everything; each half alone would choose its own threshold
    gold = [["B-PER", "O", "O"], ["B-PER", "O", "O"], ["B-PER", "O", "O"],
            ["B-PER", "O", "O"]]
    predictions = [[(0, 1, "PER", 0.9), (1, 2, "PER", 0.2)],
                   [(0, 1, "PER", 0.8), (1, 2, "PER", 0.3)],
                   [(0, 1, "PER", 0.2), (1, 2, "PER", 0.9)],
                   [(0, 1, "PER", 0.3), (1, 2, "PER", 0.8)]]
    sweep = sweep_of(gold, predictions)
    again = sweep_of(gold, predictions)   # the same data, read twice
    point = operating_point(again, sweep)
    assert point.chosen_on_scored
    assert point.f1_chosen_on_scored == point.scores.micro()[2]
    # the halves: sentences 0-1 choose 0.8 (F1 1 there), which keeps two wrong
    # mentions of sentences 2-3 (F1 0); sentences 2-3 choose 0.2 (keep all), which keeps
    # everything in sentences 0-1 (2 of 4); pooled: 2 correct of 6 predicted, 4 gold
    expected = nerspan.score(gold, [[(0, 1, "PER"), (1, 2, "PER")]] * 2
                             + [[(1, 2, "PER")]] * 2).micro()[2]
    assert point.f1_chosen_elsewhere == pytest.approx(expected)
    assert point.inflation == pytest.approx(point.scores.micro()[2] - expected)
    result = point.to_dict()
    assert json.loads(json.dumps(result)) == result
    assert result["chosen_on_scored"] is True and result["inflation"] > 0
    assert result["options"]["per_type"] is False
    per_type = operating_point(again, sweep, per_type=True).to_dict()
    assert per_type["threshold"] is None and per_type["undefined"] == ["threshold"]
    assert per_type["thresholds"] == {"PER": 0.2} and per_type["options"]["per_type"]
    other = operating_point(sweep_of(gold[:2], predictions[:2]), sweep)
    assert not other.chosen_on_scored and other.threshold == 0.8


@settings(max_examples=40, deadline=None)
@given(scored_cases(max_sentences=4), scored_cases(max_sentences=4), st.booleans())
def test_nerspan_sweep_is_the_sweep_with_the_operating_point_of_one_call(dev_case, test_case,
                                                                          per_type):
    """``nerspan.sweep(references, predictions, choose_on=(dev pair), per_type=)``: the
    sweep of ``sweep_spans`` with ``operating_point(dev sweep, test sweep)`` attached."""
    test = nerspan.sweep(*test_case, choose_on=dev_case, per_type=per_type)
    expected = sweep_of(*test_case)
    assert test.same_data(expected)
    result = test.to_dict()
    assert {k: v for k, v in result.items() if k != "operating_point"} == expected.to_dict()
    dev = sweep_of(*dev_case)
    if not len(dev.confidence):
        assert test.operating_point is None and "operating_point" not in result
        return
    point = operating_point(dev, expected, per_type=per_type)
    assert result["operating_point"] == point.to_dict()
    mine = nerspan.sweep(*test_case, per_type=per_type).operating_point
    if len(expected.confidence):
        assert mine.chosen_on_scored and \
            mine.to_dict() == operating_point(expected, expected, per_type=per_type).to_dict()


def test_nerspan_sweep_reads_gold_as_nerspan_score_and_names_a_bad_dev_split():
    words = [["Ada", "met", "Paris"]]
    gliner = [[{"start": 8, "end": 13, "text": "Paris", "label": "LOC", "score": 0.7}]]
    s = nerspan.sweep([["B-PER", "O", "B-LOC"]], gliner, tokens=words,
                      inputs={"offsets": "chars"})
    assert s.at(0.5).micro() == nerspan.score([["B-PER", "O", "B-LOC"]],
                                              [["O", "O", "B-LOC"]]).micro()
    with pytest.raises(TypeError, match="choose_on must be a dev split's"):
        nerspan.sweep([["B-PER"]], [[(0, 1, "PER", 0.5)]], choose_on=[["B-PER"]])
    with pytest.raises(ValueError, match="aggregate"):
        nerspan.sweep([["B-PER"]], [[(0, 1, "PER", 0.5)]], aggregate="max")
    with pytest.raises(SentenceCountError, match="predictions hold 2 sentences"):
        nerspan.sweep([["B-PER"]], [[(0, 1, "PER", 0.5)], []])
