"""One result contract (docs/result-contract.md): every family, and nerspan's entity
scores, through the API, the evaluate module and the CLI's ``--format json``.

``to_dict()`` is plain JSON (Python int/float/str/bool/None, lists, string-keyed dicts);
``precision``/``recall``/``f1`` where defined; per-type rows under ``per_type``;
``options`` (scheme and mode included) and ``repairs`` (``{"gold", "pred"}`` with the
same keys) always; undefined numbers are None. The three entry points give equal
results on the same input.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import attribute_buckets
import faireval
import hardeval
import nerspan
from nerspan.spans import REPAIR_KINDS
import tough_mentions
from nerlens.cli import main

REPO = Path(__file__).resolve().parents[1]

TRAIN_TOKENS = [["Kim", "Lee", "lives", "in", "Paris"], ["the", "UN", "met", "Kim"]]
TRAIN_TAGS = [["B-PER", "I-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "O", "B-PER"]]
TOKENS = [["Ana", "Lee", "lives", "in", "Rome"], ["the", "UN", "met", "in", "Paris"],
          ["Kim", "said", "so"]]
REFERENCES = [["B-PER", "I-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "O", "O", "B-LOC"],
              ["B-PER", "O", "O"]]
# I-PER after O and I-ORG after O: lenient decoding repairs two transitions
PREDICTIONS = [["I-PER", "I-PER", "O", "O", "B-LOC"], ["O", "I-ORG", "B-LOC", "O", "B-PER"],
               ["O", "O", "O"]]
TRAIN = {"train": (TRAIN_TOKENS, TRAIN_TAGS)}

FAMILIES = ("nerspan", "faireval", "tough_mentions", "hardeval", "attribute_buckets")
PACKAGES = {"nerspan": nerspan, "faireval": faireval, "tough_mentions": tough_mentions,
            "hardeval": hardeval, "attribute_buckets": attribute_buckets}
NEEDS_TRAIN = {"tough_mentions", "hardeval", "attribute_buckets"}
COMMANDS = {"nerspan": "score", "faireval": "faireval", "tough_mentions": "tough-mentions",
            "hardeval": "hardeval", "attribute_buckets": "buckets"}
HEADLINE = {"nerspan", "faireval", "tough_mentions", "attribute_buckets"}  # P/R/F1 defined


def api(family: str, references=REFERENCES, predictions=PREDICTIONS, **options) -> dict:
    extra = ({"tokens": TOKENS, **TRAIN} if family in NEEDS_TRAIN else {})
    return PACKAGES[family].score(references, predictions, **extra, **options).to_dict()


def assert_plain_json(value, where: str = "result") -> None:
    """Only JSON's own types, finite floats, string keys."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) is str, f"{where}: key {key!r}"
            assert_plain_json(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            assert_plain_json(item, f"{where}[{i}]")
    else:
        assert value is None or type(value) in (bool, int, float, str), \
            f"{where}: {type(value).__name__} {value!r}"
        if type(value) is float:
            assert math.isfinite(value), f"{where}: {value!r}"


def assert_contract(family: str, result: dict) -> None:
    assert_plain_json(result)
    assert json.loads(json.dumps(result, allow_nan=False)) == result
    if family in HEADLINE:
        assert {"precision", "recall", "f1"} <= set(result)
    assert isinstance(result["per_type"], dict)
    assert "per_label" not in result
    options = result["options"]
    assert {"scheme", "mode"} <= set(options), options
    repairs = result["repairs"]
    assert set(repairs) == {"gold", "pred"}
    assert set(repairs["gold"]) == set(repairs["pred"]) >= set(REPAIR_KINDS)


# -- JSON and the shared keys, for every option ------------------------------------------
OPTIONS = {
    "nerspan": [{}, {"mode": "strict"}, {"zero_division": 1}, {"scheme": "BIO"}],
    "faireval": [{}, {"weights": "weighted"},
                 {"weights": {"LE": (0, 1, 0), "BE": (0.5, 0.5, 0)}}, {"focus": "system"},
                 {"labels": ["LOC", "PER"]}, {"exclude": ["ORG"]}, {"confusion_tp": True},
                 {"return_pairs": True}, {"reference_iteration": True},
                 {"schemas": "semeval"}, {"mode": "strict"}],
    "tough_mentions": [{}, {"case_sensitive": False}, {"return_mentions": True},
                       {"mode": "strict"}],
    "hardeval": [{}, {"error_labels": "bio"}, {"error_labels": "io"}, {"strict_diff": True},
                 {"return_hard_tokens": True}, {"mode": "strict"}],
    "attribute_buckets": [{}, {"n_buckets": 3}, {"options": {"equal_width": True}},
                          {"lowercase": False}, {"options": {"frequency_norm": "rank5"}},
                          {"compat": "interpreteval"},
                          {"options": {"bootstrap": 20, "seed": 1}},
                          {"attributes": ["eLen", "tag"]},
                          {"attributes": ["eLen"], "bucket_edges": {"eLen": [1, 2, math.inf]}},
                          {"mode": "strict"}],
}


@pytest.mark.parametrize("family, options",
                         [(f, o) for f in FAMILIES for o in OPTIONS[f]],
                         ids=lambda x: x if isinstance(x, str) else json.dumps(x, default=str))
def test_every_result_is_plain_json_with_the_shared_keys(family, options):
    result = api(family, **options)
    assert_contract(family, result)
    given = {**options, **options.get("options", {})}   # the record's options (0.2) too
    shaping = [name for name in given if not name.startswith("return_") and name != "options"]
    assert set(shaping) <= set(result["options"])


@pytest.mark.parametrize("family", FAMILIES)
def test_repairs_are_counted_with_the_same_keys_on_both_sides(family):
    repairs = api(family)["repairs"]
    if family == "hardeval":   # the reference decoder re-encodes the predictions (BILOU)
        assert repairs["pred"]["dropped_inside"] == 3
    else:
        assert repairs["pred"]["invalid_transitions"] == 2
    assert repairs["pred"]["sentences"] == [0, 1]
    assert repairs["gold"]["invalid_transitions"] == 0 and repairs["gold"]["sentences"] == []
    clean = api(family, predictions=REFERENCES)["repairs"]
    assert clean == {side: {k: (v if k in ("discarded_chunks", "lenient_chunks") else
                                [] if k == "sentences" else 0) for k, v in clean[side].items()}
                     for side in ("gold", "pred")}


@pytest.mark.parametrize("family", FAMILIES)
def test_span_input_snapping_is_a_repair_of_its_side(family):
    tokens = [["Ada", "Lovelace", "met", "Kim"]]
    gold = [["B-PER", "I-PER", "O", "B-PER"]]
    pred = [[{"entity_group": "PER", "start": 0, "end": 7, "word": "Ada Lov", "score": 0.9}]]
    corpus = nerspan.from_spans(gold, pred, tokens, inputs={'snap': True})
    package = PACKAGES[family]
    extra = {"train": (tokens, gold)} if family in NEEDS_TRAIN else {}
    result = package.score(corpus, **extra).to_dict()
    assert_contract(family, result)
    assert result["repairs"]["pred"]["snapped"] == 1 and result["repairs"]["gold"]["snapped"] == 0


# -- undefined numbers are None ----------------------------------------------------------
def test_faireval_undefined_ratios_are_none_and_the_methods_keep_the_reference_zero():
    result = faireval.score([[], [("PER", 0, 1)]], [[("LOC", 0, 2)], []])
    d = result.to_dict()
    assert d["per_type"]["LOC"]["traditional_recall"] is None      # no LOC in the target
    assert d["per_type"]["PER"]["fair_precision"] is None          # no PER in the system
    assert d["per_type"]["PER"]["fair_f1"] == 0.0                  # one PER missed
    empty = faireval.score([[]], [[]])
    assert empty.to_dict()["fair_precision"] is None and empty.to_dict()["fair_f1"] is None
    assert empty.to_dict()["traditional_f1"] is None
    # the headline is nerspan's entity scores in every result: zero_division, listed
    assert empty.to_dict()["f1"] == 0.0 and empty.to_dict()["undefined"][:2] == ["precision",
                                                                                 "recall"]
    assert "fair_f1" in empty.to_dict()["undefined"]   # then every key that is None
    assert empty.fair() == (0.0, 0.0, 0.0)   # the reference code's zero division
    assert_contract("faireval", empty.to_dict())


def test_nerspan_keeps_zero_division_and_lists_where_it_applied():
    d = nerspan.score([["O", "O"]], [["O", "O"]], zero_division=1).to_dict()
    assert d["precision"] == d["recall"] == 1.0
    assert d["undefined"] == ["precision", "recall"]
    assert d["options"]["zero_division"] == 1.0


def test_hardeval_and_attribute_buckets_per_type_rows():
    hard = api("hardeval")
    for row in hard["per_type"].values():
        for name, tokens in row["tokens"].items():
            key = "ter" if name == "all" else "ter_" + name.lower().replace("-", "_")
            assert row[key] == (row["errors"][name] / tokens if tokens else None)
    assert sum(r["tokens"]["all"] for r in hard["per_type"].values()) == 6  # gold entity tokens
    buckets = api("attribute_buckets")
    rows = buckets["per_type"]
    assert rows["PER"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5, "support": 2,
                           "predicted": 2, "correct": 1}
    assert rows["ORG"]["f1"] == 1.0   # I-ORG after O: lenient decoding reads an ORG mention
    missed = attribute_buckets.score([["B-MISC", "O"]], [["O", "O"]], attributes=["eLen"])
    assert missed.to_dict()["per_type"]["MISC"] == {
        "precision": None, "recall": 0.0, "f1": 0.0, "support": 1, "predicted": 0,
        "correct": 0}
    assert missed.to_dict()["precision"] == 0.0   # nerspan's entity scores: zero_division
    assert missed.to_dict()["undefined"] == ["precision"]


# -- equal results through the API, the evaluate module and the CLI ----------------------
@pytest.fixture(scope="module")
def evaluate_module():
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO)
        import evaluate
        yield evaluate


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("contract")

    def write(name, rows):
        path = root / name
        path.write_text("\n\n".join("\n".join(" ".join(cells) for cells in zip(*columns))
                                    for columns in rows) + "\n", encoding="utf-8")
        return str(path)
    return {"train": write("train.txt", list(zip(TRAIN_TOKENS, TRAIN_TAGS))),
            "both": write("both.txt", list(zip(TOKENS, REFERENCES, PREDICTIONS)))}


