"""The terminal and the page say the same thing the same way (issue 37): the subsets of
tough mentions and hardeval are headed from one record each (the terminal wrote
``Unseen-Tokens`` and ``unseen_i`` where the page wrote "unseen text" and "unseen-I"), a
zeta is written one way, and a count never pairs a number with a false singular ("866
missed unseen mention")."""
from __future__ import annotations

import html
import json
import re

import hardeval
import tough_mentions
from attribute_buckets.analysis import zeta_text
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_systems, demo_train

from .test_buckets_manifest_runs import manifest  # noqa: F401 (fixture)
from .test_experiment import files, parts  # noqa: F401 (fixtures: two small datasets)


def _headers(page: str, after: str) -> list:
    """The header cells of the first table after ``after`` in ``page``, as text."""
    table = page[page.index(after):]
    head = table[table.index("<thead>"):table.index("</thead>")]
    return [html.unescape(re.sub("<[^>]+>", "", cell))
            for cell in re.findall(r"<th>(.*?)</th>", head)]


def _columns(line: str) -> list:
    return re.split(r"\s{2,}", line.strip())


def test_terminal_and_page_head_the_subsets_alike(tmp_path, capsys):
    gold, spacy = str(demo_gold()), str(demo_systems()["spacy_sm"])
    assert main(["report", gold, spacy, "--train", str(demo_train()), "--output",
                 str(tmp_path), "--bootstrap", "0", "--no-progress"]) == 0
    capsys.readouterr()
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    recall = _headers(page, "<h3>Recall per subset (%)</h3>")
    assert recall == ["system"] + [tough_mentions.NAMING[s].header
                                   for s in tough_mentions.ALL_SUBSETS]
    assert main(["tough-mentions", gold, spacy, "--train", str(demo_train())]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the terminal is the page's section (after the overall P, R, F1): its subsets are
    # the page's, in the page's words
    terminal = _columns(lines[lines.index("Recall per subset (%)") + 1])
    assert terminal == recall and "Unseen-Tokens" not in terminal
    hard = _headers(page, "<section id='hardeval'>")
    assert main(["hardeval", gold, spacy, "--train", str(demo_train())]) == 0
    terminal = _columns(capsys.readouterr().out.splitlines()[0])
    assert terminal == hard == ["system", "hardeval score"] + [hardeval.HEADERS[n]
                                                               for n in hardeval.GROUPS]


def test_example_counts_name_their_kind(tmp_path, capsys):
    assert main(["report", "--demo", "--output", str(tmp_path), "--bootstrap", "0",
                 "--no-progress"]) == 0
    capsys.readouterr()
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    summary = re.search(r"<summary><b>spacy_sm</b> \(([^)]*\([^<]*)\)</summary>", page)[1]
    assert re.search(r"missed unseen mention: \d+", summary)
    assert not re.search(r"\d+ missed unseen mention\b", page)


def test_zeta_is_written_one_way(manifest, tmp_path, capsys):  # noqa: F811
    assert main(["buckets", "--manifest", str(manifest), "--format", "json"]) == 0
    views = json.loads(capsys.readouterr().out)["attribute_wise"]
    assert main(["buckets", "--manifest", str(manifest)]) == 0
    text = capsys.readouterr().out.splitlines()
    start = text.index(next(line for line in text if line.startswith("Attribute-wise zeta")))
    attributes = text[start + 1].split()[1:]
    terminal = {line.split()[0]: dict(zip(attributes, line.split()[1:]))
                for line in text[start + 3:start + 5]}
    assert main(["report", "--manifest", str(manifest), "--no-progress", "--bootstrap", "0",
                 "--output", str(tmp_path)]) == 0
    capsys.readouterr()
    page = (tmp_path / "experiment.html").read_text(encoding="utf-8")
    table = page[page.index("<section id='attribute_wise'>"):]
    table = table[:table.index("</table>")]
    for name, by_attribute in views.items():
        for attribute, view in by_attribute.items():
            written = zeta_text(view["zeta"])
            assert terminal[name][attribute] == written, (name, attribute)
            assert f"<td>{written}</td>" in table, (name, attribute, written)
