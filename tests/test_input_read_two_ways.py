"""Input that reads two ways is never read one way in silence (issue 37): a file of
tokens, gold and predicted tags given as gold beside its predictions; character offsets
over a text read as token offsets; keys of generated output that nothing reads; one-word
responses; span systems in a report; the sentence numbers of generated output that
answers some of gold's sentences. Each through the API, the evaluate modules where they
read it, the commands and the report."""
from __future__ import annotations

import json
import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attribute_buckets
import faireval
import hardeval
import nerlens
import nerspan
import tough_mentions
from nerlens.cli import main
from nerspan.reading.systems import answers_located, read_systems
from nerspan import AmbiguousInputError, NerspanError, read_columns
from nerspan.counts import count, error_counts, summarize
from nerspan.encodings import convert, repair
from nerspan.generative import read_response
from nerspan.reading.columns import other_tag_columns
from nerspan.validation import validate

from .conftest import DATA, REPO

TOKENS = [["John", "Smith", "saw", "Paris"], ["Ada", "wrote"]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "O"]]
PRED = [["B-PER", "I-PER", "O", "B-ORG"], ["O", "O"]]
# By hand: 3 gold mentions, 2 predicted, John Smith right: P 1/2, R 1/3, F1 0.4.
P, R, F1 = 1 / 2, 1 / 3, 0.4
TRAIN = "John B-PER\nsaw O\n\nParis B-LOC\n"
COMMANDS = ("score", "tough-mentions", "hardeval", "faireval", "buckets", "report")
WITH_TRAIN = ("tough-mentions", "hardeval", "buckets", "report")
SCORES = {"nerspan": nerspan, "tough_mentions": tough_mentions, "hardeval": hardeval,
          "faireval": faireval, "attribute_buckets": attribute_buckets}
NEEDS_TRAIN = dict(train=([["John", "saw"], ["Paris"]], [["B-PER", "O"], ["B-LOC"]]))


def rows(*columns) -> str:
    """A column file: per sentence, one row per token of the ``columns`` (lists of lists
    per sentence), a blank line after each sentence."""
    return "".join("".join(" ".join(row) + "\n" for row in zip(*sentence)) + "\n"
                   for sentence in zip(*columns))


@pytest.fixture
def files(tmp_path):
    paths = {"system": rows(TOKENS, GOLD, PRED), "pred": rows(TOKENS, PRED),
             "gold": rows(TOKENS, GOLD), "train": TRAIN}
    for name, text in paths.items():
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    return {name: tmp_path / f"{name}.txt" for name in paths} | {"tmp": tmp_path}


