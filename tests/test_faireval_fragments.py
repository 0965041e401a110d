"""faireval and the SemEval schemas over fragment sets (issue 41).

A mention is its type and fragment set: equal sets are the same span, covered token sets
that intersect overlap. Checked against a plain oracle over token sets, against the flat
spans of before (a contiguous mention given as one fragment changes nothing), against
nerspan's reading of repeated mentions, and through partials that merge.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import nerspan
from nerspan.span_table import normal_fragments

N_TOKENS = 12
SCHEMAS = ["strict", "exact", "partial", "ent_type"]


@st.composite
def mention(draw):
    """A mention of one to three fragments (nested, overlapping or apart from others)."""
    fragments = draw(st.lists(st.tuples(st.integers(0, N_TOKENS - 1), st.integers(1, 3)),
                              min_size=1, max_size=3))
    fragments = normal_fragments([[a, min(a + n, N_TOKENS)] for a, n in fragments])
    return {"label": draw(st.sampled_from("AB")), "fragments": fragments}


sentence = st.lists(mention(), max_size=5)
corpus = st.lists(sentence, min_size=1, max_size=5)


def tokens(item) -> frozenset:
    return frozenset(t for a, b in item["fragments"] for t in range(a, b))


def key(item) -> tuple:
    return item["label"], tuple(map(tuple, item["fragments"]))


def distinct(sentence) -> list:
    return list({key(item): item for item in sentence}.values())


@settings(max_examples=100, deadline=None, database=None)
@given(corpus)
def test_gold_equal_to_predictions_is_perfect_in_every_schema(gold):
    if not any(gold):
        gold = [[{"label": "A", "fragments": [[0, 1], [3, 4]]}]]
    result = faireval.score(gold, gold, schemas=SCHEMAS)
    n = sum(len(distinct(s)) for s in gold)
    assert result.counts["TP"] == n and sum(result.counts.values()) == n
    assert result.to_dict()["f1"] == result.to_dict()["fair_f1"] == 1.0
    for name in SCHEMAS:
        row = result.semeval[name]
        assert (row["correct"], row["possible"], row["actual"], row["f1"]) == (n, n, n, 1.0)


@settings(max_examples=100, deadline=None, database=None)
@given(corpus, corpus)
def test_events_follow_token_sets(gold, pred):
    """Every event holds what the definition says of the tokens its two spans cover;
    every distinct mention takes part in an event; TP and LE are equal fragment sets."""
    pred = pred[:len(gold)] + [[] for _ in range(len(gold) - len(pred))]
    result = faireval.score(gold, pred, return_pairs=True)
    for sentence_gold, sentence_pred, events in zip(gold, pred, result.pairs):
        seen_t = sorted(span_key(e["target"]) for e in events if e["target"])
        seen_s = sorted(span_key(e["system"]) for e in events if e["system"])
        assert len(seen_t) >= len(distinct(sentence_gold))
        assert set(seen_t) == {key(item) for item in sentence_gold}
        assert set(seen_s) == {key(item) for item in sentence_pred}
        for event in events:
            check_event(event)


def span_key(span) -> tuple:
    fragments = span[3] if len(span) > 3 else ((span[1], span[2]),)
    return span[0], tuple(map(tuple, fragments))


def check_event(event) -> None:
    kind, t, s = event["type"], event["target"], event["system"]
    if t is None or s is None:
        return
    t_label, t_fragments = span_key(t)
    s_label, s_fragments = span_key(s)
    t_tokens = {i for a, b in t_fragments for i in range(a, b)}
    s_tokens = {i for a, b in s_fragments for i in range(a, b)}
    if kind in ("TP", "LE"):
        assert t_fragments == s_fragments and (t_label == s_label) == (kind == "TP")
        return
    assert t_tokens & s_tokens and t_fragments != s_fragments
    assert (t_label == s_label) == (kind != "LBE")
    if kind == "BEs":
        assert s_tokens <= t_tokens
    elif kind == "BEl":
        assert t_tokens <= s_tokens and not s_tokens <= t_tokens
    elif kind == "BEo":
        assert not s_tokens <= t_tokens and not t_tokens <= s_tokens


def as_fragments(sentences) -> list:
    return [[{"label": label, "fragments": [[start, end]]} for label, start, end in sentence]
            for sentence in sentences]


flat_span = st.tuples(st.sampled_from("AB"), st.integers(0, N_TOKENS - 1),
                      st.integers(1, 4)).map(lambda x: (x[0], x[1], min(x[1] + x[2], N_TOKENS)))
flat_corpus = st.lists(st.lists(flat_span, max_size=5), min_size=1, max_size=4)


@settings(max_examples=100, deadline=None, database=None)
@given(flat_corpus, flat_corpus, st.booleans())
def test_one_fragment_is_the_flat_span(gold, pred, reference_iteration):
    pred = pred[:len(gold)] + [[] for _ in range(len(gold) - len(pred))]
    options = dict(schemas=SCHEMAS, return_pairs=True, return_instances=True,
                   reference_iteration=reference_iteration)
    flat = faireval.score(gold, pred, **options).to_dict()
    assert faireval.score(as_fragments(gold), as_fragments(pred), **options).to_dict() == flat


def test_gaps_are_no_tokens_and_touching_fragments_join():
    gold = [[{"label": "D", "fragments": [[0, 1], [3, 4]]}]]
    apart = faireval.score(gold, [[("D", 1, 3)]])        # inside the bounds, in the gap
    assert {k: v for k, v in apart.counts.items() if v} == {"FN": 1, "FP": 1}
    joined = faireval.score([[{"label": "D", "fragments": [[0, 2], [2, 4]]}]], [[("D", 0, 4)]])
    assert {k: v for k, v in joined.counts.items() if v} == {"TP": 1}
    subtypes = faireval.score(gold, [[("D", 0, 1)], ], return_pairs=True)
    assert subtypes.pairs[0][0]["type"] == "BEs"        # {0} within {0, 3}
    larger = faireval.score(gold, [[("D", 0, 4)]], return_pairs=True)
    assert larger.pairs[0][0]["type"] == "BEl"          # {0, 1, 2, 3} holds {0, 3}


def test_semeval_overlap_counts_covered_tokens():
    gold = [[{"label": "D", "fragments": [[0, 2], [6, 8]]}]]
    # (2, 6) lies in the gap: no overlap, missed and spurious
    gap = faireval.score(gold, [[("D", 2, 6)]], schemas=SCHEMAS).semeval
    assert (gap["partial"]["missed"], gap["partial"]["spurious"]) == (1, 1)
    # (1, 7) covers tokens 1 and 6 of the gold's four: half with min_overlap 0.5
    half = faireval.score(gold, [[("D", 1, 7)]], schemas=SCHEMAS, min_overlap=0.5).semeval
    assert (half["partial"]["partial"], half["strict"]["incorrect"]) == (1, 1)
    more = faireval.score(gold, [[("D", 1, 7)]], schemas=SCHEMAS, min_overlap=0.51).semeval
    assert more["partial"]["missed"] == 1
    rows = faireval.score(gold, gold, schemas=["strict"], return_instances=True)
    assert rows.to_dict()["semeval_instances"]["strict"][0]["pred"]["fragments"] == \
        [[0, 2], [6, 8]]


def test_bigbio_offsets_in_characters():
    texts = ["left and right lungs"]
    gold = [[{"type": "ORGAN", "offsets": [[0, 4], [15, 20]]}]]
    # fragments count characters too with offsets="chars"; their order does not matter
    pred = [[{"label": "ORGAN", "fragments": [[15, 20], [0, 4]]},
             {"type": "ORGAN", "offsets": [[9, 20]]}]]
    result = faireval.score(gold, pred, inputs={"texts": texts, "offsets": "chars"},
                            return_pairs=True)
    assert {k: v for k, v in result.counts.items() if v} == {"TP": 1, "FP": 1}
    assert result.pairs[0][0]["target"] == ("ORGAN", 0, 4, ((0, 1), (3, 4)))


def test_punctuation_shrinks_every_fragment():
    pos = [["NN", "$,", "NN", "NN", "$.", "NN"]]
    gold = [[{"label": "D", "fragments": [[0, 2], [4, 6]]}]]
    pred = [[{"label": "D", "fragments": [[0, 1], [5, 6]]}]]
    assert faireval.score(gold, pred, pos=pos, ignore_punct=True).counts["TP"] == 1
    # a mention left with one fragment is contiguous; one left with none is gone
    alone = [[{"label": "D", "fragments": [[1, 2], [3, 4]]}]]
    assert faireval.score(alone, [[("D", 3, 4)]], pos=pos, ignore_punct=True).counts["TP"] == 1
    gone = [[{"label": "D", "fragments": [[1, 2], [4, 5]]}]]
    assert faireval.score(gone, [[("D", 3, 4)]], pos=pos,
                          ignore_punct=True).counts == faireval.score(
        [[]], [[("D", 3, 4)]]).counts


def test_a_repeated_mention_counts_once_as_nerspan_counts_it():
    gold = [[("PER", 0, 1), ("PER", 0, 1), ("LOC", 2, 3)]]
    pred = [[("PER", 0, 1), ("ORG", 4, 5)]]
    ours, theirs = faireval.score(gold, pred).to_dict(), nerspan.score(gold, pred).to_dict()
    assert ours["f1"] == theirs["f1"] == 0.5
    assert ours["repairs"] == theirs["repairs"]
    kept = faireval.score(gold, pred, options={"keep_duplicates": True}).to_dict()
    assert kept["f1"] == 0.4 and kept["repairs"]["gold"]["duplicates"] == 0
    fragments = [[{"label": "D", "fragments": [[0, 1], [2, 3]]},
                  {"label": "D", "fragments": [[2, 3], [0, 1]]}]]
    assert faireval.score(fragments, fragments).to_dict()["repairs"]["pred"]["duplicates"] == 1


@st.composite
def cut(draw, n: int):
    """A partition of ``range(n)`` into shards, empty ones included, in a random order."""
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=4)))
    bounds = [0, *cuts, n]
    shards = [(a, b) for a, b in zip(bounds[:-1], bounds[1:])]
    return draw(st.permutations(shards))


@settings(max_examples=40, deadline=None, database=None)
@given(st.data(), corpus, corpus)
def test_partials_of_fragments_merge_to_one_pass(data, gold, pred):
    pred = pred[:len(gold)] + [[] for _ in range(len(gold) - len(pred))]
    options = dict(schemas=SCHEMAS, return_pairs=True, return_instances=True,
                   per_sentence=True)
    merged = faireval.FairevalPartial()
    for a, b in data.draw(cut(len(gold))):
        merged = merged + faireval.partial(gold[a:b], pred[a:b], first_sentence=a, **options)
    options.pop("per_sentence")
    whole = faireval.score(gold, pred, **options)
    assert merged.result().to_dict() == whole.to_dict()
    assert merged.result().to_dict(beta=2) == whole.to_dict(beta=2)


def listed(spans, n_sentences: int) -> list:
    """An evaluation's mentions (``nerspan.Spans``) as span lists, in its order."""
    out = [[] for _ in range(n_sentences)]
    for k, (sentence, kind) in enumerate(zip(spans.sentence.tolist(), spans.type.tolist())):
        out[sentence].append({"label": spans.types[kind], "fragments": spans.fragments_of(k)})
    return out


