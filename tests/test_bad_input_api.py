"""The bad-input matrix of the Python API: every bad input, through every entry point
that can receive it, gives one clear error (pinned here) or a correct, documented result.

Entry points: ``nerspan.score``, each family's ``score``, each evaluate module's
``compute`` (metrics/<family>), ``nerlens.build_report``, ``nerlens.run_experiment``
(one dataset; the predictions as its system, or as one of its runs) and the Trainer helper (``nerlens.trainer.make_compute_metrics``);
the engines (the local engine's worker processes, Spark, Ray, torchmetrics) give a bad
sentence inside a shard one pass's error, word for word. The
command line has its own matrix. Errors name the side (references / predictions, or the
system in a report; the dataset and the system's run in an experiment), the sentence,
the position and the offending value, cut to 80 characters. A family's ``score`` given
a ``nerspan.Evaluation`` refuses a scheme, mode or training data that contradict it.
"""
from __future__ import annotations

import types
import warnings

import numpy as np
import pytest

import attribute_buckets
import faireval
import hardeval
import nerlens
import nerspan
import tough_mentions
from nerspan import (EmptyInputError, Evaluation, InputTypeError, InvalidTagError,
                     LabelIdError, LengthMismatchError, SentenceCountError)
from nerlens.trainer import make_compute_metrics
from nerspan.reading.systems import read_systems
from nerspan.type_processing import TypeNotFoundError
from tests.conftest import REPO

GOLD = [["B-PER", "I-PER", "O"], ["O", "B-LOC"]]
PRED = [["B-PER", "O", "O"], ["O", "B-LOC"]]
TOKENS = [["Ana", "Lima", "sings"], ["in", "Rio"]]
TRAIN = dict(train=([["Ana", "sings", "in", "Rio"]], [["B-PER", "O", "O", "B-LOC"]]))
LABELS = ["O", "B-PER", "I-PER", "B-LOC"]
GOLD_IDS = [[1, 2, 0], [0, 3]]
PRED_IDS = [[1, 0, 0], [0, 3]]


def with_tag(sentences, sentence, position, tag):
    out = [list(s) for s in sentences]
    out[sentence][position] = tag
    return out


# -- entry points: each takes (references, predictions, **options) --------------------------
def _tokens_for(references):
    """The test words when the references have the usual shape (else the usual words:
    the error must come from the tags, which are checked first)."""
    try:
        return [["w"] * len(s) for s in references] if references is not GOLD else TOKENS
    except TypeError:
        return TOKENS


def _family(module, needs_train=True):
    def call(references, predictions, **options):
        extra = dict(tokens=_tokens_for(references), **TRAIN) if needs_train else {}
        return module.score(references, predictions, **extra, **options)
    return call


def _evaluate_module(name):
    def call(references, predictions, **options):
        import evaluate

        load = {} if name == "faireval" else dict(tokens=_tokens_for(references), **TRAIN)
        metric = evaluate.load(str(REPO / "metrics" / name), **load)
        return metric.compute(predictions=predictions, references=references, **options)
    return call


def _report(references, predictions, **options):
    options = {"bootstrap": 0, "figures": False, **options}
    return nerlens.build_report(references, {"tagger": predictions}, tokens=_tokens_for(references),
                          train=nerspan.as_train_index(**TRAIN), **options)


def _experiment(runs: bool):
    """A one-dataset experiment ("d1") whose system "tagger" is the predictions, or has
    them as its second of three runs (column tagger#2)."""
    def call(references, predictions, **options):
        system = [PRED, predictions, PRED] if runs else predictions
        datasets = {"d1": {"gold": references, "tokens": _tokens_for(references),
                           "train": nerspan.as_train_index(**TRAIN),
                           "systems": {"tagger": system}}}
        options = {"bootstrap": 0, "figures": False, **options}
        return nerlens.run_experiment(datasets, **options)
    return call


def _trainer(references, predictions, label_list=LABELS, **options):
    compute = make_compute_metrics(label_list, eval_tokens=_tokens_for(references),
                                   train=nerspan.as_train_index(**TRAIN), **options)
    return compute(types.SimpleNamespace(predictions=predictions, label_ids=references))


TAG_ENTRIES = {
    "nerspan.score": nerspan.score,
    "tough_mentions.score": _family(tough_mentions),
    "hardeval.score": _family(hardeval),
    "faireval.score": _family(faireval, needs_train=False),
    "attribute_buckets.score": _family(attribute_buckets),
    "metrics/tough_mentions": _evaluate_module("tough_mentions"),
    "metrics/hardeval": _evaluate_module("hardeval"),
    "metrics/faireval": _evaluate_module("faireval"),
    "metrics/attribute_buckets": _evaluate_module("attribute_buckets"),
    "nerlens.report": _report,
    "nerlens.experiment": _experiment(runs=False),
    "nerlens.experiment, a run": _experiment(runs=True),
}
EXPERIMENT_ENTRIES = [e for e in TAG_ENTRIES if "experiment" in e]
SCORES_OF_TAGS = [e for e in TAG_ENTRIES if e.endswith(".score")]
# The entry points that take label ids with label_list=.
ID_ENTRIES = {name: TAG_ENTRIES[name] for name in (
    "nerspan.score", "tough_mentions.score", "hardeval.score", "faireval.score",
    "attribute_buckets.score")}
ID_ENTRIES["Trainer helper"] = _trainer

# -- tag-list cases: (references, predictions) -> error type and message -------------------
LONG = "X-" + "A" * 200
DEEP = "B-PER"
for _ in range(1000):  # deeper than repr goes
    DEEP = [DEEP]
TAG_CASES = {
    "X-PER in predictions": (GOLD, with_tag(PRED, 1, 0, "X-PER"), InvalidTagError,
                             r"predictions, sentence 1, position 0: 'X-PER' is not a tag"),
    "FOO in predictions": (GOLD, with_tag(PRED, 0, 2, "FOO"), InvalidTagError,
                           r"predictions, sentence 0, position 2: 'FOO' is not a tag"),
    "- in references": (with_tag(GOLD, 1, 1, "-"), PRED, InvalidTagError,
                        r"references, sentence 1, position 1: '-' is not a tag"),
    "empty tag in references": (with_tag(GOLD, 0, 2, ""), PRED, InvalidTagError,
                                r"references, sentence 0, position 2: the empty string is "
                                r"not a tag"),
    "whitespace in a tag": (GOLD, with_tag(PRED, 0, 0, "B-PER "), InvalidTagError,
                            r"predictions, sentence 0, position 0: tag 'B-PER ' contains "
                            r"whitespace"),
    "O with a type": (GOLD, with_tag(PRED, 1, 0, "O-LOC"), InvalidTagError,
                      r"predictions, sentence 1, position 0: 'O-LOC' is not a tag: O takes "
                      r"no type"),
    "200-character tag": (GOLD, with_tag(PRED, 1, 0, LONG), InvalidTagError,
                          r"predictions, sentence 1, position 0: 'X-A{77}\.\.\. \(202 "
                          r"characters\) is not a tag"),
    "sentence given as a string": (GOLD, [PRED[0], "O B-LOC"], InputTypeError,
                                   r"predictions, sentence 1: the sentence is a string"),
    "None sentence": ([GOLD[0], None], PRED, InputTypeError,
                      r"references, sentence 1: the sentence is None"),
    "sentence given as one tag in a 0-d array": (
        [GOLD[0], np.array("O")], PRED, InputTypeError,
        r"references, sentence 1: the sentence is a 0-d array \(array\('O'"),
    "sentence given as an int": (GOLD, [PRED[0], 3], InputTypeError,
                                 r"predictions, sentence 1: the sentence is an int \(3\)"),
    "references=None": (None, PRED, InputTypeError, r"references is None"),
    "predictions=None": (GOLD, None, InputTypeError, r"predictions is None"),
    "lists nested too deep": ([[[t] for t in s] for s in GOLD], PRED, InvalidTagError,
                              r"references, sentence 0, position 0: \['B-PER'\] is a list: "
                              r"references are nested too deep"),
    "a tag nested 1,000 deep": ([[DEEP] * 3, GOLD[1]], PRED, InvalidTagError,
                                r"references, sentence 0, position 0: \[\[\[+\.\.\.\]+ is a "
                                r"list: references are nested too deep"),
    "fewer predicted sentences": (GOLD, PRED[:1], SentenceCountError,
                                  r"predictions hold 1 sentence, references 2$"),
    "shorter predicted sentence": (GOLD, [PRED[0], ["O"]], LengthMismatchError,
                                   r"sentence 1: predictions have 1 item, references 2"),
    "no sentence at all": ([], [], EmptyInputError, r"references hold no sentence"),
}
# What a report calls the predictions: the system, by name.
# The evaluate modules take tag strings: their own check, before evaluate encodes the batch.
MODULE_MESSAGES = {
    "fewer predicted sentences": (ValueError, r"Mismatch in the number of predictions \(1\) "
                                              r"and references \(2\)"),  # evaluate's check
}


def _expected(case: str, entry: str):
    references, predictions, error, message = TAG_CASES[case]
    if entry == "nerlens.report":
        if message.startswith("predictions, "):
            message = "system 'tagger', " + message[len("predictions, "):]
        if case == "fewer predicted sentences":
            message = (r"^system 'tagger', sentence 1: predictions hold 1 sentence, the "
                       r"reference 2 sentences; after its last sentence, the reference goes on$")
        if case == "shorter predicted sentence":
            message = (r"^system 'tagger', sentence 1: length mismatch: predictions have 1 "
                       r"token, the reference 2")
        if case == "sentence given as a string":
            message = r"system 'tagger', sentence 1: the sentence is a string"
        if case == "predictions=None":
            message = r"predictions is None|system 'tagger'.*None"
    if case == "references=None" and (entry == "nerlens.report" or entry in EXPERIMENT_ENTRIES):
        message = r"no gold given \(GOLD\): the annotation the systems are scored against"
    if entry.startswith("metrics/") and case in MODULE_MESSAGES:
        error, message = MODULE_MESSAGES[case]
    if entry in EXPERIMENT_ENTRIES:
        error, message = _experiment_expected(case, entry, error, message)
    return references, predictions, error, message


# An experiment's one system given as [] or None has no predictions at all.
EXPERIMENT_NO_SYSTEM = ("predictions=None", "no sentence at all")


def _experiment_expected(case: str, entry: str, error, message):
    """An experiment's error: the report's, naming the dataset first, and the run."""
    system = "system 'tagger'" if entry == "nerlens.experiment" else "system 'tagger#2'"
    if entry == "nerlens.experiment" and case in EXPERIMENT_NO_SYSTEM:
        return ValueError, r"dataset 'd1': system 'tagger' has no predictions"
    if case == "predictions=None":
        return InputTypeError, rf"dataset 'd1': {system} is None: pass its predictions"
    if case == "fewer predicted sentences":
        return error, (rf"dataset 'd1', {system}, sentence 1: predictions hold 1 sentence, the "
                       r"reference 2")
    if case == "shorter predicted sentence":
        return error, (rf"dataset 'd1', {system}, sentence 1: length mismatch: predictions "
                       r"have 1 token, the reference 2")
    if message.startswith("predictions, "):
        return error, rf"dataset 'd1', {system}, " + message[len("predictions, "):]
    if message.startswith("references, "):
        return error, r"dataset 'd1', " + message
    return error, r"dataset 'd1': " + message


# A report takes systems={name: predictions}: its None case is a None system (below).
TAG_MATRIX = [(case, entry) for case in TAG_CASES for entry in TAG_ENTRIES
              if (case, entry) != ("predictions=None", "nerlens.report")]


@pytest.mark.parametrize("case, entry", TAG_MATRIX)
def test_bad_tags(case, entry):
    references, predictions, error, message = _expected(case, entry)
    with pytest.raises(error, match=message):
        TAG_ENTRIES[entry](references, predictions)


