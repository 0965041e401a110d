"""An evaluate module reads the Arrow columns evaluate hands over (issue 37).

evaluate stores a module's inputs as Arrow before ``_compute``; the modules ask for them
as they are stored (``format="arrow"``) and nerspan reads tag strings and label ids
through their buffers (``Corpus.from_arrow``, the input form ``arrow``), where evaluate
decoded every sentence back to a Python list. What this must not change:

- ``Corpus.from_arrow`` builds the corpus ``from_tags`` / ``from_ids`` build of the same
  lists (hypothesis), and errors read the same;
- ``read_columns`` keeps Arrow only where nerspan reads it (tags, or ids with a label
  list), every other form as the lists evaluate gave before;
- each module's result equals its family's ``score`` on the same input, in one batch or
  several; and the garbage collector, paused around a compute, is as it was after.
``benchmarks/bench_evaluate.py`` measures what it saves.
"""
from __future__ import annotations

import gc

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
from nerlens.families import family_package
from nerlens.metric_support import collector_paused, read_columns
from nerspan import Corpus, LengthMismatchError, SentenceCountError
from nerspan.reading.forms import input_form

from tests.conftest import REPO

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]
FAMILIES = ("faireval", "hardeval", "tough_mentions", "attribute_buckets")


def same_corpus(a: Corpus, b: Corpus) -> None:
    assert a.labels == b.labels and a.vocab == b.vocab
    assert np.array_equal(a.offsets, b.offsets) and list(a.columns) == list(b.columns)
    for name in a.columns:
        assert np.array_equal(a.column(name), b.column(name))
    assert (a.tokens is None) == (b.tokens is None)
    if a.tokens is not None:
        assert np.array_equal(a.tokens, b.tokens)


@st.composite
def tagged(draw):
    """(gold, pred, tokens): sentences of the same lengths, some empty."""
    lengths = draw(st.lists(st.integers(0, 6), min_size=1, max_size=6))
    side = lambda: [draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n))  # noqa: E731
                    for n in lengths]
    words = [[draw(st.sampled_from(["a", "b", "Ana", "é"])) for _ in range(n)] for n in lengths]
    return side(), side(), words


@settings(max_examples=80, deadline=None)
@given(tagged())
def test_from_arrow_builds_what_from_tags_builds(case):
    gold, pred, words = case
    same_corpus(Corpus.from_arrow(pa.array(gold, pa.list_(pa.string())),
                                  pa.array(pred, pa.list_(pa.string())),
                                  pa.array(words, pa.list_(pa.string()))),
                Corpus.from_tags(gold, pred, words))
    # predictions and tokens as lists beside Arrow references, and a chunked array
    chunked = pa.chunked_array([pa.array(gold[:1], pa.list_(pa.string())),
                                pa.array(gold[1:], pa.list_(pa.string()))])
    same_corpus(Corpus.from_arrow(chunked, pred, words), Corpus.from_tags(gold, pred, words))


@settings(max_examples=60, deadline=None)
@given(tagged(), st.data())
def test_from_arrow_reads_label_ids_as_from_ids(case, data):
    gold, pred, _ = case
    ids = [[TAGS.index(t) for t in sentence] for sentence in gold]
    ignored = [[data.draw(st.sampled_from([i, i, -100])) for i in sentence] for sentence in ids]
    predicted = [[TAGS.index(t) for t in sentence] for sentence in pred]
    same_corpus(Corpus.from_arrow(pa.array(ignored), pa.array(predicted), label_list=TAGS),
                Corpus.from_ids(ignored, predicted, TAGS))


def test_nerspan_reads_arrow_arrays_as_an_input_form():
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["O"]]
    pred = [["B-PER", "O", "O", "B-LOC"], ["B-ORG"]]
    assert input_form(pa.array(gold), pa.array(pred)).name == "arrow"
    assert nerspan.score(pa.array(gold), pa.array(pred)).to_dict() \
        == nerspan.score(gold, pred).to_dict()
    # the errors of the list route, word for word
    for bad, error in (([["B-PER", "O"], ["O"]], LengthMismatchError), ([["O"]], SentenceCountError)):
        with pytest.raises(error) as listed:
            nerspan.score(gold, bad)
        with pytest.raises(error) as arrowed:
            nerspan.score(pa.array(gold), pa.array(bad))
        assert str(arrowed.value) == str(listed.value)
    with pytest.raises(LengthMismatchError) as listed:
        nerspan.score(gold, pred, tokens=[["a"] * 4, ["b", "c"]])
    with pytest.raises(LengthMismatchError) as arrowed:
        nerspan.score(pa.array(gold), pa.array(pred), tokens=pa.array([["a"] * 4, ["b", "c"]]))
    assert str(arrowed.value) == str(listed.value)


