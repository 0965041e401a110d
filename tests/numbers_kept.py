"""The numbers nerlens gives on fixed inputs, flattened, to pin them across a re-cut.

``python -m tests.numbers_kept`` (from the repository root) writes
``tests/data/numbers_kept.json.gz``: for each source below, every number of the command's
JSON output (ints, floats, None) under its path of keys (``results/spacy_sm/faireval/
fair_f1``). Strings are left out (the examples' text: the CoNLL-2003 sentences are
research-only and never enter the repository; numbers only), and so are the error
examples, whose rows restate numbers kept elsewhere, and the provenance (dates).

``tests/test_numbers_kept.py`` computes the same numbers with today's code and compares.
A change that renames a key adds the rename to ``RENAMED`` there; no number may change.
"""
from __future__ import annotations

import contextlib
import gzip
import io
import json
import math
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data"
KEPT = REPO / "tests" / "data" / "numbers_kept.json.gz"
LEFT_OUT = ("examples", "info", "provenance")   # top-level keys whose numbers are not kept


def conll03_argv(command: str) -> list | None:
    """``nerlens COMMAND`` on CoNLL-2003's test set and its 15 shared system outputs."""
    root = DATA / "conll03"
    if not (root / "systems").is_dir():
        return None
    systems = sorted(str(p) for p in (root / "systems").glob("*.txt"))
    return [command, str(root / "test.txt"), *systems, "--train", str(root / "train.txt")]


def sources() -> dict:
    """Source name -> the ``nerlens`` arguments whose JSON it keeps (None: data absent)."""
    conll_report = conll03_argv("report")
    return {
        "demo": ["report", "--demo", "--bootstrap", "200"],
        "demo_generative": ["report", "--demo", "generative", "--bootstrap", "200"],
        "conll03_report": conll_report and conll_report + ["--bootstrap", "0"],
    }


def run_json(argv: list, main) -> dict:
    """The JSON that ``nerlens ARGV --format json`` prints (``main``: the CLI's entry
    point), in a temporary folder for the files it writes."""
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(io.StringIO()):
        code = main([*argv, "--format", "json", "--output", folder])
    if code != 0:
        raise RuntimeError(f"nerlens {' '.join(argv)} exited {code}")
    return json.loads(out.getvalue())


def numbers(value, path: tuple = ()) -> dict:
    """Path ("a/b/0/c") -> number, for every number (None too) nested in ``value``."""
    out = {}
    if isinstance(value, dict):
        for key, item in value.items():
            if path or key not in LEFT_OUT:
                out.update(numbers(item, path + (str(key),)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.update(numbers(item, path + (str(i),)))
    elif value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
        out["/".join(path)] = value
    return out


def same(old, new) -> bool:
    """Equal numbers (floats to 12 significant digits: a sum in another order may differ
    in the last bits); None and NaN are equal to themselves."""
    if old is None or new is None:
        return old is new
    if isinstance(old, float) and math.isnan(old):
        return isinstance(new, float) and math.isnan(new)
    return math.isclose(old, new, rel_tol=1e-12, abs_tol=1e-15)


def write(main) -> dict:
    kept = {name: numbers(run_json(argv, main)) for name, argv in sources().items()
            if argv is not None}
    KEPT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(KEPT, "wt", encoding="utf-8") as handle:
        json.dump(kept, handle, sort_keys=True, separators=(",", ":"))
    return kept


def read() -> dict:
    with gzip.open(KEPT, "rt", encoding="utf-8") as handle:
        return json.load(handle)


if __name__ == "__main__":
    from nerlens.cli import main as cli_main

    written = write(cli_main)
    print({name: len(values) for name, values in written.items()})
