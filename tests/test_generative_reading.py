"""Reading generated output (nerspan.generative.reading): every form of METHODS §6, type
matching, and every way a response fails, each counted and listed."""
from __future__ import annotations

import json

import pytest

from nerspan.generative import TypeMatcher, is_generated_input, read_generated, read_response

TYPES = {"PER", "LOC", "ORG", "creative-work"}


def entities(value):
    found, failure, rejected = read_response(value)
    assert failure is None and rejected == [], (failure, rejected)
    return found


# -- the forms --------------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    [{"text": "Ada", "type": "PER"}, {"text": "Paris", "type": "LOC"}],
    [{"mention": "Ada", "label": "PER"}, {"span": "Paris", "entity_type": "LOC"}],
    [{"Entity": "Ada", "Type": "PER"}, {"TEXT": "Paris", "Label": "LOC"}],
    [["Ada", "PER"], ("Paris", "LOC")],
    {"PER": ["Ada"], "LOC": ["Paris"], "ORG": []},
    {"PER": "Ada", "LOC": ["Paris"], "ORG": None},
    [{"PER": ["Ada"]}, {"LOC": "Paris"}],
    {"entities": [{"text": "Ada", "type": "PER"}, ["Paris", "LOC"]]},
    {"PER": [{"text": "Ada"}], "LOC": [{"text": "Paris"}]},
    [[{"text": "Ada", "type": "PER"}, {"text": "Paris", "type": "LOC"}]],
    json.dumps([{"text": "Ada", "type": "PER"}, {"text": "Paris", "type": "LOC"}]),
    'Sure! Here they are:\n```json\n[["Ada", "PER"], ["Paris", "LOC"]]\n```\nAnything else?',
    '```\n{"PER": ["Ada"], "LOC": ["Paris"]}\n```',
    'The entities are {"PER": ["Ada"], "LOC": ["Paris"]} as you asked.',
    'I think [sic] the answer {is}: [{"text": "Ada", "type": "PER"}, ["Paris", "LOC"]]',
    "<PER>Ada</PER> was born near <LOC>Paris</LOC> .",
    "Answer: <per>Ada</PER> and <LOC> Paris </LOC>",
    "```\n<PER>Ada</PER> in <LOC>Paris</LOC>\n```",
], ids=lambda v: repr(v)[:40])
def test_every_form_gives_the_same_entities(value):
    found = [(text, given.upper()) for text, given in entities(value)]
    assert sorted(found) == [("Ada", "PER"), ("Paris", "LOC")]


def test_list_order_is_kept_and_texts_are_stripped():
    assert entities([{"text": " Paris ", "type": "LOC"}, ["Ada", " PER"]]) == \
        [("Paris", "LOC"), ("Ada", "PER")]


def test_nested_markup_gives_both_entities_outer_first():
    assert entities("The <ORG><LOC>New York</LOC> Times</ORG> said so") == \
        [("New York Times", "ORG"), ("New York", "LOC")]


def test_markup_ignores_tags_left_open_and_html_lookalikes():
    assert entities("<PER>Ada <b>Lovelace</PER> <br> 3 <4") == [("Ada Lovelace", "PER")]


def test_markup_before_json_wins_and_json_before_markup_wins():
    assert entities('[ Rip <PER>Chad</PER> ] ( see [1] )') == [("Chad", "PER")]
    assert entities('[["Chad", "PER"]] <LOC>Rome</LOC>') == [("Chad", "PER")]


def test_a_single_entity_object_is_one_entity():
    assert entities({"text": "Paris", "type": "LOC"}) == [("Paris", "LOC")]
    assert entities('{"text": "Paris", "type": "LOC"}') == [("Paris", "LOC")]


def test_entities_with_offsets_are_read_by_their_text():
    assert entities([{"text": "Paris", "type": "LOC", "start": 9, "end": 14}]) == \
        [("Paris", "LOC")]


