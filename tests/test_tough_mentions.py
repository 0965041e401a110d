"""tough_mentions: hand-made cases for every subset, properties, statistics, input forms,
errors, and the ``nerlens tough-mentions`` command.

``naive_tmr`` below is an independent, deliberately plain reading of METHODS.md section 1
(dicts and sets over tag strings); the property tests and the real-data tests compare
the vectorised implementation with it.
"""
from __future__ import annotations

import json
import math
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerspan
import tough_mentions
from nerlens.cli import main
from nerspan import (Corpus, InvalidTagError, LabelIdError, LengthMismatchError,
                     SentenceCountError, TrainIndex, as_train_index)

SUBSETS = ("seen", "unseen_any", "unseen_tokens", "unseen_type", "tcm_all", "tcm_seen",
           "tcm_unseen")


# -- an independent reference implementation ---------------------------------------------
def naive_mentions(tag_lists) -> list[tuple]:
    """(sentence, start, end, type) of every mention of BIO tags, read as conlleval does:
    a mention starts at B-X, or at I-X unless the previous token continues a mention of X."""
    out = []
    for s, tags in enumerate(tag_lists):
        start, current = None, None
        for i, tag in enumerate(list(tags) + ["O"]):
            prefix, _, kind = tag.partition("-")
            if start is not None and not (prefix == "I" and kind == current):
                out.append((s, start, i, current))
                start, current = None, None
            if prefix in ("B", "I") and start is None:
                start, current = i, kind
    return out


def naive_train(train_tokens, train_tags, case_sensitive=True) -> tuple[set, set]:
    """The training mention texts and (text, type) pairs."""
    texts, pairs = set(), set()
    for s, a, b, t in naive_mentions(train_tags):
        text = " ".join(train_tokens[s][a:b])
        text = text if case_sensitive else text.lower()
        texts.add(text)
        pairs.add((text, t))
    return texts, pairs


def naive_tmr(train_tokens, train_tags, tokens, gold, pred, case_sensitive=True,
              train=None) -> dict:
    """Subset -> (count, hits), with "all"; straight from the definitions. ``train`` may
    hold ``naive_train``'s result to reuse it."""
    train_texts, train_pairs = train or naive_train(train_tokens, train_tags, case_sensitive)

    def text(words, start, end):
        joined = " ".join(words[start:end])
        return joined if case_sensitive else joined.lower()

    gold_mentions = naive_mentions(gold)
    predicted = set(naive_mentions(pred))
    types_of_text = defaultdict(set)
    for s, a, b, t in gold_mentions:
        types_of_text[text(tokens[s], a, b)].add(t)
    out = {name: [0, 0] for name in ("all",) + SUBSETS}
    for mention in gold_mentions:
        s, a, b, t = mention
        x = text(tokens[s], a, b)
        seen = (x, t) in train_pairs
        unseen_tokens = x not in train_texts
        tcm = len(types_of_text[x]) >= 2
        member = {"all": True, "seen": seen, "unseen_any": not seen,
                  "unseen_tokens": unseen_tokens, "unseen_type": not seen and not unseen_tokens,
                  "tcm_all": tcm, "tcm_seen": tcm and not unseen_tokens,
                  "tcm_unseen": tcm and unseen_tokens}
        for name, inside in member.items():
            if inside:
                out[name][0] += 1
                out[name][1] += mention in predicted
    return {name: tuple(v) for name, v in out.items()}


def check_against_naive(result: dict, naive: dict) -> None:
    for name, (count, hits) in naive.items():
        assert result["counts"][name] == count, name
        assert result["hits"][name] == hits, name
        if name != "all":
            expected = hits / count if count else None
            assert result[f"recall_{name}"] == expected, name


