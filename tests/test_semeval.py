"""SemEval-2013 Task 9.1 schemas (faireval.semeval) against nervaluate, the reference.

nervaluate is a test-only dependency (setup.cfg's test extra pins the version these
numbers were checked with). Its per-document loops are run sentence by sentence here.
"""
from __future__ import annotations

import functools
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
    # nervaluate counts a mention listed twice as often as it is listed
    return faireval.score(true, pred, schemas="semeval", options={"keep_duplicates": True},
                          **options).to_dict()["semeval"]


def test_semeval_worked_example():
    # nervaluate's README example: one sentence, spans with inclusive ends
    true = [[{"label": "PER", "start": 2, "end": 4}, {"label": "LOC", "start": 1, "end": 1}]]
    pred = [[{"label": "PER", "start": 2, "end": 4}, {"label": "LOC", "start": 1, "end": 2}]]
    got = ours(true, pred, inputs={"inclusive_end": True})
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
    assert ours(true, pred, inputs={"inclusive_end": True}) == reference(true, pred, ["A", "B"], "dict")


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
    assert ours(true, pred, inputs={"inclusive_end": True}) == reference(true, pred, ["A", "B"], "dict")


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
    report = nerlens.build_report(gold, {"tagger": pred}, tokens=tokens, bootstrap=50, seed=0,
                            families=("faireval",), figures=False)
    semeval = report.results["tagger"]["faireval"]["semeval"]
    assert semeval == ours(gold, pred)
    for schema, row in semeval.items():
        # the bootstrap statistic's estimate is the reported F1, bit for bit
        assert report.estimates["tagger"][f"faireval.semeval.{schema}.f1"] == row["f1"]
        assert f"faireval.semeval.{schema}.f1" in report.intervals["tagger"]
    assert semeval["partial"]["partial"] == 3 and semeval["strict"]["incorrect"] == 6
    assert "SemEval-2013 schemas" in report.to_html()


# -- min_overlap, optimal matching, per-instance listings --------------------------------
from faireval import inputs  # noqa: E402
from faireval.semeval import (CSV_COLUMNS, semeval_instances, semeval_scores,  # noqa: E402
                              write_instances_csv)

# both sides as nervaluate reads them: a mention listed twice counts twice
prepare = functools.partial(inputs.prepare, keep_duplicates=True)

PERCENTS = (1, 5, 10, 29, 33.3, 50, 66.67, 75, 99.5, 100)


def semeval_of(true, pred, **options):
    """``semeval_scores`` on span lists with inclusive ends (nervaluate's dicts)."""
    prepared = prepare(true, pred, inputs={'inclusive_end': True})
    return semeval_scores(prepared, "semeval", **options)[0]


def random_spans(rnd, n, width, long=False):
    out = []
    for _ in range(n):
        start = rnd.randint(0, width)
        length = rnd.choice([0, 1, 2, 5, rnd.randint(0, width)] if long else [0, 1, 2])
        out.append({"label": rnd.choice("AB"), "start": start, "end": start + length})
    return out


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PERCENTS), st.randoms(use_true_random=False))
def test_min_overlap_equals_nervaluate_min_overlap_percentage(percent, rnd):
    # long, nested spans: overlaps of every fraction of the gold span
    true = [random_spans(rnd, rnd.randint(0, 6), 40, long=True) for _ in range(3)]
    pred = [random_spans(rnd, rnd.randint(0, 6), 40, long=True) for _ in range(3)]
    expected = nervaluate.Evaluator(true, pred, tags=["A", "B"], loader="dict",
                                    min_overlap_percentage=percent).evaluate()["overall"]
    got = semeval_of(true, pred, min_overlap=percent / 100)
    for schema, result in expected.items():
        assert {f: got[schema][f] for f in FIELDS} == {f: getattr(result, f) for f in FIELDS}


