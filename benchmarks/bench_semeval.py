"""SemEval-2013 schemas and span input: speed against nervaluate, one run.

    python -m benchmarks.bench_semeval [--sentences 20000] [--repeat 3]
                                       [--document-tokens 6000]

nerlens's four schemas (``faireval.score(..., schemas="semeval")``, which also runs
FairEval's matching) against ``nervaluate.Evaluator(...).evaluate()`` on the same tag
lists; the numbers are checked equal first. Then one long document (a single sentence
of ``--document-tokens`` tokens) whose gold spans each overlap two predictions, so that
nervaluate's greedy matching is replayed over the whole document, against nervaluate.
Then span input: the same mentions as token-span tuples and as a pipeline's
character-offset dicts, against the tags.

The long document (issue 28; 2 shared cores, one run each): on the main of 2026-11-26
(b11c063) 8.2 s, 0.7x nervaluate's 5.7 s, as the greedy replay compared every prediction
with every gold span of the sentence (a 12,000-token sentence: 86 s); now 0.026 s, 266x
nervaluate's 6.9 s: the overlapping pairs are found as spans starting within spans and
the replay looks at each pair that shares a span once. The 20,000-sentence corpus:
17.5x before, 19.3x after (alternated runs: 80 and 73 ms at best).
"""
from __future__ import annotations

import argparse

import faireval
import nerspan
from benchmarks.common import best_time
from benchmarks.synthetic import TYPES, make_corpus

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "300", "--repeat", "1", "--document-tokens", "300"]


def nervaluate_numbers(gold, pred, types=TYPES) -> dict | None:
    try:
        from nervaluate import Evaluator
    except ImportError:
        return None
    results = Evaluator(gold, pred, tags=list(types), loader="list").evaluate()["overall"]
    return {name: (r.correct, r.incorrect, r.partial, r.missed, r.spurious, r.f1)
            for name, r in results.items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--document-tokens", type=int, default=6000)
    args = parser.parse_args(argv)
    tokens, gold, pred = make_corpus(args.sentences)
    mine = semeval_numbers(gold, pred)
    semeval = best_time(lambda: faireval.score(gold, pred, schemas="semeval"), args.repeat)
    plain = best_time(lambda: faireval.score(gold, pred), args.repeat)
    print(f"synthetic corpus: {args.sentences} sentences; strict {mine['strict']}")
    print(f"faireval.score:                    {plain:.3f} s")
    print(f"faireval.score schemas='semeval':  {semeval:.3f} s")
    if nervaluate_numbers(gold[:50], pred[:50]) is None:
        print("nervaluate not installed: skipped")
    else:
        theirs = nervaluate_numbers(gold, pred)
        assert theirs == {name: mine[name] for name in theirs}, (theirs, mine)
        reference = best_time(lambda: nervaluate_numbers(gold, pred), 1)
        print(f"nervaluate Evaluator.evaluate():   {reference:.3f} s (same numbers)")
        print(f"ratio nervaluate / nerlens: {reference / semeval:.1f}")
        long_document_row(args.document_tokens, args.repeat)
    matching_row(gold, pred, args.repeat)

    corpus = nerspan.Corpus.from_tags(pred)
    spans = [[(a, b, t) for t, a, b in sentence]
             for sentence in nerspan.decode(corpus).to_list(corpus)]
    by_tags = best_time(lambda: nerspan.score(gold, pred, tokens=tokens), args.repeat)
    by_spans = best_time(lambda: nerspan.score(gold, spans, tokens=tokens), args.repeat)
    print(f"nerspan.score, tags / token spans: {by_tags:.3f} s / {by_spans:.3f} s")


def semeval_numbers(gold, pred) -> dict:
    ours = faireval.score(gold, pred, schemas="semeval").to_dict()["semeval"]
    return {name: tuple(r[k] for k in ("correct", "incorrect", "partial", "missed",
                                       "spurious", "f1")) for name, r in ours.items()}


def long_document_row(n_tokens: int, repeat: int) -> float:
    """One sentence of ``n_tokens`` tokens: gold mentions of two tokens, each split in two
    by the prediction (or typed otherwise, or missed), so that every gold span is the
    candidate of two predictions; nerlens against nervaluate (same numbers)."""
    import random

    rnd = random.Random(0)
    gold = [["B-PER", "I-PER", "O"] * (n_tokens // 3)]
    pred = [[rnd.choice(["B-PER", "B-PER", "I-PER", "B-LOC", "O"]) if tag != "O" else "O"
             for tag in gold[0]]]
    assert nervaluate_numbers(gold, pred, ("PER", "LOC")) == semeval_numbers(gold, pred)
    ours = best_time(lambda: faireval.score(gold, pred, schemas="semeval"), repeat)
    theirs = best_time(lambda: nervaluate_numbers(gold, pred, ("PER", "LOC")), 1)
    print(f"one {len(gold[0])}-token document, overlapping spans: nerlens {ours:.3f} s, "
          f"nervaluate {theirs:.3f} s (same numbers), ratio {theirs / ours:.1f}x")
    return theirs / ours


def matching_row(gold, pred, repeat: int) -> None:
    """The four schemas alone on prepared spans, nervaluate's greedy matching against the
    optimal one (a maximum-weight assignment within each group of overlapping spans)."""
    from faireval.inputs import prepare
    from faireval.semeval import PAIRINGS, semeval_scores

    prepared = prepare(gold, pred)
    times = {m: best_time(lambda: semeval_scores(prepared, pairing=m), repeat)
             for m in PAIRINGS}
    print(f"semeval_scores, pairing greedy / optimal: {times['greedy']:.3f} s / "
          f"{times['optimal']:.3f} s")


if __name__ == "__main__":
    main()
