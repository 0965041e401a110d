"""nerspan.significance: statistics over runs and datasets, one module for the report,
the experiment and attribute_buckets (mean and std, Wilcoxon, Friedman, Holm)."""
from __future__ import annotations

import nerspan.significance
from nerspan.significance import holm, mean_std


def test_mean_std():
    assert mean_std([0.5, None, 0.7, float("nan")]) == {"mean": 0.6, "std": 0.141421356237,
                                                        "n": 2}
    assert mean_std([0.9]) == {"mean": 0.9, "std": None, "n": 1}
    assert mean_std([None]) == {"mean": None, "std": None, "n": 0}


def test_holm():
    adjusted = holm({"a": 0.01, "b": 0.04, "c": 0.03, "d": None})
    assert adjusted == {"a": 0.03, "b": 0.06, "c": 0.06, "d": None}
    # never below the raw p, capped at 1, monotone in the raw p
    raw = {k: p for k, p in zip("abcdef", [0.2, 0.001, 0.5, 0.04, 0.04, 0.9])}
    adjusted = holm(raw)
    assert all(raw[k] <= adjusted[k] <= 1 for k in raw)
    order = sorted(raw, key=raw.get)
    assert [adjusted[k] for k in order] == sorted(adjusted[k] for k in order)
    assert holm({}) == {}


def test_module_examples():
    import doctest

    result = doctest.testmod(nerspan.significance)
    assert result.attempted >= 2 and result.failed == 0


TESTS = {"mean_std", "holm", "wilcoxon", "friedman", "defined_pairs", "mean_difference"}


def test_one_definition_of_each_test():
    """The report, the experiment and attribute_buckets call nerspan.significance: no
    other module of the library defines these functions again."""
    import ast

    from attribute_buckets import analysis
    from tests.conftest import REPO

    defined = {}
    for top in ("nerspan", "tough_mentions", "hardeval", "faireval", "attribute_buckets",
                "nerlens"):
        for path in (REPO / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef) and node.name in TESTS:
                    defined.setdefault(node.name, []).append(path.relative_to(REPO).as_posix())
    assert defined == {name: ["nerspan/significance.py"] for name in TESTS}
    assert (analysis.wilcoxon, analysis.friedman) == (nerspan.significance.wilcoxon,
                                                      nerspan.significance.friedman)
