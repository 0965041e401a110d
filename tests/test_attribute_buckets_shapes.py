"""attribute_buckets on nested, overlapping, multi-label and discontinuous mentions, and
on gold and training with layers (issue 41).

The oracle is written here from the definitions (docs/attribute-buckets.md): a mention
is (sentence, type, the set of tokens its fragments cover); its length is how many
tokens, its words theirs in order joined by a space; entity density counts the tokens
of every gold mention of the sentence (inner ones included); eFre counts the training
mentions with the same words, eCon those of the same type over the training occurrences
of the words (windows within a sentence, plus the discontinuous training mentions
with those words). Buckets score exact matches on (type, fragment set).
"""
from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import nerspan
from nerspan import Corpus, InputTypeError, TrainIndex
from nerspan.layers import layer_column
from nerspan.reading.systems import read_systems
from nerspan.span_table import SpanShapeError

from .conftest import shared_path
from .test_germeval_layers import LAYERS, chunks, gold_layers, sentences, system_chunks
from .test_partials import EXAMPLES, merged_in, placed, shards, taken

TYPES = ["PER", "LOC"]
WORDS = ["a", "b", "c"]
MENTION_ATTRIBUTES = ["eLen", "sLen", "eDen", "oDen", "eCon", "eFre", "tag"]
ORACLE = ["eLen", "sLen", "eDen", "eCon", "eFre"]


# -- strategies --------------------------------------------------------------------------
@st.composite
def mention(draw, length: int):
    """A span ``(start, end, type)`` or a mention of 1-3 fragments (``fragments``)."""
    label = draw(st.sampled_from(TYPES))
    if draw(st.booleans()):
        start = draw(st.integers(0, length - 1))
        return (start, draw(st.integers(start + 1, length)), label)
    bounds = sorted(draw(st.lists(st.integers(0, length), min_size=2, max_size=6,
                                  unique=True)))
    pairs = [[a, b] for a, b in zip(bounds[::2], bounds[1::2])]
    return {"label": label, "fragments": pairs}


@st.composite
def span_corpora(draw, min_sentences=1, max_sentences=6):
    """``(gold, pred, words)``: span lists per sentence that may nest, overlap, repeat
    a span with another type and have fragments; empty sentences too."""
    lengths = draw(st.lists(st.integers(0, 6), min_size=min_sentences,
                            max_size=max_sentences))
    sides = [[draw(st.lists(mention(n), max_size=4)) if n else [] for n in lengths]
             for _ in range(2)]
    words = [draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
             for n in lengths]
    return sides[0], sides[1], words


def training():
    """A training index whose mentions nest and have fragments (every one counted)."""
    tokens = [["a", "b", "c", "a", "b"], ["c", "a", "b", "a"], ["b", "b"]]
    spans = [[(0, 2, "PER"), (1, 2, "LOC"), {"label": "LOC", "fragments": [[0, 1], [4, 5]]}],
             [(0, 3, "LOC"), {"label": "PER", "fragments": [[0, 1], [3, 4]]}],
             [(0, 1, "PER")]]
    corpus = nerspan.Evaluation.build(spans, spans, tokens=tokens).corpus
    return tokens, spans, TrainIndex.build(corpus)


TRAIN_TOKENS, TRAIN_SPANS, TRAIN = training()


# -- the oracle --------------------------------------------------------------------------
def mention_set(side) -> set:
    """(sentence, type, covered tokens) of a side's span lists, each mention once."""
    out = set()
    for s, sentence in enumerate(side):
        for m in sentence:
            pairs = m["fragments"] if isinstance(m, dict) else [m[:2]]
            label = m["label"] if isinstance(m, dict) else m[2]
            out.add((s, label, tuple(sorted({i for a, b in pairs for i in range(a, b)}))))
    return out


def words_of(tokens, m) -> tuple:
    return tuple(tokens[m[0]][i].lower() for i in m[2])