def test_report_refuses_a_none_system_and_a_list_of_systems():
    train = nerspan.as_train_index(**TRAIN)
    with pytest.raises(InputTypeError, match=r"system 'tagger' .*is None|predictions is None"):
        nerlens.build_report(GOLD, {"tagger": None}, tokens=TOKENS, train=train, bootstrap=0)
    with pytest.raises(InputTypeError, match=r"systems must map each system's name"):
        nerlens.build_report(GOLD, [PRED], tokens=TOKENS, train=train, bootstrap=0)


# -- strict mode: a tag outside the scheme, on the side where it is -------------------------
STRICT_ENTRIES = [e for e in TAG_ENTRIES if e != "nerlens.report"
                  and e not in EXPERIMENT_ENTRIES]


@pytest.mark.parametrize("entry", STRICT_ENTRIES)
def test_strict_mode_names_the_side_and_tag_that_are_wrong(entry):
    predictions = with_tag(PRED, 1, 1, "S-LOC")
    with pytest.raises(InvalidTagError, match=r"predictions, sentence 1, position 1: tag "
                                              r"'S-LOC' is not in the IOB2 scheme"):
        TAG_ENTRIES[entry](GOLD, predictions, mode="strict")


def test_strict_mode_in_a_report_names_the_system():
    with pytest.raises(InvalidTagError, match=r"system 'tagger', sentence 1, position 1: tag "
                                              r"'S-LOC' is not in the IOB2 scheme"):
        _report(GOLD, with_tag(PRED, 1, 1, "S-LOC"), mode="strict")


@pytest.mark.parametrize("entry", EXPERIMENT_ENTRIES)
def test_strict_mode_in_an_experiment_names_the_dataset_and_run(entry):
    system = "tagger" if entry == "nerlens.experiment" else "tagger#2"
    with pytest.raises(InvalidTagError, match=rf"dataset 'd1', system '{system}', sentence 1, "
                                              r"position 1: tag 'S-LOC' is not in the IOB2 "
                                              r"scheme"):
        TAG_ENTRIES[entry](GOLD, with_tag(PRED, 1, 1, "S-LOC"), mode="strict")


# -- label ids -----------------------------------------------------------------------------
ID_CASES = {
    "fractional id": (GOLD_IDS, [[1, 0, 0], [0, 1.7]], LabelIdError,
                      r"predictions, sentence 1, position 1: 1\.7 is not an integer label id"),
    "id outside the label list": ([[1, 2, 0], [0, 7]], PRED_IDS, LabelIdError,
                                  r"references, sentence 1, position 1: id 7 is outside the "
                                  r"label list \(0\.\.3\)"),
    "string where an id goes": (GOLD_IDS, [["B-PER", "O", "O"], ["O", "B-LOC"]],
                                LabelIdError, r"predictions, sentence 0, position 0: 'B-PER' "
                                r"is a string: with label_list, predictions must be integer"),
    "ids nested too deep": (GOLD_IDS, [[[1], [0], [0]], [[0], [3]]], LabelIdError,
                            r"predictions, sentence 0, position 0: \[1\] is a list: ids "
                            r"nested too deep"),
    "id row given as a 0-d array": (
        [np.array([1, 2, 0]), np.array(0)], PRED_IDS, InputTypeError,
        r"references, sentence 1: the sentence is a 0-d array \(array\(0\)\)"),
}


# A Trainer passes numeric arrays, and 3-D predictions are logits to it (see
# test_logits_to_the_api_and_to_the_trainer_helper): those two cases do not reach it.
ID_MATRIX = [(case, entry) for case in ID_CASES for entry in ID_ENTRIES
             if entry != "Trainer helper"
             or case not in ("string where an id goes", "ids nested too deep",
                             "id row given as a 0-d array")]


@pytest.mark.parametrize("case, entry", ID_MATRIX)
def test_bad_label_ids(case, entry):
    references, predictions, error, message = ID_CASES[case]
    if entry == "Trainer helper":
        references, predictions = _padded(references), _padded(predictions)
    with pytest.raises(error, match=message):
        _call_with_ids(entry, references, predictions)


