"""How the cost grows with the size of three inputs that once cost more than linear
time: the exponent of a fit of log time against log size, printed for each.

    python -m benchmarks.bench_scaling [--shapes types chain document] [--scale 1.0]
                                       [--repeat 2]

- ``types``: a corpus of 3,000 synthetic sentences (``benchmarks.synthetic``) whose
  mentions take 250 to 2,000 entity types: the scores and ``Evaluation.confusion`` to JSON,
  ``attribute_buckets`` on the type attribute (``tag``, a bucket per type) to JSON, and
  the report (every family, no figures, no bootstrap). Before issue 37 the confusion
  matrix held types x types cells (1,000 types: 10.8 MB of JSON) and the tag table
  summed sentences x buckets per bucket (a report at 3,000 types: 195 s).
- ``chain``: one document of n gold mentions side by side, its predictions shifted by a
  token, so that every prediction overlaps two gold mentions and all are linked in one
  chain: faireval's SemEval schemas with ``matching="optimal"`` (before: a dense
  matrix of the chain's spans squared, 8,000 mentions 1.1 GB).
- ``document``: one document of n tokens (words drawn from n / 2 of them, so that an
  entity text occurs about as often whatever n) and n / 10 generated entities (windows
  of 1-3 words, one in a hundred not in it), grounded (before: every entity searched
  the whole text at each level, about n^1.9).

An exponent near 1 (or below) is linear; ``--scale`` multiplies every size (a test runs
them small).

Issue 37, 2 shared cores at load 3-4, one run each. This branch, default sizes:
confusion 0.03-0.06 s (exponent 0.30), tag buckets 0.07-0.23 s (0.58), report 0.7-1.9 s
(0.44); chain optimal 0.28-1.92 s (0.91; greedy 1.09); document 0.27-3.06 s (1.18; in
CPU time alone 0.15, 0.30, 0.57, 1.35 s, about 1.4 spans per entity). Main before
(types 125-1,000 and chains 1,000-8,000, smaller: the larger did not fit): confusion
exponent 1.57, tag buckets 2.20 (14.5 s at 1,000 types), report 1.30; chain optimal
2.17 (31.9 s at 8,000); document 1.54 (47.9 s at 200,000 tokens).
"""
from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

import attribute_buckets
import faireval
import nerlens
import nerspan
from benchmarks.synthetic import make_corpus
from nerspan.generative import ground

SIZES = {"types": (250, 500, 1000, 2000), "chain": (2000, 4000, 8000, 16000),
         "document": (25_000, 50_000, 100_000, 200_000)}


def exponent(sizes, seconds) -> float:
    """The slope of log(seconds) against log(size): time ~ size ** slope."""
    return float(np.polyfit(np.log(sizes), np.log(np.maximum(seconds, 1e-6)), 1)[0])


def timed(function, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def types_shape(n_types: int, repeat: int, sentences: int = 3000) -> dict:
    types = tuple(f"T{k}" for k in range(n_types))
    tokens, gold, pred = make_corpus(sentences, types=types)
    half = len(tokens) // 2
    train = nerspan.Corpus.from_tags(gold[:half], tokens=tokens[:half])

    def report():
        nerlens.build_report(gold[half:], {"a": pred[half:]}, train, tokens=tokens[half:],
                       bootstrap=0, figures=False)
    return {
        "confusion": timed(lambda: json.dumps(confusion_and_scores(gold, pred)), repeat),
        "tag buckets": timed(lambda: json.dumps(attribute_buckets.score(
            gold, pred, attributes=["tag"]).to_dict()), repeat),
        "report": timed(report, repeat)}


def confusion_and_scores(gold, pred) -> dict:
    """The scores and the entity confusion matrix of one system (0.1's
    ``nerspan.score(confusion=True).to_dict()``)."""
    evaluation = nerspan.Evaluation.build(gold, pred)
    return {**evaluation.entity_scores("pred").to_dict(), "confusion": evaluation.confusion("pred")}


def chain_shape(n_mentions: int, repeat: int) -> dict:
    gold = [[("ENT", 2 * k, 2 * k + 2) for k in range(n_mentions)]]
    pred = [[("ENT", 2 * k + 1, 2 * k + 3) for k in range(n_mentions - 1)]]
    return {"optimal": timed(lambda: faireval.score(gold, pred, schemas="semeval",
                                                    pairing="optimal"), repeat),
            "greedy": timed(lambda: faireval.score(gold, pred, schemas="semeval"), repeat)}


def document_shape(n_tokens: int, repeat: int) -> dict:
    rng = random.Random(n_tokens)
    words = [f"w{rng.randrange(n_tokens // 2)}" for _ in range(n_tokens)]
    entities = []
    for k in range(n_tokens // 10):
        start = rng.randrange(n_tokens - 3)
        text = " ".join(words[start:start + rng.randint(1, 3)])
        entities.append([text if k % 100 else f"nowhere {k}", "LOC"])
    return {"ground": timed(lambda: ground([entities], tokens=[words]), repeat)}


SHAPES = {"types": types_shape, "chain": chain_shape, "document": document_shape}


def run(shape: str, scale: float, repeat: int) -> dict:
    sizes = [max(4, int(size * scale)) for size in SIZES[shape]]
    SHAPES[shape](sizes[0], 1)   # imports and first calls, untimed
    rows = [SHAPES[shape](size, repeat) for size in sizes]
    print(f"== {shape}: {', '.join(f'{size:,}' for size in sizes)}")
    exponents = {}
    for name in rows[0]:
        seconds = [row[name] for row in rows]
        exponents[name] = exponent(sizes, seconds)
        print(f"  {name:12s} " + " ".join(f"{s:8.3f}" for s in seconds)
              + f"  s   exponent {exponents[name]:.2f}")
    return exponents


# a run of a few seconds, for tests/test_benchmarks.py (benchmarks/README.md)
SMALL = ["--scale", "0.02", "--repeat", "1"]


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", choices=sorted(SHAPES), default=list(SHAPES))
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args(argv)
    return {shape: run(shape, args.scale, args.repeat) for shape in args.shapes}


if __name__ == "__main__":
    main()
