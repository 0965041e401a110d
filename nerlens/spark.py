"""A family's scores of a Spark DataFrame, computed where the data is (issue 39).

One row is one sentence: its reference, its prediction and (for the families that need
them) its words, in columns of the DataFrame: arrays of tags, of label ids (with
``label_list=``) or of spans. Each partition computes one partial of its sentences
(``mapPartitions``); the partials merge in a tree (``treeReduce``); the driver computes
the result from the merged partial, the same as ``score`` gives on every row in one
process (METHODS.md §7). The training data is indexed once on the driver and broadcast.

A sentence's global id, named by repairs and errors, is its ``sentence_id`` column when
the DataFrame has one, else its place in the DataFrame's order (``zipWithIndex``). An
input error in any partition raises, on the driver, the family's error naming the
sentence by its global id: a failed partition never gives a result of the others.

This module imports pyspark (the test extra installs it); ``import nerlens`` does not
import this module.
"""
from __future__ import annotations

from pyspark.sql import DataFrame

from .engines import Outcome, Scoring


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
    columns = [references, predictions] + ([tokens] if tokens else [])
    if sentence_id is None:
        rows = dataframe.select(*columns).rdd.zipWithIndex().map(
            lambda pair: (pair[1], *pair[0]))
    else:
        rows = dataframe.select(sentence_id, *columns).rdd.map(tuple)
    shipped = dataframe.sparkSession.sparkContext.broadcast(scoring)
    try:
        outcomes = rows.mapPartitions(lambda part: [_outcome(shipped.value, part)])
        return outcomes.treeReduce(Outcome.merge, depth).result()
    finally:
        shipped.unpersist()


def _outcome(scoring: Scoring, rows) -> Outcome:
    """One partition's outcome: its rows as ``(id, reference, prediction, words)``, Spark's
    rows (span structs) as plain data."""
    return scoring.shard((row[0], _plain(row[1]), _plain(row[2]),
                          _plain(row[3]) if len(row) > 3 else None) for row in rows)


def _plain(value):
    """A cell as plain Python data: a Spark ``Row`` (a span struct) as a dict."""
    if hasattr(value, "asDict"):
        return value.asDict(recursive=True)
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


__all__ = ["score"]
