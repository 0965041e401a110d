"""nerlens through evaluate against a seqeval-style evaluate module, one run.

    python -m benchmarks.bench_evaluate [--sentences 50000]

Both modules take the same lists of tag strings through ``evaluate.load(...).compute``,
so both pay evaluate's encoding of the inputs to Arrow. Prints the time of each, their
ratio, and how much of nerlens's time is spent inside evaluate rather than in the
library call (``faireval.score`` timed alone on the same lists).
"""
from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

from benchmarks.synthetic import make_corpus

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def timed(function):
    gc.collect()
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=50_000)
    args = parser.parse_args(argv)

    import evaluate

    import faireval

    _, gold, pred = make_corpus(args.sentences)
    nerlens_module = evaluate.load(str(REPO / "metrics" / "faireval"))
    seqeval_module = evaluate.load(str(HERE / "seqeval_style"))

    t_nerlens, result = timed(lambda: nerlens_module.compute(predictions=pred, references=gold))
    t_seqeval, reference = timed(lambda: seqeval_module.compute(predictions=pred, references=gold))
    t_library, _ = timed(lambda: faireval.score(gold, pred))
    inside_evaluate = max(t_nerlens - t_library, 0.0)
    numbers = {"sentences": args.sentences, "nerlens_evaluate_s": t_nerlens,
               "seqeval_style_evaluate_s": t_seqeval, "faireval_score_s": t_library,
               "speedup": t_seqeval / t_nerlens,
               "share_inside_evaluate": inside_evaluate / t_nerlens}
    print(f"{args.sentences} sentences, {sum(map(len, gold))} tokens")
    print(f"evaluate.load('metrics/faireval').compute   {t_nerlens:8.3f} s")
    print(f"seqeval-style evaluate module .compute     {t_seqeval:8.3f} s")
    print(f"  -> nerlens is {numbers['speedup']:.1f}x faster through evaluate")
    print(f"faireval.score alone                       {t_library:8.3f} s")
    print(f"  -> {numbers['share_inside_evaluate']:.0%} of nerlens's evaluate time is spent in "
          "evaluate itself (input encoding, Arrow cache)")
    # the same traditional F1 as seqeval on these inputs, or the comparison is meaningless
    print(f"traditional F1 {result['traditional_f1']:.6f} vs seqeval {reference['overall_f1']:.6f}")
    return numbers


if __name__ == "__main__":
    main()
