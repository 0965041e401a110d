"""Type processing in string matching (``matching="strings"``, METHODS §5 and §6):
``type_map``, ``keep_types`` and ``remove_types`` mean what they mean in the grounded
route, on gold's mention texts and the predicted strings alike (predicted types first
matched to the gold types or the names the options give, then processed), counted in
``repairs``; the same numbers from ``nerspan.score``, ``score_strings`` and ``nerlens
score --matching strings``. Numbers by hand; the invariant (gold's own strings score
perfectly, whatever the processing) by hypothesis. Both ways match written types alike
(a map's key in any case is matched by the map, never unknown): in the API, the faireval
module, ``nerlens score`` and ``nerlens report``, and by hypothesis."""
from __future__ import annotations

import json
import re

import evaluate
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import faireval
import nerspan
import tough_mentions
from nerlens.cli import main
from nerspan.reading.systems import read_systems
from nerspan.generative import score_strings
from nerspan.generative.repairs import TYPE_MATCHES
from nerspan.generative.universalner import script_prf
from nerspan.type_processing import TypeNotFoundError

from .conftest import REPO

# -- UniversalNER-style queries by type name, mapped to gold's types --------------------------
TOKENS = [["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London"],
          ["The", "ICC", "sits", "in", "The", "Hague"]]
GOLD = [[(0, 2, "PER"), (3, 5, "PER"), (6, 7, "LOC")], [(1, 2, "ORG"), (4, 6, "LOC")]]
# One answer per (sentence, type query), as UniversalNER's model answers; "Person" is
# matched case-insensitively to the map's "person".
QUERIES = [{"person": '["Ada Lovelace", "Babbage"]', "location": '["London"]',
            "organization": "[]"},
           {"Person": "[]", "location": '["the Hague"]', "organization": '["ICC", "UN"]'}]
TYPE_MAP = {"person": "PER", "location": "LOC", "organization": "ORG"}
# By hand, per query (predicted items, gold items, correct):
#   PER: {ada lovelace, babbage} vs {ada lovelace, charles babbage}: 2, 2, 1; then 0, 0, 0
#   LOC: {london} vs {london}: 1, 1, 1; {hague} vs {hague} ("The Hague"): 1, 1, 1
#   ORG: 0, 0, 0; {icc, un} vs {icc}: 2, 1, 1
# Mapped: the predicted items of every query (2 + 1 + 0 + 0 + 1 + 2), no gold mention.
# keep_types=["PER"]: gold drops 2 LOC + 1 ORG mentions, predictions 1 + 1 LOC and 2 ORG
# items; remove_types=["ORG"]: gold drops ICC, predictions ICC and UN.
BY_HAND = {  # options -> (correct, predicted, gold, pred mapped, pred removed, gold removed)
    (): (4, 6, 5, 6, 0, 0),
    (("keep_types", ("PER",)),): (1, 2, 2, 2, 4, 3),
    (("remove_types", ("ORG",)),): (3, 4, 4, 4, 2, 1),
}


@pytest.mark.parametrize("options", sorted(BY_HAND))
def test_universalner_queries_by_type_name_with_type_map_by_hand(options):
    correct, predicted, gold, mapped, removed, gold_removed = BY_HAND[options]
    kwargs = {name: list(value) for name, value in options}
    s = nerspan.score(GOLD, QUERIES, tokens=TOKENS, inputs={'matching': "strings", 'script': "universalner", 'type_map': TYPE_MAP, **kwargs})
    assert s.micro() == script_prf(correct, predicted, gold)
    d = s.to_dict()
    assert (d["correct"], d["predicted"], d["gold"]) == (correct, predicted, gold)
    pred, gold_side = d["repairs"]["pred"], d["repairs"]["gold"]
    assert (pred["types_mapped"], pred["types_removed"]) == (mapped, removed)
    assert (gold_side["types_mapped"], gold_side["types_removed"]) == (0, gold_removed)
    # every query's type was matched through the map: none is unknown
    assert pred["generative"]["types"]["type_map"] == 6
    assert pred["generative"]["unknown_types"] == 0
    # the same call through score_strings
    same = score_strings(GOLD, QUERIES, tokens=TOKENS, inputs={'script': "universalner", 'type_map': TYPE_MAP, **kwargs}).to_dict()
    assert same == d


