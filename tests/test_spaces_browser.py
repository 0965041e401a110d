"""Each Space app served on 127.0.0.1 and driven in headless Chromium.

The page loads, the pre-filled example is submitted with the Compute button, and the
rendered result is a table holding the family's headline number as the module computes
it. Needs Debian's chromium (``.ci/run`` installs it) and the playwright package.
"""
from __future__ import annotations

import importlib.util
import socket

import pytest

from tests.conftest import REPO

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")


def load_app(family: str):
    path = REPO / "metrics" / family / "app.py"
    spec = importlib.util.spec_from_file_location(f"space_app_{family}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("family", FAMILIES)
def test_space_app_renders_the_example_result(family, browser, monkeypatch):
    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")
    app = load_app(family)
    port = free_port()
    app.demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True,
                    quiet=True)
    try:
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"http://127.0.0.1:{port}/", wait_until="networkidle", timeout=60_000)
        page.get_by_role("button", name="Compute").click()
        table = page.locator("table.nerlens-table").first
        table.wait_for(timeout=60_000)
        text = page.locator(".nerlens-result").inner_text()
        assert "Error" not in text, text
        # the headline number of the example, as the app's compute function gives it
        result = app.demo.example_result()
        key = app.demo.headline
        assert key is not None and isinstance(result[key], float), (key, result)
        assert key in text and f"{result[key]:.4f}" in text, text[:2000]
        assert not errors, errors
        page.close()
    finally:
        app.demo.close()
