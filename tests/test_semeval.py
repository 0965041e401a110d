"""SemEval-2013 Task 9.1 schemas (faireval.semeval) against nervaluate, the reference.

nervaluate is a test-only dependency (setup.cfg's test extra pins the version these
numbers were checked with). Its per-document loops are run sentence by sentence here.
"""
from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import nerspan
from tests.conftest import shared_path

nervaluate = pytest.importorskip("nervaluate")

FIELDS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual",
          "precision", "recall", "f1")


def reference(true, pred, labels, loader="list"):
    """nervaluate's overall and per-type results as plain dicts."""
    results = nervaluate.Evaluator(true, pred, tags=labels, loader=loader).evaluate()
    out = {schema: {f: getattr(r, f) for f in FIELDS}
           for schema, r in results["overall"].items()}
    for label, by_schema in results["entities"].items():
        for schema, r in by_schema.items():
            out[schema].setdefault("per_type", {})[label] = {f: getattr(r, f) for f in FIELDS}
    for row in out.values():
        row.setdefault("per_type", {})
    return out


def ours(true, pred, **options):
    return faireval.score(true, pred, schemas="semeval", **options).to_dict()["semeval"]


def test_semeval_worked_example():
    # nervaluate's README example: one sentence, spans with inclusive ends
    true = [[{"label": "PER", "start": 2, "end": 4}, {"label": "LOC", "start": 1, "end": 1}]]
    pred = [[{"label": "PER", "start": 2, "end": 4}, {"label": "LOC", "start": 1, "end": 2}]]
    got = ours(true, pred, inclusive_end=True)
    assert got == reference(true, pred, ["PER", "LOC"], loader="dict")
    assert got["strict"]["correct"] == 1 and got["strict"]["incorrect"] == 1
    assert got["partial"]["partial"] == 1 and got["partial"]["precision"] == 0.75
    assert got["ent_type"]["correct"] == 2


def test_greedy_order_is_nervaluate_s():
    # the first prediction takes the gold span as incorrect, the exact second one is then
    # spurious and the gold span is not missed: nervaluate's greedy order, kept on purpose
    true = [["B-PER", "I-PER", "O"]]
    pred = [["B-LOC", "B-PER", "I-PER"]]
    got = ours(true, pred)
    assert got == reference(true, pred, ["PER", "LOC"])
    assert (got["strict"]["incorrect"], got["strict"]["spurious"],
            got["strict"]["missed"]) == (1, 1, 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_random_tags_equal_nervaluate(lengths, rnd):
    def tags(n):
        return [rnd.choice(["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"])
                for _ in range(n)]
    true = [tags(n) for n in lengths]
    pred = [tags(n) for n in lengths]
    assert ours(true, pred) == reference(true, pred, ["PER", "LOC", "ORG"])


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_nested_spans_equal_nervaluate(rnd):
    # overlapping spans on both sides, in any order: the greedy replay
    def spans():
        out = []
        for _ in range(rnd.randint(0, 5)):
            start = rnd.randint(0, 8)
            out.append({"label": rnd.choice("AB"), "start": start,
                        "end": start + rnd.randint(0, 3)})
        return out
    true, pred = [spans(), spans()], [spans(), spans()]
    assert ours(true, pred, inclusive_end=True) == reference(true, pred, ["A", "B"], "dict")


@settings(max_examples=40, deadline=None)
@given(st.integers(50, 400), st.randoms(use_true_random=False))
def test_long_documents_with_many_overlaps_equal_nervaluate(n_tokens, rnd):
    # one sentence: every group is tangled, the whole document is replayed
    def tags():
        return [rnd.choice(["O", "B-PER", "I-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"])
                for _ in range(n_tokens)]
    true, pred = [tags()], [tags()]
    assert ours(true, pred) == reference(true, pred, ["PER", "LOC", "ORG"])


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 150), st.randoms(use_true_random=False))
def test_long_documents_of_nested_spans_equal_nervaluate(n_spans, rnd):
    # spans nest and cross on both sides, some are long (a span enclosing many others
    # must not make every later span a candidate of every earlier one)
    def spans():
        out = []
        for _ in range(n_spans):
            start = rnd.randint(0, 3 * n_spans)
            length = rnd.choice([0, 0, 1, 2, 5, rnd.randint(0, 3 * n_spans)])
            out.append({"label": rnd.choice("AB"), "start": start, "end": start + length})
        return out
    true, pred = [spans()], [spans()]
    assert ours(true, pred, inclusive_end=True) == reference(true, pred, ["A", "B"], "dict")


def python_calls(function) -> int:
    """How many Python functions ``function()`` calls (comprehensions included): an
    operation count that does not depend on the machine's speed."""
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event == "call"
    sys.setprofile(count)
    try:
        function()
    finally:
        sys.setprofile(None)
    return calls


def test_matching_a_long_sentence_is_linear_in_its_spans():
    """Each gold span overlaps two predictions, so the sentence is replayed greedily: the
    replay once compared every prediction with every gold span (minutes for a long
    document); now it looks at each overlapping pair once."""
    def calls(n):
        true = [["B-PER", "I-PER", "O"] * n]
        pred = [["B-PER", "B-PER", "O"] * n]
        return python_calls(lambda: ours(true, pred))
    calls(10)  # imports
    small, large = calls(400), calls(1600)
    assert large < 5 * small  # 4x the spans: 16x the work when quadratic


def test_schemas_option():
    result = faireval.score([["B-PER"]], [["B-PER"]], schemas=["strict", "partial"]).to_dict()
    assert list(result["semeval"]) == ["strict", "partial"]
    assert "semeval" not in faireval.score([["B-PER"]], [["B-PER"]]).to_dict()
    with pytest.raises(ValueError, match="unknown schema 'loose'"):
        faireval.score([["B-PER"]], [["B-PER"]], schemas="loose")


def conll_systems():
    return sorted(shared_path("data", "conll03", "systems").glob("*.txt"))


def test_conll03_fifteen_systems_equal_nervaluate():
    paths = conll_systems()
    assert len(paths) == 15
    for path in paths:
        corpus = nerspan.read_system_file(path)
        true = [corpus.tags("gold", i) for i in range(corpus.n_sentences)]
        pred = [corpus.tags("pred", i) for i in range(corpus.n_sentences)]
        labels = sorted({t[2:] for s in true + pred for t in s if t != "O"})
        expected = reference(true, pred, labels)
        got = ours(corpus, None)
        assert got == expected, path.name
        assert got["strict"]["correct"] > 0 and len(got["strict"]["per_type"]) == 4


def test_report_shows_the_schemas_with_intervals():
    import nerlens

    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"]] * 3
    pred = [["B-PER", "O", "O", "B-LOC"], ["O", "B-LOC", "O"]] * 3
    tokens = [["John", "Smith", "in", "Paris"], ["at", "Acme", "."]] * 3
    report = nerlens.report(gold, {"tagger": pred}, tokens=tokens, bootstrap=50, seed=0,
                            families=("faireval",), figures=False)
    semeval = report.results["tagger"]["faireval"]["semeval"]
    assert semeval == ours(gold, pred)
    for schema, row in semeval.items():
        # the bootstrap statistic's estimate is the reported F1, bit for bit
        assert report.estimates["tagger"][f"faireval.semeval.{schema}.f1"] == row["f1"]
        assert f"faireval.semeval.{schema}.f1" in report.intervals["tagger"]
    assert semeval["partial"]["partial"] == 3 and semeval["strict"]["incorrect"] == 6
    assert "SemEval-2013 schemas" in report.to_html()
