"""What the command line reads of the parsed flags besides their records: the input
options (``inputs_of``; the flags are the records' fields, read by name), a flag a
command may not have (``given``), and where a flag's value is read (``READ_AT``: a
command, or a way of scoring of nerlens score), refused elsewhere by ``refuse_unread``
saying what to do instead.

>>> import argparse
>>> args = argparse.Namespace(jsonl=False, snap=True, scheme="IOB2")
>>> inputs_of(args).snap, given(args, "generated")
(True, None)
"""
from __future__ import annotations

from nerspan import InputOptions

from .common import UsageError, prediction_paths
from .flags import flag_values


# The commands of the families, which read the same flags of tags and spans
FAMILY_COMMANDS = ("hardeval", "tough-mentions", "faireval", "buckets")
# Where a flag's value is read, refused elsewhere by ``refuse_unread``: (dest, value; True:
# given) -> (the places that read it: a command, or a way of scoring of nerlens score
# (``place_of``), and what to do instead: ``{gold}``, ``{pred}``, ``{generated}``,
# ``{train}``: the user's files; ``{it}``: the flag or flags refused)
READ_AT = {
    ("matching", "strings"): (("score --matching strings",), "it scores generated output as "
                              "sets of (text, type) strings, entity P/R/F1 only, which "
                              "nerlens score gives: nerlens score {gold} --generated "
                              "{generated} --matching strings"),
    ("script", "universalner"): (("score --matching strings",), "it reproduces the "
                                 "UniversalNER script's string matching of generated output: "
                                 "nerlens score {gold} --generated {generated} --matching "
                                 "strings --script universalner"),
    ("word_overlap", True): (("score --matching strings",), "it counts word-overlap matches in "
                             "the string matching of generated output: nerlens score {gold} "
                             "--generated {generated} --matching strings --word-overlap"),
    ("overlaps", "keep"): (("faireval",), "it keeps nested and overlapping grounded spans, "
                           "which only faireval scores (the other commands read tags): "
                           "nerlens faireval {gold} --generated {generated} --overlaps keep"),
    ("compat", "interpreteval"): (("buckets",), "it reproduces InterpretEval's attribute "
                                  "buckets: nerlens buckets --train {train} {gold} {pred} "
                                  "--compat interpreteval"),
    # nerlens score's other ways score each file alone by ``nerspan.score``
    ("error_counts", True): (("score",), "leave {it} out"),
    ("confusion", True): (("score", *FAMILY_COMMANDS), "leave {it} out"),
    ("demo", True): (("score", "score --threshold", "report", "sweep", *FAMILY_COMMANDS),
                     "leave {it} out"),
}
# a place of ``READ_AT`` in its errors: nerlens score's ways of scoring by what they score
PLACES = {"score --threshold": "scored predictions kept at --threshold",
          "score --matching strings": "--matching strings, which compares sets of (text, "
                                      "type) strings, not spans"}


def place_of(args) -> str:
    """Where the command line's flags are read: the command, or nerlens score's way of
    scoring ("score --threshold", "score --matching strings", "score": tags and spans)."""
    if args.command != "score":
        return args.command
    if args.threshold is not None:
        return "score --threshold"
    return "score --matching strings" if args.matching == "strings" else "score"


def refuse_unread(args) -> None:
    """The flags' values given that their place does not read (``READ_AT``): a usage
    error naming them, saying what to do instead."""
    place = place_of(args)
    refused = [(f"--{dest.replace('_', '-')}{'' if value is True else ' ' + value}", instead)
               for (dest, value), (places, instead) in READ_AT.items()
               if place not in places and given(args, dest) == value]
    if not refused:
        return
    flags = [flag for flag, instead in refused if instead == refused[0][1]]
    one = len(flags) == 1
    raise UsageError(f"{' and '.join(flags)} do{'es' if one else ''} not apply to "
                     f"{PLACES.get(place, 'nerlens ' + place)}: "
                     f"{refused[0][1].format(**user_files(args), it='it' if one else 'them')}")


def user_files(args) -> dict:
    """The files of the command line, as a command suggested to the user names them."""
    generated = given(args, "generated")
    preds = " ".join(prediction_paths(args)) if hasattr(args, "predictions") else ""
    return dict(gold=given(args, "gold") or "GOLD", train=given(args, "train") or "TRAIN",
                generated=generated[0] if generated else "FILE.jsonl",
                pred=preds or (f"--generated {generated[0]}" if generated else "PRED"))


def type_processing(args):
    """The ``nerspan.type_processing.TypeProcessing`` of the type flags (None: none)."""
    return inputs_of(args).types.processing


def inputs_of(args, **fixed) -> InputOptions:
    """The ``nerspan.InputOptions`` of the flags the command has, plus ``fixed``."""
    values = {**flag_values(args, InputOptions), **fixed}
    return InputOptions.of({k: v for k, v in values.items() if v is not None})


def given(args, dest: str, absent=None):
    """The value of the flag ``dest``, or ``absent`` when the command has no such flag."""
    return getattr(args, dest, absent)