def training_counts():
    """Per words: training mentions, and per (words, type); and occurrences."""
    mentions = mention_set(TRAIN_SPANS)
    by_words = Counter(words_of(TRAIN_TOKENS, m) for m in mentions)
    typed = Counter((words_of(TRAIN_TOKENS, m), m[1]) for m in mentions)
    occurrences = Counter(tuple(w.lower() for w in s[i:j]) for s in TRAIN_TOKENS
                          for i in range(len(s)) for j in range(i + 1, len(s) + 1))
    occurrences.update(words_of(TRAIN_TOKENS, m) for m in mentions
                       if m[2] != tuple(range(m[2][0], m[2][-1] + 1)))
    return len(mentions), by_words, typed, occurrences


def oracle_values(gold, side, words) -> dict:
    """attribute -> mention -> value for the mentions of ``side`` (gold's density)."""
    n_train, by_words, typed, occurrences = training_counts()
    covered = Counter()
    for m in mention_set(gold):
        covered[m[0]] += len(m[2])
    out = {name: {} for name in ORACLE}
    for m in mention_set(side):
        text = words_of(words, m)
        n = len(words[m[0]])
        out["eLen"][m] = float(len(m[2]))
        out["sLen"][m] = float(n)
        out["eDen"][m] = covered[m[0]] / n
        out["eFre"][m] = by_words[text] / n_train
        seen = occurrences[text]
        out["eCon"][m] = typed[(text, m[1])] / seen if seen else 0.0
    return out


def inside(row, value) -> bool:
    low = -math.inf if row["low"] is None else row["low"]
    high = math.inf if row["high"] is None else row["high"]
    return (value >= low if row["low_closed"] else value > low) and \
        (value <= high if row["high_closed"] else value < high)


# -- properties --------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(span_corpora())
def test_bucket_counts_are_the_oracles_for_every_shape(case):
    """Every gold and predicted mention (inner, overlapping, discontinuous, multi-label)
    is counted in the bucket of its value, as the oracle computes it; correct ones are
    exact matches on (type, fragment set)."""
    gold, pred, words = case
    result = attribute_buckets.score(gold, pred, tokens=words, train=TRAIN,
                                     attributes=MENTION_ATTRIBUTES).to_dict()
    gold_set, pred_set = mention_set(gold), mention_set(pred)
    values = {"gold": oracle_values(gold, gold, words), "pred": oracle_values(gold, pred, words)}
    for name in ORACLE:
        rows = result["buckets"][name]
        expected = {"gold": values["gold"][name], "predicted": values["pred"][name],
                    "correct": {m: v for m, v in values["gold"][name].items() if m in pred_set}}
        for key, valued in expected.items():
            got = [row[key] for row in rows]
            want = [sum(inside(row, v) for v in valued.values()) for row in rows]
            assert got == want, (name, key)
        summary = result["attributes"][name]
        assert sum(r["gold"] for r in rows) + summary["outside_gold"] == len(gold_set)
        assert sum(r["predicted"] for r in rows) + summary["outside_predicted"] == len(pred_set)
    assert sum(row["gold"] for row in result["buckets"]["tag"]) == len(gold_set)
    assert sum(row["correct"] for row in result["buckets"]["tag"]) == len(gold_set & pred_set)
    assert result["f1"] == nerspan.score(gold, pred, tokens=words).micro()[2]


@settings(max_examples=40, deadline=None)
@given(span_corpora())
def test_gold_as_prediction_is_perfect_in_every_bucket(case):
    gold, _, words = case
    result = attribute_buckets.score(gold, gold, tokens=words, train=TRAIN,
                                     attributes=MENTION_ATTRIBUTES).to_dict()
    assert result["f1"] == (1.0 if mention_set(gold) else 0.0)
    for name, rows in result["buckets"].items():
        for row in rows:
            assert row["gold"] == row["predicted"] == row["correct"], name
            assert row["f1"] == (1.0 if row["gold"] else None), name