# -- the paper's example -----------------------------------------------------------------
PAPER_TRAIN_TOKENS = [["Newcastle", "is", "a", "city", "in", "the", "UK"]]
PAPER_TRAIN_TAGS = [["B-LOC", "O", "O", "O", "O", "O", "B-LOC"]]
PAPER_TOKENS = [["John", "Brown", ",", "the", "Newcastle", "star", "from", "the", "UK"]]
PAPER_GOLD = [["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "O", "B-LOC"]]


def test_paper_example_uk_seen_newcastle_unseen_type_john_brown_unseen_tokens():
    result = tough_mentions.score(PAPER_GOLD, PAPER_GOLD, tokens=PAPER_TOKENS,
                                  train=(PAPER_TRAIN_TOKENS, PAPER_TRAIN_TAGS),
                                  return_mentions=True)
    d = result.to_dict()
    texts = {name: [m["text"] for m in rows] for name, rows in d["mentions"].items()}
    assert texts["seen"] == ["UK"]
    assert texts["unseen_type"] == ["Newcastle"]
    assert texts["unseen_tokens"] == ["John Brown"]
    assert texts["unseen_any"] == ["John Brown", "Newcastle"]
    assert texts["tcm_all"] == [] and d["recall_tcm_all"] is None
    assert d["mentions"]["unseen_tokens"][0] == {"sentence": 0, "start": 0, "end": 2,
                                                 "type": "PER", "text": "John Brown",
                                                 "hit": True}
    assert (d["precision"], d["recall"], d["f1"]) == (1.0, 1.0, 1.0)
    assert d["per_type"]["ORG"]["counts"]["unseen_type"] == 1
    assert d["per_type"]["ORG"]["recall_seen"] is None


# -- every subset, by hand ---------------------------------------------------------------
# Training: Newcastle LOC, UK LOC, Kim PER, Paris LOC.
TRAIN_TOKENS = [["Newcastle", "is", "a", "city", "in", "the", "UK"],
                ["Kim", "lives", "in", "Paris"]]
TRAIN_TAGS = [["B-LOC", "O", "O", "O", "O", "O", "B-LOC"], ["B-PER", "O", "O", "B-LOC"]]
TOKENS = [["John", "Brown", ",", "the", "Newcastle", "star", "from", "the", "UK"],
          ["Jordan", "flew", "to", "Jordan", "with", "Kim"],
          ["Paris", "beat", "Newcastle", "in", "Paris"]]
GOLD = [["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "O", "B-LOC"],
        ["B-PER", "O", "O", "B-LOC", "O", "B-PER"],
        ["B-ORG", "O", "B-ORG", "O", "B-LOC"]]
PRED = [["B-PER", "I-PER", "O", "O", "B-LOC", "O", "O", "O", "B-LOC"],
        ["B-PER", "O", "O", "B-PER", "O", "B-PER"],
        ["B-LOC", "O", "B-ORG", "O", "B-LOC"]]


def every_subset():
    return tough_mentions.score(GOLD, PRED, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS), return_mentions=True)


def test_every_subset_by_hand():
    d = every_subset().to_dict()
    # Seen: UK, Kim, Paris(LOC) - all found. Unseen-Type: Newcastle(ORG) twice, Paris(ORG):
    # only the second Newcastle found. Unseen-Tokens: John Brown, Jordan(PER) found,
    # Jordan(LOC) missed. TCM: Jordan PER/LOC (unseen tokens), Paris ORG/LOC (TCM-Seen,
    # one Seen and one Unseen-Type); Newcastle is ORG twice in test: not confusable.
    assert d["counts"] == {"all": 9, "seen": 3, "unseen_any": 6, "unseen_tokens": 3,
                           "unseen_type": 3, "tcm_all": 4, "tcm_seen": 2, "tcm_unseen": 2}
    assert d["hits"] == {"all": 6, "seen": 3, "unseen_any": 3, "unseen_tokens": 2,
                         "unseen_type": 1, "tcm_all": 2, "tcm_seen": 1, "tcm_unseen": 1}
    assert d["recall_seen"] == 1.0
    assert d["recall_unseen_type"] == 1 / 3 and d["recall_unseen_tokens"] == 2 / 3
    assert d["recall_unseen_any"] == 0.5
    assert d["recall_tcm_all"] == d["recall_tcm_seen"] == d["recall_tcm_unseen"] == 0.5
    assert d["recall"] == d["precision"] == d["f1"] == 6 / 9
    tcm_texts = sorted((m["text"], m["type"]) for m in d["mentions"]["tcm_seen"])
    assert tcm_texts == [("Paris", "LOC"), ("Paris", "ORG")]
    assert [m["hit"] for m in d["mentions"]["tcm_unseen"]] == [True, False]
    check_against_naive(d, naive_tmr(TRAIN_TOKENS, TRAIN_TAGS, TOKENS, GOLD, PRED))


def test_per_type_and_composition():
    d = every_subset().to_dict()
    assert list(d["per_type"]) == ["LOC", "ORG", "PER"]
    org = d["per_type"]["ORG"]
    assert org["counts"]["all"] == 3 and org["counts"]["unseen_type"] == 3
    assert org["recall"] == 1 / 3 and org["recall_unseen_type"] == 1 / 3
    assert org["recall_seen"] is None and org["recall_unseen_tokens"] is None
    per = d["per_type"]["PER"]
    assert (per["counts"]["seen"], per["counts"]["unseen_tokens"]) == (1, 2)
    assert per["recall_tcm_unseen"] == 1.0
    assert d["per_type"]["LOC"]["recall_tcm_unseen"] == 0.0
    # composition: overall, each subset's share of all 9 gold mentions; per type, its
    # share of the gold mentions of that type (3 each here)
    assert d["composition"]["unseen_type"] == 3 / 9 and d["composition"]["all"] == 1.0
    assert d["per_type"]["ORG"]["composition"]["unseen_type"] == 1.0
    assert d["per_type"]["PER"]["composition"]["unseen_tokens"] == 2 / 3
    assert d["per_type"]["LOC"]["composition"]["unseen_type"] == 0.0
    for name in ("all",) + SUBSETS:
        assert d["composition"][name] == d["counts"][name] / 9
        for t, row in d["per_type"].items():
            assert row["composition"][name] == row["counts"][name] / row["counts"]["all"]


def test_composition_has_no_key_a_type_name_can_clash_with():
    # a type literally named "overall" (or "all") is just another per_type row
    gold = [["B-overall", "O", "B-all", "B-PER"]]
    d = tough_mentions.score(gold, gold, tokens=[["x", "y", "z", "Kim"]],
                             train=([["x"]], [["B-overall"]])).to_dict()
    assert sorted(d["per_type"]) == ["PER", "all", "overall"]
    assert d["composition"] == {"all": 1.0, "seen": 1 / 3, "unseen_any": 2 / 3,
                                "unseen_tokens": 2 / 3, "unseen_type": 0.0, "tcm_all": 0.0,
                                "tcm_seen": 0.0, "tcm_unseen": 0.0}
    assert d["per_type"]["overall"]["composition"]["seen"] == 1.0
    assert d["per_type"]["all"]["composition"]["unseen_tokens"] == 1.0


def test_only_annotated_training_mentions_count_and_texts_match_whole():
    # "Paris" occurs in training only outside mentions; "York" only inside "New York".
    result = tough_mentions.score(
        [["B-LOC", "O", "B-LOC"]], [["B-LOC", "O", "O"]], tokens=[["Paris", "and", "York"]],
        train=([["Paris", "is", "near", "New", "York"]], [["O", "O", "O", "B-LOC", "I-LOC"]]), return_mentions=True).to_dict()
    assert result["counts"]["unseen_tokens"] == 2 and result["counts"]["seen"] == 0
    assert result["recall_seen"] is None and result["recall_unseen_tokens"] == 0.5


def test_case_sensitivity():
    train = dict(train=([["Apple", "sells"]], [["B-ORG", "O"]]))
    tokens = [["APPLE", "and", "apple", "pie"]]
    gold = [["B-ORG", "O", "B-MISC", "O"]]
    exact = tough_mentions.score(gold, gold, tokens=tokens, **train).to_dict()
    assert exact["counts"]["unseen_tokens"] == 2 and exact["counts"]["tcm_all"] == 0
    folded = tough_mentions.score(gold, gold, tokens=tokens, case_sensitive=False,
                                  **train).to_dict()
    # lowercased: APPLE ORG is seen, apple MISC has the seen text with another type, and
    # both share one text with two types in the test set
    assert (folded["counts"]["seen"], folded["counts"]["unseen_type"]) == (1, 1)
    assert folded["counts"]["tcm_all"] == folded["counts"]["tcm_seen"] == 2
    assert folded["options"]["case_sensitive"] is False
    naive = naive_tmr(*train["train"], tokens, gold, gold, False)
    check_against_naive(folded, naive)


def test_empty_subsets_and_no_gold_mentions_give_none_not_zero():
    result = tough_mentions.score([["O", "O"]], [["B-PER", "O"]], tokens=[["a", "b"]],
                                  train=([["a"]], [["B-PER"]]))
    d = result.to_dict()
    for name in SUBSETS:
        assert d[f"recall_{name}"] is None, name
        assert d["counts"][name] == 0
        assert d["composition"][name] is None
    assert d["per_type"] == {}
    # the overall scores follow nerspan (zero_division 0)
    assert (d["precision"], d["recall"], d["f1"]) == (0.0, 0.0, 0.0)
    estimates = {s.name: s.estimate() for s in result.statistics()}
    assert math.isnan(estimates["tough_mentions.recall_seen"])
    assert estimates["tough_mentions.recall"] == 0.0


def test_empty_training_mentions_make_everything_unseen_tokens():
    d = tough_mentions.score([["B-PER"]], [["B-PER"]], tokens=[["Kim"]],
                             train=([["Kim"]], [["O"]])).to_dict()
    assert d["counts"]["unseen_tokens"] == 1 and d["recall_unseen_tokens"] == 1.0


def test_lenient_repairs_are_reported_and_scheme_is_used():
    d = tough_mentions.score([["O", "I-PER"]], [["O", "I-PER"]], tokens=[["x", "Kim"]],
                             train=([["Kim"]], [["B-PER"]])).to_dict()
    assert d["counts"]["seen"] == 1 and d["repairs"]["gold"]["invalid_transitions"] == 1
    d = tough_mentions.score([["S-PER", "B-LOC", "E-LOC"]], [["S-PER", "O", "O"]],
                             tokens=[["Kim", "New", "York"]], scheme="IOBES", mode="strict",
                             train=([["New", "York"]], [["B-LOC", "E-LOC"]]))\
        .to_dict()
    assert d["counts"] == {"all": 2, "seen": 1, "unseen_any": 1, "unseen_tokens": 1,
                           "unseen_type": 0, "tcm_all": 0, "tcm_seen": 0, "tcm_unseen": 0}
    assert (d["recall_seen"], d["recall_unseen_tokens"]) == (0.0, 1.0)
    assert d["options"] == {"case_sensitive": True, "scheme": "IOBES", "mode": "strict"}


# -- bootstrap statistics -----------------------------------------------------------------
def test_statistics_equal_to_dict_exactly():
    result = every_subset()
    d = result.to_dict()
    stats = result.statistics()
    names = [s.name for s in stats]
    assert names == ["tough_mentions.precision", "tough_mentions.recall", "tough_mentions.f1"] \
        + [f"tough_mentions.recall_{s}" for s in SUBSETS]
    for stat in stats:
        key = stat.name.split(".", 1)[1]
        assert stat.counts.shape[0] == len(GOLD)
        assert stat.estimate() == d[key], key
        assert stat.support == (d["counts"][key[len("recall_"):]] if key.startswith("recall_")
                                else 9)
    by_name = dict(zip(names, stats))
    # per sentence: hits and size of TCM-Unseen (the two Jordans are in sentence 1)
    assert by_name["tough_mentions.recall_tcm_unseen"].counts.tolist() == [[0, 0], [1, 2],
                                                                            [0, 0]]


def test_statistics_resample_like_the_report():
    from nerspan.bootstrap import resample, sample_weights
    result = every_subset()
    values = resample(result.statistics(), sample_weights(3, 50, seed=1))
    assert values.shape == (50, 10)
    finite = values[~np.isnan(values)]
    assert ((finite >= 0) & (finite <= 1)).all()


# -- input forms -------------------------------------------------------------------------
def test_corpus_input_with_prebuilt_index_as_the_report_calls_it():
    index = as_train_index((TRAIN_TOKENS, TRAIN_TAGS), "IOB2", "lenient")
    corpus = Corpus.from_tags(GOLD, PRED, tokens=TOKENS)
    from_corpus = tough_mentions.score(corpus, scheme="IOB2", mode="lenient", train=index)
    assert from_corpus.to_dict() == tough_mentions.score(GOLD, PRED, tokens=TOKENS,
                                                         train=index).to_dict()
    # named columns of a multi-system corpus
    systems = Corpus.from_tags(GOLD, tokens=TOKENS, columns={"sys": PRED, "copy": GOLD})
    named = tough_mentions.score(systems, train=index, inputs={'pred_column': "sys"})
    assert named.to_dict() == from_corpus.to_dict()
    perfect = tough_mentions.score(systems, train=index, inputs={'pred_column': "copy"}).to_dict()
    assert all(perfect[f"recall_{s}"] == 1.0 for s in SUBSETS)


def test_training_data_forms_agree(tmp_path):
    expected = every_subset().to_dict()
    path = tmp_path / "train.txt"
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts))
                                for ws, ts in zip(TRAIN_TOKENS, TRAIN_TAGS)) + "\n")
    corpus = Corpus.from_tags(TRAIN_TAGS, tokens=TRAIN_TOKENS)
    for train in (str(path), corpus, as_train_index(corpus), (TRAIN_TOKENS, TRAIN_TAGS)):
        got = tough_mentions.score(GOLD, PRED, tokens=TOKENS, train=train,
                                   return_mentions=True).to_dict()
        assert got == expected, type(train)


