"""One input path (issue 29): every input form is one record of ``nerspan.reading.forms.FORMS``
read by one dispatcher, and the ``Corpus`` it builds is immutable and checks itself."""
from __future__ import annotations

import pickle

import numpy as np
import pyarrow as pa
import pytest

import faireval
import nerspan
from nerspan import Corpus, Evaluation
from nerspan.errors import InputTypeError, LabelIdError, LengthMismatchError, NameTakenError
from nerspan.reading.forms import (FORMS, InputForm, Reading, input_form, read_input,
                            register_form)

TAGS = [["B-PER", "I-PER", "O"], ["B-LOC"]]
PRED = [["B-PER", "O", "O"], ["B-LOC"]]
LABELS = ["O", "B-PER", "I-PER", "B-LOC"]


# -- the form table ------------------------------------------------------------------------
def test_every_form_is_one_record_in_one_table():
    names = [form.name for form in FORMS]
    assert names == ["evaluation", "scored", "generated", "dataset", "arrow", "span_pairs",
                     "spans", "corpus", "ids", "tags"]
    assert all(isinstance(form, InputForm) and form.doc for form in FORMS)
    corpus = Corpus.from_tags(TAGS, PRED)
    cases = {
        "tags": (TAGS, PRED, {}),
        "ids": ([[1, 2, 0], [3]], [[1, 0, 0], [3]], {"label_list": LABELS}),
        "corpus": (corpus, None, {}),
        "arrow": (pa.array(TAGS), pa.array(PRED), {}),   # as evaluate hands a module
        "spans": ([[(0, 2, "PER")], [(0, 1, "LOC")]], PRED, {}),
        "span_pairs": ([[(0, 2, "PER")], [(0, 1, "LOC")]], [[(0, 1, "PER")], [(0, 1, "LOC")]],
                       {}),
        "evaluation": (Evaluation.build(TAGS), PRED, {}),
        # PRED's mentions as an LLM lists them, located in the words
        "generated": (TAGS, [[("Ada", "PER")], '[{"text": "Paris", "type": "LOC"}]'],
                      {"tokens": [["Ada", "Lovelace", "wrote"], ["Paris"]]}),
        # PRED's mentions with a confidence each, kept at a threshold
        "scored": (TAGS, [[(0, 1, "PER", 0.9), (2, 3, "LOC", 0.4)], [(0, 1, "LOC", 0.6)]],
                   {"threshold": 0.5}),
    }
    for name, (references, predictions, options) in cases.items():
        inputs = nerspan.InputOptions(**options)
        assert input_form(references, predictions, inputs).name == name
        reading = read_input(references, predictions, inputs=inputs)
        assert isinstance(reading, Reading) and reading.form.name == name
        scored = nerspan.score(references, predictions, inputs=options).micro()
        assert scored == nerspan.score(TAGS, PRED).micro(), name


def test_a_new_form_is_one_record():
    class Doc:  # a document object of some other library: its sentences' tags
        def __init__(self, tags):
            self.tags = tags

    form = InputForm("doc", lambda r, p, inputs, words: isinstance(r, Doc),
                     lambda r, p, inputs, scheme, words: Reading(
                         form, Corpus.from_tags(r.tags, p.tags)), "a Doc object")
    register_form(form, before="tags")
    try:
        assert nerspan.score(Doc(TAGS), Doc(PRED)).micro() == nerspan.score(TAGS, PRED).micro()
        with pytest.raises(ValueError, match="registered already"):
            register_form(form)
    finally:
        FORMS.remove(form)


def test_faireval_reads_span_pairs_as_they_are_and_every_other_form_through_the_dispatcher():
    nested = [[(0, 3, "ORG"), (1, 2, "LOC")]]
    assert input_form(nested, nested).name == "span_pairs"
    result = faireval.score(nested, nested)
    assert result.counts["TP"] == 2   # nested spans kept: tags could not hold both
    assert nerspan.score(nested, nested).micro() == (1.0, 1.0, 1.0)   # the span table
    with pytest.raises(nerspan.NerspanError, match="nest"):   # tags cannot hold them
        nerspan.Evaluation.build(nested, nested).corpus.column("gold")


