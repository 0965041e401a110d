"""attribute_buckets: attribute values by hand, bucketing strategies, scores, properties."""
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attribute_buckets as ab
import nerspan
from attribute_buckets import analysis
from attribute_buckets import report as buckets_report
from attribute_buckets.discrete import Category
from attribute_buckets.bucketing import (assign, bucket_names, equal_count, equal_width,
                                         equal_width_buckets, reference_buckets,
                                         strategy_buckets)
from nerspan import (Corpus, LengthMismatchError, NerspanError, SentenceCountError,
                     as_train_index)
from tests.conftest import sequence_counts


def values(result, attribute, side="gold"):
    table = result.tables[attribute]
    return (table.gold_values if side == "gold" else table.predicted_values).tolist()


# -- the paper's worked example (Figure 3) -------------------------------------------------
LIFE = ["Life", "in", "New", "York", "is", "fun", "."]
LIFE_TAGS = ["O", "O", "B-LOC", "I-LOC", "O", "O", "O"]


def test_paper_worked_example():
    # a training vocabulary containing every token of the sentence
    result = ab.score([LIFE_TAGS], [LIFE_TAGS], tokens=[LIFE],
                      train=([LIFE[::-1], ["New", "York"]], [["O"] * 7, ["B-LOC", "I-LOC"]]))
    assert values(result, "eLen") == [2.0]
    assert values(result, "sLen") == [7.0]
    assert values(result, "eDen") == [pytest.approx(2 / 7)]
    assert values(result, "oDen") == [0.0]
    d = result.to_dict()
    assert d["attributes"]["eDen"]["mean_value"] == pytest.approx(2 / 7)
    assert [b["gold"] for b in d["buckets"]["eLen"]] == [0, 1, 0, 0]
    assert d["f1"] == 1.0
    # one token of the sentence unseen in training: oDen 1/7
    other = ab.score([LIFE_TAGS], [LIFE_TAGS], tokens=[LIFE], train=([LIFE[:-1]], [["O"] * 6]), attributes=["oDen"])
    assert values(other, "oDen") == [pytest.approx(1 / 7)]


# -- eCon, eFre ------------------------------------------------------------------------------
TRAIN_TOKENS = [["I", "love", "New", "York"], ["New", "York", "is", "big"],
                ["The", "New", "York", "Times"], ["new", "york", "again"]]
TRAIN_TAGS = [["O", "O", "B-LOC", "I-LOC"], ["O", "O", "O", "O"],
              ["O", "B-ORG", "I-ORG", "I-ORG"], ["B-LOC", "I-LOC", "O"]]
TEST_TOKENS = [["New", "York", "and", "Boston"], ["New", "York", "Times"]]
TEST_GOLD = [["B-LOC", "I-LOC", "O", "B-LOC"], ["B-ORG", "I-ORG", "I-ORG"]]
TEST_PRED = [["B-LOC", "I-LOC", "O", "B-PER"], ["B-LOC", "I-LOC", "O"]]


def score_small(**options):
    return ab.score(TEST_GOLD, TEST_PRED, tokens=TEST_TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS), **options)


def test_entity_consistency_by_hand():
    r = score_small(attributes=["eCon", "eFre"])
    # "new york" occurs 4 times (lowercased, annotated or not), 2 of them as a LOC mention;
    # "boston" never occurs; "new york times" once, as ORG.
    assert values(r, "eCon") == [0.5, 0.0, 1.0]
    # predicted: New York LOC (0.5), Boston PER (0), New York LOC in sentence 2 (0.5)
    assert values(r, "eCon", "pred") == [0.5, 0.0, 0.5]
    # eFre: mentions with the text / all 3 training mentions
    assert values(r, "eFre") == [pytest.approx(2 / 3), 0.0, pytest.approx(1 / 3)]
    case = score_small(attributes=["eCon"], lowercase=False)
    # case-sensitive: "New York" occurs 3 times, once as a LOC mention
    assert values(case, "eCon") == [pytest.approx(1 / 3), 0.0, 1.0]


def test_entity_consistency_equals_a_plain_count():
    """The vectorised n-gram tables agree with a plain count of the training text."""
    index = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    r = ab.score(TEST_GOLD, TEST_PRED, tokens=TEST_TOKENS, train=index, attributes=["eCon"])
    texts = [("New", "York"), ("Boston",), ("New", "York", "Times")]
    types = ["LOC", "LOC", "ORG"]
    occurrences, annotated = sequence_counts(index, texts, lowercase=True)
    expected = [annotated[i][t] / occurrences[i] if occurrences[i] else 0.0
                for i, t in enumerate(types)]
    assert values(r, "eCon") == pytest.approx(expected)


def test_rank5_frequency():
    r = score_small(attributes=["eFre", "tFre"], options={"frequency_norm": "rank5"})
    # training mention texts: "new york" (4 occurrences), "new york times" (1); fewer
    # than 5 texts: the smallest count (1) is the scale; capped at 1
    assert values(r, "eFre") == [1.0, 0.0, 1.0]
    assert max(values(r, "tFre")) == 1.0


