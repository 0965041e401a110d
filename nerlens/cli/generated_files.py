"""``--generated FILE.jsonl``: an LLM's output as the predictions, for every subcommand
that reads GOLD and PRED.

One JSON object per line and sentence with ``"response"`` (the raw response, an entity
list or a dict from type to texts) and optionally ``"tokens"``/``"text"`` (checked to be
the gold sentence's) and ``"sentence"`` (the gold sentence it answers; then only those
sentences are scored). Each file is one system, grounded in gold's words
(``nerspan.reading.systems.add_generated``); ``--occurrences``, ``--fuzzy``, ``--overlaps`` and
``--matching`` are the ``nerspan.InputOptions`` of the same names, ``--compat`` and
``--partial`` ``nerspan.score``'s. ``--matching`` and ``--compat`` are defined here once
for every command, with every value they take: a value's meaning (and the commands it
applies to) is its row's in ``options.FLAGS``.
"""
from __future__ import annotations

import argparse

from nerspan.options import COMPAT, MATCHING, OCCURRENCES, OVERLAPS, SEMEVAL_MATCHING
from nerspan.reading.systems import named_files

from .common import check_file
from .options import GENERATED, TYPES, from_args, given


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
    parser.add_argument("--matching", default=None,
                        choices=MATCHING + SEMEVAL_MATCHING,
                        help="--generated: grounded (default: each entity located in its "
                             "sentence) or strings (nerlens score: sets of (text, type) "
                             "per sentence, as LLM papers score); nerlens faireval "
                             "--schemas: how the SemEval schemas pair spans, greedy "
                             "(nervaluate's, default) or optimal (independent of order)")
    parser.add_argument("--compat", default=None,
                        choices=tuple(c for c in COMPAT if c) + ("interpreteval",),
                        help="universalner: --matching strings as the UniversalNER script "
                             "scores (nerlens score); interpreteval: InterpretEval's "
                             "attribute buckets (nerlens buckets)")
    parser.add_argument("--partial", action="store_true",
                        help="--matching strings: a prediction whose word-overlap F1 with a "
                             "gold string of its type reaches 0.5 is correct (nerlens score)")


def fraction(text: str) -> float:
    """argparse type: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, not {text!r}")
    return value


def generated_options(args) -> dict:
    """``nerspan.reading.systems.read_systems``' options of the --generated flags."""
    files = given(args, "generated")
    if not files:
        return {}
    # --map-types processes the corpus once it is read: its keys are matched as read
    mapped = from_args(args, TYPES).get("type_map") or {}
    return dict(generated=named_files([check_file(path) for path in files]),
                mapped_types=list(mapped), **from_args(args, GENERATED))


def generated_paths(args) -> list[str]:
    return list(given(args, "generated") or [])
