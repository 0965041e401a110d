"""hardeval: subsets, tie rules, error-label conventions, k-fold, domains (no evaluate)."""
from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardeval
from hardeval import (DIFF_E, DIFF_I, DIFF_O, GROUPS, LEAF_NAMES, OTHER, UNSEEN_I, UNSEEN_O)
from nerspan import (Corpus, LengthMismatchError, NerspanError, TrainIndex, as_train_index)

# Training data as one-token sentences, so the counts are easy to read:
#   Apple: O x2, ORG x1          (O more often than I)
#   Paris: LOC x2, O x1          (I more often than O)
#   Jordan: PER x1, LOC x1       (tie between two I types)
#   May: O x1, PER x1            (tie between I and O)
#   the: O x3                    (never I)
#   Lincoln: PER x2, LOC x1      (a minority type that does occur)
TRAIN = [("Apple", "O"), ("Apple", "O"), ("Apple", "B-ORG"),
         ("Paris", "B-LOC"), ("Paris", "B-LOC"), ("Paris", "O"),
         ("Jordan", "B-PER"), ("Jordan", "B-LOC"),
         ("May", "O"), ("May", "B-PER"),
         ("the", "O"), ("the", "O"), ("the", "O"),
         ("Lincoln", "B-PER"), ("Lincoln", "B-PER"), ("Lincoln", "B-LOC")]
TRAIN_TOKENS = [[w] for w, _ in TRAIN]
TRAIN_TAGS = [[t] for _, t in TRAIN]

# (token, gold tag, expected leaf, expected leaf with strict=True), derived from METHODS.md 2.
CASES = [
    ("Zork", "B-PER", UNSEEN_I, UNSEEN_I),
    ("zork", "O", UNSEEN_O, UNSEEN_O),
    ("apple", "O", UNSEEN_O, UNSEEN_O),          # case-sensitive: "apple" is unseen
    ("Apple", "B-ORG", DIFF_I, OTHER),           # O 2 > I 1; strict: I occurs -> not diff
    ("Apple", "O", OTHER, OTHER),
    ("the", "B-PER", DIFF_I, DIFF_I),            # O 3 > I 0; strict: I never occurs
    ("Paris", "O", DIFF_O, OTHER),               # I 2 > O 1; strict: O occurs
    ("Paris", "B-LOC", OTHER, OTHER),
    ("Paris", "B-PER", DIFF_E, DIFF_E),          # I-PER 0 < I-LOC 2; strict: never PER
    ("Jordan", "O", DIFF_O, DIFF_O),             # I 2 > O 0; strict: O never occurs
    ("Jordan", "B-PER", OTHER, OTHER),           # PER 1 ties LOC 1: ties are never diff
    ("Jordan", "B-ORG", DIFF_E, DIFF_E),         # ORG 0 < 1
    ("May", "O", OTHER, OTHER),                  # I 1 = O 1: tie, not diff-O
    ("May", "B-PER", OTHER, OTHER),              # I = O (not diff-I); PER is the top type
    ("May", "B-LOC", DIFF_E, DIFF_E),            # I >= O and LOC 0 < PER 1
    ("Lincoln", "B-LOC", DIFF_E, OTHER),         # LOC 1 < PER 2; strict: LOC occurs
    ("Lincoln", "B-PER", OTHER, OTHER),
    ("Lincoln", "B-MISC", DIFF_E, DIFF_E),       # a type unknown to training counts 0
]


def case_corpus():
    tokens = [[c[0]] for c in CASES]
    gold = [[c[1]] for c in CASES]
    return tokens, gold


@pytest.fixture(scope="module")
def index():
    return as_train_index((TRAIN_TOKENS, TRAIN_TAGS))


@pytest.mark.parametrize("strict", [False, True])
def test_every_subset_and_tie_rule(index, strict):
    tokens, gold = case_corpus()
    corpus = Corpus.from_tags(gold, gold, tokens=tokens)
    codes = hardeval.classify_tokens(corpus, index, strict_diff=strict)
    expected = [c[3] if strict else c[2] for c in CASES]
    assert [LEAF_NAMES[c] for c in codes] == [LEAF_NAMES[c] for c in expected]