def test_interpreteval_compat_regex_counts():
    r = score_small(attributes=["eCon", "eFre"], compat="interpreteval")
    # " new york " in "i love new york new york is big the new york times new york again":
    # the 2nd occurrence overlaps the 1st (shared space) and is skipped: 3 matches with
    # labels loc loc | org org | loc loc -> eCon(LOC) = 4/6, rounded to 3 decimals
    assert values(r, "eCon")[0] == 0.667
    assert values(r, "eCon")[1] == 0.0                      # boston: not a training mention
    assert values(r, "eCon")[2] == 1.0                      # new york times: org org org
    with pytest.raises(ValueError, match="lowercase=False"):
        score_small(compat="interpreteval", lowercase=False)
    with pytest.raises(ValueError, match="compat"):
        score_small(compat="explainaboard")


def test_interpreteval_compat_efre_drops_texts_above_the_fifth_count():
    # seven training mention texts; " a " is matched 7 times, " b " 6, " c " 5, " d " 4,
    # " e " 3 (the 5th largest count), " f " 2, " g " 1 ("x" between the mentions: the
    # reference's matches of one text never share a space, so they must not touch)
    counts = {"a": 7, "b": 6, "c": 5, "d": 4, "e": 3, "f": 2, "g": 1}
    words = ["x"] + [t for w, n in counts.items() for _ in range(n) for t in (w, "x")]
    tags = ["O"] + [t for w, n in counts.items() for _ in range(n) for t in ("B-LOC", "O")]
    test = [[w] for w in counts]
    gold = [["B-LOC"] for _ in counts]
    r = ab.score(gold, gold, tokens=test, train=([words], [tags]),
                 attributes=["eFre"], compat="interpreteval")
    # counts above the 5th largest have no entry in the reference's table: 0, not 1
    assert values(r, "eFre") == [0.0, 0.0, 0.0, 0.0, 1.0, 0.667, 0.333]
    rank5 = ab.score(gold, gold, tokens=test, train=([words], [tags]),
                     attributes=["eFre"], options={'frequency_norm': "rank5"})
    assert values(rank5, "eFre")[:4] == [1.0, 1.0, 1.0, 1.0]    # the option caps at 1
    # tFre keeps its cap at 1 under compat. Token counts: x 29, a 7, b 6, c 5, d 4 (the
    # 5th largest): a, b, c get 1 (capped), d 4/4, e 3/4, f 2/4, g 1/4
    tokens = ab.score(gold, gold, tokens=test, train=([words], [tags]),
                      attributes=["tFre"], compat="interpreteval")
    assert values(tokens, "tFre") == [1.0, 1.0, 1.0, 1.0, 0.75, 0.5, 0.25]


def test_interpreteval_compat_oden_is_case_sensitive():
    # "paris" occurs in training only as "Paris": OOV for the reference, whatever
    # lowercase says; by default nerlens lowercases and finds it
    train = dict(train=([["Paris", "is", "big"]], [["B-LOC", "O", "O"]]))
    tags = [["B-LOC", "O", "O", "O"]]
    tokens = [["paris", "is", "big", "Big"]]
    compat = ab.score(tags, tags, tokens=tokens, attributes=["oDen"], compat="interpreteval",
                      **train)
    assert values(compat, "oDen") == [0.5]                   # paris and Big are OOV
    default = ab.score(tags, tags, tokens=tokens, attributes=["oDen"], **train)
    assert values(default, "oDen") == [0.0]
    exact = ab.score(tags, tags, tokens=tokens, attributes=["oDen"], lowercase=False,
                     **train)
    assert values(exact, "oDen") == [0.5]


def test_reference_regex_patterns():
    """A text with regex characters is matched as the reference's regex ('.' = any char)."""
    train_tokens = [["the", "u.s.", "army"], ["in", "uks.", "today"], ["u.s.", "end"]]
    train_tags = [["O", "B-LOC", "O"], ["O", "B-ORG", "O"], ["B-LOC", "O"]]
    r = ab.score([["O", "B-LOC"]], [["O", "B-LOC"]], tokens=[["x", "U.S."]],
                 train=(train_tokens, train_tags), attributes=["eCon"],
                 compat="interpreteval")
    # " u.s. " matches "u.s." (LOC) and "uks." (ORG); the corpus-initial... "u.s." of the
    # third sentence follows "today" and precedes "end": LOC -> 2 of 3 matched tokens LOC
    assert values(r, "eCon") == [0.667]
    default = ab.score([["O", "B-LOC"]], [["O", "B-LOC"]], tokens=[["x", "U.S."]],
                       train=(train_tokens, train_tags), attributes=["eCon"])
    assert values(default, "eCon") == [1.0]


