"""``nerlens summarize``: documents, sentences, tokens and mentions per type of tag files,
as seqscore's summarize."""
from __future__ import annotations

from nerspan.counts import summarize

from .common import format_table, print_json
from .options import type_processing
from .tag_files import (command_hints, add_file_arguments, add_repair_argument, add_scheme_argument,
                        file_options, input_files)


def add_arguments(parser) -> None:
    add_file_arguments(parser, files="several")
    add_scheme_argument(parser)
    add_repair_argument(parser)


def run(args) -> int:
    paths = input_files(args)
    with command_hints(args, args.scheme):
        summary = summarize(paths if len(paths) > 1 else paths[0], args.scheme,
                            repair=args.repair, types=type_processing(args), **file_options(args))
    if args.format == "json":
        print_json(summary)
        return 0
    print(f"{', '.join(paths)}: {summary['documents']} document(s), "
          f"{summary['sentences']} sentence(s), {summary['tokens']} token(s)")
    rows = [[kind, n] for kind, n in summary["mentions"].items()] + [["total", summary["total"]]]
    print(format_table(["type", "mentions"], rows))
    return 0
