"""The README's examples run as written, and CI runs the README's test command."""
from __future__ import annotations

from nerlens.families import family_names

from .conftest import REPO
from .readme_snippets import run_doctests


def test_readme_python_examples():
    result = run_doctests(REPO / "README.md")
    assert result.attempted > 0
    assert result.failed == 0
    assert "token_accuracy" not in family_names()


def test_ci_runs_the_readme_test_command():
    lines = (REPO / "README.md").read_text().splitlines()
    fence = lines.index("```bash")
    run_command, test_command = lines[fence + 1], lines[fence + 2]
    assert "nerlens" in run_command and "--demo" in run_command
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert test_command in ci