# -- tCon, tFre ------------------------------------------------------------------------------
def test_token_attributes_by_hand():
    train_tokens = [["Paris", "is", "big"], ["Paris", "Hilton"], ["in", "Paris"], ["Paris"]]
    train_tags = [["B-LOC", "O", "O"], ["B-PER", "I-PER"], ["O", "B-LOC"], ["B-LOC"]]
    r = ab.score([["B-LOC", "O", "O"]], [["B-PER", "O", "B-LOC"]], tokens=[["paris", "is", "Rome"]],
                 train=(train_tokens, train_tags), attributes=["tCon", "tFre"])
    # Paris: 3 LOC, 1 PER in training; is: O once; Rome unseen
    assert values(r, "tCon") == [0.75, 1.0, 0.0]
    assert values(r, "tCon", "pred") == [0.25, 1.0, 0.0]
    assert values(r, "tFre") == [4 / 8, 1 / 8, 0.0]   # 8 training tokens
    table = r.tables["tCon"]
    assert table.unit == "token" and table.n_gold == 3 and table.n_predicted == 3
    # correct tokens: "is" (O = O); paris (LOC vs PER) and Rome (O vs LOC) are wrong
    assert int(table.correct.sum()) == 1
    case = ab.score([["B-LOC", "O", "O"]], [["B-PER", "O", "B-LOC"]],
                    tokens=[["paris", "is", "Rome"]], train=(train_tokens, train_tags), attributes=["tCon"], lowercase=False)
    assert values(case, "tCon") == [0.0, 1.0, 0.0]


def test_token_values_are_kept_as_table_look_ups():
    # a float per token for each side would be most of a result's memory (issue 18): the
    # result keeps table rows and label codes in small types and reads values when asked
    r = ab.score([["B-LOC", "O", "O"]], [["B-PER", "O", "B-LOC"]], tokens=[["paris", "is", "Rome"]],
                 train=([["Paris", "is"]], [["B-LOC", "O"]]),
                 attributes=["tCon", "tFre"])
    tcon, tfre = r.tables["tCon"], r.tables["tFre"]
    kept = tcon.kept_gold_values
    assert isinstance(kept, ab.attributes.TableValues)
    assert kept.rows.dtype == np.uint8 and kept.labels.dtype == np.int8
    assert tcon.kept_predicted_values.rows is kept.rows   # one array for both sides
    assert tfre.kept_gold_values.rows is kept.rows        # and every token attribute
    assert kept.values().tolist() == [kept.table[row, label] for row, label
                                      in zip(kept.rows.tolist(), kept.labels.tolist())]
    assert values(r, "tCon") == [1.0, 1.0, 0.0]
    # tFre does not depend on the label: both sides are one array
    assert tfre.kept_predicted_values is tfre.kept_gold_values
    assert tfre.predicted_values is tfre.gold_values
    values_, counts = kept.value_counts()
    assert (values_.tolist(), counts.tolist()) == ([0.0, 1.0], [1, 2])


def test_reference_token_units_and_carry_over():
    train_tokens = [["New", "York", "is", "big"]]
    train_tags = [["B-LOC", "I-LOC", "O", "O"]]
    r = ab.score([["B-LOC", "I-LOC", "I-LOC", "O"]], [["B-LOC", "I-LOC", "O", "O"]],
                 tokens=[["New", "York", "Zzz", "is"]], train=(train_tokens, train_tags), attributes=["tCon"], compat="interpreteval")
    # only tokens inside mentions; unseen "Zzz" keeps the value of "York" (1.0)
    assert values(r, "tCon") == [1.0, 1.0, 1.0]
    assert values(r, "tCon", "pred") == [1.0, 1.0]
    assert r.tables["tCon"].n_gold == 3


# -- tag -------------------------------------------------------------------------------------
def test_tag_one_bucket_per_gold_type_by_name():
    gold = [["B-PER", "O", "B-ORG", "I-ORG", "O", "B-LOC"], ["B-ORG", "O", "B-PER"]]
    pred = [["B-PER", "O", "B-ORG", "O", "O", "B-MISC"], ["B-ORG", "O", "B-LOC"]]
    r = ab.score(gold, pred, attributes=["tag"])
    d = r.to_dict()
    rows = d["buckets"]["tag"]
    assert [(b["name"], b["interval"], b["value"]) for b in rows] == \
        [("LOC", "LOC", "LOC"), ("ORG", "ORG", "ORG"), ("PER", "PER", "PER")]
    # LOC: 1 gold, 1 predicted (the second sentence's, wrong span), none correct;
    # ORG: 2 gold, 2 predicted, 1 correct; PER: 2 gold, 1 predicted, 1 correct
    assert [(b["gold"], b["predicted"], b["correct"]) for b in rows] == \
        [(1, 1, 0), (2, 2, 1), (2, 1, 1)]
    assert [b["f1"] for b in rows] == [0.0, 0.5, 2 / 3]
    # per-type recall and precision are nerspan's per-type scores
    per_type = nerspan.score(gold, pred).to_dict()["per_type"]
    for b in rows:
        assert (b["precision"], b["recall"]) == (per_type[b["name"]]["precision"],
                                                 per_type[b["name"]]["recall"])
    # the predicted MISC has no gold bucket: counted outside, never silently lost
    info = d["attributes"]["tag"]
    assert (info["unit"], info["strategy"], info["mean_value"]) == ("mention", "discrete", None)
    assert (info["outside_gold"], info["outside_predicted"]) == (0, 1)
    assert r.bucket_f1("tag") == [b["f1"] for b in rows]
    with pytest.raises(ValueError, match="discrete"):
        ab.score(gold, pred, attributes=["tag"], bucket_edges={"tag": [0, 1, 2]})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1, 8), max_size=12),
       st.lists(st.lists(st.integers(0, 8), min_size=1, max_size=3), max_size=5))
