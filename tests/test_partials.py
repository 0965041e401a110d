"""Partial statistics that merge (METHODS.md §7, issue 39): nerspan's entity scores and
tough_mentions computed shard by shard and merged equal one pass exactly.

For random corpora (several types, invalid sequences that lenient decoding repairs and
strict decoding discards) and random partitions of the sentences into shards (empty and
one-sentence shards included; contiguous shards placed by ``first_sentence``, scattered
ones by ``sentence_ids``), the merged ``to_dict()`` (and ``to_dict(beta=2)``) equals the
one-pass one, in any merge order; the empty partial is an identity; a partial pickles;
a bad tag inside a shard raises one pass's error, naming the global sentence.
"""
from __future__ import annotations

import pickle
import warnings
from collections import Counter
from functools import reduce

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerspan
import tough_mentions
from nerlens.engines import merging_families, partial_function
from nerlens.families import registered
from nerspan import Corpus, decode
from nerspan.bootstrap import percentile_interval, resample, sample_weights
from nerspan.errors import DecodingWarning, InvalidTagError
from nerspan.partials import EntityPartial
from nerspan.streaming import score_in_blocks
from tough_mentions.partials import ToughMentionsPartial

TAGS = ("O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "I-MISC")
WORDS = ("Ana", "Lima", "Kim", "UK", "in", "the")  # few words: texts repeat across types
LABELS = list(dict.fromkeys(TAGS))
EXAMPLES = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

TRAIN_TOKENS = [["Ana", "Lima", "in", "UK"], ["Kim", "the", "Lima"]]
TRAIN_TAGS = [["B-PER", "B-LOC", "O", "B-ORG"], ["B-PER", "O", "B-ORG"]]
TRAIN = nerspan.as_train_index((TRAIN_TOKENS, TRAIN_TAGS))  # indexed once, shipped whole


# -- strategies --------------------------------------------------------------------------
@st.composite
def corpora(draw, min_sentences=0, max_sentences=30):
    """``(gold, pred, tokens)``: tag lists per sentence (empty sentences too)."""
    lengths = draw(st.lists(st.integers(0, 6), min_size=min_sentences,
                            max_size=max_sentences))
    tags = st.sampled_from(TAGS)
    gold = [draw(st.lists(tags, min_size=n, max_size=n)) for n in lengths]
    pred = [draw(st.lists(tags, min_size=n, max_size=n)) for n in lengths]
    words = [draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
             for n in lengths]
    return gold, pred, words


@st.composite
def shards(draw, n: int):
    """A partition of sentences ``0..n-1`` into shards, each a list of global ids in
    increasing order (empty shards too): contiguous cuts, or sentences scattered."""
    if draw(st.booleans()):
        cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
        bounds = [0, *cuts, n]
        return [list(range(a, b)) for a, b in zip(bounds[:-1], bounds[1:])]
    k = draw(st.integers(1, 6))
    owner = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return [[i for i in range(n) if owner[i] == s] for s in range(k)]


def placed(ids: list) -> dict:
    """The keyword that places a shard: ``first_sentence`` when its sentences follow
    one another (the common case), else ``sentence_ids``."""
    if not ids:
        return {}
    if ids == list(range(ids[0], ids[0] + len(ids))):
        return {"first_sentence": ids[0]}
    return {"sentence_ids": ids}


def taken(rows, ids):
    return [rows[i] for i in ids]


def merged_in(order, parts):
    """``parts`` merged in the order of the permutation ``order``, left to right,
    and as a balanced tree."""
    chain = reduce(lambda a, b: a + b, [parts[i] for i in order])
    items = [parts[i] for i in order]
    while len(items) > 1:  # a tree reduce, as Spark's treeReduce
        items = [items[i] + items[i + 1] if i + 1 < len(items) else items[i]
                 for i in range(0, len(items), 2)]
    return chain, items[0]


def one_pass(score, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DecodingWarning)
        return score(*args, **kwargs)


def assert_same_statistics(result, whole) -> None:
    """``result.statistics()`` is ``whole``'s: the same names, per-sentence counts (rows
    in sentence order), support, direction and estimate."""
    mine, theirs = result.statistics(), whole.statistics()
    assert [s.name for s in mine] == [s.name for s in theirs]
    for a, b in zip(mine, theirs):
        assert np.array_equal(a.counts, b.counts), a.name
        assert (a.support, a.higher_is_better) == (b.support, b.higher_is_better)
        assert np.array_equal(a.estimate(), b.estimate(), equal_nan=True)


def assert_same(merged, whole):
    assert merged.result().to_dict() == whole.to_dict()
    assert merged.result().to_dict(beta=2) == whole.to_dict(beta=2)


# -- nerspan's entity scores -------------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1),
       mode=st.sampled_from(["lenient", "strict"]), zero_division=st.sampled_from([0, 1]))
