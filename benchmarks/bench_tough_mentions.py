"""tough_mentions speed on the real CoNLL-2003 data, against seqeval's classification_report.

    python -m benchmarks.bench_tough_mentions [--repeat 3] [--systems 15] [--no-evaluate]

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

import sys
import time
from pathlib import Path

import nerspan
import tough_mentions
from benchmarks.common import CONLL03_SYSTEMS, CONLL03_TRAIN, compare_on_conll03, load_systems

MODULE = Path(__file__).resolve().parents[1] / "metrics" / "tough_mentions"
# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--repeat", "1", "--systems", "1"]


def run_tough_mentions(train_path, systems: dict) -> dict:
    index = nerspan.as_train_index(str(train_path))
    return {name: tough_mentions.score(gold, pred, tokens=tokens, train=index).to_dict()
            for name, (tokens, gold, pred) in systems.items()}


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
        assert len(builds) == 1, "the module indexed the training data more than once"
    finally:
        nerspan.TrainIndex.build = classmethod(original)


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    check_evaluate = "--no-evaluate" not in argv  # skips the slow evaluate import
    argv = [a for a in argv if a != "--no-evaluate"]
    code = compare_on_conll03(__doc__.splitlines()[0], "tough_mentions (index training set "
                              "+ score 15 systems)", run_tough_mentions, argv)
    if check_evaluate and CONLL03_TRAIN.exists():
        show_no_reindexing(CONLL03_TRAIN, load_systems(CONLL03_SYSTEMS, limit=1))
    return code


if __name__ == "__main__":
    raise SystemExit(main())
