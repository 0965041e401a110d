"""tough_mentions speed on the real CoNLL-2003 data, against seqeval's classification_report.

    python -m benchmarks.bench_tough_mentions [--repeat 3]

The 15 system outputs are read once into lists of strings per sentence (what users
hold). tough_mentions's time covers reading and indexing the training file once, then
scoring all 15 systems from those lists (each call converts its lists, decodes, builds
the mention texts and classifies them); seqeval's time covers ``classification_report``
alone on the same 15 systems. Prints both times and their ratio (seqeval /
tough_mentions). Then shows that a second ``compute`` of the evaluate module with the
training data given at load time builds no index (``TrainIndex.build`` is counted).
Skips when ../shared/data is absent.
"""
from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

import nerspan
import tough_mentions

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
MODULE = Path(__file__).resolve().parents[1] / "metrics" / "tough_mentions"


def load_systems(folder: Path) -> dict:
    """name -> (tokens, gold, pred), each a list of lists of strings."""
    systems = {}
    for path in sorted(folder.glob("*.txt")):
        corpus = nerspan.read_system_file(path)
        sentences = range(corpus.n_sentences)
        systems[path.stem] = ([corpus.sentence_tokens(i) for i in sentences],
                              [corpus.tags("gold", i) for i in sentences],
                              [corpus.tags("pred", i) for i in sentences])
    return systems


def run_tough_mentions(train_path: Path, systems: dict) -> dict:
    index = nerspan.as_train_index(str(train_path))
    return {name: tough_mentions.score(gold, pred, tokens=tokens, train=index).to_dict()
            for name, (tokens, gold, pred) in systems.items()}


def run_seqeval(systems: dict) -> dict:
    from seqeval.metrics import classification_report
    return {name: classification_report(gold, pred, output_dict=True)
            for name, (_, gold, pred) in systems.items()}


def best_time(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def show_no_reindexing(train_path: Path, systems: dict) -> None:
    """Load the evaluate module with the training file; compute twice; count builds."""
    try:
        import evaluate
    except ImportError:
        print("  evaluate not installed: re-indexing check skipped")
        return
    builds = []
    original = nerspan.TrainIndex.build.__func__

    def counted(cls, *args, **kwargs):
        builds.append(time.perf_counter())
        return original(cls, *args, **kwargs)

    nerspan.TrainIndex.build = classmethod(counted)
    try:
        tokens, gold, pred = next(iter(systems.values()))
        start = time.perf_counter()
        metric = evaluate.load(str(MODULE), train=str(train_path), tokens=tokens)
        loaded = time.perf_counter() - start
        print(f"  evaluate.load with the training file: {loaded:.3f} s, "
              f"TrainIndex.build calls: {len(builds)}")
        for attempt in (1, 2):
            start = time.perf_counter()
            result = metric.compute(references=gold, predictions=pred)
            print(f"  compute #{attempt}: {time.perf_counter() - start:.3f} s "
                  f"(recall_unseen_any {result['recall_unseen_any']:.4f}), "
                  f"TrainIndex.build calls so far: {len(builds)}")
        print("  second compute re-indexed: " + ("NO" if len(builds) == 1 else "YES"))
    finally:
        nerspan.TrainIndex.build = classmethod(original)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-evaluate", action="store_true",
                        help="skip the evaluate module's re-indexing check (slow import)")
    args = parser.parse_args(argv)
    train = DATA / "conll03" / "train.txt"
    folder = DATA / "conll03" / "systems"
    if not (train.exists() and folder.exists()):
        print(f"skipped: shared data not found under {DATA}")
        return 0
    systems = load_systems(folder)
    n_tokens = sum(sum(map(len, gold)) for _, gold, _ in systems.values())
    print(f"CoNLL-2003: training file + {len(systems)} systems ({n_tokens} test tokens in all), "
          f"best of {args.repeat}")
    ours = best_time(lambda: run_tough_mentions(train, systems), args.repeat)
    print(f"  tough_mentions (index training set + score {len(systems)} systems): {ours:8.3f} s")
    try:
        import seqeval  # noqa: F401
    except ImportError:
        print("  seqeval not installed: no comparison")
    else:
        theirs = best_time(lambda: run_seqeval(systems), args.repeat)
        print(f"  seqeval classification_report ({len(systems)} systems):               "
              f"{theirs:8.3f} s")
        print(f"  ratio seqeval / tough_mentions: {theirs / ours:.1f}x "
              f"({'tough_mentions faster' if ours < theirs else 'tough_mentions SLOWER'})")
    if not args.no_evaluate:
        show_no_reindexing(train, systems)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
