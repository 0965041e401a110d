"""Grounding generated entities to token spans (nerspan.generative.grounding): levels,
occurrences, duplicates, overlaps, the sentence text, the record, and ungrounded
entities as false positives."""
from __future__ import annotations

import json

import pytest

import faireval
import nerspan
from nerspan.generative import (GenerativeRepairs, add_ungrounded, ground,
                                merge_repairs, read_generated)

WORDS = ["Ada", "Lovelace", "met", "Babbage", "in", "London", "."]


def spans(entities, tokens=WORDS, **options):
    return ground([entities], tokens=[tokens], **options).spans[0]


def levels(entities, tokens=WORDS, **options):
    found = ground([entities], tokens=[tokens], **options).repairs.levels
    return {k: v for k, v in found.items() if v}


# -- levels -----------------------------------------------------------------------------

def test_exact_level():
    assert spans([["Ada Lovelace", "PER"], ["London", "LOC"]]) == [(0, 2, "PER"), (5, 6, "LOC")]
    assert levels([["Ada Lovelace", "PER"], ["London", "LOC"]]) == {"exact": 2}


def test_case_insensitive_level():
    assert spans([["ada LOVELACE", "PER"]]) == [(0, 2, "PER")]
    assert levels([["ada LOVELACE", "PER"]]) == {"case_insensitive": 1}


def test_case_insensitive_level_keeps_offsets_when_lower_case_is_longer():
    tokens = ["İstanbul", "and", "ANKARA"]
    assert spans([["ankara", "LOC"], ["İstanbul", "LOC"]], tokens) == \
        [(0, 1, "LOC"), (2, 3, "LOC")]


@pytest.mark.parametrize("text, expected", [
    ("Ada  Lovelace", (0, 2)),                   # whitespace collapsed
    ("\u201cAda Lovelace\u201d", (0, 2)),        # quotes around it
    ("Ada Lovelace,", (0, 2)),                   # surrounding punctuation
    ("\uff21\uff44\uff41 Lovelace", (0, 2)),     # NFKC: full-width letters
    ("London.", (5, 6)),                         # stripped: the token "." is not in it
])
def test_normalised_level(text, expected):
    assert spans([[text, "X"]]) == [(*expected, "X")]
    assert levels([[text, "X"]]) == {"normalised": 1}


def test_normalised_level_reaches_inside_a_tokens_own_punctuation():
    tokens = ["I", "love", "Paris,", "(London)", "and", "\u2018New", "York\u2019"]
    assert spans([["Paris", "LOC"], ["London", "LOC"], ["'new york'", "LOC"]], tokens) == \
        [(2, 3, "LOC"), (3, 4, "LOC"), (5, 7, "LOC")]
    assert levels([["Paris", "LOC"]], tokens) == {"normalised": 1}


def test_dashes_are_unified():
    assert spans([["Jean\u2013Paul", "PER"]], ["Jean-Paul", "Sartre"]) == [(0, 1, "PER")]


def test_text_inside_a_token_is_not_at_a_token_boundary():
    assert spans([["Love", "PER"], ["ondon", "LOC"], ["Ada Love", "PER"]]) == []


def test_fuzzy_level_only_when_asked():
    assert spans([["Ada Lovelance", "PER"]]) == []
    assert spans([["Ada Lovelance", "PER"]], fuzzy=0.9) == [(0, 2, "PER")]
    assert levels([["Ada Lovelance", "PER"]], fuzzy=0.9) == {"fuzzy": 1}
    assert spans([["Ada Lovelance", "PER"]], fuzzy=0.99) == []
    # the best window: "Babbage" is closer to "Babage" than "Babbage in" is
    assert spans([["Babage", "PER"]], fuzzy=0.8) == [(3, 4, "PER")]


def test_fuzzy_ties_go_to_the_leftmost_window():
    assert spans([["Parix", "LOC"]], ["Paris", "or", "Paris"], fuzzy=0.8) == [(0, 1, "LOC")]


