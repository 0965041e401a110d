"""GermEval 2014 test with both layers (outer and inner columns, ``--layers 2,3``): every
gold mention counted, the 7 shared system outputs scored per layer and together, through
the API and the command line, against the mentions read here independently."""
from __future__ import annotations

import json
import warnings

import pytest

import nerspan
from nerlens.cli import main
from nerspan.reading.systems import read_systems

from .conftest import shared_path
from .test_germeval_files import REMEDIES, SYSTEMS

LAYERS = {"token_column": 1, "comment_prefix": "#", "layers": (2, 3)}
FLAGS = ["--token-column", "1", "--comment-prefix", "#", "--layers", "2,3"]
FIX = {"--missing-tag": {"missing_tag": "O"},
       "--allow-token-mismatch": {"allow_token_mismatch": True}}


def sentences(path, read_row, comments: bool):
    """Per sentence, ``read_row(fields)`` of each token row."""
    out, current = [], []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if comments and line.startswith("#\t"):
            continue
        if not line.strip():
            if current:
                out.append(current)
            current = []
            continue
        current.append(read_row(line))
    return out + ([current] if current else [])


def chunks(tags):
    """conlleval's chunks (IOB1 and IOB2 alike: I- after O or another type starts one)
    as (sentence, start, end, type)."""
    found = set()
    for s, sentence in enumerate(tags):
        start = kind = None
        for i, tag in enumerate(list(sentence) + ["O"]):
            prefix, _, tag_type = tag.partition("-")
            if start is not None and (prefix != "I" or tag_type != kind):
                found.add((s, start, i, kind))
                start = None
            if prefix in ("B", "I") and start is None:
                start, kind = i, tag_type
    return found


def gold_layers():
    path = shared_path("data", "germeval2014", "NER-de-test.tsv")
    rows = sentences(path, lambda line: line.split("\t"), comments=True)
    outer = chunks([[row[2] for row in s] for s in rows])
    inner = chunks([[row[3] for row in s] for s in rows])
    return path, outer, inner


def system_chunks(path):
    def tag(line):
        fields = line.split()
        return fields[-1] if len(fields) == 2 or line.startswith("\t") else "O"
    return chunks(sentences(path, tag, comments=False))


def test_every_gold_mention_of_both_layers_is_counted():
    path, outer, inner = gold_layers()
    system = shared_path("data", "germeval2014", "systems", sorted(SYSTEMS)[0])
    corpus, names = read_systems(path, [system], inputs=LAYERS)
    result = nerspan.score(corpus, names[0]).to_dict()
    assert (result["layers"]["1"]["gold"], result["layers"]["2"]["gold"]) == \
        (len(outer), len(inner))
    assert result["gold"] == len(outer | inner)
    assert result["merged_mentions"] == len(outer & inner)
    assert result["gold"] + result["merged_mentions"] == len(outer) + len(inner)


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_each_system_per_layer_and_together(name, capsys):
    path, outer, inner = gold_layers()
    system = shared_path("data", "germeval2014", "systems", name)
    predicted = system_chunks(system)
    fixes = {k: v for flag in SYSTEMS[name] for k, v in FIX[flag].items()}
    with warnings.catch_warnings():   # what the fixes accepted is warned about
        warnings.simplefilter("ignore")
        corpus, names = read_systems(path, [system], inputs={**LAYERS, **fixes})
    api = nerspan.score(corpus, names[0]).to_dict()
    expected = {"together": outer | inner, "1": outer, "2": inner}
    for part, gold in expected.items():
        got = api if part == "together" else api["layers"][part]
        assert (got["gold"], got["predicted"], got["correct"]) == \
            (len(gold), len(predicted), len(gold & predicted)), part
    flags = [f for flag in SYSTEMS[name] for f in REMEDIES[flag]]
    assert main(["score", str(path), str(system), *FLAGS, *flags, "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli["f1"] == api["f1"] and cli["gold"] == len(outer | inner)
    assert {k: v["f1"] for k, v in cli["layers"].items()} == \
        {k: v["f1"] for k, v in api["layers"].items()}