# -- the corpus checks itself, and never changes -----------------------------------------
def test_a_corpus_is_read_only():
    corpus = Corpus.from_tags(TAGS, PRED, tokens=[["Ada", "Byron", "ran"], ["Rome"]])
    for array in (corpus.offsets, corpus.column("gold"), corpus.tokens):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1
    with pytest.raises(TypeError, match="cannot change"):
        corpus.columns["x"] = corpus.column("gold")
    with pytest.raises(AttributeError):
        corpus.labels = ()
    again = pickle.loads(pickle.dumps(corpus))
    assert again.tags("pred", 0) == corpus.tags("pred", 0)


def test_a_corpus_checks_itself_when_built():
    offsets, ids, labels = np.array([0, 2, 3]), np.array([0, 1, 0]), ("O", "B-PER")
    assert Corpus(offsets, {"gold": ids}, labels).n_tokens == 3
    caller_ids = np.array([0, 1, 0])
    Corpus(offsets, {"gold": caller_ids}, labels)
    caller_ids[0] = 1  # the caller's own array stays writeable
    with pytest.raises(InputTypeError, match="start at 0 and never decrease"):
        Corpus(np.array([0, 3, 2]), {"gold": ids}, labels)
    with pytest.raises(InputTypeError, match="start at 0"):
        Corpus(np.array([1, 3]), {"gold": ids}, labels)
    with pytest.raises(LabelIdError, match="column 'gold', sentence 1, position 0: id 2"):
        Corpus(offsets, {"gold": np.array([0, 1, 2])}, labels)
    with pytest.raises(LabelIdError, match="id -1"):
        Corpus(offsets, {"gold": np.array([0, -1, 0])}, labels)
    with pytest.raises(LengthMismatchError, match="2 ids for 3 tokens"):
        Corpus(offsets, {"gold": np.array([0, 1])}, labels)
    with pytest.raises(InputTypeError, match="integer array"):
        Corpus(offsets, {"gold": np.array([0.0, 1.0, 0.0])}, labels)
    with pytest.raises(InputTypeError, match="column name must be a string"):
        Corpus(offsets, {1: ids}, labels)
    with pytest.raises(InputTypeError, match="labels must be strings"):
        Corpus(offsets, {"gold": ids}, ("O", 1))
    with pytest.raises(LabelIdError, match="tokens, sentence 0, position 1: id 5 is "
                                           "outside the vocabulary"):
        Corpus(offsets, {"gold": ids}, labels, np.array([0, 5, 0]), ("a",))


def test_other_corpora_come_from_its_methods():
    corpus = Corpus.from_tags(TAGS, PRED)
    assert corpus.paired("pred", "gold").tags("gold", 0) == PRED[0]
    assert list(corpus.renamed({"pred": "sys"}).columns) == ["gold", "sys"]
    with pytest.raises(NameTakenError):
        corpus.renamed({"pred": "gold"})
    o = corpus.labels.index("O")
    baseline = corpus.with_column("base", np.array([len(corpus.labels), o, o, 0]),
                                  corpus.labels + ("I-LOC",))
    assert baseline.tags("base", 0) == ["I-LOC", "O", "O"]
    with pytest.raises(LabelIdError):
        corpus.with_column("bad", np.array([9, 0, 0, 0]))
    words = corpus.with_tokens([["a", "b", "c"], ["d"]])
    assert words.sentence_tokens(1) == ["d"] and words.without_tokens().tokens is None
    with pytest.raises(LengthMismatchError):
        corpus.with_tokens([["a"], ["d"]])
    block = words.block(1, 2)
    assert block.n_sentences == 1 and block.tags("gold", 0) == ["B-LOC"]
    assert np.shares_memory(block.column("gold"), words.column("gold"))
    levels = corpus.with_tags({"x": np.array([1, 0, 0, 1])}, ("O", "B-X"))
    assert levels.labels == ("O", "B-X")
    assert levels.tags("x", 0) == ["B-X", "O", "O"] and list(levels.columns) == ["x"]
