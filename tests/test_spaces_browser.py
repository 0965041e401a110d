"""Each Space as the Hub runs it: the publish script's dry run writes the folder, a fresh
environment installs only its requirements.txt (the nerlens wheel beside it and gradio),
``python app.py`` runs from inside the folder, and headless Chromium drives the page at
1280 px: the pre-filled example's sentences (gold and predicted mentions, error kinds with
their legend), the report's tables with human names and no raw result key, the way to the
full report; then tags entered by hand and their scores.

Set NERLENS_SCREENSHOTS to a folder to keep a screenshot of every page.
"""
from __future__ import annotations

import json
import os
import re
import runpy
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import REPO, need_browser

ORG = "your-org"
FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")


@pytest.fixture(scope="module")
def spaces(nerlens_dist, tmp_path_factory) -> Path:
    """The dry run's output: one folder per Space, as it would be uploaded."""
    out = tmp_path_factory.mktemp("spaces")
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "publish_spaces.py"),
                           "--org", ORG, "--dry-run", "--out", str(out),
                           "--wheel", str(nerlens_dist["wheel"])],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == len(FAMILIES), done.stdout
    return out


def test_dry_run_writes_each_space_as_it_is_uploaded(spaces, nerlens_dist):
    wheel = nerlens_dist["wheel"].name
    for family in FAMILIES:
        folder = spaces / family
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            [f"{family}.py", "README.md", "app.py", "requirements.txt", wheel])
        for name in (f"{family}.py", "README.md", "app.py"):
            assert (folder / name).read_bytes() == (REPO / "metrics" / family / name).read_bytes()
        assert (folder / wheel).read_bytes() == nerlens_dist["wheel"].read_bytes()
        requirements = (folder / "requirements.txt").read_text().split()
        assert requirements == [f"./{wheel}", "gradio"], requirements
        assert "torch" not in " ".join(requirements)  # a Space needs no torch


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SpaceProcess:
    """``python app.py`` run from the Space folder, as the Hub runs it."""

    def __init__(self, venv, folder: Path):
        self.port = free_port()
        env = dict(venv.env(), GRADIO_SERVER_NAME="127.0.0.1",
                   GRADIO_SERVER_PORT=str(self.port), GRADIO_ANALYTICS_ENABLED="False",
                   HF_HUB_OFFLINE="1")
        self.log = folder.parent / f"{folder.name}.log"
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([str(venv.python), "app.py"], cwd=folder, env=env,
                                            stdout=log, stderr=subprocess.STDOUT)
        self.url = f"http://127.0.0.1:{self.port}/"

    def wait_until_serving(self, timeout: float = 240) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"app.py exited: {self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url, timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(1)
        raise AssertionError(f"app.py serves nothing after {timeout}s: "
                             f"{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def space_venv(fresh_venv, spaces):
    """The fresh environment with the first Space's requirements installed (the others
    differ only in their folder; each test installs its own folder's file again)."""
    need_browser()  # no browser: skip before the slow install
    fresh_venv.pip_install("-r", "requirements.txt", cwd=spaces / FAMILIES[0])
    return fresh_venv


def result_text(page) -> str:
    page.locator(".nerlens-result table").first.wait_for(timeout=120_000)
    return page.locator(".nerlens-result").inner_text()


def raw_keys(data) -> set:
    """Every key of a JSON document that is a code name (words joined by ``_``)."""
    out: set = set()
    if isinstance(data, dict):
        out |= {k for k in data if re.fullmatch(r"[A-Za-z]+(_[A-Za-z0-9]+)+", str(k))}
        for value in data.values():
            out |= raw_keys(value)
    elif isinstance(data, list):
        for item in data:
            out |= raw_keys(item)
    return out


def shown_keys(text: str, keys: set) -> set:
    return {word for word in re.findall(r"[A-Za-z0-9_]+", text) if word in keys}


@pytest.mark.parametrize("family", FAMILIES)
def test_space_runs_from_its_published_folder(family, spaces, space_venv, browser, tmp_path):
    folder = spaces / family
    space_venv.pip_install("-r", "requirements.txt", cwd=folder)
    # what the page must show for the example: the app's own report, computed here
    app = runpy.run_path(str(folder / "app.py"))
    report = app["demo"].example_report()
    entity_f1 = f"{100 * report.estimates['system']['entity_f1']:.2f}"
    words = app["EXAMPLE"]["tokens"].split()
    keys = raw_keys(json.loads(report.to_json()))  # recall_unseen_any, unique_mentions, ...
    space = SpaceProcess(space_venv, folder)
    try:
        space.wait_until_serving()
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(space.url, wait_until="networkidle", timeout=120_000)
        page.get_by_role("button", name="Compute").click()
        text = result_text(page)
        assert "Error" not in text, text
        # the sentences, their mentions colored by kind with the legend, the tables
        assert all(word in text for word in words[:5]), text[:2000]
        assert "correct mention" in text and "spurious mention (FP)" in text
        assert page.locator(".nerlens-result table.sentence td[colspan]").count() > 0
        # the headline table: a column per number, a row per system (here one)
        assert "entity F1" in text and re.search(rf"\b{re.escape(entity_f1)}\b", text), \
            text[:3000]
        assert "nerlens report" in text  # the way to the full report
        # no result key as text anywhere on the page (the Spaces showed recall_unseen_any,
        # options, repairs; dropdowns were labelled case_sensitive)
        leaked = shown_keys(page.locator("body").inner_text(), keys)
        _keep_screenshot(page, tmp_path / f"{family}.png")

        # enter tags: the predictions become the references, and the scores follow
        references = page.get_by_label("Reference tags (one sentence per line)")
        predictions = page.get_by_label("Predicted tags (one sentence per line)")
        predictions.fill(references.input_value())
        page.get_by_role("button", name="Compute").click()
        page.wait_for_function(
            # the headline table: entity F1 a column, the one system's row at 100.00
            "() => [...document.querySelectorAll('.nerlens-result table')].some("
            "t => t.innerText.includes('entity F1') && t.innerText.includes('100.00'))",
            timeout=120_000)
        text = result_text(page)
        assert "Error" not in text and "wrong label (LE)" in text
        assert not errors, errors
        page.close()
    finally:
        space.stop()
    assert not leaked, sorted(leaked)  # no result key as text, the report's tables included


def _keep_screenshot(page, path: Path) -> None:
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000  # a rendered page, not a blank one
    keep = os.environ.get("NERLENS_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, Path(keep) / path.name)
