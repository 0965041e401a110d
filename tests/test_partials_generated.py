"""Partials of generated output (METHODS.md §6 and §7, issue 39): an LLM's entity lists
grounded in the sentences, scored shard by shard and merged, equal one pass exactly in
nerspan and in every family; so does ``matching="strings"`` (nerspan only).

For random corpora (gold tags, words from a small vocabulary; entity lists whose texts
are in their sentence, in another case, nowhere, listed twice, of a type in another
case or of no gold type, and responses that cannot be read) and random partitions
(empty and one-sentence shards included), the merged ``to_dict()`` equals one pass's.
The grounding record's listings are exercised bounded (``MAX_LISTED`` made small): the
merged record lists the first entities by global sentence id, whatever the cut. An
input error inside a shard names the sentence by its global id.
"""
from __future__ import annotations

import pickle
from unittest import mock

import pytest
from hypothesis import given, strategies as st

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerspan.errors import NerspanError
from nerspan.generative import repairs as generative_repairs
from nerspan.partials import GENERATED_NEEDS_TYPES
from tests.test_partials import (EXAMPLES, assert_same_statistics, merged_in, one_pass,
                                 placed, shards, taken)

TAGS = ("O", "O", "B-PER", "I-PER", "B-LOC", "B-ORG", "I-ORG")
WORDS = ("Ana", "Lima", "Kim", "UK", "in", "the")
TYPES = ("PER", "LOC", "ORG")  # the whole's gold types, as a worker is told them
# what a model writes as a type: gold's, in another case, or none of gold's
MODEL_TYPES = ("PER", "LOC", "ORG", "org", "Per", "MISC")
TRAIN = nerspan.as_train_index(([["Ana", "Lima", "in", "UK"], ["Kim", "the"]],
                                [["B-PER", "B-LOC", "O", "B-ORG"], ["B-PER", "O"]]))


@st.composite
def generated_corpora(draw, min_sentences=1, max_sentences=14):
    """``(gold, generated, tokens)``: gold tags over every type (so that one pass knows
    all of ``TYPES``), a model's output per sentence (one of them a list of entities:
    the whole is generated output, which a shard of empty lists alone is not)."""
    lengths = draw(st.lists(st.integers(0, 5), min_size=min_sentences,
                            max_size=max_sentences))
    tokens = [draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
              for n in lengths]
    gold = [draw(st.lists(st.sampled_from(TAGS), min_size=n, max_size=n)) for n in lengths]
    tokens.append(["Ana", "Lima", "UK"])      # every gold type, in one sentence
    gold.append(["B-PER", "B-LOC", "B-ORG"])
    generated = [draw(responses(words)) for words in tokens]
    # an entity at least: one pass reads a whole of empty lists as span lists
    generated[-1] = [{"text": "Ana", "type": "PER"}, {"text": "Oz", "type": "LOC"}]
    order = draw(st.permutations(range(len(gold))))
    return ([gold[i] for i in order], [generated[i] for i in order],
            [tokens[i] for i in order])


@st.composite
def responses(draw, words):
    """One sentence's output: an entity list (texts of the sentence, lowercased, or
    found nowhere; repeated), or, rarely, text that is no entity list."""
    if draw(st.integers(0, 9)) == 0:
        return "I could not find any entities."
    texts = st.one_of(st.sampled_from(words or ["Oz"]),
                      st.sampled_from(words or ["Oz"]).map(str.lower),
                      st.sampled_from(["Oz", "Atlantis"]))
    if len(words) > 1:
        texts = st.one_of(texts, st.just(" ".join(words[:2])))
    return draw(st.lists(st.fixed_dictionaries({"text": texts,
                                                "type": st.sampled_from(MODEL_TYPES)}),
                         max_size=4))


FAMILIES = {
    "nerspan": (nerspan.score, nerspan.partial, {}),
    "tough_mentions": (tough_mentions.score, tough_mentions.partial, {"train": TRAIN}),
    "hardeval": (hardeval.score, hardeval.partial, {"train": TRAIN}),
    "faireval": (faireval.score, faireval.partial, {}),
    "attribute_buckets": (attribute_buckets.score, attribute_buckets.partial,
                          {"train": TRAIN, "attributes": ["eLen", "tFre"]}),
}


def assert_partials_merge(data, corpus, family: str, **options) -> None:
    score, partial, fixed = FAMILIES[family]
    gold, generated, tokens = corpus
    whole = one_pass(score, gold, generated, tokens=tokens, **fixed, **options)
    cut = data.draw(shards(len(gold)))
    parts = [one_pass(partial, taken(gold, ids), taken(generated, ids),
                      tokens=taken(tokens, ids), types=TYPES, **fixed, **options,
                      **placed(ids)) for ids in cut]
    order = data.draw(st.permutations(range(len(parts))))
    for merged in merged_in(order, parts):
        assert merged.result().to_dict() == whole.to_dict()


@EXAMPLES
@given(data=st.data(), corpus=generated_corpora(), family=st.sampled_from(sorted(FAMILIES)),
       listed=st.sampled_from([2, 1000]))
def test_partials_of_generated_output_merge_to_one_pass(data, corpus, family, listed):
    with mock.patch.object(generative_repairs, "MAX_LISTED", listed):
        assert_partials_merge(data, corpus, family)


