"""faireval from partials (METHODS.md §7, issue 39): shards' partials merged equal one pass.

For random corpora in every input form faireval takes (tag lists, label ids, a Corpus,
multi-level tags, span lists that nest and overlap, span lists against tags, a span
file), random options (weights, focus, the label filter, punctuation, the SemEval
schemas and their pairing, the listings) and random partitions of the sentences into
shards (empty and one-sentence shards included), the merged ``to_dict()`` (and
``to_dict(beta=2)``) equals the one-pass one in any merge order, or the merged result
raises one pass's error. Merging is associative and commutative with the empty partial
as identity; a partial pickles; partials of other options and ``matching="strings"``
are refused, generated output without the whole's gold types too; bad input and
repairs name global sentence ids.
"""
from __future__ import annotations

import pickle
from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

import faireval
from nerlens.families import registered
from nerspan import Corpus, EmptyInputError, Evaluation
from nerspan.errors import NerspanError
from faireval.partials import FairevalPartial

from .test_partials import (EXAMPLES, LABELS, as_span_lists, assert_same_statistics,
                            check_bad_tag_in_a_shard, corpora, merged_in, one_pass, placed,
                            shards, taken)

TYPES = ("PER", "LOC", "ORG", "MISC")
POS = ("NN", "VB", "$.", "PUNCT")   # two of them punctuation (faireval.PUNCT_TAGS)


# -- strategies --------------------------------------------------------------------------
@st.composite
def options(draw) -> dict:
    """Some of ``score``'s options, every one of them drawn now and then."""
    out = draw(st.fixed_dictionaries({}, optional={
        "weights": st.sampled_from(["weighted", {"BE": (0.5, 0.25, 0.25)}]),
        "focus": st.sampled_from(["target", "system"]),
        "confusion_tp": st.booleans(),
        "reference_iteration": st.booleans(),
        "return_pairs": st.booleans(),
        "labels": st.sampled_from([["PER", "LOC"], ["MISC", "PER", "ORG"], ["ORG"]]),
        "exclude": st.sampled_from([["ORG"], ["PER", "MISC"]]),
        "schemas": st.sampled_from(["semeval", ["strict", "partial"], ["ent_type"]]),
    }))
    if "schemas" in out:
        out.update(draw(st.fixed_dictionaries({}, optional={
            "min_overlap": st.sampled_from([0.01, 0.5, 1.0]),
            "pairing": st.sampled_from(["greedy", "optimal"]),
            "return_instances": st.booleans()})))
    return out


@st.composite
def span_corpora(draw, min_sentences=1, max_sentences=20):
    """``(gold, pred, tokens, pos)``: span lists ``(label, start, end)`` per sentence,
    nested and overlapping, within sentences of random length."""
    lengths = draw(st.lists(st.integers(0, 7), min_size=min_sentences,
                            max_size=max_sentences))

    def spans(n: int):
        if not n:
            return st.just([])
        one = st.tuples(st.sampled_from(TYPES), st.integers(0, n - 1), st.integers(1, n))
        return st.lists(one.filter(lambda s: s[1] < s[2]), max_size=4)

    gold = [draw(spans(n)) for n in lengths]
    pred = [draw(spans(n)) for n in lengths]
    words = [["w"] * n for n in lengths]
    pos = [draw(st.lists(st.sampled_from(POS), min_size=n, max_size=n)) for n in lengths]
    return gold, pred, words, pos


