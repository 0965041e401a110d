"""The diff and the agreement of two annotations (``nerspan.audit``, METHODS §10).

The diff's kinds are checked against a plain reading written here from the definitions
(sets of mentions, union-find over same-type overlaps, a Python loop per mention); the
agreement's kappa against scikit-learn's ``cohen_kappa_score`` and its F1 against
``nerspan.score``; the per-type kappa against scikit-learn on the binary "inside a
mention of this type" read from seqeval's ``get_entities``.
"""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities
from sklearn.metrics import cohen_kappa_score

import nerspan
from nerspan import Corpus, InputTypeError, decode
from nerspan.audit import DIFF_KINDS, agreement, cohen_kappa, diff, diff_spans
from nerspan.audit.overlaps import check_flat

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
SWAPPED = {"split": "merged", "merged": "split", "removed": "added", "added": "removed"}


def tag_lists(min_sentences: int = 1):
    return st.lists(st.lists(st.sampled_from(TAGS), min_size=0, max_size=12),
                    min_size=min_sentences, max_size=5)


def two_annotations():
    """Two annotations of the same tokens: B is A with some tags redrawn (None: kept)."""
    def redrawn(a):
        edits = st.tuples(*[st.lists(st.one_of(st.none(), st.none(), st.sampled_from(TAGS)),
                                     min_size=len(s), max_size=len(s)) for s in a])
        return edits.map(lambda e: (a, [[t if x is None else x for t, x in zip(s, row)]
                                        for s, row in zip(a, e)]))
    return tag_lists().flatmap(redrawn)


def mentions(tags) -> list:
    """(sentence, start, end, type) of every mention, read by seqeval (lenient IOB2)."""
    return [(i, start, end + 1, kind) for i, sentence in enumerate(tags)
            for kind, start, end in get_entities(list(sentence))]


def plain_kinds(a: list, b: list) -> tuple[list, list]:
    """The kind of every mention of ``a`` and ``b``, from METHODS §10 read literally."""
    def overlap(x, y):
        return x[0] == y[0] and x[1] < y[2] and y[1] < x[2]
    kinds = {("a", i): None for i in range(len(a))} | {("b", j): None for j in range(len(b))}
    for side, mine, theirs in (("a", a, b), ("b", b, a)):
        for i, m in enumerate(mine):
            if m in theirs:
                kinds[side, i] = "identical"
            elif any(t[:3] == m[:3] for t in theirs):
                kinds[side, i] = "retyped"
    rest = [key for key, kind in kinds.items() if kind is None]
    parent = {key: key for key in rest}

    def root(key):
        while parent[key] != key:
            key = parent[key]
        return key
    spans = {("a", i): m for i, m in enumerate(a)} | {("b", j): m for j, m in enumerate(b)}
    for x in rest:
        for y in rest:
            if x[0] == "a" and y[0] == "b" and spans[x][3] == spans[y][3] \
                    and overlap(spans[x], spans[y]):
                parent[root(x)] = root(y)
    for key in rest:
        group = [k for k in rest if root(k) == root(key)]
        n_a = sum(k[0] == "a" for k in group)
        n_b = len(group) - n_a
        if n_a and n_b:
            kinds[key] = "split" if n_a == 1 < n_b else "merged" if n_b == 1 < n_a else "reshaped"
        else:
            others = b if key[0] == "a" else a
            touched = any(overlap(spans[key], o) for o in others)
            kinds[key] = "retyped_reshaped" if touched else ("removed" if key[0] == "a"
                                                             else "added")
    return ([kinds["a", i] for i in range(len(a))], [kinds["b", j] for j in range(len(b))])


def names(codes) -> list:
    return [DIFF_KINDS[k].name for k in codes.tolist()]


@settings(max_examples=150, deadline=None)
@given(two_annotations())
def test_the_kinds_are_those_of_the_plain_reading(pair):
    a_tags, b_tags = pair
    found = diff(a_tags, b_tags)
    expected_a, expected_b = plain_kinds(mentions(a_tags), mentions(b_tags))
    assert names(found.kind_a) == expected_a
    assert names(found.kind_b) == expected_b