def test_earlier_levels_win_over_later_ones():
    tokens = ["paris", "and", "Paris"]
    assert spans([["Paris", "LOC"]], tokens) == [(2, 3, "LOC")]          # exact only
    assert spans([["PARIS", "LOC"]], tokens) == [(0, 1, "LOC"), (2, 3, "LOC")]


# -- occurrences --------------------------------------------------------------------------

def test_all_occurrences_by_default():
    tokens = ["Paris", "is", "not", "Paris", ",", "Texas"]
    assert spans([["Paris", "LOC"]], tokens) == [(0, 1, "LOC"), (3, 4, "LOC")]


def test_ordered_gives_the_ith_listing_the_ith_occurrence_whatever_the_type():
    tokens = ["Washington", "was", "born", "in", "Washington"]
    listed = [["Washington", "PER"], ["Washington", "LOC"]]
    assert spans(listed, tokens, occurrences="ordered") == [(0, 1, "PER"), (4, 5, "LOC")]
    # by default both mark both occurrences, and one type wins each place
    assert spans(listed, tokens) == [(0, 1, "LOC"), (4, 5, "LOC")]


def test_ordered_once_listed_marks_the_first_occurrence_only():
    tokens = ["Paris", "is", "not", "Paris"]
    assert spans([["Paris", "LOC"]], tokens, occurrences="ordered") == [(0, 1, "LOC")]


def test_ordered_listing_past_the_last_occurrence():
    tokens = ["Paris", "is", "far"]
    found = ground([[["Paris", "LOC"], ["Paris", "LOC"], ["Paris", "PER"]]], tokens=[tokens],
                   occurrences="ordered")
    assert found.spans == [[(0, 1, "LOC")]]
    r = found.repairs
    assert [(x.text, x.type) for x in r.duplicates] == [("Paris", "LOC")]
    assert [(x.text, x.type) for x in r.dropped_overlaps] == [("Paris", "PER")]


# -- duplicates -------------------------------------------------------------------------

def test_an_entity_listed_twice_is_one_entity():
    found = ground([[["London", "LOC"], ["London", "LOC"], ["london", "LOC"]]],
                   tokens=[WORDS])
    assert found.spans == [[(5, 6, "LOC")]]
    assert [(x.text, x.type) for x in found.repairs.duplicates] == \
        [("London", "LOC"), ("london", "LOC")]
    assert found.repairs.usable == 1 and found.repairs.entities == 3


def test_the_same_text_with_two_types_is_no_duplicate():
    found = ground([[["London", "LOC"], ["London", "ORG"]]], tokens=[WORDS])
    assert found.repairs.duplicates == ()
    assert len(found.repairs.dropped_overlaps) == 1


def test_an_ungrounded_entity_listed_twice_is_one_false_positive():
    found = ground([[["Atlantis", "LOC"], ["atlantis", "LOC"], ["Atlantis", "ORG"]]],
                   tokens=[WORDS])
    assert [(x.text, x.type) for x in found.repairs.ungrounded] == \
        [("Atlantis", "LOC"), ("Atlantis", "ORG")]
    assert len(found.repairs.duplicates) == 1


# -- overlaps ---------------------------------------------------------------------------

def test_the_longer_span_wins_and_the_dropped_one_is_listed():
    tokens = ["The", "New", "York", "Times", "says"]
    found = ground([[["York", "LOC"], ["New York", "LOC"], ["New York Times", "ORG"]]],
                   tokens=[tokens])
    assert found.spans == [[(1, 4, "ORG")]]
    assert sorted(x.reason for x in found.repairs.dropped_overlaps) == [
        "tokens 1..3 overlap 'New York Times' (ORG) at tokens 1..4",
        "tokens 2..3 overlap 'New York Times' (ORG) at tokens 1..4"]


def test_equal_lengths_go_to_the_leftmost():
    tokens = ["Ada", "Lovelace", "King"]
    assert spans([["Lovelace King", "PER"], ["Ada Lovelace", "PER"]], tokens) == \
        [(0, 2, "PER")]