def run(capsys, argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def command_argv(command, files, gold, *rest) -> list:
    """``command GOLD REST...`` with what the command needs beside (training data, an
    output folder)."""
    extra = ["--train", files["train"]] if command in WITH_TRAIN else []
    if command == "report":
        extra += ["--bootstrap", "0", "--no-progress", "--output", files["tmp"] / "out"]
    return [command, *extra, gold, *rest]


def headline_f1(command, code, out, files) -> float:
    """The entity F1 (faireval: traditional F1; hardeval: its own headline) a command
    printed as JSON (the report: in report.json)."""
    assert code == 0
    if command == "report":
        data = json.loads((files["tmp"] / "out" / "report.json").read_text(encoding="utf-8"))
        return next(iter(data["estimates"].values()))["entity_f1"]
    result = json.loads(out)
    return result["traditional_f1"] if command == "faireval" else result.get("f1",
                                                                              result.get("ter"))


# -- 1. a file of tokens, gold and predicted tags given as gold ------------------------------
AMBIGUOUS_GOLD = r"column 1 holds tags of the same entity types \(PER\)"


def test_a_token_gold_prediction_file_is_refused_as_gold_by_every_api_reader(files):
    system, pred = files["system"], files["pred"]
    for read in (lambda: read_columns(system), lambda: read_systems(system, [pred]),
                 lambda: nerspan.as_train_index(system),
                 lambda: error_counts(system, pred),
                 lambda: nerlens.build_report(system, {"s": pred}, bootstrap=0, figures=False,
                                        families=["faireval"]),
                 lambda: nerlens.run_experiment({"d": {"gold": system, "systems": {"s": pred}}},
                                            bootstrap=0, figures=False,
                                            families=["faireval"])):
        with pytest.raises(AmbiguousInputError, match=AMBIGUOUS_GOLD + r".*gold_tag_column=1"):
            read()


def test_the_gold_column_given_reads_it_in_every_api_reader(files):
    system, pred = files["system"], files["pred"]
    assert read_columns(system, {"gold": 1}).tags("gold", 0) == GOLD[0]
    corpus, names = read_systems(system, [pred], inputs={'gold_tag_column': 1})
    assert nerspan.score(corpus.paired("gold", names[0])).micro() == pytest.approx((P, R, F1))
    report = nerlens.build_report(system, {"s": pred}, inputs={"gold_tag_column": 1},
                                  bootstrap=0, figures=False, families=["faireval"])
    assert report.estimates["s"]["entity_f1"] == pytest.approx(F1)
    experiment = nerlens.run_experiment(
        {"d": {"gold": system, "systems": {"s": pred}, "gold_tag_column": 1}}, bootstrap=0,
        figures=False, families=["faireval"])
    assert experiment.reports["d"].estimates["s"]["entity_f1"] == pytest.approx(F1)
    # -1 says "the last" out loud: the predictions, then, as the user asked
    corpus, names = read_systems(system, [pred], inputs={'gold_tag_column': -1})
    assert nerspan.score(corpus.paired("gold", names[0])).micro() == (1.0, 1.0, 1.0)


def test_the_old_name_of_read_golds_column_names_the_new_one(files):
    from nerspan.reading.systems import read_gold

    # deprecated in 0.1 (a warning), an error naming the new spelling in 0.2
    with pytest.raises(TypeError, match=r"read_gold\(\) takes no tag_column since nerlens "
                                        r"0\.2: inputs=\{'gold_tag_column': 1\}"):
        read_gold(files["system"], tag_column=1)
    assert read_gold(files["system"], inputs={"gold_tag_column": 1}).tags("gold", 1) == GOLD[1]


def test_conll2003s_layout_reads_its_ner_column_without_a_column_given(tmp_path):
    """token POS chunk NER: the chunk column holds tags too, of types no NER type is."""
    path = tmp_path / "conll.txt"
    pos = [["NNP", "NNP", "VBD", "NNP"], ["NNP", "VBD"]]
    chunk = [["B-NP", "I-NP", "B-VP", "B-NP"], ["B-NP", "B-VP"]]
    path.write_text("-DOCSTART- -X- -X- O\n\n" + rows(TOKENS, pos, chunk, GOLD))
    corpus = read_columns(path)
    assert corpus.labels == read_columns(path, {"gold": -1}).labels
    assert [corpus.tags("gold", i) for i in range(2)] == GOLD
    assert other_tag_columns(path) == {}


def test_the_real_conll2003_test_set_reads_as_before():
    path = DATA / "conll03" / "test.txt"
    if not path.exists():
        pytest.skip("shared data not available")
    plain = read_columns(path)
    named = read_columns(path, {"gold": -1})
    assert plain.labels == named.labels and (plain.column("gold") == named.column("gold")).all()


def test_germevals_two_columns_of_the_same_types_are_refused_unless_chosen(tmp_path):
    path = tmp_path / "germeval.tsv"
    path.write_text("#\thttp://x\n1\tSchartau\tB-PER\tO\n2\tsagte\tO\tO\n\n#\thttp://y\n"
                    "1\tUni\tB-ORG\tO\n2\tBonn\tI-ORG\tB-LOC\n3\tund\tO\tO\n4\tKöln\tB-LOC\tO\n",
                    encoding="utf-8")
    options = dict(token_column=1, comment_prefix="#")
    with pytest.raises(AmbiguousInputError, match=r"column 2 holds tags of the same entity "
                                                  r"types \(LOC\)"):
        read_columns(path, **options)
    assert read_columns(path, {"gold": 2}, **options).tags("gold", 1) == \
        ["B-ORG", "I-ORG", "O", "B-LOC"]
    assert other_tag_columns(path, **options) == {2: ["LOC"]}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "B-NP", "I-VP"]),
                         min_size=1, max_size=6), min_size=1, max_size=4),
       st.lists(st.lists(st.sampled_from(["O", "B-PER", "I-LOC", "B-ORG", "B-NP"]),
                         min_size=1, max_size=6), min_size=1, max_size=4))
