"""What the benchmarks share: timing, the real CoNLL-2003 outputs, seqeval as the yardstick."""
from __future__ import annotations

import argparse
import gc
import importlib.util
import time
from pathlib import Path
from typing import Callable

import nerspan

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CONLL03_TRAIN = DATA / "conll03" / "train.txt"
CONLL03_SYSTEMS = DATA / "conll03" / "systems"


def best_time(function: Callable, repeat: int, clock: Callable = time.perf_counter) -> float:
    """The fastest of ``repeat`` runs, in seconds of ``clock`` (wall time; or
    ``time.process_time``, this process's CPU time, steadier on a shared machine),
    garbage collected before each."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = clock()
        function()
        times.append(clock() - start)
    return min(times)


def load_systems(folder: Path = CONLL03_SYSTEMS, limit: int | None = None) -> dict:
    """name -> (tokens, gold, pred), each a list of lists of strings (what users hold), of
    the first ``limit`` outputs (None: all)."""
    systems = {}
    for path in sorted(folder.glob("*.txt"))[:limit]:
        corpus = nerspan.read_system_file(path)
        sentences = range(corpus.n_sentences)
        systems[path.stem] = ([corpus.sentence_tokens(i) for i in sentences],
                              [corpus.tags("gold", i) for i in sentences],
                              [corpus.tags("pred", i) for i in sentences])
    return systems


def add_systems_argument(parser) -> None:
    """``--systems N``: only the first N of the 15 CoNLL-2003 outputs (a small run)."""
    parser.add_argument("--systems", type=int, default=None,
                        help="the first N of the CoNLL-2003 outputs (default: all 15)")


def seqeval_reports(systems: dict) -> dict:
    """seqeval's ``classification_report`` (default mode) on every system."""
    from seqeval.metrics import classification_report

    return {name: classification_report(gold, pred, output_dict=True)
            for name, (_, gold, pred) in systems.items()}


def compare_on_conll03(description: str, label: str,
                       run: Callable[[Path, dict], object], argv=None) -> int:
    """Time ``run(train_path, systems)`` (which must index the training file itself) and
    seqeval's ``classification_report`` alone on the 15 CoNLL-2003 outputs, in one run;
    print both and their ratio. Skips when ../shared/data is absent."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repeat", type=int, default=3)
    add_systems_argument(parser)
    args = parser.parse_args(argv)
    if not (CONLL03_TRAIN.exists() and CONLL03_SYSTEMS.exists()):
        print(f"skipped: shared data not found under {DATA}")
        return 0
    systems = load_systems(limit=args.systems)
    n_tokens = sum(sum(map(len, gold)) for _, gold, _ in systems.values())
    print(f"CoNLL-2003: training file + {len(systems)} systems ({n_tokens} test tokens in "
          f"all), best of {args.repeat}")
    ours = best_time(lambda: run(CONLL03_TRAIN, systems), args.repeat)
    print(f"  {label}: {ours:8.3f} s")
    if importlib.util.find_spec("seqeval") is None:
        print("  seqeval not installed: no comparison")
        return 0
    theirs = best_time(lambda: seqeval_reports(systems), args.repeat)
    print(f"  seqeval classification_report ({len(systems)} systems): {theirs:8.3f} s")
    name = label.split(" ")[0]
    print(f"  ratio seqeval / {name}: {theirs / ours:.1f}x "
          f"({name + ' faster' if ours < theirs else name + ' SLOWER'})")
    return 0