def test_entity_partials_of_tags_merge_to_one_pass(data, corpus, mode, zero_division):
    gold, pred, _ = corpus
    options = {"mode": mode, "zero_division": zero_division}
    whole = one_pass(nerspan.score, gold, pred, **options)
    cut = data.draw(shards(len(gold)))
    parts = [one_pass(nerspan.partial, taken(gold, ids), taken(pred, ids), **options,
                      **placed(ids)) for ids in cut]
    order = data.draw(st.permutations(range(len(parts))))
    for merged in merged_in(order, parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1))
def test_entity_partials_of_span_lists_merge_to_one_pass(data, corpus):
    gold_tags, pred_tags, words = corpus
    gold, pred = (as_span_lists(tags) for tags in (gold_tags, pred_tags))
    whole = nerspan.score(gold, pred, tokens=words)
    cut = data.draw(shards(len(gold)))
    parts = [nerspan.partial(taken(gold, ids), taken(pred, ids), tokens=taken(words, ids),
                             **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


def as_span_lists(tags: list) -> list:
    """Tag lists as span lists per sentence, ``(start, end, type)``."""
    corpus = Corpus.from_tags(tags)
    return [[(a, b, t) for t, a, b in sentence]
            for sentence in decode(corpus).to_list(corpus)]


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1))
def test_entity_partials_of_label_ids_merge_to_one_pass(data, corpus):
    gold_tags, pred_tags, _ = corpus
    ignored = data.draw(st.lists(st.booleans(), min_size=sum(map(len, gold_tags)),
                                 max_size=sum(map(len, gold_tags))))
    marks = iter(ignored)
    gold = [[-100 if next(marks) else LABELS.index(t) for t in s] for s in gold_tags]
    pred = [[LABELS.index(t) for t in s] for s in pred_tags]
    whole = nerspan.score(gold, pred, label_list=LABELS)
    cut = data.draw(shards(len(gold)))
    parts = [nerspan.partial(taken(gold, ids), taken(pred, ids), label_list=LABELS,
                             **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12))
def test_entity_partials_merge_associatively_and_commutatively(data, corpus):
    gold, pred, _ = corpus
    cut = data.draw(shards(len(gold)))
    assert_merging_laws([nerspan.partial(taken(gold, ids), taken(pred, ids), **placed(ids))
                         for ids in cut], EntityPartial())


def assert_merging_laws(parts: list, empty) -> None:
    """Merging the first three of ``parts`` (``empty`` in place of missing ones) is
    associative and commutative, ``empty`` its identity; a partial pickles."""
    a, b, c = (parts + [empty] * 3)[:3]
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert a + empty == a == empty + a
    assert pickle.loads(pickle.dumps(a)) == a
    assert sum([a, b, c]) == a + b + c


def test_an_empty_shard_gives_the_empty_partial_and_an_empty_merge_no_result():
    empty = nerspan.partial([], [])
    assert empty.empty and empty == EntityPartial()
    whole = nerspan.partial([["B-PER"]], [["B-PER"]])
    assert empty + whole == whole
    with pytest.raises(nerspan.EmptyInputError, match="every partial merged is empty"):
        (empty + empty).result()
    with pytest.raises(nerspan.EmptyInputError):  # one side empty is no empty shard
        nerspan.partial([], [["O"]])


@pytest.mark.parametrize("family", merging_families())
def test_every_familys_empty_shard_gives_its_empty_partial(family):
    """An empty shard is empty on both sides, or a list of no sentence beside None (the
    predictions' place when a shard of a Corpus holds no sentence); one pass's errors
    stay for a side that holds sentences."""
    partial = partial_function(family)
    for predictions in ([], None):
        empty = partial([], predictions)
        assert empty.empty and empty == type(empty)() and empty + empty == empty
    with pytest.raises(nerspan.EmptyInputError):  # one side empty is no empty shard
        partial([], [["O"]])
    with pytest.raises(nerspan.InputTypeError, match="predictions is None"):
        partial([["O"]], None)


def test_partials_of_different_options_do_not_merge():
    lenient = nerspan.partial([["B-PER"]], [["B-PER"]])
    strict = nerspan.partial([["B-PER"]], [["B-PER"]], mode="strict")
    with pytest.raises(ValueError, match="different options do not merge"):
        lenient + strict


def test_a_shard_is_placed_by_one_keyword_and_its_ids_are_checked():
    with pytest.raises(ValueError, match="not both"):
        nerspan.partial([["O"]], [["O"]], first_sentence=3, sentence_ids=[3])
    with pytest.raises(ValueError, match="increasing order"):
        nerspan.partial([["O"], ["O"]], [["O"], ["O"]], sentence_ids=[4, 2])
    with pytest.raises(ValueError, match="names 1 sentences, the shard holds 2"):
        nerspan.partial([["O"], ["O"]], [["O"], ["O"]], sentence_ids=[4])


