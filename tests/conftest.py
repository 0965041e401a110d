"""Shared test helpers: where the shared data and fixtures live."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATA = SHARED / "data"
FIXTURES = SHARED / "fixtures"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when that data is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


def tagged_split(tokens, tags, labels):
    """A ``datasets`` split: string ``tokens`` and ``ner_tags`` as a ClassLabel sequence."""
    import datasets

    features = datasets.Features({
        "tokens": datasets.Sequence(datasets.Value("string")),
        "ner_tags": datasets.Sequence(datasets.ClassLabel(names=labels))})
    return datasets.Dataset.from_dict(
        {"tokens": tokens, "ner_tags": [[labels.index(t) for t in s] for s in tags]},
        features=features)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    """Headless Debian chromium driven by Playwright (no browser download)."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"chromium not found at {CHROMIUM}: .ci/run installs Debian's chromium")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
