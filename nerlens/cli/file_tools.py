"""The file tools, as seqscore's: ``validate`` (every invalid transition of a tag file),
``repair`` (the invalid transitions repaired, ``conlleval`` or ``discard``; the changes
listed), ``convert`` (the mentions written in another scheme; a clear error where the
target cannot keep them apart, IO, unless ``--lossy``: then merged as seqscore merges
them, and counted), ``count`` (mentions by type and text) and ``summarize`` (documents,
sentences, tokens and mentions per type). The work and its views are ``nerspan``'s
(``validation``, ``encodings``, ``counts``); here, one row per tool (``COMMANDS``: its
flags and run) and the library's errors in the command's terms."""
from __future__ import annotations

import contextlib
import shlex
import sys
from dataclasses import dataclass

from nerspan.counts import count, count_text, summarize, summary_blocks
from nerspan.encodings import REPAIR_METHODS, convert, repair
from nerspan.errors import InvalidTagError, counted
from nerspan.records import FileOptions, Record, TypeOptions, option, switch
from nerspan.schemes import get_scheme
from nerspan.type_processing import process_retagged
from nerspan.validation import InvalidTransitionError, validate

from nerlens.report import blocks

from .common import UsageError, check_file, note, print_json, show_result
from .flags import add_flags
from .options import type_processing

SCHEMES = "IOB1, IOB2/BIO, IOE1, IOE2, IOBES/BIOES, BMES, BILOU, IO"


def scheme_name(text: str) -> str:
    """A scheme's canonical spelling (a ValueError lists the schemes)."""
    return get_scheme(text).name


@dataclass(frozen=True)
class Flags(Record):
    """The file tools' own flags (each tool takes those its row names)."""

    tag_column: int | None = option(None, "position of the tag column, 0-based, negative from "
                                    "the end (default: the last; validate names another "
                                    "column of tags of the same types)", parse=int,
                                    metavar="INDEX")
    format: str = option("table", "table: lines to read (default); json: the whole result",
                         choices=("table", "json"))
    scheme: str = option("IOB2", f"the tags' scheme: {SCHEMES} (default IOB2)",
                         parse=scheme_name, metavar="SCHEME")
    source_scheme: str = option("IOB2", f"the scheme of IN: {SCHEMES} (default IOB2)",
                                parse=scheme_name, flag="--from", metavar="SCHEME")
    target_scheme: str | None = option(None, f"the scheme to write: {SCHEMES}", parse=scheme_name,
                                flag="--to", metavar="SCHEME")
    repair: str | None = option(None, "repair invalid tags first (conlleval: every chunk "
                                "conlleval.pl reads; discard: drop the invalid chunks); "
                                "default: refuse them", choices=REPAIR_METHODS)
    method: str = option("conlleval", "conlleval (default): write every chunk conlleval.pl "
                         "reads; discard: the chunks not written as the scheme writes them "
                         "become O", choices=REPAIR_METHODS)
    lossy: bool = switch(False, "write adjacent mentions of one type that the target cannot "
                         "part (IO) as it writes them, read back as one mention, as seqscore "
                         "does; the pairs merged are counted (default: refuse)")


def file_options(args) -> dict:
    """The ``nerspan.tagfiles.TagFile`` options of the reading flags."""
    return {name: vars(args)[name] for name in ("comment_prefix", "encoding", "token_column",
                                                "tag_column")}


@contextlib.contextmanager
def command_hints(scheme: str):
    """The library's errors in this command's terms: a bad tag at its token's line;
    invalid tags refused with the remedy as flags."""
    try:
        yield
    except InvalidTagError as error:  # the line of the token, as the scoring commands say
        line = error.line + error.position if None not in (error.line, error.position) \
            else error.line
        raise InvalidTagError(error.problem, error.sentence, error.path, line) from None
    except InvalidTransitionError as error:
        problem, path = error.problem.split(". Validate the tags")[0], error.path or "FILE"
        raise UsageError(
            f"{path}:{error.line}: {problem}. List them with: nerlens validate {shlex.quote(path)} "
            f"--scheme {scheme}; or read them repaired: --repair conlleval (as conlleval.pl "
            "reads them) or --repair discard (drop the mentions written invalidly)") from None


def run_validate(args) -> int:
    with command_hints(args.scheme):
        results = [validate(check_file(path), args.scheme, types=type_processing(args),
                            **file_options(args)) for path in args.files]
    valid = all(found.valid for found in results)
    if args.format == "json":
        dicts = [found.to_dict() for found in results]
        print_json(dicts[0] if len(dicts) == 1 else {"valid": valid, "files": dicts})
    else:
        print("\n".join(found.text() for found in results))
    return 0 if valid else 1


def rewrite(args, scheme: str, retag) -> int:
    """IN rewritten by ``retag(IN, **reading options)`` (``repair`` or ``convert``;
    ``scheme``: IN's), its types processed, written to OUT, its changes printed."""
    with command_hints(scheme):
        fixed = retag(check_file(args.input), **file_options(args))
    fixed = process_retagged(fixed, type_processing(args))
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


def run_repair(args) -> int:
    return rewrite(args, args.scheme, lambda path, **reading: repair(
        path, args.scheme, args.method, **reading))


def run_convert(args) -> int:
    source, target = vars(args)["from"], vars(args)["to"]   # --from, --to
    return rewrite(args, source, lambda path, **reading: convert(
        path, source, target, repair=args.repair, lossy=args.lossy, **reading))


def run_tool(args, tool, text) -> int:
    """``tool`` (``count`` or ``summarize``) of FILE..., shown (``text``: its text view
    of the result and the files)."""
    paths = [check_file(path) for path in args.files]
    with command_hints(args.scheme):
        result = tool(paths if len(paths) > 1 else paths[0], args.scheme, repair=args.repair,
                      types=type_processing(args), **file_options(args))
    return show_result(args, result, lambda result: text(result, ", ".join(paths)))


def tool(files: str, flags: tuple, run) -> tuple:
    """One file tool's row of ``COMMANDS``: its add_arguments (``files`` ``"several"``:
    FILE...; ``"in_out"``: IN OUT; its own ``flags``, fields of ``Flags``) and its run."""
    def add_arguments(parser) -> None:
        if files == "in_out":
            parser.add_argument("input", metavar="IN", help="column file (token first, tag last)")
            parser.add_argument("output", metavar="OUT", help="file to write (IN's layout, "
                                                              "its tag field replaced)")
        else:
            parser.add_argument("files", metavar="FILE", nargs="+",
                                help="column file(s), token first and tag last")
        add_flags(parser, Flags, ("tag_column", "format") + flags, required=("target_scheme",))
        add_flags(parser, FileOptions, ("token_column", "comment_prefix", "encoding"))
        add_flags(parser, TypeOptions)
    return add_arguments, run


# each command's name -> (its add_arguments(parser), its run(args))
COMMANDS = {
    "validate": tool("several", ("scheme",), run_validate),
    "repair": tool("in_out", ("scheme", "method"), run_repair),
    "convert": tool("in_out", ("source_scheme", "target_scheme", "repair", "lossy"),
                    run_convert),
    "count": tool("several", ("scheme", "repair"), lambda args: run_tool(
        args, count, lambda rows, _: count_text(rows))),
    "summarize": tool("several", ("scheme", "repair"), lambda args: run_tool(
        args, summarize, lambda summary, files: blocks.text(summary_blocks(summary, files)))),
}
