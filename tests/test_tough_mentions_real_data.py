"""tough_mentions on every shared corpus with a training split (skipped when absent).

No published numbers are pinned: each result is checked against the invariants of
METHODS.md section 1, against nerspan's entity scores, against its own bootstrap
statistics, and against ``naive_tmr``, a plain dict-and-set reading of the definitions.
"""
from __future__ import annotations

import math

import pytest

import nerspan
import tough_mentions
from nerspan import GOLD, PRED, Corpus, read_columns, read_system_file
from tests.conftest import shared_path
from tests.test_tough_mentions import SUBSETS, check_against_naive, naive_train, naive_tmr


def lists(corpus: Corpus, column: str) -> list:
    return [corpus.tags(column, i) for i in range(corpus.n_sentences)]


def words(corpus: Corpus) -> list:
    return [corpus.sentence_tokens(i) for i in range(corpus.n_sentences)]


class Training:
    """A training file: its index (built once) and its naive sets per case setting."""

    def __init__(self, *parts):
        self.corpus = read_columns(shared_path(*parts), {GOLD: -1})
        self.index = nerspan.as_train_index(self.corpus)
        self._naive = {}

    def naive(self, case_sensitive=True):
        if case_sensitive not in self._naive:
            self._naive[case_sensitive] = naive_train(words(self.corpus), lists(self.corpus, GOLD),
                                                      case_sensitive)
        return self._naive[case_sensitive]


def check(training: Training, corpus: Corpus, case_sensitive: bool = True) -> dict:
    """Score the gold/pred columns of ``corpus``; check everything; return the dict."""
    result = tough_mentions.score(corpus, train=training.index, case_sensitive=case_sensitive)
    d = result.to_dict()
    gold, pred, tokens = lists(corpus, GOLD), lists(corpus, PRED), words(corpus)
    # the independent computation
    check_against_naive(d, naive_tmr(None, None, tokens, gold, pred, case_sensitive,
                                     train=training.naive(case_sensitive)))
    # partitions
    masks = result.subsets.masks()
    kinds = masks["seen"].astype(int) + masks["unseen_type"] + masks["unseen_tokens"]
    assert (kinds == 1).all()
    assert ((masks["tcm_seen"] ^ masks["tcm_unseen"]) == masks["tcm_all"]).all()
    counts = d["counts"]
    assert counts["unseen_any"] == counts["unseen_type"] + counts["unseen_tokens"]
    assert counts["tcm_all"] == counts["tcm_seen"] + counts["tcm_unseen"]
    # per type adds up to overall; composition shares add up
    for name in ("all",) + SUBSETS:
        assert sum(row["counts"][name] for row in d["per_type"].values()) == counts[name]
        assert sum(row["hits"][name] for row in d["per_type"].values()) == d["hits"][name]
        assert d["composition"][name] == counts[name] / counts["all"]
        for row in d["per_type"].values():
            assert row["composition"][name] == row["counts"][name] / row["counts"]["all"]
    for value in [d[f"recall_{n}"] for n in SUBSETS] + [
            row[k] for row in d["per_type"].values() for k in row if k.startswith("recall")]:
        assert value is None or 0.0 <= value <= 1.0
    # overall scores are nerspan's
    entity = nerspan.score(corpus)
    assert (d["precision"], d["recall"], d["f1"]) == entity.micro()
    for t, row in d["per_type"].items():
        assert row["recall"] == entity.to_dict()["per_type"][t]["recall"]
    # bootstrap statistics estimate exactly the reported numbers
    for stat in result.statistics():
        value = d[stat.name.split(".", 1)[1]]
        assert (value is None and math.isnan(stat.estimate())) or stat.estimate() == value
        assert stat.counts.shape[0] == corpus.n_sentences
    return d


@pytest.fixture(scope="module")
def conll03():
    return Training("data", "conll03", "train.txt")


def test_conll03_fifteen_systems(conll03):
    paths = sorted(shared_path("data", "conll03", "systems").glob("*.txt"))
    assert len(paths) == 15
    results = {}
    for path in paths:
        results[path.stem] = check(conll03, read_system_file(path))
    # the subsets depend on the gold mentions and the training data only: systems whose
    # files carry the same gold mentions have the same composition
    bert = results["spanner_bert_9246"]
    same_gold = [r for r in results.values() if r["counts"]["all"] == bert["counts"]["all"]]
    assert len(same_gold) >= 10
    assert all(r["counts"] == bert["counts"] and r["composition"] == bert["composition"]
               for r in same_gold)
    # unseen mentions are harder than seen ones for every neural system here
    for name, r in results.items():
        if not name.startswith("spacy"):
            assert r["recall_unseen_any"] < r["recall_seen"], name


def test_conll03_case_insensitive(conll03):
    corpus = read_system_file(shared_path("data", "conll03", "systems", "spanner_bert_9246.txt"))
    exact = tough_mentions.score(corpus, train=conll03.index).to_dict()
    folded = check(conll03, corpus, case_sensitive=False)
    # lowercasing merges texts: never fewer seen texts, never fewer confusable ones
    assert folded["counts"]["unseen_tokens"] <= exact["counts"]["unseen_tokens"]
    assert folded["counts"]["tcm_all"] >= exact["counts"]["tcm_all"]


@pytest.mark.parametrize("corpus, train_file, folder", [
    ("wnut16", "train.txt", "systems"),
    ("wnut17", "train.conll", "systems"),
])
def test_wnut(corpus, train_file, folder):
    training = Training("data", corpus, train_file)
    paths = sorted(shared_path("data", corpus, folder).glob("*.txt"))
    assert paths
    for path in paths:
        d = check(training, read_system_file(path))
        # emerging and rare entities: most test mentions are unseen in training
        assert d["counts"]["unseen_any"] > d["counts"]["seen"]
    check(training, read_system_file(paths[0]), case_sensitive=False)