def test_categories_are_assigned_as_each_buckets_own_test(values, codes):
    """``assign`` looks categories up in one table (linear in the units whatever the
    buckets): the first bucket whose ``contains`` holds the value, as for intervals."""
    buckets = [Category(str(k), tuple(c)) for k, c in enumerate(codes)]
    array = np.array(values, dtype=float)
    expected = np.full(len(array), -1)
    for k in range(len(buckets) - 1, -1, -1):
        expected[buckets[k].contains(array)] = k
    assert assign(array, buckets).tolist() == expected.tolist()


def test_many_types_one_bucket_each_as_the_per_type_counts():
    types = [f"T{k:03d}" for k in range(120)]
    gold = [[f"B-{t}", "O", f"B-{types[(k + 7) % 120]}"] for k, t in enumerate(types)]
    pred = [[f"B-{t}", "O", f"B-{types[(k + 8) % 120] if k % 4 else types[(k + 7) % 120]}"]
            for k, t in enumerate(types)]
    result = ab.score(gold, pred, attributes=["tag"])
    rows, per_type = result.to_dict()["buckets"]["tag"], result.to_dict()["per_type"]
    assert [b["name"] for b in rows] == types
    assert [(b["gold"], b["predicted"], b["correct"]) for b in rows] == \
        [(per_type[t]["support"], per_type[t]["predicted"], per_type[t]["correct"])
         for t in types]
    table = result.tables["tag"]
    assert table.gold is table.gold   # summed over the sentences once, not per row


def test_tag_under_compat_keeps_the_six_most_frequent_types_lowercased():
    # 8 types; counts: Z 3, y 3, A 2, and 1 each for b c D e f (first seen in that order)
    types = ["Z", "Z", "Z", "y", "y", "y", "A", "A", "b", "c", "D", "e", "f"]
    gold = [[f"B-{t}"] for t in types]
    r = ab.score(gold, gold, attributes=["tag"], compat="interpreteval")
    rows = r.to_dict()["buckets"]["tag"]
    # the 6 most frequent (ties: first seen), listed by lower-cased name
    assert [b["name"] for b in rows] == ["a", "b", "c", "d", "y", "z"]
    assert [b["interval"] for b in rows] == ["a", "b", "c", "d", "y", "z"]
    assert [b["gold"] for b in rows] == [2, 1, 1, 1, 3, 3]
    info = r.to_dict()["attributes"]["tag"]
    assert (info["outside_gold"], info["outside_predicted"]) == (2, 2)     # e and f
    # types that differ only in case are one type for the reference
    merged = ab.score([["B-LOC", "B-loc", "B-PER"]], [["B-LOC", "B-loc", "O"]],
                      attributes=["tag"], compat="interpreteval").to_dict()["buckets"]["tag"]
    assert [(b["name"], b["gold"], b["predicted"]) for b in merged] == [("loc", 2, 2),
                                                                         ("per", 1, 0)]


def test_tag_is_skipped_by_the_analyses_that_need_an_order():
    gold = [["B-PER", "O", "B-ORG"], ["B-LOC", "O", "B-PER"], ["B-ORG", "B-LOC", "O"]]
    a = ab.score(gold, gold, attributes=["eLen", "tag"])
    b = ab.score(gold, [["B-PER", "O", "O"], ["B-LOC", "O", "B-ORG"], ["B-ORG", "O", "O"]],
                 attributes=["eLen", "tag"])
    for results in ({"a": a, "b": b}, {"a": a.to_dict(), "b": b.to_dict()}):
        model = analysis.model_wise(results)
        assert model["b"]["tag"]["spearman"] is None
        # b: LOC 1 of 2 found (F1 2/3), ORG 1 of 2 and a false ORG (1/2), PER 1 of 2 (2/3)
        assert model["b"]["tag"]["std"] == pytest.approx(np.std([2 / 3, 0.5, 2 / 3]))
        view = analysis.attribute_wise(results)
        assert view["tag"] == {"zeta": None, "rho": None}
    assert analysis.is_ordered(a, "eLen") and not analysis.is_ordered(a, "tag")
    # the views that need no order still cover it
    worst = analysis.self_diagnosis(b)["tag"]
    assert (worst["best"], worst["worst"]) == ("LOC", "ORG")
    assert analysis.comparative_diagnosis(a, b)["tag"]["most_exceeds"] == "ORG"


