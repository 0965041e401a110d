"""The sweep over scored mentions (``nerspan.sweeps``) against one ``nerspan.score``.

    python -m benchmarks.bench_sweep [--mentions 1000000] [--repeat 3]

A synthetic corpus of sentences of 12 tokens, 4 predicted mentions each (a confidence
drawn uniformly, 80% of them correct), gold tags per sentence and the predictions as span
lists, as users hold them. Timed in the same run, best of ``--repeat``:

- ``score``: ``nerspan.score(gold tags, predicted (start, end, label) spans)``, one
  operating point;
- ``sweep``: reading the same spans with their scores (``scored_spans``), decoding gold,
  and the sweep: the micro and per-type curves at every distinct confidence, average
  precision, the best thresholds and the calibration table (``to_dict`` is not timed: a
  million points as JSON lists is the caller's choice);
- ``core``: the same two without reading: ``entity_scores`` of decoded spans against
  ``sweep_spans`` of read scored mentions and the same numbers.

The curve's last point (every mention kept) is checked equal to ``nerspan.score`` first.
Target (issue 40): ``sweep`` <= 3x ``score``.

2026-11-28, 2 shared cores (load about 3), 1,000,000 mentions, best of 3: score 2.77 s,
sweep 4.87 s (1.76x; 1.59x in a run at load 5); core: 0.050 s against 0.343 s (6.8x), of
which the sort of the confidences is 0.04 s. Reading the scored spans is most of the
sweep: the spans go through the same reader as ``nerspan.score``'s, their scores are
split off and checked first.
"""
from __future__ import annotations

import argparse

import numpy as np

import nerspan
from benchmarks.common import best_time
from nerspan import Corpus, decode
from nerspan.schemes import get_scheme
from nerspan.scored import scored_spans
from nerspan.scores import entity_scores
from nerspan.spans import LabelTable
from nerspan.sweeps import sweep_spans

TYPES = ("PER", "LOC", "ORG", "MISC")
SLOTS = 4          # predicted mentions per sentence, one per 3 tokens
LENGTH = 3 * SLOTS
# a run of a few seconds, for tests/test_benchmarks.py (benchmarks/README.md)
SMALL = ["--mentions", "20000", "--repeat", "1"]


def make_scored(n_mentions: int, seed: int = 0) -> tuple[list, list, list]:
    """``(gold tags, spans, scored spans)``: per sentence, 4 predicted mentions of 1-2
    tokens at tokens 0, 3, 6, 9; 80% of gold slots hold a mention of 2 tokens, and a
    prediction matches it unless its end or type was changed (20% each)."""
    rng = np.random.default_rng(seed)
    n = max(1, n_mentions // SLOTS)
    shape = (n, SLOTS)
    gold_type = rng.integers(len(TYPES), size=shape)
    has_gold = rng.random(shape) < 0.8
    pred_type = np.where(rng.random(shape) < 0.8, gold_type, rng.integers(len(TYPES),
                                                                           size=shape))
    pred_size = np.where(rng.random(shape) < 0.8, 2, 1)
    score = rng.random(shape).tolist()
    gold, spans, scored = [], [], []
    for i in range(n):
        tags = ["O"] * LENGTH
        for k in range(SLOTS):
            if has_gold[i, k]:
                name = TYPES[gold_type[i, k]]
                tags[3 * k], tags[3 * k + 1] = "B-" + name, "I-" + name
        gold.append(tags)
        row = [(3 * k, 3 * k + int(pred_size[i, k]), TYPES[pred_type[i, k]])
               for k in range(SLOTS)]
        spans.append(row)
        scored.append([(*span, s) for span, s in zip(row, score[i])])
    return gold, spans, scored


def whole_sweep(gold_tags, scored):
    gold = decode(Corpus.from_tags(gold_tags))
    return computed(sweep_spans(gold, scored_spans(scored)))


def computed(sweep):
    """Every number of the sweep but its JSON form."""
    _ = (sweep.curve.f1, sweep.average_precision, sweep.best_threshold, sweep.calibration,
         {t: (c.f1, c.average_precision) for t, c in sweep.type_curves.items()},
         sweep.best_thresholds())
    return sweep


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mentions", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    gold_tags, spans, scored = make_scored(args.mentions)
    one = nerspan.score(gold_tags, spans)
    sweep = whole_sweep(gold_tags, scored)
    assert len(sweep.confidence) == one.n_predicted == SLOTS * len(gold_tags)
    assert sweep.curve.f1[-1] == one.micro()[2] and sweep.curve.gold == one.n_gold
    assert sweep.at(0.0).to_dict() == one.to_dict()
    both = Corpus.from_tags(gold_tags, as_tags(spans, gold_tags))
    table = LabelTable.build(both.labels, get_scheme("IOB2"))
    gold, predicted = decode(both, "gold", labels=table), decode(both, "pred", labels=table)
    mentions = scored_spans(scored)
    assert entity_scores(gold, predicted).micro() == one.micro()
    times = {
        "score": best_time(lambda: nerspan.score(gold_tags, spans), args.repeat),
        "sweep": best_time(lambda: whole_sweep(gold_tags, scored), args.repeat),
        "core score": best_time(lambda: entity_scores(gold, predicted), args.repeat),
        "core sweep": best_time(lambda: computed(sweep_spans(gold, mentions)), args.repeat),
    }
    print(f"{len(sweep.confidence):,} scored mentions in {len(gold_tags):,} sentences, "
          f"{len(sweep.curve):,} distinct confidences (best of {args.repeat})")
    for name, seconds in times.items():
        print(f"  {name:<12} {seconds:8.3f} s")
    ratios = {"sweep / score": times["sweep"] / times["score"],
              "core sweep / core score": times["core sweep"] / times["core score"]}
    for name, ratio in ratios.items():
        print(f"  {name:<24} {ratio:6.2f}x")
    return {**times, **ratios}


def as_tags(spans, gold_tags) -> list[list[str]]:
    """The predicted spans as IOB2 tags (they never overlap here)."""
    out = []
    for row, tags in zip(spans, gold_tags):
        predicted = ["O"] * len(tags)
        for start, end, name in row:
            predicted[start] = "B-" + name
            for k in range(start + 1, end):
                predicted[k] = "I-" + name
        out.append(predicted)
    return out


if __name__ == "__main__":
    main()
