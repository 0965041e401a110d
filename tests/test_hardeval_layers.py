"""hardeval against gold with layers (``--layers``, ``nerspan.layers``): its token error
rates are defined on one tag per token, so each layer is scored on its own, as if it were
the only gold column, and the result says so (``layers``), with no number made up for
the layers together; a training index read with layers stays refused."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardeval
import hardeval.report
import nerspan
from nerlens.cli import main
from nerspan import Corpus, InputTypeError
from nerspan.layers import layer_column, layer_title
from nerspan.reading.systems import read_systems

from .conftest import shared_path
from .test_layers import INNER, OUTER, PRED, WORDS, layered, layered_train, write_layers
from .test_partials import merged_in, placed, shards

TRAIN_WORDS = [["Rome", "is", "big"], ["Bank", "of", "Rome", "fell"]]
TRAIN_TAGS = [["B-LOC", "O", "O"], ["B-ORG", "I-ORG", "I-ORG", "O"]]
# what names a layer in its dict, beside the numbers of hardeval on that layer alone
NAMING = ("layer", "gold_column", "pred_column")


def words_of(tags):
    return [[f"w{i % 3}" for i in range(len(s))] for s in tags]


def without_naming(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in NAMING}


def layered_gold(outer, inner, pred, words):
    return Corpus.from_tags(outer, tokens=words, columns={layer_column("gold", 2): inner,
                                                          "pred": pred})


@settings(max_examples=40, deadline=None)
@given(layered(), st.sampled_from(hardeval.ERROR_LABELS), st.booleans())
def test_each_layer_is_hardeval_on_that_layer_alone(layers, error_labels, strict_diff):
    outer, inner, pred = layers
    words = words_of(outer)
    train = (words, inner)   # the training tags: any one column
    options = dict(train=train, error_labels=error_labels, strict_diff=strict_diff,
                   return_hard_tokens=True)
    result = hardeval.score(layered_gold(outer, inner, pred, words), **options)
    d = result.to_dict()
    assert set(d["layers"]) == {"1", "2"} and d["options"]["layers"] == 2
    assert not any(key.startswith("ter") or key == "hardeval" for key in d)
    for name, gold in (("1", outer), ("2", inner)):
        alone = hardeval.score(gold, pred, tokens=words, **options).to_dict()
        assert without_naming(d["layers"][name]) == alone
        assert d["layers"][name]["gold_column"] == layer_column("gold", int(name))
        assert d["layers"][name]["pred_column"] == "pred"
        assert result.layers[name].hardeval == alone["hardeval"]


@settings(max_examples=40, deadline=None)
@given(layered())
def test_gold_as_prediction_with_layers_is_perfect_in_every_layer(layers):
    outer, inner, _ = layers
    words = words_of(outer)
    corpus = Corpus.from_tags(outer, tokens=words, columns={
        layer_column("gold", 2): inner, "pred": outer, layer_column("pred", 2): inner})
    d = hardeval.score(nerspan.Evaluation(corpus), "pred", train=(words, outer)).to_dict()
    assert [row["pred_column"] for row in d["layers"].values()] == ["pred", "pred@layer2"]
    for row in d["layers"].values():
        assert row["subsets"]["all"]["errors"] == 0 and row["ter"] == 0.0
        assert row["hardeval"] in (None, 0.0)
    # one prediction column: the layer it copies is perfect
    one = hardeval.score(layered_gold(outer, inner, inner, words), train=(words, outer))
    assert one.layers["2"].subsets["all"].errors == 0


def test_an_evaluation_with_predictions_given_apart_scores_the_layers():
    corpus = layered_gold(OUTER, INNER, PRED, WORDS)
    train = (TRAIN_WORDS, TRAIN_TAGS)
    direct = hardeval.score(corpus, train=train).to_dict()
    gold = corpus.select(["gold", layer_column("gold", 2)])
    apart = hardeval.score(nerspan.Evaluation(gold), PRED, train=train).to_dict()
    assert apart == direct


def test_layered_results_have_no_numbers_of_the_layers_together():
    result = hardeval.score(layered_gold(OUTER, INNER, PRED, WORDS),
                            train=(TRAIN_WORDS, TRAIN_TAGS))
    assert isinstance(result, hardeval.LayeredHardevalResult)
    d = result.to_dict()
    assert {"per_type", "undefined", "options", "repairs"} <= set(d)
    with pytest.raises(InputTypeError, match="resample a layer's result"):
        result.statistics()
    assert result.layers["2"].statistics()   # each layer resamples as any result


def test_what_cannot_be_scored_per_layer_is_refused_naming_why():
    corpus = layered_gold(OUTER, INNER, PRED, WORDS)
    index = nerspan.as_train_index(layered_train())
    with pytest.raises(InputTypeError, match=r"the training data has 2 layers .*"
                                             r"--train-tag-column"):
        hardeval.score(corpus, train=index)
    with pytest.raises(InputTypeError, match="precomputed subsets give one code per token"):
        hardeval.score(corpus, subsets=[[0] * len(s) for s in OUTER])
    with pytest.raises(InputTypeError, match=r"gold has 2 layers, and kfold_subsets gives one "
                                             r"code per token: hardeval.score\(corpus, "
                                             r"options=\{'kfold': k\}\)"):
        hardeval.kfold_subsets(corpus, k=2)
    three = Corpus.from_tags(OUTER, tokens=WORDS, columns={
        layer_column("gold", 2): INNER, layer_column("gold", 3): INNER, "pred": PRED,
        layer_column("pred", 2): PRED})
    with pytest.raises(InputTypeError, match="the prediction has 2 layers and gold 3"):
        hardeval.score(three, train=(TRAIN_WORDS, TRAIN_TAGS))


def write_train(path):
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(words, tags))
                                for words, tags in zip(TRAIN_WORDS, TRAIN_TAGS)) + "\n",
                    encoding="utf-8")
    return path


def test_the_command_line_equals_the_api_with_a_section_per_layer(tmp_path, capsys):
    gold, pred = write_layers(tmp_path / "gold.tsv", [OUTER, INNER], PRED)
    train = write_train(tmp_path / "train.txt")
    command = ["hardeval", str(gold), str(pred), "--train", str(train), "--token-column",
               "1", "--comment-prefix", "#", "--layers", "2,3"]
    assert main(command + ["--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    corpus, names = read_systems(gold, [pred], inputs={"layers": (2, 3), "token_column": 1,
                                                       "comment_prefix": "#"})
    api = hardeval.score(nerspan.Evaluation(corpus), names[0],
                         train=(TRAIN_WORDS, TRAIN_TAGS)).to_dict()
    assert cli == json.loads(json.dumps(api))
    assert main(command) == 0
    text = capsys.readouterr().out
    for name in ("1", "2"):   # the report's section per layer (hardeval.report)
        assert f"\n{layer_title(name)}\n" in text
    assert text.count("Share of all errors (%)") == 2


def test_the_command_line_refuses_what_reads_one_gold_column_of_layers(tmp_path, capsys):
    gold, pred = write_layers(tmp_path / "gold.tsv", [OUTER, INNER], PRED)
    train = write_train(tmp_path / "train.txt")
    flags = ["--token-column", "1", "--comment-prefix", "#", "--layers", "2,3"]
    assert main(["hardeval", str(gold), str(pred), "--train", str(train), *flags,
                 "--hard-tokens"]) == 2
    assert "hard tokens (--hard-tokens) rank the tokens of one gold column" in \
        capsys.readouterr().err
    # k-fold classifies each layer by k-fold over its own tags (as hardeval.score does)
    assert main(["hardeval", str(gold), str(pred), "--kfold", "2", *flags,
                 "--format", "json"]) == 0
    layers = json.loads(capsys.readouterr().out)["layers"]
    assert [layers[name]["kfold"]["k"] for name in ("1", "2")] == [2, 2]


def test_germeval_test_scores_both_layers_each_as_its_own_column(capsys):
    """GermEval 2014 test with --layers 2,3, dev as training (its outer column): each
    layer's numbers are those of the command reading that column alone."""
    gold = shared_path("data", "germeval2014", "NER-de-test.tsv")
    dev = shared_path("data", "germeval2014", "NER-de-dev.tsv")
    system = shared_path("data", "germeval2014", "systems",
                         "germaner_trained_with_germeval_tested_on_germeval.tsv")
    common = ["hardeval", str(gold), str(system), "--train", str(dev),
              "--train-token-column", "1", "--train-tag-column", "2", "--token-column", "1",
              "--comment-prefix", "#", "--format", "json"]

    def run(*flags):
        assert main(common + list(flags)) == 0
        return json.loads(capsys.readouterr().out)

    both = run("--layers", "2,3")
    assert both["options"]["layers"] == 2
    for name, column in (("1", "2"), ("2", "3")):
        row = both["layers"][name]
        assert without_naming(row) == run("--gold-tag-column", column)
        assert 0 < row["ter"] < 1 and row["subsets"]["diff"]["tokens"] > 0


