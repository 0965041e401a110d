"""evaluate.evaluator("token-classification") with the four modules and a tiny real model.

The evaluator passes only predictions and references to ``compute``; tokens and training
data reach the modules at ``evaluate.load(...)`` time. On transformers 5 a ``Pipeline``
object crashes the evaluator, so the model and tokenizer are passed (see docs/evaluate.md).
"""
from __future__ import annotations

import os

import pytest

pytest.importorskip("torch", reason="the evaluator test needs torch (test extra)")
pytest.importorskip("transformers", reason="the evaluator test needs transformers (test extra)")

from nerlens.demo import demo_train  # noqa: E402
from tests.conftest import REPO, tagged_split  # noqa: E402
from tests.readme_snippets import DOCS, snippet  # noqa: E402
from tests.tiny_model import demo_setup  # noqa: E402

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")
HEADLINE = {"faireval": "fair_f1", "tough_mentions": "recall_unseen_any",
            "hardeval": "hardeval", "attribute_buckets": "f1"}


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    import evaluate
    from evaluate import evaluator

    setup = demo_setup(n_eval=48)
    data = tagged_split(setup["eval_tokens"], setup["eval_tags"], setup["labels"])
    task = evaluator("token-classification")
    results, direct = {}, {}
    for family in FAMILIES:
        metric = evaluate.load(str(REPO / "metrics" / family), tokens=setup["eval_tokens"],
                               train=str(demo_train()))
        results[family] = task.compute(model_or_pipeline=setup["model"],
                                       tokenizer=setup["tokenizer"], data=data,
                                       metric=metric)
    # the documentation's snippet, verbatim, in a folder holding its "train.conll" and metrics/
    folder = tmp_path_factory.mktemp("readme")
    (folder / "train.conll").write_bytes(demo_train().read_bytes())
    (folder / "metrics").symlink_to(REPO / "metrics")
    namespace = dict(data=data, model=setup["model"], tokenizer=setup["tokenizer"])
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        exec(snippet("evaluator", DOCS / "evaluate.md"), namespace)
    finally:
        os.chdir(cwd)
    results["readme"] = namespace["results"]
    # the predictions the evaluator made, recomputed through the pipeline by hand
    predictions = _word_predictions(task, setup, data)
    for family in FAMILIES:
        module = __import__(family)
        kwargs = {} if family == "faireval" else dict(tokens=setup["eval_tokens"],
                                                      train=str(demo_train()))
        direct[family] = module.score(setup["eval_tags"], predictions, **kwargs).to_dict()
    return results, direct, predictions


def _word_predictions(task, setup, data):
    pipe = task.prepare_pipeline(model_or_pipeline=setup["model"], tokenizer=setup["tokenizer"])
    joined = [" ".join(tokens) for tokens in setup["eval_tokens"]]
    outputs = pipe(joined, **task.PIPELINE_KWARGS)
    return task.predictions_processor(outputs, setup["eval_tokens"], " ")["predictions"]


def test_every_module_works_with_the_evaluator(evaluated):
    results, direct, predictions = evaluated
    # a random-init model: predictions are not all O, so the numbers are not trivial
    assert sum(tag != "O" for sentence in predictions for tag in sentence) > 0
    for family in FAMILIES:
        key = HEADLINE[family]
        assert key in results[family], (family, sorted(results[family]))
        assert "total_time_in_seconds" in results[family]
        assert results[family][key] == direct[family][key], family


def test_readme_evaluator_snippet(evaluated):
    results, direct, _ = evaluated
    assert results["readme"]["recall_unseen_any"] == direct["tough_mentions"]["recall_unseen_any"]
