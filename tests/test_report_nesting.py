"""The report's nested view (``nerlens.report.nesting``): gold with layers is scored over
every mention, per layer and per shape, with the numbers of ``nerspan.score``; what reads
one gold tag per token is left out and named with its reason, never fed the first layer."""
from __future__ import annotations

import json
import warnings

import pytest

import attribute_buckets
import faireval
import nerlens
import nerspan
from nerlens.cli import main
from nerspan import Corpus
from nerspan.layers import layer_column
from nerspan.reading.span_lists import from_spans
from nerspan.reading.systems import read_systems

from .conftest import shared_path
from .test_germeval_layers import LAYERS, gold_layers

COMPARED = ("gold", "predicted", "correct", "precision", "recall", "f1")


def layered_corpus() -> Corpus:
    """An outer and an inner gold layer; one system finding the outer mention only, one
    finding both in one column of tags (it cannot nest) and a wrong type."""
    return Corpus.from_tags(
        [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O", "O", "O"]],
        tokens=[["Uni", "Berlin", "Mitte", "."], ["Anna", "sagt", "nein", "."]],
        columns={layer_column("gold", 2): [["O", "B-LOC", "O", "O"], ["O"] * 4],
                 "outer": [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-LOC", "O", "O", "O"]],
                 "inner": [["O", "B-LOC", "O", "O"], ["B-PER", "O", "O", "O"]]})


def report_of(corpus, systems, **options):
    return nerlens.build_report(corpus=corpus, system_names=systems, bootstrap=0,
                                figures=False, families=["faireval"], **options)


def test_every_layer_scored_as_nerspan_scores_it():
    corpus = layered_corpus()
    report = report_of(corpus, ["outer", "inner"])
    for system in ("outer", "inner"):
        expected = nerspan.score(corpus, system).to_dict()
        got = report.nesting[system]
        assert {k: got[k] for k in COMPARED} == {k: expected[k] for k in COMPARED}
        for layer in ("1", "2"):
            assert {k: got["layers"][layer][k] for k in COMPARED} == \
                {k: expected["layers"][layer][k] for k in COMPARED}
        assert got["shapes"]["inner"]["gold"] == 1   # LOC inside ORG
    # the headline entity scores count every mention too, not the first layer
    assert report.results["outer"]["entity"]["gold"] == 3
    assert report.to_dict()["nesting"] == report.nesting


def test_one_tag_parts_are_left_out_and_named():
    report = report_of(layered_corpus(), ["outer", "inner"])
    skipped = report.info["nesting"]["skipped"]
    assert set(skipped) == {"confusion"}   # faireval scores every layer's mentions
    assert report.info["families"] == ["faireval"] and report.confusion == {}
    assert sum(row["support"] for row in
               report.results["outer"]["faireval"]["per_type"].values()) == 3
    page = report.to_html()
    assert "id='nesting'" in page and "Left out: gold nests" in page
    assert "inner mentions only" in page
    summary = report.summary()
    assert "Nested gold: every mention, per layer and shape" in summary
    assert "confusion:" in summary and "layer 2" in summary


def test_flat_gold_has_no_nested_view():
    corpus = Corpus.from_tags([["B-PER", "O"]], tokens=[["Anna", "."]],
                              columns={"sys": [["B-PER", "O"]]})
    report = report_of(corpus, ["sys"])
    assert report.nesting == {} and "nesting" not in report.info
    assert report.info["families"] == ["faireval"]
    assert "id='nesting'" not in report.to_html()
    assert "Nested gold" not in report.summary()


GERMEVAL_SYSTEMS = ("germaner_trained_with_germeval_tested_on_germeval.tsv",
                    "lstm_trained_with_germeval_tested_on_germeval-evaluatoready.tsv")


def test_germeval_report_shows_every_gold_mention():
    """GermEval 2014 test with its outer and inner columns and two of the shared system
    outputs: the 6,178 outer and 515 inner mentions (counted here from the file) are all
    in the nested view, per layer as nerspan.score gives them."""
    path, outer, inner = gold_layers()
    systems = [shared_path("data", "germeval2014", "systems", name)
               for name in GERMEVAL_SYSTEMS]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, names = read_systems(path, systems, inputs=LAYERS)
        report = report_of(corpus, names)
    assert (len(outer), len(inner)) == (6178, 515)
    for name in names:
        got, expected = report.nesting[name], nerspan.score(corpus, name).to_dict()
        assert (got["layers"]["1"]["gold"], got["layers"]["2"]["gold"]) == (6178, 515)
        assert got["gold"] + got["merged_mentions"] == len(outer) + len(inner)
        for layer in ("1", "2"):
            assert {k: got["layers"][layer][k] for k in COMPARED} == \
                {k: expected["layers"][layer][k] for k in COMPARED}
        assert report.results[name]["entity"]["gold"] == got["gold"]
    assert f"Gold holds {len(outer | inner)} mentions (layer 1: 6178, layer 2: 515" in \
        report.summary()


def test_span_lists_that_nest():
    """Span-list gold whose mentions nest, one of them discontinuous: one layer, every
    mention, the inner and discontinuous views."""
    split = {"label": "ORG", "fragments": [[0, 1], [2, 3]]}
    corpus = from_spans([[split, ("LOC", 1, 2)], [("PER", 0, 1)]],
                        [[split], [("PER", 0, 1)]],
                        [["Uni", "Berlin", "Mitte", "."], ["Anna", "sagt", "nein", "."]])
    report = report_of(corpus, ["pred"])
    expected = nerspan.score(corpus).to_dict()
    got = report.nesting["pred"]
    assert {k: got[k] for k in COMPARED} == {k: expected[k] for k in COMPARED}
    assert got["shapes"] == expected["shapes"] and got["shapes"]["inner"]["gold"] == 1
    assert report.info["nesting"]["layers"] == 1
    # faireval scores an evaluation's nesting and discontinuous spans (fragment sets)
    assert "faireval" not in report.info["nesting"]["skipped"]
    alone = faireval.score(nerspan.Evaluation(corpus), "pred", schemas="semeval").to_dict()
    assert report.results["pred"]["faireval"]["counts"] == alone["counts"]
    assert got["shapes"]["discontinuous"]["found_gold"] == 1
    assert "inner mentions only" in report.summary()
    assert "1 discontinuous" in report.summary() and "discontinuous mentions only" in \
        report.to_html()


def test_a_bad_tag_in_a_later_layer_is_named():
    corpus = Corpus.from_tags([["B-ORG", "I-ORG"]], tokens=[["Uni", "Berlin"]],
                              columns={layer_column("gold", 2): [["X-LOC", "O"]],
                                       "sys": [["B-ORG", "I-ORG"]]})
    with pytest.raises(nerspan.InvalidTagError, match=r"gold@layer2, sentence 0.*'X-LOC'"):
        report_of(corpus, ["sys"])


def test_the_command_shows_the_nested_view(tmp_path, capsys):
    """``nerlens report GOLD PRED --layers 1,2``: the terminal view and report.json hold
    the nested view; report.html its section."""
    gold, pred = tmp_path / "gold.txt", tmp_path / "pred.txt"
    gold.write_text("Uni B-ORG O\nBerlin I-ORG B-LOC\n. O O\n\nAnna B-PER O\n", encoding="utf-8")
    pred.write_text("Uni B-ORG\nBerlin I-ORG\n. O\n\nAnna B-PER\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(gold), str(pred), "--layers", "1,2", "--families", "faireval",
                 "--bootstrap", "0", "--output", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "Nested gold: every mention, per layer and shape" in shown and "layer 2" in shown
    saved = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert saved["nesting"]["pred"]["gold"] == 3
    assert saved["nesting"]["pred"]["layers"]["2"]["gold"] == 1
    assert "id='nesting'" in (out / "report.html").read_text(encoding="utf-8")


def test_buckets_run_on_nested_gold_under_their_nested_options():
    """attribute_buckets' token attributes read one label per token: on gold that nests
    the report scores it with the attributes that take every shape (the family's
    ``nested_options``), says so, and its numbers are the family's own under them;
    attributes the user gives win."""
    corpus = layered_corpus()
    train = ([corpus.sentence_tokens(i) for i in range(corpus.n_sentences)],
             [corpus.tags("outer", i) for i in range(corpus.n_sentences)])
    report = nerlens.build_report(corpus=corpus, system_names=["outer", "inner"],
                                  train=train, bootstrap=0, figures=False,
                                  families=["attribute_buckets"])
    about = report.info["nesting"]
    assert "attribute_buckets" not in about["skipped"]
    shape_safe = [a for a in attribute_buckets.ATTRIBUTES
                  if a not in attribute_buckets.TOKEN_ATTRIBUTES]
    assert about["applied"] == {"attribute_buckets": {"attributes": shape_safe}}
    evaluation = nerspan.Evaluation(corpus, "IOB2", "lenient",
                                    nerspan.as_train_index(train, "IOB2", "lenient"))
    expected = attribute_buckets.score(evaluation, "outer", attributes=shape_safe).to_dict()
    got = report.results["outer"]["attribute_buckets"]
    assert got["f1"] == expected["f1"] and got["buckets"] == expected["buckets"]
    assert "attribute_buckets is scored with attributes=" in report.summary()
    chosen = nerlens.build_report(corpus=corpus, system_names=["outer"], train=train,
                                  bootstrap=0, figures=False, families=["attribute_buckets"],
                                  options={"attribute_buckets": {"attributes": ["eLen"]}})
    assert chosen.info["nesting"]["applied"] == {}
    assert list(chosen.results["outer"]["attribute_buckets"]["buckets"]) == ["eLen"]
