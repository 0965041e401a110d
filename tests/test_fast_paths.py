"""The id and Arrow paths give exactly the corpus and scores of the tag-string path."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
from nerspan import Corpus, InputTypeError, InvalidTagError, LabelIdError, LengthMismatchError

datasets = pytest.importorskip("datasets")
pa = pytest.importorskip("pyarrow")

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "S-X"]
pytestmark = pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")


def tag_lists(corpus: Corpus, column: str) -> list:
    return [corpus.tags(column, i) for i in range(corpus.n_sentences)]


def same_corpus(fast: Corpus, slow: Corpus):
    """Same sentences, tags, tokens and scores (ids may be numbered differently)."""
    assert fast.lengths.tolist() == slow.lengths.tolist()
    for column in slow.columns:
        assert tag_lists(fast, column) == tag_lists(slow, column)
    if slow.tokens is not None:
        assert [fast.sentence_tokens(i) for i in range(fast.n_sentences)] == \
            [slow.sentence_tokens(i) for i in range(slow.n_sentences)]
    if "pred" in slow.columns:
        for mode in ("lenient", "strict"):
            assert outcome(fast, mode) == outcome(slow, mode)


def outcome(corpus: Corpus, mode: str):
    """The scores, or the error (S-X is outside IOB2: strict mode refuses it)."""
    try:
        return nerspan.score(corpus, mode=mode).to_dict()
    except InvalidTagError as error:
        return str(error)


def padded(rows: list, fill: int = -100) -> np.ndarray:
    array = np.full((len(rows), max(map(len, rows), default=0)), fill, dtype=np.int64)
    for i, row in enumerate(rows):
        array[i, :len(row)] = row
    return array


def classlabel_split(gold_ids: list, tokens: list, pred_ids: list | None = None):
    features = {"tokens": datasets.Sequence(datasets.Value("string")),
                "ner_tags": datasets.Sequence(datasets.ClassLabel(names=LABELS))}
    data = {"tokens": tokens, "ner_tags": gold_ids}
    if pred_ids is not None:
        features["pred"] = datasets.Sequence(datasets.Value("int64"))
        data["pred"] = pred_ids
    return datasets.Dataset.from_dict(data, features=datasets.Features(features))


tag = st.sampled_from(LABELS)
sentence_pairs = st.lists(st.lists(st.tuples(tag, tag, st.sampled_from("abc")), max_size=8),
                          min_size=1, max_size=6)


def unzip(pairs):
    gold = [[g for g, _, _ in s] for s in pairs]
    pred = [[p for _, p, _ in s] for s in pairs]
    words = [[w for _, _, w in s] for s in pairs]
    return gold, pred, words


@settings(max_examples=60, deadline=None)
@given(sentence_pairs)
def test_id_forms_equal_the_string_path(pairs):
    gold, pred, words = unzip(pairs)
    slow = Corpus.from_tags(gold, pred, words)
    gold_ids = [[LABELS.index(t) for t in s] for s in gold]
    pred_ids = [[LABELS.index(t) for t in s] for s in pred]
    same_corpus(Corpus.from_ids(gold_ids, pred_ids, LABELS, words), slow)
    same_corpus(Corpus.from_ids(padded(gold_ids), padded(pred_ids, 0), LABELS, words), slow)
    rows = [np.array(s, dtype=np.int64) for s in gold_ids]
    same_corpus(Corpus.from_ids(rows, [np.array(s) for s in pred_ids], LABELS, words), slow)
    interned = Corpus.from_tags(gold, tokens=words)
    same_corpus(Corpus.from_ids(gold_ids, pred_ids, LABELS, interned), slow)


@settings(max_examples=40, deadline=None)
@given(sentence_pairs, st.data())
def test_ignored_positions_are_dropped_on_every_form(pairs, data):
    gold, pred, words = unzip(pairs)
    slow = Corpus.from_tags(gold, pred, words)
    refs, preds = [], []
    for g, p in zip(gold, pred):  # -100 inserted before random positions
        r, q = [], []
        for t, u in zip(g + [None], p + [None]):
            if data.draw(st.booleans()):
                r.append(-100)
                q.append(data.draw(st.integers(0, len(LABELS) - 1)))
            if t is not None:
                r.append(LABELS.index(t))
                q.append(LABELS.index(u))
        refs.append(r)
        preds.append(q)
    same_corpus(Corpus.from_ids(refs, preds, LABELS, words), slow)
    same_corpus(Corpus.from_ids(padded(refs), padded(preds, 3), LABELS, words), slow)
    same_corpus(Corpus.from_ids([np.array(r) for r in refs], [np.array(q) for q in preds],
                                LABELS, words), slow)


@settings(max_examples=25, deadline=None)
@given(sentence_pairs)
def test_dataset_forms_equal_the_string_path(pairs):
    gold, pred, words = unzip(pairs)
    slow = Corpus.from_tags(gold, pred, words)
    gold_ids = [[LABELS.index(t) for t in s] for s in gold]
    pred_ids = [[LABELS.index(t) for t in s] for s in pred]
    split = classlabel_split(gold_ids, words, pred_ids)
    same_corpus(Corpus.from_dataset(split, predictions="pred"), slow)
    same_corpus(Corpus.from_dataset(split, predictions=pred_ids), slow)
    same_corpus(Corpus.from_dataset(split, predictions=pred), slow)
    same_corpus(Corpus.from_dataset(split, predictions=padded(pred_ids)), slow)
    same_corpus(Corpus.from_dataset(split, predictions=[np.array(s) for s in pred_ids]), slow)
    same_corpus(Corpus.from_dataset(split, predictions=pa.array(pred_ids)), slow)
    same_corpus(Corpus.from_dataset(split, predictions=pa.array(pred)), slow)
    for arrow in arrow_forms(pred_ids) + arrow_forms(pred):
        same_corpus(Corpus.from_dataset(split, predictions=arrow), slow)
    rows = np.empty(len(pred_ids), dtype=object)  # a ragged object array, as Arrow gives it
    rows[:] = [np.array(s, dtype=np.int64) for s in pred_ids]
    same_corpus(Corpus.from_dataset(split, predictions=rows), slow)
    same_corpus(Corpus.from_dataset(split, tokens_column=None, predictions="pred"),
                Corpus.from_tags(gold, pred))
    strings = datasets.Dataset.from_dict({"tokens": words, "ner_tags": gold, "pred": pred})
    same_corpus(Corpus.from_dataset(strings, predictions="pred"), slow)
    same_corpus(Corpus.from_dataset(strings, predictions=pred), slow)
    assert nerspan.score(split, pred_ids).to_dict() == nerspan.score(gold, pred).to_dict()


def arrow_forms(rows: list) -> list:
    """``rows`` as the other Arrow list layouts a caller may hold: large lists, several
    chunks, dictionary-encoded (categorical) values."""
    plain = pa.array(rows)
    value_type = plain.type.value_type
    forms = [pa.array(rows, type=pa.large_list(value_type)),
             pa.chunked_array([plain.slice(0, 1), plain.slice(1)])]
    if pa.types.is_string(value_type):
        forms.append(pa.array(rows, type=pa.list_(pa.dictionary(pa.int32(), pa.string()))))
    return forms


def test_dataset_with_selected_rows_reads_those_rows():
    split = classlabel_split([[1, 2], [0], [3]], [["a", "b"], ["c"], ["d"]])
    picked = split.select([2, 0])
    corpus = Corpus.from_dataset(picked, predictions=[[3], [1, 0]])
    assert tag_lists(corpus, "gold") == [["B-LOC"], ["B-PER", "I-PER"]]
    assert corpus.sentence_tokens(1) == ["a", "b"]


def test_dataset_errors_name_side_sentence_position_and_value():
    split = classlabel_split([[1, 2], [0, 0]], [["a", "b"], ["c", "d"]])
    with pytest.raises(LabelIdError, match=r"predictions, sentence 1, position 1: id 9 is "
                                           r"outside the label list \(0\.\.5\)"):
        Corpus.from_dataset(split, predictions=padded([[1, 2], [0, 9]]))
    with pytest.raises(LengthMismatchError, match=r"predictions, sentence 1: predictions have "
                                                  r"1 id beyond the 2 tokens"):
        Corpus.from_dataset(split, predictions=np.array([[1, 2, -100], [0, 0, 4]]))
    with pytest.raises(LengthMismatchError, match=r"sentence 0"):
        Corpus.from_dataset(split, predictions=pa.array([[1], [0, 0]]))
    with pytest.raises(LabelIdError, match=r"predictions, sentence 0, position 1: 1.5 is not"):
        Corpus.from_dataset(split, predictions=np.array([[1, 1.5], [0, 0]]))
    strings = datasets.Dataset.from_dict({"tokens": [["a"], ["b", "c"]],
                                          "ner_tags": [["O"], ["B-PER", None]]})
    with pytest.raises(InvalidTagError, match=r"references, sentence 1, position 1: None is "
                                              r"not a tag"):
        Corpus.from_dataset(strings)
    ints = datasets.Dataset.from_dict({"tokens": [["a"]], "ner_tags": [[1]]})
    with pytest.raises(InputTypeError, match="must hold tag strings or ClassLabel ids"):
        Corpus.from_dataset(ints)


def test_id_errors_stay_the_same_on_arrays():
    with pytest.raises(LabelIdError, match=r"predictions, sentence 1, position 1: id 7 is "
                                           r"outside the label list"):
        Corpus.from_ids([np.array([0, 1]), np.array([-100, 0])],
                        [np.array([0, 1]), np.array([7, 7])], LABELS)
    with pytest.raises(LabelIdError, match=r"references, sentence 1, position 0: id -5 is "):
        Corpus.from_ids(padded([[0, 1], [-5]]), padded([[0, 1], [0]]), LABELS)


def test_trainer_helper_batches_and_logits_equal_the_string_path():
    from types import SimpleNamespace

    from nerlens.trainer import make_compute_metrics

    labels = np.array([[-100, 1, 2, -100, 0], [-100, 3, 4, 0, -100]])
    logits = np.zeros(labels.shape + (len(LABELS),), dtype=np.float32)
    predicted = np.array([[0, 1, 0, 0, 0], [5, 3, 4, 3, 2]])
    np.put_along_axis(logits, predicted[..., None], 1.0, axis=-1)
    words = [["a", "b", "c"], ["d", "e", "f"]]
    helper = make_compute_metrics(LABELS, metrics=("faireval",), eval_tokens=words,
                                  detail="all")
    whole = helper(SimpleNamespace(predictions=logits, label_ids=labels))
    helper(SimpleNamespace(predictions=logits[:1], label_ids=labels[:1]), compute_result=False)
    batched = helper(SimpleNamespace(predictions=logits[1:, :4], label_ids=labels[1:, :4]),
                     compute_result=True)
    assert batched == whole
    gold = [["B-PER", "I-PER", "O"], ["B-LOC", "I-LOC", "O"]]
    pred = [["B-PER", "O", "O"], ["B-LOC", "I-LOC", "B-LOC"]]
    strings = make_compute_metrics(LABELS, metrics=("faireval",), detail="all").compute
    import faireval
    from nerlens.trainer import flat_scalars
    # logits add the sweep of their confidences (detail="all"; tests/test_trainer_keys.py)
    swept = {key for key in whole if key.startswith("confidence_")}
    assert "confidence_average_precision" in swept
    whole = {key: value for key, value in whole.items() if key not in swept}
    assert whole == flat_scalars("faireval", faireval.score(gold, pred).to_dict())
    assert strings(labels, predicted) == whole


def test_interning_past_255_distinct_tags_keeps_first_appearance_order():
    # the bytes pass gives up at id 256 and starts over: ids must not change
    many = [f"B-T{i}" for i in range(300)]
    gold = [many[:150], many[150:], ["O"]]
    pred = [["O"] * 150, list(reversed(many[150:])), ["B-NEW"]]
    corpus = Corpus.from_tags(gold, pred)
    assert corpus.labels == tuple(many + ["O", "B-NEW"])
    assert tag_lists(corpus, "gold") == gold and tag_lists(corpus, "pred") == pred
    assert corpus.columns["gold"].dtype == np.int32 and corpus.columns["pred"].dtype == np.int32
    assert corpus.columns["gold"].tolist() == list(range(300)) + [300]
    crossing = Corpus.from_tags([many[:200]], [many[100:]])  # pred's pass crosses 256
    assert crossing.labels == tuple(many) and tag_lists(crossing, "pred") == [many[100:]]


def test_ids_outside_the_label_list_are_found_in_every_integer_type():
    for dtype in (np.int8, np.int32, np.int64):
        with pytest.raises(LabelIdError, match=r"references, sentence 1, position 0: id -5 "):
            Corpus.from_ids(padded([[0, 1], [-5]]).astype(dtype), padded([[0, 1], [0]]), LABELS)
    with pytest.raises(LabelIdError, match=r"predictions, sentence 0, position 1: id -100 is "):
        Corpus.from_ids(padded([[0, 1], [2]]), padded([[0, -100], [0]]), LABELS)
    with pytest.raises(LabelIdError, match=r"predictions, sentence 1, position 0: id "
                                           r"1099511627776 is outside"):
        Corpus.from_ids(padded([[0, 1], [2]]), padded([[0, 1], [2**40]]), LABELS)
    with pytest.raises(LabelIdError, match=r"predictions, sentence 1, position 0: id 6 is "):
        Corpus.from_ids([[0, 1], [2]], [np.array([0, 1], np.uint8), np.array([6], np.uint8)],
                        LABELS)
    corpus = Corpus.from_ids(padded([[0, 1], [2]]).astype(np.int16),
                             [np.array([0, 5], np.uint8), np.array([2, 0], np.uint8)], LABELS)
    assert tag_lists(corpus, "pred") == [["O", "S-X"], ["I-PER"]]


def test_row_counts_equal_a_sum_per_row():
    from nerspan.corpus import _row_counts

    rng = np.random.default_rng(0)
    for shape in ((1, 1), (7, 34), (500, 3), (3, 0)):
        mask = rng.random(shape) < 0.4
        counts = _row_counts(mask)
        assert counts.dtype == np.int64 and counts.tolist() == mask.sum(axis=1).tolist()


def test_is_dataset_does_not_read_the_features_of_a_split():
    from types import SimpleNamespace

    class Split:
        column_names = ["ner_tags"]

        def with_format(self, kind):
            return self

        @property
        def features(self):
            raise AssertionError("features were read")

    assert nerspan.reading.forms.is_dataset(Split())
    assert nerspan.reading.forms.is_dataset(SimpleNamespace(features={}, column_names=[], with_format=None))
    assert not nerspan.reading.forms.is_dataset([["O"]]) and not nerspan.reading.forms.is_dataset(np.zeros((1, 1)))


def test_with_tokens_attaches_words_and_checks_their_shape():
    corpus = Corpus.from_tags([["B-PER", "O"], ["O"]], [["O", "O"], ["B-LOC"]])
    words = corpus.with_tokens([["a", "b"], ["a"]])
    assert words.vocab == ("a", "b") and words.tokens.tolist() == [0, 1, 0]
    assert words.columns is corpus.columns and words.labels == corpus.labels
    with pytest.raises(LengthMismatchError, match=r"sentence 0: length mismatch: tokens have "
                                                  r"1 token, the reference 2 tokens"):
        corpus.with_tokens([["a"], ["a"]])
    with pytest.raises(nerspan.SentenceCountError, match="tokens hold 1 sentence, the "
                                                         "reference 2 sentences"):
        corpus.with_tokens([["a", "b"]])


@pytest.mark.parametrize("row, ids", [
    (np.array([1.0, 2.0]), [1, 2]),
    (np.array([1, 2], dtype=np.int32), [1, 2]),
    (np.array([1, 2], dtype=np.int64).astype(">i8"), [1, 2]),  # equal values, other dtype
    (np.array([1, 2], dtype=np.int64)[::-1][::-1], [1, 2]),
])
def test_ragged_rows_of_several_dtypes_keep_their_values(row, ids):
    """Rows whose dtype differs from the first row's are converted exactly (pyarrow,
    given the first row's type, would truncate a float row)."""
    rows = [np.array([0, 1]), row, np.array([2])]
    corpus = Corpus.from_ids(rows, rows, ["O", "B-PER", "I-PER"])
    assert corpus.columns["gold"].tolist() == [0, 1] + ids + [2]


