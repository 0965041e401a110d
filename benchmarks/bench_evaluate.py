"""Each evaluate module's ``compute`` against its family's ``score`` and against a no-op
module with the same features, in one run.

    python -m benchmarks.bench_evaluate [--sentences 50000] [--repeat 3]
                                        [--families faireval hardeval ...]

The synthetic corpus (``benchmarks.synthetic``: lists of tag strings, and of words for the
families that take them; training data of half as many sentences given to
``evaluate.load`` and indexed there once) goes, per module of ``metrics/``, to:

- ``evaluate.load("metrics/<family>").compute(...)``;
- the family's ``score(...).to_dict()`` on the same lists (the training index built
  before), what a user calls without evaluate;
- a no-op module with the module's features (``benchmarks/noop_module``): its
  ``compute`` is what evaluate itself costs on these inputs (checking and encoding them
  into Arrow, writing and reading the cache, decoding them to Python lists), the floor
  a module stands on; and the same with the garbage collector paused around it.

Best of ``--repeat`` runs each, interleaved. Prints the times and the ratios compute /
score and compute / no-op; the module's result is checked equal to the family's first.
Then the faireval module against a seqeval-style module (evaluate's published
``seqeval``: ``classification_report`` on the decoded lists), the same F1 checked first.

Issue 37 (2 shared cores, load 4-5; 20,000 sentences, 300k tokens, best of 5; main at
228e979, then this code, one after the other):

==================  ===============  ===============  ========================
module              compute / score  compute / no-op  compute / no-op, paused
==================  ===============  ===============  ========================
faireval            3.43 -> 2.53     1.47 -> 0.94     1.73 -> 1.02
hardeval            3.60 -> 2.15     1.36 -> 0.87     1.63 -> 1.19
tough_mentions      4.44 -> 2.70     1.41 -> 0.86     1.65 -> 1.06
attribute_buckets   2.71 -> 1.81     1.81 -> 1.17     2.12 -> 1.35
==================  ===============  ===============  ========================

At 50,000 sentences (best of 3, load 3-5) compute / no-op went from 1.15-3.01 to
0.50-0.81 (1.01-1.28 against the no-op with the collector paused). What is left of
compute / score is evaluate's encoding of every sentence, which the no-op pays too;
attribute_buckets' own ``score`` is the rest of its ratio.
"""
from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

import nerspan
from benchmarks.synthetic import make_corpus

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FAMILIES = ("faireval", "hardeval", "tough_mentions", "attribute_buckets")
# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "300", "--repeat", "1"]


def best(functions: dict, repeat: int) -> dict:
    """name -> the fastest of ``repeat`` interleaved runs of each function, in seconds
    (collected before each run; ``"...paused"`` names run with the collector off)."""
    times = {name: float("inf") for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            gc.collect()
            paused = name.endswith("paused")
            if paused:
                gc.disable()
            try:
                start = time.perf_counter()
                function()
                times[name] = min(times[name], time.perf_counter() - start)
            finally:
                gc.enable()
    return times


def module_row(family: str, corpus: tuple, train: tuple, repeat: int) -> dict:
    """The times of one module, the family's score and the no-op module."""
    import evaluate

    from nerlens.families import family_package

    tokens, gold, pred = corpus
    needs_words = family != "faireval"     # faireval takes no words and no training data
    load = dict(train=(train[0], train[1])) if needs_words else {}
    given = dict(tokens=tokens) if needs_words else {}
    module = evaluate.load(str(REPO / "metrics" / family), **load)
    noop = evaluate.load(str(HERE / "noop_module"), features=module.features)
    index = nerspan.as_train_index(train=(train[0], train[1])) \
        if needs_words else None
    own = dict(tokens=tokens, train=index) if needs_words else {}
    score = family_package(family).score
    result = module.compute(predictions=pred, references=gold, **given)
    assert result == score(gold, pred, **own).to_dict(), f"{family}: module != score"
    return best({
        "compute": lambda: module.compute(predictions=pred, references=gold, **given),
        "score": lambda: score(gold, pred, **own).to_dict(),
        "no-op": lambda: noop.compute(predictions=pred, references=gold, **given),
        "no-op, collector paused": lambda: noop.compute(predictions=pred, references=gold,
                                                        **given)}, repeat)


def seqeval_row(corpus: tuple, repeat: int) -> dict | None:
    """The faireval module against the seqeval-style module (None: no seqeval)."""
    import evaluate

    try:
        seqeval_module = evaluate.load(str(HERE / "seqeval_style"))
    except ImportError:
        return None
    _, gold, pred = corpus
    nerlens_module = evaluate.load(str(REPO / "metrics" / "faireval"))
    ours = nerlens_module.compute(predictions=pred, references=gold)
    theirs = seqeval_module.compute(predictions=pred, references=gold)
    assert abs(ours["traditional_f1"] - theirs["overall_f1"]) < 1e-12
    return best({"faireval module": lambda: nerlens_module.compute(predictions=pred,
                                                                  references=gold),
                 "seqeval-style module": lambda: seqeval_module.compute(
                     predictions=pred, references=gold)}, repeat)


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=FAMILIES)
    args = parser.parse_args(argv)
    corpus = make_corpus(args.sentences)
    train_tokens, train_tags, _ = make_corpus(args.sentences // 2, seed=1)
    print(f"{args.sentences} sentences, {sum(map(len, corpus[1]))} tokens; best of "
          f"{args.repeat}, seconds")
    rows = {}
    for family in args.families:
        times = rows[family] = module_row(family, corpus, (train_tokens, train_tags),
                                          args.repeat)
        paused = times["no-op, collector paused"]
        print(f"{family:18s} compute {times['compute']:.3f}  score {times['score']:.3f}  "
              f"no-op {times['no-op']:.3f} (collector paused {paused:.3f})  compute / score "
              f"{times['compute'] / times['score']:.2f}  compute / no-op "
              f"{times['compute'] / times['no-op']:.2f} (paused "
              f"{times['compute'] / paused:.2f})")
    versus = seqeval_row(corpus, args.repeat)
    if versus is not None:
        rows["seqeval"] = versus
        ours, theirs = versus["faireval module"], versus["seqeval-style module"]
        print(f"faireval module {ours:.3f} against a seqeval-style module {theirs:.3f}: "
              f"{theirs / ours:.1f}x faster")
    return rows


if __name__ == "__main__":
    main()
