"""The documentation site (mkdocs.yml, docs/): it builds with no warning, its command-line
page is the parser's, and every example on every page runs as written.

A page's examples run in a fresh folder holding the files the page shows
(fenced blocks titled ``title="NAME"``) and a link to ``metrics/``: its ``>>>``
examples as doctests, its plain ``python`` blocks as scripts (a block marked
``<!-- snippet: NAME -->`` is run by the integration tests instead: it needs a model
or a Hub), and each command of its ``bash`` blocks through ``nerlens.cli.main``, which
must succeed.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys

import pytest

from nerlens.cli import COMMANDS, main

from .conftest import REPO
from .readme_snippets import (page_files, python_blocks, run_doctests, shell_commands,
                              snippets)

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")

PAGES = sorted((REPO / "docs").rglob("*.md"))
INTEGRATION_SNIPPETS = set().union(*(snippets(page) for page in PAGES))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                           "-f", str(REPO / "mkdocs.yml"), "-d", str(out)],
                          capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    return done, out


def test_the_site_builds_with_no_warning(site):
    done, out = site
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    assert (out / "index.html").exists()


def test_every_page_is_in_the_navigation(site):
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert [p for p in PAGES if p.relative_to(REPO / "docs").as_posix() not in nav] == []


def test_the_command_line_page_lists_every_subcommand_and_its_flags(site):
    _, out = site
    page = (out / "cli" / "index.html").read_text(encoding="utf-8")
    for command in COMMANDS:
        assert f'id="nerlens-{command.name}"' in page, command.name
    # flags come from the parser, not from a copy: a few of each kind
    for flag in ("--gold-tag-column", "--train", "--schemas", "--n-buckets", "--choose-on"):
        assert f"<code>{flag}</code>" in page, flag


def test_the_api_reference_is_generated_from_the_docstrings(site):
    _, out = site
    page = (out / "api" / "nerspan" / "index.html").read_text(encoding="utf-8")
    assert 'id="nerspan.score"' in page
    assert "zero_division" in page


@pytest.fixture
def page_folder(tmp_path, monkeypatch):
    def enter(page):
        for name, content in page_files(page.read_text(encoding="utf-8")).items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(content, encoding="utf-8")
        (tmp_path / "metrics").symlink_to(REPO / "metrics")
        monkeypatch.chdir(tmp_path)
        return tmp_path
    return enter


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO / "docs").as_posix())
def test_every_example_on_the_page_runs(page, page_folder):
    text = page.read_text(encoding="utf-8")
    page_folder(page)
    result = run_doctests(page)
    assert result.failed == 0, page
    for code in python_blocks(text):
        if code not in INTEGRATION_SNIPPETS:
            exec(compile(code, str(page), "exec"), {"__name__": "__docs__"})
    for words in shell_commands(text):
        assert words[0] == "nerlens", f"{page.name}: a bash block runs nerlens only: {words}"
        errors = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors):
            try:
                status = main(words[1:])
            except SystemExit as done:      # --version, --help: argparse exits
                status = done.code or 0
        assert status == 0, f"{page.name}: {' '.join(words)} exited {status}: {errors.getvalue()}"


def test_the_pages_have_examples():
    counts = {page.name: (len(re.findall(r"^>>> ", page.read_text(), re.M))
                          + len(shell_commands(page.read_text()))) for page in PAGES}
    assert sum(counts.values()) > 100
    assert counts["getting-started.md"] > 0 and counts["input-formats.md"] > 0
