"""The terminal view of the report's entity confusion matrix: per system the matrix when
it fits (its cells are report.json's), else the largest error cells; at most
``TEXT_SYSTEMS`` systems; every line within the terminal's width."""
from __future__ import annotations

import nerlens
from nerspan.confusion import confusion_types
from nerlens.report.confusion import TEXT_CELLS, TEXT_SYSTEMS
from nerlens.report.text import WIDTH

GOLD = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"], ["B-LOC", "O", "O"]]
PRED = [["B-PER", "O", "O", "B-ORG", "I-ORG"], ["B-LOC", "O", "O"], ["B-LOC", "O", "B-PER"]]


def tokens_of(tags) -> list:
    return [[f"w{i}" for i in range(len(sentence))] for sentence in tags]


def matrix_rows(summary: str, system: str) -> dict:
    """The rows printed under ``system:``: row name -> cells, and the header."""
    lines = summary.splitlines()
    at = lines.index(f"{system}:")
    block = []
    for line in lines[at + 1:]:
        if not line.startswith("  "):
            break
        block.append(line.split())
    header = block[0][3:]   # after "gold \ pred"
    return header, {row[0]: row[1:] for row in block[1:]}


def test_the_terminal_prints_each_systems_matrix_as_in_the_json():
    report = nerlens.build_report(GOLD, {"a": PRED, "b": GOLD}, tokens=tokens_of(GOLD),
                            families=["faireval"], bootstrap=0, figures=False)
    summary = report.summary()
    assert "Entity confusion matrix" in summary
    assert max(len(line) for line in summary.splitlines()) <= WIDTH
    for system in ("a", "b"):
        data = report.confusion[system]
        header, rows = matrix_rows(summary, system)
        types = confusion_types(data)
        cell = lambda g, p: str(data["confusion"].get(g, {}).get(p, 0))  # noqa: E731
        assert header == types + ["O", "boundary"]
        for gold in types:
            assert rows[gold] == [cell(gold, p) for p in types + ["O"]] \
                + [str(data["boundary_errors"]["gold"][gold])]
        assert rows["O"] == [cell("O", p) for p in types]
        assert rows["boundary"] == [str(data["boundary_errors"]["predicted"][p])
                                    for p in types]
    # by hand for "a": LOC 3-4 vs ORG 3-5 and PER 0-2 vs PER 0-1 are boundary errors,
    # ORG taken as LOC, the second PER missed, LOC right, PER 2-3 of sentence 3 spurious
    _, rows = matrix_rows(summary, "a")
    assert rows["ORG"] == ["1", "0", "0", "0", "0"]          # LOC ORG PER O boundary
    assert rows["PER"] == ["0", "0", "0", "1", "1"]
    assert rows["LOC"] == ["1", "0", "0", "0", "1"]
    assert rows["O"] == ["0", "0", "1"]
    # "b" is gold itself: the diagonal only
    _, rows = matrix_rows(summary, "b")
    assert rows["PER"] == ["0", "0", "2", "0", "0"]


def test_too_many_types_lists_the_largest_cells_and_few_systems_are_shown():
    # 14 types with long names: no matrix fits 100 columns
    names = [f"TYPE{k:02d}-WITH-A-LONG-NAME" for k in range(14)]
    gold = [[f"B-{name}", "O"] for name in names]
    pred = [[f"B-{names[(k + 1) % 14] if k < 3 else name}", "O"]
            for k, name in enumerate(names)]
    pred[5] = ["O", "O"]                                     # a miss
    systems = {f"s{k}": pred for k in range(TEXT_SYSTEMS + 2)}
    report = nerlens.build_report(gold, systems, tokens=tokens_of(gold), families=["faireval"],
                            bootstrap=0, figures=False)
    summary = report.summary()
    assert max(len(line) for line in summary.splitlines()) <= WIDTH
    text = " ".join(summary.split())
    assert "14 types, too many for a matrix here" in text
    # the error cells, each with its count: three labeling errors and one miss, all 1
    for k in range(3):
        assert f"{names[k]} -> {names[k + 1]} 1" in text
    assert f"{names[5]} -> O 1" in text
    assert "correct 10" in text and len(summary.split("largest errors:")) == TEXT_SYSTEMS + 1
    assert "(2 more systems: report.html, report.json)" in summary
    assert TEXT_CELLS >= 4


def test_no_matrix_no_lines():
    report = nerlens.build_report(GOLD, {"a": PRED}, tokens=tokens_of(GOLD), families=["faireval"],
                            bootstrap=0, figures=False)
    report.confusion = {}
    assert "Entity confusion matrix" not in report.summary()
