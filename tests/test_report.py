"""The report: one pass over all four families, intervals, JSON, HTML, CLI, bad input."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

import nerlens
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_systems, demo_train
from nerlens.report.page_kit import header_html
from nerspan import GOLD, as_train_index, read_columns

from .conftest import built_in_families

FAMILIES = built_in_families()   # the demo runs every one


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    assert main(["report", "--demo", "--output", str(out), "--bootstrap", "200",
                 "--no-progress"]) == 0
    return out


def test_demo_writes_json_and_html(demo_report, capsys):
    data = json.loads((demo_report / "report.json").read_text())
    assert data["systems"] == ["spacy_sm", "memorisation"]
    assert set(data["results"]["spacy_sm"]) == {"entity", *FAMILIES}
    page = (demo_report / "report.html").read_text()
    for anchor in ("summary", "comparisons", *FAMILIES):
        assert f"id='{anchor}'" in page, anchor
    # self-contained: one inline script (the example filter), nothing loaded from outside
    # (the tweets' own URLs appear as text in the error examples)
    assert page.count("<script") == 1 and "<script src" not in page
    assert not re.search(r"(src|href)=['\"]?(https?:|//)", page)
    pair = "memorisation vs spacy_sm"
    assert set(data["comparisons"][pair]) == set(data["estimates"]["spacy_sm"])
    for system in data["systems"]:
        for name, interval in data["intervals"][system].items():
            value = data["estimates"][system][name]
            if value is not None and interval["low"] is not None:
                assert interval["low"] - 1e-12 <= value <= interval["high"] + 1e-12, name


def test_the_demo_is_an_input_of_the_api(demo_report):
    """``build_report(demo=NAME)`` is ``nerlens report --demo NAME``: the same numbers;
    inputs given beside it, or a name of no demo, are refused."""
    api = nerlens.build_report(demo="spacy", bootstrap=200, figures=False)
    data = json.loads((demo_report / "report.json").read_text())
    assert json.loads(api.to_json())["estimates"] == data["estimates"]
    with pytest.raises(ValueError, match=r"^demo='spacy' scores the embedded demo; gold, "
                                         r"train would be ignored"):
        nerlens.build_report("gold.txt", train="train.txt", demo="spacy")
    with pytest.raises(ValueError, match=r"demo 'nope' \(--demo nope\): the demos are spacy, "
                                         r"generative, confidence"):
        nerlens.build_report(demo="nope")


def test_report_numbers_equal_the_modules_called_separately():
    import attribute_buckets
    import faireval
    import hardeval
    import tough_mentions

    gold = read_columns(demo_gold(), {GOLD: -1})
    tokens = [gold.sentence_tokens(i) for i in range(gold.n_sentences)]
    refs = [gold.tags(GOLD, i) for i in range(gold.n_sentences)]
    system = read_columns(demo_systems()["spacy_sm"], {GOLD: -1})
    preds = [system.tags(GOLD, i) for i in range(system.n_sentences)]
    train = as_train_index(str(demo_train()), "IOB2", "lenient")
    report = nerlens.build_report(refs, {"spacy": preds}, train=train, tokens=tokens, bootstrap=0)
    separately = {
        "tough_mentions": tough_mentions.score(refs, preds, tokens=tokens, train=train),
        "hardeval": hardeval.score(refs, preds, tokens=tokens, train=train),
        "faireval": faireval.score(refs, preds, schemas="semeval"),
        "attribute_buckets": attribute_buckets.score(refs, preds, tokens=tokens, train=train),
    }
    for family, result in separately.items():
        assert report.results["spacy"][family] == result.to_dict(), family
    # every bootstrap statistic's point estimate is the number the family reports
    estimates = report.estimates["spacy"]
    assert estimates["entity_f1"] == pytest.approx(report.results["spacy"]["entity"]["f1"])
    for name, value in estimates.items():
        family, _, key = name.partition(".")
        if family in separately:
            assert value == pytest.approx(_lookup(separately[family].to_dict(), key),
                                          nan_ok=True), name


def _lookup(result: dict, dotted: str):
    value = result
    for part in dotted.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    if isinstance(value, dict):  # a bucket entry
        value = value["f1"]
    return float("nan") if value is None else value


def test_python_report_object(tmp_path):
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"]]
    tokens = [["John", "Smith", "in", "Paris"], ["at", "Acme", "."]]
    pred = [["B-PER", "I-PER", "O", "O"], ["O", "B-ORG", "O"]]
    train_tokens = [["John", "Smith", "visited", "Rome"], ["Acme", "hired", "him"]]
    train_tags = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "O"]]
    train = as_train_index((train_tokens, train_tags), "IOB2", "lenient")
    report = nerlens.build_report(gold, {"a": pred, "b": gold}, train=train, tokens=tokens,
                            bootstrap=50, seed=1)
    assert report.estimates["b"]["entity_f1"] == 1.0
    assert report.estimates["a"]["entity_f1"] == pytest.approx(2 * 2 / (2 + 3))
    # every number here rests on a handful of mentions: all flagged as too small
    assert all(i["too_small"] for i in report.intervals["a"].values())
    assert "b vs a" in report.comparisons
    assert report.comparisons["b vs a"]["entity_f1"] >= 0.5
    path = tmp_path / "r.html"
    report.to_html(path)
    assert path.read_text().startswith("<!DOCTYPE html>")
    assert json.loads(report.to_json())["systems"] == ["a", "b"]
    one = nerlens.build_report(gold, {"a": pred}, train=train, tokens=tokens, bootstrap=1)
    assert one.summary().startswith("nerlens report: 1 system, 2 sentences, 7 tokens;")
    assert re.search(r"\(1\s+sample,\s+seed\s+0\)", one.summary())   # 1 in the singular


BAD_CASES = {
    "fewer_sentences": ("pred", "A B-PER\nB O\n\nC O\n", "A B-PER\nB O\n",
                        "2 sentences"),
    "fewer_tokens": ("pred", "A B-PER\nB O\n\nC O\n", "A B-PER\n\nC O\n", "length"),
    "no_tag": ("pred", "A B-PER\nB O\n\nC O\n", "A B-PER\nB\n\nC O\n", ":2"),
    "empty": ("pred", "A B-PER\nB O\n\nC O\n", "", "empty"),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_input_is_one_line_and_exit_2(case, tmp_path, capsys):
    _, gold_text, pred_text, expected = BAD_CASES[case]
    (tmp_path / "gold.txt").write_text(gold_text)
    (tmp_path / "pred.txt").write_text(pred_text)
    code = main(["report", "--train", str(demo_train()), str(tmp_path / "gold.txt"),
                 str(tmp_path / "pred.txt"), "--output", str(tmp_path), "--bootstrap", "0"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert "pred.txt" in err and expected in err, err


def test_training_file_in_another_scheme(tmp_path, capsys):
    (tmp_path / "train.txt").write_text("John B-PER\nSmith E-PER\n\nParis S-LOC\n")
    (tmp_path / "gold.txt").write_text("A B-PER\nB O\n")
    code = main(["report", "--train", str(tmp_path / "train.txt"),
                 str(tmp_path / "gold.txt"), str(tmp_path / "gold.txt"), "--output",
                 str(tmp_path), "--bootstrap", "0"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "train.txt:2" in err and "E-PER" in err and "IOB2" in err, err


def test_dataset_input(tmp_path, capsys):
    datasets = pytest.importorskip("datasets")
    names = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    features = datasets.Features({
        "tokens": datasets.Sequence(datasets.Value("string")),
        "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names))})
    data = datasets.Dataset.from_dict({"tokens": [["John", "in", "Paris"], ["Mary", "ran"]],
                                       "ner_tags": [[1, 0, 3], [1, 0]]}, features=features)
    data.save_to_disk(str(tmp_path / "test_split"))
    train = datasets.Dataset.from_dict({"tokens": [["John", "saw", "Rome"]],
                                        "ner_tags": [[1, 0, 3]]}, features=features)
    train.save_to_disk(str(tmp_path / "train_split"))
    (tmp_path / "pred.txt").write_text("John B-PER\nin O\nParis B-PER\n\nMary B-PER\nran O\n")
    assert main(["report", str(tmp_path / "test_split"), str(tmp_path / "pred.txt"),
                 "--train", str(tmp_path / "train_split"), "--output",
                 str(tmp_path / "out"), "--bootstrap", "0", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["estimates"]["pred"]["entity_f1"] == pytest.approx(2 * 2 / (3 + 3))


def test_bootstrap_interval_covers_a_known_error_rate():
    """A synthetic system that misses each mention with probability 0.2, independently:
    the 95% interval of its recall holds 0.8 in at least 90 of 100 seeds."""
    from nerspan.bootstrap import Statistic, percentile_interval, resample, sample_weights

    hits = 0
    for seed in range(100):
        rng = np.random.default_rng(1000 + seed)
        mentions = rng.integers(1, 4, size=300)          # mentions per sentence
        found = rng.binomial(mentions, 0.8)
        statistic = Statistic("recall", np.stack([found, mentions], 1),
                              lambda t: t[:, 0] / t[:, 1], int(mentions.sum()))
        values = resample([statistic], sample_weights(300, 400, seed))[:, 0]
        ci = percentile_interval(values, statistic.estimate())
        hits += ci.low <= 0.8 <= ci.high
    assert hits >= 90


def test_faireval_confusion_table_keeps_labels_apart_and_escaped():
    # types named FP and FN are labels like any other; the unmatched spans' row and column
    # are named apart from them, and every label is escaped
    from nerlens.report.html import family_sections
    report = nerlens.build_report([["B-FP", "O", "B-FN", "B-a<b"]], {"a": [["B-FN", "O", "O", "O"]]},
                            tokens=[["w", "x", "y", "z"]], bootstrap=0, families=["faireval"],
                            figures=False)
    html = {anchor: body for anchor, _, body in family_sections(report)}["faireval"]
    matrix = html.split("a: confusion of errors</h3>")[1].split("</table>")[0]
    assert re.findall(r"<tr><td>([^<]*)</td>", matrix) == ["FN", "FP", "a&lt;b",
                                                            "no target span (FP)"]
    assert f"<th>{header_html('no system span (FN)')}</th>" in matrix and "a<b" not in matrix


def test_the_reports_intervals_are_those_of_merged_partials_of_any_cut():
    """The report's bootstrap weighs each sentence by a draw keyed by (seed, replicate,
    sentence id) (``nerspan.partials.sentence_weights``): the intervals computed from
    partials of any cut, merged (``per_sentence=True``), are the report's."""
    import faireval
    import hardeval
    from nerspan.bootstrap import percentile_interval, resample
    from nerspan.partials import sentence_weights

    gold = read_columns(demo_gold(), {GOLD: -1})
    tokens = [gold.sentence_tokens(i) for i in range(gold.n_sentences)]
    refs = [gold.tags(GOLD, i) for i in range(gold.n_sentences)]
    system = read_columns(demo_systems()["spacy_sm"], {GOLD: -1})
    preds = [system.tags(GOLD, i) for i in range(system.n_sentences)]
    train = as_train_index(str(demo_train()), "IOB2", "lenient")
    n, samples, seed = len(refs), 150, 7
    report = nerlens.build_report(refs, {"spacy": preds}, train=train, tokens=tokens,
                                  bootstrap=samples, seed=seed, figures=False,
                                  families=["hardeval", "faireval"])
    cuts = [(0, 1), (1, n // 3), (n // 3, n // 3), (n // 3, n)]   # empty and one-sentence
    for family, options in ((hardeval, {"train": train}),
                            (faireval, {"schemas": "semeval"})):
        parts = [family.partial(refs[a:b], preds[a:b], tokens=tokens[a:b], **options,
                                first_sentence=a, per_sentence=True) for a, b in cuts]
        statistics = sum(parts[::-1]).result().statistics()
        values = resample(statistics, sentence_weights(range(n), samples, seed))
        checked = 0
        for column, statistic in enumerate(statistics):
            shown = report.intervals["spacy"].get(statistic.name)
            if shown is None:   # restates an entity score: the report shows that once
                continue
            interval = percentile_interval(values[:, column], statistic.estimate())
            assert (shown["low"], shown["high"]) == (interval.low, interval.high), \
                statistic.name
            checked += 1
        assert checked >= 3