@pytest.mark.parametrize("strict", [False, True])
def test_the_training_table_and_tokens_classify_alike(index, strict, monkeypatch):
    """Each (training word, label) cell is classified once per index and kept
    (``train_cell_codes``), each token looking its cell up, unless the table would be
    too large: the tokens are classified one by one then. Every token gets the same
    subset either way."""
    tokens, gold = case_corpus()
    corpus = Corpus.from_tags(gold * 3, gold * 3, tokens=tokens * 3)
    looked_up = hardeval.classify_tokens(corpus, index, strict_diff=strict)
    assert index.derived(("hardeval.cell_codes", strict), None) is not None   # kept
    monkeypatch.setattr(hardeval.subsets, "train_cell_codes", lambda *args: None)
    assert np.array_equal(hardeval.classify_tokens(corpus, index, strict_diff=strict),
                          looked_up)


def test_classifying_is_linear_with_a_vocabulary_of_many_types(index):
    """Words x (1 + types) cells, when the labels name 2,000 types the data never uses,
    took 80 MB for 1,000 tokens of 500 words (80,000 labels: 1.4 GB); the tokens are
    classified one by one then."""
    labels = ["O", "B-PER"] + [f"B-X{i}" for i in range(2000)]
    words = [[f"w{i}", "Paris"] for i in range(500)]
    corpus = Corpus.from_ids([[1, 0]] * 500, None, labels, tokens=words)
    hardeval.classify_tokens(Corpus.from_tags([["O"]], tokens=[["a"]]), index)  # imports
    tracemalloc.start()
    try:
        codes = hardeval.classify_tokens(corpus, index)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert [LEAF_NAMES[c] for c in codes[:2]] == ["unseen_i", "diff_o"]


def test_subset_counts_in_result(index):
    tokens, gold = case_corpus()
    result = hardeval.score(gold, gold, tokens=tokens, train=index)
    sizes = {name: s.tokens for name, s in result.subsets.items()}
    # Counted by hand from CASES.
    assert sizes == {"all": 18, "unseen": 3, "unseen_i": 1, "unseen_o": 2, "diff": 9,
                     "diff_i": 2, "diff_o": 2, "diff_e": 5, "other": 6}
    assert result.subsets["unseen_o"].words == 2
    assert result.subsets["diff_e"].words == 4   # Paris, Jordan, May, Lincoln (twice)
    assert result.ter() == 0.0 and result.hardeval == 0.0
    assert result.error_breakdown == {"unseen": None, "diff": None, "other": None}


@pytest.mark.parametrize("convention, errors", [("bilou", 2), ("bio", 1), ("io", 0)])
def test_boundary_error_counts_under_bilou_and_bio_only(convention, errors):
    # gold B-PER I-PER (BILOU: B L); pred B-PER B-PER (BILOU: U U).
    result = hardeval.score([["B-PER", "I-PER"]], [["B-PER", "B-PER"]], tokens=[["Ann", "Lee"]],
                            subsets=np.array([OTHER, OTHER]), error_labels=convention)
    assert result.subsets["all"].errors == errors


@pytest.mark.parametrize("convention", ["bilou", "bio", "io"])
def test_type_error_counts_under_every_convention(convention):
    result = hardeval.score([["B-PER", "O"]], [["B-LOC", "O"]], tokens=[["Ann", "said"]],
                            subsets=[[UNSEEN_I, OTHER]], error_labels=convention)
    assert result.subsets["all"].errors == 1
    assert result.ter("unseen") == 1.0 and result.ter("other") == 0.0
    assert result.error_breakdown == {"unseen": 1.0, "diff": 0.0, "other": 0.0}


@pytest.mark.parametrize("convention, errors", [("bilou", 2), ("bio", 1), ("io", 0)])
def test_inside_after_o_is_dropped_by_the_reference_decoder(convention, errors):
    # pred O I-PER I-PER: the reference drops both I (O O O vs O B L: 2 errors); conlleval
    # reads one PER mention (IO labels equal the gold ones); raw tags differ at one token.
    result = hardeval.score([["O", "B-PER", "I-PER"]], [["O", "I-PER", "I-PER"]],
                            tokens=[["by", "Ann", "Lee"]], subsets=[[0, 0, 0]],
                            error_labels=convention)
    assert result.subsets["all"].errors == errors
    if convention == "bilou":
        assert result.repairs["pred"]["dropped_inside"] == 2
        assert result.repairs["pred"]["sentences"] == [0]
    if convention == "io":
        assert result.repairs["pred"]["invalid_transitions"] == 1


