"""Every benchmark runs, at a small size, so that none rots (issue 37).

``benchmarks/README.md`` states the convention: ``benchmarks/bench_<name>.py`` defines
``main(argv=None)`` and ``SMALL``, the argv of a run of a few seconds, and checks its own
numbers with ``assert`` (a peer's F1 equal to nerlens's, a module's result equal to its
family's) before it times them. Each benchmark found here runs ``main(SMALL)`` in a fresh
interpreter from the repository's root; it must end without an error and print its
table. No time is asserted. Benchmarks on ``../shared/data`` print "skipped" without it.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

BENCHMARKS = sorted(path.stem for path in (REPO / "benchmarks").glob("bench_*.py"))
RUN = ("import sys, benchmarks.{0} as benchmark; code = benchmark.main(benchmark.SMALL); "
       "sys.exit(code if isinstance(code, int) else 0)")


def defined(name: str) -> set:
    """The names a benchmark module defines at its top level."""
    tree = ast.parse((REPO / "benchmarks" / f"{name}.py").read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_the_benchmarks_are_found():
    assert {"bench_core", "bench_evaluate", "bench_startup",
            "bench_attribute_buckets"} <= set(BENCHMARKS)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_a_benchmark_runs_small_and_its_checks_hold(name, tmp_path):
    missing = {"main", "SMALL"} - defined(name)
    assert not missing, (f"benchmarks/{name}.py defines no {' and no '.join(sorted(missing))}"
                         ": see the convention in benchmarks/README.md")
    env = {**os.environ, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg",
           "HF_UPDATE_DOWNLOAD_COUNTS": "0", "HF_EVALUATE_OFFLINE": "1",
           "HF_METRICS_CACHE": str(tmp_path / "metrics_cache"),
           "HF_MODULES_CACHE": str(tmp_path / "modules")}
    done = subprocess.run([sys.executable, "-c", RUN.format(name)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"{name} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    assert done.stdout.strip(), f"{name} printed nothing"
