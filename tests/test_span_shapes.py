"""Span lists that nest, overlap or repeat a mention: entity scores on the table.

The oracle is a set-based scorer written here: a mention is (sentence, type, start,
end); a side's mentions are a set (a mention given twice counts once); correct = gold
and predictions in common.
"""
from __future__ import annotations

import json
from contextlib import nullcontext
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import hardeval
import nerlens
import nerspan
from nerlens.cli import main
from nerspan import Evaluation
from nerspan.confusion import OUTSIDE
from nerspan.partials import partial
from nerspan.reading.span_lists import from_spans, read_spans
from nerspan.scored import scored_spans
from nerspan.span_table import SpanShapeError

TYPES = ["PER", "LOC", "ORG"]
LENGTH = 6


def span():
    return st.tuples(st.integers(0, LENGTH - 1), st.integers(1, LENGTH),
                     st.sampled_from(TYPES)).filter(lambda s: s[0] < s[1])


def sides(max_sentences: int = 4):
    sentence = st.lists(span(), max_size=6)
    return st.integers(1, max_sentences).flatmap(lambda n: st.tuples(
        st.lists(sentence, min_size=n, max_size=n), st.lists(sentence, min_size=n,
                                                              max_size=n)))


def tokens(n: int):
    return [[f"w{i}" for i in range(LENGTH)] for _ in range(n)]


def mention_set(side) -> set:
    return {(s, t, a, b) for s, spans in enumerate(side) for a, b, t in spans}


def brute_force(gold, pred) -> dict:
    """type -> (correct, predicted, gold), and the micro counts under None."""
    gold, pred = mention_set(gold), mention_set(pred)
    out = {}
    for label in {m[1] for m in gold | pred}:
        g = {m for m in gold if m[1] == label}
        p = {m for m in pred if m[1] == label}
        out[label] = (len(g & p), len(p), len(g))
    out[None] = (len(gold & pred), len(pred), len(gold))
    return out


def ratios(correct, predicted, gold):
    p = correct / predicted if predicted else 0.0
    r = correct / gold if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


@settings(max_examples=80, deadline=None)
@given(sides())
def test_scores_on_nested_and_overlapping_spans_equal_the_set_scorer(case):
    gold, pred = case
    result = nerspan.score(gold, pred, tokens=tokens(len(gold))).to_dict(beta=2)
    expected = brute_force(gold, pred)
    assert (result["correct"], result["predicted"], result["gold"]) == expected[None]
    assert result["f1"] == pytest.approx(ratios(*expected[None])[2])
    for label, row in result["per_type"].items():
        c, p, g = expected[label]
        assert (row["precision"], row["recall"], row["f1"]) == pytest.approx(ratios(c, p, g))
    for key in ("precision", "recall", "f1", "f2", "macro_f1", "weighted_f1"):
        assert 0.0 <= result[key] <= 1.0
    if result["per_type"]:
        assert result["macro_f1"] == pytest.approx(
            np.mean([ratios(*expected[t])[2] for t in result["per_type"]]))
    repeated = sum(len(spans) - len(set(spans)) for spans in pred)
    assert result["repairs"]["pred"]["duplicates"] == repeated


@settings(max_examples=60, deadline=None)
@given(sides())
def test_gold_against_itself_is_perfect(case):
    gold, _ = case
    if not mention_set(gold):
        return
    result = nerspan.score(gold, gold, tokens=tokens(len(gold)))
    assert result.micro() == (1.0, 1.0, 1.0) and result.macro() == (1.0, 1.0, 1.0)