def test_overlaps_keep_returns_them_all_for_faireval():
    tokens = ["The", "New", "York", "Times", "says"]
    listed = [["New York", "LOC"], ["New York Times", "ORG"]]
    found = ground([listed], tokens=[tokens], overlaps="keep")
    assert found.spans == [[(1, 3, "LOC"), (1, 4, "ORG")]]
    assert found.repairs.dropped_overlaps == ()
    result = faireval.score([[(1, 4, "ORG")]], found.spans)
    assert result.counts["TP"] == 1


# -- the sentence text: tokens, texts, both ----------------------------------------------

def test_texts_whitespace_words_are_the_tokens():
    found = ground([[["Ada Lovelace", "PER"], ["London", "LOC"]]],
                   texts=["Ada  Lovelace met\tBabbage in London."])
    # the text's own whitespace is kept ("Ada  Lovelace"), and "London." is one word:
    # both are found at the normalised level
    assert found.spans == [[(0, 2, "PER"), (5, 6, "LOC")]]
    assert found.repairs.levels["normalised"] == 2


def test_tokens_and_texts_together_find_tokens_in_the_text():
    found = ground([[["Lovelace's", "PER"]]], tokens=[["Ada", "Lovelace", "'s", "notes"]],
                   texts=["Ada Lovelace's notes"])
    assert found.spans == [[(1, 3, "PER")]]


def test_an_empty_sentence_grounds_nothing():
    found = ground([[["Ada", "PER"]], []], tokens=[[], ["Ada"]])
    assert found.spans == [[], []]
    assert [x.sentence for x in found.repairs.ungrounded] == [0]


# -- the record -------------------------------------------------------------------------

def test_the_record_counts_everything_and_is_plain_json():
    found = ground(["no JSON at all", '[["Ada", "person"], ["Ada", "person"], ["Oz", "LOC"],'
                    ' ["Bob", 7], ["London", "city"]]'], tokens=[WORDS, WORDS],
                   types={"PER", "LOC"}, type_map={"person": "PER"})
    r = found.repairs
    assert found.spans == [[], [(0, 1, "PER"), (5, 6, "city")]]
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert {k: d[k] for k in ("responses", "entities", "usable", "spans", "parse_failures",
                              "rejected", "unknown_types", "duplicates", "ungrounded",
                              "dropped_overlaps")} == {
        "responses": 2, "entities": 4, "usable": 2, "spans": 2, "parse_failures": 1,
        "rejected": 1, "unknown_types": 1, "duplicates": 1, "ungrounded": 1,
        "dropped_overlaps": 0}
    assert d["levels"] == {"exact": 2, "case_insensitive": 0, "normalised": 0, "fuzzy": 0}
    assert d["ungrounded_by_type"] == {"LOC": 1}
    assert d["listed"]["ungrounded"] == [{"sentence": 1, "text": "Oz", "type": "LOC"}]
    assert d["listed"]["unknown_types"] == [{"sentence": 1, "text": "London", "type": "city"}]
    assert d["sentences"] == [0, 1]
    assert d["summary"] == ("2 of 4 entities usable (50%); 1 of 2 responses unreadable; "
                            "1 item rejected; 1 entity of an unknown type; 1 entity listed "
                            "twice; 1 entity ungrounded")


def test_listings_are_cut_but_counts_stay_whole():
    many = [[f"x{k}", "PER"] for k in range(1500)]
    d = ground([many], tokens=[["a"]]).repairs.to_dict()
    assert d["ungrounded"] == 1500 and len(d["listed"]["ungrounded"]) == 1000
    long_text = "y" * 500
    d = ground([[[long_text, "PER"]]], tokens=[["a"]]).repairs.to_dict()
    assert d["listed"]["ungrounded"][0]["text"].endswith("... (500 characters)")


def test_records_of_batches_merge_with_shifted_sentences():
    first = ground([[["Oz", "LOC"]], [["Ada", "PER"]]], tokens=[WORDS, WORDS]).repairs
    second = ground([[["Narnia", "LOC"]]], tokens=[WORDS]).repairs
    merged = GenerativeRepairs.merged([first, second])
    whole = ground([[["Oz", "LOC"]], [["Ada", "PER"]], [["Narnia", "LOC"]]],
                   tokens=[WORDS] * 3).repairs
    assert merged == whole


