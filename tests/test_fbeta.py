"""F-beta (``beta``): equal to seqeval's ``precision_recall_fscore_support(..., beta=B)``
on random tag sequences, undefined cases included; the key names beta; beta=1 adds
nothing; every family reports it beside its F1."""
from __future__ import annotations

import math
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import nerspan
import tough_mentions
from nerspan.fbeta import BETA_RANGE, check_beta, fbeta_key, with_fbeta

seqeval_metrics = pytest.importorskip("seqeval.metrics.sequence_labeling")

TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC",
        "B-ORG", "S-ORG"]
BETAS = (0.5, 2.0, 0.25, 3.0, 1.5, 0.1)
sentences = st.lists(st.integers(0, 6), min_size=0, max_size=5)


@st.composite
def tag_pairs(draw):
    """Gold and predicted tags of the same lengths; often few or no mentions at all, so
    that precision, recall or both are undefined."""
    lengths = draw(st.lists(st.integers(0, 7), min_size=1, max_size=5))
    vocabulary = draw(st.sampled_from([TAGS, ["O"], ["O", "B-PER", "I-PER"], TAGS[:5]]))
    pred_vocabulary = draw(st.sampled_from([TAGS, ["O"], ["O", "S-LOC", "B-ORG"]]))
    gold = [[draw(st.sampled_from(vocabulary)) for _ in range(n)] for n in lengths]
    pred = [[draw(st.sampled_from(pred_vocabulary)) for _ in range(n)] for n in lengths]
    return gold, pred


def seqeval_prf(gold, pred, beta, average, zero_division):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return seqeval_metrics.precision_recall_fscore_support(
            gold, pred, beta=beta, average=average, zero_division=zero_division)


def close(a, b) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


@settings(max_examples=300, deadline=None)
@given(tag_pairs(), st.sampled_from(BETAS), st.sampled_from([0, 1]))
def test_fbeta_equals_seqeval_on_random_tags(pair, beta, zero_division):
    gold, pred = pair
    got = nerspan.score(gold, pred, scheme="IOBES",
                        zero_division=zero_division).to_dict(beta=beta)
    key = fbeta_key(beta)
    if not any(tag != "O" for tags in gold + pred for tag in tags):
        # no type at all: seqeval's macro is a mean of nothing (NaN), ours zero_division
        micro = seqeval_prf(gold, pred, beta, "micro", zero_division)
        assert close(got[key], micro[2])
        return
    for average, prefix in (("micro", ""), ("macro", "macro_"), ("weighted", "weighted_")):
        p, r, f, _ = seqeval_prf(gold, pred, beta, average, zero_division)
        assert close(got[prefix + "precision"], p) and close(got[prefix + "recall"], r)
        assert close(got[prefix + key], f), (average, got[prefix + key], f)
    p, r, f, support = seqeval_prf(gold, pred, beta, None, zero_division)
    assert list(got["per_type"]) == sorted(got["per_type"])
    for k, row in enumerate(got["per_type"].values()):
        assert close(row[key], f[k]) and row["support"] == support[k]


