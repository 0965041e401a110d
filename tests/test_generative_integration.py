"""Generated output as predictions of ``nerspan.score`` and every family's ``score``
(the ``generated`` input form, METHODS §6): grounded spans scored as any prediction,
ungrounded entities counted as wrong predictions where a family has predictions to count,
everything reading and grounding did in ``repairs["pred"]["generative"]``.

The oracles: the same spans given as tags (a family scores grounded spans exactly as it
scores those spans' tags), and hand counts.
"""
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
from nerspan import Evaluation, InputTypeError
from nerspan.generative import GENERATED, ground, score_strings
from nerspan.reading.forms import FORMS, input_form
from tests.conftest import REPO

TOKENS = [["Ada", "Lovelace", "visited", "Paris", "."], ["Paris", "Hilton", "is", "here"]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-PER", "I-PER", "O", "O"]]
TRAIN = dict(train=(TOKENS, GOLD))
# every family: its score and the options it needs beside references and predictions
FAMILIES = {"nerspan": (nerspan.score, {}), "tough_mentions": (tough_mentions.score, TRAIN),
            "hardeval": (hardeval.score, TRAIN), "faireval": (faireval.score, {}),
            "attribute_buckets": (attribute_buckets.score, TRAIN)}


def without_repairs(d: dict) -> dict:
    """A result dict without what differs by construction between tags and generated
    output of the same spans: the record of the input."""
    return {k: v for k, v in d.items() if k not in ("repairs",)}


def tags_of(spans_per_sentence, lengths) -> list:
    out = []
    for spans, n in zip(spans_per_sentence, lengths):
        tags = ["O"] * n
        for a, b, t in spans:
            tags[a:b] = [f"B-{t}"] + [f"I-{t}"] * (b - a - 1)
        out.append(tags)
    return out


# -- one form among the others ---------------------------------------------------------------
def test_generated_is_one_form_before_the_references_own():
    assert GENERATED in FORMS
    names = [form.name for form in FORMS]
    assert names.index("generated") < names.index("span_pairs")
    for predictions in (['[{"text": "Paris", "type": "LOC"}]', "[]"],
                        [[{"text": "Paris", "type": "LOC"}], []],
                        [[["Paris", "LOC"]], []], [{"LOC": ["Paris"]}, {}],
                        ["visited <LOC>Paris</LOC>", ""]):
        assert input_form(GOLD, predictions).name == "generated", predictions
    assert input_form(GOLD, GOLD).name == "tags"
    # label ids are never generated output
    assert input_form([[1, 0]], [[1, 0]], nerspan.InputOptions(label_list=["O", "B-X"])
                      ).name == "ids"


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_scores_grounded_spans_as_their_tags(family):
    score, extra = FAMILIES[family]
    generated = ['Sure:\n```json\n[{"text": "Ada Lovelace", "type": "PER"}, '
                 '{"text": "paris", "type": "LOC"}]\n```', {"LOC": ["Paris"]}]
    spans = ground(generated, tokens=TOKENS, types={"PER", "LOC"}).spans
    as_tags = tags_of(spans, map(len, TOKENS))
    got = score(GOLD, generated, tokens=TOKENS, **extra).to_dict()
    want = score(GOLD, as_tags, tokens=TOKENS, **extra).to_dict()
    assert without_repairs(got) == without_repairs(want)
    record = got["repairs"]["pred"]["generative"]
    assert (record["responses"], record["entities"], record["usable"]) == (2, 3, 3)
    assert record["levels"]["case_insensitive"] == 1


def test_words_come_from_a_corpus_or_a_gold_context():
    generated = [[["Ada Lovelace", "PER"], ["Paris", "LOC"]], [["Paris Hilton", "PER"]]]
    corpus = nerspan.Corpus.from_tags(GOLD, tokens=TOKENS)
    assert nerspan.score(corpus, generated).micro() == (1.0, 1.0, 1.0)
    for score, extra in FAMILIES.values():
        context = Evaluation.build(GOLD, tokens=TOKENS)  # one per family: it keeps the index
        result = score(context, generated, **extra).to_dict()
        assert result["repairs"]["pred"]["generative"]["usable"] == 3


def test_without_words_grounding_says_what_to_pass():
    with pytest.raises(InputTypeError, match=r"predictions: generated predictions are "
                                             r"grounded in the sentence text: pass tokens="):
        nerspan.score(GOLD, [[["Ada", "PER"]], []])


# -- ungrounded entities: a wrong prediction where a family counts predictions ---------------
UNGROUNDED = [[["Ada Lovelace", "PER"], ["Paris", "LOC"], ["Atlantis", "LOC"],
               ["Zeus", "GOD"]], [["Paris Hilton", "PER"]]]


def test_ungrounded_entities_are_false_positives_of_entity_scores():
    d = nerspan.score(GOLD, UNGROUNDED, tokens=TOKENS).to_dict()
    # by hand: 3 gold, 3 grounded and correct, 2 found nowhere (one of a type gold lacks)
    assert (d["gold"], d["predicted"], d["correct"]) == (3, 5, 3)
    assert d["per_type"]["LOC"]["predicted"] == 2 and d["per_type"]["GOD"]["predicted"] == 1
    assert d["precision"] == 3 / 5 and d["recall"] == 1.0
    record = d["repairs"]["pred"]["generative"]
    assert [x["text"] for x in record["listed"]["ungrounded"]] == ["Atlantis", "Zeus"]
    assert record["ungrounded_by_type"] == {"GOD": 1, "LOC": 1}


def test_ungrounded_entities_in_each_family():
    tm = tough_mentions.score(GOLD, UNGROUNDED, tokens=TOKENS, **TRAIN).to_dict()
    assert tm["precision"] == 3 / 5 and tm["recall"] == 1.0
    fe = faireval.score(GOLD, UNGROUNDED, tokens=TOKENS).to_dict()
    assert fe["traditional_counts"] == {"TP": 3, "FP": 2, "FN": 0}
    assert fe["error_confusion"]["FP"] == {"LOC": 1, "PER": 0, "GOD": 1}
    assert fe["per_type"]["GOD"]["traditional_FP"] == 1
    ab = attribute_buckets.score(GOLD, UNGROUNDED, tokens=TOKENS, **TRAIN)
    assert ab.precision == 3 / 5
    # hardeval scores tokens: an entity found nowhere has none; it is counted, not scored
    he = hardeval.score(GOLD, UNGROUNDED, tokens=TOKENS, **TRAIN).to_dict()
    perfect = hardeval.score(GOLD, GOLD, tokens=TOKENS, **TRAIN).to_dict()
    assert he["ter"] == perfect["ter"]
    assert he["repairs"]["pred"]["generative"]["ungrounded"] == 2


def test_faireval_bootstrap_resamples_the_ungrounded_entities():
    a = faireval.score(GOLD, UNGROUNDED, tokens=TOKENS)
    assert a.sentence_counts[:, -1].tolist() == [4, 1]   # system spans per sentence


def test_matching_strings_is_nerspans_own():
    generated = [[["Ada Lovelace", "PER"], ["Paris", "LOC"]], [["paris hilton", "PER"]]]
    via_score = nerspan.score(GOLD, generated, tokens=TOKENS, inputs={'matching': "strings"})
    assert via_score.to_dict() == score_strings(GOLD, generated, tokens=TOKENS).to_dict()
    compat = nerspan.score(GOLD, generated, tokens=TOKENS, inputs={'matching': "strings", 'script': "universalner"})
    assert compat.micro() == score_strings(GOLD, generated, tokens=TOKENS,
                                           inputs={'script': "universalner"}).micro()
    # faireval's own pairing (pairing=) pairs the SemEval-2013 schemas' spans; every
    # family refuses string matching, which gives no spans
    with pytest.raises(InputTypeError, match='matching="strings" compares sets of strings'):
        faireval.score(GOLD, generated, tokens=TOKENS, inputs={'matching': "strings"})
    with pytest.raises(InputTypeError, match='matching="strings" compares sets of strings'):
        tough_mentions.score(GOLD, generated, tokens=TOKENS, inputs={'matching': "strings"},
                             train=nerspan.as_train_index((TOKENS, GOLD)))
    with pytest.raises(ValueError, match='script and word_overlap apply to matching="strings"'):
        nerspan.score(GOLD, generated, tokens=TOKENS, inputs={'script': "universalner"})


@pytest.mark.parametrize("family", [nerspan, faireval, hardeval, attribute_buckets,
                                    tough_mentions], ids=lambda m: m.__name__)
@pytest.mark.parametrize("option", [{"script": "universalner"}, {"word_overlap": True}])
def test_string_matching_s_options_are_refused_where_nothing_reads_them(family, option):
    """``script`` and ``word_overlap`` are read by string matching alone: with tags or
    grounded output every family refuses them (they were ignored, silently, by the
    families), as nerspan.score does."""
    train = {} if family is nerspan else {"train": nerspan.as_train_index((TOKENS, GOLD))}
    for predictions in (GOLD, [[["Ada Lovelace", "PER"]], []]):
        with pytest.raises(ValueError, match='apply to matching="strings" only'):
            family.score(GOLD, predictions, tokens=TOKENS, inputs=option, **train)


def test_grounding_options_reach_every_family():
    generated = [[["Washington", "PER"], ["Washington", "LOC"]]]
    tokens = [["Washington", "was", "born", "in", "Washington"]]
    gold = [["B-PER", "O", "O", "O", "B-LOC"]]
    ordered = nerspan.score(gold, generated, tokens=tokens, inputs={'occurrences': "ordered"})
    assert ordered.micro() == (1.0, 1.0, 1.0)
    fe = faireval.score(gold, generated, tokens=tokens, inputs={'occurrences': "ordered"})
    assert fe.to_dict()["traditional_counts"] == {"TP": 2, "FP": 0, "FN": 0}
    fuzzy = nerspan.score([["B-PER", "I-PER", "O"]], [[["Ada Lovelase", "PER"]]],
                          tokens=[["Ada", "Lovelace", "wrote"]], inputs={'fuzzy': 0.8})
    assert fuzzy.micro() == (1.0, 1.0, 1.0)
    assert fuzzy.to_dict()["repairs"]["pred"]["generative"]["levels"]["fuzzy"] == 1


# -- properties ----------------------------------------------------------------------------
@st.composite
def sentences_with_mentions(draw):
    """Sentences of distinct words (every mention's text is unambiguous), with gold
    mentions that do not overlap."""
    out = []
    words = iter(f"w{k}" for k in range(10_000))
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 8))
        tokens = [next(words) for _ in range(n)]
        spans, at = [], 0
        while at < n:
            if draw(st.booleans()):
                length = draw(st.integers(1, min(3, n - at)))
                spans.append((at, at + length, draw(st.sampled_from(["PER", "LOC", "ORG"]))))
                at += length
            else:
                at += 1
        out.append((tokens, spans))
    return out


