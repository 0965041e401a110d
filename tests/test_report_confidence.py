"""The report's confidence section (nerlens.report.confidence, METHODS §8): a scored
system is a system of the report with its every mention; on the dial, each headline
number at a threshold is what the report gives a system made of the mentions kept there,
and the entity scores are nerspan.sweep's."""
from __future__ import annotations

import json

import pytest

import nerlens
import nerspan
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_scored
from nerlens.report.confidence import DEFAULT, EVERY, CHOSEN
from nerspan import NameTakenError, SentenceCountError, read_columns, read_span_jsonl
from nerspan.generative.scored_output import scored_generated

TOKENS = [["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London"],
          ["Paris", "is", "big"], ["Bob", "and", "Alice", "went", "to", "Rome"]]
GOLD = [["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC"], ["B-LOC", "O", "O"],
        ["B-PER", "O", "B-PER", "O", "O", "B-LOC"]]
TRAIN_TOKENS = [["Ada", "Lovelace", "saw", "Paris"], ["Bob", "ran"]]
TRAIN_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "O"]]
SCORED = [[(0, 2, "PER", 0.9), (3, 5, "LOC", 0.4), (6, 7, "LOC", 0.62)],
          [(0, 1, "LOC", 0.3)],
          [(0, 1, "PER", 0.8), (2, 3, "LOC", 0.55), (5, 6, "LOC", 0.35)]]


def tags_of(spans_per_sentence, lengths) -> list:
    out = []
    for spans, n in zip(spans_per_sentence, lengths):
        tags = ["O"] * n
        for start, end, label, *_ in spans:
            tags[start:end] = [f"B-{label}"] + [f"I-{label}"] * (end - start - 1)
        out.append(tags)
    return out


def kept(threshold: float) -> list:
    return tags_of([[s for s in sentence if s[3] >= threshold] for sentence in SCORED],
                   [len(t) for t in TOKENS])


TRAIN = nerspan.as_train_index((TRAIN_TOKENS, TRAIN_TAGS))


@pytest.fixture(scope="module")
def scored_report():
    return nerlens.build_report(GOLD, {}, train=TRAIN, tokens=TOKENS, bootstrap=0, figures=False,
                                scored={"model": SCORED})


def test_a_scored_system_is_a_system_with_its_every_mention(scored_report):
    plain = nerlens.build_report(GOLD, {"model": kept(0.0)}, train=TRAIN, tokens=TOKENS,
                                 bootstrap=0, figures=False)
    assert scored_report.systems == ["model"]
    mine, theirs = json.loads(scored_report.to_json()), json.loads(plain.to_json())
    for key in ("estimates", "results", "analyses", "examples"):
        assert mine[key] == theirs[key], key
    assert "confidence" not in plain.to_dict() and plain.confidence == {}


def test_each_headline_on_the_dial_is_the_report_of_the_mentions_kept(scored_report):
    """At every compared threshold and along the grid, each number is the one the report
    gives a system made of the mentions kept there (a report per threshold, apart)."""
    dial = scored_report.confidence["model"]
    sweep = nerspan.sweep(GOLD, SCORED, tokens=TOKENS)
    assert dial["average_precision"] == sweep.average_precision
    assert dial["ece"] == sweep.calibration["ece"]
    assert dial["chosen"]["threshold"] == sweep.operating_point.threshold
    assert dial["chosen"]["inflation"] == sweep.operating_point.inflation
    assert [dial["at"][key]["threshold"] for key in (EVERY, DEFAULT, CHOSEN)] == \
        [0.0, 0.5, sweep.best_threshold]
    checked = [(at["threshold"], at) for at in dial["at"].values()]
    along = dial["along"]
    checked += [(t, {key: column[k] for key, column in along.items()})
                for k, t in enumerate(along["threshold"])]
    assert along["threshold"] == sweep.grid().tolist()
    headline = {key for key in dial["at"][EVERY] if key != "threshold"}
    assert {"entity_f1", "tough_mentions.recall_unseen_any", "hardeval.hardeval",
            "faireval.fair_f1", "attribute_buckets.largest_gap"} <= headline
    for threshold, numbers in checked:
        apart = nerlens.build_report(GOLD, {"kept": kept(threshold)}, train=TRAIN, tokens=TOKENS,
                                     bootstrap=0, figures=False)
        for key in headline - {"attribute_buckets.largest_gap"}:
            assert numbers[key] == pytest.approx(apart.estimates["kept"][key], abs=1e-12), \
                (threshold, key)
        gap = apart.results["kept"]["attribute_buckets"]
        assert numbers["attribute_buckets.largest_gap"] == pytest.approx(
            _largest_gap(gap), abs=1e-12)
        assert numbers["entity_f1"] == pytest.approx(sweep.at(threshold).micro()[2])


