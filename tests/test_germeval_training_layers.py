"""``--train`` with ``--layers``: the training file's same tag columns read as its layers,
every training mention (inner ones included) indexed; the command line equals the API.
On GermEval 2014 (skipped when absent): its dev file standing in for a training file
(the same format; the training file is not in ../shared), against the test gold with both
layers."""
from __future__ import annotations

import json

import tough_mentions
from nerlens.cli import main
from nerspan import Evaluation, as_train_index
from nerspan.reading.systems import read_systems

from .conftest import shared_path
from .test_germeval_layers import FLAGS, LAYERS, chunks, sentences
from .test_germeval_files import SYSTEMS

TRAIN_FLAGS = ["--train-token-column", "1"]


def germeval(name: str):
    return shared_path("data", "germeval2014", name)   # skips when absent


def mention_texts(path) -> set:
    """Every (text, type) of both layers of a GermEval file, read here."""
    rows = sentences(path, lambda line: line.split("\t"), comments=True)
    found = set()
    for column in (2, 3):
        for s, a, b, kind in chunks([[row[column] for row in sentence] for sentence in rows]):
            found.add((" ".join(row[1] for row in rows[s][a:b]), kind))
    return found


def test_tough_mentions_with_layered_training_equals_the_api(capsys):
    train = germeval("NER-de-dev.tsv")
    gold = germeval("NER-de-test.tsv")
    system = sorted(name for name in SYSTEMS if not SYSTEMS[name])[0]
    system_path = shared_path("data", "germeval2014", "systems", system)
    inputs = {**LAYERS, "train_token_column": 1}
    index = as_train_index(train, inputs=inputs)
    assert index.layers == 2
    assert set(index.mention_types()) == {text for text, _ in mention_texts(train)}
    corpus, names = read_systems(gold, [system_path], inputs=LAYERS)
    api = tough_mentions.score(Evaluation(corpus, train=index), names[0]).to_dict()
    assert api["options"]["layers"] == {"gold": 2, "train": 2}
    command = ["tough-mentions", str(gold), str(system_path), "--train", str(train),
               *FLAGS, *TRAIN_FLAGS, "--format", "json"]
    assert main(command) == 0
    cli = json.loads(capsys.readouterr().out)
    cli = cli.get("systems", {}).get(names[0], cli)
    for key in ("counts", "hits", "recall", "precision"):
        assert cli[key] == api[key], key


def test_a_training_file_of_one_tag_column_is_read_as_before(tmp_path):
    path = tmp_path / "train.txt"
    path.write_text("Kim B-PER\nruns O\n", encoding="utf-8")
    index = as_train_index(path, inputs={"layers": (2, 3)})
    assert index.layers == 1 and index.n_mentions == 1
