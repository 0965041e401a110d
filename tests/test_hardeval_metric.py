"""The evaluate module metrics/hardeval and its Space app (evaluate is slow to import:
one module-scoped fixture; the missing-package check is in test_metric_modules.py)."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import hardeval
from tests.conftest import tagged_split

REPO = Path(__file__).resolve().parents[1]

TRAIN_TOKENS = [["Kim", "lives", "in", "Paris"], ["Paris", "Hilton", "said"]]
TRAIN_TAGS = [["B-PER", "O", "O", "B-LOC"], ["B-PER", "I-PER", "O"]]
TOKENS = [["Ana", "lives", "in", "Paris"], ["Hilton", "said", "in", "Lyon"]]
REFERENCES = [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "O", "O", "B-LOC"]]
PREDICTIONS = [["B-PER", "O", "O", "B-PER"], ["B-PER", "O", "B-LOC", "I-LOC"]]

@pytest.fixture(scope="module")
def evaluate_module():
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        import evaluate
        yield evaluate


def test_compute_equals_score_with_training_data_at_load_or_compute(evaluate_module):
    expected = hardeval.score(REFERENCES, PREDICTIONS, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS), error_labels="bio").to_dict()
    loaded = evaluate_module.load("metrics/hardeval", train=(TRAIN_TOKENS, TRAIN_TAGS), tokens=TOKENS, error_labels="bio")
    assert loaded.compute(references=REFERENCES, predictions=PREDICTIONS) == expected
    plain = evaluate_module.load("metrics/hardeval")
    given = plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS,
                          train=(TRAIN_TOKENS, TRAIN_TAGS), error_labels="bio")
    assert given == expected
    # Hand check (bio): unseen Ana (right), Lyon (I-LOC for B-LOC: error); diff-E Hilton
    # (ORG, trained PER: error); Paris (LOC, trained LOC/PER: a tie) and "in" are other.
    assert expected["subsets"]["unseen"]["tokens"] == 2 and expected["ter_unseen"] == 0.5
    assert expected["subsets"]["diff_e"]["tokens"] == 1 and expected["ter_diff"] == 1.0
    assert expected["hardeval"] == 0.75
    with pytest.raises(ValueError, match="training data"):
        plain.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS)


def test_kfold_is_a_module_option_that_needs_no_training_data(evaluate_module):
    expected = hardeval.score(REFERENCES, PREDICTIONS, tokens=TOKENS,
                              options={"kfold": 2, "fold_seed": 1}).to_dict()
    metric = evaluate_module.load("metrics/hardeval", kfold=2)
    got = metric.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS,
                         fold_seed=1)
    assert got == expected and got["kfold"]["fold_sentences"] == [1, 1]


def test_docstring_examples_run(evaluate_module):
    module = evaluate_module.load("metrics/hardeval")
    test = doctest.DocTestParser().get_doctest(module.info.inputs_description, {}, "hardeval",
                                               "metrics/hardeval/hardeval.py", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5


def test_space_app_builds_and_computes():
    import importlib.util
    spec = importlib.util.spec_from_file_location("hardeval_space_app",
                                                  REPO / "metrics" / "hardeval" / "app.py")
    app = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(app)   # builds the Gradio app, launches nothing
    assert app.demo.family == "hardeval"
    result = app.demo.example_result()
    # The example, by hand: Ana unseen-I (right); Hilton (ORG, trained PER) and Washington
    # (LOC, trained PER) diff-E (both wrong); Paris LOC/PER tie: other (wrong).
    assert result["subsets"]["all"]["tokens"] == 10
    assert (result["ter_unseen"], result["ter_diff"], result["hardeval"]) == (0.0, 1.0, 0.5)
    assert result["subsets"]["other"]["errors"] == 1


def test_datasets_split_as_training_data(evaluate_module):
    split = tagged_split(TRAIN_TOKENS, TRAIN_TAGS,
                         ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])
    expected = hardeval.score(REFERENCES, PREDICTIONS, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS)).to_dict()
    assert hardeval.score(REFERENCES, PREDICTIONS, tokens=TOKENS, train=split).to_dict() == expected
    metric = evaluate_module.load("metrics/hardeval", train=split, tokens=TOKENS)
    assert metric.compute(references=REFERENCES, predictions=PREDICTIONS) == expected