# -- failures, each a clear outcome -----------------------------------------------------

@pytest.mark.parametrize("value, reason", [
    (None, "no response (None)"),
    ("", "empty response"),
    ("   \n", "empty response"),
    ("I found no entities in this sentence.", "no JSON array or object, and no "
                                              "<TYPE>...</TYPE> markup"),
    ("Entities: [Ada (PER), Paris (LOC)]", "no JSON array or object, and no "
                                           "<TYPE>...</TYPE> markup"),
    ('[{"text": "Ada", "type": "PER"}, {"text": "Paris", "ty', "invalid JSON: "),
    ("[('Ada', 'PER')]", "no JSON array or object, and no <TYPE>...</TYPE> markup"),
    ('```json\n[{"text": "Ada", "type": "PER"},]\n```', "invalid JSON in the code fence: "),
    ("```json\nnull\n```", "not entities: JSON NoneType None"),
    ('```json\n"Ada"\n```', "not entities: JSON str 'Ada'"),
    (42, "not entities: int 42"),
    (True, "not entities: bool True"),
    ("[" * 100_000, "invalid JSON: nested too deep"),
])
def test_a_response_that_cannot_be_read_is_a_parse_failure(value, reason):
    found, failure, rejected = read_response(value)
    assert (found, rejected) == ([], [])
    # the json module's own words differ between Python versions: pinned up to them
    assert failure == reason or reason.endswith(": ") and failure.startswith(reason)


def test_a_broken_list_is_never_salvaged_from_an_object_inside_it():
    found, failure, _ = read_response('[{"text": "Ada", "type": "PER"}, {"text": "Pa')
    assert found == [] and failure.startswith("invalid JSON")


@pytest.mark.parametrize("value, rejected", [
    ([["Ada", 3]], [("Ada", "3", "type is not a string")]),
    ([{"text": "Ada", "type": 3}], [("Ada", "3", "type is not a string")]),
    ('[{"text": "Ada", "type": null}]', [("Ada", None, "type is not a string")]),
    ([{"text": 2017, "type": "DATE"}], [("2017", "DATE", "text is not a string")]),
    ([{"text": "", "type": "PER"}], [("", "PER", "empty text")]),
    ([{"text": "  ", "type": "PER"}], [("  ", "PER", "empty text")]),
    ([{"text": "Ada", "type": ""}], [("Ada", "", "empty type")]),
    ([{"text": "Ada"}], [("Ada", None, "no type")]),
    (["Ada", "Paris"], [("Ada", None, "a text without a type"),
                        ("Paris", None, "a text without a type")]),
    ([1, 2.5, None], [("1", None, "not an entity"), ("2.5", None, "not an entity"),
                      ("None", None, "not an entity")]),
    ([["Ada", "PER", "x"]], [("['Ada', 'PER', 'x']", None, "not an entity")]),
    ({"PER": 3}, [("3", "PER", "text is not a string")]),
    ({"PER": [3]}, [("3", "PER", "not an entity")]),
    ({3: ["Ada"]}, [("['Ada']", "3", "type is not a string")]),
    ('{"answer": true}', [("True", "answer", "text is not a string")]),
])
def test_an_item_that_is_no_entity_is_rejected_and_the_rest_kept(value, rejected):
    found, failure, bad = read_response(value)
    assert failure is None and found == [] and bad == rejected


def test_rejected_items_do_not_lose_their_neighbours():
    found, failure, bad = read_response([["Ada", "PER"], ["Bob", 1], {"text": "", "type": "X"}])
    assert found == [("Ada", "PER")] and [b[2] for b in bad] == ["type is not a string",
                                                                  "empty text"]


def test_nesting_deeper_than_any_model_answers_is_rejected():
    deep = {"PER": "Ada"}
    for _ in range(10):
        deep = {"wrap": deep}
    found, failure, bad = read_response(deep)
    assert found == [] and bad[0][2] == "nested too deep"