def check_merges(data, gold, pred, score_options: dict, per_sentence: dict = (),
                 shard_input=taken, n_sentences: int | None = None) -> None:
    """Partials of a random cut, merged in a random order (a chain and a tree), give
    one pass's ``to_dict()``, or one pass's error. ``per_sentence``: keyword -> a list
    per sentence, cut with the shards; ``shard_input(rows, ids)``: a side of a shard;
    ``n_sentences``: the sentences of ``gold`` when it is no list."""
    per_sentence = dict(per_sentence)
    try:
        whole = one_pass(faireval.score, gold, pred, **per_sentence, **score_options)
    except ValueError as error:   # the label filter leaves nothing of the whole's labels
        whole = error
    cut = data.draw(shards(len(gold) if n_sentences is None else n_sentences))
    parts = [one_pass(faireval.partial, shard_input(gold, ids), shard_input(pred, ids),
                      **{name: taken(rows, ids) for name, rows in per_sentence.items()},
                      **score_options, **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        if isinstance(whole, Exception):
            with pytest.raises(type(whole)) as error:
                merged.result()
            assert str(error.value) == str(whole)
            continue
        assert merged.result().to_dict() == whole.to_dict()
        assert merged.result().to_dict(beta=2) == whole.to_dict(beta=2)


# -- every input form, every option ----------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), score_options=options(),
       mode=st.sampled_from(["lenient", "strict"]))
def test_partials_of_tags_merge_to_one_pass(data, corpus, score_options, mode):
    gold, pred, _ = corpus
    check_merges(data, gold, pred, {**score_options, "mode": mode})


@EXAMPLES
@given(data=st.data(), corpus=span_corpora(), score_options=options(),
       ignore_punct=st.booleans())
def test_partials_of_nested_span_lists_merge_to_one_pass(data, corpus, score_options,
                                                         ignore_punct):
    gold, pred, words, pos = corpus
    check_merges(data, gold, pred, {**score_options, "ignore_punct": ignore_punct},
                 {"tokens": words, "pos": pos})


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), score_options=options())
def test_partials_of_label_ids_merge_to_one_pass(data, corpus, score_options):
    gold_tags, pred_tags, _ = corpus
    n_tokens = sum(map(len, gold_tags))
    marks = iter(data.draw(st.lists(st.booleans(), min_size=n_tokens, max_size=n_tokens)))
    gold = [[-100 if next(marks) else LABELS.index(t) for t in s] for s in gold_tags]
    pred = [[LABELS.index(t) for t in s] for s in pred_tags]
    check_merges(data, gold, pred, {**score_options, "label_list": LABELS})


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), score_options=options())
def test_partials_of_a_corpus_merge_to_one_pass(data, corpus, score_options):
    gold, pred, _ = corpus
    whole = Corpus.from_tags(gold, pred)
    def shard_corpus(rows, ids):   # a corpus holds a sentence: an empty shard is [], None
        if rows is None:
            return None
        return Corpus.from_tags(taken(gold, ids), taken(pred, ids)) if ids else []

    check_merges(data, whole, None, score_options, shard_input=shard_corpus,
                 n_sentences=len(gold))


@EXAMPLES
@given(data=st.data(), outer=corpora(min_sentences=1), score_options=options())
def test_partials_of_multi_level_tags_merge_to_one_pass(data, outer, score_options):
    gold, pred, _ = outer
    inner = data.draw(st.lists(st.sampled_from(["", "|B-LOC", "|I-PER", "|B-MISC"]),
                               min_size=2 * sum(map(len, gold)),
                               max_size=2 * sum(map(len, gold))))
    levels = iter(inner)
    gold, pred = ([[tag + next(levels) for tag in s] for s in side] for side in (gold, pred))
    check_merges(data, gold, pred, score_options)


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1), score_options=options())
def test_partials_of_span_lists_against_tags_merge_to_one_pass(data, corpus,
                                                              score_options):
    gold, pred, words = corpus
    check_merges(data, as_span_lists(gold), pred, score_options, {"tokens": words})


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12),
       score_options=options())
def test_partials_of_evaluations_and_dataset_splits_merge_to_one_pass(data, corpus,
                                                                     score_options):
    datasets = pytest.importorskip("datasets")
    gold, pred, words = corpus
    split = datasets.Dataset.from_dict({"tokens": words, "ner_tags": gold, "pred": pred})

    def evaluation(rows, ids):   # an empty shard is [], None
        if rows is None:
            return None
        return Evaluation.build(taken(gold, ids), taken(pred, ids)) if ids else []

    def split_rows(rows, ids):
        if not ids:
            return []
        return rows if isinstance(rows, str) else rows.select(ids)

    check_merges(data, Evaluation.build(gold, pred), None, score_options,
                 shard_input=evaluation, n_sentences=len(gold))
    check_merges(data, split, "pred", score_options, shard_input=split_rows,
                 n_sentences=len(gold))


def test_partials_of_a_span_file_merge_to_one_pass(tmp_path):
    gold = [[("PER", 0, 2), ("LOC", 1, 3)], [], [("ORG", 0, 1)], [("PER", 2, 4)]]
    pred = [[("PER", 0, 1), ("LOC", 1, 3)], [("MISC", 0, 2)], [], [("LOC", 2, 4)]]
    for name, side in (("gold", gold), ("pred", pred)):
        faireval.write_span_file(tmp_path / name, side)
    gold, pred = (faireval.read_span_file(tmp_path / name) for name in ("gold", "pred"))
    whole = faireval.score(gold, pred, schemas="semeval", return_pairs=True)
    parts = [faireval.partial(gold[a:b], pred[a:b], schemas="semeval", return_pairs=True,
                              first_sentence=a) for a, b in ((0, 1), (1, 1), (1, 4))]
    assert sum(parts).result().to_dict() == whole.to_dict()


