"""The Trainer helper's flat keys: every number of every family under stable names
(``detail="all"``), or each family's headline (the default).

Runs without torch: ``ComputeMetrics.compute`` is what the Trainer's call ends in.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import hardeval
import tough_mentions
from nerlens.families import get_family
from nerlens.trainer import flat_scalars, make_compute_metrics
from nerspan import as_train_index

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
TOKENS = [["John", "Smith", "visited", "Paris"], ["Acme", "hired", "Kim", "Lee"]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "B-PER", "I-PER"]]
PRED = [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O", "B-PER", "I-PER"]]
TRAIN_TOKENS = [["John", "Smith", "left", "Rome"], ["Paris", "Hilton", "smiled"]]
TRAIN_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "I-PER", "O"]]


@pytest.fixture(scope="module")
def logged():
    """What compute_metrics returns for the small example, with the families' own results."""
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    compute = make_compute_metrics(LABELS, eval_tokens=TOKENS, train=train, detail="all")
    ids = [[LABELS.index(tag) for tag in sentence] for sentence in GOLD]
    predicted = [[LABELS.index(tag) for tag in sentence] for sentence in PRED]
    direct = {name: module.score(GOLD, PRED, **({} if name == "faireval" else
                                               dict(tokens=TOKENS, train=train))).to_dict()
              for name, module in zip(FAMILIES, (faireval, tough_mentions, hardeval,
                                                 attribute_buckets))}
    return compute.compute(ids, predicted), direct


def test_nested_numbers_reach_the_logs_under_readable_names(logged):
    metrics, direct = logged
    buckets = {row["name"]: row for row in direct["attribute_buckets"]["buckets"]["eLen"]}
    expected = {
        "faireval_fair_f1": direct["faireval"]["fair_f1"],
        "faireval_counts_LE": direct["faireval"]["counts"]["LE"],
        "faireval_traditional_counts_FP": direct["faireval"]["traditional_counts"]["FP"],
        "faireval_per_type_PER_fair_f1": direct["faireval"]["per_type"]["PER"]["fair_f1"],
        "tough_mentions_recall_unseen_any": direct["tough_mentions"]["recall_unseen_any"],
        "tough_mentions_unseen_any_count": direct["tough_mentions"]["counts"]["unseen_any"],
        "tough_mentions_seen_hits": direct["tough_mentions"]["hits"]["seen"],
        "tough_mentions_per_type_PER_seen_count":
            direct["tough_mentions"]["per_type"]["PER"]["counts"]["seen"],
        "hardeval_ter_unseen": direct["hardeval"]["ter_unseen"],
        "hardeval_unseen_errors": direct["hardeval"]["subsets"]["unseen"]["errors"],
        "hardeval_unseen_o_tokens": direct["hardeval"]["subsets"]["unseen_o"]["tokens"],
        "attribute_buckets_f1": direct["attribute_buckets"]["f1"],
        "attribute_buckets_eLen_S_f1": buckets["S"]["f1"],
        "attribute_buckets_eLen_S_gold": buckets["S"]["gold"],
    }
    for name, value in expected.items():
        assert value is not None, name  # the example defines every one of these
        assert metrics[name] == pytest.approx(float(value), abs=1e-12), name
    # these numbers are not all alike: the example has errors of several kinds
    assert metrics["faireval_counts_LE"] == 1 and metrics["tough_mentions_seen_count"] == 1
    assert metrics["tough_mentions_all_count"] == 4
    assert all(isinstance(v, float) and math.isfinite(v) for v in metrics.values())


def test_every_defined_number_is_logged_and_undefined_ones_are_not(logged):
    metrics, direct = logged
    for family, result in direct.items():
        numbers = list(_leaf_numbers({k: v for k, v in result.items()
                                      if k not in ("options", "repairs")}))
        defined = [v for v in numbers if v is not None and math.isfinite(v)]
        logged_here = [k for k in metrics if k.startswith(family + "_")]
        assert len(logged_here) == len(defined), family
        if family != "faireval":  # faireval defines every number of this example
            assert sum(v is None for v in numbers) > 0, family
    # an empty subset has no recall: left out, never logged as 0
    assert direct["tough_mentions"]["recall_tcm_all"] is None
    assert "tough_mentions_recall_tcm_all" not in metrics
    buckets = {row["name"]: row for row in direct["attribute_buckets"]["buckets"]["eLen"]}
    assert buckets["XL"]["f1"] is None and "attribute_buckets_eLen_XL_f1" not in metrics
    assert not any(k.startswith(("faireval_options", "hardeval_options")) for k in metrics)


def _leaf_numbers(node):
    """Every number (or None) in a result; bucket rows contribute all but their name."""
    if isinstance(node, dict):
        for value in node.values():
            yield from _leaf_numbers(value)
    elif isinstance(node, list):
        for item in node:
            if isinstance(item, dict):
                yield from _leaf_numbers(item)
    elif node is None or (not isinstance(node, (bool, str))
                          and isinstance(node, (int, float)) or hasattr(node, "dtype")):
        yield None if node is None else float(node)


def test_two_numbers_with_one_name_are_an_error():
    with pytest.raises(ValueError, match="both named faireval_counts_LE"):
        flat_scalars("faireval", {"counts": {"LE": 1}, "counts_LE": 2})