def test_label_ids_with_ignored_positions():
    labels = ["O", "B-PER", "I-PER", "B-ORG", "B-LOC"]
    ids = lambda seqs: [[labels.index(t) for t in s] for s in seqs]  # noqa: E731
    refs = ids(GOLD)
    preds = ids(PRED)
    # a sub-token position (-100) inserted after the first token of every sentence
    refs = [[s[0], -100] + s[1:] for s in refs]
    preds = [[s[0], 0] + s[1:] for s in preds]
    got = tough_mentions.score(refs, preds, tokens=TOKENS, label_list=labels,
                               train=(TRAIN_TOKENS, TRAIN_TAGS))
    expected = every_subset().to_dict()
    del expected["mentions"]
    assert got.to_dict() == expected


def test_second_score_with_one_index_reuses_the_derived_table(monkeypatch):
    index = as_train_index((TRAIN_TOKENS, TRAIN_TAGS), "IOB2", "lenient")
    calls = []
    original = tough_mentions.subsets.mention_texts
    monkeypatch.setattr(tough_mentions.subsets, "mention_texts",
                        lambda *a, **k: calls.append(a[0]) or original(*a, **k))
    builds = []
    monkeypatch.setattr(TrainIndex, "build", classmethod(lambda *a, **k: builds.append(1)))
    first = tough_mentions.score(GOLD, PRED, tokens=TOKENS, train=index).to_dict()
    second = tough_mentions.score(GOLD, PRED, tokens=TOKENS, train=index).to_dict()
    assert first == second and builds == []
    training_calls = [c for c in calls if c is index.corpus]
    assert len(training_calls) == 1 and len(calls) == 3   # train once, test twice


