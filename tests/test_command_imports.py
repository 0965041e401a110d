"""A command imports what it uses (issue 37), read from ``sys.modules`` of a fresh process.

``nerlens score`` imports no family, nothing of the report or the experiment (their
packages' ``__init__`` only, which import nothing), no matplotlib, scipy, datasets,
pyarrow or evaluate; a family's command imports its family and no other; ``nerlens
--help`` imports no command's module; ``import nerlens`` imports no family; a family
asked of the registry imports that family alone. ``benchmarks/bench_startup.py`` times
the start-up against seqscore.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO, built_in_families

FAMILIES = set(built_in_families())
# what a command that draws, bootstraps or reads splits would import
HEAVY = {"matplotlib", "scipy", "datasets", "pyarrow", "evaluate", "pandas", "torch"}
# each family's command, and what it needs besides GOLD PRED
FAMILY_COMMANDS = {"faireval": ("faireval", []), "hardeval": ("hardeval", ["--train"]),
                   "tough-mentions": ("tough_mentions", ["--train"]),
                   "buckets": ("attribute_buckets", ["--train"])}

# runs a command (or other code) in this process, then prints the modules it imported
PROBE = """
import json, sys
try:
    exec(sys.argv[1])
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""
COMMAND = "sys.argv = ['nerlens', *sys.argv[2:]]; import runpy; " \
          "runpy.run_module('nerlens', run_name='__main__')"


def imported(code: str, *argv) -> tuple[set, str]:
    """(modules imported, the rest of stdout) of ``code`` run in a fresh interpreter
    from the repository's root, ``argv`` after it."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", PROBE, code, *map(str, argv)], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=300)
    out, _, modules = done.stdout.rpartition("\nMODULES ")
    assert modules, done.stderr
    return set(json.loads(modules)), out


def tops(modules: set) -> set:
    return {name.split(".")[0] for name in modules}


def report_modules(modules: set) -> set:
    """The modules of the report and the experiment, their packages' ``__init__`` aside."""
    return {m for m in modules if m.startswith(("nerlens.report.", "nerlens.experiment."))}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("files")
    gold = "John B-PER\nlives O\nin O\nParis B-LOC\n\nAna B-PER\nmet O\nKim B-PER\n"
    (folder / "gold.txt").write_text(gold, encoding="utf-8")
    (folder / "pred.txt").write_text(gold.replace("B-LOC", "B-ORG"), encoding="utf-8")
    (folder / "train.txt").write_text("Kim B-PER\nlives O\nin O\nRome B-LOC\n",
                                      encoding="utf-8")
    return folder


def test_score_imports_no_family_no_report_and_nothing_heavy(files):
    modules, out = imported(COMMAND, "score", files / "gold.txt", files / "pred.txt")
    assert "FB1:  75.00" in out     # it scored: 3 of the 4 mentions on each side agree
    assert "nerlens.cli.score" in modules and "nerspan" in modules
    assert tops(modules) & (FAMILIES | HEAVY) == set()
    assert report_modules(modules) == set()
    assert not {m for m in modules if m.startswith("nerlens.cli.")} & {
        "nerlens.cli.report", "nerlens.cli.faireval", "nerlens.cli.buckets"}


def test_score_help_imports_only_the_score_command(files):
    modules, out = imported(COMMAND, "score", "--help")
    assert "--confusion" in out      # score's own flags, added when it was named
    commands = {m for m in modules if m.startswith("nerlens.cli.")}
    assert "nerlens.cli.score" in commands and "nerlens.cli.hardeval" not in commands
    assert tops(modules) & (FAMILIES | HEAVY) == set() and report_modules(modules) == set()


def test_the_command_list_imports_no_command():
    modules, out = imported(COMMAND, "--help")
    assert "tough-mentions" in out and "summarize" in out
    assert not any(m.startswith("nerlens.cli.") and m.rpartition(".")[2] in
                   ("score", "report", "faireval", "hardeval", "buckets", "validate")
                   for m in modules)
    assert tops(modules) & FAMILIES == set()


@pytest.mark.parametrize("command", FAMILY_COMMANDS)
def test_a_family_command_imports_its_family_and_no_other(command, files):
    family, needs = FAMILY_COMMANDS[command]
    train = [files / "train.txt"] if needs else []
    modules, out = imported(COMMAND, command, *needs, *train, files / "gold.txt",
                            files / "pred.txt")
    assert out.strip(), "the command printed nothing"
    assert tops(modules) & FAMILIES == {family}
    assert "matplotlib" not in modules     # no figure is drawn in the terminal


def test_importing_nerlens_imports_no_family_and_no_report():
    modules, _ = imported("import nerlens")
    assert tops(modules) & (FAMILIES | HEAVY) == set() and report_modules(modules) == set()
    # the report and the experiment are there when asked for, as they were
    modules, out = imported("import nerlens; print(nerlens.build_report.__module__, "
                            "nerlens.run_experiment.__module__, nerlens.Report.__name__)")
    assert out.split() == ["nerlens.report.build", "nerlens.experiment.build", "Report"]
    assert "nerlens.report.build" in modules


def test_a_family_asked_of_the_registry_imports_that_family_alone():
    modules, _ = imported("from nerlens.families import get_family; get_family('faireval')")
    assert tops(modules) & FAMILIES == {"faireval"}
    modules, out = imported("from nerlens.families import family_names; "
                            "print(*family_names())")
    assert set(out.split()) >= FAMILIES and tops(modules) >= FAMILIES


def test_a_module_loads_its_family_alone():
    modules, _ = imported("import evaluate; evaluate.load('metrics/faireval')")
    assert tops(modules) & FAMILIES == {"faireval"}
    assert report_modules(modules) == set() and "matplotlib" not in modules
