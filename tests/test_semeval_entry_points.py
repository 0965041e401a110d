"""nervaluate's minimum overlap and per-instance listings through every entry point:
``faireval.score(min_overlap=..., pairing=..., return_instances=True)``, the evaluate
module and ``nerlens faireval --min-overlap F --pairing M --instances --csv FILE``,
against nervaluate 1.2.1 (a test-only dependency) on random spans."""
from __future__ import annotations

import csv
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
from faireval.semeval import CSV_COLUMNS
from nerlens.cli import main
from tests.test_result_contract import REPO

nervaluate = pytest.importorskip("nervaluate")

FIELDS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual",
          "precision", "recall", "f1")
OUTCOMES = ("correct", "incorrect", "partial", "missed", "spurious")
PERCENTS = (1, 10, 29, 50, 66.67, 100)
WIDTH = 12


def random_spans(rnd, n):
    """nervaluate dicts (inclusive ends), nested and overlapping, within WIDTH tokens."""
    out = []
    for _ in range(n):
        start = rnd.randint(0, WIDTH - 1)
        end = min(WIDTH - 1, start + rnd.choice([0, 1, 2, 4, rnd.randint(0, WIDTH)]))
        out.append({"label": rnd.choice("AB"), "start": start, "end": end})
    return out


def nervaluate_of(true, pred, percent):
    results = nervaluate.Evaluator(true, pred, tags=["A", "B"], loader="dict",
                                   min_overlap_percentage=percent).evaluate()
    counts = {schema: {f: getattr(r, f) for f in FIELDS}
              for schema, r in results["overall"].items()}
    indices = {schema: {name: sorted(getattr(r, f"{name}_indices")) for name in OUTCOMES}
               for schema, r in results["overall_indices"].items()}
    return counts, indices


def indices_of(rows):
    out = {name: [] for name in OUTCOMES}
    for row in rows:
        span = row["gold"] if row["outcome"] == "missed" else row["pred"]
        out[row["outcome"]].append((row["sentence"], span["index"]))
    return {name: sorted(found) for name, found in out.items()}


def random_case(rnd):
    true = [random_spans(rnd, rnd.randint(0, 4)) for _ in range(3)]
    pred = [random_spans(rnd, rnd.randint(0, 4)) for _ in range(3)]
    return true, pred


TOKENS = [[f"w{k}" for k in range(WIDTH)]] * 3


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PERCENTS), st.randoms(use_true_random=False))
def test_the_api_equals_nervaluate(percent, rnd):
    true, pred = random_case(rnd)
    counts, indices = nervaluate_of(true, pred, percent)
    # nervaluate counts a mention listed twice as often as it is listed
    got = faireval.score(true, pred, tokens=TOKENS, inputs={'inclusive_end': True}, schemas="semeval",
                         min_overlap=percent / 100, return_instances=True,
                         options={"keep_duplicates": True}).to_dict()
    for schema in counts:
        assert {f: got["semeval"][schema][f] for f in FIELDS} == counts[schema], schema
        assert indices_of(got["semeval_instances"][schema]) == indices[schema], schema
    assert got["options"]["min_overlap"] == percent / 100
    assert got["options"]["pairing"] == "greedy"
    # optimal matching: the same spans counted, each exactly once
    optimal = faireval.score(true, pred, tokens=TOKENS, inputs={'inclusive_end': True},
                             schemas="semeval", min_overlap=percent / 100,
                             pairing="optimal",
                             options={"keep_duplicates": True}).to_dict()["semeval"]
    for schema, row in optimal.items():
        assert row["possible"] == counts[schema]["possible"]
        assert row["actual"] == counts[schema]["actual"]


def write_jsonl(path, spans_per_sentence, tokens=None):
    with open(path, "w", encoding="utf-8") as handle:
        for k, spans in enumerate(spans_per_sentence):
            line = {"spans": [[s["start"], s["end"], s["label"]] for s in spans]}
            if tokens is not None:
                line["tokens"] = tokens[k]
            handle.write(json.dumps(line) + "\n")
    return str(path)


