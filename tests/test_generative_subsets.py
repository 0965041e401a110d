"""A corpus of some sentences of a generated system (``Corpus.subset``, ``Corpus.block``)
keeps the ungrounded entities of those sentences, each a false positive: the scores of
any split of the sentences add up to the whole corpus's, a resample counts a sentence's
ungrounded entities as often as it draws it, and streaming counts them once."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
from nerlens.demo import demo_generated, demo_gold
from nerspan.reading.systems import read_systems
from nerspan.streaming import score_in_blocks

COUNTS = ("predicted", "correct", "gold")


@pytest.fixture(scope="module")
def corpus():
    corpus, names = read_systems(demo_gold(), None, generated=demo_generated())
    assert names == ["llm"] and corpus.source.generated["llm"].ungrounded
    return corpus


def counts(corpus) -> np.ndarray:
    result = nerspan.score(corpus, inputs={'gold_column': "gold", 'pred_column': "llm"}).to_dict()
    return np.array([result[key] for key in COUNTS])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), min_size=24, max_size=24))
def test_the_parts_of_a_split_add_up_to_the_whole(corpus, chosen):
    mask = np.array(chosen[:corpus.n_sentences])
    parts = [np.flatnonzero(mask), np.flatnonzero(~mask)]
    total = sum(counts(corpus.subset(part)) for part in parts if len(part))
    assert total.tolist() == counts(corpus).tolist()


def test_a_resample_counts_an_ungrounded_entity_as_often_as_its_sentence(corpus):
    record = corpus.source.generated["llm"]
    i = record.ungrounded[0].sentence
    once, twice = counts(corpus.subset([i])), counts(corpus.subset([i, i]))
    assert twice.tolist() == (2 * once).tolist()
    # by the record: the sentence's ungrounded entities are predictions of the subset
    ungrounded = sum(item.sentence == i for item in record.ungrounded)
    spans = nerspan.decode(corpus.subset([i]), "llm")
    assert once[0] == len(spans.to_list(corpus.subset([i]))[0]) + ungrounded
    kept = corpus.subset([i, i]).source.generated["llm"].ungrounded
    assert [item.sentence for item in kept] == [0] * ungrounded + [1] * ungrounded


def test_blocks_add_up_and_streaming_counts_them_once(corpus):
    cut = corpus.n_sentences // 2
    blocks = [corpus.block(0, cut), corpus.block(cut, corpus.n_sentences)]
    assert sum(map(counts, blocks)).tolist() == counts(corpus).tolist()
    streamed = score_in_blocks(corpus, ["llm"], block_tokens=50)["llm"].to_dict()
    assert [streamed[key] for key in COUNTS] == counts(corpus).tolist()
