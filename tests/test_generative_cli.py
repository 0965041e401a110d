"""``--generated FILE.jsonl`` on ``nerlens score``, the family commands and ``nerlens
report``, and ``nerlens report --demo generative``: the command line gives the numbers
the API gives for the same responses (the oracle), and says how much was usable."""
from __future__ import annotations

import json

import pytest

import faireval
import nerspan
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_path
from nerspan.generative import read_generated_jsonl

GOLD = "John B-PER\nSmith I-PER\nsaw O\n\nParis B-LOC\n"
TRAIN = "Paris B-LOC\nis O\n\nJohn B-PER\n"
COMMANDS = {"score": [], "faireval": [], "tough-mentions": ["--train"],
            "hardeval": ["--train"], "buckets": ["--train"]}


def run(capsys, args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def demo_api():
    """The demo's responses scored through the API: the gold sentences they answer."""
    read = read_generated_jsonl(demo_path("generative_responses.jsonl"))
    corpus = nerspan.read_columns(demo_gold()).subset(read["sentences"])
    gold = [corpus.tags("gold", i) for i in range(corpus.n_sentences)]
    return read, gold


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "gold.txt").write_text(GOLD, encoding="utf-8")
    (tmp_path / "train.txt").write_text(TRAIN, encoding="utf-8")
    lines = [{"response": '[{"text": "John Smith", "type": "PER"}, '
                          '{"text": "Atlantis", "type": "LOC"}]'},
             {"response": "<LOC>Paris</LOC>"}]
    path = tmp_path / "llm.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return tmp_path


def test_score_gives_the_apis_numbers_on_the_demo(capsys):
    read, gold = demo_api()
    api = nerspan.score(gold, read["responses"], tokens=read["tokens"]).to_dict()
    code, out, err = run(capsys, ["score", demo_gold(), "--generated",
                                  demo_path("generative_responses.jsonl"), "--format", "json"])
    assert code == 0, err
    cli = json.loads(out)
    for key in ("gold", "predicted", "correct", "precision", "recall", "f1", "per_type"):
        assert cli[key] == api[key], key
    assert cli["repairs"]["pred"]["generative"]["summary"] == \
        api["repairs"]["pred"]["generative"]["summary"]
    assert "4 entities ungrounded" in err and "a wrong prediction" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_reads_generated_output(files, capsys, command):
    train = [files / "train.txt"] if COMMANDS[command] else []
    code, out, err = run(capsys, [command, *COMMANDS[command], *train, files / "gold.txt",
                                  "--generated", files / "llm.jsonl", "--format", "json"])
    assert code == 0, err
    assert "llm: 2 of 3 entities usable (67%); 1 entity ungrounded" in err
    result = json.loads(out)
    assert result["repairs"]["pred"]["generative"]["ungrounded"] == 1
    if command in ("score", "faireval", "tough-mentions", "buckets"):
        # by hand: 2 gold mentions found, 3 predictions (one found nowhere)
        assert result["precision"] == 2 / 3 and result["recall"] == 1.0


def test_faireval_command_equals_the_api(files, capsys):
    code, out, err = run(capsys, ["faireval", files / "gold.txt", "--generated",
                                  files / "llm.jsonl", "--format", "json"])
    api = faireval.score([["B-PER", "I-PER", "O"], ["B-LOC"]],
                         [[["John Smith", "PER"], ["Atlantis", "LOC"]], "<LOC>Paris</LOC>"],
                         tokens=[["John", "Smith", "saw"], ["Paris"]]).to_dict()
    cli = json.loads(out)
    assert cli["traditional_counts"] == api["traditional_counts"] == {"TP": 2, "FP": 1, "FN": 0}


def test_faireval_overlaps_keep_scores_a_pred_file_beside_generated_output(files, capsys):
    # the PRED file is scored as without --overlaps keep (it crashed: no training set given)
    (files / "pred.txt").write_text(GOLD, encoding="utf-8")
    code, out, err = run(capsys, ["faireval", files / "gold.txt", files / "pred.txt",
                                  "--generated", files / "llm.jsonl", "--overlaps", "keep",
                                  "--format", "json"])
    assert code == 0, err
    both = json.loads(out)
    alone = run(capsys, ["faireval", files / "gold.txt", files / "pred.txt", "--format",
                         "json"])[1]
    assert set(both) == {"pred", "llm"} and both["pred"] == json.loads(alone)


