"""Suffix tags (``suffix=True`` / ``--suffix``: ``PER-B``): equal to seqeval's
``suffix=True`` on random sequences, in its default mode and in strict mode for every
scheme seqeval has; through every family, a gold context, training data and the CLI."""
from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import nerlens
import nerspan
import tough_mentions
from nerlens.cli import main
from nerspan.schemes import from_suffix, to_suffix
from tests.test_result_contract import REPO

labeling = pytest.importorskip("seqeval.metrics.sequence_labeling")
strict_metrics = pytest.importorskip("seqeval.metrics.v1")
seqeval_scheme = pytest.importorskip("seqeval.scheme")

TYPES = ("PER", "WORK-OF-ART")
# seqeval's schemes with their letters (strict mode)
SCHEMES = {"IOB1": "IOB", "IOB2": "IOB", "IOE1": "IOE", "IOE2": "IOE", "IOBES": "IOBES",
           "BILOU": "BILOU"}


def suffix_tags(letters: str):
    return ["O"] + [f"{t}-{p}" for t in TYPES for p in letters if p != "O"]


@st.composite
def tag_pairs(draw, letters):
    vocabulary = suffix_tags(letters)
    lengths = draw(st.lists(st.integers(0, 8), min_size=1, max_size=5))
    gold = [[draw(st.sampled_from(vocabulary)) for _ in range(n)] for n in lengths]
    pred = [[draw(st.sampled_from(vocabulary)) for _ in range(n)] for n in lengths]
    return gold, pred


def seqeval_counts(gold, pred, scheme=None):
    """Per type (sorted): precision, recall, F1 and support, and the micro F1 (default
    mode; with a ``scheme`` strict mode)."""
    metrics = labeling if scheme is None else strict_metrics
    options = {} if scheme is None else {"scheme": scheme}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, r, f, s = metrics.precision_recall_fscore_support(gold, pred, suffix=True,
                                                             zero_division=0, **options)
        micro = metrics.precision_recall_fscore_support(gold, pred, suffix=True,
                                                        average="micro", zero_division=0,
                                                        **options)
    return [float(v) for x in (p, r, f, s) for v in x], micro[2]


def ours(gold, pred, **options):
    out = nerspan.score(gold, pred, inputs={'suffix': True}, **options).to_dict()
    rows = list(out["per_type"].values())
    return [float(row[k]) for k in ("precision", "recall", "f1", "support") for row in rows], \
        out["f1"], list(out["per_type"])


@settings(max_examples=200, deadline=None)
@given(tag_pairs("BIES"))
def test_default_mode_equals_seqeval_suffix(pair):
    gold, pred = pair
    expected, micro = seqeval_counts(gold, pred)
    got, f1, types = ours(gold, pred, scheme="IOBES")
    assert got == pytest.approx(expected, abs=1e-12) and f1 == pytest.approx(micro, abs=1e-12)
    entities = {t for t, _, _ in labeling.get_entities(gold, suffix=True)} | \
        {t for t, _, _ in labeling.get_entities(pred, suffix=True)}
    assert types == sorted(entities)


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_strict_mode_equals_seqeval_suffix(scheme, data):
    gold, pred = data.draw(tag_pairs(SCHEMES[scheme]))
    expected, micro = seqeval_counts(gold, pred, getattr(seqeval_scheme, scheme))
    got, f1, _ = ours(gold, pred, scheme=scheme, mode="strict")
    assert got == pytest.approx(expected, abs=1e-12) and f1 == pytest.approx(micro, abs=1e-12)


def test_the_split_is_on_the_last_hyphen():
    assert from_suffix("WORK-OF-ART-B") == "B-WORK-OF-ART"
    assert [to_suffix(from_suffix(t)) for t in ("PER-B", "O", "X-Y-Z-I", "-B")] == \
        ["PER-B", "O", "X-Y-Z-I", "-B"]
    gold = [["WORK-OF-ART-B", "WORK-OF-ART-I", "O"]]
    assert list(nerspan.score(gold, gold, inputs={'suffix': True}).to_dict()["per_type"]) == ["WORK-OF-ART"]
    # without suffix=True these are not tags of any scheme: named, not guessed
    with pytest.raises(ValueError, match="WORK-OF-ART-B"):
        nerspan.score(gold, gold)


GOLD = [["PER-B", "PER-I", "O", "LOC-B"], ["ORG-B", "O", "O"]]
PRED = [["PER-B", "O", "O", "LOC-B"], ["ORG-B", "ORG-I", "O"]]
PREFIXED = [[from_suffix(t) for t in s] for s in GOLD], [[from_suffix(t) for t in s] for s in PRED]
TOKENS = [["Ana", "Lee", "in", "Rome"], ["UN", "staff", "."]]


