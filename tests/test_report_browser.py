"""The demo's HTML report rendered in headless Chromium: no console errors, every
section present, and a screenshot that is not blank."""
from __future__ import annotations

import io

import pytest

from nerlens.cli import main

SECTIONS = ("summary", "comparisons", "tough_mentions", "hardeval", "faireval",
            "attribute_buckets")


def test_demo_report_renders(tmp_path, browser):
    assert main(["report", "--demo", "--output", str(tmp_path), "--bootstrap", "100",
                 "--no-progress"]) == 0
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
    page.goto((tmp_path / "report.html").as_uri(), wait_until="load")
    for anchor in SECTIONS:
        section = page.locator(f"section#{anchor}")
        assert section.count() == 1, anchor
        assert section.locator("table").count() >= 1, anchor
    images = page.locator("section#attribute_buckets img")
    assert images.count() >= 8
    # every embedded chart decoded to a real picture
    widths = page.eval_on_selector_all("img", "els => els.map(e => e.naturalWidth)")
    assert widths and min(widths) > 100, widths
    shot = page.screenshot(full_page=True)
    page.close()
    assert not problems, problems

    image = pytest.importorskip("PIL.Image").open(io.BytesIO(shot)).convert("L")
    low, high = image.getextrema()
    assert image.size[0] >= 1000 and image.size[1] > 2000, image.size
    assert high - low > 100, (low, high)  # not one flat colour
    histogram = image.histogram()
    assert max(histogram) < 0.99 * sum(histogram)  # not nearly all one shade
