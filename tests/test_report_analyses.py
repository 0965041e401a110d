"""The report's analyses beyond the headline numbers: the tough-mention recall spread and
the min_share rule, hardeval's corpus statistics and hard tokens, and the figures
(FairEval's two, the self-diagnosis histograms), in the JSON and in the page, rendered in
headless Chromium."""
from __future__ import annotations

import importlib
import json
import sys

import pytest

import nerlens
import tough_mentions
from nerlens.cli import main
from nerlens.report.page_kit import header_html
from attribute_buckets.report import self_diagnosis_title
from faireval.report import ERRORS_TITLE as FAIREVAL_ERRORS_TITLE
from faireval.report import confusion_title as faireval_confusion_title
from nerspan import as_train_index

TRAIN_TOKENS = [["John", "Smith", "visited", "Rome"], ["Acme", "hired", "him"],
                ["Rome", "is", "big"]]
TRAIN_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "O"], ["B-LOC", "O", "O"]]
TOKENS = [["John", "Smith", "in", "Paris"], ["at", "Acme", "."], ["Rome", "and", "Bonn"]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"], ["B-LOC", "O", "B-LOC"]]
SYSTEMS = {"tagger": [["B-PER", "I-PER", "O", "O"], ["O", "B-ORG", "O"],
                      ["B-LOC", "O", "B-ORG"]],
           "other": [["B-PER", "O", "O", "B-LOC"], ["O", "B-LOC", "O"], ["B-LOC", "O", "O"]]}


@pytest.fixture(scope="module")
def report():
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    return nerlens.build_report(GOLD, SYSTEMS, train=train, tokens=TOKENS, bootstrap=50, seed=0,
                          min_share=0.2)


def test_analyses_in_json_equal_the_library(report):
    data = json.loads(report.to_json())
    tm = data["analyses"]["tough_mentions"]
    per_system = {s: report.results[s]["tough_mentions"] for s in report.systems}
    assert tm["recall_spread"] == json.loads(json.dumps(tough_mentions.recall_spread(per_system)))
    assert tm["min_share"] == 0.2 and data["info"]["min_share"] == 0.2
    # 5 gold mentions: Rome is the only seen one (1/5 = 0.2 is not under 0.2)
    assert "seen" not in tm["small_subsets"]["overall"]
    assert "unseen_type" in tm["small_subsets"]["overall"]
    he = data["analyses"]["hardeval"]
    assert he["corpus_statistics"]["test"]["mentions"] == 5
    assert he["corpus_statistics"]["train"]["sentences"] == 3
    assert he["tokens"]["unseen_i"][0]["token"] in {"Paris", "Bonn"}
    assert set(he["tokens"]["unseen_i"][0]["errors"]) == {"tagger", "other"}
    # the hard-token subsets agree with hardeval's own table of the report: 6 distinct
    # unseen words, each once; the report lists the first 5 (by count, then string)
    unseen = report.results["tagger"]["hardeval"]["subsets"]["unseen"]
    assert (unseen["tokens"], unseen["words"]) == (6, 6)
    assert [row["token"] for row in he["tokens"]["unseen"]] == [".", "Bonn", "Paris", "and",
                                                               "at"]


def test_min_share_leaves_small_subsets_out_of_the_page(report):
    page = report.to_html()
    recall_table = page.split("<h3>Recall per subset (%)</h3>")[1].split("</table>")[0]
    assert f"<th>{header_html('unseen type')}</th>" not in recall_table \
        and f"<th>{header_html('unseen (any)')}</th>" in recall_table
    assert "Left out (under 20% of the gold mentions" in page
    with pytest.raises(ValueError, match="min_share"):
        nerlens.build_report(GOLD, SYSTEMS, train=as_train_index((TRAIN_TOKENS, TRAIN_TAGS)),
                       tokens=TOKENS, bootstrap=0, min_share=1.5)


def test_cli_report_min_share(tmp_path, capsys):
    assert main(["report", "--demo", "--output", str(tmp_path), "--bootstrap", "0",
                 "--no-progress", "--min-share", "0.01", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # WNUT-17's test set has no seen mentions by design: the seen subset is left out
    assert "seen" in data["analyses"]["tough_mentions"]["small_subsets"]["overall"]
    with pytest.raises(SystemExit) as stop:   # refused as the flag is read
        main(["report", "--demo", "--output", str(tmp_path), "--min-share", "2"])
    assert stop.value.code == 2
    assert ("argument --min-share: min_share is a fraction of the gold mentions"
            in capsys.readouterr().err)


def test_figures_in_the_page(report, tmp_path, browser):
    titles = [FAIREVAL_ERRORS_TITLE] + [f(s) for s in report.systems
                                        for f in (faireval_confusion_title, self_diagnosis_title)]
    assert all(t in report.figures for t in titles)
    path = tmp_path / "report.html"
    report.to_html(path)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(path.as_uri(), wait_until="load")
    for title in titles:
        image = page.locator(f"img[alt='{title}']")
        assert image.count() == 1, title
        assert image.evaluate("e => e.naturalWidth") > 300, title
    assert page.locator(f"section#faireval img[alt='{FAIREVAL_ERRORS_TITLE}']").count() == 1
    assert page.locator("section#attribute_buckets img[alt^='Self-diagnosis']").count() == 2
    width = page.evaluate("document.documentElement.scrollWidth")
    page.close()
    assert width <= 1280


def test_dataset_figures_for_a_multi_dataset_report():
    """The figures a report over several datasets shows (the report itself holds one
    dataset until issue 16): the radar chart and the relative heat map, as PNG."""
    from attribute_buckets.report import RADAR_TITLE, dataset_figures, dataset_heatmap_title
    from nerlens.report.analyses import figure_png

    from .test_buckets_experiments import datasets

    figures = {title: figure_png(f) for title, f in dataset_figures(datasets(), "A").items()}
    assert list(figures) == [RADAR_TITLE, dataset_heatmap_title("A")]
    assert all(png.startswith(b"\x89PNG") and len(png) > 5000 for png in figures.values())


def test_per_system_figures_are_capped_and_the_page_says_so():
    from nerlens.report.views import FIGURE_SYSTEMS

    many = {f"s{i}": SYSTEMS["tagger" if i % 2 else "other"]
            for i in range(FIGURE_SYSTEMS + 1)}
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    report = nerlens.build_report(GOLD, many, train=train, tokens=TOKENS, bootstrap=0,
                            families=("faireval", "attribute_buckets"))
    drawn = [s for s in many if faireval_confusion_title(s) in report.figures]
    assert drawn == list(many)[:FIGURE_SYSTEMS]
    assert [s for s in many if self_diagnosis_title(s) in report.figures] == drawn
    assert FAIREVAL_ERRORS_TITLE in report.figures     # Figure 1 covers every system
    assert f"drawn for the first {FIGURE_SYSTEMS} systems only" in report.to_html()


def _bar_figures(n: int) -> dict:
    from matplotlib.figure import Figure

    figures = {}
    for k in range(n):
        figure = Figure(figsize=(3, 2), layout="constrained")
        figure.add_subplot().bar(["a", "b", "c"], [k, k + 1, 2 * k])
        figures[f"chart {k}"] = figure
    return figures


def check_parallel_drawing() -> None:
    """Forked workers give the same PNG bytes, in the same order, as one process; a
    worker that fails leaves its share to the parent, which draws it. Run in a fresh
    interpreter: one thread, as the command line has."""
    import os

    analyses = importlib.import_module("nerlens.report.analyses")
    assert analyses._workers(12) > 1
    alone = {title: analyses.figure_png(f) for title, f in _bar_figures(12).items()}
    assert analyses.figure_pngs(_bar_figures(12)) == alone
    assert list(analyses.figure_pngs(_bar_figures(12))) == list(alone)

    parent = os.getpid()
    drawn_here = []
    draw = analyses.figure_png

    def fails_in_a_child(figure):
        if os.getpid() != parent:
            raise RuntimeError("a worker failing")
        drawn_here.append(figure)
        return draw(figure)

    analyses.figure_png = fails_in_a_child
    assert analyses.figure_pngs(_bar_figures(12)) == alone
    assert len(drawn_here) == 12          # the parent drew every share itself


def test_figures_drawn_in_parallel_are_the_figures_drawn_one_by_one():
    import os
    import subprocess
    from pathlib import Path

    if not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2:
        pytest.skip("figures are drawn in parallel on Linux with 2 or more cores only")
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run(
        [sys.executable, "-c",
         "from tests.test_report_analyses import check_parallel_drawing as c; c()"],
        cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr


def test_figures_are_drawn_in_one_process_when_threads_run():
    """fork copies one thread only: with another thread running, nothing is forked."""
    import threading

    analyses = importlib.import_module("nerlens.report.analyses")
    stop = threading.Event()
    waiting = threading.Thread(target=stop.wait)
    waiting.start()
    try:
        assert analyses._workers(12) == 1
    finally:
        stop.set()
        waiting.join()
