"""``nerlens.torchmetrics.NERMetric``: batches of label ids with -100 (padding and
sub-words) give one pass's result, for every family that merges (``engine_cases``);
two processes (gloo backend, spawned) synced by merging give one process's result;
``forward`` and ``merge_state`` merge too; a bad label id raises in ``update`` naming
the sentence; the state survives ``state_dict``.
"""
from __future__ import annotations

import json
import os
import socket

import numpy as np
import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from nerlens.torchmetrics import NERMetric
from nerspan.errors import LabelIdError

from .engine_cases import FAMILIES, LABELS, corpus, one_pass, options

ID2LABEL = dict(enumerate(LABELS))
BATCH = 4


def batches(n_sentences: int, seed: int) -> tuple[list, dict]:
    """Padded batches ``(logits, target, words, sentence ids)`` of a random corpus, some
    positions -100 (a word's later sub-words), and the kept sentences to score in one
    pass: ``{"gold", "pred", "words"}`` tag lists."""
    gold, pred, words = corpus(n_sentences, seed)
    draw = np.random.default_rng(seed)
    out, kept = [], {"gold": [], "pred": [], "words": []}
    for start in range(0, n_sentences, BATCH):
        rows = range(start, min(start + BATCH, n_sentences))
        width = max(len(gold[i]) for i in rows) + 2
        target = torch.full((len(rows), width), -100)
        logits = torch.zeros((len(rows), width, len(LABELS)))
        batch_words = []
        for r, i in enumerate(rows):
            keep = np.flatnonzero(draw.random(len(gold[i])) > 0.2)
            target[r, keep] = torch.tensor([LABELS.index(gold[i][k]) for k in keep],
                                           dtype=torch.long)
            logits[r, :len(pred[i]), :] = torch.nn.functional.one_hot(
                torch.tensor([LABELS.index(t) for t in pred[i]], dtype=torch.long),
                len(LABELS)).float()
            for side, values in (("gold", gold[i]), ("pred", pred[i]), ("words", words[i])):
                kept[side].append([values[k] for k in keep])
            batch_words.append(kept["words"][-1])
        out.append((logits, target, batch_words, list(rows)))
    return out, kept


def metric(family: str) -> NERMetric:
    return NERMetric(family=family, labels=ID2LABEL, **options(family))


@pytest.mark.parametrize("family", FAMILIES)
def test_batches_of_label_ids_give_one_pass(family):
    data, kept = batches(22, seed=11)
    scores = metric(family)
    for logits, target, words, _ in data:
        scores.update(logits, target, tokens=words)
    assert scores.compute() == one_pass(family, kept["gold"], kept["pred"], kept["words"])


@pytest.mark.parametrize("family", FAMILIES)
def test_forward_merge_state_and_state_dict_keep_the_partial(family):
    data, kept = batches(14, seed=12)
    first, second = metric(family), metric(family)
    for n, (logits, target, words, ids) in enumerate(data):
        chosen = first if n % 2 else second
        chosen(logits.argmax(-1), target, tokens=words, sentence_ids=ids)  # forward
    first.merge_state(second)
    whole = one_pass(family, kept["gold"], kept["pred"], kept["words"])
    assert first.compute() == whole
    restored = metric(family)
    restored.load_state_dict(first.state_dict())
    assert restored.compute() == whole
    first.reset()
    with pytest.raises(Exception, match="every partial merged is empty"):
        first.compute()


def test_a_label_id_out_of_range_names_the_sentence():
    scores = NERMetric(labels=LABELS)
    target = torch.tensor([[0, 3, -100], [0, 1, 2]])
    scores.update(target, target, sentence_ids=[5, 6])
    with pytest.raises(LabelIdError, match="sentence 8"):
        scores.update(target, torch.tensor([[0, 3, -100], [0, 99, 2]]), sentence_ids=[7, 8])
    with pytest.raises(TypeError, match="the tags by label id"):
        NERMetric(labels="B-PER")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def process(rank: int, world: int, port: int, family: str, out: str) -> None:
    """One of ``world`` processes: every ``world``-th batch (DistributedSampler's cut),
    synced by ``compute``; rank 0 writes the result."""
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        data, _ = batches(22, seed=13)
        scores = metric(family)
        for logits, target, words, ids in data[rank::world]:
            scores.update(logits, target, tokens=words, sentence_ids=ids)
        result = scores.compute()
        scores.update(*data[rank][:2], tokens=data[rank][2], sentence_ids=data[rank][3])
        again = scores.compute()  # unsynced after compute: one batch more, counted once
        if rank == 0:
            with open(out, "w", encoding="utf-8") as file:
                json.dump([result, again], file)
    finally:
        dist.destroy_process_group()


@pytest.mark.parametrize("family", FAMILIES)
def test_two_processes_synced_give_one_process(family, tmp_path):
    out = tmp_path / "result.json"
    mp.spawn(process, args=(2, free_port(), family, str(out)), nprocs=2, join=True)
    data, kept = batches(22, seed=13)
    scores = metric(family)
    for logits, target, words, ids in data:
        scores.update(logits, target, tokens=words, sentence_ids=ids)
    result, again = json.loads(out.read_text(encoding="utf-8"))
    assert result == json.loads(json.dumps(scores.compute()))
    for rank in (0, 1):
        scores.update(*data[rank][:2], tokens=data[rank][2], sentence_ids=data[rank][3])
    assert again == json.loads(json.dumps(scores.compute()))
    assert result == json.loads(json.dumps(
        one_pass(family, kept["gold"], kept["pred"], kept["words"])))
