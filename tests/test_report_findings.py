"""The readable report: findings and their rules, names, the compact terminal view,
provenance, repairs, the overview heat map and the demo's explanations."""
from __future__ import annotations

import contextlib
import html
import io
import json
import re

import pytest

import nerlens
from nerlens.report import findings as report_findings
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_systems, demo_train
from nerlens.report import Report
from attribute_buckets.report import OVERVIEW_TITLE, largest_gap
from nerlens.families import get_family, in_report_order
from nerlens.report.names import statistic_label
from nerlens.report.overview import TIE, comparison_cell, headline_columns
from nerlens.report.views import report_view
from tough_mentions.report import seen_unseen_gap
from nerlens.report.text import WIDTH
from nerspan import GOLD, read_columns


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """The demo report's folder and what it printed."""
    out = tmp_path_factory.mktemp("readable")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["report", "--demo", "--output", str(out), "--bootstrap", "200",
                     "--no-progress"]) == 0
    return out, printed.getvalue()


@pytest.fixture(scope="module")
def demo(demo_run):
    return demo_run[0]


def test_demo_terminal_view_findings_first_and_narrow(demo_run):
    text = demo_run[1]
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    assert "nan" not in text
    # the demo says what it shows before anything else
    assert "no seen mentions" in text and "memorisation is a baseline" in text
    assert text.index("Findings:") < text.index("F1 [CI]")
    assert "Percent." in text and "- = undefined" in text
    assert "spacy_sm beats memorisation on entity F1 in 100.0% of paired resamples" in text
    assert "Repairs made while decoding:" in text and "invalid transitions 104" in text


def test_demo_json_findings_repairs_provenance(demo):
    data = json.loads((demo / "report.json").read_text())
    rules = [f["rule"] for f in data["findings"]]
    assert set(rules) <= set(report_findings.all_rules())
    assert "no_seen_mentions" in rules and "paired" in rules
    assert "seen_unseen_gap" not in rules        # no seen mention in WNUT-17's test set
    paired = next(f for f in data["findings"] if f["rule"] == "paired")
    evidence = paired["evidence"]
    assert (evidence["winner"], evidence["loser"]) == ("spacy_sm", "memorisation")
    assert evidence["share_of_resamples"] >= 0.975
    assert evidence["probability_better_than_baseline"] == \
        data["comparisons"]["memorisation vs spacy_sm"]["entity_f1"]
    assert evidence["winner_f1"] == data["estimates"]["spacy_sm"]["entity_f1"]
    boundary = [f for f in data["findings"] if f["rule"] == "boundary_errors"]
    spacy = data["results"]["spacy_sm"]["faireval"]["counts"]
    share = next(f for f in boundary if f["system"] == "spacy_sm")["evidence"]["share"]
    errors = sum(spacy[k] for k in ("FP", "FN", "LE", "BE", "LBE"))
    assert share == pytest.approx((spacy["BE"] + spacy["LBE"]) / errors)
    assert data["repairs"] == {"memorisation": {
        "decoding": {"invalid_transitions": 104},
        "hardeval re-encoding": {"dropped_inside": 102, "mixed_type": 2}}}
    record = data["info"]["provenance"]
    assert record["nerlens_version"] == nerlens.__version__
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", record["date"])
    assert record["options"]["bootstrap"] == 200 and record["inputs"]["gold"]


def test_demo_page_findings_contents_overview(demo):
    page = (demo / "report.html").read_text()
    assert page.index("id='findings'") < page.index("<nav class='toc'>") \
        < page.index("id='overview'")
    anchors = re.findall(r"<a href='#([^']+)'>", page)
    assert {"findings", "overview", "summary", "comparisons", "repairs", "provenance",
            "tough_mentions", "attribute_buckets"} <= set(anchors)
    for anchor in anchors:
        assert f"id='{anchor}'" in page, anchor
    assert f"alt='{html.escape(OVERVIEW_TITLE)}'" in page
    # readable names in the tables, keys only in the hover text
    assert "F1, entity length (eLen) XS {1}" in page
    assert ">attribute_buckets.buckets.eLen.0<" not in page
    assert "WNUT-17&#x27;s test set was built from entities" in page
    # the comparison says which system each probability is about
    assert ("<b>that column's system</b> is better than the reference system <b>spacy_sm</b>"
            in page)