def test_beta_1_adds_nothing_and_the_key_names_beta():
    gold, pred = [["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]]
    plain = nerspan.score(gold, pred).to_dict()
    assert nerspan.score(gold, pred).to_dict(beta=1) == plain
    assert nerspan.score(gold, pred).to_dict(beta=1.0) == plain
    assert "beta" not in plain["options"]
    out = nerspan.score(gold, pred).to_dict(beta=0.5)
    assert out["options"]["beta"] == 0.5
    assert [k for k in out if "f0" in k] == ["f0.5", "macro_f0.5", "weighted_f0.5"]
    # the key sits right after its F1
    keys = list(out)
    assert keys[keys.index("f1") + 1] == "f0.5"
    assert [fbeta_key(b) for b in (2, 2.0, 0.5, 1.25, 10, 0.1)] == \
        ["f2", "f2", "f0.5", "f1.25", "f10", "f0.1"]
    # by hand: P = 1/2, R = 1/2 per type... overall P = 1/2 (1 of 2), R = 1/2 (1 of 2)
    assert close(out["f0.5"], 0.5)
    skewed = nerspan.score([["B-PER", "O", "B-LOC", "O"]],
                           [["B-PER", "O", "O", "O"]]).to_dict(beta=2)
    # P = 1, R = 1/2: F2 = 5 * 1 * 0.5 / (4 * 1 + 0.5) = 2.5 / 4.5
    assert close(skewed["f2"], 2.5 / 4.5)


@pytest.mark.parametrize("beta", [0, -1, float("inf"), float("nan")])
def test_bad_beta_is_refused(beta):
    with pytest.raises(ValueError, match="beta must be a number > 0"):
        nerspan.score([["B-PER"]], [["B-PER"]]).to_dict(beta=beta)


def test_beta_is_bounded_where_its_square_stops_being_a_float():
    """At the bounds F-beta equals seqeval's; past the upper one seqeval itself fails
    (its square overflows), past the lower one the square is 0 and F-beta would be the
    precision: both refused, with the bound and its reason."""
    low, high = BETA_RANGE
    gold, pred = [["B-PER", "O", "B-LOC", "O"]], [["B-PER", "O", "O", "B-ORG"]]
    for beta in (low, high):
        got = nerspan.score(gold, pred).to_dict(beta=beta)[fbeta_key(beta)]
        assert close(got, seqeval_prf(gold, pred, beta, "micro", 0)[2])
    with pytest.raises(OverflowError):
        seqeval_prf(gold, pred, 1e200, "micro", 0)
    assert (1e-200) ** 2 == 0.0
    for beta, message in ((1e200, r"at most 1e\+150 .*overflows a float\), not 1e\+200"),
                          (high * 1.01, r"at most 1e\+150"),
                          (1e-200, r"at least 1e-150 .*F-beta would be the precision\), "
                                   r"not 1e-200"),
                          (low / 1.01, r"at least 1e-150")):
        with pytest.raises(ValueError, match=rf"^beta must be {message}"):
            nerspan.score(gold, pred).to_dict(beta=beta)


@settings(max_examples=100, deadline=None)
@given(st.floats(BETA_RANGE[0], BETA_RANGE[1]))
def test_every_beta_in_range_gives_a_number_in_0_1(beta):
    gold, pred = [["B-PER", "O", "B-LOC", "O"]], [["B-PER", "O", "O", "B-ORG"]]
    value = nerspan.score(gold, pred).to_dict(beta=beta)[fbeta_key(beta)]
    assert 0 <= value <= 1 and math.isfinite(value)


@pytest.mark.parametrize("beta", ["2", True, None, [2]])
def test_beta_of_the_wrong_type_is_refused(beta):
    with pytest.raises(TypeError, match="beta must be a number > 0"):
        check_beta(beta)


def test_with_fbeta_keeps_undefined_rows_undefined():
    row = {"precision": None, "recall": None, "f1": None,
           "fair_precision": None, "fair_recall": 0.0, "fair_f1": 0.0,
           "macro_precision": 0.5, "macro_recall": 0.5, "macro_f1": 0.2}
    out = with_fbeta(dict(row), 2)
    assert out["f2"] is None and out["fair_f2"] == 0.0
    assert "macro_f2" not in out   # a mean of F-betas, not F of the means


FAMILY_INPUT = ([["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"]],
                [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "O", "O"]])


def fbeta_pairs(out, key):
    """Every (F1, F-beta, P, R) of a result dict, nested ones included."""
    found = []
    if isinstance(out, list):
        for item in out:
            found += fbeta_pairs(item, key)
    elif isinstance(out, dict):
        for name, value in out.items():
            if isinstance(value, (dict, list)):
                found += fbeta_pairs(value, key)
            elif name == "f1" or name.endswith("_f1"):
                stem = name[:-2]
                if f"{stem}precision" in out and not stem.startswith(("macro_", "weighted_")):
                    found.append((name, out.get(fbeta_key(2, stem), "missing"),
                                  out[f"{stem}precision"], out[f"{stem}recall"], value))
    return found


def test_every_family_reports_fbeta_beside_its_f1():
    # hardeval reports token error rates, no F1: it takes no beta
    gold, pred = FAMILY_INPUT
    tokens = [["w"] * len(tags) for tags in gold]
    train = dict(train=(tokens, gold))
    entity = nerspan.score(gold, pred).to_dict(beta=2)
    results = {
        "faireval": faireval.score(gold, pred, schemas="semeval",
                                   weights="weighted").to_dict(beta=2),
        "tough_mentions": tough_mentions.score(gold, pred, tokens=tokens,
                                               **train).to_dict(beta=2),
        "attribute_buckets": attribute_buckets.score(gold, pred, tokens=tokens,
                                                     **train).to_dict(beta=2),
    }
    for family, out in results.items():
        pairs = fbeta_pairs(out, 2)
        assert pairs, family
        for name, fb, p, r, f1 in pairs:
            assert fb != "missing", (family, name)
            if f1 is None:
                assert fb is None
            elif p is None or r is None:
                assert fb == 0.0
            else:
                expected = 5 * p * r / (4 * p + r) if 4 * p + r else 0.0
                assert close(fb, expected), (family, name)
        # the headline F-beta is nerspan's exact-match one
        assert close(out["f2"], entity["f2"]), family
        assert out["options"]["beta"] == 2.0
