"""What scoring from partials costs: shards' partials plus merging against one pass.

    python -m benchmarks.bench_partials [--sentences 66000] [--shards 8] [--repeat 5]
                                        [--families tough_mentions ...] [--cpu]

A synthetic corpus (``benchmarks.synthetic``, about 15 tokens per sentence: 66,000
sentences are about 1M tokens) is held as lists of strings per sentence (what users
hold) and cut into ``--shards`` contiguous shards. For nerspan's entity scores, for
tough_mentions, hardeval and attribute_buckets (a training index built once beforehand,
as a worker receives it) and for faireval (with the SemEval-2013 schemas) it times, in
the same run: one pass (``score`` on the whole), and the shards' partials computed one
after the other in this process plus merging them and the result (``partial``, ``+``,
``result()``), then prints the ratio (partials + merge / one pass; issue 39 asks <= 1.2x),
the merge's share, and the size of the merged partial
pickled. Both results' ``to_dict()`` are checked equal first. One pass and the partials
are timed in turn (``--repeat`` times each, the best of each kept, garbage collected
before each run), so that a load that comes and goes falls on both sides.

2026-11-29 (load 9 to 21 on 2 shared cores; ``--cpu``, default size; the code before
beside in the same minutes, both timed the same way, rows --families hardeval
tough_mentions buckets nerspan, then hardeval nerspan with --repeat 7). hardeval
classifies the (training word, label) cells once per training index (kept on it) instead
of each shard's words, and keeps a leaf's seen words as index rows, not strings:
partials + merge 0.37 to 0.51 s (before 0.37 to 0.52 s), ratio 0.92x to 1.19x over five
runs, median 1.09x (before 1.03x to 1.24x, median 1.18x); merging and the result 0.008
to 0.012 s (before 0.013 to 0.017 s); 83 KB pickled (before 220 KB). tough_mentions
(unchanged here) 1.01x to 1.23x, attribute_buckets 1.09x to 1.34x, and nerspan, whose
partial does nothing one pass does not, 0.98x to 1.39x in the same runs: at this load a
ratio moves by up to a third from run to run, so one run proves no 1.2x.

2026-11-29, later (load 8 to 13 on 2 shared cores; ``--cpu``, default size; rows
nerspan tough_mentions hardeval buckets, the code before and after in turn, three
runs each, then two each with --repeat 7). A shard detects generated output once (without
``types`` the reader's detection alone: output it read as generated is refused after the
fact; it was a second pass over the shard's sentences, 0.01 s over 8 shards);
attribute_buckets counts a token table's tokens per (word, label code) of the shard,
not per cell of the training table (a bincount of the table's 86,000 cells per shard,
side and token attribute), and makes a token's value group only for a bootstrap or
per-sentence counts: its counting took 0.045 s before and 0.050 s after over 40 calls
at 8 shards, 0.12 s before and 0.09 s after at 64 shards (it no longer grows with the
training data). Ratios over the five runs, before -> after (medians): hardeval 1.05x to
1.11x (1.07x) -> 0.96x to 1.04x (1.02x); attribute_buckets 1.10x to 1.19x (1.14x) ->
1.09x to 1.16x (1.11x); tough_mentions 1.05x to 1.20x (1.11x) -> 1.05x to 1.15x (1.10x);
nerspan 0.79x to 0.86x (0.83x) -> 0.76x to 0.79x (0.78x). Partials + merge: hardeval
0.35 to 0.43 s -> 0.31 to 0.38 s, attribute_buckets 0.45 to 0.51 s -> 0.43 to 0.48 s.

Still paid per shard and not by one pass, measured in the same session (CPU time, best
of 7): looking the shard's vocabulary up in the training index
(``TrainIndex.token_rows``: 74,000 words over 8 shards against 19,000 in one pass):
hardeval does it twice per shard (``classify_tokens``, then its leaves' seen words; once
since the third round below), 0.035 to 0.055 s against 0.007 s in one pass, and
attribute_buckets (its OOV attributes) 0.035 s against 0.008 s. Interning a shard's own
words costs nothing one pass does not (0.091 s over 8 shards, 0.086 s in one pass), and
interning them into a vocabulary begun with the training index's (0.105 s) would
lengthen every look-up by vocabulary unless ``token_rows`` read the index's words,
coming first, as their rows: that, and the readers handing the index's vocabulary to
``Corpus.from_tags``, is what would remove the look-ups. tough_mentions' merge (0.03 s
at 8 shards, 7 merges): looking each shard's 6,200 distinct texts up, 0.008 s; adding
the new ones, 0.006 s; joining the groups, 0.006 s; the result 0.006 s. Stable 64-bit
keys per text (hashed in NumPy from the code points) cost 4.3 ms per shard of 10,000
texts, against 1.4 ms for building a dictionary of them and looking them up: more than
they would save at 8 shards; they would pay where partials are pickled (the text index
is rebuilt after unpickling) and merged in a tree of many.

2026-11-29, third round (load 6 to 14 on 2 shared cores; ``--cpu``, default size; rows
hardeval buckets faireval tough_mentions nerspan, the code before and after in turn,
three runs each). hardeval looks a shard's words up once (``subsets.gold_word_rows``,
kept on the shard's evaluation: ``classify_tokens`` takes the rows, the leaves' seen
words read them); ``TrainIndex.token_rows`` converts its list of rows at once
(``np.fromiter`` took 1.05x to 1.3x as long) and, lowercased, looks each word up as
written first (a word found takes its training word's lowercased row; only the others
are lowercased, a new string to hash each); faireval reads through ``Shard.read_typed``
(generated output detected once). Look-ups over 8 shards (CPU time, best of 7):
hardeval 46 ms in 16 calls -> 22 ms in 8 (one pass 5 to 6 ms), attribute_buckets
34 ms -> 25 ms (one pass 6 to 8 ms). Ratios, before -> after (medians): hardeval 0.94x
to 1.11x (1.01x) -> 0.93x to 1.02x (0.98x); attribute_buckets 1.08x to 1.12x (1.12x)
-> 1.06x to 1.15x (1.07x); faireval 0.96x to 1.02x (1.00x) -> 0.95x to 1.00x (0.98x);
unchanged here, tough_mentions 1.05x to 1.08x -> 1.10x to 1.13x and nerspan 0.77x to
0.90x -> 0.79x to 0.85x (what the load moves). Partials + merge: hardeval 0.30 to
0.40 s -> 0.29 to 0.36 s, attribute_buckets 0.44 to 0.49 s -> 0.43 to 0.48 s. Still
per shard: the look-ups themselves (about 200 ns a word, memory-bound: a NumPy search
over the training words as a sorted string array took longer, converting the words
alone half as long as looking them up), and interning each shard's distinct words
(``nerspan.flat.Interner.__missing__``, a Python call per new word: 74,000 over 8
shards against 19,000 in one pass). tough_mentions' merge is unchanged: the same list
conversion, 1.05x to 1.3x faster, would save at most 2 ms of its 0.03 s.

2026-11-29, fourth round (load 15 to 28 on 2 shared cores; ``--cpu``, default size; rows
tough_mentions nerspan hardeval buckets, the code before and after in turn, three runs
each). ``nerspan.flat.Interner`` is a ``defaultdict`` whose factory is a counter, so a
new string costs no Python call, and its check that every key is a string maps
``isinstance`` in C; tough_mentions' merge looks each text of the smaller partial up
once in an ``Interner`` (a new text takes the next code as it is met) instead of a
look-up and then an insertion. Interning 74,000 distinct words (what new words cost;
best of 31, three runs): 30.6 to 33.9 ms -> 25.2 to 26.2 ms. The words of 8 shards
against one pass, in the same process (best of 21): one pass 104 -> 96 ms, 8 shards
117 -> 118 ms: what a shard still pays is inserting its new words into its own dict
(and growing it), not the call. Batched interning measured slower at 1 and 8 shards
(best of 15, two runs): ``dict.setdefault`` with each word's first position, renumbered
in NumPy, 10% to 30% longer; ``dict.fromkeys`` then a look-up pass 40% to 60% longer.
Ratios, before -> after (medians): tough_mentions 1.05x to 1.15x (1.08x) -> 1.05x to
1.21x (1.08x); nerspan 0.86x to 0.98x (0.89x) -> 0.86x to 1.04x (0.93x); hardeval 0.97x
to 1.06x (1.02x) -> 0.88x to 1.05x (0.99x); attribute_buckets 1.14x to 1.17x (1.15x)
-> 1.10x to 1.29x (1.18x): at this load no change shows. tough_mentions' merging and
the result: 0.043 to 0.049 s -> 0.044 to 0.047 s (median 0.045 s both). Its merge
chain alone (8 partials, best of 15, three runs in turn): 25.7 to 26.9 ms -> 24.9 to
28.1 ms, of which (one run) looking up the texts 10 ms and adding the new ones 7.5 ms
before (one pass of dictionary work per distinct text over 7 merges, 43,000 look-ups,
32,000 of them new), joining the groups 6 ms; the result 6.5 ms.

Measured before, one side's runs then the other's (988,184 tokens, 8 shards, --repeat 5,
2 shared cores): nerspan 0.16 s one pass, 0.16 s partials + merge (0.99x; merging 0.5
ms, 600 bytes pickled); tough_mentions 0.24 s, 0.34 s (1.39x; merging and the result
0.07 s; 804 KB pickled: this corpus's 97,471 gold mentions fall in 45,617 (text, type)
groups, words being drawn from 20,000).
tough_mentions with its groups as integer codes (later, at load 6 to 15, in CPU time:
``--families nerspan tough_mentions --cpu``, two runs each, the old code beside in the
same minutes): 0.30 to 0.33 s one pass, 0.33 to 0.40 s partials + merge (1.09x, 1.23x;
the old code 1.24x, 1.69x); merging and the result 0.03 s (the old 0.07 to 0.09 s);
928 KB pickled. What is left is each shard's reading (interning its words, detecting
generated output twice: ``shard_predictions`` and the reader), which every family's
partial pays.
faireval with the SemEval-2013 schemas, in a later run of the same command (the machine
busier: nerspan 0.41 s and 0.28 s there): 2.50 s one pass, 1.51 s partials + merge
(0.60x; a run before gave 0.86x; merging 1.1 ms, 1,604 bytes pickled: counts per label
and per schema, no listing).
hardeval, later, on a machine at load 7 to 19: from 0.65x to 1.28x over four runs (one
pass 0.98 s to 1.24 s; merging and the result 0.02 to 0.04 s; 220 KB pickled: each
leaf's set of distinct words); in CPU time (best of 5) 0.41 s one pass, 0.52 s partials
+ merge (1.27x): each shard reads, interns and looks up its own words and pays the
fixed cost of a call.
hardeval-kfold (5 folds; --repeat 3, load 11 on 2 cores): 1.63x when its cells were
keyed by (word, label, fold, type) strings (merging and the result 1.44 s, 1.8 MB
pickled), 1.00x with integer codes per cell (0.44 s, 1.2 MB); in CPU time (best of 3)
1.28x then, 0.83x now.
attribute_buckets (all nine attributes; a later run, --repeat 3, in which nerspan gave
0.92x and tough_mentions 1.09x): 0.83 s one pass, 0.74 s partials + merge (0.90x;
merging and the result 0.02 s; 188 KB pickled); with a bootstrap of 200 replicates
3.47 s, 3.14 s (0.90x; 0.10 s; 16 MB pickled: the weighted units of every distinct
value per replicate, which grow with the values and the replicates, not the tokens).
A busier run (load 11 on 2 cores; nerspan 1.45x in it): 1.04x, and 1.09x with the
bootstrap.

2026-11-30 (load about 1 on 2 cores; ``--cpu --repeat 5``, every row, three runs; medians in
brackets): nerspan 0.82x to 0.89x (0.82x), tough_mentions 0.98x to 1.21x (0.99x), faireval
0.93x to 0.98x (0.94x), hardeval 0.96x to 0.99x (0.98x), hardeval-kfold 0.71x to 0.83x
(0.76x), attribute_buckets 1.01x to 1.12x (1.08x), with the bootstrap 0.82x to 1.06x
(1.06x). The bootstrap row had drifted to 1.31x and 1.58x (2026-11-29, quiet machine):
a shard's weights were the transpose of ``sentence_weights``' array, Fortran-ordered, and
scipy copied them to C order for each of the ~200 sparse products of a run (a third of the
partials' time); they are kept in C order now, and the products are summed in float32 while
every sum is an exact float32 integer (a value's units times the largest weight below
2**24; float64 beyond): a quarter of float64's time per product (0.07 against 0.17 to
0.23 s per shard, CPU time). The code before and after in turn at load 1 (three runs):
1.35x to 1.66x before, 0.80x to 1.02x after.
"""
from __future__ import annotations

