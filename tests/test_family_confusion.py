"""The entity confusion matrix of an evaluation every family scores
(``nerspan.Evaluation.confusion``) and ``--confusion`` on every family command: the
matrix and the boundary errors equal nerspan's on the same input (the oracle: its
hand-computed cells are pinned in tests/test_confusion.py), computed from the spans the
family decoded (no second decode), the same through the command line; gold against
itself is diagonal.
"""
from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerspan import Evaluation
from nerspan.confusion import CONFUSION_KEYS, OUTSIDE
from nerlens.cli import main
from nerlens.report.confusion import matrices_text
from nerlens.report.text import WIDTH

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
TRAIN = dict(train=([["w0", "w1", "w2"], ["w3", "w1"]], [["B-PER", "I-PER", "O"], ["B-LOC", "O"]]))
FAMILIES = {"tough_mentions": tough_mentions.score, "hardeval": hardeval.score,
            "attribute_buckets": attribute_buckets.score, "faireval": faireval.score}


def family_options(family: str, tokens) -> dict:
    return {} if family == "faireval" else dict(tokens=tokens, **TRAIN)


def family_matrix(family: str, gold, pred, **options) -> dict:
    """The entity confusion matrix of the evaluation ``family`` scores (built with the
    family's options and ``options``), after the family scored it."""
    evaluation = Evaluation.build(gold, pred, **options)
    FAMILIES[family](evaluation, nerspan.PRED)
    return evaluation.confusion(nerspan.PRED)


def words(tags) -> list:
    return [[f"w{i % 5}" for i in range(len(sentence))] for sentence in tags]


def matrix_of(out) -> dict:
    return {key: out[key] for key in CONFUSION_KEYS}


def oracle(gold, pred, **options) -> dict:
    return matrix_of(Evaluation.build(gold, pred, **options).confusion(nerspan.PRED))


@st.composite
def tagged(draw):
    """Gold and predicted IOB2 tags of the same lengths, invalid transitions included."""
    lengths = draw(st.lists(st.integers(1, 7), min_size=1, max_size=4))
    tag = st.sampled_from(LABELS)
    return ([[draw(tag) for _ in range(n)] for n in lengths],
            [[draw(tag) for _ in range(n)] for n in lengths])


@settings(max_examples=20, deadline=None)
@given(tagged())
def test_every_family_gives_nerspans_matrix_and_nothing_else_changes(pair):
    gold, pred = pair
    want = oracle(gold, pred)
    for family, score in FAMILIES.items():
        options = family_options(family, words(gold))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # lenient repairs of the random tags
            evaluation = Evaluation.build(gold, pred, **options)
            got = score(evaluation, nerspan.PRED).to_dict()
            plain = score(gold, pred, **options).to_dict()
        assert matrix_of(evaluation.confusion(nerspan.PRED)) == want, family
        assert not set(CONFUSION_KEYS) & set(plain), family
        assert got == plain, family


@settings(max_examples=20, deadline=None)
@given(tagged())
def test_gold_against_itself_is_diagonal_in_every_family(pair):
    gold, _ = pair
    for family, score in FAMILIES.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = family_matrix(family, gold, gold, **family_options(family, words(gold)))
        matrix = out["confusion"]
        off = {(g, p): n for g, row in matrix.items() for p, n in row.items() if g != p and n}
        assert not off, (family, off)
        assert not any(out["boundary_errors"]["gold"].values()), family
        assert not any(out["boundary_errors"]["predicted"].values()), family
        mentions = nerspan.score(gold, gold).to_dict()["per_type"]
        assert {t: matrix[t][t] for t in matrix if t != OUTSIDE} == \
            {t: row["support"] for t, row in mentions.items()}, family


GOLD = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"], ["B-LOC", "O", "O"]]
PRED = [["B-PER", "O", "O", "B-ORG", "I-ORG"], ["B-LOC", "O", "O"], ["B-LOC", "O", "B-PER"]]
TOKENS = [["Ana", "Lee", "in", "Rome", "."], ["Acme", "hired", "Kim"], ["Oslo", "is", "cold"]]


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_gold_context_decodes_each_system_once(family):
    """The matrix reads the spans the family scored: the system is decoded once."""
    context = Evaluation.build(GOLD, tokens=TOKENS, **TRAIN)
    corpus = context.corpus.with_columns(Evaluation.build(PRED).corpus,
                                         {nerspan.GOLD: "sys"})
    context = Evaluation(corpus, train=context.train)
    FAMILIES[family](context, "sys")
    assert matrix_of(context.confusion("sys")) == oracle(GOLD, PRED)
    assert context.pred_decodes == {"sys": 1} and context.gold_decodes == 1


