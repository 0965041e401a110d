"""Start-up of ``nerlens score`` against seqscore's, in one run.

    python -m benchmarks.bench_startup [--rounds 10]

Every row starts a fresh interpreter (this one's executable), as a user's command does,
and is timed on the wall clock; the rounds are interleaved and the best of each row kept.
Rows: the interpreter alone (``-c pass``) and ``import numpy`` (the floor nerlens stands
on; seqscore needs no NumPy), ``nerlens score --help`` against ``seqscore score
--help``, and ``nerlens score GOLD PRED`` against ``seqscore score --labels BIO
--reference GOLD PRED`` on a two-sentence file pair written to a temporary folder (the
F1 both print is checked equal first). Prints each time and the ratio nerlens /
seqscore.

Issue 37 (2 shared cores, load about 2, 10 rounds; the interpreter alone 0.04 s, with
NumPy 0.11 s): on main at 228e979, which imported every command's module, every family
and the report at start-up, ``nerlens score --help`` took 0.50 s against seqscore's
0.19 s (2.70x) and ``nerlens score GOLD PRED`` 0.51 s against 0.20 s (2.63x); with each
command importing its own module when it runs and ``nerlens score`` no family and
nothing of the report, 0.30 s against 0.20 s (1.50x) and 0.28 s against 0.19 s (1.48x).
What is left is nerspan's own import (about 0.12 s above NumPy's).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--rounds", "1"]

GOLD = "John\tB-PER\nlives\tO\nin\tO\nParis\tB-LOC\n\nAna\tB-PER\nmet\tO\nKim\tB-PER\n"
PRED = "John\tB-PER\nlives\tO\nin\tO\nParis\tB-ORG\n\nAna\tB-PER\nmet\tO\nKim\tO\n"
SEQSCORE = "import sys; from seqscore.scripts.seqscore import cli; sys.argv[0] = 'seqscore'; cli()"


def commands(gold: Path, pred: Path) -> dict:
    """Row name -> (nerlens argv, seqscore argv or None)."""
    python = sys.executable
    nerlens = [python, "-m", "nerlens"]
    seqscore = [python, "-c", SEQSCORE]
    return {
        "python -c pass": ([python, "-c", "pass"], None),
        "python -c 'import numpy'": ([python, "-c", "import numpy"], None),
        "score --help": (nerlens + ["score", "--help"], seqscore + ["score", "--help"]),
        "score GOLD PRED": (nerlens + ["score", str(gold), str(pred)],
                            seqscore + ["score", "--labels", "BIO", "--reference", str(gold),
                                        str(pred)]),
    }


def run(argv: list) -> tuple[float, str]:
    """Wall time of one run of ``argv`` (from the repository's root, so that this
    checkout's nerlens is the one imported) and its output."""
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout


def nerlens_f1(output: str) -> str:
    """The F1 of conlleval's summary line (``accuracy: ...; FB1:  57.14``), as printed."""
    line = next(line for line in output.splitlines() if line.startswith("accuracy:"))
    return line.rpartition("FB1:")[2].strip()


def seqscore_f1(output: str) -> str:
    """The F1 of the ``ALL`` row of seqscore's table, as printed."""
    row = next(line for line in output.splitlines() if line.startswith("| ALL"))
    return row.split("|")[4].strip()


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        gold, pred = Path(folder, "gold.txt"), Path(folder, "pred.txt")
        gold.write_text(GOLD, encoding="utf-8")
        pred.write_text(PRED, encoding="utf-8")
        rows = commands(gold, pred)
        ours, theirs = rows["score GOLD PRED"]
        assert nerlens_f1(run(ours)[1]) == seqscore_f1(run(theirs)[1])
        best = {name: [float("inf"), float("inf")] for name in rows}
        for _ in range(args.rounds):
            for name, pair in rows.items():
                for k, command in enumerate(pair):
                    if command is not None:
                        best[name][k] = min(best[name][k], run(command)[0])
    print(f"best of {args.rounds} interleaved rounds, wall time (s)")
    out = {}
    for name, (nerlens, seqscore) in best.items():
        if rows[name][1] is None:
            print(f"  {name:26s} {nerlens:6.3f}")
            out[name] = {"seconds": nerlens}
            continue
        out[name] = {"nerlens": nerlens, "seqscore": seqscore, "ratio": nerlens / seqscore}
        print(f"  {name:26s} nerlens {nerlens:6.3f}  seqscore {seqscore:6.3f}  "
              f"nerlens / seqscore {nerlens / seqscore:.2f}x")
    return out


if __name__ == "__main__":
    main()
