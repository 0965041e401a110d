"""The sentence bootstrap (coverage, pairing) and the memorisation baseline."""
from __future__ import annotations

import numpy as np
import pytest

import nerlens
import nerspan
from nerlens.baseline import with_memorisation_baseline
from nerspan import Corpus
from nerspan.bootstrap import (Statistic, f1_statistic, percentile_interval, probability_better,
                               ratio_statistic, resample, sample_weights)


def test_weights_resample_every_sentence_count():
    weights = sample_weights(50, n_samples=30, seed=3)
    assert weights.shape == (30, 50)
    assert np.all(weights.sum(axis=1) == 50)
    assert np.array_equal(weights, sample_weights(50, n_samples=30, seed=3))


def one_product(statistics, weights) -> np.ndarray:
    """``resample`` as it was: the whole weight matrix copied to float64, one product."""
    blocks = [np.asarray(s.counts, float).reshape(len(s.counts), -1) for s in statistics]
    totals = np.asarray(weights, dtype=float) @ np.concatenate(blocks, axis=1)
    out, column = np.empty((len(weights), len(statistics))), 0
    for i, (statistic, block) in enumerate(zip(statistics, blocks)):
        out[:, i] = statistic.function(totals[:, column:column + block.shape[1]])
        column += block.shape[1]
    return out


@pytest.mark.parametrize("batch_cells", [1, 700, 7_000, 20_000_000])
def test_batches_of_resamples_give_the_values_of_one_product_bit_for_bit(monkeypatch,
                                                                         batch_cells):
    rng = np.random.default_rng(11)
    n = 70
    mentions = rng.integers(0, 6, size=(n, 3))
    shares = rng.integers(0, 9, size=(n, 3)) / 4   # FairEval's fair counts: quarters
    statistics = [Statistic("f1", mentions, f1_statistic, 1),
                  Statistic("ratio", mentions[:, :2], ratio_statistic, 1),
                  Statistic("fair", shares, f1_statistic, 1)]
    weights = sample_weights(n, n_samples=97, seed=4)
    assert weights.dtype == np.float32   # read as float64 a batch at a time, never whole
    monkeypatch.setattr("nerspan.bootstrap.BATCH_CELLS", batch_cells)
    got = resample(statistics, weights)
    np.testing.assert_array_equal(got, one_product(statistics, weights))


def test_report_intervals_do_not_depend_on_the_batches(monkeypatch):
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"], ["O", "B-LOC", "I-LOC"]] * 9
    pred = [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "B-PER"], ["O", "B-LOC", "O"]] * 9
    tokens = [[f"w{k}" for k in range(len(s))] for s in gold]

    def intervals():
        report = nerlens.build_report(gold, {"a": pred, "b": gold}, tokens=tokens,
                                families=["faireval"], bootstrap=60, seed=5, figures=False)
        return report.intervals, report.comparisons
    whole = intervals()
    monkeypatch.setattr("nerspan.bootstrap.BATCH_CELLS", 30)   # resamples one at a time
    assert intervals() == whole


def test_coverage_on_a_system_with_known_error_rate():
    """A synthetic system errs on each token with probability 0.2: the 95% interval of its
    token error rate contains 0.2 for at least 90 of 100 seeds."""
    true_rate, covered = 0.2, 0
    for seed in range(100):
        rng = np.random.default_rng(seed)
        lengths = rng.integers(5, 25, size=300)
        errors = rng.binomial(lengths, true_rate)
        counts = np.stack([errors, lengths], axis=1)
        rate = Statistic("error_rate", counts, ratio_statistic, int(lengths.sum()))
        values = resample([rate], sample_weights(len(counts), n_samples=300, seed=seed))
        ci = percentile_interval(values[:, 0], rate.estimate())
        covered += ci.low <= true_rate <= ci.high
    assert covered >= 90


def test_paired_probability():
    rng = np.random.default_rng(0)
    gold = rng.integers(1, 4, size=200)
    good = np.stack([gold, gold, gold], axis=1)              # perfect system
    poor = np.stack([gold // 2, gold, gold], axis=1)         # finds half
    weights = sample_weights(len(gold), n_samples=200, seed=0)   # the same resamples
    good_f1, poor_f1 = resample([Statistic("f1", good, f1_statistic, int(gold.sum())),
                                 Statistic("f1", poor, f1_statistic, int(gold.sum()))],
                                weights).T
    assert probability_better(good_f1, poor_f1) == 1.0
    assert probability_better(poor_f1, good_f1) == 0.0
    assert probability_better(good_f1, good_f1) == 0.5
    assert probability_better(good_f1, poor_f1, higher_is_better=False) == 0.0


def test_entity_counts_per_sentence_add_up_to_the_scores():
    refs = [["B-PER", "O"], ["B-LOC", "I-LOC"], ["O", "O"]]
    preds = [["B-PER", "O"], ["B-LOC", "O"], ["B-ORG", "O"]]
    corpus = Corpus.from_tags(refs, preds)
    table = nerspan.LabelTable.build(corpus.labels, nerspan.get_scheme("IOB2"))
    gold = nerspan.decode(corpus, "gold", labels=table)
    pred = nerspan.decode(corpus, "pred", labels=table)
    counts = nerspan.scores.sentence_counts(gold, pred, corpus.n_sentences)
    assert counts.tolist() == [[1, 1, 1], [0, 1, 1], [0, 1, 0]]
    assert f1_statistic(counts.sum(0, keepdims=True))[0] == pytest.approx(
        nerspan.scores.entity_scores(gold, pred).micro()[2])


def test_memorisation_baseline():
    train = nerspan.as_train_index(
        ([["Paris", "is", "in", "France"], ["Paris", "Hilton"], ["Paris", "again"]], [["B-LOC", "O", "O", "B-LOC"], ["B-PER", "I-PER"], ["B-LOC", "O"]]))
    test = Corpus.from_tags([["B-LOC", "O", "B-PER", "I-PER"]],
                            tokens=[["Paris", "unseen", "Hilton", "France"]])
    corpus = with_memorisation_baseline(train, test)
    # Paris: B-LOC twice, B-PER once; unseen: O; Hilton: I-PER; France: B-LOC
    assert corpus.tags("memorisation", 0) == ["B-LOC", "O", "I-PER", "B-LOC"]
    assert corpus.tags("gold", 0) == ["B-LOC", "O", "B-PER", "I-PER"]
