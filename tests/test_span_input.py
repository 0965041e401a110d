"""Span input (nerspan.reading.span_lists): every form, its errors, and tags = spans in every family."""
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
from faireval import spans_to_tags
from nerspan import NerspanError, from_spans, read_span_jsonl
from nerspan.reading.span_lists import read_spans

TOKENS = [["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London"]]
GOLD_TAGS = [["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC"]]


def test_every_span_form_gives_the_same_corpus():
    by_tags = nerspan.score(GOLD_TAGS, [["B-PER", "I-PER", "O", "B-PER", "O", "O", "B-ORG"]])
    forms = [
        [[(0, 2, "PER"), (3, 4, "PER"), (6, 7, "ORG")]],                        # token, exclusive
        [[("PER", 0, 2), ("PER", 3, 4), ("ORG", 6, 7)]],                        # FairEval's order
        [[{"label": "PER", "start": 0, "end": 1}, {"label": "PER", "start": 3, "end": 3},
          {"label": "ORG", "start": 6, "end": 6}]],                             # nervaluate's
        [[{"entity_group": "PER", "start": 0, "end": 12, "word": "ada lovelace", "score": 0.9},
          {"entity_group": "PER", "start": 17, "end": 24, "word": "charles", "score": 0.8},
          {"entity_group": "ORG", "start": 36, "end": 42, "word": "london", "score": 0.7}]],
    ]
    for k, predictions in enumerate(forms):
        result = nerspan.score(from_spans(GOLD_TAGS, predictions, TOKENS,
                                          inputs={'inclusive_end': k == 2}))
        assert result.to_dict() == by_tags.to_dict(), k


def test_pipeline_output_without_aggregation_is_read_as_word_tags():
    # "Lovelace" in two sub-tokens: only the first decides; I- after O is a counted repair
    raw = [[{"entity": "B-PER", "start": 0, "end": 3, "index": 1},
            {"entity": "I-PER", "start": 4, "end": 8, "index": 2},
            {"entity": "B-LOC", "start": 8, "end": 12, "index": 3},
            {"entity": "I-LOC", "start": 36, "end": 42, "index": 9}]]
    corpus = from_spans(GOLD_TAGS, raw, TOKENS)
    assert corpus.tags("pred", 0) == ["B-PER", "I-PER", "O", "O", "O", "O", "I-LOC"]
    result = nerspan.score(corpus).to_dict()
    assert result["correct"] == 2 and result["repairs"]["pred"]["invalid_transitions"] == 1


def test_character_spans_off_token_boundaries_fail_or_snap():
    pred = [[{"entity_group": "PER", "start": 0, "end": 7, "word": "ada lov", "score": 0.9}]]
    with pytest.raises(NerspanError, match=r"predictions, sentence 0: span 'PER' at "
                                           r"characters 0\.\.7 \('Ada Lov'\) does not fall "
                                           r"on token boundaries; snap=True"):
        from_spans(GOLD_TAGS, pred, TOKENS)
    corpus = from_spans(GOLD_TAGS, pred, TOKENS, inputs={'snap': True})
    assert corpus.tags("pred", 0)[:3] == ["B-PER", "I-PER", "O"]
    for family in (nerspan, faireval):
        repairs = family.score(corpus).to_dict()["repairs"]["pred"]
        assert repairs["snapped"] == 1 and repairs["sentences"] == [0]
    # the same through faireval's own span path, and with a text of its own
    result = faireval.score([[(0, 2, "PER")]], pred, inputs={'texts': ["Ada  Lovelace met"], 'snap': True})
    assert result.to_dict()["repairs"]["pred"]["snapped"] == 1
    with pytest.raises(NerspanError, match="covers no token"):
        from_spans([[]], [[{"entity_group": "X", "start": 3, "end": 4, "word": " ",
                            "score": 1.0}]], [["Ada", "B"]], inputs={'snap': True})


