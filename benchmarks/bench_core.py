"""Entity-level scoring speed: nerlens against seqeval, nervaluate and seqscore, one run.

    python -m benchmarks.bench_core [--sentences 50000] [--repeat 3] [--systems 15]

Inputs for everyone are lists of tag strings per sentence (what users hold); each
timing includes the scorer's own conversion of those lists. Prints tokens per second, the
ratio of every peer's time to nerlens's lenient time, and peak memory (tracemalloc) of
nerlens and seqeval; nerlens's lenient F1 is checked equal to seqeval's ``f1_score``
first. Also times the 15 real CoNLL-2003 outputs when ../shared/data has them.
"""
from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from pathlib import Path

import nerspan
from benchmarks.common import add_systems_argument
from benchmarks.synthetic import make_corpus

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "300", "--repeat", "1", "--systems", "1"]


def peers():
    """name -> function(gold, pred) for every peer that imports."""
    found = {}
    try:
        from seqeval.metrics import classification_report, f1_score
        from seqeval.scheme import IOB2
        found["seqeval f1_score"] = lambda g, p: f1_score(g, p)
        found["seqeval f1_score strict"] = lambda g, p: f1_score(g, p, mode="strict", scheme=IOB2)
        found["seqeval classification_report"] = lambda g, p: classification_report(g, p, output_dict=True)
        found["seqeval classification_report strict"] = lambda g, p: classification_report(
            g, p, output_dict=True, mode="strict", scheme=IOB2)
    except ImportError:
        print("seqeval not installed: skipped")
    try:
        from nervaluate import Evaluator

        def nervaluate_run(g, p):
            types = sorted({t[2:] for s in g for t in s if t != "O"})
            return Evaluator(g, p, tags=types, loader="list").evaluate()
        found["nervaluate"] = nervaluate_run
    except ImportError:
        print("nervaluate not installed: skipped")
    try:
        from seqscore.scoring import score_label_sequences
        found["seqscore (repair conlleval)"] = lambda g, p: score_label_sequences(
            p, g, "BIO", repair="conlleval")
    except ImportError:
        print("seqscore not installed: skipped")
    return found


def best_time(function, gold, pred, repeat):
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        function(gold, pred)
        times.append(time.perf_counter() - start)
    return min(times)


def peak_memory(function, gold, pred):
    gc.collect()
    tracemalloc.start()
    function(gold, pred)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def run(gold, pred, repeat, title):
    n_tokens = sum(map(len, gold))
    print(f"\n== {title}: {len(gold)} sentences, {n_tokens} tokens (best of {repeat})")
    ours = {
        "nerlens lenient": lambda g, p: nerspan.score(g, p).micro(),
        "nerlens strict": lambda g, p: nerspan.score(g, p, mode="strict").micro(),
    }
    timings = {name: best_time(f, gold, pred, repeat) for name, f in ours.items()}
    found = peers()
    if "seqeval f1_score" in found:   # the same number, or the times compare nothing
        assert abs(ours["nerlens lenient"](gold, pred)[2]
                   - found["seqeval f1_score"](gold, pred)) < 1e-12
    for name, f in found.items():
        timings[name] = best_time(f, gold, pred, 1 if "nervaluate" in name else repeat)
    base = timings["nerlens lenient"]
    print(f"{'scorer':40s} {'seconds':>9s} {'tokens/s':>12s} {'x nerlens':>10s}")
    for name, seconds in timings.items():
        print(f"{name:40s} {seconds:9.3f} {n_tokens / seconds:12,.0f} {seconds / base:10.1f}")
    fastest_peer = min((s for n, s in timings.items() if not n.startswith("nerlens")), default=None)
    if fastest_peer:
        print(f"fastest peer / nerlens lenient: {fastest_peer / base:.1f}x")
    return timings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    add_systems_argument(parser)
    args = parser.parse_args(argv)
    _, gold, pred = make_corpus(args.sentences)
    timings = run(gold, pred, args.repeat, "synthetic corpus")
    ours = peak_memory(lambda g, p: nerspan.score(g, p).micro(), gold, pred)
    try:
        from seqeval.metrics import f1_score
        theirs = peak_memory(f1_score, gold, pred)
        print(f"peak memory: nerlens {ours / 2**20:.1f} MiB, seqeval f1_score {theirs / 2**20:.1f} MiB "
              f"(ratio {ours / theirs:.2f})")
    except ImportError:
        print(f"peak memory: nerlens {ours / 2**20:.1f} MiB")
    systems = sorted((DATA / "conll03" / "systems").glob("*.txt"))[:args.systems]
    if systems:
        corpora = [nerspan.read_system_file(path) for path in systems]
        lists = [([c.tags("gold", i) for i in range(c.n_sentences)],
                  [c.tags("pred", i) for i in range(c.n_sentences)]) for c in corpora]
        print(f"\n== CoNLL-2003: {len(systems)} real systems")
        start = time.perf_counter()
        for g, p in lists:
            nerspan.score(g, p).to_dict()
        ours = time.perf_counter() - start
        try:
            from seqeval.metrics import classification_report
            start = time.perf_counter()
            for g, p in lists:
                classification_report(g, p, output_dict=True)
            theirs = time.perf_counter() - start
            print(f"nerlens score ({len(systems)} systems): {ours:.3f} s; seqeval "
                  f"classification_report: {theirs:.3f} s; ratio {theirs / ours:.1f}x")
        except ImportError:
            print(f"nerlens score ({len(systems)} systems): {ours:.3f} s")
    return timings


if __name__ == "__main__":
    main()
