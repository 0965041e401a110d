"""The nerspan core: builders, readers, validation errors, repairs, the training index."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import nerspan
from nerspan import (Corpus, EmptyInputError, FormatError, InvalidTagError, LabelIdError,
                     LengthMismatchError, SentenceCountError, TrainIndex, decode,
                     read_columns)


# -- tag parsing and schemes ----------------------------------------------------------------
def test_types_split_on_first_hyphen_and_untyped_tags():
    corpus = Corpus.from_tags([["B-WORK-OF-ART", "I-WORK-OF-ART", "O", "B", "I"]])
    assert decode(corpus).to_list(corpus) == [[("WORK-OF-ART", 0, 2), ("", 3, 5)]]


@pytest.mark.parametrize("scheme,tags,expected", [
    ("IOB1", ["I-PER", "I-PER", "B-PER", "O"], [("PER", 0, 2), ("PER", 2, 3)]),
    ("IOE1", ["I-PER", "E-PER", "I-PER", "O"], [("PER", 0, 2), ("PER", 2, 3)]),
    ("IOE2", ["I-PER", "E-PER", "E-LOC", "O"], [("PER", 0, 2), ("LOC", 2, 3)]),
    ("IOBES", ["B-PER", "E-PER", "S-LOC", "O"], [("PER", 0, 2), ("LOC", 2, 3)]),
    ("BIOES", ["S-PER", "B-LOC", "I-LOC", "E-LOC"], [("PER", 0, 1), ("LOC", 1, 4)]),
    ("BILOU", ["B-PER", "L-PER", "U-LOC", "O"], [("PER", 0, 2), ("LOC", 2, 3)]),
    ("BMES", ["B-PER", "M-PER", "E-PER", "S-LOC"], [("PER", 0, 3), ("LOC", 3, 4)]),
    ("IO", ["I-PER", "I-PER", "I-LOC", "O"], [("PER", 0, 2), ("LOC", 2, 3)]),
])
def test_every_scheme_decodes_valid_input_alike_in_both_modes(scheme, tags, expected):
    corpus = Corpus.from_tags([tags])
    for mode in ("lenient", "strict"):
        assert decode(corpus, scheme=scheme, mode=mode).to_list(corpus) == [expected]


def test_lenient_reads_i_after_o_as_a_start_and_counts_the_repair():
    corpus = Corpus.from_tags([["O", "I-PER", "I-LOC"], ["B-ORG", "I-ORG"]])
    spans = decode(corpus)
    assert spans.to_list(corpus) == [[("PER", 1, 2), ("LOC", 2, 3)], [("ORG", 0, 2)]]
    assert spans.repairs.invalid_transitions == 2  # O -> I-PER, I-PER -> I-LOC
    assert spans.repairs.sentences == (0,)


def test_prefix_outside_scheme_lenient_repaired_strict_refused():
    corpus = Corpus.from_tags([["O", "O"], ["S-PER", "O"]])
    spans = decode(corpus, scheme="IOB2")
    assert spans.to_list(corpus) == [[], [("PER", 0, 1)]]
    assert spans.repairs.outside_scheme == 1
    with pytest.raises(InvalidTagError, match="sentence 1.*'S-PER' is not in the IOB2 scheme"):
        decode(corpus, scheme="IOB2", mode="strict")


def test_unreadable_tag_is_an_error_naming_the_sentence():
    corpus = Corpus.from_tags([["O"], ["O", "X-PER"]])
    with pytest.raises(InvalidTagError, match="sentence 1.*'X-PER' is not a tag"):
        decode(corpus)


def test_unknown_scheme_and_mode():
    corpus = Corpus.from_tags([["O"]])
    with pytest.raises(ValueError, match="unknown tag scheme"):
        decode(corpus, scheme="BIOLU2")
    with pytest.raises(ValueError, match="unknown decoding mode"):
        decode(corpus, mode="loose")


def test_mentions_never_cross_sentences():
    corpus = Corpus.from_tags([["B-PER"], ["I-PER"]])
    assert decode(corpus).to_list(corpus) == [[("PER", 0, 1)], [("PER", 0, 1)]]


# -- scores ------------------------------------------------------------------------------------
def test_entity_scores_by_hand():
    refs = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    preds = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    result = nerspan.score(refs, preds).to_dict()
    # gold PER, LOC, ORG; predicted PER, ORG, ORG; correct PER, ORG
    assert (result["gold"], result["predicted"], result["correct"]) == (3, 3, 2)
    assert result["precision"] == result["recall"] == pytest.approx(2 / 3)
    assert result["per_type"]["LOC"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0,
                                         "support": 1, "predicted": 0, "correct": 0}
    assert result["per_type"]["ORG"]["precision"] == 0.5
    assert result["macro_f1"] == pytest.approx((1 + 0 + 2 / 3) / 3)
    assert "LOC/precision" in result["undefined"]


def test_zero_division_is_explicit():
    result = nerspan.score([["O"]], [["O"]], zero_division=1)
    assert result.micro() == (1.0, 1.0, 1.0)
    assert result.undefined() == ["precision", "recall"]
    assert nerspan.score([["O"]], [["O"]]).micro() == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="zero_division"):
        nerspan.score([["O"]], [["O"]], zero_division=0.5)


# -- builders and validation -------------------------------------------------------------------
def test_from_tags_validation():
    with pytest.raises(EmptyInputError):
        nerspan.score([], [])
    with pytest.raises(SentenceCountError, match="predictions hold 1 sentence, references 2$"):
        nerspan.score([["O"], ["O"]], [["O"]])
    with pytest.raises(LengthMismatchError,
                       match="sentence 1: predictions have 1 item, references 2"):
        nerspan.score([["O"], ["O", "O"]], [["O"], ["O"]])
    with pytest.raises(InvalidTagError, match="sentence 1"):
        nerspan.score([["O"], ["O", 3]], [["O"], ["O", "O"]])
    with pytest.raises(TypeError, match="list of tags per sentence"):
        nerspan.score(["B-PER I-PER"], ["B-PER I-PER"])


def test_from_ids_drops_ignored_positions_from_both_sides():
    labels = ["O", "B-PER", "I-PER"]
    refs = np.array([[0, 1, -100, 2, -100], [1, 2, 0, -100, -100]])
    preds = np.array([[0, 1, 1, 2, 0], [1, 0, 0, 2, 2]])
    corpus = Corpus.from_ids(refs, preds, labels)
    assert corpus.lengths.tolist() == [3, 3]
    assert corpus.tags("gold", 0) == ["O", "B-PER", "I-PER"]
    assert corpus.tags("pred", 0) == ["O", "B-PER", "I-PER"]
    assert corpus.tags("pred", 1) == ["B-PER", "O", "O"]
    ragged = Corpus.from_ids([[0, 1, -100, 2]], [[0, 1, 1, 2]], labels, tokens=[["a", "b", "c"]])
    assert ragged.sentence_tokens(0) == ["a", "b", "c"]


def test_from_ids_validation():
    labels = ["O", "B-PER"]
    with pytest.raises(LabelIdError, match="predictions, sentence 1, position 0: id 7 is outside"):
        Corpus.from_ids([[0], [1]], [[0], [7]], labels)
    with pytest.raises(LengthMismatchError, match="sentence 0"):
        Corpus.from_ids([[0, 1]], [[0]], labels)
    # a prediction id at an ignored position is never looked at
    assert Corpus.from_ids([[0, -100]], [[0, 99]], labels).n_tokens == 1


def test_read_columns(tmp_path):
    path = tmp_path / "x.conll"
    path.write_text("-DOCSTART- -X- O O\n\n# a comment\nA\tX B-PER B-PER\nB x  I-PER   O\n\n\n"
                    "-DOCSTART- -X- O O\nC X B-LOC B-ORG\n")
    corpus = read_columns(path, {"gold": -2, "pred": -1}, comment_prefix="#")
    assert corpus.n_sentences == 2
    assert corpus.sentence_tokens(0) == ["A", "B"]
    assert corpus.tags("gold", 0) == ["B-PER", "I-PER"]
    assert corpus.tags("pred", 1) == ["B-ORG"]
    assert corpus.source.sentence_lines.tolist() == [4, 9]


def test_read_columns_errors_name_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("a O O\nb O\n")
    with pytest.raises(FormatError, match=r"bad.txt:2, sentence 0: 2 columns, need at least 3"):
        read_columns(path, {"gold": -2, "pred": -1})
    repaired = read_columns(path, {"gold": 1, "pred": 2}, missing_tag="O")
    assert repaired.tags("pred", 0) == ["O", "O"]
    assert repaired.source.repaired_lines == (2,)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(EmptyInputError, match="empty.txt"):
        read_columns(empty)


def test_with_columns_checks_shape_and_names_the_file(tmp_path):
    gold = tmp_path / "gold.txt"
    pred = tmp_path / "pred.txt"
    gold.write_text("a B-PER\nb O\n\nc O\n")
    pred.write_text("a B-PER\n\nc O\nd O\n")
    with pytest.raises(LengthMismatchError, match=r"pred.txt:1, sentence 0: length mismatch: predictions have 1 token, the reference 2 tokens"):
        read_columns(gold).with_columns(read_columns(pred), {"gold": "pred"})


def test_from_dataset_with_classlabel():
    datasets = pytest.importorskip("datasets")
    features = datasets.Features({
        "tokens": datasets.Sequence(datasets.Value("string")),
        "ner_tags": datasets.Sequence(datasets.ClassLabel(names=["O", "B-PER", "I-PER"])),
    })
    ds = datasets.Dataset.from_dict(
        {"tokens": [["John", "Smith", "runs"]], "ner_tags": [[1, 2, 0]]}, features=features)
    corpus = Corpus.from_dataset(ds, predictions=[["B-PER", "O", "O"]])
    assert corpus.tags("gold", 0) == ["B-PER", "I-PER", "O"]
    assert corpus.sentence_tokens(0) == ["John", "Smith", "runs"]
    assert nerspan.score(corpus).micro() == (0.0, 0.0, 0.0)
    by_ids = Corpus.from_dataset(ds, predictions=[[1, 2, 0]])
    assert nerspan.score(by_ids).micro() == (1.0, 1.0, 1.0)


def test_subset_resamples_sentences():
    corpus = Corpus.from_tags([["B-PER"], ["O", "B-LOC"], ["O"]], tokens=[["a"], ["b", "c"], ["d"]])
    sub = corpus.subset(np.array([1, 1, 0]))
    assert sub.lengths.tolist() == [2, 2, 1]
    assert sub.tags("gold", 1) == ["O", "B-LOC"]
    assert sub.sentence_tokens(2) == ["a"]


# -- training index ----------------------------------------------------------------------------
@pytest.fixture
def train_index():
    tokens = [["Newcastle", "is", "a", "city", "in", "the", "UK"],
              ["the", "UK", "and", "uk", "Newcastle", "United"]]
    tags = [["B-LOC", "O", "O", "O", "O", "O", "B-LOC"],
            ["O", "B-ORG", "O", "O", "B-ORG", "I-ORG"]]
    return nerspan.as_train_index((tokens, tags))


def test_train_index_mentions(train_index):
    mentions = train_index.mention_types()
    assert mentions["UK"] == Counter({"LOC": 1, "ORG": 1})
    assert mentions["Newcastle United"] == Counter({"ORG": 1})
    assert "uk" not in mentions
    assert train_index.n_mentions == 4


def test_train_index_token_counts(train_index):
    rows = train_index.token_rows(["UK", "the", "unseen"])
    counts = train_index.io_counts[rows[:2]]
    types = train_index.types  # ("LOC", "ORG")
    assert rows[2] == -1
    assert counts[0].tolist() == [0, 1, 1] and types == ("LOC", "ORG")
    assert counts[1].tolist() == [2, 0, 0]
    lower = train_index.token_label_counts(lowercase=True)[train_index.token_rows(["UK"], lowercase=True)]
    assert lower.tolist() == [[1, 1, 1]]


def test_train_index_tables_are_as_wide_as_the_types_of_the_data(train_index):
    """A label vocabulary may name thousands of types that training never shows (a
    model's id2label): the per-word table once had a column for each (4,001 labels,
    2,001 columns; 80,000 labels and 20,000 words, 6.4 GB)."""
    labels = ["O", "B-LOC", "B-ORG", "I-ORG"] + [f"B-X{i}" for i in range(4000)]
    index = {label: i for i, label in enumerate(labels)}
    corpus = train_index.corpus
    ids = [[index[t] for t in corpus.tags("gold", i)] for i in range(corpus.n_sentences)]
    words = [corpus.sentence_tokens(i) for i in range(corpus.n_sentences)]
    wide = nerspan.as_train_index(Corpus.from_ids(ids, None, labels, tokens=words))
    assert wide.types == train_index.types == ("LOC", "ORG")
    assert wide.io_counts.shape == train_index.io_counts.shape == (len(corpus.vocab), 3)
    assert wide.mention_types() == train_index.mention_types()


def test_as_train_index_forms(tmp_path, train_index):
    path = tmp_path / "train.txt"
    path.write_text("Newcastle B-LOC\nis O\n\nUK B-LOC\n")
    from_file = nerspan.as_train_index(path)
    assert from_file.mention_types() == {"Newcastle": Counter({"LOC": 1}), "UK": Counter({"LOC": 1})}
    assert nerspan.as_train_index(train_index) is train_index
    assert isinstance(nerspan.as_train_index(from_file.corpus), TrainIndex)
    with pytest.raises(TypeError):
        nerspan.as_train_index(42)