def test_min_overlap_on_tags_equals_nervaluate():
    true = [["B-PER", "I-PER", "I-PER", "I-PER", "O", "B-LOC", "I-LOC"]]
    pred = [["B-PER", "O", "O", "O", "O", "O", "B-LOC"]]
    for percent in (1, 25, 26, 50, 51):
        expected = nervaluate.Evaluator(true, pred, tags=["PER", "LOC"], loader="list",
                                        min_overlap_percentage=percent).evaluate()
        got = semeval_scores(prepare(true, pred), min_overlap=percent / 100)[0]
        assert got["partial"]["partial"] == expected["overall"]["partial"].partial
        assert got == reference_from(expected)
    assert got["partial"]["spurious"] == 2  # 1 of 4 and 1 of 2 tokens: under 51%


def reference_from(results):
    out = {schema: {f: getattr(r, f) for f in FIELDS} for schema, r in results["overall"].items()}
    for label, by_schema in results["entities"].items():
        for schema, r in by_schema.items():
            out[schema].setdefault("per_type", {})[label] = {f: getattr(r, f) for f in FIELDS}
    return out


def indices_of(rows):
    """Our listing as nervaluate's indices: outcome -> [(sentence, index)] (a prediction's
    index; a missed gold span's)."""
    out = {name: [] for name in ("correct", "incorrect", "partial", "missed", "spurious")}
    for row in rows:
        span = row["gold"] if row["outcome"] == "missed" else row["pred"]
        out[row["outcome"]].append((row["sentence"], span["index"]))
    return out


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_instances_equal_nervaluate_indices(rnd):
    true = [random_spans(rnd, rnd.randint(0, 5), 8) for _ in range(4)]
    pred = [random_spans(rnd, rnd.randint(0, 5), 8) for _ in range(4)]
    results = nervaluate.Evaluator(true, pred, tags=["A", "B"], loader="dict").evaluate()
    listing = semeval_instances(prepare(true, pred, inputs={'inclusive_end': True}))
    for schema, indices in results["overall_indices"].items():
        expected = {name: list(getattr(indices, f"{name}_indices")) for name in
                    ("correct", "incorrect", "partial", "missed", "spurious")}
        assert indices_of(listing[schema]) == expected, schema
    for schema, rows in listing.items():
        for row in rows:  # the spans listed are the input's, ends exclusive here
            if row["pred"]:
                span = pred[row["sentence"]][row["pred"]["index"]]
                assert (row["pred"]["start"], row["pred"]["end"] - 1) == (span["start"],
                                                                          span["end"])


def test_optimal_matching_takes_the_exact_span_whatever_the_order():
    # a long prediction overlapping two gold spans, listed before the exact one: greedy
    # (nervaluate) lets it take the first gold span; optimal pairs the exact one there
    true = [[("PER", 0, 2), ("PER", 2, 4)]]
    pred = [[("PER", 0, 4), ("PER", 0, 2)]]
    greedy = faireval.score(true, pred, schemas="semeval",
                            options={"keep_duplicates": True}).to_dict()["semeval"]["strict"]
    assert (greedy["correct"], greedy["incorrect"], greedy["spurious"], greedy["missed"]) \
        == (0, 1, 1, 1)
    for order in (pred, [pred[0][::-1]]):
        optimal = semeval_scores(prepare(true, order), pairing="optimal")[0]["strict"]
        assert (optimal["correct"], optimal["incorrect"], optimal["spurious"],
                optimal["missed"]) == (1, 1, 0, 0)
    rows = semeval_instances(prepare(true, pred), ["strict"], pairing="optimal")["strict"]
    assert [(r["outcome"], r["pred"]["end"], r["gold"]["end"]) for r in rows] == [
        ("incorrect", 4, 4), ("correct", 2, 2)]


