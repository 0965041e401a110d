"""``nerlens repair``: a tag file with its invalid transitions repaired, as seqscore's
repair (``conlleval`` or ``discard``); the changes listed."""
from __future__ import annotations

from nerspan.encodings import repair

from .tag_files import add_file_arguments, add_repair_argument, add_scheme_argument, rewrite


def add_arguments(parser) -> None:
    add_file_arguments(parser, files="in_out")
    add_scheme_argument(parser)
    add_repair_argument(parser, "--method", default="conlleval",
                        help_text="conlleval (default): write every chunk conlleval.pl "
                                  "reads; discard: the chunks not written as the scheme "
                                  "writes them become O")


def run(args) -> int:
    rewrite(args, args.scheme, lambda source, **reading: repair(source, args.scheme,
                                                                args.repair, **reading))
    return 0
