"""Entity scores and the confusion matrix of nested span lists against flat ones.

    python -m benchmarks.bench_nesting [--mentions 100000] [--depths 1,2,4,8,16,32] [--repeat 3]

For each nesting depth d, two inputs of the same mentions and tokens: *nested*, every
sentence of 2d tokens holding d mentions inside one another ((0, 2d), (1, 2d - 1), ...),
and *flat*, every sentence of 2d tokens holding d mentions of two tokens side by side.
Predictions: the gold with one mention in ten retyped and one in ten cut a token short.
Times ``nerspan.score`` from the span lists (reading, the table, matching) and the
confusion matrix of an ``Evaluation`` (``confusion("pred")``), best of ``--repeat``, and
prints the nested / flat ratio per depth: cost linear in mentions and depth means the
time per mention stays flat as d grows and the ratio stays near a constant.

Last measured (2 cores shared by six sessions, so +-50% between runs; 100,000 mentions,
best of 3): nested / flat 1.66, 1.53, 0.93, 0.79, 1.13, 1.13 for ``nerspan.score`` at
depths 1, 2, 4, 8, 16, 32 (depth 1 is the same input twice: the noise), 1.50 ... 0.75
for the confusion matrix; nested 5.5 to 13.8 us per mention at every depth, no trend.
``flat tags/table``: how many times longer the flat predictions' mentions take decoded
from the IOB2 tags they are written as than read from their span table (the round trip
``nerspan.score`` no longer makes): 7.6, 5.8, 5.9, 10.2 at depths 1, 4, 16, 32.
Then, on the flat input of depth 1, readers below the families' entry points timed on
the corpus with its span tables dropped (tags decoded, as they read span lists before)
over the corpus itself (tables read): last measured (100,000 mentions, best of 5)
audit diff 1.06, hardeval IO token errors 1.52, tough_mentions score_subsets 1.78.
"""
from __future__ import annotations

import argparse
import dataclasses

import nerspan
import tough_mentions
from benchmarks.common import best_time
from hardeval.analysis import token_errors
from nerspan.audit import diff
from nerspan.reading.span_lists import from_spans
from nerspan.spans import column_spans, decode

TYPES = ("PER", "LOC", "ORG", "MISC")


