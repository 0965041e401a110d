"""The generated-output options on the command line: ``--matching strings`` (with
``--script universalner``, ``--word-overlap``) on ``nerlens score`` and ``--overlaps keep``
on ``nerlens faireval`` give the numbers of the API calls with the same options (the
oracle), on the generative demo and on a case counted by hand; ``--matching`` (generated
output's grounding) and faireval's ``--pairing`` are flags apart."""
from __future__ import annotations

import json

import pytest

import faireval
import nerspan
from nerlens.cli import main
from nerlens.demo import demo_gold, demo_path
from nerspan.generative import read_generated_jsonl
from nerspan.generative.universalner import script_prf

# Sentence 0: John Smith (PER), Paris Gazette (LOC); sentence 1: Paris twice (LOC).
GOLD = ("John B-PER\nSmith I-PER\nsaw O\nthe O\nParis B-LOC\nGazette I-LOC\n\n"
        "Paris B-LOC\nand O\nParis B-LOC\n")
GOLD_TAGS = [["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC"], ["B-LOC", "O", "B-LOC"]]
TOKENS = [["John", "Smith", "saw", "the", "Paris", "Gazette"], ["Paris", "and", "Paris"]]
RESPONSES = ['[{"text": "john smith", "type": "PER"}, {"text": "Paris", "type": "LOC"}, '
             '{"text": "Atlantis", "type": "LOC"}]',
             "<LOC>Paris</LOC> and Paris"]
# Nested and overlapping entities: Smith inside John Smith, Paris inside Paris Gazette.
NESTED = ['[["John Smith", "PER"], ["Smith", "PER"], ["Paris Gazette", "LOC"], '
          '["Paris", "LOC"], ["Atlantis", "LOC"]]', "<LOC>Paris</LOC> and Paris"]
KEYS = ("gold", "predicted", "correct", "found", "precision", "recall", "f1", "macro_f1",
        "per_type", "options")


def run(capsys, args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, responses, name="llm"):
    (tmp_path / "gold.txt").write_text(GOLD, encoding="utf-8")
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps({"response": r}) + "\n" for r in responses),
                    encoding="utf-8")
    return tmp_path / "gold.txt", path


def cli_json(capsys, args):
    code, out, err = run(capsys, [*args, "--format", "json"])
    assert code == 0, err
    return json.loads(out), err


# -- --matching strings on nerlens score -----------------------------------------------------
# By hand, as strings (unique normalised (text, type) per sentence): gold {john smith PER,
# paris gazette LOC}, {paris LOC}: 3; predicted {john smith, paris, atlantis}, {paris}: 4;
# correct john smith and sentence 1's paris: 2. Partial: paris against paris gazette has a
# word-overlap F1 of 2/3 >= 0.5, so 3 correct and every gold string found.
BY_HAND = {(): (2, 4, 3, 2), ("--word-overlap",): (3, 4, 3, 3)}


@pytest.mark.parametrize("flags", sorted(BY_HAND))
def test_strings_by_hand_and_as_the_api(tmp_path, capsys, flags):
    gold, generated = write(tmp_path, RESPONSES)
    cli, err = cli_json(capsys, ["score", gold, "--generated", generated,
                                 "--matching", "strings", *flags])
    correct, predicted, n_gold, found = BY_HAND[flags]
    precision, recall = correct / predicted, found / n_gold
    assert (cli["correct"], cli["predicted"], cli["gold"], cli["found"]) == \
        (correct, predicted, n_gold, found)
    assert (cli["precision"], cli["recall"]) == (precision, recall)
    assert cli["f1"] == pytest.approx(2 * precision * recall / (precision + recall), abs=1e-15)
    api = nerspan.score(GOLD_TAGS, RESPONSES, tokens=TOKENS, inputs={'matching': "strings", 'word_overlap': bool(flags)}).to_dict()
    assert {k: cli[k] for k in KEYS} == {k: api[k] for k in KEYS}
    assert "note: llm: 4 of 4 entities usable (100%)" in err


def test_strings_universalner_is_the_scripts_formula(tmp_path, capsys):
    gold, generated = write(tmp_path, RESPONSES)
    cli, _ = cli_json(capsys, ["score", gold, "--generated", generated, "--matching",
                               "strings", "--script", "universalner"])
    # the same sets here (lower case, punctuation and articles dropped), the script's 1e-10
    assert (cli["precision"], cli["recall"], cli["f1"]) == script_prf(2, 4, 3)
    api = nerspan.score(GOLD_TAGS, RESPONSES, tokens=TOKENS, inputs={'matching': "strings", 'script': "universalner"}).to_dict()
    assert {k: cli[k] for k in KEYS} == {k: api[k] for k in KEYS}


def test_grounded_is_the_default_and_counts_spans(tmp_path, capsys):
    gold, generated = write(tmp_path, RESPONSES)
    default, _ = cli_json(capsys, ["score", gold, "--generated", generated])
    grounded, _ = cli_json(capsys, ["score", gold, "--generated", generated,
                                    "--matching", "grounded"])
    assert grounded == default
    # by hand, as spans: 4 gold mentions; John Smith, and Paris at both places of sentence
    # 1 correct; Paris in Paris Gazette wrong; Atlantis ungrounded: 3 of 5 correct
    assert (grounded["correct"], grounded["predicted"], grounded["gold"]) == (3, 5, 4)


