"""The entity confusion matrix (``nerspan.Evaluation.confusion``, ``nerlens score
--confusion``): hand computed cases and invariants."""
from __future__ import annotations

import json
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
from nerlens.cli import main
from nerlens.report.confusion import matrices_text
from nerlens.report.text import WIDTH
from nerspan import Corpus, LabelTable, decode, get_scheme
from nerspan import streaming
from nerspan.confusion import confusion_dict

get_entities = pytest.importorskip("seqeval.metrics.sequence_labeling").get_entities


def confusion(gold, pred) -> dict:
    """nerspan's result with the evaluation's entity confusion matrix beside it."""
    evaluation = nerspan.Evaluation.build(gold, pred)
    return {**nerspan.score(evaluation, "pred").to_dict(), **evaluation.confusion("pred")}


def test_hand_computed_cells():
    gold = [["B-PER", "I-PER", "O", "B-LOC", "B-ORG", "O", "B-MISC", "I-MISC", "O"],
            ["B-LOC", "O", "O"]]
    pred = [["B-PER", "I-PER", "O", "B-ORG", "O", "B-LOC", "B-MISC", "O", "B-PER"],
            ["B-LOC", "O", "B-ORG"]]
    out = confusion(gold, pred)
    # PER exact (diagonal); LOC -> ORG same span (labeling error); ORG missed (nothing
    # touches it); LOC predicted at 5 touches no gold (spurious); MISC 6-8 vs MISC 6-7 a
    # boundary error on both sides; PER at 8 spurious; sentence 2: LOC exact, ORG spurious
    # the non-zero cells only: MISC's row has none (its mention is a boundary error)
    assert out["confusion"] == {
        "LOC": {"LOC": 1, "ORG": 1},
        "ORG": {"O": 1},
        "PER": {"PER": 1},
        "O": {"LOC": 1, "ORG": 1, "PER": 1},
    }
    assert out["boundary_errors"] == {"gold": {"LOC": 0, "MISC": 1, "ORG": 0, "PER": 0},
                                      "predicted": {"LOC": 0, "MISC": 1, "ORG": 0, "PER": 0}}
    # the diagonal is the correct mentions
    assert all(out["confusion"].get(t, {}).get(t, 0) == out["per_type"][t]["correct"]
               for t in out["per_type"])


def test_a_labeling_and_boundary_error_is_a_boundary_error_on_both_sides():
    out = confusion([["B-PER", "I-PER", "O"]], [["B-LOC", "O", "O"]])
    assert out["confusion"] == {}
    assert out["boundary_errors"] == {"gold": {"LOC": 0, "PER": 1},
                                      "predicted": {"LOC": 1, "PER": 0}}


def test_no_mention_at_all_and_off_by_default():
    out = confusion([["O", "O"]], [["O", "O"]])
    assert out["confusion"] == {}
    assert out["boundary_errors"] == {"gold": {}, "predicted": {}}
    plain = nerspan.score([["B-PER"]], [["B-PER"]]).to_dict()
    assert "confusion" not in plain and "boundary_errors" not in plain


TYPES = ["PER", "LOC", "ORG"]
TAGS = ["O"] + [f"{p}-{t}" for t in TYPES for p in "BI"]


@st.composite
def tag_pairs(draw):
    lengths = draw(st.lists(st.integers(0, 9), min_size=1, max_size=6))
    gold = [[draw(st.sampled_from(TAGS)) for _ in range(n)] for n in lengths]
    pred = [[draw(st.sampled_from(TAGS)) for _ in range(n)] for n in lengths]
    return gold, pred


def mentions(tags_per_sentence):
    """(sentence, start, end, type) of every mention, by seqeval's default chunking (our
    lenient mode), as a plain Python reading of the spans."""
    return [(s, start, end + 1, t) for s, tags in enumerate(tags_per_sentence)
            for t, start, end in get_entities(list(tags))]


