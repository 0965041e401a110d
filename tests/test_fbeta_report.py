"""``beta`` on the report and the Trainer helper: the entity F-beta (and each family's)
equal to seqeval's ``precision_recall_fscore_support(..., beta=B, average='micro')`` on
random tags; named for a reader on the page and in the terminal; the Trainer's headline
stays a handful."""
from __future__ import annotations

import json
import math
import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerlens
import nerspan
from nerlens.cli import main
from nerlens.report.page_kit import header_html
from nerlens.trainer import make_compute_metrics
from nerspan import as_train_index
from nerspan.fbeta import fbeta_key

seqeval_metrics = pytest.importorskip("seqeval.metrics.sequence_labeling")

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
BETAS = (2.0, 0.5, 0.25, 3.0)
TRAIN_TOKENS = [["John", "Smith", "left", "Rome"], ["Paris", "Hilton", "smiled"]]
TRAIN_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "I-PER", "O"]]


@st.composite
def tagged(draw):
    """Gold and predicted IOB2 tags of the same lengths (invalid transitions included:
    an I- after O), gold holding at least one mention."""
    lengths = draw(st.lists(st.integers(1, 7), min_size=1, max_size=5))
    tag = st.sampled_from(LABELS)
    gold = [[draw(tag) for _ in range(n)] for n in lengths]
    pred = [[draw(tag) for _ in range(n)] for n in lengths]
    gold[0][0] = "B-PER"
    return gold, pred


def seqeval_micro(gold, pred, beta) -> tuple:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return seqeval_metrics.precision_recall_fscore_support(gold, pred, beta=beta,
                                                               average="micro")


def close(a, b) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


def tokens_of(tags) -> list:
    return [[f"w{i}" for i in range(len(sentence))] for sentence in tags]


@settings(max_examples=40, deadline=None)
@given(tagged(), st.sampled_from(BETAS))
def test_report_fbeta_equals_seqeval(pair, beta):
    gold, pred = pair
    report = nerlens.build_report(gold, {"a": pred}, tokens=tokens_of(gold), beta=beta,
                            families=["faireval"], bootstrap=0, figures=False)
    key = fbeta_key(beta)
    _, _, expected, _ = seqeval_micro(gold, pred, beta)
    entity = report.results["a"]["entity"]
    assert close(entity[key], expected)
    # the bootstrap statistic's estimate is the published number, bit for bit
    assert report.estimates["a"][f"entity_{key}"] == entity[key]
    # faireval's exact-match scores are the entity scores: its F-beta too
    assert close(report.results["a"]["faireval"][key], expected)
    assert report.info["beta"] == beta and entity["options"]["beta"] == beta
    # per type, as seqeval's average=None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, _, per_type, _ = seqeval_metrics.precision_recall_fscore_support(
            gold, pred, beta=beta, average=None)
    for value, row in zip(per_type, entity["per_type"].values()):
        assert close(row[key], value)


@settings(max_examples=25, deadline=None)
@given(tagged(), st.sampled_from(BETAS))
def test_trainer_fbeta_equals_seqeval(pair, beta):
    gold, pred = pair
    ids = [[LABELS.index(t) for t in sentence] for sentence in gold]
    predicted = [[LABELS.index(t) for t in sentence] for sentence in pred]
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    compute = make_compute_metrics(LABELS, eval_tokens=tokens_of(gold), train=train,
                                   beta=beta)
    logged = compute.compute(ids, predicted)
    key = fbeta_key(beta)
    _, _, expected, _ = seqeval_micro(gold, pred, beta)
    for name in (f"faireval_{key}", f"faireval_traditional_{key}", f"attribute_buckets_{key}"):
        assert close(logged[name], expected), name
    # the headline (default): at most 40 numbers, a subset of "all" under the same names
    assert len(logged) <= 40
    every = make_compute_metrics(LABELS, eval_tokens=tokens_of(gold), train=train,
                                 beta=beta, detail="all").compute(ids, predicted)
    assert logged == {name: every[name] for name in logged}
    assert f"tough_mentions_{key}" in every and f"tough_mentions_{key}" not in logged


