"""The ``nerlens`` command: the parser and ``main``. A subcommand is one ``Command`` row
of ``COMMANDS``; its module (imported when the command is named on the line, so that
``nerlens score`` imports no family and nothing of the report: ``benchmarks/
bench_startup.py`` times it) defines ``add_arguments(parser)`` and ``run(args)``.
``common`` holds what every subcommand shares (errors, output), ``flags`` the flags made
of option records, ``inputs`` every input of the command line.
"""
from __future__ import annotations

import argparse
import importlib
import sys
import textwrap
from dataclasses import dataclass

from nerspan import __version__

from .common import run_guarded
from .flags import Shared, add_flags
from .options import given, refuse_unread


@dataclass(frozen=True)
class Command:
    """One subcommand: its ``name``, the ``group`` ``nerlens --help`` lists it under, its
    one-line ``help`` and an ``example`` command line (tested to parse)."""

    name: str
    group: str
    help: str
    example: str

    @property
    def module(self) -> str:
        """Its module: its own, but the file tools share one, the gold audit one and the
        families without extras the family command's (their ``COMMANDS``: name ->
        (add_arguments, run))."""
        if self.name in WITHOUT_EXTRAS:
            return "nerlens.cli.family"
        return "nerlens.cli." + {TAG_FILES: "file_tools", AUDIT: "gold_audit"}.get(
            self.group, self.name.replace("-", "_"))

    def fill(self, parser: argparse.ArgumentParser) -> None:
        """Add the command's flags (its module's, and ``--debug``) and its ``run`` to its
        parser: the one place the module is imported."""
        module = importlib.import_module(self.module)
        add_arguments, run = getattr(module, "COMMANDS", {}).get(self.name) or (
            module.add_arguments, module.run)
        add_arguments(parser)
        add_flags(parser, Shared, ("debug",))
        parser.set_defaults(run=run)


# the family commands without extras of their own (``nerlens.cli.family.COMMANDS``)
WITHOUT_EXTRAS = ("tough-mentions",)
# the groups of ``nerlens --help``, in its order
SCORING, REPORTING, AUDIT, TAG_FILES = ("scoring", "report and experiments", "gold audit",
                                        "tag-file tools")
# the subcommands (name, group, help, example), in ``nerlens --help``'s order in a group
COMMANDS = tuple(Command(*row) for row in (
    ("score", SCORING, "entity-level precision, recall, F1 (conlleval-style)",
     "nerlens score gold.txt pred.txt"),
    ("report", REPORTING, "every method in one pass: terminal summary, report.json and "
     "report.html", "nerlens report gold.txt pred1.txt pred2.txt --train train.txt"),
    ("hardeval", SCORING, "token error rates on unseen and label-shifted tokens (HardEval)",
     "nerlens hardeval gold.txt pred.txt --train train.txt"),
    ("tough-mentions", SCORING, "recall on unseen and type-confusable mentions (Tough "
     "Mentions Recall)", "nerlens tough-mentions gold.txt pred.txt --train train.txt"),
    ("faireval", SCORING, "FairEval error types (LE, BE, LBE) and fair scores without double "
     "penalties", "nerlens faireval gold.txt pred.txt"),
    ("buckets", SCORING, "F1 per bucket of entity length, sentence length, density, label "
     "consistency, frequency in training and entity type (attribute buckets, Fu et al. "
     "2020)", "nerlens buckets gold.txt pred.txt --train train.txt"),
    ("sweep", SCORING, "scored predictions at every threshold: the precision / recall / F1 "
     "curve, average precision, the best and the chosen threshold, calibration",
     "nerlens sweep gold.txt scored.jsonl --choose-on dev.txt dev.jsonl"),
    ("validate", TAG_FILES, "every invalid transition of tag files (file, line, token, the "
     "rule broken); exit status 1 when there is any", "nerlens validate pred.txt --scheme IOBES"),
    ("repair", TAG_FILES, "repair the invalid transitions of a tag file (conlleval or "
     "discard), listing them", "nerlens repair pred.txt repaired.txt"),
    ("convert", TAG_FILES, "write the mentions of a tag file in another scheme (IOB1, IOB2, "
     "IOE1, IOE2, IOBES, BILOU, BMES, IO)", "nerlens convert gold.txt gold.iobes.txt --to IOBES"),
    ("count", TAG_FILES, "mentions of tag files by type and text, the most frequent first",
     "nerlens count gold.txt"),
    ("summarize", TAG_FILES, "documents, sentences, tokens and mentions per type of tag "
     "files", "nerlens summarize gold.txt"),
    ("diff", AUDIT, "two annotations of the same tokens: the tags that differ and every "
     "mention by kind of change (added, removed, retyped, reshaped, split, merged)",
     "nerlens diff gold.txt gold_fixed.txt"),
    ("agreement", AUDIT, "agreement of two annotations: mention F1 and Cohen's kappa over "
     "the tags, per type", "nerlens agreement annotator_a.txt annotator_b.txt"),
    ("suspects", AUDIT, "gold mentions (and missing ones) that look wrong, ranked with "
     "their evidence", "nerlens suspects gold.txt pred1.txt pred2.txt --train train.txt"),
))


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line (the usage is in ``--help``), and no
    abbreviated flags: ``--json`` must not be read as ``--jsonl``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **{**kwargs, "allow_abbrev": False})

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def commands_help(width: int = 88) -> str:
    """The commands of ``nerlens --help``, by group, each with its help and an example;
    ``nerlens COMMAND --help`` tells the rest."""
    lines = []
    for group in (SCORING, REPORTING, AUDIT, TAG_FILES):
        lines.append(f"{group}:")
        for command in (c for c in COMMANDS if c.group == group):
            lines += textwrap.wrap(command.help, width, initial_indent=f"  {command.name:<15} ",
                                   subsequent_indent=" " * 18)
            lines.append(" " * 18 + f"e.g. {command.example}")
        lines.append("")
    lines.append("nerlens COMMAND --help: the command's flags")
    return "\n".join(lines)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``nerlens`` parser. ``only``: just that command gets its flags (what ``main``
    does, so that a command imports its own module alone; "": none); None: every command
    gets its flags (every command's module imported)."""
    parser = Parser(prog="nerlens", usage="nerlens [-h] [--version] COMMAND ...",
                    description="NER evaluation that says where a model fails.",
                    epilog=commands_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"nerlens {__version__}")
    # listed by group in the epilog, not in argparse's one list
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS,
                                prog="nerlens")
    for command in COMMANDS:
        subparser = sub.add_parser(command.name, help=command.help, description=command.help)
        if only in (None, command.name):
            command.fill(subparser)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # the command: the first word that is no flag (``nerlens`` has no flag taking a value)
    parser = build_parser(next((word for word in argv if not word.startswith("-")), ""))
    args, extra = parser.parse_known_args(argv)
    # GOLD [PRED ...] may be split by options (``report GOLD --train T PRED``): argparse
    # fills GOLD and PRED from the first run of positional arguments only
    if extra and isinstance(given(args, "predictions"), list) and args.gold \
            and not any(item.startswith("-") for item in extra):
        args.predictions += extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not given(args, "run"):
        parser.print_help()
        return 2
    return run_guarded(run_command, args)


def run_command(args) -> int:
    """The subcommand, once its flags' values are checked to apply to it."""
    refuse_unread(args)
    return args.run(args)
