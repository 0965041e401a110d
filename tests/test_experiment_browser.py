"""The experiment page as a reader sees it, in headless Chromium 1280 px wide: a report
with two datasets (issue 16 item 4, issue 17): findings on top, every contents link
landing on its section, the radar chart, the relative heat map and FairEval's figures of
every system (per dataset), nothing wider than the page, and a screenshot that is not
blank. Issue 32: 2 datasets x 2 systems x 3 runs within 20,000 px, no report.json key as
visible text, findings that name no run."""
from __future__ import annotations

import json
import re

import pytest

from nerlens import run_experiment as nerlens_experiment
from nerlens.cli import main
from attribute_buckets.report import RADAR_TITLE, dataset_heatmap_title
from faireval.report import ERRORS_TITLE as FAIREVAL_ERRORS_TITLE
from faireval.report import confusion_title as faireval_confusion_title

from .conftest import shared_path
from .test_experiment import files, parts  # noqa: F401 (fixtures: two small datasets)
from .test_experiment_real_data import experiment_argv
from .test_report_browser import WIDTH, _not_blank, _open, check_tables

TOP = ("findings", "holistic", "tmr", "attribute_wise", "model_wise", "heatmap",
       "significance", "d1", "d2", "provenance")


def _check_experiment_page(page, baseline: str, systems: list):
    for anchor in TOP:
        assert page.locator(f"section#{anchor}").count() == 1, anchor
    order = page.eval_on_selector_all("body > section", "els => els.map(e => e.id)")
    assert order[0] == "findings", order
    assert page.locator("section#findings li").count() >= 1
    # every contents link has its one target and scrolls it to the top
    links = page.locator("nav.toc a")
    assert links.count() > len(TOP)
    for i in range(links.count()):
        target = links.nth(i).get_attribute("href")
        assert page.locator(target).count() == 1, target
        links.nth(i).click()
        top = page.eval_on_selector(target, "e => e.getBoundingClientRect().top")
        at_bottom = page.evaluate(
            "window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2")
        assert abs(top) < 5 or (at_bottom and 0 <= top < 900), (target, top)
    # the figures across datasets and FairEval's two figures in each dataset's section
    wanted = {"attribute_wise": [RADAR_TITLE], "heatmap": [dataset_heatmap_title(baseline)]}
    for k in (1, 2):   # every system's figures, one per system (its runs folded)
        wanted[f"d{k}-faireval"] = [FAIREVAL_ERRORS_TITLE] + [faireval_confusion_title(s)
                                                              for s in systems]
    # the per-system parts of a dataset with figures start closed: opened to look at them
    page.evaluate("document.querySelectorAll('section.dataset details').forEach("
                  "d => d.open = true)")
    for anchor, titles in wanted.items():
        for title in titles:
            image = page.locator(f"section#{anchor} img[alt='{title}']")
            assert image.count() == 1, (anchor, title)
            assert image.evaluate("e => e.naturalWidth") > 400, title
            box = image.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, title
            if anchor in ("attribute_wise", "heatmap"):
                # shown 1:1, so that their labels keep the pixels test_experiment measures
                assert image.evaluate("e => e.naturalWidth <= e.clientWidth + 1"), title
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    page.evaluate("document.querySelectorAll('section.dataset details').forEach("
                  "d => d.open = false)")
    # Holm's correction is stated where the tests are
    assert "Holm" in page.locator("section#significance").inner_text()


def _keys(data) -> set:
    """Every key of experiment.json (the datasets' report.json included)."""
    if isinstance(data, dict):
        return set(data).union(*map(_keys, data.values()))
    if isinstance(data, list):
        return set().union(*map(_keys, data)) if data else set()
    return set()


def _no_key_shown(page, data) -> None:
    """No key of experiment.json that only a program would write (``unseen_any``,
    ``entity_f1``: with ``_`` or ``.``) is visible text anywhere on the page, the
    families' sections included."""
    keys = {k for k in _keys(data) if "_" in k or "." in k}
    text = page.evaluate("""() => { const body = document.body.cloneNode(true);
        document.documentElement.appendChild(body); body.style.display = 'block';
        const text = body.innerText; body.remove(); return text; }""")
    shown = sorted(k for k in keys if re.search(rf"(?<![\w.]){re.escape(k)}(?![\w.])", text))
    assert not shown, shown


