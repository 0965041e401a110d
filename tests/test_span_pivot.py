"""Span lists reach entity scores as the table they were read into, never as tags decoded
back: the table's mentions and repairs equal those of decoding the IOB2 tags the same
spans are written as (the oracle), in both modes, with snapping and type processing.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
import nerspan.layers
from nerspan import Evaluation
from nerspan.reading.span_lists import from_spans
from nerspan.spans import column_spans, decode

TYPES = ["PER", "LOC", "ORG"]
LENGTH = 8


@st.composite
def flat_sentence(draw) -> list:
    """Spans of one sentence side by side (none share a token), in any order."""
    cuts = sorted(draw(st.sets(st.integers(0, LENGTH), max_size=6)))
    spans = [(a, b, draw(st.sampled_from(TYPES))) for a, b in zip(cuts[::2], cuts[1::2])]
    return draw(st.permutations(spans))


def flat_sides():
    return st.integers(1, 4).flatmap(lambda n: st.tuples(
        st.lists(flat_sentence(), min_size=n, max_size=n),
        st.lists(flat_sentence(), min_size=n, max_size=n)))


def words(n: int) -> list:
    return [[f"w{i}" for i in range(LENGTH)] for _ in range(n)]


def same_spans(table: nerspan.Spans, tags: nerspan.Spans) -> None:
    for name in ("start", "end", "type"):
        assert np.array_equal(getattr(table, name), getattr(tags, name)), name
    assert table.types == tags.types
    assert (table.scheme, table.mode) == (tags.scheme, tags.mode)
    assert table.repairs.to_dict() == tags.repairs.to_dict()


@settings(max_examples=60, deadline=None)
@given(flat_sides(), st.sampled_from(["lenient", "strict"]))
def test_table_equals_its_tags_decoded(sides, mode):
    gold, pred = sides
    corpus = from_spans(gold, pred, tokens=words(len(gold)))
    for column in ("gold", "pred"):
        assert corpus.span_table(column) is not None and corpus.mentions(column) is None
        same_spans(column_spans(corpus, column, "IOB2", mode),
                   decode(corpus, column, "IOB2", mode))


@settings(max_examples=30, deadline=None)
@given(flat_sides())
def test_snapped_character_spans_count_as_before(sides):
    """Character spans widened to token boundaries: the table counts each, with its
    sentence, as decoding the tags counts them from the corpus's record."""
    gold, pred = sides
    texts = [" ".join(w) for w in words(len(gold))]
    starts = [[0] + [k * 3 for k in range(1, LENGTH)]] * len(gold)   # w0..w7 at 0, 3, 6 ...

    def in_chars(side):   # starts one character into the first token: snapped
        return [[{"label": t, "start": starts[i][a] + (k == 0), "end": starts[i][b - 1] + 2}
                 for k, (a, b, t) in enumerate(spans)] for i, spans in enumerate(side)]

    corpus = from_spans(in_chars(gold), in_chars(pred),
                        inputs={"texts": texts, "offsets": "chars", "snap": True})
    for column in ("gold", "pred"):
        table, tags = column_spans(corpus, column), decode(corpus, column)
        same_spans(table, tags)
        assert table.repairs.snapped == sum(1 for spans in (gold if column == "gold"
                                                            else pred) if spans)


def test_entity_scores_decode_no_tags(monkeypatch):
    """nerspan.score and the confusion matrix of span lists read the tables: decoding
    a tag column there is an error here."""
    def refused(*args, **kwargs):
        raise AssertionError("span lists decoded from tags")

    monkeypatch.setattr(nerspan.layers, "decode", refused)
    gold = [[(0, 2, "PER"), (3, 4, "LOC")], [(1, 2, "ORG")]]
    pred = [[(3, 4, "ORG"), (0, 2, "PER")], []]
    scores = nerspan.score(gold, pred, tokens=words(2))
    assert (scores.correct.sum(), scores.predicted.sum(), scores.gold.sum()) == (1, 2, 3)
    confusion = Evaluation.build(gold, pred, tokens=words(2)).confusion("pred")["confusion"]
    assert confusion == {"LOC": {"ORG": 1}, "PER": {"PER": 1}, "ORG": {"O": 1}}


@pytest.mark.parametrize("options", [{"type_map": {"PER": "LOC"}}, {"keep_types": ["PER"]}])
def test_type_processing_retags_and_drops_the_table(options):
    """Type processing writes the changed mentions as tags anew: the table, which holds
    them as read, is dropped, and the scores are those of the same input as tags."""
    gold = [[(0, 2, "PER"), (3, 4, "LOC")], [(1, 2, "ORG")]]
    pred = [[(3, 4, "ORG"), (0, 2, "PER")], [(1, 2, "ORG")]]
    as_tags = [from_spans(side, tokens=words(2)) for side in (gold, pred)]
    tags = [[c.tags("gold", i) for i in range(2)] for c in as_tags]
    from_tables = nerspan.score(gold, pred, tokens=words(2), inputs=options).to_dict()
    from_tags = nerspan.score(*tags, inputs=options).to_dict()
    assert from_tables["repairs"] == from_tags["repairs"]
    assert from_tables["per_type"] == from_tags["per_type"]
    assert from_tables["repairs"]["gold"]["types_mapped" if "type_map" in options
                                          else "types_removed"] > 0


def test_new_tags_drop_a_flat_table_and_keep_a_nested_one():
    corpus = from_spans([[(0, 2, "PER")]], [[(0, 2, "PER"), (1, 2, "LOC")]],
                        tokens=words(1))
    relabelled = corpus.with_tags({"gold": np.zeros(LENGTH, dtype=np.int32),
                                   "pred": corpus.columns["pred"]})
    assert relabelled.span_table("gold") is None
    assert relabelled.mentions("pred") is corpus.mentions("pred")
    kept = corpus.with_tags(dict(corpus.columns))
    assert kept.span_table("gold") is corpus.span_table("gold")
