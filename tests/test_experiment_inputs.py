"""File paths given to the API are read by the one reader the manifest uses
(``nerlens.experiment.manifest.read_dataset``, ``nerspan.reading.systems.read_systems``):
a dict experiment whose entries are files, a dict experiment's tag runs beside generated
output, and ``nerlens.build_report`` given files raise the manifest's message (the file
and line, the dataset, the system's run) and give its numbers; in-memory entries are read
as before."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerlens
from nerspan import NerspanError

from .test_bad_input_cli import (EXPERIMENT_CASES, GOLD, PARIS, experiment_argv,
                                 experiment_files, good_pred)

QUICK = dict(bootstrap=0, figures=False, families=("tough_mentions",))
# the bad files that are read as data (a missing file is named by each path as it is)
READ_CASES = sorted(case for case, (_, content, _) in EXPERIMENT_CASES.items()
                    if content is not None)


def _declared(paths) -> dict:
    """The manifest's experiment (``experiment_argv``) as a dict of file paths."""
    return {"d1": {"gold": str(paths["gold"]), "train": str(paths["train"]),
                   "systems": {"tagger": [str(paths["run1"]), str(paths["run2"])]}}}


@pytest.mark.parametrize("case", READ_CASES)
def test_a_dict_of_files_raises_the_manifests_message(tmp_path, case):
    replace, content, message = EXPERIMENT_CASES[case]
    paths = experiment_files(tmp_path, replace, content)
    with pytest.raises(NerspanError, match=message):
        nerlens.run_experiment(_declared(paths), **QUICK)


def _as_report(message: str) -> str:
    """An experiment's message as the one-dataset report words it: no dataset."""
    return message.replace("dataset 'd1', ", "")


@pytest.mark.parametrize("case", READ_CASES)
def test_build_report_given_files_raises_the_manifests_message(tmp_path, case):
    replace, content, message = EXPERIMENT_CASES[case]
    paths = experiment_files(tmp_path, replace, content)
    with pytest.raises(NerspanError, match=_as_report(message)):
        nerlens.build_report(str(paths["gold"]), {"tagger#1": str(paths["run1"]),
                                                  "tagger#2": str(paths["run2"])},
                             str(paths["train"]), **QUICK)


@pytest.mark.parametrize("side", ["gold", "run2"])
def test_a_tag_outside_the_scheme_in_a_file_is_refused_by_every_path(tmp_path, side):
    """S-LOC under IOB2: the manifest refuses it; so do a dict of files and the report."""
    text = GOLD if side == "gold" else good_pred()
    paths = experiment_files(tmp_path, side, text.replace("Paris B-LOC", "Paris S-LOC"))
    what = "" if side == "gold" else "system 'tagger#2', "
    message = (rf"{side}.txt:5, dataset 'd1', {what}sentence 1: "
               rf"{'gold' if side == 'gold' else 'prediction'} tag 'S-LOC' is not in the IOB2 "
               "scheme")
    manifest = experiment_argv(tmp_path, paths, "manifest")[-1]
    for given in (manifest, _declared(paths)):
        with pytest.raises(NerspanError, match=message):
            nerlens.run_experiment(given, **QUICK)
    with pytest.raises(NerspanError, match=_as_report(message)):
        nerlens.build_report(str(paths["gold"]), {"tagger#2": str(paths["run2"])},
                             str(paths["train"]), **QUICK)


def test_a_bad_gold_tag_names_its_line_not_its_sentences(tmp_path):
    """The defect seen: ``gold.txt:1, position 2`` for a bad tag on line 3."""
    paths = experiment_files(tmp_path, "gold", GOLD.replace("saw O", "saw -"))
    for call in (lambda: nerlens.run_experiment(_declared(paths), **QUICK),
                 lambda: nerlens.build_report(str(paths["gold"]), {"t": str(paths["run1"])},
                                              str(paths["train"]), **QUICK)):
        with pytest.raises(NerspanError) as raised:
            call()
        assert raised.value.line == 3 and raised.value.position is None, str(raised.value)


def _generated(tmp_path, paths) -> dict:
    """A dict experiment whose tagger runs are files beside generated output."""
    run = tmp_path / "g1.jsonl"
    run.write_text(f"{PARIS.replace('Paris', 'John')}\n{PARIS}\n", encoding="utf-8")
    declared = _declared(paths)
    declared["d1"]["generated"] = {"llm": str(run)}
    return declared


