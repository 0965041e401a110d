"""The gold context: gold decoded and classified once, any number of systems scored
against it by any family, with the numbers of the plain path."""
from __future__ import annotations

import json
import sys
from collections import Counter

import numpy as np
import pytest

import attribute_buckets
import faireval
import hardeval
import nerlens
import nerspan
import nerspan.spans
import tough_mentions
from nerlens.jsonable import json_ready
from nerspan import GOLD, Evaluation, InputTypeError, as_train_index, read_columns

from .conftest import shared_path, tagged_split

FAMILIES = {"tough_mentions": tough_mentions, "hardeval": hardeval, "faireval": faireval,
            "attribute_buckets": attribute_buckets}
TRAIN_TOKENS = [["Kim", "lives", "in", "New", "York"], ["Paris", "Hilton", "is", "in", "Paris"],
                ["Kim", "met", "Ana", "in", "York"]]
TRAIN_TAGS = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-PER", "I-PER", "O", "O", "B-LOC"],
              ["B-PER", "O", "B-PER", "O", "B-ORG"]]
TOKENS = [["Ana", "visited", "New", "York"], ["Kim", "is", "in", "Paris"], ["York", "won"]]
GOLD_TAGS = [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O", "B-LOC"], ["B-ORG", "O"]]
SYSTEMS = {
    "same": GOLD_TAGS,
    "shifted": [["B-PER", "O", "B-LOC", "O"], ["B-LOC", "O", "O", "B-LOC"], ["B-PER", "O"]],
    # types the gold does not have: the label table grows, gold's type ids must not move
    "new_types": [["B-AAA", "O", "B-MISC", "I-MISC"], ["I-PER", "O", "B-ZZZ", "B-LOC"],
                  ["B-ORG", "B-MISC"]],
}


def plain(name, predictions, **options):
    return FAMILIES[name].score(GOLD_TAGS, predictions, tokens=TOKENS, **_train(name),
                                **options).to_dict()


def _train(name):
    return {} if name == "faireval" else {"train": (TRAIN_TOKENS, TRAIN_TAGS)}


def same(a: dict, b: dict) -> bool:
    return json.dumps(json_ready(a), sort_keys=True) == json.dumps(json_ready(b), sort_keys=True)


@pytest.mark.parametrize("name", FAMILIES)
@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_context_gives_the_numbers_of_the_plain_path(name, mode):
    context = Evaluation.build(GOLD_TAGS, tokens=TOKENS, mode=mode, train=(TRAIN_TOKENS, TRAIN_TAGS))
    for system, predictions in SYSTEMS.items():
        options = {"return_mentions": True} if name == "tough_mentions" else {}
        if name == "hardeval":
            options = {"return_hard_tokens": True}
        expected = plain(name, predictions, mode=mode, **options)
        got = FAMILIES[name].score(context, predictions, **options).to_dict()
        assert same(got, expected), (name, system)
    assert context.gold_decodes == 1


@pytest.mark.parametrize("options", [{"error_labels": "io"}, {"error_labels": "bio"},
                                     {"strict_diff": True}])
def test_hardeval_options_through_a_context(options):
    context = Evaluation.build(GOLD_TAGS, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS))
    for predictions in SYSTEMS.values():
        assert same(hardeval.score(context, predictions, **options).to_dict(),
                    plain("hardeval", predictions, **options))


def test_attribute_buckets_options_through_a_context():
    context = Evaluation.build(GOLD_TAGS, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS))
    for options in ({"compat": "interpreteval"}, {"lowercase": False}, {"n_buckets": 3}):
        for predictions in SYSTEMS.values():
            assert same(attribute_buckets.score(context, predictions, **options).to_dict(),
                        plain("attribute_buckets", predictions, **options)), options


def test_one_corpus_many_columns_every_family():
    corpus = nerspan.Corpus.from_tags(GOLD_TAGS, tokens=TOKENS, columns=SYSTEMS)
    index = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    context = Evaluation(corpus, train=index)
    for name, family in FAMILIES.items():
        for system in SYSTEMS:
            got = family.score(context, inputs={'pred_column': system}).to_dict()
            expected = family.score(corpus, inputs={'pred_column': system}, train=index).to_dict()
            assert same(got, expected), (name, system)
    assert context.gold_decodes == 1