def test_without_type_map_the_queries_are_unknown_types():
    d = nerspan.score(GOLD, QUERIES, tokens=TOKENS, inputs={'matching': "strings", 'script': "universalner"}).to_dict()
    assert d["correct"] == 0 and d["predicted"] == 6
    assert d["repairs"]["pred"]["generative"]["types"]["unknown"] == 6


# -- entity lists: keep, remove and map on both sides ------------------------------------------
# Gold: {john smith PER, paris gazette LOC}, {paris LOC} (Paris twice: 2 mentions).
# Predicted: {john smith PER, paris LOC, atlantis LOC}, {paris LOC}.
GOLD_TAGS = [["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC"], ["B-LOC", "O", "B-LOC"]]
WORDS = [["John", "Smith", "saw", "the", "Paris", "Gazette"], ["Paris", "and", "Paris"]]
RESPONSES = ['[{"text": "john smith", "type": "PER"}, {"text": "Paris", "type": "LOC"}, '
             '{"text": "Atlantis", "type": "LOC"}]',
             "<LOC>Paris</LOC> and Paris"]
# option -> (correct, predicted, gold; gold mapped, removed; pred mapped, removed), by hand
LISTS_BY_HAND = {
    "remove_types": ({"remove_types": ["LOC"]}, (1, 1, 1, 0, 3, 0, 3)),
    "keep_types": ({"keep_types": ["LOC"]}, (1, 3, 2, 0, 1, 0, 1)),
    "type_map": ({"type_map": {"LOC": "GPE"}}, (2, 4, 3, 3, 0, 3, 0)),
}


@pytest.mark.parametrize("case", sorted(LISTS_BY_HAND))
def test_keep_remove_and_map_on_both_sides_by_hand(case):
    options, (correct, predicted, gold, *counts) = LISTS_BY_HAND[case]
    d = nerspan.score(GOLD_TAGS, RESPONSES, tokens=WORDS,
                      inputs={'matching': "strings", **options}).to_dict()
    assert (d["correct"], d["predicted"], d["gold"]) == (correct, predicted, gold)
    repairs = d["repairs"]
    assert [repairs[side][kind] for side in ("gold", "pred")
            for kind in ("types_mapped", "types_removed")] == counts
    if case == "type_map":
        assert d["per_type"]["GPE"]["support"] == 2 and "LOC" not in d["per_type"]


def test_a_mapping_that_makes_two_strings_equal_keeps_one_and_lists_it():
    # "Paris" as a city and as LOC: one string once city -> LOC
    d = nerspan.score([[(0, 1, "LOC")]], [[["Paris", "city"], ["Paris", "LOC"]]],
                      tokens=[["Paris"]], inputs={'matching': "strings", 'type_map': {"city": "LOC"}}).to_dict()
    assert (d["correct"], d["predicted"], d["gold"]) == (1, 1, 1)
    generative = d["repairs"]["pred"]["generative"]
    assert generative["duplicates"] == 1 and generative["usable"] == 1
    assert "type_map" in generative["listed"]["duplicates"][0]["reason"]


def test_a_type_named_nowhere_is_the_grounded_routes_error():
    for options, message in (({"keep_types": ["DATE"]}, r"^kept type 'DATE' occurs in no tag"),
                             ({"type_map": {"person": "PER"}},
                              r"^mapped type 'person' occurs in no tag")):
        for matching in ("grounded", "strings"):
            with pytest.raises(TypeNotFoundError, match=message):
                nerspan.score(GOLD_TAGS, RESPONSES, tokens=WORDS,
                              inputs={'matching': matching, **options})
    with pytest.raises(nerspan.InputTypeError, match=r"keep_types \(--keep-types\) and "
                       r"remove_types \(--remove-types\) were both"):
        nerspan.score(GOLD_TAGS, RESPONSES, tokens=WORDS, inputs={'matching': "strings", 'keep_types': ["PER"], 'remove_types': ["LOC"]})


