"""One vocabulary: an option has the same name in the API, the evaluate module and the CLI.

``OPTIONS`` is the table (docs/cli.md, "One vocabulary"): per family, each ``score`` option,
whether the evaluate module takes it, and its CLI flag (the API name with ``-`` for
``_``) or why the CLI has none. The tests read the real signatures, the modules'
``OPTIONS`` and the argparse parsers, so a renamed option fails here. Each deprecated
alias (API and CLI) warns once and gives the same numbers as its new name.
"""
from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import warnings

import numpy as np
import pytest

import attribute_buckets
import faireval
import hardeval
import nerspan
import tough_mentions
from nerlens.cli import build_parser, main
from nerlens.cli import inputs
from nerlens.families import get_family
from nerspan.options import MATCHING, OVERLAPS

from .conftest import REPO

NO_FLAG = None   # a score option the CLI does not offer (the reason is in docs/cli.md)

# family -> command, {score option: CLI flag or NO_FLAG}. A score option is a keyword of
# the family's score, a field of its record (options={...}) or an input option
# (inputs={...}); every one is also an evaluate module option.
SPAN_FLAGS = {"suffix": "--suffix", "inclusive_end": "--inclusive-end", "snap": "--snap",
              "offsets": "--offsets", "scheme": "--scheme", "mode": "--mode"}
OPTIONS = {
    "tough_mentions": ("tough-mentions", {
        "case_sensitive": "--case-sensitive", "return_mentions": "--return-mentions",
        **SPAN_FLAGS}),
    "hardeval": ("hardeval", {
        "strict_diff": "--strict-diff", "error_labels": "--error-labels",
        "return_hard_tokens": "--hard-tokens",   # its record names the flag
        "subsets": NO_FLAG,   # the CLI's --kfold makes subsets
        **SPAN_FLAGS}),
    "attribute_buckets": ("buckets", {
        "n_buckets": "--n-buckets", "attributes": "--attributes",
        "bucket_edges": NO_FLAG, "equal_width": "--equal-width",
        "lowercase": "--lowercase", "frequency_norm": "--frequency-norm",
        "compat": "--compat", "bootstrap": "--bootstrap", "seed": "--seed",
        "confidence": "--confidence", **SPAN_FLAGS}),
    "faireval": ("faireval", {
        "weights": "--weights", "focus": "--focus", "labels": "--labels",
        "exclude": "--exclude", "ignore_punct": "--ignore-punct",
        "pos": NO_FLAG,            # the CLI reads POS tags from GOLD's --pos-column
        "confusion_tp": "--confusion-tp", "return_pairs": "--return-pairs",
        "reference_iteration": "--reference-iteration", "schemas": "--schemas",
        "min_overlap": "--min-overlap", "pairing": "--pairing",
        "return_instances": "--return-instances", **SPAN_FLAGS}),
}
PACKAGES = {"tough_mentions": tough_mentions, "hardeval": hardeval,
            "attribute_buckets": attribute_buckets, "faireval": faireval}
DECODING = ("scheme", "mode")
# the modules and the commands take them; a score does not (0.2: result.to_dict(beta=),
# Evaluation.confusion)
MODULE_AND_CLI_ONLY = {"beta": "--beta", "confusion": "--confusion"}

# Flags whose name is an API name of another meaning must not exist in the CLI: file
# column positions are *_tag_column / *_column integers, the families' gold_column /
# pred_column name Corpus columns.
CLASHING_FLAGS = ("--gold-column", "--pred-column", "--strict", "--tokens", "--buckets",
                  "--case-insensitive", "--mentions", "--gold", "--dataset")


def subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


def visible_flags(parser) -> dict:
    """Flag -> action, for the options ``--help`` shows (not the renamed old flags)."""
    return {flag: action for action in parser._actions if action.help != argparse.SUPPRESS
            for flag in action.option_strings}


def metric_options(family: str) -> tuple:
    """Every keyword the evaluate loading script metrics/<family>/<family>.py takes."""
    path = REPO / "metrics" / family / f"{family}.py"
    spec = importlib.util.spec_from_file_location(f"_vocabulary_{family}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls = next(v for v in vars(module).values()
               if isinstance(v, type) and hasattr(v, "accepted") and v.__module__ == module.__name__)
    return cls.accepted()


