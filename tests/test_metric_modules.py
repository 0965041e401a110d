"""What every evaluate module in metrics/ shares: its metric card's examples run as
written, and without nerlens installed, loading it tells the user to ``pip install nerlens``.

One background process, with nerlens's packages blocked, loads all four modules (evaluate
is slow to import, so once); transformers is blocked too, only to keep it fast: evaluate
treats it as optional.
"""
from __future__ import annotations

import doctest
import json
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import REPO

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")

LOAD_BLOCKED = textwrap.dedent("""
    import json, sys
    blocked = {"nerlens", "nerspan", "transformers", *sys.argv[1:]}
    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in blocked:
                raise ImportError(f"No module named {name!r}")
    sys.meta_path.insert(0, Block())
    import evaluate
    messages = {}
    for family in sys.argv[1:]:
        try:
            evaluate.load("metrics/" + family)
            messages[family] = "loaded"
        except ImportError as error:
            messages[family] = str(error)
    print(json.dumps(messages))
""")


@pytest.mark.parametrize("family", FAMILIES)
def test_metric_card_examples_run_as_written(family, monkeypatch):
    monkeypatch.chdir(REPO)  # the cards load "metrics/<family>" from the repository root
    result = doctest.testfile(str(REPO / "metrics" / family / "README.md"),
                              module_relative=False)
    assert result.attempted >= 3 and result.failed == 0, result


def test_load_without_nerlens_says_pip_install_nerlens():
    done = subprocess.run([sys.executable, "-c", LOAD_BLOCKED, *FAMILIES], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    messages = json.loads(done.stdout.strip().splitlines()[-1])
    for family in FAMILIES:
        assert "pip install nerlens" in messages[family], (family, messages[family])
