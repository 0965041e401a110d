"""The file tools, as seqscore's: ``validate`` (every invalid transition of a tag file),
``repair`` (the invalid transitions repaired, ``conlleval`` or ``discard``; the changes
listed), ``convert`` (the mentions written in another scheme; a clear error where the
target cannot keep them apart, IO, unless ``--lossy``: then merged as seqscore merges
them, and counted), ``count`` (mentions by type and text) and ``summarize`` (documents,
sentences, tokens and mentions per type). ``COMMANDS``: each one's flags and run; the work
is ``nerspan``'s, the skeleton ``tag_files``'."""
from __future__ import annotations

from dataclasses import replace

from nerspan.blocks import Heading, Table
from nerspan.counts import count, summarize
from nerspan.encodings import convert, repair
from nerspan.errors import counted
from nerspan.tagfiles import TAGS, TagFile
from nerspan.type_processing import relabel_tags
from nerspan.validation import validate

from nerlens.report import blocks

from .common import note, print_json, show_result
from .options import type_processing
from .tag_files import (add_file_arguments, add_repair_argument, add_scheme_argument,
                        add_tool_arguments, command_hints, file_options, input_files, rewrite,
                        run_tool)


def run_validate(args) -> int:
    processing = type_processing(args)
    results = []
    for path in input_files(args):
        file = TagFile(path, **file_options(args))
        with command_hints(args, args.scheme):
            corpus = file.read()
            if processing is not None:  # the tags as they read once renamed: no mentions yet
                corpus = relabel_tags(corpus, TAGS, processing)
            found = validate(corpus, args.scheme, column=TAGS)
        # named as the file's: which column, and the others holding tags of its types
        found = replace(found, path=path, documents=file.documents(corpus),
                        tag_column=file.column, other_tag_columns=file.other_tag_columns())
        results.append(found)
    valid = all(found.valid for found in results)
    if args.format == "json":
        dicts = [found.to_dict() for found in results]
        print_json(dicts[0] if len(dicts) == 1 else {"valid": valid, "files": dicts})
        return 0 if valid else 1
    for found in results:
        result = found.to_dict()
        size = (f"{result['documents']} document(s), {result['sentences']} sentence(s), "
                f"{result['tokens']} token(s)")
        print("\n".join(found.messages() + [
            f"{result['file']}: valid {result['scheme']} ({size})" if result["valid"] else
            f"{result['file']}: {result['problems']} problem(s) under {result['scheme']} "
            f"({size})"] + ([f"{result['file']}: {found.column_note()}"]
                           if found.column_note() else [])))
    return 0 if valid else 1


def add_repair_arguments(parser) -> None:
    add_file_arguments(parser, files="in_out")
    add_scheme_argument(parser)
    add_repair_argument(parser, "--method", default="conlleval",
                        help_text="conlleval (default): write every chunk conlleval.pl "
                                  "reads; discard: the chunks not written as the scheme "
                                  "writes them become O")


def run_repair(args) -> int:
    rewrite(args, args.scheme, lambda source, **reading: repair(source, args.scheme,
                                                                args.repair, **reading))
    return 0


def add_convert_arguments(parser) -> None:
    add_file_arguments(parser, files="in_out")
    add_scheme_argument(parser, "--from", "from_scheme", "the scheme of IN")
    add_scheme_argument(parser, "--to", "to_scheme", "the scheme to write", required=True)
    add_repair_argument(parser)
    parser.add_argument("--lossy", action="store_true",
                        help="write adjacent mentions of one type that the target cannot "
                             "part (IO) as it writes them, read back as one mention, as "
                             "seqscore does; the pairs merged are counted (default: refuse)")


def run_convert(args) -> int:
    converted = rewrite(args, args.from_scheme, lambda source, **reading: convert(
        source, args.from_scheme, args.to_scheme, repair=args.repair, lossy=args.lossy,
        **reading))
    merged = converted.counts.get("merged_pairs")
    if merged:
        note(f"{counted(merged, 'pair')} of adjacent mentions of one type merged "
             f"({converted.scheme} writes each pair as one mention; --lossy)")
    return 0


def run_count(args) -> int:
    # the text view in seqscore's layout: tab-separated, no header
    return show_result(args, run_tool(args, count, input_files(args)), lambda rows: "\n".join(
        f"{row['count']}\t{row['type']}\t{row['text']}" for row in rows))


def run_summarize(args) -> int:
    paths = input_files(args)
    summary = run_tool(args, summarize, paths if len(paths) > 1 else paths[0])
    return show_result(args, summary, lambda summary: blocks.text([
        Heading(f"{', '.join(paths)}: {summary['documents']} document(s), "
                f"{summary['sentences']} sentence(s), {summary['tokens']} token(s)"),
        Table(["type", "mentions"], [[kind, n] for kind, n in summary["mentions"].items()]
              + [["total", summary["total"]]])]))


# each command's name -> (its add_arguments(parser), its run(args))
COMMANDS = {
    "validate": (lambda parser: add_tool_arguments(parser, repair=False), run_validate),
    "repair": (add_repair_arguments, run_repair),
    "convert": (add_convert_arguments, run_convert),
    "count": (add_tool_arguments, run_count),
    "summarize": (add_tool_arguments, run_summarize),
}