def entity_lists(sentences) -> list:
    return [[{"text": " ".join(tokens[a:b]), "type": t} for a, b, t in spans]
            for tokens, spans in sentences]


@settings(max_examples=15, deadline=None)
@given(sentences_with_mentions())
def test_gold_texts_as_entity_lists_score_perfectly_in_every_family(sentences):
    tokens = [t for t, _ in sentences]
    gold = tags_of([s for _, s in sentences], map(len, tokens))
    generated = entity_lists(sentences)
    train = dict(train=(tokens, gold))
    for family, (score, extra) in FAMILIES.items():
        options = train if extra else {}
        got = score(gold, generated, tokens=tokens, **options).to_dict()
        want = score(gold, gold, tokens=tokens, **options).to_dict()
        assert without_repairs(got) == without_repairs(want), family
        n_mentions = sum(len(s) for _, s in sentences)
        if n_mentions:  # empty lists only are no generated output, but span lists
            record = got["repairs"]["pred"]["generative"]
            assert record["usable"] == record["entities"] == n_mentions
    d = nerspan.score(gold, generated, tokens=tokens).to_dict()
    if d["gold"]:
        assert (d["precision"], d["recall"], d["f1"]) == (1.0, 1.0, 1.0)


@settings(max_examples=15, deadline=None)
@given(sentences_with_mentions(), st.randoms(use_true_random=False))
def test_shuffling_the_list_changes_nothing_under_all_occurrences(sentences, rng):
    tokens = [t for t, _ in sentences]
    gold = tags_of([s for _, s in sentences], map(len, tokens))
    # the gold texts, with a type changed, a text found nowhere, a repeat and a longer
    # overlapping span: what grounding has to decide
    lists = []
    for (words, spans), entities in zip(sentences, entity_lists(sentences)):
        entities = entities + [{"text": "nowhere", "type": "LOC"},
                               {"text": words[0], "type": "ORG"},
                               {"text": " ".join(words[:2]), "type": "PER"}]
        entities += entities[:1]
        lists.append(entities)
    shuffled = [rng.sample(entities, len(entities)) for entities in lists]
    for family, (score, extra) in FAMILIES.items():
        options = dict(train=(tokens, gold)) if extra else {}
        a = score(gold, lists, tokens=tokens, **options).to_dict()
        b = score(gold, shuffled, tokens=tokens, **options).to_dict()
        ra, rb = (d["repairs"]["pred"]["generative"] for d in (a, b))
        assert without_repairs(a) == without_repairs(b), family
        counts = ("entities", "usable", "spans", "duplicates", "ungrounded",
                  "dropped_overlaps", "levels")
        assert {k: ra[k] for k in counts} == {k: rb[k] for k in counts}, family