# -- bucketing -----------------------------------------------------------------------------
def test_strategies():
    assert [b.label() for b in strategy_buckets("length", [1, 5], 4)] == \
        ["{1}", "{2}", "{3}", "[4, inf)"]
    assert [b.label() for b in strategy_buckets("length", [1], 3)] == ["{1}", "{2}", "[3, inf)"]
    consistency = strategy_buckets("consistency", [0, 0.1, 0.2, 0.3, 0.4, 1, 1], 4)
    assert [b.label() for b in consistency] == ["{0}", "(0, 0.2]", "(0.2, 1)", "{1}"]
    zero = strategy_buckets("zero_then_equal", [0, 0, 1, 2, 3, 4, 5, 6], 4)
    assert [b.label() for b in zero] == ["{0}", "(0, 2]", "(2, 4]", "(4, inf)"]
    equal = strategy_buckets("equal", [3, 1, 2, 4], 2)
    assert [b.label() for b in equal] == ["[0, 2]", "(2, inf)"]
    with pytest.raises(ValueError, match="strategy"):
        strategy_buckets("quantile", [1], 4)
    with pytest.raises(ValueError, match="at least 2"):
        strategy_buckets("equal", [1], 1)


def test_ties_at_edges_stay_in_the_lower_bucket_and_empty_buckets_are_kept():
    buckets = equal_count([5, 5, 5, 5, 6], 2)
    # edge = s[ceil(5/2) - 1] = 5: every 5 in the first bucket, the 6 in the second
    assert [b.label() for b in buckets] == ["[0, 5]", "(5, inf)"]
    assert np.bincount(assign([5, 5, 5, 5, 6], buckets)).tolist() == [4, 1]
    tied = equal_count([1, 1, 1, 1, 1, 1, 2], 3)
    assert [b.label() for b in tied] == ["[0, 1]", "(1, 1]", "(1, inf)"]
    assert np.bincount(assign([1] * 6 + [2], tied), minlength=3).tolist() == [6, 0, 1]
    # with no value at all every bucket but the last is empty
    assert [b.label() for b in equal_count([], 2)] == ["{0}", "(0, inf)"]


@settings(max_examples=60, deadline=None, database=None)
@given(values=st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 2.0, 7.0]),
                       max_size=8, unique=True).flatmap(
           lambda v: st.tuples(st.just(v), st.lists(st.integers(0, 5), min_size=len(v),
                                                    max_size=len(v)))),
       n_buckets=st.integers(2, 6),
       strategy=st.sampled_from(["consistency", "zero_then_equal", "equal", "length"]))
def test_counts_cut_as_the_repeated_values(values, n_buckets, strategy):
    # token attributes cut their buckets from distinct values and counts: the buckets
    # of the values repeated as often, in any order
    distinct, counts = values
    repeated = np.repeat(distinct, counts)[::-1]
    for cut in (equal_count, equal_width):
        assert cut(distinct, n_buckets, counts=counts) == cut(repeated, n_buckets)
    assert strategy_buckets(strategy, distinct, n_buckets, counts=counts) == \
        strategy_buckets(strategy, repeated, n_buckets)
    assert equal_width_buckets(strategy, distinct, n_buckets, counts) == \
        equal_width_buckets(strategy, repeated, n_buckets)


def test_empty_bucket_has_count_zero_and_no_scores():
    tags = [["B-PER", "O"], ["B-LOC", "I-LOC"]]
    r = ab.score(tags, tags, attributes=["eLen"])
    rows = r.to_dict()["buckets"]["eLen"]
    assert [row["gold"] for row in rows] == [1, 1, 0, 0]
    assert rows[2] == {**rows[2], "gold": 0, "predicted": 0, "precision": None,
                       "recall": None, "f1": None}
    statistics = {s.name: s for s in r.statistics()}
    assert math.isnan(statistics["attribute_buckets.buckets.eLen.2"].estimate())
    assert statistics["attribute_buckets.buckets.eLen.0"].estimate() == 1.0
    # a bucket with predictions only: precision 0, recall undefined, f1 0
    r = ab.score([["B-PER", "O", "O"]], [["B-PER", "B-LOC", "I-LOC"]], attributes=["eLen"])
    row = r.to_dict()["buckets"]["eLen"][1]
    assert (row["gold"], row["predicted"], row["precision"], row["recall"], row["f1"]) == \
        (0, 1, 0.0, None, 0.0)


def test_bucket_names():
    assert bucket_names(4) == ("XS", "S", "L", "XL")
    assert bucket_names(3) == ("S", "M", "L")
    assert bucket_names(8) == tuple(f"B{i}" for i in range(1, 9))
    r = ab.score([["B-PER", "O"]], [["B-PER", "O"]], attributes=["eLen"], n_buckets=6)
    assert [b["name"] for b in r.to_dict()["buckets"]["eLen"]] == list(bucket_names(6))


def test_reference_greedy_accumulation():
    # 8 values, 4 buckets asked: average 2; a bucket closes when it holds MORE than 2
    gold, pred = reference_buckets("greedy", [5, 5, 6, 7, 8, 9, 9, 9], 4)
    assert [b.label() for b in pred] == ["(5, 6]", "(6, 9]"]       # fewer than asked
    assert assign([5, 6, 9], gold).tolist() == [0, 0, 1]
    assert assign([5, 6, 9, 10, 4], pred).tolist() == [-1, 0, 1, -1, -1]   # 5 dropped
    gold, pred = reference_buckets("zero", [0, 0, 0.1, 0.2, 0.3, 0.4], 3)
    # what is left at the end is a bucket too; a single value stays a single value
    assert [b.label() for b in pred] == ["{0}", "(0, 0.3]", "{0.4}"]
    gold, pred = reference_buckets("length", [1, 1, 2, 4, 7], 4)
    assert [b.label() for b in pred] == ["{1}", "{2}", "(2, 7]"]  # no 3 in gold
    gold, pred = reference_buckets("fixed", [0.9995], 4)
    assert assign([0.9995, 1.0, 0.0, 0.5], pred).tolist() == [-1, 3, 0, 1]