@pytest.mark.parametrize("big", [np.array([2**40]), np.array([2**63 + 5], dtype=np.uint64)])
def test_ragged_ids_beyond_int32_are_named_as_given(big):
    """Joined rows are narrowed to int32 only when every id fits: a larger id is still
    refused with its own value (not one wrapped by a cast)."""
    rows = [np.array([0, 1], dtype=big.dtype), big]
    with pytest.raises(LabelIdError, match=rf"sentence 1, position 0: id {int(big[0])} is "
                                           r"outside the label list \(0\.\.2\)"):
        Corpus.from_ids(rows, rows, ["O", "B-PER", "I-PER"])


def test_a_fractional_id_in_a_float_row_among_int_rows_is_refused():
    with pytest.raises(LabelIdError, match=r"references, sentence 1, position 1: 1\.5 is "
                                           r"not an integer label id"):
        Corpus.from_ids([np.array([0, 1]), np.array([1.0, 1.5])], [[0, 1], [1, 1]],
                        ["O", "B-PER", "I-PER"])


@pytest.mark.parametrize("rows", [
    [np.array([0, 1]), np.array([True])],
    [[0, 1], [True]],
    [np.array([0, 1]), [True]],
    [[0, 1], [np.True_]],
], ids=["array rows", "lists", "mixed", "numpy bool in lists"])
def test_a_bool_among_label_ids_is_refused_not_read_as_1(rows):
    with pytest.raises(nerspan.LabelIdError,
                       match=r"references, sentence 1, position 0: True is not an integer "
                             r"label id"):
        nerspan.Corpus.from_ids(rows, [[0, 1], [2]], ["O", "B-PER", "I-PER"])