@pytest.mark.parametrize("convention, errors", [("bilou", 0), ("bio", 1), ("io", 1)])
def test_mixed_type_continuation_is_one_mention_of_the_first_type(convention, errors):
    # pred B-ORG I-LOC: reference = one ORG mention (B-ORG L-ORG = gold); conlleval splits.
    result = hardeval.score([["B-ORG", "I-ORG"]], [["B-ORG", "I-LOC"]], tokens=[["Acme", "Co"]],
                            subsets=[[0, 0]], error_labels=convention)
    assert result.subsets["all"].errors == errors
    if convention == "bilou":
        assert result.repairs["pred"]["mixed_type"] == 1


@pytest.mark.parametrize("convention, errors", [("bilou", 2), ("bio", 2), ("io", 1)])
def test_other_schemes_decode_predictions_with_the_scheme(convention, errors):
    # BILOU tags: gold U-PER O; pred B-PER L-PER (one two-token mention).
    result = hardeval.score([["U-PER", "O"]], [["B-PER", "L-PER"]], tokens=[["Ann", "Lee"]],
                            subsets=[[0, 0]], scheme="BILOU", error_labels=convention)
    assert result.subsets["all"].errors == errors


def test_return_hard_tokens_lists_compared_labels():
    result = hardeval.score([["B-PER", "I-PER", "O"]], [["B-PER", "B-PER", "O"]],
                            tokens=[["Ann", "Lee", "ran"]], subsets=[[UNSEEN_I, OTHER, OTHER]],
                            return_hard_tokens=True)
    rows = result.to_dict()["hard_tokens"]
    assert rows["unseen_i"] == [{"sentence": 0, "position": 0, "token": "Ann", "gold": "B-PER",
                                 "pred": "U-PER", "error": True}]
    assert [r["token"] for r in rows["other"]] == ["Lee", "ran"]
    assert rows["other"][0]["gold"] == "L-PER" and rows["other"][0]["pred"] == "U-PER"
    assert rows["diff"] == []


def test_empty_subsets_are_flagged_and_left_out_of_the_score():
    gold = [["B-PER", "O"]]
    # Both unseen and diff empty: no hardeval score at all.
    r = hardeval.score(gold, [["O", "O"]], tokens=[["Ann", "ran"]],
                       train=([["Ann", "ran"]], [["B-PER", "O"]]))
    d = r.to_dict()
    assert d["hardeval"] is None and d["hardeval_parts"] == []
    assert d["ter_unseen"] is None and d["subsets"]["unseen"]["empty"] is True
    assert d["ter_diff_e"] is None and d["ter"] == 0.5 and d["ter_other"] == 0.5
    # Only unseen non-empty: hardeval is TER(unseen), and says so.
    r = hardeval.score(gold, [["O", "O"]], tokens=[["Bo", "ran"]],
                       train=([["Ann", "ran"]], [["B-PER", "O"]]))
    assert r.hardeval == 1.0 and r.hardeval_parts == ("unseen",)
    assert r.to_dict()["subsets"]["unseen_o"]["empty"] is True


def test_hardeval_is_the_mean_of_unseen_and_diff():
    # unseen: Bo (error), Cy (correct) -> 0.5; diff: ran (gold PER, trained O) error -> 1.0
    r = hardeval.score([["B-PER", "B-PER", "B-PER"]], [["O", "B-PER", "O"]],
                       tokens=[["Bo", "Cy", "ran"]], train=([["ran"]], [["O"]]),
                       error_labels="io")
    assert r.ter("unseen") == 0.5 and r.ter("diff_i") == 1.0
    assert r.hardeval == 0.75
    assert r.error_breakdown == {"unseen": 0.5, "diff": 0.5, "other": 0.0}


