"""Data flows once: a report decodes gold once, each system once and the training corpus
once, whatever the families (issue 29, item 5).

Every decoding goes through ``nerspan.spans.decode``; the tests replace it, in every
module that imported it, by a wrapper that counts the columns it decodes per corpus.
"""
from __future__ import annotations

import sys
from collections import Counter

import numpy as np
import pytest

import attribute_buckets
import faireval
import hardeval
import nerlens
import nerspan.spans
import tough_mentions
from nerspan import GOLD, Corpus, Evaluation, as_train_index, read_columns, read_system_file
from nerspan.layers import layer_column
from nerspan.schemes import get_scheme
from nerspan.spans import LabelTable

from .conftest import built_in_families, shared_path

N_SYSTEMS = 15
TYPES = ("PER", "LOC", "ORG", "MISC")


@pytest.fixture
def decodes(monkeypatch) -> Counter:
    """``(corpus name, column) -> decodings``; a corpus is named by its sentence count
    (the test corpora differ in it)."""
    counts: Counter = Counter()
    original = nerspan.spans.decode

    def counting(corpus, column=GOLD, *args, **kwargs):
        counts[(corpus.n_sentences, column)] += 1
        return original(corpus, column, *args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "decode", None) is original:
            monkeypatch.setattr(module, "decode", counting)
    return counts


def _tags(rng: np.random.Generator, n_sentences: int) -> list[list[str]]:
    """IOB2 tags, invalid transitions included (``I-`` after ``O``): decoding repairs."""
    out = []
    for _ in range(n_sentences):
        tags = []
        for _ in range(int(rng.integers(1, 12))):
            kind = int(rng.integers(0, 4))
            tags.append("O" if kind < 2 else
                        f"{'B' if kind == 2 else 'I'}-{TYPES[int(rng.integers(0, 4))]}")
        out.append(tags)
    return out


def _synthetic(n_sentences: int, seed: int):
    """``(corpus with gold and N_SYSTEMS system columns, system names, training corpus)``."""
    rng = np.random.default_rng(seed)
    gold = _tags(rng, n_sentences)
    words = [f"w{i}" for i in range(40)]
    tokens = [[words[int(rng.integers(0, 40))] for _ in tags] for tags in gold]
    systems = {}
    for k in range(N_SYSTEMS):
        noise = _tags(np.random.default_rng(seed + 1 + k), n_sentences)
        systems[f"system{k}"] = [
            [p if len(n) > i and rng.random() < 0.2 else g for i, (g, p) in
             enumerate(zip(tags, (n + ["O"] * len(tags))[:len(tags)]))]
            for tags, n in zip(gold, noise)]
    corpus, names = Corpus.from_tags(gold, tokens=tokens, columns=systems), list(systems)
    train_tags = _tags(rng, 2 * n_sentences + 1)
    train_tokens = [[words[int(rng.integers(0, 40))] for _ in tags] for tags in train_tags]
    return corpus, names, Corpus.from_tags(train_tags, tokens=train_tokens)


def _expected(corpus, names, train) -> Counter:
    """One decoding of gold, of each system and of the training gold."""
    expected = Counter({(corpus.n_sentences, column): 1 for column in [GOLD] + names})
    expected[(train.n_sentences, GOLD)] = 1
    return expected


def test_synthetic_report_decodes_each_column_once(decodes):
    corpus, names, train = _synthetic(120, seed=3)
    assert len(names) == N_SYSTEMS
    report = nerlens.build_report(None, corpus=corpus, system_names=names, train=train,
                            bootstrap=20, figures=True)
    assert set(report.info["families"]) == set(built_in_families())
    assert decodes == _expected(corpus, names, train)