def _largest_gap(result: dict):
    family = nerlens.families.get_family("attribute_buckets")
    headline = next(h for h in family.headline if h.key == "largest_gap")
    return headline.value(result)[0]


def test_the_finding_names_the_peak_and_the_inflation(scored_report):
    dial = scored_report.confidence["model"]
    found = [f for f in scored_report.findings if f["rule"] == "confidence_peak"]
    gain = dial["at"][CHOSEN]["entity_f1"] - dial["at"][DEFAULT]["entity_f1"]
    if dial["chosen"]["threshold"] == 0.5 or gain <= 0:
        assert found == []
        return
    assert len(found) == 1 and found[0]["evidence"]["inflation"] == dial["chosen"]["inflation"]
    assert found[0]["text"].startswith(
        f"model: F1 peaks at threshold {dial['chosen']['threshold']:.2f}, not at 0.5: "
        f"{100 * gain:+.1f} points")


def test_the_page_draws_the_section_and_the_json_holds_it(scored_report):
    page = scored_report.to_html()
    section = page[page.index("<section id='confidence'>"):]
    section = section[:section.index("</section>")]
    assert section.count("<svg") == 3   # PR curves, reliability, headlines along the curve
    assert "Precision-recall curves" in section and "reliability (ECE" in section
    assert "<a href='#confidence'>" in page
    data = json.loads(scored_report.to_json())
    assert data["confidence"]["model"]["at"] == scored_report.confidence["model"]["at"]


def test_scored_input_that_does_not_fit_is_refused():
    with pytest.raises(NameTakenError, match="'model' is given twice"):
        nerlens.build_report(GOLD, {"model": GOLD}, tokens=TOKENS, bootstrap=0, figures=False,
                             families=[], scored={"model": SCORED})
    with pytest.raises(SentenceCountError, match="scored system 'model' holds 2 sentences"):
        nerlens.build_report(GOLD, {}, tokens=TOKENS, bootstrap=0, figures=False, families=[],
                             scored={"model": SCORED[:2]})
    with pytest.raises(nerspan.NerspanError, match=r"scored system 'model', sentence 1: span "
                                                   r"0 .*: 2 is not a confidence"):
        nerlens.build_report(GOLD, {}, tokens=TOKENS, bootstrap=0, figures=False, families=[],
                             scored={"model": [SCORED[0], [(0, 1, "LOC", 2)], SCORED[2]]})


def test_the_confidence_demo_and_scored_files(tmp_path, capsys):
    assert main(["report", "--demo", "confidence", "--output", str(tmp_path / "demo"),
                 "--bootstrap", "0", "--no-progress"]) == 0
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "demo" / "report.json").read_text())
    assert data["systems"] == ["spacy_sm", "crf"] and list(data["confidence"]) == ["crf"]
    sweep = nerspan.sweep(read_columns(demo_gold(), {"gold": 1}),
                          read_span_jsonl(demo_scored()["crf"])["spans"])
    at = data["confidence"]["crf"]["at"]
    assert at[DEFAULT]["entity_f1"] == sweep.at(0.5).micro()[2]
    assert at[CHOSEN]["threshold"] == sweep.best_threshold
    assert "crf: F1 peaks at threshold" in out
    assert "<section id='confidence'>" in (tmp_path / "demo" / "report.html").read_text()
    # the same through --scored: a system named after its file
    gold = tmp_path / "gold.txt"
    gold.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(words, tags))
                                for words, tags in zip(TOKENS, GOLD)) + "\n", encoding="utf-8")
    (tmp_path / "model.jsonl").write_text("".join(
        json.dumps({"spans": [list(s) for s in sentence]}) + "\n" for sentence in SCORED),
        encoding="utf-8")
    (tmp_path / "train.txt").write_text("\n\n".join(
        "\n".join(f"{w} {t}" for w, t in zip(words, tags))
        for words, tags in zip(TRAIN_TOKENS, TRAIN_TAGS)) + "\n", encoding="utf-8")
    assert main(["report", str(gold), "--scored", str(tmp_path / "model.jsonl"), "--train",
                 str(tmp_path / "train.txt"), "--output", str(tmp_path / "files"),
                 "--bootstrap", "0", "--no-progress"]) == 0
    data = json.loads((tmp_path / "files" / "report.json").read_text())
    report = nerlens.build_report(GOLD, {}, train=TRAIN, tokens=TOKENS, bootstrap=0,
                                  figures=False, scored={"model": SCORED})
    assert data["confidence"]["model"]["at"] == json.loads(report.to_json())["confidence"][
        "model"]["at"]


