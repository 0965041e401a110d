"""A family's scores as a ``torchmetrics.Metric``, for PyTorch training loops (DDP,
Lightning), synced across processes by merging partials (issue 39, METHODS.md §7).

``NERMetric(family="nerspan", labels=id2label, **options)``: ``update(preds, target)``
takes a batch of label ids (``preds`` may be logits: their argmax over the last axis is
taken), positions where ``target`` is -100 (padding, sub-words after a word's first)
dropped on both sides; ``compute()`` returns the family's result dict (``to_dict()``), the
same as its ``score`` on every sentence of every process in one pass. Counts are summed
and ratios computed once: never an average of per-batch F1.

The metric's state is the family's partial, pickled into a uint8 tensor. A tensor state
is what torchmetrics resets, caches while synced and restores after (``unsync``), saves
in ``state_dict``, moves between devices and gathers across processes with its own
``dist_sync_fn`` (Lightning's included); a partial kept as a Python attribute and
gathered with ``torch.distributed.all_gather_object`` would be outside all of that. The
bytes differ in length across processes, and torchmetrics' reductions stack tensors of
one shape, so the metric merges in its own sync (``_sync_dist``: gather the bytes,
unpickle, merge) and in its own ``_reduce_states`` (``forward``, ``merge_state``).

Sentence ids, named by repairs, listings and errors: ``update(..., sentence_ids=...)``
(the batch's dataset indices: global across processes), else the order in which this
process saw the sentences. An input error raises in ``update``, naming the sentence.

This module imports torch and torchmetrics (the test extra installs them); ``import
nerlens`` does not import this module.
"""
from __future__ import annotations

import pickle

import numpy as np
import torch
from torchmetrics import Metric
from torchmetrics.utilities.distributed import gather_all_tensors

from .engines import Outcome, Scoring, merged_outcomes

# the keywords torchmetrics' Metric takes; the others are the family's options
METRIC_KEYWORDS = frozenset({"compute_on_cpu", "dist_sync_on_step", "process_group",
                             "dist_sync_fn", "distributed_available_fn", "sync_on_compute",
                             "compute_with_cache"})


class NERMetric(Metric):
    """``family``'s result over every batch ``update`` saw, in every process (module
    docstring).

    Args:
        family: ``"nerspan"`` (entity scores) or a registered family that merges
            (``nerlens.engines.merging_families()``).
        labels: the tags by label id: a list, or a dict id -> tag (``id2label``).
        ignore_index: the target's id of a position to drop.
        options: the options of the family's ``score`` (``scheme``, ``mode``, ``train``,
            ...), and torchmetrics' own (``sync_on_compute``, ``process_group``, ...).
    """

    full_state_update = False
    is_differentiable = False
    higher_is_better = True

    def __init__(self, family: str = "nerspan", labels=None, *, ignore_index: int = -100,
                 **options):
        super().__init__(**{k: v for k, v in options.items() if k in METRIC_KEYWORDS})
        family_options = {k: v for k, v in options.items() if k not in METRIC_KEYWORDS}
        self.scoring = Scoring.of(family, {"label_list": _label_list(labels),
                                           **family_options})
        self.ignore_index = ignore_index
        self.empty = self.scoring.shard([])
        self.add_state("outcome", default=torch.zeros(0, dtype=torch.uint8),
                       dist_reduce_fx=None, persistent=True)  # checkpoints keep it

    def update(self, preds: torch.Tensor, target: torch.Tensor, tokens=None,
               sentence_ids=None) -> None:
        """Add a batch: ``target`` label ids ``(batch, length)``, ``preds`` the same or
        logits ``(batch, length, labels)``; ``tokens``: each sentence's words at its kept
        positions, for the families that need them; ``sentence_ids``: each sentence's
        global id."""
        if preds.ndim == target.ndim + 1:
            preds = preds.argmax(-1)
        if preds.shape != target.shape:
            raise ValueError(f"preds {tuple(preds.shape)} and target {tuple(target.shape)}: "
                             f"label ids of one shape, or logits with one more axis")
        target, preds = target.detach().cpu().numpy(), preds.detach().cpu().numpy()
        kept = target != self.ignore_index
        gold = [row[keep].tolist() for row, keep in zip(target, kept)]
        pred = [row[keep].tolist() for row, keep in zip(preds, kept)]
        seen = self.stored()
        if sentence_ids is None:
            sentence_ids = range(seen.sentences, seen.sentences + len(gold))
        words = [None] * len(gold) if tokens is None else tokens
        batch = self.scoring.shard(zip(list(sentence_ids), gold, pred, words))
        if batch.failure is not None:
            raise batch.failure[1]
        self.outcome = self.encoded(seen + batch)

    def compute(self) -> dict:
        """The family's result dict of every sentence seen (in every process, synced)."""
        return self.stored().result().to_dict()

    def stored(self) -> Outcome:
        """The outcome the state holds (the empty one before any update)."""
        return self.decoded(self.outcome)

    def decoded(self, state: torch.Tensor) -> Outcome:
        if not state.numel():
            return self.empty
        return pickle.loads(state.cpu().numpy().tobytes())

    def encoded(self, outcome: Outcome) -> torch.Tensor:
        data = np.frombuffer(pickle.dumps(outcome), dtype=np.uint8)
        return torch.from_numpy(data.copy()).to(self.device)

    def _sync_dist(self, dist_sync_fn=gather_all_tensors, process_group=None) -> None:
        """Every process's outcome gathered (bytes of any length) and merged."""
        gathered = dist_sync_fn(self.outcome, group=process_group or self.process_group)
        self.outcome = self.encoded(merged_outcomes(map(self.decoded, gathered)))

    def _reduce_states(self, incoming_state: dict) -> None:
        """Another state merged into this one (``forward``, ``merge_state``)."""
        self.outcome = self.encoded(self.decoded(incoming_state["outcome"]) + self.stored())


def _label_list(labels) -> list:
    """``labels`` as the tags in id order: a list, or a dict id -> tag with ids 0..n-1."""
    if isinstance(labels, dict):
        ids = sorted(int(i) for i in labels)
        if ids != list(range(len(ids))):
            raise ValueError(f"labels: a dict of label ids 0..{len(ids) - 1} to tags, not "
                             f"ids {ids}")
        return [labels[i] if i in labels else labels[str(i)] for i in ids]
    if labels is None or isinstance(labels, str):
        raise TypeError("labels: the tags by label id, a list or a dict id -> tag "
                        "(id2label)")
    return list(labels)


__all__ = ["NERMetric", "METRIC_KEYWORDS"]
