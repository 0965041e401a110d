"""The bad-input matrix of generated input (nerspan.generative): what the model wrote
wrongly is a counted, listed outcome, never a crash or a silent drop; what the caller
passed wrongly raises one ``nerspan.errors`` exception naming the side and sentence.

Entry points: ``read_generated``, ``ground`` and ``score_strings`` (both ways of
matching, with and without ``compat="universalner"``); the issue's cases also through
``nerspan.score``, every family's ``score`` and an evaluate module (the command line's
rows are in ``test_bad_input_cli``).
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerspan import EmptyInputError, InputTypeError, NerspanError, SentenceCountError
from nerspan.generative import ground, read_generated, read_generated_jsonl, score_strings
from nerspan.reading.answers import read_generated_files, read_scored_systems
from tests.conftest import REPO

TOKENS = [["Ada", "Lovelace", "wrote"], ["in", "Paris"]]
GOLD = [[(0, 2, "PER")], [(1, 2, "LOC")]]
GOOD = [[["Ada Lovelace", "PER"]], [["Paris", "LOC"]]]


def read(predictions):
    return read_generated(predictions).repairs


def grounded(predictions):
    return ground(predictions, tokens=TOKENS[:len(predictions)]).repairs


def strings(predictions):
    n = len(predictions)
    return score_strings(GOLD[:n], predictions, tokens=TOKENS[:n]).to_dict()


def universalner(predictions):
    n = len(predictions)
    return score_strings(GOLD[:n], predictions, tokens=TOKENS[:n],
                         inputs={'script': "universalner"}).to_dict()


ENTRIES = {"read_generated": read, "ground": grounded, "score_strings": strings,
           "score_strings universalner": universalner}


def record_of(entry, result):
    return result if not isinstance(result, dict) else \
        _Record(result["repairs"]["pred"]["generative"])


class _Record:
    """A ``to_dict()`` record read like the record itself (counts by kind)."""

    def __init__(self, d):
        self.d = d

    def __getattr__(self, kind):
        return [None] * self.d[kind]


# -- the model's mistakes: counted and listed ---------------------------------------------
MILLION = "x" * 1_000_000
# case -> (response, the kind it is counted as); under universalner, (the answer to a
# type query, the kind): its rules make a bad list a parse failure, and count what they
# keep (an empty string is a predicted string, as the script counts it)
MODEL_CASES = {
    "not JSON": ("I cannot help with that.", "parse_failures",
                 {"PER": "I cannot help with that."}, "parse_failures"),
    "invalid JSON": ('[{"text": "Ada Lovelace", "type": "PER"', "parse_failures",
                     {"PER": '["Ada Lovelace"'}, "parse_failures"),
    "wrong shape: a number": ("```json\n42\n```", "parse_failures",
                              {"PER": "42"}, "parse_failures"),
    "wrong shape: a list of a number": ("[7]", "rejected",
                                       {"PER": "[1, 2, 3]"}, "parse_failures"),
    "a type that is a number": ('[["Ada Lovelace", 5]]', "rejected",
                                {5: '["Ada Lovelace"]'}, "rejected"),
    "an empty string entity": ('[["", "PER"]]', "rejected", {"PER": '[""]'}, None),
    "a response of 1 MB": (f'[["{MILLION}", "PER"]]', None, {"PER": f'["{MILLION}"]'}, None),
    "1 MB of prose": ("so " * 350_000, "parse_failures", {"PER": "so " * 350_000},
                      "parse_failures"),
    "no response": (None, "parse_failures", None, "parse_failures"),
}


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("case", MODEL_CASES)
def test_a_bad_response_is_counted_and_the_other_sentence_still_scores(case, entry):
    response, kind, per_type, per_type_kind = MODEL_CASES[case]
    if entry == "score_strings universalner":
        response, kind = per_type, per_type_kind
    result = ENTRIES[entry]([response, [["Paris", "LOC"]]])
    record = record_of(entry, result)
    if kind is not None:
        assert len(getattr(record, kind)) == 1, (case, entry)
    if entry == "ground":
        assert result.usable == 1 and result.spans == 1
    if isinstance(result, dict):  # the other sentence scores
        assert result["per_type"]["LOC"]["correct"] == 1
    if case == "a response of 1 MB" and entry == "ground":
        # one entity of a million characters: read, not found, listed cut
        listed = result.to_dict()["listed"]["ungrounded"][0]["text"]
        assert len(listed) < 120 and listed.endswith("(1000000 characters)")


def test_a_bad_response_under_universalner_reads_as_an_empty_list():
    d = universalner([{"PER": "[1, 2, 3]"}, {"LOC": '["Paris"]'}])
    assert (d["predicted"], d["correct"], d["gold"]) == (1, 1, 2)
    assert d["repairs"]["pred"]["generative"]["listed"]["parse_failures"][0]["reason"] == \
        "an item is not a string or a list of strings: 1"


# -- the caller's mistakes: one exception naming side and sentence ---------------------------
CALLER_CASES = [
    (None, InputTypeError, "predictions is None: expected a list"),
    ("[]", InputTypeError, "predictions: expected a list with one model output per sentence"),
    ({"PER": ["Ada"]}, InputTypeError, "predictions: expected a list with one model output"),
    (42, InputTypeError, "predictions: expected a list with one model output per sentence"),
    ([], EmptyInputError, "predictions hold no sentence"),
    ([b"[]", []], InputTypeError,
     r"predictions, sentence 0: a model output is a string, a list or a dict .* \(bytes\)"),
    ([[], {"x"}], InputTypeError, r"predictions, sentence 1: .* \(set\)"),
    ([[], np.array(["a"])], InputTypeError, r"predictions, sentence 1: .* \(ndarray\)"),
]


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("predictions, error, message", CALLER_CASES)
def test_a_callers_mistake_raises_naming_side_and_sentence(predictions, error, message, entry):
    call = {"read_generated": lambda p: read_generated(p),
            "ground": lambda p: ground(p, tokens=TOKENS),
            "score_strings": lambda p: score_strings(GOLD, p, tokens=TOKENS),
            "score_strings universalner": lambda p: score_strings(
                GOLD, p, tokens=TOKENS, inputs={'script': "universalner"})}[entry]
    with pytest.raises(error, match=message):
        call(predictions)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ground(GOOD), NerspanError,
     r"predictions: grounding needs the sentence text: pass tokens=\.\.\. or texts=\.\.\."),
    (lambda: ground(GOOD, tokens=TOKENS[:1]), SentenceCountError,
     "tokens hold 1 sentence, predictions 2"),
    (lambda: ground(GOOD, texts=["a"]), SentenceCountError,
     "texts hold 1 sentence, predictions 2"),
    (lambda: ground(GOOD, tokens=[["Ada", 3], ["x"]]), InputTypeError,
     r"tokens, sentence 0, position 1: 3 \(an int\) is not a word"),
    (lambda: ground(GOOD, tokens=[["Ada"], ["Rome"]], texts=["Ada", "Paris"]), NerspanError,
     "sentence 1: token 0 'Rome' is not in the text"),
    (lambda: ground(GOOD, tokens=["Ada Lovelace wrote", "in Paris"]), InputTypeError,
     r"tokens, sentence 0: the sentence's tokens are a string \('Ada Lovelace wrote'\)"),
    (lambda: ground(GOOD, tokens="Ada Lovelace"), InputTypeError,
     "tokens must be a list per sentence, not a string"),
    (lambda: ground(GOOD, tokens=TOKENS, types="PER"), InputTypeError,
     "types: types must be a set of type names"),
    (lambda: ground(GOOD, tokens=TOKENS, types=[["B-PER", "O"]]), InputTypeError,
     "types: types must be type names .* never gold spans or labels"),
    (lambda: ground(GOOD, tokens=TOKENS, types=GOLD[0]), InputTypeError,
     "never gold spans or labels"),
    (lambda: ground(GOOD, tokens=TOKENS, type_map=[("person", "PER")]), InputTypeError,
     "type_map: type_map must be a dict"),
    (lambda: ground(GOOD, tokens=TOKENS, type_map={"person": 1}), InputTypeError,
     "type_map: type_map maps strings to strings"),
    (lambda: ground(GOOD, tokens=TOKENS, type_map={"person": " "}), NerspanError,
     "type_map maps 'person' to an empty type name"),
    (lambda: ground(GOOD, tokens=TOKENS, occurrences="first"), ValueError,
     "occurrences must be one of 'all', 'ordered', not 'first'"),
    (lambda: ground(GOOD, tokens=TOKENS, overlaps="nest"), ValueError,
     "overlaps must be one of 'drop', 'keep', not 'nest'"),
    (lambda: ground(GOOD, tokens=TOKENS, fuzzy=90), ValueError,
     r"fuzzy must be between 0 and 1 \(exclusive\), not 90"),
    (lambda: ground(GOOD, tokens=TOKENS, fuzzy="0.9"), InputTypeError,
     "fuzzy must be a number between 0 and 1"),
    (lambda: score_strings(GOLD, GOOD[:1], tokens=TOKENS), SentenceCountError,
     "predictions hold 1 sentence, references 2"),
    (lambda: score_strings(GOLD, GOOD), NerspanError,
     "references: string matching needs the gold mentions' words"),
    (lambda: score_strings(GOLD, GOOD, tokens=TOKENS, inputs={"script": "uner"}), ValueError,
     "script must be one of None, 'universalner', not 'uner'"),
    (lambda: score_strings(GOLD, GOOD, tokens=TOKENS, compat="universalner"), TypeError,
     r"score_strings\(\) takes no compat since nerlens 0\.2: inputs=\{'script': "),
    (lambda: score_strings(GOLD, GOOD, tokens=TOKENS, inputs={"word_overlap": "yes"}),
     InputTypeError, "word_overlap must be True or False"),
    (lambda: score_strings([[(0, 9, "PER")], []], GOOD, tokens=TOKENS), NerspanError,
     r"references, sentence 0: span \(0, 9, 'PER'\) reaches past the end of the sentence"),
    (lambda: score_strings([["B-PER", "X", "O"], ["O", "O"]], GOOD, tokens=TOKENS),
     NerspanError, "references, sentence 0, position 1: 'X' is not a tag"),
    (lambda: score_strings([["B-PER", "O"], ["O", "O"]], GOOD, tokens=TOKENS), NerspanError,
     "sentence 0: tokens have 3 items, references 2"),
])
def test_bad_arguments(call, error, message):
    with pytest.raises(error, match=message):
        call()


# -- a JSON Lines file of responses ------------------------------------------------------------

@pytest.mark.parametrize("lines, message", [
    # a line that cannot be read is named by its line: its place is no sentence number
    (["not json"], r"g\.jsonl:1: not JSON"),
    (['{"text": "a"}'], r'g\.jsonl:1: expected an object with a "response"'),
    (['{"response": [], "sentence": 64, "tokens": "a b"}'],
     r'g\.jsonl:1, sentence 64: "tokens" must be a list of strings'),
    (['{"response": [], "sentense": 3}'],
     r"g\.jsonl:1: unknown key 'sentense' \(did you mean 'sentence'\?\); a line's keys are "
     r"response, tokens, text, sentence$"),
    (['{"respons": []}'], r"g\.jsonl:1: unknown key 'respons' \(did you mean 'response'\?\)"),
    (['{"response": [], "id": 7}'], r"g\.jsonl:1: unknown key 'id'; a line's keys are"),
    (['{"response": [], "tokens": "a b"}'], '"tokens" must be a list of strings'),
    (['{"response": [], "text": 3}'], '"text" must be a string'),
    (['{"response": [], "sentence": -1}'], '"sentence" must be a sentence index'),
    (['{"response": [], "text": "a"}', '{"response": []}'],
     r'g\.jsonl:2, sentence 1: no "tokens" or "text" here, but other lines have them'),
    (['{"response": [], "text": "a", "sentence": 0}', '{"response": [], "text": "b"}'],
     r'g\.jsonl:2, sentence 1: no "sentence" here, but other lines have one'),
    ([""], r"g\.jsonl: no line in the file of generated output"),
])
def test_bad_jsonl_files_name_file_and_line(tmp_path, lines, message):
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(NerspanError, match=message):
        read_generated_jsonl(path)


def test_a_jsonl_file_reads_every_form(tmp_path):
    path = tmp_path / "g.jsonl"
    rows = [{"text": "Ada wrote", "response": '[["Ada", "PER"]]', "sentence": 4},
            {"text": "in Paris", "response": None, "sentence": 0},
            {"text": "x", "response": {"LOC": ["x"]}, "sentence": 1}]
    path.write_text("\ufeff" + "\n\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    read = read_generated_jsonl(path)
    assert read["tokens"] == [["Ada", "wrote"], ["in", "Paris"], ["x"]]
    assert read["sentences"] == [4, 0, 1] and read["lines"] == [1, 3, 5]
    found = ground(read["responses"], texts=read["texts"])
    assert found.spans == [[(0, 1, "PER")], [], [(0, 1, "LOC")]]
    assert len(found.repairs.parse_failures) == 1


# -- through nerspan.score, every family and an evaluate module -------------------------------
GOLD_TAGS = [["B-PER", "I-PER", "O"], ["O", "B-LOC"]]


def _family_entries():
    train = dict(train=(TOKENS, GOLD_TAGS))
    return {"nerspan.score": lambda p: nerspan.score(GOLD_TAGS, p, tokens=TOKENS),
            "tough_mentions": lambda p: tough_mentions.score(GOLD_TAGS, p, tokens=TOKENS,
                                                             **train),
            "hardeval": lambda p: hardeval.score(GOLD_TAGS, p, tokens=TOKENS, **train),
            "faireval": lambda p: faireval.score(GOLD_TAGS, p, tokens=TOKENS),
            "attribute_buckets": lambda p: attribute_buckets.score(GOLD_TAGS, p, tokens=TOKENS,
                                                                   **train)}


FAMILY_NAMES = ("nerspan.score", "tough_mentions", "hardeval", "faireval", "attribute_buckets")
# the cases of the matrix the issue names, in the grounded way
FAMILY_CASES = ("not JSON", "wrong shape: a number", "a type that is a number",
                "an empty string entity", "a response of 1 MB")


@pytest.mark.parametrize("family", FAMILY_NAMES)
@pytest.mark.parametrize("case", FAMILY_CASES)
def test_a_bad_response_in_every_family(case, family):
    response, kind = MODEL_CASES[case][:2]
    result = _family_entries()[family]([response, [["Paris", "LOC"]]]).to_dict()
    record = result["repairs"]["pred"]["generative"]
    if kind is not None:
        assert record[kind] == 1
    assert record["usable"] == 1 and record["spans"] == 1
    if family != "hardeval":  # by hand: Paris found, Ada Lovelace missed
        assert result["precision"] == (0.5 if case == "a response of 1 MB" else 1.0)
        assert result["recall"] == 0.5


def test_a_bad_response_through_an_evaluate_module():
    evaluate = pytest.importorskip("evaluate")
    metric = evaluate.load(str(REPO / "metrics" / "faireval"), tokens=TOKENS)
    responses = [response for response, *_ in (MODEL_CASES[case] for case in FAMILY_CASES)]
    for response in responses:
        result = metric.compute(predictions=[response, '[["Paris", "LOC"]]'],
                                references=GOLD_TAGS)
        assert result["traditional_counts"]["TP"] == 1
        assert result["repairs"]["pred"]["generative"]["usable"] == 1


def test_the_readers_of_answering_files_name_a_missing_gold(tmp_path):
    answers = tmp_path / "llm.jsonl"
    answers.write_text('{"response": "[]"}\n', encoding="utf-8")
    with pytest.raises(InputTypeError, match=r"^no gold given \(GOLD\): the annotation "
                                             r"generated output answers$"):
        read_generated_files(None, [answers])
    with pytest.raises(InputTypeError, match=r"scored files \(--scored\) are read against "
                                             r"GOLD as a column file or a saved split"):
        read_scored_systems(None, [], [answers], inputs={"jsonl": True})
