"""faireval on gold read as layers (several tag columns, ``layers`` / ``--layers``,
``nerspan.layers``): every layer's mentions are scored, exactly as faireval scores the
same mentions given as span lists that nest; the prediction may be one column (a flat
system) or layered too. Partials, an ``Evaluation``, the command line and the report take
it; GermEval 2014 test with both layers counts every gold mention."""
from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import nerlens
import nerspan
from nerlens.cli import main
from nerspan import Corpus
from nerspan.layers import layer_column
from nerspan.reading.systems import read_systems

from .conftest import shared_path
from .test_germeval_layers import FIX, LAYERS, gold_layers, system_chunks
from .test_germeval_files import SYSTEMS
from .test_layers import write_layers

TYPES = ("LOC", "ORG", "PER")
SCORES = [f"{mode}{key}" for mode in ("", "fair_", "weight_table_") for key in
          ("precision", "recall", "f1")]


def placed(spans: list) -> list:
    """The mentions ``(label, start, end)`` of one sentence cut into layers that hold no
    two mentions sharing a token (each in the first layer where it fits): written here,
    not with ``nerspan.layers.nesting_layers``."""
    layers = []
    for label, start, end in sorted(spans, key=lambda s: (s[1], -s[2], s[0])):
        for layer in layers:
            if all(end <= a or b <= start for _, a, b in layer):
                layer.append((label, start, end))
                break
        else:
            layers.append([(label, start, end)])
    return layers


def tags_of(spans: list, length: int) -> list:
    """IOB2 tags of mentions that share no token."""
    tags = ["O"] * length
    for label, start, end in spans:
        tags[start:end] = [f"B-{label}"] + [f"I-{label}"] * (end - start - 1)
    return tags


def as_layers(sentences: list, lengths: list, at_least: int) -> list:
    """Per layer (at least ``at_least``, the deeper ones all O), its tags per sentence."""
    cut = [placed(spans) for spans in sentences]
    depth = max([at_least] + [len(layers) for layers in cut])
    return [[tags_of(layers[k] if k < len(layers) else [], n)
             for layers, n in zip(cut, lengths)] for k in range(depth)]


def corpus_of(gold_layers: list, pred_layers: list, words: list) -> Corpus:
    """A corpus of gold's and the prediction's layers (tags per sentence, per layer)."""
    columns = {layer_column(side, k): tags for side, layers in (("gold", gold_layers),
                                                                 ("pred", pred_layers))
               for k, tags in enumerate(layers, 1)}
    return Corpus.from_tags(columns.pop("gold"), tokens=words, columns=columns)


@st.composite
def nested_gold_and_prediction(draw):
    """``(gold, pred, words, flat)``: span lists per sentence, sets of mentions in the
    order of the union of layers (start, end, type); ``flat``: the prediction fits one
    tag column."""
    lengths = draw(st.lists(st.integers(0, 6), min_size=1, max_size=4))

    def mentions(n):
        if not n:
            return st.just([])
        one = st.tuples(st.sampled_from(TYPES), st.integers(0, n - 1),
                        st.integers(1, 3)).map(lambda m: (m[0], m[1], min(n, m[1] + m[2])))
        return st.lists(one, max_size=4).map(
            lambda spans: sorted(set(spans), key=lambda s: (s[1], s[2], s[0])))
    gold = [draw(mentions(n)) for n in lengths]
    pred = [draw(mentions(n)) for n in lengths]
    flat = draw(st.booleans())
    if flat:
        pred = [placed(spans)[0] if spans else [] for spans in pred]
        pred = [sorted(spans, key=lambda s: (s[1], s[2], s[0])) for spans in pred]
    words = [[f"w{i}" for i in range(n)] for n in lengths]
    return gold, pred, words, flat


def layered_corpus(gold, pred, words) -> Corpus:
    """Gold in two layers or more (always layered), the prediction in as many as it
    needs (one when it is flat)."""
    lengths = [len(w) for w in words]
    return corpus_of(as_layers(gold, lengths, 2), as_layers(pred, lengths, 1), words)