def test_statistic_labels():
    buckets = {"eLen": [{"name": "XS", "interval": "{1}"}],
               "tag": [{"name": "person", "interval": "person"}]}
    first = {"attribute_buckets": {"buckets": buckets}}
    assert statistic_label("attribute_buckets.buckets.eLen.0", first) == \
        "F1, entity length (eLen) XS {1}"
    assert statistic_label("attribute_buckets.buckets.tag.0", first) == \
        "F1, entity type (tag) person"
    assert statistic_label("tough_mentions.recall_unseen_any") == "recall, unseen mentions (any)"
    assert statistic_label("hardeval.ter_unseen") == "token error rate, unseen tokens"
    assert statistic_label("entity_f1") == "entity F1"
    assert statistic_label("something.new") == "something.new"   # unknown keys as they are


def _report(seen, unseen, support=(100, 100), comparisons=None) -> Report:
    names = ("tough_mentions.recall_seen", "tough_mentions.recall_unseen_any")
    intervals = {name: {"low": low, "high": high, "support": n, "too_small": n < 30}
                 for name, (_, low, high), n in zip(names, (seen, unseen), support)}
    estimates = {"entity_f1": 0.5, names[0]: seen[0], names[1]: unseen[0]}
    return Report(["A"], {"A": {}}, {"A": estimates}, {"A": intervals}, comparisons or {},
                  {n: True for n in estimates}, {"baseline": "A", "confidence": 0.95})


def _gap(seen, unseen, support=(100, 100)) -> list:
    """tough_mentions' seen_unseen_gap rule on a report of one system A."""
    report = _report(seen, unseen, support)
    return seen_unseen_gap(report_view(report, get_family("tough_mentions")))


def test_seen_unseen_gap_needs_disjoint_intervals_and_support():
    stated = _gap((0.8, 0.75, 0.85), (0.4, 0.3, 0.5))
    assert [f["text"] for f in stated] == [
        "A recalls 80.0% of seen mentions [75.0, 85.0] but 40.0% of unseen ones [30.0, 50.0]."]
    assert stated[0]["size"] == pytest.approx(0.4)
    # overlapping intervals: no statement
    assert not _gap((0.8, 0.6, 0.9), (0.5, 0.3, 0.65))
    # too few mentions in a subset: no statement, however far apart
    assert not _gap((0.9, 0.85, 0.95), (0.1, 0.05, 0.2), support=(100, 12))


def test_paired_rule_uses_the_confidence_level():
    def probability(p):
        data = _report((0.5, 0.4, 0.6), (0.5, 0.4, 0.6))
        data.systems = ["A", "B"]
        data.estimates["B"] = {"entity_f1": 0.6}
        data.comparisons = {"B vs A": {"entity_f1": p}}
        return report_findings.paired(data)

    assert probability(0.97) == []
    assert probability(0.975)[0]["text"].startswith("B beats A on entity F1 in 97.5%")
    assert probability(0.01)[0]["text"].startswith("A beats B on entity F1 in 99.0%")


def test_python_api_records_input_paths_and_shows_fewer_findings_per_rule(tmp_path):
    systems = {"spacy": str(demo_systems()["spacy_sm"])}
    for i in range(4):                     # the same output under several names
        systems[f"copy{i}"] = systems["spacy"]
    result = nerlens.build_report(str(demo_gold()), systems, train=str(demo_train()),
                            bootstrap=50, figures=False)
    inputs = result.info["provenance"]["inputs"]
    assert inputs["gold"] == str(demo_gold()) and inputs["train"] == str(demo_train())
    assert inputs["systems"]["copy3"] == systems["spacy"]
    boundary = [f for f in result.findings if f["rule"] == "boundary_errors"]
    assert len(boundary) == 5
    kept, more = report_findings.shown(result.findings)
    assert sum(f["rule"] == "boundary_errors" for f in kept) == report_findings.SHOWN_PER_RULE
    assert more >= 2
    # identical systems: no paired finding (no resample separates them)
    assert not [f for f in result.findings if f["rule"] == "paired"]
    assert OVERVIEW_TITLE not in result.figures          # figures=False draws nothing
    assert "more findings" in result.to_html()


def test_every_error_is_an_example_in_the_json(demo):
    data = json.loads((demo / "report.json").read_text())
    for system in data["systems"]:
        examples = data["examples"]["systems"][system]
        counts = data["results"][system]["faireval"]["counts"]
        for kind in ("LE", "BE", "LBE", "FN", "FP"):
            assert len(examples[kind]) == counts[kind], (system, kind)
        tough = data["results"][system]["tough_mentions"]
        missed = tough["counts"]["unseen_any"] - tough["hits"]["unseen_any"]
        assert len(examples["missed_unseen"]) == missed
        hard = data["results"][system]["hardeval"]["subsets"]["diff"]
        assert len(examples["diff_token"]) == hard["errors"]
        assert {row["subset"] for row in examples["diff_token"]} <= {"diff_i", "diff_o",
                                                                     "diff_e"}
        # the families' listings moved out: the results keep their usual shape
        assert "pairs" not in data["results"][system]["faireval"]
        assert "mentions" not in tough
    gold = read_columns(demo_gold(), {GOLD: -1})
    first = data["examples"]["systems"]["spacy_sm"]["missed_unseen"][0]
    words = gold.sentence_tokens(first["sentence"])[first["gold"][1]:first["gold"][2]]
    assert " ".join(words) == first["text"]
    for index, tokens in data["examples"]["sentences"].items():
        assert tokens == gold.sentence_tokens(int(index))


