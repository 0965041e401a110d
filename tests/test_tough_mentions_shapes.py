"""Tough Mentions Recall on span lists that nest, overlap, repeat a span with two types
or split a mention in fragments: the subsets computed from the span table, against every
training mention (inner ones included).

The oracle is written here on sets: a mention is (sentence, type, fragments); its text
the words of its fragments joined by one space; Seen / Unseen-Type / Unseen-Tokens
against the set of training (text, type) pairs; TCM from the gold texts' types.
"""
from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tough_mentions
from nerspan import Corpus, as_train_index
from nerspan.layers import layer_column

from .test_partials import merged_in, placed, shards, taken

LENGTH = 5
WORDS = ["Kim", "Lima", "Bank", "of"]
TYPES = ["PER", "LOC", "ORG"]


@st.composite
def mention(draw):
    """A span ``(start, end, type)`` or, one time in four, a mention of two fragments
    with a gap between them."""
    kind = draw(st.sampled_from(TYPES))
    if draw(st.integers(0, 3)):
        a = draw(st.integers(0, LENGTH - 1))
        return (a, draw(st.integers(a + 1, LENGTH)), kind)
    a = draw(st.integers(0, LENGTH - 3))
    b = draw(st.integers(a + 1, LENGTH - 2))
    c = draw(st.integers(b + 1, LENGTH - 1))
    return {"label": kind, "fragments": [[a, b], [c, draw(st.integers(c + 1, LENGTH))]]}


@st.composite
def span_corpus(draw, min_sentences=1, max_sentences=6):
    """``(spans, words)``: span lists per sentence (they may nest, overlap, repeat a
    span with another type, be discontinuous) and the words of sentences of
    ``LENGTH`` tokens drawn from a small vocabulary (texts repeat)."""
    n = draw(st.integers(min_sentences, max_sentences))
    spans = [draw(st.lists(mention(), max_size=5)) for _ in range(n)]
    words = [draw(st.lists(st.sampled_from(WORDS), min_size=LENGTH, max_size=LENGTH))
             for _ in range(n)]
    return spans, words


def fragments_of(item) -> tuple:
    if isinstance(item, dict):
        return tuple(map(tuple, item["fragments"]))
    return ((item[0], item[1]),)


def type_of(item) -> str:
    return item["label"] if isinstance(item, dict) else item[2]


def mention_set(side) -> set:
    return {(s, type_of(m), fragments_of(m)) for s, sentence in enumerate(side)
            for m in sentence}


def text_of(words, sentence: int, fragments: tuple) -> str:
    return " ".join(" ".join(words[sentence][a:b]) for a, b in fragments)


def oracle(gold, pred, words, train, train_words) -> dict:
    """``counts`` and ``hits`` per subset, computed on sets."""
    pairs = {(text_of(train_words, s, f), t) for s, t, f in mention_set(train)}
    train_texts = {text for text, _ in pairs}
    gold_set, pred_set = mention_set(gold), mention_set(pred)
    types_of_text = defaultdict(set)
    for s, t, f in gold_set:
        types_of_text[text_of(words, s, f)].add(t)
    counts, hits = defaultdict(int), defaultdict(int)
    for s, t, f in gold_set:
        text = text_of(words, s, f)
        kind = ("seen" if (text, t) in pairs else
                "unseen_type" if text in train_texts else "unseen_tokens")
        tcm = len(types_of_text[text]) > 1
        names = ["all", kind] + (["unseen_any"] if kind != "seen" else []) + (
            ["tcm_all", "tcm_unseen" if kind == "unseen_tokens" else "tcm_seen"]
            if tcm else [])
        for name in names:
            counts[name] += 1
            hits[name] += (s, t, f) in pred_set
    return {"counts": counts, "hits": hits}


@settings(max_examples=60, deadline=None)
@given(span_corpus(), span_corpus(), st.data())
def test_subsets_of_nested_and_discontinuous_mentions_equal_the_set_oracle(test, train,
                                                                          data):
    gold, words = test
    pred = [data.draw(st.lists(mention(), max_size=5)) for _ in gold]
    result = tough_mentions.score(gold, pred, tokens=words, train=(train[1], train[0]))
    d = result.to_dict()
    expected = oracle(gold, pred, words, *train)
    for name in tough_mentions.ALL_SUBSETS:
        assert (d["counts"][name], d["hits"][name]) == \
            (expected["counts"][name], expected["hits"][name]), name
    gold_set, pred_set = mention_set(gold), mention_set(pred)
    assert d["recall"] == (len(gold_set & pred_set) / len(gold_set) if gold_set else 0.0)


