"""Layers: several tag columns of one column file read as the layers of gold
(``layers`` / ``--layers``, ``nerspan.layers``): each decoded on its own, gold's mentions
their union (they may nest; identical ones merged and counted), entity scores over all
of them and per layer; what reads one gold column refuses layered gold, naming the
option."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerlens.cli import main
from nerspan import Corpus, InputTypeError, decode
from nerspan.layers import (decode_layers, layer_column, layer_columns, layered_scores,
                            union_spans)
from nerspan.reading.systems import read_systems
from nerspan.streaming import score_in_blocks

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def write_layers(path, layers, pred=None):
    """A GermEval-like file: index, token, then one tag column per layer."""
    rows = []
    for k, sentence in enumerate(zip(*layers)):
        rows.append(f"#\tsentence {k}")
        for i, tags in enumerate(zip(*sentence), 1):
            rows.append("\t".join([str(i), f"w{i}", *tags]))
        rows.append("")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    if pred is None:
        return path
    pred_path = path.with_suffix(".pred")
    pred_path.write_text("\n\n".join("\n".join(f"w{i}\t{t}" for i, t in enumerate(s, 1))
                                     for s in pred) + "\n", encoding="utf-8")
    return path, pred_path


def mentions(tags):
    """(sentence, start, end, type) of IOB2 tags, read here without nerspan (an I- tag
    after O or another type starts a mention, as conlleval)."""
    out = set()
    for s, sentence in enumerate(tags):
        start = None
        for i, tag in enumerate(list(sentence) + ["O"]):
            prefix, _, kind = tag.partition("-")
            if start is not None and (prefix != "I" or kind != current):
                out.add((s, start, i, current))
                start = None
            if prefix == "B" or (prefix == "I" and start is None):
                start, current = i, kind
    return out


OUTER = [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O"]]
INNER = [["B-LOC", "O", "B-PER", "O"], ["B-PER", "O"]]     # LOC and PER nest in ORG
PRED = [["B-ORG", "I-ORG", "I-ORG", "O"], ["O", "O"]]


def layered_corpus(outer=OUTER, inner=INNER, pred=PRED):
    return Corpus.from_tags(outer, columns={layer_column("gold", 2): inner, "pred": pred})


def test_layers_read_from_a_file_nest_and_merge(tmp_path):
    gold, pred = write_layers(tmp_path / "gold.tsv", [OUTER, INNER], PRED)
    corpus, names = read_systems(gold, [pred], inputs={"layers": (2, 3), "token_column": 1,
                                                       "comment_prefix": "#"})
    assert layer_columns(corpus) == ["gold", "gold@layer2"] and len(names) == 1
    result = nerspan.score(corpus, inputs={"pred_column": names[0]}).to_dict()
    union = mentions(OUTER) | mentions(INNER)
    assert result["gold"] == len(union) == 4           # B-PER in sentence 1 twice: once
    assert result["merged_mentions"] == len(mentions(OUTER)) + len(mentions(INNER)) - 4 == 1
    assert result["correct"] == len(union & mentions(PRED)) == 1
    layers = result["layers"]
    assert {k: (v["gold"], v["correct"]) for k, v in layers.items()} == {
        "1": (2, 1), "2": (3, 0)}
    assert layers["2"]["gold_column"] == "gold@layer2" and result["options"]["layers"] == 2


def test_union_is_sorted_by_start_then_end():
    corpus = layered_corpus()
    spans = decode_layers(corpus, "gold").union
    pairs = list(zip(spans.start.tolist(), spans.end.tolist()))
    assert pairs == sorted(pairs) == [(0, 1), (0, 3), (2, 3), (4, 5)]


def test_the_command_line_gives_the_api_numbers(tmp_path, capsys):
    gold, pred = write_layers(tmp_path / "gold.tsv", [OUTER, INNER], PRED)
    flags = ["--token-column", "1", "--comment-prefix", "#", "--layers", "2,3"]
    assert main(["score", str(gold), str(pred), *flags, "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    corpus, names = read_systems(gold, [pred], inputs={"layers": (2, 3), "token_column": 1,
                                                       "comment_prefix": "#"})
    api = nerspan.score(corpus, names[0]).to_dict()
    for key in ("gold", "predicted", "correct", "f1", "merged_mentions"):
        assert cli[key] == api[key]
    for k in ("1", "2"):
        assert cli["layers"][k]["f1"] == api["layers"][k]["f1"]
    assert main(["score", str(gold), str(pred), *flags]) == 0   # the text report too
    text = capsys.readouterr().out
    assert "with 4 phrases" in text
    for k in ("1", "2"):   # each layer's line, its numbers the JSON's
        row = cli["layers"][k]
        assert (f"layer {k}: {row['gold']} phrases; correct: {row['correct']}; "
                f"precision: {100 * row['precision']:6.2f}%") in text


@st.composite
def layered(draw):
    outer = draw(st.lists(st.lists(st.sampled_from(TAGS), min_size=1, max_size=6),
                          min_size=1, max_size=5))
    shape = lambda: st.tuples(*[st.lists(st.sampled_from(TAGS), min_size=len(s),  # noqa
                                         max_size=len(s)) for s in outer]).map(list)
    return outer, draw(shape()), draw(shape())


@settings(max_examples=60, deadline=None)
@given(layered())
def test_per_layer_counts_sum_to_the_union_plus_the_merged(layers):
    outer, inner, pred = layers
    corpus = layered_corpus(outer, inner, pred)
    decoded = decode_layers(corpus, "gold")
    assert sum(len(layer) for layer in decoded.layers) == len(decoded.union) + decoded.merged
    assert len(decoded.union) == len(mentions(outer) | mentions(inner))
    result = nerspan.score(corpus).to_dict()
    assert sum(v["gold"] for v in result["layers"].values()) == \
        result["gold"] + result["merged_mentions"]
    assert result["correct"] == len((mentions(outer) | mentions(inner)) & mentions(pred))


@settings(max_examples=40, deadline=None)
@given(layered(), st.integers(1, 7))
def test_gold_as_prediction_with_layers_is_perfect_and_blocks_merge(layers, block):
    outer, inner, _ = layers
    corpus = Corpus.from_tags(outer, columns={layer_column("gold", 2): inner, "pred": outer,
                                              layer_column("pred", 2): inner})
    whole = layered_scores(corpus)
    if whole.n_gold:
        assert whole.micro() == (1.0, 1.0, 1.0)
        assert all(s.micro() == (1.0, 1.0, 1.0) for s in whole.layers.values() if s.n_gold)
    blocks = score_in_blocks(corpus, block_tokens=block)["pred"].to_dict()
    assert set(blocks) >= {"layers", "merged_mentions"}
    direct = whole.to_dict()
    for key in ("gold", "predicted", "correct", "merged_mentions"):
        assert blocks[key] == direct[key]
    assert {k: v["correct"] for k, v in blocks["layers"].items()} == \
        {k: v["correct"] for k, v in direct["layers"].items()}


def test_union_of_one_layer_is_that_layer():
    corpus = layered_corpus()
    spans = decode(corpus, "gold")
    union, merged = union_spans([spans, spans])
    assert merged == len(spans) and union.to_list() == spans.to_list()


def test_what_reads_one_gold_column_refuses_layers_naming_the_option():
    corpus = layered_corpus()
    with pytest.raises(InputTypeError, match="gold has 2 layers"):
        tough_mentions.score(corpus, PRED, train=([["w"]], [["O"]]))
    # faireval scores every layer's mentions (tests/test_faireval_layers.py)
    assert faireval.score(corpus).to_dict()["options"]["layers"] == {"gold": 2, "pred": 1}


def test_layers_refused_where_they_cannot_be_read(tmp_path):
    gold, pred = write_layers(tmp_path / "gold.tsv", [OUTER, INNER], PRED)
    with pytest.raises(InputTypeError, match="not in GOLD's last column"):
        read_systems(gold, inputs={"layers": (2, 3), "token_column": 1})
    with pytest.raises(ValueError, match="layers and gold_tag_column"):
        read_systems(gold, [pred], inputs={"layers": (2, 3), "gold_tag_column": 2,
                                           "token_column": 1, "comment_prefix": "#"})
    with pytest.raises(InputTypeError, match="layers reads tag columns of a GOLD column"):
        read_systems(OUTER, {"a": PRED}, inputs={"layers": (2, 3)})
    with pytest.raises(ValueError, match="two or more different columns"):
        nerspan.InputOptions.of({"layers": [2, 2]})


# -- the families on layers -------------------------------------------------------------
WORDS = [["Bank", "of", "Rome", "."], ["Ada", "ran"]]
TRAIN_WORDS = [["Rome", "is", "big"], ["Bank", "of", "Rome", "fell"]]
TRAIN_OUTER = [["O", "O", "O"], ["B-ORG", "I-ORG", "I-ORG", "O"]]
TRAIN_INNER = [["B-LOC", "O", "O"], ["O", "O", "B-LOC", "O"]]


def layered_train():
    return Corpus.from_tags(TRAIN_OUTER, tokens=TRAIN_WORDS,
                            columns={layer_column("gold", 2): TRAIN_INNER})


def test_tough_mentions_classifies_every_layer_against_every_training_mention():
    corpus = Corpus.from_tags(OUTER, tokens=WORDS, columns={
        layer_column("gold", 2): INNER, "pred": PRED})
    result = tough_mentions.score(corpus, train=layered_train(), return_mentions=True)
    d = result.to_dict()
    assert d["options"]["layers"] == {"gold": 2, "train": 2}
    assert d["counts"]["all"] == len(mentions(OUTER) | mentions(INNER)) == 4
    # "Bank of Rome" is an outer ORG in training (seen); "Rome" (gold PER) a training
    # mention only in the inner layer, as LOC: unseen type, not unseen tokens
    assert (d["counts"]["seen"], d["counts"]["unseen_type"]) == (1, 1)
    assert d["recall_seen"] == 1.0
    outer_only = tough_mentions.score(corpus, train=(TRAIN_WORDS, TRAIN_OUTER)).to_dict()
    assert outer_only["options"]["layers"] == {"gold": 2, "train": 1}
    assert (outer_only["counts"]["seen"], outer_only["counts"]["unseen_type"]) == (1, 0)
    flat = tough_mentions.score(Corpus.from_tags(OUTER, tokens=WORDS, columns={"pred": PRED}),
                                train=(TRAIN_WORDS, TRAIN_OUTER)).to_dict()
    assert "layers" not in flat["options"] and flat["counts"]["all"] == len(mentions(OUTER))


@settings(max_examples=30, deadline=None)
@given(layered())
def test_gold_as_prediction_with_layers_is_perfect_in_tough_mentions(layers):
    outer, inner, _ = layers
    words = [[f"w{i}" for i in range(len(s))] for s in outer]
    corpus = Corpus.from_tags(outer, tokens=words, columns={
        layer_column("gold", 2): inner, "pred": outer, layer_column("pred", 2): inner})
    evaluation = nerspan.Evaluation(corpus)
    d = tough_mentions.score(evaluation, "pred", train=(words, outer)).to_dict()
    assert d["counts"]["all"] == len(mentions(outer) | mentions(inner))
    if d["counts"]["all"]:
        assert d["recall"] == 1.0
        assert all(d[key] in (None, 1.0) for key in d if key.startswith("recall_"))


def test_hardeval_scores_layers_one_by_one_and_the_others_refuse_them():
    """hardeval scores each gold layer on its own (tests/test_hardeval_layers.py) and
    still refuses a training index read with layers; the confusion matrix refuses
    layered gold, naming the option (attribute_buckets and faireval score every layer's
    mentions: tests/test_attribute_buckets_shapes.py, tests/test_faireval_layers.py)."""
    corpus = Corpus.from_tags(OUTER, tokens=WORDS, columns={
        layer_column("gold", 2): INNER, "pred": PRED})
    train = (TRAIN_WORDS, TRAIN_OUTER)
    result = hardeval.score(nerspan.Evaluation(corpus), "pred", train=train).to_dict()
    assert set(result["layers"]) == {"1", "2"}
    with pytest.raises(InputTypeError, match=r"the training data has 2 layers"):
        hardeval.score(nerspan.Evaluation(corpus), "pred", train=layered_train())
    with pytest.raises(InputTypeError, match="the entity confusion matrix"):
        nerspan.Evaluation(corpus).confusion("pred")
    counts = faireval.score(nerspan.Evaluation(corpus), "pred",
                            train=layered_train()).to_dict()["traditional_counts"]
    assert counts["TP"] + counts["FN"] == len(mentions(OUTER) | mentions(INNER))


def test_token_counts_of_layered_training_are_refused_not_read_from_one_layer():
    """hardeval and attribute_buckets' tCon count one tag per training token: a training
    index read with layers is refused there, naming the options."""
    index = nerspan.as_train_index(layered_train())
    assert index.layers == 2 and index.n_mentions == len(
        mentions(TRAIN_OUTER) | mentions(TRAIN_INNER))
    flat = Corpus.from_tags(OUTER, tokens=WORDS, columns={"pred": PRED})
    message = r"the training data has 2 layers .*--train-tag-column"
    with pytest.raises(InputTypeError, match=message):
        hardeval.score(flat, train=index)
    with pytest.raises(InputTypeError, match=message):
        attribute_buckets.score(flat, train=index)


def test_an_evaluation_of_layered_gold_scores_its_systems_over_every_layer():
    corpus = layered_corpus()
    evaluation = nerspan.Evaluation(corpus)
    assert evaluation.systems == ("pred",) and len(evaluation.gold) == 4
    direct = nerspan.score(corpus).to_dict()
    through = nerspan.score(evaluation, "pred").to_dict()
    assert through["layers"] == direct["layers"] and through["f1"] == direct["f1"]
    assert evaluation.entity_scores("pred").micro() == nerspan.score(corpus).micro()
