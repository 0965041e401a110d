"""The examples of the README and of the documentation pages (docs/), as the tests run them.

``snippet(name, path)``: the code of the fenced block after ``<!-- snippet: NAME -->`` in a
page (``DOCS / "evaluate.md"``), run by the integration tests. ``run_doctests(path)``: the ``>>>`` examples of a Markdown file, as
doctests. ``page_files``, ``shell_commands`` and ``python_blocks``: a documentation page's
example files (fenced blocks titled with a file name, ````text title="gold.txt"``), its
``bash`` commands and its plain ``python`` blocks.
"""
from __future__ import annotations

import doctest
import re
import shlex
import textwrap
from pathlib import Path

from nerlens.families import family_names, unregister_family

from tests.conftest import REPO

DOCS = REPO / "docs"
FENCE = r"```(\w*)[^\n]*\n(.*?)\n```"   # a fence may carry a title="..."


def snippet(name: str, path: Path) -> str:
    """The code of the fenced block right after ``<!-- snippet: name -->``."""
    text = path.read_text(encoding="utf-8")
    found = re.search(rf"<!-- snippet: {re.escape(name)} -->\n```\w*\n(.*?)\n```", text, re.S)
    if not found:
        raise LookupError(f"{path.name} has no snippet {name!r}")
    return found.group(1) + "\n"


def snippets(path: Path) -> set:
    """The code of every ``<!-- snippet: NAME -->`` block of a file."""
    text = path.read_text(encoding="utf-8")
    return {code + "\n" for code in
            re.findall(r"<!-- snippet: [\w-]+ -->\n```\w*\n(.*?)\n```", text, re.S)}


def run_doctests(path: Path) -> doctest.TestResults:
    """The ``>>>`` examples of a Markdown file, run as doctests (one namespace per file).
    A family an example registers is unregistered after: the other tests see the
    built-in ones."""
    before = set(family_names())
    try:
        return doctest.testfile(str(path), module_relative=False,
                                optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    finally:
        for name in set(family_names()) - before:
            unregister_family(name)


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, code)`` of every fenced block of a Markdown text."""
    return re.findall(FENCE, text, re.S)


def page_files(text: str) -> dict:
    """File name -> content of every fenced block titled with a file name
    (````text title="gold.txt"``): the example files a page shows (the title shows their
    name), written where its examples run."""
    found = re.findall(r'^( *)```\w* title="([\w./-]+)"\n(.*?)\n\1```', text,
                       re.S | re.M)      # indented: inside an admonition
    return {name: textwrap.dedent(code) + "\n" for _, name, code in found}


def shell_commands(text: str) -> list[list[str]]:
    """The arguments of every command of the page's ``bash`` blocks (a ``\\`` at a line's
    end continues it; ``#`` starts a comment)."""
    commands = []
    for language, code in fenced_blocks(text):
        if language == "bash":
            for line in code.replace("\\\n", " ").splitlines():
                words = shlex.split(line, comments=True)
                if words:
                    commands.append(words)
    return commands


def python_blocks(text: str) -> list[str]:
    """The code of every ``python`` block (``pycon`` blocks hold the doctests)."""
    return [code + "\n" for language, code in fenced_blocks(text) if language == "python"]
