"""hardeval on the shared real data (skipped when /work/shared/data is absent).

No published numbers are pinned: the checks are invariants, and the subsets are
recomputed by a plain dict-and-Counter reading of METHODS.md section 2.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

import hardeval
from nerspan import as_train_index, read_columns, read_system_file

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def data(*parts) -> Path:
    path = DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


def naive_leaves(train_corpus, test_corpus, strict=False):
    """Leaf names per test token, with plain Python counting (slow, obvious)."""
    def io_labels(corpus):
        labels = []
        for s in range(corpus.n_sentences):
            current = None
            for tag in corpus.tags("gold", s):
                prefix, _, kind = tag.partition("-")
                # valid IOB2 gold: B starts, I continues the current mention's type
                if prefix == "B" or (prefix == "I" and current != kind):
                    current = kind
                elif prefix == "O":
                    current = None
                labels.append("O" if current is None else "I-" + current)
        return labels

    counts = defaultdict(Counter)
    for word, label in zip(train_corpus.token_strings(), io_labels(train_corpus)):
        counts[word][label] += 1
    leaves = []
    for word, label in zip(test_corpus.token_strings(), io_labels(test_corpus)):
        c = counts.get(word)
        if c is None:
            leaves.append("unseen_o" if label == "O" else "unseen_i")
            continue
        o = c["O"]
        i = sum(v for k, v in c.items() if k != "O")
        top = max([v for k, v in c.items() if k != "O"], default=0)
        if label == "O":
            diff = i > o and (not strict or o == 0)
            leaves.append("diff_o" if diff else "other")
        elif o > i and (not strict or i == 0):
            leaves.append("diff_i")
        elif o <= i and c[label] < top and (not strict or c[label] == 0):
            leaves.append("diff_e")
        else:
            leaves.append("other")
    return leaves


def check_invariants(result):
    d = result.to_dict()
    s = d["subsets"]
    for field in ("tokens", "errors"):
        assert s["all"][field] == s["unseen"][field] + s["diff"][field] + s["other"][field]
        assert s["unseen"][field] == s["unseen_i"][field] + s["unseen_o"][field]
        assert s["diff"][field] == s["diff_i"][field] + s["diff_o"][field] + s["diff_e"][field]
    for row in s.values():
        assert row["ter"] is None or 0.0 <= row["ter"] <= 1.0
        assert row["words"] <= row["tokens"]
    parts = [d["ter_unseen"], d["ter_diff"]]
    assert d["hardeval"] == pytest.approx(sum(parts) / 2)
    assert min(parts) <= d["hardeval"] <= max(parts)
    assert sum(d["error_breakdown"].values()) == pytest.approx(1.0)
    # The hard subsets are harder than the rest on every real system.
    assert d["ter_unseen"] > d["ter_other"] and d["ter_diff"] > d["ter_other"]
    return d


@pytest.fixture(scope="module")
def conll03():
    train = read_columns(data("conll03", "train.txt"))
    systems = {p.stem: read_system_file(p)
               for p in sorted(data("conll03", "systems").glob("*.txt"))}
    return train, as_train_index(train), systems


def test_conll03_subsets_equal_a_plain_reading_of_the_spec(conll03):
    train, index, systems = conll03
    test = next(iter(systems.values()))
    for strict in (False, True):
        codes = hardeval.classify_tokens(test, index, strict_diff=strict)
        assert [hardeval.LEAF_NAMES[c] for c in codes] == naive_leaves(train, test, strict)


def test_conll03_all_systems(conll03):
    _, index, systems = conll03
    assert len(systems) == 15
    codes = None
    for name, corpus in systems.items():
        if codes is None:
            codes = hardeval.classify_tokens(corpus, index)
        results = {c: hardeval.score(corpus, subsets=codes, error_labels=c)
                   for c in hardeval.ERROR_LABELS}
        d = check_invariants(results["bilou"])
        assert d["subsets"]["all"]["tokens"] == 46435
        errors = {c: r.subsets["all"].errors for c, r in results.items()}
        if results["bilou"].repairs["pred"]["dropped_inside"] == 0 \
                and results["bilou"].repairs["pred"]["mixed_type"] == 0:
            # Valid IOB2 on both sides: an IO or raw-tag difference is a BILOU difference.
            assert errors["io"] <= errors["bilou"] and errors["bio"] <= errors["bilou"], name
        # With the index given, score() classifies the same way.
        direct = hardeval.score(corpus, train=index).to_dict()
        decoding = {"scheme": "IOB2", "mode": "lenient"}
        assert direct.pop("options") == {"error_labels": "bilou", "strict_diff": False,
                                         **decoding}
        given = results["bilou"].to_dict()
        assert given.pop("options") == {"error_labels": "bilou", "strict_diff": None,
                                        **decoding}
        assert direct == given


def test_wnut16(tmp_path):
    index = as_train_index(str(data("wnut16", "train.txt")))
    for path in sorted(data("wnut16", "systems").glob("*.txt")):
        corpus = read_system_file(path)
        d = check_invariants(hardeval.score(corpus, train=index))
        # Twitter: a large share of the test tokens is unseen in training.
        assert d["subsets"]["unseen"]["tokens"] > 0.2 * d["subsets"]["all"]["tokens"]


def test_conll2002_spanish_and_dutch():
    esp = as_train_index(str(data("conll2002", "esp.train")))
    system = read_system_file(data("conll2002", "systems", "spacy_es_sm_5699.txt"))
    testb = read_columns(data("conll2002", "esp.testb"))
    assert testb.n_tokens == system.n_tokens
    check_invariants(hardeval.score(system, train=esp))

    ned_train = read_columns(data("conll2002", "ned.train"))
    ned_test = read_columns(data("conll2002", "ned.testb"))
    ned = as_train_index(ned_train)
    # Gold scored against itself: every subset has TER 0 or is empty.
    d = hardeval.score(ned_test, inputs={'pred_column': "gold"}, train=ned).to_dict()
    assert d["ter"] == 0.0 and d["hardeval"] == 0.0
    assert [hardeval.LEAF_NAMES[c] for c in hardeval.classify_tokens(ned_test, ned)] \
        == naive_leaves(ned_train, ned_test)
    # 10-fold subsets of the Dutch training set: one code per token, no fold leaks itself
    # (each fold has unseen tokens; the fixed split has them too).
    codes = hardeval.kfold_subsets(ned_train, k=10, seed=0)
    assert len(codes) == ned_train.n_tokens
    folds = hardeval.kfold_folds(ned_train.n_sentences, 10, 0)[ned_train.sentence_of_position]
    for fold in range(10):
        assert np.isin(codes[folds == fold], [hardeval.UNSEEN_I, hardeval.UNSEEN_O]).any()
