"""Views that misled (issue 37): token-F1 bar charts whose axis started at 60; heat maps
that coloured 2-mention buckets at full strength with no small-sample mark (the tables
mark *); a relative-change map whose +-2000% scale one near-zero baseline bucket set,
with the token attributes the overview leaves out; ``nerlens buckets`` printing token F1
in the entity-F1 tables without a note; a terminal headline without the small-sample *.
Each is checked where a user meets it: the chart functions, the report and experiment,
the command line."""
from __future__ import annotations

import copy
import json
import re

import numpy as np
import pytest

import attribute_buckets as ab
import nerlens
from attribute_buckets import plots
from attribute_buckets.analysis import attribute_name, relative_change_datasets
from attribute_buckets.report import dataset_figures, dataset_heatmap_title
from nerlens.cli import main
from nerlens.report.text import headline_table
from nerspan.bootstrap import MIN_SUPPORT

from .test_attribute_buckets_plots import GOLD, SYSTEMS, TOKENS, TRAIN_TAGS, TRAIN_TOKENS
from .test_report_no_mention import _columns


@pytest.fixture(scope="module")
def results():
    return {name: ab.score(GOLD, pred, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS)).to_dict()
            for name, pred in SYSTEMS.items()}


def _many(results, gold: int) -> dict:
    """``results`` with every bucket counted ``gold`` gold units (as a large test set)."""
    out = copy.deepcopy(results)
    for result in out.values():
        for rows in result["buckets"].values():
            for row in rows:
                row["gold"] = gold
    return out


def test_bar_charts_start_at_zero(results):
    """Token F1 near 95% used to be drawn from 60: a 67% bucket looked a tenth of 99%."""
    high = copy.deepcopy(results)
    for result in high.values():
        for row in result["buckets"]["tCon"]:
            row["f1"] = 0.9 + 0.02 * (row["f1"] or 0)
    for attribute in ("tCon", "eLen"):
        axes = plots.bucket_chart(high, attribute).axes[0]
        assert axes.get_ylim()[0] == 0, attribute


def _marks(axes) -> list:
    return [t.get_text() for t in axes.texts]


def test_heat_map_fades_and_marks_small_buckets(results):
    small = plots.heatmap(results, difference=True, attributes=["eLen", "tag"])
    image = small.axes[0].images[0]
    defined = np.isfinite(image.get_array().filled(np.nan))
    # every bucket here holds fewer than MIN_SUPPORT gold mentions: faded and marked
    assert np.all(np.asarray(image.get_alpha())[defined] < 1)
    assert _marks(small.axes[0]).count("*") == int(defined.sum())
    assert "fewer than 30 gold units" in small.texts[0].get_text()   # the key under the map
    large = plots.heatmap(_many(results, MIN_SUPPORT), difference=True,
                          attributes=["eLen", "tag"])
    assert np.all(np.asarray(large.axes[0].images[0].get_alpha()) == 1)
    assert "*" not in _marks(large.axes[0]) and not large.texts


def _datasets(results, weak: float) -> dict:
    """Two datasets of a baseline and another system; on the first the baseline's eLen
    XS bucket has F1 ``weak`` (near zero: a huge relative change)."""
    datasets = {name: _many(results, 100) for name in ("d1", "d2")}
    datasets["d1"]["good"]["buckets"]["eLen"][0]["f1"] = weak
    return datasets


def test_relative_change_scale_is_robust_and_says_what_it_clips(results):
    datasets = _datasets(results, 0.005)
    figure = plots.dataset_heatmap(datasets, "good")
    axes = figure.axes[0]
    image = axes.images[0]
    low, high = image.get_clim()
    values = 100 * relative_change_datasets(datasets, "good")[2]
    largest = np.nanmax(np.abs(values))
    assert largest > 5000 and high == -low and high < largest / 10
    # the clipped cell shows its value, the key says what the numbers are
    shown = [t for t in _marks(axes) if re.fullmatch(r"[+-]\d+", t)]
    assert shown == [f"{np.nanmax(values):+.0f}"]
    assert "beyond the scale's" in figure.texts[0].get_text()
    # the token attributes are left out, as in the overview
    columns = [t.get_text() for t in axes.get_xticklabels()]
    assert columns and not any(c.startswith(("tCon", "tFre")) for c in columns)
    assert dataset_heatmap_title("good") in dataset_figures(datasets, "good")
    # without an outlier the scale is the largest value, nothing clipped
    plain = plots.dataset_heatmap(_datasets(results, 0.5), "good")
    assert not [t for t in _marks(plain.axes[0]) if re.fullmatch(r"[+-]\d+", t)]
    assert not plain.texts


def test_colour_limit():
    assert plots.colour_limit([]) == (1.0, 0)
    assert plots.colour_limit([np.nan, 5.0, -3.0]) == (5.0, 0)
    values = [10.0] * 20 + [1500.0, -2000.0]
    limit, clipped = plots.colour_limit(values)
    assert limit == 20 and clipped == 2