@settings(max_examples=30, deadline=None)
@given(span_corpora())
def test_flat_span_lists_score_as_their_tags(case):
    """Spans that tags can hold give the numbers of their tags, every attribute."""
    gold, pred, words = case
    gold, pred = ([[m for m in s if not isinstance(m, dict)][:1] for s in side]
                  for side in (gold, pred))
    tags = [[["O"] * len(w) for w in words] for _ in range(2)]
    for side, out in zip((gold, pred), tags):
        for s, spans in enumerate(side):
            for a, b, label in spans:
                out[s][a:b] = [f"B-{label}"] + [f"I-{label}"] * (b - a - 1)
    train = (TRAIN_TOKENS, [["B-PER", "I-PER", "O", "O", "O"], ["B-LOC", "I-LOC", "I-LOC", "O"],
                            ["B-PER", "O"]])
    from_spans = attribute_buckets.score(gold, pred, tokens=words, train=train).to_dict()
    from_tags = attribute_buckets.score(*tags, tokens=words, train=train).to_dict()
    assert from_spans == from_tags


@EXAMPLES
@given(data=st.data(), corpus=span_corpora(max_sentences=8))
def test_partials_of_every_shape_merge_to_one_pass(data, corpus):
    gold, pred, words = corpus
    keywords = {"train": TRAIN, "attributes": MENTION_ATTRIBUTES,
                "options": {"n_buckets": data.draw(st.integers(2, 5))}}
    whole = attribute_buckets.score(gold, pred, tokens=words, **keywords)
    cut = data.draw(shards(len(gold)))
    parts = [attribute_buckets.partial(taken(gold, ids), taken(pred, ids),
                                       tokens=taken(words, ids), **keywords, **placed(ids))
             for ids in cut]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert merged.result().to_dict() == whole.to_dict()


def test_a_sentence_may_hold_more_mentions_than_tokens():
    """Every span of an 8-token sentence in 4 types: 144 mentions, more than a count
    type sized by the sentence length (int8) holds."""
    types = ["A", "B", "C", "D"]
    gold = [[(a, b, t) for a in range(8) for b in range(a + 1, 9) for t in types]]
    words = [[f"w{i}" for i in range(8)]]
    result = attribute_buckets.score(gold, gold, tokens=words,
                                     attributes=["eLen", "sLen", "tag"]).to_dict()
    for name, rows in result["buckets"].items():
        assert sum(r["correct"] for r in rows) == sum(r["gold"] for r in rows) == 144, name
    assert [r["gold"] for r in result["buckets"]["tag"]] == [36] * 4


# -- what one label per token cannot hold ------------------------------------------------
NESTED = [[(0, 3, "ORG"), (1, 2, "PER")]]
SIX = [[f"w{i}" for i in range(6)]]


@pytest.mark.parametrize("attribute", ["tCon", "tFre"])
@pytest.mark.parametrize("side", ["references", "predictions"])
def test_token_attributes_refuse_mentions_sharing_a_token_naming_both(attribute, side):
    gold, pred = (NESTED, [[(0, 3, "ORG")]]) if side == "references" \
        else ([[(0, 3, "ORG")]], NESTED)
    with pytest.raises(SpanShapeError, match=rf"{side}, sentence 0: spans \(0, 3, 'ORG'\) and "
                                             rf"\(1, 2, 'PER'\) nest: the token attribute "
                                             rf"{attribute} reads one label per token"):
        attribute_buckets.score(gold, pred, tokens=SIX, train=(SIX, [["O"] * 6]),
                                attributes=[attribute])


def test_a_discontinuous_mention_sharing_a_token_is_named_by_its_fragments():
    gold = [[{"label": "A", "fragments": [[0, 1], [3, 4]]}, (2, 4, "A")]]
    with pytest.raises(SpanShapeError, match=r"spans \(2, 4, 'A'\) and \(fragments "
                                             r"\[\[0, 1\], \[3, 4\]\], 'A'\) overlap"):
        attribute_buckets.score(gold, gold, tokens=SIX, attributes=["tFre"],
                                train=(SIX, [["O"] * 6]))


