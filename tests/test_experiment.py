"""Whole experiments: several datasets, several runs per system (issue 16 item 4).

Small synthetic experiments built from the demo's WNUT-17 data: two halves of its test
set as two datasets, spaCy's output with a few tags dropped (one run per seed) and the
gold with many tags dropped (a stronger, noisier "oracle"), so that every number over
runs is known from the per-dataset reports.
"""
from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerlens
from nerlens.cli import main
from nerlens.experiment.manifest import (Declaration, declared_datasets, read_dataset,
                                         read_manifest)
from nerlens.demo import demo_gold, demo_systems, demo_train
from nerlens.report.page_kit import header_html
from nerspan import GOLD, read_columns
from nerspan.significance import holm

SENTENCES = 200


def _tags(path):
    corpus = read_columns(path, {GOLD: -1})
    return ([corpus.sentence_tokens(i) for i in range(corpus.n_sentences)],
            [corpus.tags(GOLD, i) for i in range(corpus.n_sentences)])


def _dropped(tags, share, seed):
    rng = random.Random(seed)
    return [[t if rng.random() > share else "O" for t in s] for s in tags]


@pytest.fixture(scope="module")
def parts():
    """Two datasets: (tokens, gold, spacy) of two slices of the demo test set."""
    tokens, gold = _tags(demo_gold())
    _, spacy = _tags(demo_systems()["spacy_sm"])
    cut = {"a": slice(0, SENTENCES), "b": slice(SENTENCES, 2 * SENTENCES)}
    return {name: (tokens[s], gold[s], spacy[s]) for name, s in cut.items()}


def _datasets(parts, runs=3, systems=("spacy", "oracle")):
    out = {}
    for name, (tokens, gold, spacy) in parts.items():
        made = {"spacy": [_dropped(spacy, 0.05, k) for k in range(runs)],
                "oracle": [_dropped(gold, 0.3, k) for k in range(runs)],
                "weak": [_dropped(gold, 0.7, k) for k in range(runs)]}
        out[name] = {"gold": gold, "tokens": tokens, "train": str(demo_train()),
                     "systems": {s: made[s] for s in systems}}
    return out


@pytest.fixture(scope="module")
def small(parts):
    return nerlens.run_experiment(_datasets(parts), bootstrap=0)


def test_runs_are_report_columns_and_their_mean_and_std(small):
    assert small.systems == ["spacy", "oracle"] and small.datasets == ["a", "b"]
    assert small.runs["a"]["spacy"] == ["spacy#1", "spacy#2", "spacy#3"]
    for name, report in small.reports.items():
        assert report.systems == ["spacy#1", "spacy#2", "spacy#3", "oracle#1", "oracle#2",
                                  "oracle#3"]
        for system in ("spacy", "oracle"):
            values = [report.estimates[c]["entity_f1"] for c in small.runs[name][system]]
            cell = small.aggregate[name][system]["entity_f1"]
            assert cell["n"] == 3
            assert cell["mean"] == pytest.approx(np.mean(values))
            assert cell["std"] == pytest.approx(np.std(values, ddof=1))
            recalls = [report.results[c]["tough_mentions"]["recall_unseen_any"]
                       for c in small.runs[name][system]]
            assert small.tough_mentions[name][system]["unseen_any"]["mean"] == \
                pytest.approx(np.mean(recalls))


def test_wilcoxon_pairs_runs_over_datasets_with_holm(parts):
    exp = nerlens.run_experiment(_datasets(parts, systems=("spacy", "oracle", "weak")),
                             bootstrap=0, figures=False)
    assert list(exp.wilcoxon) == ["spacy vs oracle", "spacy vs weak", "oracle vs weak"]
    test = exp.wilcoxon["spacy vs oracle"]["entity_f1"]
    # 3 runs x 2 datasets, every pair on the same side: the exact two-sided p of n = 6
    assert test["n_pairs"] == 6 and test["pvalue"] == pytest.approx(2 / 64)
    assert test["difference"] < 0
    raw = {pair: tests["entity_f1"]["pvalue"] for pair, tests in exp.wilcoxon.items()}
    adjusted = holm(raw)
    for pair, tests in exp.wilcoxon.items():
        assert tests["entity_f1"]["pvalue_holm"] == pytest.approx(adjusted[pair])
        assert tests["entity_f1"]["significant"] == (adjusted[pair] < 0.05)
    page = exp.to_html()
    assert "Holm" in page and "Multiple comparisons" in page


