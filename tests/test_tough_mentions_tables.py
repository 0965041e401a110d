"""The paper's table rules for tough mentions: subsets under ``min_share`` of the gold
mentions left out (its 1% rule), and each subset's spread of recall across systems; in
Python and from ``nerlens tough-mentions``."""
from __future__ import annotations

import json

import pytest

import tough_mentions
from nerlens.cli import main
from tough_mentions.analysis import subset_recall

from .test_tough_mentions import GOLD, PRED, TOKENS, TRAIN_TAGS, TRAIN_TOKENS, write_columns


def result(pred):
    return tough_mentions.score(GOLD, pred, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS)).to_dict()


def test_small_subsets_follow_the_counts():
    d = result(PRED)
    total = d["counts"]["all"]
    for share in (0.0, 0.01, 0.2, 0.5):
        small = tough_mentions.small_subsets(d, share)
        assert small["overall"] == [s for s in tough_mentions.SUBSETS
                                    if d["counts"][s] / total < share]
        for t, row in d["per_type"].items():
            assert small["per_type"][t] == [s for s in tough_mentions.SUBSETS
                                            if row["counts"][s] / row["counts"]["all"] < share]
    assert tough_mentions.small_subsets(d, 0.0)["overall"] == []
    with pytest.raises(ValueError, match="0.01"):
        tough_mentions.small_subsets(d, 1.0)


def test_with_no_gold_mention_the_recall_of_all_is_undefined_as_every_subset_s():
    """No gold mention: every subset is empty, "all" too; the subset views (the spread,
    the report's table, the runs of an experiment) say undefined for each, while the
    result's overall recall keeps nerspan's zero_division."""
    results = {name: tough_mentions.score([["O", "O"]], [tags], tokens=[["a", "b"]],
                                          train=([["a"]], [["B-PER"]])).to_dict()
               for name, tags in (("guesser", ["B-PER", "O"]), ("quiet", ["O", "O"]))}
    for d in results.values():
        assert d["recall"] == 0.0 and "recall" in d["undefined"]
        assert [subset_recall(d, s) for s in tough_mentions.ALL_SUBSETS] == \
            [None] * len(tough_mentions.ALL_SUBSETS)
    spread = tough_mentions.recall_spread(results)
    assert all(row["n_systems"] == 0 and row["mean"] is None for row in spread.values())
    some = result(PRED)
    assert subset_recall(some, "all") == some["recall"] > 0
    assert subset_recall(some, "seen") == some["recall_seen"]


def test_recall_spread_over_systems():
    a, b = result(PRED), result(GOLD)          # GOLD as a prediction: every recall 1
    spread = tough_mentions.recall_spread({"a": a, "perfect": b})
    for subset, row in spread.items():
        key = "recall" if subset == "all" else f"recall_{subset}"
        if a[key] is None:
            assert row["n_systems"] == 0 and row["range"] is None
            continue
        assert row["max"] == 1.0 and row["min"] == a[key]
        assert row["range"] == pytest.approx(1.0 - a[key])
        assert row["std"] == pytest.approx((1.0 - a[key]) / 2)


@pytest.fixture
def files(tmp_path):
    return {"train": write_columns(tmp_path / "train.txt", list(zip(TRAIN_TOKENS, TRAIN_TAGS))),
            "gold": write_columns(tmp_path / "gold.txt", list(zip(TOKENS, GOLD))),
            "a": write_columns(tmp_path / "a.txt", list(zip(TOKENS, PRED))),
            "perfect": write_columns(tmp_path / "perfect.txt", list(zip(TOKENS, GOLD)))}


def test_cli_min_share_and_analyses(files, capsys):
    args = ["tough-mentions", "--train", files["train"], files["gold"], files["a"],
            files["perfect"]]
    assert main(args + ["--min-share", "0.25", "--format", "json"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {"a", "perfect"}   # results alone
    assert main(args + ["--min-share", "0.25", "--analyses", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"results", "min_share", "small_subsets", "recall_spread"}
    assert out["small_subsets"] == tough_mentions.small_subsets(result(PRED), 0.25)
    assert out["recall_spread"] == json.loads(json.dumps(tough_mentions.recall_spread(
        {"a": result(PRED), "perfect": result(GOLD)})))
    left_out = out["small_subsets"]["overall"]
    assert left_out == ["tcm_seen", "tcm_unseen"]   # the fixture has subsets under 25% of its 9 mentions (2 TCM-Seen, 2 TCM-Unseen)
    assert main(args + ["--min-share", "0.25"]) == 0
    text = capsys.readouterr().out
    recall_header = next(line for line in text.splitlines() if line.startswith("system"))
    for subset in left_out:
        assert tough_mentions.SUBSET_NAMES[subset] not in recall_header.split()
    assert "Left out (under 25% of the gold mentions" in text
    assert "Spread of each subset's recall across the systems" in text
    # without the options the JSON is unchanged: one result dict per system
    assert main(args + ["--format", "json"]) == 0
    assert list(json.loads(capsys.readouterr().out)) == ["a", "perfect"]
    with pytest.raises(SystemExit) as refused:   # refused as the flag is read
        main(args + ["--min-share", "1.5"])
    assert refused.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--min-share" in err


def test_spread_is_named_analyses_since_0_2(files, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["tough-mentions", "--train", files["train"], files["gold"], files["a"],
              "--spread"])
    assert stop.value.code == 2
    assert "--spread is --analyses since nerlens 0.2" in capsys.readouterr().err
