"""A report on one long sentence (issue 37): each hover example of the confusion map wrote
its whole sentence, and each missed unseen mention read its whole sentence's tags, so a
document never split into sentences (a million tokens) took 195 s against 5 s in
sentences. Every example now shows a window around its mentions, its cut ends an
ellipsis that says how many tokens it leaves out (``benchmarks/bench_long_sentence.py``
measures the time)."""
from __future__ import annotations

import html
import re

from hypothesis import given
from hypothesis import strategies as st

import nerlens
from nerlens.cli import main
from nerlens.report.examples import CONTEXT, window
from nerspan import GOLD, Corpus

LENGTH = 3000


def _long_sentence():
    """One sentence of ``LENGTH`` tokens, a mention every 100 tokens; the system misses
    every other one, labels one LOC as PER and adds a spurious mention."""
    tokens = [f"w{i}" for i in range(LENGTH)]
    gold, pred = ["O"] * LENGTH, ["O"] * LENGTH
    for k, start in enumerate(range(50, LENGTH, 100)):
        gold[start], gold[start + 1] = "B-LOC", "I-LOC"
        if k % 2:
            pred[start], pred[start + 1] = "B-LOC", "I-LOC"
    pred[150] = pred[151] = "I-PER"      # a wrong type
    pred[1000] = "B-ORG"                 # spurious
    return [tokens], [gold], [pred]


def _shown_tokens(text: str) -> list:
    return [int(n) for n in re.findall(r"\bw(\d+)\b", text)]


def _check_windows(page: str) -> None:
    hovers = [html.unescape(t) for t in re.findall(r"title='([^']*sentence 0:[^']*)'", page)]
    assert hovers
    for hover in hovers:
        for line in hover.splitlines()[1:]:   # the first line is the cell's share
            shown = _shown_tokens(line)
            assert 0 < len(shown) <= 2 * CONTEXT + 4, line
            assert "tokens of the sentence left out)" in line
    items = re.findall(r"<li class='example'.*?</li>", page, re.S)
    assert items
    for item in items:
        assert 0 < len(_shown_tokens(re.sub("<[^>]+>", "", item))) <= 2 * CONTEXT + 4, item
        assert "tokens of the sentence left out'>&hellip;</span>" in item


def test_api_report_shows_windows_of_a_long_sentence(tmp_path):
    tokens, gold, pred = _long_sentence()
    report = nerlens.build_report(gold, {"tagger": pred}, tokens=tokens, train=(tokens, pred),
                            bootstrap=0)
    missed = report.examples["tagger"]["missed_unseen"]
    assert missed and all(row["predicted_tags"] == pred[0][row["gold"][1]:row["gold"][2]]
                          for row in missed)
    _check_windows(report.to_html(tmp_path / "report.html"))


def test_cli_report_shows_windows_of_a_long_sentence(tmp_path, capsys):
    tokens, gold, pred = _long_sentence()
    for name, tags in (("gold", gold), ("tagger", pred)):
        (tmp_path / f"{name}.txt").write_text(
            "".join(f"{t} {g}\n" for t, g in zip(tokens[0], tags[0])), encoding="utf-8")
    assert main(["report", str(tmp_path / "gold.txt"), str(tmp_path / "tagger.txt"),
                 "--train", str(tmp_path / "tagger.txt"), "--output", str(tmp_path),
                 "--bootstrap", "0", "--no-progress"]) == 0
    capsys.readouterr()
    _check_windows((tmp_path / "report.html").read_text(encoding="utf-8"))


@given(st.integers(0, 60), st.lists(st.tuples(st.integers(0, 59), st.integers(1, 5)),
                                    max_size=2))
def test_a_window_holds_its_spans_and_at_most_the_context_around(length, given_spans):
    spans = [["T", start, min(start + size, length)] for start, size in given_spans
             if start < length]
    low, high = window(length, spans + [None])
    assert 0 <= low <= high <= length
    if spans:
        assert low <= min(s[1] for s in spans) and high >= max(s[2] for s in spans)
        assert min(s[1] for s in spans) - low <= CONTEXT
        assert high - max(s[2] for s in spans) <= CONTEXT
    else:
        assert (low, high) == (0, min(length, 2 * CONTEXT))


@given(st.lists(st.lists(st.sampled_from(["O", "B-A", "I-A"]), min_size=1, max_size=9),
                min_size=1, max_size=4), st.data())
def test_tags_of_a_token_range_are_the_slice_of_the_sentence(sentences, data):
    corpus = Corpus.from_tags(sentences)
    k = data.draw(st.integers(0, len(sentences) - 1))
    start = data.draw(st.integers(0, len(sentences[k])))
    end = data.draw(st.integers(start, len(sentences[k]) + 3))
    assert corpus.tags(GOLD, k, start, end) == sentences[k][start:end]
    assert corpus.tags(GOLD, k) == sentences[k]


def test_the_benchmark_runs_at_a_small_size(capsys):
    """``benchmarks/bench_long_sentence.py`` measures the time (no time asserted here):
    it runs, and prints both shapes and their ratio."""
    from benchmarks import bench_long_sentence

    measured = bench_long_sentence.main(["--tokens", "600"])
    assert measured["tokens"] >= 500 and measured["ratio"] > 0
    assert "in one sentence" in capsys.readouterr().out