def test_the_record_joins_a_results_repairs_on_the_prediction_side():
    record = ground([[["Oz", "LOC"]]], tokens=[WORDS]).repairs
    scores = nerspan.score([[(5, 6, "LOC")]], [[]], tokens=[WORDS])
    merged = merge_repairs(scores.to_dict()["repairs"], record)
    assert merged["gold"] == scores.to_dict()["repairs"]["gold"]
    assert merged["pred"]["generative"]["ungrounded"] == 1
    assert merged["pred"]["invalid_transitions"] == 0 and merged["pred"]["sentences"] == [0]


# -- ungrounded entities are false positives ---------------------------------------------

def test_add_ungrounded_counts_them_as_wrong_predictions():
    tokens = [WORDS, ["Paris", "!"]]
    gold = [[(0, 2, "PER"), (5, 6, "LOC")], [(0, 1, "LOC")]]
    found = ground([[["Ada Lovelace", "PER"], ["Atlantis", "LOC"], ["Zorro", "HERO"]],
                    [["Paris", "LOC"]]], tokens=tokens)
    scores = nerspan.score(gold, found.spans, tokens=tokens)
    assert scores.micro() == (1.0, 2 / 3, 0.8)
    adjusted = add_ungrounded(scores, found.repairs)
    assert adjusted.micro() == (0.5, 2 / 3, pytest.approx(4 / 7))
    d = adjusted.to_dict()
    assert d["predicted"] == 4 and d["correct"] == 2 and d["gold"] == 3
    assert d["per_type"]["HERO"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 0,
                                     "predicted": 1, "correct": 0}
    assert d["per_type"]["LOC"]["predicted"] == 2 and d["per_type"]["LOC"]["precision"] == 0.5
    assert d["repairs"]["pred"]["generative"]["ungrounded"] == 2
    assert "HERO/recall" in d["undefined"]


def test_add_ungrounded_without_ungrounded_entities_changes_no_number():
    found = ground([[["London", "LOC"]]], tokens=[WORDS])
    scores = nerspan.score([[(5, 6, "LOC")]], found.spans, tokens=[WORDS])
    adjusted = add_ungrounded(scores, found.repairs)
    assert adjusted.micro() == scores.micro() and adjusted.types == scores.types


# -- reading once, grounding many times ---------------------------------------------------

def test_ground_takes_what_read_generated_returned():
    read = read_generated([[["london", "location"]]], types={"LOC"}, type_map={"location": "LOC"})
    assert ground(read, tokens=[WORDS]).spans == [[(5, 6, "LOC")]]
    with pytest.raises(ValueError, match="types and type_map apply when the output is read"):
        ground(read, tokens=[WORDS], types={"LOC"})


def test_every_family_scores_grounded_spans_like_any_prediction():
    import attribute_buckets
    import hardeval
    import tough_mentions
    train_tokens, train_tags = [WORDS], [["B-PER", "I-PER", "O", "B-PER", "O", "B-LOC", "O"]]
    gold = [[(0, 2, "PER"), (3, 4, "PER"), (5, 6, "LOC")]]
    found = ground(['{"PER": ["Ada Lovelace", "Babbage"], "LOC": ["London"]}'], tokens=[WORDS])
    assert found.spans == gold
    corpus = nerspan.from_spans(gold, found.spans, tokens=[WORDS])
    train = {"train": (train_tokens, train_tags)}
    assert nerspan.score(corpus).micro() == (1.0, 1.0, 1.0)
    assert faireval.score(gold, found.spans).to_dict()["f1"] == 1.0
    assert tough_mentions.score(corpus, **train).to_dict()["recall"] == 1.0
    assert hardeval.score(corpus, **train).to_dict()["ter"] == 0.0
    assert attribute_buckets.score(corpus, **train).to_dict()["f1"] == 1.0