def test_report_and_experiment_pages_state_the_marks(tmp_path):
    from nerlens.demo import demo_gold, demo_systems, demo_train

    report = nerlens.build_report(str(demo_gold()), {k: str(v) for k, v in demo_systems().items()},
                            train=str(demo_train()), bootstrap=0)
    page = report.to_html(tmp_path / "report.html")
    overview = re.search(r"<section id='overview'>(.*?)</section>", page, re.S).group(1)
    assert "faded cell marked *" in overview
    # the bucket tables mark the buckets of fewer than 30 gold mentions, as the map does
    buckets = re.search(r"<section id='attribute_buckets'>(.*?)</section>", page, re.S)[1]
    first = report.results[report.systems[0]]["attribute_buckets"]["buckets"]["eCon"]
    small = [row for row in first if row["gold"] < MIN_SUPPORT and row["f1"] is not None]
    assert small and "fewer than min_support items'>*</span>" in buckets
    assert "* = a bucket of fewer than 30 gold units." in buckets


def test_experiment_heat_map_note(tmp_path):
    files = {}
    for name in ("a", "b"):
        gold = _columns(tmp_path / f"{name}_gold.txt", [["B-PER", "O", "B-LOC"], ["O", "O"]])
        guess = _columns(tmp_path / f"{name}_guess.txt", [["B-PER", "O", "O"], ["O", "O"]])
        files[name] = {"gold": gold, "train": gold, "systems": {"oracle": gold, "guess": guess}}
    page = nerlens.run_experiment(files, bootstrap=0).to_html(tmp_path / "experiment.html")
    heatmap = re.search(r"<section id='heatmap'>(.*?)</section>", page, re.S).group(1)
    assert "token attributes are left out" in heatmap and "faded cell marked *" in heatmap


def test_cli_buckets_names_token_f1_and_marks_small_buckets(tmp_path, capsys):
    gold = _columns(tmp_path / "gold.txt", [["B-PER", "O", "B-LOC"], ["O", "O"]])
    guess = _columns(tmp_path / "guess.txt", [["B-PER", "O", "O"], ["O", "O"]])
    assert main(["buckets", gold, guess, "--train", gold]) == 0
    out = capsys.readouterr().out
    # the text is the report's section: token attributes say token F1, as on the page
    lines = out.splitlines()
    for attribute in ("tCon", "tFre"):
        heading = lines.index(attribute_name(attribute))
        assert any(line.startswith("Token F1 per bucket") for line in lines[heading:heading + 6])
    assert "gold tokens" in out
    note = next(line for line in out.splitlines() if line.startswith("Scored over tokens"))
    assert "O included (every token is a unit)" in note and len(note) <= 100
    assert "* = a bucket of fewer than 30 gold units" in out
    assert re.search(r"\d\.\d\d\*", out)                # a small bucket's F1, marked


def test_cli_buckets_says_each_heading_once(tmp_path, capsys):
    """A heading and the collapsed table under it: the table's summary does not say the
    heading again (it printed "entity length (eLen)" then "entity length (eLen): F1 per
    bucket ...", and "best and worst bucket" twice)."""
    gold = _columns(tmp_path / "gold.txt", [["B-PER", "O", "B-LOC"], ["O", "O"]])
    guess = _columns(tmp_path / "guess.txt", [["B-PER", "O", "O"], ["O", "O"]])
    assert main(["buckets", gold, guess, gold, "--train", gold]) == 0
    lines = capsys.readouterr().out.splitlines()
    # each heading, and what the lines under it (before its table) must not say again
    said_once = {attribute_name(a): attribute_name(a) for a in ab.ATTRIBUTES}
    said_once["Self-diagnosis: best and worst bucket"] = "best and worst bucket"
    for heading, words in said_once.items():
        at = lines.index(heading)
        assert not any(words.lower() in line.lower() for line in lines[at + 1:at + 4]), heading


def test_terminal_headline_marks_small_samples(tmp_path, capsys):
    gold = _columns(tmp_path / "gold.txt", [["B-PER", "O", "B-LOC"], ["O", "O"]])
    guess = _columns(tmp_path / "guess.txt", [["B-PER", "O", "O"], ["O", "O"]])
    assert main(["report", gold, guess, "--train", gold, "--output", str(tmp_path),
                 "--bootstrap", "20", "--no-progress"]) == 0
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "report.json").read_text())
    # every headline number of the few mentions carries *, as on the page
    row = next(line for line in out.splitlines() if line.startswith("guess"))
    cells = re.split(r"\s{2,}", row.strip())[1:]
    defined = [c for c in cells if c != "-"]
    assert defined and all(c.endswith("*") for c in defined), row
    assert all(i["too_small"] for i in data["intervals"]["guess"].values())


def test_headline_mark_follows_each_interval():
    class Report:   # the fields headline_table reads
        systems = ["a"]
        info = {"bootstrap": 10, "baseline": "a"}
        higher_is_better = {"entity_f1": True, "entity_precision": True,
                            "entity_recall": True}
        estimates = {"a": {"entity_f1": 0.5, "entity_precision": 0.5, "entity_recall": 0.5}}
        intervals = {"a": {"entity_f1": {"low": 0.4, "high": 0.6, "too_small": False},
                           "entity_precision": {"low": 0.4, "high": 0.6, "too_small": True},
                           "entity_recall": {"low": 0.4, "high": 0.6, "too_small": False}}}
        comparisons: dict = {}
    row = headline_table(Report()).splitlines()[-1].split()
    assert row == ["a", "50.0", "[40.0,", "60.0]", "50.0*", "50.0"]
