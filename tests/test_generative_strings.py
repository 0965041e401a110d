"""String matching (nerspan.generative.strings) and the UniversalNER evaluation's rules
(``inputs={"script": "universalner"}``), pinned on cases written here.

The UniversalNER numbers below are worked out by hand from the rules of its published
evaluation script (universal-ner/universal-ner, src/eval/evaluate.py), restated in
nerspan/generative/universalner.py: each comment says what the script does with the
query.
"""
from __future__ import annotations

import json

import pytest

from nerspan.generative import score_strings
from nerspan.generative import universalner as uner

EPS = 1e-10


def script(correct, predicted, gold, found=None):
    """The script's three formulas, restated (1e-10 in each denominator)."""
    p = correct / (predicted + EPS)
    r = (correct if found is None else found) / (gold + EPS)
    return p, r, 2 * p * r / (p + r + EPS)


# -- strings, nerlens's way -------------------------------------------------------------

def test_sets_of_normalised_text_and_type_per_sentence():
    tokens = [["Ada", "Lovelace", "met", "Babbage", "in", "London", "and", "London"],
              ["\u201cParis\u201d", "is", "nice"]]
    gold = [[(0, 2, "PER"), (3, 4, "PER"), (5, 6, "LOC"), (7, 8, "LOC")], [(0, 1, "LOC")]]
    predictions = [
        '[["ada lovelace", "PER"], ["Babbage", "LOC"], ["London", "LOC"], ["london.", "LOC"],'
        ' ["Atlantis", "LOC"]]',
        {"loc": ["'Paris'"]}]
    s = score_strings(gold, predictions, tokens=tokens)
    # gold sets: {ada lovelace/PER, babbage/PER, london/LOC}, {paris/LOC} -> 4 strings
    # predicted: {ada lovelace/PER, babbage/LOC, london/LOC, atlantis/LOC}, {paris/LOC}
    d = s.to_dict()
    assert (d["gold"], d["predicted"], d["correct"]) == (4, 5, 3)
    assert s.micro() == (0.6, 0.75, pytest.approx(2 / 3))
    assert d["per_type"]["PER"]["recall"] == 0.5 and d["per_type"]["LOC"]["precision"] == 0.5
    assert d["options"]["matching"] == "strings" and d["options"]["script"] is None
    generative = d["repairs"]["pred"]["generative"]
    assert generative["duplicates"] == 1 and generative["types"]["case_insensitive"] == 1
    assert json.loads(json.dumps(d)) == d


def test_gold_as_tags_with_tokens_or_texts():
    tags = [["B-PER", "I-PER", "O", "B-LOC"]]
    for words in ({"tokens": [["Ada", "Lovelace", "in", "Paris"]]},
                  {"inputs": {"texts": ["Ada Lovelace in Paris"]}}):
        s = score_strings(tags, [[["Ada Lovelace", "PER"], ["Paris", "LOC"]]], **words)
        assert s.micro() == (1.0, 1.0, 1.0)


def test_types_default_to_the_gold_types():
    s = score_strings([[(0, 1, "creative-work")]], [[["Dune", "Creative Work"]]],
                      tokens=[["Dune", "rocks"]])
    assert s.micro() == (1.0, 1.0, 1.0)


def test_partial_counts_word_overlap_of_half_or_more():
    tokens = [["New", "York", "City", "and", "Rome"]]
    gold = [[(0, 3, "LOC"), (4, 5, "LOC")]]
    predictions = [[["New York", "LOC"], ["York City", "LOC"], ["City", "LOC"]]]
    s = score_strings(gold, predictions, tokens=tokens, inputs={'word_overlap': True})
    # word F1 with "new york city": 0.8, 0.8, 0.5 -> 3 predictions correct; one gold found
    d = s.to_dict()
    assert (d["predicted"], d["correct"], d["found"], d["gold"]) == (3, 3, 1, 2)
    assert s.micro() == (1.0, 0.5, pytest.approx(2 / 3))
    exact = score_strings(gold, predictions, tokens=tokens)
    assert exact.micro() == (0.0, 0.0, 0.0)


# -- UniversalNER: normalisation and parse -------------------------------------------------

@pytest.mark.parametrize("text, normalised", [
    ("The Hague", "hague"),
    ("Bank of America, N.A.", "bank of america na"),
    ("an apple a day", "apple day"),
    ("theatre", "theatre"),                  # articles at word boundaries only
    ("O'Neil's  café", "oneils café"),       # ASCII punctuation only; case lowered
    ("\u201cQuoted\u201d", "\u201cquoted\u201d"),  # non-ASCII quotes stay
    ("A-Team", "ateam"),                     # punctuation goes before articles
])
def test_universalner_normalisation(text, normalised):
    assert uner.normalise(text) == normalised


