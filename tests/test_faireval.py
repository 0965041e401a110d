"""faireval: hand-derived cases, the published NER result, properties, bad input."""
from __future__ import annotations

import functools
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import nerspan
from faireval import matching, read_span_file, report, score, spans_to_tags, write_span_file
from nerspan.errors import FormatError, NerspanError, SentenceCountError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "faireval"


def counts(result) -> dict:
    return {k: v for k, v in result.counts.items() if v}


# -- hand-derived cases (expected values worked out from METHODS.md section 3) -----------
@pytest.mark.parametrize("target, system, kind", [
    (("PER", 0, 3), ("PER", 1, 3), "BEs"),   # system inside the target, shared end
    (("PER", 0, 3), ("PER", 0, 4), "BEl"),   # system contains the target
    (("PER", 1, 3), ("PER", 2, 5), "BEo"),   # crossing
])
def test_boundary_subtypes(target, system, kind):
    result = score([[target]], [[system]])
    assert counts(result) == {"BE": 1, kind: 1}


def test_tp_le_be_and_the_three_score_kinds():
    # TP A(0,1); BEs B(2,4)->B(2,3); LE C(5,6)->D(5,6)
    result = score([[("A", 0, 1), ("B", 2, 4), ("C", 5, 6)]],
                   [[("A", 0, 1), ("B", 2, 3), ("D", 5, 6)]], weights="weighted")
    assert counts(result) == {"TP": 1, "LE": 1, "BE": 1, "BEs": 1}
    d = result.to_dict()
    # traditional: TP 1, FP 3 - 1, FN 3 - 1
    assert (d["traditional_precision"], d["traditional_recall"]) == (1 / 3, 1 / 3)
    # fair: FP = FN = 0 + 0.5 * 2 errors = 1
    assert (d["fair_precision"], d["fair_recall"], d["fair_f1"]) == (0.5, 0.5, 0.5)
    # weight table: TP = 1 + 0.5 (BEs); FP = 0.5 (LE); FN = 0.5 (BEs) + 0.5 (LE)
    assert (d["weight_table_precision"], d["weight_table_recall"]) == (0.75, 0.6)
    assert d["weight_table_f1"] == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert "weighted_f1" not in d     # weighted_* are support-weighted averages (nerspan)
    # the headline is the exact-match scores whatever the weights
    assert (d["precision"], d["recall"], d["f1"]) == (1 / 3, 1 / 3, 1 / 3)


def test_weights_adds_weight_table_scores_and_never_changes_the_headline():
    target, system = [[("A", 0, 2), ("B", 3, 4)]], [[("A", 0, 1), ("B", 3, 4)]]
    plain = score(target, system).to_dict()
    table = score(target, system, weights={"BE": (1, 0, 0)}).to_dict()
    assert not any(k.startswith("weight_table_") for k in plain)
    assert plain["options"]["weights"] is None
    assert table["weight_table_f1"] == 1.0 and plain["fair_f1"] == pytest.approx(2 / 3)
    headline = ("precision", "recall", "f1", "fair_f1", "traditional_f1")
    assert {k: table[k] for k in headline} == {k: plain[k] for k in headline}
    assert plain["f1"] == 0.5 == nerspan.score(target, system).micro()[2]


def test_countings_table_rows_per_system_and_counting_with_fbeta():
    target, system = [[("A", 0, 2), ("B", 3, 4)]], [[("A", 0, 1), ("B", 3, 4)]]
    results = {"a": score(target, system, weights={"BE": (1, 0, 0)}).to_dict(beta=2),
               "b": score(target, target, weights="weighted").to_dict(beta=2)}
    heading, table = report.countings_blocks(results)
    assert heading.text == "FairEval scores (%)"
    assert table.header == ("system", "counting", "precision", "recall", "f1", "f2")
    assert [row[:2] for row in table.rows] == [
        ("a", "fair"), ("a", "weight table (--weights)"), ("b", "fair"),
        ("b", "weight table (--weights)")]
    assert table.rows[1][2:] == tuple(results["a"][f"weight_table_{key}"]
                                      for key in ("precision", "recall", "f1", "f2"))
    [plain] = report.countings_blocks({"a": score(target, system).to_dict()})[1:]
    assert plain.header[2:] == ("precision", "recall", "f1") and len(plain.rows) == 1