def _count_classifications(monkeypatch) -> Counter:
    """Patch tough_mentions' and hardeval's gold classification; return their call counts."""
    calls = Counter()
    for module, attribute in ((tough_mentions.core, "classify"),
                              (hardeval.subsets, "classify_tokens")):
        original = getattr(module, attribute)

        def counting(*args, _original=original, _name=attribute, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)
        monkeypatch.setattr(module, attribute, counting)
    return calls


def test_classification_made_once_per_context(monkeypatch):
    calls = _count_classifications(monkeypatch)
    context = Evaluation.build(GOLD_TAGS, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS))
    for predictions in SYSTEMS.values():
        tough_mentions.score(context, predictions)
        hardeval.score(context, predictions)
        attribute_buckets.score(context, predictions)
        values = [k for k in context._derived if k[0] == "attribute_buckets.gold_values"]
        # once per attribute; again only for predictions that add types (the type ids move)
        n_tables = 2 if predictions is SYSTEMS["new_types"] else 1
        assert len(values) == n_tables * len(attribute_buckets.ATTRIBUTES)
    assert calls == {"classify": 1, "classify_tokens": 1}


def test_label_ids_and_datasets_contexts():
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    gold = [[1, 2, -100, 0, 3], [0, 3, 4]]
    pred = [[1, 0, 4, 0, 3], [0, 3, 0]]
    context = Evaluation.build(gold, label_list=labels)
    expected = faireval.score(gold, pred, label_list=labels).to_dict()
    assert same(faireval.score(context, pred, label_list=labels).to_dict(), expected)
    split = tagged_split([["Kim", "in", "Paris"]], [["B-PER", "O", "B-LOC"]], labels)
    context = Evaluation.build(split)
    got = faireval.score(context, [["B-PER", "O", "B-PER"]]).to_dict()
    assert same(got, faireval.score(split, [["B-PER", "O", "B-PER"]]).to_dict())


def test_faireval_takes_every_input_option():
    corpus = nerspan.Corpus.from_tags(GOLD_TAGS, tokens=TOKENS, columns=SYSTEMS)
    expected = faireval.score(GOLD_TAGS, SYSTEMS["shifted"]).to_dict()
    got = faireval.score(corpus, inputs={'gold_column': GOLD, 'pred_column': "shifted"},
                         train=(TRAIN_TOKENS, TRAIN_TAGS)).to_dict()
    assert same(got, expected)


def test_conflicting_options_are_refused():
    context = Evaluation.build(GOLD_TAGS, tokens=TOKENS, scheme="IOB2",
                                train=(TRAIN_TOKENS, TRAIN_TAGS))
    with pytest.raises(ValueError, match="scheme='IOBES' conflicts with the evaluation"):
        tough_mentions.score(context, GOLD_TAGS, scheme="IOBES")
    with pytest.raises(ValueError, match="mode='strict' conflicts"):
        faireval.score(context, GOLD_TAGS, mode="strict")
    other = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    with pytest.raises(ValueError, match="train conflicts with the evaluation"):
        hardeval.score(context, GOLD_TAGS, train=other)
    # the same values as the context's are no conflict
    hardeval.score(context, GOLD_TAGS, scheme="iob2", mode="lenient", train=context.train)


def test_bad_predictions_against_a_context():
    context = Evaluation.build(GOLD_TAGS, tokens=TOKENS)
    with pytest.raises(ValueError, match="no predictions"):
        faireval.score(context)
    with pytest.raises(InputTypeError, match="label ids need an evaluation built from"):
        faireval.score(context, [[0, 1, 2, 3], [0, 0, 0, 0], [0, 0]], label_list=["O", "B-PER"])
    with pytest.raises(nerspan.SentenceCountError):
        faireval.score(context, GOLD_TAGS[:2])
    with pytest.raises(InputTypeError, match="Evaluation needs a Corpus"):
        Evaluation(GOLD_TAGS)


def _count_gold_decodes(monkeypatch, gold_ids) -> list:
    """Patch ``decode`` wherever a module imported it; return the list of gold decodes."""
    calls = []
    original = nerspan.spans.decode

    def counting(corpus, column=GOLD, *args, **kwargs):
        if corpus.columns.get(column) is gold_ids:
            calls.append(column)
        return original(corpus, column, *args, **kwargs)
    for module in list(sys.modules.values()):
        if getattr(module, "decode", None) is original:
            monkeypatch.setattr(module, "decode", counting)
    return calls


