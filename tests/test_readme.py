"""The README's examples run as written, and CI runs the README's test command."""
from __future__ import annotations

import doctest

from nerlens.families import family_names, unregister_family

from .conftest import REPO


def test_readme_python_examples():
    before = set(family_names())
    try:
        result = doctest.testfile(str(REPO / "README.md"), module_relative=False,
                                  optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    finally:   # the example registers a family: the other tests see the built-in ones
        for name in set(family_names()) - before:
            unregister_family(name)
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
