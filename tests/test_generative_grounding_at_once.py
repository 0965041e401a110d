"""Grounding every sentence's listings at once (``grounding._AtOnce``: the tokens joined
by single spaces, the listings' words looked up as token ids, in the words given or in a
gold ``Corpus``'s token ids) gives what grounding sentence by sentence gives: the same
spans and the same repairs (levels, ungrounded, dropped overlaps, in the same order), at
every level and overlap rule. The sentence-by-sentence way is the one taken for texts."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nerspan.corpus import Corpus
from nerspan.generative.grounding import _AtOnce, _Rules, grounded
from nerspan.generative.reading import read_generated

WORDS = ["Paris", "paris", "PARIS", "New", "York", "new", "a", "(Paris)", "É", "İs", "-",
         "'s", "Paris,", "Hilton", "hilton"]
TYPES = ["LOC", "PER", "ORG"]


@st.composite
def sentences_and_listings(draw):
    """Sentences of words and, per sentence, entity listings: windows of its words as
    written or in another case, a word of another sentence, a text not in it at all."""
    sentences = draw(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
                              min_size=1, max_size=5))
    listings = []
    for words in sentences:
        found = []
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.integers(0, 3))
            a = draw(st.integers(0, len(words) - 1))
            text = " ".join(words[a:a + draw(st.integers(1, 3))])
            if kind == 1:
                text = text.lower()
            elif kind == 2:
                text = draw(st.sampled_from(WORDS))
            elif kind == 3:
                text = "Ozymandias"
            found.append([text, draw(st.sampled_from(TYPES))])
        listings.append(found)
    return sentences, listings


@settings(max_examples=300, deadline=None)
@given(sentences_and_listings(), st.sampled_from(["drop", "keep"]),
       st.sampled_from([None, 0.8]))
def test_at_once_grounds_as_sentence_by_sentence(case, overlaps, fuzzy):
    sentences, listings = case
    generated = read_generated(listings)
    rules = _Rules("all", overlaps, fuzzy)
    # the words hold no space: the listings are searched at once (the test's point)
    assert (_AtOnce.of(generated.entities, sentences) is None) == (not any(listings))
    texts = [" ".join(words) for words in sentences]
    one_by_one = grounded(generated, None, texts, rules)
    at_once = grounded(generated, sentences, None, rules)
    gold = Corpus.from_tags([["O"] * len(words) for words in sentences], tokens=sentences)
    in_corpus = grounded(generated, sentences, None, rules, corpus=gold)
    for result in (at_once, in_corpus):
        assert result.spans == one_by_one.spans
        assert result.repairs.to_dict() == one_by_one.repairs.to_dict()
