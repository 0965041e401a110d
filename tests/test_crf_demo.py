"""The scored demo data (nerlens/data/wnut17/crf_scored.jsonl): it reads as scored span
lists of the test split, and ``scripts/build_crf_demo.py`` makes it byte for byte."""
from __future__ import annotations

import importlib.util
import json

import pytest

import nerspan
from nerspan import decode, read_columns, read_span_jsonl
from nerspan.scored import scored_spans
from nerspan.sweeps import sweep_spans
from tests.conftest import REPO

DATA = REPO / "nerlens" / "data" / "wnut17"
SCORED = DATA / "crf_scored.jsonl"
SCRIPT = REPO / "scripts" / "build_crf_demo.py"


def test_the_scored_demo_is_small_and_reads_as_scored_spans_of_the_test_split():
    assert SCORED.stat().st_size < 100_000
    gold_corpus = read_columns(DATA / "test.conll", {"gold": 1})
    lines = SCORED.read_text(encoding="utf-8").splitlines()
    assert len(lines) == gold_corpus.n_sentences
    spans = read_span_jsonl(SCORED)["spans"]
    scores = [item["score"] for sentence in spans for item in sentence]
    assert scores and all(0 <= s <= 1 and round(s, 4) == s for s in scores)
    sweep = sweep_spans(decode(gold_corpus), scored_spans(spans))
    # every mention kept: nerspan.score of the same spans, the confidences left out
    plain = [[(item["start"], item["end"], item["label"]) for item in sentence]
             for sentence in spans]
    gold_tags = [gold_corpus.tags("gold", i) for i in range(gold_corpus.n_sentences)]
    assert sweep.at(0.0).to_dict() == nerspan.score(gold_tags, plain).to_dict()
    result = sweep.to_dict()
    assert 0 < result["average_precision"] <= max(result["curve"]["precision"]) * result["recall"]
    assert result["best_f1"] >= result["f1"] > 0
    assert json.loads(json.dumps(result)) == result


def test_the_script_makes_the_shipped_file_byte_for_byte(tmp_path):
    pytest.importorskip("sklearn_crfsuite", reason="sklearn-crfsuite is not installed "
                        "(pip install 'nerlens[demo-build]'): the CRF demo's reproduction "
                        "is not checked")
    spec = importlib.util.spec_from_file_location("build_crf_demo", SCRIPT)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    out = tmp_path / "crf_scored.jsonl"
    numbers = script.main(["--out", str(out)])
    assert out.read_bytes() == SCORED.read_bytes()
    assert numbers["f1"] == sweep_spans(
        decode(read_columns(DATA / "test.conll", {"gold": 1})),
        scored_spans(read_span_jsonl(SCORED)["spans"])).to_dict()["f1"]