def test_attribute_views_carry_friedman_marks(small):
    from attribute_buckets import analysis

    assert set(small.attribute_wise) == {"a", "b"}
    view = small.attribute_wise["a"]["eLen"]
    blocks = [small.reports["a"].results[c]["attribute_buckets"]
              for cs in small.runs["a"].values() for c in cs]
    assert view["friedman"]["pvalue"] == pytest.approx(
        analysis.friedman_buckets(blocks, "eLen")["pvalue"])
    assert view["friedman"]["n_runs"] == 6
    raw = {(d, a): v["friedman"]["pvalue"] for d, by in small.attribute_wise.items()
           for a, v in by.items()}
    adjusted = holm(raw)
    for (d, a), p in adjusted.items():
        assert small.attribute_wise[d][a]["friedman"]["pvalue_holm"] == pytest.approx(p)
    mw = small.model_wise["oracle"]["eLen"]
    assert mw["n_datasets"] == 2 and mw["friedman"]["n_runs"] == 6
    assert mw["spearman"] == pytest.approx(np.mean(
        [mw["per_dataset"][d]["spearman"] for d in ("a", "b")]))
    page = small.to_html()
    significant = [v["rho"] for by in small.attribute_wise.values() for v in by.values()
                   if not v["friedman"]["significant"] and v["rho"] is not None]
    assert significant and "&dagger;" in page


def test_outputs(small):
    data = json.loads(small.to_json())
    assert set(data["datasets"]) == {"a", "b"}
    assert data["datasets"]["a"]["systems"][0] == "spacy#1"
    assert data["info"]["n_runs"] == {"a": {"spacy": 3, "oracle": 3},
                                      "b": {"spacy": 3, "oracle": 3}}
    page = small.to_html()
    for anchor in ("findings", "holistic", "tmr", "attribute_wise", "model_wise",
                   "significance", "d1", "d2", "d1-summary", "d2-faireval", "provenance"):
        assert f"id='{anchor}'" in page, anchor
    assert "<script" not in page   # the examples' filter stays out: one per page
    text = small.summary()
    assert max(map(len, text.splitlines())) <= 100
    assert "spacy" in text and "(3)" in text


def test_single_runs_and_single_predictions(parts):
    datasets = _datasets(parts, runs=1)
    for entry in datasets.values():
        entry["systems"] = {s: runs[0] for s, runs in entry["systems"].items()}
    exp = nerlens.run_experiment(datasets, bootstrap=0, figures=False,
                             families=("faireval",))
    assert exp.runs["a"] == {"spacy": ["spacy"], "oracle": ["oracle"]}
    assert exp.aggregate["a"]["spacy"]["entity_f1"]["std"] is None
    assert exp.wilcoxon["spacy vs oracle"]["entity_f1"]["n_pairs"] == 2
    assert "error" in exp.wilcoxon["spacy vs oracle"]["entity_f1"] or \
        exp.wilcoxon["spacy vs oracle"]["entity_f1"]["pvalue"] is not None
    assert exp.attribute_wise == {} and "did not run" in exp.to_html()


@pytest.mark.parametrize("change, message", [
    (lambda d: d["a"].pop("systems"), "dataset 'a': \"systems\""),
    (lambda d: d["a"].update(golds="x"), "dataset 'a': unknown key(s) golds"),
    (lambda d: d["b"]["systems"].update({"x#1": "f.txt"}), "system 'x#1'"),
    (lambda d: d["b"]["systems"].update(spacy=[]), "dataset 'b': system 'spacy' has no"),
    (lambda d: d["b"]["systems"].pop("spacy"), "dataset 'b' has no system 'spacy'"),
    (lambda d: d["a"].update(train=None), "dataset 'a': tough_mentions"),
])
def test_bad_declarations_name_the_entry(parts, change, message):
    datasets = _datasets(parts, runs=1)
    change(datasets)
    with pytest.raises((ValueError, TypeError)) as error:
        nerlens.run_experiment(datasets, bootstrap=0, figures=False)
    assert message in str(error.value)


