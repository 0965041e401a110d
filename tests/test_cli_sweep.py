"""``nerlens sweep GOLD PRED``: the numbers are ``nerspan.sweep``'s of the same files, the
operating point is chosen on --choose-on's split, and choosing on the scored split is a
finding that names the inflation."""
from __future__ import annotations

import json
import re

import pytest

import nerspan
from nerspan import read_columns, read_span_jsonl
from nerspan.operating_points import operating_point
from nerspan.dial import SweepOptions, sweep_files
from nerspan.sweep_view import DEFAULT_THRESHOLD, inflation_finding, sweep_blocks
from nerlens.report import confidence
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_scored

GOLD = "John B-PER\nSmith I-PER\nsaw O\nParis B-LOC\n\nAda B-PER\nmet O\nBob B-PER\n\nOslo B-LOC\n"
GOLD_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "O", "B-PER"], ["B-LOC"]]
TEST = [[[0, 2, "PER", 0.9], [3, 4, "PER", 0.55]], [[0, 1, "PER", 0.7], [2, 3, "PER", 0.3]],
        [[0, 1, "LOC", 0.45]]]
DEV = [[[0, 2, "PER", 0.8], [3, 4, "LOC", 0.6]], [[0, 1, "PER", 0.35], [1, 2, "LOC", 0.65]],
       [[0, 1, "LOC", 0.2]]]


def write(tmp_path, name: str, sentences: list) -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps({"spans": spans}) + "\n" for spans in sentences),
                    encoding="utf-8")
    return str(path)


def run(capsys, args: list) -> tuple[int, str, str]:
    code = main(["sweep", *args])
    out, err = capsys.readouterr()
    return code, out, err


def plain(value):
    return json.loads(json.dumps(value))


def test_the_json_is_nerspan_sweep_of_the_demo_files(capsys):
    code, out, err = run(capsys, ["--demo", "--format", "json"])
    assert code == 0
    expected = nerspan.sweep(read_columns(demo_gold(), {"gold": 1}),
                             read_span_jsonl(next(iter(demo_scored().values())))["spans"])
    assert json.loads(out) == plain(expected.to_dict())
    point = expected.operating_point
    assert point.chosen_on_scored
    assert f"inflated by {100 * point.inflation:+.2f} points" in err


def test_the_text_shows_the_default_best_and_chosen_points(tmp_path, capsys):
    (tmp_path / "gold.txt").write_text(GOLD, encoding="utf-8")
    pred = write(tmp_path, "pred.jsonl", TEST)
    code, out, _ = run(capsys, [str(tmp_path / "gold.txt"), pred, "--per-type"])
    assert code == 0
    sweep = nerspan.sweep(GOLD_TAGS, TEST, per_type=True)
    # name, threshold, P, R, F1, correct, predicted
    rows = {cells[0]: cells[1:] for cells in
            (re.split(r"\s{2,}", line.strip()) for line in out.splitlines())}

    def scores(thresholds) -> list:
        p, r, f1 = sweep.at(thresholds).micro()
        return [f"{100 * p:.2f}", f"{100 * r:.2f}", f"{100 * f1:.2f}"]

    assert rows["threshold 0.5"][:4] == ["0.5", *scores(0.5)]
    assert rows["every mention kept"][:4] == ["0", *scores(0.0)]
    assert rows["best F1 here"][:4] == [f"{sweep.best_threshold:g}",
                                        *scores(sweep.best_threshold)]
    assert rows["chosen on this split"][:4] == ["per type",
                                                *scores(sweep.operating_point.thresholds)]
    assert f"average precision {100 * sweep.average_precision:.2f}" in out
    assert "finding: the thresholds were chosen on the split that is scored" in out
    for name, row in sweep.to_dict()["per_type"].items():
        assert any(line.split()[:2] == [name, str(row["support"])] for line in out.splitlines())


