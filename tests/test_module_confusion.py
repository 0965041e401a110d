"""``confusion=True`` in every evaluate module: the entity confusion matrix and the
boundary errors equal the evaluation's (``nerspan.Evaluation.confusion``) on random tags
(as a compute option, at load time, from label ids, from spans); ``confusion`` means
that matrix in every result, FairEval's matrix of errors is ``error_confusion`` (its old
key, read with a warning in 0.1, is gone in 0.2; a result saved before still draws)."""
from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import faireval
import nerspan
from nerspan import InputTypeError

from tests.conftest import REPO

evaluate = pytest.importorskip("evaluate")

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")
LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
TRAIN_TOKENS = [["John", "Smith", "left", "Rome"], ["Paris", "Hilton", "smiled"]]
TRAIN_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-PER", "I-PER", "O"]]
KEYS = ("confusion", "boundary_errors")


@pytest.fixture(scope="module")
def modules():
    """Each module loaded once (tokens and training data given at load time)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        out = {}
        for family in FAMILIES:
            train = {} if family == "faireval" else dict(train=(TRAIN_TOKENS, TRAIN_TAGS))
            out[family] = evaluate.load(f"metrics/{family}", **train)
        yield out


@st.composite
def tagged(draw):
    """Gold and predicted IOB2 tags of the same lengths (invalid transitions included),
    with the words."""
    lengths = draw(st.lists(st.integers(1, 7), min_size=1, max_size=4))
    tag = st.sampled_from(LABELS)
    gold = [[draw(tag) for _ in range(n)] for n in lengths]
    pred = [[draw(tag) for _ in range(n)] for n in lengths]
    return gold, pred, [[f"w{i}" for i in range(n)] for n in lengths]


def expected(gold, pred, **options) -> dict:
    out = nerspan.Evaluation.build(gold, pred, **options).confusion(nerspan.PRED)
    return {key: out[key] for key in KEYS}


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tagged())
def test_every_module_gives_nerspans_confusion(modules, data):
    gold, pred, tokens = data
    want = expected(gold, pred)
    for family, module in modules.items():
        extra = {} if family == "faireval" else {"tokens": tokens}
        got = module.compute(predictions=pred, references=gold, confusion=True, **extra)
        assert {key: got[key] for key in KEYS} == want, family
        plain = module.compute(predictions=pred, references=gold, **extra)
        # without the option: no such key, and everything else unchanged
        assert "confusion" not in plain and "boundary_errors" not in plain, family
        assert {k: v for k, v in got.items() if k not in KEYS} == plain, family


def test_confusion_at_load_time_from_label_ids(monkeypatch):
    monkeypatch.chdir(REPO)
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"]]
    pred = [["B-PER", "O", "O", "B-ORG", "I-ORG"], ["B-LOC", "O", "O"]]
    module = evaluate.load("metrics/faireval", confusion=True, label_list=LABELS)
    ids = [[LABELS.index(t) for t in s] + [-100] for s in gold]
    predicted = [[LABELS.index(t) for t in s] + [0] for s in pred]
    got = module.compute(predictions=predicted, references=ids)
    want = expected(gold, pred)
    assert {key: got[key] for key in KEYS} == want
    # by hand: PER 0-2 vs PER 0-1 and LOC 3-4 vs ORG 3-5 boundary errors; ORG taken as
    # LOC (same span); the second PER missed
    assert want["confusion"]["ORG"]["LOC"] == want["confusion"]["PER"]["O"] == 1
    assert "LOC" not in want["confusion"]   # no non-zero cell: a boundary error
    assert want["boundary_errors"]["gold"] == {"LOC": 1, "ORG": 0, "PER": 1}
    # compute(...) overrides the load-time option
    assert "confusion" not in module.compute(predictions=predicted, references=ids,
                                             confusion=False)


def test_faireval_span_route_gives_the_same_confusion(modules):
    gold = [[{"label": "PER", "start": 0, "end": 2}, {"label": "LOC", "start": 3, "end": 4}],
            [{"label": "ORG", "start": 0, "end": 1}, {"label": "PER", "start": 2, "end": 3}]]
    pred = [[{"label": "PER", "start": 0, "end": 1}, {"label": "ORG", "start": 3, "end": 5}],
            [{"label": "ORG", "start": 0, "end": 1}]]
    tags_gold = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"]]
    tags_pred = [["B-PER", "O", "O", "B-ORG", "I-ORG"], ["B-ORG", "O", "O"]]
    got = modules["faireval"].compute(predictions=pred, references=gold, confusion=True)
    assert {key: got[key] for key in KEYS} == expected(tags_gold, tags_pred)


def test_a_bad_confusion_value_is_refused(modules):
    with pytest.raises(InputTypeError, match="confusion"):
        modules["faireval"].compute(predictions=[["O"]], references=[["O"]],
                                    confusion="yes")


def test_fairevals_matrix_of_errors_is_error_confusion_and_its_old_key_is_gone():
    gold = [["B-PER", "I-PER", "O", "B-LOC"]]
    pred = [["B-PER", "O", "O", "B-ORG"]]
    result = faireval.score(gold, pred).to_dict()
    assert "confusion" not in result and set(result["error_confusion"]) == {"matrix", "FN",
                                                                           "FP"}
    with pytest.raises(KeyError, match="confusion"):
        result["confusion"]   # read with a warning in 0.1, gone in 0.2
    assert result.get("confusion") is None
    # JSON holds the new key only; a result saved before the rename still draws
    assert "\"confusion\"" not in json.dumps(result)
    saved = {k if k != "error_confusion" else "confusion": v for k, v in result.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert faireval.result.error_confusion(saved) == result["error_confusion"]
        assert faireval.plots.confusion_cells(saved)[0] == faireval.plots.confusion_cells(
            result)[0]


@pytest.mark.parametrize("options", [{"keep_types": ["PER", "LOC"]},
                                     {"type_map": {"ORG": "LOC"}}, {"suffix": True}])
def test_the_input_options_shape_the_matrix_as_in_nerspan(modules, options):
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"]]
    pred = [["B-PER", "O", "O", "B-ORG", "I-ORG"], ["B-LOC", "O", "B-PER"]]
    tokens = [["Ana", "Lee", "in", "Rome", "."], ["Acme", "hired", "Kim"]]
    if options.get("suffix"):   # the same tags written type first
        gold, pred = ([[t if t == "O" else f"{t[2:]}-{t[0]}" for t in s] for s in side]
                      for side in (gold, pred))
    want = expected(gold, pred, inputs=options)
    for family, module in modules.items():
        extra = {} if family == "faireval" else {"tokens": tokens}
        got = module.compute(predictions=pred, references=gold, confusion=True, **options,
                             **extra)
        assert {key: got[key] for key in KEYS} == {key: want[key] for key in KEYS}, family


def test_generated_output_gives_nerspans_confusion(modules):
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O"], ["B-ORG", "O", "B-PER"]]
    tokens = [["Ana", "Lee", "in", "Rome", "."], ["Acme", "hired", "Kim"]]
    responses = ['[{"text": "Ana Lee", "type": "PER"}, {"text": "Rome", "type": "ORG"}]',
                 '[{"text": "Kim", "type": "PER"}, {"text": "Bob", "type": "PER"}]']
    want = expected(gold, responses, tokens=tokens)
    got = modules["faireval"].compute(predictions=responses, references=gold, tokens=tokens,
                                      confusion=True)
    assert {key: got[key] for key in KEYS} == {key: want[key] for key in KEYS}
    # Rome taken as ORG; ORG "Acme" missed; "Bob" is not in the sentence: no span
    assert want["confusion"]["LOC"]["ORG"] == want["confusion"]["ORG"]["O"] == 1
    assert want["confusion"]["PER"]["PER"] == 2


def test_a_bad_confusion_value_is_refused_on_the_span_route(modules):
    spans = [[{"label": "PER", "start": 0, "end": 1}]]
    with pytest.raises(InputTypeError, match="confusion must be True or False"):
        modules["faireval"].compute(predictions=spans, references=spans, confusion="no")
