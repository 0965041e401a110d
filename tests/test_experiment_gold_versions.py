"""An experiment's other gold versions on the command line (issue 42): ``--gold-alt
[NAME:]VERSION=FILE`` with --data (a version of the last --data, or of dataset NAME) and
``"gold_alt"`` in a manifest's dataset entry give the numbers of ``nerlens.run_experiment``
with the same ``gold_alt``; a misplaced or misnamed version is one line whose hint runs."""
from __future__ import annotations

import json
import re

import pytest

import nerlens
from nerlens.experiment.manifest import manifest_datasets

from .test_audit_cli import A, B, SYSTEMS, WORDS, run, write

OPTIONS = ["--bootstrap", "20", "--seed", "3", "--families", "faireval", "--no-progress"]


@pytest.fixture
def paths(tmp_path):
    return {"gold": write(tmp_path / "gold.txt", A), "fixed": write(tmp_path / "fixed.txt", B),
            "train": write(tmp_path / "train.txt", [A[0]], [WORDS[0]]),
            **{name: write(tmp_path / f"{name}.txt", tags) for name, tags in SYSTEMS.items()},
            "out": str(tmp_path / "out")}


def api_experiment(paths: dict, versions: dict) -> dict:
    """The experiment.json of the API: datasets d and e, each with the versions given."""
    entry = {"gold": paths["gold"], "train": paths["train"],
             "systems": {name: paths[name] for name in SYSTEMS}}
    result = nerlens.run_experiment(
        {name: {**entry, **({"gold_alt": versions[name]} if name in versions else {})}
         for name in ("d", "e")},
        bootstrap=20, seed=3, families=["faireval"], figures=False)
    return json.loads(result.to_json())


def same_numbers(written: dict, expected: dict) -> None:
    """Every number but the provenance (which names the files as each route read them)."""
    for key in ("aggregate", "wilcoxon", "runs", "systems"):
        assert written[key] == expected[key], key
    for name in ("d", "e"):
        assert written["datasets"][name].get("audit") == \
            expected["datasets"][name].get("audit"), name
        for key in ("estimates", "intervals", "results"):
            assert written["datasets"][name][key] == expected["datasets"][name][key], key


def test_gold_alt_after_data_or_naming_its_dataset_is_the_api_s(paths, capsys):
    preds = [f"{name}={paths[name]}" for name in SYSTEMS]
    code, _, err = run(capsys, [
        "report", "--data", "d", paths["gold"], paths["train"], "--pred", *preds,
        "--gold-alt", f"fixed={paths['fixed']}", "--gold-alt", f"e:again={paths['fixed']}",
        "--data", "e", paths["gold"], paths["train"], "--pred", *preds,
        "--output", paths["out"], *OPTIONS])
    assert code == 0, err
    written = json.loads(open(f"{paths['out']}/experiment.json", encoding="utf-8").read())
    expected = api_experiment(paths, {"d": {"fixed": paths["fixed"]},
                                      "e": {"again": paths["fixed"]}})
    same_numbers(written, expected)
    assert written["datasets"]["d"]["audit"]["golds"]["golds"] == ["gold", "fixed"]
    assert written["datasets"]["e"]["audit"]["golds"]["golds"] == ["gold", "again"]
    assert written["datasets"]["d"]["info"]["provenance"]["inputs"]["gold_alt"] == \
        {"fixed": paths["fixed"]}
    page = open(f"{paths['out']}/experiment.html", encoding="utf-8").read()
    assert "id='d1-gold-versions'" in page and "id='d2-gold-versions'" in page


def test_a_dataset_without_versions_has_no_audit(paths, capsys):
    preds = [f"{name}={paths[name]}" for name in SYSTEMS]
    code, _, err = run(capsys, [
        "report", "--data", "d", paths["gold"], paths["train"], "--pred", *preds,
        "--gold-alt", f"fixed={paths['fixed']}",
        "--data", "e", paths["gold"], paths["train"], "--pred", *preds,
        "--output", paths["out"], *OPTIONS])
    assert code == 0, err
    written = json.loads(open(f"{paths['out']}/experiment.json", encoding="utf-8").read())
    same_numbers(written, api_experiment(paths, {"d": {"fixed": paths["fixed"]}}))
    assert "audit" not in written["datasets"]["e"]


