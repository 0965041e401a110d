"""attribute_buckets from partials that merge (METHODS.md §7, issue 39).

For random corpora and random partitions of the sentences (empty and one-sentence
shards included, contiguous or scattered), with every option (training attributes,
bucket counts, equal width, case, frequency norms, the reference code's rules, hand
edges, custom attributes, the bootstrap), the merged ``to_dict()`` (and
``to_dict(beta=2)``) equals ``attribute_buckets.score``'s on the whole, in any merge
order: bucket edges are cut from merged value counts and bootstrap intervals drawn per
(seed, replicate, global sentence), so neither depends on the cut.
"""
from __future__ import annotations

import math
import pickle
from functools import reduce

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attribute_buckets
import nerspan
from nerlens.families import registered
from nerspan.bootstrap import f1_or_nan_statistic
from nerspan.errors import InvalidTagError
from nerspan.partials import sentence_weights
from attribute_buckets.partials import BucketsPartial, _weighted

from .test_partials import (EXAMPLES, LABELS, TRAIN, as_span_lists, corpora, merged_in,
                            one_pass, placed, shards, taken)

ALL = list(attribute_buckets.ATTRIBUTES)


def doubled_length(corpus, spans, train):
    """A custom attribute: a function of the mention alone, as partials need."""
    return 2.0 * spans.length


@st.composite
def bucket_options(draw):
    """Any options of ``attribute_buckets.score`` (``compat`` excludes equal width and
    case-sensitive look-ups, as ``score`` does)."""
    compat = draw(st.sampled_from([None, "interpreteval"]))
    options = {"n_buckets": draw(st.integers(2, 6)), "compat": compat,
               "frequency_norm": draw(st.sampled_from(["ratio", "rank5"]))}
    if compat is None:
        options.update(equal_width=draw(st.booleans()), lowercase=draw(st.booleans()))
    if draw(st.booleans()):
        options["bucket_edges"] = {"sLen": [0, 2, 4, math.inf]}
    if draw(st.booleans()):
        options.update(bootstrap=draw(st.integers(1, 30)), seed=draw(st.integers(0, 9)),
                       confidence=draw(st.sampled_from([0.9, 0.95])))
    return options


def scored_both_ways(data, gold, pred, words, per_sentence=False, **keywords):
    """``(one pass, partials merged in a random order as a chain and as a tree)``."""
    whole = one_pass(attribute_buckets.score, gold, pred, tokens=words, **keywords)
    cut = data.draw(shards(len(gold)))
    parts = [one_pass(attribute_buckets.partial, taken(gold, ids), taken(pred, ids),
                      tokens=taken(words, ids), per_sentence=per_sentence, **keywords,
                      **placed(ids)) for ids in cut]
    return whole, merged_in(data.draw(st.permutations(range(len(parts)))), parts)


def assert_same(merged, whole):
    assert merged.result().to_dict() == whole.to_dict()
    assert merged.result().to_dict(beta=2) == whole.to_dict(beta=2)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), options=bucket_options(),
       mode=st.sampled_from(["lenient", "strict"]))
def test_bucket_partials_merge_to_one_pass_for_every_option(data, corpus, options, mode):
    gold, pred, words = corpus
    whole, merges = scored_both_ways(data, gold, pred, words, train=TRAIN, mode=mode,
                                     attributes=ALL, options=options)
    for merged in merges:
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), form=st.sampled_from(
    ["spans", "label ids"]))
def test_bucket_partials_of_every_input_form_merge_to_one_pass(data, corpus, form):
    gold, pred, words = corpus
    keywords = {"train": TRAIN,
                "attributes": {**{name: name for name in ALL}, "twice": doubled_length}}
    if form == "spans":
        gold, pred = as_span_lists(gold), as_span_lists(pred)
    else:
        gold, pred = ([[LABELS.index(t) for t in s] for s in side] for side in (gold, pred))
        keywords["label_list"] = LABELS
    whole, merges = scored_both_ways(data, gold, pred, words, **keywords)
    for merged in merges:
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), seed=st.integers(0, 2 ** 40),
       compat=st.sampled_from([None, "interpreteval"]))
def test_bootstrap_intervals_do_not_depend_on_the_cut(data, corpus, seed, compat):
    gold, pred, words = corpus
    options = {"bootstrap": 40, "seed": seed, "compat": compat}
    whole, merges = scored_both_ways(data, gold, pred, words, train=TRAIN, attributes=ALL,
                                     options=options)
    intervals = {name: [row["f1_interval"] for row in rows]
                 for name, rows in whole.to_dict()["buckets"].items()}
    for merged in merges:
        assert {name: [row["f1_interval"] for row in rows] for name, rows in
                merged.result().to_dict()["buckets"].items()} == intervals