def test_training_data_forms_agree(tmp_path, index):
    # Also: a tab-separated file with the tag in a middle column, read via train_tag_column.
    odd = tmp_path / "odd.txt"
    odd.write_text("\n\n".join(f"{w}\t{t}\tX" for w, t in TRAIN) + "\n")
    tokens, gold = case_corpus()
    pred = [["O"] for _ in gold]
    path = tmp_path / "train.txt"
    path.write_text("\n\n".join(f"{w} {t}" for w, t in TRAIN) + "\n")
    train_corpus = Corpus.from_tags(TRAIN_TAGS, tokens=TRAIN_TOKENS)
    expected = hardeval.score(gold, pred, tokens=tokens, train=index).to_dict()
    for kwargs in ({"train": str(path)}, {"train": train_corpus},
                   {"train": (TRAIN_TOKENS, TRAIN_TAGS)},
                   {"train": odd, "inputs": {"train_tag_column": 1}}):
        assert hardeval.score(gold, pred, tokens=tokens, **kwargs).to_dict() == expected
    # 0.1's spellings are errors naming 0.2's
    with pytest.raises(TypeError, match=r"takes no train_tags since nerlens 0\.2: give "
                                        r"train=\(train_tokens, train_tags\)"):
        hardeval.score(gold, pred, tokens=tokens, train=TRAIN_TOKENS, train_tags=TRAIN_TAGS)
    with pytest.raises(TypeError, match=r"takes no train_options since nerlens 0\.2: give "
                                        r"how to read a training file as inputs="):
        hardeval.score(gold, pred, tokens=tokens, train=odd,
                       train_options={"columns": {"gold": 1}})


def test_trainer_contract_corpus_with_prebuilt_index(index):
    tokens, gold = case_corpus()
    corpus = Corpus.from_tags(gold, [["O"]] * len(gold), tokens=tokens)
    result = hardeval.score(corpus, scheme="IOB2", mode="lenient", train=index)
    flat = {k: v for k, v in result.to_dict().items() if not isinstance(v, (dict, list))}
    assert set(flat) == set(hardeval.HEADLINE)
    assert flat["ter"] == 12 / 18   # 12 gold mentions, all missed; 6 gold O


def test_input_errors(index):
    with pytest.raises(ValueError, match="training data"):
        hardeval.score([["O"]], [["O"]], tokens=[["a"]])
    with pytest.raises(ValueError, match="tokens"):
        hardeval.score([["O"]], [["O"]], train=index)
    with pytest.raises(ValueError, match="error_labels"):
        hardeval.score([["O"]], [["O"]], subsets=[[0]], error_labels="iobes")
    with pytest.raises(LengthMismatchError, match="sentence 1"):
        hardeval.score([["O"], ["O", "O"]], [["O"], ["O", "O"]], subsets=[[0], [0]])
    with pytest.raises(NerspanError, match="subset code 7"):
        hardeval.score([["O"], ["O", "O"]], [["O"], ["O", "O"]], subsets=[[0], [0, 7]])
    with pytest.raises(LengthMismatchError, match="sentence 0"):
        hardeval.score([["O", "O"]], [["O", "O"]], tokens=[["a"]], train=index)
    with pytest.raises(NerspanError, match="k must be"):
        hardeval.kfold_subsets(Corpus.from_tags([["O"]], tokens=[["a"]]), k=2)


def test_kfold_matches_an_index_of_the_other_folds():
    rng = np.random.default_rng(3)
    words = ["a", "b", "c", "d", "e"]
    tags = ["O", "B-PER", "B-LOC", "I-LOC"]
    tokens = [list(rng.choice(words, size=rng.integers(1, 6))) for _ in range(30)]
    gold = [[str(t) for t in rng.choice(tags, size=len(s))] for s in tokens]
    corpus = Corpus.from_tags(gold, tokens=tokens)
    codes = hardeval.kfold_subsets(corpus, k=5, seed=11)
    assert np.array_equal(codes, hardeval.kfold_subsets(corpus, k=5, seed=11))
    folds = hardeval.kfold_folds(corpus.n_sentences, k=5, seed=11)
    token_fold = folds[corpus.sentence_of_position]
    for fold in range(5):
        train = TrainIndex.build(corpus.subset(np.flatnonzero(folds != fold)))
        test = corpus.subset(np.flatnonzero(folds == fold))
        # subset() keeps sentence order, so the fold's tokens come out in corpus order
        assert np.array_equal(hardeval.classify_tokens(test, train), codes[token_fold == fold])