def manifest(tmp_path, paths: dict, versions: dict | None = None) -> str:
    entry = {"gold": paths["gold"], "train": paths["train"],
             "predictions": {name: paths[name] for name in SYSTEMS}}
    text = {"d": {**entry, **({"gold_alt": versions} if versions is not None else {})},
            "e": entry}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(text), encoding="utf-8")
    return str(path)


def test_a_manifest_s_gold_alt_is_the_api_s(tmp_path, paths, capsys):
    code, _, err = run(capsys, ["report", "--manifest",
                                manifest(tmp_path, paths, {"fixed": "fixed.txt"}),
                                "--output", paths["out"], *OPTIONS])
    assert code == 0, err
    written = json.loads(open(f"{paths['out']}/experiment.json", encoding="utf-8").read())
    same_numbers(written, api_experiment(paths, {"d": {"fixed": paths["fixed"]}}))
    assert written["datasets"]["d"]["audit"]["golds"]["golds"] == ["gold", "fixed"]


def test_a_corpus_entry_names_its_version_columns():
    """The API's prebuilt corpus (the command line's route) lists its version columns."""
    corpus = nerlens.read_systems(A, {**SYSTEMS, "fixed": B}, inputs={"tokens": WORDS})[0]
    common = dict(bootstrap=20, seed=3, families=["faireval"], figures=False)
    by_columns = nerlens.run_experiment(
        {"d": {"corpus": corpus, "systems": {name: name for name in SYSTEMS},
               "gold_alt": ["fixed"]}}, **common)
    by_tags = nerlens.run_experiment(
        {"d": {"gold": A, "tokens": WORDS, "systems": SYSTEMS, "gold_alt": {"fixed": B}}},
        **common)
    assert by_columns.reports["d"].audit == by_tags.reports["d"].audit
    assert by_columns.reports["d"].audit["golds"]["golds"] == ["gold", "fixed"]


# case -> (the command, the error, the command its hint gives; {x}: a path of ``paths``)
DATA = "--data d {gold} {train} --pred one={one} two={two}"
HINTS = {
    "before_any_data": (
        "--gold-alt fixed={fixed} " + DATA,
        r"--gold-alt fixed=\S+fixed.txt: no dataset yet: put it after --data NAME GOLD TRAIN, "
        r"or write --gold-alt NAME:fixed=",
        DATA + " --gold-alt fixed={fixed}"),
    "unknown_dataset": (
        DATA + " --gold-alt wnut:fixed={fixed}",
        r"--gold-alt wnut:fixed=\S+: no dataset 'wnut' \(declared: d\): write "
        r"--gold-alt d:fixed=",
        DATA + " --gold-alt d:fixed={fixed}"),
    "a_system_s_name": (
        DATA + " --gold-alt one={fixed}",
        r"--gold-alt one=\S+: dataset 'd': gold version 'one' names a system already: name "
        r"the gold version apart, e.g. --gold-alt d:one_2=",
        DATA + " --gold-alt d:one_2={fixed}"),
    "the_gold_s_name": (
        DATA + " --gold-alt gold={fixed}",
        r"--gold-alt gold=\S+: dataset 'd': gold version 'gold' names the gold already: name "
        r"the gold version apart, e.g. --gold-alt d:gold_2=",
        DATA + " --gold-alt d:gold_2={fixed}"),
}


