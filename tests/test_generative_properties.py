"""Property tests of grounding (hypothesis): gold texts ground back to gold, the order of
an entity list changes nothing, and grounding never reads gold."""
from __future__ import annotations

import inspect
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import nerspan
from nerspan.generative import ground, read_generated, score_strings
from nerspan.records import GeneratedOptions

VOCAB = ["Ada", "ada", "ADA", "Paris", "paris", "New", "York", "York,", "(Rome)", "the",
         "of", "É", "é", ".", ",", "'s", "St.", "x-y"]
TYPES = ["PER", "LOC", "ORG"]


@st.composite
def sentences_with_spans(draw):
    """Tokens and non-overlapping gold spans ``(start, end, type)``."""
    tokens = draw(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=12))
    spans, at = [], 0
    while at < len(tokens):
        if draw(st.booleans()):
            end = draw(st.integers(at + 1, min(len(tokens), at + 3)))
            spans.append((at, end, draw(st.sampled_from(TYPES))))
            at = end + draw(st.integers(0, 1))
        else:
            at += 1
    return tokens, spans


def unambiguous(tokens, spans):
    """The spans whose token sequence occurs nowhere else in the sentence."""
    def occurrences(a, b):
        n = b - a
        return sum(tokens[k:k + n] == tokens[a:b] for k in range(len(tokens) - n + 1))
    return [(a, b, t) for a, b, t in spans if occurrences(a, b) == 1]


RENDERINGS = [
    lambda ents: [{"text": text, "type": t} for text, t in ents],
    lambda ents: [[text, t] for text, t in ents],
    lambda ents: json.dumps([{"mention": text, "label": t} for text, t in ents]),
    lambda ents: "Sure!\n```json\n" + json.dumps([[text, t] for text, t in ents]) + "\n```",
    lambda ents: {t: [text for text, u in ents if u == t] for t in {u for _, u in ents}},
]


@settings(max_examples=150, deadline=None)
@given(st.lists(sentences_with_spans(), min_size=1, max_size=5), st.randoms(),
       st.integers(0, len(RENDERINGS) - 1))
def test_gold_texts_ground_back_to_gold_and_score_perfectly(corpus, rng, rendering):
    tokens = [words for words, _ in corpus]
    gold = [sorted(unambiguous(words, spans)) for words, spans in corpus]
    predictions = []
    for words, spans in zip(tokens, gold):
        entities = [(" ".join(words[a:b]), t) for a, b, t in spans]
        rng.shuffle(entities)
        predictions.append(RENDERINGS[rendering](entities))
    found = ground(predictions, tokens=tokens, types=set(TYPES))
    assert found.spans == gold
    r = found.repairs
    assert (r.ungrounded, r.duplicates, r.dropped_overlaps, r.parse_failures) == ((),) * 4
    assert r.levels["exact"] == r.usable == sum(map(len, gold))
    if any(gold):
        assert nerspan.score(gold, found.spans, tokens=tokens).micro() == (1.0, 1.0, 1.0)
        assert faireval.score(gold, found.spans).to_dict()["f1"] == 1.0


@st.composite
def entity_lists(draw):
    """Tokens and an entity list: windows of the sentence in any case, texts not in it,
    repeats, several types for one text."""
    tokens = draw(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=10))
    entities = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.integers(0, 4)) == 0:
            text = draw(st.sampled_from(["Atlantis", "atlantis", "New Paris", "Ada Ada Ada"]))
        else:
            a = draw(st.integers(0, len(tokens) - 1))
            b = draw(st.integers(a + 1, min(len(tokens), a + 3)))
            text = " ".join(tokens[a:b])
            text = draw(st.sampled_from([text, text.lower(), text.upper(), f" {text}!"]))
        entities.append((text, draw(st.sampled_from(TYPES))))
    return tokens, entities


@settings(max_examples=200, deadline=None)
@given(st.lists(entity_lists(), min_size=1, max_size=4), st.randoms(),
       st.sampled_from(["drop", "keep"]), st.sampled_from([None, 0.8]))
def test_the_order_of_the_list_changes_nothing_under_all_occurrences(corpus, rng, overlaps,
                                                                     fuzzy):
    tokens = [words for words, _ in corpus]
    listed = [[list(e) for e in entities] for _, entities in corpus]
    shuffled = [rng.sample(entities, len(entities)) for entities in listed]
    first = ground(listed, tokens=tokens, overlaps=overlaps, fuzzy=fuzzy)
    second = ground(shuffled, tokens=tokens, overlaps=overlaps, fuzzy=fuzzy)
    assert first.spans == second.spans
    assert first.repairs.to_dict() == second.repairs.to_dict()


def test_grounding_takes_no_gold():
    parameters = set(inspect.signature(ground).parameters)
    assert parameters == {"predictions", "types", "type_map", "occurrences", "overlaps",
                          "fuzzy", "name", "tokens", "texts"}
    assert set(inspect.signature(read_generated).parameters) == \
        {"predictions", "types", "type_map", "name", "scored"}   # scored: the entities' own


@settings(max_examples=100, deadline=None)
@given(st.lists(entity_lists(), min_size=1, max_size=4),
       st.lists(st.sampled_from(["DATE", "MISC", "per", "Loc"]), max_size=3))
def test_type_names_change_types_only_never_where_spans_are(corpus, other_names):
    tokens = [words for words, _ in corpus]
    listed = [[list(e) for e in entities] for _, entities in corpus]
    plain = ground(listed, tokens=tokens, overlaps="keep")
    named = ground(listed, tokens=tokens, overlaps="keep", types=set(TYPES) | set(other_names))
    assert [[(a, b) for a, b, _ in s] for s in plain.spans] == \
        [[(a, b) for a, b, _ in s] for s in named.spans]


def test_ordered_occurrences_depend_on_the_order_by_design():
    tokens = [["Washington", "met", "Washington"]]
    listed = [[["Washington", "PER"], ["Washington", "LOC"]]]
    reverse = [list(reversed(listed[0]))]
    assert ground(listed, tokens=tokens, occurrences="ordered").spans != \
        ground(reverse, tokens=tokens, occurrences="ordered").spans


def test_the_option_names_are_the_parameters_of_each_way():
    # 0.2: one record declares them (GeneratedOptions); grounding's are ground's
    # parameters, string matching's are read from its inputs (and echoed in its options)
    grounding = set(nerspan.STRINGS_UNREAD)
    strings = set(GeneratedOptions.names()) - grounding - {"matching"}
    assert grounding < set(inspect.signature(ground).parameters)
    assert strings == {"script", "word_overlap"}
    scored = score_strings([[(0, 1, "PER")]], [[["Ada", "PER"]]], tokens=[["Ada"]],
                           inputs={name: getattr(GeneratedOptions(), name)
                                   for name in strings}).to_dict()
    assert strings < set(scored["options"])
