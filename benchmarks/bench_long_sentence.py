"""The report on one long sentence against the same tokens cut into sentences.

    python -m benchmarks.bench_long_sentence [--tokens 200000] [--rounds 1]

A synthetic corpus (``benchmarks.synthetic``: about 10% of the gold mentions wrong, as
many spurious ones) scored twice by the whole report (every family, figures, HTML and
JSON rendered, bootstrap off): as sentences of about 15 tokens, and as ONE sentence of
the same tokens (a document that was never split: what a character-offset reader or a
pipeline without sentence splitting hands over). The work should follow the tokens, not
the sentence lengths; prints both times and their ratio (goal: under 2).

Issue 37: on 1M tokens the report took 195 s on one sentence against 4-6 s on the same
tokens in sentences: every hover example of the confusion map wrote its whole sentence,
and every missed unseen mention read its whole sentence's tags. Examples are now cut to a
window around their mentions.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import nerlens

from benchmarks.bench_report import timed
from benchmarks.synthetic import make_corpus


def report_seconds(tokens, gold, pred, train) -> float:
    """Wall seconds of the whole report of one system (HTML and JSON written)."""
    def run():
        report = nerlens.build_report(gold, {"system": pred}, tokens=tokens, train=train,
                                bootstrap=0)
        with tempfile.TemporaryDirectory() as folder:
            report.to_json(Path(folder) / "report.json")
            report.to_html(Path(folder) / "report.html")
    return timed(run)[0]


# a run of a few seconds, for tests/test_benchmarks.py (benchmarks/README.md)
SMALL = ["--tokens", "3000"]


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=200_000,
                        help="test tokens (in sentences of about 15)")
    parser.add_argument("--rounds", type=int, default=1, help="the best of each is kept")
    args = parser.parse_args(argv)
    tokens, gold, pred = make_corpus(max(args.tokens // 15, 2), seed=0)
    train = make_corpus(max(args.tokens // 60, 2), seed=1)[:2]

    def joined(sentences):
        return [[item for sentence in sentences for item in sentence]]

    shapes = {"sentences": (tokens, gold, pred),
              "one sentence": (joined(tokens), joined(gold), joined(pred))}
    best = {name: min(report_seconds(*shape, train) for _ in range(max(args.rounds, 1)))
            for name, shape in shapes.items()}
    n = sum(map(len, tokens))
    print(f"report of one system on {n} tokens (bootstrap off, figures on), best of "
          f"{args.rounds}")
    print(f"  in {len(tokens)} sentences  {best['sentences']:8.2f} s")
    print(f"  in one sentence      {best['one sentence']:8.2f} s "
          f"({best['one sentence'] / best['sentences']:.2f}x; goal < 2)")
    return {"tokens": n, **best, "ratio": best["one sentence"] / best["sentences"]}


if __name__ == "__main__":
    main()