def test_report_on_conll03_decodes_gold_once(monkeypatch):
    data = shared_path("data", "conll03")
    systems = sorted((data / "systems").glob("*.txt"))
    assert len(systems) == 15
    corpora = [nerspan.read_system_file(path) for path in systems]
    corpus = corpora[0].select([GOLD])
    for path, system in zip(systems, corpora):
        corpus = corpus.with_columns(system.select(["pred"]), {"pred": path.stem})
    train = read_columns(data / "train.txt", {GOLD: -1})
    calls = _count_gold_decodes(monkeypatch, corpus.column(GOLD))
    classified = _count_classifications(monkeypatch)
    report = nerlens.build_report(None, corpus=corpus, system_names=[p.stem for p in systems],
                            train=train, bootstrap=0, figures=False)
    assert calls == [GOLD]
    assert classified == {"classify": 1, "classify_tokens": 1}
    assert len(report.results) == 15
    first = report.results[systems[0].stem]
    assert np.isclose(first["tough_mentions"]["f1"], first["attribute_buckets"]["f1"])


# -- per-example arrays as evaluate features ---------------------------------------------
def _load(family: str, **options):
    evaluate = pytest.importorskip("evaluate")
    from .conftest import REPO

    return evaluate.load(str(REPO / "metrics" / family), **options)


def test_faireval_pos_travels_with_each_batch():
    references = [["B-PER", "I-PER", "I-PER", "O"], ["B-LOC", "I-LOC"]]
    predictions = [["B-PER", "I-PER", "O", "O"], ["B-LOC", "O"]]
    pos = [["NNP", "NNP", ",", "VB"], ["NNP", "."]]
    expected = faireval.score(references, predictions, ignore_punct=True, pos=pos).to_dict()
    metric = _load("faireval", ignore_punct=True)
    for r, p, t in zip(references, predictions, pos):
        metric.add_batch(references=[r], predictions=[p], pos=[t])
    result = metric.compute()
    assert result["counts"] == expected["counts"] and result["f1"] == expected["f1"]
    old = _load("faireval")  # pos as a compute option: one more release, with a warning
    with pytest.warns(DeprecationWarning, match="pos=... as a compute option is deprecated"):
        again = old.compute(references=references, predictions=predictions,
                            ignore_punct=True, pos=pos)
    assert again["counts"] == expected["counts"]


def test_hardeval_subsets_travel_with_each_batch():
    references = [["B-PER", "O"], ["O", "B-LOC"]]
    predictions = [["B-PER", "B-PER"], ["O", "O"]]
    subsets = [[hardeval.UNSEEN_I, hardeval.OTHER], [hardeval.DIFF_O, hardeval.DIFF_E]]
    words = [["Kim", "ran"], ["in", "Rome"]]
    expected = hardeval.score(references, predictions, tokens=words, subsets=subsets).to_dict()
    metric = _load("hardeval", subsets=True, tokens=words)
    for r, p, s in zip(references, predictions, subsets):
        metric.add_batch(references=[r], predictions=[p], subsets=[s])
    result = metric.compute()
    assert result["subsets"] == expected["subsets"] and result["ter"] == expected["ter"]
    old = _load("hardeval", tokens=words)
    with pytest.warns(DeprecationWarning, match="subsets=... as a compute option"):
        again = old.compute(references=references, predictions=predictions, subsets=subsets)
    assert again["subsets"] == expected["subsets"]


def test_trainer_helper_decodes_gold_once_per_call(monkeypatch):
    from nerlens.trainer import make_compute_metrics

    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    compute = make_compute_metrics(labels, eval_tokens=TOKENS,
                                   train=(TRAIN_TOKENS, TRAIN_TAGS))
    gold = np.array([[labels.index(t) for t in s] + [-100] * (4 - len(s)) for s in GOLD_TAGS])
    pred = np.array([[labels.index(t) for t in s] + [0] * (4 - len(s))
                     for s in SYSTEMS["shifted"]])
    calls = []
    original = nerspan.spans.decode

    def counting(corpus, column=GOLD, *args, **kwargs):
        calls.append(column)
        return original(corpus, column, *args, **kwargs)
    for module in list(sys.modules.values()):
        if getattr(module, "decode", None) is original:
            monkeypatch.setattr(module, "decode", counting)
    for _ in range(2):
        calls.clear()
        out = compute.compute(gold, pred)
        assert calls.count(GOLD) == 1
        assert out["tough_mentions_recall"] == plain("tough_mentions", SYSTEMS["shifted"])["recall"]
