"""attribute_buckets speed on the real CoNLL-2003 data, against seqeval's classification_report.

    python -m benchmarks.bench_attribute_buckets [--repeat 3] [--systems 15]

The 15 system outputs are read once into lists of strings per sentence (what users
hold). attribute_buckets' time covers reading and indexing the training file once, then
every attribute (``attribute_buckets.ATTRIBUTES``, nine) for all 15 systems from those
lists (each call converts its lists, decodes, computes every attribute and buckets it; no
bootstrap; each result is checked to hold every attribute); seqeval's time covers
``classification_report`` alone on the same 15 systems. Prints both times and their
ratio (seqeval / attribute_buckets); skips when ../shared/data is absent.
"""
from __future__ import annotations

import attribute_buckets
import nerspan
from benchmarks.common import compare_on_conll03

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--repeat", "1", "--systems", "1"]


def run_attribute_buckets(train_path, systems: dict) -> dict:
    index = nerspan.as_train_index(str(train_path))
    out = {}
    for name, (tokens, gold, pred) in systems.items():
        result = attribute_buckets.score(gold, pred, tokens=tokens, train=index)
        assert list(result.tables) == list(attribute_buckets.ATTRIBUTES)
        out[name] = result.f1
    return out


def main(argv=None) -> int:
    return compare_on_conll03(__doc__.splitlines()[0], "attribute_buckets (index training "
                              "set + every attribute x the systems)", run_attribute_buckets,
                              argv)


if __name__ == "__main__":
    raise SystemExit(main())