def test_the_cli_and_its_csv_equal_nervaluate(tmp_path, capsys):
    rnd = random.Random(30)
    for case in range(6):
        true, pred = random_case(rnd)
        percent = PERCENTS[case % len(PERCENTS)]
        counts, indices = nervaluate_of(true, pred, percent)
        gold = write_jsonl(tmp_path / "gold.jsonl", true, TOKENS)
        system = write_jsonl(tmp_path / "sys.jsonl", pred)
        table = tmp_path / "instances.csv"
        capsys.readouterr()
        assert main(["faireval", "--jsonl", gold, system, "--inclusive-end", "--schemas",
                     "semeval", "--min-overlap", str(percent / 100), "--return-instances",
                     "--keep-duplicates", "--csv",
                     str(table), "--format", "json"]) == 0
        got = json.loads(capsys.readouterr().out)
        for schema in counts:
            assert {f: got["semeval"][schema][f] for f in FIELDS} == counts[schema]
            assert indices_of(got["semeval_instances"][schema]) == indices[schema]
        with open(table, encoding="utf-8", newline="") as handle:
            reader = csv.DictReader(handle)
            rows = list(reader)
        assert tuple(reader.fieldnames) == CSV_COLUMNS
        for schema in counts:
            listed = {name: sorted((int(r["sentence"]), int(r["gold_index"] if name == "missed"
                                                            else r["pred_index"]))
                                   for r in rows if r["schema"] == schema
                                   and r["outcome"] == name) for name in OUTCOMES}
            assert listed == indices[schema]


def test_the_cli_writes_a_csv_per_system_and_keeps_json_lean(tmp_path, capsys):
    true = [[{"label": "A", "start": 0, "end": 1}]]
    pred = [[{"label": "A", "start": 1, "end": 2}]]
    gold = write_jsonl(tmp_path / "gold.jsonl", true, [["a", "b", "c"]])
    one = write_jsonl(tmp_path / "one.jsonl", pred)
    two = write_jsonl(tmp_path / "two.jsonl", true)
    capsys.readouterr()
    assert main(["faireval", "--jsonl", gold, one, two, "--inclusive-end", "--schemas",
                 "strict", "--pairing", "optimal", "--csv", str(tmp_path / "out.csv"),
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert all("semeval_instances" not in result for result in out.values())
    assert sorted(p.name for p in tmp_path.glob("out-*.csv")) == ["out-one.csv", "out-two.csv"]
    assert all(result["options"]["pairing"] == "optimal" for result in out.values())


def test_the_module_equals_the_api():
    evaluate = pytest.importorskip("evaluate")
    true_tags = [["O"] * WIDTH]
    pred_tags = [["B-A", "I-A", "O"] + ["O"] * (WIDTH - 3)]
    true_tags[0][1:4] = ["B-A", "I-A", "I-A"]
    options = dict(schemas="semeval", min_overlap=0.5, pairing="optimal",
                   return_instances=True)
    metric = evaluate.load(str(REPO / "metrics" / "faireval"))
    module = metric.compute(references=true_tags, predictions=pred_tags, **options)
    api = faireval.score(true_tags, pred_tags, **options).to_dict()
    assert module["semeval"] == api["semeval"]
    assert module["semeval_instances"] == api["semeval_instances"]
    # 1 of 3 gold tokens overlapped: under 50%, so no partial match
    assert api["semeval"]["partial"]["partial"] == 0
    assert faireval.score(true_tags, pred_tags, schemas="semeval",
                          min_overlap=0.3).to_dict()["semeval"]["partial"]["partial"] == 1


@pytest.mark.parametrize("options, message", [
    (dict(min_overlap=0.5), r"min_overlap \(--min-overlap\) applies to the SemEval-2013 "
                            "schemas"),
    (dict(pairing="optimal"), r"pairing \(--pairing\) applies"),
    (dict(return_instances=True), r"return_instances \(--return-instances\) applies"),
    (dict(schemas="semeval", pairing="best"),
     "pairing must be one of 'greedy', 'optimal', not 'best'"),
    (dict(schemas="semeval", min_overlap=0), r"min_overlap must be a fraction"),
])
def test_semeval_options_without_schemas_or_out_of_range_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        faireval.score([["B-A"]], [["B-A"]], **options)
