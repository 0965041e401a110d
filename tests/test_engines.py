"""``nerlens.engines``, what the Spark, Ray and torchmetrics adapters share: which
families they take, shards scored in any order merging to one pass, and a failed shard
that stays failed through any merge (the first in the corpus named) instead of giving a
result of the others. ``import nerlens`` imports no engine.
"""
from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from nerlens.cli import main
from nerlens.engines import (Outcome, Scoring, local_outcome, merged_outcomes,
                             merging_families)
from nerlens.families import register_family, unregister_family
from nerspan.errors import InvalidTagError
from nerspan.family import Family

from .conftest import REPO, shared_path
from .engine_cases import FAMILIES, corpus, one_pass, options, with_bad_tag
from .test_germeval_layers import FLAGS
from .test_report_nesting import GERMEVAL_SYSTEMS


def rows_of(gold, pred, words, ids):
    return [(i, gold[i], pred[i], words[i]) for i in ids]


@pytest.mark.parametrize("family", FAMILIES)
def test_shards_in_any_order_merge_to_one_pass(family):
    gold, pred, words = corpus(25, seed=5)
    scoring = pickle.loads(pickle.dumps(Scoring.of(family, options(family))))  # shipped
    cuts = [[3, 1, 7], [], list(range(8, 25)), [0, 2, 4, 5, 6]]
    outcomes = [scoring.shard(rows_of(gold, pred, words, ids)) for ids in cuts]
    merged = merged_outcomes(outcomes[::-1])
    assert merged.sentences == 25
    assert merged.result().to_dict() == one_pass(family, gold, pred, words)


def test_the_first_failed_shard_in_the_corpus_is_raised_whatever_the_order():
    gold, pred, words = with_bad_tag(*corpus(12, seed=6), where=9)
    gold, pred, words = with_bad_tag(gold, pred, words, where=4)
    scoring = Scoring.of("nerspan", {})
    outcomes = [scoring.shard(rows_of(gold, pred, words, ids))
                for ids in ([8, 9, 10, 11], [0, 1, 2, 3], [4, 5, 6, 7])]
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        merged = merged_outcomes([outcomes[i] for i in order])
        with pytest.raises(InvalidTagError, match="sentence 4") as raised:
            merged.result()
        assert merged.partial is None
    with pytest.raises(InvalidTagError) as whole:
        one_pass("nerspan", gold, pred, words)
    assert str(raised.value) == str(whole.value)
    assert pickle.loads(pickle.dumps(outcomes[0])).failure[0] == 8


def test_a_family_that_does_not_merge_is_refused_by_name():
    one_pass_only = Family(name="one_pass_only", title="One pass", order=99,
                           score=lambda *args, **kwargs: None)
    register_family(one_pass_only)
    try:
        assert "one_pass_only" not in merging_families()
        with pytest.raises(ValueError, match="'one_pass_only' computes in one pass only"):
            Scoring.of("one_pass_only", {})
    finally:
        unregister_family("one_pass_only")
    with pytest.raises(ValueError, match="unknown metric family"):
        Scoring.of("nerspan_typo", {})


def test_the_engines_place_the_shards_themselves():
    with pytest.raises(TypeError, match="first_sentence: the engines place each shard"):
        Scoring.of("nerspan", {"first_sentence": 3})


def test_no_rows_is_no_result():
    with pytest.raises(Exception, match="no sentence was scored"):
        merged_outcomes([])
    empty = Scoring.of("nerspan", {}).shard([])
    with pytest.raises(Exception, match="every partial merged is empty"):
        (empty + Outcome(empty.partial)).result()


def test_import_nerlens_imports_no_engine():
    code = ("import sys, nerlens, nerlens.engines\n"
            "print(sorted(m for m in ('pyspark', 'ray', 'torchmetrics', 'nerlens.spark', "
            "'nerlens.ray', 'nerlens.torchmetrics') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": ""}, check=True)
    assert done.stdout.strip() == "[]"


# -- the local engine: N processes of this machine ----------------------------------------
@pytest.mark.parametrize("family", FAMILIES)
def test_the_local_engine_merges_to_one_pass_and_raises_the_first_bad_shard(family):
    """Every merging family scored by two worker processes equals one pass; a bad tag in
    a shard raises one pass's error, naming the global sentence."""
    gold, pred, words = corpus(30, seed=8)
    scoring = Scoring.of(family, options(family))
    cuts = [(0, 9), (9, 9), (9, 10), (10, 30)]
    shards = [(range(a, b), gold[a:b], pred[a:b], words[a:b]) for a, b in cuts]
    merged = local_outcome(scoring, shards, workers=2)
    assert merged.sentences == 30
    assert merged.result().to_dict() == one_pass(family, gold, pred, words)
    gold, pred, words = with_bad_tag(gold, pred, words, where=12)
    with pytest.raises(InvalidTagError) as whole:
        one_pass(family, gold, pred, words)
    shards = [(range(a, b), gold[a:b], pred[a:b], words[a:b]) for a, b in cuts]
    with pytest.raises(InvalidTagError) as sharded:
        local_outcome(scoring, shards, workers=2).result()
    assert str(sharded.value) == str(whole.value) and sharded.value.sentence == 12


