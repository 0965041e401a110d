"""``--generated FILE.jsonl``: an LLM's output as the predictions, for every subcommand
that reads GOLD and PRED.

One JSON object per line and sentence with ``"response"`` (the raw response, an entity
list or a dict from type to texts) and optionally ``"tokens"``/``"text"`` (checked to be
the gold sentence's) and ``"sentence"`` (the gold sentence it answers; then only those
sentences are scored). Each file is one system, grounded in gold's words
(``nerspan.reading.systems.add_generated``); ``--occurrences``, ``--fuzzy``,
``--overlaps``, ``--matching``, ``--script`` and ``--word-overlap`` are the fields of
``nerspan.records.GeneratedOptions`` made flags (the last two apply to string matching,
``nerlens score``). The commands a value applies to are its row's in
``options.APPLIES_TO``.
"""
from __future__ import annotations

from nerspan.reading.systems import named_files
from nerspan.records import GeneratedOptions

from .common import check_file
from .flags import add_flags
from .options import given


def add_generated_arguments(parser) -> None:
    """--generated FILE.jsonl and how it is read (``nerspan.records.GeneratedOptions``);
    --compat, whose value interpreteval applies to buckets alone (the others refuse it,
    naming buckets)."""
    parser.add_argument("--generated", action="append", default=None, metavar="FILE.jsonl",
                        help="a JSON Lines file of an LLM's responses, one object per "
                             "sentence with \"response\" (and \"tokens\"/\"text\", "
                             "\"sentence\"): scored as a system (repeat for several)")
    add_flags(parser, GeneratedOptions, parse={"fuzzy": fraction})
    # buckets' option (attribute_buckets.BucketOptions.compat) on every command, where the
    # others refuse it naming buckets, without importing the family; universalner, its
    # value of 0.1, is --script's now (named by the error)
    parser.add_argument("--compat", default=None, choices=("interpreteval", "universalner"),
                        help="interpreteval: InterpretEval's attribute buckets, as its "
                             "reference code scores them (nerlens buckets)")


def fraction(text: str) -> float:
    """--fuzzy: a number strictly between 0 and 1, refused as the flag is read."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise ValueError(f"expected a number between 0 and 1, not {text!r}")
    return value


def generated_files(args) -> dict | None:
    """``nerspan.reading.systems.read_systems``' ``generated``: name -> --generated file."""
    files = given(args, "generated")
    return named_files([check_file(path) for path in files]) if files else None


def generated_paths(args) -> list[str]:
    return list(given(args, "generated") or [])
