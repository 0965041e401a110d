"""hardeval on span lists that nest, overlap or give one span two types: their layers
derived from the span table (``nerspan.layers.nesting_layers``: layer 1 the outermost
mentions, layer 2 those inside them, ...), each scored as hardeval scores GermEval's
layer columns; discontinuous mentions refused, naming what reads them."""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardeval
from hardeval.core import layer_evaluations
from nerlens.cli import main
from nerspan import Corpus, Evaluation, InputTypeError, as_train_index
from nerspan.layers import as_layers, layer_column, layer_title, nesting_layers
from nerspan.span_table import SpanShapeError
from nerspan.spans import table_spans

from .test_span_shapes import LENGTH, sides

WORDS = ["Kim", "Rome", "Bank", "of"]


def words_for(side, draw) -> list:
    return [draw(st.lists(st.sampled_from(WORDS), min_size=LENGTH, max_size=LENGTH))
            for _ in side]


@settings(max_examples=60, deadline=None)
@given(sides())
def test_the_layers_hold_no_overlap_and_go_deeper_inside_a_mention(case):
    gold, _ = case
    corpus = Evaluation.build(gold, tokens=[["w"] * LENGTH for _ in gold]).corpus
    if corpus.mentions("gold") is None:   # flat: one tag column holds them
        return
    found = table_spans(corpus, "gold")
    rows = list(zip(found.sentence.tolist(), found.start.tolist(), found.end.tolist(),
                    nesting_layers(found).tolist()))
    assert len(rows) == len({(s, a, b, t) for s, spans in enumerate(gold)
                             for a, b, t in spans})
    for i, (s, a, b, k) in enumerate(rows):
        for j, (s2, c, d, k2) in enumerate(rows):
            if i == j or s != s2:
                continue
            if k == k2:
                assert b <= c or d <= a        # one layer: no shared token
            if c <= a and b <= d and (c, d) != (a, b):
                assert k > k2                  # strictly inside: deeper


@settings(max_examples=50, deadline=None)
@given(sides(), st.data(), st.sampled_from(hardeval.ERROR_LABELS))
def test_gold_as_prediction_is_perfect_in_every_layer(case, data, error_labels):
    gold, _ = case
    words = words_for(gold, data.draw)
    train = (words, [["O"] * LENGTH for _ in gold])
    result = hardeval.score(gold, gold, tokens=words, train=train,
                            error_labels=error_labels)
    layers = getattr(result, "layers", {"1": result})
    for name, one in layers.items():
        assert one.subsets["all"].errors == 0, name
        assert one.ter() in (0.0, None)


