"""The entity confusion matrix holds every prediction, and its non-zero cells only.

- Generated entities whose text is not in their sentence (ungrounded) are false
  positives in every precision: they are spurious in the matrix too (``["O"][type]``),
  so that a type's column sums to its predictions minus its boundary errors, and its row
  to its gold mentions minus theirs, through the API (the evaluation every family
  scores), the evaluate modules, the commands and the report (the counts of
  ``nerspan.score``'s ``per_type`` are the oracle).
- The result lists non-zero cells only (its size follows the mentions, not types x
  types); a matrix saved with every cell, as written before, renders as the new one; the
  report's heat map shows at most ``HEAT_MAP_TYPES`` types.
"""
from __future__ import annotations

import json
from types import SimpleNamespace

import evaluate
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerlens.cli import main
from nerlens.report import confusion as report_confusion
from nerlens.report.text import WIDTH
from nerspan.confusion import CONFUSION_KEYS, OUTSIDE, confusion_types

from .conftest import REPO

TOKENS = [["John", "Smith", "saw", "Rome"], ["Paris", "is", "nice"]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["B-LOC", "O", "O"]]
# John Smith right; Atlantis (LOC) and Oz (WIZARD, a type gold has not) in no sentence;
# Paris right, "nice" a grounded spurious ORG; Rome missed
RESPONSES = ['[{"text": "John Smith", "type": "PER"}, {"text": "Atlantis", "type": "LOC"}, '
             '{"text": "Oz", "type": "WIZARD"}]', "<LOC>Paris</LOC> is <ORG>nice</ORG>"]
TRAIN = dict(train=(TOKENS, GOLD))
FAMILIES = {"faireval": faireval.score, "hardeval": hardeval.score,
            "tough_mentions": tough_mentions.score, "attribute_buckets": attribute_buckets.score}


def with_matrix(gold, pred, **options) -> dict:
    """nerspan's result with the evaluation's entity confusion matrix beside it."""
    evaluation = nerspan.Evaluation.build(gold, pred, **options)
    return {**nerspan.score(evaluation, nerspan.PRED).to_dict(),
            **evaluation.confusion(nerspan.PRED)}


def oracle(gold=GOLD, responses=RESPONSES, tokens=TOKENS) -> dict:
    return with_matrix(gold, responses, tokens=tokens)


def assert_sums_to_the_counts(matrix: dict, boundary: dict, scores: dict) -> None:
    """Rows and columns (boundary errors added) give each type's gold and predicted
    mentions of ``scores`` (a ``nerspan.score`` result); every cell is non-zero."""
    assert all(count > 0 for row in matrix.values() for count in row.values())
    for name, row in scores["per_type"].items():
        assert sum(matrix.get(name, {}).values()) + boundary["gold"][name] == row["support"]
        assert sum(cells.get(name, 0) for cells in matrix.values()) \
            + boundary["predicted"][name] == row["predicted"], name
    assert confusion_types({"confusion": matrix, "boundary_errors": boundary}) == \
        sorted(scores["per_type"])
    spurious = sum(matrix.get(OUTSIDE, {}).values())
    inside = sum(n for g, row in matrix.items() if g != OUTSIDE for p, n in row.items()
                 if p != OUTSIDE)
    assert inside + spurious + sum(boundary["predicted"].values()) == scores["predicted"]


def test_ungrounded_entities_are_spurious_by_hand():
    out = oracle()
    assert out["repairs"]["pred"]["generative"]["ungrounded"] == 2
    assert out["confusion"] == {"LOC": {"LOC": 1, "O": 1}, "PER": {"PER": 1},
                                "O": {"LOC": 1, "ORG": 1, "WIZARD": 1}}
    assert out["boundary_errors"]["predicted"] == {"LOC": 0, "ORG": 0, "PER": 0, "WIZARD": 0}
    assert_sums_to_the_counts(out["confusion"], out["boundary_errors"], out)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_counts_them(family):
    extra = {} if family == "faireval" else TRAIN
    evaluation = nerspan.Evaluation.build(GOLD, RESPONSES, tokens=TOKENS, **extra)
    FAMILIES[family](evaluation, nerspan.PRED)
    out = evaluation.confusion(nerspan.PRED)
    want = oracle()
    assert {k: out[k] for k in CONFUSION_KEYS} == {k: want[k] for k in CONFUSION_KEYS}
    assert_sums_to_the_counts(out["confusion"], out["boundary_errors"], want)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_module_counts_them(family):
    extra = {} if family == "faireval" else TRAIN
    module = evaluate.load(str(REPO / "metrics" / family), **extra)
    out = module.compute(predictions=RESPONSES, references=GOLD, tokens=TOKENS,
                         confusion=True)
    assert_sums_to_the_counts(out["confusion"], out["boundary_errors"], oracle())


