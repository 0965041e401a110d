"""hardeval from partials that merge (METHODS.md §7, issue 39): for random corpora and
random partitions of the sentences (empty and one-sentence shards, contiguous shards
placed by ``first_sentence``, scattered ones by ``sentence_ids``), the merged result's
``to_dict()`` (and ``to_dict(beta=2)``) equals ``hardeval.score`` on the whole, in any
merge order, for every input form (tags, span lists, label ids, a Corpus, an Evaluation)
and every option (error labels, ``strict_diff``, mode, precomputed subsets, k-fold
subsets, the hard tokens' listing); the k-fold assignment is pinned by an independent
reimplementation; bad input names the global sentence."""
from __future__ import annotations

from collections import Counter
from functools import reduce

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hardeval
from hardeval import HardevalPartial
from nerlens.families import registered
from nerspan import Corpus, Evaluation, NerspanError
from nerspan.errors import InvalidTagError

from .test_partials import (EXAMPLES, LABELS, TRAIN, as_span_lists, assert_merging_laws,
                            assert_same_statistics, corpora, merged_in, one_pass, placed, shards, taken,
                            with_bad_tag)


def assert_same(merged: HardevalPartial, whole) -> None:
    result = merged.result()
    assert result.to_dict() == whole.to_dict()
    assert result.to_dict(beta=2) == whole.to_dict(beta=2)


def partials(gold, pred, words, cut, **options) -> list:
    return [one_pass(hardeval.partial, taken(gold, ids), taken(pred, ids),
                     tokens=None if words is None else taken(words, ids), **options,
                     **placed(ids)) for ids in cut]


# -- every option, every input form ----------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1),
       error_labels=st.sampled_from(["bilou", "bio", "io"]), strict_diff=st.booleans(),
       mode=st.sampled_from(["lenient", "strict"]), listing=st.booleans())
def test_hardeval_partials_of_tags_merge_to_one_pass(data, corpus, error_labels,
                                                     strict_diff, mode, listing):
    gold, pred, words = corpus
    options = {"train": TRAIN, "error_labels": error_labels, "strict_diff": strict_diff,
               "mode": mode, "return_hard_tokens": listing}
    whole = one_pass(hardeval.score, gold, pred, tokens=words, **options)
    parts = partials(gold, pred, words, data.draw(shards(len(gold))), **options)
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1),
       error_labels=st.sampled_from(["bilou", "io"]))
def test_hardeval_partials_of_span_lists_merge_to_one_pass(data, corpus, error_labels):
    gold_tags, pred_tags, words = corpus
    gold, pred = as_span_lists(gold_tags), as_span_lists(pred_tags)
    options = {"train": TRAIN, "error_labels": error_labels, "return_hard_tokens": True}
    whole = hardeval.score(gold, pred, tokens=words, **options)
    parts = partials(gold, pred, words, data.draw(shards(len(gold))), **options)
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1))
def test_hardeval_partials_of_label_ids_merge_to_one_pass(data, corpus):
    gold_tags, pred_tags, words = corpus
    gold = [[LABELS.index(t) for t in s] for s in gold_tags]
    pred = [[LABELS.index(t) for t in s] for s in pred_tags]
    options = {"train": TRAIN, "label_list": LABELS}
    whole = one_pass(hardeval.score, gold, pred, tokens=words, **options)
    parts = partials(gold, pred, words, data.draw(shards(len(gold))), **options)
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), with_words=st.booleans())
def test_hardeval_partials_of_given_subsets_merge_to_one_pass(data, corpus, with_words):
    """Precomputed leaf codes, a list per sentence, each shard given its own; without
    the test words ``words`` is None on both sides."""
    gold, pred, words = corpus
    codes = [data.draw(st.lists(st.integers(0, len(hardeval.LEAF_NAMES) - 1),
                                min_size=len(s), max_size=len(s))) for s in gold]
    words = words if with_words else None
    whole = one_pass(hardeval.score, gold, pred, tokens=words, subsets=codes)
    cut = data.draw(shards(len(gold)))
    parts = [one_pass(hardeval.partial, taken(gold, ids), taken(pred, ids),
                      tokens=None if words is None else taken(words, ids),
                      subsets=taken(codes, ids), **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=2), k=st.integers(2, 5),
       seed=st.integers(0, 3), strict_diff=st.booleans(),
       mode=st.sampled_from(["lenient", "strict"]))