def test_generated_output_needs_the_wholes_gold_types():
    with pytest.raises(ValueError, match="generated output in a partial needs types="):
        nerspan.partial([["B-PER", "O"]], [[{"text": "Ana", "type": "PER"}]],
                        tokens=[["Ana", "ran"]])


def with_bad_tag(gold: list, pred: list, where: int, side: str) -> dict:
    """``{"gold": ..., "pred": ...}``: sentence ``where`` one token longer, ``X-PER``
    on ``side``, ``O`` on the other."""
    sides = {"gold": [list(s) for s in gold], "pred": [list(s) for s in pred]}
    for name in sides:
        sides[name][where] = sides[name][where] + ["X-PER" if name == side else "O"]
    return sides


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12),
       side=st.sampled_from(["gold", "pred"]))
def test_a_bad_tag_inside_a_shard_names_the_global_sentence(data, corpus, side):
    check_bad_tag_in_a_shard(data, corpus, side, nerspan.score, nerspan.partial)


def check_bad_tag_in_a_shard(data, corpus, side: str, score, partial) -> None:
    """A bad tag on ``side`` of a drawn sentence: ``partial`` of a shard holding it
    raises ``score``'s error on the whole, naming the sentence by its global id."""
    gold, pred, _ = corpus
    where = data.draw(st.integers(0, len(gold) - 1))
    sides = with_bad_tag(gold, pred, where, side)
    with pytest.raises(InvalidTagError) as whole:
        score(sides["gold"], sides["pred"])
    assert f"sentence {where}" in str(whole.value)
    ids = next(ids for ids in data.draw(shards(len(gold))) if where in ids)
    with pytest.raises(InvalidTagError) as in_shard:
        partial(taken(sides["gold"], ids), taken(sides["pred"], ids), **placed(ids))
    assert str(in_shard.value) == str(whole.value)


# -- tough_mentions ----------------------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1),
       case_sensitive=st.booleans(), mode=st.sampled_from(["lenient", "strict"]),
       spans=st.booleans())
def test_tough_mentions_partials_merge_to_one_pass(data, corpus, case_sensitive, mode,
                                                   spans):
    gold, pred, words = corpus
    if spans:  # span lists on both sides (span input is IOB2, decoded as it was read)
        gold, pred = as_span_lists(gold), as_span_lists(pred)
    options = {"train": TRAIN, "case_sensitive": case_sensitive, "mode": mode,
               "return_mentions": data.draw(st.booleans())}
    whole = one_pass(tough_mentions.score, gold, pred, tokens=words, **options)
    cut = data.draw(shards(len(gold)))
    parts = [one_pass(tough_mentions.partial, taken(gold, ids), taken(pred, ids),
                      tokens=taken(words, ids), **options, **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), listed=st.integers(1, 4))
def test_tough_mentions_listings_are_bounded_and_do_not_depend_on_the_cut(data, corpus,
                                                                          listed):
    gold, pred, words = corpus
    whole = tough_mentions.score(gold, pred, tokens=words, train=TRAIN,
                                 return_mentions=True).to_dict()
    cut = data.draw(shards(len(gold)))
    parts = [tough_mentions.partial(taken(gold, ids), taken(pred, ids),
                                    tokens=taken(words, ids), train=TRAIN,
                                    return_mentions=True, listed=listed, **placed(ids))
             for ids in cut]
    merged = reduce(lambda a, b: a + b, parts).result().to_dict()
    assert merged["mentions"] == {name: rows[:listed]
                                  for name, rows in whole["mentions"].items()}
    assert {k: v for k, v in merged.items() if k != "mentions"} == \
        {k: v for k, v in whole.items() if k != "mentions"}
    kept = Counter(row[0] for row in reduce(lambda a, b: a + b, parts).rows)
    assert all(n <= listed for n in kept.values())


def intervals(result, seed: int = 5) -> list:
    """Every statistic's percentile bootstrap interval, as the report draws them."""
    statistics = result.statistics()
    weights = sample_weights(len(statistics[0].counts), 200, seed)
    return [percentile_interval(column, s.estimate()) for s, column in
            zip(statistics, resample(statistics, weights).T)]


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1),
       case_sensitive=st.booleans(), spans=st.booleans())
