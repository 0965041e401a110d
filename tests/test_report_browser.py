"""The HTML reports as a reader sees them, in headless Chromium 1280 px wide: the demo's
and a 15-system CoNLL-2003 report. No console errors, every section present, the findings
on top, every contents link landing on its section, the overview heat map drawn, nothing
wider than the page, and a screenshot that is not blank."""
from __future__ import annotations

import io

import pytest

from nerlens.cli import main

from .conftest import shared_path

SECTIONS = ("findings", "overview", "summary", "comparisons", "tough_mentions", "hardeval",
            "faireval", "attribute_buckets", "examples", "repairs", "provenance")
WIDTH = 1280


def _open(browser, path):
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
    page.goto(path.as_uri(), wait_until="load")
    return page, problems


def _check_reader_view(page):
    """Findings first, contents links that land, the overview, no horizontal overflow."""
    for anchor in SECTIONS:
        assert page.locator(f"section#{anchor}").count() == 1, anchor
    order = page.eval_on_selector_all("section", "els => els.map(e => e.id)")
    assert order[0] == "findings", order
    assert page.locator("section#findings li").count() >= 1
    links = page.locator("nav.toc a")
    assert links.count() == len(order)
    for i in range(links.count()):
        target = links.nth(i).get_attribute("href")
        links.nth(i).click()
        top = page.eval_on_selector(target, "e => e.getBoundingClientRect().top")
        at_bottom = page.evaluate(
            "window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2")
        # the link scrolled its section to the top (or as far as the page goes)
        assert abs(top) < 5 or (at_bottom and 0 <= top < 900), (target, top)
    overview = page.locator("section#overview img")
    assert overview.count() == 1
    assert overview.evaluate("e => e.naturalWidth") > 600
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    box = overview.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH


def _not_blank(shot: bytes) -> None:
    image = pytest.importorskip("PIL.Image").open(io.BytesIO(shot)).convert("L")
    low, high = image.getextrema()
    assert image.size[0] == WIDTH and image.size[1] > 2000, image.size
    assert high - low > 100, (low, high)  # not one flat colour
    histogram = image.histogram()
    assert max(histogram) < 0.99 * sum(histogram)  # not nearly all one shade


def test_demo_report_renders(tmp_path, browser):
    assert main(["report", "--demo", "--output", str(tmp_path), "--bootstrap", "100",
                 "--no-progress"]) == 0
    page, problems = _open(browser, tmp_path / "report.html")
    for anchor in SECTIONS:
        assert page.locator(f"section#{anchor}").locator("table, ul, img").count() >= 1, anchor
    assert "no seen mentions" in page.locator("div.notes").inner_text()
    assert "memorisation is a baseline" in page.locator("div.notes").inner_text()
    assert page.locator("section#attribute_buckets img").count() >= 8
    # every embedded chart decoded to a real picture
    widths = page.eval_on_selector_all("img", "els => els.map(e => e.naturalWidth)")
    assert widths and min(widths) > 100, widths
    _check_reader_view(page)
    shot = page.screenshot(full_page=True)
    page.close()
    assert not problems, problems
    _not_blank(shot)


def test_conll_report_with_15_systems_fits_the_page(tmp_path, browser):
    data = shared_path("data", "conll03")
    systems = sorted((data / "systems").glob("*.txt"))
    if len(systems) < 15:
        pytest.skip("needs ../shared/data/conll03 with its 15 systems")
    assert main(["report", str(data / "test.txt"), *map(str, systems),
                 "--train", str(data / "train.txt"), "--output", str(tmp_path), "--bootstrap", "100",
                 "--no-progress"]) == 0
    page, problems = _open(browser, tmp_path / "report.html")
    findings = page.locator("section#findings").inner_text()
    assert "of seen mentions" in findings and "beats" in findings
    assert page.locator("section#summary table").count() == 3   # 15 systems, 6 per table
    _check_reader_view(page)
    shot = page.screenshot(full_page=True)
    page.close()
    assert not problems, problems
    _not_blank(shot)


def test_example_filter_shows_one_kind(tmp_path, browser):
    assert main(["report", "--demo", "--output", str(tmp_path), "--bootstrap", "0",
                 "--no-progress"]) == 0
    page, problems = _open(browser, tmp_path / "report.html")
    examples = page.locator("section#examples li.example")
    kinds = set(examples.evaluate_all("els => els.map(e => e.dataset.kind)"))
    assert {"LE", "BE", "LBE", "FN", "FP", "missed_unseen", "diff_token"} <= kinds
    assert page.locator("#example-filter").is_visible()     # the script showed the filter
    page.select_option("#example-filter select", "LBE")
    visible = examples.evaluate_all(
        "els => els.filter(e => !e.hidden).map(e => e.dataset.kind)")
    assert visible and set(visible) == {"LBE"}
    # every shown example highlights its gold or its system mention
    lbe = page.locator("section#examples li.example[data-kind='LBE']").first
    assert lbe.locator("span.gold").count() >= 1 and lbe.locator("span.pred").count() >= 1
    page.select_option("#example-filter select", "")
    assert examples.evaluate_all("els => els.filter(e => e.hidden).length") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    page.close()
    assert not problems, problems


def test_examples_show_without_script(tmp_path, browser):
    assert main(["report", "--demo", "--output", str(tmp_path), "--bootstrap", "0",
                 "--no-progress"]) == 0
    context = browser.new_context(java_script_enabled=False, viewport={"width": WIDTH,
                                                                     "height": 900})
    page = context.new_page()
    page.goto((tmp_path / "report.html").as_uri(), wait_until="load")
    assert not page.locator("#example-filter").is_visible()  # no filter that cannot work
    assert page.locator("section#examples details[open] li.example").first.is_visible()
    context.close()