@pytest.mark.parametrize("case", READ_CASES)
def test_the_tag_runs_beside_generated_output_are_checked(tmp_path, case):
    """The grounded path reads its tag run files as the manifest does."""
    replace, content, message = EXPERIMENT_CASES[case]
    paths = experiment_files(tmp_path, replace, content)
    with pytest.raises(NerspanError, match=message):
        nerlens.run_experiment(_generated(tmp_path, paths), **QUICK)


def _entity(experiment) -> dict:
    return {column: estimates["entity_f1"] for column, estimates in
            experiment.reports["d1"].estimates.items()}


def _column(paths, k: int) -> dict:
    """File name -> column ``k`` of each of its sentences."""
    return {name: [[row.split()[k] for row in block.splitlines()]
                   for block in path.read_text(encoding="utf-8").split("\n\n")]
            for name, path in paths.items()}


def test_every_path_gives_the_manifests_numbers(tmp_path):
    """A manifest, a dict of files, a dict of tag lists and the report agree."""
    paths = experiment_files(tmp_path, "run2", good_pred("Paris O"))
    by_manifest = nerlens.run_experiment(experiment_argv(tmp_path, paths, "manifest")[-1],
                                         **QUICK)
    by_files = nerlens.run_experiment(_declared(paths), **QUICK)
    tags, words = _column(paths, -1), _column(paths, 0)["gold"]
    in_memory = nerlens.run_experiment({"d1": {
        "gold": tags["gold"], "tokens": words, "train": str(paths["train"]),
        "systems": {"tagger": [tags["run1"], tags["run2"]]}}}, **QUICK)
    report = nerlens.build_report(str(paths["gold"]), {"tagger#1": str(paths["run1"]),
                                                       "tagger#2": str(paths["run2"])},
                                  str(paths["train"]), **QUICK)
    precision, recall = 1 / 1, 1 / 2   # run 2 finds John Smith, misses Paris
    expected = {"tagger#1": 1.0, "tagger#2": 2 * precision * recall / (precision + recall)}
    for experiment in (by_manifest, by_files, in_memory):
        assert _entity(experiment) == pytest.approx(expected)
    assert {s: report.estimates[s]["entity_f1"] for s in report.systems} == \
        pytest.approx(expected)


def test_tag_lists_outside_the_scheme_are_read_as_before(tmp_path):
    """In memory, S-LOC under IOB2 (lenient) is read as it was: a mention."""
    words = [["John", "Smith", "saw"], ["Paris"]]
    gold = [["B-PER", "I-PER", "O"], ["S-LOC"]]
    experiment = nerlens.run_experiment({"d1": {
        "gold": gold, "tokens": words, "train": str(experiment_files(tmp_path)["train"]),
        "systems": {"tagger": [gold, gold]}}}, **QUICK)
    assert _entity(experiment) == {"tagger#1": 1.0, "tagger#2": 1.0}
    assert experiment.reports["d1"].info["mentions"] == 2


@pytest.mark.parametrize("tag, problem", [("FOO", "is not a tag"),
                                          ("S-LOC", "is not in the IOB2 scheme")])
def test_a_gold_version_file_is_checked_as_the_manifest_checks_it(tmp_path, tag, problem):
    """Another version of the gold (``gold_alt``), a file: its tags checked as it is read."""
    paths = experiment_files(tmp_path)
    version = tmp_path / "fixed.txt"
    version.write_text(GOLD.replace("Paris B-LOC", f"Paris {tag}"), encoding="utf-8")
    message = (rf"fixed.txt:5, dataset 'd1', sentence 1: gold version 'fixed' tag '{tag}' "
               f"{problem}")
    manifest = Path(experiment_argv(tmp_path, paths, "manifest")[-1])
    declared = json.loads(manifest.read_text(encoding="utf-8"))
    declared["d1"]["gold_alt"] = {"fixed": version.name}
    manifest.write_text(json.dumps(declared), encoding="utf-8")
    given = _declared(paths)
    given["d1"]["gold_alt"] = {"fixed": str(version)}
    for experiment in (manifest, given):
        with pytest.raises(NerspanError, match=message):
            nerlens.run_experiment(experiment, **QUICK)
    with pytest.raises(NerspanError, match=_as_report(message)):
        nerlens.build_report(str(paths["gold"]), {"t": str(paths["run1"])}, str(paths["train"]),
                             gold_alt={"fixed": str(version)}, **QUICK)
