"""Experiments fold average precision over runs (issue 40, METHODS §8): the runs of a
system given with a confidence per mention (``"scored"``) are each turned on the dial by
their dataset's report; their average precision is mean +- sample std over the runs,
and Wilcoxon-tested between systems over runs x datasets with Holm's correction, as F1
is. Every expected number is derived here by brute force (nerspan.score of the mentions
kept at each confidence), scipy's Wilcoxon and Holm's step-down by hand."""
from __future__ import annotations

import json
import random
import statistics

import pytest
from scipy.stats import wilcoxon

import nerlens
import nerspan
from nerlens.cli import main as nerlens_main

GOLD = [["B-PER", "O", "B-LOC", "O", "B-LOC"], ["B-ORG", "O"], ["B-PER", "I-PER", "O"],
        ["O", "B-LOC"]]
TOKENS = [["Ada", "in", "Paris", "and", "Rome"], ["ACME", "hires"], ["Bob", "Lee", "left"],
          ["in", "Oslo"]]
# candidate mentions per sentence, none overlapping (a report's system is tags): the gold
# ones and some wrong ones
CANDIDATES = [[(0, 1, "PER"), (2, 3, "LOC"), (4, 5, "LOC"), (1, 2, "LOC"), (3, 4, "ORG")],
              [(0, 1, "ORG"), (1, 2, "PER")], [(0, 2, "PER"), (2, 3, "LOC")],
              [(1, 2, "LOC"), (0, 1, "ORG")]]


def scored_run(rng: random.Random, skill: float) -> list:
    """Every candidate with a confidence: right ones higher the more skilled."""
    gold = [set(_spans(tags)) for tags in GOLD]
    return [[(a, b, label, round(min(1.0, rng.random() * (1 - skill)
                                     + (skill if (a, b, label) in gold[i] else 0.0)), 3))
             for a, b, label in CANDIDATES[i]] for i in range(len(CANDIDATES))]


def _spans(tags: list) -> list:
    out, start = [], None
    for k, tag in enumerate(tags + ["O"]):
        if start is not None and not tag.startswith("I-"):
            out.append((start, k, tags[start][2:]))
            start = None
        if tag.startswith("B-"):
            start = k
    return out


def brute_average_precision(gold, run) -> float:
    """sum (R_n - R_{n-1}) P_n over the distinct confidences, highest first, each point
    nerspan.score of the mentions kept."""
    thresholds = sorted({s for sentence in run for *_, s in sentence}, reverse=True)
    ap, previous = 0.0, 0.0
    for t in thresholds:
        kept = [[(a, b, label) for a, b, label, s in sentence if s >= t] for sentence in run]
        precision, recall, _ = nerspan.score(_as_spans(gold), kept, tokens=TOKENS).micro()
        ap += (recall - previous) * precision
        previous = recall
    return ap


def _as_spans(gold) -> list:
    return [_spans(tags) for tags in gold]


def holm(pvalues: dict) -> dict:
    """Holm's step-down adjustment, by hand."""
    order = sorted(pvalues, key=pvalues.get)
    out, running = {}, 0.0
    for k, key in enumerate(order):
        running = max(running, min(1.0, (len(order) - k) * pvalues[key]))
        out[key] = running
    return out


@pytest.fixture(scope="module")
def scored_experiment():
    rng = random.Random(7)
    skills = {"strong": 0.6, "middle": 0.35, "weak": 0.0}
    runs = {dataset: {system: [scored_run(rng, skill) for _ in range(3)]
                      for system, skill in skills.items()}
            for dataset in ("d1", "d2")}
    exp = nerlens.run_experiment(
        {dataset: {"gold": GOLD, "tokens": TOKENS, "systems": {"oracle": GOLD},
                   "scored": by_system} for dataset, by_system in runs.items()},
        families=[], bootstrap=0, figures=False)
    return exp, runs


def test_average_precision_is_mean_and_sample_std_over_runs(scored_experiment):
    exp, runs = scored_experiment
    for dataset, by_system in runs.items():
        for system, system_runs in by_system.items():
            values = [brute_average_precision(GOLD, run) for run in system_runs]
            cell = exp.aggregate[dataset][system]["average_precision"]
            assert cell["n"] == 3
            assert cell["mean"] == pytest.approx(statistics.mean(values))
            assert cell["std"] == pytest.approx(statistics.stdev(values))
        # a system without scores has no dial number
        assert "average_precision" not in exp.aggregate[dataset]["oracle"]
    assert exp.higher_is_better["average_precision"] is True


def test_scored_systems_are_paired_over_runs_and_datasets_with_holm(scored_experiment):
    exp, runs = scored_experiment
    pairs = {}
    for a, b in (("strong", "middle"), ("strong", "weak"), ("middle", "weak")):
        xs = [brute_average_precision(GOLD, run) for d in ("d1", "d2") for run in runs[d][a]]
        ys = [brute_average_precision(GOLD, run) for d in ("d1", "d2") for run in runs[d][b]]
        test = exp.wilcoxon[f"{a} vs {b}"]["average_precision"]
        expected = wilcoxon(xs, ys)
        assert test["n_pairs"] == 6
        assert test["pvalue"] == pytest.approx(expected.pvalue)
        assert test["statistic"] == pytest.approx(expected.statistic)
        assert test["difference"] == pytest.approx(statistics.mean(xs) - statistics.mean(ys))
        pairs[f"{a} vs {b}"] = expected.pvalue
    # Holm over every pair of systems: those with the unscored oracle have no p-value
    for pair, p in holm(pairs).items():
        assert exp.wilcoxon[pair]["average_precision"]["pvalue_holm"] == pytest.approx(p)
    assert exp.wilcoxon["oracle vs strong"]["average_precision"]["pvalue"] is None