@pytest.mark.parametrize("response, items, failed", [
    ('["Paris", "paris.", "The Hague"]', ["paris", "hague"], False),
    ('  ["Paris"]\n', ["paris"], False),                  # stripped first
    ('USER: x ASSISTANT: ["Paris"]', ["paris"], False),   # the inference step's split
    ("[]", [], False),
    ('["Paris"] and ["Rome"]', ["paris"], False),         # the first list only
    ('Sure: ["Paris"]', [], True),                        # not at the start
    ('[\n"Paris"\n]', [], True),                          # over two lines
    ('["Paris [FR]", "Rome"]', [], True),                 # ends at the first "]"
    ("['Paris']", [], True),                              # not JSON
    ('["Paris", 3]', [], True),                           # an item that is no string
    ('["Paris", null]', [], True),
    ('[{"text": "Paris"}]', [], True),
    ("", [], True),
])
def test_universalner_parse(response, items, failed):
    found, failure = uner.parse(response)
    assert found == items and (failure is not None) == failed


def test_universalner_gold_list_with_a_bracket_is_empty():
    assert uner.gold_strings(["Rip Chad ]", "Bob"]) == []
    assert uner.gold_strings(["Bob", "bob", "The Bob"]) == ["bob"]


# -- UniversalNER: whole evaluations ------------------------------------------------------

TOKENS = [["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "."],
          ["The", "Hague", "hosts", "the", "ICC", "."],
          ["[", "Rip", "Chad", "]", "says", "Bob"],
          ["Ada", "wrote"], ["Ada", "wrote"], ["Ada", "wrote"]]
GOLD = [[(0, 2, "PER"), (3, 5, "PER"), (6, 7, "LOC")],
        [(0, 2, "LOC"), (4, 5, "ORG")],
        [(1, 4, "PER"), (5, 6, "PER")],
        [(0, 1, "PER")], [(0, 1, "PER")], [(0, 1, "PER")]]
RESPONSES = [
    # person: "ada lovelace" twice (kept once), "babbage" -> 2 predicted, 1 correct of 2
    # location: "london" correct, "paris" wrong -> 2 predicted, 1 correct of 1
    {"person": '["Ada Lovelace", "ada lovelace!", "Babbage"]',
     "location": '["London", "Paris"]'},
    # location: " [...]" is stripped, "The Hague" -> "hague": 1 of 1
    # organization: prose before the list: no match -> [] (failure); 0 of 1
    {"location": ' ["Hague"]', "organization": 'The ICC is ["ICC"]'},
    # person: gold list ["Rip Chad ]", "Bob"] parses to [] (its "]"): 1 predicted, 0 gold
    {"person": '["Bob"]'},
    # person: the list spans lines -> [] (failure); 0 of 1
    {"person": '[\n"Ada"\n]'},
    # person: a number among the items -> [] (failure); 0 of 1
    {"person": '["Ada", 42]'},
    # person: single quotes are not JSON -> [] (failure); 0 of 1
    {"person": "['Ada']"},
]
TYPE_MAP = {"person": "PER", "location": "LOC", "organization": "ORG"}


def test_universalner_compat_reproduces_the_scripts_numbers():
    s = score_strings(GOLD, RESPONSES, tokens=TOKENS, inputs={'script': "universalner", 'type_map': TYPE_MAP})
    predicted, gold, correct = 2 + 2 + 1 + 0 + 1 + 0 + 0 + 0, 2 + 1 + 1 + 1 + 0 + 1 + 1 + 1, 3
    assert s.micro() == script(correct, predicted, gold)
    d = s.to_dict()
    assert (d["predicted"], d["gold"], d["correct"]) == (predicted, gold, correct)
    assert (d["precision"], d["recall"]) == (3 / (6 + EPS), 3 / (8 + EPS))
    generative = d["repairs"]["pred"]["generative"]
    assert generative["parse_failures"] == 4 and generative["duplicates"] == 1
    assert [x["sentence"] for x in generative["listed"]["parse_failures"]] == [1, 3, 4, 5]
    assert d["options"]["script"] == "universalner"


def test_universalner_partial_variant():
    s = score_strings(GOLD, RESPONSES, tokens=TOKENS, inputs={'script': "universalner", 'type_map': TYPE_MAP, 'word_overlap': True})
    # "babbage" now matches "charles babbage" (word F1 2/3): 4 correct, 4 gold found
    assert s.micro() == script(4, 6, 8, found=4)


def test_universalner_compat_takes_lists_and_other_forms():
    tokens = [["The", "Ada", "Lovelace", "Prize"]]
    gold = [[(1, 3, "PER")]]
    for prediction in ({"PER": ["the Ada Lovelace"]},
                       '[{"text": "The Ada Lovelace", "type": "PER"}]',
                       [["Ada Lovelace", "PER"], ["ada lovelace", "PER"]]):
        s = score_strings(gold, [prediction], tokens=tokens, inputs={'script': "universalner"})
        assert s.micro() == script(1, 1, 1), prediction
    # a list item that is a list becomes a tuple, which no gold string equals
    s = score_strings(gold, [{"PER": [["Ada", "Lovelace"]]}], tokens=tokens,
                      inputs={'script': "universalner"})
    assert s.micro() == script(0, 1, 1)


def test_universalner_all_wrong_and_nothing_at_all():
    tokens = [["Ada"]]
    assert score_strings([[(0, 1, "PER")]], [{"PER": "[]"}], tokens=tokens,
                         inputs={'script': "universalner"}).micro() == (0.0, 0.0, 0.0)
    assert score_strings([[]], [{"PER": "[]"}], tokens=tokens,
                         inputs={'script': "universalner"}).micro() == (0.0, 0.0, 0.0)