@settings(max_examples=40, deadline=None)
@given(span_corpus(), st.data())
def test_gold_against_itself_hits_every_mention(test, data):
    gold, words = test
    d = tough_mentions.score(gold, gold, tokens=words,
                             train=(words, gold)).to_dict()
    assert d["hits"] == d["counts"]
    assert d["counts"]["all"] == d["counts"]["seen"] == len(mention_set(gold))


@settings(max_examples=40, deadline=None)
@given(span_corpus(max_sentences=10), st.data())
def test_partials_of_nested_and_discontinuous_spans_merge_to_one_pass(test, data):
    gold, words = test
    pred = [data.draw(st.lists(mention(), max_size=5)) for _ in gold]
    train = as_train_index((words[:3], gold[:3]))
    listed = data.draw(st.sampled_from([None, 2]))
    options = {"return_mentions": listed is not None,
               "case_sensitive": data.draw(st.booleans())}
    whole = tough_mentions.score(gold, pred, tokens=words, train=train, **options)
    cut = data.draw(shards(len(gold)))
    parts = [tough_mentions.partial(taken(gold, ids), taken(pred, ids),
                                    tokens=taken(words, ids), train=train, **options,
                                    **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert merged.result().to_dict() == whole.to_dict()


def test_inner_training_mentions_count_as_seen_and_fragments_are_their_words():
    words = [["Bank", "of", "Lima", "and", "Kim"]]
    train = (words, [[(0, 3, "ORG"), (2, 3, "LOC")]])     # Lima: an inner mention
    gold = [[(2, 3, "LOC"), (0, 3, "ORG"), {"label": "PER", "fragments": [[0, 1], [4, 5]]}]]
    d = tough_mentions.score(gold, [[(2, 3, "LOC")]], tokens=words, train=train,
                             return_mentions=True).to_dict()
    assert (d["counts"]["seen"], d["hits"]["seen"]) == (2, 1)
    assert [m["text"] for m in d["mentions"]["unseen_tokens"]] == ["Bank Kim"]


def test_span_lists_score_as_the_same_mentions_in_layers():
    """Nested gold as span lists, and as GermEval-style layers: the same numbers."""
    words = [["Bank", "of", "Lima", "won"], ["Kim", "in", "Lima", "ran"]]
    outer = [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O", "B-LOC", "O"]]
    inner = [["O", "O", "B-LOC", "O"], ["O", "O", "O", "O"]]
    pred = [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O", "B-ORG", "O"]]
    train = (words, outer)
    layered = Corpus.from_tags(outer, tokens=words, columns={
        layer_column("gold", 2): inner, "pred": pred})
    spans = [[(0, 3, "ORG"), (2, 3, "LOC")], [(0, 1, "PER"), (2, 3, "LOC")]]
    a = tough_mentions.score(layered, train=train).to_dict()
    b = tough_mentions.score(spans, pred, tokens=words, train=train).to_dict()
    a["options"].pop("layers")
    assert a == b


def test_nested_span_predictions_against_tag_gold():
    words = [["Bank", "of", "Lima"]]
    d = tough_mentions.score([["B-ORG", "I-ORG", "I-ORG"]], [[(0, 3, "ORG"), (2, 3, "LOC")]],
                             tokens=words, train=(words, [["O", "O", "B-LOC"]])).to_dict()
    assert (d["precision"], d["recall"]) == (0.5, 1.0)
    assert d["counts"]["unseen_tokens"] == 1


@pytest.mark.parametrize("case_sensitive", [True, False])
def test_multi_label_spans_are_type_confusable(case_sensitive):
    words = [["Lima", "won"]]
    gold = [[{"labels": ["LOC", "ORG"], "start": 0, "end": 1}]]
    d = tough_mentions.score(gold, [[(0, 1, "ORG")]], tokens=words,
                             train=(words, [[(0, 1, "LOC")]]),
                             case_sensitive=case_sensitive).to_dict()
    assert d["counts"]["tcm_all"] == d["counts"]["all"] == 2
    assert (d["counts"]["tcm_seen"], d["hits"]["tcm_seen"]) == (2, 1)