def test_trainer_beta_adds_the_fbeta_of_each_headline_f1_only():
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "B-PER", "I-PER"]]
    pred = [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O", "B-PER", "I-PER"]]
    ids = [[LABELS.index(t) for t in sentence] for sentence in gold]
    predicted = [[LABELS.index(t) for t in sentence] for sentence in pred]
    train = as_train_index((TRAIN_TOKENS, TRAIN_TAGS))
    plain = make_compute_metrics(LABELS, eval_tokens=tokens_of(gold), train=train)
    with_f2 = make_compute_metrics(LABELS, eval_tokens=tokens_of(gold), train=train, beta=2)
    before, after = plain.compute(ids, predicted), with_f2.compute(ids, predicted)
    added = sorted(set(after) - set(before))
    assert added == sorted(["faireval_f2", "faireval_fair_f2", "faireval_traditional_f2",
                            "attribute_buckets_f2"])
    assert {k: after[k] for k in before} == before
    assert set(added) <= set(with_f2.headline_keys)
    assert make_compute_metrics(LABELS, metrics=["faireval"], beta=1).compute(
        ids, predicted) == make_compute_metrics(LABELS, metrics=["faireval"]).compute(
        ids, predicted)


def test_one_beta_for_every_family_and_a_bad_beta_is_refused():
    gold, pred = [["B-PER", "O"]], [["B-PER", "O"]]
    # 0.2: a family's options hold no beta (F-beta is asked of a result): one beta only
    with pytest.raises(nerspan.InputTypeError, match="unknown faireval option 'beta'"):
        nerlens.build_report(gold, {"a": pred}, tokens=tokens_of(gold), beta=2, bootstrap=0,
                       families=["faireval"], options={"faireval": {"beta": 3}},
                       figures=False)
    with pytest.raises(ValueError, match="beta must be a number > 0"):
        nerlens.build_report(gold, {"a": pred}, tokens=tokens_of(gold), beta=0, bootstrap=0,
                       families=["faireval"], figures=False)
    with pytest.raises(ValueError, match="beta must be a number > 0"):
        make_compute_metrics(LABELS, metrics=["faireval"], beta=-1)
    # finite but too large to square (seqeval: OverflowError): the same message everywhere
    with pytest.raises(ValueError, match=r"^beta must be at most 1e\+150 \(F-beta squares"):
        make_compute_metrics(LABELS, metrics=["faireval"], beta=1e200)


GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O", "B-PER", "O"],
        ["O", "B-LOC", "I-LOC", "O"]]
PRED = [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O", "B-PER", "O"], ["O", "B-LOC", "O", "O"]]


def test_the_page_and_the_terminal_name_the_fbeta_column():
    report = nerlens.build_report(GOLD, {"a": PRED, "b": GOLD}, tokens=tokens_of(GOLD), beta=2,
                            families=["faireval"], bootstrap=50, figures=False)
    page = report.to_html()
    head = page[page.index("<table"):page.index("</table>")]
    assert f"<th>{header_html('entity F2')}</th>" in head
    assert "entity F-beta with beta 2" in page
    # no F-beta key as text: the keys are report.json's, the page shows names
    visible = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)[^>]*>.*?</\1>", "", page,
                                             flags=re.S))
    assert not re.search(r"(?<![\w.])(\w+_)?f2(?![\w.])", visible)
    summary = report.summary()
    header = next(line for line in summary.splitlines() if line.startswith("system"))
    assert header.split()[1:5] == ["F1", "[CI]", "F2", "P"]
    assert "F2: entity F-beta, beta 2." in summary.replace("\n", " ")
    # beta 1: no column, no key
    plain = nerlens.build_report(GOLD, {"a": PRED}, tokens=tokens_of(GOLD), families=["faireval"],
                           bootstrap=0, figures=False)
    assert "entity F2" not in plain.to_html() and "beta" not in plain.info
    assert "f2" not in json.dumps(plain.to_dict())


def test_cli_report_beta(tmp_path, capsys):
    gold, pred = tmp_path / "gold.txt", tmp_path / "pred.txt"
    for path, tags in ((gold, GOLD), (pred, PRED)):
        path.write_text("\n\n".join("\n".join(f"w{i} {t}" for i, t in enumerate(sentence))
                                    for sentence in tags) + "\n", encoding="utf-8")
    assert main(["report", str(gold), str(pred), "--families", "faireval", "--beta", "0.5",
                 "--bootstrap", "0", "--output", str(tmp_path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    _, _, expected, _ = seqeval_micro(GOLD, PRED, 0.5)
    system = data["systems"][0]
    assert close(data["results"][system]["entity"]["f0.5"], expected)
    assert data["info"]["beta"] == 0.5
    assert data["info"]["provenance"]["options"]["beta"] == 0.5


def test_the_demo_page_with_beta_shows_names_not_keys(tmp_path, browser):
    # issue 32's reader checks hold with the extra column: no report.json key as text
    # (every collapsed part opened), a headline of one row per system
    from tests.test_report_browser import _check_no_raw_key, _headline_rows

    assert main(["report", "--demo", "--beta", "2", "--output", str(tmp_path),
                 "--bootstrap", "50", "--no-progress"]) == 0
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert "f2" in data["results"]["spacy_sm"]["entity"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((tmp_path / "report.html").as_uri(), wait_until="load")
    headers = page.locator("section#summary table").first.locator("th").all_inner_texts()
    assert headers[:3] == ["system", "entity F1", "entity F2"]
    _headline_rows(page, len(data["systems"]))
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    _check_no_raw_key(page, data)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.close()