@pytest.mark.parametrize("error_labels", ["bilou", "bio", "io"])
def test_hardevals_matrix_is_its_mentions_whatever_labels_it_compares(error_labels):
    evaluation = Evaluation.build(GOLD, PRED, tokens=TOKENS, **TRAIN)
    hardeval.score(evaluation, nerspan.PRED, error_labels=error_labels)
    assert matrix_of(evaluation.confusion(nerspan.PRED)) == oracle(GOLD, PRED)


@pytest.mark.parametrize("options", [{"inputs": {"keep_types": ["PER", "LOC"]}},
                                     {"inputs": {"type_map": {"ORG": "LOC"}}},
                                     {"mode": "strict"}, {"scheme": "IOB1"}])
def test_the_input_options_shape_the_matrix_as_in_nerspan(options):
    want = oracle(GOLD, PRED, **options)
    for family in FAMILIES:
        got = family_matrix(family, GOLD, PRED, **options, **family_options(family, TOKENS))
        assert matrix_of(got) == want, family


def test_faireval_keeps_its_matrix_of_errors_and_the_entity_matrix_is_the_evaluations():
    plain = faireval.score(GOLD, PRED).to_dict()
    evaluation = Evaluation.build(GOLD, PRED)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = faireval.score(evaluation, nerspan.PRED).to_dict()
        assert evaluation.confusion(nerspan.PRED)["confusion"] == \
            oracle(GOLD, PRED)["confusion"]
    assert out["error_confusion"] == plain["error_confusion"]
    # the old key, read for one release (0.1) with a warning, is gone in 0.2
    assert "confusion" not in plain and "error_confusion" in plain
    # the label filter and the punctuation shape FairEval's counts, not the entity matrix
    pos = [["N", "N", "P", "N", "PUNCT"], ["N", "V", "N"], ["N", "V", "A"]]
    filtered = faireval.score(evaluation, nerspan.PRED, labels=["PER"], ignore_punct=True,
                              pos=pos).to_dict()
    assert matrix_of(evaluation.confusion(nerspan.PRED)) == oracle(GOLD, PRED)
    assert set(filtered["error_confusion"]["matrix"]) == {"PER"}


def test_faireval_span_lists_are_read_as_nerspan_reads_them():
    gold = [[("PER", 0, 2), ("LOC", 3, 4)], [("ORG", 0, 1), ("PER", 2, 3)], [("LOC", 0, 1)]]
    pred = [[("PER", 0, 1), ("ORG", 3, 5)], [("LOC", 0, 1)], [("LOC", 0, 1), ("PER", 2, 3)]]
    evaluation = Evaluation.build(gold, pred, tokens=TOKENS)
    faireval.score(evaluation, nerspan.PRED)
    assert matrix_of(evaluation.confusion(nerspan.PRED)) == oracle(GOLD, PRED)


# -- the command line ---------------------------------------------------------------------
COMMANDS = {"tough-mentions": True, "hardeval": True, "buckets": True, "faireval": False}
API = {"tough-mentions": tough_mentions.score, "hardeval": hardeval.score,
       "buckets": attribute_buckets.score, "faireval": faireval.score}


@pytest.fixture
def files(tmp_path):
    def column_file(name, tags):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts))
                                    for ws, ts in zip(TOKENS, tags)) + "\n", encoding="utf-8")
        return str(path)
    train = tmp_path / "train.txt"
    train.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts)) for ws, ts in
                                 zip(*TRAIN["train"])) + "\n")
    return column_file("gold", GOLD), column_file("sys", PRED), str(train)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_cli_confusion_equals_the_api_and_prints_the_reports_view(files, capsys, command):
    gold, pred, train = files
    argv = [command, gold, pred] + (["--train", train] if COMMANDS[command] else [])
    assert main(argv + ["--confusion", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    got = got["results"]["sys"] if "results" in got else got
    assert matrix_of(got) == oracle(GOLD, PRED)
    assert main(argv + ["--format", "json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    plain = plain["results"]["sys"] if "results" in plain else plain
    assert not set(CONFUSION_KEYS) & set(plain)
    assert main(argv + ["--confusion"]) == 0
    text = capsys.readouterr().out
    assert "\n".join(matrices_text({"sys": got}, WIDTH)) in text
    assert main(argv) == 0
    assert "gold \\ pred" not in capsys.readouterr().out
