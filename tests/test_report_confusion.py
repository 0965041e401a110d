"""The report's entity confusion matrix: report.json holds nerspan's matrix for every
system, each cell's examples belong to the cell, the page draws the heat map."""
from __future__ import annotations

import json
import re

import nerlens
import nerspan
from nerlens.report.confusion import colour
from nerspan.confusion import OUTSIDE

GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O", "B-MISC", "I-MISC"],
        ["B-LOC", "O", "O", "O", "O"]] * 2
SYSTEMS = {"tagger": [["B-PER", "O", "O", "B-ORG"], ["O", "B-ORG", "O", "B-MISC", "I-MISC"],
                      ["O", "O", "B-PER", "O", "O"]] * 2,
           "other": [["B-PER", "I-PER", "O", "O"], ["O", "B-LOC", "O", "B-MISC", "O"],
                     ["B-LOC", "O", "O", "O", "B-ORG"]] * 2}
TOKENS = [["Ana", "Lee", "in", "Rome"], ["the", "UN", "met", "Big", "Bang"],
          ["Oslo", "is", "far", "from", "here"]] * 2


def made():
    return nerlens.build_report(GOLD, SYSTEMS, tokens=TOKENS, bootstrap=0, figures=False,
                                families=("faireval",))


def in_cell(name: str, row: dict) -> bool:
    """Does the example ``row`` show the confusion cell ``name``."""
    gold, predicted = row["gold"], row["predicted"]
    if name.startswith("boundary "):
        return (gold[0] == name[len("boundary "):] and predicted is not None
                and predicted[1:] != gold[1:] and predicted[1] < gold[2]
                and gold[1] < predicted[2])
    gold_type, predicted_type = name.split(" -> ")
    if gold_type == OUTSIDE:
        return gold is None and predicted[0] == predicted_type
    if predicted_type == OUTSIDE:
        return predicted is None and gold[0] == gold_type
    return gold[0] == gold_type and predicted[0] == predicted_type and gold[1:] == predicted[1:]


def test_the_report_holds_nerspans_matrix_and_examples_of_each_cell():
    report = made()
    data = json.loads(report.to_json())["confusion"]
    assert list(data) == list(SYSTEMS)
    for system, pred in SYSTEMS.items():
        expected = nerspan.Evaluation.build(GOLD, pred).confusion(nerspan.PRED)
        assert data[system]["confusion"] == expected["confusion"]
        assert data[system]["boundary_errors"] == expected["boundary_errors"]
        errors = {f"{g} -> {p}": n for g, row in expected["confusion"].items()
                  for p, n in row.items() if n and g != p}
        errors.update({f"boundary {t}": n for t, n in expected["boundary_errors"]["gold"].items()
                       if n})
        # every error cell has examples (at most 3), every example is in its cell
        assert set(data[system]["examples"]) == set(errors)
        for name, rows in data[system]["examples"].items():
            assert 0 < len(rows) <= min(3, errors[name])
            assert all(in_cell(name, row) for row in rows), (name, rows)
            # the sentence of each example is there to show it
            assert all(str(row["sentence"]) in report.example_sentences for row in rows)


def test_the_page_draws_the_heat_map_per_system():
    page = made().to_html()
    section = page[page.index("id='confusion'"):]
    section = section[:section.index("</section>")]
    assert section.count("<table class='heat'>") == len(SYSTEMS)
    # tagger: LOC -> ORG once per copy of the data (2), shown with its share on hover
    assert re.search(r"title='2 of 4 gold LOC mentions \(50\.0%\)[^']*'>2</td>", section)
    assert "O (missed)" in section and "O (spurious)" in section
    assert "boundary errors" in section and "Example sentences per cell" in section


def test_colours_follow_the_log_scale():
    assert colour(0, 10) == ("#ffffff", "#222")
    assert colour(10, 10)[0] == "#08306b" and colour(10, 10)[1] == "#fff"
    light, dark = colour(1, 100)[0], colour(50, 100)[0]
    assert int(light[1:3], 16) > int(dark[1:3], 16)   # more mentions, darker