@pytest.mark.parametrize("old", ["fair", "traditional"])
def test_weights_that_chose_the_headline_are_an_error_naming_what_to_do(old):
    # deprecated in 0.1 (they added nothing), an error in 0.2 that says to leave them out
    target, system = [[("A", 0, 2), ("B", 3, 4)]], [[("A", 0, 1), ("B", 3, 4)]]
    with pytest.raises(ValueError, match=f"weights='{old}' chose the headline scores until "
                                         r"nerlens 0.2: .*leave weights out"):
        score(target, system, weights=old)
    # the headline is the exact-match scores (the 0.1 alias headline() is gone)
    result = score(target, system)
    d = result.to_dict()
    assert (d["precision"], d["recall"], d["f1"]) == result.traditional()
    assert not hasattr(result, "headline")
    with pytest.raises(AttributeError, match=r"^FairEvalResult\.headline\(\) is traditional\(\)"):
        result.headline()


def test_headline_is_nerspans_entity_scores_with_zero_division():
    d = score([[("A", 0, 1)], []], [[], []]).to_dict()
    assert (d["precision"], d["recall"], d["f1"]) == (0.0, 0.0, 0.0)
    assert d["undefined"][:1] == ["precision"] == nerspan.score(
        [[("A", 0, 1)], []], [[], []]).to_dict()["undefined"][:1]
    assert d["traditional_precision"] is None     # faireval's own rows keep None
    assert d["undefined"] == ["precision", "traditional_precision", "fair_precision"]


def test_one_target_split_in_two_is_two_boundary_errors_not_three_errors():
    # ORG(0,4) vs ORG(0,2) + ORG(2,4): pass (a) takes the first of the tied candidates,
    # pass (c) matches the second to the target's remaining tokens {2, 3}.
    result = score([[("ORG", 0, 4)]], [[("ORG", 0, 2), ("ORG", 2, 4)]],
                   weights="weighted", return_pairs=True)
    assert counts(result) == {"BE": 2, "BEs": 2}
    assert result.to_dict()["traditional_counts"] == {"TP": 0, "FP": 2, "FN": 1}
    assert result.weight_table_scores() == pytest.approx((1.0, 0.5, 2 / 3))  # TP 1, FP 0, FN 1
    pairs = result.pairs[0]
    assert [p["system"] for p in pairs] == [("ORG", 0, 2), ("ORG", 2, 4)]


def test_pass_b_matches_an_unmatched_target_to_an_already_matched_system_span():
    # Sorted targets: X(0,1) first; it takes X(0,2) (BEl) and leaves token 1 to X(0,3),
    # which finds no unmatched system span and matches X(0,2) again in pass (b) (BEs).
    result = score([[("X", 0, 3), ("X", 0, 1)]], [[("X", 0, 2)]], return_pairs=True)
    assert counts(result) == {"BE": 2, "BEl": 1, "BEs": 1}
    pairs = result.pairs[0]
    assert {(p["type"], p["target"]) for p in pairs} == {("BEl", ("X", 0, 1)),
                                                         ("BEs", ("X", 0, 3))}


def test_most_shared_tokens_win_then_the_rest_matches_what_is_left():
    # A(0,4): A(1,5) shares 3 tokens, A(0,2) 2 -> BEo first; A(0,2) then shares token 0.
    result = score([[("A", 0, 4)]], [[("A", 0, 2), ("A", 1, 5)]], return_pairs=True)
    kinds = {p["system"]: p["type"] for p in result.pairs[0]}
    assert kinds == {("A", 1, 5): "BEo", ("A", 0, 2): "BEs"}
    assert counts(result) == {"BE": 2, "BEs": 1, "BEo": 1}


# -- ties among matched candidates: the reference script's choices ----------------------
# Expected values: FairEval.py's compare_spans (katrinortmann/FairEval) run on these spans;
# among equally similar spans already matched it takes the first matched (its lists of
# matched spans grow in match order), not the first in length order.
def pair_types(result) -> list:
    return sorted((p["type"], p["target"], p["system"]) for p in result.pairs[0])


