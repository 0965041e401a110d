"""The evaluate module metrics/attribute_buckets, its Space app and the ``nerlens buckets``
command (evaluate is slow to import: one module-scoped fixture; the missing-package
check is in test_metric_modules.py)."""
from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import attribute_buckets
from nerlens.cli import main
from tests.conftest import tagged_split

REPO = Path(__file__).resolve().parents[1]

TRAIN_TOKENS = [["Kim", "lives", "in", "New", "York"], ["New", "York", "is", "big"],
                ["Kim", "met", "Ana"]]
TRAIN_TAGS = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "I-ORG", "O", "O"],
              ["B-PER", "O", "B-PER"]]
TOKENS = [["Ana", "visited", "New", "York"], ["Kim", "is", "big"]]
REFERENCES = [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O"]]
PREDICTIONS = [["B-PER", "O", "B-LOC", "O"], ["B-PER", "O", "O"]]

@pytest.fixture(scope="module")
def evaluate_module():
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        import evaluate
        yield evaluate


def test_compute_equals_score_with_training_data_at_load_or_compute(evaluate_module):
    expected = attribute_buckets.score(REFERENCES, PREDICTIONS, tokens=TOKENS,
                                       train=(TRAIN_TOKENS, TRAIN_TAGS),
                                       n_buckets=3).to_dict()
    loaded = evaluate_module.load(str(REPO / "metrics" / "attribute_buckets"),
                                  train=(TRAIN_TOKENS, TRAIN_TAGS),
                                  tokens=TOKENS, n_buckets=3)
    result = loaded.compute(references=REFERENCES, predictions=PREDICTIONS)
    assert result == expected
    json.dumps(result, allow_nan=False)          # plain JSON-able values only
    plain = evaluate_module.load(str(REPO / "metrics" / "attribute_buckets"))
    given = plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS,
                          train=(TRAIN_TOKENS, TRAIN_TAGS), n_buckets=3,
                          unrelated_option="evaluate.combine passes everything")
    assert given == expected
    assert [b["name"] for b in given["buckets"]["sLen"]] == ["S", "M", "L"]
    # "New York" (LOC) occurs twice in training, once as LOC: eCon 0.5, missed (recall 0)
    econ = {b["interval"]: b for b in given["buckets"]["eCon"]}
    assert econ["{1}"]["gold"] == 2 and econ["{1}"]["f1"] == 1.0
    assert sum(b["gold"] for b in given["buckets"]["eCon"]) == 3
    with pytest.raises(ValueError, match="training data"):
        plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS)
    # without tokens at load time, tokens are an input like predictions and references
    with pytest.raises(ValueError, match="tokens"):
        plain.compute(references=REFERENCES, predictions=PREDICTIONS)
    no_train = plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS,
                             attributes=["eLen", "sLen", "eDen"])
    assert set(no_train["buckets"]) == {"eLen", "sLen", "eDen"}


def test_docstring_examples_run(evaluate_module):
    module = evaluate_module.load(str(REPO / "metrics" / "attribute_buckets"))
    test = doctest.DocTestParser().get_doctest(module.info.inputs_description, {},
                                               "attribute_buckets", "attribute_buckets.py", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5


def test_space_app_builds_and_computes():
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "attribute_buckets_space_app", REPO / "metrics" / "attribute_buckets" / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)   # builds the Gradio app, launches nothing
    assert app.demo.family == "attribute_buckets"
    result = app.demo.example_result()
    # 5 gold mentions (Ana, New York, Kim, New York Times, New York), 3 predicted right
    # of 5 (the LOC "New York" in the ORG "New York Times" and the short "New" are wrong)
    assert result["f1"] == pytest.approx(0.6)
    assert [row["gold"] for row in result["buckets"]["eLen"]] == [2, 2, 1, 0]
    page = app.demo.example_page()   # the report's tables, attributes by their names
    assert "entity label consistency (eCon)" in page and "token frequency (tFre)" in page


