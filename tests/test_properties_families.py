"""Properties every family must have, on random tags (hypothesis).

- identity: gold == prediction gives perfect scores and zero errors, for any tags, scheme,
  mode and options;
- permuting the sentences (gold, predictions, tokens alike) changes nothing;
- ``zero_division`` means what it means in seqeval 1.2.2 (micro, macro, weighted, per
  type; P, R and F1), in both modes;
- an all-O sentence added to both sides changes no entity score (and no error count).

Each property states its number of examples with ``settings(max_examples=...)``.
"""
from __future__ import annotations

import math
import random
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerspan.schemes import get_scheme
from tests.test_properties_core import ALL_SCHEMES, SEQEVAL_SCHEMES, TYPES

pytestmark = pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")

WORDS = ["Ana", "Rio", "in", "the", "Lima", "sings", "UK"]
FOREIGN_LETTERS = ["B", "I", "E", "S", "L", "U", "M"]  # read by their usual meaning (lenient)


def tag_strategy(scheme: str, mode: str, foreign: bool = True):
    letters = [letter for letter in get_scheme(scheme).prefixes if letter != "O"]
    if mode == "lenient" and foreign:
        letters = sorted(set(letters) | set(FOREIGN_LETTERS))
    tags = ["O"] + [f"{letter}-{t}" for letter in letters for t in TYPES]
    return st.sampled_from(tags)


@st.composite
def corpora(draw, modes=("lenient", "strict"), schemes=tuple(ALL_SCHEMES), max_sentences=5,
            foreign: bool = True):
    """(scheme, mode, gold, pred, tokens, train_tokens, train_tags): random tags, with the
    predictions a random edit of the gold; in lenient mode, with ``foreign``, also tags
    whose prefix is not the scheme's."""
    scheme = draw(st.sampled_from(schemes))
    mode = draw(st.sampled_from(modes))
    tag = tag_strategy(scheme, mode, foreign)
    lengths = draw(st.lists(st.integers(0, 8), min_size=1, max_size=max_sentences))
    gold = [draw(st.lists(tag, min_size=n, max_size=n)) for n in lengths]
    pred = [[draw(tag) if draw(st.booleans()) else t for t in s] for s in gold]
    tokens = [draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)) for n in lengths]
    train_lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=3))
    train_tokens = [draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
                    for n in train_lengths]
    train_tags = [draw(st.lists(tag_strategy(scheme, "strict"), min_size=n, max_size=n))
                  for n in train_lengths]
    return scheme, mode, gold, pred, tokens, train_tokens, train_tags


def run(family: str, gold, pred, tokens, train_tokens, train_tags, scheme, mode, **options):
    """The family's ``to_dict()`` on these inputs."""
    if family == "nerspan":
        return nerspan.score(gold, pred, scheme=scheme, mode=mode, **options).to_dict()
    if family == "faireval":
        return faireval.score(gold, pred, scheme=scheme, mode=mode, **options).to_dict()
    module = {"tough_mentions": tough_mentions, "hardeval": hardeval,
              "attribute_buckets": attribute_buckets}[family]
    return module.score(gold, pred, tokens=tokens, train=(train_tokens, train_tags), scheme=scheme, mode=mode, **options).to_dict()


OPTIONS = {
    "nerspan": st.fixed_dictionaries({"zero_division": st.sampled_from([0, 1])}),
    "tough_mentions": st.fixed_dictionaries({"case_sensitive": st.booleans()}),
    "hardeval": st.fixed_dictionaries({"error_labels": st.sampled_from(hardeval.ERROR_LABELS),
                                       "strict_diff": st.booleans()}),
    "faireval": st.fixed_dictionaries({
        "weights": st.sampled_from([None, "weighted"]),
        "focus": st.sampled_from(["target", "system"]),
        "reference_iteration": st.booleans()}),
    "attribute_buckets": st.one_of(
        st.fixed_dictionaries({"n_buckets": st.integers(2, 5),
                               "lowercase": st.booleans(),
                               "options": st.fixed_dictionaries({   # its record's (0.2)
                                   "frequency_norm": st.sampled_from(["ratio", "rank5"])})}),
        st.fixed_dictionaries({"n_buckets": st.integers(2, 5),
                               "compat": st.just("interpreteval")})),
}
FAMILIES = list(OPTIONS)


def n_mentions(gold, scheme, mode) -> int:
    return nerspan.score(gold, gold, scheme=scheme, mode=mode).n_gold