def test_an_inner_mention_starting_where_its_outer_one_starts_is_named_nested():
    gold = [[(1, 2, "PER"), (1, 5, "OTH")]]
    with pytest.raises(SpanShapeError, match=r"spans \(1, 5, 'OTH'\) and \(1, 2, 'PER'\) nest"):
        attribute_buckets.score(gold, gold, tokens=SIX, attributes=["tFre"],
                                train=(SIX, [["O"] * 6]))


def test_one_span_of_two_types_is_named_so():
    two = [[(0, 2, "ORG"), (0, 2, "PER")]]
    with pytest.raises(SpanShapeError, match="are one span of two types: the token attribute"):
        attribute_buckets.score(two, two, tokens=SIX, attributes=["tFre"],
                                train=(SIX, [["O"] * 6]))


def test_discontinuous_mentions_that_share_no_token_have_token_attributes():
    """A gap token is outside the mention: O for the token attributes."""
    gold = [[{"label": "D", "fragments": [[0, 1], [3, 5]]}]]
    tags = [["B-D", "O", "O", "B-D", "I-D", "O"]]
    train = (SIX, tags)
    spans = attribute_buckets.score(gold, gold, tokens=SIX, train=train,
                                    attributes=["tCon", "tFre"]).to_dict()
    as_tags = attribute_buckets.score(tags, tags, tokens=SIX, train=train,
                                      attributes=["tCon", "tFre"]).to_dict()
    assert spans["buckets"] == as_tags["buckets"]


def test_the_reference_code_refuses_discontinuous_and_nested_mentions():
    gold = [[{"label": "D", "fragments": [[0, 1], [3, 5]]}]]
    with pytest.raises(SpanShapeError, match=r"span \(fragments \[\[0, 1\], \[3, 5\]\], 'D'\) "
                                             r"is discontinuous: compat='interpreteval'"):
        attribute_buckets.score(gold, gold, tokens=SIX, attributes=["eLen"],
                                compat="interpreteval")
    with pytest.raises(SpanShapeError, match="nest: compat='interpreteval'"):
        attribute_buckets.score(NESTED, NESTED, tokens=SIX, attributes=["eLen"],
                                compat="interpreteval")