def sides(n_mentions: int, depth: int, nested: bool) -> tuple[list, list]:
    """Gold and predicted span lists of ``n_mentions`` mentions, ``depth`` a sentence."""
    gold, pred = [], []
    for s in range(max(n_mentions // depth, 1)):
        spans = [(k, 2 * depth - k) if nested else (2 * k, 2 * k + 2) for k in range(depth)]
        gold.append([(a, b, TYPES[(s + k) % 4]) for k, (a, b) in enumerate(spans)])
        pred.append([(a, b - 1 if (s + k) % 10 == 5 else b,
                      TYPES[(s + k + 1) % 4] if (s + k) % 10 == 0 else TYPES[(s + k) % 4])
                     for k, (a, b) in enumerate(spans)])
    return gold, pred


def set_f1(gold, pred) -> float:
    """F1 of exact match on (sentence, start, end, type) sets: the check."""
    g = {(s, *m) for s, spans in enumerate(gold) for m in spans}
    p = {(s, *m) for s, spans in enumerate(pred) for m in spans}
    return 2 * len(g & p) / (len(g) + len(p))


def timed_scores(gold, pred, repeat: int) -> tuple[float, float]:
    """Best seconds of ``nerspan.score`` and of the confusion matrix; checks F1 first."""
    result = nerspan.score(gold, pred)
    assert abs(result.micro()[2] - set_f1(gold, pred)) < 1e-12
    evaluation = nerspan.Evaluation.build(gold, pred)
    matrix = evaluation.confusion("pred")["confusion"]
    assert sum(row.get(t, 0) for t, row in matrix.items()) == result.n_correct
    scores = best_time(lambda: nerspan.score(gold, pred), repeat)
    confusion = best_time(lambda: nerspan.Evaluation.build(gold, pred).confusion("pred"),
                          repeat)
    return scores, confusion


def round_trip(gold, pred, repeat: int) -> float:
    """How many times longer the flat predictions' mentions take decoded from the IOB2
    tags they are written as (the round trip entity scores of span lists made before)
    than read from their span table (``column_spans``), both from one corpus."""
    corpus = from_spans(gold, pred)
    read, decoded = column_spans(corpus, "pred"), decode(corpus, "pred")
    assert (read.key(corpus.n_tokens) == decoded.key(corpus.n_tokens)).all()
    table = best_time(lambda: column_spans(corpus, "pred"), repeat)
    return best_time(lambda: decode(corpus, "pred"), repeat) / table


def readers(gold, pred, repeat: int) -> dict:
    """Readers below the families' entry points (the audit's diff, hardeval's IO token
    errors, tough_mentions' score_subsets) on flat span lists: reader -> how many times
    longer they take on the corpus with its span tables dropped (its tags decoded, as
    they read it before) than on the corpus itself (its tables read), results equal."""
    words = [["w"] * max((b for _, b, _ in spans), default=1) for spans in gold]
    corpus = from_spans(gold, pred, tokens=words)
    tags_only = corpus.with_source(dataclasses.replace(corpus.source, mentions={}))
    train = nerspan.as_train_index((words[:1000], gold[:1000]))
    subsets = tough_mentions.classify(corpus, column_spans(corpus), train)
    runs = {"audit diff": lambda c: diff(c).to_dict(),
            "hardeval io errors": lambda c: token_errors(c, "pred", error_labels="io"
                                                         ).tolist(),
            "tough_mentions score_subsets": lambda c: tough_mentions.score_subsets(
                c, subsets).to_dict()}
    out = {}
    for name, run in runs.items():
        assert run(corpus) == run(tags_only), name
        table = best_time(lambda: run(corpus), repeat)
        out[name] = best_time(lambda: run(tags_only), repeat) / table
    return out


# a run of a few seconds, for tests/test_benchmarks.py (benchmarks/README.md)
SMALL = ["--mentions", "2000", "--depths", "1,4,16", "--repeat", "1"]


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mentions", type=int, default=100_000)
    parser.add_argument("--depths", default="1,2,4,8,16,32")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    print(f"{args.mentions} mentions; best of {args.repeat}; seconds (us per mention)")
    print(f"{'depth':>5}  {'flat score':>16}  {'nested score':>16}  {'ratio':>5}  "
          f"{'flat confusion':>16}  {'nested confusion':>16}  {'ratio':>5}  "
          f"{'flat tags/table':>15}")
    out = {}
    for depth in depths:
        flat = timed_scores(*sides(args.mentions, depth, False), args.repeat)
        nested = timed_scores(*sides(args.mentions, depth, True), args.repeat)
        tags_over_table = round_trip(*sides(args.mentions, depth, False), args.repeat)
        per = lambda t: f"{t:7.3f} ({1e6 * t / args.mentions:5.2f})"  # noqa: E731
        print(f"{depth:>5}  {per(flat[0]):>16}  {per(nested[0]):>16}  "
              f"{nested[0] / flat[0]:5.2f}  {per(flat[1]):>16}  {per(nested[1]):>16}  "
              f"{nested[1] / flat[1]:5.2f}  {tags_over_table:15.2f}")
        out[depth] = {"flat": flat, "nested": nested, "tags_over_table": tags_over_table}
    below = readers(*sides(args.mentions, 1, False), args.repeat)
    print("readers below the entry points, flat span lists (depth 1), tags decoded / "
          "table read: " + ", ".join(f"{name} {ratio:.2f}" for name, ratio in below.items()))
    out["readers"] = below
    return out


if __name__ == "__main__":
    main()
