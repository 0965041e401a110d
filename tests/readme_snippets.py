"""The README's integration snippets, found by their ``<!-- snippet: NAME -->`` marker."""
from __future__ import annotations

import re

from tests.conftest import REPO


def snippet(name: str) -> str:
    """The code of the fenced block right after ``<!-- snippet: name -->``."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- snippet: {re.escape(name)} -->\n```\w*\n(.*?)\n```", text, re.S)
    if not found:
        raise LookupError(f"README has no snippet {name!r}")
    return found.group(1) + "\n"