# SCORED's mentions as generated output with a score per entity, and "Oz", found nowhere
# (a wrong prediction wherever it is kept)
RESPONSES = [[{"text": "Ada Lovelace", "type": "PER", "score": 0.9},
              {"text": "Charles Babbage", "type": "LOC", "score": 0.4},
              {"text": "London", "type": "LOC", "score": 0.62}],
             {"LOC": [{"text": "Paris", "score": 0.3}, {"text": "Oz", "score": 0.7}]},
             [{"text": "Bob", "type": "PER", "score": 0.8},
              {"text": "Alice", "type": "LOC", "score": 0.55},
              {"text": "Rome", "type": "LOC", "score": 0.35}]]


def write_columns(path, words, tags) -> str:
    path.write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts))
                                for ws, ts in zip(words, tags)) + "\n", encoding="utf-8")
    return str(path)


def test_scored_generated_output_through_scored(tmp_path, capsys):
    """--scored FILE.jsonl of generated output with a score per entity: the confidence
    section of build_report(scored=...) of its scored mentions (grounded in gold)."""
    gold = write_columns(tmp_path / "gold.txt", TOKENS, GOLD)
    train = write_columns(tmp_path / "train.txt", TRAIN_TOKENS, TRAIN_TAGS)
    llm = tmp_path / "llm.jsonl"
    llm.write_text("".join(json.dumps({"response": r}) + "\n" for r in RESPONSES),
                   encoding="utf-8")
    assert main(["report", gold, "--scored", str(llm), "--train", train, "--output",
                 str(tmp_path / "out"), "--bootstrap", "0", "--no-progress"]) == 0
    out = capsys.readouterr().out
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    corpus = nerspan.Corpus.from_tags(GOLD, tokens=TOKENS)
    mentions = scored_generated(RESPONSES, corpus)
    assert len(mentions.unplaced) == 1
    report = nerlens.build_report(GOLD, {}, train=TRAIN, tokens=TOKENS, bootstrap=0,
                                  figures=False, scored={"llm": mentions})
    expected = json.loads(report.to_json())
    assert data["confidence"] == expected["confidence"]
    assert data["estimates"] == expected["estimates"]
    sweep = nerspan.sweep(corpus, RESPONSES)
    assert data["confidence"]["llm"]["at"][DEFAULT]["entity_f1"] == sweep.at(0.5).micro()[2]
    assert any(line.split()[:1] == ["llm"] for line in out.splitlines())   # the table


def test_scored_generated_output_must_answer_every_sentence(tmp_path, capsys):
    gold = write_columns(tmp_path / "gold.txt", TOKENS, GOLD)
    train = write_columns(tmp_path / "train.txt", TRAIN_TOKENS, TRAIN_TAGS)
    llm = tmp_path / "llm.jsonl"
    llm.write_text("".join(json.dumps({"sentence": k, "response": RESPONSES[k]}) + "\n"
                           for k in (2, 0)), encoding="utf-8")
    code = main(["report", gold, "--scored", str(llm), "--train", train, "--output",
                 str(tmp_path / "out"), "--bootstrap", "0", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "answers 2 sentences of" in err and "needs every sentence answered" in err
    hint = err.split("sweep the ones answered with ")[1].split()
    assert hint[:2] == ["nerlens", "sweep"]
    assert main(hint[1:]) == 0   # the hint's command works
    assert "scored mention" in capsys.readouterr().out