# -- bad input ---------------------------------------------------------------------------
TRAIN = dict(train=(TRAIN_TOKENS, TRAIN_TAGS))


@pytest.mark.parametrize("call, error, words", [
    (lambda: tough_mentions.score(GOLD, PRED[:2], tokens=TOKENS, **TRAIN),
     SentenceCountError, "2 sentences"),
    (lambda: tough_mentions.score(GOLD, [PRED[0], PRED[1][:-1], PRED[2]], tokens=TOKENS,
                                  **TRAIN),
     LengthMismatchError, "sentence 1"),
    (lambda: tough_mentions.score(GOLD, PRED, tokens=[TOKENS[0], TOKENS[1], TOKENS[2][:2]],
                                  **TRAIN),
     LengthMismatchError, "sentence 2"),
    (lambda: tough_mentions.score(Corpus.from_tags(GOLD, PRED), tokens=TOKENS[:2], **TRAIN),
     SentenceCountError, "tokens hold 2"),
    (lambda: tough_mentions.score(GOLD, PRED, **TRAIN), ValueError, "tokens"),
    (lambda: tough_mentions.score(GOLD, PRED, tokens=TOKENS), ValueError, "training data"),
    (lambda: tough_mentions.score(GOLD, PRED, tokens=TOKENS, train_tokens=TRAIN_TOKENS),
     TypeError, r"takes no train_tokens since nerlens 0\.2: give train=\(train_tokens, "
                r"train_tags\)"),
    (lambda: tough_mentions.score(GOLD, tokens=TOKENS, **TRAIN), ValueError, "predictions"),
    (lambda: tough_mentions.score(GOLD, [["X-PER"] + p[1:] for p in PRED], tokens=TOKENS, **TRAIN),
     InvalidTagError, "sentence 0"),
    (lambda: tough_mentions.score(GOLD, [["S-PER"] + p[1:] for p in PRED], tokens=TOKENS,
                                  mode="strict", **TRAIN), InvalidTagError, "sentence 0"),
    (lambda: tough_mentions.score([[0, 7]], [[0, 0]], tokens=[["a", "b"]], label_list=["O"],
                                  **TRAIN), LabelIdError, "sentence 0"),
    (lambda: tough_mentions.score([], [], tokens=[], **TRAIN), nerspan.EmptyInputError, "no"),
])
def test_bad_input_raises_a_clear_error(call, error, words):
    with pytest.raises(error, match=words):
        call()