def test_hardeval_kfold_partials_merge_to_one_pass(data, corpus, k, seed, strict_diff,
                                                   mode):
    """The merged k-fold result is ``score``'s with the same options, its subsets
    ``kfold_subsets(whole)``: each token classified against the other folds of the whole
    corpus, not of its shard."""
    gold, pred, words = corpus
    k = min(k, len(gold))
    codes = one_pass(hardeval.kfold_subsets, Corpus.from_tags(gold, tokens=words), k,
                     seed, mode=mode, strict_diff=strict_diff)
    whole = one_pass(hardeval.score, gold, pred, tokens=words, mode=mode,
                     return_hard_tokens=True, strict_diff=strict_diff,
                     options={"kfold": k, "fold_seed": seed})
    given = one_pass(hardeval.score, gold, pred, tokens=words, subsets=codes, mode=mode,
                     return_hard_tokens=True).to_dict()
    assert {**given, "options": {**given["options"], "strict_diff": strict_diff}} == \
        {key: value for key, value in whole.to_dict().items() if key != "kfold"}
    parts = partials(gold, pred, words, data.draw(shards(len(gold))),
                     options={"kfold": k, "fold_seed": seed}, strict_diff=strict_diff,
                     mode=mode, return_hard_tokens=True)
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), listed=st.integers(1, 4),
       kfold=st.booleans())
def test_hardeval_listings_are_bounded_and_do_not_depend_on_the_cut(data, corpus, listed,
                                                                    kfold):
    gold, pred, words = corpus
    if kfold and len(gold) < 2:
        return
    how = {"options": {"kfold": 2}} if kfold else {"train": TRAIN}
    whole = one_pass(hardeval.score, gold, pred, tokens=words, return_hard_tokens=True,
                     **how).to_dict()
    parts = partials(gold, pred, words, data.draw(shards(len(gold))), listed=listed,
                     return_hard_tokens=True, **how)
    merged = reduce(lambda a, b: a + b, parts)
    result = merged.result().to_dict()
    assert result["hard_tokens"] == {name: rows[:listed]
                                     for name, rows in whole["hard_tokens"].items()}
    assert {k: v for k, v in result.items() if k != "hard_tokens"} == \
        {k: v for k, v in whole.items() if k != "hard_tokens"}
    assert all(len(rows) <= listed for rows in merged.rows)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=2), kfold=st.booleans(),
       error_labels=st.sampled_from(["bilou", "io"]))
def test_hardeval_per_sentence_partials_give_one_passs_statistics(data, corpus, kfold,
                                                                  error_labels):
    """With ``per_sentence=True`` the merged result's ``statistics()`` (the report's
    bootstrap) is one pass's, k-fold's too (a cell's leaf decided once merged); the
    partials still merge by the laws; without it there is none."""
    gold, pred, words = corpus
    how = {"options": {"kfold": 2}} if kfold else {"train": TRAIN}
    whole = one_pass(hardeval.score, gold, pred, tokens=words, error_labels=error_labels,
                     **how)
    cut = data.draw(shards(len(gold)))
    parts = partials(gold, pred, words, cut, per_sentence=True,
                     error_labels=error_labels, **how)
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same(merged, whole)
        assert_same_statistics(merged.result(), whole)
    assert_merging_laws(parts, HardevalPartial())
    with pytest.raises(ValueError, match="no per-sentence counts"):
        sum(partials(gold, pred, words, cut, **how)).result().statistics()


