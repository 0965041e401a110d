"""hardeval speed on the real CoNLL-2003 data, against seqeval's classification_report.

    python -m benchmarks.bench_hardeval [--repeat 3] [--systems 15]

The 15 system outputs are read once into lists of strings per sentence (what users
hold). hardeval's time covers reading and indexing the training file, then scoring all
15 systems from those lists (each call converts its lists and classifies the tokens);
seqeval's time covers ``classification_report`` alone on the same 15 systems. Prints
both times and their ratio (seqeval / hardeval); skips when ../shared/data is absent.
"""
from __future__ import annotations

import hardeval
import nerspan
from benchmarks.common import compare_on_conll03

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--repeat", "1", "--systems", "1"]


def run_hardeval(train_path, systems: dict) -> dict:
    index = nerspan.as_train_index(str(train_path))
    return {name: hardeval.score(gold, pred, tokens=tokens, train=index).hardeval
            for name, (tokens, gold, pred) in systems.items()}


def main(argv=None) -> int:
    return compare_on_conll03(__doc__.splitlines()[0], "hardeval (index training set + "
                              "score 15 systems)", run_hardeval, argv)


if __name__ == "__main__":
    raise SystemExit(main())