def test_the_pages_show_average_precision_over_runs(scored_experiment):
    exp, _ = scored_experiment
    page = exp.to_html()
    assert "average precision" in page
    data = json.loads(exp.to_json())
    assert data["aggregate"]["d1"]["strong"]["average_precision"]["n"] == 3
    assert data["datasets"]["d1"]["confidence"]["strong#1"]["average_precision"] == \
        pytest.approx(brute_average_precision(GOLD, scored_experiment[1]["d1"]["strong"][0]))


def test_a_scored_run_may_be_a_file_or_generated_output(tmp_path):
    run = [[(0, 1, "PER", 0.9), (2, 3, "LOC", 0.4)], [(0, 1, "ORG", 0.7)], [], [(1, 2, "LOC", 0.2)]]
    path = tmp_path / "scored.jsonl"
    path.write_text("".join(json.dumps({"spans": spans}) + "\n" for spans in run))
    generated = [[{"text": "Ada", "type": "PER", "score": 0.9},
                  {"text": "Paris", "type": "LOC", "score": 0.4}],
                 [{"text": "ACME", "type": "ORG", "score": 0.7}], [],
                 [{"text": "Oslo", "type": "LOC", "score": 0.2}]]
    exp = nerlens.run_experiment(
        {"d": {"gold": GOLD, "tokens": TOKENS,
               "scored": {"file": str(path), "llm": [generated, generated]}}},
        families=[], bootstrap=0, figures=False)
    ap = brute_average_precision(GOLD, run)
    assert exp.aggregate["d"]["file"]["average_precision"]["mean"] == pytest.approx(ap)
    assert exp.aggregate["d"]["llm"]["average_precision"] == \
        {"mean": pytest.approx(ap), "std": 0.0, "n": 2}
    assert exp.runs["d"]["llm"] == ["llm#1", "llm#2"]


def test_bad_scored_entries_name_the_dataset():
    with pytest.raises(TypeError, match="dataset 'd': \"scored\" maps each system"):
        nerlens.run_experiment({"d": {"gold": GOLD, "tokens": TOKENS, "scored": [1]}},
                               families=[], bootstrap=0, figures=False)
    with pytest.raises(ValueError, match="'a' is a system of the dataset already"):
        nerlens.run_experiment({"d": {"gold": GOLD, "tokens": TOKENS, "systems": {"a": GOLD},
                                      "scored": {"a": [[[]] * 4]}}},
                               families=[], bootstrap=0, figures=False)
    with pytest.raises(ValueError, match="scored system 'a'.*1.5 is not a confidence"):
        nerlens.run_experiment({"d": {"gold": GOLD, "tokens": TOKENS,
                                      "scored": {"a": [[[(0, 1, "PER", 1.5)], [], [], []]]}}},
                               families=[], bootstrap=0, figures=False)


def _column_file(path, sentences) -> str:
    """A token-first column file of ``sentences`` (lists of (token, tag, ...) rows)."""
    path.write_text("\n\n".join("\n".join(" ".join(row) for row in rows)
                                for rows in sentences) + "\n")
    return str(path)


def test_the_command_line_takes_scored_runs_as_the_api_does(tmp_path, capsys):
    """``nerlens report --data ... --pred-scored SYSTEM=FILE``: each file a run of
    ``"scored"``; the average precision folded over runs is brute force's, and a system
    given both ways is refused naming both flags."""
    rng = random.Random(11)
    runs = [scored_run(rng, 0.4) for _ in range(2)]
    files = []
    for k, run in enumerate(runs):
        path = tmp_path / f"crf_{k}.jsonl"
        path.write_text("".join(json.dumps({"spans": spans}) + "\n" for spans in run))
        files.append(f"crf={path}")
    rows = [list(zip(tokens, tags)) for tokens, tags in zip(TOKENS, GOLD)]
    gold = _column_file(tmp_path / "gold.txt", rows)
    pred = _column_file(tmp_path / "pred.txt", [[(t, g, g) for t, g in s] for s in rows])
    out = tmp_path / "out"
    assert nerlens_main(["report", "--data", "d", gold, gold, "--pred", f"tagger={pred}",
                         "--pred-scored", *files, "--bootstrap", "0", "--output", str(out),
                         "--no-progress"]) == 0
    data = json.loads((out / "experiment.json").read_text())
    values = [brute_average_precision(GOLD, run) for run in runs]
    cell = data["aggregate"]["d"]["crf"]["average_precision"]
    assert cell["n"] == 2
    assert cell["mean"] == pytest.approx(statistics.mean(values))
    assert data["runs"]["d"]["crf"] == ["crf#1", "crf#2"]
    capsys.readouterr()
    assert nerlens_main(["report", "--data", "d", gold, gold, "--pred", f"crf={pred}",
                         "--pred-scored", files[0], "--output", str(out)]) == 2
    assert "system 'crf' has runs of --pred and of --pred-scored on dataset 'd'" in \
        capsys.readouterr().err
