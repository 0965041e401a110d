"""``nerlens.spark.score``: a DataFrame scored partition by partition (pyspark, local
mode, two cores) equals one pass, for every family that merges (``engine_cases``): tags
with the rows' order as sentence ids (empty partitions too), shuffled rows placed by a
sentence id column, label ids with -100, span structs; a bad tag in one partition raises
one pass's error, naming the global sentence; the documentation's example runs.
"""
from __future__ import annotations

import pytest
from pyspark.sql import SparkSession

import nerlens.spark
from nerspan.errors import InvalidTagError

from .engine_cases import FAMILIES, LABELS, corpus, one_pass, options, with_bad_tag
from .readme_snippets import DOCS, snippet


@pytest.fixture(scope="module")
def spark():
    session = (SparkSession.builder.master("local[2]").appName("nerlens-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "3").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def frame(spark, columns: dict, slices: int):
    """A DataFrame of ``columns`` (name -> one value per row), the rows in order, cut
    into ``slices`` partitions."""
    names = list(columns)
    rows = list(zip(*columns.values()))
    return spark.sparkContext.parallelize(rows, slices).toDF(names)


@pytest.mark.parametrize("family", FAMILIES)
def test_partitions_in_order_score_as_one_pass(spark, family):
    gold, pred, words = corpus(40, seed=1)
    data = frame(spark, {"gold": gold, "pred": pred, "words": words}, slices=6)
    result = nerlens.spark.score(data, family=family, references="gold",
                                 predictions="pred", tokens="words", **options(family))
    assert result.to_dict() == one_pass(family, gold, pred, words)


@pytest.mark.parametrize("family", FAMILIES)
def test_shuffled_rows_are_placed_by_their_sentence_id(spark, family):
    gold, pred, words = corpus(30, seed=2)
    data = frame(spark, {"id": list(range(30)), "references": gold, "predictions": pred,
                         "tokens": words}, slices=2).repartition(3)
    result = nerlens.spark.score(data, family=family, tokens="tokens", sentence_id="id",
                                 mode="strict", **options(family))
    assert result.to_dict() == one_pass(family, gold, pred, words, mode="strict")


def test_label_ids_with_ignored_positions_and_empty_partitions(spark):
    gold, pred, _ = corpus(5, seed=3)
    gold_ids = [[-100 if i % 3 == 2 else LABELS.index(t) for i, t in enumerate(s)]
                for s in gold]
    pred_ids = [[LABELS.index(t) for t in s] for s in pred]
    data = frame(spark, {"references": gold_ids, "predictions": pred_ids}, slices=8)
    result = nerlens.spark.score(data, label_list=LABELS)
    assert result.to_dict() == one_pass("nerspan", gold_ids, pred_ids, label_list=LABELS)


def test_span_structs_are_read_as_span_dicts(spark):
    gold = [[{"label": "PER", "start": 0, "end": 2}], [{"label": "LOC", "start": 1, "end": 2}]]
    pred = [[{"label": "PER", "start": 0, "end": 2}], []]
    words = [["Ana", "Lima", "sings"], ["in", "Rio"]]
    data = spark.createDataFrame(
        list(zip(gold, pred, words)),
        "references array<struct<label:string,start:int,end:int>>, "
        "predictions array<struct<label:string,start:int,end:int>>, tokens array<string>")
    result = nerlens.spark.score(data, tokens="tokens")
    assert result.to_dict() == one_pass("nerspan", gold, pred, words)
    assert result.to_dict()["recall"] == 0.5


@pytest.mark.parametrize("family", FAMILIES)
def test_a_bad_tag_in_one_partition_raises_one_pass_error(spark, family):
    gold, pred, words = with_bad_tag(*corpus(20, seed=4), where=13)
    data = frame(spark, {"references": gold, "predictions": pred, "tokens": words},
                 slices=4)
    with pytest.raises(InvalidTagError) as whole:
        one_pass(family, gold, pred, words)
    with pytest.raises(InvalidTagError) as engine:
        nerlens.spark.score(data, family=family, tokens="tokens", **options(family))
    assert "sentence 13" in str(whole.value)
    assert str(engine.value) == str(whole.value)


def test_the_documentation_example_runs(spark):
    exec(compile(snippet("spark", DOCS / "engines.md"), "engines.md", "exec"), {})