@settings(max_examples=200, deadline=None)
@given(tag_pairs())
def test_invariants_and_a_plain_reading(pair):
    gold, pred = pair
    out = confusion(gold, pred)
    matrix, boundary = out["confusion"], out["boundary_errors"]
    gold_m, pred_m = mentions(gold), mentions(pred)
    gold_n, pred_n = Counter(m[3] for m in gold_m), Counter(m[3] for m in pred_m)
    for t in boundary["gold"]:
        # a row sums to the gold mentions of its type minus its boundary errors
        assert sum(matrix.get(t, {}).values()) == gold_n[t] - boundary["gold"][t]
        assert sum(row.get(t, 0) for row in matrix.values()) == \
            pred_n[t] - boundary["predicted"][t]
    assert all(n for row in matrix.values() for n in row.values())   # non-zero cells only
    # the same cells, read off the mentions one by one
    expected = Counter()
    for s, start, end, t in gold_m:
        same = [m for m in pred_m if m[:3] == (s, start, end)]
        touching = [m for m in pred_m if m[0] == s and m[1] < end and start < m[2]]
        if same:
            expected[t, same[0][3]] += 1
        elif not touching:
            expected[t, "O"] += 1
    for s, start, end, t in pred_m:
        if not [m for m in gold_m if m[0] == s and m[1] < end and start < m[2]]:
            expected["O", t] += 1
    assert {(g, p): n for g, row in matrix.items() for p, n in row.items() if n} == \
        dict(expected)


@settings(max_examples=100, deadline=None)
@given(tag_pairs())
def test_gold_against_itself_is_diagonal(pair):
    gold, _ = pair
    out = confusion(gold, gold)
    for g, row in out["confusion"].items():
        for p, n in row.items():
            assert n == 0 or g == p
    assert not any(out["boundary_errors"]["gold"].values())


@pytest.mark.parametrize("block", [None, 3])
def test_cli_confusion_equals_the_api(tmp_path, capsys, monkeypatch, block):
    if block is not None:  # counted over blocks of sentences, then summed
        monkeypatch.setattr(streaming, "SCORE_BLOCK", block)
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"], ["B-LOC", "O", "B-PER"]]
    pred = [["B-PER", "O", "O", "B-ORG"], ["O", "B-LOC"], ["B-LOC", "O", "O"]]
    path = tmp_path / "both.txt"
    path.write_text("\n\n".join("\n".join(f"w {g} {p}" for g, p in zip(gs, ps))
                                for gs, ps in zip(gold, pred)) + "\n", encoding="utf-8")
    assert main(["score", str(path), "--confusion", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    api = confusion(gold, pred)
    assert got["confusion"] == api["confusion"]
    assert got["boundary_errors"] == api["boundary_errors"]
    assert main(["score", str(path), "--confusion"]) == 0
    text = capsys.readouterr().out
    # the report's terminal view of the same matrix (one renderer)
    assert text.rstrip().endswith("\n".join(matrices_text({"both": got}, WIDTH)))


def python_calls(function) -> int:
    """How many Python function calls ``function()`` makes (a cost that no timing noise
    changes)."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1
    sys.setprofile(count)
    try:
        function()
    finally:
        sys.setprofile(None)
    return calls


def test_the_matrix_costs_no_python_call_per_mention():
    """Arrays throughout: 40x the mentions, the same Python calls (within imports)."""
    def calls(n):
        corpus = Corpus.from_tags([["B-PER", "I-PER", "O", "B-LOC", "B-ORG"] * n],
                                  [["B-PER", "O", "O", "B-ORG", "B-ORG"] * n])
        table = LabelTable.build(corpus.labels, get_scheme("IOB2"))
        gold, pred = (decode(corpus, side, "IOB2", "lenient", table) for side in ("gold", "pred"))
        return python_calls(lambda: confusion_dict(gold, pred))
    calls(5)
    assert calls(2000) <= calls(50) + 5
