"""The family commands at a threshold (issue 40): ``nerlens tough-mentions | hardeval |
faireval | buckets GOLD PRED.jsonl --threshold T`` reads each PRED span file whose spans
carry a ``score`` through the shared reading (``nerspan.reading.systems.kept_file``) and
gives the family's ``score(..., inputs={"threshold": T})`` of the same spans."""
from __future__ import annotations

import json
import re

import pytest

import attribute_buckets
import faireval
import hardeval
import tough_mentions
from nerspan import Corpus
from nerlens.cli import main

WORDS = [["John", "Smith", "saw", "Paris"], ["Ada", "met", "Bob"], ["Oslo", "is", "cold"]]
GOLD_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "O", "B-PER"], ["B-LOC", "O", "O"]]
TRAIN = ([["John", "met", "Oslo"], ["Paris", "and", "Bob"]],
         [["B-PER", "O", "B-LOC"], ["B-LOC", "O", "B-PER"]])
# a copy of a mention with a lower score (kept once, counted in repairs), and one with a
# higher score than a mention the threshold drops (kept at the higher)
SPANS = [[[0, 2, "PER", 0.9], [3, 4, "PER", 0.55], [0, 2, "PER", 0.2]],
         [[0, 1, "PER", 0.7], [2, 3, "PER", 0.3], [2, 3, "PER", 0.6]],
         [[0, 1, "LOC", 0.45], [2, 3, "ORG", 0.8]]]
# command -> (the family's score, whether it takes --train)
COMMANDS = {"tough-mentions": (tough_mentions.score, True), "hardeval": (hardeval.score, True),
            "faireval": (faireval.score, False), "buckets": (attribute_buckets.score, True)}


def columns(words, tags) -> str:
    return "".join("".join(f"{w} {t}\n" for w, t in zip(ws, ts)) + "\n"
                   for ws, ts in zip(words, tags))


@pytest.fixture
def paths(tmp_path) -> dict:
    files = {"gold": columns(WORDS, GOLD_TAGS), "train": columns(*TRAIN),
             "pred.jsonl": "".join(json.dumps({"spans": s}) + "\n" for s in SPANS)}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return {name.split(".")[0]: str(tmp_path / name) for name in files}


def run(capsys, args: list) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def cli_args(command: str, paths: dict, *flags) -> list:
    train = ["--train", paths["train"]] if COMMANDS[command][1] else []
    return [command, paths["gold"], paths["pred"], *train, *flags]


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("threshold", [0.0, 0.45, 0.5, 0.7, 1.0])
def test_a_family_command_at_a_threshold_is_the_familys_api_at_it(paths, capsys, command,
                                                                   threshold):
    code, out, err = run(capsys, cli_args(command, paths, "--threshold", threshold,
                                          "--format", "json"))
    assert code == 0, err
    score, needs_train = COMMANDS[command]
    expected = score(Corpus.from_tags(GOLD_TAGS, tokens=WORDS), SPANS,
                     inputs={"threshold": threshold},
                     **({"train": TRAIN} if needs_train else {})).to_dict()
    result = json.loads(out)
    assert result == json.loads(json.dumps(expected))
    assert result["options"]["threshold"] == threshold
    assert result["repairs"]["pred"]["duplicates"] == 2


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_text_view_at_a_threshold(paths, capsys, command):
    code, out, err = run(capsys, cli_args(command, paths, "--threshold", "0.5"))
    assert code == 0, err
    assert out.strip() and "Traceback" not in err


@pytest.mark.parametrize("case, message", [
    ("jsonl", r"without jsonl or generated files"),
    # GOLD given as PRED too: its system is named gold' (gold's name is taken), as said
    ("tags", r"gold, system \"gold'\": not a JSON Lines span file whose spans carry a "
             r"\"score\""),
    ("short", r"pred\.jsonl: 2 lines of spans, but gold holds 3 sentences"),
])
def test_what_a_threshold_cannot_read_is_one_clear_error(paths, capsys, case, message):
    args = cli_args("tough-mentions", paths, "--threshold", "0.5")
    if case == "jsonl":
        args.append("--jsonl")
    elif case == "tags":   # a column file given as PRED
        args[2] = paths["gold"]
    else:
        with open(paths["pred"], "w", encoding="utf-8") as handle:
            handle.write("".join(json.dumps({"spans": s}) + "\n" for s in SPANS[:2]))
    code, out, err = run(capsys, args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert re.search(message, err), err
