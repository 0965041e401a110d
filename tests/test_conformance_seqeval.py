"""nerlens equals seqeval (1.2.2) on its own test cases (shared/fixtures/seqeval)."""
from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pytest

import nerspan
from nerspan import Corpus, decode, read_columns
from nerspan.schemes import get_scheme
from nerspan.schemes import N_PREFIXES

from .conftest import shared_path

# seqeval's strict fixtures discard chunks on purpose: the warning is expected here
pytestmark = pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")


def load(name):
    return json.loads(shared_path("fixtures", "seqeval", name).read_text())


def extraction_cases():
    try:
        cases = load("scheme_entity_extraction.json")["cases"]
    except BaseException:  # collection must not fail when the fixtures are absent
        return [pytest.param(None, None, marks=pytest.mark.skip("fixtures absent"))]
    return [pytest.param(scheme, case, id=f"{scheme}-{i}")
            for scheme, items in cases.items() for i, case in enumerate(items)]


def as_seqeval(spans):
    # seqeval names the empty type "_"
    return [[t or "_", a, b] for t, a, b in spans]


@pytest.mark.parametrize("scheme,case", extraction_cases())
def test_strict_extraction(scheme, case):
    tokens = case["tokens"]
    if not tokens:
        with pytest.raises(nerspan.EmptyInputError):
            Corpus.from_tags([])
        return
    corpus = Corpus.from_tags([tokens])
    assert as_seqeval(decode(corpus, "gold", scheme, "strict").to_list(corpus)[0]) == case["expected"]
    if case["seqeval_default_mode_generated"] is not None:
        lenient = decode(corpus, "gold", scheme, "lenient").to_list(corpus)[0]
        assert as_seqeval(lenient) == case["seqeval_default_mode_generated"]


