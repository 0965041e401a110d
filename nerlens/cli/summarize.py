"""``nerlens summarize``: documents, sentences, tokens and mentions per type of tag files,
as seqscore's summarize."""
from __future__ import annotations

from nerspan.counts import summarize

from .common import format_table, print_json
from .tag_files import add_tool_arguments, input_files, run_tool


def add_arguments(parser) -> None:
    add_tool_arguments(parser)


def run(args) -> int:
    paths = input_files(args)
    summary = run_tool(args, summarize, paths if len(paths) > 1 else paths[0])
    if args.format == "json":
        print_json(summary)
        return 0
    print(f"{', '.join(paths)}: {summary['documents']} document(s), "
          f"{summary['sentences']} sentence(s), {summary['tokens']} token(s)")
    rows = [[kind, n] for kind, n in summary["mentions"].items()] + [["total", summary["total"]]]
    print(format_table(["type", "mentions"], rows))
    return 0