@settings(max_examples=60, deadline=None, database=None)
@given(corpus, corpus)
def test_an_evaluation_scores_its_fragments_as_the_span_lists(gold, pred):
    """faireval on an ``Evaluation`` of span lists with discontinuous mentions scores
    their fragment sets: the numbers of ``faireval.score`` on the same mentions listed
    (in the order the evaluation keeps them: list order breaks the last ties)."""
    pred = pred[:len(gold)] + [[] for _ in range(len(gold) - len(pred))]
    words = [["w"] * N_TOKENS for _ in gold]
    evaluation = nerspan.Evaluation(nerspan.from_spans(gold, pred, tokens=words))
    given = (gold, pred)
    gold, pred = (listed(evaluation.spans(side), len(words)) for side in ("gold", "pred"))
    for side, kept in zip(given, (gold, pred)):   # the same mentions, each once
        assert [sorted(map(key, s)) for s in kept] == [sorted(set(map(key, s))) for s in side]
    options = {"schemas": SCHEMAS, "return_pairs": True}
    scored, expected = (result.to_dict() for result in (
        faireval.score(evaluation, "pred", **options),
        faireval.score(gold, pred, tokens=words, **options)))
    scored.pop("repairs", None)   # the evaluation counts the copies its lists held
    expected.pop("repairs", None)
    assert scored == expected
