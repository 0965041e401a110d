"""House rules the code keeps (STYLE.md, DESIGN.md): read from the source, not run.

- The library never imports the CLI: no module of nerspan, the four families, nerlens
  (outside the CLI itself) or the loading scripts imports ``nerlens.cli``.
- A function reads in one screen: none is over 60 lines, ``def`` to last line.
- The library's doctests run in the test command (setup.cfg).
"""
from __future__ import annotations

import ast
import configparser
import re

import pytest

from tests.conftest import REPO, built_in_families

LIBRARY = ("nerspan", *built_in_families(),
           "nerlens", "metrics")
CLI = ("nerlens/cli/", "nerlens/__main__.py")
MAX_LINES = 60

# Known exceptions, each fixed on another branch: the lead empties these lists at merge.
# json_ready moves out of the CLI on branch contract
KNOWN_CLI_IMPORTS: set = set()
# split on branches ctx/fast
KNOWN_LONG: set = set()


def library_modules(include_cli: bool = False) -> dict:
    """Repository-relative path -> parsed module, for every library source file."""
    out = {}
    for top in LIBRARY:
        for path in sorted((REPO / top).rglob("*.py")):
            name = path.relative_to(REPO).as_posix()
            if include_cli or not name.startswith(CLI):
                out[name] = ast.parse(path.read_text(encoding="utf-8"), name)
    return out


def imported_modules(name: str, tree: ast.Module) -> set:
    """Every module ``name`` imports, relative imports resolved, plus the module names
    given to ``importlib.import_module`` as string constants."""
    package = name.rsplit("/", 1)[0].replace("/", ".")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if re.fullmatch(r"nerlens\.\w+(\.\w+)*", node.value):
                out.add(node.value)
    return out


def imports_cli(name: str, tree: ast.Module) -> bool:
    return any(re.match(r"nerlens\.cli(\.|$)", module)
               for module in imported_modules(name, tree))


def test_the_import_reader_sees_relative_and_dynamic_imports():
    tree = ast.parse("from ..cli.common import json_ready\nfrom .. import cli\n"
                     "import importlib\nimportlib.import_module('nerlens.cli.score')\n")
    found = imported_modules("nerlens/report/build.py", tree)
    assert {"nerlens.cli.common", "nerlens.cli", "nerlens.cli.score"} <= found
    assert imports_cli("nerlens/report/build.py", tree)
    assert not imports_cli("nerlens/report/build.py",
                           ast.parse("from ..families import FAMILIES"))


def test_the_library_never_imports_the_cli():
    modules = library_modules()
    assert "nerlens/report/build.py" in modules and "nerlens/cli/__init__.py" not in modules
    offenders = {name for name, tree in modules.items() if imports_cli(name, tree)}
    assert offenders - KNOWN_CLI_IMPORTS == set(), "the library imports the CLI"
    assert KNOWN_CLI_IMPORTS - offenders == set(), "fixed: remove from KNOWN_CLI_IMPORTS"


def long_functions(modules: dict) -> dict:
    """(path, function name) -> lines, for every function over ``MAX_LINES`` lines.

    The docstring does not count: an entry point documents every argument and runs
    examples (scikit-learn's style), and that text is not code to read."""
    out = {}
    for name, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1 - _docstring_lines(node)
                if lines > MAX_LINES:
                    out[(name, node.name)] = lines
    return out


def _docstring_lines(node) -> int:
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
            and isinstance(first.value.value, str):
        return first.end_lineno - first.lineno + 1
    return 0


def test_no_function_is_over_60_lines():
    long = long_functions(library_modules(include_cli=True))
    assert {key: n for key, n in long.items() if key not in KNOWN_LONG} == {}
    assert KNOWN_LONG - set(long) == set(), "split: remove from KNOWN_LONG"


@pytest.mark.parametrize("package", [p for p in LIBRARY if p != "metrics"])
def test_the_test_command_runs_the_library_doctests(package):
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    options = config["tool:pytest"]
    assert package in options["testpaths"].split()
    assert "--doctest-modules" in options["addopts"].split()
    # the loading scripts are named like the family packages: never collected as modules
    assert "metrics" not in options["testpaths"].split()