@pytest.fixture(scope="module")
def headline(logged):
    """The default (``detail="headline"``) on the same example."""
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    compute = make_compute_metrics(LABELS, eval_tokens=TOKENS, train=train)
    ids = [[LABELS.index(tag) for tag in sentence] for sentence in GOLD]
    predicted = [[LABELS.index(tag) for tag in sentence] for sentence in PRED]
    return compute, compute.compute(ids, predicted)


def test_all_is_every_number_of_every_family(logged):
    # detail="all" is what the helper logged before the headline default: flat_scalars
    # of each family's whole result
    metrics, direct = logged
    every = {}
    for family, result in direct.items():
        every.update(flat_scalars(family, result))
    assert metrics == every


def test_the_default_logs_a_handful_per_family_under_the_same_names(logged, headline):
    metrics, _ = logged
    compute, default = headline
    assert compute.detail == "headline"
    # three entity types (PER, LOC, ORG), all four families: a few dozen charts at most
    assert len({t[2:] for s in GOLD + PRED for t in s if t != "O"}) == 3
    assert len(default) <= 40 < len(metrics)
    # a subset of "all", same names and numbers: switching detail renames nothing
    assert default == {name: metrics[name] for name in default}
    # every key to watch (metric_for_best_model) is logged when defined
    watched = [k for k in compute.headline_keys if k in metrics]
    assert watched and set(watched) <= set(default)
    # each family's headline is there: its own numbers, per type where it has types
    for family in FAMILIES:
        assert any(name.startswith(family + "_") for name in default), family
    for kind in ("PER", "LOC", "ORG"):
        assert f"faireval_per_type_{kind}_fair_f1" in default
    assert "faireval_counts_LE" not in default and "hardeval_unseen_errors" not in default


def test_the_headline_is_the_descriptors_paths(logged, headline):
    metrics, direct = logged
    _, default = headline
    for family in FAMILIES:
        logged_paths = get_family(family).logged
        chosen = flat_scalars(family, direct[family], keep=logged_paths.logs)
        assert chosen == {k: v for k, v in default.items() if k.startswith(family + "_")}
    assert get_family("faireval").logged.logs(("per_type", "PER", "fair_f1"))
    assert not get_family("faireval").logged.logs(("per_type", "PER", "fair_f1", "x"))
    assert not get_family("faireval").logged.logs(("counts", "LE"))


def test_detail_is_checked():
    with pytest.raises(ValueError, match="detail must be one of 'headline', 'all'"):
        make_compute_metrics(LABELS, metrics=["faireval"], detail="some")


TAGS = st.sampled_from(LABELS)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.tuples(TAGS, TAGS), min_size=1, max_size=6), min_size=1,
                max_size=4))
def test_the_headline_is_always_part_of_all(pairs):
    # whatever the tags: the default logs a subset of "all", same names, same numbers
    ids = [[LABELS.index(g) for g, _ in sentence] for sentence in pairs]
    predicted = [[LABELS.index(p) for _, p in sentence] for sentence in pairs]
    tokens = [[f"w{i}" for i in range(len(sentence))] for sentence in pairs]
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    every = make_compute_metrics(LABELS, eval_tokens=tokens, train=train, detail="all")
    default = make_compute_metrics(LABELS, eval_tokens=tokens, train=train)
    logged, headline = every.compute(ids, predicted), default.compute(ids, predicted)
    assert headline == {name: logged[name] for name in headline}
    assert len(headline) <= 40


def test_all_logs_the_sweep_of_the_logits_confidences_batched_or_not():
    """Given logits, detail="all" adds ``confidence_*``: the sweep (nerspan.sweeps) of the
    mentions decoded from them, each with its confidence (nerspan.scored.scored_tokens),
    the -100 positions dropped; batch by batch, the same numbers; the headline, none."""
    import numpy as np

    from nerspan import Corpus, decode
    from nerspan.scored import scored_tokens
    from nerspan.sweeps import sweep_spans

    rng = np.random.default_rng(7)
    logits = rng.normal(size=(2, 6, len(LABELS))) * 3
    labels = np.full((2, 6), -100)
    for row, sentence in enumerate(GOLD):
        labels[row, [0, 2, 3, 5]] = [LABELS.index(tag) for tag in sentence]  # sub-tokens
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    every = make_compute_metrics(LABELS, eval_tokens=TOKENS, train=train, detail="all")
    logged = every((logits, labels))
    sweep = sweep_spans(decode(Corpus.from_tags(GOLD)),
                        scored_tokens(logits, LABELS, label_ids=labels)).headline()
    confidence = {key: value for key, value in logged.items() if key.startswith("confidence_")}
    assert confidence == {f"confidence_{key}": sweep[key] for key in
                          ("average_precision", "best_threshold", "best_f1", "ece")
                          if sweep[key] is not None}
    assert {key: value for key, value in logged.items() if key not in confidence} == \
        every.compute(labels, logits.argmax(-1))
    assert every((logits[:1], labels[:1]), compute_result=False) == {}
    wider = (np.concatenate([logits[1:], np.zeros((1, 2, len(LABELS)))], axis=1),
             np.concatenate([labels[1:], np.full((1, 2), -100)], axis=1))  # padded wider
    assert every(wider, compute_result=True) == logged
    headline = make_compute_metrics(LABELS, eval_tokens=TOKENS, train=train)((logits, labels))
    assert not any(key.startswith("confidence_") for key in headline)
