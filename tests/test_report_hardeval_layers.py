"""hardeval in the report on gold with layers (issue 41): its token error rates are defined
on one tag per token, so the report shows it per layer ("layer 1 (outermost)", "layer 2")
in the terminal, report.json and the page, each layer's numbers those of ``hardeval.score``
on that layer alone. Which families take gold that nests is read from their descriptors
(``Family.takes_nested``), never learnt by scoring a system twice; a family that refuses a
shape on the inputs given is left out with its own reason."""
from __future__ import annotations

import json
import math
import warnings

from hypothesis import given, settings

import hardeval
import nerlens
from nerlens.cli import main
from nerlens.families import register_family, unregister_family
from nerlens.report.confidence import EVERY
from nerspan import GOLD, Corpus, as_train_index
from nerspan.family import NOT_NESTED, Family
from nerspan.layers import layer_column
from nerspan.reading.systems import read_systems

from .conftest import shared_path
from .test_germeval_layers import LAYERS
from .test_layers import layered
from .test_report_confidence import GOLD as CONFIDENCE_GOLD
from .test_report_confidence import SCORED
from .test_report_confidence import TOKENS as CONFIDENCE_TOKENS
from .test_report_confidence import TRAIN as CONFIDENCE_TRAIN
from .test_report_nesting import GERMEVAL_SYSTEMS, layered_corpus

NAMING = ("layer", "gold_column", "pred_column")   # what names a layer beside its numbers
TRAIN = ([["Uni", "Berlin", "sagt"], ["Anna", "Mitte", "."]],
         [["B-ORG", "B-LOC", "O"], ["B-PER", "O", "O"]])


def report_of(corpus, systems, train=TRAIN, **options):
    return nerlens.build_report(corpus=corpus, system_names=systems, train=train,
                                bootstrap=0, figures=False, families=["hardeval"], **options)


def alone(corpus, layer: int, system: str, train) -> dict:
    """hardeval on gold layer ``layer`` alone against ``system``: what the report's layer
    must equal."""
    return hardeval.score(corpus.paired(layer_column(GOLD, layer), system),
                          train=train).to_dict()


def same_number(got, expected) -> bool:
    return (got is None or math.isnan(got)) if expected is None else got == expected


def check_layers(report, corpus, systems, train) -> None:
    """Every layer of every system equals hardeval on that layer alone, and so does each
    of its statistics (named per layer, ``hardeval.<key>@layer<k>``)."""
    for system in systems:
        got = report.results[system]["hardeval"]
        assert set(got["layers"]) == {"1", "2"} and "hardeval" not in got
        for name, layer in got["layers"].items():
            expected = alone(corpus, int(name), system, train)
            assert {k: v for k, v in layer.items() if k not in NAMING} == expected
            for key in hardeval.HEADLINE:
                assert same_number(report.estimates[system][f"hardeval.{key}@layer{name}"],
                                   expected[key]), (system, name, key)
        assert "hardeval.hardeval" not in report.estimates[system]   # none made up


def test_each_layer_is_hardeval_on_that_layer_alone():
    corpus = layered_corpus()
    report = report_of(corpus, ["outer", "inner"])
    assert report.info["families"] == ["hardeval"]
    assert "hardeval" not in report.info["nesting"]["skipped"]
    check_layers(report, corpus, ["outer", "inner"], TRAIN)
    assert json.loads(report.to_json())["results"]["outer"]["hardeval"] == \
        report.results["outer"]["hardeval"]


@settings(max_examples=15, deadline=None)
@given(layered())
def test_every_layered_gold_scores_as_its_layers_alone(layers):
    outer, inner, pred = layers
    words = [[f"w{i % 3}" for i in range(len(s))] for s in outer]
    corpus = Corpus.from_tags(outer, tokens=words, columns={layer_column(GOLD, 2): inner,
                                                            "sys": pred})
    train = (words, inner)
    with warnings.catch_warnings():   # random tags: decoding repairs
        warnings.simplefilter("ignore")
        check_layers(report_of(corpus, ["sys"], train=train), corpus, ["sys"], train)


def test_the_terminal_and_the_page_show_each_layer():
    report = report_of(layered_corpus(), ["outer", "inner"])
    summary = " ".join(report.summary().split())   # the legend is wrapped
    assert "hardeval L1" in summary and "hardeval L2" in summary
    assert "(lower is better), layer 1 (outermost)." in summary
    page = report.to_html()
    section = page[page.index("<section id='hardeval'"):]
    section = section[:section.index("</section>")]
    assert "layer 1 (outermost)</h3>" in section and "layer 2</h3>" in section
    assert "No number is made for the layers together" in section
    assert section.index("layer 1 (outermost)") < section.index("layer 2</h3>")


