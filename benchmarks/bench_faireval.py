"""faireval's speed against nerlens entity F1 on the same input, one run.

    python -m benchmarks.bench_faireval [--sentences 50000] [--repeat 3]
                                        [--long-tokens 20000 1000000]

Both timings start from lists of tag strings per sentence and include building the
corpus and decoding; the printed ratio is faireval's time over ``nerspan.score``'s (the
target is under 5). Also times the FairEval span files in ../shared/data when present,
and one long sentence (all tokens of a synthetic corpus in one sentence) against the
same tokens in their short sentences: time, and peak memory traced by ``tracemalloc``
(NumPy's buffers included) in a separate run, since tracing slows Python down; and, at
the same size, the worst case for candidate lists: one span over the whole sentence.
"""
from __future__ import annotations

import argparse
import time
import tracemalloc

import faireval
import nerspan
from benchmarks.common import DATA as SHARED_DATA
from benchmarks.common import best_time
from benchmarks.synthetic import make_corpus

DATA = SHARED_DATA / "faireval"

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "300", "--repeat", "1", "--long-tokens", "2000"]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--long-tokens", type=int, nargs="*", default=[20_000, 1_000_000],
                        help="sizes of the one-sentence runs, in tokens (none: skip them)")
    args = parser.parse_args(argv)

    tokens, gold, pred = make_corpus(args.sentences)
    n_tokens = sum(map(len, gold))
    entity = best_time(lambda: nerspan.score(gold, pred), args.repeat)
    fair = best_time(lambda: faireval.score(gold, pred), args.repeat)
    weighted = best_time(lambda: faireval.score(gold, pred, weights="weighted",
                                                reference_iteration=True), args.repeat)
    result = faireval.score(gold, pred).to_dict()
    print(f"synthetic corpus: {args.sentences} sentences, {n_tokens} tokens; "
          f"counts {result['counts']}")
    print(f"nerspan.score (entity F1):      {entity:.3f} s ({n_tokens / entity:,.0f} tokens/s)")
    print(f"faireval.score:                 {fair:.3f} s ({n_tokens / fair:,.0f} tokens/s)")
    print(f"faireval.score weighted, ref.:  {weighted:.3f} s")
    print(f"ratio faireval / entity F1: {fair / entity:.2f} (target < 5)")

    if (DATA / "target" / "chunk_spans.csv").exists():
        for name in ("ner", "chunk", "topofield"):
            start = time.perf_counter()
            target = faireval.read_span_file(DATA / "target" / f"{name}_spans.csv")
            system = faireval.read_span_file(DATA / "system" / f"{name}_spans.csv")
            read = time.perf_counter() - start
            matched = best_time(lambda: faireval.score(target, system), args.repeat)
            n = sum(map(len, target)) + sum(map(len, system))
            print(f"FairEval {name} span files: {n} spans, read {read:.3f} s, "
                  f"score {matched:.3f} s")

    for n_tokens in args.long_tokens:
        long_sentence(n_tokens, args.repeat)
        spanning_span(n_tokens, args.repeat)


def long_sentence(n_tokens: int, repeat: int) -> None:
    """One sentence of about ``n_tokens`` tokens against the same tokens in short ones."""
    _, gold, pred = make_corpus(max(1, n_tokens // 15))
    one_gold = [[tag for sentence in gold for tag in sentence]]
    one_pred = [[tag for sentence in pred for tag in sentence]]
    print(f"{len(one_gold[0]):,} tokens, {len(gold):,} sentences vs one sentence (counts "
          "differ a little: joining sentences joins a few spans, and the reference's skip "
          "runs on over the old sentence ends):")
    for name, g, p in (("short sentences", gold, pred), ("one sentence", one_gold, one_pred)):
        for reference in (False, True):
            seconds = best_time(lambda: faireval.score(g, p, reference_iteration=reference),
                                repeat)
            tracemalloc.start()
            counts = faireval.score(g, p, reference_iteration=reference).counts
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            label = f"{name}{', reference_iteration' if reference else ''}:"
            print(f"  {label:40} {seconds:7.3f} s, peak {peak / 2 ** 20:7.1f} MiB; "
                  f"TP {counts['TP']}, LE {counts['LE']}, BE {counts['BE']}, "
                  f"LBE {counts['LBE']}, FN {counts['FN']}, FP {counts['FP']}")


def spanning_span(n_tokens: int, repeat: int) -> None:
    """The worst case for candidate lists: one target span over the whole sentence, and a
    two-token system span every ten tokens inside it (each one a boundary error)."""
    target = [[("A", 0, n_tokens)]]
    system = [[("A", k, k + 2) for k in range(0, n_tokens - 1, 10)]]
    seconds = best_time(lambda: faireval.score(target, system), repeat)
    tracemalloc.start()
    counts = faireval.score(target, system).counts
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  {'one span over all ' + format(n_tokens, ',') + ' tokens:':40} {seconds:7.3f} s, "
          f"peak {peak / 2 ** 20:7.1f} MiB; BE {counts['BE']} of {len(system[0])} system spans")


if __name__ == "__main__":
    main()
