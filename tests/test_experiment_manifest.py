"""A manifest given to the API (``nerlens.run_experiment(path)``) is checked and read as
``nerlens report --manifest`` reads it (``nerlens.experiment.manifest``): every bad
manifest and every bad file of one raises the command line's message (its ``error: ``
line without the prefix), naming the file, line, dataset and run."""
from __future__ import annotations

import re

import pytest

import nerlens
from nerspan import NerspanError

from .test_bad_input_cli import (EXPERIMENT_CASES, MANIFEST_CASES, experiment_argv,
                                 experiment_files)


def _api_pattern(message: str) -> str:
    return message.removeprefix("error: ")


@pytest.mark.parametrize("name", sorted(MANIFEST_CASES))
def test_bad_manifest_raises_the_command_lines_message(tmp_path, name):
    content, message = MANIFEST_CASES[name]
    experiment_files(tmp_path)
    manifest = tmp_path / name
    manifest.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(NerspanError, match=_api_pattern(message)):
        nerlens.run_experiment(manifest, bootstrap=0, figures=False)


@pytest.mark.parametrize("case", sorted(EXPERIMENT_CASES))
def test_bad_file_of_a_manifest_raises_the_command_lines_message(tmp_path, case):
    replace, content, message = EXPERIMENT_CASES[case]
    paths = experiment_files(tmp_path, replace, content)
    manifest = experiment_argv(tmp_path, paths, "manifest")[-1]
    if content is None:   # a missing file: a FileNotFoundError naming it, the dataset, run
        with pytest.raises(FileNotFoundError) as raised:
            nerlens.run_experiment(manifest, bootstrap=0, figures=False)
        shown = f"error: {raised.value.filename}: {raised.value.strerror}"
        assert raised.value.filename.endswith("nope.txt")
        assert re.search(message, shown), shown
        return
    with pytest.raises(NerspanError, match=_api_pattern(message)):
        nerlens.run_experiment(manifest, bootstrap=0, figures=False)