@EXAMPLES
@given(data=st.data(), corpus=generated_corpora())
def test_tough_mentions_per_sentence_partials_of_generated_output_give_one_passs_statistics(
        data, corpus):
    """Entities that found no span are predictions of their sentence in the merged
    per-sentence counts as in one pass's (the precision statistic's estimate is the
    reported precision)."""
    gold, generated, tokens = corpus
    whole = one_pass(tough_mentions.score, gold, generated, tokens=tokens, train=TRAIN)
    parts = [one_pass(tough_mentions.partial, taken(gold, ids), taken(generated, ids),
                      tokens=taken(tokens, ids), types=TYPES, train=TRAIN,
                      per_sentence=True, **placed(ids))
             for ids in data.draw(shards(len(gold)))]
    for merged in merged_in(data.draw(st.permutations(range(len(parts)))), parts):
        assert_same_statistics(merged.result(), whole)
    precision = whole.statistics()[0]
    assert precision.estimate() == whole.to_dict()["precision"]


@EXAMPLES
@given(data=st.data(), corpus=generated_corpora(),
       options=st.sampled_from([{"mode": "strict"}, {"zero_division": 1},
                                {"inputs": {"occurrences": "ordered"}},
                                {"inputs": {"fuzzy": 0.8}}]))
def test_entity_partials_of_generated_output_merge_for_every_option(data, corpus, options):
    assert_partials_merge(data, corpus, "nerspan", **options)


@EXAMPLES
@given(data=st.data(), corpus=generated_corpora(),
       inputs=st.sampled_from([{}, {"script": "universalner"}, {"word_overlap": True}]))
def test_string_matching_partials_merge_to_one_pass(data, corpus, inputs):
    with mock.patch.object(generative_repairs, "MAX_LISTED", 2):
        assert_partials_merge(data, corpus, "nerspan",
                              inputs={"matching": "strings", **inputs})


def test_the_merged_record_lists_the_first_entities_by_global_sentence_id():
    gold = [["B-PER"], ["B-PER"], ["B-PER"]]
    tokens = [["Ana"], ["Kim"], ["Lima"]]
    generated = [[{"text": "Oz", "type": "PER"}], [{"text": "Atlantis", "type": "PER"}],
                 [{"text": "Elbonia", "type": "PER"}]]
    with mock.patch.object(generative_repairs, "MAX_LISTED", 2):
        late = nerspan.partial(gold[2:], generated[2:], tokens=tokens[2:], types=TYPES,
                               first_sentence=2)
        early = nerspan.partial(gold[:2], generated[:2], tokens=tokens[:2], types=TYPES)
        record = (late + early).result().to_dict()["repairs"]["pred"]["generative"]
    assert record["ungrounded"] == 3 and record["ungrounded_by_type"] == {"PER": 3}
    assert [(item["sentence"], item["text"]) for item in record["listed"]["ungrounded"]] \
        == [(0, "Oz"), (1, "Atlantis")]


def test_a_partial_of_generated_output_is_small_and_pickles():
    gold, tokens = [["B-PER", "O"]] * 3000, [["Ana", "ran"]] * 3000
    generated = [[{"text": "Oz", "type": "PER"}]] * 3000
    part = nerspan.partial(gold, generated, tokens=tokens, types=TYPES)
    record = part.pred_repairs.generated
    assert len(record.ungrounded) == generative_repairs.MAX_LISTED
    assert record.count("ungrounded") == 3000
    assert pickle.loads(pickle.dumps(part)) == part


def test_generated_output_needs_the_wholes_gold_types():
    with pytest.raises(ValueError, match="needs types="):
        nerspan.partial([["B-PER", "O"]], [[{"text": "Ana", "type": "PER"}]],
                        tokens=[["Ana", "ran"]])
    assert "the whole's gold" in GENERATED_NEEDS_TYPES
    with pytest.raises(TypeError, match="types"):
        nerspan.partial([["B-PER", "O"]], [[{"text": "Ana", "type": "PER"}]],
                        tokens=[["Ana", "ran"]], types="PER")



@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("generated", [
    [[{"text": "Ana", "type": "PER"}], []],
    ['[{"text": "Ana", "type": "PER"}]', "None"],
    [[["Ana", "PER"]], []]])
def test_every_family_refuses_generated_output_without_types(family, generated):
    # without types the reader alone detects generated output (once per shard): output
    # it read as generated, or failed to read, is refused as before reading
    _, partial, fixed = FAMILIES[family]
    gold = [["B-PER", "O"], ["O"]]
    for tokens in ([["Ana", "ran"], ["in"]], [["Ana", "ran"], ["in", "UK"]]):
        with pytest.raises(ValueError, match="generated output in a partial needs types="):
            partial(gold, generated, tokens=tokens, **fixed)

def test_a_shard_matches_type_names_to_the_wholes_types_not_its_own():
    # the shard's gold has no ORG: "org" is still gold's ORG, as in one pass
    gold, tokens = [["B-ORG"], ["B-PER"]], [["UK"], ["Ana"]]
    generated = [[{"text": "UK", "type": "org"}], [{"text": "Ana", "type": "org"}]]
    whole = nerspan.score(gold, generated, tokens=tokens).to_dict()
    parts = [nerspan.partial(gold[i:i + 1], generated[i:i + 1], tokens=tokens[i:i + 1],
                             types=["ORG", "PER"], first_sentence=i) for i in range(2)]
    assert (parts[0] + parts[1]).result().to_dict() == whole


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_bad_input_in_a_shard_of_generated_output_names_the_global_sentence(family):
    _, partial, fixed = FAMILIES[family]
    gold = [["B-PER", "O"], ["B-PER", "O"]]
    tokens = [["Ana", "ran"], ["Kim"]]   # sentence 1: one word for two tags
    generated = [[{"text": "Ana", "type": "PER"}], [{"text": "Kim", "type": "PER"}]]
    with pytest.raises(NerspanError) as error:
        one_pass(partial, gold, generated, tokens=tokens, types=TYPES, **fixed,
                 first_sentence=7)
    assert error.value.sentence == 8
    assert "sentence 8" in str(error.value)