def test_gold_is_the_last_column_exactly_when_no_other_shares_its_types(tmp_path_factory,
                                                                       first, last):
    """A column of tags beside the last is refused exactly when the two share an entity
    type; otherwise the file reads as with the last column named."""
    n = min(len(first), len(last))
    first = [s[:min(len(s), len(t))] for s, t in zip(first[:n], last[:n])]
    last = [t[:len(s)] for s, t in zip(first, last[:n])]
    words = [["w"] * len(s) for s in first]
    path = tmp_path_factory.mktemp("two") / "f.txt"
    path.write_text(rows(words, first, last))
    types = lambda tags: {t.partition("-")[2] for s in tags for t in s if t != "O"}  # noqa: E731
    if types(first) & types(last):
        with pytest.raises(AmbiguousInputError, match=r"column 1 holds tags"):
            read_columns(path)
    else:
        corpus = read_columns(path)
        assert [corpus.tags("gold", i) for i in range(n)] == last


# -- 7. validate names its column, and the other --------------------------------------------
def test_validate_names_the_column_it_validated_and_the_other_one(capsys, files):
    code, out, _ = run(capsys, ["validate", files["system"]])
    assert code == 0
    assert re.search(r"system.txt: valid IOB2 .*\n\S*system.txt: validated the last column; "
                     r"column 1 holds tags of the same types too \(PER\): tag_column=1 "
                     r"\(--tag-column 1\) validates it", out)
    code, out, _ = run(capsys, ["validate", files["system"], "--tag-column", "1"])
    assert code == 0 and "validated" not in out       # the hint's command: column 1 alone
    code, out, _ = run(capsys, ["validate", files["system"], "--format", "json"])
    result = json.loads(out)
    assert (result["tag_column"], result["other_tag_columns"]) == (-1, {"1": ["PER"]})
    assert validate(files["system"]).other_tag_columns == {1: ["PER"]}
    assert validate(files["system"], tag_column=1).other_tag_columns == {}
    assert validate(files["gold"]).column_note() is None


# -- 7b. count, summarize, convert and repair name the column they read, and the other -----
COLUMN_READ = (r"system.txt: read the last column; column 1 holds tags of the same types too "
               r"\(PER\): tag_column=1 \(--tag-column 1\) reads it")
FILE_TOOLS = {"count": lambda path, **o: count(path, **o),
              "summarize": lambda path, **o: summarize(path, **o),
              "convert": lambda path, **o: convert(path, "IOB2", "IOBES", **o),
              "repair": lambda path, **o: repair(path, "IOB2", **o)}