def degraded(corpus: Corpus) -> Corpus:
    """A system without a file: gold on even sentences, nothing found on odd ones."""
    pred = corpus.column(GOLD).copy()
    odd = corpus.sentence_of_position % 2 == 1
    outside = corpus.labels.index("O")
    pred[odd] = outside
    return Corpus(corpus.offsets, {GOLD: corpus.column(GOLD), PRED: pred}, corpus.labels,
                  corpus.tokens, corpus.vocab, corpus.source)


@pytest.mark.parametrize("language", ["esp", "ned"])
def test_conll2002(language):
    training = Training("data", "conll2002", f"{language}.train")
    test = read_columns(shared_path("data", "conll2002", f"{language}.testb"), {GOLD: -1})
    perfect = check(training, Corpus(test.offsets, {GOLD: test.column(GOLD),
                                                    PRED: test.column(GOLD)},
                                     test.labels, test.tokens, test.vocab))
    assert all(perfect[f"recall_{s}"] in (1.0, None) for s in SUBSETS)
    half = check(training, degraded(test))
    assert half["counts"] == perfect["counts"] and half["recall"] < 1.0
    if language == "esp":
        system = read_system_file(shared_path("data", "conll2002", "systems",
                                              "spacy_es_sm_5699.txt"))
        d = check(training, system)
        assert round(100 * d["f1"], 2) == pytest.approx(56.99, abs=0.011)


# The data composition of the CoNLL-2002 test sets (testb, gold as prediction), the
# papers' table: per type and over all types, the gold mentions in each subset of
# ``tough_mentions.ALL_SUBSETS`` (All, Seen, Unseen-Any, Unseen-Tokens, Unseen-Type,
# TCM-All, TCM-Seen, TCM-Unseen), then each subset's share in % of the row's mentions
# (rounded to one decimal). Computed here and checked by hand against the paper (Tu and
# Lignos 2021) where it prints the numbers: 265 of the 1084 Spanish LOC mentions (24.4%)
# and 39.6% of all 3559 Spanish mentions are Unseen-Any.
CONLL2002_COMPOSITION = {
    "esp": {
        "LOC": ((1084, 819, 265, 243, 22, 253, 245, 8),
                (75.6, 24.4, 22.4, 2.0, 23.3, 22.6, 0.7)),
        "MISC": ((340, 133, 207, 200, 7, 16, 14, 2), (39.1, 60.9, 58.8, 2.1, 4.7, 4.1, 0.6)),
        "ORG": ((1400, 969, 431, 409, 22, 105, 95, 10), (69.2, 30.8, 29.2, 1.6, 7.5, 6.8, 0.7)),
        "PER": ((735, 229, 506, 493, 13, 8, 6, 2), (31.2, 68.8, 67.1, 1.8, 1.1, 0.8, 0.3)),
        None: ((3559, 2150, 1409, 1345, 64, 382, 360, 22),
               (60.4, 39.6, 37.8, 1.8, 10.7, 10.1, 0.6)),
    },
    "ned": {
        "LOC": ((774, 489, 285, 285, 0, 1, 1, 0), (63.2, 36.8, 36.8, 0.0, 0.1, 0.1, 0.0)),
        "MISC": ((1187, 579, 608, 604, 4, 3, 0, 3), (48.8, 51.2, 50.9, 0.3, 0.3, 0.0, 0.3)),
        "ORG": ((882, 422, 460, 459, 1, 0, 0, 0), (47.8, 52.2, 52.0, 0.1, 0.0, 0.0, 0.0)),
        "PER": ((1098, 301, 797, 796, 1, 2, 1, 1), (27.4, 72.6, 72.5, 0.1, 0.2, 0.1, 0.1)),
        None: ((3941, 1791, 2150, 2144, 6, 6, 2, 4), (45.4, 54.6, 54.4, 0.2, 0.2, 0.1, 0.1)),
    },
}


@pytest.mark.parametrize("language", ["esp", "ned"])
def test_conll2002_composition_tables(language, capsys):
    from nerlens.cli import main

    train = shared_path("data", "conll2002", f"{language}.train")
    test = shared_path("data", "conll2002", f"{language}.testb")
    corpus = read_columns(test, {GOLD: -1, PRED: -1})
    d = tough_mentions.score(corpus, train=nerspan.as_train_index(str(train))).to_dict()
    names = tough_mentions.ALL_SUBSETS
    expected = CONLL2002_COMPOSITION[language]
    assert list(d["per_type"]) == [t for t in expected if t is not None]
    for t, (counts, percents) in expected.items():
        row = d if t is None else d["per_type"][t]
        assert tuple(row["counts"][n] for n in names) == counts, t
        assert tuple(round(100 * row["composition"][n], 1) for n in names[1:]) == percents, t
        assert row["composition"]["all"] == 1.0
        assert all(row["composition"][n] == row["counts"][n] / counts[0] for n in names)
    # the CLI prints the same table, its shares as the page writes them (2 decimals)
    assert main(["tough-mentions", "--train", str(train), str(test), str(test)]) == 0
    lines = capsys.readouterr().out.splitlines()
    loc = next(line for line in lines if line.startswith("LOC")).split()
    counts, percents = expected["LOC"]
    share = d["per_type"]["LOC"]["composition"]["unseen_any"]
    assert round(100 * share, 1) == percents[1]
    assert loc[5:7] == [str(counts[2]), f"({100 * share:.2f}%)"]          # unseen (any)
    every = next(line for line in lines if line.startswith("all types")).split()
    counts, percents = expected[None]
    assert every[6:8] == [str(counts[2]), f"({100 * d['composition']['unseen_any']:.2f}%)"]
