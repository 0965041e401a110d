"""Identical numbers across the core re-cut (issue 38): every number the reports gave
before (``tests/numbers_kept.py``: the demo report, the generative demo report, the
report of the 15 shared CoNLL-2003 systems) is given now, under its old path or the one a
rename in ``RENAMED`` gives it. New keys are free; a number that changes, or a key that
goes without a rename, fails."""
from __future__ import annotations

import pytest

from nerlens.cli import main

from .numbers_kept import read, run_json, same, numbers, sources

# old path prefix -> new path prefix, for keys renamed on purpose (CHANGELOG's table)
RENAMED: dict = {}


def renamed(path: str) -> str:
    for old, new in RENAMED.items():
        if path == old or path.startswith(old + "/"):
            return new + path[len(old):]
    return path


@pytest.mark.parametrize("source", sorted(sources()))
def test_every_number_is_kept(source):
    argv = sources()[source]
    if argv is None:
        pytest.skip("shared data not available: ../shared/data/conll03")
    kept = read()
    if source not in kept:
        pytest.fail(f"{source}: no numbers kept (run python -m tests.numbers_kept where the "
                    "data is present)")
    now = numbers(run_json(argv, main))
    missing = [p for p in kept[source] if renamed(p) not in now]
    changed = [(p, kept[source][p], now[renamed(p)]) for p in kept[source]
               if renamed(p) in now and not same(kept[source][p], now[renamed(p)])]
    assert not missing, f"{len(missing)} numbers gone, e.g. {missing[:5]}"
    assert not changed, f"{len(changed)} numbers changed, e.g. {changed[:5]}"
    assert len(kept[source]) > 100   # the comparison compared something