def test_the_report_page_documents_every_rule():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "report.md").read_text()
    for rule in report_findings.all_rules():
        assert f"- `{rule}`:" in page, rule


def test_demo_never_ranks_a_token_attribute_against_entity_f1(demo):
    """tCon and tFre score tokens (F1 99.8% for a system whose entity F1 is 6.1%): their
    gaps are a rule of their own that says token F1; bucket_gap ranks entity attributes."""
    from attribute_buckets.attributes import TOKEN_ATTRIBUTES

    data = json.loads((demo / "report.json").read_text())
    gaps = [f for f in data["findings"] if f["rule"] == "bucket_gap"]
    tokens = [f for f in data["findings"] if f["rule"] == "token_bucket_gap"]
    assert {f["system"] for f in gaps} == {f["system"] for f in tokens} == \
        {"spacy_sm", "memorisation"}
    assert all(f["evidence"]["attribute"] not in TOKEN_ATTRIBUTES for f in gaps)
    assert all(f["evidence"]["attribute"] in TOKEN_ATTRIBUTES for f in tokens)
    for finding in tokens:
        assert "token F1" in finding["text"] and "not comparable with entity F1" in \
            finding["text"]
    page = (demo / "report.html").read_text()
    assert "memorisation&#x27;s largest bucket gap is in token" not in page
    assert "Scored over tokens, O included" in page


def test_the_headline_is_the_descriptors_handful_one_row_per_system(demo):
    """Issue 32: entity F1, then each family's ``headline`` (the largest bucket gap
    computed by its ``value``), one row per system; every other statistic collapsed in
    its family's section."""
    data = json.loads((demo / "report.json").read_text(encoding="utf-8"))
    report = Report(data["systems"], data["results"], data["estimates"], data["intervals"],
                    data["comparisons"], data["higher_is_better"], data["info"])
    wanted = ["entity F1"] + [h.title for f in in_report_order(data["info"]["families"])
                              for h in f.headline]
    assert [c[0] for c in headline_columns(report)] == wanted
    page = (demo / "report.html").read_text(encoding="utf-8")
    summary = page[page.index("<section id='summary'>"):page.index("<section id='comparisons'>")]
    first = summary[:summary.index("</table>")]
    assert first.count("<tr>") == 1 + len(data["systems"])    # header and one per system
    # each family's every statistic, collapsed at the end of its section
    for family in ("tough_mentions", "hardeval", "faireval", "attribute_buckets"):
        part = page[page.index(f"<section id='{family}'>"):]
        part = part[:part.index("</section>")]
        assert "<details class='statistics'>" in part, family


def test_two_systems_with_the_same_score_are_a_tie_not_50_percent():
    report = _report((0.5, 0.4, 0.6), (0.0, 0.0, 0.0))
    report.systems = ["A", "B"]
    report.estimates["B"] = {"entity_f1": 0.7, "tough_mentions.recall_unseen_any": 0.0}
    report.comparisons = {"B vs A": {"entity_f1": 1.0, "tough_mentions.recall_unseen_any": 0.5}}
    assert comparison_cell(report, "B", "tough_mentions.recall_unseen_any") == TIE
    assert comparison_cell(report, "B", "entity_f1") == "100.00"


def test_largest_bucket_gap_leaves_out_small_and_token_buckets():
    rows = [{"name": "XS", "f1": 0.9, "gold": 30}, {"name": "S", "f1": 0.6, "gold": 40},
            {"name": "L", "f1": 0.0, "gold": 29}]            # L: fewer than 30 mentions
    tokens = [{"name": "XS", "f1": 0.1, "gold": 500}, {"name": "S", "f1": 0.99, "gold": 500}]
    result = {"buckets": {"eLen": rows, "tCon": tokens},
              "attributes": {"tCon": {"unit": "token"}}}
    gap, about = largest_gap(result)
    assert gap == pytest.approx(0.9 - 0.6) and about == "entity length (eLen): XS vs S"
    assert largest_gap({"buckets": {"eLen": rows[2:]}}) == (None, "")