def test_texts_give_tokens_and_offsets():
    corpus = from_spans([[{"entity_group": "LOC", "start": 9, "end": 15, "word": "London",
                           "score": 1.0}]], None, inputs={'texts': ["Hello ,  London !"]})
    assert corpus.sentence_tokens(0) == ["Hello", ",", "London", "!"]
    assert corpus.tags("gold", 0) == ["O", "O", "B-LOC", "O"]
    with pytest.raises(NerspanError, match=r"token 1 'Paris' is not in the text"):
        from_spans([[{"entity_group": "LOC", "start": 0, "end": 5, "word": "Hello",
                      "score": 1.0}]], None, tokens=[["Hello", "Paris"]], inputs={'texts': ["Hello London"]})


@pytest.mark.parametrize("spans, message", [
    ([[(0, 9, "PER")]], r"reaches past the end of the sentence \(7 tokens\)"),
    ([[(2, 2, "PER")]], "empty or reversed"),
    ([[{"label": "PER", "start": 0}]], "has no start/end"),
    ([[{"text": "PER", "start": 0, "end": 1}]], "needs 'label'"),
    ([[(0, 1)]], r"a span must be \(start, end, label\)"),
    ([[(0, 1.5, "PER")]], "integer start and end"),
])
def test_bad_spans_name_side_and_sentence(spans, message):
    with pytest.raises(NerspanError, match=message) as error:
        from_spans(spans, [[]], TOKENS)
    assert error.value.sentence == 0


def test_nested_spans_are_scored_by_faireval_and_tough_mentions():
    nested = [[(0, 7, "ORG"), (6, 7, "LOC")]]
    assert faireval.score(nested, nested).counts["TP"] == 2
    d = tough_mentions.score(nested, nested, tokens=TOKENS, train=(TOKENS, GOLD_TAGS)).to_dict()
    assert d["hits"]["all"] == d["counts"]["all"] == 2


def test_overlapping_spans_are_kept_as_a_table_whose_tags_are_refused():
    corpus = from_spans([[(0, 2, "PER"), (1, 3, "LOC")]], [[]], TOKENS)
    assert corpus.mentions("gold").to_list(corpus) == [[("PER", 0, 2), ("LOC", 1, 3)]]
    assert corpus.select(["pred"]).mentions("gold") is None   # the table follows its column
    assert corpus.renamed({"gold": "g"}).mentions("g") is corpus.mentions("gold")
    with pytest.raises(NerspanError, match=r"references, sentence 0: spans \(0, 2, 'PER'\) "
                                           r"and \(1, 3, 'LOC'\) overlap: tags \(one per "
                                           r"token\) cannot hold"):
        corpus.column("gold")


def test_span_jsonl(tmp_path):
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps({"tokens": TOKENS[0], "spans": [[0, 2, "PER"]]}) + "\n\n"
                    + json.dumps({"tokens": ["Hi"], "spans": []}) + "\n")
    read = read_span_jsonl(path)
    assert read["spans"] == [[(0, 2, "PER")], []] and read["texts"] is None
    path.write_text('{"tokens": ["a"], "spans": []}\n{"spans": 3}\n')
    with pytest.raises(nerspan.FormatError, match=r"gold.jsonl:2, sentence 1: expected an "
                                                  r"object with a \"spans\" list"):
        read_span_jsonl(path)


def test_read_spans_keeps_list_order_and_nesting():
    spans, snapped = read_spans([[("B", 0, 3), (0, 1, "A")], []])
    assert [(spans.types[t], a, b) for t, a, b in zip(spans.type, spans.start, spans.end)] \
        == [("B", 0, 3), ("A", 0, 1)]
    assert spans.offsets.tolist() == [0, 3, 3] and len(snapped) == 0


# -- tags and the same spans give identical numbers in every family ----------------------
TRAIN_TOKENS = [["Ada", "met", "Bob", "in", "Rome"], ["Rome", "is", "far"]]
TRAIN_TAGS = [["B-PER", "O", "B-PER", "O", "B-LOC"], ["B-LOC", "O", "O"]]
WORDS = ["Ada", "Bob", "Rome", "met", "in", "far", "Lyon"]


