"""faireval's time and output size as the number of labels grows, against seqeval.

    python -m benchmarks.bench_faireval_labels [--sentences 20000] [--labels 10 100 1000 10000]
                                               [--repeat 3]

One synthetic corpus per label count (``benchmarks.synthetic``, the same sentences and
error rate; only the number of entity types changes). For each: ``faireval.score(gold,
pred).to_dict()`` and seqeval's ``classification_report(gold, pred, output_dict=True)``
timed in the same run (best of ``--repeat``), their ratio, and the size of faireval's
JSON result and of its ``error_confusion`` (bytes, and cells of its matrix). FairEval's
confusion of errors is counted from the errors and written as its non-zero cells only,
so time and size grow with the labels at most linearly (per label: its ``per_type`` row
and its ``FN`` / ``FP`` entries). Up to ``--dense-up-to`` labels, also the dense layout
written before (every cell of the ``(labels + 1)^2`` matrix as a dict, built from
``FairEvalResult.confusion_matrix``): its time on top of scoring and its JSON bytes; at
10,000 labels it would be 10^8 cells (0.8 GB as an array), not run.

2026-11-26, 2 shared cores (load 0.8), defaults (20,000 sentences, 3,662 errors; 9,581 of
the 10,000 types occur): faireval 0.064, 0.054, 0.103, 0.686 s at 10, 100, 1,000, 9,581
labels against seqeval's 1.90, 1.97, 2.06, 2.50 s (ratios 0.03, 0.03, 0.05, 0.27); JSON
result 692, 569, 522, 412 bytes per label; error_confusion 518 B, 5 KB, 40 KB, 259 KB
with 20, 200, 1,022, 1,380 matrix cells (at most the 3,662 errors). The dense layout
written before took 0.000, 0.002, 0.169 s more and 1.2 KB, 102 KB, 10.9 MB at 10, 100,
1,000 labels (x100 per x10 labels).
"""
from __future__ import annotations

import argparse
import json
import warnings

import faireval
from benchmarks.common import best_time
from benchmarks.synthetic import make_corpus

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "300", "--labels", "10", "100", "--repeat", "1"]


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=20_000)
    parser.add_argument("--labels", type=int, nargs="+", default=[10, 100, 1000, 10_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dense-up-to", type=int, default=1000)
    args = parser.parse_args(argv)
    from seqeval.metrics import classification_report

    rows = []
    print(f"{'labels':>7} {'faireval s':>10} {'seqeval s':>9} {'ratio':>6} "
          f"{'JSON bytes':>11} {'bytes/label':>11} {'confusion bytes':>15} {'cells':>6} "
          f"{'errors':>7} {'dense s':>8} {'dense bytes':>12}")
    for n_labels in args.labels:
        types = tuple(f"T{i}" for i in range(n_labels))
        _, gold, pred = make_corpus(args.sentences, types=types)
        fair = best_time(lambda: faireval.score(gold, pred).to_dict(), args.repeat)
        with warnings.catch_warnings():   # seqeval warns of labels never predicted
            warnings.simplefilter("ignore")
            seqeval = best_time(lambda: classification_report(gold, pred, output_dict=True),
                                args.repeat)
        result = faireval.score(gold, pred).to_dict()
        confusion = result["error_confusion"]
        size = len(json.dumps(result))
        row = {"labels": len(result["per_type"]), "faireval": fair, "seqeval": seqeval,
               "bytes": size, "confusion_bytes": len(json.dumps(confusion)),
               "cells": sum(len(cells) for cells in confusion["matrix"].values()),
               "errors": sum(result["counts"][k] for k in ("LE", "BE", "LBE", "FN", "FP"))}
        if row["labels"] <= args.dense_up_to:
            scored = faireval.score(gold, pred)
            row["dense"] = best_time(lambda: dense_confusion(scored), args.repeat)
            row["dense_bytes"] = len(json.dumps(dense_confusion(scored)))
        rows.append(row)
        print(f"{row['labels']:>7} {fair:>10.3f} {seqeval:>9.3f} {fair / seqeval:>6.2f} "
              f"{size:>11,} {size / row['labels']:>11,.0f} {row['confusion_bytes']:>15,} "
              f"{row['cells']:>6} {row['errors']:>7} "
              + (f"{row['dense']:>8.3f} {row['dense_bytes']:>12,}" if "dense" in row
                 else f"{'-':>8} {'-':>12}"))
    return rows


def dense_confusion(result) -> dict:
    """The confusion of errors as it was written before: every cell, zeros included."""
    labels, m, n = list(result.labels), result.confusion_matrix, len(result.labels)
    return {"matrix": {t: {s: int(m[i, j]) for j, s in enumerate(labels)}
                       for i, t in enumerate(labels)},
            "FN": {t: int(m[i, n]) for i, t in enumerate(labels)},
            "FP": {s: int(m[n, j]) for j, s in enumerate(labels)}}


if __name__ == "__main__":
    main()