# -- layers ------------------------------------------------------------------------------
OUTER = [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-PER", "O"]]
INNER = [["B-LOC", "O", "B-PER", "O"], ["B-PER", "O"]]
PRED = [["B-ORG", "I-ORG", "I-ORG", "O"], ["B-LOC", "O"]]
LAYER_WORDS = [["x", "y", "z", "w"], ["x", "w"]]


def layered(outer=OUTER, inner=INNER, pred=PRED):
    return Corpus.from_tags(outer, tokens=LAYER_WORDS, columns={
        layer_column("gold", 2): inner, "pred": pred})


def read_layered_training():
    """Training with two layers: x y z ORG holding x LOC and z PER, then w PER."""
    corpus = Corpus.from_tags([["B-ORG", "I-ORG", "I-ORG", "B-PER"]],
                              tokens=[["x", "y", "z", "w"]],
                              columns={layer_column("gold", 2): [["B-LOC", "O", "B-PER", "O"]]})
    return TrainIndex.build(corpus)


def test_layered_gold_and_training_count_every_mention_of_every_layer():
    """Gold with layers: every mention of both layers in the buckets (an identical one
    once), as the span lists of their union; training with layers: every mention."""
    union = [[(0, 3, "ORG"), (0, 1, "LOC"), (2, 3, "PER")], [(0, 1, "PER")]]
    train = read_layered_training()
    keywords = {"attributes": MENTION_ATTRIBUTES, "train": train}
    from_layers = attribute_buckets.score(nerspan.Evaluation(layered()), "pred", **keywords)
    from_spans = attribute_buckets.score(union, [[(0, 3, "ORG")], [(0, 1, "LOC")]],
                                         tokens=LAYER_WORDS, **keywords)
    assert from_layers.to_dict()["buckets"] == from_spans.to_dict()["buckets"]
    assert sum(r["gold"] for r in from_layers.to_dict()["buckets"]["eLen"]) == 4
    assert train.n_mentions == 4   # x y z ORG, x LOC, z PER; w PER
    assert from_layers["eFre"].gold_values.tolist() == [0.25] * 4


def test_layered_training_refuses_tcon_alone():
    train = read_layered_training()
    flat = Corpus.from_tags(OUTER, tokens=LAYER_WORDS, columns={"pred": PRED})
    with pytest.raises(InputTypeError, match=r"the training data has 2 layers .* and the token "
                                             r"attribute tCon counts one tag per training"):
        attribute_buckets.score(flat, train=train)
    result = attribute_buckets.score(flat, train=train, attributes=["tFre", "eCon"])
    assert set(result.tables) == {"tFre", "eCon"}


# -- real data ---------------------------------------------------------------------------
def test_germeval_test_with_both_layers_counts_every_gold_mention():
    """GermEval 2014 test with --layers 2,3 against a system, dev with both layers as
    training: all 6,693 gold mentions (6,178 outer + 515 inner; identical ones would be
    one) in every attribute's buckets; eFre against every dev mention, inner ones too."""
    path, outer, inner = gold_layers()
    assert (len(outer), len(inner)) == (6178, 515)
    system = shared_path("data", "germeval2014", "systems",
                         "germaner_trained_with_germeval_tested_on_germeval.tsv")
    dev = shared_path("data", "germeval2014", "NER-de-dev.tsv")
    corpus, names = read_systems(path, [system], inputs=LAYERS)
    train = nerspan.as_train_index(dev, inputs={**LAYERS, "train_token_column": 1})
    result = attribute_buckets.score(nerspan.Evaluation(corpus), names[0], train=train,
                                     attributes=["eLen", "sLen", "eDen", "eFre", "tag"])
    union, predicted = outer | inner, system_chunks(system)
    assert len(union) + len(outer & inner) == 6693
    for name, rows in result.to_dict()["buckets"].items():
        summary = result.to_dict()["attributes"][name]
        assert summary["n_gold"] == len(union) and summary["outside_gold"] == 0, name
        assert sum(r["gold"] for r in rows) == len(union), name
        assert sum(r["correct"] for r in rows) == len(union & predicted), name
    lengths = Counter(b - a for _, a, b, _ in union)
    assert {r["interval"]: r["gold"] for r in result.to_dict()["buckets"]["eLen"]} == {
        "{1}": lengths[1], "{2}": lengths[2], "{3}": lengths[3],
        "[4, inf)": sum(n for k, n in lengths.items() if k >= 4)}
    assert Counter(result["eFre"].gold_values.tolist()) == dev_frequencies(path, union, dev)
    assert train.n_mentions == len(dev_mentions(dev)[1])


def dev_mentions(dev) -> tuple:
    """(words per sentence, every mention of both layers) of GermEval's dev file."""
    rows = sentences(dev, lambda line: line.split("\t"), comments=True)
    both = chunks([[row[2] for row in s] for s in rows]) | \
        chunks([[row[3] for row in s] for s in rows])
    return [[row[1] for row in s] for s in rows], both


def dev_frequencies(path, union, dev) -> Counter:
    """eFre of every test mention: dev mentions of its (lowercased) text / dev mentions."""
    words, mentions = dev_mentions(dev)
    texts = Counter(" ".join(words[s][a:b]).lower() for s, a, b, _ in mentions)
    test = [[row[1] for row in s] for s in sentences(path, lambda line: line.split("\t"),
                                                      comments=True)]
    return Counter(texts[" ".join(test[s][a:b]).lower()] / len(mentions)
                   for s, a, b, _ in union)