def test_strings_table_output(tmp_path, capsys):
    gold, generated = write(tmp_path, RESPONSES)
    code, out, err = run(capsys, ["score", gold, "--generated", generated, "--matching",
                                  "strings"])
    assert code == 0, err
    assert out.splitlines()[0] == "scored as strings: 3 gold strings; found: 4 strings; " \
                                  "correct: 2."
    assert "precision:  50.00%; recall:  66.67%" in out


def demo_inputs():
    read = read_generated_jsonl(demo_path("generative_responses.jsonl"))
    corpus = nerspan.read_columns(demo_gold()).subset(read["sentences"])
    return read, [corpus.tags("gold", i) for i in range(corpus.n_sentences)]


@pytest.mark.parametrize("flags", [(), ("--word-overlap",), ("--script", "universalner"),
                                   ("--script", "universalner", "--word-overlap")])
def test_strings_on_the_demo_equal_the_api(capsys, flags):
    read, gold = demo_inputs()
    cli, _ = cli_json(capsys, ["score", demo_gold(), "--generated",
                               demo_path("generative_responses.jsonl"),
                               "--matching", "strings", *flags])
    api = nerspan.score(gold, read["responses"], tokens=read["tokens"],
                        inputs={'matching': "strings", 'word_overlap': "--word-overlap" in flags,
                                'script': "universalner" if "--script" in flags else None}
                        ).to_dict()
    assert {k: cli[k] for k in KEYS} == {k: api[k] for k in KEYS}
    assert cli["repairs"] == api["repairs"]
    assert cli["predicted"] > 0 and cli["gold"] > 0


def test_two_generated_files_as_strings(tmp_path, capsys):
    gold, first = write(tmp_path, RESPONSES, "a")
    _, second = write(tmp_path, NESTED, "b")
    both, _ = cli_json(capsys, ["score", gold, "--generated", first, "--generated", second,
                                "--matching", "strings"])
    assert set(both) == {"a", "b"}
    api = nerspan.score(GOLD_TAGS, NESTED, tokens=TOKENS, inputs={'matching': "strings"}).to_dict()
    assert {k: both["b"][k] for k in KEYS} == {k: api[k] for k in KEYS}


# -- --overlaps keep on nerlens faireval -----------------------------------------------------
# By hand: keep: TP John Smith, Paris Gazette, Paris (sentence 1's two as one entity at
# every occurrence: 2); FP Smith, Paris (inside Paris Gazette), Atlantis. drop: Smith and
# the inner Paris are dropped (the longer span wins), Atlantis stays a FP.
OVERLAPS_BY_HAND = {"keep": {"TP": 4, "FP": 3, "FN": 0}, "drop": {"TP": 4, "FP": 1, "FN": 0}}


@pytest.mark.parametrize("overlaps", sorted(OVERLAPS_BY_HAND))
def test_faireval_overlaps_by_hand_and_as_the_api(tmp_path, capsys, overlaps):
    gold, generated = write(tmp_path, NESTED)
    cli, err = cli_json(capsys, ["faireval", gold, "--generated", generated,
                                 "--overlaps", overlaps])
    assert cli["traditional_counts"] == OVERLAPS_BY_HAND[overlaps]
    api = faireval.score(GOLD_TAGS, NESTED, tokens=TOKENS, inputs={'overlaps': overlaps}).to_dict()
    for key in ("traditional_counts", "counts", "precision", "recall", "f1", "fair_f1",
                "per_type", "error_confusion"):
        assert cli[key] == api[key], key
    assert cli["repairs"]["pred"]["generative"] == api["repairs"]["pred"]["generative"]
    assert "note: llm: " in err


def test_faireval_overlaps_keep_beside_a_prediction_file(tmp_path, capsys):
    gold, generated = write(tmp_path, NESTED)
    (tmp_path / "pred.txt").write_text(GOLD, encoding="utf-8")
    both, _ = cli_json(capsys, ["faireval", gold, tmp_path / "pred.txt", "--generated",
                                generated, "--overlaps", "keep", "--schemas", "semeval",
                                "--pairing", "optimal"])
    assert both["pred"]["traditional_counts"] == {"TP": 4, "FP": 0, "FN": 0}
    api = faireval.score(GOLD_TAGS, NESTED, tokens=TOKENS, inputs={'overlaps': "keep"},
                         schemas="semeval", pairing="optimal").to_dict()
    assert both["llm"]["semeval"] == api["semeval"]
    assert both["llm"]["options"]["pairing"] == "optimal"


def test_faireval_semeval_pairing_reaches_faireval(tmp_path, capsys):
    gold, generated = write(tmp_path, NESTED)
    for pairing in ("greedy", "optimal"):
        cli, _ = cli_json(capsys, ["faireval", gold, "--generated", generated, "--schemas",
                                   "semeval", "--pairing", pairing])
        api = faireval.score(GOLD_TAGS, NESTED, tokens=TOKENS, schemas="semeval",
                             pairing=pairing).to_dict()
        assert cli["semeval"] == api["semeval"] and cli["options"]["pairing"] == pairing