# -- command line ---------------------------------------------------------------------------
def _write(path, tokens, tags):
    path.write_text("\n\n".join("\n".join(f"{t} {g}" for t, g in zip(ts, gs))
                                for ts, gs in zip(tokens, tags)) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(parts, tmp_path_factory):
    folder = tmp_path_factory.mktemp("experiment")
    for name, (tokens, gold, spacy) in parts.items():
        _write(folder / f"{name}_gold.txt", tokens, gold)
        for k in range(3):
            _write(folder / f"{name}_spacy_{k}.txt", tokens, _dropped(spacy, 0.05, k))
            _write(folder / f"{name}_oracle_{k}.txt", tokens, _dropped(gold, 0.3, k))
    (folder / "train.txt").write_text(demo_train().read_text(encoding="utf-8"),
                                      encoding="utf-8")
    return folder


def test_cli_declaration(files, tmp_path, capsys):
    f = files
    argv = ["report", "--no-progress", "--bootstrap", "0", "--output", str(tmp_path),
            "--format", "json", "--train", str(f / "train.txt"),
            "--data", "a", str(f / "a_gold.txt"),
            "--pred", f"spacy={f}/a_spacy_*.txt", f"oracle={f / 'a_oracle_0.txt'}",
            f"oracle={f / 'a_oracle_1.txt'}",
            "--data", "b", str(f / "b_gold.txt"), str(f / "train.txt"),
            "--pred", f"spacy={f / 'b_spacy_0.txt'}", f"a:oracle={f / 'a_oracle_2.txt'}",
            f"oracle={f / 'b_oracle_0.txt'}"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["info"]["n_runs"] == {"a": {"spacy": 3, "oracle": 3},
                                      "b": {"spacy": 1, "oracle": 1}}
    inputs = data["datasets"]["a"]["info"]["provenance"]["inputs"]
    assert inputs["systems"]["oracle#3"].endswith("a_oracle_2.txt")
    assert inputs["systems"]["spacy#1"].endswith("a_spacy_0.txt")
    assert (tmp_path / "experiment.html").exists() and (tmp_path / "experiment.json").exists()
    # the API takes the command line's declaration (its flags in order): the same numbers
    declared = [(kind, values) for kind, *values in (
        ("data", "a", str(f / "a_gold.txt")),
        ("pred", f"spacy={f}/a_spacy_*.txt", f"oracle={f / 'a_oracle_0.txt'}",
         f"oracle={f / 'a_oracle_1.txt'}"),
        ("data", "b", str(f / "b_gold.txt"), str(f / "train.txt")),
        ("pred", f"spacy={f / 'b_spacy_0.txt'}", f"a:oracle={f / 'a_oracle_2.txt'}",
         f"oracle={f / 'b_oracle_0.txt'}"))]
    api = nerlens.run_experiment(Declaration(declared, train=str(f / "train.txt")),
                                 bootstrap=0, figures=False)
    assert json.loads(api.to_json())["aggregate"] == data["aggregate"]
    assert not Declaration([("gold_alt", [("v", "v.txt")])])   # a version of one dataset
    # the runs scored as the one-dataset report scores them
    assert main(["report", "--no-progress", "--bootstrap", "0", "--output", str(tmp_path),
                 "--format", "json", str(f / "a_gold.txt"), "--train",
                 str(f / "train.txt"), str(f / "a_oracle_1.txt")]) == 0
    one = json.loads(capsys.readouterr().out)
    assert data["datasets"]["a"]["estimates"]["oracle#2"] == one["estimates"]["a_oracle_1"]


def test_cli_manifest_with_runs(files, tmp_path, capsys):
    manifest = files / "experiment.json"
    manifest.write_text(json.dumps({
        "a": {"train": "train.txt", "gold": "a_gold.txt",
              "predictions": {"spacy": [f"a_spacy_{k}.txt" for k in range(3)],
                              "oracle": "a_oracle_0.txt"}},
        "b": {"train": "train.txt", "gold": "b_gold.txt",
              "predictions": {"spacy": ["b_spacy_0.txt", "b_spacy_1.txt"],
                              "oracle": ["b_oracle_0.txt"]}}}))
    assert main(["report", "--manifest", str(manifest), "--no-progress", "--bootstrap", "0",
                 "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "nerlens experiment: 2 datasets, 2 systems, 7 runs" in out
    data = json.loads((tmp_path / "experiment.json").read_text())
    assert data["runs"]["a"] == {"spacy": ["spacy#1", "spacy#2", "spacy#3"],
                                 "oracle": ["oracle"]}
    assert data["runs"]["b"]["spacy"] == ["spacy#1", "spacy#2"]
    # the API reads the manifest as the command line does: the same numbers
    api = json.loads(nerlens.run_experiment(manifest, bootstrap=0, figures=False).to_json())
    assert api["runs"] == data["runs"] and api["aggregate"] == data["aggregate"]
    assert api["datasets"]["a"]["info"]["provenance"]["inputs"] == \
        data["datasets"]["a"]["info"]["provenance"]["inputs"]


def test_manifest_old_forms_still_read(files):
    manifest = files / "old.json"
    manifest.write_text(json.dumps({
        "one": {"train": "train.txt", "gold": "a_gold.txt", "predictions": "a_spacy_0.txt"},
        "two": {"gold": "b_gold.txt", "predictions": {"x": "b_spacy_0.txt"}}}))
    one, two = [read_dataset(name, entry) for name, entry in read_manifest(manifest).items()]
    assert one.systems == ["a_spacy_0"] and one.runs == {"a_spacy_0": ["a_spacy_0"]}
    assert two.systems == ["x"] and two.runs == {"x": ["x"]} and two.train is None


@pytest.mark.parametrize("argv, message", [
    (["--pred", "x=a_gold.txt"], "--pred x=a_gold.txt: no dataset yet"),
    (["--data", "a", "a_gold.txt", "train.txt", "--pred", "spacy"],
     "--pred spacy: write SYSTEM=FILE or NAME:SYSTEM=FILE"),
    (["--data", "a", "a_gold.txt", "train.txt", "--pred", "c:spacy=a_spacy_0.txt"],
     "--pred c:spacy=a_spacy_0.txt: no dataset 'c' (declared: a)"),
    (["--data", "a", "a_gold.txt"], "--data a a_gold.txt: no training file"),
    (["--data", "a", "a_gold.txt", "train.txt", "x", "--pred", "s=a_spacy_0.txt"],
     "--data a a_gold.txt train.txt x: give NAME GOLD [TRAIN]"),
    (["--data", "a", "a_gold.txt", "train.txt"], "--data a: no predictions"),
    (["--data", "a", "a_gold.txt", "train.txt", "--pred", "s=nothing_*.txt"],
     "no file matches"),
    (["--data", "a", "a_gold.txt", "train.txt", "--data", "a", "b_gold.txt", "train.txt"],
     "dataset 'a' is declared twice"),
    (["--data", "a", "a_gold.txt", "train.txt", "--pred", "s#2=a_spacy_0.txt"], "'#'"),
    (["--data", "a", "a_gold.txt", "train.txt", "--pred", "s=missing.txt"],
     "missing.txt: no such file"),
    (["a_gold.txt", "--data", "a", "a_gold.txt", "train.txt", "--pred", "s=a_spacy_0.txt"],
     "leave out GOLD/PRED"),
])
def test_cli_bad_declarations(files, tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(files)
    assert main(["report", "--no-progress", "--bootstrap", "0", "--output", str(tmp_path),
                 *argv]) == 2
    assert message in capsys.readouterr().err


def test_declared_datasets_keeps_order():
    declared = [("data", ["x", "g1", "t1"]), ("pred", ["s=1.txt", "s=2.txt", "r=3.txt"]),
                ("data", ["y", "g2"]), ("pred", ["s=4.txt", "x:r=5.txt"])]
    out = declared_datasets(declared, "t0")
    assert out == {"x": {"gold": "g1", "train": "t1",
                         "systems": {"s": ["1.txt", "2.txt"], "r": ["3.txt", "5.txt"]},
                         "generated": {}, "scored": {}, "gold_alt": {}},
                   "y": {"gold": "g2", "train": "t0", "systems": {"s": ["4.txt"]},
                         "generated": {}, "scored": {}, "gold_alt": {}}}
    # --gold-alt: a version of the last --data before it, or of dataset NAME
    out = declared_datasets(declared[:2] + [("gold_alt", [("v", "a.txt")])] + declared[2:]
                            + [("gold_alt", [("w", "b.txt"), ("x:u", "c.txt")])], "t0")
    assert out["x"]["gold_alt"] == {"v": "a.txt", "u": "c.txt"}
    assert out["y"]["gold_alt"] == {"w": "b.txt"}
    # --pred-generated: runs of generated output, in the same order
    out = declared_datasets(declared + [("pred_generated", ["x:g=6.jsonl", "g=7.jsonl"])], "t0")
    assert out["x"]["generated"] == {"g": ["6.jsonl"]} and out["y"]["generated"] == {
        "g": ["7.jsonl"]}
    # --pred-scored: runs of scored spans, the same way
    out = declared_datasets(declared + [("pred_scored", ["c=8.jsonl", "x:c=9.jsonl"])], "t0")
    assert out["x"]["scored"] == {"c": ["9.jsonl"]} and out["y"]["scored"] == {
        "c": ["8.jsonl"]}
    with pytest.raises(ValueError, match="give NAME GOLD"):
        declared_datasets([("data", ["x"])], None)


def test_report_with_datasets_is_the_experiment(parts, small):
    """0.1's ``nerlens.report(datasets=...)`` is ``nerlens.run_experiment(datasets)`` in 0.2:
    ``build_report(datasets=...)`` is an error naming it (with or without gold)."""
    same = nerlens.run_experiment(_datasets(parts), bootstrap=0)
    assert isinstance(same, type(small))
    assert same.aggregate == small.aggregate and same.wilcoxon == small.wilcoxon
    for gold in ((), ([["O"]],)):
        with pytest.raises(TypeError, match=r"build_report\(\) takes no datasets since nerlens "
                                            r"0.2: nerlens.run_experiment\(datasets, ...\)"):
            nerlens.build_report(*gold, datasets=_datasets(parts), bootstrap=0)


# -- systems over runs, not runs (issue 32 item 3) ------------------------------------------
def test_dataset_tables_are_per_system_over_runs(small):
    """Each dataset's tables fold a system's runs: every number the mean over its runs,
    with their sample standard deviation; each run's tables stay one click away."""
    from nerlens.experiment.systems import Mean, system_results

    report, runs = small.reports["a"], small.runs["a"]
    folded = system_results(report, runs)
    for system, columns in runs.items():
        buckets = [report.results[c]["attribute_buckets"]["buckets"]["eLen"] for c in columns]
        for i, cell in enumerate(folded[system]["attribute_buckets"]["buckets"]["eLen"]):
            values = [b[i]["f1"] for b in buckets]
            if any(v is None for v in values):
                continue
            assert isinstance(cell["f1"], Mean) and cell["f1"].n == 3
            assert cell["f1"] == pytest.approx(np.mean(values))
            assert cell["f1"].std == pytest.approx(np.std(values, ddof=1))
            assert cell["gold"] == buckets[0][i]["gold"]   # a count every run shares
    page = small.to_html()
    part = page[page.index("id='d1-attribute_buckets'"):page.index("id='d1-runs'")]
    shown, each = part.split("<summary>Per run</summary>")
    assert f"<th>{header_html('spacy')}</th>" in shown
    assert "spacy#1" not in shown and "&plusmn;" in shown
    assert f"<th>{header_html('spacy#1')}</th>" in each
    summary = page[page.index("id='d1-summary'"):page.index("id='d1-overview'")]
    assert "Every statistic of each run" in summary and "spacy#3" in summary


def test_findings_compare_systems_and_name_no_run(small):
    texts = [f["text"] for f in small.findings]
    assert texts and not [t for t in texts if "#" in t]
    spreads = {f["system"]: f for f in small.findings if f["rule"] == "run_spread"}
    assert set(spreads) == {"spacy", "oracle"}
    for system, found in spreads.items():
        ranges = {}
        for name, report in small.reports.items():
            values = [report.estimates[c]["entity_f1"] for c in small.runs[name][system]]
            ranges[name] = max(values) - min(values)
        widest = max(ranges, key=ranges.get)
        assert found["evidence"]["dataset"] == widest
        assert found["evidence"]["range"] == pytest.approx(ranges[widest])
        assert f"{100 * ranges[widest]:.1f} entity-F1 points on {widest}" in found["text"]
    assert any(f["rule"] == "wilcoxon" for f in small.findings)


def test_every_system_has_its_figures(parts):
    """Five systems, more than the report draws per-system figures for: on the experiment
    page each has its own (drawn from its runs folded), none is left out."""
    datasets = {}
    for name, (tokens, gold, spacy) in parts.items():
        systems = {f"s{k}": [_dropped(gold, 0.2 + 0.1 * k, seed) for seed in range(2)]
                   for k in range(5)}
        datasets[name] = {"gold": gold, "tokens": tokens, "train": str(demo_train()),
                          "systems": systems}
    exp = nerlens.run_experiment(datasets, bootstrap=0, families=("faireval", "attribute_buckets"))
    from attribute_buckets.report import self_diagnosis_title
    from faireval.report import confusion_title

    for name in exp.datasets:
        titles = set(exp.system_figures[name])
        for system in exp.systems:
            assert self_diagnosis_title(system) in titles and confusion_title(system) in titles
        assert not [t for t in titles if "#" in t]
    page = exp.to_html()
    assert "systems only" not in page


def _label_pixels(figure, page_width: int = 1118, dpi: int = 90) -> list:
    """(pixels, text) of every label of ``figure`` as a page shows it: saved at ``dpi``,
    scaled down to ``page_width`` when wider (at 1280 px: the page's 1,200 px less a
    figure's margins, 40 px each side, and the picture's border)."""
    from matplotlib.text import Text

    natural = figure.get_figwidth() * dpi
    scale = min(1.0, page_width / natural)
    return [(t.get_fontsize() * dpi / 72 * scale, t.get_text())
            for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()]


def test_experiment_figures_read_at_1280_px(small):
    """The figures across datasets: labels of at least 10 px at 1280 px, the relative
    change in percent with its unit on the colour bar."""
    from attribute_buckets.family import FAMILY
    from attribute_buckets.report import dataset_heatmap_title

    from nerlens.experiment.over_runs import experiment_view

    figures = FAMILY.experiment.figures(experiment_view(small, FAMILY))
    assert len(figures) == 2
    for title, figure in figures.items():
        small_labels = [(round(px, 1), text) for px, text in _label_pixels(figure) if px < 10]
        assert not small_labels, (title, small_labels)
    heat = figures[dataset_heatmap_title("spacy")]
    bar = heat.axes[-1]
    assert "(%)" in bar.get_ylabel()
    heat.canvas.draw()   # tick labels are formatted when drawn
    ticks = [t.get_text() for t in bar.get_yticklabels() if t.get_text()]
    assert ticks and all(t.endswith("%") for t in ticks), ticks


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(0, 1)), min_size=1, max_size=6))
def test_folded_fraction_is_mean_and_sample_std_of_the_defined_runs(values):
    from nerlens.experiment.systems import Mean, folded

    defined = [v for v in values if v is not None]
    cell = folded(values)
    if not defined:
        assert cell is None
        return
    assert isinstance(cell, Mean) and cell.n == len(defined)
    assert float(cell) == pytest.approx(np.mean(defined), abs=1e-12)
    if len(defined) == 1:
        assert cell.std is None
    else:
        assert cell.std == pytest.approx(np.std(defined, ddof=1), abs=1e-9)


JSON_LIKE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(0, 50), st.floats(0, 1), st.text(max_size=3)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=12)


@settings(max_examples=60, deadline=None)
@given(JSON_LIKE, st.integers(1, 4))
def test_runs_that_agree_fold_to_their_result(result, runs):
    """A system whose runs all give the same result has that result (its floats as means
    with std 0, or None for one run)."""
    from nerlens.experiment.systems import Mean, MeanCount, folded

    out = folded([result] * runs)
    assert out == result
    assert not isinstance(out, MeanCount)   # equal counts stay counts
    if isinstance(result, float):
        assert isinstance(out, Mean) and out.std == (None if runs == 1 else 0.0)