def cli(capsys, family: str, files: dict) -> dict:
    argv = [COMMANDS[family]]
    if family in NEEDS_TRAIN:
        argv += ["--train", files["train"]]
    capsys.readouterr()
    assert main(argv + [files["both"], "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def module(evaluate_module, family: str) -> dict:
    path = f"metrics/{family}"
    if family in NEEDS_TRAIN:
        loaded = evaluate_module.load(path, **TRAIN)
        return loaded.compute(references=REFERENCES, predictions=PREDICTIONS, tokens=TOKENS)
    return evaluate_module.load(path).compute(references=REFERENCES, predictions=PREDICTIONS)


@pytest.mark.parametrize("family", FAMILIES)
def test_api_module_and_cli_agree(family, files, capsys, evaluate_module):
    expected = api(family)
    assert_contract(family, expected)
    through_cli = cli(capsys, family, files)
    assert_contract(family, through_cli)
    if family == "nerspan":
        # `score` adds conlleval's token accuracy; no evaluate module (seqeval's is that)
        assert {k: v for k, v in through_cli.items() if k not in ("accuracy", "tokens")} \
            == expected
        return
    assert through_cli == expected
    through_module = module(evaluate_module, family)
    assert_contract(family, through_module)
    assert through_module == expected


def test_the_library_never_imports_the_command_line():
    import subprocess
    import sys

    library = ["nerspan", "tough_mentions", "hardeval", "faireval", "attribute_buckets",
               "nerlens", "nerlens.report", "nerlens.experiment", "nerlens.trainer",
               "nerlens.report.statistics",
               "nerlens.baseline", "nerlens.demo", "nerlens.space", "nerlens.metric_support"]
    code = ("import importlib, sys\n"
            f"for name in {library!r}:\n"
            "    importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m.startswith('nerlens.cli')))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"


# -- one result protocol (issue 29) --------------------------------------------------------
def results(**options) -> dict:
    """family -> its result object on the shared input."""
    out = {}
    for family in FAMILIES:
        extra = ({"tokens": TOKENS, **TRAIN} if family in NEEDS_TRAIN else {})
        out[family] = PACKAGES[family].score(REFERENCES, PREDICTIONS, **extra, **options)
    return out


def test_every_result_follows_the_protocol_and_is_immutable():
    import dataclasses

    from nerspan.result import SHARED_KEYS, FamilyResult, Result

    for family, result in results().items():
        assert isinstance(result, Result), family
        if family != "nerspan":
            assert isinstance(result, FamilyResult), family
            assert all(hasattr(s, "estimate") for s in result.statistics())
        d = result.to_dict()
        assert set(SHARED_KEYS) <= set(d), family
        assert d["undefined"] == result.undefined(), family
        assert d["options"] == dict(result.options) | d["options"]
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.options = {}
    fair = faireval.score(REFERENCES, PREDICTIONS, schemas="semeval")
    with pytest.raises(dataclasses.FrozenInstanceError):
        fair.semeval = None


@pytest.mark.parametrize("family", FAMILIES)
def test_undefined_lists_every_top_level_key_that_is_none(family):
    empty_gold = [["O", "O", "O", "O", "O"], ["O"] * 5, ["O"] * 3]
    for references in (REFERENCES, empty_gold):
        d = api(family, references=references)
        nones = [key for key, value in d.items() if value is None]
        assert set(nones) <= set(d["undefined"]), (family, nones, d["undefined"])
        assert all(key in d for key in d["undefined"] if "/" not in key)
    if family in HEADLINE:   # nothing to find: recall took zero_division
        assert "recall" in api(family, references=empty_gold)["undefined"]


def test_per_type_entity_scores_are_one_row_in_every_family():
    from nerspan.result import ENTITY_ROW_KEYS

    rows = {family: api(family)["per_type"] for family in FAMILIES if family != "hardeval"}
    for family, per_type in rows.items():
        for entity_type, row in per_type.items():
            assert set(ENTITY_ROW_KEYS) <= set(row), (family, entity_type)
            # the same type's scores are the same numbers in every family
            assert {k: row[k] for k in ENTITY_ROW_KEYS} == \
                {k: rows["attribute_buckets"][entity_type][k] for k in ENTITY_ROW_KEYS}
    # an undefined ratio is None in the families, nerspan's follows zero_division
    missed = {f: api(f, references=[["O"] * 5, ["O"] * 5, ["B-MISC", "O", "O"]])
              for f in ("nerspan", "faireval", "tough_mentions")}
    assert missed["faireval"]["per_type"]["MISC"]["precision"] is None
    assert missed["tough_mentions"]["per_type"]["MISC"]["precision"] is None
    assert missed["nerspan"]["per_type"]["MISC"]["precision"] == 0.0


def test_hardeval_spells_each_subset_one_way():
    d = api("hardeval")
    ter_keys = {key for key in d if key.startswith("ter")}
    assert ter_keys == {"ter"} | {f"ter_{name}" for name in d["subsets"] if name != "all"}
    for row in d["per_type"].values():
        assert set(row["tokens"]) == set(d["subsets"]) == set(row["errors"])
    assert all(name == name.lower() and "-" not in name for name in d["subsets"])
    result = hardeval.score(REFERENCES, PREDICTIONS, tokens=TOKENS, **TRAIN)
    # 0.1's spellings are errors naming the new one (0.2)
    with pytest.raises(KeyError, match="the subset 'unseen-I' is 'unseen_i' since nerlens 0.2"):
        result.subsets["unseen-I"]
    with pytest.raises(KeyError, match="the subset 'diff-E' is 'diff_e' since nerlens 0.2"):
        result.ter("diff-E")
    assert result.ter("diff_e") == d["ter_diff_e"]
