"""The bad-input matrix of the Python API: every bad input, through every entry point
that can receive it, gives one clear error (pinned here) or a correct, documented result.

Entry points: ``nerspan.score``, each family's ``score``, each evaluate module's
``compute`` (metrics/<family>), ``nerlens.report``, ``nerlens.experiment`` and
``nerlens.report(datasets=...)`` (one dataset; the predictions as its system, or as one
of its runs) and the Trainer helper (``nerlens.trainer.make_compute_metrics``). The
command line has its own matrix. Errors name the side (references / predictions, or the
system in a report; the dataset and the system's run in an experiment), the sentence,
the position and the offending value, cut to 80 characters. A family's ``score`` given
a ``nerspan.GoldContext`` refuses a scheme, mode or training data that contradict it.
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
from nerspan import (EmptyInputError, GoldContext, InputTypeError, InvalidTagError,
                     LabelIdError, LengthMismatchError, SentenceCountError)
from nerlens.trainer import make_compute_metrics
from tests.conftest import REPO

GOLD = [["B-PER", "I-PER", "O"], ["O", "B-LOC"]]
PRED = [["B-PER", "O", "O"], ["O", "B-LOC"]]
TOKENS = [["Ana", "Lima", "sings"], ["in", "Rio"]]
TRAIN = dict(train_tokens=[["Ana", "sings", "in", "Rio"]],
             train_tags=[["B-PER", "O", "O", "B-LOC"]])
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
    return nerlens.report(references, {"tagger": predictions}, tokens=_tokens_for(references),
                          train=nerspan.as_train_index(**TRAIN), **options)


def _experiment(runs: bool, through_report: bool = False):
    """A one-dataset experiment ("d1") whose system "tagger" is the predictions, or has
    them as its second of three runs (column tagger#2); or the same through
    ``nerlens.report(datasets=...)``."""
    def call(references, predictions, **options):
        system = [PRED, predictions, PRED] if runs else predictions
        datasets = {"d1": {"gold": references, "tokens": _tokens_for(references),
                           "train": nerspan.as_train_index(**TRAIN),
                           "systems": {"tagger": system}}}
        options = {"bootstrap": 0, "figures": False, **options}
        if through_report:
            return nerlens.report(datasets=datasets, **options)
        return nerlens.experiment(datasets, **options)
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
    "nerlens.report(datasets=...), a run": _experiment(runs=True, through_report=True),
}
EXPERIMENT_ENTRIES = [e for e in TAG_ENTRIES if "datasets" in e or "experiment" in e]
# The entry points that take label ids with label_list=.
ID_ENTRIES = {name: TAG_ENTRIES[name] for name in (
    "nerspan.score", "tough_mentions.score", "hardeval.score", "faireval.score",
    "attribute_buckets.score")}
ID_ENTRIES["Trainer helper"] = _trainer

# -- tag-list cases: (references, predictions) -> error type and message -------------------
LONG = "X-" + "A" * 200
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
    "fewer predicted sentences": (GOLD, PRED[:1], SentenceCountError,
                                  r"predictions hold 1 sentences, references 2"),
    "shorter predicted sentence": (GOLD, [PRED[0], ["O"]], LengthMismatchError,
                                   r"sentence 1: predictions have 1 items, references 2"),
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
            message = r"^system 'tagger': predictions hold 1 sentence, the reference 2 sentences"
        if case == "shorter predicted sentence":
            message = (r"^system 'tagger', sentence 1: length mismatch: predictions have 1 "
                       r"token, the reference 2")
        if case == "sentence given as a string":
            message = r"system 'tagger', sentence 1: the sentence is a string"
        if case == "predictions=None":
            message = r"predictions is None|system 'tagger'.*None"
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
        return error, rf"dataset 'd1', {system}: predictions hold 1 sentence, the reference 2"
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
        nerlens.report(GOLD, {"tagger": None}, tokens=TOKENS, train=train, bootstrap=0)
    with pytest.raises(InputTypeError, match=r"systems must map each system's name"):
        nerlens.report(GOLD, [PRED], tokens=TOKENS, train=train, bootstrap=0)


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
    ("hardeval.score", {"return_tokens": 1}, InputTypeError, r"return_tokens must be True"),
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
    ("attribute_buckets.score", {"case_sensitive": "False"}, InputTypeError,
     r"case_sensitive must be True or False"),
    ("attribute_buckets.score", {"n_buckets": 2.7}, InputTypeError,
     r"n_buckets must be an integer, not 2\.7"),
    ("metrics/attribute_buckets", {"n_buckets": 2.7}, InputTypeError,
     r"n_buckets must be an integer"),
    ("attribute_buckets.score", {"bootstrap": -5}, ValueError, r"bootstrap must be at least 0"),
    ("attribute_buckets.score", {"bucket_edges": {"eLn": [0, 1, 2]}}, ValueError,
     r"bucket_edges names \['eLn'\], which are not among the attributes computed"),
    ("metrics/attribute_buckets", {"bucket_edges": {"eLn": [0, 1, 2]}}, ValueError,
     r"bucket_edges names \['eLn'\]"),
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
     r"dataset 'd1': bootstrap must be at least 0"),
    ("nerlens.experiment", {"figures": "no"}, InputTypeError,
     r"dataset 'd1': figures must be True or False"),
    ("nerlens.experiment", {"mode": "loose"}, ValueError,
     r"dataset 'd1': unknown decoding mode 'loose'"),
    ("nerlens.experiment", {"alpha": 5}, ValueError,
     r"alpha must be between 0 and 1 \(exclusive\), not 5"),
    ("nerlens.experiment", {"alpha": "0.05"}, InputTypeError,
     r"alpha must be a number between 0 and 1, not '0\.05' \(a str\)"),
    ("nerlens.experiment", {"baseline": "other"}, ValueError,
     r"dataset 'd1' has no system 'other' \(the baseline\)"),
    ("nerlens.experiment", {"seeds": 3}, TypeError, r"unexpected keyword argument 'seeds'"),
    ("nerlens.report(datasets=...), a run", {"seeds": 3}, TypeError,
     r"unexpected keyword argument 'seeds'"),
]


@pytest.mark.parametrize("entry, options, error, message", OPTION_CASES,
                         ids=[f"{e}-{next(iter(o))}" for e, o, _, _ in OPTION_CASES])
def test_bad_options(entry, options, error, message):
    with pytest.raises(error, match=message):
        TAG_ENTRIES[entry](GOLD, PRED, **options)


# -- crashes that are now results ----------------------------------------------------------
def test_mention_longer_than_the_training_set():
    gold = [["B-PER"] + ["I-PER"] * 4]
    result = attribute_buckets.score(gold, gold, tokens=[["a"] * 5], train_tokens=[["a"] * 3],
                                     train_tags=[["B-PER", "O", "O"]])
    assert result.f1 == 1.0 and result.bucket_f1("eCon") == [1.0, None, None, None]


def test_hardeval_identity_under_every_error_label_convention():
    """The issue's example: identical gold and predictions, I after O in IOB2."""
    for error_labels in hardeval.ERROR_LABELS:
        r = hardeval.score([["O", "I-PER"]], [["O", "I-PER"]], tokens=[["Kim", "Kim"]],
                           train_tokens=[["Kim"]], train_tags=[["O"]],
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
    with pytest.raises(InvalidTagError, match=r"train_tags, sentence 0, position 1: 'X-PER' "
                                              r"is not a tag"):
        family.score(GOLD, PRED, tokens=TOKENS, train_tokens=[["Ana", "sings"]],
                     train_tags=[["B-PER", "X-PER"]])
    with pytest.raises(LengthMismatchError, match=r"train_tokens, sentence 0: tokens have 2 "
                                                  r"items"):
        family.score(GOLD, PRED, tokens=TOKENS, train_tokens=[["Ana", "sings"]],
                     train_tags=[["B-PER"]])


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


@pytest.mark.parametrize("entry", ["faireval.score", "metrics/faireval"])
@pytest.mark.parametrize("references, predictions, message", [
    ([[{"label": "A|B", "start": 0, "end": 2}], []], PRED,
     r"references, sentence 0, position 0: " + LEVELS),
    (GOLD, [[], [{"label": "A|B", "start": 1, "end": 2}]],
     r"predictions, sentence 1, position 1: " + LEVELS),
], ids=["references", "predictions"])
def test_faireval_refuses_a_level_separator_in_a_span_label_against_tags(
        entry, references, predictions, message):
    # against tags the span becomes B-A|B, two levels; span lists on both sides keep it
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
    "gold None": (_declared(gold=None), InputTypeError, r"dataset 'd1': references is None"),
    "no tokens": (_declared(tokens=...), ValueError,
                  r"dataset 'd1': the report needs the tokens of the evaluation sentences"),
    "a missing gold file": (_declared(gold="nope_gold.txt", tokens=...), FileNotFoundError,
                            r"dataset 'd1': No such file .*nope_gold\.txt"),
    "a missing run file": (_declared(systems={"tagger": ["nope_1.txt", "nope_2.txt"]}),
                           FileNotFoundError,
                           r"dataset 'd1', system 'tagger#1': no such file: 'nope_1\.txt'"),
    "systems as a list": (_declared(systems=[PRED]), ValueError,
                          r"dataset 'd1': \"systems\" maps each system's name to its "
                          r"predictions"),
    "a system named by a number": (_declared(systems={1: PRED}), ValueError,
                                   r"dataset 'd1': system names are non-empty strings, not 1"),
    "a corpus without the run's column": (
        _declared(gold=..., tokens=..., corpus=CORPUS, systems={"tagger": ["tagger", "t2"]}),
        ValueError, r"dataset 'd1': system 'tagger': no column 't2' in the corpus"),
}


@pytest.mark.parametrize("case", EXPERIMENT_CASES)
def test_bad_experiment_declarations(case):
    datasets, error, message = EXPERIMENT_CASES[case]
    with pytest.raises(error, match=message):
        nerlens.experiment(datasets, bootstrap=0, figures=False)


def test_experiment_inputs_must_be_a_mapping():
    with pytest.raises(InputTypeError, match=r"inputs must map each dataset's name to its "
                                             r"input files, not 5 \(a int\)"):
        nerlens.experiment(_declared(), bootstrap=0, figures=False, inputs=5)


def test_runs_of_different_counts_pair_the_first_runs():
    """Documented, not refused: run k of one system is paired with run k of the other, so
    a system's extra runs count in its mean and std, not in the Wilcoxon pairs."""
    other = with_tag(PRED, 0, 1, "I-PER")
    exp = nerlens.experiment(_declared(systems={"a": [PRED, other, PRED], "b": [GOLD, PRED]}),
                             bootstrap=0, figures=False, families=("faireval",))
    assert exp.runs["d1"] == {"a": ["a#1", "a#2", "a#3"], "b": ["b#1", "b#2"]}
    assert exp.aggregate["d1"]["a"]["entity_f1"]["n"] == 3
    assert exp.aggregate["d1"]["b"]["entity_f1"]["n"] == 2
    assert exp.wilcoxon["a vs b"]["entity_f1"]["n_pairs"] == 2


# -- a gold context and the options it fixes -----------------------------------------------
FAMILIES = {"tough_mentions": tough_mentions, "hardeval": hardeval, "faireval": faireval,
            "attribute_buckets": attribute_buckets}
CONFLICTS = {
    "scheme": ({"scheme": "IOBES"}, r"^scheme='IOBES' conflicts with the gold context's "
                                    r"scheme 'IOB2': build the context with it, or omit it$"),
    "mode": ({"mode": "strict"}, r"^mode='strict' conflicts with the gold context's mode "
                                 r"'lenient': build the context with it, or omit it$"),
    "train": ({"train": nerspan.as_train_index(**TRAIN)},
              r"^train conflicts with the gold context's training index: give the training "
              r"data when building the context, not to score$"),
}


def _context():
    return GoldContext.build(GOLD, tokens=TOKENS, **TRAIN)


@pytest.mark.parametrize("option", CONFLICTS)
@pytest.mark.parametrize("family", FAMILIES)
def test_gold_context_refuses_a_conflicting_option(family, option):
    options, message = CONFLICTS[option]
    with pytest.raises(ValueError, match=message):
        FAMILIES[family].score(_context(), PRED, **options)


@pytest.mark.parametrize("family", ["tough_mentions", "hardeval", "attribute_buckets"])
def test_gold_context_refuses_other_training_lists(family):
    with pytest.raises(ValueError, match=r"^train_tokens/train_tags conflict with the gold "
                                         r"context's training index"):
        FAMILIES[family].score(_context(), PRED, train_tokens=[["Rio"]],
                               train_tags=[["B-LOC"]])


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
                             train=(TRAIN["train_tokens"], TRAIN["train_tags"]))
    with pytest.raises(InputTypeError, match="families must be a list of family names"):
        make_compute_metrics(LABELS, metrics="faireval")


@pytest.mark.parametrize("train, match", [
    (dict(train=5), r"train must be a TrainIndex, .* not 5 \(an int\)"),
    (dict(train=[["Ana"]]), r"train must be a TrainIndex, .*\(a list\)"),
    (dict(train_tokens="Ana", train_tags=TRAIN["train_tags"]),
     r"train_tokens must be token lists per sentence, not 'Ana'"),
    (dict(train="train.txt", train_tags=TRAIN["train_tags"]),
     r"train is a column file \('train.txt'\): train_tags would not be read"),
    (dict(train=nerspan.Corpus.from_tags(TRAIN["train_tags"])),
     r"the training corpus needs tokens"),
    (dict(train_tokens=TRAIN["train_tokens"]), r"train_tokens needs train_tags"),
], ids=["int", "tokens without tags", "a string of tokens", "file and tags",
        "corpus without tokens", "tokens only"])
def test_training_data_of_no_accepted_form_is_refused_naming_it(train, match):
    with pytest.raises(InputTypeError, match=match):
        tough_mentions.score(GOLD, PRED, tokens=TOKENS, **train)