def test_a_corpus_and_an_evaluation_merge_as_the_whole_does():
    gold = [["B-PER", "O"], ["O", "B-LOC"], ["B-ORG", "I-ORG"]]
    pred = [["B-PER", "O"], ["O", "B-ORG"], ["B-ORG", "O"]]
    words = [["Ana", "in"], ["the", "Lima"], ["UK", "Kim"]]
    whole = hardeval.score(gold, pred, tokens=words, train=TRAIN).to_dict()
    shards = [Corpus.from_tags(gold[a:b], tokens=words[a:b], columns={"pred": pred[a:b]})
              for a, b in ((0, 2), (2, 3))]
    from_corpora = hardeval.partial(shards[0], train=TRAIN) + \
        hardeval.partial(shards[1], train=TRAIN, first_sentence=2)
    assert from_corpora.result().to_dict() == whole
    contexts = [Evaluation(Corpus.from_tags(gold[a:b], tokens=words[a:b]), train=TRAIN)
                for a, b in ((0, 1), (1, 3))]
    from_contexts = hardeval.partial(contexts[1], pred[1:], first_sentence=1) + \
        hardeval.partial(contexts[0], pred[:1])
    assert from_contexts.result().to_dict() == whole


# -- merging -----------------------------------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12),
       kfold=st.booleans())
def test_hardeval_partials_merge_associatively_and_pickle(data, corpus, kfold):
    gold, pred, words = corpus
    how = {"options": {"kfold": 2}} if kfold else {"train": TRAIN}
    cut = data.draw(shards(len(gold)))
    assert_merging_laws(partials(gold, pred, words, cut, return_hard_tokens=True, **how),
                        HardevalPartial())


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=2, max_sentences=12))
def test_merged_kfold_cells_hold_each_word_once_and_count_its_tokens(data, corpus):
    """Shards number their words each its own way; merged, each value is one code (no
    cell twice) and the cells of a word count its tokens in the whole."""
    gold, pred, words = corpus
    parts = partials(gold, pred, words, data.draw(shards(len(gold))),
                     options={"kfold": 2})
    merged = sum(data.draw(st.permutations(parts)))
    assert len(set(merged.keys)) == len(merged.cells)
    assert all(len(set(values)) == len(values)
               for values in merged.vocabularies if values is not None)
    counted = Counter()
    for (word, *_), tokens in zip(merged.keys, merged.tokens.tolist()):
        counted[word] += tokens
    assert counted == Counter(word for sentence in words for word in sentence)


def test_an_empty_shard_gives_the_empty_partial():
    empty = hardeval.partial([], [], tokens=[], train=TRAIN)
    assert empty.empty and empty == HardevalPartial()
    one = hardeval.partial([["B-PER"]], [["B-PER"]], tokens=[["Ana"]], train=TRAIN)
    assert empty + one == one
    with pytest.raises(NerspanError, match="every partial merged is empty"):
        (empty + empty).result()


def test_partials_of_different_options_do_not_merge():
    gold, pred, words = [["B-PER"]], [["B-PER"]], [["Ana"]]
    base = hardeval.partial(gold, pred, tokens=words, train=TRAIN)
    for other in ({"strict_diff": True}, {"error_labels": "io"}, {"mode": "strict"},
                  {"return_hard_tokens": True}):
        with pytest.raises(ValueError, match="different options do not merge"):
            base + hardeval.partial(gold, pred, tokens=words, train=TRAIN,
                                    first_sentence=1, **other)
    with pytest.raises(ValueError, match="different options do not merge"):
        base + hardeval.partial(gold, pred, tokens=words, options={"kfold": 2},
                                first_sentence=1)
    with pytest.raises(TypeError, match="merges with its kind"):
        base + TRAIN


def test_the_merged_result_has_no_per_sentence_counts_to_resample():
    part = hardeval.partial([["B-PER"]], [["O"]], tokens=[["Ana"]], train=TRAIN)
    result = part.result()
    assert result.ter() == 1.0
    with pytest.raises(ValueError, match="no per-sentence counts"):
        result.statistics()


# -- k-fold: one assignment, whatever the cut -------------------------------------------------
def splitmix64(x: int) -> int:
    """splitmix64's step in Python integers (Steele, Lea and Flood 2014)."""
    mask = (1 << 64) - 1
    x = (x + 0x9E3779B97F4A7C15) & mask
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
    return x ^ (x >> 31)


def expected_fold(sentence: int, k: int, seed: int) -> int:
    """The rule of ``sentence_folds`` written out: the rank of the sentence's key among
    its block's k keys."""
    first = sentence - sentence % k
    keys = [splitmix64((first + j) ^ splitmix64(seed)) for j in range(k)]
    return sorted(range(k), key=lambda j: (keys[j], j)).index(sentence - first)


