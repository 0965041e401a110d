"""The file tools, as seqscore's: ``validate``, ``repair``, ``convert``, ``count`` and
``summarize`` (``nerlens --help`` says what each does). The work, its views and its errors
are ``nerspan``'s (``validation``, ``encodings``, ``counts``); here, one row per tool
(``COMMANDS``: its arguments and flags, and its run)."""
from __future__ import annotations

import sys
from dataclasses import dataclass

from nerspan.counts import count, count_text, summarize, summary_blocks
from nerspan.encodings import REPAIR_METHODS, convert, repair
from nerspan.errors import counted
from nerspan.records import FileOptions, Record, ScoringOptions, TypeOptions, option, switch
from nerspan.schemes import SCHEMES, Scheme, get_scheme
from nerspan.type_processing import process_retagged
from nerspan.validation import validate

from nerlens.report import blocks

from .common import note, print_json, show_result
from .flags import Shared, add_flags, flag_values, record_of

NAMES = ", ".join(SCHEMES)   # the schemes --help lists


@dataclass(frozen=True)
class Flags(Record):
    """The file tools' own arguments and flags (each tool takes those its row names, and
    --format and ``ScoringOptions``' --scheme); a scheme is read as ``nerspan.schemes.Scheme``."""

    files: list = option(None, "column file(s), token first and tag last", flag="files",
                         nargs="+", metavar="FILE")
    input: str = option(None, "column file (token first, tag last)", flag="input", metavar="IN")
    output: str = option(None, "file to write (IN's layout, its tag field replaced)",
                         flag="output", metavar="OUT")
    tag_column: int | None = option(None, "position of the tag column, 0-based, negative from "
                                    "the end (default: the last; validate names another "
                                    "column of tags of the same types)", parse=int,
                                    metavar="INDEX")
    source_scheme: Scheme = option("IOB2", f"the scheme of IN: {NAMES} (default IOB2)",
                                   parse=get_scheme, flag="--from", metavar="SCHEME")
    target_scheme: Scheme | None = option(None, f"the scheme to write: {NAMES}",
                                          parse=get_scheme, flag="--to", metavar="SCHEME")
    repair: str | None = option(None, "repair invalid tags first (conlleval: every chunk "
                                "conlleval.pl reads; discard: drop the invalid chunks); "
                                "default: refuse them", choices=REPAIR_METHODS)
    method: str = option("conlleval", "conlleval (default): write every chunk conlleval.pl "
                         "reads; discard: the chunks not written as the scheme writes them "
                         "become O", choices=REPAIR_METHODS)
    lossy: bool = switch(False, "write adjacent mentions of one type that the target cannot "
                         "part (IO) as it writes them, read back as one mention, as seqscore "
                         "does; the pairs merged are counted (default: refuse)")


def reading(args) -> dict:
    """The reading flags as ``nerspan.tagfiles.TagFile``'s options."""
    return {**flag_values(args, FileOptions), "tag_column": args.tag_column}


def types(args):
    """The ``nerspan.type_processing.TypeProcessing`` of the type flags (None: none)."""
    return record_of(args, TypeOptions).processing


def run_validate(args) -> int:
    found = [validate(path, args.scheme, types=types(args), **reading(args))
             for path in args.files]
    valid = all(one.valid for one in found)
    dicts = [one.to_dict() for one in found]
    show_result(args, dicts[0] if len(dicts) == 1 else {"valid": valid, "files": dicts},
                lambda _: "\n".join(one.text() for one in found))
    return 0 if valid else 1


def rewrite(args, retagged) -> int:
    """``retagged`` (IN repaired or converted) with its types processed, written to OUT;
    its changes listed (the text view: one a line, then what was written, on stderr), the
    pairs --lossy merged noted."""
    fixed = process_retagged(retagged, types(args))
    fixed.write(args.output)
    if args.format == "json":   # the whole ``Retagged.to_dict()`` and the file written
        print_json({**fixed.to_dict(), "output": args.output})
    else:
        for change in fixed.changes:
            print(change.message())
        print(f"wrote {args.output} ({fixed.counts_text()})", file=sys.stderr)
    merged = fixed.counts.get("merged_pairs")
    if merged:
        note(f"{counted(merged, 'pair')} of adjacent mentions of one type merged "
             f"({fixed.scheme} writes each pair as one mention; --lossy)")
    return 0


def of_files(args, tool):
    """``tool`` (``count`` or ``summarize``) of FILE... (several: added up)."""
    return tool(args.files, args.scheme, repair=args.repair, types=types(args),
                **reading(args))


def tool(arguments: tuple, run) -> tuple:
    """One file tool's row of ``COMMANDS``: its add_arguments (``arguments``, fields of
    ``Flags``; every tool reads files and types alike) and its run."""
    def add_arguments(parser) -> None:
        add_flags(parser, Flags, ("tag_column",) + arguments, required=("target_scheme",))
        add_flags(parser, ScoringOptions, arguments, parse={"scheme": get_scheme})
        add_flags(parser, Shared, ("format",))
        add_flags(parser, FileOptions, ("token_column", "comment_prefix", "encoding"))
        add_flags(parser, TypeOptions)
    return add_arguments, run


# each command's name -> (its add_arguments(parser), its run(args))
COMMANDS = {
    "validate": tool(("files", "scheme"), run_validate),
    "repair": tool(("input", "output", "scheme", "method"), lambda args: rewrite(
        args, repair(args.input, args.scheme, args.method, **reading(args)))),
    "convert": tool(("input", "output", "source_scheme", "target_scheme", "repair", "lossy"),
                    lambda args: rewrite(args, convert(   # --from, --to
                        args.input, vars(args)["from"], vars(args)["to"], repair=args.repair,
                        lossy=args.lossy, **reading(args)))),
    "count": tool(("files", "scheme", "repair"), lambda args: show_result(
        args, of_files(args, count), count_text)),
    "summarize": tool(("files", "scheme", "repair"), lambda args: show_result(
        args, of_files(args, summarize),
        lambda summary: blocks.text(summary_blocks(summary, ", ".join(args.files))))),
}
