"""``--generated FILE.jsonl``: an LLM's output as the predictions, for every subcommand
that reads GOLD and PRED.

One JSON object per line and sentence with ``"response"`` (the raw response, an entity
list or a dict from type to texts) and optionally ``"tokens"``/``"text"`` (checked to be
the gold sentence's) and ``"sentence"`` (the gold sentence it answers; then only those
sentences are scored). Each file is one system, grounded in gold's words
(``nerspan.reading.systems.add_generated``); ``--occurrences``, ``--fuzzy``,
``--overlaps``, ``--matching``, ``--script`` and ``--word-overlap`` are the input options
of the same names (``nerspan.records.GeneratedOptions``; the last two apply to string
matching, ``nerlens score``). The commands a value applies to are its row's in
``options.FLAGS``.
"""
from __future__ import annotations

import argparse

from nerspan.options import MATCHING, OCCURRENCES, OVERLAPS, PAIRINGS
from nerspan.reading.systems import named_files

from .common import add_alias, check_file
from .options import given


def add_generated_arguments(parser) -> None:
    parser.add_argument("--generated", action="append", default=None, metavar="FILE.jsonl",
                        help="a JSON Lines file of an LLM's responses, one object per "
                             "sentence with \"response\" (and \"tokens\"/\"text\", "
                             "\"sentence\"): scored as a system (repeat for several)")
    parser.add_argument("--occurrences", default="all", choices=OCCURRENCES,
                        help="--generated: an entity marks every occurrence of its text "
                             "(all, default) or the i-th listing the i-th (ordered)")
    parser.add_argument("--fuzzy", type=fraction, default=None, metavar="THRESHOLD",
                        help="--generated: also ground an entity at the most similar token "
                             "window when the similarity reaches THRESHOLD (0-1)")
    parser.add_argument("--overlaps", default=None, choices=OVERLAPS,
                        help="--generated: of overlapping grounded spans keep the longer "
                             "(drop, default) or all of them (keep: nerlens faireval only)")
    # greedy/optimal: the values --matching had for faireval's pairing, named by the error
    parser.add_argument("--matching", default=None, choices=MATCHING + PAIRINGS,
                        help="--generated: grounded (default: each entity located in its "
                             "sentence) or strings (nerlens score: sets of (text, type) "
                             "per sentence, as LLM papers score)")
    parser.add_argument("--script", default=None, choices=("universalner",),
                        help="--matching strings as the UniversalNER script scores "
                             "(nerlens score)")
    parser.add_argument("--word-overlap", action="store_true",
                        help="--matching strings: a prediction whose word-overlap F1 with a "
                             "gold string of its type reaches 0.5 is correct (nerlens score)")
    add_alias(parser, "--partial", "--word-overlap", "word_overlap", const=True)
    # one --compat for every command: buckets' interpreteval (the others refuse it, naming
    # buckets); universalner, its value of 0.1, is --script's now (named by the error)
    parser.add_argument("--compat", default=None, choices=("interpreteval", "universalner"),
                        help="interpreteval: InterpretEval's attribute buckets, as its "
                             "reference code scores them (nerlens buckets)")


def fraction(text: str) -> float:
    """argparse type: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, not {text!r}")
    return value


def generated_files(args) -> dict | None:
    """``nerspan.reading.systems.read_systems``' ``generated``: name -> --generated file."""
    files = given(args, "generated")
    return named_files([check_file(path) for path in files]) if files else None


def generated_paths(args) -> list[str]:
    return list(given(args, "generated") or [])
