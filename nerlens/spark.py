"""A family's scores of a Spark DataFrame, computed where the data is (issue 39).

One row is one sentence: its reference, its prediction and (for the families that need
them) its words, in columns of the DataFrame: arrays of tags, of label ids (with
``label_list=``) or of span structs. Each partition computes one partial of its
sentences (``mapInArrow``: the partition's rows reach Python as Arrow batches, not as
pickled rows, and columns of tags, label ids and words reach the family as Arrow arrays), the partials merge in a tree (``treeReduce``), and the driver computes the
result from the merged partial, the same as ``score`` gives on every row in one process
(METHODS.md §7). The training data is indexed once on the driver and broadcast.

A sentence's global id, named by repairs and errors, is its ``sentence_id`` column when
the DataFrame has one, else its place in the DataFrame's order (a first job counts each
partition's rows, as ``zipWithIndex`` does). An
input error in any partition raises, on the driver, the family's error naming the
sentence by its global id: a failed partition never gives a result of the others.

This module imports pyspark (the test extra installs it); ``import nerlens`` does not
import this module.
"""
from __future__ import annotations

import pickle

import pyarrow as pa
from pyspark import TaskContext
from pyspark.sql import DataFrame
from pyspark.sql.functions import spark_partition_id

from .engines import Outcome, Scoring, table_outcome


def score(dataframe: DataFrame, *, family: str = "nerspan", references: str = "references",
          predictions: str = "predictions", tokens: str | None = None,
          sentence_id: str | None = None, depth: int = 2, **options):
    """``family``'s result of every row of ``dataframe``, scored partition by partition.

    Args:
        dataframe: a Spark DataFrame, one row per sentence.
        family: ``"nerspan"`` (entity scores) or a registered family that merges
            (``nerlens.engines.merging_families()``).
        references, predictions, tokens: the names of the columns holding each
            sentence's reference, prediction and words (``tokens``: None when the
            family needs no words, or the input holds them).
        sentence_id: the name of a column of global sentence ids (distinct non-negative
            integers); None: the rows' order.
        depth: the depth of the tree the partials merge in.
        options: the options of the family's ``score`` (``train``, ``scheme``, ``mode``,
            ``label_list``, ...).

    Returns the family's result (``to_dict()``), as its ``score`` gives it.
    """
    scoring = Scoring.of(family, options)
    frame = dataframe.select(*([sentence_id] if sentence_id else []), references,
                             predictions, *([tokens] if tokens else []))
    firsts = None if sentence_id else _partition_firsts(frame)
    shipped = frame.sparkSession.sparkContext.broadcast((scoring, firsts))
    try:
        outcomes = frame.mapInArrow(lambda batches: _outcome(*shipped.value, batches),
                                    "outcome binary")
        return outcomes.rdd.map(lambda row: pickle.loads(row[0])).treeReduce(
            Outcome.merge, depth).result()
    finally:
        shipped.unpersist()


def _partition_firsts(frame: DataFrame) -> list:
    """The global id of each partition's first row: the rows before it (one counting
    job; the partitions are the DataFrame's, in its order)."""
    counts = dict(frame.groupBy(spark_partition_id()).count().collect())
    firsts, total = [], 0
    for partition in range(frame.rdd.getNumPartitions()):
        firsts.append(total)
        total += counts.get(partition, 0)
    return firsts


def _outcome(scoring: Scoring, firsts: list | None, batches):
    """One partition's outcome, pickled in a one-row Arrow batch (``table_outcome``);
    without a sentence id column the ids follow from the partition's first
    (``firsts``)."""
    batches = list(batches)
    if not batches:
        outcome = scoring.shard([])
    else:
        table = pa.Table.from_batches(batches)
        if firsts is None:
            ids = table.column(0).to_numpy()
            table = table.drop_columns([table.column_names[0]])
        else:
            first = firsts[TaskContext.get().partitionId()]
            ids = range(first, first + table.num_rows)
        outcome = table_outcome(scoring, table, ids)
    yield pa.RecordBatch.from_pydict({"outcome": [pickle.dumps(outcome)]})


__all__ = ["score"]