def test_user_edges_and_custom_attribute():
    tags = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG", "I-ORG"]]
    pred = [["B-PER", "I-PER", "O", "O"], ["O", "B-ORG", "I-ORG", "I-ORG"]]

    def position(corpus, spans, train):   # where the mention starts in its sentence
        return spans.start - corpus.offsets[spans.sentence]

    r = ab.score(tags, pred, attributes={"position": position, "length": "eLen"},
                 bucket_edges={"position": [0, 0.5, 5], "length": [1, 2, 3]})
    d = r.to_dict()
    assert [(b["interval"], b["gold"], b["predicted"]) for b in d["buckets"]["position"]] == \
        [("[0, 0.5]", 1, 1), ("(0.5, 5]", 2, 1)]
    assert [(b["interval"], b["gold"]) for b in d["buckets"]["length"]] == \
        [("[1, 2]", 2), ("(2, 3]", 1)]
    assert d["attributes"]["position"]["strategy"] == "edges"
    with pytest.raises(NerspanError, match="decrease"):
        ab.score(tags, pred, attributes=["eLen"], bucket_edges={"eLen": [3, 1]})
    with pytest.raises(NerspanError, match="gave 1 value for 3 gold mentions"):
        ab.score(tags, pred, attributes={"bad": lambda c, s, t: [1.0]})
    outside = ab.score(tags, pred, attributes=["eLen"], bucket_edges={"eLen": [2, 3]})
    assert outside.to_dict()["attributes"]["eLen"]["outside_gold"] == 1


# -- input forms and errors ------------------------------------------------------------------
def test_corpus_input_with_columns_equals_lists():
    corpus = Corpus.from_tags(TEST_GOLD, tokens=TEST_TOKENS, columns={"sys": TEST_PRED})
    index = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    by_corpus = ab.score(corpus, inputs={'pred_column': "sys"}, train=index).to_dict()
    by_lists = score_small().to_dict()
    assert by_corpus == by_lists
    micro = nerspan.score(TEST_GOLD, TEST_PRED).micro()
    assert (by_lists["precision"], by_lists["recall"], by_lists["f1"]) == micro


def test_bad_input_raises_clear_errors():
    with pytest.raises(LengthMismatchError, match="sentence 1"):
        ab.score(TEST_GOLD, [TEST_PRED[0], ["O"]], tokens=TEST_TOKENS,
                 train=(TRAIN_TOKENS, TRAIN_TAGS))
    with pytest.raises(SentenceCountError):
        ab.score(TEST_GOLD, TEST_PRED[:1], tokens=TEST_TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS))
    with pytest.raises(LengthMismatchError, match="sentence 0"):
        ab.score(TEST_GOLD, TEST_PRED, tokens=[["New"], TEST_TOKENS[1]],
                 train=(TRAIN_TOKENS, TRAIN_TAGS))
    with pytest.raises(ValueError, match="training data"):
        ab.score(TEST_GOLD, TEST_PRED, tokens=TEST_TOKENS)
    with pytest.raises(ValueError, match="tokens"):
        ab.score(TEST_GOLD, TEST_PRED, train=(TRAIN_TOKENS, TRAIN_TAGS))
    with pytest.raises(ValueError, match="unknown attribute"):
        ab.score(TEST_GOLD, TEST_PRED, attributes=["eLength"])
    with pytest.raises(ValueError, match="n_buckets"):
        ab.score(TEST_GOLD, TEST_PRED, attributes=["eLen"], n_buckets=1)
    with pytest.raises(ValueError, match="frequency_norm"):
        score_small(options={"frequency_norm": "log"})
    # training-free attributes need neither tokens nor training data
    assert ab.score(TEST_GOLD, TEST_PRED, attributes=["eLen", "sLen", "eDen"]).f1 == \
        pytest.approx(1 / 3)


def test_bootstrap_intervals_are_seeded_and_contain_the_estimate():
    rng = np.random.default_rng(3)
    gold, pred = [], []
    for _ in range(60):
        n = int(rng.integers(2, 8))
        g = ["B-PER" if rng.random() < 0.3 else "O" for _ in range(n)]
        p = [t if rng.random() < 0.8 else ("O" if t != "O" else "B-PER") for t in g]
        gold.append(g)
        pred.append(p)
    a = ab.score(gold, pred, attributes=["sLen"], options={'bootstrap': 200, 'seed': 7}).to_dict()
    b = ab.score(gold, pred, attributes=["sLen"], options={'bootstrap': 200, 'seed': 7}).to_dict()
    assert a == b and a["options"]["confidence"] == 0.95
    for row in a["buckets"]["sLen"]:
        low, high = row["f1_interval"]
        if row["f1"] is not None:
            assert 0 <= low <= row["f1"] + 1e-9 and row["f1"] - 1e-9 <= high <= 1


