"""What the command line reads of the parsed flags besides their records: the input
options (``inputs_of``; the flags are the records' fields, read by name), a flag a
command may not have (``given``), and the values that apply to one command only
(``APPLIES_TO``, refused elsewhere by ``check_values`` saying what they mean).

>>> import argparse
>>> args = argparse.Namespace(jsonl=False, snap=True, scheme="IOB2")
>>> inputs_of(args).snap, given(args, "generated")
(True, None)
"""
from __future__ import annotations

from nerspan import InputOptions

from .common import UsageError
from .flags import flag_values


# A flag's value that applies to one command alone -> (the command, what the value means and
# a command that takes it: ``{gold}``, ``{pred}``, ``{generated}``, ``{train}``: the user's
# files); refused elsewhere by ``check_values``
APPLIES_TO = {
    ("matching", "strings"): ("score", "it scores generated output as sets of (text, type) "
                              "strings, entity P/R/F1 only, which nerlens score gives: nerlens "
                              "score {gold} --generated {generated} --matching strings"),
    ("script", "universalner"): ("score", "it reproduces the UniversalNER script's string "
                                 "matching of generated output: nerlens score {gold} "
                                 "--generated {generated} --matching strings --script "
                                 "universalner"),
    ("word_overlap", True): ("score", "it counts word-overlap matches in the string matching "
                             "of generated output: nerlens score {gold} --generated "
                             "{generated} --matching strings --word-overlap"),
    ("overlaps", "keep"): ("faireval", "it keeps nested and overlapping grounded spans, which "
                           "only faireval scores (the other commands read tags): nerlens "
                           "faireval {gold} --generated {generated} --overlaps keep"),
    ("compat", "interpreteval"): ("buckets", "it reproduces InterpretEval's attribute buckets: "
                                  "nerlens buckets --train {train} {gold} {pred} --compat "
                                  "interpreteval"),
}


def check_values(args, command: str) -> None:
    """Refuse a flag's value that does not apply to ``command`` (``APPLIES_TO``)."""
    for (dest, value), (only, use) in APPLIES_TO.items():
        if command == only or getattr(args, dest, None) != value:
            continue
        generated = given(args, "generated")
        preds = " ".join(map(str, given(args, "predictions") or []))
        files = dict(gold=given(args, "gold") or "GOLD", train=given(args, "train") or "TRAIN",
                     generated=generated[0] if generated else "FILE.jsonl",
                     pred=preds or (f"--generated {generated[0]}" if generated else "PRED"))
        shown = "" if value is True else f" {value}"
        raise UsageError(f"--{dest.replace('_', '-')}{shown} does not apply to nerlens "
                         f"{command}: {use.format(**files)}")


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