@pytest.mark.parametrize("reference_iteration", [False, True])
def test_pass_b_tie_goes_to_the_system_span_matched_first(reference_iteration):
    # A(3,9) is matched in step 2, B(1,7) in step 3 (a); in step 3 (b) C(4,5) ties
    # between them (1 shared token, 4 system-only, same length): A(3,9) was matched first
    target, system = [[("C", 2, 3), ("A", 5, 6), ("C", 4, 5)]], [[("B", 1, 7), ("A", 3, 9)]]
    result = score(target, system, focus="system", return_pairs=True,
                   reference_iteration=reference_iteration)
    assert pair_types(result) == [("BEl", ("A", 5, 6), ("A", 3, 9)),
                                  ("LBE", ("C", 2, 3), ("B", 1, 7)),
                                  ("LBE", ("C", 4, 5), ("A", 3, 9))]
    per = result.per_type()
    assert [per[label]["LBE"] for label in "ABC"] == [1, 1, 0]
    assert result.confusion_matrix.tolist() == [[1, 0, 0, 0], [0, 0, 0, 0], [1, 1, 0, 0],
                                                [0, 0, 0, 0]]  # rows A, B, C, no target


@pytest.mark.parametrize("reference_iteration", [False, True])
def test_pass_c_tie_goes_to_the_target_matched_first(reference_iteration):
    # A(3,6) is matched in step 2 (a), C(3,6) in step 3 (a); in step 3 (c) B(2,4) ties
    # between them (both have {3, 4} left): A(3,6), first matched, though C(3,6) comes
    # first in the length-sorted list
    target, system = [[("C", 3, 6), ("A", 3, 6)]], [[("B", 2, 4), ("B", 5, 6), ("A", 5, 7)]]
    result = score(target, system, return_pairs=True, reference_iteration=reference_iteration)
    assert pair_types(result) == [("BEo", ("A", 3, 6), ("A", 5, 7)),
                                  ("LBE", ("A", 3, 6), ("B", 2, 4)),
                                  ("LBE", ("C", 3, 6), ("B", 5, 6))]
    per = result.per_type()
    assert (per["A"]["LBE"], per["C"]["LBE"]) == (1, 1)
    by_system = score(target, system, focus="system", reference_iteration=reference_iteration)
    assert by_system.per_type()["B"]["LBE"] == 2
    assert result.confusion_matrix.tolist() == [[1, 1, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0],
                                                [0, 0, 0, 0]]


def test_reference_iteration_removes_the_first_equal_span():
    # The reference removes a matched span with list.remove, which takes the first EQUAL
    # span: A(5,8) #1 matches after A(5,8) #0 was skipped, so #0 leaves the list and #1
    # stays there with token 7 only, finds nothing in pass (b) and ends as the FN.
    target, system = [[("A", 5, 8), ("A", 5, 8), ("A", 6, 8)]], [[("A", 5, 7), ("A", 4, 8)]]
    skip = score(target, system, reference_iteration=True, return_pairs=True,
                 options={"keep_duplicates": True})
    assert counts(skip) == {"BE": 2, "BEs": 1, "BEl": 1, "FN": 1}
    assert ("FN", ("A", 5, 8), None) in pair_types(skip)
    # without the skip and the copies kept, #0 takes the second system span in pass (b)
    events = matching.find_errors(faireval.prepare(target, system,
                                                            keep_duplicates=True))
    assert Counter(events.kind.tolist()) == {matching.BES: 1, matching.BEL: 2}
    # by default a mention listed twice counts once, the copy as a repair
    once = score(target, system)
    assert counts(once) == {"BE": 2, "BEs": 1, "BEl": 1}
    assert once.to_dict()["repairs"]["gold"]["duplicates"] == 1


REFERENCE_TIES = json.loads((Path(__file__).parent / "data" / "faireval_reference_ties.json")
                            .read_text())["cases"]


def nonzero(rows: dict) -> dict:
    return {key: kept for key, row in rows.items() if (kept := {k: v for k, v in row.items() if v})}


@pytest.mark.parametrize("case", REFERENCE_TIES, ids=range(len(REFERENCE_TIES)))
def test_generated_ties_give_the_reference_scripts_numbers(case):
    # Generated corpora full of ties and duplicates; the expected counts, per-label counts
    # and confusion matrices are FairEval.py's (compare_spans) on them, as the note in the
    # data file says: "reference_iteration" as the script runs, "paper" without its skip.
    targets = [[tuple(span) for span in sentence] for sentence in case["targets"]]
    systems = [[tuple(span) for span in sentence] for sentence in case["systems"]]
    for key, want in case["expected"].items():
        mode, focus = key.split("/")
        result = score(targets, systems, focus=focus, options={"keep_duplicates": True},
                       reference_iteration=mode == "reference_iteration")
        assert counts(result) == want["counts"], key
        assert nonzero({label: {k: row[k] for k in faireval.COUNT_NAMES}
                        for label, row in result.per_type().items()}) == want["per_type"], key
        confusion = result.confusion()
        as_reference = {**confusion["matrix"], "_": confusion["FP"]}
        for label, n in confusion["FN"].items():
            as_reference[label] = {**as_reference.get(label, {}), "_": n}
        assert nonzero(as_reference) == want["confusion"], key