def test_two_dataset_experiment_renders(files, tmp_path, browser):  # noqa: F811
    f = files
    # with --beta: the entity F-beta over runs and in the tests, by its name
    assert main(["report", "--no-progress", "--bootstrap", "50", "--output", str(tmp_path),
                 "--train", str(f / "train.txt"), "--beta", "2",
                 "--data", "a", str(f / "a_gold.txt"),
                 "--pred", f"spacy={f}/a_spacy_*.txt", f"oracle={f}/a_oracle_*.txt",
                 "--data", "b", str(f / "b_gold.txt"),
                 "--pred", f"spacy={f}/b_spacy_*.txt", f"oracle={f}/b_oracle_*.txt"]) == 0
    page, problems = _open(browser, tmp_path / "experiment.html")
    height = page.evaluate("document.body.scrollHeight")
    assert 2000 < height <= 20_000, height   # 60,304 px before runs were folded
    _no_key_shown(page, json.loads((tmp_path / "experiment.json").read_text()))
    assert "entity F2" in page.locator("section#holistic").inner_text()
    findings = page.locator("section#findings > ul").inner_text()
    assert "spacy's runs spread" in findings and "#" not in findings
    # runs are named only where each run is shown, one click away (closed)
    assert not re.findall(r"\w#\d", page.evaluate("document.body.innerText"))
    _check_experiment_page(page, "spacy", ["spacy", "oracle"])
    check_tables(page)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
    # the contents' two columns: a dataset's entries stay in its column, one below another
    lefts = page.evaluate("[...document.querySelectorAll('.toc ol ol')].map(ol => "
                          "[...ol.children].map(li => Math.round(li.getBoundingClientRect().x)))")
    assert lefts and all(len(set(column)) == 1 for column in lefts), lefts
    shot = page.screenshot(full_page=True)
    page.close()
    assert not problems, problems
    _not_blank(shot)


def test_real_data_experiment_renders(tmp_path, browser):
    argv = experiment_argv(shared_path("data"))
    assert main(["report", "--no-progress", "--bootstrap", "100", "--output", str(tmp_path),
                 *argv]) == 0
    page, problems = _open(browser, tmp_path / "experiment.html")
    _check_experiment_page(page, "flair", ["flair", "elmo"])
    assert "conll03: flair has the highest entity F1" in \
        page.locator("section#findings").inner_text()
    check_tables(page)   # wnut16's ten types head FairEval's tables; hardeval's 11 columns
    shot = page.screenshot(full_page=True)
    page.close()
    assert not problems, problems
    _not_blank(shot)


def test_generated_experiment_tables_fit(tmp_path, browser):
    """The grounding table (17 columns in one table overflowed the page, its headers broke
    inside words) and the tables of a tiny dataset, as a reader opens them."""
    from . import test_experiment_generated as generated

    every = [s for sentences in generated.DATASETS.values() for s in sentences]
    train = generated._columns(tmp_path / "train.txt", *zip(*every))
    datasets = {}
    for name, sentences in generated.DATASETS.items():
        tokens, gold = zip(*sentences)
        datasets[name] = {
            "gold": str(generated._columns(tmp_path / f"{name}_gold.txt", tokens, gold)),
            "train": str(train),
            "systems": {"tagger": str(generated._columns(tmp_path / f"{name}_tagger.txt",
                                                         tokens, generated.TAGGER[name]))},
            "generated": {"llm": [str(generated._jsonl(tmp_path / f"{name}_llm_{k}.jsonl", run))
                                  for k, run in enumerate(generated.LLM[name], 1)]}}
    nerlens_experiment(datasets, bootstrap=20).to_html(tmp_path / "experiment.html")
    page, problems = _open(browser, tmp_path / "experiment.html")
    assert page.locator("section#generated table").count() == 2
    check_tables(page)
    page.close()
    assert not problems, problems
