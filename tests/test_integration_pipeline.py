"""A real transformers token-classification pipeline's raw output, scored as spans.

The tiny model of ``tests/tiny_model.py`` (random weights: it tags many words) runs as a
``pipeline`` on a ``datasets`` split's words; its output dicts go to ``evaluate.load``'s
modules as they come, and must give the same numbers as the tag route (the model's
argmax per word, as a Trainer decodes it).
"""
from __future__ import annotations

import pytest

pytest.importorskip("torch", reason="the pipeline test needs torch (test extra)")
pytest.importorskip("transformers", reason="the pipeline test needs transformers (test extra)")

from nerlens.demo import demo_train  # noqa: E402
from tests.conftest import REPO, tagged_split  # noqa: E402
from tests.tiny_model import demo_setup  # noqa: E402


@pytest.fixture(scope="module")
def run():
    import torch
    from transformers import pipeline

    setup = demo_setup(n_eval=12)
    data = tagged_split(setup["eval_tokens"], setup["eval_tags"], setup["labels"])
    tokenizer, model, labels = setup["tokenizer"], setup["model"], setup["labels"]
    # the tag route: argmax per word (every word is one token of this tokenizer)
    tokens = [list(words) for words in data["tokens"]]  # a datasets Column: plain lists
    tags = []
    for words in tokens:
        encoded = tokenizer(words, is_split_into_words=True, return_tensors="pt")
        with torch.no_grad():
            ids = model(**encoded).logits.argmax(-1)[0].tolist()
        first = {}
        for position, word in enumerate(encoded.word_ids()):
            if word is not None:
                first.setdefault(word, ids[position])
        tags.append([labels[first[w]] for w in range(len(words))])
    tagger = pipeline("token-classification", model=model, tokenizer=tokenizer)
    outputs = {strategy: tagger(tokens, is_split_into_words=True,
                                aggregation_strategy=strategy)
               for strategy in ("none", "simple")}
    names = data.features["ner_tags"].feature.names
    references = [[names[i] for i in sentence] for sentence in data["ner_tags"]]
    return dict(tokens=tokens, tags=tags, outputs=outputs, references=references)


@pytest.mark.parametrize("strategy", ["none", "simple"])
def test_pipeline_output_scores_like_the_tags(run, strategy):
    import evaluate

    outputs, tokens = run["outputs"][strategy], run["tokens"]
    assert sum(map(len, outputs)) > 0
    assert all(set(d) >= {"start", "end", "word", "score"} for s in outputs for d in s)
    assert sum(tag != "O" for sentence in run["tags"] for tag in sentence) > 0
    faireval_metric = evaluate.load(str(REPO / "metrics" / "faireval"))
    by_spans = faireval_metric.compute(predictions=outputs, references=run["references"],
                                       tokens=tokens, schemas="semeval")
    by_tags = faireval_metric.compute(predictions=run["tags"], references=run["references"],
                                      schemas="semeval")
    _assert_same(by_spans, by_tags, strategy)
    assert by_tags["semeval"]["strict"]["actual"] == by_tags["traditional_counts"]["TP"] \
        + by_tags["traditional_counts"]["FP"]
    tough = evaluate.load(str(REPO / "metrics" / "tough_mentions"), train=str(demo_train()))
    by_spans = tough.compute(predictions=outputs, references=run["references"],
                             tokens=tokens)
    by_tags = tough.compute(predictions=run["tags"], references=run["references"],
                            tokens=tokens)
    _assert_same(by_spans, by_tags, strategy)
    assert by_tags["counts"]["all"] > 0


def _assert_same(by_spans: dict, by_tags: dict, strategy: str) -> None:
    """Equal results. Without aggregation the repairs (I- after O) are counted as for the
    tags; the pipeline's own grouping ("simple") repairs them before nerlens sees a span."""
    if strategy == "none":
        assert by_spans == by_tags
        return
    assert by_tags["repairs"]["pred"]["invalid_transitions"]
    assert not by_spans["repairs"]["pred"]["invalid_transitions"]
    assert {k: v for k, v in by_spans.items() if k != "repairs"} == \
        {k: v for k, v in by_tags.items() if k != "repairs"}


@pytest.mark.parametrize("family", ["faireval", "tough_mentions", "hardeval",
                                    "attribute_buckets"])
def test_every_module_takes_nervaluate_dicts(family):
    import evaluate

    tokens = [["Ada", "Lovelace", "met", "Babbage"], ["in", "London"], ["Hi"]]
    references = [["B-PER", "I-PER", "O", "B-PER"], ["O", "B-LOC"], ["O"]]
    predictions = [["B-PER", "I-PER", "O", "O"], ["O", "B-ORG"], ["O"]]
    as_dicts = [[{"label": "PER", "start": 0, "end": 1}], [{"label": "ORG", "start": 1,
                                                            "end": 1}], []]
    train = dict(train=(tokens, references))
    metric = evaluate.load(str(REPO / "metrics" / family),
                           **({} if family == "faireval" else train))
    extra = {} if family == "faireval" else {"tokens": tokens}
    by_tags = metric.compute(predictions=predictions, references=references, **extra)
    by_spans = metric.compute(predictions=as_dicts, references=references,
                              inclusive_end=True, **extra)
    assert by_spans == by_tags