FAIREVAL_OPTIONS = st.fixed_dictionaries({
    "weights": st.sampled_from([None, "weighted"]),
    "focus": st.sampled_from(["target", "system"]),
    "reference_iteration": st.booleans(),
    "schemas": st.sampled_from([None, "semeval"]),
    "return_pairs": st.booleans()})


@settings(max_examples=60, deadline=None)
@given(nested_gold_and_prediction(), FAIREVAL_OPTIONS)
def test_layered_gold_scores_as_the_nested_span_lists_of_its_mentions(case, options):
    """The differential test: layered gold (and a flat or layered prediction) gives the
    ``to_dict()`` of the same mentions as nested span lists, only ``options.layers``
    added."""
    gold, pred, words, flat = case
    corpus = layered_corpus(gold, pred, words)
    as_layers_ = faireval.score(corpus, **options).to_dict()
    as_spans = faireval.score(gold, pred, tokens=words, **options).to_dict()
    layers = as_layers_["options"].pop("layers")
    assert layers["gold"] >= 2 and (layers["pred"] == 1 or not flat)
    assert as_layers_ == as_spans
    if sum(map(len, gold)):
        support = sum(row["support"] for row in as_spans["per_type"].values())
        assert support == sum(map(len, gold))


@settings(max_examples=40, deadline=None)
@given(nested_gold_and_prediction())
def test_gold_as_its_own_layered_prediction_is_perfect_in_every_mode(case):
    """Traditional, fair and weight-table scores are all 1 when the prediction is gold's
    layers; every mention is a TP, no error of any kind."""
    gold, _, words, _ = case
    lengths = [len(w) for w in words]
    layers = as_layers(gold, lengths, 2)
    corpus = corpus_of(layers, layers, words)
    for focus in ("target", "system"):
        d = faireval.score(corpus, weights="weighted", focus=focus).to_dict()
        n = sum(map(len, gold))
        assert d["counts"]["TP"] == n
        assert sum(d["counts"].values()) == n
        if n:
            assert all(d[key] == 1.0 for key in SCORES), {k: d[k] for k in SCORES}