# -- identity ------------------------------------------------------------------------------
def assert_perfect(family: str, d: dict, mentions: int, options: dict) -> None:
    if family == "nerspan":
        zd = options["zero_division"]
        values = [d[k] for k in ("precision", "recall", "f1", "macro_precision", "macro_recall",
                                 "macro_f1", "weighted_precision", "weighted_recall",
                                 "weighted_f1")]
        assert values == [1.0] * 9 if mentions or zd == 1 else values == [0.0] * 9
        assert all(row["f1"] == 1.0 for row in d["per_type"].values())
    elif family == "tough_mentions":
        assert d["recall"] == (1.0 if mentions else 0.0) and d["precision"] == d["recall"]
        for key, value in d.items():
            if key.startswith("recall_"):
                assert value in (None, 1.0), key
    elif family == "hardeval":
        assert all(row["errors"] == 0 for row in d["subsets"].values())
        assert d["hardeval"] in (None, 0.0) and d["ter"] == 0.0 or d["subsets"]["all"]["empty"]
    elif family == "faireval":
        counts = d["counts"]
        assert counts["TP"] == mentions_in(d)
        assert all(counts[k] == 0 for k in ("FP", "FN", "LE", "BE", "LBE"))
        expected = 1.0 if counts["TP"] else None  # no span at all: F1 undefined
        assert d["traditional_f1"] == d["fair_f1"] == expected
        assert d["f1"] == (expected or 0.0)  # the headline: nerspan's zero division
    else:
        assert d["f1"] == (1.0 if mentions else 0.0)
        for rows in d["buckets"].values():
            for row in rows:
                assert row["precision"] in (None, 1.0) and row["correct"] == row["predicted"]
                if options.get("compat") is None:
                    assert row["f1"] in (None, 1.0) and row["correct"] == row["gold"]
        # compat="interpreteval" reproduces the reference code, which cuts the predicted
        # values by intervals open at the low end where the gold ones are closed
        # ("gold_interval"), so a predicted mention on a gold bucket's lower edge is
        # dropped: bucket recall can fall below 1 there, precision cannot.


def mentions_in(d: dict) -> int:
    return d["traditional_counts"]["TP"] + d["traditional_counts"]["FN"]


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_identity_gives_perfect_scores_and_no_error(family, data):
    scheme, mode, gold, _, tokens, train_tokens, train_tags = data.draw(corpora())
    options = data.draw(OPTIONS[family])
    d = run(family, gold, [list(s) for s in gold], tokens, train_tokens, train_tags, scheme,
            mode, **options)
    assert_perfect(family, d, n_mentions(gold, scheme, mode), options)