@pytest.mark.parametrize("scheme", ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"])
def test_transition_tables(scheme):
    """is_start / is_inside / is_end for every (previous, current) pair of seqeval's tests."""
    table = get_scheme(scheme)
    for prev, cur, expected in load("scheme_transitions.json")["cases"][scheme]:
        codes = []
        for tag in (prev, cur):
            letter, entity_type = nerspan.schemes.split_tag(tag)
            codes.append((table.prefixes[letter], entity_type))
        (p, pt), (c, ct) = codes
        index = (p * N_PREFIXES + c) * 2 + int(pt == ct and p != 0 and c != 0)
        got = [bool(table.tables[k][index]) for k in ("start", "inside", "end")]
        assert got == expected, (prev, cur)


def metric_cases():
    return {case["id"]: case for case in load("metric_cases.json")["cases"]}


def averaged(result, average):
    return {"micro": result.micro, "macro": result.macro,
            "weighted": result.support_weighted}[average]()


@pytest.mark.parametrize("case_id", ["v1_average_micro", "v1_average_macro",
                                     "v1_average_weighted", "v1_weighted_true_sum_zero"])
def test_averages(case_id):
    case = metric_cases()[case_id]
    result = nerspan.score(case["y_true"], case["y_pred"], scheme=case["scheme"], mode="strict")
    got = averaged(result, case["average"])
    expected = case["expected"]
    assert np.round(got, case.get("decimal", 10)).tolist() == pytest.approx(expected[:3])
    assert result.n_gold == expected[3]


def test_per_type_scores():
    case = metric_cases()["v1_test_scores"]
    result = nerspan.score(case["y_true"], case["y_pred"], scheme="IOB2", mode="strict")
    assert list(result.types) == case["labels"]
    p, r, f = result.per_type()
    assert np.round(p, 2).tolist() == case["expected"]["precision"]
    assert np.round(r, 2).tolist() == case["expected"]["recall"]
    assert np.round(f, 2).tolist() == case["expected"]["f1"]
    assert result.gold.tolist() == case["expected"]["support"]


def test_report_default_mode():
    case = metric_cases()["report_output_dict_default_mode"]
    result = nerspan.score(case["y_true"], case["y_pred"]).to_dict()
    report = case["expected_report"]
    for entity_type, row in result["per_type"].items():
        assert row["precision"] == report[entity_type]["precision"]
        assert row["recall"] == report[entity_type]["recall"]
        assert row["f1"] == report[entity_type]["f1-score"]
        assert row["support"] == report[entity_type]["support"]
    assert result["f1"] == report["micro avg"]["f1-score"]
    assert result["macro_f1"] == report["macro avg"]["f1-score"]
    assert result["weighted_f1"] == report["weighted avg"]["f1-score"]


@pytest.mark.parametrize("case_id,mode", [("conll_vs_strict_I_start_default", "lenient"),
                                          ("conll_vs_strict_I_start_strict", "strict")])
def test_lenient_vs_strict(case_id, mode):
    case = metric_cases()[case_id]
    result = nerspan.score(case["y_true"], case["y_pred"], mode=mode)
    for average in ("micro", "macro", "weighted"):
        assert averaged(result, average)[2] == case["expected_f1_all_averages"]


def test_get_entities_default():
    case = metric_cases()["get_entities_default"]
    corpus = Corpus.from_tags([case["seq"]])
    spans = decode(corpus).to_list(corpus)[0]
    assert [[t, a, b - 1] for t, a, b in spans] == case["expected_inclusive_end"]


def test_length_mismatch_is_an_error_but_empty_lists_are_no_mention():
    """seqeval refuses ``[["O"]]`` against ``[[]]`` (a length mismatch). nerlens differs on
    purpose (docs/families/nerspan.md, "where we differ"): a side whose sentences are all empty lists is span
    input without a mention when the other side has words, as a pipeline that found
    nothing gives it; tags of other lengths stay an error."""
    for case_id in ("errors_value_error_length_mismatch", "errors_value_error_length_mismatch2"):
        case = metric_cases()[case_id]
        result = nerspan.score(case["y_true"], case["y_pred"])
        assert (result.n_gold, result.n_predicted) == (0, 0)
        with pytest.raises(nerspan.LengthMismatchError, match="sentence 0"):
            nerspan.score(case["y_true"] + [["O", "O"]], case["y_pred"] + [["O"]])


def test_conll2000_sample_f1():
    """seqeval's CoNLL-2000 chunking sample: conlleval.pl says FB1 74.35."""
    path = shared_path("fixtures", "seqeval", "ground_truth.txt")
    corpus = read_columns(path, {"gold": -2, "pred": -1})
    result = nerspan.score(corpus)
    expected = shared_path("fixtures", "seqeval", "ground_truth.txt.conlleval_expected.txt").read_text()
    counts = re.search(r"with (\d+) phrases; found: (\d+) phrases; correct: (\d+)", expected)
    assert (result.n_gold, result.n_predicted, result.n_correct) == tuple(map(int, counts.groups()))
    assert f"FB1:  {100 * result.micro()[2]:.2f}" in expected
    assert round(100 * result.micro()[2], 2) == 74.35


# -- where nerlens differs from seqeval on purpose (docs/families/nerspan.md "Exactness, and where we
# differ on purpose"): each pinned, seqeval's number computed here, ours by hand
def _seqeval(gold, pred, strict, suffix=False):
    """seqeval's micro F1 and its type names (default mode, or strict IOB2); the test
    is skipped without seqeval (its fixtures above need it not)."""
    seqeval_metrics = pytest.importorskip("seqeval.metrics")
    seqeval_scheme = pytest.importorskip("seqeval.scheme")
    options = dict(mode="strict", scheme=seqeval_scheme.IOB2) if strict else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f1 = seqeval_metrics.f1_score(gold, pred, suffix=suffix, **options)
        report = seqeval_metrics.classification_report(gold, pred, suffix=suffix,
                                                       output_dict=True, **options)
    return f1, sorted(k for k in report if not k.endswith(" avg"))


@pytest.mark.parametrize("strict", [False, True])
def test_an_untyped_tag_and_the_type_underscore_differ_here(strict):
    """seqeval names an untyped tag's type ``_``, so ``B-_`` is ``B`` there (in both
    modes); nerlens gives it the empty type, as conlleval.pl does (its report prints an
    empty type name: shared/fixtures/conlleval/edge_untyped_tags), so ``_`` is a type of
    its own."""
    gold, pred = [["B", "I", "O"]], [["B-_", "I-_", "O"]]
    assert _seqeval(gold, pred, strict) == (1.0, ["_"])
    ours = nerspan.score(gold, pred, mode="strict" if strict else "lenient")
    assert ours.micro() == (0.0, 0.0, 0.0)
    assert list(ours.to_dict()["per_type"]) == ["", "_"]
    # alike they are equal here too
    assert nerspan.score(gold, gold).micro() == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("gold_tag, suffix", [("B--X", False), ("B-X-", False),
                                              ("X--B", True)])
def test_hyphens_around_a_type_are_kept_in_strict_mode_here(gold_tag, suffix):
    """seqeval's strict mode strips every hyphen around the type (``B--X``, ``B-X-``
    and, with ``suffix``, ``X--B`` are type ``X``, the same as ``B-X``), its default mode
    does not (``-X``, ``X-``); nerlens reads the type after the first hyphen (the last
    with ``suffix``) in both modes, as conlleval.pl and seqeval's default mode do."""
    plain = "X-B" if suffix else "B-X"
    gold, pred = [[gold_tag, "O"]], [[plain, "O"]]
    theirs_default, types_default = _seqeval(gold, pred, False, suffix)
    theirs_strict, types_strict = _seqeval(gold, pred, True, suffix)
    assert (theirs_default, theirs_strict, types_strict) == (0.0, 1.0, ["X"])
    written = "-X" if gold_tag == "B--X" else "X-"
    assert types_default == sorted([written, "X"])
    for mode in ("lenient", "strict"):
        ours = nerspan.score(gold, pred, mode=mode, inputs={'suffix': suffix})
        assert ours.micro() == (0.0, 0.0, 0.0)
        assert list(ours.to_dict()["per_type"]) == sorted([written, "X"])
