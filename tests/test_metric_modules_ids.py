"""Every evaluate module takes label ids with ``label_list`` as a Trainer produces them
(padded rows, -100 on special tokens, non-first sub-tokens and padding), at load or at
compute, in one call or in batches, and gives the numbers of the tag route."""
from __future__ import annotations

import random

import numpy as np
import pytest

from nerlens.demo import demo_gold, demo_train
from tests.conftest import REPO
from tests.readme_snippets import DOCS, snippet
from tests.tiny_model import demo_split

evaluate = pytest.importorskip("evaluate")

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")
N = 60  # sentences of the WNUT-17 demo: a few of every error kind


@pytest.fixture(scope="module")
def data():
    tokens, gold = demo_split(demo_gold(), N)
    train_tokens, train_tags = demo_split(demo_train(), 400)
    labels = ["O"] + sorted({t for s in gold + train_tags for t in s} - {"O"})
    rng = random.Random(7)
    # predictions: gold with a fifth of the tags replaced, so every kind of error occurs
    pred = [[t if rng.random() < 0.8 else rng.choice(labels) for t in s] for s in gold]
    refs, preds = _as_trainer_gives(gold, pred, labels, rng)
    return dict(tokens=tokens, gold=gold, pred=pred, labels=labels, refs=refs, preds=preds,
                train=dict(train=(train_tokens, train_tags)))


def _as_trainer_gives(gold, pred, labels, rng):
    """Padded id arrays: [CLS] first, some words in two sub-tokens (the second -100 in the
    references, any id in the predictions), padding to the longest row."""
    rows_ref, rows_pred = [], []
    for g, p in zip(gold, pred):
        ref, prd = [-100], [rng.randrange(len(labels))]
        for gt, pt in zip(g, p):
            ref.append(labels.index(gt))
            prd.append(labels.index(pt))
            if rng.random() < 0.3:
                ref.append(-100)
                prd.append(rng.randrange(len(labels)))
        rows_ref.append(ref + [-100])  # [SEP]
        rows_pred.append(prd + [0])
    width = max(map(len, rows_ref))
    refs = np.full((len(gold), width), -100)
    preds = np.zeros((len(gold), width), dtype=np.int64)
    for i, (r, p) in enumerate(zip(rows_ref, rows_pred)):
        refs[i, :len(r)], preds[i, :len(p)] = r, p
    return refs, preds


def _load(family, data, **kwargs):
    extra = {} if family == "faireval" else dict(tokens=data["tokens"], **data["train"])
    return evaluate.load(str(REPO / "metrics" / family), **extra, **kwargs)


@pytest.fixture(scope="module")
def by_tags(data):
    return {family: _load(family, data).compute(predictions=data["pred"],
                                                references=data["gold"])
            for family in FAMILIES}


@pytest.mark.parametrize("family", FAMILIES)
def test_ids_with_label_list_at_compute_equal_tags(family, data, by_tags):
    result = _load(family, data).compute(predictions=data["preds"], references=data["refs"],
                                         label_list=data["labels"])
    assert result == by_tags[family]
    # a non-trivial example: some headline number strictly between 0 and 1
    assert any(isinstance(v, float) and 0 < v < 1 for v in result.values()), result


@pytest.mark.parametrize("family", FAMILIES)
def test_ids_with_label_list_at_load_equal_tags(family, data, by_tags):
    # an id2label dict, as model.config gives it; lists of Python ints, one batch at a time
    id2label = dict(enumerate(data["labels"]))
    metric = _load(family, data, label_list=id2label)
    half = N // 2
    metric.add_batch(predictions=data["preds"][:half].tolist(),
                     references=data["refs"][:half].tolist())
    metric.add_batch(predictions=data["preds"][half:], references=data["refs"][half:])
    assert metric.compute() == by_tags[family]
    # label_list means label ids, as in nerspan.score: tags with it are refused, clearly
    with pytest.raises(Exception, match="label_list"):
        metric.compute(predictions=data["pred"], references=data["gold"])


def test_ids_added_before_compute_gives_label_list(data, by_tags):
    metric = _load("faireval", data)
    metric.add_batch(predictions=data["preds"], references=data["refs"])
    assert metric.compute(label_list=data["labels"]) == by_tags["faireval"]
    metric.add_batch(predictions=data["preds"], references=data["refs"])
    with pytest.raises(Exception, match=r"label ids need label_list"):
        metric.compute()


def test_ids_outside_the_label_list_are_an_error(data):
    metric = _load("faireval", data, label_list=data["labels"][:3])
    with pytest.raises(Exception, match=r"outside the label list \(0\.\.2\)"):
        metric.compute(predictions=data["preds"], references=data["refs"])


def test_the_readme_snippet(monkeypatch, capsys):
    monkeypatch.chdir(REPO)  # it loads "metrics/faireval"
    exec(snippet("label_ids", DOCS / "evaluate.md"), {})
    # [CLS], the sub-token ##s and [SEP] are dropped: Ana Lee is found, nothing else
    assert capsys.readouterr().out.split() == ["1", "1.0"]