@st.composite
def span_sentences(draw):
    """Sentences with words and two sides of non-overlapping token spans."""
    n = draw(st.integers(1, 4))
    tokens, sides = [], ([], [])
    for _ in range(n):
        length = draw(st.integers(1, 8))
        tokens.append(draw(st.lists(st.sampled_from(WORDS), min_size=length, max_size=length)))
        for side in sides:
            cuts = sorted(draw(st.sets(st.integers(0, length), max_size=6)))
            spans = [(a, b, draw(st.sampled_from(["PER", "LOC"])))
                     for a, b in zip(cuts[::2], cuts[1::2]) if b > a]
            side.append(spans)
    return tokens, sides[0], sides[1]


def _tags(spans, tokens):
    return spans_to_tags([[(label, a, b) for a, b, label in s] for s in spans],
                         [len(t) for t in tokens])


def _char_dicts(spans, tokens, texts=None, cuts=None):
    """The spans as a pipeline would give them: character offsets in the joined words,
    or in ``texts``; ``cuts`` (per span, characters off its first and last token) make
    spans that miss token boundaries, which ``snap=True`` widens back."""
    out = []
    for i, (sentence, words) in enumerate(zip(spans, tokens)):
        text = " ".join(words) if texts is None else texts[i]
        starts, at = [], 0
        for word in words:
            starts.append(text.index(word, at))
            at = starts[-1] + len(word)
        dicts = []
        for k, (a, b, label) in enumerate(sentence):
            start, end = starts[a], starts[b - 1] + len(words[b - 1])
            if cuts is not None:
                start, end = start + cuts[i][k][0], end - cuts[i][k][1]
            dicts.append({"entity_group": label, "start": start, "end": end,
                          "word": text[start:end], "score": 1.0})
        out.append(dicts)
    return out


@st.composite
def texts_for(draw, tokens):
    """Texts of the words with runs of spaces, tabs and newlines between them."""
    gaps = st.sampled_from([" ", "  ", "\t", " \n ", "   "])
    return [draw(st.sampled_from(["", " "])) + "".join(w + draw(gaps) for w in words)
            for words in tokens]


@st.composite
def cuts_for(draw, spans, tokens):
    """Per span, (characters after its first token's start, before its last token's end),
    each inside its token, and the span still holding a character."""
    out = []
    for sentence, words in zip(spans, tokens):
        row = []
        for a, b, _ in sentence:
            head = draw(st.integers(0, len(words[a]) - 1))
            tail = draw(st.integers(0, len(words[b - 1]) - 1))
            row.append((head, tail) if b - a > 1 or head + tail < len(words[a]) else (0, 0))
        out.append(row)
    return out


SPAN_FORMS = ["tuples", "dicts", "inclusive dicts", "characters", "characters in texts",
              "snapped characters"]


def _span_form(draw, form, spans, tokens, texts=None):
    """``(spans in that form, the input options that read them, spans snapped)``;
    ``texts``: the texts drawn for the other side."""
    if form == "tuples":
        return spans, dict(tokens=tokens), 0
    if form in ("dicts", "inclusive dicts"):
        inclusive = form == "inclusive dicts"
        return ([[{"label": l, "start": a, "end": b - inclusive} for a, b, l in s]
                 for s in spans], dict(tokens=tokens, inclusive_end=inclusive), 0)
    if form == "characters in texts":  # the words are the texts': no tokens given
        texts = texts or draw(texts_for(tokens))
        return _char_dicts(spans, tokens, texts), dict(texts=texts), 0
    if form == "snapped characters":
        cuts = draw(cuts_for(spans, tokens))
        snapped = sum(cut != (0, 0) for row in cuts for cut in row)
        return _char_dicts(spans, tokens, cuts=cuts), dict(tokens=tokens, snap=True), snapped
    return _char_dicts(spans, tokens), dict(tokens=tokens), 0