def test_score_draws_poisson_weights_per_sentence_id():
    """``score``'s bootstrap is the cut-independent rule: a bucket's interval is the
    percentiles of its F1 under ``sentence_weights``, recomputed here by hand."""
    rng = np.random.default_rng(5)
    gold = [["B-PER" if rng.random() < 0.4 else "O" for _ in range(int(rng.integers(1, 8)))]
            for _ in range(80)]
    pred = [[t if rng.random() < 0.8 else "O" for t in s] for s in gold]
    result = attribute_buckets.score(gold, pred, attributes=["sLen"],
                                     options={"bootstrap": 200, "seed": 11})
    weights = sentence_weights(range(len(gold)), 200, seed=11).astype(float)
    table = result["sLen"]
    for i, row in enumerate(result.to_dict()["buckets"]["sLen"]):
        inside = [table.buckets[i].contains([len(s)])[0] for s in gold]
        counts = np.array([[sum(g == p == "B-PER" for g, p in zip(gs, ps)),
                            ps.count("B-PER"), gs.count("B-PER")] if at else [0, 0, 0]
                           for gs, ps, at in zip(gold, pred, inside)], dtype=float)
        samples = f1_or_nan_statistic(weights @ counts)
        samples = samples[~np.isnan(samples)]
        if len(samples):
            assert row["f1_interval"] == pytest.approx(
                list(np.percentile(samples, [2.5, 97.5])), abs=0)


def test_sentence_weights_are_poisson_one_and_keyed_by_sentence_id():
    weights = sentence_weights(range(2000), 200, seed=4)
    assert weights.dtype == np.float32 and weights.shape == (200, 2000)
    assert (sentence_weights([7, 1999, 3], 200, seed=4) == weights[:, [7, 1999, 3]]).all()
    assert not (sentence_weights(range(2000), 200, seed=5) == weights).all()
    share = np.bincount(weights.astype(int).ravel(), minlength=4)[:4] / weights.size
    poisson = [math.exp(-1) / math.factorial(k) for k in range(4)]
    assert share == pytest.approx(poisson, abs=0.005)
    assert abs(np.corrcoef(weights[:, 0], weights[:, 1])[0, 1]) < 0.2



@pytest.mark.parametrize("weight", [3.0, 2.0 ** 22 + 1])
def test_weighted_units_are_exact_in_float32_and_beyond_its_integers(weight):
    # five units of one value in one sentence: 5 * (2**22 + 1) needs 25 bits, past
    # float32's exact integers, so the product must fall back to float64
    by_sentence = np.full((2, 3), weight, dtype=np.float32)
    weighted = _weighted(by_sentence, np.array([0] * 5 + [1]), np.array([1] * 5 + [0]), 2)
    assert weighted.dtype == np.float64
    assert weighted.tolist() == [[weight] * 3, [5 * weight] * 3]


# -- the partial itself --------------------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12),
       bootstrap=st.sampled_from([0, 5]))
def test_bucket_partials_merge_associatively_commutatively_and_pickle(data, corpus,
                                                                      bootstrap):
    gold, pred, words = corpus
    cut = data.draw(shards(len(gold)))
    a, b, c = ([attribute_buckets.partial(taken(gold, ids), taken(pred, ids),
                                          tokens=taken(words, ids), train=TRAIN,
                                          attributes=ALL,
                                          options={"bootstrap": bootstrap},
                                          per_sentence=bootstrap > 0, **placed(ids))
                for ids in cut] + [BucketsPartial()] * 3)[:3]
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert a + BucketsPartial() == a == BucketsPartial() + a
    assert pickle.loads(pickle.dumps(a)) == a
    assert sum([a, b, c]) == a + b + c


def test_an_empty_shard_is_the_identity_and_an_empty_merge_has_no_result():
    empty = attribute_buckets.partial([], [])
    assert empty.empty and empty == BucketsPartial()
    whole = attribute_buckets.partial([["B-PER"]], [["B-PER"]], attributes=["eLen"])
    assert empty + whole == whole
    with pytest.raises(nerspan.EmptyInputError, match="every partial merged is empty"):
        (empty + empty).result()


def test_partials_of_different_options_do_not_merge():
    small = attribute_buckets.partial([["B-PER"]], [["B-PER"]], attributes=["eLen"])
    with pytest.raises(ValueError, match="different options do not merge"):
        small + attribute_buckets.partial([["B-PER"]], [["B-PER"]], attributes=["eLen"],
                                          n_buckets=3, first_sentence=1)
    with pytest.raises(ValueError, match="different options do not merge"):
        small + attribute_buckets.partial([["B-PER"]], [["B-PER"]], attributes=["sLen"],
                                          first_sentence=1)
    with pytest.raises(ValueError, match="different options do not merge"):
        small + attribute_buckets.partial([["B-PER"]], [["B-PER"]], attributes=["eLen"],
                                          per_sentence=True, first_sentence=1)
    with pytest.raises(TypeError, match="merges with its kind"):
        small + nerspan.partial([["B-PER"]], [["B-PER"]])


