"""Flags made of option records (``nerspan.records``), so that an option is declared once,
as a field: ``add_flags(parser, Record)`` adds a record's fields as flags (the library's
records, and the command line's own: ``Shared``, one per command beside its ``run``), and
``record_of(args, Record)`` gives the record parsed.

>>> import argparse
>>> from nerspan.records import TypeOptions
>>> parser = argparse.ArgumentParser()
>>> add_flags(parser, TypeOptions)
>>> args = parser.parse_args(["--type-map", "PERSON=PER"])
>>> record_of(args, TypeOptions).type_map
{'PERSON': 'PER'}
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from functools import partial

from nerspan.options import check_int
from nerspan.reading.training import TRAIN_FILES
from nerspan.records import OLD_SPELLINGS, RENAMED, Record, option, switch


def add_flags(parser, record, only: tuple | None = None, *, notes: dict | None = None,
              parse: dict | None = None, checks: dict | None = None, required: tuple = ()) -> None:
    """The fields of ``record`` that have a flag (``only`` those named) as ``parser``'s
    flags: its doc as help (plus ``notes``' words), its text read by its ``parse`` (or
    ``parse``'s) and refused by its check (or ``checks``': ``check(value)``); a bool is a
    switch (``--no-x`` too unless off by default); a field's ``action``,
    ``nargs`` and ``const`` as argparse's; a flag without ``--``, a positional; its 0.1 flags
    (``RENAMED``), hidden, a usage error naming it. ``required``: the names the command
    needs."""
    notes, parse, checks = notes or {}, parse or {}, checks or {}
    for opt in record.options():
        if opt.flag is None or (only is not None and opt.name not in only):
            continue
        settings = dict(default=opt.default, help=" ".join(
            filter(None, (opt.doc, notes.get(opt.name)))))
        if opt.parse is None:
            settings["action"] = ("store_true" if opt.default is False
                                  else argparse.BooleanOptionalAction)
        else:
            choices = [c for c in opt.choices if c is not None]
            settings.update(type=reader(opt, parse.get(opt.name, opt.parse), checks.get(opt.name)),
                            choices=choices or None, metavar=opt.metavar)
        settings.update((key, value) for key, value in (
            ("action", opt.action), ("nargs", opt.nargs), ("const", opt.const)) if value)
        if opt.flag.startswith("-"):   # argparse names a positional's dest itself
            settings.update(dest=dest(opt), required=opt.name in required)
        parser.add_argument(opt.flag, **settings)
        for old, new in RENAMED.get(opt.name, {}).items():
            if old.startswith("--") and old not in parser._option_string_actions:
                parser.add_argument(old, dest=dest(opt), action=MovedFlag, const=new, nargs="?",
                                    default=argparse.SUPPRESS, help=argparse.SUPPRESS)


class MovedFlag(argparse.Action):
    """A flag 0.2 renamed: a usage error naming ``const``, the spelling that replaced it
    (a value after it, if any, is taken with it)."""

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"{option_string} is {self.const} since nerlens 0.2")


def reader(opt, parse, check=None):
    """argparse type of a field's flag: its text read by ``parse``, then refused by
    ``check`` (default: the field's own; argparse checks the choices, and a flag taking
    several values is checked whole when its record is built); a value 0.2 moved to
    another flag, an error naming that flag."""
    if check is None and opt.check is not None and not (opt.choices or opt.action or opt.nargs):
        check = partial(opt.check, opt.name)

    def read(text: str):
        moved = OLD_SPELLINGS.get(f"{opt.name} {text}")
        if moved:
            raise argparse.ArgumentTypeError(f"{opt.flag} {text} is {moved} since nerlens 0.2")
        try:
            value = parse(text)
        except (ValueError, TypeError) as error:   # the text may hold braces
            number = NOT_A_NUMBER.get(getattr(parse, "reads", parse))   # optional(int) too
            raise argparse.ArgumentTypeError(number.format(text) if number
                                             else str(error)) from None
        if value is not None and check is not None:
            try:
                check(value)
            except (ValueError, TypeError) as error:   # the flag says where it is
                raise argparse.ArgumentTypeError(       # ("threshold: 1.5 is not ...")
                    str(error).removeprefix(f"{opt.name}: ")) from None
        return value
    read.__name__ = opt.name   # argparse names it in "invalid ... value"
    return read


# what a flag's text that Python's own number readers refuse is not
NOT_A_NUMBER = {int: "expected a whole number, not {!r}", float: "expected a number, not {!r}"}


def dest(opt) -> str:
    """Where argparse keeps a field's flag: the flag's name (``--hard-tokens``:
    ``hard_tokens``)."""
    return opt.flag.lstrip("-").replace("-", "_")


def flag_values(args, record) -> dict:
    """Option name -> value of each field of ``record`` the command has a flag for."""
    return {opt.name: getattr(args, dest(opt)) for opt in record.options()
            if opt.flag is not None and hasattr(args, dest(opt))}


def record_of(args, record, **fixed):
    """The ``record`` of the flags parsed in ``args`` (each checked as it was read;
    ``fixed``: values the command read itself); a field at its default is not given."""
    return record(**{**flag_values(args, record), **fixed})


@dataclass(frozen=True)
class Shared(Record):
    """The flags several commands read for themselves (no library record holds them)."""

    format: str = option("table", "table (default): text for the terminal; json: the whole "
                         "result as JSON", choices=("table", "json"))
    train: str | None = option(None, f"training data: {TRAIN_FILES}", metavar="FILE")
    manifest: str | None = option(None, "a JSON manifest of datasets (name -> train, gold, "
                                  "predictions)", metavar="FILE")
    plot: str | None = option(None, "write the charts to DIR", metavar="DIR")
    plot_format: str = option("png", "image format of the --plot charts (default png)",
                              choices=("png", "svg"))
    workers: int = option(1, "score in N local processes, from partial counts merged "
                          "exactly: the same numbers as one process (default 1)",
                          partial(check_int, minimum=1), parse=int, metavar="N")
    # buckets reads it; the others refuse it naming buckets, without importing the family
    compat: str | None = option(None, "interpreteval: InterpretEval's attribute buckets, "
                                "as its reference code scores them (nerlens buckets)",
                                choices=(None, "interpreteval"))
    # every command's (``nerlens.cli.Command.fill``), read by ``common.run_guarded``
    debug: bool = switch(False, "on an error, show the Python traceback")


# --threshold's note in every command that has it (score and the family commands): what
# the reader (``nerspan.reading.systems``) takes as scored predictions there
THRESHOLD_FILES = ("Here PRED files are JSON Lines span files whose spans carry a \"score\", "
                   "one line per sentence of GOLD (a column file or a saved split); nerlens "
                   "score also reads GOLD as a span file with --jsonl, --generated files whose "
                   "entities carry one and, with --demo, the demo's CRF scored mentions (the "
                   "family commands refuse --jsonl and --generated with it).")
