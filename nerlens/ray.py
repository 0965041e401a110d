"""A family's scores of a Ray Dataset, computed where the data is (issue 39).

One row is one sentence: its reference, its prediction and (for the families that need
them) its words, in columns of the Dataset: lists of tags, of label ids (with
``label_list=``) or of span dicts. The Dataset is cut into blocks of at most 4,096
sentences (``batch_size=``; ``Dataset.repartition(target_num_rows_per_block=...)``, which
splits and joins Ray's blocks as they stream: Ray's own blocks follow its files and a
byte budget, not a count of sentences), so a scoring task holds a bounded block however
large the corpus; each block computes one partial of its sentences; the driver
merges the partials, small, in a tree and computes the result, the same as ``score``
gives on every row in one process (METHODS.md §7). Columns of tags, label ids and words
reach the family as Arrow arrays (no Python object per token). The training data is
indexed once on the driver and put in the object store once; each worker process reads
it once.

A sentence's global id, named by repairs and errors, is its ``sentence_id`` column when
the Dataset has one (cheaper, and free of the rows' order), else its place in the
Dataset's order: the Dataset, its execution set to keep the order, is read as its Arrow
blocks in order (``Dataset.to_arrow_refs``), a task counts each block's rows, and each
block is scored by a task that knows its first row's place (``Dataset.zip``, which Ray
deprecates for this and removes in 2.64, is not used). An input error in any batch
raises, on the driver, the
family's error naming the sentence by its global id: a failed batch never gives a result
of the others.

This module imports ray (the test extra installs it; absolute imports: ``import ray``
here is Ray, not this module); ``import nerlens`` does not import this module.
"""
from __future__ import annotations

import pickle

import numpy as np
import ray
import ray.data

from nerspan.options import check_int

from .engines import Outcome, Scoring, merged_outcomes, table_outcome

# the most sentences of one block and partial: what a task holds, whatever the corpus
BATCH_ROWS = 4096

_received: dict = {}   # object id -> the Scoring it holds, read once per worker process


def score(dataset: ray.data.Dataset, *, family: str = "nerspan",
          references: str = "references", predictions: str = "predictions",
          tokens: str | None = None, sentence_id: str | None = None,
          batch_size: int = BATCH_ROWS, **options):
    """``family``'s result of every row of ``dataset``, scored block by block.

    Args:
        dataset: a Ray Dataset, one row per sentence.
        family: ``"nerspan"`` (entity scores) or a registered family that merges
            (``nerlens.engines.merging_families()``).
        references, predictions, tokens: the names of the columns holding each
            sentence's reference, prediction and words (``tokens``: None when the
            family needs no words, or the input holds them).
        sentence_id: the name of a column of global sentence ids (distinct non-negative
            integers); None: the rows' order.
        batch_size: the most rows (sentences) of one block, and of one partial: what
            a task holds, whatever the size of the corpus.
        options: the options of the family's ``score`` (``train``, ``scheme``, ``mode``,
            ``label_list``, ...).

    Returns the family's result (``to_dict()``), as its ``score`` gives it.
    """
    batch_size = check_int("batch_size", batch_size, minimum=1)
    shipped = [ray.put(Scoring.of(family, options))]
    columns = [*([sentence_id] if sentence_id else []), references, predictions,
               *([tokens] if tokens else [])]
    blocks = dataset.select_columns(columns).repartition(
        target_num_rows_per_block=batch_size)
    if sentence_id is None:
        return merged_outcomes(_placed_blocks(blocks, shipped)).result()
    outcomes = blocks.map_batches(_outcome, batch_format="pyarrow", batch_size=None,
                                  fn_kwargs={"shipped": shipped, "columns": columns})
    return merged_outcomes(pickle.loads(row["outcome"])
                           for row in outcomes.iter_rows()).result()


def _placed_blocks(blocks: ray.data.Dataset, shipped: list) -> list:
    """The outcomes of the Dataset of ``blocks``, each row's global id its place in the
    Dataset's order: the blocks in order (``to_arrow_refs``, the execution set to keep
    the order), their rows counted by tasks, then each scored by a task that is told
    where its first row sits."""
    # the Dataset's context is the caller's Dataset's (Ray shares it with the Datasets
    # derived from it): the order kept while the blocks are listed only, then the
    # caller's setting restored
    execution = blocks.context.execution_options
    caller_preserves = execution.preserve_order
    execution.preserve_order = True
    try:
        refs = blocks.to_arrow_refs()
    finally:
        execution.preserve_order = caller_preserves
    sizes = ray.get([_rows.remote(block) for block in refs])
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64).tolist()
    return ray.get([_block_outcome.remote(block, first, shipped)
                    for block, first in zip(refs, firsts)])


@ray.remote
def _rows(block) -> int:
    return block.num_rows


@ray.remote
def _block_outcome(block, first: int, shipped: list) -> Outcome:
    """The outcome of one block whose first row is sentence ``first``."""
    return table_outcome(_scoring(shipped), block,
                         np.arange(first, first + block.num_rows))


def _scoring(shipped: list) -> Scoring:
    """The scoring of ``shipped`` (its object, in a list so that Ray passes the
    reference), read once per worker process."""
    key = shipped[0].hex()
    if key not in _received:
        _received.clear()
        _received[key] = ray.get(shipped[0])
    return _received[key]


def _outcome(batch, shipped: list, columns: list) -> dict:
    """One batch's outcome, pickled (``table_outcome``; ``shipped``: the scoring's
    object, in a list so that Ray passes the reference, read here once per process)."""
    ids = batch.column(columns[0]).to_numpy()
    outcome = table_outcome(_scoring(shipped), batch.select(columns[1:]), ids)
    return {"outcome": [pickle.dumps(outcome)]}


__all__ = ["score"]