def score_options(family: str) -> dict:
    """Name -> default of everything a family's score takes: its keywords, its record's
    fields (``options=``) and the input options (``inputs=``)."""
    record = get_family(family).options
    defaults = {o.name: o.default for o in nerspan.InputOptions.options()}
    defaults.update({o.name: o.default for o in record.options()})
    defaults.update({name: p.default for name, p in
                     inspect.signature(PACKAGES[family].score).parameters.items()})
    return defaults


def declared_flag(family: str, name: str):
    """The flag a record declares for ``name`` (None: not a record field)."""
    records = (get_family(family).options, nerspan.InputOptions)
    return next((o.flag for r in records for o in r.options() if o.name == name), None)


@pytest.mark.parametrize("family", list(OPTIONS))
def test_api_module_and_cli_names_agree(family):
    command, table = OPTIONS[family]
    options = score_options(family)
    module_options = set(metric_options(family))
    flags = visible_flags(subparser(command))
    for name, flag in table.items():
        assert name in options, f"{family}.score has no option {name!r}"
        assert name in module_options, f"metrics/{family} does not take {name!r}"
        if flag is NO_FLAG:
            assert "--" + name.replace("_", "-") not in flags
            continue
        assert flag in ("--" + name.replace("_", "-"), declared_flag(family, name)), \
            (name, flag)
        assert flag in flags, f"nerlens {command} has no {flag}"
        assert flags[flag].dest in (name, flag[2:].replace("-", "_")), (flag, flags[flag].dest)
        default = options[name]
        # None: the CLI has its own "not given"; a tuple: the CLI takes comma-separated text
        if default is not inspect.Parameter.empty and default is not None \
                and not isinstance(default, (tuple, list)):
            # the flags are the records' fields: the record's default is the flag's
            assert flags[flag].default == default, (family, name, flags[flag].default, default)
    for name, flag in MODULE_AND_CLI_ONLY.items():   # hardeval has no F-score: no --beta
        assert name in module_options and name not in options, (family, name)
        if (family, name) != ("hardeval", "beta"):
            assert flags[flag].dest == name, (family, flag)


# generated output's options (nerspan.InputOptions, every family), and nerspan.score's of
# string matching: the same names as flags of the commands that read --generated
GENERATED_OPTIONS = ("matching", "occurrences", "overlaps", "fuzzy")
STRING_OPTIONS = ("script", "word_overlap")


@pytest.mark.parametrize("command", ["score", "tough-mentions", "hardeval", "buckets",
                                     "faireval", "report"])
def test_generated_output_options_are_flags_of_the_same_names(command):
    flags = visible_flags(subparser(command))
    names = GENERATED_OPTIONS + (STRING_OPTIONS if command == "score" else ())
    for name in names:
        assert name in nerspan.InputOptions.all_names(), name
        assert flags["--" + name.replace("_", "-")].dest == name, (command, name)
    assert set(MATCHING) <= set(flags["--matching"].choices)
    assert set(OVERLAPS) == set(flags["--overlaps"].choices)


@pytest.mark.parametrize("family", list(OPTIONS))
def test_every_module_option_is_a_score_option(family):
    options = score_options(family)
    for name in metric_options(family):
        assert name in options or name in MODULE_AND_CLI_ONLY, (family, name)


@pytest.mark.parametrize("command", ["score", "tough-mentions", "hardeval", "buckets",
                                     "faireval", "report"])
def test_every_command_reads_gold_then_predictions(command):
    parser = subparser(command)
    positionals = [a.dest for a in parser._actions if not a.option_strings]
    assert positionals[:2] == ["gold", "predictions"], positionals
    flags = visible_flags(parser)
    for flag in CLASHING_FLAGS:
        assert flag not in flags, f"{command} shows {flag}"
    for flag, action in flags.items():   # the CLI flag is the dest with - for _
        if flag.startswith("--no-"):
            continue
        assert flag in ("-h", "--help") or flag == "--" + action.dest.replace("_", "-"), \
            (command, flag, action.dest)


def test_boolean_pairs_follow_the_api_default():
    tm = visible_flags(subparser("tough-mentions"))
    buckets = visible_flags(subparser("buckets"))
    assert "--no-case-sensitive" in tm and tm["--case-sensitive"].default is True
    # one name, one default: buckets' opposite is a name of its own (0.2)
    assert "--no-lowercase" in buckets and buckets["--lowercase"].default is True
    assert "--case-sensitive" not in buckets
    assert (inspect.signature(tough_mentions.score).parameters["case_sensitive"].default,
            inspect.signature(attribute_buckets.score).parameters["lowercase"].default) \
        == (True, True)


