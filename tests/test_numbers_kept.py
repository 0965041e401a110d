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
# numbers changed on purpose: (family, keys of its per-type rows) whose kept values may
# differ, provided they now equal the entity scores' row of the same system and type.
# tough_mentions' per-type predicted mentions count generated entities that found no
# span, as its overall precision and nerspan's per-type rows do (issue 39).
AS_ENTITY_PER_TYPE = (("tough_mentions", ("predicted", "precision", "f1")),)


def as_entity(path: str) -> str | None:
    """The entity scores' path that ``path`` must now equal (``AS_ENTITY_PER_TYPE``),
    else None."""
    parts = path.split("/")
    for family, keys in AS_ENTITY_PER_TYPE:
        if len(parts) == 6 and parts[0] == "results" and parts[2:4] == [family, "per_type"] \
                and parts[5] in keys:
            return "/".join([*parts[:2], "entity", *parts[3:]])
    return None


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
               if renamed(p) in now and not same(kept[source][p], now[renamed(p)])
               and not (as_entity(p) in now and same(now[as_entity(p)], now[renamed(p)]))]
    assert not missing, f"{len(missing)} numbers gone, e.g. {missing[:5]}"
    assert not changed, f"{len(changed)} numbers changed, e.g. {changed[:5]}"
    assert len(kept[source]) > 100   # the comparison compared something