@settings(max_examples=60, deadline=None)
@given(sides())
def test_confusion_matrix_accounts_for_every_mention(case):
    """Each mention of either side in one place: its row (or column) sums to its
    mentions of the type less its boundary errors; the diagonal is the correct ones."""
    gold, pred = case
    evaluation = Evaluation.build(gold, pred, tokens=tokens(len(gold)))
    matrix = evaluation.confusion("pred")
    cells, boundary = matrix["confusion"], matrix["boundary_errors"]
    expected = brute_force(gold, pred)
    for label in set(expected) - {None}:
        correct, predicted, in_gold = expected[label]
        row = sum(cells.get(label, {}).values())
        column = sum(r.get(label, 0) for r in cells.values())
        assert row == in_gold - boundary["gold"].get(label, 0)
        assert column == predicted - boundary["predicted"].get(label, 0)
        assert cells.get(label, {}).get(label, 0) == correct
    assert OUTSIDE not in cells.get(OUTSIDE, {})


@settings(max_examples=40, deadline=None)
@given(sides(max_sentences=5), st.integers(1, 4))
def test_partials_of_shards_merge_to_the_whole(case, cut):
    gold, pred = case
    cut = min(cut, len(gold))
    whole = nerspan.score(gold, pred, tokens=tokens(len(gold))).to_dict()
    parts = [partial(gold[:cut], pred[:cut], tokens=tokens(cut))]
    if cut < len(gold):
        parts.append(partial(gold[cut:], pred[cut:], tokens=tokens(len(gold) - cut),
                             first_sentence=cut))
    merged = sum(parts).result().to_dict()
    for key in ("precision", "recall", "f1", "gold", "predicted", "correct", "per_type"):
        assert merged[key] == whole[key]
    assert merged["repairs"]["pred"]["duplicates"] == whole["repairs"]["pred"]["duplicates"]


@settings(max_examples=40, deadline=None)
@given(sides(max_sentences=5), st.lists(st.integers(0, 4), min_size=1, max_size=6))
def test_a_resample_of_sentences_carries_the_table(case, picks):
    """``Corpus.subset`` (the bootstrap's resample) keeps each sentence's mentions."""
    gold, pred = case
    picks = [p % len(gold) for p in picks]
    corpus = Evaluation.build(gold, pred, tokens=tokens(len(gold))).corpus
    resampled = Evaluation(corpus.subset(np.array(picks)))
    expected = brute_force([gold[p] for p in picks], [pred[p] for p in picks])[None]
    scores = resampled.entity_scores("pred")
    assert (scores.n_correct, scores.n_predicted, scores.n_gold) == expected


def test_multi_label_and_repeated_spans_in_the_confusion_matrix():
    gold = [[(1, 2, "PER"), (1, 2, "LOC"), (0, 3, "ORG")]]
    pred = [[(1, 2, "PER"), (1, 2, "ORG"), (1, 2, "ORG"), (0, 3, "ORG")]]
    matrix = Evaluation.build(gold, pred, tokens=tokens(1)).confusion("pred")
    assert matrix["confusion"] == {"LOC": {"ORG": 1}, "ORG": {"ORG": 1}, "PER": {"PER": 1}}
    assert nerspan.score(gold, pred).to_dict()["repairs"]["pred"]["duplicates"] == 1


NESTED = [[(0, 3, "ORG"), (1, 2, "PER")]]
FLAT_TAGS = [["B-ORG", "I-ORG", "I-ORG", "O", "O", "O"]]
@pytest.mark.parametrize("side", ["references", "predictions"])
def test_faireval_scores_nested_spans_against_tags_as_against_their_span_lists(side):
    """Nested spans on one side and tags on the other: the nested mentions as they are
    (an Evaluation too), the numbers of the same mentions as span lists on both sides."""
    flat_spans = [[(0, 3, "ORG")]]
    tagged = (NESTED, FLAT_TAGS) if side == "references" else (FLAT_TAGS, NESTED)
    listed = (NESTED, flat_spans) if side == "references" else (flat_spans, NESTED)
    expected = faireval.score(*listed, tokens=tokens(1)).to_dict()
    assert faireval.score(*tagged, tokens=tokens(1)).to_dict() == expected
    assert faireval.score(Evaluation(from_spans(*listed, tokens=tokens(1))),
                          "pred").to_dict() == expected


