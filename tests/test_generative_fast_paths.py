"""The quick ways of reading and matching generated output give what the general ones
give: a plain JSON entity list read directly (``reading.plain_entities``) against the
reader of every form, the string counts against counting each query's sets, the
UniversalNER items of a list of strings against the item-by-item reading, and the
collector paused around them and restored as the caller had it."""
from __future__ import annotations

import gc
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from nerspan.collector import collector_paused
from nerspan.generative import strings, universalner
from nerspan.generative.reading import _Reader, plain_entities

TEXTS = st.sampled_from(["Paris", " Ada ", "", "  ", "New York", 'say "hi"', "é", "a]b",
                         "```", "</LOC>"])
VALUES = st.one_of(TEXTS, st.integers(0, 3), st.none(), st.lists(TEXTS, max_size=2))


@st.composite
def responses(draw):
    """JSON lists of entity dicts, most of the plain form, some not (another key, a
    value of another kind, an empty text), with whitespace before and prose after."""
    items = []
    for _ in range(draw(st.integers(0, 4))):
        item = {"text": draw(VALUES if draw(st.booleans()) else TEXTS),
                "type": draw(st.sampled_from(["PER", " LOC", "", 3]))}
        if draw(st.integers(0, 5)) == 0:
            item[draw(st.sampled_from(["label", "score", "text"]))] = "x"
        items.append(item if draw(st.integers(0, 9)) else [item["text"], "LOC"])
    body = json.dumps(items, ensure_ascii=draw(st.booleans()))
    return draw(st.sampled_from(["", " ", "\n\t"])) + body + \
        draw(st.sampled_from(["", " thanks", " [1]", "\n```"]))


@settings(max_examples=500, deadline=None)
@given(responses())
def test_a_plain_entity_list_reads_as_the_reader_reads_it(text):
    found, rejected = [], []
    failure = _Reader(found, rejected).string(text)
    plain = plain_entities(text)
    if plain is not None:
        assert (plain, None, []) == (found, failure, rejected)


def test_the_usual_response_takes_the_quick_way():
    assert plain_entities('[{"text": "Ada Lovelace", "type": "PER"}]') == \
        [("Ada Lovelace", "PER")]
    assert plain_entities("[]") == []
    for other in ('[{"text": "Ada", "type": "PER", "score": 1}]', '[["Ada", "PER"]]',
                  'Here: [{"text": "Ada", "type": "PER"}]', '{"PER": ["Ada"]}'):
        assert plain_entities(other) is None


ITEMS = st.lists(st.sampled_from(["a", "b", "c", ("a", "b")]), max_size=3, unique=True)
SIDE = st.lists(st.dictionaries(st.sampled_from(["PER", "LOC"]), ITEMS, max_size=2),
                min_size=3, max_size=3)


@settings(max_examples=300, deadline=None)
@given(SIDE, SIDE)
def test_exact_counts_equal_counts_query_by_query(gold, predicted):
    expected: dict = {}
    for g, p in zip(gold, predicted):
        for t in set(g) | set(p):
            row = expected.setdefault(t, [0, 0, 0, 0])
            correct = len(set(g.get(t, [])) & set(p.get(t, [])))
            for k, n in enumerate((len(g.get(t, [])), len(p.get(t, [])), correct, correct)):
                row[k] += n
    assert strings._exact_counts(gold, predicted) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["Paris", "the Paris", "paris!", "Rome", "A Rome"]),
                max_size=5))
def test_universalner_items_of_strings_as_read_one_by_one(texts):
    repeats: list = []
    kept, failure = universalner.normalised_items(texts, repeats)
    one_by_one: list = []
    for text in texts:
        item = universalner.normalise(text)
        if item not in one_by_one:
            one_by_one.append(item)
    assert (kept, failure) == (one_by_one, None)
    assert len(kept) + len(repeats) == len(texts)


def test_the_collector_is_paused_and_restored_as_the_caller_had_it():
    @collector_paused
    def state():
        return gc.isenabled()
    assert gc.isenabled()
    assert state() is False and gc.isenabled()
    gc.disable()
    try:
        assert state() is False and not gc.isenabled()   # left off, as the caller had it
    finally:
        gc.enable()

    @collector_paused
    def fails():
        raise ValueError("bad input")
    try:
        fails()
    except ValueError:
        pass
    assert gc.isenabled()
