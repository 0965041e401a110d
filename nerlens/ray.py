"""A family's scores of a Ray Dataset, computed where the data is (issue 39).

One row is one sentence: its reference, its prediction and (for the families that need
them) its words, in columns of the Dataset: lists of tags, of label ids (with
``label_list=``) or of span dicts. Each batch (4,096 sentences unless ``batch_size=``
says otherwise) computes one partial of its sentences (``map_batches``); the driver
merges the partials, small, in a tree and computes the result, the same as ``score``
gives on every row in one process (METHODS.md §7). Columns of tags, label ids and words
reach the family as Arrow arrays (no Python object per token). The training data is
indexed once on the driver and put in the object store once; each worker process reads
it once.

A sentence's global id, named by repairs and errors, is its ``sentence_id`` column when
the Dataset has one (cheaper, and free of the rows' order), else its place in the
Dataset's order (the rows zipped with ``ray.data.range``, the Dataset's execution set to
keep its order). An input error in any batch raises, on the driver, the
family's error naming the sentence by its global id: a failed batch never gives a result
of the others.

This module imports ray (the test extra installs it; absolute imports: ``import ray``
here is Ray, not this module); ``import nerlens`` does not import this module.
"""
from __future__ import annotations

import pickle
import warnings

import ray
import ray.data

from .engines import Scoring, merged_outcomes, table_outcome

# the column of derived sentence ids (a name no dataset of sentences uses)
DERIVED_ID = "__nerlens_sentence_id__"

# the sentences of one partial: bounds a worker's Python data whatever Ray's blocks hold
BATCH_ROWS = 4096

_received: dict = {}   # object id -> the Scoring it holds, read once per worker process


def score(dataset: ray.data.Dataset, *, family: str = "nerspan",
          references: str = "references", predictions: str = "predictions",
          tokens: str | None = None, sentence_id: str | None = None,
          batch_size: int | None = BATCH_ROWS, **options):
    """``family``'s result of every row of ``dataset``, scored batch by batch.

    Args:
        dataset: a Ray Dataset, one row per sentence.
        family: ``"nerspan"`` (entity scores) or a registered family that merges
            (``nerlens.engines.merging_families()``).
        references, predictions, tokens: the names of the columns holding each
            sentence's reference, prediction and words (``tokens``: None when the
            family needs no words, or the input holds them).
        sentence_id: the name of a column of global sentence ids (distinct non-negative
            integers); None: the rows' order.
        batch_size: the rows (sentences) of one partial: a worker holds one batch as
            Python data (and its block as Arrow); None: a whole block (Ray reads small
            files into one block).
        options: the options of the family's ``score`` (``train``, ``scheme``, ``mode``,
            ``label_list``, ...).

    Returns the family's result (``to_dict()``), as its ``score`` gives it.
    """
    scoring = Scoring.of(family, options)
    if sentence_id is None:
        dataset, sentence_id = _numbered(dataset), DERIVED_ID
    columns = [sentence_id, references, predictions] + ([tokens] if tokens else [])
    outcomes = dataset.select_columns(columns).map_batches(
        _outcome, batch_format="pyarrow", batch_size=batch_size,
        fn_kwargs={"shipped": [ray.put(scoring)], "columns": columns})
    return merged_outcomes(pickle.loads(row["outcome"])
                           for row in outcomes.iter_rows()).result()


def _numbered(dataset: ray.data.Dataset) -> ray.data.Dataset:
    """``dataset`` with each row's place in it as column ``DERIVED_ID``: zipped with
    ``ray.data.range``, the dataset's execution set to keep the rows' order (zip aligns
    rows by place; Ray deprecates it for datasets whose order is not kept, and plans its
    end in Ray 2.64: then the sentence id column will be needed)."""
    dataset.context.execution_options.preserve_order = True
    ids = ray.data.range(dataset.count()).rename_columns({"id": DERIVED_ID})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return dataset.zip(ids)


def _outcome(batch, shipped: list, columns: list) -> dict:
    """One batch's outcome, pickled (``table_outcome``; ``shipped``: the scoring's
    object, in a list so that Ray passes the reference, read here once per process)."""
    key = shipped[0].hex()
    if key not in _received:
        _received.clear()
        _received[key] = ray.get(shipped[0])
    ids = batch.column(columns[0]).to_numpy()
    outcome = table_outcome(_received[key], batch.select(columns[1:]), ids)
    return {"outcome": [pickle.dumps(outcome)]}


__all__ = ["score"]