def test_faireval_scores_an_evaluation_s_discontinuous_spans_as_the_lists():
    split = {"label": "ORG", "fragments": [[0, 1], [2, 3]]}
    lists = ([[split]], [[("ORG", 0, 3)]])
    evaluation = Evaluation(from_spans(*lists, tokens=tokens(1)))
    got = faireval.score(evaluation, "pred").to_dict()
    assert got == faireval.score(*lists, tokens=tokens(1)).to_dict()
    assert got["counts"]["BE"] == 1   # its fragment set, not its bounds (a TP)


def test_flat_span_lists_still_become_tags():
    corpus = Evaluation.build([[(0, 2, "PER")]], [[(0, 1, "PER"), (1, 2, "LOC")]]).corpus
    assert corpus.mentions("gold") is None and corpus.mentions("pred") is None
    assert corpus.tags("pred", 0) == ["B-PER", "B-LOC"]


def test_type_counts_are_the_table_counts():
    gold = [[(0, 3, "ORG"), (1, 2, "PER"), (1, 2, "PER")], [(0, 1, "LOC")]]
    result = nerspan.score(gold, [[], []], tokens=tokens(2))
    assert Counter({t: row["support"] for t, row in result.to_dict()["per_type"].items()}) \
        == Counter({"ORG": 1, "PER": 1, "LOC": 1})


