"""One name, one meaning: a key that two results share holds the same number in both.

One input goes through every entry point (``nerspan.score``, the four families' ``score``,
their evaluate modules, the CLI's ``--format json``, ``nerlens.report``'s JSON and the
Trainer helper); every result is flattened as the Trainer names its numbers (the family
prefix left off), and every name found in two results must hold the same number there.
So ``f1`` is the exact-match entity F1 wherever it appears, never FairEval's fair F1
(``fair_f1``), and ``weighted_*`` is the support-weighted average wherever it appears,
never the scores under a FairEval weight table (``weight_table_*``).
"""
from __future__ import annotations

import json
import math
from itertools import combinations
from pathlib import Path

import pytest

import attribute_buckets
import faireval
import hardeval
import nerlens
import nerspan
import tough_mentions
from nerlens.cli import main
from nerlens.trainer import flat_scalars, make_compute_metrics

from tests.test_result_contract import (COMMANDS, NEEDS_TRAIN, REFERENCES, REPO, TOKENS,
                                        TRAIN_TAGS, TRAIN_TOKENS)

# a boundary error (Ana Lee -> Lee), a labeling error (Paris LOC -> PER), a miss, an FP:
# fair F1 differs from exact-match F1
PREDICTIONS = [["O", "B-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "B-LOC", "O", "B-PER"],
               ["O", "O", "O"]]
FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")
# the report's statistics named as their family's keys
ENTITY_ESTIMATES = {"entity_precision": "precision", "entity_recall": "recall",
                    "entity_f1": "f1"}


def flat(family: str, result: dict) -> dict:
    """The result's numbers under the Trainer's names, without the family prefix."""
    return {name[len(family) + 1:]: value for name, value in flat_scalars(family, result).items()}


def api() -> dict:
    train = dict(train=(TRAIN_TOKENS, TRAIN_TAGS))
    out = {"api nerspan": flat("nerspan", nerspan.score(REFERENCES, PREDICTIONS).to_dict())}
    for family, package in zip(FAMILIES, (faireval, tough_mentions, hardeval,
                                          attribute_buckets)):
        extra = dict(tokens=TOKENS, **train) if family in NEEDS_TRAIN else {}
        out[f"api {family}"] = flat(family, package.score(REFERENCES, PREDICTIONS,
                                                          **extra).to_dict())
    return out


def modules() -> dict:
    evaluate = pytest.importorskip("evaluate")
    out = {}
    for family in FAMILIES:
        if family in NEEDS_TRAIN:
            metric = evaluate.load(str(REPO / "metrics" / family), train=(TRAIN_TOKENS, TRAIN_TAGS))
            result = metric.compute(references=REFERENCES, predictions=PREDICTIONS,
                                    tokens=TOKENS)
        else:
            metric = evaluate.load(str(REPO / "metrics" / family))
            result = metric.compute(references=REFERENCES, predictions=PREDICTIONS)
        out[f"module {family}"] = flat(family, result)
    return out


def write_columns(path: Path, *columns_per_sentence) -> str:
    path.write_text("\n\n".join("\n".join(" ".join(cells) for cells in zip(*columns))
                                for columns in zip(*columns_per_sentence)) + "\n",
                    encoding="utf-8")
    return str(path)


def cli(tmp_path: Path, capsys) -> dict:
    train = write_columns(tmp_path / "train.txt", TRAIN_TOKENS, TRAIN_TAGS)
    both = write_columns(tmp_path / "both.txt", TOKENS, REFERENCES, PREDICTIONS)
    out = {}
    for family, command in COMMANDS.items():
        argv = [command] + (["--train", train] if family in NEEDS_TRAIN else [])
        capsys.readouterr()
        assert main(argv + [both, "--format", "json"]) == 0
        out[f"cli {command}"] = flat(family, json.loads(capsys.readouterr().out))
    return out


def report() -> dict:
    train = nerspan.as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    made = nerlens.build_report(REFERENCES, {"tagger": PREDICTIONS}, train=train, tokens=TOKENS,
                          bootstrap=0, figures=False)
    data = json.loads(made.to_json())
    results = data["results"]["tagger"]
    out = {"report entity": flat("nerspan", results["entity"])}
    out.update({f"report {family}": flat(family, results[family]) for family in FAMILIES})
    by_family: dict = {"nerspan": {}}
    for name, value in data["estimates"]["tagger"].items():
        if value is None or ".buckets." in name:   # undefined; buckets are named by index
            continue
        if name in ENTITY_ESTIMATES:
            by_family["nerspan"][ENTITY_ESTIMATES[name]] = value
        else:
            family, _, key = name.partition(".")
            by_family.setdefault(family, {})[key.replace(".", "_")] = value
    out.update({f"report estimates {family}": numbers
                for family, numbers in by_family.items()})
    return out


def trainer() -> dict:
    labels = sorted({tag for tags in REFERENCES + PREDICTIONS for tag in tags})
    compute = make_compute_metrics(labels, eval_tokens=TOKENS, train=nerspan.as_train_index(
        (TRAIN_TOKENS, TRAIN_TAGS)), detail="all")  # every number is compared
    ids = [[[labels.index(tag) for tag in tags] for tags in side]
           for side in (REFERENCES, PREDICTIONS)]
    logged = compute.compute(*ids)
    out = {}
    for family in FAMILIES:
        out[f"trainer {family}"] = {name[len(family) + 1:]: value
                                    for name, value in logged.items()
                                    if name.startswith(family + "_")}
    return out


def disagreements(results: dict) -> list[str]:
    """Every name two results share whose numbers differ, with both values."""
    wrong = []
    for (a, x), (b, y) in combinations(results.items(), 2):
        for name in sorted(set(x) & set(y)):
            if not math.isclose(x[name], y[name], rel_tol=0, abs_tol=1e-12):
                wrong.append(f"{name}: {x[name]!r} in {a}, {y[name]!r} in {b}")
    return wrong


def test_every_shared_name_holds_the_same_number_in_every_result(tmp_path, capsys):
    results = {**api(), **cli(tmp_path, capsys), **report(), **trainer(), **modules()}
    assert disagreements(results) == []
    # the input tells the scores apart: a fair F1 under the name f1 would be caught
    faireval_result = results["api faireval"]
    assert faireval_result["fair_f1"] != faireval_result["f1"]
    # the headline names reach every entry point of nerspan, faireval, tough_mentions and
    # attribute_buckets: API, CLI and report 4 each, modules and Trainer 3, estimates 1
    for name in ("precision", "recall", "f1"):
        holding = [where for where, numbers in results.items() if name in numbers]
        assert len(holding) == 19, (name, holding)
    assert sum(len(numbers) for numbers in results.values()) > 1000
    assert results["api nerspan"]["f1"] == nerspan.score(REFERENCES, PREDICTIONS).micro()[2]


def test_weighted_means_support_weighted_wherever_it_appears():
    entity = nerspan.score(REFERENCES, PREDICTIONS)
    fair = faireval.score(REFERENCES, PREDICTIONS, weights="weighted").to_dict()
    assert entity.to_dict()["weighted_f1"] == entity.support_weighted()[2]
    assert not [key for key in fair if key.startswith("weighted_")]
    assert not [key for row in fair["per_type"].values() for key in row
                if key.startswith("weighted_")]
    assert fair["weight_table_f1"] == faireval.score(
        REFERENCES, PREDICTIONS, weights="weighted").weight_table_scores()[2]


def test_beta_means_the_same_everywhere(tmp_path, capsys):
    """``beta`` (API, modules) and ``--beta`` (CLI) give the same F-beta under the same
    names wherever F1 is reported: the exact-match ``f2`` is nerspan's in every family."""
    evaluate = pytest.importorskip("evaluate")
    train = dict(train=(TRAIN_TOKENS, TRAIN_TAGS))
    results = {"api nerspan": flat("nerspan", nerspan.score(
        REFERENCES, PREDICTIONS).to_dict(beta=2))}
    families = {"faireval": faireval, "tough_mentions": tough_mentions,
                "attribute_buckets": attribute_buckets}   # hardeval reports no F1
    for family, package in families.items():
        extra = dict(tokens=TOKENS, **train) if family in NEEDS_TRAIN else {}
        results[f"api {family}"] = flat(family, package.score(
            REFERENCES, PREDICTIONS, **extra).to_dict(beta=2))
        if family in NEEDS_TRAIN:
            metric = evaluate.load(str(REPO / "metrics" / family), beta=2, **train)
            module = metric.compute(references=REFERENCES, predictions=PREDICTIONS,
                                    tokens=TOKENS)
        else:
            module = evaluate.load(str(REPO / "metrics" / family)).compute(
                references=REFERENCES, predictions=PREDICTIONS, beta=2)
        results[f"module {family}"] = flat(family, module)
    trainer_file = write_columns(tmp_path / "train.txt", TRAIN_TOKENS, TRAIN_TAGS)
    both = write_columns(tmp_path / "both.txt", TOKENS, REFERENCES, PREDICTIONS)
    for family in ("nerspan", *families):
        command = COMMANDS[family]
        argv = [command] + (["--train", trainer_file] if family in NEEDS_TRAIN else [])
        capsys.readouterr()
        assert main(argv + [both, "--beta", "2", "--format", "json"]) == 0
        results[f"cli {command}"] = flat(family, json.loads(capsys.readouterr().out))
    assert disagreements(results) == []
    holding = [where for where, numbers in results.items() if "f2" in numbers]
    assert len(holding) == len(results) == 2 + 3 * 3, holding
    assert results["api faireval"]["fair_f2"] != results["api faireval"]["f2"]


def test_confusion_means_the_same_in_the_api_and_the_cli(tmp_path, capsys):
    both = write_columns(tmp_path / "both.txt", TOKENS, REFERENCES, PREDICTIONS)
    assert main(["score", both, "--confusion", "--format", "json"]) == 0
    cli_result = json.loads(capsys.readouterr().out)
    api_result = {**nerspan.score(REFERENCES, PREDICTIONS).to_dict(),
                  **nerspan.Evaluation.build(REFERENCES, PREDICTIONS).confusion("pred")}
    for key in ("confusion", "boundary_errors"):
        assert cli_result[key] == api_result[key]
    assert disagreements({"api": flat("nerspan", api_result),
                          "cli": flat("nerspan", cli_result)}) == []
