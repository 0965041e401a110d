"""hardeval partials of span lists that may nest (``SpanListHardevalPartial``): a shard
keeps its layers as deep as its own nesting plus one partial standing for every deeper
layer, so the merged result is one pass's, flat or layered as the whole decides, for any
cut of the sentences."""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardeval
from nerspan import InputTypeError

from .test_hardeval_nested import words_for
from .test_partials import assert_merging_laws, merged_in, placed, shards, taken
from .test_span_shapes import LENGTH, sides


def flat_tags(side: list) -> list:
    """IOB2 tags of each sentence's mentions that overlap no earlier one (start order)."""
    out = []
    for spans in side:
        tags, end = ["O"] * LENGTH, 0
        for a, b, label in sorted(spans):
            if a >= end:
                tags[a:b] = [f"B-{label}"] + [f"I-{label}"] * (b - a - 1)
                end = b
        out.append(tags)
    return out


def nests(side: list) -> bool:
    """Whether two distinct mentions of a sentence share a token (nest, overlap, or one
    span of two types); a mention given twice is one."""
    return any(any(a < d and c < b for i, (a, b, _) in enumerate(spans)
                   for c, d, _ in spans[i + 1:])
               for spans in map(sorted, map(set, side)))


def partials_of(gold, pred, words, cut, **options) -> list:
    return [hardeval.partial(taken(gold, ids), taken(pred, ids), tokens=taken(words, ids),
                             **placed(ids), **options) for ids in cut]


@settings(max_examples=60, deadline=None)
@given(st.data(), sides(6), st.sampled_from(["spans", "tags"]), st.booleans(),
       st.sampled_from(hardeval.ERROR_LABELS), st.sampled_from([None, 2]))
def test_partials_of_span_lists_merge_to_one_pass_for_any_cut(data, case, pred_form,
                                                              kfold, error_labels, listed):
    """Merged in any order and tree, the partials of any partition (empty and
    one-sentence shards too) are ``score``'s on the whole: flat when no side nests in
    the whole, else one result per layer; with ``kfold``, one partial of the whole, and
    ``score``'s with the option ``kfold``."""
    gold, pred = case
    pred = pred if pred_form == "spans" else flat_tags(pred)
    words = words_for(gold, data.draw)
    kfold = kfold and len(gold) >= 2
    how = {"options": {"kfold": 2}} if kfold else {
        "train": (words, flat_tags(pred if pred_form == "spans" else gold))}
    options = {"error_labels": error_labels, "return_hard_tokens": listed is not None,
               "listed": listed, **how}
    cut = data.draw(shards(len(gold)))
    parts = partials_of(gold, pred, words, cut, **options)
    layered = nests(gold) or (pred_form == "spans" and nests(pred))
    if kfold:
        expected = hardeval.partial(gold, pred, tokens=words, **options).result().to_dict()
        assert expected == hardeval.score(gold, pred, tokens=words, error_labels=error_labels,
                                          **how).to_dict() or listed
    else:
        del options["listed"]
        options["return_hard_tokens"] = False
        expected = hardeval.score(gold, pred, tokens=words, **options).to_dict()
        parts = partials_of(gold, pred, words, cut, **options)
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        result = merged.result()
        assert isinstance(result, hardeval.LayeredHardevalResult) == layered
        assert result.to_dict() == expected


@settings(max_examples=25, deadline=None)
@given(st.data(), sides(6), st.sampled_from([None, 3]))
def test_listed_hard_tokens_of_span_list_partials_are_one_passs(data, case, listed):
    """With ``return_hard_tokens`` (and ``listed``), each layer lists one pass's tokens:
    a layer a shard lacks lists its all-O tokens from the partial standing for it."""
    gold, pred = case
    words = words_for(gold, data.draw)
    train = (words, flat_tags(gold))
    one = hardeval.partial(gold, pred, tokens=words, train=train, return_hard_tokens=True,
                           listed=listed).result().to_dict()
    if listed is None:
        assert one == hardeval.score(gold, pred, tokens=words, train=train,
                                     return_hard_tokens=True).to_dict()
    parts = partials_of(gold, pred, words, data.draw(shards(len(gold))), train=train,
                        return_hard_tokens=True, listed=listed)
    assert sum(parts).result().to_dict() == one