def test_average_domains_and_score_domains():
    train = {"train": ([["Ann", "ran"]], [["B-PER", "O"]])}
    domains = {
        "news": dict(references=[["B-PER", "O"]], predictions=[["B-PER", "O"]],
                     tokens=[["Bo", "ran"]], **train),          # unseen 0.0, diff empty
        "web": dict(references=[["B-PER", "O"]], predictions=[["O", "O"]],
                    tokens=[["Bo", "Ann"]], **train),            # unseen 1.0, diff-O 0.0
    }
    out = hardeval.score_domains(domains, error_labels="io")
    assert out["domains"]["news"]["hardeval"] == 0.0
    assert out["domains"]["web"]["hardeval"] == 0.5
    assert out["hardeval"] == 0.25
    assert out["ter_unseen"] == 0.5 and out["n_domains"]["ter_diff"] == 1
    assert out["ter_diff"] == 0.0


# -- properties ------------------------------------------------------------------------
WORDS = st.sampled_from(["a", "b", "c", "A", "d", "e"])
TAGS = st.sampled_from(["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"])


@st.composite
def tagged(draw, min_sentences=1):
    n = draw(st.integers(min_sentences, 8))
    lengths = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    tokens = [draw(st.lists(WORDS, min_size=k, max_size=k)) for k in lengths]
    gold = [draw(st.lists(TAGS, min_size=k, max_size=k)) for k in lengths]
    pred = [draw(st.lists(TAGS, min_size=k, max_size=k)) for k in lengths]
    return tokens, gold, pred


@settings(max_examples=60, deadline=None)
@given(test=tagged(), train=tagged(), convention=st.sampled_from(hardeval.ERROR_LABELS))
def test_subset_relations(test, train, convention):
    tokens, gold, pred = test
    index = as_train_index((train[0], train[1]))
    r = hardeval.score(gold, pred, tokens=tokens, train=index, error_labels=convention)
    s = r.subsets
    for field in ("tokens", "errors"):
        def size(name):
            return getattr(s[name], field)
        assert size("unseen") == size("unseen_i") + size("unseen_o")
        assert size("diff") == size("diff_i") + size("diff_o") + size("diff_e")
        assert size("all") == size("unseen") + size("diff") + size("other")
    assert s["all"].tokens == sum(map(len, tokens))
    for stats in s.values():
        assert stats.ter is None or 0.0 <= stats.ter <= 1.0
        assert stats.words <= stats.tokens
        assert stats.empty == (stats.ter is None)
    assert r.hardeval is None or 0.0 <= r.hardeval <= 1.0
    # Strict diff is a subset of diff, leaf by leaf.
    corpus = Corpus.from_tags(gold, tokens=tokens)
    loose = hardeval.classify_tokens(corpus, index)
    tight = hardeval.classify_tokens(corpus, index, strict_diff=True)
    for leaf in GROUPS["diff"]:
        assert np.all(loose[tight == leaf] == leaf)
    assert np.array_equal(loose != tight, np.isin(loose, GROUPS["diff"]) & (tight == OTHER))


@settings(max_examples=40, deadline=None)
@given(data=tagged(min_sentences=2), k=st.integers(2, 5), seed=st.integers(0, 3))
def test_kfold_covers_every_token_once(data, k, seed):
    tokens, gold, _ = data
    corpus = Corpus.from_tags(gold, tokens=tokens)
    k = min(k, corpus.n_sentences)
    folds = hardeval.kfold_folds(corpus.n_sentences, k, seed)
    assert sorted(set(folds.tolist())) == list(range(k))
    assert np.bincount(folds).max() - np.bincount(folds).min() <= 1
    codes = hardeval.kfold_subsets(corpus, k=k, seed=seed)
    assert len(codes) == corpus.n_tokens
    assert np.all((codes >= 0) & (codes < len(LEAF_NAMES)))


# -- CLI -------------------------------------------------------------------------------
def write_columns(path, sentences):
    path.write_text("\n\n".join("\n".join(" ".join(row) for row in s) for s in sentences) + "\n")
    return str(path)