@pytest.fixture()
def files(tmp_path):
    gold = "\n\n".join("\n".join(f"{w} {t}" for w, t in zip(words, tags))
                       for words, tags in zip(TOKENS, GOLD))
    (tmp_path / "gold.txt").write_text(gold + "\n", encoding="utf-8")
    (tmp_path / "train.txt").write_text(gold + "\n", encoding="utf-8")
    (tmp_path / "llm.jsonl").write_text("".join(json.dumps({"response": r}) + "\n"
                                                for r in RESPONSES), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("command", ["score", "faireval", "hardeval", "tough-mentions",
                                     "buckets"])
def test_every_command_counts_them(files, capsys, command):
    train = [] if command in ("score", "faireval") else ["--train", files / "train.txt"]
    code = main([str(a) for a in [command, *train, files / "gold.txt", "--generated",
                                  files / "llm.jsonl", "--confusion", "--format", "json"]])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert_sums_to_the_counts(result["confusion"], result["boundary_errors"], oracle())


def test_the_report_counts_them(files, capsys):
    out_dir = files / "out"
    code = main([str(a) for a in ["report", files / "gold.txt", "--generated",
                                  files / "llm.jsonl", "--train", files / "train.txt",
                                  "--output", out_dir, "--bootstrap", "0", "--no-progress"]])
    assert code == 0, capsys.readouterr().err
    data = json.loads((out_dir / "report.json").read_text(encoding="utf-8"))
    matrix = data["confusion"]["llm"]
    assert_sums_to_the_counts(matrix["confusion"], matrix["boundary_errors"], oracle())
    html = (out_dir / "report.html").read_text(encoding="utf-8")
    assert ">WIZARD</th>" in html   # the type of an ungrounded entity alone is a column


WORDS = ["a", "b", "c", "d"]


@st.composite
def generated(draw):
    """Gold tags and generated entity lists: texts of the sentence's own words (grounded)
    or of words it does not have (ungrounded), types of gold's or others."""
    lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    tags = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])
    gold = [[draw(tags) for _ in range(n)] for n in lengths]
    tokens = [[draw(st.sampled_from(WORDS)) for _ in range(n)] for n in lengths]
    responses = []
    for words in tokens:
        entities = []
        for _ in range(draw(st.integers(0, 4))):
            start = draw(st.integers(0, len(words) - 1))
            text = " ".join(words[start:start + draw(st.integers(1, 2))])
            if draw(st.booleans()):
                text = draw(st.sampled_from(["zz", "y y", "x"]))   # in no sentence
            entities.append([text, draw(st.sampled_from(["PER", "LOC", "ORG"]))])
        responses.append(entities)
    return gold, responses, tokens


@settings(max_examples=100, deadline=None)
@given(generated())
def test_rows_and_columns_sum_to_the_counts(data):
    gold, responses, tokens = data
    out = oracle(gold, responses, tokens)
    assert_sums_to_the_counts(out["confusion"], out["boundary_errors"], out)
    evaluation = nerspan.Evaluation.build(gold, responses, tokens=tokens)
    faireval.score(evaluation, nerspan.PRED)
    assert evaluation.confusion(nerspan.PRED)["confusion"] == out["confusion"]


def dense(data: dict) -> dict:
    """A matrix as it was written before: every cell of the types present, zeros too."""
    types = confusion_types(data)
    names = types + [OUTSIDE]
    return {"confusion": {g: {p: data["confusion"].get(g, {}).get(p, 0) for p in names
                              if not g == p == OUTSIDE} for g in names},
            "boundary_errors": data["boundary_errors"]}


def test_a_matrix_saved_with_every_cell_renders_as_the_sparse_one():
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"]]
    pred = [["B-PER", "O", "O", "B-ORG", "I-ORG"], ["B-LOC", "O", "B-MISC"]]
    sparse = {k: v for k, v in with_matrix(gold, pred).items() if k in CONFUSION_KEYS}
    saved = dense(sparse)
    assert sum(map(len, saved["confusion"].values())) > sum(map(len, sparse["confusion"]
                                                                .values()))
    assert confusion_types(saved) == confusion_types(sparse)
    assert report_confusion.matrices_text({"s": saved}, WIDTH) == \
        report_confusion.matrices_text({"s": sparse}, WIDTH)
    assert report_confusion._text_cells(saved, WIDTH) == \
        report_confusion._text_cells(sparse, WIDTH)
    page = SimpleNamespace(example_sentences={})
    assert report_confusion._heat_map(page, {**saved, "examples": {}}) == \
        report_confusion._heat_map(page, {**sparse, "examples": {}})
    for limit in (2, 3):
        folded = report_confusion.folded(sparse, limit)
        assert report_confusion.folded(saved, limit)[0] == folded[0]


def test_many_types_stay_small_in_json_and_on_the_page():
    n = 300
    gold = [[f"B-T{k}", "O"] for k in range(n)]
    pred = [[f"B-T{(k + 1) % n if k % 3 == 0 else k}", "O"] for k in range(n)]
    out = with_matrix(gold, pred)
    cells = sum(map(len, out["confusion"].values()))
    # one cell per gold mention (its own type, or the next one for every third)
    assert cells == n and len(out["boundary_errors"]["gold"]) == n
    # the heat map: at most HEAT_MAP_TYPES types, the others summed, every mention kept
    types, matrix, boundary, summed = report_confusion.folded(out)
    assert len(types) == report_confusion.HEAT_MAP_TYPES + 1 and summed == n - len(types) + 1
    assert sum(n for row in matrix.values() for n in row.values()) == \
        sum(n for row in out["confusion"].values() for n in row.values())
    page = report_confusion._heat_map(SimpleNamespace(example_sentences={}),
                                      {**out, "examples": {}})
    assert page.count("<tr") == len(types) + 3 and "are summed in" in page
    assert len(report_confusion.matrices_text({"s": out}, WIDTH)) < 10