def test_every_form_of_one_answer_scores_alike():
    forms = [
        [[{"text": "Ada Lovelace", "type": "PER"}, {"text": "Paris", "type": "LOC"}]],
        [[["Ada Lovelace", "PER"], ["Paris", "LOC"]]],
        [{"PER": ["Ada Lovelace"], "LOC": ["Paris"]}],
        ["<PER>Ada Lovelace</PER> visited <LOC>Paris</LOC> ."],
        ['Found: ```json\n' + json.dumps({"PER": ["Ada Lovelace"], "LOC": ["Paris"]}) + "\n```"],
    ]
    results = [nerspan.score(GOLD[:1], form, tokens=TOKENS[:1]).to_dict() for form in forms]
    assert all(without_repairs(r) == without_repairs(results[0]) for r in results)
    assert results[0]["f1"] == 1.0



# -- the evaluate modules: generated output is a feature of the predictions -------------------
MODULES = {"tough_mentions": TRAIN, "hardeval": TRAIN, "attribute_buckets": TRAIN,
           "faireval": {}}
RESPONSES = ['Sure:\n```json\n[{"text": "Ada Lovelace", "type": "PER"}, '
             '{"text": "Atlantis", "type": "LOC"}]\n```', "<PER>Paris Hilton</PER> is here"]