@EXAMPLES
@given(data=st.data(), corpus=span_corpora(), score_options=options())
def test_per_sentence_partials_give_one_passs_statistics(data, corpus, score_options):
    """With ``per_sentence=True`` the merged result's ``statistics()`` (the report's
    bootstrap: fair, traditional and SemEval scores) is one pass's, sentence by
    sentence; the partials still merge by the laws; without it there is none."""
    gold, pred, words, _ = corpus
    try:
        whole = faireval.score(gold, pred, tokens=words, **score_options)
    except ValueError:   # the label filter leaves none of the whole's labels
        return
    cut = data.draw(shards(len(gold)))
    parts = [faireval.partial(taken(gold, ids), taken(pred, ids), tokens=taken(words, ids),
                              per_sentence=True, **score_options, **placed(ids))
             for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert merged.result().to_dict() == whole.to_dict()
        assert_same_statistics(merged.result(), whole)
    a, b = (parts + [FairevalPartial()] * 2)[:2]
    assert a + b == b + a and pickle.loads(pickle.dumps(a + b)) == a + b
    with pytest.raises(ValueError, match="no per-sentence counts"):
        sum(faireval.partial(taken(gold, ids), taken(pred, ids), **score_options,
                             **placed(ids)) for ids in cut).result().statistics()


# -- the algebra ---------------------------------------------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=span_corpora(max_sentences=10), score_options=options())
def test_merging_is_associative_commutative_and_partials_pickle(data, corpus,
                                                                 score_options):
    gold, pred, words, _ = corpus
    cut = data.draw(shards(len(gold)))
    a, b, c = ([faireval.partial(taken(gold, ids), taken(pred, ids), tokens=taken(words, ids),
                                 **score_options, **placed(ids)) for ids in cut]
               + [FairevalPartial()] * 3)[:3]
    assert (a + b) + c == a + (b + c)
    assert a + b == b + a
    assert a + FairevalPartial() == a == FairevalPartial() + a
    assert pickle.loads(pickle.dumps(a)) == a
    assert sum([a, b, c]) == a + b + c


def test_an_empty_shard_is_the_identity_and_an_empty_merge_has_no_result():
    empty = faireval.partial([], [])
    assert empty.empty and empty == FairevalPartial()
    one = faireval.partial([["B-PER"]], [["B-PER"]])
    assert empty + one == one == one + empty
    with pytest.raises(EmptyInputError, match="every partial merged is empty"):
        (empty + empty).result()


def test_partials_of_other_options_do_not_merge():
    fair = faireval.partial([["B-PER"]], [["B-PER"]])
    for other in ({"focus": "system"}, {"weights": "weighted"}, {"schemas": "semeval"},
                  {"return_pairs": True}, {"mode": "strict"}, {"labels": ["PER"]}):
        with pytest.raises(ValueError, match="different options do not merge"):
            fair + faireval.partial([["B-PER"]], [["B-PER"]], **other)
    with pytest.raises(ValueError, match="different options do not merge"):
        faireval.partial([["B-PER"]], [["B-PER"]], return_pairs=True, listed=2) + \
            faireval.partial([["B-PER"]], [["B-PER"]], return_pairs=True, listed=3)


def test_a_partial_is_small_without_listings():
    """Its size grows with the labels, not with the sentences."""
    gold, pred = [["B-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "B-ORG"]]
    small = len(pickle.dumps(faireval.partial(gold, pred, schemas="semeval")))
    large = len(pickle.dumps(faireval.partial(gold * 500, pred * 500, schemas="semeval")))
    assert large < small * 1.1


# -- listings, repairs and errors by global sentence id ---------------------------------------
@EXAMPLES
@given(data=st.data(), corpus=span_corpora(), listed=st.integers(1, 6))
def test_listings_are_bounded_by_global_sentence_id_whatever_the_cut(data, corpus,
                                                                     listed):
    gold, pred, words, _ = corpus
    asked = {"return_pairs": True, "schemas": "semeval", "return_instances": True}
    whole = faireval.score(gold, pred, tokens=words, **asked).to_dict()
    cut = data.draw(shards(len(gold)))
    merged = reduce(lambda a, b: a + b, [
        faireval.partial(taken(gold, ids), taken(pred, ids), tokens=taken(words, ids),
                         listed=listed, **asked, **placed(ids)) for ids in cut])
    got = merged.result().to_dict()
    assert got["pairs"] == whole["pairs"][:listed]
    assert got["semeval_instances"] == {name: rows[:listed] for name, rows
                                        in whole["semeval_instances"].items()}
    listings = ("pairs", "semeval_instances")
    assert {k: v for k, v in got.items() if k not in listings} == \
        {k: v for k, v in whole.items() if k not in listings}
    assert len(merged.pairs) <= listed
    assert all(len(rows) <= listed for _, rows in merged.instances)


def test_listings_and_repairs_name_global_sentences():
    gold = [["B-PER", "O"], ["O", "O"], ["O", "I-LOC"], ["B-ORG", "O"]]
    pred = [["B-PER", "O"], ["O", "O"], ["B-LOC", "O"], ["I-ORG", "O"]]
    asked = {"return_pairs": True, "schemas": ["strict"], "return_instances": True}
    whole = faireval.score(gold, pred, **asked).to_dict()
    later = faireval.partial(gold[2:], pred[2:], sentence_ids=[2, 3], **asked)
    got = (later + faireval.partial(gold[:2], pred[:2], **asked)).result().to_dict()
    assert got["repairs"]["gold"]["sentences"] == [2]
    assert got["repairs"]["pred"]["sentences"] == [3]
    assert [row["sentence"] for row in later.result().to_dict()["semeval_instances"]
            ["strict"]] == [2, 2, 3]
    assert got == whole


@EXAMPLES
@given(data=st.data(), corpus=corpora(min_sentences=1, max_sentences=12),
       side=st.sampled_from(["gold", "pred"]))
def test_a_bad_tag_inside_a_shard_names_the_global_sentence(data, corpus, side):
    check_bad_tag_in_a_shard(data, corpus, side, faireval.score, faireval.partial)


def test_a_span_past_its_sentence_inside_a_shard_names_the_global_sentence():
    gold = [[("PER", 0, 1)], [], [("LOC", 1, 5)]]
    pred = [[("PER", 0, 1)], [], []]
    words = [["a"], ["b"], ["c", "d"]]
    with pytest.raises(NerspanError) as whole:
        faireval.score(gold, pred, tokens=words)
    with pytest.raises(NerspanError) as in_shard:
        faireval.partial(gold[2:], pred[2:], tokens=words[2:], first_sentence=2)
    assert "sentence 2" in str(whole.value) and str(in_shard.value) == str(whole.value)


def test_the_label_filter_is_checked_on_the_whole_not_on_a_shard():
    gold, pred = [["B-PER"], ["B-LOC"]], [["B-PER"], ["O"]]
    with pytest.raises(ValueError, match="leaves nothing"):
        faireval.score(gold[1:], pred[1:], labels=["PER"])
    alone = faireval.partial(gold[1:], pred[1:], labels=["PER"], first_sentence=1)
    with pytest.raises(ValueError, match="leaves nothing"):
        alone.result()
    merged = faireval.partial(gold[:1], pred[:1], labels=["PER"]) + alone
    assert merged.result().to_dict() == faireval.score(gold, pred, labels=["PER"]).to_dict()


def test_a_weight_table_is_checked_on_the_whole_counts():
    gold, pred = [[("A", 0, 2)], [("A", 0, 2)]], [[("B", 0, 2)], [("B", 0, 2)]]
    table = {"LE": (4e307, 0, 0)}
    with pytest.raises(ValueError, match="too large for a float") as whole:
        faireval.score(gold, pred, weights=table)
    merged = faireval.partial(gold[:1], pred[:1], weights=table) + \
        faireval.partial(gold[1:], pred[1:], weights=table, first_sentence=1)
    with pytest.raises(ValueError, match="too large for a float") as from_partials:
        merged.result()
    assert str(from_partials.value) == str(whole.value)


def test_a_merged_result_has_no_per_sentence_vectors_to_resample():
    merged = faireval.partial([["B-PER"]], [["B-PER"]]).result()
    with pytest.raises(ValueError, match="no per-sentence counts"):
        merged.statistics()


# -- what is refused ---------------------------------------------------------------------------
def test_generated_output_needs_the_wholes_gold_types():
    with pytest.raises(ValueError, match="generated output in a partial needs types="):
        faireval.partial([["B-PER", "O"]], [[{"text": "Ana", "type": "PER"}]],
                         tokens=[["Ana", "ran"]])


def test_matching_strings_is_refused_not_merged_wrong():
    with pytest.raises(ValueError, match='matching="strings" is not merged.*one pass'):
        faireval.partial([["B-PER", "O"]], [[{"text": "Ana", "type": "PER"}]],
                         tokens=[["Ana", "ran"]], inputs={"matching": "strings"})


def test_the_descriptor_merges_through_partial():
    family = registered()["faireval"]
    assert family.merges and family.partial is faireval.partial