# -- API: 0.1's spellings are errors naming the new one (0.2) ---------------------------------
def same(a, b):
    np.testing.assert_array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float))


def test_nerspan_prf_is_an_error_naming_prf_from_counts():
    with pytest.raises(AttributeError,
                       match=r"^nerspan\.prf is nerspan\.prf_from_counts since nerlens 0\.2$"):
        nerspan.prf
    assert callable(nerspan.prf_from_counts)


def test_faireval_prf_and_weighted_prf_are_errors_naming_their_new_spelling():
    from faireval import result

    with pytest.raises(AttributeError, match=r"^faireval\.prf is faireval\.prf_from_errors "
                                             r"since nerlens 0\.2$"):
        faireval.prf
    with pytest.raises(AttributeError, match=r"^faireval\.result\.weighted_prf is "
                                             r"faireval\.result\.weight_table_prf since"):
        result.weighted_prf
    assert faireval.prf_from_errors(3, 1, 2) == result.prf_from_errors(3, 1, 2)


def test_result_weighted_methods_are_gone_for_their_new_names():
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    pred = [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "O"]]
    fair = faireval.score(gold, pred, weights="weighted")
    assert not hasattr(fair, "weighted")
    with pytest.raises(AttributeError, match=r"^FairEvalResult\.weighted\(\) is "
                                             r"weight_table_scores\(\) since nerlens 0\.2$"):
        fair.weighted()
    assert fair.weight_table_scores() == tuple(
        fair.to_dict()[f"weight_table_{k}"] for k in ("precision", "recall", "f1"))
    corpus = nerspan.Corpus.from_tags(gold, pred)
    table = nerspan.LabelTable.build(corpus.labels, nerspan.get_scheme("IOB2"))
    scores = nerspan.scores.entity_scores(nerspan.decode(corpus, nerspan.GOLD, "IOB2", "lenient", table),
                                   nerspan.decode(corpus, nerspan.PRED, "IOB2", "lenient", table))
    assert not hasattr(scores, "weighted")
    with pytest.raises(AttributeError, match=r"^EntityScores\.weighted\(\) is "
                                             r"support_weighted\(\) since nerlens 0\.2$"):
        scores.weighted()
    with pytest.raises(AttributeError, match="has no attribute 'weightd'"):
        scores.weightd   # any other name: Python's own error
    assert scores.to_dict()["weighted_f1"] == scores.support_weighted()[2]


HARD = dict(tokens=[["Kim", "ran", "to", "Paris"], ["Paris", "ran"]],
            train=([["Kim", "ran"], ["Paris", "ran", "Kim"], ["Paris", "is"]], [["B-PER", "O"], ["B-LOC", "O", "O"], ["B-PER", "O"]]))