# -- permutation ---------------------------------------------------------------------------
def numbers(value, path=()):
    """Every number of a result dict by its path, less the sentence indices."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "sentences":
                yield from numbers(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from numbers(item, path + (i,))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path, value


def same_numbers(a: dict, b: dict) -> None:
    left, right = dict(numbers(a)), dict(numbers(b))
    assert left.keys() == right.keys()
    for key in left:
        assert math.isclose(left[key], right[key], rel_tol=1e-12, abs_tol=1e-12), key


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=30, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2 ** 16))
def test_permuting_sentences_changes_nothing(family, data, seed):
    scheme, mode, gold, pred, tokens, train_tokens, train_tags = data.draw(corpora())
    options = data.draw(OPTIONS[family])
    order = list(range(len(gold)))
    random.Random(seed).shuffle(order)
    before = run(family, gold, pred, tokens, train_tokens, train_tags, scheme, mode, **options)
    after = run(family, [gold[i] for i in order], [pred[i] for i in order],
                [tokens[i] for i in order], train_tokens, train_tags, scheme, mode, **options)
    same_numbers(before, after)


# -- an all-O sentence ---------------------------------------------------------------------
# The entity scores of each family (and hardeval's error counts: it scores tokens, so its
# rates may change with more correct O tokens, its errors may not).
def entity_numbers(family: str, d: dict) -> dict:
    if family == "hardeval":
        return {name: row["errors"] for name, row in d["subsets"].items()}
    if family == "attribute_buckets":
        out = {k: d[k] for k in ("precision", "recall", "f1")}
        for attribute, rows in d["buckets"].items():
            if d["attributes"][attribute]["unit"] == "mention":  # tokens: more O tokens
                out[attribute] = [(r["gold"], r["predicted"], r["correct"], r["f1"]) for r in rows]
        return out
    if family == "faireval":
        return {k: v for k, v in d.items() if k != "options"}
    d = dict(d)
    d.pop("repairs", None)  # sentence indices shift
    d.pop("options", None)
    return d


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=30, deadline=None)
@given(data=st.data(), where=st.integers(0, 5), length=st.integers(1, 6))
def test_an_all_o_sentence_changes_no_entity_score(family, data, where, length):
    scheme, mode, gold, pred, tokens, train_tokens, train_tags = data.draw(corpora())
    options = data.draw(OPTIONS[family])
    where = min(where, len(gold))
    o_sentence = ["O"] * length

    def insert(sentences, item):
        return sentences[:where] + [item] + sentences[where:]

    before = run(family, gold, pred, tokens, train_tokens, train_tags, scheme, mode, **options)
    after = run(family, insert(gold, o_sentence), insert(pred, o_sentence),
                insert(tokens, ["the"] * length), train_tokens, train_tags, scheme, mode,
                **options)
    # every mention keeps its attribute values (sentence ones included) and the new
    # sentence has none, so even the bucket edges stay
    same_numbers(entity_numbers(family, before), entity_numbers(family, after))


# -- zero_division = seqeval's -------------------------------------------------------------
def seqeval_scores(gold, pred, scheme, mode, zero_division):
    from seqeval.metrics import classification_report

    options = {"mode": "strict", "scheme": SEQEVAL_SCHEMES[scheme]} if mode == "strict" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return classification_report(gold, pred, output_dict=True, zero_division=zero_division,
                                     **options)


@settings(max_examples=150, deadline=None)
@given(corpora(schemes=("IOB2", "IOB1", "IOE2", "IOBES", "BILOU"), max_sentences=3,
               foreign=False),
       st.sampled_from([0, 1]))
def test_zero_division_equals_seqeval(case, zero_division):
    scheme, mode, gold, pred, *_ = case
    if mode == "lenient" and scheme not in ("IOB2", "IOB1", "IOE2", "IOBES"):
        mode = "strict"  # seqeval's default mode reads BILOU's L and U as nothing
    ours = nerspan.score(gold, pred, scheme=scheme, mode=mode, zero_division=zero_division)
    theirs = seqeval_scores(gold, pred, scheme, mode, zero_division)
    d = ours.to_dict()
    assert set(d["per_type"]) == set(theirs) - {"micro avg", "macro avg", "weighted avg"}
    for name, row in d["per_type"].items():
        assert (row["precision"], row["recall"], row["f1"]) == pytest.approx(
            (theirs[name]["precision"], theirs[name]["recall"], theirs[name]["f1-score"]))
    for average in ("micro", "macro", "weighted"):
        mine = (d["precision"], d["recall"], d["f1"]) if average == "micro" else tuple(
            d[f"{average}_{k}"] for k in ("precision", "recall", "f1"))
        row = theirs[f"{average} avg"]
        expected = (row["precision"], row["recall"], row["f1-score"])
        if average == "macro" and not d["per_type"]:
            # seqeval averages nothing into NaN; nerspan gives zero_division (documented)
            assert all(math.isnan(x) for x in expected)
            assert mine == (float(zero_division),) * 3
            continue
        assert mine == pytest.approx(expected), average


@settings(max_examples=40, deadline=None)
@given(corpora(schemes=("IOB2", "IOB1", "IOE2", "IOBES"), max_sentences=3, foreign=False))
def test_family_entity_scores_equal_seqeval_with_zero_division_0(case):
    """Every family that restates entity-level P/R/F1 does it with seqeval's numbers and
    its convention for undefined ratios, zero_division=0 (METHODS.md section 0)."""
    scheme, mode, gold, pred, tokens, train_tokens, train_tags = case
    row = seqeval_scores(gold, pred, scheme, mode, 0)["micro avg"]
    expected = pytest.approx((row["precision"], row["recall"], row["f1-score"]))
    data = (gold, pred, tokens, train_tokens, train_tags, scheme, mode)
    for family in ("tough_mentions", "attribute_buckets", "faireval"):
        d = run(family, *data)
        assert (d["precision"], d["recall"], d["f1"]) == expected, family
        # faireval's own traditional_* rows: the same numbers, None where undefined
        if family == "faireval":
            mine = (d["traditional_precision"], d["traditional_recall"], d["traditional_f1"])
            assert all(m is not None or e == 0 for m, e in zip(mine, expected.expected))
            assert tuple(0.0 if m is None else m for m in mine) == expected