@pytest.mark.parametrize("per_type", [False, True])
def test_thresholds_chosen_on_the_dev_pair_score_the_test_pair(tmp_path, capsys, per_type):
    (tmp_path / "gold.txt").write_text(GOLD, encoding="utf-8")
    gold, test, dev = str(tmp_path / "gold.txt"), write(tmp_path, "test.jsonl", TEST), \
        write(tmp_path, "dev.jsonl", DEV)
    flags = ["--per-type"] if per_type else []
    code, out, err = run(capsys, [gold, test, "--choose-on", gold, dev, "--format", "json",
                                  *flags])
    assert code == 0 and err == ""
    expected = operating_point(nerspan.sweep(GOLD_TAGS, DEV), nerspan.sweep(GOLD_TAGS, TEST),
                               per_type=per_type)
    result = json.loads(out)["operating_point"]
    assert result == plain(expected.to_dict()) and not result["chosen_on_scored"]
    # the dev pair is the test pair: chosen on the scored split, and said so
    code, out, err = run(capsys, [gold, test, "--choose-on", gold, test, *flags])
    assert code == 0 and "chosen on the split that is scored" in out


def test_span_gold_with_jsonl(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps({"tokens": words, "spans": spans}) + "\n"
                            for words, spans in [
                                (["John", "Smith", "saw", "Paris"], [[0, 2, "PER"], [3, 4, "LOC"]]),
                                (["Ada", "met", "Bob"], [[0, 1, "PER"], [2, 3, "PER"]]),
                                (["Oslo"], [[0, 1, "LOC"]])]), encoding="utf-8")
    code, out, _ = run(capsys, [str(gold), write(tmp_path, "test.jsonl", TEST), "--jsonl",
                                "--format", "json"])
    assert code == 0
    assert json.loads(out) == plain(nerspan.sweep(GOLD_TAGS, TEST).to_dict())


def test_the_view_is_nerspan_s_and_names_the_dev_split_as_told():
    """The command draws ``nerspan.sweep_view``'s blocks; the report keeps its default."""
    sweep = nerspan.sweep(GOLD_TAGS, TEST, choose_on=(GOLD_TAGS, DEV))
    assert sweep_blocks(sweep)[0][1].rows[-1][0] == "chosen on the dev split"
    assert sweep_blocks(sweep, dev="--choose-on")[0][1].rows[-1][0] == "chosen on --choose-on"
    assert inflation_finding(sweep) is None      # chosen on a dev split: nothing inflated
    assert confidence.DEFAULT_THRESHOLD == DEFAULT_THRESHOLD == 0.5


def test_sweep_files_is_the_command_s_reading(tmp_path, capsys):
    """``nerspan.dial.sweep_files``: the API's sweep of files, as the command sweeps them (its
    options a dict or ``SweepOptions``); a dev file with nothing scored is refused."""
    (tmp_path / "gold.txt").write_text(GOLD, encoding="utf-8")
    gold, test, dev = str(tmp_path / "gold.txt"), write(tmp_path, "test.jsonl", TEST), \
        write(tmp_path, "dev.jsonl", DEV)
    swept = sweep_files(gold, test, {"choose_on": [gold, dev], "per_type": True})
    expected = nerspan.sweep(GOLD_TAGS, TEST, choose_on=(GOLD_TAGS, DEV), per_type=True)
    assert plain(swept.to_dict()) == plain(expected.to_dict())
    assert run(capsys, [gold, test, "--choose-on", gold, dev, "--per-type", "--format",
                        "json"])[1] == json.dumps(plain(swept.to_dict()), indent=2) + "\n"
    with pytest.raises(ValueError, match=r"choose_on \(--choose-on\): \S*empty.jsonl holds "
                                         "no scored mention"):
        sweep_files(gold, test, SweepOptions(choose_on=[gold, write(
            tmp_path, "empty.jsonl", [[], [], []])]))
    with pytest.raises(Exception, match="unknown sweep option 'per_typ'"):
        sweep_files(gold, test, {"per_typ": True})