@settings(max_examples=30, deadline=None)
@given(st.data(), layered(), st.booleans(), st.sampled_from([None, 3]))
def test_partials_of_layered_gold_merge_to_one_pass_per_layer(data, layers, kfold,
                                                              per_layer_pred):
    """Each layer's partials merge as that layer's; with ``kfold`` each layer is
    classified by k-fold over its own tags, as ``kfold_subsets`` of that layer alone."""
    outer, inner, pred = layers
    words = words_of(outer)
    columns = {layer_column("gold", 2): inner, "pred": pred}
    if per_layer_pred:
        columns[layer_column("pred", 2)] = outer
    corpus = Corpus.from_tags(outer, tokens=words, columns=columns)
    kfold = kfold and len(outer) >= 3
    options = {"options": {"kfold": 3}} if kfold else {"train": (words, inner)}
    cut = data.draw(shards(len(outer)))
    parts = [hardeval.partial(corpus.subset(np.array(ids, dtype=np.int64)), **options,
                              **placed(ids)) for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        result = merged.result()
        assert isinstance(result, hardeval.LayeredHardevalResult)
        assert result.to_dict() == hardeval.score(corpus, **options).to_dict()
        if not kfold:
            continue
        for name, gold in (("1", outer), ("2", inner)):
            alone = Corpus.from_tags(gold, tokens=words, columns={
                "pred": (outer if name == "2" and per_layer_pred else pred)})
            codes = hardeval.kfold_subsets(alone, 3)
            expected = hardeval.score(alone, subsets=codes).to_dict()
            got = without_naming(result.to_dict()["layers"][name])
            assert got["subsets"] == expected["subsets"], name


def test_a_prediction_scored_against_every_layer_warns_once():
    """The prediction is one column, decoded once for every gold layer: its strict
    decoding's warning is given once, not once per layer."""
    words = [["Kim", "runs", "x"], ["in", "Paris", "y"]]
    stray = [["O", "I-PER", "O"], ["O", "I-LOC", "O"]]   # strict IOB2 keeps no chunk
    corpus = Corpus.from_tags(stray, tokens=words, columns={
        layer_column("gold", 2): [["B-PER", "O", "O"], ["O", "B-LOC", "O"]], "pred": stray})
    for error_labels in hardeval.ERROR_LABELS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = hardeval.score(corpus, train=(words, stray), mode="strict",
                                    error_labels=error_labels)
        assert set(result.layers) == {"1", "2"}
        said = [str(w.message) for w in caught]
        assert said and len(said) == len(set(said)), (error_labels, said)


def test_repairs_of_a_prediction_scored_against_every_layer_are_listed_once():
    """hardeval's re-encoding repairs of one prediction column are the column's, whatever
    the gold layer it is scored against: listed once, as for flat gold; a prediction
    with layers of its own has them per layer."""
    words = [["Kim", "runs", "x"], ["in", "Paris", "y"]]
    outer, inner = [["B-PER", "O", "O"], ["O", "B-LOC", "O"]], [["O"] * 3, ["O", "O", "B-LOC"]]
    pred = [["O", "I-PER", "O"], ["B-PER", "I-LOC", "O"]]   # dropped inside, mixed type
    train = (words, outer)
    flat = hardeval.score(outer, pred, tokens=words, train=train).to_dict()
    once = hardeval.report.reencoding_repairs(flat)
    assert once == {"dropped_inside": 1, "mixed_type": 1}
    layered = layered_gold(outer, inner, pred, words)
    result = hardeval.score(layered, train=train).to_dict()
    assert set(result["layers"]) == {"1", "2"}
    assert hardeval.report.reencoding_repairs(result) == once
    own_layers = layered.with_columns(Corpus.from_tags([["O"] * 3, ["O", "I-LOC", "O"]]),
                                      {"gold": layer_column("pred", 2)})
    per_layer = hardeval.report.reencoding_repairs(
        hardeval.score(own_layers, train=train).to_dict())
    assert per_layer == {f"{kind}, {layer_title(1)}": 1 for kind in once} | \
        {f"dropped_inside, {layer_title(2)}": 1}
