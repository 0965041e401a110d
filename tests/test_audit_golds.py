"""Systems under several golds (``nerspan.audit.gold_versions``, METHODS §10) and Kendall's
tau-a (``nerspan.significance.kendall_tau_a``).

Kendall's tau-a is checked against scipy's ``kendalltau`` where the two coincide (no ties)
and against a count over pairs written here; the scores against ``nerspan.score``; the
flips against a plain reading of the two F1 lists; the error changes against the counts
of ``nerspan.score`` under each gold.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

import nerspan
from nerspan import Corpus, NameTakenError, decode
from nerspan.audit import compare_golds, error_changes, score_golds
from nerspan.scores import sentence_counts
from nerspan.significance import kendall_tau_a

TAGS = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def plain_tau(a, b) -> float:
    pairs = [(i, j) for i in range(len(a)) for j in range(i + 1, len(a))]
    sign = lambda x: (x > 0) - (x < 0)  # noqa: E731
    score = sum(sign(a[i] - a[j]) * sign(b[i] - b[j]) for i, j in pairs)
    return score / len(pairs)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), min_size=2,
                max_size=15, unique_by=(lambda p: p[0], lambda p: p[1])))
def test_tau_a_equals_scipys_kendalltau_without_ties(pairs):
    a, b = zip(*pairs)
    ours = kendall_tau_a(a, b)
    assert ours["tau"] == pytest.approx(kendalltau(a, b).statistic, abs=1e-9)
    assert ours["tied"] == 0 and ours["concordant"] + ours["discordant"] == ours["pairs"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=12))
def test_tau_a_counts_ties_in_the_pairs(pairs):
    a, b = zip(*pairs)
    assert kendall_tau_a(a, b)["tau"] == pytest.approx(plain_tau(a, b), abs=1e-11)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=12, unique=True))
def test_tau_of_a_ranking_with_itself_is_one(scores):
    assert kendall_tau_a(scores, scores)["tau"] == 1.0
    assert kendall_tau_a(scores, [-s for s in scores])["tau"] == -1.0


def test_tau_a_is_not_tau_b_under_ties():
    # pairs (0,1): tied in a, neither; (0,2), (1,2): concordant -> tau-a 2/3
    assert kendall_tau_a([1, 1, 2], [1, 2, 3])["tau"] == pytest.approx(2 / 3)
    assert kendalltau([1, 1, 2], [1, 2, 3]).statistic == pytest.approx(2 / 6 ** 0.5)
    assert kendall_tau_a([1], [1])["tau"] is None
    with pytest.raises(ValueError, match="same items"):
        kendall_tau_a([1, 2], [1])


def sentences(n_sentences: int = 4):
    return st.lists(st.lists(st.sampled_from(TAGS), min_size=1, max_size=8),
                    min_size=n_sentences, max_size=n_sentences)


def same_shape(tags):
    return st.tuples(*[st.lists(st.sampled_from(TAGS), min_size=len(s), max_size=len(s))
                       for s in tags]).map(list)


def golds_and_systems():
    """Two golds and three systems over the same tokens."""
    return sentences().flatmap(lambda gold: st.tuples(
        st.just(gold), same_shape(gold), st.lists(same_shape(gold), min_size=3, max_size=3)))


def scored(gold, alternative, systems, bootstrap=0):
    corpus = Corpus.from_tags(gold, alternative,
                              columns={f"s{i}": s for i, s in enumerate(systems)})
    spans = {c: decode(corpus, c) for c in corpus.columns}
    golds = {"old": spans["gold"], "new": spans["pred"]}
    return score_golds(golds, {f"s{i}": spans[f"s{i}"] for i in range(len(systems))},
                       bootstrap=bootstrap)


@settings(max_examples=60, deadline=None)
@given(golds_and_systems())
def test_scores_rankings_flips_and_errors_follow_nerspan_score(case):
    gold, alternative, systems = case
    result = scored(gold, alternative, systems).to_dict()
    f1 = {}
    for i, system in enumerate(systems):
        name = f"s{i}"
        for key, truth in (("old", gold), ("new", alternative)):
            theirs = nerspan.score(truth, system).to_dict()
            assert result["scores"][name][key]["f1"] == pytest.approx(theirs["f1"], abs=1e-12)
            assert result["scores"][name][key]["correct"] == theirs["correct"]
            f1[name, key] = theirs["f1"]
        errors = result["against"]["new"]["errors"][name]
        old, new = (nerspan.score(t, system).to_dict() for t in (gold, alternative))
        assert errors["errors"] == old["predicted"] + old["gold"] - 2 * old["correct"]
        assert errors["errors_alternative"] == new["predicted"] + new["gold"] - 2 * new["correct"]
        assert errors["errors"] - errors["removed"] + errors["introduced"] == \
            errors["errors_alternative"]
    names = [f"s{i}" for i in range(len(systems))]
    flips = {(x, y) for x in names for y in names
             if f1[x, "new"] > f1[y, "new"] and f1[x, "old"] < f1[y, "old"]}
    against = result["against"]["new"]
    assert {tuple(flip["systems"]) for flip in against["flips"]} == flips
    assert against["discordant"] == len(flips)
    assert against["tau"] == kendall_tau_a([f1[n, "old"] for n in names],
                                           [f1[n, "new"] for n in names])["tau"]
    for gold_name in ("old", "new"):
        ranking = result["rankings"][gold_name]
        assert [f1[n, gold_name] for n in ranking] == sorted(
            (f1[n, gold_name] for n in names), reverse=True)
    assert json.loads(json.dumps(result, allow_nan=False)) == result


def test_paired_intervals_hold_their_estimate_and_a_flip_says_if_it_is_noise():
    gold = [["B-PER", "O", "B-LOC"]] * 40
    alternative = [["B-PER", "O", "B-ORG"]] * 40
    right_old = [["B-PER", "O", "B-LOC"]] * 40
    right_new = [["B-PER", "O", "B-ORG"]] * 40
    result = scored(gold, alternative, [right_old, right_new, right_old], bootstrap=200)
    against = result.to_dict()["against"]["new"]
    difference = against["f1_difference"]["s0"]
    assert difference["estimate"] == pytest.approx(-0.5)
    assert difference["low"] <= difference["estimate"] <= difference["high"]
    assert difference["outside_noise"] is True
    assert against["f1_difference"]["s0"] == against["f1_difference"]["s2"]
    flips = {tuple(f["systems"]): f for f in against["flips"]}
    assert set(flips) == {("s1", "s0"), ("s1", "s2")}
    assert flips["s1", "s0"]["outside_noise"] is True
    assert flips["s1", "s0"]["alternative"]["estimate"] == pytest.approx(0.5)
    assert against["errors"]["s1"] == {
        "errors": 80, "errors_alternative": 0, "false_positives_removed": 40,
        "false_negatives_removed": 40, "false_positives_introduced": 0,
        "false_negatives_introduced": 0, "removed": 80, "introduced": 0,
        "share_removed": 1.0}


def test_compare_golds_reads_counts_of_any_source_and_refuses_bad_ones():
    counts = {"a": {"x": np.array([[1, 1, 1]] * 3)}, "b": {"x": np.array([[1, 1, 1]] * 3)}}
    result = compare_golds(counts, bootstrap=50).to_dict()
    assert result["against"]["b"]["f1_difference"]["x"]["low"] == 0.0
    assert result["against"]["b"]["tau"] is None  # one system: no pair
    with pytest.raises(ValueError, match="at least two golds"):
        compare_golds({"a": counts["a"]})
    with pytest.raises(ValueError, match="the same systems"):
        compare_golds({"a": counts["a"], "b": {"y": counts["b"]["x"]}})
    with pytest.raises(ValueError, match=r"\(sentences x 3\)"):
        compare_golds({"a": counts["a"], "b": {"x": np.ones((3, 2))}})


def test_a_system_named_like_a_gold_is_refused():
    spans = decode(Corpus.from_tags([["B-PER"]]))
    with pytest.raises(NameTakenError, match="name a gold and a system"):
        score_golds({"old": spans, "new": spans}, {"new": spans})


def test_error_changes_count_each_mention_once():
    corpus = Corpus.from_tags([["B-PER", "O", "B-LOC", "O"]], [["B-PER", "O", "O", "B-LOC"]],
                              columns={"system": [["O", "O", "O", "B-LOC"]]})
    changes = error_changes(decode(corpus), decode(corpus, "pred"), decode(corpus, "system"))
    # under gold: PER missed, LOC@2 missed, LOC@3 spurious; under the alternative: PER missed
    assert changes["errors"] == 3 and changes["errors_alternative"] == 1
    assert changes["false_positives_removed"] == 1 and changes["false_negatives_removed"] == 1
    assert changes["share_removed"] == pytest.approx(2 / 3)
    counts = sentence_counts(decode(corpus), decode(corpus, "system"), 1)
    assert counts.tolist() == [[0, 1, 2]]


@settings(max_examples=40, deadline=None)
@given(golds_and_systems())
def test_a_gold_against_itself_changes_nothing(case):
    """Every difference 0 in every resample, the ranking kept (no discordant pair, no
    flip: tau-a is the share of untied pairs), no error removed or introduced."""
    gold, _, systems = case
    against = scored(gold, gold, systems, bootstrap=20).to_dict()["against"]["new"]
    for difference in against["f1_difference"].values():
        assert (difference["estimate"], difference["low"], difference["high"]) == (0, 0, 0)
        assert difference["outside_noise"] is False
    assert against["flips"] == [] and against["discordant"] == 0
    assert against["tau"] == pytest.approx(against["concordant"] / against["pairs"])
    assert set(against["rank_change"].values()) == {0}
    for errors in against["errors"].values():
        assert errors["removed"] == errors["introduced"] == 0
        assert errors["errors"] == errors["errors_alternative"]