def test_generated_beside_a_prediction_file_and_grounding_flags(files, capsys):
    (files / "pred.txt").write_text(GOLD, encoding="utf-8")
    code, out, err = run(capsys, ["score", files / "gold.txt", files / "pred.txt",
                                  "--generated", files / "llm.jsonl", "--format", "json"])
    assert code == 0, err
    both = json.loads(out)
    assert set(both) == {"pred", "llm"} and both["pred"]["f1"] == 1.0
    for flag, message in ((["--fuzzy", "2"], "fuzzy must be between 0 and 1 (exclusive), not 2.0"),
                          (["--occurrences", "first"], "invalid choice: 'first'")):
        with pytest.raises(SystemExit) as stop:   # argparse's usage error
            run(capsys, ["score", files / "gold.txt", "--generated", files / "llm.jsonl",
                         *flag])
        assert stop.value.code == 2 and message in capsys.readouterr().err


def test_report_of_generated_output(files, capsys, tmp_path):
    out_dir = tmp_path / "out"
    code, _, err = run(capsys, ["report", files / "gold.txt", "--generated",
                                files / "llm.jsonl", "--train", files / "train.txt",
                                "--output", out_dir, "--bootstrap", "0", "--no-progress"])
    assert code == 0, err
    data = json.loads((out_dir / "report.json").read_text(encoding="utf-8"))
    assert data["systems"] == ["llm"]
    first = data["findings"][0]
    assert first["rule"] == "generated_output"
    assert first["text"].startswith("33.3% of llm's entities are not in the sentence "
                                    "(1 of 3 entities")
    assert data["examples"]["systems"]["llm"]["ungrounded"][0]["generated"] == "Atlantis"
    assert data["repairs"]["llm"]["generated output"] == {"ungrounded": 1}


def test_report_demo_generative(capsys, tmp_path):
    read, gold = demo_api()
    code, out, err = run(capsys, ["report", "--demo", "generative", "--output", tmp_path,
                                  "--bootstrap", "0", "--no-progress"])
    assert code == 0, err
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["systems"] == ["spacy_sm", "llm"]
    assert data["info"]["sentences"] == len(read["responses"])
    api = nerspan.score(gold, read["responses"], tokens=read["tokens"]).to_dict()
    assert data["results"]["llm"]["entity"]["f1"] == api["f1"]
    record = api["repairs"]["pred"]["generative"]
    usable = next(f for f in data["findings"] if f["rule"] == "generated_output")
    assert usable["evidence"]["ungrounded_share"] == record["ungrounded"] / record["entities"]
    listed = data["examples"]["systems"]["llm"]
    assert [row["generated"] for row in listed["ungrounded"]] == \
        [item["text"] for item in record["listed"]["ungrounded"]]
    assert len(listed["unparsed"]) == record["parse_failures"]
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "entity not in the sentence" in page and "the model&#x27;s" in page
    assert "of llm&#x27;s entities are not in the sentence" in page
    assert "llm" in out and "entities are not in the sentence" in out


def test_demo_refuses_generated_files(files, capsys, tmp_path):
    code, _, err = run(capsys, ["report", "--demo", "generative", "--generated",
                                files / "llm.jsonl", "--output", tmp_path])
    assert code == 2 and "--generated would be ignored" in err


def test_the_same_responses_twice_read_alike():
    """Each file's types are matched to gold's alone: a file read first must not make
    the unknown types of the next one known (the corpus's label list holds both)."""
    from nerspan.reading.systems import read_systems

    responses = demo_path("generative_responses.jsonl")
    corpus, names = read_systems(demo_gold(), generated={"a": responses, "b": responses})
    a, b = (corpus.source.generated[name].to_dict() for name in names)
    assert a["unknown_types"] > 0       # the demo's responses name types gold lacks
    assert a == b
    alone, _ = read_systems(demo_gold(), generated={"b": responses})
    assert alone.source.generated["b"].to_dict() == b