HARD_GOLD = [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O"]]
HARD_PRED = [["B-PER", "O", "O", "B-PER"], ["O", "O"]]
STRICT_MOVED = r"takes no strict since nerlens 0\.2: strict_diff={} \(hardeval's variant"


def test_hardeval_strict_is_an_error_naming_strict_diff():
    new = hardeval.score(HARD_GOLD, HARD_PRED, strict_diff=True, **HARD).to_dict()
    assert new["options"]["strict_diff"] is True
    with pytest.raises(TypeError, match=r"^score\(\) " + STRICT_MOVED.format(True)):
        hardeval.score(HARD_GOLD, HARD_PRED, strict=True, **HARD)
    with pytest.raises(TypeError, match=STRICT_MOVED.format(False)):
        hardeval.score(HARD_GOLD, HARD_PRED, strict=False, strict_diff=True, **HARD)
    corpus = nerspan.Corpus.from_tags(HARD_GOLD, tokens=HARD["tokens"])
    index = nerspan.as_train_index(HARD["train"])
    with pytest.raises(TypeError, match=r"^classify_tokens\(\) " + STRICT_MOVED.format(True)):
        hardeval.classify_tokens(corpus, index, strict=True)
    with pytest.raises(TypeError, match=r"^kfold_subsets\(\) " + STRICT_MOVED.format(True)):
        hardeval.kfold_subsets(corpus, k=2, strict=True)
    assert hardeval.classify_tokens(corpus, index, strict_diff=True) is not None
    assert hardeval.kfold_subsets(corpus, k=2, strict_diff=True) is not None


def test_module_strict_is_an_error_naming_strict_diff():
    evaluate = pytest.importorskip("evaluate")
    metric = evaluate.load(str(REPO / "metrics" / "hardeval"), train=HARD["train"])
    new = metric.compute(references=HARD_GOLD, predictions=HARD_PRED, tokens=HARD["tokens"],
                         strict_diff=True)
    assert new["options"]["strict_diff"] is True
    with pytest.raises(TypeError, match=r"^the hardeval module " + STRICT_MOVED.format(True)):
        metric.compute(references=HARD_GOLD, predictions=HARD_PRED, tokens=HARD["tokens"],
                       strict=True)
    with pytest.raises(TypeError, match=r"^the hardeval module " + STRICT_MOVED.format(True)):
        evaluate.load(str(REPO / "metrics" / "hardeval"), train=HARD["train"], strict=True)


# -- CLI aliases: one warning line, the same output ------------------------------------------
@pytest.fixture
def files(tmp_path):
    paths = {"train": "Kim B-PER\nran O\n\nParis B-LOC\nran O\nkim O\n\nParis B-PER\nis O\n",
             "gold": "Kim B-PER\nran O\nto O\nParis B-LOC\n\nparis B-LOC\nran O\n",
             "pred": "Kim B-PER\nran O\nto O\nParis B-PER\n\nparis O\nran O\n"}
    for name, text in paths.items():
        (tmp_path / f"{name}.txt").write_text(text)
    return {name: str(tmp_path / f"{name}.txt") for name in paths} | {"tmp": tmp_path}


def run(capsys, argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


ALIASES = [  # command, old flags, new flags
    ("tough-mentions", ["--case-insensitive"], ["--no-case-sensitive"]),
    ("buckets", ["--case-sensitive"], ["--no-lowercase"]),
    ("tough-mentions", ["--mentions"], ["--return-mentions"]),
    ("hardeval", ["--strict"], ["--strict-diff"]),
    ("hardeval", ["--tokens"], ["--hard-tokens"]),
    ("buckets", ["--buckets", "2"], ["--n-buckets", "2"]),
    ("score", ["--gold-column", "-1"], ["--gold-tag-column", "-1"]),
    ("score", ["--pred-column", "-1"], ["--pred-tag-column", "-1"]),
]


def usage_error(capsys, argv) -> str:
    with pytest.raises(SystemExit) as stop:
        main([str(a) for a in argv])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert not out
    return err


@pytest.mark.parametrize("command,old,new", ALIASES)
def test_cli_old_flag_is_a_usage_error_naming_the_new_one(files, capsys, command, old, new):
    argv = [command, files["gold"], files["pred"], "--format", "json"]
    if command != "score":
        argv += ["--train", files["train"]]
    code, expected, err = run(capsys, argv + new)
    assert code == 0 and "warning" not in err, err
    assert json.loads(expected)
    err = usage_error(capsys, argv + old)
    assert err.splitlines()[-1] == \
        (f"nerlens {command}: error: {old[0]} is {new[0]} since nerlens 0.2 "
         f"(see nerlens {command} --help)"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("old", ["--gold", "--dataset"])
def test_report_gold_option_is_a_usage_error_naming_gold(files, capsys, old):
    common_args = ["--train", files["train"], "--bootstrap", "0", "--format", "json",
                   "--no-progress"]
    code, expected, err = run(capsys, ["report", files["gold"], files["pred"],
                                       "--output", files["tmp"] / "new", *common_args])
    assert code == 0, err
    assert json.loads(expected)["results"]
    err = usage_error(capsys, ["report", old, files["gold"], files["pred"],
                               "--output", files["tmp"] / "old", *common_args])
    assert err.splitlines()[-1] == \
        (f"nerlens report: error: {old} is GOLD (the first argument) since nerlens 0.2 "
         "(see nerlens report --help)"), err


def test_report_reads_a_saved_dataset_as_gold(files, capsys):
    datasets = pytest.importorskip("datasets")
    from .conftest import tagged_split

    tagged_split([["Kim", "ran", "to", "Paris"], ["paris", "ran"]],
                 [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O"]],
                 ["O", "B-PER", "B-LOC"]).save_to_disk(str(files["tmp"] / "test_split"))
    assert datasets  # the module is needed by save_to_disk above
    args = ["--train", files["train"], "--bootstrap", "0", "--format", "json", "--no-progress"]
    code, from_file, err = run(capsys, ["report", files["gold"], files["pred"], "--output",
                                        files["tmp"] / "a", *args])
    assert code == 0, err
    code, from_folder, err = run(capsys, ["report", files["tmp"] / "test_split", files["pred"],
                                          "--output", files["tmp"] / "b", *args])
    assert code == 0, err
    assert json.loads(from_folder)["results"] == json.loads(from_file)["results"]


def test_options_may_stand_between_gold_and_predictions(files, capsys):
    code, together, _ = run(capsys, ["report", files["gold"], files["pred"], "--train",
                                     files["train"], "--bootstrap", "0", "--format", "json",
                                     "--output", files["tmp"] / "a", "--no-progress"])
    assert code == 0
    code, split, err = run(capsys, ["report", files["gold"], "--train", files["train"],
                                    files["pred"], "--bootstrap", "0", "--format", "json",
                                    "--output", files["tmp"] / "b", "--no-progress"])
    assert code == 0, err
    assert json.loads(split)["results"] == json.loads(together)["results"]
    with pytest.raises(SystemExit) as stop:
        main(["score", files["gold"], files["pred"], "--bogus"])
    assert stop.value.code == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


# -- one loader for GOLD plus systems ---------------------------------------------------------
def test_library_loader_reads_files_lists_and_tag_lists(files):
    from nerspan.reading.systems import read_systems

    by_list, names = read_systems(files["gold"], [files["pred"]])
    assert names == ["pred"]
    by_name, names = read_systems(files["gold"], {"sys": files["pred"]})
    assert names == ["sys"]
    tags, names = read_systems([["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O"]],
                               {"sys": [["B-PER", "O", "O", "B-PER"], ["O", "O"]]},
                               inputs={'tokens': [["Kim", "ran", "to", "Paris"], ["paris", "ran"]]})
    for corpus, column in ((by_name, "sys"), (tags, "sys")):
        assert corpus.tags(column, 0) == by_list.tags("pred", 0)
        assert corpus.tags(nerspan.GOLD, 1) == by_list.tags(nerspan.GOLD, 1)


def test_library_loader_names_the_system_of_a_bad_tag(files):
    from nerspan.reading.systems import read_systems

    with pytest.raises(nerspan.InvalidTagError, match="system 'sys' tag 'FOO'"):
        read_systems(files["gold"], {"sys": [["B-PER", "O", "O", "FOO"], ["O", "O"]]})
    with pytest.raises(nerspan.InvalidTagError, match=r"gold.txt:1.*'B-PER' is not in the IO"):
        read_systems(files["gold"], [files["pred"]], scheme="IO", mode="strict")


def test_library_loader_checks_tokens(files, tmp_path):
    from nerspan.reading.systems import read_systems

    other = tmp_path / "other.txt"
    other.write_text("Kim B-PER\nran O\nto O\nRome B-PER\n\nparis O\nran O\n")
    with pytest.raises(nerspan.NerspanError, match="Rome"):
        read_systems(files["gold"], [str(other)])
    with pytest.warns(UserWarning, match="accepted"):
        read_systems(files["gold"], [str(other)], inputs={'allow_token_mismatch': True})


def test_cli_does_not_read_files_itself():
    """The commands' loaders are thin wrappers of nerspan.reading.systems (one loader)."""
    source = inspect.getsource(inputs.load_systems) + inspect.getsource(inputs.read_gold)
    assert "read_columns" not in source and "library." in source


MOVED = nerspan.__getattr__.moved   # name -> its new spelling (or why it went)


def resolved(spelling: str):
    """The object a new spelling names (``nerspan.reading.forms.read_input(...).corpus``:
    what stands before the call; ``Corpus.with_tokens``: nerspan's)."""
    path = spelling.partition("(")[0]
    path = path if path.startswith("nerspan.") else f"nerspan.{path}"
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):   # the longest importable module, then attributes
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise AssertionError(spelling)


@pytest.mark.parametrize("name", sorted(MOVED))
def test_every_moved_name_is_an_error_naming_its_new_spelling(name):
    with pytest.raises(AttributeError) as caught:
        getattr(nerspan, name)
    assert str(caught.value) == f"nerspan.{name} is {MOVED[name]} since nerlens 0.2"
    # the map must follow module moves (nerspan.reading): a stale spelling fails here
    if not MOVED[name].startswith("gone:"):
        assert resolved(MOVED[name]) is not None
