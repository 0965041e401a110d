"""The evaluate module metrics/tough_mentions, its metric card and its Space app.

evaluate is slow to import: one module-scoped fixture; the missing-package check and the
Space app (Gradio) run in a background process started first, so that the imports overlap.
"""
from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tough_mentions
from nerspan import TrainIndex
from tests.conftest import tagged_split

REPO = Path(__file__).resolve().parents[1]
MODULE = str(REPO / "metrics" / "tough_mentions")
APP = str(REPO / "metrics" / "tough_mentions" / "app.py")

TRAIN_TOKENS = [["Newcastle", "is", "a", "city", "in", "the", "UK"],
                ["Kim", "lives", "in", "Paris"]]
TRAIN_TAGS = [["B-LOC", "O", "O", "O", "O", "O", "B-LOC"], ["B-PER", "O", "O", "B-LOC"]]
TOKENS = [["John", "Brown", ",", "the", "Newcastle", "star", "from", "the", "UK"],
          ["Jordan", "flew", "to", "Jordan", "with", "Kim"]]
REFERENCES = [["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "O", "B-LOC"],
              ["B-PER", "O", "O", "B-LOC", "O", "B-PER"]]
PREDICTIONS = [["B-PER", "I-PER", "O", "O", "B-LOC", "O", "O", "O", "B-LOC"],
               ["B-PER", "O", "O", "B-PER", "O", "B-PER"]]

# Run in a background process (its imports overlap with this process's evaluate import):
# The Space app is built (Gradio imported, nothing launched) and its pre-filled example
# computed; the result is printed as JSON on the last line.
BACKGROUND = f"""
import json, importlib.util
spec = importlib.util.spec_from_file_location("tough_mentions_space_app", {APP!r})
app = importlib.util.module_from_spec(spec)
spec.loader.exec_module(app)
print(json.dumps({{"family": app.demo.family, "result": app.demo.example_result()}}))
"""


@pytest.fixture(scope="module")
def background():
    process = subprocess.Popen([sys.executable, "-c", BACKGROUND], cwd=REPO, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    yield process
    if process.poll() is None:
        process.kill()


@pytest.fixture(scope="module")
def background_output(background):
    out, err = background.communicate(timeout=180)
    assert background.returncode == 0, err[-2000:]
    return out.strip().splitlines()


@pytest.fixture(scope="module")
def evaluate_module(background):
    import evaluate
    return evaluate


def expected(**options) -> dict:
    return tough_mentions.score(REFERENCES, PREDICTIONS, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS), **options).to_dict()


@pytest.fixture(scope="module")
def loaded(evaluate_module):
    """The module with training data and tokens given at load time, and a count of every
    TrainIndex.build call made while it is in use."""
    builds = []
    original = TrainIndex.build.__func__

    def counted(cls, *args, **kwargs):
        builds.append(1)
        return original(cls, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TrainIndex, "build", classmethod(counted))
        metric = evaluate_module.load(MODULE, train=(TRAIN_TOKENS, TRAIN_TAGS),
                                      tokens=TOKENS)
        yield metric, builds


@pytest.fixture(scope="module")
def plain(evaluate_module):
    return evaluate_module.load(MODULE)


def test_load_time_training_data_is_indexed_once(loaded):
    metric, builds = loaded
    assert builds == [1]
    want = expected()
    del builds[1:]   # expected() indexed its own copy
    first = metric.compute(references=REFERENCES, predictions=PREDICTIONS)
    second = metric.compute(references=REFERENCES, predictions=PREDICTIONS)
    assert first == second == want and builds == [1]
    assert want["counts"]["tcm_unseen"] == 2 and want["recall_tcm_unseen"] == 0.5
    assert set(want) >= {"precision", "recall", "f1", "recall_seen", "recall_unseen_any",
                         "recall_unseen_tokens", "recall_unseen_type", "recall_tcm_all",
                         "recall_tcm_seen", "recall_tcm_unseen", "counts", "per_type",
                         "composition"}
    # options at compute time; unknown keywords (evaluate.combine passes every keyword
    # to every module) are ignored
    folded = metric.compute(references=REFERENCES, predictions=PREDICTIONS,
                            case_sensitive=False, return_mentions=True, zero_division=1,
                            weights="fair")
    assert folded == expected(case_sensitive=False, return_mentions=True)
    assert folded["options"]["case_sensitive"] is False and "mentions" in folded


def test_another_scheme_at_compute_indexes_the_load_time_data_for_it(loaded):
    metric, builds = loaded
    del builds[:]
    iobes = [[t.replace("B-", "S-") for t in sentence] for sentence in REFERENCES]
    first = metric.compute(references=iobes, predictions=iobes, scheme="IOBES")
    again = metric.compute(references=iobes, predictions=iobes, scheme="IOBES")
    assert builds == [1]  # indexed once more, for IOBES, then reused
    assert first == again and first["recall"] == 1.0


def test_training_data_at_compute(plain):
    given = plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS,
                          train=(TRAIN_TOKENS, TRAIN_TAGS))
    assert given == expected()
    with pytest.raises(ValueError, match="training data"):
        plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS)


def test_datasets_split_as_training_data(plain):
    split = tagged_split(TRAIN_TOKENS, TRAIN_TAGS,
                         ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])
    assert tough_mentions.score(REFERENCES, PREDICTIONS, tokens=TOKENS,
                                train=split).to_dict() == expected()
    assert plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS,
                         train=split, case_sensitive=True) == expected()


def test_docstring_examples_run(plain, monkeypatch):
    monkeypatch.chdir(REPO)   # the examples load "metrics/tough_mentions"
    test = doctest.DocTestParser().get_doctest(plain.info.inputs_description, {},
                                               "tough_mentions", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8


def test_metric_card_example_runs_and_header_is_a_space(evaluate_module, monkeypatch):
    monkeypatch.chdir(REPO)
    card = REPO / "metrics" / "tough_mentions" / "README.md"
    result = doctest.testfile(str(card), module_relative=False)
    assert result.failed == 0 and result.attempted >= 4
    header = card.read_text().split("---")[1]
    for line in ("sdk: gradio", "sdk_version: 6.31.0", "app_file: app.py", "- evaluate",
                 "- metric", "title:", "emoji:", "colorFrom:", "colorTo:", "description:"):
        assert line in header, line
    requirements = (REPO / "metrics" / "tough_mentions" / "requirements.txt").read_text().split()
    assert requirements == ["nerlens", "gradio"]


def test_space_app_builds_and_computes(background_output):
    app = json.loads(background_output[-1])
    assert app["family"] == "tough_mentions"
    result = app["result"]
    # the example exercises every subset (see the comment in app.py)
    assert all(result["counts"][name] > 0 for name in result["counts"])
    assert result["recall_seen"] == 1.0 and result["recall_unseen_any"] == 0.5
    assert result["recall_unseen_type"] == 1 / 3 and result["recall_tcm_seen"] == 0.5
    assert result["hits"]["tcm_unseen"] == 1 and result["counts"]["tcm_unseen"] == 2
