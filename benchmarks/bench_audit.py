"""Gold you can audit, measured on real data: CoNLL-2003 test against CoNLL++ (issue 42).

    python -m benchmarks.bench_audit [--systems 15] [--bootstrap 1000] [--seed 0]

Reads the CoNLL-2003 test gold, CoNLL++'s corrected test labels and the 15 shared system
outputs into one corpus, then prints:

- the diff of the two golds (``nerspan.audit.diff``): changed tags and sentences, and the
  mentions by kind; asserted against a plain line-by-line count of the two files (309
  tags in 186 sentences, METHODS §10);
- every system's F1 under both golds (``nerspan.audit.score_golds``; asserted equal to
  seqeval's ``f1_score`` under each gold, when seqeval is installed), its rank under
  each, the paired bootstrap interval of its F1 difference, the share of its errors the
  correction removes; Kendall's tau-a of the two rankings and the flipped pairs;
- how many of CoNLL++'s changes (changed mentions of CoNLL-2003 and mentions CoNLL++
  adds) the suspect ranking (``nerspan.audit.suspects``, with the training file and the
  documents) puts in its first 100, 500 and 1,000 places, against the expected number of
  a uniformly random ranking of the same candidates (``expected_at_random``), with every
  part of the evidence alone too;
- the time of each step.

Research-only data: nothing of it is written anywhere; only numbers are printed.
Skips when ../shared/data is absent.

Last measured (15 systems, 1,000 resamples): 309 changed tags in 186 sentences; CoNLL-2003
5,648 mentions, CoNLL++ 5,702, 142 of CoNLL-2003's mentions changed and 70 added; every
system's F1 rises (+0.2 to +1.3 points), the rise is outside sampling noise for 13 of 15;
Kendall's tau-a 0.943 (102 concordant, 3 discordant pairs of 105), 3 flips, none outside
sampling noise; the suspect ranking finds 50 / 147 / 177 of the 212 changes in its first
100 / 500 / 1,000 places, where a random ranking of its 5,941 candidates finds 3.8 / 19.0
/ 37.6 in expectation.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import nerspan
from benchmarks.common import CONLL03_SYSTEMS, DATA, add_systems_argument
from nerspan.audit import corrections_found, diff, expected_at_random, score_golds, suspects
from nerspan.audit.suspect_gold import EVIDENCE
from nerspan.reading.columns import DOCSTART, read_predictions
from nerspan.schemes import get_scheme
from nerspan.spans import LabelTable
from nerspan.tagfiles import TagFile

CONLL03 = DATA / "conll03"
TEST, CONLLPP, TRAIN = CONLL03 / "test.txt", CONLL03 / "conllpp_test.txt", CONLL03 / "train.txt"
GOLDS = ("conll03", "conllpp")
TOPS = (100, 500, 1000)
# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--systems", "3", "--bootstrap", "100"]


def read_all(limit: int | None) -> tuple:
    """One corpus: CoNLL-2003 test gold (``conll03``), CoNLL++ (``conllpp``) and the
    first ``limit`` system outputs, each checked token by token against the gold file;
    the system names; the document of every sentence."""
    corpus = nerspan.read_columns(TEST).renamed({"gold": GOLDS[0]})
    corpus = read_predictions(corpus, CONLLPP, name=GOLDS[1])
    names = []
    for path in sorted(CONLL03_SYSTEMS.glob("*.txt"))[:limit]:
        corpus = read_predictions(corpus, path, name=path.stem)
        names.append(path.stem)
    return corpus, names, TagFile(str(TEST)).sentence_documents(corpus)


def plain_tag_changes() -> tuple[int, int]:
    """Tags that differ between the two files and the sentences they are in, counted
    line by line (the yardstick of the diff's count)."""
    changed, sentences, sentence = 0, set(), 0
    with open(TEST, encoding="utf-8") as a, open(CONLLPP, encoding="utf-8") as b:
        for line_a, line_b in zip(a, b):
            fields_a, fields_b = line_a.split(), line_b.split()
            if not fields_a or fields_a[0] == DOCSTART:
                sentence += bool(not fields_a)
                continue
            if fields_a[-1] != fields_b[-1]:
                changed += 1
                sentences.add(sentence)
    return changed, len(sentences)


def show_diff(corpus) -> object:
    start = time.perf_counter()
    found = diff(corpus, columns=GOLDS)
    seconds = time.perf_counter() - start
    result = found.to_dict()
    tags, sentences = result["changed_tags"], len(result["changed_tag_sentences"])
    assert (tags, sentences) == plain_tag_changes(), (tags, sentences)
    print(f"diff CoNLL-2003 -> CoNLL++ ({seconds * 1000:.1f} ms): {tags} changed tags in "
          f"{sentences} sentences; mentions {result['mentions']['a']} -> "
          f"{result['mentions']['b']}")
    for kind, count in result["kinds"].items():
        print(f"  {kind:17s} CoNLL-2003 {count['a']:5d}   CoNLL++ {count['b']:5d}")
    return found


def check_against_seqeval(corpus, names: list, comparison: dict) -> None:
    """Every system's F1 under each gold equals seqeval's (when installed)."""
    try:
        from seqeval.metrics import f1_score
    except ImportError:
        print("seqeval not installed: F1 not compared")
        return
    def sentences(column):
        return [corpus.tags(column, i) for i in range(corpus.n_sentences)]
    for gold in GOLDS:
        truth = sentences(gold)
        for name in names:
            ours = comparison["scores"][name][gold]["f1"]
            assert abs(f1_score(truth, sentences(name)) - ours) < 1e-12, (name, gold)
    print(f"F1 of {len(names)} systems under both golds equal to seqeval's f1_score")


def show_golds(spans: dict, names: list, bootstrap: int, seed: int) -> dict:
    start = time.perf_counter()
    comparison = score_golds({g: spans[g] for g in GOLDS}, {n: spans[n] for n in names},
                             bootstrap=bootstrap, seed=seed).to_dict()
    seconds = time.perf_counter() - start
    against = comparison["against"][GOLDS[1]]
    print(f"\n{len(names)} systems under both golds ({seconds:.2f} s, {bootstrap} "
          "resamples):")
    print(f"  {'system':32s} {'F1 03':>7s} {'F1 ++':>7s} {'rank':>7s} {'diff [95% interval]':>24s}"
          f" {'errors removed':>15s}")
    for name in comparison["rankings"][GOLDS[1]]:
        f1 = [comparison["scores"][name][g]["f1"] for g in GOLDS]
        ranks = [comparison["ranks"][g][name] for g in GOLDS]
        change = against["f1_difference"][name]
        bounds = ("" if change["low"] is None else
                  f"[{100 * change['low']:+.2f}, {100 * change['high']:+.2f}]")
        errors = against["errors"][name]
        print(f"  {name:32s} {100 * f1[0]:7.2f} {100 * f1[1]:7.2f} {ranks[0]:3d}->{ranks[1]:<3d}"
              f" {100 * change['estimate']:+6.2f} {bounds:>17s} "
              f"{errors['removed']:4d}/{errors['errors']:<4d} {100 * errors['share_removed']:4.1f}%")
        assert errors["errors"] - errors["removed"] + errors["introduced"] == \
            errors["errors_alternative"]
    print(f"  Kendall's tau-a {against['tau']} ({against['concordant']} concordant, "
          f"{against['discordant']} discordant of {against['pairs']} pairs); "
          f"{len(against['flips'])} flips:")
    for flip in against["flips"]:
        ahead, behind = flip["systems"]
        side = flip["alternative"]
        print(f"    {ahead} now ahead of {behind}: {100 * side['estimate']:+.2f} "
              f"[{100 * side['low']:+.2f}, {100 * side['high']:+.2f}] under CoNLL++ "
              f"(was {100 * flip['reference']['estimate']:+.2f}); outside noise: "
              f"{flip['outside_noise']}")
    return comparison


def show_suspects(corpus, spans: dict, names: list, documents, found_diff) -> dict:
    train = nerspan.TrainIndex.build(nerspan.read_columns(TRAIN))
    systems = {n: spans[n] for n in names}
    out = {}
    print("\nsuspect gold: CoNLL++'s changes in the first 100 / 500 / 1,000 suspects")
    for label, evidence in (("all evidence", EVIDENCE),
                            *((f"{part} alone", (part,)) for part in EVIDENCE)):
        start = time.perf_counter()
        ranked = suspects(spans[GOLDS[0]], systems, corpus=corpus, train=train,
                          documents=documents, evidence=evidence)
        seconds = time.perf_counter() - start
        found = corrections_found(ranked, found_diff, TOPS)
        tops = found["top"]
        print(f"  {label:16s} ({seconds * 1000:6.1f} ms): " + " / ".join(
            f"{tops[t]['found']}" for t in TOPS) + f" of {found['changes']}; random: "
            + " / ".join(f"{tops[t]['expected_at_random']:.1f}" for t in TOPS)
            + f" (of {found['candidates']} candidates)")
        assert all(tops[t]["found"] >= 0 for t in TOPS)
        out[label] = found
    everything = out["all evidence"]
    n = everything["candidates"]
    # the expectation, for the one-candidate changes, is top / candidates of them
    assert abs(expected_at_random(np.ones(10), n, 100) - 10 * 100 / n) < 1e-9
    return out


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_systems_argument(parser)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not (TEST.exists() and CONLLPP.exists() and TRAIN.exists() and CONLL03_SYSTEMS.exists()):
        print(f"skipped: shared data not found under {DATA}")
        return {}
    corpus, names, documents = read_all(args.systems)
    table = LabelTable.build(corpus.labels, get_scheme("IOB2"))
    spans = {column: nerspan.decode(corpus, column, labels=table) for column in corpus.columns}
    found_diff = show_diff(corpus)
    comparison = show_golds(spans, names, args.bootstrap, args.seed)
    check_against_seqeval(corpus, names, comparison)
    found = show_suspects(corpus, spans, names, documents, found_diff)
    return {"diff": found_diff.kinds(), "golds": comparison, "suspects": found}


if __name__ == "__main__":
    main()