# option of nerspan.score, its value, and the flag of nerlens score: none is read by
# string matching (type processing is: tests/test_generative_strings_types.py)
UNREAD = {"occurrences": ("ordered", ["--occurrences", "ordered"]),
          "fuzzy": (0.9, ["--fuzzy", "0.9"]), "confusion": (True, ["--confusion"])}


@pytest.mark.parametrize("name", sorted(UNREAD))
def test_what_strings_do_not_read_is_refused_by_the_api_and_the_cli(tmp_path, capsys, name):
    value, flags = UNREAD[name]
    strings = {"matching": "strings"}
    if name == "confusion":   # 0.2: the evaluation's matrix, of spans only
        with pytest.raises(nerspan.InputTypeError,
                           match=r'^matching="strings" compares sets of strings'):
            nerspan.Evaluation.build(GOLD_TAGS, RESPONSES, tokens=TOKENS,
                                     inputs=strings).confusion(nerspan.PRED)
    else:
        with pytest.raises(ValueError, match=rf"^{name} \({flags[0]}\) is not read by "
                                             r'matching="strings" \(--matching strings\)'):
            nerspan.score(GOLD_TAGS, RESPONSES, tokens=TOKENS, inputs={**strings, name: value})
    gold, generated = write(tmp_path, RESPONSES)
    code, out, err = run(capsys, ["score", gold, "--generated", generated, "--matching",
                                  "strings", *flags])
    assert code == 2 and out == ""
    assert "not spans" in err and flags[0] in err   # the API's words, naming the flag


def test_beta_with_strings_is_the_results_view_in_the_api_and_the_cli(tmp_path, capsys):
    # 0.2: F-beta is a view of any result (to_dict(beta=)), string matching's too
    expected = nerspan.score(GOLD_TAGS, RESPONSES, tokens=TOKENS,
                             inputs={"matching": "strings"}).to_dict(beta=2.0)
    gold, generated = write(tmp_path, RESPONSES)
    code, out, _ = run(capsys, ["score", gold, "--generated", generated, "--matching",
                                "strings", "--beta", "2", "--format", "json"])
    assert code == 0 and "f2" in expected
    assert json.loads(out)["f2"] == expected["f2"]
    code, out, _ = run(capsys, ["score", gold, "--generated", generated, "--matching",
                                "strings", "--beta", "2"])
    assert code == 0 and f"F2: {100 * expected['f2']:6.2f}" in out


# -- type processing reaches every generated entity ------------------------------------------
# By hand, --keep-types PER: gold John Smith alone; predictions John Smith and, kept or not
# by overlaps, Smith inside it; Atlantis, a location found nowhere, is dropped with the
# other locations (left as it was, it was a false positive of a type no longer scored).
KEEP_PER = {"keep": {"TP": 1, "FP": 1, "FN": 0}, "drop": {"TP": 1, "FP": 0, "FN": 0}}


@pytest.mark.parametrize("overlaps", sorted(KEEP_PER))
def test_keep_types_drops_ungrounded_entities_of_other_types(tmp_path, capsys, overlaps):
    gold, generated = write(tmp_path, NESTED)
    cli, _ = cli_json(capsys, ["faireval", gold, "--generated", generated, "--overlaps",
                               overlaps, "--keep-types", "PER"])
    api = faireval.score(GOLD_TAGS, NESTED, tokens=TOKENS, inputs={'overlaps': overlaps, 'keep_types': ["PER"]}).to_dict()
    assert cli["traditional_counts"] == api["traditional_counts"] == KEEP_PER[overlaps]
    assert list(cli["per_type"]) == ["PER"]
    # removed by hand: Paris Gazette, Paris (and the inner Paris when kept), Atlantis
    assert api["repairs"]["pred"]["types_removed"] == {"keep": 5, "drop": 4}[overlaps]


def test_entity_scores_process_the_ungrounded_entities_too(tmp_path, capsys):
    gold, generated = write(tmp_path, RESPONSES)
    cli, _ = cli_json(capsys, ["score", gold, "--generated", generated, "--keep-types", "PER"])
    api = nerspan.score(GOLD_TAGS, RESPONSES, tokens=TOKENS, inputs={'keep_types': ["PER"]}).to_dict()
    # by hand: john smith found, its one gold mention; no location left, Atlantis included
    assert (cli["correct"], cli["predicted"], cli["gold"]) == (1, 1, 1)
    assert {k: cli[k] for k in ("precision", "recall", "f1", "per_type")} == \
        {k: api[k] for k in ("precision", "recall", "f1", "per_type")}
    mapped = nerspan.score(GOLD_TAGS, RESPONSES, tokens=TOKENS,
                           inputs={'type_map': {"LOC": "GPE"}}).to_dict()
    assert mapped["repairs"]["pred"]["generative"]["ungrounded_by_type"] == {"GPE": 1}
    assert mapped["per_type"]["GPE"]["predicted"] == 4   # Paris twice, Paris, Atlantis
