"""Flags made of option records: ``add_flags(parser, Record)`` adds a record's fields
(``nerspan.records``: doc, parse, check, flag) as flags, so that an option is declared
once, as a field: the library's records (``InputOptions`` and its parts, each family's
``Family.options``) and the command line's own (``Shared``, one per command beside its
``run``). A bad text is a usage error naming the flag; ``record_of(args, Record)`` gives
the record parsed (a value a field's check refuses: a usage error naming it too); a flag
or a value 0.2 renamed (``OLD_FLAGS``, ``MOVED_VALUES``) is a usage error naming the new one.

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

from nerspan.fbeta import check_beta
from nerspan.options import PAIRINGS
from nerspan.reading.training import TRAIN_FILES
from nerspan.records import Record, option, switch

from .common import UsageError

# What 0.2 renamed, refused naming the new spelling: the flags, by the option of the flag
# that replaced them (old flag -> new), and the values of 0.1 that became a flag's own.
OLD_FLAGS = {
    "type_map": {"--map-types": "--type-map"},
    "gold_tag_column": {"--gold-column": "--gold-tag-column"},
    "pred_tag_column": {"--pred-column": "--pred-tag-column"},
    "word_overlap": {"--partial": "--word-overlap"},
    "case_sensitive": {"--case-insensitive": "--no-case-sensitive"},
    # buckets' --case-sensitive (default off) is its opposite, --no-lowercase
    "lowercase": {"--case-sensitive": "--no-lowercase", "--no-case-sensitive": "--lowercase"},
    "return_mentions": {"--mentions": "--return-mentions"},
    "strict_diff": {"--strict": "--strict-diff"},
    "return_hard_tokens": {"--tokens": "--hard-tokens"},
    "n_buckets": {"--buckets": "--n-buckets"},
    "fold_seed": {"--seed": "--fold-seed"},
    "manifest": dict.fromkeys(("--domains", "--datasets"), "--manifest"),
}
MOVED_VALUES = {**{("matching", value): f"--pairing {value}" for value in PAIRINGS},
                ("compat", "universalner"): "--script universalner"}


def add_flags(parser, record, only: tuple | None = None, *, notes: dict | None = None,
              parse: dict | None = None, required: tuple = ()) -> None:
    """The fields of ``record`` that have a flag (``only`` those named) as ``parser``'s
    flags: its doc as help (plus ``notes``' words), its text read by its ``parse`` (or
    ``parse``'s); a bool is a switch (``--no-x`` too unless off by default, or a family's);
    a field's ``action`` and ``nargs`` as argparse's; a flag without ``--``, a positional.
    ``required``: the names the command needs."""
    notes, parse = notes or {}, parse or {}
    for opt in record.options():
        if opt.flag is None or (only is not None and opt.name not in only):
            continue
        settings = dict(default=opt.default, help=" ".join(
            filter(None, (opt.doc, notes.get(opt.name)))))
        if opt.parse is None:
            negatable = opt.default is not False or record.describes in FAMILY_RECORDS
            settings["action"] = argparse.BooleanOptionalAction if negatable else "store_true"
        else:
            choices = [c for c in opt.choices if c is not None]
            settings.update(type=reader(opt, parse.get(opt.name, opt.parse)),
                            choices=choices or None, metavar=opt.metavar)
        settings.update((key, value) for key, value in (("action", opt.action),
                                                        ("nargs", opt.nargs)) if value)
        if opt.flag.startswith("-"):   # argparse names a positional's dest itself
            settings.update(dest=dest(opt), required=opt.name in required)
        parser.add_argument(opt.flag, **settings)
        for old, new in OLD_FLAGS.get(opt.name, {}).items():
            if old not in parser._option_string_actions:
                add_alias(parser, old, new, dest(opt))


# the kinds of records (``Record.describes``) of the families: their switches take --no-x
FAMILY_RECORDS = ("tough_mentions", "hardeval", "faireval", "attribute_buckets")


class MovedFlag(argparse.Action):
    """A hidden flag 0.2 renamed: a usage error naming ``new``, the flag that replaced it
    (a value after it, if any, is taken with it)."""

    def __init__(self, option_strings, dest, new: str, **kwargs):
        super().__init__(option_strings, dest, nargs="?", help=argparse.SUPPRESS, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f"{option_string} is {self.new} since nerlens 0.2")


def add_alias(parser, old: str, new: str, dest: str) -> None:
    """``old``, a flag 0.2 renamed: given, a usage error naming ``new``."""
    parser.add_argument(old, dest=dest, action=MovedFlag, new=new, default=argparse.SUPPRESS)


def reader(opt, parse):
    """argparse type of a field's flag: its text read by ``parse`` (the field's ``check``
    runs when the record is built); a value 0.2 moved to another flag, an error naming
    that flag."""
    def read(text: str):
        if (opt.name, text) in MOVED_VALUES:
            raise argparse.ArgumentTypeError(
                f"{opt.flag} {text} is {MOVED_VALUES[opt.name, text]} since nerlens 0.2")
        try:
            return parse(text)
        except (ValueError, TypeError, UsageError) as error:   # the text may hold braces
            raise argparse.ArgumentTypeError(NOT_A_NUMBER[parse].format(text)
                                             if parse in NOT_A_NUMBER else str(error)) from None
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
    """The ``record`` of the flags parsed in ``args`` (``fixed``: values the command read
    itself); a field at its default is not given. A field's check that refuses its
    value is a usage error naming the field's flag (``--min-overlap: must be ...``, the
    field's name before the check's words dropped); a check across fields is raised as
    it is."""
    try:
        return record(**{**flag_values(args, record), **fixed})
    except (ValueError, TypeError) as error:
        flag = {o.name: o.flag for o in record.options()}.get(getattr(error, "option", None))
        if flag is None:
            raise
        raise UsageError(f"{flag}: {str(error).removeprefix(error.option + ' ')}") from error


def number_flag(read, expected: str, valid=lambda value: True, refused: str = "",
                check=lambda value: value):
    """A flag's parser: its text ``read`` (``int``, ``float``) and ``valid``, else a
    ValueError saying ``refused`` (default ``expected``; ``{text!r}``, ``{value}``
    formatted in), then ``check``ed (a library check returning the value)."""
    def parse(text: str):
        try:
            value = read(text)
        except ValueError:
            raise ValueError(expected.format(text=text)) from None
        if not valid(value):
            raise ValueError((refused or expected).format(text=text, value=value))
        return check(value)
    return parse


def at_least(minimum: int):
    """The parser of a flag taking a whole number >= ``minimum``."""
    return number_flag(int, "expected a whole number, not {text!r}", lambda n: n >= minimum,
                       f"must be {minimum} or more, not {{value}}")


# --beta: a number > 0 within ``nerspan.fbeta.BETA_RANGE``; --bootstrap -5 is refused
positive_beta = number_flag(float, "beta must be a number > 0, not {text!r}", check=check_beta)
whole_number, at_least_one = at_least(0), at_least(1)
# --threshold: a number in [0, 1] (not NaN), refused as the flag is read
confidence = number_flag(float, "expected a confidence, a number in [0, 1], not {text!r}",
                         lambda value: 0 <= value <= 1)


@dataclass(frozen=True)
class Shared(Record):
    """The flags several commands read for themselves (no library record holds them)."""

    scheme: str = option("IOB2", "tag scheme: IOB1, IOB2/BIO, IOE1, IOE2, IOBES/BIOES, BMES, "
                         "BILOU, IO (default IOB2)")
    mode: str = option("lenient", "lenient = conlleval.pl's chunk rules (default); strict = "
                       "seqeval's strict mode", choices=("lenient", "strict"))
    format: str = option("table", "table (default): text for the terminal; json: the whole "
                         "result as JSON", choices=("table", "json"))
    train: str | None = option(None, f"training data: {TRAIN_FILES}", metavar="FILE")
    beta: float = option(1.0, "also report F-beta beside every F1, as seqeval's beta (a "
                         "number between 1e-150 and 1e150; keys f2, f0.5, ...; default 1 "
                         "adds nothing)", parse=positive_beta, metavar="B")
    confusion: bool = switch(False, "add the entity confusion matrix (gold type x predicted "
                             "type over identical spans; O: missed, spurious) and the "
                             "boundary errors per type apart (JSON: confusion, "
                             "boundary_errors)")
    manifest: str | None = option(None, "a JSON manifest of datasets (name -> train, gold, "
                                  "predictions)", metavar="FILE")
    plot: str | None = option(None, "write the charts to DIR", metavar="DIR")
    plot_format: str = option("png", "image format of the --plot charts (default png)",
                              choices=("png", "svg"))
    workers: int = option(1, "score in N local processes, from partial counts merged "
                          "exactly: the same numbers as one process (default 1)",
                          parse=at_least_one, metavar="N")
    # buckets reads it; the others refuse it naming buckets, without importing the family
    compat: str | None = option(None, "interpreteval: InterpretEval's attribute buckets, "
                                "as its reference code scores them (nerlens buckets)",
                                choices=(None, "interpreteval"))
    # every command's (``nerlens.cli.Command.fill``), read by ``common.run_guarded``
    debug: bool = switch(False, "on an error, show the Python traceback")

    describes = "command-line"


# --threshold's note in every command that has it (score and the family commands): what
# the reader (``nerspan.reading.systems``) takes as scored predictions there
THRESHOLD_FILES = ("Here PRED files are JSON Lines span files whose spans carry a \"score\", "
                   "one line per sentence of GOLD (a column file or a saved split); nerlens "
                   "score also reads GOLD as a span file with --jsonl, --generated files whose "
                   "entities carry one and, with --demo, the demo's CRF scored mentions (the "
                   "family commands refuse --jsonl and --generated with it).")

# the flags of every command that reads GOLD [PRED ...]
DECODING = ("scheme", "mode", "format")