@settings(max_examples=100, deadline=None)
@given(two_annotations())
def test_the_kinds_partition_both_sides_and_swap_with_the_sides(pair):
    a_tags, b_tags = pair
    result = diff(a_tags, b_tags).to_dict()
    assert sum(k["a"] for k in result["kinds"].values()) == result["mentions"]["a"]
    assert sum(k["b"] for k in result["kinds"].values()) == result["mentions"]["b"]
    assert result["kinds"]["added"]["a"] == result["kinds"]["removed"]["b"] == 0
    for kind in ("identical", "retyped"):  # one to one, on flat sides
        assert result["kinds"][kind]["a"] == result["kinds"][kind]["b"]
    for kind in result["kinds"]:
        assert sum(row[kind]["a"] for row in result["per_type"].values()) == \
            result["kinds"][kind]["a"]
    reverse = diff(b_tags, a_tags).to_dict()
    for kind, count in result["kinds"].items():
        assert reverse["kinds"][SWAPPED.get(kind, kind)] == {"a": count["b"], "b": count["a"]}
    assert len(result["changes"]) == sum(result["changed_mentions"].values())
    assert json.loads(json.dumps(result, allow_nan=False)) == result


@settings(max_examples=60, deadline=None)
@given(tag_lists())
def test_a_diff_with_itself_is_empty(tags):
    result = diff(tags, tags).to_dict()
    assert result["changed_tags"] == 0 and result["changed_tag_sentences"] == []
    assert result["changes"] == [] and result["retyped_pairs"] == {}
    assert result["kinds"]["identical"] == result["mentions"]
    assert all(sentences == [] for kind, sentences in result["kind_sentences"].items()
               if kind != "identical")


@settings(max_examples=60, deadline=None)
@given(two_annotations())
def test_the_changed_tags_are_counted_token_by_token(pair):
    a_tags, b_tags = pair
    result = diff(a_tags, b_tags).to_dict()
    changed = [(i, k) for i, (x, y) in enumerate(zip(a_tags, b_tags))
               for k, (p, q) in enumerate(zip(x, y)) if p != q]
    assert result["changed_tags"] == len(changed)
    assert result["changed_tag_sentences"] == sorted({i for i, _ in changed})


def test_a_diff_lists_each_change_in_its_sentence_with_its_text():
    a = [["B-PER", "I-PER", "I-PER", "O", "B-LOC", "O", "B-ORG"], ["B-MISC", "I-MISC"]]
    b = [["B-PER", "O", "B-PER", "O", "B-ORG", "O", "O"], ["B-MISC", "I-MISC"]]
    tokens = [["Ana", "de", "Lima", "in", "Rio", "for", "UN"], ["Nobel", "Prize"]]
    found = diff(a, b, tokens=tokens, names=("v1", "v2"))
    result = found.to_dict()
    assert result["names"] == {"a": "v1", "b": "v2"}
    assert result["kinds"]["split"] == {"a": 1, "b": 2}
    assert result["kinds"]["retyped"] == {"a": 1, "b": 1}
    assert result["kinds"]["removed"] == {"a": 1, "b": 0}
    assert result["kinds"]["identical"] == {"a": 1, "b": 1}
    assert result["retyped_pairs"] == {"LOC": {"ORG": 1}}
    assert result["kind_sentences"]["identical"] == [1]
    assert [(c["side"], c["kind"], c["text"], c["start"], c["end"]) for c in found.changes()] == [
        ("a", "split", "Ana de Lima", 0, 3), ("b", "split", "Ana", 0, 1),
        ("b", "split", "Lima", 2, 3), ("a", "retyped", "Rio", 4, 5),
        ("b", "retyped", "Rio", 4, 5), ("a", "removed", "UN", 6, 7)]
    assert result["options"] == {"scheme": "IOB2", "mode": "lenient"}
    assert set(result["repairs"]) == {"gold", "pred"}


def test_a_corpus_names_its_two_columns_and_the_diff_reads_them():
    corpus = Corpus.from_tags([["B-PER", "O"]], columns={"v2": [["B-LOC", "O"]]})
    result = diff(corpus, columns=("gold", "v2")).to_dict()
    assert result["names"] == {"a": "gold", "b": "v2"}
    assert result["kinds"]["retyped"] == {"a": 1, "b": 1}
    with pytest.raises(KeyError, match="no tag column 'v3'"):
        diff(corpus, columns=("gold", "v3"))
    with pytest.raises(InputTypeError, match="leave annotation B out"):
        diff(corpus, [["O", "O"]])
    with pytest.raises(InputTypeError, match=r"give two columns, not 3 \(gold, v2, v2\)$"):
        agreement(corpus, columns=("gold", "v2", "v2"))