# -- discontinuous and multi-label mentions ---------------------------------------------
def fragment_mention():
    fragment = st.tuples(st.integers(0, LENGTH - 1), st.integers(1, 3)).map(
        lambda f: [f[0], min(LENGTH, f[0] + f[1])])
    return st.one_of(
        st.fixed_dictionaries({"label": st.sampled_from(TYPES),
                               "fragments": st.lists(fragment, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"labels": st.lists(st.sampled_from(TYPES), min_size=1,
                                                  max_size=2),
                               "fragments": st.lists(fragment, min_size=1, max_size=3)}),
        span().map(lambda s: {"label": s[2], "start": s[0], "end": s[1]}))


def fragment_sides():
    sentence = st.lists(fragment_mention(), max_size=5)
    return st.integers(1, 4).flatmap(lambda n: st.tuples(
        st.lists(sentence, min_size=n, max_size=n), st.lists(sentence, min_size=n,
                                                              max_size=n)))


def token_sets(side) -> set:
    """The oracle's mentions: (sentence, type, the set of tokens covered), as Dai et al.
    (2020) identify a discontinuous mention: its type and every fragment boundary."""
    out = set()
    for s, mentions in enumerate(side):
        for m in mentions:
            pairs = m.get("fragments") or [[m["start"], m["end"]]]
            covered = frozenset(t for a, b in pairs for t in range(a, b))
            for label in m.get("labels") or [m["label"]]:
                out.add((s, label, covered))
    return out


@settings(max_examples=80, deadline=None)
@given(fragment_sides())
def test_discontinuous_scores_equal_exact_match_on_the_fragment_set(case):
    gold, pred = case
    result = nerspan.score(gold, pred, tokens=tokens(len(gold))).to_dict()
    g, p = token_sets(gold), token_sets(pred)
    assert (result["correct"], result["predicted"], result["gold"]) == \
        (len(g & p), len(p), len(g))
    for label, row in result["per_type"].items():
        gt = {m for m in g if m[1] == label}
        pt = {m for m in p if m[1] == label}
        assert (row["correct"], row["predicted"], row["support"]) == \
            (len(gt & pt), len(pt), len(gt))
        assert 0.0 <= row["f1"] <= 1.0


@settings(max_examples=60, deadline=None)
@given(fragment_sides(), st.randoms(use_true_random=False))
def test_fragments_in_any_order_against_themselves_are_perfect(case, random):
    gold, _ = case
    if not token_sets(gold):
        return
    shuffled = [[dict(m, fragments=random.sample(m["fragments"], len(m["fragments"])))
                 if "fragments" in m else m for m in random.sample(s, len(s))]
                for s in gold]
    result = nerspan.score(gold, shuffled, tokens=tokens(len(gold)))
    assert result.micro() == (1.0, 1.0, 1.0)
    matrix = Evaluation.build(gold, shuffled, tokens=tokens(len(gold))).confusion("pred")
    assert all(set(row) == {label} for label, row in matrix["confusion"].items())


def test_bigbio_offsets_are_characters_of_the_text():
    texts = ["left and right ventricle"]
    gold = [[{"type": "Anatomy", "offsets": [[0, 4], [15, 24]]},
             {"type": "Anatomy", "offsets": [[9, 24]]}]]
    pred = [[{"label": "Anatomy", "fragments": [[3, 4], [0, 1]]}]]
    result = nerspan.score(gold, pred, inputs={"texts": texts})
    assert result.micro() == (1.0, 0.5, pytest.approx(2 / 3))


def test_discontinuous_mentions_are_refused_where_tags_are_read():
    gold = [[{"label": "D", "fragments": [[0, 1], [3, 4]]}]]
    with pytest.raises(SpanShapeError, match=r"references, sentence 0: span 'D' of fragments "
                                             r"\[\[0, 1\], \[3, 4\]\] is discontinuous, "
                                             r"and layers of tags"):
        hardeval.score(gold, gold, tokens=tokens(1))


# -- the nesting-aware views --------------------------------------------------------------
def brute_inner(side) -> set:
    spans = mention_set(side)
    return {m for m in spans if any(o[0] == m[0] and o[2] <= m[2] and m[3] <= o[3]
                                    and (o[2], o[3]) != (m[2], m[3]) for o in spans)}


@settings(max_examples=60, deadline=None)
@given(sides())
def test_the_inner_view_scores_the_mentions_inside_another_of_their_side(case):
    gold, pred = case
    result = nerspan.score(gold, pred, tokens=tokens(len(gold))).to_dict()
    inner_gold, inner_pred = brute_inner(gold), brute_inner(pred)
    if not (inner_gold or inner_pred):
        assert "inner" not in result.get("shapes", {})
        return
    view = result["shapes"]["inner"]
    assert (view["gold"], view["predicted"]) == (len(inner_gold), len(inner_pred))
    assert view["found_gold"] == len(inner_gold & mention_set(pred))
    assert view["correct_predicted"] == len(inner_pred & mention_set(gold))
    assert 0.0 <= view["f1"] <= 1.0


def test_views_of_discontinuous_mentions_and_of_their_sentences():
    gold = [[(0, 3, "ORG"), (1, 2, "PER")], [(0, 1, "PER")],
            [{"label": "D", "fragments": [[0, 1], [2, 3]]}]]
    pred = [[(0, 3, "ORG"), (1, 2, "LOC")], [(0, 2, "PER")],
            [{"label": "D", "fragments": [[2, 3], [0, 1]]}]]
    shapes = nerspan.score(gold, pred).to_dict()["shapes"]
    assert shapes["discontinuous"]["f1"] == 1.0
    assert shapes["inner"]["gold"] == 1 and shapes["inner"]["found_gold"] == 0
    assert shapes["sentences"]["sentences"] == 2   # sentence 1 holds no shape
    assert (shapes["sentences"]["gold"], shapes["sentences"]["found_gold"]) == (3, 2)
    assert "shapes" not in nerspan.score([["B-PER", "O"]], [["B-PER", "O"]]).to_dict()


def test_readers_of_one_span_per_mention_refuse_fragments_and_several_labels():
    discontinuous = [[{"label": "D", "fragments": [[0, 1], [3, 4]]}]]
    # faireval scores fragment sets (tests/test_faireval_fragments.py)
    assert faireval.score(discontinuous, [[(0, 1, "D")]]).counts["BE"] == 1
    with pytest.raises(SpanShapeError, match="is discontinuous, and a dial over scored"):
        scored_spans([[{"label": "D", "fragments": [[0, 1], [3, 4]], "score": 0.5}]])
    with pytest.raises(nerspan.NerspanError, match=r"a span with several labels \('labels'\) "
                                                   r"has one score"):
        scored_spans([[{"labels": ["A", "B"], "start": 0, "end": 1, "score": 0.5}]])


def test_predictions_scored_against_an_evaluation_of_nested_gold():
    evaluation = Evaluation.build(NESTED, tokens=tokens(1))
    expected = brute_force(NESTED, [[(0, 3, "ORG")]])[None]
    for predictions in ([[(0, 3, "ORG")]], FLAT_TAGS):
        scores = nerspan.score(evaluation, predictions)
        assert (scores.n_correct, scores.n_predicted, scores.n_gold) == expected


def test_the_report_scores_nested_gold_and_names_what_it_leaves_out():
    """Span-list gold that nests: every mention counted (the nested view, the headline),
    the families that take it run, each one that refuses is named with its reason."""
    report = nerlens.build_report(NESTED, {"system": [[(0, 3, "ORG")]]}, tokens=tokens(1),
                                  train=(tokens(1), FLAT_TAGS), bootstrap=0, figures=False)
    assert report.nesting["system"]["gold"] == 2
    assert report.results["system"]["entity"]["gold"] == 2
    assert report.nesting["system"]["recall"] == 0.5
    skipped = report.info["nesting"]["skipped"]
    assert set(report.info["families"]) | set(skipped) >= {
        "tough_mentions", "hardeval", "faireval", "attribute_buckets"}
    assert all(why for why in skipped.values())


def test_the_report_scores_every_family_on_nested_gold_and_nested_predictions():
    """Span-list gold and a system that both nest: every family runs (hardeval per
    layer, the system's layer k against gold's layer k, as ``hardeval.score`` pairs
    them), with the numbers of each family's ``score``, and the error examples show the
    nesting system's mentions (no tags hold them)."""
    nested_pred = [[(0, 2, "ORG"), (1, 2, "LOC")]]
    systems = {"nested": nested_pred, "flat": [[(0, 3, "ORG")]]}
    report = nerlens.build_report(NESTED, systems, tokens=tokens(1),
                                  train=(tokens(1), FLAT_TAGS), bootstrap=0, figures=False)
    assert set(report.info["families"]) == {"tough_mentions", "hardeval", "faireval",
                                            "attribute_buckets"}
    for name, pred in systems.items():
        alone = faireval.score(NESTED, pred, tokens=tokens(1),
                               options={"schemas": "semeval", "return_pairs": True})
        assert report.results[name]["faireval"]["f1"] == alone.to_dict()["f1"]
        assert report.results[name]["faireval"]["counts"] == alone.to_dict()["counts"]
        layers = hardeval.score(NESTED, pred, tokens=tokens(1),
                                train=(tokens(1), FLAT_TAGS)).to_dict()["layers"]
        assert {k: v["ter"] for k, v in report.results[name]["hardeval"]["layers"].items()} \
            == {k: v["ter"] for k, v in layers.items()}
    nested = report.examples["nested"]
    # gold layer 2 is PER (1, 2); the nesting system's layer 2 is LOC (1, 2)
    assert [(r["layer"], r["gold_tag"], r["predicted_tag"]) for r in nested["diff_token"]] \
        == [(2, "B-PER", "B-LOC")]
    assert nested["missed_unseen"][0]["predicted_mentions"] == [["ORG", 0, 2], ["LOC", 1, 2]]
    assert "system mentions ORG 0-2, LOC 1-2" in report.to_html()


def test_the_command_line_scores_nested_span_files_as_the_api_does(tmp_path, capsys):
    """``nerlens score --jsonl`` on span files whose mentions nest: the evaluation's
    entity scores (no token accuracy: tags cannot hold them), the API's numbers."""
    tokens = [["Bank", "of", "Rome", "fell"], ["Ada", "ran"]]
    gold = [[{"label": "ORG", "start": 0, "end": 3}, {"label": "LOC", "start": 2, "end": 3}],
            [{"label": "PER", "start": 0, "end": 1}]]
    pred = [[{"label": "ORG", "start": 0, "end": 3}], [{"label": "PER", "start": 0, "end": 2}]]
    paths = []
    for name, side in (("gold", gold), ("pred", pred)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps({"tokens": t, "spans": s}) + "\n"
                                for t, s in zip(tokens, side)), encoding="utf-8")
        paths.append(str(path))
    assert main(["score", "--jsonl", *paths, "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = nerspan.score(gold, pred, tokens=tokens).to_dict()
    for key in ("gold", "predicted", "correct", "precision", "recall", "f1", "per_type",
                "shapes"):
        assert cli[key] == api[key]
    assert (cli["gold"], cli["correct"]) == (3, 1) and "accuracy" not in cli
    assert main(["score", "--jsonl", *paths]) == 0
    assert capsys.readouterr().out.startswith("3 phrases; found: 2 phrases; correct: 1.")


def _read_by_hand(side) -> list:
    """The mentions of span dicts in list order, one per label: (sentence, label, its
    fragments as the runs of the tokens they cover)."""
    out = []
    for s, mentions in enumerate(side):
        for m in mentions:
            pairs = m.get("fragments") or [[m["start"], m["end"]]]
            runs = []
            for t in sorted({t for a, b in pairs for t in range(a, b)}):
                if runs and runs[-1][1] == t:
                    runs[-1][1] = t + 1
                else:
                    runs.append([t, t + 1])
            out += [(s, label, runs) for label in dict.fromkeys(m.get("labels") or [m["label"]])]
    return out


@settings(max_examples=40, deadline=None)
@given(fragment_sides(), st.lists(st.integers(0, 4), min_size=1, max_size=6))
def test_spans_read_tell_shapes_and_take_sentences(case, picks):
    """The spans read (``read_spans``) and a corpus's table (``Spans``, flat positions)
    hold the mentions read by hand, in list order; they tell which tags cannot hold (a
    mention of several fragments, two whose bounds share a token), the error naming the
    first; and the mentions of a resample are those of the corpus of its sentences."""
    gold, _ = case
    corpus = from_spans(gold, tokens=tokens(len(gold)))
    expected = _read_by_hand(gold)
    for spans in (read_spans(gold, "references")[0], corpus.span_table("gold")):
        assert [(int(s), spans.types[t], spans.fragments_of(k)) for k, (s, t) in
                enumerate(zip(spans.sentence, spans.type))] == expected
    spans = corpus.span_table("gold")
    bounds = [(s, runs[0][0], runs[-1][1]) for s, _, runs in expected]
    overlapping = [(j, k) for k in range(len(bounds)) for j in range(k)
                   if bounds[j][0] == bounds[k][0] and bounds[j][1] < bounds[k][2]
                   and bounds[k][1] < bounds[j][2]]
    split = [k for k, (_, _, runs) in enumerate(expected) if len(runs) > 1]
    assert spans.needs_table() == bool(overlapping or split)
    pair = spans.first_overlap()
    assert (pair is None) == (not overlapping)
    assert pair is None or tuple(sorted(pair)) in overlapping
    if spans.needs_table():
        error = spans.shape_error("references")
        assert error.sentence == bounds[pair[0] if pair else split[0]][0]
    with pytest.raises(SpanShapeError, match="x cannot") if split else nullcontext():
        spans.check_contiguous("references", "x cannot")
    picks = np.array([p % len(gold) for p in picks])
    taken = spans.at(picks)
    resampled = from_spans([gold[p] for p in picks], tokens=tokens(len(picks)))
    expected = resampled.span_table("gold")
    assert taken.offsets.tolist() == resampled.offsets.tolist()
    for field in ("start", "end"):
        assert getattr(taken, field).tolist() == getattr(expected, field).tolist()
    assert [taken.types[t] for t in taken.type] == [expected.types[t] for t in expected.type]
    assert [x.tolist() for x in taken.fragment_table] == \
        [x.tolist() for x in expected.fragment_table]
