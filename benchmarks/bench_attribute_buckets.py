"""attribute_buckets speed on the real CoNLL-2003 data, against seqeval's classification_report.

    python -m benchmarks.bench_attribute_buckets [--repeat 3]

The 15 system outputs are read once into lists of strings per sentence (what users
hold). attribute_buckets' time covers reading and indexing the training file once, then
all eight attributes for all 15 systems from those lists (each call converts its lists,
decodes, computes every attribute and buckets it; no bootstrap); seqeval's time covers
``classification_report`` alone on the same 15 systems. Prints both times and their
ratio (seqeval / attribute_buckets); skips when ../shared/data is absent.
"""
from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

import attribute_buckets
import nerspan

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


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


def run_attribute_buckets(train_path: Path, systems: dict) -> dict:
    index = nerspan.as_train_index(str(train_path))
    out = {}
    for name, (tokens, gold, pred) in systems.items():
        result = attribute_buckets.score(gold, pred, tokens=tokens, train=index)
        assert len(result.tables) == 8
        out[name] = result.f1
    return out


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


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
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
    ours = best_time(lambda: run_attribute_buckets(train, systems), args.repeat)
    print(f"  attribute_buckets (index training set + 8 attributes x {len(systems)} systems): "
          f"{ours:8.3f} s")
    try:
        import seqeval  # noqa: F401
    except ImportError:
        print("  seqeval not installed: no comparison")
        return 0
    theirs = best_time(lambda: run_seqeval(systems), args.repeat)
    print(f"  seqeval classification_report ({len(systems)} systems):"
          f"{'':28}{theirs:8.3f} s")
    print(f"  ratio seqeval / attribute_buckets: {theirs / ours:.1f}x "
          f"({'attribute_buckets faster' if ours < theirs else 'attribute_buckets SLOWER'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