def test_read_columns_keeps_arrow_only_where_nerspan_reads_it():
    tags = pa.chunked_array([pa.array([["B-PER", "O"], []])])
    words = pa.chunked_array([pa.array([["Ana", "sang"], []])])
    assert all(column is given for column, given in zip(read_columns(tags, tags, words),
                                                        (tags, tags, words)))
    ids = pa.chunked_array([pa.array([[1, 0], []])])
    assert read_columns(ids, ids, None, ["O", "B-PER"])[0] is ids
    # ids without a label list, span dicts, generated responses, a side of empty
    # sentences only: lists, as evaluate decoded them
    spans = pa.chunked_array([pa.array([[{"label": "PER", "start": 0, "end": 1}], []])])
    responses = pa.chunked_array([pa.array(['[{"text": "Ana", "type": "PER"}]', ""])])
    empty = pa.chunked_array([pa.array([[], []], pa.list_(pa.string()))])
    for other in (ids, spans, responses, empty):
        predictions, references, tokens = read_columns(other, tags, words)
        assert (predictions, references, tokens) == (other.to_pylist(), tags.to_pylist(),
                                                     words.to_pylist())
    assert read_columns([["O"]], [["O"]], [["a"]]) == ([["O"]], [["O"]], [["a"]])


def test_the_collector_is_as_it_was_after_a_pause():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ValueError):
        with collector_paused():
            raise ValueError
    assert gc.isenabled()


@pytest.fixture(scope="module")
def corpus():
    from benchmarks.synthetic import make_corpus

    tokens, gold, pred = make_corpus(120, seed=3)
    gold[5], pred[5], tokens[5] = [], [], []      # an empty sentence among the others
    train_tokens, train_tags, _ = make_corpus(60, seed=4)
    return tokens, gold, pred, train_tokens, train_tags


@pytest.fixture
def reads(monkeypatch):
    """What the modules read their inputs as: ``"arrow"`` per corpus built from Arrow
    arrays, ``"decoded"`` per Arrow array decoded to lists."""
    import nerlens.metric_support as support

    seen = []
    from_arrow, decode = Corpus.from_arrow.__func__, support.python_lists

    def built(cls, *args, **kwargs):
        seen.append("arrow")
        return from_arrow(cls, *args, **kwargs)

    def decoded(value):
        if hasattr(value, "to_pylist"):
            seen.append("decoded")
        return decode(value)

    monkeypatch.setattr(Corpus, "from_arrow", classmethod(built))
    monkeypatch.setattr(support, "python_lists", decoded)
    return seen


@pytest.mark.parametrize("family", FAMILIES)
def test_a_module_reading_arrow_gives_its_familys_result(family, corpus, reads):
    import evaluate

    tokens, gold, pred, train_tokens, train_tags = corpus
    words = family != "faireval"
    load = dict(train=(train_tokens, train_tags)) if words else {}
    module = evaluate.load(str(REPO / "metrics" / family), **load)
    index = nerspan.as_train_index(train=(train_tokens, train_tags))
    own = dict(tokens=tokens, train=index) if words else {}
    expected = family_package(family).score(gold, pred, **own).to_dict()
    given = dict(tokens=tokens) if words else {}
    assert module.compute(predictions=pred, references=gold, **given) == expected
    assert reads == ["arrow"]         # read through the buffers, nothing decoded
    for start in range(0, len(gold), 50):     # several batches: several Arrow chunks
        module.add_batch(predictions=pred[start:start + 50],
                         references=gold[start:start + 50],
                         **({"tokens": tokens[start:start + 50]} if words else {}))
    assert module.compute() == expected and gc.isenabled()
    labels = sorted({t for sentence in gold + pred for t in sentence})
    as_ids = lambda tags: [[labels.index(t) for t in s] for s in tags]  # noqa: E731
    assert module.compute(predictions=as_ids(pred), references=as_ids(gold),
                          label_list=labels, **given) == expected
    assert reads == ["arrow"] * 3
