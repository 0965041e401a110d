"""``nerlens.ray.score``: a Ray Dataset scored batch by batch (a local Ray instance, two
CPUs) equals one pass, for every family that merges (``engine_cases``): rows in order
(their place as sentence ids, through tasks that end in any order), shuffled rows placed
by a sentence id column, label ids with -100, span dicts; a bad tag in one batch raises
one pass's error, naming the global sentence; the documentation's example runs.
"""
from __future__ import annotations

import pytest
import ray
import ray.data

import nerlens.ray
from nerspan.errors import InvalidTagError

from .engine_cases import FAMILIES, LABELS, corpus, one_pass, options, with_bad_tag
from .readme_snippets import DOCS, snippet


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


def dataset(columns: dict, blocks: int):
    """A Dataset of ``columns`` (name -> one value per row), the rows in order, in
    ``blocks`` blocks."""
    rows = [dict(zip(columns, values)) for values in zip(*columns.values())]
    return ray.data.from_items(rows, override_num_blocks=blocks)


@pytest.mark.parametrize("family", FAMILIES)
def test_rows_in_order_score_as_one_pass(local_ray, family):
    gold, pred, words = corpus(40, seed=7)
    data = dataset({"gold": gold, "pred": pred, "words": words}, blocks=5)
    data = data.map_batches(lambda batch: batch, batch_size=3)  # tasks that end in any order
    result = nerlens.ray.score(data, family=family, references="gold", predictions="pred",
                               tokens="words", batch_size=6, **options(family))
    assert result.to_dict() == one_pass(family, gold, pred, words)


@pytest.mark.parametrize("preserve_order", [False, True])
def test_the_callers_order_setting_is_restored(local_ray, preserve_order):
    """Rows placed by their order set the Dataset's context (the caller's Dataset's, which
    Ray shares with the Datasets derived from it) to keep the order while the blocks are
    listed; the caller's setting is restored after, also when the scoring fails."""
    gold, pred, words = corpus(10, seed=3)
    data = dataset({"references": gold, "predictions": pred}, blocks=2)
    execution = data.context.execution_options
    execution.preserve_order = preserve_order
    try:
        nerlens.ray.score(data)
        assert execution.preserve_order is preserve_order
        with pytest.raises(ray.exceptions.RayError):   # a column that is not there
            nerlens.ray.score(data, references="absent")
        assert execution.preserve_order is preserve_order
    finally:
        execution.preserve_order = False


@pytest.mark.parametrize("family", FAMILIES)
def test_shuffled_rows_are_placed_by_their_sentence_id(local_ray, family):
    gold, pred, words = corpus(30, seed=8)
    data = dataset({"id": list(range(30)), "references": gold, "predictions": pred,
                    "tokens": words}, blocks=3).random_shuffle(seed=1)
    result = nerlens.ray.score(data, family=family, tokens="tokens", sentence_id="id",
                               mode="strict", **options(family))
    assert result.to_dict() == one_pass(family, gold, pred, words, mode="strict")


def test_label_ids_with_ignored_positions_and_span_dicts(local_ray):
    gold, pred, _ = corpus(12, seed=9)
    gold_ids = [[-100 if i % 3 == 2 else LABELS.index(t) for i, t in enumerate(s)]
                for s in gold]
    pred_ids = [[LABELS.index(t) for t in s] for s in pred]
    data = dataset({"references": gold_ids, "predictions": pred_ids}, blocks=4)
    result = nerlens.ray.score(data, label_list=LABELS)
    assert result.to_dict() == one_pass("nerspan", gold_ids, pred_ids, label_list=LABELS)
    spans = [[{"label": "PER", "start": 0, "end": 2}], [{"label": "LOC", "start": 1, "end": 2}]]
    words = [["Ana", "Lima", "sings"], ["in", "Rio"]]
    data = dataset({"references": spans, "predictions": [spans[0], []], "tokens": words}, 2)
    assert nerlens.ray.score(data, tokens="tokens").to_dict() == \
        one_pass("nerspan", spans, [spans[0], []], words)


@pytest.mark.parametrize("family", FAMILIES)
def test_a_bad_tag_in_one_batch_raises_one_pass_error(local_ray, family):
    gold, pred, words = with_bad_tag(*corpus(20, seed=10), where=13)
    data = dataset({"references": gold, "predictions": pred, "tokens": words}, blocks=4)
    with pytest.raises(InvalidTagError) as whole:
        one_pass(family, gold, pred, words)
    with pytest.raises(InvalidTagError) as engine:
        nerlens.ray.score(data, family=family, tokens="tokens", **options(family))
    assert "sentence 13" in str(whole.value)
    assert str(engine.value) == str(whole.value)


def test_the_documentation_example_runs(local_ray):
    exec(compile(snippet("ray", DOCS / "engines.md"), "engines.md", "exec"), {})
