"""Training files are recognised by their form, as prediction files are: a JSON Lines span
file is read as spans (it was read as a column file, its JSON as tags), generated output
is refused naming the file and the forms training data takes."""
from __future__ import annotations

import json

import pytest

import nerspan
import nerspan.reading
from nerlens.cli import main
from nerspan.reading.training import TRAIN_FILES, read_training_file

TOKENS = [["Kim", "runs"], ["Ada", "Lovelace", "wrote"]]
TAGS = [["B-PER", "O"], ["B-PER", "I-PER", "O"]]


def write_lines(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    columns = "\n\n".join("\n".join(f"{t} {g}" for t, g in zip(ts, gs))
                          for ts, gs in zip(TOKENS, TAGS)) + "\n"
    (tmp_path / "train.txt").write_text(columns, encoding="utf-8")
    (tmp_path / "gold.txt").write_text(columns, encoding="utf-8")
    (tmp_path / "pred.txt").write_text(columns.replace("I-PER", "O"), encoding="utf-8")
    spans = [{"tokens": TOKENS[0], "spans": [[0, 1, "PER"]]},
             {"tokens": TOKENS[1], "spans": [[0, 2, "PER"]]}]
    return {"columns": str(tmp_path / "train.txt"), "gold": str(tmp_path / "gold.txt"),
            "pred": str(tmp_path / "pred.txt"),
            "spans": write_lines(tmp_path / "train.jsonl", spans),
            "generated": write_lines(tmp_path / "gen.jsonl", [{"response": "[]"}] * 2),
            "no_words": write_lines(tmp_path / "bare.jsonl", [{"spans": []}])}


def test_a_span_file_indexes_as_its_column_file(files):
    from_spans = nerspan.as_train_index(files["spans"])
    from_columns = nerspan.as_train_index(files["columns"])
    assert from_spans.corpus.n_tokens == from_columns.corpus.n_tokens == 5
    assert from_spans.corpus.tags(nerspan.GOLD, 1) == TAGS[1]
    assert read_training_file(files["spans"]).tags(nerspan.GOLD, 0) == TAGS[0]


def test_train_jsonl_on_the_command_line_scores_as_the_column_file(files, capsys):
    outputs = []
    for train in (files["columns"], files["spans"]):
        assert main(["tough-mentions", files["gold"], files["pred"], "--train", train,
                     "--format", "json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("kind, what", [("generated", "generated output"),
                                        ("no_words", "a span file without")])
def test_a_file_that_is_no_training_data_is_one_clear_error(files, capsys, kind, what):
    assert main(["tough-mentions", files["gold"], files["pred"], "--train",
                 files[kind]]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"nerlens: error: {files[kind]}: {what}")
    assert TRAIN_FILES in err and "not a tag" not in err


def test_a_column_file_whose_first_token_is_a_brace_is_read_as_columns(files, tmp_path):
    # its first line opens with "{" but is no JSON object: a row of columns, as before
    # training files were recognised by their form
    path = tmp_path / "brace.txt"
    path.write_text("{ O\n" + open(files["columns"], encoding="utf-8").read(),
                    encoding="utf-8")
    corpus = read_training_file(str(path))
    assert corpus.sentence_tokens(0)[:2] == ["{", "Kim"]
    assert corpus.tags(nerspan.GOLD, 0) == ["O", *TAGS[0]]
    assert nerspan.as_train_index(str(path)).corpus.n_tokens == 6


def test_a_training_span_file_is_read_with_the_span_options(tmp_path):
    # spans that fit the words and the characters alike: the reader asks for offsets=,
    # which training data takes as a --jsonl file does, its error naming the training side
    path = write_lines(tmp_path / "chars.jsonl", [
        {"text": "Ada Lovelace visited Paris", "spans": [[0, 3, "PER"]]},
        {"text": "Bob met Ann", "spans": [[0, 3, "PER"]]}])
    with pytest.raises(nerspan.NerspanError, match="training tags, sentence 0: .*both ways"):
        read_training_file(path)
    as_chars = nerspan.as_train_index(path, inputs={"offsets": "chars"})
    assert as_chars.corpus.tags(nerspan.GOLD, 0) == ["B-PER", "O", "O", "O"]
    as_tokens = read_training_file(path, inputs={"offsets": "tokens"})
    assert as_tokens.tags(nerspan.GOLD, 0) == ["B-PER", "I-PER", "I-PER", "O"]


def test_the_old_training_reader_names_the_new_one():
    with pytest.raises(AttributeError, match="read_training is nerspan.reading.read_training_file"):
        nerspan.reading.read_training
