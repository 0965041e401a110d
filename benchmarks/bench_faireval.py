"""faireval's speed against nerlens entity F1 on the same input, one run.

    python -m benchmarks.bench_faireval [--sentences 50000] [--repeat 3]

Both timings start from lists of tag strings per sentence and include building the
corpus and decoding; the printed ratio is faireval's time over ``nerspan.score``'s (the
target is under 5). Also times the FairEval span files in ../shared/data when present.
"""
from __future__ import annotations

import argparse
import time

import faireval
import nerspan
from benchmarks.common import DATA as SHARED_DATA
from benchmarks.common import best_time
from benchmarks.synthetic import make_corpus

DATA = SHARED_DATA / "faireval"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
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


if __name__ == "__main__":
    main()