def _without_repairs(result: dict) -> dict:
    return {key: value for key, value in result.items() if key != "repairs"}


def _snapped(result: dict) -> int:
    return sum(side.get("snapped", 0) for side in result["repairs"].values())


FAMILY_OPTIONS = {nerspan: dict(), faireval: dict(schemas="semeval"),
                  tough_mentions: dict(train=True), hardeval: dict(train=True),
                  attribute_buckets: dict(train=True)}


@settings(max_examples=60, deadline=None)
@given(span_sentences(), st.sampled_from(SPAN_FORMS), st.data())
def test_tags_and_spans_give_identical_numbers_in_every_family(case, form, data):
    """Every input option (inclusive ends, character offsets with or without texts, snap)
    reads spans into the numbers of the same mentions given as tags, in every family;
    what snap widened is counted in repairs, once per span."""
    tokens, gold, pred = case
    gold_in, options, gold_snapped = _span_form(data.draw, form, gold, tokens)
    pred_in, _, pred_snapped = _span_form(data.draw, form, pred, tokens, options.get("texts"))
    gold_tags, pred_tags = _tags(gold, tokens), _tags(pred, tokens)
    train = nerspan.as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    for family, extra in FAMILY_OPTIONS.items():
        extra = {**extra, "train": train} if extra.get("train") else extra
        by_tags = family.score(gold_tags, pred_tags, tokens=tokens, **extra).to_dict()
        by_spans = family.score(gold_in, pred_in, inputs=options, **extra).to_dict()
        assert _without_repairs(by_spans) == _without_repairs(by_tags), family.__name__
        assert _snapped(by_spans) == gold_snapped + pred_snapped, family.__name__


@settings(max_examples=30, deadline=None)
@given(span_sentences(), st.sampled_from(SPAN_FORMS), st.data())
def test_gold_given_as_its_own_prediction_scores_perfectly_in_every_family(case, form, data):
    tokens, gold, _ = case
    spans, options, _ = _span_form(data.draw, form, gold, tokens)
    if not any(gold):
        return  # nothing to find: the scores are undefined
    train = nerspan.as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    assert nerspan.score(spans, spans, inputs=options).micro() == (1.0, 1.0, 1.0)
    assert faireval.score(spans, spans, inputs=options).fair() == (1.0, 1.0, 1.0)
    assert tough_mentions.score(spans, spans, train=train, inputs=options).recall == 1.0
    assert hardeval.score(spans, spans, train=train, inputs=options).ter() == 0.0
    assert attribute_buckets.score(spans, spans, train=train, inputs=options).f1 == 1.0


def test_span_input_refuses_another_scheme_and_iterators_stay_tags():
    with pytest.raises(ValueError, match=r"span input is scored as IOB2 tags; "
                                         r"scheme='IOBES' applies to tag input only"):
        nerspan.score([[(0, 1, "PER")]], [[(0, 1, "PER")]], scheme="IOBES")
    with pytest.raises(ValueError, match="scored as IOB2 tags"):
        faireval.score([[(0, 1, "PER")]], [["B-PER"]], scheme="BILOU")
    assert nerspan.score([[(0, 1, "PER")]], [[(0, 1, "PER")]], scheme="BIO").micro()[2] == 1.0
    tags = nerspan.score(iter([["B-PER", "O"]]), iter([["B-PER", "O"]]))
    assert tags.micro() == (1.0, 1.0, 1.0)


def test_a_corpus_of_gold_tags_against_span_predictions():
    corpus = nerspan.Corpus.from_tags(GOLD_TAGS, tokens=TOKENS)
    output = [[{"entity_group": "PER", "start": 0, "end": 12, "word": "Ada Lovelace",
                "score": 0.9}]]
    assert nerspan.score(corpus, output).micro()[0] == 1.0
    assert faireval.score(corpus, [[(0, 2, "PER")]]).counts["TP"] == 1