@settings(max_examples=30, deadline=None)
@given(st.data(), sides(6), st.booleans())
def test_span_list_partials_obey_the_merging_laws(data, case, kfold):
    gold, pred = case
    words = words_for(gold, data.draw)
    how = {"options": {"kfold": 2}} if kfold and len(gold) >= 2 else {
        "train": (words, flat_tags(gold))}
    parts = partials_of(gold, pred, words, data.draw(shards(len(gold))), **how)
    assert_merging_laws([p for p in parts if not p.empty], hardeval.HardevalPartial())


def test_a_partial_of_flat_lists_merges_with_one_that_nests():
    """The old refusal: a shard that nests and one that does not merge, the result layered
    as the whole is (the flat shard's layer 2 is all O, scored against its prediction)."""
    words = [["Bank", "of", "Rome", "fell"], ["Kim", "in", "Rome", "x"]]
    gold = [[(0, 3, "ORG"), (2, 3, "LOC")], [(0, 1, "PER"), (2, 3, "LOC")]]
    pred = [["B-ORG", "I-ORG", "O", "O"], ["B-PER", "O", "B-ORG", "O"]]
    train = ([["Rome", "is"]], [["B-LOC", "O"]])
    nested, flat = (hardeval.partial(gold[i:i + 1], pred[i:i + 1], tokens=words[i:i + 1],
                                     train=train, first_sentence=i) for i in (0, 1))
    assert isinstance(flat, hardeval.SpanListHardevalPartial)
    assert (flat.gold_depth, nested.gold_depth) == (1, 2)
    assert isinstance(flat.result(), hardeval.HardevalResult)   # flat alone
    merged = pickle.loads(pickle.dumps(flat + nested))
    whole = hardeval.score(gold, pred, tokens=words, train=train).to_dict()
    assert merged.result().to_dict() == whole and whole["options"]["layers"] == 2
    layer2 = whole["layers"]["2"]["subsets"]["all"]
    # layer 2 against the one prediction column: 3 errors in the sentence that nests
    # (B-ORG I-ORG against O O, O against B-LOC), 2 in the flat one's all-O layer 2
    assert layer2["tokens"] == 8 and layer2["errors"] == 5


def test_precomputed_subsets_on_span_lists_that_nest_are_refused_as_in_one_pass():
    gold, pred = [[(0, 3, "ORG"), (2, 3, "LOC")]], [[(0, 3, "ORG")]]
    words, codes = [["Bank", "of", "Rome", "fell"]], np.zeros(4, dtype=np.int64)
    for call in (hardeval.score, hardeval.partial):
        with pytest.raises(InputTypeError, match="precomputed subsets give one code"):
            call(gold, pred, tokens=words, subsets=codes)
    flat = [[(0, 3, "ORG")]]
    assert hardeval.partial(flat, pred, tokens=words, subsets=codes).result().to_dict() == \
        hardeval.score(flat, pred, tokens=words, subsets=codes).to_dict()


def test_a_prediction_that_repeats_a_mention_pairs_the_layers_by_number_in_shards_too():
    """A prediction whose span list repeats a mention is a span table in one pass (its
    layers then paired with gold's by number, though the repeat adds no layer): a shard
    says so, and the merge pairs as the whole does."""
    gold = [[(0, 1, "PER"), (0, 1, "LOC")], [(0, 2, "ORG")]]
    pred = [[(0, 1, "PER"), (0, 1, "PER")], [(0, 2, "ORG")]]
    words = [["Kim"] * 6, ["Bank", "of"] + ["x"] * 4]
    train = (words, flat_tags(gold))
    whole = hardeval.score(gold, pred, tokens=words, train=train).to_dict()
    assert whole["layers"]["2"]["pred_column"] == "pred@layer2"
    parts = partials_of(gold, pred, words, [[1], [0]], train=train)
    assert parts[0].whole is not None and parts[1].whole is None
    assert (parts[0] + parts[1]).result().to_dict() == whole
