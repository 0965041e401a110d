"""Undefined numbers in an experiment (issue 28): never in a test, never shown as "no run".

An undefined statistic (recall on unseen mentions when every mention is seen, hardeval's
score without unseen or label-shifted tokens) is NaN in a report's estimates and None in
JSON. The Wilcoxon test leaves such pairs out (and does not count them); a test without a
defined p-value (a Friedman test over runs that are all tied) is reported as undefined;
Holm's correction counts only defined p-values, whatever their order. The page and the
terminal mark an undefined number and a system without a run on a dataset differently.
"""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerlens
from attribute_buckets import analysis
from nerlens.demo import demo_gold, demo_train
from nerspan import GOLD, read_columns
from nerspan.significance import friedman, holm, result_or_reason, wilcoxon

NAN = float("nan")


def test_wilcoxon_leaves_out_pairs_with_an_undefined_score():
    a = [0.1, NAN, 0.3, 0.5, None, 0.6, 0.2]
    b = [0.2, 0.5, 0.1, 0.4, 0.3, 0.3, 0.6]
    test = wilcoxon(a, b)
    defined = wilcoxon([0.1, 0.3, 0.5, 0.6, 0.2], [0.2, 0.1, 0.4, 0.3, 0.6])
    assert test == defined and test["n_pairs"] == 5 and math.isfinite(test["pvalue"])
    with pytest.raises(ValueError, match="at least 2 paired scores"):
        wilcoxon([NAN, NAN, 0.2], [0.1, 0.2, 0.3])


def test_friedman_over_tied_runs_is_undefined_not_nan():
    with pytest.raises(ValueError, match="undefined"):
        friedman([[0.5, 0.5, 0.5], [0.7, 0.7, 0.7]])
    runs = [{"buckets": {"eLen": [{"f1": f} for f in (0.5, 0.5, 0.5)]}}] * 2
    test = result_or_reason(analysis.friedman_buckets, runs, "eLen")
    assert test["pvalue"] is None and "undefined" in test["error"]


def test_holm_does_not_count_an_undefined_p_value():
    # a NaN sorted first used to make every later adjusted p 1.0, and m counted it
    assert holm({"nan": NAN, "a": 0.01, "b": 0.04}) == {"nan": None, "a": 0.02, "b": 0.04}
    assert holm({"a": 0.01, "nan": NAN, "b": 0.04}) == holm({"a": 0.01, "b": 0.04,
                                                              "nan": None})


P_VALUES = st.one_of(st.none(), st.just(NAN), st.floats(0, 1),
                     st.sampled_from([0.0, 0.01, 0.04, 0.05, 1.0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(P_VALUES, max_size=12), st.randoms(use_true_random=False))
def test_holm_properties(pvalues, rng):
    raw = {f"t{i}": p for i, p in enumerate(pvalues)}
    adjusted = holm(raw)
    defined = {k: p for k, p in raw.items() if p is not None and not math.isnan(p)}
    assert set(adjusted) == set(raw)
    for key, p in raw.items():
        if key not in defined:
            assert adjusted[key] is None, key
            continue
        value = adjusted[key]
        assert value is not None and not math.isnan(value)
        assert 0 <= value <= 1 and value >= p - 1e-12
        assert value <= min(1.0, len(defined) * p) + 1e-12
    # monotone: a smaller raw p never gets a larger adjusted p
    for a in defined:
        for b in defined:
            if defined[a] <= defined[b]:
                assert adjusted[a] <= adjusted[b], (a, b)
    # the order of the tests does not matter
    keys = list(raw)
    rng.shuffle(keys)
    assert holm({k: raw[k] for k in keys}) == adjusted
    # an undefined test is not counted: leaving it out changes no adjusted p
    assert {k: v for k, v in adjusted.items() if k in defined} == holm(defined)


def _slice(tokens, tags, start, stop):
    return tokens[start:stop], tags[start:stop]


@pytest.fixture(scope="module")
def unseen_undefined():
    """An experiment in which recall on unseen mentions is undefined on one dataset
    (trained on its own test set: every mention is seen) and defined on the other, where
    a third system has its only runs."""
    corpus = read_columns(demo_gold(), {GOLD: -1})
    tokens = [corpus.sentence_tokens(i) for i in range(corpus.n_sentences)]
    gold = [corpus.tags(GOLD, i) for i in range(corpus.n_sentences)]

    def runs(tags, seed):
        rng = random.Random(seed)
        return [[[t if rng.random() > share else "O" for t in s] for s in tags]
                for share in (0.2, 0.3, 0.4)]

    from nerspan import Corpus
    seen_tokens, seen_gold = _slice(tokens, gold, 0, 150)
    other_tokens, other_gold = _slice(tokens, gold, 150, 300)
    datasets = {
        "seen": {"gold": seen_gold, "tokens": seen_tokens,
                 "train": Corpus.from_tags(seen_gold, tokens=seen_tokens),
                 "systems": {"a": runs(seen_gold, 1), "b": runs(seen_gold, 2)}},
        "unseen": {"gold": other_gold, "tokens": other_tokens, "train": str(demo_train()),
                   "systems": {"a": runs(other_gold, 3), "b": runs(other_gold, 4),
                               "c": runs(other_gold, 5)}}}
    return nerlens.run_experiment(datasets, bootstrap=0, figures=False,
                              families=("tough_mentions",))


def test_experiment_wilcoxon_leaves_undefined_runs_out(unseen_undefined):
    exp = unseen_undefined
    seen = exp.reports["seen"]
    assert all(math.isnan(seen.estimates[c]["tough_mentions.recall_unseen_any"])
               for c in exp.runs["seen"]["a"])
    test = exp.wilcoxon["a vs b"]["tough_mentions.recall_unseen_any"]
    entity = exp.wilcoxon["a vs b"]["entity_f1"]
    assert entity["n_pairs"] == 6
    assert test["n_pairs"] == 3           # the three runs of the dataset where it is defined
    assert test["pvalue"] is not None and math.isfinite(test["pvalue"])
    stat = "tough_mentions.recall_unseen_any"
    adjusted = holm({pair: tests[stat]["pvalue"] for pair, tests in exp.wilcoxon.items()})
    for pair, tests in exp.wilcoxon.items():
        assert tests[stat]["pvalue_holm"] == adjusted[pair] is not None
        assert not math.isnan(tests[stat]["pvalue_holm"])
    json_text = exp.to_json()
    assert "NaN" not in json_text


def test_page_marks_no_run_and_undefined_apart(unseen_undefined):
    import re

    exp = unseen_undefined
    page = exp.to_html()
    tile = page.split("<h4>recall on unseen mentions</h4>")[1].split("</table>")[0]
    rows = {re.search(r"<td>(\w+)</td>", row).group(1): row
            for row in tile.split("<tr>")[1:] if "<td>" in row}
    # columns: system, seen (undefined: every mention seen), unseen (defined)
    assert re.findall(r"<td>(.*?)</td>", rows["a"])[1] == "&ndash;"
    assert re.findall(r"<td>(.*?)</td>", rows["c"])[1] == "<span class='note'>no run</span>"
    assert "no run = the system has no run on that dataset; &ndash; = undefined in every " \
        "run" in page
    assert "&ndash; = the system has no run" not in page


def test_summary_marks_no_run_and_undefined_apart(unseen_undefined):
    summary = unseen_undefined.summary()
    row = next(line for line in summary.splitlines() if line.startswith("c "))
    assert row.split()[1:3] == ["no", "run"]
    assert "no run = the system has no run on that dataset; - = undefined in every run" \
        in " ".join(summary.split())
