"""Acceptance: the GermEval 2014 outputs each score, or fail naming exactly what to fix.

The seven system outputs in ../shared/data/germeval2014 are messy on purpose: IOB1 and
IOB2 mixed, MISC where the gold says OTH, rows without a tag (the spaCy outputs), tokens
normalised by the system (Stanford drops '/'), one space-separated file (GermaNER), real
'#' tokens. Each one is scored against the official test TSV (index, token, outer tag,
inner tag, '#' comment lines); a refusal must name one flag, and with the flags it names
the command scores, with seqeval's F1 on the same tags read independently here.
"""
from __future__ import annotations

import json
import re

import pytest

from nerlens.cli import main

from .conftest import shared_path

SYSTEMS = {  # file -> the flags its refusals name, in order
    "germaner_trained_with_germeval_tested_on_germeval.tsv": [],
    "lstm_trained_with_conll_tested_on_germeval-evaluatoready.tsv": [],
    "lstm_trained_with_germeval_tested_on_germeval-evaluatoready.tsv": [],
    "spacy_trained_with_conll_tested_on_germeval.tsv": ["--missing-tag"],
    "spacy_trained_with_germeval_tested_on_germeval.tsv": ["--missing-tag"],
    "stanford_trained_with_conll_tested_on_germeval.tsv": ["--allow-token-mismatch"],
    "stanford_trained_with_germeval_tested_on_germeval.tsv": ["--allow-token-mismatch"],
}
REMEDIES = {"--missing-tag": ["--missing-tag", "O"],
            "--allow-token-mismatch": ["--allow-token-mismatch"]}
GERMEVAL = ["--token-column", "1", "--gold-tag-column", "2", "--comment-prefix", "#"]


def gold_tags(path) -> list[list[str]]:
    """The outer tags of the official TSV, sentence by sentence."""
    sentences, current = [], []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("#\t"):
            continue
        if not line.strip():
            if current:
                sentences.append(current)
            current = []
            continue
        current.append(line.split("\t")[2])
    return sentences + ([current] if current else [])


def system_tags(path) -> list[list[str]]:
    """The last column; a row without its tag ('token<TAB>') is O."""
    sentences, current = [], []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            if current:
                sentences.append(current)
            current = []
            continue
        fields = line.split()
        current.append(fields[-1] if len(fields) == 2 or line.startswith("\t") else "O")
    return sentences + ([current] if current else [])


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_each_output_scores_or_names_its_fix(name, capsys):
    seqeval_metrics = pytest.importorskip("seqeval.metrics")
    gold = shared_path("data", "germeval2014", "NER-de-test.tsv")
    system = shared_path("data", "germeval2014", "systems", name)
    flags, named = [], []
    for _ in range(len(REMEDIES) + 1):
        code = main(["score", str(gold), str(system), *GERMEVAL, *flags, "--format", "json"])
        out, err = capsys.readouterr()
        if code == 0:
            break
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
        assert re.match(rf"nerlens: error: {re.escape(str(system))}:\d+, sentence \d+: ",
                        lines[0]), lines[0]
        remedy = [flag for flag in REMEDIES if flag in lines[0]]
        assert len(remedy) == 1, lines[0]
        named += remedy
        flags += REMEDIES[remedy[0]]
    assert code == 0 and named == SYSTEMS[name]
    result = json.loads(out)
    expected = seqeval_metrics.f1_score(gold_tags(gold), system_tags(system))
    assert result["f1"] == pytest.approx(expected, abs=1e-12)
    if named:   # what the flags accepted is counted on stderr
        assert ("without a tag read with --missing-tag" in err
                or "tokens differ" in err and "accepted" in err), err


@pytest.mark.parametrize("command", ["tough-mentions", "hardeval", "faireval", "buckets",
                                     "report"])
def test_every_command_reads_germeval(command, tmp_path, capsys):
    """The same flags through every command, the dev set as training data."""
    gold = shared_path("data", "germeval2014", "NER-de-test.tsv")
    dev = shared_path("data", "germeval2014", "NER-de-dev.tsv")
    system = shared_path("data", "germeval2014", "systems",
                         "stanford_trained_with_germeval_tested_on_germeval.tsv")
    flags = [*GERMEVAL, "--allow-token-mismatch", "--format", "json"]
    train = ["--train", str(dev), "--train-token-column", "1", "--train-tag-column", "2"]
    if command == "report":
        args = ["report", str(gold), str(system), *train, *flags, "--bootstrap", "0",
                "--output", str(tmp_path), "--no-progress"]
    elif command == "faireval":
        args = [command, str(gold), str(system), *flags]
    else:
        args = [command, str(gold), str(system), *train, *flags]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert "81 tokens differ" in err
    result = json.loads(out)
    if command == "report":
        result = result["estimates"][system.stem]
        assert 0 < result["entity_f1"] < 1 and result["tough_mentions.recall_seen"] is not None
    elif command == "hardeval":
        assert 0 < result["ter"] < 1
    else:
        assert 0 < result["f1" if command != "faireval" else "fair_f1"] < 1