def test_a_bootstrap_partial_needs_a_seed_every_shard_shares():
    with pytest.raises(ValueError, match="every shard must share"):
        attribute_buckets.partial([["B-PER"]], [["B-PER"]], attributes=["eLen"],
                                  options={"bootstrap": 10, "seed": None})


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=15),
       compat=st.sampled_from([None, "interpreteval"]))
def test_per_sentence_partials_give_the_statistics_of_one_pass(data, corpus, compat):
    gold, pred, words = corpus
    whole, merges = scored_both_ways(data, gold, pred, words, train=TRAIN, attributes=ALL,
                                     compat=compat, per_sentence=True)
    expected = whole.statistics()
    for merged in merges:
        assert merged.result().to_dict() == whole.to_dict()
        statistics = merged.result().statistics()
        assert [(s.name, s.support, s.function) for s in statistics] == \
            [(s.name, s.support, s.function) for s in expected]
        for mine, theirs in zip(statistics, expected):
            assert np.array_equal(mine.counts, theirs.counts), mine.name


def test_the_merged_result_has_no_per_sentence_statistics():
    result = attribute_buckets.partial([["B-PER"]], [["B-PER"]], attributes=["eLen"]).result()
    with pytest.raises(ValueError, match="keeps no per-sentence counts.*per_sentence=True"):
        result.statistics()
    assert result.bucket_f1("eLen") == [1.0, None, None, None]


def test_edges_come_from_the_whole_test_set_not_a_shard():
    """Sentence lengths 1, 1 in one shard and 5, 6 in the other: each shard alone would
    cut other sLen edges than the whole."""
    gold = [["B-PER"], ["B-PER"], ["B-PER"] + ["O"] * 4, ["B-PER"] + ["O"] * 5]
    a = attribute_buckets.partial(gold[:2], gold[:2], attributes=["sLen"], n_buckets=2)
    b = attribute_buckets.partial(gold[2:], gold[2:], attributes=["sLen"], n_buckets=2,
                                  first_sentence=2)
    whole = attribute_buckets.score(gold, gold, attributes=["sLen"], n_buckets=2).to_dict()
    assert [r["interval"] for r in whole["buckets"]["sLen"]] == ["[0, 1]", "(1, inf)"]
    assert [r["interval"] for r in b.result().to_dict()["buckets"]["sLen"]] == \
        ["[0, 5]", "(5, inf)"]
    assert (a + b).result().to_dict() == whole


def test_compat_tag_ties_are_broken_by_the_first_mention_over_all_shards():
    """Seven types with one gold mention each: the reference keeps six, dropping the one
    seen last in the whole corpus, whatever shard it sits in."""
    types = ["A", "B", "C", "D", "E", "F", "G"]
    gold = [[f"B-{t}"] for t in types]
    whole = attribute_buckets.score(gold, gold, attributes=["tag"],
                                    compat="interpreteval").to_dict()
    assert [r["interval"] for r in whole["buckets"]["tag"]] == ["a", "b", "c", "d", "e", "f"]
    parts = [attribute_buckets.partial(gold[i:i + 1], gold[i:i + 1], attributes=["tag"],
                                       compat="interpreteval", first_sentence=i)
             for i in range(len(gold))]
    assert reduce(lambda x, y: x + y, parts[::-1]).result().to_dict() == whole


def test_the_training_index_ships_whole_to_a_worker():
    shipped = pickle.loads(pickle.dumps(TRAIN))
    gold, pred, words = [["B-PER", "O"]], [["B-PER", "O"]], [["Kim", "ran"]]
    assert attribute_buckets.partial(gold, pred, tokens=words, train=shipped) == \
        attribute_buckets.partial(gold, pred, tokens=words, train=TRAIN)


def test_a_bad_tag_inside_a_shard_names_the_global_sentence():
    gold = [["B-PER"], ["O"], ["B-LOC", "X-LOC"]]
    pred = [["B-PER"], ["O"], ["B-LOC", "O"]]
    words = [["Kim"], ["in"], ["Lima", "UK"]]
    with pytest.raises(InvalidTagError) as whole:
        attribute_buckets.score(gold, pred, tokens=words, train=TRAIN)
    with pytest.raises(InvalidTagError) as in_shard:
        attribute_buckets.partial(gold[2:], pred[2:], tokens=words[2:], train=TRAIN,
                                  sentence_ids=[2])
    assert "sentence 2" in str(whole.value) and str(in_shard.value) == str(whole.value)


def test_the_descriptor_registers_the_partial():
    assert registered()["attribute_buckets"].partial is attribute_buckets.partial
    assert registered()["attribute_buckets"].merges


def test_generated_output_needs_the_wholes_gold_types():
    with pytest.raises(ValueError, match="generated output in a partial needs types="):
        attribute_buckets.partial([["B-PER", "O"]], [[{"text": "Ana", "type": "PER"}]],
                                  tokens=[["Ana", "ran"]], attributes=["eLen"])