import argparse
import pickle
import time
from functools import reduce

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from benchmarks.common import best_time
from benchmarks.synthetic import make_corpus

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "600", "--shards", "4", "--repeat", "1"]


def cuts(n_sentences: int, shards: int) -> list:
    """``(first, stop)`` of ``shards`` contiguous shards of about equal size."""
    bounds = [n_sentences * k // shards for k in range(shards + 1)]
    return list(zip(bounds[:-1], bounds[1:]))


def family_runs(tokens, gold, pred, index) -> dict:
    """name -> (one pass, partial of one shard, keywords): what is timed."""
    return {
        "nerspan": (lambda: nerspan.score(gold, pred),
                    lambda a, b: nerspan.partial(gold[a:b], pred[a:b], first_sentence=a)),
        "tough_mentions": (
            lambda: tough_mentions.score(gold, pred, tokens=tokens, train=index),
            lambda a, b: tough_mentions.partial(gold[a:b], pred[a:b], tokens=tokens[a:b],
                                                train=index, first_sentence=a)),
        "faireval": (lambda: faireval.score(gold, pred, schemas="semeval"),
                     lambda a, b: faireval.partial(gold[a:b], pred[a:b], schemas="semeval",
                                                   first_sentence=a)),
        "hardeval": (
            lambda: hardeval.score(gold, pred, tokens=tokens, train=index),
            lambda a, b: hardeval.partial(gold[a:b], pred[a:b], tokens=tokens[a:b],
                                          train=index, first_sentence=a)),
        # k-fold subsets (5 folds) over the references: one pass classifies the whole
        # corpus first (the option kfold), a partial counts (word, label, fold) cells
        "hardeval-kfold": (
            lambda: hardeval.score(gold, pred, tokens=tokens, options={"kfold": 5}),
            lambda a, b: hardeval.partial(gold[a:b], pred[a:b], tokens=tokens[a:b],
                                          options={"kfold": 5}, first_sentence=a)),
        # all nine attributes, with and without a bootstrap of 200 replicates
        **{name: (lambda options=options: attribute_buckets.score(
                      gold, pred, tokens=tokens, train=index, options=options),
                  lambda a, b, options=options: attribute_buckets.partial(
                      gold[a:b], pred[a:b], tokens=tokens[a:b], train=index,
                      options=options, first_sentence=a))
           for name, options in (("buckets", {}),
                                 ("buckets+boot", {"bootstrap": 200, "seed": 0}))},
    }


def sharded(part, shards: list, clock=time.perf_counter) -> tuple:
    """The shards' partials one after the other, merged, and the result: ``(merged,
    seconds of merging and the result)``."""
    partials = [part(a, b) for a, b in shards]
    start = clock()
    merged = reduce(lambda x, y: x + y, partials)
    merged.result()
    return merged, clock() - start


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=66_000)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--families", nargs="+", default=None,
                        help="time only these rows (default: every one)")
    parser.add_argument("--cpu", action="store_true",
                        help="time this process's CPU time, not wall time (steadier "
                             "when other processes share the cores)")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    tokens, gold, pred = make_corpus(args.sentences)
    train_tokens, train_gold, _ = make_corpus(args.sentences // 2, seed=1)
    index = nerspan.as_train_index((train_tokens, train_gold))
    shards = cuts(len(gold), args.shards)
    print(f"{sum(map(len, gold)):,} tokens, {len(gold):,} sentences, {len(shards)} shards")
    print(f"{'family':<16}{'one pass s':>12}{'partials+merge s':>18}{'ratio':>8}"
          f"{'merge s':>10}{'pickled':>12}")
    out = {}
    runs = family_runs(tokens, gold, pred, index)
    for name in args.families or runs:
        whole, part = runs[name]
        merged, _ = sharded(part, shards)  # checked equal first (and the index warmed)
        assert merged.result().to_dict() == whole().to_dict(), name
        # one pass and the partials taken in turn, the best of each kept: a load that
        # comes and goes on a shared machine falls on both, not on one side's runs
        merge_times, ones, partials = [], [], []
        for _ in range(args.repeat):
            ones.append(best_time(whole, 1, clock))
            partials.append(best_time(
                lambda: merge_times.append(sharded(part, shards, clock)[1]), 1, clock))
        one, parts = min(ones), min(partials)
        size = len(pickle.dumps(merged))
        out[name] = {"one_pass": one, "partials": parts, "ratio": parts / one,
                     "merge": min(merge_times), "pickled_bytes": size}
        print(f"{name:<16}{one:>12.3f}{parts:>18.3f}{parts / one:>7.2f}x"
              f"{min(merge_times):>10.4f}{size:>12,}")
    return out


if __name__ == "__main__":
    main()