# -- properties --------------------------------------------------------------------------
WORDS = st.sampled_from(["a", "b", "c", "A"])
TAGS = st.sampled_from(["O", "O", "B-X", "I-X", "B-Y", "I-Y"])


@st.composite
def tagged(draw, max_sentences=5):
    lengths = draw(st.lists(st.integers(1, 6), min_size=1, max_size=max_sentences))
    tokens = [draw(st.lists(WORDS, min_size=n, max_size=n)) for n in lengths]
    tags = [draw(st.lists(TAGS, min_size=n, max_size=n)) for n in lengths]
    return tokens, tags


@settings(max_examples=60, deadline=None, database=None)  # no example cache in the repo
@given(train=tagged(), test=tagged(), case_sensitive=st.booleans(), data=st.data())
def test_properties(train, test, case_sensitive, data):
    tokens, gold = test
    pred = [data.draw(st.lists(TAGS, min_size=len(s), max_size=len(s))) for s in gold]
    result = tough_mentions.score(gold, pred, tokens=tokens, train=(train[0], train[1]), case_sensitive=case_sensitive)
    d = result.to_dict()
    masks = result.subsets.masks()
    # Seen, Unseen-Type, Unseen-Tokens partition the gold mentions
    parts = masks["seen"].astype(int) + masks["unseen_type"] + masks["unseen_tokens"]
    assert (parts == 1).all()
    assert (masks["unseen_any"] == (masks["unseen_type"] | masks["unseen_tokens"])).all()
    # TCM-Seen and TCM-Unseen partition TCM-All
    assert not (masks["tcm_seen"] & masks["tcm_unseen"]).any()
    assert ((masks["tcm_seen"] | masks["tcm_unseen"]) == masks["tcm_all"]).all()
    assert d["counts"]["seen"] + d["counts"]["unseen_any"] == d["counts"]["all"]
    # every recall is in [0, 1], None exactly when its subset is empty
    for name in SUBSETS:
        value = d[f"recall_{name}"]
        assert (value is None) == (d["counts"][name] == 0)
        assert value is None or 0.0 <= value <= 1.0
    # the overall scores are the foundation's entity scores
    assert (d["precision"], d["recall"], d["f1"]) == nerspan.score(gold, pred).micro()
    # the bootstrap statistics estimate exactly the reported numbers
    for stat in result.statistics():
        value = d[stat.name.split(".", 1)[1]]
        estimate = stat.estimate()
        assert (math.isnan(estimate) and value is None) or estimate == value
    check_against_naive(d, naive_tmr(train[0], train[1], tokens, gold, pred, case_sensitive))