# -- the same numbers on the command line ------------------------------------------------------
def write(tmp_path, gold_text, responses):
    (tmp_path / "gold.txt").write_text(gold_text, encoding="utf-8")
    path = tmp_path / "llm.jsonl"
    path.write_text("".join(json.dumps({"response": r}) + "\n" for r in responses),
                    encoding="utf-8")
    return str(tmp_path / "gold.txt"), str(path)


def column_file(tokens, tags) -> str:
    return "\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, ts)) + "\n"
                     for ws, ts in zip(tokens, tags))


CLI_CASES = {  # flags -> the API's options
    "map": (["--type-map", "LOC=GPE"], {"type_map": {"LOC": "GPE"}}),
    "keep": (["--keep-types", "LOC"], {"keep_types": ["LOC"]}),
    "remove": (["--remove-types", "LOC", "--word-overlap"],
               {"remove_types": ["LOC"], "word_overlap": True}),
}


@pytest.mark.parametrize("case", sorted(CLI_CASES))
def test_the_cli_gives_the_apis_numbers(tmp_path, capsys, case):
    flags, options = CLI_CASES[case]
    gold, generated = write(tmp_path, column_file(WORDS, GOLD_TAGS), RESPONSES)
    code = main(["score", gold, "--generated", generated, "--matching", "strings", *flags,
                 "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    cli = json.loads(out)
    api = nerspan.score(GOLD_TAGS, RESPONSES, tokens=WORDS,
                        inputs={'matching': "strings", **options}).to_dict()
    for key in ("correct", "predicted", "gold", "found", "precision", "recall", "f1",
                "per_type", "repairs"):
        assert cli[key] == api[key], key
    assert "retyped" in err and "(--type-map, --keep-types, --remove-types)" in err


def test_the_cli_maps_universalner_type_queries(tmp_path, capsys):
    gold_tags = [["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC"],
                 ["O", "B-ORG", "O", "O", "B-LOC", "I-LOC"]]
    gold, generated = write(tmp_path, column_file(TOKENS, gold_tags), QUERIES)
    code = main(["score", gold, "--generated", generated, "--matching", "strings",
                 "--script", "universalner", "--type-map",
                 ",".join(f"{k}={v}" for k, v in TYPE_MAP.items()), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    cli = json.loads(out)
    assert (cli["precision"], cli["recall"], cli["f1"]) == script_prf(4, 6, 5)


# -- invariant: gold's own strings score perfectly, whatever the processing ------------------
TYPES = ("PER", "LOC", "ORG")
WORD = st.sampled_from(["Ada", "Paris", "ACME", "the", "New", "York", "Oz"])


@st.composite
def sentences(draw):
    """Per sentence, words and non-overlapping gold spans."""
    out = []
    for _ in range(draw(st.integers(1, 3))):
        words = draw(st.lists(WORD, min_size=1, max_size=8))
        cuts = sorted(draw(st.sets(st.integers(0, len(words)), max_size=6)))
        spans = [(a, b, draw(st.sampled_from(TYPES))) for a, b in zip(cuts, cuts[1:])
                 if draw(st.booleans())]
        out.append((words, spans))
    return out


@st.composite
def processing(draw, present):
    present = sorted(present)
    options = {}
    if present and draw(st.booleans()):
        sources = draw(st.lists(st.sampled_from(present), unique=True, max_size=3))
        options["type_map"] = {s: draw(st.sampled_from(TYPES + ("MISC",))) for s in sources}
    after = sorted({options.get("type_map", {}).get(t, t) for t in present})
    which = draw(st.sampled_from(["none", "keep", "remove"]))
    if after and which != "none":
        options[f"{which}_types"] = draw(st.lists(st.sampled_from(after), unique=True,
                                                  max_size=len(after)))
    return options


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_gold_strings_as_the_answer_score_perfectly_under_any_processing(data):
    corpus = data.draw(sentences())
    tokens = [words for words, _ in corpus]
    gold = [spans for _, spans in corpus]
    present = {t for spans in gold for _, _, t in spans}
    options = data.draw(processing(present))
    lower = data.draw(st.booleans())  # the model writes "per": matched case-insensitively
    name = str.lower if lower else str
    answers = [[[" ".join(words[a:b]), name(t)] for a, b, t in spans]
               for words, spans in corpus]
    queries = [{name(t): json.dumps([" ".join(words[a:b]) for a, b, u in spans if u == t])
                for t in {t for _, _, t in spans}} for words, spans in corpus]
    for compat, predictions in ((None, answers), ("universalner", queries)):
        d = nerspan.score(gold, predictions, tokens=tokens,
                          inputs={'matching': "strings", 'script': compat, **options}).to_dict()
        assert d["correct"] == d["predicted"] == d["found"] == d["gold"], (compat, options)
        if d["gold"]:
            assert d["f1"] == pytest.approx(1.0)
        assert d["repairs"]["pred"]["generative"]["unknown_types"] == 0


# -- one meaning in both ways ------------------------------------------------------------------
# Each text once in its sentence and no normalisation at play: a grounded span and a string
# are right or wrong together (Babbage is a wrong span and a wrong string, UN ungrounded
# and a wrong string), so both ways count alike under any processing.
LISTS = [[["Ada Lovelace", "PER"], ["Babbage", "PER"], ["London", "LOC"]],
         [["ICC", "ORG"], ["UN", "ORG"], ["The Hague", "LOC"]]]


@pytest.mark.parametrize("options", [{}, {"remove_types": ["ORG"]}, {"keep_types": ["PER"]},
                                     {"type_map": {"LOC": "GPE", "ORG": "PER"}},
                                     {"type_map": {"LOC": "PER"}, "remove_types": ["ORG"]}])
def test_grounded_and_strings_process_types_alike(options):
    scored = ways(LISTS, options)
    assert_same_counts(scored["grounded"], scored["strings"])


# Types written otherwise: "org" is ORG case-insensitively, "person" a key of the map and
# "Person" that key in another case (matched by the map in both ways, never unknown),
# "Location" unknown unless the map names it.
WRITTEN = [[["Ada Lovelace", "person"], ["Babbage", "Person"], ["London", "LOC"]],
           [["ICC", "org"], ["UN", "ORG"], ["The Hague", "Location"]]]
# By hand, for type_map={"person": "PER", "location": "LOC"}: as given London, UN (2);
# case-insensitively org (1); by the map person, Person, Location (3); unknown none.
WRITTEN_OPTIONS = [{"type_map": {"person": "PER"}},
                   {"type_map": {"person": "PER", "location": "LOC"}},
                   {"type_map": {"Person": "PER", "LOCATION": "LOC"}, "remove_types": ["ORG"]},
                   {"type_map": {"person": "LOC"}, "keep_types": ["LOC"]}]


def ways(predictions, options) -> dict:
    return {matching: nerspan.score(GOLD, predictions, tokens=TOKENS,
                                    inputs={'matching': matching, **options}).to_dict()
            for matching in ("grounded", "strings")}


def assert_same_counts(grounded, strings):
    for key in ("correct", "predicted", "gold", "precision", "recall", "f1"):
        assert grounded[key] == strings[key], key
    for side in ("gold", "pred"):
        for kind in ("types_mapped", "types_removed"):
            assert grounded["repairs"][side][kind] == strings["repairs"][side][kind], \
                (side, kind)


def assert_alike(grounded, strings):
    assert_same_counts(grounded, strings)
    # a way whose record counts nothing may leave it out of repairs: all zero
    zero = {"types": dict.fromkeys(TYPE_MATCHES, 0), "unknown_types": 0}
    g, s = (d["repairs"]["pred"].get("generative", zero) for d in (grounded, strings))
    assert (g["types"], g["unknown_types"]) == (s["types"], s["unknown_types"])


@pytest.mark.parametrize("options", WRITTEN_OPTIONS)
def test_grounded_and_strings_match_written_types_alike(options):
    found = ways(WRITTEN, options)
    assert_alike(found["grounded"], found["strings"])
    unknown = 0 if "location" in {k.lower() for k in options["type_map"]} else 1
    assert found["grounded"]["repairs"]["pred"]["generative"]["unknown_types"] == unknown


def test_written_types_by_hand():
    found = ways(WRITTEN, {"type_map": {"person": "PER", "location": "LOC"}})
    for d in found.values():
        generative = d["repairs"]["pred"]["generative"]
        assert generative["types"] == {"as_given": 2, "case_insensitive": 1, "type_map": 3,
                                       "unknown": 0, "unchecked": 0}
        # correct: Ada Lovelace, London, ICC, The Hague; Babbage and UN wrong
        assert (d["correct"], d["predicted"], d["gold"]) == (4, 6, 5)
        assert d["repairs"]["pred"]["types_mapped"] == 3   # person, Person, Location


def test_the_cli_and_the_report_match_written_types_as_the_api(tmp_path, capsys):
    gold_tags = [["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC"],
                 ["O", "B-ORG", "O", "O", "B-LOC", "I-LOC"]]
    gold, generated = write(tmp_path, column_file(TOKENS, gold_tags),
                            [json.dumps(sentence) for sentence in WRITTEN])
    options = {"type_map": {"person": "PER", "location": "LOC"}}
    api = ways(WRITTEN, options)["grounded"]
    for matching in ("grounded", "strings"):
        code = main(["score", gold, "--generated", generated, "--matching", matching,
                     "--type-map", "person=PER,location=LOC", "--format", "json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert_alike(json.loads(out), api)
    # the report's reading (add_generated) matches them before its corpus is processed
    corpus, _ = read_systems(gold, generated={"llm": generated}, inputs=options)
    record = corpus.source.generated["llm"]
    assert record.types == api["repairs"]["pred"]["generative"]["types"]
    report = tmp_path / "report"
    code = main(["report", gold, "--generated", generated, "--type-map",
                 "person=PER,location=LOC", "--families", "faireval", "--output", str(report),
                 "--no-progress"])
    assert code == 0, capsys.readouterr().err
    results = json.loads((report / "report.json").read_text(encoding="utf-8"))["results"]
    entity = results["llm"]["entity"]
    for key in ("correct", "predicted", "gold"):
        assert entity[key] == api[key], key
    assert entity["repairs"]["pred"]["generative"]["types"] == \
        api["repairs"]["pred"]["generative"]["types"]



def test_the_faireval_module_matches_written_types_as_the_api():
    options = {"type_map": {"person": "PER", "location": "LOC"}}
    strings = ways(WRITTEN, options)["strings"]
    module = evaluate.load(str(REPO / "metrics" / "faireval"), tokens=TOKENS, **options)
    got = module.compute(predictions=[json.dumps(sentence) for sentence in WRITTEN],
                         references=[["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC"],
                                     ["O", "B-ORG", "O", "O", "B-LOC", "I-LOC"]])
    counts = got["traditional_counts"]
    assert (counts["TP"], counts["TP"] + counts["FP"], counts["TP"] + counts["FN"]) == \
        (strings["correct"], strings["predicted"], strings["gold"])
    assert got["repairs"]["pred"]["generative"]["types"] == \
        strings["repairs"]["pred"]["generative"]["types"]

# -- invariant: both ways match written types alike -------------------------------------------
ALIASES = {"PER": "person", "LOC": "location", "ORG": "organization"}
UNIQUE_WORDS = ["Ada", "Paris", "ACME", "Oslo", "Kim", "Rome", "Nile", "Bank"]


def random_case(draw, name: str) -> str:
    return "".join(c.upper() if draw(st.booleans()) else c.lower() for c in name)


@st.composite
def written_types(draw):
    """Sentences of distinct words (each text once in its sentence), gold spans, the
    model's entities (gold's texts and one it invented) under types written in a random
    case, as gold's type or an alias, and a type_map over the aliases (its keys in a
    random case too)."""
    tokens, gold, answers = [], [], []
    for _ in range(draw(st.integers(1, 3))):
        words = draw(st.lists(st.sampled_from(UNIQUE_WORDS), min_size=1, max_size=6,
                              unique=True))
        cuts = sorted(draw(st.sets(st.integers(0, len(words)), max_size=6)))
        spans = [(a, b, draw(st.sampled_from(TYPES))) for a, b in zip(cuts, cuts[1:])
                 if draw(st.booleans())]
        entities = []
        for a, b, t in spans:
            if draw(st.booleans()):
                written = draw(st.sampled_from([t, ALIASES[t], draw(st.sampled_from(TYPES))]))
                entities.append([" ".join(words[a:b]), random_case(draw, written)])
        if draw(st.booleans()):
            entities.append(["Zork", random_case(draw, draw(st.sampled_from(TYPES)))])
        tokens.append(words)
        gold.append(spans)
        answers.append(entities)
    aliases = draw(st.lists(st.sampled_from(sorted(ALIASES.values())), unique=True))
    type_map = {random_case(draw, alias): draw(st.sampled_from(TYPES)) for alias in aliases}
    return tokens, gold, answers, type_map


@settings(max_examples=80, deadline=None)
@given(written_types())
def test_grounded_and_strings_match_written_types_alike_under_any_type_map(case):
    tokens, gold, answers, type_map = case
    found = {}
    for matching in ("grounded", "strings"):
        try:
            found[matching] = nerspan.score(gold, answers, tokens=tokens, inputs={'matching': matching, 'type_map': type_map or None}).to_dict()
        except TypeNotFoundError as error:   # a mapped name no side has: both refuse it
            found[matching] = str(error)
    if isinstance(found["grounded"], str) or isinstance(found["strings"], str):
        assert found["grounded"] == found["strings"]
    else:
        assert_alike(found["grounded"], found["strings"])


# -- a type_map key that is gold's type in another case: refused on every route -----------------
# Gold writes "corporation"; the model too, or in another case. A key "Corporation" would
# map the model's entities (matched to it in any case) and not gold's: correct predictions
# became errors (F1 0.5 here). Refused, naming gold's spelling; the key as gold writes it
# maps both sides alike.
CASED_TOKENS = [["Acme", "hired", "Ann"]]
CASED_GOLD = [["B-corporation", "O", "B-person"]]
CASED_ANSWERS = [[["Acme", "corporation"], ["Ann", "Person"]]]
CASED_REFUSED = (r"^mapped type 'Corporation' is gold's type 'corporation' written "
                 r"otherwise: generated types are matched to gold's \(in any case\) before "
                 r"type_map maps them, so this key would map the model's entities and not "
                 r"gold's; write it as gold does \('corporation'\)")


@pytest.mark.parametrize("matching", ["grounded", "strings"])
def test_a_key_that_is_golds_type_in_another_case_is_refused(matching):
    with pytest.raises(TypeNotFoundError, match=CASED_REFUSED):
        nerspan.score(CASED_GOLD, CASED_ANSWERS, tokens=CASED_TOKENS, inputs={'matching': matching, 'type_map': {"Corporation": "ORG"}})
    # written as gold writes it: both sides mapped, every prediction right
    d = nerspan.score(CASED_GOLD, CASED_ANSWERS, tokens=CASED_TOKENS, inputs={'matching': matching, 'type_map': {"corporation": "ORG"}}).to_dict()
    assert d["f1"] == 1.0 and sorted(d["per_type"]) == ["ORG", "person"]
    assert d["repairs"]["gold"]["types_mapped"] == d["repairs"]["pred"]["types_mapped"] == 1


def test_the_families_and_the_module_refuse_it_too():
    with pytest.raises(TypeNotFoundError, match=CASED_REFUSED):
        faireval.score(CASED_GOLD, CASED_ANSWERS, tokens=CASED_TOKENS,
                       inputs={'type_map': {"Corporation": "ORG"}})
    with pytest.raises(TypeNotFoundError, match=CASED_REFUSED):
        tough_mentions.score(CASED_GOLD, CASED_ANSWERS, tokens=CASED_TOKENS,
                             train=(CASED_TOKENS, CASED_GOLD), inputs={'type_map': {"Corporation": "ORG"}})
    module = evaluate.load(str(REPO / "metrics" / "faireval"), tokens=CASED_TOKENS)
    with pytest.raises(TypeNotFoundError, match=CASED_REFUSED):
        module.compute(predictions=[json.dumps(CASED_ANSWERS[0])], references=CASED_GOLD,
                       type_map={"Corporation": "ORG"})
    # tags: types are case-sensitive, the key names no type, and the error says which
    with pytest.raises(TypeNotFoundError, match=r"^mapped type 'Corporation' occurs in no tag "
                                                r"\(the types: corporation, person\); "
                                                r"'Corporation': did you mean 'corporation'\? "
                                                r"\(type names are case-sensitive\)$"):
        nerspan.score(CASED_GOLD, CASED_GOLD, inputs={'type_map': {"Corporation": "ORG"}})


def test_the_cli_and_the_report_refuse_it_too(tmp_path, capsys):
    gold, generated = write(tmp_path, column_file(CASED_TOKENS, CASED_GOLD),
                            [json.dumps(answer) for answer in CASED_ANSWERS])
    message = CASED_REFUSED.replace("^", "")
    for command in (["score", gold, "--generated", generated],
                    ["score", gold, "--generated", generated, "--matching", "strings"],
                    ["faireval", gold, "--generated", generated],
                    ["report", gold, "--generated", generated, "--families", "faireval",
                     "--output", str(tmp_path / "report"), "--no-progress"]):
        code = main([*command, "--type-map", "Corporation=ORG"])
        err = capsys.readouterr().err
        assert code == 2 and re.search(message, err), (command, err)
        assert len(err.strip().splitlines()) == 1
    # tag files: the key names no type
    code = main(["score", gold, gold, "--type-map", "Corporation=ORG"])
    assert code == 2 and "did you mean 'corporation'?" in capsys.readouterr().err
    assert main(["score", gold, "--generated", generated, "--type-map", "corporation=ORG",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["f1"] == 1.0


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_key_in_any_case_maps_alike_or_is_refused(data):
    """Invariant: gold's own strings as the answer (types in any case) score perfectly
    under a type_map whose keys are gold's types in any case, or the map is refused;
    never a lower score in silence."""
    tokens, gold = [], []
    for _ in range(data.draw(st.integers(1, 3))):   # each text once: grounded alike
        words = data.draw(st.lists(st.sampled_from(UNIQUE_WORDS), min_size=1, max_size=6,
                                   unique=True))
        cuts = sorted(data.draw(st.sets(st.integers(0, len(words)), max_size=6)))
        tokens.append(words)
        gold.append([(a, b, data.draw(st.sampled_from(TYPES))) for a, b in zip(cuts, cuts[1:])
                     if data.draw(st.booleans())])
    corpus = list(zip(tokens, gold))
    present = sorted({t for spans in gold for _, _, t in spans})
    if not present:
        return
    sources = data.draw(st.lists(st.sampled_from(present), min_size=1, unique=True))
    type_map = {random_case(data.draw, s): data.draw(st.sampled_from(TYPES + ("MISC",)))
                for s in sources}
    answers = [[[" ".join(words[a:b]), random_case(data.draw, t)] for a, b, t in spans]
               for words, spans in corpus]
    for matching in ("grounded", "strings"):
        try:
            d = nerspan.score(gold, answers, tokens=tokens, inputs={'matching': matching, 'type_map': type_map}).to_dict()
        except TypeNotFoundError as error:
            assert any(key not in present for key in type_map), error
            continue
        assert all(key in present for key in type_map)
        assert d["correct"] == d["predicted"] == d["gold"], (matching, type_map)