def test_a_one_megabyte_response_is_read_or_refused_quickly(benchmark_free_timer):
    prose = "All work and no play makes a dull model. " * 25_000  # 1 MB, no JSON
    with benchmark_free_timer(seconds=5):
        assert read_response(prose)[1].startswith("no JSON")
    many = json.dumps([{"text": f"w{k}", "type": "PER"} for k in range(30_000)])
    assert len(many) > 1_000_000
    with benchmark_free_timer(seconds=5):
        assert len(read_response("Here: " + many)[0]) == 30_000
    brackets = "[x] " * 250_000
    with benchmark_free_timer(seconds=5):
        assert read_response(brackets)[1] == "no JSON array or object in its first 100 brackets"
    tags = "<a>" * 150_000 + "</b>" * 100_000
    with benchmark_free_timer(seconds=5):
        assert read_response(tags)[1].startswith("no JSON")


@pytest.fixture
def benchmark_free_timer():
    """Fails a block that takes pathologically long (a quadratic scan), not a slow
    machine: the bounds are 100 times what the block needs."""
    import contextlib
    import time

    @contextlib.contextmanager
    def timer(seconds):
        start = time.perf_counter()
        yield
        assert time.perf_counter() - start < seconds
    return timer


# -- read_generated: the record, and types ----------------------------------------------

def test_read_generated_counts_and_lists_every_kind():
    read = read_generated(["no json here", [["Ada", "person"], ["Bob", 1]],
                           {"city": ["Paris"], "LOC": ["Rome"]}],
                          types={"PER", "LOC"}, type_map={"person": "PER"})
    assert read.entities == [[], [("Ada", "PER")], [("Paris", "city"), ("Rome", "LOC")]]
    r = read.repairs
    assert (r.responses, r.entities) == (3, 3)
    assert [(x.sentence, x.text) for x in r.parse_failures] == [(0, "no json here")]
    assert [(x.sentence, x.text, x.type, x.reason) for x in r.rejected] == \
        [(1, "Bob", "1", "type is not a string")]
    assert [(x.sentence, x.text, x.type) for x in r.unknown_types] == [(2, "Paris", "city")]
    assert r.types == {"as_given": 1, "case_insensitive": 0, "type_map": 1, "unknown": 1,
                       "unchecked": 0}


def test_type_matching_order_and_labels():
    match = TypeMatcher(TYPES, {"person": "PER", "Company": "ORG", "LOC": "ORG"})
    assert match("PER") == ("PER", "as_given")
    assert match("Per") == ("PER", "case_insensitive")
    assert match("Creative_Work") == ("creative-work", "case_insensitive")
    assert match("PERSON") == ("PER", "type_map")       # type_map, case-insensitively
    assert match("company") == ("ORG", "type_map")
    assert match("LOC") == ("ORG", "type_map")          # the caller's map comes first
    assert match("date of birth") == ("date_of_birth", "unknown")  # a span label
    assert match("a|b") == ("a_b", "unknown")
    assert TypeMatcher(None)("any type") == ("any_type", "unchecked")
    assert TypeMatcher(None, {"x": "Y"})("X") == ("Y", "type_map")


def test_is_generated_input_tells_the_forms_apart():
    assert is_generated_input(["<PER>Ada</PER> wrote", "[]"]) is True
    assert is_generated_input([{"PER": ["Ada"]}]) is True
    assert is_generated_input([[], [["Ada", "PER"]]]) is True
    assert is_generated_input([[], []]) is None
    assert is_generated_input([["B-PER", "O"]]) is False                   # tags
    assert is_generated_input([[(0, 1, "PER")]]) is False                  # token spans
    assert is_generated_input([[{"entity_group": "PER", "start": 0, "end": 3}]]) is False
    assert is_generated_input(["B-PER", "O"]) is False    # flat tags: the tag path names it
    assert is_generated_input("[]") is False