# -- the command line ------------------------------------------------------------------------
def write_files(folder: Path):
    train = folder / "train.txt"
    train.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts))
                                 for ws, ts in zip(TRAIN_TOKENS, TRAIN_TAGS)) + "\n")
    systems = []
    for name, tags in (("good", REFERENCES), ("weak", PREDICTIONS)):
        path = folder / f"{name}.txt"
        path.write_text("\n\n".join("\n".join(f"{w} {g} {p}" for w, g, p in zip(ws, gs, ps))
                                    for ws, gs, ps in zip(TOKENS, REFERENCES, tags)) + "\n")
        systems.append(path)
    gold = folder / "gold.txt"
    gold.write_text("\n\n".join("\n".join(f"{w} {g}" for w, g in zip(ws, gs))
                                for ws, gs in zip(TOKENS, REFERENCES)) + "\n")
    return train, gold, systems


def test_cli_table_json_and_plots(tmp_path, capsys):
    train, gold, (good, weak) = write_files(tmp_path)
    assert main(["buckets", "--train", str(train), str(gold), str(good), str(weak)]) == 0
    out = capsys.readouterr().out
    # the text is the report's section: one heading per attribute, naming it
    assert all(f"({a})\n" in out for a in attribute_buckets.ATTRIBUTES)
    assert "good" in out and "weak" in out
    assert "Self-diagnosis" in out and "Comparative diagnosis, good minus weak" in out
    assert "Model-wise" in out and "zeta" in out
    # tag: one row per gold type (LOC 1, PER 2), F1 of good and weak; no order, no Spearman;
    # every bucket holds fewer than 30 gold mentions: marked *
    lines = out.splitlines()
    start = lines.index("entity type (tag)") + 1
    assert lines[start] == "F1 per bucket (%), every system"
    assert [line.split() for line in lines[start + 3:start + 5]] == \
        [["LOC", "1", "100.00*", "0.00*"], ["PER", "2", "100.00*", "100.00*"]]
    model = next(line for line in lines if line.startswith("weak ") and "/" in line)
    assert model.split()[-1].startswith("-/")
    assert main(["buckets", "--train", str(train), str(gold), str(good), str(weak),
                 "--attributes", "eLen,eCon", "--plot", str(tmp_path / "charts")]) == 0
    assert "charts written to" in capsys.readouterr().out
    charts = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert charts == ["buckets_eCon.png", "buckets_eLen.png", "comparison.png", "heatmap.png",
                      "self_diagnosis_good.png", "self_diagnosis_weak.png"]
    assert main(["buckets", "--train", str(train), str(gold), str(weak), "--format", "json",
                 "--n-buckets", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = attribute_buckets.score(REFERENCES, PREDICTIONS, tokens=TOKENS,
                                       train=(TRAIN_TOKENS, TRAIN_TAGS),
                                       n_buckets=3).to_dict()
    assert data["buckets"] == expected["buckets"] and data["f1"] == expected["f1"]
    assert main(["buckets", "--train", str(train), str(gold), str(good), str(weak),
                 "--format", "json", "--compat", "interpreteval"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert set(both) == {"good", "weak"} and both["good"]["f1"] == 1.0
    assert both["good"]["options"]["compat"] == "interpreteval"


def test_cli_bad_input_exit_code_2_one_line(tmp_path, capsys):
    train, gold, (good, weak) = write_files(tmp_path)
    short = tmp_path / "short.txt"
    short.write_text("Ana B-PER B-PER\n\nKim B-PER B-PER\nis O O\nbig O O\n")
    assert main(["buckets", "--train", str(train), str(gold), str(short)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "sentence 0" in err
    assert main(["buckets", "--train", str(tmp_path / "missing.txt"), str(gold), str(good)]) == 2
    assert "no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:   # refused by the field's check as read
        main(["buckets", "--train", str(train), str(gold), str(good), "--attributes",
              "eLen,size"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "argument --attributes: " in err
    assert "unknown attribute" in err and len(err.strip().splitlines()) == 1


def test_datasets_split_as_training_data(evaluate_module):
    split = tagged_split(TRAIN_TOKENS, TRAIN_TAGS,
                         ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"])
    expected = attribute_buckets.score(REFERENCES, PREDICTIONS, tokens=TOKENS,
                                       train=(TRAIN_TOKENS, TRAIN_TAGS)).to_dict()
    assert attribute_buckets.score(REFERENCES, PREDICTIONS, tokens=TOKENS,
                                   train=split).to_dict() == expected
    metric = evaluate_module.load(str(REPO / "metrics" / "attribute_buckets"), train=split,
                                  tokens=TOKENS)
    assert metric.compute(references=REFERENCES, predictions=PREDICTIONS) == expected