OUTER = [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O"]]
INNER = [["B-LOC", "O", "B-PER", "O"], ["B-PER", "O"]]     # LOC, PER nest in ORG
FLAT = [["B-ORG", "I-ORG", "B-LOC", "O"], ["B-PER", "O"]]
WORDS = [["Bank", "of", "Rome", "."], ["Ada", "ran"]]


def small_corpus() -> Corpus:
    return Corpus.from_tags(OUTER, tokens=WORDS, columns={layer_column("gold", 2): INNER,
                                                          "pred": FLAT})


def test_a_mention_in_two_layers_counts_once_as_nerspan_counts_it():
    """Sentence 1's PER is in both layers: one gold mention, as ``nerspan.score``
    counts (``merged_mentions``); faireval's traditional counts are nerspan's exact match."""
    d = faireval.score(small_corpus()).to_dict()
    entity = nerspan.score(small_corpus()).to_dict()
    assert entity["merged_mentions"] == 1
    assert sum(row["support"] for row in d["per_type"].values()) == entity["gold"] == 4
    assert d["traditional_counts"]["TP"] == entity["correct"]
    assert d["traditional_counts"]["FP"] == entity["predicted"] - entity["correct"]
    assert d["traditional_counts"]["FN"] == entity["gold"] - entity["correct"]


def test_an_evaluation_and_other_column_names_give_the_corpus_numbers():
    corpus = small_corpus()
    expected = faireval.score(corpus, weights="weighted").to_dict()
    evaluation = nerspan.Evaluation(corpus)
    assert faireval.score(evaluation, "pred", weights="weighted").to_dict() == expected
    # predictions given apart, against the evaluation's layered gold
    assert faireval.score(evaluation, FLAT, weights="weighted").to_dict() == expected
    renamed = corpus.renamed({"gold": "outer", layer_column("gold", 2): "outer@layer2",
                              "pred": "sys"})
    got = faireval.score(renamed, inputs={"gold_column": "outer", "pred_column": "sys"},
                         weights="weighted").to_dict()
    assert got == expected


def test_partials_of_layered_gold_merge_to_one_pass():
    corpus = small_corpus()
    whole = faireval.score(corpus, schemas="semeval", return_pairs=True).to_dict()
    parts = [faireval.partial(corpus.block(a, b), schemas="semeval", return_pairs=True,
                              first_sentence=a) for a, b in ((0, 1), (1, 1), (1, 2))]
    assert sum(parts).result().to_dict() == whole
    assert whole["options"]["layers"] == {"gold": 2, "pred": 1}


def test_a_bad_tag_in_a_later_layer_is_named_by_its_column():
    corpus = Corpus.from_tags([["B-ORG", "I-ORG"]], columns={
        layer_column("gold", 2): [["X-LOC", "O"]], "pred": [["B-ORG", "I-ORG"]]})
    with pytest.raises(nerspan.InvalidTagError, match=r"gold@layer2, sentence 0.*'X-LOC'"):
        faireval.score(corpus, mode="strict")


def test_the_command_line_scores_layers_as_the_api(tmp_path, capsys):
    gold, pred = write_layers(tmp_path / "gold.tsv", [OUTER, INNER], FLAT)
    inputs = {"layers": (2, 3), "token_column": 1, "comment_prefix": "#"}
    corpus, names = read_systems(gold, [pred], inputs=inputs)
    api = faireval.score(nerspan.Evaluation(corpus), names[0], weights="weighted").to_dict()
    assert main(["faireval", str(gold), str(pred), "--token-column", "1", "--layers", "2,3",
                 "--comment-prefix", "#", "--weights", "weighted", "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    for key in ("counts", "per_type", "error_confusion", *SCORES):
        assert cli[key] == api[key], key
    assert cli["options"]["layers"] == {"gold": 2, "pred": 1}
    assert sum(row["support"] for row in cli["per_type"].values()) == 4


# -- GermEval 2014 test with its outer and inner columns ---------------------------------
GERMEVAL_SYSTEM = "germaner_trained_with_germeval_tested_on_germeval.tsv"


def test_germeval_with_both_layers_counts_every_gold_mention():
    """All 6,693 gold mentions (6,178 outer, 515 inner, read here from the file) are
    faireval's targets; its traditional counts are exact match against the system's
    chunks read here."""
    path, outer, inner = gold_layers()
    system = shared_path("data", "germeval2014", "systems", GERMEVAL_SYSTEM)
    fixes = {k: v for flag in SYSTEMS[GERMEVAL_SYSTEM] for k, v in FIX[flag].items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, names = read_systems(path, [system], inputs={**LAYERS, **fixes})
    d = faireval.score(nerspan.Evaluation(corpus), names[0], weights="weighted").to_dict()
    gold, predicted = outer | inner, system_chunks(system)
    assert len(gold) == 6693
    assert sum(row["support"] for row in d["per_type"].values()) == len(gold)
    assert d["traditional_counts"] == {"TP": len(gold & predicted),
                                       "FP": len(predicted - gold),
                                       "FN": len(gold - predicted)}
    assert d["options"]["layers"] == {"gold": 2, "pred": 1}


def test_germeval_report_holds_faireval_on_both_layers():
    """The report on GermEval with both layers scores faireval (no longer left out of
    the nested view) with the numbers of ``faireval.score`` on the same evaluation."""
    path, outer, inner = gold_layers()
    system = shared_path("data", "germeval2014", "systems", GERMEVAL_SYSTEM)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, names = read_systems(path, [system], inputs=LAYERS)
        report = nerlens.build_report(corpus=corpus, system_names=names, bootstrap=0,
                                      figures=False, families=["faireval"])
    assert "faireval" not in report.info["nesting"]["skipped"]
    assert report.info["families"] == ["faireval"]
    got = report.results[names[0]]["faireval"]
    expected = faireval.score(nerspan.Evaluation(corpus), names[0]).to_dict()
    assert {k: got[k] for k in ("counts", *SCORES[:6])} == \
        {k: expected[k] for k in ("counts", *SCORES[:6])}
    assert sum(row["support"] for row in got["per_type"].values()) == len(outer | inner)