def without_indices(rows):
    return sorted(str({**row, "pred": row["pred"] and {**row["pred"], "index": None},
                       "gold": row["gold"] and {**row["gold"], "index": None}})
                  for row in rows)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_optimal_matching_does_not_depend_on_the_order_of_the_spans(rnd):
    true = [random_spans(rnd, rnd.randint(0, 7), 10, long=True) for _ in range(3)]
    pred = [random_spans(rnd, rnd.randint(0, 7), 10, long=True) for _ in range(3)]
    shuffled = [rnd.sample(spans, len(spans)) for spans in true], \
        [rnd.sample(spans, len(spans)) for spans in pred]
    for min_overlap in (0.01, 0.5):
        options = dict(min_overlap=min_overlap, pairing="optimal")
        first = semeval_of(true, pred, **options)
        assert semeval_of(*shuffled, **options) == first
        listed = semeval_instances(prepare(true, pred, inputs={'inclusive_end': True}), **options)
        again = semeval_instances(prepare(*shuffled, inputs={'inclusive_end': True}), **options)
        assert {k: without_indices(v) for k, v in listed.items()} == \
            {k: without_indices(v) for k, v in again.items()}
        greedy = semeval_of(true, pred, min_overlap=min_overlap)
        for schema, row in first.items():  # never fewer correct pairs than greedy
            assert row["correct"] >= greedy[schema]["correct"]
            assert row["possible"] == greedy[schema]["possible"]
            assert row["actual"] == greedy[schema]["actual"]


def test_optimal_matching_of_a_long_sentence_is_linear_in_its_spans():
    def calls(n):
        prepared = prepare([["B-PER", "I-PER", "O"] * n], [["B-PER", "B-PER", "O"] * n])
        return python_calls(lambda: semeval_scores(prepared, pairing="optimal"))
    calls(10)
    small, large = calls(400), calls(1600)
    assert large < 5 * small


def test_instances_csv(tmp_path):
    import csv

    true = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG"]]
    pred = [["B-PER", "O", "O", "B-ORG"], ["O"]]
    listing = semeval_instances(prepare(true, pred), ["strict", "ent_type"])
    write_instances_csv(listing, tmp_path / "instances.csv")
    with open(tmp_path / "instances.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert rows[1:] == [
        ["strict", "0", "incorrect", "0", "PER", "0", "2", "0", "PER", "0", "1"],
        ["strict", "0", "incorrect", "1", "LOC", "3", "4", "1", "ORG", "3", "4"],
        ["strict", "1", "missed", "0", "ORG", "0", "1", "", "", "", ""],
        ["ent_type", "0", "correct", "0", "PER", "0", "2", "0", "PER", "0", "1"],
        ["ent_type", "0", "incorrect", "1", "LOC", "3", "4", "1", "ORG", "3", "4"],
        ["ent_type", "1", "missed", "0", "ORG", "0", "1", "", "", "", ""]]
    import json
    assert json.loads(json.dumps(listing)) == listing  # plain JSON


def test_bad_matching_options():
    prepared = prepare([["B-PER"]], [["B-PER"]])
    with pytest.raises(ValueError, match=r"min_overlap must be a fraction of the gold span's "
                                         r"tokens in \(0, 1\] \(nervaluate's "
                                         r"min_overlap_percentage / 100\), not 50"):
        semeval_scores(prepared, min_overlap=50)
    with pytest.raises(ValueError, match="not 0"):
        semeval_instances(prepared, min_overlap=0)
    with pytest.raises(TypeError, match="min_overlap must be a number in"):
        semeval_scores(prepared, min_overlap="1%")
    with pytest.raises(ValueError, match="unknown pairing 'best'; choose 'greedy'"):
        semeval_scores(prepared, pairing="best")
    with pytest.raises(ValueError, match="unknown schema 'loose'"):
        semeval_instances(prepared, ["loose"])


def test_min_overlap_compares_as_nervaluate_does():
    # 29 of 100 tokens: nervaluate's 29 / 100 * 100 is 28.999999999999996, under 29, so
    # min_overlap_percentage=29 does not take it; min_overlap=0.29 means 29 there too
    true, pred = [[{"label": "A", "start": 0, "end": 99}]], [[{"label": "A", "start": 0,
                                                               "end": 28}]]
    for percent in (28, 29):
        theirs = nervaluate.Evaluator(true, pred, tags=["A"], loader="dict",
                                      min_overlap_percentage=percent).evaluate()
        ours = semeval_of(true, pred, min_overlap=percent / 100)
        assert ours["partial"]["partial"] == theirs["overall"]["partial"].partial == \
            (percent == 28)