@pytest.mark.parametrize("tool", sorted(FILE_TOOLS))
def test_the_file_tools_name_the_column_they_read_and_the_other_one(capsys, files, tool):
    """A token-gold-prediction file: the file tools read the last column (the
    predictions) as validate does, and say so (a warning through the API, one warning
    line in the CLI, exit 0); --tag-column 1 reads gold's, without a word."""
    with pytest.warns(nerspan.TagColumnWarning, match=COLUMN_READ):
        last = FILE_TOOLS[tool](files["system"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chosen = FILE_TOOLS[tool](files["system"], tag_column=1)
        alone = FILE_TOOLS[tool](files["gold"])   # the gold column in a file of its own
    if tool in ("convert", "repair"):
        chosen, alone = chosen.tags(), alone.tags()
    assert chosen == alone
    if tool == "count":   # the last column holds PRED's mentions; column 1 GOLD's
        assert {r["text"]: r["type"] for r in last} == {"John Smith": "PER", "Paris": "ORG"}
        assert {r["text"]: r["type"] for r in chosen} == {"John Smith": "PER",
                                                          "Paris": "LOC", "Ada": "PER"}
    out_file = files["tmp"] / "out.txt"
    argv = [tool, files["system"]] + ([out_file] if tool in ("convert", "repair") else []) \
        + (["--to", "IOBES"] if tool == "convert" else [])
    code, out, err = run(capsys, argv)
    assert code == 0 and re.fullmatch(r"nerlens: warning: \S*" + COLUMN_READ + r"\n"
                                      r"(wrote .*\n)?", err), err
    code, out, err = run(capsys, argv + ["--tag-column", "1"])
    assert code == 0 and "warning" not in err
    if tool == "count":
        assert "LOC\tParis" in out and "ORG" not in out


# -- 2. character offsets over a text --------------------------------------------------------
TEXTS = [" ".join(words) for words in TOKENS]
# GOLD's mentions as characters of TEXTS ({"label", "start", "end"}: spaCy's, GLiNER's)
GOLD_CHARS = [[{"label": "PER", "start": 0, "end": 10}, {"label": "LOC", "start": 15,
                                                          "end": 20}],
              [{"label": "PER", "start": 0, "end": 3}]]
# "John" as characters, the first sentence's 4 words as token offsets: read both ways
FITS_BOTH = [[{"label": "PER", "start": 0, "end": 4}], []]
PIPELINE = [[{"entity_group": "PER", "start": 0, "end": 10, "word": "John Smith",
              "score": 0.9}, {"entity_group": "LOC", "start": 15, "end": 20, "word": "Paris",
                              "score": 0.9}],
            [{"entity_group": "PER", "start": 0, "end": 3, "word": "Ada", "score": 0.9}]]


def scored(family: str, references, predictions, tokens=None, **inputs):
    extra = NEEDS_TRAIN if family in ("tough_mentions", "hardeval", "attribute_buckets") else {}
    return SCORES[family].score(references, predictions, tokens=tokens, inputs=inputs,
                                **extra).to_dict()


def without_repairs(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "repairs"}


@pytest.mark.parametrize("family", SCORES)
def test_character_offsets_that_fit_as_tokens_are_refused_unless_offsets_says(family):
    with pytest.raises(AmbiguousInputError, match=r"references, sentence 0: span \(0, 4, 'PER'\) "
                                                  r"reads as the words 'John Smith saw Paris' or "
                                                  r"as the characters 'John' .*offsets='chars'"):
        scored(family, FITS_BOTH, GOLD, texts=TEXTS)
    for offsets, tags in (("chars", [["B-PER", "O", "O", "O"], ["O", "O"]]),
                          ("tokens", [["B-PER", "I-PER", "I-PER", "I-PER"], ["O", "O"]])):
        assert without_repairs(scored(family, FITS_BOTH, GOLD, texts=TEXTS, offsets=offsets)) \
            == without_repairs(scored(family, tags, GOLD, tokens=TOKENS)), offsets


@pytest.mark.parametrize("family", SCORES)
def test_character_offsets_score_as_the_tags_they_mark(family):
    by_tags = scored(family, GOLD, PRED, tokens=TOKENS)
    assert without_repairs(scored(family, GOLD_CHARS, PRED, texts=TEXTS,
                                  offsets="chars")) == without_repairs(by_tags)
    # without offsets: "Paris" at characters 15..20 is past the first sentence's 4 words
    assert without_repairs(scored(family, GOLD_CHARS, PRED, texts=TEXTS)) \
        == without_repairs(by_tags)
    assert scored(family, GOLD_CHARS, PIPELINE, texts=TEXTS)["repairs"] == \
        scored(family, GOLD, GOLD, tokens=TOKENS)["repairs"]


def test_token_offsets_that_cut_a_word_as_characters_read_as_tokens():
    spans = [[(0, 2, "PER"), (3, 4, "LOC")], [(0, 1, "PER")]]
    assert nerspan.score(spans, PRED, inputs={'texts': TEXTS}).micro() == pytest.approx((P, R, F1))


def test_characters_off_word_boundaries_say_why_they_are_characters_and_snap_works():
    spans = [[{"label": "PER", "start": 0, "end": 10}, {"label": "LOC", "start": 15,
                                                         "end": 19}], []]
    with pytest.raises(NerspanError, match=r"span 'LOC' at characters 15\.\.19 \('Pari'\) does "
                                           r"not fall on token boundaries; snap=True \(--snap\) "
                                           r"widens it .*\(read as characters of the text: as "
                                           r"token offsets, span \(0, 10, 'PER'\) of sentence 0 "
                                           r"reaches past its 4 words; offsets='tokens'"):
        nerspan.score(spans, PRED, inputs={'texts': TEXTS})
    result = nerspan.score(spans, PRED, inputs={'texts': TEXTS, 'snap': True}).to_dict()
    assert result["repairs"]["gold"]["snapped"] == 1


def test_an_unknown_offsets_value_is_refused():
    with pytest.raises(ValueError,
                       match=r"offsets must be one of None, 'tokens', 'chars', not 'char'"):
        nerspan.score(GOLD, PRED, inputs={'offsets': "char"})


def test_the_evaluate_module_reads_offsets():
    import evaluate

    metric = evaluate.load(str(REPO / "metrics" / "faireval"))
    given = dict(references=GOLD_CHARS, predictions=PIPELINE, texts=TEXTS)
    assert metric.compute(**given, offsets="chars")["traditional_f1"] == 1.0
    with pytest.raises(AmbiguousInputError, match="offsets='chars'"):
        metric.compute(references=FITS_BOTH, predictions=[[], []], texts=TEXTS)


def jsonl(path, lines) -> str:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", COMMANDS)
def test_character_offset_span_files_through_every_command(tmp_path, capsys, files, command):
    gold = jsonl(tmp_path / "chars.jsonl", [{"text": TEXTS[0], "spans": FITS_BOTH[0]},
                                            {"text": TEXTS[1], "spans": []}])
    john = {"entity_group": "PER", "start": 0, "end": 4, "word": "John", "score": 0.9}
    pred = jsonl(tmp_path / "pipeline.jsonl", [{"spans": [john]}, {"spans": []}])
    code, out, err = run(capsys, command_argv(command, files, gold, pred, "--jsonl"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert re.search(r"chars.jsonl:1, references, sentence 0: span \(0, 4, 'PER'\) reads as the "
                     r"words .* \(--offsets chars; .*\) or offsets='tokens' \(--offsets "
                     r"tokens\)$", err.strip())
    code, out, err = run(capsys, command_argv(command, files, gold, pred, "--jsonl", "--offsets",
                                              "chars", "--format", "json"))
    if command != "hardeval":   # hardeval's headline is a token error rate
        assert headline_f1(command, code, out, files) == 1.0, err


@pytest.mark.parametrize("flags", [["--offsets", "chars"], ["--snap", "--inclusive-end"]])
def test_span_flags_given_for_other_files_are_refused_not_ignored(capsys, files, flags):
    code, out, err = run(capsys, ["score", files["gold"], files["pred"], *flags])
    assert (code, out) == (2, "") and re.search(
        r"error: \w+ \(--\S+\)(, \w+ \(--\S+\))? reads? JSON Lines span files: add "
        r"jsonl=True \(--jsonl\)", err)
    # the reader refuses them, for the API as for the command line
    options = {"offsets": "chars"} if "--offsets" in flags else {"snap": True,
                                                                   "inclusive_end": True}
    with pytest.raises(NerspanError, match="reads? JSON Lines span files"):
        read_systems(str(files["gold"]), [str(files["pred"])], inputs=options)


def test_read_systems_takes_offsets(tmp_path):
    gold = jsonl(tmp_path / "g.jsonl", [{"text": t, "spans": s} for t, s in
                                        zip(TEXTS, GOLD_CHARS)])
    pred = jsonl(tmp_path / "p.jsonl", [{"spans": s} for s in PIPELINE])
    corpus, names = read_systems(gold, [pred], inputs={'jsonl': True, 'offsets': "chars"})
    assert corpus.tags("gold", 0) == GOLD[0] and nerspan.score(
        corpus.paired("gold", names[0])).micro() == (1.0, 1.0, 1.0)


# -- 3. keys of generated output -------------------------------------------------------------
TXT = '[{"txt": "John Smith", "type": "PER"}, {"text": "Paris", "type": "LOC"}]'


@pytest.mark.parametrize("family", SCORES)
def test_an_entity_with_a_misspelt_key_is_rejected_by_name_never_typed(family):
    result = scored(family, GOLD, [TXT, "[]"], tokens=TOKENS)
    record = result["repairs"]["pred"]["generative"]
    assert (record["rejected"], record["unknown_types"], record["usable"]) == (1, 0, 1)
    assert record["listed"]["rejected"][0]["reason"].startswith(
        "unknown key 'txt' (did you mean 'text'?): an entity has text/mention/span/entity")
    assert without_repairs(result) == without_repairs(scored(
        family, GOLD, ['[{"text": "Paris", "type": "LOC"}]', "[]"], tokens=TOKENS))


def test_the_report_lists_an_entity_rejected_for_its_key_with_the_key():
    report = nerlens.build_report(GOLD, {"llm": [TXT, "[]"]}, tokens=TOKENS, bootstrap=0,
                            figures=False, families=["faireval"])
    [row] = report.examples["llm"]["rejected"]
    assert (row["sentence"], row["type"]) == (0, "PER")
    assert row["reason"].startswith("unknown key 'txt' (did you mean 'text'?)")
    assert "unknown key &#x27;txt&#x27;" in report.to_html()


@pytest.mark.parametrize("value, reason", [
    ([{"text": "Paris", "typ": "LOC"}], "unknown key 'typ' (did you mean 'type'?)"),
    ([{"text": "Paris", "type": "LOC", "reason": "a city"}], "unknown key 'reason': "),
    ({"txt": "Paris", "tpe": "LOC"}, "key 'txt' (did you mean 'text'?) is no type: neither an "
                                     "entity nor a dict from type to texts"),
])
def test_a_dict_of_misspelt_keys_is_rejected_naming_the_key(value, reason):
    found, failure, rejected = read_response(value)
    assert (found, failure, len(rejected)) == ([], None, 1) and reason in rejected[0][2]


def test_what_is_an_entity_and_what_a_dict_from_type_to_texts():
    assert read_response([{"text": "Paris", "label": "LOC", "score": 0.9, "start": 3,
                           "end": 8}])[0] == [("Paris", "LOC")]
    assert read_response({"entities": [{"mention": "Paris", "entity_type": "LOC"}]})[0] == \
        [("Paris", "LOC")]
    # a gold type near an entity key is a type (TEST is 0.75 alike "text")
    assert nerspan.generative.read_generated([{"TEST": "x-ray"}], types={"TEST"}).entities == \
        [[("x-ray", "TEST")]]
    assert read_response({"PER": "Ada", "PLANT": "oak"})[0] == [("Ada", "PER"), ("oak", "PLANT")]


def test_universalner_queries_are_no_entity_with_a_misspelt_key():
    tokens = [["Paris", "is", "big"]]
    result = nerspan.score([["B-LOC", "O", "O"]], [{"txt": "Paris", "type": "LOC"}],
                           tokens=tokens, inputs={'matching': "strings", 'script': "universalner"}).to_dict()
    assert result["repairs"]["pred"]["generative"]["unknown_types"] == 0


def test_the_evaluate_module_rejects_a_misspelt_key():
    import evaluate

    metric = evaluate.load(str(REPO / "metrics" / "faireval"))
    result = metric.compute(predictions=[TXT, "[]"], references=GOLD, tokens=TOKENS)
    assert result["repairs"]["pred"]["generative"]["rejected"] == 1


# -- 4. one-word responses -------------------------------------------------------------------
@pytest.mark.parametrize("family", SCORES)
def test_responses_of_one_word_are_responses_without_entities(family):
    result = scored(family, GOLD, ["None", ""], tokens=TOKENS)
    record = result["repairs"]["pred"]["generative"]
    assert (record["responses"], record["parse_failures"], record["entities"]) == (2, 2, 0)
    assert without_repairs(result) == without_repairs(scored(family, GOLD, ["[]", "[]"],
                                                             tokens=TOKENS))


def test_the_evaluate_module_reads_one_word_responses():
    import evaluate

    metric = evaluate.load(str(REPO / "metrics" / "hardeval"), tokens=TOKENS, **NEEDS_TRAIN)
    result = metric.compute(predictions=["N/A", "None"], references=GOLD)
    assert result["repairs"]["pred"]["generative"]["parse_failures"] == 2


def test_tags_given_flat_are_still_named_as_tags():
    with pytest.raises(nerspan.InputTypeError, match="the sentence is a string"):
        nerspan.score([["B-PER", "O"]], ["B-PER", "O"], tokens=[["Ada", "x"]])


# -- 5. span systems in a report -------------------------------------------------------------
def test_a_report_reads_a_span_system_with_the_reports_words():
    spans = [[(0, 2, "PER"), (3, 4, "ORG")], []]      # no span reaches sentence 1's end
    options = dict(tokens=TOKENS, bootstrap=0, figures=False, families=["faireval"])
    by_spans = nerlens.build_report(GOLD, {"s": spans}, **options)
    assert by_spans.estimates == nerlens.build_report(GOLD, {"s": PRED}, **options).estimates
    corpus, names = read_systems(GOLD, {"s": spans}, inputs={'tokens': TOKENS})
    assert corpus.tags("s", 1) == PRED[1]
    generated = nerlens.build_report(GOLD, {"llm": ['[["John Smith", "PER"], ["Paris", "ORG"]]',
                                              "[]"]}, **options)
    assert generated.estimates["llm"]["entity_f1"] == pytest.approx(F1)


# -- 6. sentence numbers of generated output -------------------------------------------------
FIVE = [["Ada"], ["Bob"], ["Cy"], ["Paris", "is", "big"], ["Rome"]]
FIVE_TAGS = [["B-PER"], ["B-PER"], ["B-PER"], ["B-LOC", "O", "O"], ["B-LOC"]]
ANSWERS = [{"sentence": 3, "response": '[["Paris", "LOC"], ["Atlantis", "LOC"]]'},
           {"sentence": 4, "response": "I cannot say."}]


def example_numbers(data: dict) -> set:
    return {row["sentence"] for kinds in data["examples"]["systems"].values()
            for rows in kinds.values() for row in rows}


def test_report_examples_name_gold_sentences_not_their_place_among_the_answered(tmp_path,
                                                                                capsys, files):
    gold = tmp_path / "five.txt"
    gold.write_text(rows(FIVE, FIVE_TAGS))
    answers = jsonl(tmp_path / "llm.jsonl", ANSWERS)
    code, _, err = run(capsys, ["report", gold, "--generated", answers, "--train",
                                files["train"], "--bootstrap", "0", "--no-progress",
                                "--output", tmp_path / "out"])
    assert code == 0, err
    data = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert example_numbers(data) == {3, 4}
    assert data["examples"]["sentences"] == {"3": FIVE[3], "4": FIVE[4]}
    corpus, names = read_systems(gold, generated=[answers])
    report = nerlens.build_report(corpus=corpus, system_names=names, bootstrap=0, figures=False,
                            families=["faireval"])
    assert example_numbers(report.to_dict()) == {3, 4}
    assert "sentence 3:" in report.to_html() and "sentence 0:" not in report.to_html()


def repairs_numbers(found) -> set:
    """Every sentence named in a ``repairs`` side holding a generated record
    (``pred["generative"]``), anywhere in a result: its ``sentences``, the record's and
    each listing's."""
    out = set()
    if isinstance(found, dict):
        if isinstance(found.get("generative"), dict):
            record = found["generative"]
            out |= set(found["sentences"]) | set(record["sentences"])
            out |= {item["sentence"] for items in record["listed"].values() for item in items}
        for value in found.values():
            out |= repairs_numbers(value)
    elif isinstance(found, list):
        for value in found:
            out |= repairs_numbers(value)
    return out


@pytest.mark.parametrize("command", COMMANDS)
def test_generated_repairs_name_gold_sentences_in_every_entry_point(tmp_path, capsys, files,
                                                                    command):
    """The listings under repairs["pred"]["generative"] (and the sentences beside them)
    numbered each sentence by its place among the answered ones (0, 1) while errors and
    examples said gold's (3, 4): now gold's everywhere (the API's families on the corpus
    read_systems reads, every command's JSON, the report's results)."""
    gold = tmp_path / "five.txt"
    gold.write_text(rows(FIVE, FIVE_TAGS))
    answers = jsonl(tmp_path / "llm.jsonl", ANSWERS)
    argv = command_argv(command, files, gold, "--generated", answers)
    code, out, err = run(capsys, argv + ([] if command == "report" else ["--format", "json"]))
    assert code == 0, err
    data = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8")
                      if command == "report" else out)
    assert repairs_numbers(data.get("results", data)) == {3, 4}
    corpus, names = read_systems(gold, generated=[answers])
    context = nerspan.Evaluation(corpus, "IOB2", "lenient",
                                 nerspan.as_train_index(NEEDS_TRAIN["train"]))
    for family, module in SCORES.items():
        result = (nerspan.score(corpus.paired("gold", names[0])) if module is nerspan else
                  module.score(context, names[0])).to_dict()
        assert repairs_numbers(result) == {3, 4}, family
        listed = result["repairs"]["pred"]["generative"]["listed"]
        assert [(i["sentence"], i["text"]) for i in listed["ungrounded"]] == [(3, "Atlantis")]
        assert [i["sentence"] for i in listed["parse_failures"]] == [4]


def test_an_error_about_an_answered_sentence_names_gold_and_the_line(tmp_path):
    gold = tmp_path / "five.txt"
    gold.write_text(rows(FIVE, FIVE_TAGS))
    corpus, names = read_systems(gold, generated=[jsonl(tmp_path / "llm.jsonl", ANSWERS)])
    read = {"path": "llm.jsonl", "lines": [1, 2]}
    with pytest.raises(NerspanError, match=r"^llm.jsonl:2, generated 'llm', sentence 4: bad$"):
        with answers_located("generated 'llm'", corpus, read):
            raise NerspanError("bad", sentence=1)
    with pytest.raises(NerspanError, match=r"^generated 'llm': no sentence$"):
        with answers_located("generated 'llm'", corpus, read):
            raise NerspanError("no sentence")


# -- 8. faireval names the label of a span past the end --------------------------------------
def test_faireval_names_the_label_of_a_span_past_the_sentence_end():
    with pytest.raises(NerspanError, match=r"^predictions, sentence 0: span \(0, 5, 'LOC'\) "
                                           r"reaches past the end of the sentence \(2 tokens\)"):
        faireval.score([[(0, 1, "PER")]], [[(0, 5, "LOC")]], tokens=[["Ada", "x"]])


# -- the three together, through every command -----------------------------------------------
@pytest.mark.parametrize("command", COMMANDS + ("validate",))
def test_no_command_scores_input_that_reads_two_ways_in_silence(tmp_path, capsys, files,
                                                                command):
    """A token-gold-prediction file as GOLD beside PRED, character-offset span files and
    generated output with a misspelt key: every command refuses each (validate names the
    other column), and the command each error hints at gives the right numbers."""
    if command == "validate":
        code, out, _ = run(capsys, ["validate", files["system"]])
        assert code == 0 and "column 1 holds tags of the same types too" in out
        return
    code, out, err = run(capsys, command_argv(command, files, files["system"], files["pred"]))
    assert (code, out) == (2, "") and "--gold-tag-column 1" in err
    hinted = command_argv(command, files, files["system"], files["pred"],
                          "--gold-tag-column", "1", "--format", "json")
    code, out, err = run(capsys, hinted)
    alone = command_argv(command, files, files["gold"], files["pred"], "--format", "json")
    if command == "report":
        first = headline_f1(command, code, out, files)
        assert first == pytest.approx(F1)
    else:
        assert code == 0, err
        assert json.loads(out) == json.loads(run(capsys, alone)[1])
    gold = jsonl(tmp_path / "chars.jsonl", [{"text": TEXTS[0], "spans": FITS_BOTH[0]},
                                            {"text": TEXTS[1], "spans": []}])
    code, out, err = run(capsys, command_argv(command, files, gold, gold, "--jsonl"))
    assert (code, out) == (2, "") and "--offsets chars" in err
    misspelt = jsonl(tmp_path / "llm.jsonl", [{"sentense": 1, "response": "[]"},
                                              {"sentense": 0, "response": "[]"}])
    code, out, err = run(capsys, command_argv(command, files, files["gold"], "--generated",
                                              misspelt))
    assert (code, out) == (2, "")
    assert re.search(r"llm.jsonl:1: unknown key 'sentense' \(did you mean 'sentence'\?\)", err)
