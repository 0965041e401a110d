"""Type processing (keep, remove, map: seqscore's ``process``) as the types grow.

    python -m benchmarks.bench_type_processing [--sentences 20000]
                                               [--types 1000 2000 5000 10000 20000]
                                               [--repeat 3]

One synthetic corpus per type count (``benchmarks.synthetic``: the same sentences and
errors, only the number of entity types changes; about 43,000 gold mentions, so nearly
every type occurs at 20,000). ``nerspan.score(gold, pred)`` with a ``type_map`` of one
entry per type (each renamed) and ``remove_types`` of every tenth type, against the same
call without them in the same run (best of ``--repeat``): the time processing adds, its
ratio to scoring alone, and the exponent k of time ~ types^k (least squares over the
log-log points): about 1 or below when the cost is linear in the types (scoring's own
fixed cost keeps it below 1 at these sizes). Before, a mention's new type was looked up in
a dict rebuilt from the whole map at every call, and new types were searched in a tuple
(types x map entries).

2026-11-28, 2 shared cores (load about 4), defaults: 1,000 / 2,000 / 5,000 / 10,000 /
20,000 types (1,000 / 2,000 / 4,989 / 9,488 / 15,421 occur, each mapped) processed in
0.19 / 0.22 / 0.34 / 0.39 / 0.51 s on top of scoring's 0.09-0.16 s: exponent 0.37 (the
whole call 0.29). The code before, in the same shape (``--repeat 1``): 0.43 / 1.9 / 23.5
/ 86 / 210 s, exponent 2.32.
"""
from __future__ import annotations

import argparse
import math

import nerspan
from benchmarks.common import best_time
from benchmarks.synthetic import make_corpus


def exponent(sizes, seconds) -> float:
    """k of ``seconds ~ sizes^k``: the least-squares slope of the log-log points."""
    xs, ys = [math.log(s) for s in sizes], [math.log(max(t, 1e-9)) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / spread if spread else 0.0


def options_for(gold) -> dict:
    """A type_map renaming every type of gold, and every tenth type removed."""
    present = sorted({tag[2:] for tags in gold for tag in tags if tag != "O"})
    return {"type_map": {t: f"{t}_mapped" for t in present},
            "remove_types": [f"{t}_mapped" for t in present[::10]]}


# a run of a few seconds, for tests/test_benchmarks.py (benchmarks/README.md)
SMALL = ["--sentences", "500", "--types", "50", "100", "--repeat", "1"]


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=20_000)
    parser.add_argument("--types", type=int, nargs="+", default=[1000, 2000, 5000, 10_000,
                                                                   20_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    print(f"{'types':>7} {'occur':>7} {'plain s':>8} {'processed s':>11} {'added s':>8} "
          f"{'ratio':>6}")
    for n_types in args.types:
        _, gold, pred = make_corpus(args.sentences, types=tuple(f"T{i}" for i in range(n_types)))
        options = options_for(gold)
        plain = best_time(lambda: nerspan.score(gold, pred), args.repeat)
        processed = best_time(lambda: nerspan.score(gold, pred, inputs=options), args.repeat)
        row = {"types": n_types, "occur": len(options["type_map"]), "plain": plain,
               "processed": processed, "added": max(processed - plain, 1e-9)}
        rows.append(row)
        print(f"{n_types:>7} {row['occur']:>7} {plain:>8.3f} {processed:>11.3f} "
              f"{row['added']:>8.3f} {processed / plain:>6.2f}")
    if len(rows) > 1:
        sizes = [row["occur"] for row in rows]
        print(f"exponent (time ~ types^k): processing {exponent(sizes, [r['added'] for r in rows]):.2f}, "
              f"the whole call {exponent(sizes, [r['processed'] for r in rows]):.2f}")
    return rows


if __name__ == "__main__":
    main()