AS_DICTS = [[{"text": "Ada Lovelace", "type": "PER"}, {"text": "Atlantis", "type": "LOC"}],
            [{"text": "Paris Hilton", "type": "PER"}]]


@pytest.mark.parametrize("module", MODULES)
def test_every_module_takes_generated_output_as_the_api_does(module):
    evaluate = pytest.importorskip("evaluate")
    family = {"tough_mentions": tough_mentions, "hardeval": hardeval,
              "attribute_buckets": attribute_buckets, "faireval": faireval}[module]
    train = MODULES[module]
    api = family.score(GOLD, RESPONSES, tokens=TOKENS, **train).to_dict()
    metric = evaluate.load(str(REPO / "metrics" / module), **train,
                           **({"tokens": TOKENS} if module == "faireval" else {}))
    for predictions in (RESPONSES, AS_DICTS):
        kwargs = {} if module == "faireval" else {"tokens": TOKENS}
        got = metric.compute(predictions=predictions, references=GOLD, **kwargs)
        assert without_repairs(got) == without_repairs(api)
        assert got["repairs"]["pred"]["generative"]["ungrounded"] == 1
    if module != "faireval":  # tokens travel with each batch
        metric.add_batch(predictions=RESPONSES[:1], references=GOLD[:1], tokens=TOKENS[:1])
        metric.add_batch(predictions=RESPONSES[1:], references=GOLD[1:], tokens=TOKENS[1:])
        assert without_repairs(metric.compute()) == without_repairs(api)
    # a grounding option at load time reaches the grounding: fuzzy finds a misspelling
    fuzzy = evaluate.load(str(REPO / "metrics" / module), fuzzy=0.8, **train,
                          **({"tokens": TOKENS} if module == "faireval" else {}))
    kwargs = {} if module == "faireval" else {"tokens": TOKENS}
    got = fuzzy.compute(predictions=['[["Ada Lovelase", "PER"]]', "[]"], references=GOLD,
                        **kwargs)
    assert got["repairs"]["pred"]["generative"]["levels"]["fuzzy"] == 1


def test_faireval_keeps_overlapping_spans_when_asked():
    tokens = [["Paris", "Hilton", "left", "Paris", "."]]
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O"]]
    generated = [[["Paris", "LOC"], ["Paris Hilton", "PER"], ["Oz", "LOC"]]]
    dropped = faireval.score(gold, generated, tokens=tokens).to_dict()
    kept = faireval.score(gold, generated, tokens=tokens, inputs={'overlaps': "keep"}).to_dict()
    # by hand: Paris Hilton and the second Paris are right; Oz is found nowhere; kept, the
    # first Paris (inside Paris Hilton, whose gold span is taken) is one more FP
    assert dropped["traditional_counts"] == {"TP": 2, "FP": 1, "FN": 0}
    assert kept["traditional_counts"] == {"TP": 2, "FP": 2, "FN": 0}
    assert dropped["repairs"]["pred"]["generative"]["dropped_overlaps"] == 1
    assert kept["repairs"]["pred"]["generative"]["dropped_overlaps"] == 0
    with pytest.raises(InputTypeError, match='overlaps="keep" keeps nested and overlapping '
                                             'spans, which only faireval scores'):
        nerspan.score(gold, generated, tokens=tokens, inputs={'overlaps': "keep"})
