"""A corpus of some sentences of a generated system (``Corpus.subset``, ``Corpus.block``)
keeps the ungrounded entities of those sentences, each a false positive: the scores of
any split of the sentences add up to the whole corpus's, a resample counts a sentence's
ungrounded entities as often as it draws it, and streaming counts them once. Blocks of
any cut carry the record's totals once: their records and partials merge to one pass's,
sentences named by their numbers in gold."""
from __future__ import annotations

import numpy as np
import pytest
import functools

from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
from nerlens.engines import Scoring, merged_outcomes
from nerlens.demo import demo_generated, demo_gold
from nerspan.generative import GenerativeRepairs
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


@settings(max_examples=30, deadline=None)
@given(st.sets(st.integers(1, 23)))
def test_blocks_of_any_cut_merge_to_the_one_pass_record(corpus, cuts):
    """Cut anywhere, the blocks' generated records (by global sentence) merge to the
    whole's, totals counted once (the block of sentence 0 carries them), and their
    entity-score partials to one pass's result: repairs named by gold's numbers."""
    bounds = [0, *sorted(cuts), corpus.n_sentences]
    blocks = [(first, corpus.block(first, stop)) for first, stop in zip(bounds, bounds[1:])]
    records = [block.source.generated["llm"].bounded(
        lambda ids, first=first: np.asarray(ids, dtype=np.int64) + first)
        for first, block in blocks]
    whole = corpus.source.generated["llm"]
    numbers = corpus.source.sentence_numbers
    merged = functools.reduce(GenerativeRepairs.merged_by_id, records)
    assert merged.to_dict(numbers) == whole.to_dict(numbers)
    assert [record.responses for record in records[1:]] == [0] * (len(blocks) - 1)
    scoring = Scoring.of("nerspan", {})
    outcome = merged_outcomes(
        scoring.columns(range(first, first + block.n_sentences), nerspan.Evaluation(block),
                        "llm") for first, block in blocks)
    one_pass = nerspan.score(corpus, inputs={"gold_column": "gold", "pred_column": "llm"})
    assert outcome.result().to_dict() == one_pass.to_dict()
    assert one_pass.to_dict()["repairs"]["pred"]["sentences"][-1] > corpus.n_sentences
