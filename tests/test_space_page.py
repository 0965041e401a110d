"""The Space's result page without Gradio: the sentences with their mentions colored by
kind (checked against a hand-worked example), the report's tables, the way to the report."""
from __future__ import annotations

import re

import pytest

import faireval
import nerlens
from nerlens.families import get_family
from nerlens.space import CORRECT, colors, result_page, scoped_style, sentences_html

TOKENS = [["Ana", "Lee", "saw", "Rome", "Kim", "."]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC", "O", "O"]]
PRED = [["B-PER", "O", "O", "B-ORG", "B-PER", "O"]]


def cells(page: str, row: str) -> list:
    """(label, colspan, kind name) of the colored cells of the row titled ``row``."""
    found = re.search(rf"<td class='side'>{row}</td>(.*?)</tr>", page)
    return re.findall(r"<td colspan='(\d+)' style='background:[^']+' title='([^']+)'>"
                      r"([^<]+)</td>", found.group(1))


def test_mentions_are_colored_by_their_kind():
    page = sentences_html(TOKENS, GOLD, PRED)
    kinds = {CORRECT[0]: CORRECT[1], **get_family("faireval").examples.kinds}
    # by hand: Ana Lee (PER) found as Ana alone, a boundary error; Rome LOC predicted ORG,
    # a label error; Kim predicted PER where gold has none, a false positive
    assert cells(page, "gold") == [("2", kinds["BE"], "PER"), ("1", kinds["LE"], "LOC")]
    assert cells(page, "predicted") == [("1", kinds["BE"], "PER"), ("1", kinds["LE"], "ORG"),
                                        ("1", kinds["FP"], "PER")]
    # the legend names every kind in its color
    for kind, color in colors(kinds).items():
        assert f"<span style='background:{color}'>{kinds[kind]}</span>" in page
    assert len(set(colors(kinds).values())) == len(kinds)
    # a correct mention is green on both rows
    page = sentences_html(TOKENS, GOLD, GOLD)
    assert {k for _, k, _ in cells(page, "gold") + cells(page, "predicted")} == {CORRECT[1]}


@pytest.mark.parametrize("family", ["faireval", "tough_mentions", "hardeval",
                                    "attribute_buckets"])
def test_the_page_is_the_reports_tables(family):
    train = (TOKENS, GOLD)
    page = result_page(family, GOLD, PRED, TOKENS, train)
    assert "<h2>Headline statistics</h2>" in page and "entity F1" in page
    assert get_family(family).title in page
    assert "nerlens report" in page
    # the Space's own parts name no result key (the old page dumped options, repairs)
    own = page[:page.index("<h2>Headline statistics</h2>")]
    assert not re.search(r"\b(options|repairs|recall_unseen_any)\b", own)


def test_the_style_is_scoped_to_the_result():
    selectors = [sel.strip() for rule in re.findall(r"([^{}]+)\{[^{}]*\}", scoped_style())
                 for sel in rule.split(",")]
    assert len(selectors) > 10
    assert all(sel.startswith(".nerlens-result ") for sel in selectors), selectors
    assert ".nerlens-result body" not in selectors


def test_the_report_passes_a_family_its_options():
    # what the Spaces' dropdowns rely on: options reach the family's score, as in the
    # Trainer helper (ComputeMetrics(options=...))
    report = nerlens.build_report(GOLD, {"system": PRED}, tokens=TOKENS, families=["faireval"],
                            bootstrap=0, figures=False,
                            options={"faireval": {"weights": "weighted"}})
    result = report.results["system"]["faireval"]
    direct = faireval.score(GOLD, PRED, weights="weighted").to_dict()
    assert result["weight_table_f1"] == direct["weight_table_f1"]
    plain = nerlens.build_report(GOLD, {"system": PRED}, tokens=TOKENS, families=["faireval"],
                           bootstrap=0, figures=False)
    assert "weight_table_f1" not in plain.results["system"]["faireval"]