def test_every_entry_point_reads_suffix_tags_as_their_prefixed_twins():
    assert nerspan.score(*PREFIXED).to_dict() == nerspan.score(GOLD, PRED,
                                                               inputs={'suffix': True}).to_dict()
    assert faireval.score(*PREFIXED).to_dict()["counts"] == \
        faireval.score(GOLD, PRED, inputs={'suffix': True}).to_dict()["counts"]
    # a gold context built with suffix=True reads the systems scored against it so
    context = nerspan.Evaluation.build(GOLD, inputs={'suffix': True})
    assert faireval.score(context, PRED).to_dict()["counts"] == \
        faireval.score(*PREFIXED).to_dict()["counts"]
    # ... and the training tags
    train = dict(train=(TOKENS, [GOLD[0], PRED[1]]))
    prefixed_train = dict(train=(TOKENS, [PREFIXED[0][0], PREFIXED[1][1]]))
    got = tough_mentions.score(GOLD, PRED, tokens=TOKENS, inputs={'suffix': True}, **train).to_dict()
    expected = tough_mentions.score(*PREFIXED, tokens=TOKENS, **prefixed_train).to_dict()
    assert got["counts"] == expected["counts"] and got["recall"] == expected["recall"]
    with pytest.raises(TypeError, match="span input has types, not tags"):
        nerspan.score([[(0, 1, "PER")]], [[(0, 1, "PER")]], inputs={'suffix': True})
    with pytest.raises(TypeError, match="suffix must be True or False"):
        nerspan.score(GOLD, PRED, inputs={'suffix': "yes"})


def test_the_cli_reads_suffix_tags(tmp_path, capsys):
    both = tmp_path / "both.txt"
    both.write_text("\n\n".join("\n".join(f"{w} {g} {p}" for w, g, p in zip(*rows))
                                for rows in zip(TOKENS, GOLD, PRED)) + "\n", encoding="utf-8")
    train = tmp_path / "train.txt"
    train.write_text("\n".join(f"{w} {t}" for w, t in zip(TOKENS[0], GOLD[0])) + "\n",
                     encoding="utf-8")
    capsys.readouterr()
    assert main(["score", str(both), "--suffix", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    expected = nerspan.score(*PREFIXED).to_dict()
    assert got["f1"] == expected["f1"] and got["per_type"] == expected["per_type"]
    assert main(["tough-mentions", str(both), "--train", str(train), "--suffix",
                 "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["counts"]["seen"] == 2   # Ana Lee (PER) and Rome (LOC) are in training


def test_the_modules_read_suffix_tags():
    evaluate = pytest.importorskip("evaluate")
    metric = evaluate.load(str(REPO / "metrics" / "faireval"), suffix=True)
    got = metric.compute(references=GOLD, predictions=PRED)
    assert got["counts"] == faireval.score(*PREFIXED).to_dict()["counts"]
    train = dict(train=(TOKENS, [GOLD[0], PRED[1]]))
    metric = evaluate.load(str(REPO / "metrics" / "tough_mentions"), suffix=True, **train)
    got = metric.compute(references=GOLD, predictions=PRED, tokens=TOKENS)
    expected = tough_mentions.score(*PREFIXED, tokens=TOKENS, train=(TOKENS, [PREFIXED[0][0], PREFIXED[1][1]])).to_dict()
    assert got["counts"] == expected["counts"]


def test_the_report_reads_suffix_tags(tmp_path, capsys):
    gold, pred = tmp_path / "gold.txt", tmp_path / "tagger.txt"
    for path, side in ((gold, GOLD), (pred, PRED)):
        path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(words, tags))
                                    for words, tags in zip(TOKENS, side)) + "\n",
                        encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(gold), str(pred), "--suffix", "--bootstrap", "0",
                 "--no-progress", "--families", "faireval", "--output", str(out)]) == 0
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    expected = nerspan.score(*PREFIXED).to_dict()
    assert data["results"]["tagger"]["entity"]["per_type"] == expected["per_type"]
    assert data["confusion"]["tagger"]["confusion"] == \
        nerspan.Evaluation.build(*PREFIXED).confusion("pred")["confusion"]