def test_nested_span_lists_score_as_the_same_layers_in_columns():
    words = [["Bank", "of", "Rome", "fell"], ["Kim", "in", "Rome", "x"]]
    outer = [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O", "B-LOC", "O"]]
    inner = [["O", "O", "B-LOC", "O"], ["O", "O", "O", "O"]]
    pred = [["B-ORG", "I-ORG", "O", "O"], ["B-PER", "O", "B-ORG", "O"]]
    spans = [[(2, 3, "LOC"), (0, 3, "ORG")], [(0, 1, "PER"), (2, 3, "LOC")]]
    train = ([["Rome", "is"], ["Bank", "of", "Rome"]], [["B-LOC", "O"], ["B-ORG"] + ["I-ORG"] * 2])
    columns = Corpus.from_tags(outer, tokens=words, columns={
        layer_column("gold", 2): inner, "pred": pred})
    assert hardeval.score(spans, pred, tokens=words, train=train).to_dict() == \
        hardeval.score(columns, train=train).to_dict()


def test_nested_predictions_are_layered_as_deep_as_either_side():
    words = [["Bank", "of", "Rome", "fell"]]
    train = (words, [["B-ORG", "I-ORG", "I-ORG", "O"]])
    nested = [[(0, 3, "ORG"), (2, 3, "LOC")]]
    d = hardeval.score([[(0, 3, "ORG")]], nested, tokens=words, train=train).to_dict()
    assert d["options"]["layers"] == 2
    assert d["layers"]["2"]["pred_column"] == "pred@layer2"
    assert d["layers"]["1"]["ter"] == 0.0 and d["layers"]["2"]["subsets"]["all"]["errors"] == 1
    # gold has no mention in layer 2: its tokens are all O there
    assert np.isclose(d["layers"]["2"]["ter"], 1 / 4)


def test_discontinuous_mentions_are_refused_naming_what_reads_them():
    gold = [[{"label": "D", "fragments": [[0, 1], [2, 3]]}, (0, 3, "ORG")]]
    with pytest.raises(SpanShapeError, match=r"references, sentence 0: span 'D' of fragments "
                                             r"\[\[0, 1\], \[2, 3\]\] is discontinuous.*"
                                             r"nerspan.score or tough_mentions.score"):
        hardeval.score(gold, gold, tokens=[["a", "b", "c", "d"]],
                       train=([["a"]], [["O"]]))


def test_nested_training_spans_count_their_outer_layer_per_token_and_are_refused():
    words = [["Bank", "of", "Rome"]]
    index = as_train_index((words, [[(0, 3, "ORG"), (2, 3, "LOC")]]))
    assert index.layers == 2 and index.n_mentions == 2
    org = 1 + index.types.index("ORG")
    assert index.io_counts[:, org].sum() == 3 and index.io_counts[:, 0].sum() == 0
    with pytest.raises(InputTypeError, match=r"the training data has 2 layers .*span lists "
                                             r"that nest.*train_tag_column"):
        hardeval.score([["B-ORG", "O", "O"]], [["B-ORG", "O", "O"]], tokens=words,
                       train=index)


def test_the_command_line_scores_nested_span_files_per_layer_as_the_api(tmp_path, capsys):
    words = ["Bank", "of", "Rome", "fell"]
    gold, pred = [(0, 3, "ORG"), (2, 3, "LOC")], [(0, 3, "ORG")]
    files = {}
    for name, spans in (("gold", gold), ("pred", pred)):
        files[name] = tmp_path / f"{name}.jsonl"
        files[name].write_text(json.dumps({"tokens": words, "spans": spans}) + "\n",
                               encoding="utf-8")
    train = tmp_path / "train.txt"
    train.write_text("Rome B-LOC\nis O\n", encoding="utf-8")
    command = ["hardeval", "--jsonl", str(files["gold"]), str(files["pred"]), "--train",
               str(train)]
    assert main(command + ["--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = hardeval.score([gold], [pred], tokens=[words],
                         train=([["Rome", "is"]], [["B-LOC", "O"]])).to_dict()
    assert cli["layers"] == api["layers"] and set(cli["layers"]) == {"1", "2"}
    assert main(command) == 0
    assert f"\n{layer_title(2)}\n" in capsys.readouterr().out   # its section, as the report's


def test_one_function_writes_a_span_table_as_layers_and_keeps_tag_columns():
    """``as_layers``: a span table written as its layers of tags (what score, the
    report's layer evaluations and the partials read), tag columns as they are."""
    words = [["Bank", "of", "Rome", "fell"]]
    corpus = Evaluation.build([[(0, 3, "ORG"), (2, 3, "LOC")]], [[(0, 1, "ORG")]],
                              tokens=words).corpus
    layered, n = as_layers(corpus, "gold")
    assert n == 2 and layered.mentions("gold") is None
    assert [layered.tags(layer_column("gold", k), 0) for k in (1, 2)] == \
        [["B-ORG", "I-ORG", "I-ORG", "O"], ["O", "O", "B-LOC", "O"]]
    assert as_layers(layered, "pred", n_layers=3) == (layered, 1)   # tags: kept
    assert as_layers(layered, "gold") == (layered, 2)


def test_the_layer_evaluations_reuse_every_tag_column_decoded_on_the_evaluation():
    """Gold as tags, a system whose span lists nest (written as layers there): gold is
    decoded once, on the report's evaluation, and not again in each layer's."""
    words = [["Bank", "of", "Rome", "fell"], ["Kim", "in", "Rome", "x"]]
    gold = [[(0, 3, "ORG")], [(0, 1, "PER"), (2, 3, "LOC")]]
    nested = [[(2, 3, "LOC"), (0, 3, "ORG")], [(0, 1, "PER"), (2, 3, "ORG")]]
    context = Evaluation.build(gold, nested, tokens=words)
    assert context.corpus.mentions("gold") is None and context.corpus.mentions("pred")
    expected = context.gold.to_list(context.corpus)
    evaluations = layer_evaluations(context)
    assert list(evaluations) == ["1"]
    own = evaluations["1"]
    assert own.gold.to_list(own.corpus) == expected
    assert (context.gold_decodes, own.gold_decodes) == (1, 0)