def test_tough_mentions_per_sentence_partials_give_one_passs_intervals(data, corpus,
                                                                       case_sensitive,
                                                                       spans):
    """With ``per_sentence=True`` the merged result's ``statistics()`` are one pass's
    (rows in global sentence order, whatever the cut, empty and one-sentence shards
    included), so the bootstrap intervals are too; the result is one pass's besides."""
    gold, pred, words = corpus
    if spans:
        gold, pred = as_span_lists(gold), as_span_lists(pred)
    options = {"train": TRAIN, "case_sensitive": case_sensitive,
               "return_mentions": data.draw(st.booleans())}
    whole = one_pass(tough_mentions.score, gold, pred, tokens=words, **options)
    cut = data.draw(shards(len(gold)))
    parts = [one_pass(tough_mentions.partial, taken(gold, ids), taken(pred, ids),
                      tokens=taken(words, ids), per_sentence=True, **options,
                      **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)
        assert_same_statistics(merged.result(), whole)
        mine, theirs = (np.array([(i.low, i.high, i.estimate) for i in intervals(r)])
                        for r in (merged.result(), whole))
        assert np.array_equal(mine, theirs, equal_nan=True)


def test_tough_mentions_merged_without_per_sentence_has_no_statistics():
    gold, pred, words = [["B-PER", "O"]], [["B-PER", "O"]], [["Kim", "ran"]]
    part = tough_mentions.partial(gold, pred, tokens=words, train=TRAIN)
    assert part.sentences is None and part.cells is None
    with pytest.raises(ValueError, match="per_sentence=True"):
        part.result().statistics()


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12))
def test_tough_mentions_partials_merge_associatively_and_pickle(data, corpus):
    gold, pred, words = corpus
    cut = data.draw(shards(len(gold)))
    per_sentence = data.draw(st.booleans())
    a, b, c = ([tough_mentions.partial(taken(gold, ids), taken(pred, ids),
                                       tokens=taken(words, ids), train=TRAIN,
                                       return_mentions=True, per_sentence=per_sentence,
                                       **placed(ids))
                for ids in cut] + [ToughMentionsPartial()] * 3)[:3]
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert a + ToughMentionsPartial() == a == ToughMentionsPartial() + a
    assert pickle.loads(pickle.dumps(a)) == a


def test_tough_mentions_confusability_is_decided_over_the_whole_test_set():
    """Lima is PER in one shard, LOC in the other: type-confusable only in the whole."""
    gold, pred = [["B-PER"], ["B-LOC"]], [["B-PER"], ["O"]]
    words = [["Lima"], ["Lima"]]
    a = tough_mentions.partial(gold[:1], pred[:1], tokens=words[:1], train=TRAIN)
    b = tough_mentions.partial(gold[1:], pred[1:], tokens=words[1:], train=TRAIN,
                               first_sentence=1)
    assert a.result().to_dict()["counts"]["tcm_all"] == 0
    merged = (a + b).result().to_dict()
    assert merged["counts"]["tcm_all"] == 2 and merged["recall_tcm_all"] == 0.5
    assert merged == tough_mentions.score(gold, pred, tokens=words, train=TRAIN).to_dict()


def test_the_training_index_ships_whole_to_a_worker():
    shipped = pickle.loads(pickle.dumps(TRAIN))
    gold, pred, words = [["B-PER", "O"]], [["B-PER", "O"]], [["Kim", "ran"]]
    assert tough_mentions.partial(gold, pred, tokens=words, train=shipped) == \
        tough_mentions.partial(gold, pred, tokens=words, train=TRAIN)


def test_tough_mentions_bad_tag_in_a_shard_names_the_global_sentence():
    gold = [["B-PER"], ["O"], ["B-LOC", "X-LOC"]]
    pred = [["B-PER"], ["O"], ["B-LOC", "O"]]
    words = [["Kim"], ["in"], ["Lima", "UK"]]
    with pytest.raises(InvalidTagError) as whole:
        tough_mentions.score(gold, pred, tokens=words, train=TRAIN)
    with pytest.raises(InvalidTagError) as in_shard:
        tough_mentions.partial(gold[2:], pred[2:], tokens=words[2:], train=TRAIN,
                               sentence_ids=[2])
    assert "sentence 2" in str(whole.value) and str(in_shard.value) == str(whole.value)


# -- the descriptor ------------------------------------------------------------------------
def test_every_registered_family_merges():
    families = registered()
    assert families["tough_mentions"].partial is tough_mentions.partial
    assert {name for name, family in families.items() if family.merges} == set(families)


@EXAMPLES
@given(corpus=corpora(min_sentences=1), block_tokens=st.integers(1, 40),
       mode=st.sampled_from(["lenient", "strict"]))
def test_scoring_in_blocks_sums_the_same_partials(corpus, block_tokens, mode):
    gold, pred, _ = corpus
    blocks = score_in_blocks(Corpus.from_tags(gold, columns={"a": pred}), mode=mode,
                             block_tokens=block_tokens)["a"].to_dict()
    whole = one_pass(nerspan.score, gold, pred, mode=mode).to_dict()
    assert blocks.pop("tokens") == sum(map(len, gold))
    blocks.pop("accuracy")
    assert blocks == whole