# -- the command line --------------------------------------------------------------------
def write_columns(path, sentences) -> str:
    path.write_text("\n\n".join("\n".join(" ".join(row) for row in zip(*columns))
                                for columns in sentences) + "\n")
    return str(path)


@pytest.fixture
def files(tmp_path):
    train = write_columns(tmp_path / "train.txt", list(zip(TRAIN_TOKENS, TRAIN_TAGS)))
    gold = write_columns(tmp_path / "gold.txt", list(zip(TOKENS, GOLD)))
    system = write_columns(tmp_path / "sys_a.txt", list(zip(TOKENS, PRED)))
    both = write_columns(tmp_path / "both.txt", list(zip(TOKENS, GOLD, PRED)))
    perfect = write_columns(tmp_path / "perfect.txt", list(zip(TOKENS, GOLD)))
    return {"train": train, "gold": gold, "system": system, "both": both, "perfect": perfect}


def test_cli_tables(files, capsys):
    assert main(["tough-mentions", "--train", files["train"], files["gold"], files["system"],
                 files["perfect"]]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    # the overall entity scores, then the report's section: the composition first
    assert lines[0] == "Entity scores (%)"
    lines = lines[lines.index("Data composition"):]
    # the subsets named as the page names them (tough_mentions.NAMING), and explained
    assert "unseen text" in lines[1] and "TCM unseen" in lines[1]
    assert "Unseen-Tokens" not in lines[1] and "the paper's Seen, Unseen-Tokens" in out
    # per type: shares of that type's 3 mentions; last row: shares of all 9
    org = next(line for line in lines if line.startswith("ORG")).split()
    assert org[1:3] == ["3", "(100.00%)"] and org[9:11] == ["3", "(100.00%)"]  # all, unseen type
    per = next(line for line in lines if line.startswith("PER")).split()
    assert per[3:7] == ["1", "(33.33%)", "2", "(66.67%)"]                  # seen, unseen (any)
    overall = next(line for line in lines if line.startswith("all types")).split()
    assert overall[2:4] == ["9", "(100.00%)"] and overall[10:12] == ["3", "(33.33%)"]
    # P, R, F1 overall, then recall: all (= R), and on each subset
    scores = [line.split() for line in out.splitlines() if line.startswith("sys_a")]
    assert scores[0][1:] == ["66.67", "66.67", "66.67"]
    assert scores[1][1:] == ["66.67", "100.00", "50.00", "66.67", "33.33", "50.00", "50.00",
                             "50.00"]
    perfect = [line.split() for line in out.splitlines() if line.startswith("perfect")]
    assert perfect[0][1:] == ["100.00"] * 3 and perfect[1][1:] == ["100.00"] * 8


def test_cli_json_equals_score(files, capsys):
    expected = every_subset().to_dict()
    del expected["mentions"]
    assert main(["tough-mentions", "--train", files["train"], files["both"],
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected))
    assert main(["tough-mentions", "--train", files["train"], files["gold"], files["system"],
                 files["perfect"], "--format", "json"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert list(both) == ["sys_a", "perfect"]
    assert both["sys_a"] == json.loads(json.dumps(expected))
    assert main(["tough-mentions", "--train", files["train"], files["both"], "--format", "json",
                 "--no-case-sensitive", "--return-mentions"]) == 0
    folded = json.loads(capsys.readouterr().out)
    assert folded["options"]["case_sensitive"] is False
    assert [m["text"] for m in folded["mentions"]["unseen_tokens"]] == ["John Brown", "Jordan",
                                                                        "Jordan"]


def test_cli_bad_input_exit_2_one_line(files, tmp_path, capsys):
    short = write_columns(tmp_path / "short.txt", [(TOKENS[0], PRED[0])])
    assert main(["tough-mentions", "--train", files["train"], files["gold"], short]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "sentences" in err
    assert main(["tough-mentions", "--train", str(tmp_path / "missing.txt"), files["gold"],
                 files["system"]]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no such file" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["tough-mentions", files["gold"], files["system"]])   # --train is required
    assert exit_info.value.code == 2


def test_generated_entities_without_a_span_count_per_type_as_in_the_overall_precision():
    """A generated entity found nowhere in its sentence is a wrong prediction of its
    type: in the overall precision (nerspan's), in each type's ``predicted`` and
    precision (as nerspan's per-type rows), and in the precision statistic's
    per-sentence counts; merged partials (with ``per_sentence``) give the same."""
    gold = [["B-PER", "O", "B-LOC"], ["B-PER", "O"]]
    tokens = [["Ana", "in", "Lima"], ["Kim", "ran"]]
    generated = [[{"text": "Ana", "type": "PER"}, {"text": "Oz", "type": "LOC"}],
                 [{"text": "Atlantis", "type": "PER"}, {"text": "Kim", "type": "PER"}]]
    train = ([["Lima", "won"]], [["B-LOC", "O"]])
    result = tough_mentions.score(gold, generated, tokens=tokens, train=train)
    mine, entity = result.to_dict(), nerspan.score(gold, generated, tokens=tokens).to_dict()
    for name in ("PER", "LOC"):   # Atlantis (PER) and Oz (LOC) found no span
        assert {k: mine["per_type"][name][k] for k in ("predicted", "precision")} == \
            {k: entity["per_type"][name][k] for k in ("predicted", "precision")}
    assert sum(row["predicted"] for row in mine["per_type"].values()) == 4
    precision = next(s for s in result.statistics() if s.name == "tough_mentions.precision")
    assert precision.counts.tolist() == [[1, 2], [1, 2]]
    assert precision.estimate() == mine["precision"] == entity["precision"]
    parts = [tough_mentions.partial(gold[a:b], generated[a:b], tokens=tokens[a:b],
                                    train=train, types=["LOC", "PER"], per_sentence=True,
                                    first_sentence=a) for a, b in ((0, 1), (1, 2))]
    merged = (parts[1] + parts[0]).result()
    assert merged.to_dict() == mine
    assert [s.counts.tolist() for s in merged.statistics()] == \
        [s.counts.tolist() for s in result.statistics()]
