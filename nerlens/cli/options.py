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


# The places a flag's value is read (``place_of``), named as the errors name them: a
# command, or one of nerlens score's ways of scoring (tags and spans: "nerlens score")
SCORE_THRESHOLD = "scored predictions kept at --threshold"
SCORE_STRINGS = "--matching strings, which compares sets of (text, type) strings, not spans"
FAMILY_COMMANDS = ("nerlens hardeval", "nerlens tough-mentions", "nerlens faireval",
                   "nerlens buckets")
# Where a flag's value is read, refused elsewhere by ``refuse_unread``: (dest, value; True:
# given) -> (the places that read it, and what to do instead: ``{gold}``, ``{pred}``,
# ``{generated}``, ``{train}``: the user's files; ``{it}``: the flag or flags refused)
# the command that scores generated output as strings
STRINGS = "nerlens score {gold} --generated {generated} --matching strings"
READ_AT = {
    ("matching", "strings"): ((SCORE_STRINGS,), "it scores generated output as sets of (text, "
                              f"type) strings, entity P/R/F1 only: {STRINGS}"),
    ("script", "universalner"): ((SCORE_STRINGS,), "it reproduces the UniversalNER script's "
                                 f"string matching of generated output: {STRINGS} --script "
                                 "universalner"),
    ("word_overlap", True): ((SCORE_STRINGS,), "it counts word-overlap matches in the string "
                             f"matching of generated output: {STRINGS} --word-overlap"),
    ("overlaps", "keep"): (("nerlens faireval",), "it keeps nested and overlapping grounded "
                           "spans, which only faireval scores (the other commands read tags): "
                           "nerlens faireval {gold} --generated {generated} --overlaps keep"),
    ("compat", "interpreteval"): (("nerlens buckets",), "it reproduces InterpretEval's "
                                  "attribute buckets: nerlens buckets --train {train} {gold} "
                                  "{pred} --compat interpreteval"),
    # nerlens score's other ways score each file alone by ``nerspan.score``
    ("error_counts", True): (("nerlens score",), "leave {it} out"),
    ("confusion", True): (("nerlens score", *FAMILY_COMMANDS), "leave {it} out"),
    # report's --demo takes a name: it is never True
    ("demo", True): (("nerlens score", SCORE_THRESHOLD, "nerlens sweep"), "leave {it} out"),
}


def place_of(args) -> str:
    """Where the command line's flags are read (``READ_AT``): its command, or nerlens
    score's way of scoring."""
    if args.command != "score":
        return f"nerlens {args.command}"
    if args.threshold is not None:
        return SCORE_THRESHOLD
    return SCORE_STRINGS if args.matching == "strings" else "nerlens score"


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
                     f"{place}: "
                     f"{refused[0][1].format(**user_files(args), it='it' if one else 'them')}")


def user_files(args) -> dict:
    """The files of the command line, as a command suggested to the user names them."""
    generated = given(args, "generated")
    preds = " ".join(prediction_paths(args)) if hasattr(args, "predictions") else ""
    return dict(gold=given(args, "gold") or "GOLD", train=given(args, "train") or "TRAIN",
                generated=generated[0] if generated else "FILE.jsonl",
                pred=preds or (f"--generated {generated[0]}" if generated else "PRED"))


def inputs_of(args, **fixed) -> InputOptions:
    """The ``nerspan.InputOptions`` of the flags the command has, plus ``fixed``."""
    values = {**flag_values(args, InputOptions), **fixed}
    return InputOptions.of({k: v for k, v in values.items() if v is not None})


def given(args, dest: str, absent=None):
    """The value of the flag ``dest``, or ``absent`` when the command has no such flag."""
    return getattr(args, dest, absent)
