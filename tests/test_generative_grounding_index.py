"""Grounding looks entity texts up three ways, with the same answers: the plain search
(``occurrences``: ``str.find`` and maps from characters to tokens, as before), the
spaced text (tokens joined by single spaces, none holding one: token boundaries read off
the spaces, ``spaced_occurrences``), and an index of a long text's token-aligned windows
(``WindowIndex``, past ``LONG_TEXT`` characters: a document's entities cost their own
length, not the document's). Property tests against the plain search, on words with
empty tokens, spaces inside tokens, punctuation and characters whose case changes size.
"""
from __future__ import annotations

import random
from itertools import accumulate
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from nerspan.generative import grounding
from nerspan.generative.grounding import SentenceIndex, ground, occurrences

WORDS = ["Paris", "paris", "PARIS", "New", "York", "new", "a", "", "(Paris)", "x y", "É",
         "İs", "-", "'s", "Paris,", "\u201cNew", "York\u201d", "a a"]


def plain_index(words: list) -> SentenceIndex:
    """The index with every token's start and end given: the plain search."""
    starts = [0, *accumulate(len(word) + 1 for word in words[:-1])]
    return SentenceIndex(" ".join(words), starts, [a + len(w) for a, w in zip(starts, words)])


def entity_of(draw, words: list) -> str:
    """A window of the words, as written or in another case, a word, or any slice."""
    text = " ".join(words)
    kind = draw(st.integers(0, 3))
    if kind == 0:
        a = draw(st.integers(0, len(words) - 1))
        return " ".join(words[a:a + draw(st.integers(1, 3))])
    if kind == 1:
        return draw(st.sampled_from(WORDS)).upper()
    if kind == 2:
        return draw(st.sampled_from(WORDS))
    a = draw(st.integers(0, len(text)))
    return text[a:a + draw(st.integers(0, 6))]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=10), st.data())
def test_every_way_finds_what_the_plain_search_finds(words, data):
    entities = [entity_of(data.draw, words) for _ in range(4)]
    plain = plain_index(words)
    expected = [plain.find(entity) for entity in entities]
    text = " ".join(words)
    assert [occurrences(text, plain.start_at, plain.end_at, e) for e in entities] == \
        [plain._occurrences("exact", e) for e in entities]
    spaced = text.count(" ") == len(words) - 1   # no token holds a space
    if spaced:
        assert [SentenceIndex(text).find(entity) for entity in entities] == expected
    with mock.patch.object(grounding, "LONG_TEXT", 0):   # every text is long: windows
        assert [plain_index(words).find(entity) for entity in entities] == expected
        if spaced:
            assert [SentenceIndex(text).find(entity) for entity in entities] == expected


def document(n_tokens: int, seed: int = 0) -> tuple[list, list]:
    """One long document and entities: windows of it (some in another case, some with a
    comma after them), and texts it does not hold."""
    rng = random.Random(seed)
    words = [f"w{rng.randrange(n_tokens // 3)}" for _ in range(n_tokens)]
    entities = []
    for k in range(n_tokens // 10):
        a = rng.randrange(n_tokens - 3)
        text = " ".join(words[a:a + rng.randint(1, 3)])
        text = text.upper() if k % 7 == 0 else text + "," if k % 11 == 0 else text
        entities.append([text, rng.choice(["PER", "LOC"])])
    return words, entities + [[f"nowhere {k}", "LOC"] for k in range(5)]


def test_a_long_document_grounds_as_the_plain_search_would():
    words, entities = document(3000)
    assert len(" ".join(words)) > grounding.LONG_TEXT / 2
    with mock.patch.object(grounding, "LONG_TEXT", 0):
        indexed = ground([entities], tokens=[words])
    with mock.patch.object(grounding, "LONG_TEXT", 10 ** 9):
        plain = ground([entities], tokens=[words])
        # the text given instead of the tokens: the plain search over maps, no spaces read
        from_text = ground([entities], texts=[" ".join(words)])
    for other in (plain, from_text):
        assert indexed.spans == other.spans
        assert indexed.repairs == other.repairs
    assert indexed.repairs.levels["case_insensitive"] and indexed.repairs.levels["normalised"]
    assert len(indexed.repairs.ungrounded) == 5