def _padded(rows):
    width = max(len(r) for r in rows)
    out = np.full((len(rows), width), -100, dtype=float if _has_float(rows) else np.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def _has_float(rows) -> bool:
    return any(isinstance(x, float) for r in rows for x in r)


def _call_with_ids(entry, references, predictions, label_list=LABELS):
    if entry == "Trainer helper":
        return _trainer(references, predictions, label_list=label_list)
    return ID_ENTRIES[entry](references, predictions, label_list=label_list)


def _headline(result) -> dict:
    d = result if isinstance(result, dict) else result.to_dict()
    return {k: v for k, v in d.items() if isinstance(v, (int, float)) or v is None}


@pytest.mark.parametrize("entry", list(ID_ENTRIES))
def test_good_id_forms_give_the_tag_result(entry):
    """Integral floats, an id2label dict and an empty last sentence (with -100 positions
    dropped) are accepted and score exactly like the tag lists."""
    tags = ([s for s in GOLD] + [[]], [s for s in PRED] + [[]])
    refs = [[1, 2, -100, 0], [0, 3], []]
    preds = [[1.0, 0.0, 3.0, 0.0], [0.0, 3.0], []]
    id2label = {i: label for i, label in enumerate(LABELS)}
    if entry == "Trainer helper":
        ids = _trainer(_padded(refs[:2]), _padded(preds[:2]), label_list=id2label)
        expected = _trainer(_padded(refs[:2]), _padded(preds[:2]).astype(np.int64))
        assert ids == expected and ids["faireval_traditional_f1"] == 0.5
        return
    tokens_kept = TOKENS + [[]]
    call = ID_ENTRIES[entry]
    if entry == "nerspan.score":
        got, want = call(refs, preds, label_list=id2label), call(*tags)
    elif entry == "faireval.score":
        got, want = call(refs, preds, label_list=id2label), call(*tags)
    else:
        module = {"tough_mentions.score": tough_mentions, "hardeval.score": hardeval,
                  "attribute_buckets.score": attribute_buckets}[entry]
        got = module.score(refs, preds, tokens=tokens_kept, label_list=id2label, **TRAIN)
        want = module.score(*tags, tokens=tokens_kept, **TRAIN)
    assert _headline(got) == _headline(want)


@pytest.mark.parametrize("entry", list(ID_ENTRIES))
def test_suffix_labels_with_ids(entry):
    """``suffix=True`` with label ids reads the label list type first (``PER-B``) at
    every entry point that takes ids, the Trainer helper's included: the tag result, and
    a label that is no suffix tag named as written."""
    def turned(tag):
        return tag if tag == "O" else "-".join(tag.split("-")[::-1])

    suffix_labels = [turned(label) for label in LABELS]
    refs, preds = GOLD_IDS, PRED_IDS
    plain, suffixed = {}, {}
    if entry == "Trainer helper":   # padded ids; its training index is built already
        refs, preds, call = _padded(refs), _padded(preds), _trainer
    elif entry in ("nerspan.score", "faireval.score"):
        call = ID_ENTRIES[entry]
    else:
        call = {"tough_mentions.score": tough_mentions, "hardeval.score": hardeval,
                "attribute_buckets.score": attribute_buckets}[entry].score
        plain = dict(tokens=TOKENS, **TRAIN)
        suffixed = dict(tokens=TOKENS, train=(TRAIN["train"][0],  # type first too
                                              [[turned(t) for t in s] for s in TRAIN["train"][1]]))
    turn = dict(inputs={"suffix": True})
    got = call(refs, preds, label_list=suffix_labels, **turn, **suffixed)
    assert _headline(got) == _headline(call(refs, preds, label_list=LABELS, **plain))
    with pytest.raises(InvalidTagError, match=r"references, sentence 0, position 0: 'PER-X' "
                                              r"\(written type first, read as 'X-PER'\) is "
                                              r"not a tag"):
        call(refs, preds, label_list=["O", "PER-X"] + suffix_labels[2:], **turn, **suffixed)


def test_label_list_dict_must_cover_every_id():
    with pytest.raises(LabelIdError, match=r"must map every id 0\.\.2 to a tag; ids \[0, 1, "
                                           r"3\] given, missing \[2\]"):
        nerspan.score(GOLD_IDS, PRED_IDS, label_list={0: "O", 1: "B-PER", 3: "B-LOC"})
    with pytest.raises(InputTypeError, match="label_list must be the tags in id order"):
        nerspan.score(GOLD_IDS, PRED_IDS, label_list="O B-PER")


def test_logits_to_the_api_and_to_the_trainer_helper():
    logits = np.zeros((2, 3, len(LABELS)))
    logits[0, 0, 1] = logits[1, 1, 3] = 1.0
    with pytest.raises(InputTypeError, match=r"predictions is a 3-D array of shape \(2, 3, 4\).*"
                                             r"argmax\(-1\).*make_compute_metrics"):
        nerspan.score(_padded(GOLD_IDS), logits, label_list=LABELS)
    scores = _trainer(_padded(GOLD_IDS), logits)  # the Trainer helper takes logits
    assert scores["faireval_traditional_f1"] == 0.5


def test_label_ids_without_label_list():
    with pytest.raises(InvalidTagError, match=r"references, sentence 0, position 0: 1 of type "
                                              r"int is not a string; label ids need label_list"):
        nerspan.score(GOLD_IDS, PRED_IDS)


@pytest.mark.parametrize("family", ["faireval", "tough_mentions", "hardeval",
                                    "attribute_buckets"])
def test_evaluate_modules_explain_label_ids(family):
    refs = [[1, 2, -100], [0, 3]]
    with pytest.raises(InputTypeError, match=rf"the {family} module takes tag strings per "
                                             r"sentence, but predictions hold 1 of type int.*"
                                             r"label_list.*make_compute_metrics"):
        _evaluate_module(family)(refs, [[1, 0, 0], [0, 3]])


# -- options -------------------------------------------------------------------------------
OPTION_CASES = [
    ("hardeval.score", {"strict_diff": "False"}, InputTypeError,
     r"strict_diff must be True or False, not 'False' \(a str\)"),
    ("metrics/hardeval", {"strict_diff": "False"}, InputTypeError,
     r"strict_diff must be True or False"),
    ("hardeval.score", {"return_hard_tokens": 1}, InputTypeError,
     r"return_hard_tokens must be True"),
    ("hardeval.score", {"return_tokens": True}, TypeError,
     r"takes no return_tokens since nerlens 0\.2: return_hard_tokens=True"),
    ("tough_mentions.score", {"case_sensitive": "no"}, InputTypeError,
     r"case_sensitive must be True or False"),
    ("metrics/tough_mentions", {"return_mentions": "yes"}, InputTypeError,
     r"return_mentions must be True or False"),
    ("faireval.score", {"return_pairs": "False"}, InputTypeError,
     r"return_pairs must be True or False"),
    ("metrics/faireval", {"reference_iteration": "True"}, InputTypeError,
     r"reference_iteration must be True or False"),
    ("faireval.score", {"weights": {"BE": (1e308, 1e308, 0)}}, ValueError,
     r"weights: the weighted TP \+ FP \+ FN of these counts \(TP 1, LE 0, BEs 1, .*\) is too "
     r"large for a float"),
    ("metrics/faireval", {"weights": {"TP": (1e308, 0, 1e308)}}, ValueError,
     r"weights: the weighted TP \+ FP \+ FN of these counts \(TP 1, .*\) is too large"),
    ("faireval.score", {"weights": {"LE": (10 ** 400, 0, 0)}}, ValueError,
     r"weight of LE has a share too large for a float \(over 1\.8e\+308\)"),
    ("attribute_buckets.score", {"lowercase": "False"}, InputTypeError,
     r"lowercase must be True or False"),
    ("attribute_buckets.score", {"case_sensitive": True}, TypeError,
     r"takes no case_sensitive since nerlens 0\.2: lowercase, its opposite"),
    ("attribute_buckets.score", {"n_buckets": 2.7}, InputTypeError,
     r"n_buckets must be an integer, not 2\.7"),
    ("metrics/attribute_buckets", {"n_buckets": 2.7}, InputTypeError,
     r"n_buckets must be an integer"),
    ("attribute_buckets.score", {"options": {"bootstrap": -5}}, ValueError,
     r"bootstrap must be at least 0"),
    ("attribute_buckets.score", {"bootstrap": 5}, TypeError,
     r"takes bootstrap in its options: options=\{'bootstrap': 5\}"),
    ("attribute_buckets.score", {"bucket_edges": {"eLn": [0, 1, 2]}}, ValueError,
     r"bucket_edges names \['eLn'\], which are not among the attributes computed"),
    ("metrics/attribute_buckets", {"bucket_edges": {"eLn": [0, 1, 2]}}, ValueError,
     r"bucket_edges names \['eLn'\]"),
    # F-beta is a view of the result (``to_dict(beta=)``, ``test_beta_of_a_result``): a
    # score takes none; the modules, the report and the experiment check it as given
    ("nerspan.score", {"beta": 2}, TypeError,
     r"^score\(\) takes no beta since nerlens 0\.2: ask the result for F-beta, "
     r"result\.to_dict\(beta=2\)$"),
    ("faireval.score", {"beta": 0.5}, TypeError, r"to_dict\(beta=0\.5\)"),
    ("tough_mentions.score", {"beta": 0}, TypeError, r"takes no beta since nerlens 0\.2"),
    ("metrics/faireval", {"beta": -1}, ValueError, r"beta must be a number > 0"),
    ("metrics/tough_mentions", {"beta": "x"}, InputTypeError, r"beta must be a number > 0"),
    ("metrics/attribute_buckets", {"beta": 1e200}, ValueError,
     r"^beta must be at most 1e\+150 \(F-beta squares it"),
    ("metrics/faireval", {"beta": 1e-160}, ValueError, r"^beta must be at least 1e-150 "),
    ("nerlens.report", {"beta": 1e200}, ValueError, r"^beta must be at most 1e\+150 "),
    ("nerlens.experiment", {"beta": 1e200}, ValueError, r"beta must be at most 1e\+150 "),
    ("faireval.score", {"schemas": "semeval", "min_overlap": 0}, ValueError,
     r"min_overlap must be a fraction of the gold span's tokens in \(0, 1\] \(nervaluate's "
     r"min_overlap_percentage / 100\), not 0"),
    ("faireval.score", {"schemas": "semeval", "min_overlap": 50}, ValueError,
     r"min_overlap must be a fraction .* not 50"),
    ("metrics/faireval", {"schemas": "semeval", "min_overlap": 1.01}, ValueError,
     r"min_overlap must be a fraction"),
    ("faireval.score", {"schemas": "semeval", "min_overlap": "1%"}, InputTypeError,
     r"min_overlap must be a number in \(0, 1\], not '1%'"),
    ("faireval.score", {"min_overlap": 0.5}, ValueError,
     r"min_overlap \(--min-overlap\) applies to the SemEval-2013 schemas: give "
     r"schemas='semeval' \(--schemas semeval"),
    ("faireval.score", {"schemas": "semeval", "pairing": "best"}, ValueError,
     r"pairing must be one of 'greedy', 'optimal', not 'best'"),
    ("faireval.score", {"schemas": "semeval", "matching": "optimal"}, TypeError,
     r"takes no matching since nerlens 0\.2: pairing='optimal'"),
    ("metrics/faireval", {"schemas": "semeval", "pairing": "hungarian"}, ValueError,
     r"pairing must be one of 'greedy', 'optimal', not 'hungarian'"),
    # the entity confusion matrix is the evaluation's; the modules add it on request
    ("metrics/hardeval", {"confusion": 1}, InputTypeError,
     r"confusion must be True or False, not 1"),
    ("nerspan.score", {"confusion": True}, TypeError,
     r"^score\(\) takes no confusion since nerlens 0\.2: the entity confusion matrix is "
     r"the evaluation's: nerspan\.Evaluation\.build\(references, predictions\)"
     r"\.confusion\('pred'\)$"),
    ("tough_mentions.score", {"confusion": True}, TypeError, r"takes no confusion"),
    ("hardeval.score", {"confusion": True}, TypeError, r"takes no confusion"),
    ("faireval.score", {"confusion": True}, TypeError, r"takes no confusion"),
    ("attribute_buckets.score", {"confusion": True}, TypeError, r"takes no confusion"),
    ("nerlens.report", {"beta": 0}, ValueError, r"beta must be a number > 0 .*not 0"),
    ("nerlens.experiment", {"beta": -1}, ValueError, r"beta must be a number > 0 .*not -1"),
    ("nerlens.experiment, a run", {"beta": "2"}, InputTypeError,
     r"beta must be a number > 0, not '2' \(a str\)"),
    ("nerlens.report", {"beta": 2, "options": {"faireval": {"beta": 3}}}, InputTypeError,
     r"unknown faireval option 'beta'"),
    # a type_map key that a type matches in another case names no type (case-sensitive)
    ("nerspan.score", {"inputs": {"type_map": {"per": "X"}}}, TypeNotFoundError,
     r"^mapped type 'per' occurs in no tag \(the types: LOC, PER\); 'per': did you mean "
     r"'PER'\? \(type names are case-sensitive\)$"),
    ("metrics/faireval", {"type_map": {"per": "X"}}, TypeNotFoundError,
     r"'per': did you mean 'PER'\?"),
    ("tough_mentions.score", {"inputs": {"type_map": {"LOC": "GPE"}, "keep_types": ["loc"]}},
     TypeNotFoundError, r"^kept type 'loc' occurs in no tag \(the types: LOC, PER; by "
                        r"type_map: GPE\); 'loc': did you mean 'LOC'\?"),
    ("nerspan.score", {"inputs": {"suffix": 1}}, InputTypeError, r"suffix must be True or False"),
    ("nerspan.score", {"suffix": True}, TypeError,
     r"^score\(\) takes suffix with the input options since nerlens 0\.2: "
     r"inputs=\{'suffix': True\}$"),
    ("metrics/faireval", {"suffix": "True"}, InputTypeError, r"suffix must be True or False"),
    ("nerspan.score", {"zero_division": 0.5}, ValueError, r"zero_division must be 0 or 1"),
    ("nerspan.score", {"scheme": "BIOX"}, ValueError, r"unknown tag scheme 'BIOX'"),
    ("faireval.score", {"mode": "loose"}, ValueError, r"unknown decoding mode 'loose'"),
    ("nerlens.report", {"bootstrap": -5}, ValueError, r"bootstrap must be at least 0"),
    ("nerlens.report", {"figures": "no"}, InputTypeError, r"figures must be True or False"),
    ("nerlens.report", {"confidence": 95}, ValueError,
     r"confidence must be between 0 and 1 \(exclusive\), not 95"),
    ("nerlens.report", {"families": ("nope",)}, ValueError, r"unknown metric family 'nope'"),
    ("nerlens.report", {"families": "faireval"}, InputTypeError,
     r"families must be a list of family names, not 'faireval' \(a str\)"),
    ("nerlens.experiment", {"bootstrap": -5}, ValueError,
     r"^bootstrap must be at least 0"),   # checked once, before any dataset is read
    ("nerlens.experiment", {"figures": "no"}, InputTypeError,
     r"^figures must be True or False"),   # the experiment draws the figures
    ("nerlens.experiment", {"mode": "loose"}, ValueError,
     r"dataset 'd1': unknown decoding mode 'loose'"),
    ("nerlens.experiment", {"alpha": 5}, ValueError,
     r"alpha must be between 0 and 1 \(exclusive\), not 5"),
    ("nerlens.experiment", {"alpha": "0.05"}, InputTypeError,
     r"alpha must be a number between 0 and 1, not '0\.05' \(a str\)"),
    ("nerlens.experiment", {"baseline": "other"}, ValueError,
     r"dataset 'd1' has no system 'other' \(the baseline\)"),
    ("nerlens.experiment", {"seeds": 3}, TypeError, r"unexpected keyword argument 'seeds'"),
    ("nerlens.report", {"datasets": {}}, TypeError,
     r"^build_report\(\) takes no datasets since nerlens 0\.2: nerlens\.run_experiment"),
]


BETA_CASES = [
    (0, ValueError, r"^beta must be a number > 0 \(the weight of recall against precision in "
                    r"F-beta\), not 0$"),
    (-2.0, ValueError, r"beta must be a number > 0 .*not -2\.0"),
    ("2", InputTypeError, r"^beta must be a number > 0, not '2' \(a str\)$"),
    (float("nan"), ValueError, r"beta must be a number > 0"),
    (True, InputTypeError, r"beta must be a number > 0, not True \(a bool\)"),
    # finite, but its square is not a float (seqeval: OverflowError) or is 0
    (1e200, ValueError, r"^beta must be at most 1e\+150 \(F-beta squares it, and the square "
                        r"of a larger beta overflows a float\), not 1e\+200$"),
    (1e-200, ValueError, r"^beta must be at least 1e-150 \(F-beta squares it, and the square "
                         r"of a smaller beta is 0 in a float: F-beta would be the precision\), "
                         r"not 1e-200$"),
]


@pytest.mark.parametrize("beta, error, message", BETA_CASES)
@pytest.mark.parametrize("entry", SCORES_OF_TAGS)
def test_beta_of_a_result(entry, beta, error, message):
    """F-beta is asked of a result, ``to_dict(beta=...)``: checked there, in every family."""
    result = TAG_ENTRIES[entry](GOLD, PRED)
    with pytest.raises(error, match=message):
        result.to_dict(beta=beta)


@pytest.mark.parametrize("entry, options, error, message", OPTION_CASES,
                         ids=[f"{e}-{next(iter(o))}" for e, o, _, _ in OPTION_CASES])
def test_bad_options(entry, options, error, message):
    with pytest.raises(error, match=message):
        TAG_ENTRIES[entry](GOLD, PRED, **options)


# faireval scores nested spans; generated output with its overlaps kept is faireval's
# alone (an Evaluation refuses it); nested span lists an Evaluation keeps as a table
NESTED_CONFUSION = {
    "generated output, overlaps kept": ([["B-PER", "I-PER", "O"]],
                                        ["<PER>a b</PER> <LOC>b</LOC>"], {"overlaps": "keep"},
                                        InputTypeError, r"overlaps=\"keep\" keeps nested .*"
                                        r"which only faireval scores"),
}


@pytest.mark.parametrize("case", sorted(NESTED_CONFUSION))
def test_faireval_confusion_of_nested_spans(case):
    references, predictions, options, error, message = NESTED_CONFUSION[case]
    scored = faireval.score(references, predictions, tokens=[["a", "b", "c"]], inputs=options)
    assert "confusion" not in scored.to_dict()   # faireval scores them
    with pytest.raises(error, match=message):
        Evaluation.build(references, predictions, tokens=[["a", "b", "c"]], inputs=options)


# -- crashes that are now results ----------------------------------------------------------
def test_mention_longer_than_the_training_set():
    gold = [["B-PER"] + ["I-PER"] * 4]
    result = attribute_buckets.score(gold, gold, tokens=[["a"] * 5], train=([["a"] * 3], [["B-PER", "O", "O"]]))
    assert result.f1 == 1.0 and result.bucket_f1("eCon") == [1.0, None, None, None]


def test_hardeval_identity_under_every_error_label_convention():
    """The issue's example: identical gold and predictions, I after O in IOB2."""
    for error_labels in hardeval.ERROR_LABELS:
        r = hardeval.score([["O", "I-PER"]], [["O", "I-PER"]], tokens=[["Kim", "Kim"]],
                           train=([["Kim"]], [["O"]]),
                           error_labels=error_labels)
        assert r.ter() == 0.0
        if error_labels == "bilou":  # both sides read by the reference rule, both counted
            assert r.repairs["gold"]["dropped_inside"] == r.repairs["pred"]["dropped_inside"] == 1


def test_strict_decoding_counts_what_it_discards_and_warns():
    tags = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG"]]
    with pytest.warns(nerspan.DecodingWarning) as record:
        result = nerspan.score(tags, tags, scheme="IOBES", mode="strict")
    assert sorted(str(w.message)[:70] for w in record) == [
        "strict IOBES decoding discarded 3 of the 3 chunks of the predictions: ",
        "strict IOBES decoding discarded 3 of the 3 chunks of the references: d"]
    repairs = result.to_dict()["repairs"]["gold"]
    assert repairs["discarded_chunks"] == 3 and repairs["lenient_chunks"] == 3
    assert repairs["sentences"] == [0, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # losing one chunk of three warns nobody
        result = nerspan.score([["B-PER", "I-PER", "O", "I-LOC", "B-ORG"]],
                               [["B-PER", "I-PER", "O", "O", "B-ORG"]], mode="strict")
    assert result.to_dict()["repairs"]["gold"]["discarded_chunks"] == 1
    assert result.to_dict()["repairs"]["pred"]["discarded_chunks"] == 0


@pytest.mark.parametrize("family", [tough_mentions, hardeval, attribute_buckets])
def test_training_data_errors_name_the_training_side(family):
    with pytest.raises(InvalidTagError, match=r"training tags, sentence 0, position 1: 'X-PER' "
                                              r"is not a tag"):
        family.score(GOLD, PRED, tokens=TOKENS, train=([["Ana", "sings"]], [["B-PER", "X-PER"]]))
    with pytest.raises(LengthMismatchError, match=r"^sentence 0: training tokens have 2 items, "
                                                  r"training tags 1$"):
        family.score(GOLD, PRED, tokens=TOKENS, train=([["Ana", "sings"]], [["B-PER"]]))


@pytest.mark.parametrize("references, message", [
    ([[("PER", 1.5, 2)]], r"references, sentence 0: span \('PER', 1\.5, 2\) needs integer "
                          r"start and end"),
    ([[("P" * 100, 3, 2)]], r"references, sentence 0: span \(3, 2, 'P+\.\.\. \(100 "
                            r"characters\)\) is empty or reversed"),
    ([[("PER", 0, 1)], "PER"], r"references, sentence 1: the sentence is a string"),
])
def test_faireval_span_lists(references, message):
    with pytest.raises(nerspan.NerspanError, match=message):
        faireval.score(references, [[]] * len(references))


LEVELS = r"span label 'A\|B' holds '\|', which separates the levels of multi-level tags"


@pytest.mark.parametrize("entry", ["faireval.score", "metrics/faireval", "nerspan.score",
                                   "tough_mentions.score"])
@pytest.mark.parametrize("references, predictions, message", [
    ([[{"label": "A|B", "start": 0, "end": 2}], []], PRED,
     r"references, sentence 0: " + LEVELS),
    (GOLD, [[], [{"label": "A|B", "start": 1, "end": 2}]],
     r"predictions, sentence 1: " + LEVELS),
], ids=["references", "predictions"])
def test_a_level_separator_in_a_span_label_is_refused_where_spans_become_tags(
        entry, references, predictions, message):
    # as a tag the span is B-A|B, which faireval (and so a report) reads as two levels;
    # faireval's span lists on both sides never become tags and keep it
    with pytest.raises(nerspan.NerspanError, match=message):
        TAG_ENTRIES[entry](references, predictions)
    spans = [[("A|B", 0, 2)], [("LOC", 1, 2)]]
    assert faireval.score(spans, spans).counts["TP"] == 2


# -- an experiment's own declaration -------------------------------------------------------
def _declared(**entry):
    """One dataset "d1" with the usual gold, tokens, training index and system "tagger",
    its keys replaced by ``entry`` (a key given as ``...`` is left out)."""
    base = {"gold": GOLD, "tokens": TOKENS, "train": nerspan.as_train_index(**TRAIN),
            "systems": {"tagger": PRED}}
    base.update(entry)
    return {"d1": {key: value for key, value in base.items() if value is not ...}}


CORPUS = nerspan.Corpus.from_tags(GOLD, tokens=TOKENS, columns={"tagger": PRED})
EXPERIMENT_CASES = {
    "no dataset": ({}, InputTypeError, r"datasets must map each dataset's name to"),
    "a list of datasets": ([_declared()["d1"]], InputTypeError,
                           r"datasets must map each dataset's name to"),
    "a dataset as a file name": ({"d1": "gold.txt"}, InputTypeError,
                                 r"dataset 'd1': give a mapping with \"gold\", \"train\" and "
                                 r"\"systems\", not a str"),
    "a dataset without gold": (_declared(gold=...), ValueError,
                               r"dataset 'd1': give \"gold\" \(a column file or tag lists\) or "
                               r"a prebuilt \"corpus\", one of the two"),
    "gold and a corpus": (_declared(corpus=CORPUS), ValueError,
                          r"dataset 'd1': give \"gold\" .* one of the two"),
    "gold None": (_declared(gold=None), InputTypeError, r"dataset 'd1': no gold given \(GOLD\)"),
    "no tokens": (_declared(tokens=...), ValueError,
                  r"dataset 'd1': the report needs the tokens of the evaluation sentences"),
    "a missing gold file": (_declared(gold="nope_gold.txt", tokens=...), FileNotFoundError,
                            r"no such file \(dataset 'd1'\): .*nope_gold\.txt"),
    "a missing run file": (_declared(systems={"tagger": ["nope_1.txt", "nope_2.txt"]}),
                           FileNotFoundError,
                           r"no such file \(dataset 'd1', system 'tagger#1'\): 'nope_1\.txt'"),
    "systems as a list": (_declared(systems=[PRED]), ValueError,
                          r"dataset 'd1': \"systems\" maps each system's name to its "
                          r"predictions"),
    "a system named by a number": (_declared(systems={1: PRED}), ValueError,
                                   r"dataset 'd1': a system's name is a non-empty string, not 1"),
    "a corpus without the run's column": (
        _declared(gold=..., tokens=..., corpus=CORPUS, systems={"tagger": ["tagger", "t2"]}),
        ValueError, r"dataset 'd1': system 'tagger': no column 't2' in the corpus"),
}


@pytest.mark.parametrize("case", EXPERIMENT_CASES)
def test_bad_experiment_declarations(case):
    datasets, error, message = EXPERIMENT_CASES[case]
    with pytest.raises(error, match=message):
        nerlens.run_experiment(datasets, bootstrap=0, figures=False)


def test_experiment_inputs_must_be_input_options():
    with pytest.raises(InputTypeError, match=r"^InputOptions options must be a dict or an "
                                             r"InputOptions, not 5 \(an int\)$"):
        nerlens.run_experiment(_declared(), bootstrap=0, figures=False, inputs=5)


def test_runs_of_different_counts_pair_the_first_runs():
    """Documented, not refused: run k of one system is paired with run k of the other, so
    a system's extra runs count in its mean and std, not in the Wilcoxon pairs."""
    other = with_tag(PRED, 0, 1, "I-PER")
    exp = nerlens.run_experiment(_declared(systems={"a": [PRED, other, PRED], "b": [GOLD, PRED]}),
                             bootstrap=0, figures=False, families=("faireval",))
    assert exp.runs["d1"] == {"a": ["a#1", "a#2", "a#3"], "b": ["b#1", "b#2"]}
    assert exp.aggregate["d1"]["a"]["entity_f1"]["n"] == 3
    assert exp.aggregate["d1"]["b"]["entity_f1"]["n"] == 2
    assert exp.wilcoxon["a vs b"]["entity_f1"]["n_pairs"] == 2


# -- a gold context and the options it fixes -----------------------------------------------
FAMILIES = {"tough_mentions": tough_mentions, "hardeval": hardeval, "faireval": faireval,
            "attribute_buckets": attribute_buckets}
CONFLICTS = {
    "scheme": ({"scheme": "IOBES"}, r"^scheme='IOBES' conflicts with the evaluation's "
                                    r"scheme 'IOB2': build the evaluation with it, or omit it$"),
    "mode": ({"mode": "strict"}, r"^mode='strict' conflicts with the evaluation's mode "
                                 r"'lenient': build the evaluation with it, or omit it$"),
    "train": ({"train": nerspan.as_train_index(**TRAIN)},
              r"^train conflicts with the evaluation's training index: give the training "
              r"data when building the evaluation, not to score$"),
}


def _context():
    return Evaluation.build(GOLD, tokens=TOKENS, **TRAIN)


@pytest.mark.parametrize("option", CONFLICTS)
@pytest.mark.parametrize("family", FAMILIES)
def test_gold_context_refuses_a_conflicting_option(family, option):
    options, message = CONFLICTS[option]
    with pytest.raises(ValueError, match=message):
        FAMILIES[family].score(_context(), PRED, **options)


@pytest.mark.parametrize("family", ["tough_mentions", "hardeval", "attribute_buckets"])
def test_gold_context_refuses_other_training_lists(family):
    with pytest.raises(ValueError, match=r"^train conflicts with the evaluation's training "
                                         r"index"):
        FAMILIES[family].score(_context(), PRED, train=([["Rio"]], [["B-LOC"]]))


@pytest.mark.parametrize("family", FAMILIES)
def test_gold_context_names_an_unknown_mode_as_unknown(family):
    with pytest.raises(ValueError, match=r"^unknown decoding mode 'loose'"):
        FAMILIES[family].score(_context(), PRED, mode="loose")


# -- inputs a probe of the API found unchecked (2026-11-24) -----------------------------------
def test_a_set_is_refused_as_a_sentence_and_as_the_sentences():
    """A set has no order: its tags would meet the other side's in any order (the scores
    changed with PYTHONHASHSEED)."""
    with pytest.raises(InputTypeError, match=r"references, sentence 0: the sentence is a set"):
        nerspan.score([{"B-PER", "I-PER"}], [["B-PER", "I-PER"]])
    with pytest.raises(InputTypeError, match=r"predictions must be a list of sentences .*not a "
                                             r"frozenset"):
        nerspan.score([["B-PER"]], frozenset({("B-PER",)}))
    with pytest.raises(InputTypeError, match=r"references must be a list of sentences .*not an "
                                             r"int"):
        nerspan.score(5, [["O"]])


@pytest.mark.parametrize("label_list, error, match", [
    ([], EmptyInputError, "label_list is empty"),
    ({}, EmptyInputError, "label_list is empty"),
    (5, InputTypeError, "label_list must be the tags in id order"),
    ({"O", "B-PER"}, InputTypeError, "label_list must be the tags in id order"),
    ({0.0: "O", 1.5: "B-PER"}, InputTypeError, r"must map integer ids to tags .*1\.5"),
    ({0: "O", "0": "B-PER", 1: "B-PER"}, InputTypeError, r"must map integer ids to tags"),
    ({False: "O", True: "B-PER"}, InputTypeError, r"must map integer ids to tags"),
], ids=["empty list", "empty dict", "int", "set", "float key", "id given twice", "bool keys"])
def test_a_label_list_that_is_not_one_is_refused(label_list, error, match):
    with pytest.raises(error, match=match):
        nerspan.score([[1]], [[1]], label_list=label_list)


def test_id2label_keys_may_be_ints_numpy_ints_or_their_strings():
    for label_list in ({"1": "B-PER", "0": "O"}, {np.int64(1): "B-PER", np.int64(0): "O"}):
        assert nerspan.score([[1, 0]], [[1, 0]], label_list=label_list).micro() == (1, 1, 1)


def test_predictions_beside_a_corpus_are_named_predictions_and_read_with_label_list():
    corpus = nerspan.Corpus.from_tags([["B-PER", "O"]])
    with pytest.raises(InputTypeError, match=r"^predictions, sentence 0: the sentence is None"):
        nerspan.score(corpus, [None])
    with pytest.raises(InvalidTagError, match=r"^predictions, sentence 0, position 1: 'X' is "):
        nerspan.score(corpus, [["B-PER", "X"]])
    assert nerspan.score(corpus, [[1, 0]], label_list=["O", "B-PER"]).micro() == (1, 1, 1)


def test_a_label_list_other_than_the_splits_classlabel_names_is_refused():
    datasets = pytest.importorskip("datasets")
    names = ["O", "B-PER", "I-PER"]
    split = datasets.Dataset.from_dict(
        {"tokens": [["Ana", "Lima"]], "ner_tags": [[1, 2]]},
        features=datasets.Features({
            "tokens": datasets.Sequence(datasets.Value("string")),
            "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names))}))
    for score in (nerspan.score, faireval.score):
        assert score(split, [[1, 2]], label_list=dict(enumerate(names))).to_dict()
        with pytest.raises(InputTypeError, match=r"label_list \['O', 'B-LOC', 'I-LOC'\] is not "
                                                 r"the split's ClassLabel names"):
            score(split, [[1, 2]], label_list=["O", "B-LOC", "I-LOC"])


def test_o_with_a_hyphen_is_not_a_tag():
    with pytest.raises(InvalidTagError, match=r"'O-' is not a tag: O takes no type"):
        nerspan.score([["O-"]], [["O"]])


@pytest.mark.parametrize("subsets, match", [
    ([[0, 1.9, 0], [0, 0]], r"subsets, sentence 0, position 1: subset code 1\.9 is not an "
                            r"integer leaf code"),
    ([[0, True, 0], [0, 0]], r"subsets, sentence 0, position 1: subset code True is not"),
    ([[0, 0, 0], [0, "a"]], r"subsets, sentence 1, position 1: subset code 'a' is not"),
    ([0, 0], r"subsets, sentence 0: the sentence is an int"),
    ([None, [0, 0]], r"subsets, sentence 0: the sentence is None"),
], ids=["fraction", "bool", "string", "ints for sentences", "None"])
def test_hardeval_subset_codes_are_read_exactly(subsets, match):
    with pytest.raises(nerspan.NerspanError, match=match):
        hardeval.score(GOLD, PRED, subsets=subsets)


def test_bucket_edges_must_be_numbers():
    for edges, match in (([0, float("nan"), 5], "not NaN"), ([0, "a", 5], "must be numbers")):
        with pytest.raises(nerspan.NerspanError, match=match):
            attribute_buckets.score(GOLD, PRED, attributes=["eLen"], bucket_edges={"eLen": edges})


def _logits(ids, n_classes):
    return np.eye(n_classes)[np.asarray(ids)]


def test_trainer_helper_refuses_logits_over_other_classes_and_nan_logits():
    compute = make_compute_metrics(LABELS, metrics=("faireval",))
    labels = np.array([[1, 2, 0], [0, 3, -100]])
    batch = types.SimpleNamespace(predictions=_logits([[1, 2, 0], [0, 2, 0]], 3),
                                  label_ids=labels)
    with pytest.raises(InputTypeError, match=r"logits over 3 classes, but label_list has 4"):
        compute(batch)
    logits = _logits([[1, 2, 0], [0, 3, 0]], 4)
    logits[1, 2] = np.nan  # a padded position: not read
    assert compute(types.SimpleNamespace(predictions=logits, label_ids=labels))
    logits[1, 1, 0] = np.nan
    with pytest.raises(LabelIdError, match=r"predictions, sentence 1, position 1: the logits "
                                           r"are NaN"):
        compute(types.SimpleNamespace(predictions=logits, label_ids=labels))
    with pytest.raises(InputTypeError, match="no predictions or no label_ids"):
        compute(types.SimpleNamespace(predictions=logits, label_ids=None))


def test_trainer_helper_checks_its_words_and_family_names():
    with pytest.raises(InputTypeError, match=r"eval_tokens, sentence 0: the sentence is a "
                                             r"string"):
        make_compute_metrics(LABELS, metrics=("tough_mentions",), eval_tokens=["Ab", "L"],
                             train=(TRAIN["train"][0], TRAIN["train"][1]))
    with pytest.raises(InputTypeError, match="families must be a list of family names"):
        make_compute_metrics(LABELS, metrics="faireval")


@pytest.mark.parametrize("train, match", [
    (dict(train=5), r"train must be a TrainIndex, .* not 5 \(an int\)"),
    (dict(train=[["Ana"]]), r"train must be a TrainIndex, .*\(a list\)"),
    (dict(train=("Ana", TRAIN["train"][1])),
     r"train's tokens must be token lists per sentence, not 'Ana'"),
    (dict(train=nerspan.Corpus.from_tags(TRAIN["train"][1])),
     r"the training corpus needs tokens"),
], ids=["int", "tokens without tags", "a string of tokens", "corpus without tokens"])
def test_training_data_of_no_accepted_form_is_refused_naming_it(train, match):
    with pytest.raises(InputTypeError, match=match):
        tough_mentions.score(GOLD, PRED, tokens=TOKENS, **train)


@pytest.mark.parametrize("old", ["train_tokens", "train_tags"])
def test_old_training_keywords_name_the_one_train(old):
    with pytest.raises(TypeError, match=rf"^score\(\) takes no {old} since nerlens 0\.2: give "
                                        r"train=\(train_tokens, train_tags\)$"):
        tough_mentions.score(GOLD, PRED, tokens=TOKENS, **{old: TRAIN["train"][0]})


# -- issue 28: the input options, in every family (nerspan.InputOptions) -------------------
SCORES = {"nerspan.score": nerspan, "tough_mentions.score": tough_mentions,
          "hardeval.score": hardeval, "faireval.score": faireval,
          "attribute_buckets.score": attribute_buckets}
NEEDS_TRAIN = ("tough_mentions.score", "hardeval.score", "attribute_buckets.score")
# PRED's mentions as spans, each form with the input options that read it
PRED_SPANS = {
    "inclusive ends": ([[{"label": "PER", "start": 0, "end": 0}],
                        [{"label": "LOC", "start": 1, "end": 1}]], dict(inclusive_end=True)),
    "characters in texts": ([[{"entity_group": "PER", "start": 1, "end": 4, "word": "Ana",
                               "score": 0.9}],
                             [{"entity_group": "LOC", "start": 3, "end": 6, "word": "Rio",
                               "score": 0.8}]], dict(texts=[" Ana  Lima sings", "in\tRio"])),
    "snapped characters": ([[{"entity_group": "PER", "start": 0, "end": 2, "word": "An",
                              "score": 0.9}],
                            [{"entity_group": "LOC", "start": 3, "end": 6, "word": "Rio",
                              "score": 0.8}]], dict(snap=True)),
    # spaCy's, GLiNER's dicts: characters of the text (issue 37)
    "characters counted": ([[{"label": "PER", "start": 0, "end": 3}],
                            [{"label": "LOC", "start": 3, "end": 6}]],
                           dict(texts=["Ana Lima sings", "in Rio"], offsets="chars")),
}


def _scored(entry, references, predictions, **inputs):
    """``entry``'s score of the two sides read with the input options ``inputs``."""
    extra = dict(TRAIN) if entry in NEEDS_TRAIN else {}
    return SCORES[entry].score(references, predictions, tokens=TOKENS, **extra,
                               inputs=inputs)


def _numbers(result) -> dict:
    """A result without its repairs (what span input repaired is its own business)."""
    d = result if isinstance(result, dict) else result.to_dict()
    return {k: v for k, v in d.items() if k != "repairs"}


@pytest.mark.parametrize("form", PRED_SPANS)
@pytest.mark.parametrize("entry", SCORES)
def test_every_input_option_in_every_family(entry, form):
    spans, options = PRED_SPANS[form]
    by_tags = _scored(entry, GOLD, PRED)
    by_spans = _scored(entry, GOLD, spans, **options)
    assert _numbers(by_spans) == _numbers(by_tags)
    assert by_spans.to_dict()["repairs"].get("pred", {}).get("snapped", 0) \
        == (form == "snapped characters")


@pytest.mark.parametrize("entry", SCORES)
def test_a_character_span_off_token_boundaries_says_snap_which_works(entry):
    spans, _ = PRED_SPANS["snapped characters"]
    with pytest.raises(nerspan.NerspanError, match=r"^predictions, sentence 0: span 'PER' at "
                                                   r"characters 0\.\.2 \('An'\) does not fall on "
                                                   r"token boundaries; snap=True \(--snap\) widens it"):
        _scored(entry, GOLD, spans)
    assert _scored(entry, GOLD, spans, snap=True).to_dict()


@pytest.mark.parametrize("entry", [*SCORES, *(f"metrics/{f}" for f in FAMILIES)])
def test_character_offsets_that_fit_as_token_offsets_are_refused_naming_offsets(entry):
    """"Ana" as characters, or the three words as token offsets: read neither way in
    silence (issue 37); ``offsets`` says which."""
    spans = [[{"label": "PER", "start": 0, "end": 3}], []]
    texts = dict(texts=["Ana Lima sings", "in Rio"])
    call = TAG_ENTRIES[entry] if entry.startswith("metrics/") else (
        lambda references, predictions, **options: _scored(entry, references, predictions,
                                                           **options))
    with pytest.raises(nerspan.AmbiguousInputError,
                       match=r"^predictions, sentence 0: span \(0, 3, 'PER'\) reads as the words "
                             r"'Ana Lima sings' or as the characters 'Ana' of the text, and every "
                             r"span fits both ways: .*offsets='chars' \(--offsets chars; .*\) or "
                             r"offsets='tokens' \(--offsets tokens\)$"):
        call(GOLD, spans, **texts)
    assert _numbers(call(GOLD, spans, **texts, offsets="chars")) == _numbers(
        call(GOLD, [["B-PER", "O", "O"], ["O", "O"]]))


def _found(value, key: str):
    """Every value of ``key`` anywhere in a result's plain data."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k == key] + [
            x for v in value.values() for x in _found(v, key)]
    if isinstance(value, list):
        return [x for v in value for x in _found(v, key)]
    return []


# (an experiment's system given as a list of strings is its runs, files: there the
# responses are one run, as the other experiment entries give them)
@pytest.mark.parametrize("entry", [e for e in TAG_ENTRIES if e != "nerlens.experiment"])
def test_responses_of_one_word_or_empty_are_responses_without_entities(entry):
    """"None", "N/A", "": generated output with no entity, counted as unreadable where it
    is, as the CLI reads it; never "tags given flat" (issue 37)."""
    words = dict(tokens=TOKENS) if entry in ("nerspan.score", "faireval.score",
                                             "metrics/faireval") else {}
    result = TAG_ENTRIES[entry](GOLD, ["None", ""], **words)
    data = result if isinstance(result, dict) else result.to_dict()
    assert 2 in _found(data, "parse_failures"), entry


@pytest.mark.parametrize("family", FAMILIES)
def test_input_options_through_a_gold_context(family):
    """A context keeps the input options it read the gold with, and reads the
    predictions scored against it with them (unless the scoring call gives others)."""
    inclusive = [[{"label": "PER", "start": 0, "end": 1}], [{"label": "LOC", "start": 1,
                                                             "end": 1}]]
    context = Evaluation.build(inclusive, tokens=TOKENS, inputs={'inclusive_end': True}, **TRAIN)
    assert context.corpus.tags("gold", 0) == GOLD[0]
    spans, _ = PRED_SPANS["inclusive ends"]
    expected = _numbers(FAMILIES[family].score(GOLD, PRED, tokens=TOKENS, **TRAIN)
                        if family != "faireval" else faireval.score(GOLD, PRED))
    assert _numbers(FAMILIES[family].score(context, spans)) == expected
    spans, options = PRED_SPANS["characters in texts"]
    assert _numbers(FAMILIES[family].score(context, spans,
                                           inputs={**options, "inclusive_end": False})) \
        == expected
    corpus, _, pred = context.scoring_corpus(PRED_SPANS["snapped characters"][0],
                                             inputs={"snap": True})
    assert corpus.tags(pred, 0) == PRED[0] and corpus.source.snapped == {"pred": (0,)}
    with pytest.raises(ValueError, match=r"gold_column='x' conflicts with the evaluation's"):
        context.scoring_corpus(PRED, inputs={"gold_column": "x"})


@pytest.mark.parametrize("family", FAMILIES)
def test_input_options_in_the_evaluate_modules(family):
    words = dict(tokens=TOKENS) if family == "faireval" else {}  # loaded with the others
    for form, (spans, options) in PRED_SPANS.items():
        got = _evaluate_module(family)(GOLD, spans, **options, **words)
        assert _numbers(got) == _numbers(_evaluate_module(family)(GOLD, PRED)), form


@pytest.mark.parametrize("options, match", [
    (dict(snap="no"), r"snap must be True or False, not 'no' \(a str\)"),
    (dict(inclusive_end=1), r"inclusive_end must be True or False, not 1 \(a int\)"),
    (dict(texts="Ana Lima sings"), r"texts must be a list per sentence, not a string"),
    (dict(texts=["Ana Lima sings", None]), r"texts, sentence 1: texts must hold one string "
                                           r"per sentence, not None \(a NoneType\)"),
    (dict(gold_column=0), r"gold_column must be a column name \(a string\), not 0"),
], ids=["snap", "inclusive_end", "texts as a string", "a text that is None", "gold_column"])
@pytest.mark.parametrize("entry", SCORES)
def test_input_options_are_checked_in_every_family(entry, options, match):
    with pytest.raises(InputTypeError, match=match):
        SCORES[entry].score(GOLD, PRED, inputs=options)


def test_every_family_takes_the_one_set_of_input_options():
    """One definition: nerspan.score, every family's score and the Evaluation take the
    input options as one ``inputs=`` (nerspan.InputOptions, or a dict of its keys), each
    option documented once, in the record."""
    import inspect

    for function in [module.score for module in SCORES.values()] + [
            Evaluation.build, Evaluation.scoring_corpus, nerspan.evaluation.resolve,
            nerspan.reading.forms.read_input]:
        parameters = inspect.signature(function).parameters
        assert parameters["inputs"].default is None, function
        assert not set(parameters) & (set(nerspan.InputOptions.all_names())
                                      - {"tokens", "label_list"}), function
    assert all(option.doc for option in nerspan.InputOptions.options())
    for module in (tough_mentions, hardeval, attribute_buckets):  # tokens stay third
        assert list(inspect.signature(module.score).parameters)[:3] == [
            "references", "predictions", "tokens"]


# -- issue 28: a system that predicts nothing, as empty span lists -------------------------
NOTHING = [["O"] * len(s) for s in GOLD]


@pytest.mark.parametrize("entry", SCORES)
def test_empty_span_lists_are_no_mention_not_empty_sentences(entry):
    """A pipeline that finds nothing gives [[], []]: against tags (or tokens) that have
    words, that is no mention, not sentences without a token."""
    assert _numbers(_scored(entry, GOLD, [[], []])) == _numbers(_scored(entry, GOLD, NOTHING))
    assert _numbers(_scored(entry, [[], []], PRED)) == _numbers(_scored(entry, NOTHING, PRED))
    if entry == "nerspan.score":
        assert nerspan.score(GOLD, [[], []]).micro() == (0.0, 0.0, 0.0)
        assert nerspan.score([[], []], [[], []]).micro() == (0.0, 0.0, 0.0)  # empty sentences


@pytest.mark.parametrize("family", FAMILIES)
def test_empty_span_lists_in_the_evaluate_modules_and_a_context(family):
    assert _numbers(_evaluate_module(family)(GOLD, [[], []])) \
        == _numbers(_evaluate_module(family)(GOLD, NOTHING))
    assert _numbers(FAMILIES[family].score(_context(), [[], []])) \
        == _numbers(FAMILIES[family].score(_context(), NOTHING))


# -- issue 28: errors blame the side that is wrong, or neither ------------------------------
@pytest.mark.parametrize("tokens, error, match, side", [
    (None, LengthMismatchError, r"^sentence 0: predictions have 4 items, references 3$", None),
    ([["a"] * 4], LengthMismatchError,
     r"^references, sentence 0: references have 3 items, predictions 4$", "references"),
    ([["a"] * 3], LengthMismatchError,
     r"^predictions, sentence 0: predictions have 4 items, references 3$", "predictions"),
    ([["a"] * 5], LengthMismatchError, r"^sentence 0: tokens have 5 items, references 3$", None),
    ([["a"] * 3, ["b"]], SentenceCountError, r"^tokens: tokens hold 2 sentences, references 1$",
     "tokens"),
], ids=["no tokens", "tokens as predicted", "tokens as referenced", "tokens of neither",
        "tokens with another sentence"])
def test_a_length_mismatch_blames_the_side_the_others_disagree_with(tokens, error, match, side):
    with pytest.raises(error, match=match) as raised:
        nerspan.score([["O"] * 3], [["O"] * 4], tokens=tokens)
    assert raised.value.side == side


@pytest.mark.parametrize("entry", SCORES)
def test_shorter_references_are_blamed_in_every_family(entry):
    with pytest.raises(LengthMismatchError, match=r"^references, sentence 1: references have "
                                                  r"1 item, predictions 2$"):
        _scored(entry, [GOLD[0], ["O"]], PRED)
    with pytest.raises(LengthMismatchError, match=r"^sentence 0: predictions have 4 items, "
                                                  r"references 3$"):
        nerspan.score([[1, 0, 0]], [[1, 0, 0, 0]], label_list=LABELS)


@pytest.mark.parametrize("train, error, match", [
    (dict(train=([["Ana"], ["Rio"]], [["B-PER"]])), SentenceCountError,
     r"^training tokens hold 2 sentences, training tags 1$"),
    (dict(train=([["Ana", "Rio"]], [["B-PER", None]])), InvalidTagError,
     r"^training tags, sentence 0, position 1: None of type NoneType is not a string"),
    (dict(train=([["Ana", None]], [["B-PER", "O"]])), InvalidTagError,
     r"^training tokens, sentence 0, position 1: None of type NoneType is not a string"),
], ids=["sentence counts", "a tag", "a word"])
def test_training_data_errors_name_train_tokens_and_train_tags(train, error, match):
    for family in (tough_mentions, hardeval, attribute_buckets):
        with pytest.raises(error, match=match):
            family.score(GOLD, PRED, tokens=TOKENS, **train)


@pytest.mark.parametrize("spans, error, match", [
    ([[(0, 1, None)], []], InputTypeError, r"^references, sentence 0: span label must be a "
                                           r"non-empty string, got None in \(0, 1, None\)"),
    ([[{"label": None, "start": 0, "end": 1}], []], InputTypeError,
     r"^references, sentence 0: span label must be a non-empty string, got None"),
    ([[(0, 1, 7)], []], InputTypeError, r"span label must be a non-empty string, got 7"),
    ([[(0, 1, "")], []], nerspan.NerspanError, r"span label must be a non-empty string, "
                                               r"got ''"),
    ([[("PER", 0.0, 1)], []], InputTypeError, r"span \('PER', 0\.0, 1\) needs integer start"),
    ([[{"label": "PER", "start": "0", "end": 1}], []], InputTypeError,
     r"needs integer start and end"),
    ([[(0, 1, "PER"), 5], []], InputTypeError, r"^references, sentence 0, position 1: a span "
                                               r"must be \(start, end, label\).*, got 5$"),
    ([[(0, 1, "PER")], None], InputTypeError, r"^references, sentence 1: expected a list of "
                                              r"spans, got None"),
], ids=["None label", "None label in a dict", "an int label", "an empty label",
        "a float offset", "a string offset", "an int among spans", "a None sentence"])
@pytest.mark.parametrize("entry", SCORES)
def test_wrong_types_in_span_input_are_input_type_errors(entry, spans, error, match):
    with pytest.raises(error, match=match):
        _scored(entry, spans, PRED)


def test_faireval_names_the_argument_of_the_wrong_type():
    spans = [[("PER", 0, 1)], [("LOC", 1, 2)]]
    for call, match in [
            (lambda: faireval.score(None, spans), r"^references is None"),
            (lambda: faireval.score(spans, None), r"^predictions is None"),
            (lambda: faireval.score(spans, spans, labels="PER"),
             r"^labels must be a list of label strings, not 'PER'"),
            (lambda: faireval.score(GOLD, PRED, exclude="LOC"),
             r"^exclude must be a list of label strings, not 'LOC'"),
            (lambda: faireval.score(GOLD, PRED, pos="NN", ignore_punct=True),
             r"^pos='NN' names a column, which needs a Corpus as references"),
            (lambda: faireval.score(GOLD, PRED, pos=5, ignore_punct=True),
             r"^pos must be a list of sentences \(lists of tags\), not an int"),
            (lambda: faireval.score(GOLD, [[{"entity_group": "PER", "start": 0, "end": 3}],
                                           []], tokens=[["Ana", 5, "sings"], ["in", "Rio"]]),
             r"^tokens, sentence 0, position 1: 5 \(an int\) is not a word")]:
        with pytest.raises(InputTypeError, match=match):
            call()


# -- issue 28: datasets splits ---------------------------------------------------------------
def _split(columns=("tokens", "ner_tags")):
    datasets = pytest.importorskip("datasets")
    names = ["O", "B-PER", "I-PER"]
    data = {"tokens": [["Ana", "Lima"]], "ner_tags": [[1, 2]]}
    kinds = {"tokens": datasets.Sequence(datasets.Value("string")),
             "ner_tags": datasets.Sequence(datasets.ClassLabel(names=names))}
    renamed = dict(zip(("tokens", "ner_tags"), columns))
    return datasets.Dataset.from_dict(
        {renamed[k]: v for k, v in data.items()},
        features=datasets.Features({renamed[k]: v for k, v in kinds.items()}))


def test_a_missing_split_column_is_named_with_the_columns_there_are():
    with pytest.raises(nerspan.NerspanError, match=r"^predictions: the split has no column "
                                                   r"'preds'; its columns are \['tokens', "
                                                   r"'ner_tags'\]$"):
        nerspan.score(_split(), "preds")
    with pytest.raises(nerspan.NerspanError, match=r"^references: the split has no tag column "
                                                   r"'ner_tags'; its columns are \['tokens', "
                                                   r"'labels'\]$"):
        faireval.score(_split(("tokens", "labels")), [[1, 2]])
    with pytest.raises(nerspan.NerspanError, match=r"^tokens: the split has no token column "
                                                   r"'words'"):
        nerspan.Corpus.from_dataset(_split(), tokens_column="words")


def test_a_split_without_a_token_column_needs_tokens_only_where_words_are_read():
    split = _split(("words", "ner_tags"))
    assert faireval.score(split, [[1, 2]]).counts["TP"] == 1
    with pytest.raises(ValueError, match="tough_mentions needs the test tokens"):
        tough_mentions.score(split, [[1, 2]], **TRAIN)
    assert tough_mentions.score(split, [[1, 2]], tokens=[["Ana", "Lima"]], **TRAIN).recall == 1


def _read(references, predictions=None, **inputs):
    """The one reader's corpus of ``references`` and ``predictions``."""
    return nerspan.reading.forms.read_input(references, predictions,
                                            inputs=nerspan.InputOptions.of(inputs)).corpus


def test_tokens_given_with_a_split_are_its_words():
    """tokens= with a split that has a token column: the given words are used (its
    column is then not read), as with a Corpus that has words; their shape is checked."""
    words = [["Ana", "Rio"]]
    assert _read(_split(), [[1, 2]], tokens=words).sentence_tokens(0) == words[0]
    context = Evaluation.build(_split(), tokens=words)
    assert context.corpus.sentence_tokens(0) == words[0]
    corpus = nerspan.Corpus.from_tags([["B-PER", "I-PER"]], tokens=[["Ana", "Lima"]])
    assert _read(corpus, tokens=words).sentence_tokens(0) == words[0]
    seen = tough_mentions.score(_split(), [[1, 2]], **TRAIN).to_dict()["counts"]["seen"]
    unseen = tough_mentions.score(_split(), [[1, 2]], tokens=[["Bo", "Li"]], **TRAIN)
    assert (seen, unseen.to_dict()["counts"]["seen"]) == (0, 0)
    with pytest.raises(LengthMismatchError, match=r"tokens have 1 token, the reference 2"):
        _read(_split(), [[1, 2]], tokens=[["Ana"]])


# -- issue 28: the Trainer helper --------------------------------------------------------------
def test_trainer_helper_takes_a_plain_tuple():
    compute = make_compute_metrics(LABELS, metrics=("faireval",))
    labels, predictions = _padded(GOLD_IDS), _padded(PRED_IDS)
    expected = compute(types.SimpleNamespace(predictions=predictions, label_ids=labels))
    assert compute((predictions, labels)) == expected
    assert compute([predictions, labels]) == expected
    assert compute((predictions, labels, np.zeros_like(labels))) == expected  # with inputs
    assert compute((_logits(PRED_IDS[:1] + [[0, 3, 0]], 4), labels)) == expected
    with pytest.raises(InputTypeError, match=r"takes an EvalPrediction or a \(predictions, "
                                             r"label_ids\) tuple, not a dict"):
        compute({"predictions": predictions, "label_ids": labels})


def test_trainer_helper_refuses_predictions_narrower_than_labels():
    compute = make_compute_metrics(LABELS, metrics=("faireval",))
    labels = _padded(GOLD_IDS)
    with pytest.raises(LengthMismatchError, match=r"^predictions have shape \(2, 2\) and "
                                                  r"label_ids \(2, 3\)"):
        compute((labels[:, :2], labels))
    first = types.SimpleNamespace(predictions=labels, label_ids=labels)
    assert compute(first, compute_result=False) == {}
    narrow = types.SimpleNamespace(predictions=_logits(labels[:, :2].clip(0), 4),
                                   label_ids=labels)
    with pytest.raises(LengthMismatchError, match=r"^predictions in batch 1 have shape "
                                                  r"\(2, 2, 4\) and label_ids \(2, 3\)"):
        compute(narrow, compute_result=True)


def test_trainer_helper_says_which_training_data_it_takes():
    with pytest.raises(InputTypeError, match=r"\(tokens, tags\) pair") as error:
        make_compute_metrics(LABELS, metrics=("hardeval",), eval_tokens=TOKENS, train=[["Ana"]])
    assert "with train_tags" not in str(error.value)
    with pytest.raises(ValueError, match=r"need train=\.\.\. \(a TrainIndex, .*pair .*\) and "
                                         r"eval_tokens"):
        make_compute_metrics(LABELS, metrics=("hardeval",), eval_tokens=TOKENS)
    with pytest.raises(SentenceCountError, match=r"^training tokens hold 2 sentences, training "
                                                 r"tags"):
        make_compute_metrics(LABELS, metrics=("hardeval",), eval_tokens=TOKENS,
                             train=([["Ana"], ["Rio"]], [["B-PER"]]))


# -- names: a column never takes another's place (issue 28) ---------------------------------
COLUMN_CLASHES = {
    "columns= named gold": (lambda: nerspan.Corpus.from_tags(GOLD, columns={"gold": PRED}),
                            "gold"),
    "columns= named pred beside predictions": (
        lambda: nerspan.Corpus.from_tags(GOLD, PRED, columns={"pred": GOLD}), "pred"),
    "with_columns renamed onto gold": (
        lambda: CORPUS.with_columns(CORPUS.select(["tagger"]), {"tagger": "gold"}), "gold"),
    "renamed onto another column": (
        lambda: CORPUS.renamed({"tagger": "gold"}), "gold"),
    "the memorisation baseline named gold": (
        lambda: __import__("nerlens.baseline").baseline.with_memorisation_baseline(
            nerspan.as_train_index(**TRAIN), CORPUS, "gold"), "gold"),
}


@pytest.mark.parametrize("case", COLUMN_CLASHES)
def test_a_column_name_given_twice_is_an_error(case):
    build, name = COLUMN_CLASHES[case]
    with pytest.raises(nerspan.NameTakenError, match=rf"^two tag columns named '{name}': a "
                                                      r"column is never replaced by another"):
        build()


@pytest.mark.parametrize("family", FAMILIES)
def test_a_gold_column_named_pred_is_not_replaced_by_the_predictions(family):
    """A context whose gold column is "pred": new predictions were renamed "pred" over
    it and scored against themselves (F1 1.0)."""
    corpus = nerspan.Corpus.from_tags(PRED, tokens=TOKENS, columns={"pred": GOLD})
    context = Evaluation(corpus, "IOB2", "lenient", nerspan.as_train_index(**TRAIN), "pred")
    expected = FAMILIES[family].score(GOLD, PRED, tokens=TOKENS, **TRAIN).to_dict()
    assert FAMILIES[family].score(context, PRED).to_dict() == expected


def _read_systems(systems, **options):
    from nerspan.reading.systems import read_systems

    return read_systems(GOLD, systems, inputs={'tokens': TOKENS}, **options)


# entry -> (a call giving a system a name that is taken, the message)
SYSTEM_NAME_CASES = {
    "read_systems": (lambda: _read_systems({"gold": PRED}), r"^systems: 'gold' cannot name a "
                     r"system: it is the gold column's name$"),
    "add_systems, a column the corpus has": (
        lambda: __import__("nerspan.reading.systems").reading.systems.add_systems(CORPUS, {"tagger": PRED}),
        r"^systems: 'tagger' is given twice: each system \(each run\) has a column of its "
        r"own$"),
    "nerlens.report": (lambda: nerlens.build_report(GOLD, {"gold": PRED}, tokens=TOKENS,
                                              bootstrap=0),
                       r"^systems: 'gold' cannot name a system"),
    "nerlens.report, the gold column as a system": (
        lambda: nerlens.build_report(corpus=CORPUS, system_names=["gold"], bootstrap=0,
                               train=nerspan.as_train_index(**TRAIN)),
        r"^system_names: 'gold' cannot name a system: it is the gold column's name$"),
    "nerlens.report, a system twice": (
        lambda: nerlens.build_report(corpus=CORPUS, system_names=["tagger", "tagger"], bootstrap=0,
                               train=nerspan.as_train_index(**TRAIN)),
        r"^system_names: 'tagger' is given twice"),
    "nerlens.experiment": (
        lambda: nerlens.run_experiment(_declared(systems={"gold": PRED}), bootstrap=0),
        r"^dataset 'd1': 'gold' cannot name a system: it is the gold column's name$"),
    "nerlens.experiment, a run's name": (
        lambda: nerlens.run_experiment(_declared(systems={"a": [PRED, PRED], "a#1": PRED}),
                                   bootstrap=0),
        r"^dataset 'd1': system 'a#1': '#' is kept for the run columns"),
    "nerlens.experiment, the gold column as a run": (
        lambda: nerlens.run_experiment(_declared(gold=..., tokens=..., corpus=CORPUS,
                                             systems={"tagger": ["tagger", "gold"]}),
                                   bootstrap=0),
        r"^dataset 'd1', system 'tagger': 'gold' cannot name a system"),
    "nerlens.experiment, one column as two systems": (
        lambda: nerlens.run_experiment(_declared(gold=..., tokens=..., corpus=CORPUS,
                                             systems={"a": "tagger", "b": ["tagger"]}),
                                   bootstrap=0),
        r"^dataset 'd1', system 'b': 'tagger' is given twice: each system \(each run\) has a "
        r"column of its own$"),
}


@pytest.mark.parametrize("case", SYSTEM_NAME_CASES)
def test_a_system_name_that_is_taken_is_refused(case):
    call, message = SYSTEM_NAME_CASES[case]
    with pytest.raises(nerspan.NameTakenError, match=message):
        call()


def test_a_file_of_gold_and_predictions_named_gold_is_read_as_system_gold_prime(tmp_path):
    from nerspan.reading.systems import read_systems

    (tmp_path / "gold.txt").write_text("Ana B-PER O\nLima I-PER B-LOC\n", encoding="utf-8")
    corpus, names = read_systems(tmp_path / "gold.txt")
    assert names == ["gold'"]
    assert corpus.tags("gold", 0) == ["B-PER", "I-PER"]
    assert corpus.tags("gold'", 0) == ["O", "B-LOC"]


def test_a_file_without_its_tag_column_is_refused_even_with_missing_tag(tmp_path):
    """missing_tag fills rows that lack their tag; a file that lacks the column had every
    row filled with it and was scored as all O."""
    from nerspan.reading.systems import read_systems

    words = tmp_path / "gold.txt"
    words.write_text("Ana B-PER\nLima I-PER\n\nRio B-LOC\n", encoding="utf-8")
    for missing_tag in (None, "O"):
        with pytest.raises(nerspan.errors.TooFewColumnsError,
                           match=r"gold.txt:1, sentence 0: no prediction column \(PRED\): given "
                                 r"alone, GOLD must hold token, gold and prediction columns"):
            read_systems(words, inputs={'missing_tag': missing_tag})
    with pytest.raises(nerspan.errors.TooFewColumnsError,
                       match=r"gold.txt:1, sentence 0: no row has 3 columns: missing_tag / "
                             r"--missing-tag gives a tag to rows without one, not to a file "
                             r"without that column"):
        nerspan.read_columns(words, {"gold": -2, "pred": -1}, missing_tag="O")


@pytest.mark.parametrize("entry", [nerspan.score, faireval.score])
def test_a_span_label_with_whitespace_is_refused_by_every_reader(entry):
    """Tag input refused it (a tag holds no whitespace); faireval's span lists took it."""
    spans = [[(0, 2, "PER")], [(1, 2, "NEW YORK")]]
    with pytest.raises(nerspan.NerspanError, match=r"^predictions, sentence 1: span label "
                                                   r"'NEW YORK' contains whitespace"):
        entry([[(0, 2, "PER")], [(1, 2, "LOC")]], spans, tokens=TOKENS)


# -- names the results use: an entity type, an attribute, a pair of systems, a file ---------
@pytest.mark.parametrize("attributes, match", [
    ({"eLen": "sLen"}, r"^attribute 'eLen' is a built-in attribute's name: give 'sLen' "
                       r"another name$"),
    ({"tFre": lambda corpus, spans, train: [1.0] * len(spans)},
     r"^attribute 'tFre' is a built-in attribute's name: give the function another name$"),
    (["eLen", "eLen"], r"^attribute 'eLen' is given twice$"),
], ids=["a built-in under another's name", "a function under a built-in name", "twice"])
def test_an_attribute_name_that_is_taken_is_refused(attributes, match):
    """The page titles a bucket table by its attribute's name ("eLen": entity length)."""
    with pytest.raises(nerspan.NameTakenError, match=match):
        attribute_buckets.score(GOLD, PRED, tokens=TOKENS, **TRAIN, attributes=attributes)


def test_a_system_named_with_vs_is_compared_and_found_as_itself():
    """Comparison keys ("a vs b") were split back into systems: a system "x vs y" was
    looked up as "x" (KeyError, the report failed)."""
    report = nerlens.build_report(GOLD, {"base": PRED, "x vs y": GOLD}, tokens=TOKENS,
                            train=nerspan.as_train_index(**TRAIN), bootstrap=50, seed=0)
    assert list(report.comparisons) == ["x vs y vs base"]
    assert "x vs y" in report.to_html() and "x vs y" in report.summary()


def test_two_pairs_of_systems_with_one_name_are_refused():
    systems = {"x vs y": PRED, "z": PRED, "x": GOLD, "y vs z": GOLD}
    with pytest.raises(nerspan.NameTakenError, match=r"^systems 'x' and 'y vs z' are the pair "
                                                     r"'x vs y vs z', as 'x vs y' and 'z' are"):
        nerlens.run_experiment(_declared(systems=systems), bootstrap=0, figures=False)


def test_figures_of_systems_whose_names_map_to_one_file_name_are_all_written(tmp_path):
    """confusion_a_b.png was written for "a b" and then replaced by "a_b"'s."""
    from faireval import plots

    results = {name: faireval.score(GOLD, PRED).to_dict() for name in ("a b", "a_b", "A_B")}
    written = plots.save_all(results, tmp_path)
    assert sorted(p.name for p in written) == ["confusion_A_B_3.png", "confusion_a_b.png",
                                               "confusion_a_b_2.png", "error_types.png"]
    assert all(p.exists() for p in written)


# -- generated output in an experiment: run 2 of system "llm" is the bad file (issue 31) -----
RIO = '{"response": "[[\\"Rio\\", \\"LOC\\"]]"}'
GOOD_RUN = ['{"response": "[[\\"Ana Lima\\", \\"PER\\"]]"}', RIO]
# case -> (run 1's lines, run 2's lines, error, message)
GENERATED_RUN_CASES = {
    "not JSON": (GOOD_RUN, ["not json", RIO], nerspan.FormatError,
                 r"g2.jsonl:1, dataset 'd1', system 'llm#2': not JSON"),
    "a line short": (GOOD_RUN, [RIO], nerspan.SentenceCountError,
                     r"g2.jsonl, dataset 'd1', system 'llm#2': 1 response for 2 gold "
                     r"sentences"),
    "another sentence's words": (
        GOOD_RUN, ['{"response": "[]", "tokens": ["Ana", "Lima", "sings"]}',
                   '{"response": "[]", "tokens": ["in", "Paris"]}'], nerspan.TokenMismatchError,
        r"g2.jsonl:2, dataset 'd1', system 'llm#2': the line's words 'in Paris' are not its "
        r"gold sentence's 'in Rio'"),
    "other sentences than run 1": (
        ['{"response": "[]", "sentence": 0}'], ['{"response": "[]", "sentence": 1}'],
        nerspan.FormatError, r"g2.jsonl, dataset 'd1', system 'llm#2': answers other "
                             r"sentences than 'llm#1''s file"),
    "a sentence past the end": (
        ['{"response": "[]", "sentence": 5}'], ['{"response": "[]", "sentence": 5}'],
        nerspan.FormatError, r"g1.jsonl:1, dataset 'd1', system 'llm#1': sentence 5 is past "
                             r"gold's last \(2 sentences\)"),
}


@pytest.mark.parametrize("case", sorted(GENERATED_RUN_CASES))
def test_a_bad_generated_run_names_the_dataset_run_file_and_line(tmp_path, case):
    run1, run2, error, message = GENERATED_RUN_CASES[case]
    paths = []
    for k, lines in enumerate((run1, run2), 1):
        paths.append(tmp_path / f"g{k}.jsonl")
        paths[-1].write_text("\n".join(lines) + "\n", encoding="utf-8")
    datasets = {"d1": {"gold": GOLD, "tokens": TOKENS, "systems": {"tagger": PRED},
                       "generated": {"llm": [str(p) for p in paths]}}}
    with pytest.raises(error, match=message):
        nerlens.run_experiment(datasets, bootstrap=0, figures=False, families=("faireval",))


# -- a JSON Lines span file with a key it does not read ----------------------------------------
@pytest.mark.parametrize("side", ["gold", "system"])
def test_a_span_file_with_an_unknown_key_is_refused_naming_it(tmp_path, side):
    """A misspelt "text" was ignored: the line had no words, or other lines' words went
    unread. Both readers of span files (nerspan.read_span_jsonl, read_systems(jsonl=True);
    every command's --jsonl in the CLI matrix) name the file, line, key, the likely key
    and the keys allowed."""
    from nerspan.reading.systems import read_systems

    good = ['{"tokens": ["Ana", "Lima", "sings"], "spans": [[0, 2, "PER"]]}',
            '{"tokens": ["in", "Rio"], "spans": [[1, 2, "LOC"]]}']
    bad = [good[0], '{"tokens": ["in", "Rio"], "spans": [[1, 2, "LOC"]], "tokns": []}']
    gold, system = tmp_path / "gold.jsonl", tmp_path / "system.jsonl"
    gold.write_text("\n".join(bad if side == "gold" else good) + "\n", encoding="utf-8")
    system.write_text("\n".join(bad if side == "system" else good) + "\n", encoding="utf-8")
    message = (rf"{side}.jsonl:2, sentence 1: unknown key 'tokns' \(did you mean 'tokens'\?\); "
               r"a line's keys are spans, tokens, text$")
    for read in (lambda: nerspan.read_span_jsonl(tmp_path / f"{side}.jsonl"),
                 lambda: read_systems(gold, [system], inputs={"jsonl": True})):
        with pytest.raises(nerspan.FormatError, match=message):
            read()


def test_a_layer_column_that_is_not_in_the_file(tmp_path):
    """One error naming the file, the column and the columns there are, from the
    reader behind the API and from the report."""
    gold = tmp_path / "gold.txt"
    gold.write_text("John B-PER B-PER\nsaw O O\n", encoding="utf-8")
    message = (r"gold.txt: layers names column 5, and the file has 3 columns "
               r"\(0 to 2; -3 to -1 from the end\)")
    with pytest.raises(nerspan.TooFewColumnsError, match=message):
        read_systems(gold, [gold], inputs={"layers": (1, 5)})
    with pytest.raises(nerspan.TooFewColumnsError, match=message):
        nerlens.build_report(gold, [gold], inputs={"layers": [1, 5]}, bootstrap=0)


# discontinuous and multi-label mentions: a bad fragment names the side, the sentence and
# the span; a sentence of 3 tokens
FRAGMENT_CASES = {
    "an empty fragment": ({"label": "D", "fragments": [[0, 1], [2, 2]]}, nerspan.NerspanError,
                          r"^predictions, sentence 1: span \(2, 2, 'D'\) is empty or reversed"),
    "a fragment past the sentence": ({"label": "D", "fragments": [[0, 1], [2, 9]]},
                                     nerspan.NerspanError,
                                     r"^predictions, sentence 1: span \(0, 9, 'D'\) reaches "
                                     r"past the end of the sentence \(2 tokens\)"),
    "a fragment not of numbers": ({"label": "D", "fragments": [["a", 1]]}, InputTypeError,
                                  r"^predictions, sentence 1: span \{'label': 'D', "
                                  r"'fragments': \[\['a', 1\]\]\} needs integer start"),
    "a fragment not a pair": ({"label": "D", "fragments": [[1]]}, nerspan.NerspanError,
                              r"^predictions, sentence 1: span 0 .*: fragment \[1\] is not "
                              r"a \[start, end\] pair"),
    "no fragment": ({"label": "D", "fragments": []}, nerspan.NerspanError,
                    r"^predictions, sentence 1: span 0 .*: fragments must be a non-empty "
                    r"list of \[start, end\] pairs"),
    "label and labels": ({"label": "D", "labels": ["E"], "start": 0, "end": 1},
                         nerspan.NerspanError, r"^predictions, sentence 1: span 0 .*: give "
                         r"its type as one of 'label', 'labels' \(several\) or 'type'"),
    "empty labels": ({"labels": [], "start": 0, "end": 1}, nerspan.NerspanError,
                     r"'labels' must be a non-empty list of labels"),
    "fragments and offsets": ({"label": "D", "fragments": [[0, 1]], "offsets": [[0, 2]]},
                              nerspan.NerspanError, r"give either 'fragments' \(token "
                              r"offsets\) or 'offsets' \(BigBio's characters\), not both"),
}


@pytest.mark.parametrize("case", sorted(FRAGMENT_CASES))
def test_bad_fragments_name_side_sentence_and_span(case):
    item, error, match = FRAGMENT_CASES[case]
    with pytest.raises(error, match=match):
        nerspan.score([[(0, 1, "D")], [(0, 1, "D")]], [[], [item]], tokens=TOKENS)


# -- the engines: a bad sentence inside a shard gives one pass's error ------------------------
# The cases an engine's rows can hold (a row is one sentence of tag strings), scored by
# nerspan's entity scores through each engine, the sentences cut into two shards.
ENGINE_TAG_CASES = ["X-PER in predictions", "FOO in predictions", "- in references",
                    "empty tag in references", "whitespace in a tag", "O with a type",
                    "200-character tag"]


def _local_engine(references, predictions):
    from nerlens.engines import Scoring, local_outcome

    shards = [(range(a, b), references[a:b], predictions[a:b], None) for a, b in ((0, 1),
                                                                                  (1, 2))]
    return local_outcome(Scoring.of("nerspan", {}), shards, workers=2).result()


@pytest.fixture(scope="module")
def spark_engine():
    pyspark_sql = pytest.importorskip("pyspark.sql")
    import nerlens.spark

    session = (pyspark_sql.SparkSession.builder.master("local[2]")
               .appName("nerlens-bad-input").config("spark.ui.enabled", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")

    def call(references, predictions):
        rows = list(zip(references, predictions))
        frame = session.sparkContext.parallelize(rows, 2).toDF(["references", "predictions"])
        return nerlens.spark.score(frame)
    yield call
    session.stop()


@pytest.fixture(scope="module")
def ray_engine():
    ray = pytest.importorskip("ray")
    import ray.data
    import nerlens.ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False

    def call(references, predictions):
        rows = [{"references": r, "predictions": p} for r, p in zip(references, predictions)]
        return nerlens.ray.score(ray.data.from_items(rows, override_num_blocks=2))
    yield call
    ray.shutdown()


def _one_pass_error(references, predictions) -> Exception:
    with pytest.raises(nerspan.NerspanError) as whole:
        nerspan.score(references, predictions)
    return whole.value


@pytest.mark.parametrize("case", ENGINE_TAG_CASES)
def test_engines_give_one_passs_error_for_a_bad_tag_in_a_shard(case, request):
    references, predictions, error, message = TAG_CASES[case]
    whole = _one_pass_error(references, predictions)
    engines = {"local engine": _local_engine}
    for name, fixture in (("spark", "spark_engine"), ("ray", "ray_engine")):
        try:
            engines[name] = request.getfixturevalue(fixture)
        except pytest.skip.Exception:   # the engine is not installed
            pass
    for name, engine in engines.items():
        with pytest.raises(error, match=message) as found:
            engine(references, predictions)
        assert str(found.value) == str(whole), name


def test_the_torchmetrics_engine_gives_one_passs_error_for_a_bad_label_id():
    torch = pytest.importorskip("torch")
    from nerlens.torchmetrics import NERMetric

    references, predictions, error, message = ID_CASES["id outside the label list"]
    with pytest.raises(error) as one_pass:
        nerspan.score(references, predictions, label_list=LABELS)
    metric = NERMetric(labels=LABELS)   # a batch per sentence: the bad one is the second
    metric.update(torch.tensor(_padded(predictions[:1])), torch.tensor(_padded(references[:1])))
    with pytest.raises(error, match=message) as found:
        metric.update(torch.tensor(_padded(predictions[1:])),
                      torch.tensor(_padded(references[1:])))
    assert str(found.value) == str(one_pass.value)


def test_a_bad_tag_in_a_system_file_names_that_file(tmp_path):
    """``build_report`` reads each system file on its own: a bad tag names that file and
    line, and the system before the sentence, as a manifest's run is named (it named
    gold's file, whose lines the corpus counts)."""
    gold = tmp_path / "gold.txt"
    run = tmp_path / "run2.txt"
    gold.write_text("John B-PER\nlives O\n\nin O\nParis B-LOC\n", encoding="utf-8")
    run.write_text("John B-PER\nlives O\n\nin FOO\nParis B-LOC\n", encoding="utf-8")
    with pytest.raises(InvalidTagError, match=r"^" + str(run).replace("\\", "\\\\")
                       + r":4, system 'x', sentence 1: prediction tag 'FOO' is not a tag"):
        nerlens.build_report(str(gold), {"x": str(run)}, bootstrap=0, families=[])


# -- generated output given as a system's column file (the one reader refuses it) ----------
def test_generated_output_as_a_system_file_names_generated(tmp_path):
    """read_systems, and build_report through it, refuse a system file of generated output
    (a "response" per line) naming the keyword that reads it, not its first line as a tag."""
    gold, answers = tmp_path / "gold.txt", tmp_path / "answers.jsonl"
    gold.write_text("John B-PER\nSmith I-PER\n\nParis B-LOC\n", encoding="utf-8")
    answers.write_text('{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n',
                       encoding="utf-8")
    problem = (r"holds generated output \(a \"response\" per line\), not tags: give it with "
               r"generated= / --generated")
    with pytest.raises(nerspan.FormatError, match=f"^{answers}, system 'llm': {problem}"):
        read_systems(str(gold), {"llm": str(answers)})
    with pytest.raises(nerspan.FormatError, match=f"^{answers}: {problem}"):
        nerlens.build_report(str(gold), [str(answers)], bootstrap=0)
    corpus, names = read_systems(str(gold), generated={"llm": str(answers)})
    assert names == ["llm"]
