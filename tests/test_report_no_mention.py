"""A report on gold that holds no mention (issue 37): the default report (figures on)
crashed with an IndexError (a bucket chart of tag, which has no bucket then; FairEval's
confusion table of a system without errors). Now every entry point writes the report, and
the page, the terminal and every family's section say what is undefined."""
from __future__ import annotations

import re

import pytest

import nerlens
from nerlens.cli import main
from nerlens.report.build import NO_GOLD_NOTE

from .conftest import built_in_families

FAMILIES = built_in_families()
TOKENS = [["Anna", "saw", "Rome"], ["it", "rained"]]
GOLD = [["O", "O", "O"], ["O", "O"]]
# one system predicts a mention (a false positive), one predicts none
SYSTEMS = {"guesser": [["B-PER", "O", "B-LOC"], ["O", "O"]],
           "silent": [["O", "O", "O"], ["O", "O"]]}
TRAIN = (TOKENS, [["B-PER", "O", "B-LOC"], ["O", "O"]])


def _sections(page: str) -> dict:
    """Section id -> its HTML."""
    return dict(re.findall(r"<section id='([\w-]+)'>(.*?)</section>", page, re.S))


def _check_page(page: str) -> None:
    assert "Gold holds no mention: recall is undefined" in page
    sections = _sections(page)
    for family in FAMILIES:   # each family's section says what is undefined, first
        body = sections[family]
        assert "Gold holds no mention:" in body, family
        assert body.index("Gold holds no mention:") < body.index("<table"), family
    # nothing drawn of nothing: no overview, and no chart of an entity attribute
    assert "no overview" in sections["overview"]
    assert "alt='F1 by eLen bucket'" not in page and "alt='F1 by tCon bucket'" in page
    assert "No bucket: gold has no mention" in sections["attribute_buckets"]


@pytest.mark.parametrize("figures", [True, False])
def test_api_report_of_gold_without_mentions(figures, tmp_path):
    report = nerlens.build_report(GOLD, SYSTEMS, train=TRAIN, tokens=TOKENS, bootstrap=20,
                            figures=figures)
    assert report.info["mentions"] == 0
    assert report.info["notes"] == [NO_GOLD_NOTE]
    for system in SYSTEMS:   # recall has nothing to find: the entity scores' zero_division
        assert report.estimates[system]["entity_recall"] == 0
        assert report.results[system]["tough_mentions"]["recall_unseen_any"] is None
        assert report.results[system]["attribute_buckets"]["buckets"]["tag"] == []
    guesser = report.results["guesser"]["faireval"]["counts"]
    assert guesser["FP"] == 2 and guesser["TP"] == guesser["FN"] == 0
    assert "Gold holds no mention" in report.summary()
    page = report.to_html(tmp_path / "report.html")
    if figures:
        _check_page(page)
    else:
        assert all("Gold holds no mention:" in _sections(page)[f] for f in FAMILIES)


def _columns(path, tags):
    path.write_text("\n\n".join("\n".join(f"{t} {g}" for t, g in zip(tokens, sentence))
                                for tokens, sentence in zip(TOKENS, tags)) + "\n",
                    encoding="utf-8")
    return str(path)


def test_cli_report_of_gold_without_mentions(tmp_path, capsys):
    gold = _columns(tmp_path / "gold.txt", GOLD)
    systems = [_columns(tmp_path / f"{name}.txt", tags) for name, tags in SYSTEMS.items()]
    train = _columns(tmp_path / "train.txt", TRAIN[1])
    assert main(["report", gold, *systems, "--train", train, "--output", str(tmp_path),
                 "--bootstrap", "20", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Gold holds no mention" in out and "Traceback" not in out
    _check_page((tmp_path / "report.html").read_text(encoding="utf-8"))


def test_experiment_with_a_dataset_without_mentions(tmp_path):
    """The experiment's pages hold each dataset's sections: the same notes, no crash."""
    gold = _columns(tmp_path / "gold.txt", GOLD)
    train = _columns(tmp_path / "train.txt", TRAIN[1])
    systems = {name: _columns(tmp_path / f"{name}.txt", tags) for name, tags in SYSTEMS.items()}
    experiment = nerlens.run_experiment(
        {"empty": {"gold": gold, "train": train, "systems": systems},
         "full": {"gold": train, "train": train, "systems": systems}}, bootstrap=10)
    page = experiment.to_html(tmp_path / "experiment.html")
    assert "Gold holds no mention: every subset is empty" in page