# -- properties ------------------------------------------------------------------------------
WORDS = ["a", "b", "C", "d", "E"]
TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]

sentence = st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(WORDS), min_size=n, max_size=n),
    st.lists(st.sampled_from(TAGS), min_size=n, max_size=n),
    st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)))


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(test=st.lists(sentence, min_size=1, max_size=6),
       train=st.lists(sentence, min_size=1, max_size=6),
       n_buckets=st.integers(2, 6), compat=st.sampled_from([None, "interpreteval"]))
def test_properties(test, train, n_buckets, compat):
    tokens = [list(s[0]) for s in test]
    gold = [list(s[1]) for s in test]
    pred = [list(s[2]) for s in test]
    result = ab.score(gold, pred, tokens=tokens, train=([list(s[0]) for s in train], [list(s[1]) for s in train]), n_buckets=n_buckets, compat=compat)
    d = result.to_dict()
    spans = nerspan.score(gold, pred)
    assert (d["precision"], d["recall"], d["f1"]) == spans.micro()
    n_tokens = sum(map(len, gold))
    for attribute, rows in d["buckets"].items():
        info = d["attributes"][attribute]
        if attribute == "tag" and compat is None:
            # one bucket per gold type, by name; predicted mentions of a type without
            # gold mentions are the only ones outside every bucket
            per_type = spans.to_dict()["per_type"]
            gold_types = sorted(t for t, row in per_type.items() if row["support"])
            assert [r["name"] for r in rows] == [r["interval"] for r in rows] == gold_types
            assert [r["gold"] for r in rows] == [per_type[t]["support"] for t in gold_types]
            assert info["outside_gold"] == 0 and info["mean_value"] is None
            assert info["outside_predicted"] == sum(
                row["predicted"] for t, row in per_type.items() if not row["support"])
        elif compat is None:   # nothing is dropped by default
            expected_gold = n_tokens if info["unit"] == "token" else spans.n_gold
            expected_pred = n_tokens if info["unit"] == "token" else spans.n_predicted
            assert sum(r["gold"] for r in rows) == expected_gold
            assert sum(r["predicted"] for r in rows) == expected_pred
            assert len(rows) == n_buckets
        else:
            assert sum(r["gold"] for r in rows) + info["outside_gold"] == info["n_gold"]
            assert sum(r["predicted"] for r in rows) + info["outside_predicted"] == \
                info["n_predicted"]
            # fixed intervals for the consistencies, the 6 most frequent gold types for
            # tag, greedy (at most n) for the others
            if attribute == "tag":
                names = [r["name"] for r in rows]
                assert names == sorted(names) and len(names) <= 6
                assert all(r["gold"] >= 1 and r["name"] == r["name"].lower() for r in rows)
            else:
                assert len(rows) == 4 if attribute in ("eCon", "tCon") else len(rows) <= n_buckets
        for r in rows:
            assert r["correct"] <= min(r["gold"], r["predicted"])
            for key in ("precision", "recall", "f1"):
                assert r[key] is None or 0.0 <= r[key] <= 1.0
            assert (r["f1"] is None) == (r["gold"] == 0 and r["predicted"] == 0)
            assert (r["precision"] is None) == (r["predicted"] == 0)
            assert (r["recall"] is None) == (r["gold"] == 0)
    estimates = {s.name: s.estimate() for s in result.statistics()}
    assert estimates["attribute_buckets.f1"] == pytest.approx(d["f1"])
    for attribute, rows in d["buckets"].items():
        for i, r in enumerate(rows):
            estimate = estimates[f"attribute_buckets.buckets.{attribute}.{i}"]
            assert (math.isnan(estimate) and r["f1"] is None) or estimate == pytest.approx(r["f1"])


def test_statistics_shape_and_support():
    r = score_small()
    statistics = r.statistics()
    assert statistics[0].name == "attribute_buckets.f1"
    assert len(statistics) == 1 + sum(len(t.buckets) for t in r.tables.values())
    for s in statistics:
        assert s.counts.shape == (2, 3)
    by_name = {s.name: s for s in statistics}
    assert by_name["attribute_buckets.buckets.eLen.1"].support == 1    # "New York" (2 tokens)


# -- analyses --------------------------------------------------------------------------------
def fake(f1s, overall=0.9, mean=1.0):
    names = bucket_names(len(f1s))
    return {"f1": overall, "attributes": {"a": {"mean_value": mean}},
            "buckets": {"a": [{"name": n, "interval": n, "f1": f} for n, f in zip(names, f1s)]}}