@pytest.mark.parametrize("case", sorted(HINTS))
def test_each_misplaced_version_is_one_line_and_its_hint_runs(case, paths, capsys):
    bad, pattern, followed = HINTS[case]
    out = ["--output", paths["out"], *OPTIONS]
    code, stdout, err = run(capsys, ["report", *bad.format(**paths).split(), *out])
    assert code == 2 and stdout == "" and len(err.strip().splitlines()) == 1, err
    assert re.search(pattern, err), err
    hinted = followed.format(**paths).split()
    version = hinted[hinted.index("--gold-alt") + 1]
    if case != "before_any_data":   # the hint writes the whole --gold-alt value
        assert f"--gold-alt {version}" in err, err
    code, _, err = run(capsys, ["report", *hinted, *out])
    assert code == 0, err
    written = json.loads(open(f"{paths['out']}/experiment.json", encoding="utf-8").read())
    named = version.partition("=")[0].rpartition(":")[2]   # VERSION of [NAME:]VERSION=FILE
    assert written["datasets"]["d"]["audit"]["golds"]["golds"] == ["gold", named]


MANIFEST_ERRORS = {
    "not_an_object": ("fixed.txt", r"\"gold_alt\" is an object: version name -> gold file"),
    "a_system_s_name": ({"one": "fixed.txt"},
                        r"dataset 'd': gold version 'one' names a system already"),
    "the_gold_s_name": ({"gold": "fixed.txt"},
                        r"dataset 'd': gold version 'gold' names the gold already"),
    "missing_file": ({"fixed": "nope.txt"}, r"nope.txt: no such file \(dataset 'd'\)"),
}


@pytest.mark.parametrize("case", sorted(MANIFEST_ERRORS))
def test_a_manifest_s_bad_gold_alt_is_one_line(case, tmp_path, paths, capsys):
    versions, pattern = MANIFEST_ERRORS[case]
    code, out, err = run(capsys, ["report", "--manifest", manifest(tmp_path, paths, versions),
                                  "--output", paths["out"], *OPTIONS])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert re.search(pattern, err), err


def test_gold_alt_with_a_manifest_says_where_versions_go(tmp_path, paths, capsys):
    code, _, err = run(capsys, ["report", "--manifest", manifest(tmp_path, paths),
                                "--gold-alt", f"fixed={paths['fixed']}",
                                "--output", paths["out"], *OPTIONS])
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert re.search(r"--gold-alt: an experiment of --manifest takes each dataset's gold "
                     r"versions in its entry: \"gold_alt\"", err), err
    # followed: the version in the manifest's entry
    code, _, err = run(capsys, ["report", "--manifest",
                                manifest(tmp_path, paths, {"fixed": "fixed.txt"}),
                                "--output", paths["out"], *OPTIONS])
    assert code == 0, err


@pytest.mark.parametrize("command", ["buckets", "hardeval"])
def test_a_manifest_s_gold_alt_is_refused_where_it_would_be_ignored(command, tmp_path, paths,
                                                                     capsys):
    """buckets and hardeval score one gold per dataset: a manifest entry with gold versions
    is one line naming the command that reads them, never read and ignored."""
    path = manifest(tmp_path, paths, {"fixed": "fixed.txt"})
    code, out, err = run(capsys, [command, "--manifest", path])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert re.search(rf"dataset 'd': \"gold_alt\" \(other gold versions\) is read by "
                     rf"nerlens report --manifest .*, not by nerlens {command}", err), err
    code, _, err = run(capsys, [command, "--manifest", manifest(tmp_path, paths)])
    assert code == 0, err   # left out, as the message says


def test_a_manifest_s_datasets_are_read_by_the_library(tmp_path, paths):
    """``manifest_datasets``: every dataset in file order, its gold versions as columns;
    a reader of one gold (``without_versions``) refuses them, naming itself."""
    path = manifest(tmp_path, paths, {"fixed": "fixed.txt"})
    with pytest.raises(ValueError, match="not by my reader: leave it out here"):
        manifest_datasets(path, without_versions="my reader")
    first, second = manifest_datasets(path)
    assert (first.name, second.name) == ("d", "e")
    assert list(first.versions) == ["fixed"] and "fixed" in first.corpus.columns
    assert first.systems == second.systems == list(SYSTEMS) and not second.versions
