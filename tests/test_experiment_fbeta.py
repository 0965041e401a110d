"""``beta`` in experiments (``nerlens.run_experiment(..., beta=B)``, ``nerlens report --data
... --beta B`` and the manifest route): the entity F-beta taken as F1 is, mean +- std over
runs equal to the per-run reports' F-beta and to seqeval's
``precision_recall_fscore_support(..., beta=B, average="micro")`` of each run, tested by
Wilcoxon as the other headline numbers, shown by its name ("entity F2")."""
from __future__ import annotations

import json
import statistics
import warnings

import pytest

import nerlens
from nerlens.cli import main
from nerspan.fbeta import fbeta_key
from nerspan.significance import wilcoxon

seqeval_metrics = pytest.importorskip("seqeval.metrics.sequence_labeling")

GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "B-PER"], ["B-LOC", "O", "O"],
        ["O", "B-ORG", "I-ORG"]]
TOKENS = [["Ana", "Lee", "in", "Rome"], ["Acme", "hired", "Kim"], ["Oslo", "is", "cold"],
          ["the", "Red", "Cross"]]
RUNS = {   # system -> runs (dataset "b" takes them in reverse order)
    "tagger": [
        [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "O", "O"], ["B-LOC", "O", "B-PER"],
         ["O", "B-ORG", "I-ORG"]],
        [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "O", "B-PER"], ["O", "O", "O"],
         ["O", "B-ORG", "O"]],
        [["B-PER", "I-PER", "O", "B-LOC"], ["O", "O", "B-PER"], ["B-LOC", "O", "O"],
         ["B-ORG", "I-ORG", "I-ORG"]]],
    "other": [
        [["B-PER", "I-PER", "O", "B-LOC"], ["B-LOC", "O", "B-PER"], ["B-LOC", "O", "O"],
         ["O", "B-ORG", "I-ORG"]],
        [["O", "O", "O", "B-LOC"], ["B-ORG", "O", "B-PER"], ["B-LOC", "O", "O"],
         ["O", "O", "O"]],
        [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "B-PER"], ["B-LOC", "O", "O"],
         ["O", "B-ORG", "I-ORG"]]]}
DATASETS = {"a": RUNS, "b": {s: runs[::-1] for s, runs in RUNS.items()}}
BETA = 2.0
KEY = fbeta_key(BETA, "entity_")


def datasets() -> dict:
    return {name: {"gold": GOLD, "tokens": TOKENS, "systems": systems}
            for name, systems in DATASETS.items()}


def seqeval_fbeta(pred, beta=BETA) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return seqeval_metrics.precision_recall_fscore_support(GOLD, pred, beta=beta,
                                                               average="micro")[2]


@pytest.fixture(scope="module")
def exp():
    return nerlens.run_experiment(datasets(), families=["faireval"], bootstrap=0, figures=False,
                              beta=BETA)


def test_fbeta_over_runs_equals_each_runs_report_and_seqeval(exp):
    assert exp.info["beta"] == BETA and exp.higher_is_better[KEY] is True
    for name, systems in DATASETS.items():
        for system, runs in systems.items():
            oracle = [seqeval_fbeta(run) for run in runs]
            alone = [nerlens.build_report(GOLD, {"s": run}, tokens=TOKENS, families=["faireval"],
                                    bootstrap=0, figures=False, beta=BETA).estimates["s"][KEY]
                     for run in runs]
            assert alone == pytest.approx(oracle, abs=1e-12)
            cell = exp.aggregate_cell(name, system, KEY)
            assert cell["n"] == len(runs)
            assert cell["mean"] == pytest.approx(statistics.mean(alone), abs=1e-12)
            assert cell["std"] == pytest.approx(statistics.stdev(alone), abs=1e-9)


def test_fbeta_is_tested_by_wilcoxon_as_f1(exp):
    test = exp.wilcoxon["tagger vs other"][KEY]
    xs = [seqeval_fbeta(run) for name in DATASETS for run in DATASETS[name]["tagger"]]
    ys = [seqeval_fbeta(run) for name in DATASETS for run in DATASETS[name]["other"]]
    want = wilcoxon(xs, ys)
    assert test["n_pairs"] == want["n_pairs"] == 6
    assert test["pvalue"] == pytest.approx(want["pvalue"])
    assert test["difference"] == pytest.approx(statistics.mean(xs) - statistics.mean(ys))
    # one pair of systems: Holm's correction leaves p as it is
    assert test["pvalue_holm"] == pytest.approx(test["pvalue"])
    assert list(exp.wilcoxon["tagger vs other"])[:2] == ["entity_f1", KEY]


def test_fbeta_is_named_for_a_reader(exp):
    page = exp.to_html()
    assert "<h4>entity F2</h4>" in page and "F-beta&#x27;s beta" in page
    assert f">{KEY}<" not in page   # a key only in a hover (title), as entity_f1
    summary = exp.summary()
    assert "Entity F2 (%), beta 2, mean+-std over runs (runs):" in summary
    assert KEY not in summary


def test_beta_1_adds_nothing():
    plain = nerlens.run_experiment(datasets(), families=["faireval"], bootstrap=0, figures=False)
    one = nerlens.run_experiment(datasets(), families=["faireval"], bootstrap=0, figures=False,
                             beta=1)
    assert "beta" not in one.info and "entity_f1" in one.higher_is_better
    assert not any(k.startswith("entity_f") and k != "entity_f1" for k in one.higher_is_better)
    assert one.aggregate == plain.aggregate and one.wilcoxon == plain.wilcoxon


def _write(path, tags):
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts))
                                for ws, ts in zip(TOKENS, tags)) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("form", ["data", "manifest"])
def test_the_command_line_gives_the_apis_numbers(exp, tmp_path, capsys, form):
    files = {name: {"gold": _write(tmp_path / f"{name}_gold.txt", GOLD),
                    "systems": {s: [_write(tmp_path / f"{name}_{s}_{k}.txt", run)
                                    for k, run in enumerate(runs)]
                                for s, runs in systems.items()}}
             for name, systems in DATASETS.items()}
    common = ["report", "--no-progress", "--bootstrap", "0", "--families", "faireval",
              "--beta", "2", "--format", "json", "--output", str(tmp_path / "out")]
    if form == "data":
        argv = list(common)
        for name, entry in files.items():
            argv += ["--data", name, entry["gold"], entry["gold"], "--pred"]
            argv += [f"{s}={path}" for s, paths in entry["systems"].items() for path in paths]
    else:
        manifest = tmp_path / "experiment.json"
        manifest.write_text(json.dumps({name: {"gold": entry["gold"], "train": entry["gold"],
                                               "predictions": entry["systems"]}
                                        for name, entry in files.items()}))
        argv = common + ["--manifest", str(manifest)]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["info"]["beta"] == BETA
    for name in DATASETS:
        for system in RUNS:
            assert got["aggregate"][name][system][KEY] == pytest.approx(
                exp.aggregate[name][system][KEY])
    assert got["wilcoxon"]["tagger vs other"][KEY]["pvalue"] == pytest.approx(
        exp.wilcoxon["tagger vs other"][KEY]["pvalue"])