def test_nerlens_score_with_workers_prints_one_processs_json(tmp_path, capsys):
    """``nerlens score --workers 2`` (a corpus cut into several blocks, repairs in each
    system, lenient and strict) prints what ``--workers 1`` prints, byte for byte; a bad
    tag is the same error."""
    gold, pred, words = corpus(60, seed=9)
    other = [s[::-1] for s in pred]   # another system, I-MISC and I-x repaired too
    files = {}
    for name, side in (("gold", gold), ("a", pred), ("b", other)):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, tags))
                                           for ws, tags in zip(words, side) if tags) + "\n")
    argv = ["score", str(files["gold"]), str(files["a"]), str(files["b"]), "--format",
            "json"]
    for mode in ("lenient", "strict"):
        printed = []
        for workers in ("1", "2"):
            assert main([*argv, "--mode", mode, "--workers", workers]) == 0
            printed.append(capsys.readouterr().out)
        assert printed[0] == printed[1] and '"repairs"' in printed[0]
    files["b"].write_text(files["b"].read_text().replace(" O\n", " X-PER\n", 1))
    errors = []
    for workers in ("1", "2"):
        assert main([*argv, "--workers", workers]) != 0
        errors.append(capsys.readouterr().err)
    assert errors[0] == errors[1] and "X-PER" in errors[0]
    with pytest.raises(SystemExit):   # a usage error
        main([*argv, "--workers", "0"])
    assert "--workers: workers must be at least 1, not 0" in capsys.readouterr().err


def _germeval_like(path, words, outer, inner) -> None:
    """A file of GermEval 2014's shape: a comment line, then per token its index, word,
    outer tag and inner tag."""
    sentences = []
    for sentence in zip(words, outer, inner):
        rows = [f"{i}\t{w}\t{o}\t{n}\n" for i, (w, o, n) in enumerate(zip(*sentence), 1)]
        if rows:
            sentences.append("#\tsentence\n" + "".join(rows) + "\n")
    path.write_text("".join(sentences))


def test_nerlens_score_with_workers_takes_layered_gold(tmp_path, capsys):
    """Gold with an outer and an inner layer (``--layers 2,3``): ``--workers 2`` (several
    blocks, each scored per layer and over their union) prints what one process prints,
    the layers' scores included; a bad inner tag is the same error."""
    gold, pred, words = corpus(60, seed=9)
    inner, _, _ = corpus(60, seed=8)
    inner = [(tags + ["O"] * len(outer))[:len(outer)] for tags, outer in zip(inner, gold)]
    _germeval_like(tmp_path / "gold.tsv", words, gold, inner)
    (tmp_path / "a.txt").write_text("".join(
        "".join(f"{w} {t}\n" for w, t in zip(ws, tags)) + "\n"
        for ws, tags in zip(words, pred) if ws))
    argv = ["score", str(tmp_path / "gold.tsv"), str(tmp_path / "a.txt"), "--token-column",
            "1", "--comment-prefix", "#", "--layers", "2,3", "--format", "json"]
    printed = []
    for workers in ("1", "2"):
        assert main([*argv, "--workers", workers]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1] and set(json.loads(printed[0])["layers"]) == {"1", "2"}
    _germeval_like(tmp_path / "gold.tsv", words, gold,
                   [["X-PER" if (i, k) == (40, 0) else t for k, t in enumerate(tags)]
                    for i, tags in enumerate(inner)])
    errors = []
    for workers in ("1", "2"):
        assert main([*argv, "--workers", workers]) != 0
        errors.append(capsys.readouterr().err)
    assert errors[0] == errors[1] and "X-PER" in errors[0]


def test_germeval_scored_with_two_workers_equals_one(capsys):
    """GermEval 2014 test, both layers, against a shared system (skipped when absent):
    ``nerlens score --workers 2`` prints what one process prints."""
    gold = shared_path("data", "germeval2014", "NER-de-test.tsv")
    system = shared_path("data", "germeval2014", "systems", GERMEVAL_SYSTEMS[0])
    printed = []
    for workers in ("1", "2"):
        assert main(["score", str(gold), str(system), *FLAGS, "--format", "json",
                     "--workers", workers]) == 0
        printed.append(capsys.readouterr().out)
    assert printed[0] == printed[1] and set(json.loads(printed[0])["layers"]) == {"1", "2"}