def test_model_attribute_and_bucket_wise_views():
    results = {"up": fake([0.5, 0.6, 0.7, 0.8]), "down": fake([0.8, 0.7, None, 0.5]),
               "flat": fake([0.7, 0.7, 0.7, 0.7])}
    model = analysis.model_wise(results)
    assert model["up"]["a"]["spearman"] == pytest.approx(1.0)
    assert model["down"]["a"]["spearman"] == pytest.approx(-1.0)
    assert model["flat"]["a"]["spearman"] is None and model["flat"]["a"]["std"] == 0.0
    assert model["up"]["a"]["std"] == pytest.approx(np.std([0.5, 0.6, 0.7, 0.8]))
    view = analysis.attribute_wise(results)
    assert view["a"] == {"zeta": 1.0, "rho": 1.0}
    diagnosis = analysis.self_diagnosis(results["down"])["a"]
    assert (diagnosis["best"], diagnosis["worst"]) == ("XS", "XL")
    assert diagnosis["gap"] == pytest.approx(0.3)
    compare = analysis.comparative_diagnosis(results["up"], results["down"])["a"]
    assert compare["most_exceeds"] == "XL" and compare["exceeds_by"] == pytest.approx(0.3)
    assert compare["most_trails"] == "XS" and compare["trails_by"] == pytest.approx(-0.3)
    assert compare["differences"][2] is None
    rows, attributes, cube = analysis.relative_change(results, baseline="flat")
    assert rows == ["up", "down"] and cube.shape == (2, 1, 4)
    assert cube[0, 0, 3] == pytest.approx(0.1 / 0.7)
    assert math.isnan(cube[1, 0, 2])


def test_significance_tests():
    runs = [fake([0.5, 0.6, 0.8, 0.9]), fake([0.52, 0.61, 0.79, 0.93]),
            fake([0.49, 0.63, 0.81, 0.88]), fake([0.5, 0.59, 0.83, 0.9])]
    friedman = analysis.friedman_buckets(runs, "a")
    assert friedman["n_runs"] == 4 and friedman["n_buckets"] == 4
    assert friedman["pvalue"] < 0.01          # buckets always in the same order
    better = [fake([f + 0.05 for f in [0.5, 0.6, 0.8, 0.9]], overall=0.9 + i / 100)
              for i in range(6)]
    worse = [fake([0.5, 0.6, 0.8, 0.9], overall=0.85 + i / 200) for i in range(6)]
    test = analysis.wilcoxon_systems(better, worse)
    assert test["n_pairs"] == 6 and test["pvalue"] < 0.05
    assert analysis.wilcoxon([0.5, 0.6], [0.5, 0.6])["pvalue"] == 1.0
    with pytest.raises(ValueError):
        analysis.friedman([[0.1, 0.2]])


def test_label_ids_with_ignored_positions():
    # -100 marks a sub-token position: dropped with its prediction (Trainer's layout)
    r = ab.score([[0, 1, 2, -100, 0]], [[0, 1, 2, 1, 0]], tokens=[["a", "New", "York", "b"]],
                 label_list=["O", "B-LOC", "I-LOC"], train=([["New", "York"]], [["B-LOC", "I-LOC"]]))
    d = r.to_dict()
    assert d["f1"] == 1.0
    assert [b["gold"] for b in d["buckets"]["eLen"]] == [0, 1, 0, 0]
    # "a", "b" unseen (tCon 0); "New", "York" always LOC in training (tCon 1)
    assert [b["gold"] for b in d["buckets"]["tCon"]] == [2, 0, 0, 2]


def test_sentence_order_does_not_change_the_result():
    """evaluate's distributed mode merges batches out of corpus order: nothing may depend
    on it, to the last bit (the attribute means are summed in sorted order)."""
    from nerlens.demo import demo_gold, demo_systems, demo_train
    from nerspan import GOLD, as_train_index, read_columns

    gold = read_columns(demo_gold(), {GOLD: -1})
    system = read_columns(demo_systems()["spacy_sm"], {GOLD: -1})
    n = 300
    tokens = [gold.sentence_tokens(i) for i in range(n)]
    refs = [gold.tags(GOLD, i) for i in range(n)]
    preds = [system.tags(GOLD, i) for i in range(n)]
    order = list(range(0, n, 2)) + list(range(1, n, 2))
    train = as_train_index(str(demo_train()))
    as_given = ab.score(refs, preds, tokens=tokens, train=train).to_dict()
    shuffled = ab.score([refs[i] for i in order], [preds[i] for i in order],
                        tokens=[tokens[i] for i in order], train=train).to_dict()
    assert shuffled == as_given


def test_the_report_and_the_library_name_one_best_bucket_when_f1_ties():
    """Buckets of equal F1: the report's self-diagnosis table and
    ``analysis.self_diagnosis`` both name the first in the attribute's order."""
    buckets = [{"name": "S", "f1": 0.2}, {"name": "L", "f1": 0.9}, {"name": "XL", "f1": 0.9},
               {"name": "M", "f1": 0.2}]
    result = {"buckets": {"eLen": buckets}, "attributes": {"eLen": {"unit": "mention"}}}
    row = analysis.self_diagnosis(result)["eLen"]
    assert (row["best"], row["worst"]) == ("L", "S")
    view = SimpleNamespace(results={"tagger": result}, figures={})
    table = next(block for block in buckets_report._diagnosis_blocks(view)
                 if hasattr(block, "blocks")).blocks[0]
    assert [r[2] for r in table.rows] == ["L"] and [r[4] for r in table.rows] == ["S"]