@pytest.mark.parametrize("generated", [
    ['[{"text": "Ana", "type": "PER"}]'], [[{"text": "Ana", "type": "PER"}]],
    [[("Ana", "PER")]]])
def test_generated_output_is_refused_as_either_side(generated):
    gold = [["B-PER", "O"]]
    with pytest.raises(InputTypeError, match="annotation B is generated output"):
        diff(gold, generated)
    with pytest.raises(InputTypeError, match="annotation A is generated output"):
        agreement(generated, gold)


def test_a_missing_annotation_and_unequal_sentences_are_named():
    with pytest.raises(InputTypeError, match="annotation B is None"):
        diff([["B-PER"]])
    with pytest.raises(nerspan.LengthMismatchError, match="annotation B"):
        diff([["B-PER", "O"]], [["B-PER"]])


def test_overlapping_mentions_on_one_side_are_refused():
    corpus = Corpus.from_tags([["B-PER", "I-PER", "O"]])
    spans = decode(corpus)
    nested = spans.take(np.array([0, 0]))
    with pytest.raises(ValueError, match="overlap; the audit reads flat annotations"):
        check_flat(nested, "A")
    with pytest.raises(ValueError, match="B: mentions"):
        diff_spans(spans, nested, corpus)


# -- agreement ------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(st.integers(2, 5).flatmap(lambda k: st.lists(
    st.tuples(st.integers(0, k - 1), st.integers(0, k - 1)), min_size=1, max_size=60)))
def test_kappa_equals_scikit_learns(pairs):
    a, b = (np.array(x) for x in zip(*pairs))
    ours = cohen_kappa(a, b)["kappa"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = cohen_kappa_score(a, b)
    if ours is None:
        assert np.isnan(theirs)
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)


def inside(tags: list, kind: str) -> list:
    """Per token: inside a mention of ``kind`` (read by seqeval)?"""
    flags = [[False] * len(s) for s in tags]
    for i, start, end, t in mentions(tags):
        if t == kind:
            flags[i][start:end] = [True] * (end - start)
    return [f for s in flags for f in s]


@settings(max_examples=100, deadline=None)
@given(two_annotations())
def test_agreement_equals_nerspan_scores_and_scikit_learns_kappa(pair):
    a_tags, b_tags = pair
    result = agreement(a_tags, b_tags).to_dict()
    scores = nerspan.score(a_tags, b_tags).to_dict()
    assert (result["precision"], result["recall"], result["f1"]) == \
        (scores["precision"], scores["recall"], scores["f1"])
    flat_a, flat_b = [t for s in a_tags for t in s], [t for s in b_tags for t in s]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if flat_a:
            kappa = cohen_kappa_score(flat_a, flat_b)
            assert (result["kappa"] is None) == bool(np.isnan(kappa))
            if result["kappa"] is not None:
                assert result["kappa"] == pytest.approx(kappa, abs=1e-12)
        for kind, row in result["per_type"].items():
            kappa = cohen_kappa_score(inside(a_tags, kind), inside(b_tags, kind))
            assert (row["kappa"] is None) == bool(np.isnan(kappa))
            if row["kappa"] is not None:
                assert row["kappa"] == pytest.approx(kappa, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(tag_lists())
def test_agreement_with_itself_is_one(tags):
    result = agreement(tags, tags).to_dict()
    flat = [t for s in tags for t in s]
    # kappa is undefined where chance agreement is 1: one label on every token
    assert result["kappa"] == (1.0 if len(set(flat)) > 1 else None)
    assert result["f1"] == (1.0 if result["mentions"]["a"] else 0.0)
    for kind, row in result["per_type"].items():
        assert row["f1"] == 1.0
        assert row["kappa"] == (1.0 if len(set(inside(tags, kind))) > 1 else None)
    assert result["observed_agreement"] == (1.0 if flat else None)


def test_agreement_without_mentions_says_kappa_is_undefined():
    result = agreement([["O", "O"]], [["O", "O"]]).to_dict()
    assert result["kappa"] is None and result["observed_agreement"] == 1.0
    assert "kappa" in result["undefined"] and "precision" in result["undefined"]
    assert json.loads(json.dumps(result, allow_nan=False)) == result
