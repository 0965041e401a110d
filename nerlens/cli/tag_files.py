"""The skeleton of the file tools (validate, repair, convert, count, summarize): FILE...
or IN OUT and their flags, a tool's run (``run_tool``) or a rewrite's (``rewrite``), the
library's errors in the command's terms. The work is ``nerspan``'s (``validation``,
``encodings``, ``counts``)."""
from __future__ import annotations

import argparse
import contextlib
import shlex
import sys
from dataclasses import dataclass

from nerspan.schemes import get_scheme
from nerspan.errors import InvalidTagError, counted
from nerspan.records import FileOptions, Record, TypeOptions, option
from nerspan.type_processing import process_retagged
from nerspan.validation import InvalidTransitionError

from .common import UsageError, check_file, print_json
from .flags import add_flags
from .options import type_processing

# What a ``Retagged`` counts, in words: the type counts are of mentions, not of types
COUNT_NOUNS = {"invalid_transitions": ("invalid transition",),
               "changed_tags": ("changed tag",), "chunks": ("chunk",),
               "discarded_chunks": ("discarded chunk",), "merged_pairs": ("merged pair",),
               "types_mapped": ("mention retyped", "mentions retyped"),
               "types_removed": ("mention removed", "mentions removed")}


def add_tool_arguments(parser, files: str = "several", repair: bool = True) -> None:
    """A tool's files (``add_file_arguments``), --scheme and (``repair``) --repair."""
    add_file_arguments(parser, files)
    add_scheme_argument(parser)
    if repair:
        add_repair_argument(parser)


def add_file_arguments(parser, files: str = "one") -> None:
    """FILE (``files="one"``), FILE... (``"several"``) or IN OUT (``"in_out"``), how
    they are read, --format and the type flags."""
    if files == "in_out":
        parser.add_argument("input", metavar="IN", help="column file (token first, tag last)")
        parser.add_argument("output", metavar="OUT", help="file to write (IN's layout, "
                                                          "its tag field replaced)")
    else:
        parser.add_argument("files", metavar="FILE", nargs="+" if files == "several" else 1,
                            help="column file(s), token first and tag last")
    add_flags(parser, Flags)
    add_flags(parser, FileOptions, ("token_column", "comment_prefix", "encoding"))
    add_flags(parser, TypeOptions)


@dataclass(frozen=True)
class Flags(Record):
    """The file tools' own flags."""

    tag_column: int | None = option(None, "position of the tag column, 0-based, negative from "
                                    "the end (default: the last; validate names another "
                                    "column of tags of the same types)", parse=int,
                                    metavar="INDEX")
    format: str = option("table", "table: lines to read (default); json: the whole result",
                         choices=("table", "json"))


def add_scheme_argument(parser, flag: str = "--scheme", dest: str | None = None,
                        what: str = "the tags' scheme", required: bool = False) -> None:
    parser.add_argument(flag, dest=dest, default=None if required else "IOB2",
                        required=required, type=scheme_name, metavar="SCHEME",
                        help=f"{what}: IOB1, IOB2/BIO, IOE1, IOE2, IOBES/BIOES, BMES, "
                             f"BILOU, IO{'' if required else ' (default IOB2)'}")


def add_repair_argument(parser, flag: str = "--repair", default=None,
                        help_text: str | None = None) -> None:
    parser.add_argument(flag, dest="repair", default=default,
                        choices=("conlleval", "discard"),
                        help=help_text or "repair invalid tags first (conlleval: every "
                                          "chunk conlleval.pl reads; discard: drop the "
                                          "invalid chunks); default: refuse them")


def scheme_name(text: str) -> str:
    """argparse type: a scheme name (its canonical spelling)."""
    try:
        return get_scheme(text).name
    except ValueError as error:  # it lists the schemes
        raise argparse.ArgumentTypeError(str(error)) from None


def file_options(args) -> dict:
    """The ``nerspan.tagfiles.TagFile`` options of the reading flags."""
    return {name: vars(args)[name] for name in ("comment_prefix", "encoding", "token_column",
                                                "tag_column")}


def input_files(args) -> list[str]:
    return [check_file(path) for path in args.files]


@contextlib.contextmanager
def command_hints(args, scheme: str):
    """The library's errors in this command's terms: a bad tag at its token's line;
    invalid tags refused with the remedy as flags."""
    try:
        yield
    except InvalidTagError as error:  # the line of the token, as the scoring commands say
        line = error.line + error.position if None not in (error.line, error.position) \
            else error.line
        raise InvalidTagError(error.problem, error.sentence, error.path, line) from None
    except InvalidTransitionError as error:
        problem = error.problem.split(". Validate the tags")[0]
        path = error.path or "FILE"
        raise UsageError(
            f"{path}:{error.line}: {problem}. List them with: nerlens validate {shlex.quote(path)} "
            f"--scheme {scheme}; or read them repaired: --repair conlleval (as conlleval.pl "
            "reads them) or --repair discard (drop the mentions written invalidly)") from None


def run_tool(args, tool, source):
    """``tool`` (``nerspan.counts``' count or summarize) of ``source`` with the flags."""
    with command_hints(args, args.scheme):
        return tool(source, args.scheme, repair=args.repair, types=type_processing(args),
                    **file_options(args))


def rewrite(args, scheme: str, retag):
    """IN rewritten by ``retag(IN, **reading options)`` (``nerspan.encodings``' repair or
    convert; ``scheme``: IN's), its types processed, written to OUT, its changes printed."""
    processing, source, out = type_processing(args), check_file(args.input), args.output
    with command_hints(args, scheme):
        fixed = retag(source, **file_options(args))
    fixed = process_retagged(fixed, processing)
    fixed.write(out)
    if args.format == "json":   # the whole ``Retagged.to_dict()`` and the file written
        print_json({**fixed.to_dict(), "output": out})
        return fixed
    for change in fixed.changes:
        token = f" (token {change.token!r})" if change.token is not None else ""
        print(f"{change.path}:{change.line}: {change.tag} -> {change.repaired}{token}")
    counts = ", ".join(counted(value, *COUNT_NOUNS.get(key, (key.replace("_", " "),)))
                       for key, value in fixed.counts.items())
    print(f"wrote {out} ({fixed.scheme}{'; ' + counts if counts else ''})", file=sys.stderr)
    return fixed