def test_layered_report_decodes_each_column_once(decodes):
    """Gold with two layers (``nerspan.layers``): each layer, each system and the training
    gold decoded once, with hardeval scoring each layer of every system and the nested
    view scoring every system against both layers."""
    corpus, names, train = _synthetic(80, seed=5)
    inner = _tags(np.random.default_rng(99), 80)
    inner = [(tags + ["O"] * len(gold))[:len(gold)]
             for tags, gold in zip(inner, (corpus.tags(GOLD, i) for i in range(80)))]
    corpus = corpus.with_columns(Corpus.from_tags(inner), {GOLD: layer_column(GOLD, 2)})
    names = names[:4]
    report = nerlens.build_report(None, corpus=corpus, system_names=names, train=train,
                                  bootstrap=0, figures=False)
    assert "hardeval" in report.info["families"]
    assert set(report.results[names[0]]["hardeval"]["layers"]) == {"1", "2"}
    expected = _expected(corpus, names, train)
    expected[(corpus.n_sentences, layer_column(GOLD, 2))] = 1
    assert decodes == expected


def test_conll03_report_decodes_each_column_once(decodes):
    folder = shared_path("data", "conll03")
    paths = sorted((folder / "systems").glob("*.txt"))
    assert len(paths) == N_SYSTEMS
    first = read_system_file(paths[0])
    corpus, names = first.select([GOLD]), []
    for path in paths:
        corpus = corpus.with_columns(read_system_file(path).select(["pred"]),
                                     {"pred": path.stem})
        names.append(path.stem)
    train = read_columns(folder / "train.txt", {GOLD: -1})
    decodes.clear()  # reading the files decodes nothing; counted from here all the same
    nerlens.build_report(None, corpus=corpus, system_names=names, train=train, bootstrap=0,
                   figures=False)
    assert decodes == _expected(corpus, names, train)


@pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")  # random tags, strict
@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_every_family_reads_the_context_s_predictions(decodes, mode):
    """Scored against one gold context, the families share each system's decoding, and
    their numbers equal those of each family scoring the system on its own."""
    corpus, names, train = _synthetic(60, seed=11)
    context = Evaluation(corpus, "IOB2", mode, as_train_index(train, "IOB2", mode))
    scorers = {"tough_mentions": tough_mentions.score, "hardeval": hardeval.score,
               "faireval": faireval.score, "attribute_buckets": attribute_buckets.score}
    options = {"hardeval": {"error_labels": "io"}}
    system = names[0]
    shared = {name: score(context, inputs={'pred_column': system}, **options.get(name, {})).to_dict()
              for name, score in scorers.items()}
    assert decodes[(corpus.n_sentences, system)] == 1
    assert context.pred_decodes == {system: 1}
    alone = corpus.paired(GOLD, system)
    for name, score in scorers.items():
        apart = score(alone, train=train, mode=mode, **options.get(name, {})).to_dict()
        assert apart == shared[name], name


def test_predicted_keeps_the_decoding_and_renumbers_types():
    corpus = Corpus.from_tags([["B-PER", "O", "B-LOC"]], tokens=[["Ada", "in", "Rome"]],
                              columns={"sys": [["B-LOC", "O", "B-PER"]]})
    context = Evaluation(corpus, "IOB2", "lenient")
    first = context.spans("sys")
    assert context.spans("sys") is first and context.pred_decodes == {"sys": 1}
    assert first.to_list(corpus) == [[("LOC", 0, 1), ("PER", 2, 3)]]
    # another table of the same types (a scoring corpus's): the same mentions
    table = LabelTable.build(("O", "B-ORG", "B-PER", "B-LOC"), get_scheme("IOB2"))
    renumbered = context.spans("sys", table)
    assert [renumbered.types[t] for t in renumbered.type.tolist()] == ["LOC", "PER"]
    assert context.pred_decodes == {"sys": 1}
    # a corpus built for predictions given apart is decoded, not kept
    other, _, pred = context.scoring_corpus([["B-LOC", "O", "O"]])
    assert context.pred_spans(other, pred).to_list(other) == [[("LOC", 0, 1)]]
    assert context.pred_decodes == {"sys": 1}