def test_the_command_shows_hardeval_per_layer(tmp_path, capsys):
    gold, pred, train = (tmp_path / f"{name}.txt" for name in ("gold", "pred", "train"))
    gold.write_text("Uni B-ORG O\nBerlin I-ORG B-LOC\n. O O\n\nAnna B-PER O\n",
                    encoding="utf-8")
    pred.write_text("Uni B-ORG\nBerlin I-ORG\n. O\n\nAnna B-LOC\n", encoding="utf-8")
    train.write_text("Berlin B-LOC\nsagt O\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", str(gold), str(pred), "--layers", "1,2", "--train", str(train),
                 "--train-tag-column", "1", "--families", "hardeval", "--bootstrap", "20",
                 "--output", str(out)]) == 0
    assert "hardeval L2" in capsys.readouterr().out
    saved = json.loads((out / "report.json").read_text(encoding="utf-8"))
    layers = saved["results"]["pred"]["hardeval"]["layers"]
    assert [layers[k]["gold_column"] for k in ("1", "2")] == ["gold", "gold@layer2"]
    assert saved["intervals"]["pred"]["hardeval.ter@layer2"]["support"] == \
        layers["2"]["subsets"]["all"]["tokens"]
    assert "layer 2</h3>" in (out / "report.html").read_text(encoding="utf-8")


def refusing(name: str, takes_nested: bool) -> Family:
    def score(*args, **kwargs):
        raise AssertionError(f"{name} was scored")
    return Family(name=name, title=name, order=50, score=score, takes_nested=takes_nested)


def test_a_family_not_declaring_nested_gold_is_left_out_unscored():
    register_family(refusing("flat_only", takes_nested=False))
    try:
        report = nerlens.build_report(corpus=layered_corpus(), system_names=["outer"],
                                      bootstrap=0, figures=False, families=["flat_only"])
    finally:
        unregister_family("flat_only")
    assert report.info["nesting"]["skipped"]["flat_only"] == NOT_NESTED
    assert report.info["families"] == [] and "flat_only" not in report.results["outer"]


def test_a_refusal_of_the_inputs_leaves_the_family_out_with_its_reason():
    """hardeval takes gold with layers but counts one tag per training token: training
    read with layers is refused, by hardeval's own error, from the one pass scoring it."""
    corpus = layered_corpus()
    train = Corpus.from_tags(TRAIN[1], tokens=TRAIN[0],
                             columns={layer_column(GOLD, 2): [["O"] * 3, ["O"] * 3]})
    assert as_train_index(train).layers == 2
    report = report_of(corpus, ["outer", "inner"], train=train)
    assert "the training data has 2 layers" in report.info["nesting"]["skipped"]["hardeval"]
    assert report.info["families"] == []
    assert all("hardeval" not in report.results[s] for s in ("outer", "inner"))
    assert "hardeval: the training data has 2 layers" in report.summary()


def test_germeval_per_layer_equals_hardeval_on_each_layer():
    """GermEval 2014 test, both layers, one shared system; its dev file (outer column)
    as training data."""
    path = shared_path("data", "germeval2014", "NER-de-test.tsv")
    dev = shared_path("data", "germeval2014", "NER-de-dev.tsv")
    system = shared_path("data", "germeval2014", "systems", GERMEVAL_SYSTEMS[0])
    train = as_train_index(dev, inputs={"train_token_column": 1, "train_tag_column": 2,
                                        "comment_prefix": "#"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, names = read_systems(path, [system], inputs=LAYERS)
        report = report_of(corpus, names, train=train)
    check_layers(report, corpus, names, train)
    layers = report.results[names[0]]["hardeval"]["layers"]
    assert layers["1"]["subsets"]["all"]["tokens"] == corpus.n_tokens == 96499


def test_a_scored_system_on_layered_gold_has_hardeval_per_layer_on_the_dial():
    """The confidence dial (a system's mentions with a confidence each) scores hardeval
    per layer too: with every mention kept, the report's numbers."""
    tags = list(CONFIDENCE_GOLD)
    corpus = Corpus.from_tags(tags, tokens=CONFIDENCE_TOKENS,
                              columns={layer_column(GOLD, 2): [["O"] * len(t) for t in tags]})
    report = nerlens.build_report(corpus=corpus, system_names=[], train=CONFIDENCE_TRAIN,
                                  bootstrap=0, figures=False, scored={"model": SCORED})
    every = report.confidence["model"]["at"][EVERY]
    for layer in ("1", "2"):
        key = f"hardeval.hardeval@layer{layer}"   # its headline, per layer
        assert same_number(every[key], report.estimates["model"][key])
    assert "hardeval (lower is better), layer 2" in report.to_html()
