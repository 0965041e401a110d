"""transformers.Trainer end to end: a tiny BERT trained a few steps on the WNUT-17 demo.

The real Trainer calls nerlens's ``compute_metrics`` with logits and -100 label ids; every
family's headline keys must come back, and the numbers must equal those of the families
called directly on the decoded predictions.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="the Trainer test needs torch (test extra)")
pytest.importorskip("transformers", reason="the Trainer test needs transformers (test extra)")

from nerlens.demo import demo_train  # noqa: E402
from nerlens.trainer import make_compute_metrics  # noqa: E402
from tests.readme_snippets import DOCS, snippet  # noqa: E402
from tests.tiny_model import demo_setup, encode  # noqa: E402

HEADLINE = {
    "faireval": ["fair_f1", "traditional_f1"],
    "tough_mentions": ["recall", "recall_unseen_any"],
    "hardeval": ["ter", "ter_unseen"],
    "attribute_buckets": ["f1"],
}
FAMILIES = tuple(HEADLINE)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    return demo_setup()


def _pieces(setup, tmp_path, batch_eval_metrics=False) -> dict:
    """What the documentation's Trainer snippet expects to exist."""
    from transformers import DataCollatorForTokenClassification, TrainingArguments

    tokenizer, labels = setup["tokenizer"], setup["labels"]
    args = TrainingArguments(output_dir=str(tmp_path / "out"), per_device_train_batch_size=32,
                             per_device_eval_batch_size=16, max_steps=8, learning_rate=5e-3,
                             report_to=[], save_strategy="no", logging_strategy="no",
                             use_cpu=True, seed=0, batch_eval_metrics=batch_eval_metrics,
                             dataloader_num_workers=0)
    return dict(model=setup["model"], args=args, eval_tokens=setup["eval_tokens"],
                train_features=encode(tokenizer, *setup["train"], labels),
                eval_features=encode(tokenizer, setup["eval_tokens"], setup["eval_tags"],
                                     labels),
                collator=DataCollatorForTokenClassification(tokenizer))


def _trainer(setup, tmp_path, compute_metrics, batch_eval_metrics=False):
    from transformers import Trainer

    p = _pieces(setup, tmp_path, batch_eval_metrics)
    return Trainer(model=p["model"], args=p["args"], train_dataset=p["train_features"],
                   eval_dataset=p["eval_features"], data_collator=p["collator"],
                   compute_metrics=compute_metrics)


def test_trainer_reports_every_family(setup, tmp_path, monkeypatch):
    # the documentation's snippet, verbatim, with its "train.conll" being the demo training split
    (tmp_path / "train.conll").write_bytes(demo_train().read_bytes())
    monkeypatch.chdir(tmp_path)
    namespace = _pieces(setup, tmp_path)
    # before training the random model tags most words, so the numbers are not trivial
    exec(snippet("trainer", DOCS / "trainer-spaces.md"), namespace)
    metrics, trainer = namespace["metrics"], namespace["trainer"]
    compute_metrics = namespace["compute_metrics"]
    for family in FAMILIES:
        for key in HEADLINE[family]:
            assert f"eval_{family}_{key}" in metrics, (family, key, sorted(metrics))
            assert 0.0 <= metrics[f"eval_{family}_{key}"] <= 1.0

    # the same numbers from the families called directly on the decoded predictions
    output = trainer.predict(trainer.eval_dataset)
    labels = setup["labels"]
    predictions = [[labels[p] for p, g in zip(row_p, row_g) if g != -100]
                   for row_p, row_g in zip(output.predictions.argmax(-1), output.label_ids)]
    assert sum(tag != "O" for sentence in predictions for tag in sentence) > 0
    for family in FAMILIES:
        module = __import__(family)
        kwargs = {} if family == "faireval" else dict(tokens=setup["eval_tokens"],
                                                      train=compute_metrics.index)
        direct = module.score(setup["eval_tags"], predictions, **kwargs).to_dict()
        for key in HEADLINE[family]:
            assert metrics[f"eval_{family}_{key}"] == pytest.approx(direct[key], abs=1e-12)
        # an undefined number (WNUT-17's test set has no seen mention) is left out, not 0
        undefined = [k for k, v in direct.items() if v is None]
        assert all(f"eval_{family}_{k}" not in metrics for k in undefined), undefined
        if family == "tough_mentions":
            assert "recall_seen" in undefined

    # batch_eval_metrics: accumulated per batch, computed once at the end, same result
    batched = _trainer(setup, tmp_path, make_compute_metrics(
        labels, eval_tokens=setup["eval_tokens"], train=compute_metrics.index),
        batch_eval_metrics=True)
    batched_metrics = batched.evaluate()
    for key, value in metrics.items():
        if key.startswith(tuple(f"eval_{f}_" for f in FAMILIES)):
            assert batched_metrics[key] == pytest.approx(value, abs=1e-12), key

    # a few training steps, then the loop reports every family again
    trainer.train()
    trained = trainer.evaluate()
    assert all(f"eval_{f}_{HEADLINE[f][0]}" in trained for f in FAMILIES)


def test_compute_metrics_drops_ignored_positions():
    """Logits and -100 ids as the Trainer hands them: ignored positions vanish on both sides."""
    from transformers import EvalPrediction

    labels = ["O", "B-PER", "I-PER"]
    label_ids = np.array([[-100, 1, 2, 0, -100], [-100, 0, 1, -100, -100]])
    logits = np.zeros((2, 5, 3))
    for row, ids in enumerate([[0, 1, 2, 0, 1], [0, 0, 1, 2, 2]]):
        logits[row, np.arange(5), ids] = 1.0
    compute = make_compute_metrics(labels, metrics=("faireval",))
    metrics = compute(EvalPrediction(predictions=logits, label_ids=label_ids))
    import faireval

    # kept positions: sentence 1 -> positions 1..3, sentence 2 -> positions 1..2
    expected = faireval.score([["B-PER", "I-PER", "O"], ["O", "B-PER"]],
                              [["B-PER", "I-PER", "O"], ["O", "B-PER"]]).to_dict()
    assert metrics["faireval_traditional_f1"] == expected["traditional_f1"] == 1.0
    wrong = np.array(logits)
    wrong[1, 2] = [1.0, 0.0, 0.0]  # the second sentence's B-PER predicted as O
    metrics = compute(EvalPrediction(predictions=wrong, label_ids=label_ids))
    expected = faireval.score([["B-PER", "I-PER", "O"], ["O", "B-PER"]],
                              [["B-PER", "I-PER", "O"], ["O", "O"]]).to_dict()
    assert metrics["faireval_fair_f1"] == expected["fair_f1"] < 1.0
