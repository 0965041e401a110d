"""The ``nerlens`` command: the parser and ``main``; one module per subcommand.

Each subcommand module defines NAME, HELP, add_arguments() and run(); a family adds its
module to ``COMMANDS``. ``common`` holds what every subcommand shares (errors, flags,
output), ``inputs`` the reading of GOLD [PRED ...] and --train, ``span_files`` the
--jsonl span files, ``manifest`` and ``experiment_inputs`` the datasets of an experiment.
"""
from __future__ import annotations

import argparse

from nerspan import __version__

from . import buckets, faireval, hardeval, report, score, tough_mentions
from . import convert, count, repair, summarize, validate  # the file tools (issue 30)
from .common import run_guarded
from .options import check_values, given

# the subcommands, in the order of ``nerlens --help``
COMMANDS = (score, report, hardeval, tough_mentions, faireval, buckets,
            validate, repair, convert, count, summarize)


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line (the usage is in ``--help``)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="nerlens", description="NER evaluation that says where a model fails.")
    parser.add_argument("--version", action="version", version=f"nerlens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        command.add_argument("--debug", action="store_true",
                             help="on an error, show the Python traceback")
        command.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
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
    check_values(args, args.command)
    return args.run(args)