def test_lbe_fp_focus_and_confusion():
    target = [[("PER", 0, 2), ("LOC", 7, 8)]]
    system = [[("LOC", 1, 3), ("PER", 5, 6), ("ORG", 7, 8)]]
    # LE LOC->ORG at (7,8); LBE PER(0,2)->LOC(1,3); PER(5,6) is an FP
    by_target = score(target, system)
    by_system = score(target, system, focus="system")
    assert counts(by_target) == counts(by_system) == {"LE": 1, "LBE": 1, "FP": 1}
    per_t, per_s = by_target.per_type(), by_system.per_type()
    assert (per_t["PER"]["LBE"], per_t["LOC"]["LE"], per_t["PER"]["FP"]) == (1, 1, 1)
    assert (per_s["LOC"]["LBE"], per_s["ORG"]["LE"], per_s["PER"]["FP"]) == (1, 1, 1)
    assert per_s["PER"]["LBE"] == per_s["LOC"]["LE"] == 0
    confusion = by_target.confusion()
    assert confusion == by_system.confusion()  # the matrix ignores focus
    # the matrix's non-zero cells only (in label order); FN and FP give every label
    assert list(confusion["matrix"].items()) == [("LOC", {"ORG": 1}), ("PER", {"LOC": 1})]
    assert confusion["FP"] == {"LOC": 0, "ORG": 0, "PER": 1}
    assert confusion["FN"] == {"LOC": 0, "ORG": 0, "PER": 0}
    # the dense view, FairEval's (labels + 1) x (labels + 1) layout, holds the same cells
    assert by_target.confusion_matrix.tolist() == [[0, 1, 0, 0], [0, 0, 0, 0],
                                                   [1, 0, 0, 0], [0, 0, 1, 0]]


def test_confusion_tp_adds_tps_to_the_diagonal():
    target, system = [[("A", 0, 1), ("A", 2, 3)]], [[("A", 0, 1)]]
    assert score(target, system).confusion() == {"matrix": {}, "FN": {"A": 1},
                                                 "FP": {"A": 0}}
    assert score(target, system, confusion_tp=True).confusion()["matrix"] == {"A": {"A": 1}}


@pytest.mark.parametrize("name", ["FP", "FN", "NONE", "matrix", "_", "overall"])
def test_labels_named_like_the_outputs_keys_do_not_collide(name):
    # the unmatched spans are keys beside "matrix", labels only keys inside each part
    target = [[(name, 0, 1), ("B", 2, 3), (name, 4, 5)]]
    system = [[(name, 0, 1), (name, 2, 3), ("B", 5, 6)]]
    result = score(target, system, confusion_tp=True)
    confusion = result.to_dict()["error_confusion"]
    first, second = sorted([name, "B"])
    # the matrix holds its non-zero cells only: the TP name x name and the LE B x name
    assert confusion == {"matrix": {first: {first: 1}, second: {first: 1}} if name < "B"
                         else {first: {second: 1}, second: {second: 1}},
                         "FN": {name: 1, "B": 0} if name < "B" else {"B": 0, name: 1},
                         "FP": {"B": 1, name: 0} if name > "B" else {name: 0, "B": 1}}
    assert result.counts == {**dict.fromkeys(faireval.COUNT_NAMES, 0), "TP": 1, "LE": 1,
                             "FN": 1, "FP": 1}
    assert set(result.per_type()) == {name, "B"}
    rows, columns, cells = faireval.result.confusion_table(confusion)
    assert rows[:2] == columns[:2] == [first, second] and cells[2][2] is None


def test_duplicates_pair_one_to_one():
    # kept as the reference code keeps them, the second copy has no token left
    kept = score([[("A", 0, 2), ("A", 0, 2)]], [[("A", 0, 2)]], options={"keep_duplicates": True})
    assert counts(kept) == {"TP": 1, "FN": 1}
    assert kept.to_dict()["repairs"]["gold"]["duplicates"] == 0