def test_the_report_api_reads_suffix_tags():
    made = nerlens.build_report(GOLD, {"tagger": PRED}, train=(TOKENS, GOLD), tokens=TOKENS,
                          inputs={"suffix": True}, bootstrap=0, figures=False)
    expected = nerlens.build_report(PREFIXED[0], {"tagger": PREFIXED[1]},
                              train=(TOKENS, PREFIXED[0]), tokens=TOKENS, bootstrap=0,
                              figures=False)
    assert made.results == expected.results and made.confusion == expected.confusion


def test_a_tag_that_is_no_suffix_tag_is_named_as_written():
    with pytest.raises(ValueError, match=r"predictions, sentence 1, position 0: 'LOC-X' "
                                         r"\(written type first, read as 'X-LOC'\) is not a tag"):
        nerspan.score(GOLD, [PRED[0], ["LOC-X", "O", "O"]], inputs={'suffix': True})
    with pytest.raises(ValueError, match=r"'PER-B ' contains whitespace|'PER-B '"):
        faireval.score([["PER-B "]], [["O"]], inputs={'suffix': True})


def test_the_trainer_helper_reads_suffix_labels():
    """``make_compute_metrics(..., suffix=True)``: a model whose ``id2label`` writes
    ``PER-B`` logs what the same model with ``B-PER`` labels logs, its training tags
    (written so too) included; a label that is no suffix tag is named as written."""
    trainer = pytest.importorskip("nerlens.trainer")
    labels = sorted({t for s in GOLD + PRED for t in s})
    ids = {label: k for k, label in enumerate(labels)}
    width = max(map(len, GOLD))   # padded with -100, as a Trainer gives them
    gold_ids, pred_ids = ([[ids[t] for t in s] + [-100] * (width - len(s)) for s in side]
                          for side in (GOLD, PRED))
    train = (TOKENS, [GOLD[0], PRED[1]])
    got = trainer.make_compute_metrics(labels, eval_tokens=TOKENS, train=train,
                                       inputs={'suffix': True}, detail="all")((pred_ids, gold_ids))
    expected = trainer.make_compute_metrics(
        [from_suffix(t) for t in labels], eval_tokens=TOKENS,
        train=(TOKENS, [PREFIXED[0][0], PREFIXED[1][1]]), detail="all")((pred_ids, gold_ids))
    assert got == expected and got["tough_mentions_seen_count"] == 2  # Ana Lee, Rome
    bad = trainer.make_compute_metrics(labels + ["LOC-X"], metrics=["faireval"],
                                       inputs={'suffix': True})
    with pytest.raises(ValueError, match=r"predictions, sentence 0, position 1: 'LOC-X' "
                                         r"\(written type first, read as 'X-LOC'\)"):
        bad(([[0, len(labels)]], [[0, 0]]))
    with pytest.raises(TypeError, match="suffix must be True or False"):
        trainer.make_compute_metrics(labels, metrics=["faireval"], inputs={'suffix': "yes"})


@pytest.mark.parametrize("family", ["tough_mentions", "hardeval", "attribute_buckets"])
def test_suffix_given_to_compute_reads_the_training_tags_too(family):
    """``suffix=True`` given to ``compute`` (not at load) reads the training tags given
    to that compute type first too, as the load-time option does those given at load; a
    later compute without it reads its training data prefix first; training data given
    at load time is read as loaded whatever a compute's suffix."""
    evaluate = pytest.importorskip("evaluate")
    score = __import__(family).score
    train = dict(train=(TOKENS, [GOLD[0], PRED[1]]))
    prefixed_train = dict(train=(TOKENS, [PREFIXED[0][0], PREFIXED[1][1]]))
    expected = score(*PREFIXED, tokens=TOKENS, **prefixed_train).to_dict()
    metric = evaluate.load(str(REPO / "metrics" / family))
    at_compute = metric.compute(references=GOLD, predictions=PRED, tokens=TOKENS,
                                suffix=True, **train)
    at_load = evaluate.load(str(REPO / "metrics" / family), suffix=True, **train).compute(
        references=GOLD, predictions=PRED, tokens=TOKENS)
    for got in (at_compute, at_load):
        assert {k: v for k, v in got.items() if k != "options"} == \
            {k: v for k, v in expected.items() if k != "options"}
    # the same module, the next compute without suffix: prefix-first tags and training
    again = metric.compute(references=PREFIXED[0], predictions=PREFIXED[1], tokens=TOKENS,
                           **prefixed_train)
    loaded = evaluate.load(str(REPO / "metrics" / family), **prefixed_train).compute(
        references=GOLD, predictions=PRED, tokens=TOKENS, suffix=True)
    for got in (again, loaded):
        assert {k: v for k, v in got.items() if k != "options"} == \
            {k: v for k, v in expected.items() if k != "options"}