@pytest.fixture
def cli_files(tmp_path):
    train = write_columns(tmp_path / "train.txt", [[("Kim", "B-PER"), ("ran", "O")],
                                                   [("Paris", "B-LOC"), ("ran", "O")]])
    gold = write_columns(tmp_path / "gold.txt", [[("Ana", "B-PER"), ("ran", "O")],
                                                 [("Paris", "B-PER"), ("ran", "O")]])
    good = write_columns(tmp_path / "good.txt", [[("Ana", "B-PER"), ("ran", "O")],
                                                 [("Paris", "B-PER"), ("ran", "O")]])
    bad = write_columns(tmp_path / "bad.txt", [[("Ana", "O"), ("ran", "O")],
                                               [("Paris", "B-LOC"), ("ran", "O")]])
    return train, gold, good, bad


def test_cli_table_and_json(cli_files, capsys):
    from nerlens.cli import main
    train, gold, good, bad = cli_files
    assert main(["hardeval", "--train", train, gold, good, bad]) == 0
    lines = capsys.readouterr().out.splitlines()
    # Ana: unseen-I; Paris gold PER but trained LOC: diff-E; "ran" twice: other.
    # the subsets headed as the page heads them (hardeval.HEADERS: unseen-I, label-shifted)
    assert lines[0].split() == ["system", "hardeval", "score",
                                *(hardeval.HEADERS[n] for n in hardeval.GROUPS)]
    assert "unseen-I" in lines[0] and "label-shifted" in lines[0]
    # the text is the report's section: sizes (no hardeval score), shares, then the systems
    assert lines[2].split() == ["tokens", "4", "1", "1", "0", "1", "0", "0", "1", "2"]
    assert lines[3].split()[:2] == ["%", "of"]
    assert lines[4].split() == ["good", "0.00", "0.00", "0.00", "0.00", "-", "0.00", "-", "-",
                                "0.00", "0.00"]
    assert lines[5].split() == ["bad", "100.00", "50.00", "100.00", "100.00", "-", "100.00",
                                "-", "-", "100.00", "0.00"]
    assert main(["hardeval", "--train", train, "--format", "json", "--error-labels", "io",
                 "--strict-diff", gold, bad]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    expected = hardeval.score(Corpus.from_tags([["B-PER", "O"], ["B-PER", "O"]],
                                               [["O", "O"], ["B-LOC", "O"]],
                                               tokens=[["Ana", "ran"], ["Paris", "ran"]]),
                              train=([["Kim", "ran"], ["Paris", "ran"]], [["B-PER", "O"], ["B-LOC", "O"]]),
                              error_labels="io", strict_diff=True).to_dict()
    assert out == expected
    assert out["hardeval"] == 1.0 and out["options"] == {
        "error_labels": "io", "strict_diff": True, "scheme": "IOB2", "mode": "lenient"}


def test_cli_input_error_is_one_line(cli_files, tmp_path, capsys):
    from nerlens.cli import main
    train, gold, _, _ = cli_files
    short = write_columns(tmp_path / "short.txt", [[("Ana", "O")], [("Paris", "O"), ("ran", "O")]])
    assert main(["hardeval", "--train", train, gold, short]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "short.txt" in err[0] and "sentence 0" in err[0]
    assert main(["hardeval", "--train", str(tmp_path / "missing.txt"), gold]) == 2
    assert "missing.txt" in capsys.readouterr().err


def _statistics_agree(result) -> None:
    values = result.to_dict()
    for statistic in result.statistics():
        key = statistic.name.split(".", 1)[1]
        assert not statistic.higher_is_better
        if values[key] is None:
            assert np.isnan(statistic.estimate()), key
        else:
            assert statistic.estimate() == pytest.approx(values[key], abs=1e-12), key
    assert {s.name for s in result.statistics()} == {f"hardeval.{k}" for k in hardeval.HEADLINE}


def test_statistics_estimates_equal_the_reported_numbers(index):
    tokens, gold = case_corpus()
    pred = [["O"] if tags[0] != "O" else ["B-PER"] for tags in gold[::2]] + gold[1::2]
    _statistics_agree(hardeval.score(gold[::2] + gold[1::2], pred,
                                     tokens=tokens[::2] + tokens[1::2], train=index))
    # only "other" tokens: hardeval and the unseen/diff rates are undefined
    _statistics_agree(hardeval.score([["O"]], [["O"]], tokens=[["the"]], train=index))