@pytest.mark.parametrize("rows, ids", [
    ([[0, 1], [2]], [0, 1, 2]),
    ([[0, 1], [-100, 2]], [0, 1, 2]),
    ([[0, np.int64(1)], (2,)], [0, 1, 2]),
    ([[0, 1.0], [np.float32(2)]], [0, 1, 2]),
], ids=["python ints", "python ints with -100", "numpy ints", "integral floats"])
def test_id_lists_keep_their_values(rows, ids):
    corpus = Corpus.from_ids(rows, rows, ["O", "B-PER", "I-PER"])
    assert corpus.columns["gold"].tolist() == ids


@pytest.mark.parametrize("rows, shown", [
    ([[0, 1], [2**31]], r"id 2147483648 is outside the label list \(0\.\.2\)"),
    ([[0, 1], [2**63 + 1]], r"id 9223372036854775809 is outside the label list"),
    ([[0, 1], [-2**63 - 1]], r"id -9223372036854775809 is outside the label list"),
    ([[0, 1.0], [2**64]], r"id 18446744073709551616 is outside the label list"),
    ([[0, 1.0], [1e19]], r"id 10000000000000000000 is outside the label list"),
], ids=["beyond int32", "beyond int64", "below int64", "beyond 64 bits", "float beyond"])
def test_list_ids_beyond_every_integer_type_are_named_as_given(rows, shown):
    """Not wrapped by a cast, and not blamed on the first id of the input."""
    with pytest.raises(LabelIdError, match=rf"references, sentence 1, position 0: {shown}"):
        Corpus.from_ids(rows, [[0, 1], [0]], ["O", "B-PER", "I-PER"])


def test_a_string_among_list_ids_is_named_at_its_position():
    with pytest.raises(LabelIdError, match=r"references, sentence 1, position 1: 'B-PER' is "
                                           r"a string: with label_list"):
        Corpus.from_ids([[0, 1], [2, "B-PER"]], [[0, 1], [2, 2]], ["O", "B-PER", "I-PER"])