def test_tags_in_any_scheme_and_multi_level_tags():
    bio = score([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-ORG"]])
    iobes = score([["B-PER", "E-PER", "O", "S-LOC"]], [["S-PER", "O", "O", "S-ORG"]],
                  scheme="IOBES")
    assert counts(bio) == counts(iobes) == {"LE": 1, "BE": 1, "BEs": 1}
    # outer level first: PX(0,3) holds NX(1,3); the system misses the inner NX's first token
    target = [["B-PX", "I-PX|B-NX", "I-PX|I-NX", "O"]]
    system = [["B-PX", "I-PX", "I-PX|B-NX", "O"]]
    result = score(target, system, return_pairs=True)
    assert counts(result) == {"TP": 1, "BE": 1, "BEs": 1}
    assert result.pairs[0][1] == {"type": "BEs", "target": ("NX", 1, 3),
                                  "system": ("NX", 2, 3)}


def test_corpus_and_train_contract():
    from nerspan import Corpus
    corpus = Corpus.from_tags([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]],
                              tokens=[["a", "b", "c"]])
    result = score(corpus, scheme="IOB2", mode="lenient", train=None)
    assert counts(result) == {"BE": 1, "BEs": 1}
    scalars = {k for k, v in result.to_dict().items() if isinstance(v, float)}
    assert {"f1", "fair_f1", "traditional_f1"} <= scalars


def test_label_filter_and_order():
    target = [[("A", 0, 1), ("B", 2, 3), ("C", 4, 5)]]
    system = [[("A", 0, 1), ("C", 2, 3)]]
    only = score(target, system, labels=["B", "A"])
    assert list(only.per_type()) == ["B", "A"]
    assert counts(only) == {"TP": 1, "FN": 1}  # C spans are gone before matching
    assert counts(score(target, system, exclude=["C"])) == {"TP": 1, "FN": 1}


def test_ignore_punct_shrinks_spans_and_drops_empty_ones():
    pos = [["$(", "NE", "$(", "NN", "$,", "NN"]]
    target = [[("LOC", 0, 3), ("X", 3, 6)]]
    system = [[("LOC", 1, 2), ("Y", 4, 5)]]
    assert counts(score(target, system)) == {"BE": 1, "BEs": 1, "LBE": 1}
    # LOC(0,3) shrinks to (1,2): a TP; Y(4,5) covers only a comma and vanishes
    assert counts(score(target, system, ignore_punct=True, pos=pos)) == {"TP": 1, "FN": 1}
    with pytest.raises(ValueError, match="POS"):
        score(target, system, ignore_punct=True)


# -- the published NER result and the real span files ------------------------------------
def span_files(name: str):
    target = DATA / "target" / f"{name}_spans.csv"
    if not target.exists():
        pytest.skip(f"shared data not available: {target}")
    return _read_pair(name)


@functools.lru_cache(maxsize=None)
def _read_pair(name: str):
    return (read_span_file(DATA / "target" / f"{name}_spans.csv"),
            read_span_file(DATA / "system" / f"{name}_spans.csv"))


def pct(x: float) -> float:
    return round(100 * x, 2)


@pytest.fixture(scope="module")
def ner():
    return span_files("ner")


def test_published_ner_result(ner):
    d = score(*ner).to_dict()
    assert d["counts"] == {"TP": 5159, "FP": 253, "FN": 462, "LE": 252, "BE": 180,
                           "BEs": 71, "BEl": 106, "BEo": 3, "LBE": 155}
    assert [pct(d[f"traditional_{k}"]) for k in ("precision", "recall", "f1")] == [86.66, 83.51, 85.05]
    assert [pct(d[f"fair_{k}"]) for k in ("precision", "recall", "f1")] == [90.42, 87.23, 88.80]


def test_ner_through_bio_tags_gives_the_same_numbers(ner):
    target, system = ner
    lengths = [max([e for _, _, e in t + s], default=1) for t, s in zip(target, system)]
    from_spans = score(target, system).to_dict()
    from_tags = score(spans_to_tags(target, lengths), spans_to_tags(system, lengths)).to_dict()
    assert from_tags == from_spans


def test_reference_iteration_reproduces_the_reference_codes_output():
    # Overall counts printed by the reference code for these files (its eval/eval_ner.csv,
    # eval_chunks.csv, eval_topofields.csv): it skips the span after each match in a pass.
    expected = {
        "ner": {"TP": 5159, "FP": 267, "LE": 252, "BE": 173, "BEs": 68, "BEl": 101,
                "BEo": 4, "LBE": 144, "FN": 477},
        "chunk": {"TP": 97649, "FP": 192, "LE": 206, "BE": 2366, "BEs": 585, "BEl": 1766,
                  "BEo": 15, "LBE": 1317, "FN": 256},
        "topofield": {"TP": 60168, "FP": 2129, "LE": 301, "BE": 1567, "BEs": 629,
                      "BEl": 918, "BEo": 20, "LBE": 768, "FN": 1347},
    }
    for name, want in expected.items():
        assert score(*span_files(name), reference_iteration=True).counts == want, name


@pytest.mark.parametrize("name", ["chunk", "topofield"])
def test_nested_span_files_invariants(name):
    target, system = span_files(name)
    result = score(target, system)
    c = result.counts
    n, m = sum(map(len, target)), sum(map(len, system))
    total = c["TP"] + c["LE"] + c["BE"] + c["LBE"] + c["FN"] + c["FP"]
    assert max(n, m) <= total <= n + m
    assert c["BE"] == c["BEs"] + c["BEl"] + c["BEo"]
    assert result.fair()[2] >= result.traditional()[2]
    # TP is the exact-match count: the same as nerspan's one-to-one matching
    exact = sum(sum((Counter(t) & Counter(s)).values()) for t, s in zip(target, system))
    assert c["TP"] == exact
    assert sum(r["support"] for r in result.per_type().values()) == n


def test_span_file_round_trip(tmp_path, ner):
    path = tmp_path / "spans.csv"
    write_span_file(path, ner[0][:50])
    assert read_span_file(path) == ner[0][:50]


# -- generated sentences (the event-by-event oracle is in test_faireval_matching.py) ---
span = st.tuples(st.sampled_from("ABC"), st.integers(0, 7), st.integers(1, 4)).map(
    lambda x: (x[0], x[1], x[1] + x[2]))
sentence = st.lists(span, max_size=5)
corpus = st.lists(st.tuples(sentence, sentence), min_size=1, max_size=6)


@settings(max_examples=80, deadline=None, database=None)
@given(sentence, sentence, st.booleans())
def test_properties_of_one_sentence(target, system, reference_iteration):
    result = score([target], [system], weights="weighted",
                   reference_iteration=reference_iteration)
    c = result.counts
    n, m = len(set(target)), len(set(system))   # a mention listed twice counts once
    total = c["TP"] + c["LE"] + c["BE"] + c["LBE"] + c["FN"] + c["FP"]
    assert max(n, m) <= total <= n + m
    assert c["BE"] == c["BEs"] + c["BEl"] + c["BEo"]
    fair_f1 = result.fair()[2]
    assert fair_f1 >= result.traditional()[2] - 1e-12
    # Eq. 4: errors as all-FP, all-FN or half-half give the same F1
    for shares in ((0, 1, 0), (0, 0, 1)):
        table = {"LE": shares, "BE": shares, "LBE": shares}
        again = score([target], [system], weights=table, reference_iteration=reference_iteration)
        assert again.weight_table_scores()[2] == pytest.approx(fair_f1)
    if c["LE"] == c["BE"] == c["LBE"] == 0:
        assert result.traditional() == pytest.approx(result.fair())
        assert result.fair() == pytest.approx(result.weight_table_scores())


share = st.one_of(st.floats(0, 1), st.floats(0, 1e308), st.sampled_from([1e308, 5e-324, 1e154]))


@settings(max_examples=100, deadline=None, database=None)
@given(corpus, st.dictionaries(st.sampled_from(faireval.COUNT_NAMES), st.tuples(share, share, share)))
def test_any_weight_table_gives_plain_json_or_a_clear_error(pairs, table):
    # huge shares overflow the weighted sums to inf (and the scores to NaN): refused
    try:
        d = score([t for t, _ in pairs], [s for _, s in pairs], weights=table).to_dict()
    except ValueError as error:
        assert "too large for a float" in str(error)
        return
    json.dumps(d, allow_nan=False)   # no NaN, no inf anywhere
    assert all(0 <= v <= 1 for v in (d["weight_table_precision"], d["weight_table_recall"],
                                     d["weight_table_f1"]) if v is not None)


def flat(spans):
    """Spans that do not overlap (single-level tags can hold them), the first kept."""
    out = []
    for label, a, b in spans:
        if all(b <= c or d <= a for _, c, d in out):
            out.append((label, a, b))
    return out


@settings(max_examples=80, deadline=None, database=None)
@given(st.lists(st.tuples(st.sampled_from(["A", "B|C", "|"]), st.integers(0, 7),
                          st.integers(1, 3)).map(lambda x: (x[0], x[1], x[1] + x[2])),
                min_size=1, max_size=4).map(flat), sentence.map(flat))
def test_one_input_one_answer_spans_or_tags_on_the_other_side(target, system):
    # spans against spans, or against the same spans as tags: the same result, or (a
    # span label holding the level separator of tags) an error saying so
    tags = spans_to_tags([system], [12])
    if any("|" in label for label, _, _ in target):
        with pytest.raises(NerspanError, match=r"references, sentence 0: span "
                                               r"label '.*' holds '\|'"):
            score([target], tags)
        return
    assert score([target], tags).to_dict() == score([target], [system]).to_dict()


def distinct_lengths(spans):
    seen, out = set(), []
    for label, a, b in spans:
        if b - a not in seen:
            seen.add(b - a)
            out.append((label, a, b))
    return out


@settings(max_examples=60, deadline=None, database=None)
@given(sentence.map(distinct_lengths), sentence.map(distinct_lengths), st.randoms())
def test_list_order_does_not_matter_without_ties(target, system, rnd):
    # With all lengths distinct on each side the stable length sort fixes the order, so
    # the tie rule (first in list order) never applies.
    shuffled_t, shuffled_s = list(target), list(system)
    rnd.shuffle(shuffled_t)
    rnd.shuffle(shuffled_s)
    a = score([target], [system], return_pairs=True).to_dict()
    b = score([shuffled_t], [shuffled_s], return_pairs=True).to_dict()
    assert a == b


@settings(max_examples=60, deadline=None, database=None)
@given(sentence, sentence, st.randoms())
def test_list_order_only_enters_through_the_tie_rule(target, system, rnd):
    # Any order changes the traditional scores and TP count not at all; an order that
    # keeps equal-length spans in their relative order changes nothing.
    shuffled = list(system)
    rnd.shuffle(shuffled)
    a, b = score([target], [system]), score([target], [shuffled])
    assert a.traditional() == b.traditional() and a.counts["TP"] == b.counts["TP"]
    regrouped = sorted(system, key=lambda s: (s[2] - s[1]))  # stable: ties keep their order
    assert score([target], [regrouped]).to_dict() == a.to_dict()


# -- bad input ---------------------------------------------------------------------------
@pytest.mark.parametrize("bad, message", [
    (("A", 3, 2), "empty or reversed"),
    (("A", 2, 2), "empty or reversed"),
    (("A", -1, 2), "before the sentence"),
    (("A", 1), r"\(label, start, end\)"),
    ((1, 0, 1), "label"),
])
def test_bad_spans_name_the_sentence(bad, message):
    with pytest.raises(NerspanError, match=message) as error:
        score([[], [("A", 0, 1)], [bad]], [[], [], []])
    assert error.value.sentence == 2


def test_span_outside_the_sentence():
    with pytest.raises(NerspanError, match="past the end") as error:
        score([[("A", 0, 3)]], [[]], pos=[["NN", "NN"]])
    assert error.value.sentence == 0


def test_sentence_counts_must_agree():
    with pytest.raises(SentenceCountError):
        score([[("A", 0, 1)], []], [[("A", 0, 1)]])


@pytest.mark.parametrize("weights, message", [
    ({"XE": (0, 1, 1)}, "unknown error type"),
    ({"LE": (0, -0.5, 1)}, "negative"),
    ({"LE": (0, 1)}, "three shares"),
    ({"LE": {"TN": 1}}, "only be given for TP, FP and FN"),
    ({"LE": (0, float("nan"), 1)}, "non-finite"),
    ({"LE": (0, 10 ** 400, 1)}, "too large for a float"),
    ({"TP": (1e308, 1e308, 0)}, r"weighted TP \+ FP \+ FN of these counts \(TP 1, .*\) is too "
                                r"large for a float"),
    ("fancy", "weights must be one of"),
])
def test_bad_weight_tables(weights, message):
    with pytest.raises(ValueError, match=message):
        score([[("A", 0, 1)]], [[("A", 0, 1)]], weights=weights)


def test_bad_options():
    with pytest.raises(ValueError, match="focus"):
        score([[("A", 0, 1)]], [[("A", 0, 1)]], focus="both")
    with pytest.raises(ValueError, match="leaves nothing"):
        score([[("A", 0, 1)]], [[("B", 0, 1)]], labels=["C"])
    with pytest.raises(ValueError, match="leaves nothing"):
        score([[("A", 0, 1)]], [[("B", 0, 1)]], exclude=["A", "B"])


@pytest.mark.parametrize("line, message", [
    ("PER\t3\t2\t3, 2", "lies before begin"),
    ("PER\t0\t1\t0, 1", "1-based"),
    ("PER\t2\t3", "4 tab-separated"),
    ("PER\t2\t4\t2, 4", "not the range"),
    ("PER\tx\t4\t", "integers"),
])
def test_bad_span_file_lines(tmp_path, line, message):
    path = tmp_path / "bad.csv"
    path.write_text(f"PER\t1\t1\t1\n\n{line}\n")
    with pytest.raises(FormatError, match=message) as error:
        read_span_file(path)
    assert (error.value.line, error.value.sentence) == (3, 1)
    assert str(path) in str(error.value)


@pytest.mark.parametrize("span, message", [
    (("NONE", 998, 999), "placeholder line NONE 999 999 999"),
    (("A\tB", 0, 1), "would not read back"),
    (("A\n", 0, 1), "would not read back"),
    ((" A", 0, 1), "would not read back"),
])
def test_span_files_refuse_spans_that_would_not_read_back(tmp_path, span, message):
    path = tmp_path / "spans.csv"
    with pytest.raises(NerspanError, match=message) as error:
        write_span_file(path, [[("PER", 0, 1)], [span]])
    assert error.value.sentence == 1 and not path.exists()
    write_span_file(path, [[("NONE", 997, 999)], []])   # NONE elsewhere is a span
    assert read_span_file(path) == [[("NONE", 997, 999)], []]


def test_placeholder_is_an_empty_sentence(tmp_path):
    path = tmp_path / "spans.csv"
    path.write_text("NONE\t999\t999\t999\n\nPER\t2\t3\t2, 3\n\n")
    assert read_span_file(path) == [[], [("PER", 1, 3)]]


def test_spans_to_tags_refuses_overlaps():
    with pytest.raises(NerspanError, match="overlaps"):
        spans_to_tags([[("A", 0, 2), ("B", 1, 3)]], [3])


def test_exported_names():
    assert faireval.ERROR_TYPES == ("TP", "LE", "BEs", "BEl", "BEo", "LBE", "FN", "FP")
    assert faireval.resolve_weights("weighted")["BEo"] == (0.5, 0.25, 0.25)


# -- the report's bootstrap statistics ----------------------------------------------------
def _statistics_agree(result) -> None:
    values = result.to_dict()
    names = [s.name for s in result.statistics()]
    assert names == ["faireval.fair_precision", "faireval.fair_recall", "faireval.fair_f1",
                     "faireval.traditional_f1"]
    for statistic in result.statistics():
        value = values[statistic.name.split(".", 1)[1]]
        if value is None:  # undefined: NaN in the bootstrap, None (JSON null) in to_dict
            assert math.isnan(statistic.estimate()), statistic.name
            continue
        assert statistic.estimate() == pytest.approx(value, abs=1e-12), statistic.name
        assert statistic.counts.shape[0] == len(result.sentence_counts)


def test_statistics_estimates_equal_the_reported_scores(ner):
    _statistics_agree(score(*ner))
    _statistics_agree(score([[], [("PER", 0, 1)]], [[("LOC", 0, 2)], []]))
    _statistics_agree(score([[]], [[]]))


@settings(max_examples=60, deadline=None, database=None)
@given(corpus)
def test_statistics_agree_on_random_corpora(pairs):
    _statistics_agree(score([t for t, _ in pairs], [s for _, s in pairs]))


def test_label_ids_give_rows_only_for_the_types_the_tags_use():
    # a model's label list names types the data never uses: no per-label row for them,
    # the same result as the tags written out
    labels = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
    gold_ids, pred_ids = [[1, 2, 0, 3]], [[1, 0, 0, 3]]
    from_ids = faireval.score(gold_ids, pred_ids, label_list=labels).to_dict()
    from_tags = faireval.score([[labels[i] for i in s] for s in gold_ids],
                               [[labels[i] for i in s] for s in pred_ids]).to_dict()
    assert from_ids == from_tags
    assert "MISC" not in from_ids["per_type"]