@given(ids=st.lists(st.integers(0, 10**9), max_size=30, unique=True),
       k=st.integers(2, 12), seed=st.integers(0, 2**32))
def test_a_sentence_fold_is_its_seed_and_id_alone(ids, k, seed):
    ids = sorted(ids)
    assert hardeval.sentence_folds(ids, k, seed).tolist() == \
        [expected_fold(i, k, seed) for i in ids]


@given(n=st.integers(2, 200), more=st.integers(0, 50), k=st.integers(2, 9),
       seed=st.integers(0, 5))
def test_kfold_folds_are_balanced_and_do_not_depend_on_the_corpus_size(n, more, k, seed):
    k = min(k, n)
    folds = hardeval.kfold_folds(n, k, seed)
    assert hardeval.kfold_folds(n + more, k, seed)[:n].tolist() == folds.tolist()
    sizes = np.bincount(folds, minlength=k)
    assert sizes.max() - sizes.min() <= 1 and sizes.min() >= 1


def test_kfold_needs_as_many_sentences_as_folds_in_the_whole():
    three = {"kfold": 3}
    one = hardeval.partial([["O"]], [["O"]], tokens=[["the"]], options=three)
    two = hardeval.partial([["O"], ["B-PER"]], [["O"], ["O"]], tokens=[["a"], ["Ana"]],
                           options=three, first_sentence=1)
    with pytest.raises(NerspanError, match=r"k must be between 2 and the number of "
                                           r"sentences \(1\), not 3"):
        one.result()
    assert (one + two).result().subsets["all"].tokens == 3
    with pytest.raises(ValueError, match="drop train= and subsets="):
        hardeval.partial([["O"]], [["O"]], tokens=[["the"]], options=three, train=TRAIN)
    # the options' one spelling: score's (the keywords of 0.1 name it)
    with pytest.raises(TypeError, match=r"partial\(\) takes kfold in its options: "
                                        r"options=\{'kfold': 3\}"):
        hardeval.partial([["O"]], [["O"]], tokens=[["the"]], kfold=3)


# -- bad input ---------------------------------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12),
       side=st.sampled_from(["gold", "pred"]))
def test_a_bad_tag_inside_a_shard_names_the_global_sentence(data, corpus, side):
    gold, pred, words = corpus
    where = data.draw(st.integers(0, len(gold) - 1))
    sides = with_bad_tag(gold, pred, where, side)
    words = [list(s) for s in words]
    words[where] = words[where] + ["Ana"]
    with pytest.raises(InvalidTagError) as whole:
        hardeval.score(sides["gold"], sides["pred"], tokens=words, train=TRAIN)
    assert f"sentence {where}" in str(whole.value)
    ids = next(ids for ids in data.draw(shards(len(gold))) if where in ids)
    with pytest.raises(InvalidTagError) as in_shard:
        hardeval.partial(taken(sides["gold"], ids), taken(sides["pred"], ids),
                         tokens=taken(words, ids), train=TRAIN, **placed(ids))
    assert str(in_shard.value) == str(whole.value)


def test_a_bad_subset_code_inside_a_shard_names_the_global_sentence():
    gold, pred, words = [["O"], ["O"], ["O", "O"]], [["O"], ["O"], ["O", "O"]], \
        [["a"], ["b"], ["c", "d"]]
    codes = [[0], [1], [0, 9]]
    with pytest.raises(NerspanError) as whole:
        hardeval.score(gold, pred, tokens=words, subsets=codes)
    with pytest.raises(NerspanError) as in_shard:
        hardeval.partial(gold[2:], pred[2:], tokens=words[2:], subsets=codes[2:],
                         sentence_ids=[2])
    assert "sentence 2" in str(whole.value) and str(in_shard.value) == str(whole.value)


def test_generated_output_needs_the_wholes_gold_types():
    with pytest.raises(ValueError, match="generated output in a partial needs types="):
        hardeval.partial([["B-PER", "O"]], [[{"text": "Ana", "type": "PER"}]],
                         tokens=[["Ana", "ran"]], train=TRAIN)


def test_hardeval_merges_through_its_descriptor():
    family = registered()["hardeval"]
    assert family.merges and family.partial is hardeval.partial
