"""``nerlens count``: mentions by type and text, as seqscore's count."""
from __future__ import annotations

from nerspan.counts import count

from .common import print_json
from .tag_files import add_tool_arguments, input_files, run_tool


def add_arguments(parser) -> None:
    add_tool_arguments(parser)


def run(args) -> int:
    rows = run_tool(args, count, input_files(args))
    if args.format == "json":
        print_json(rows)
    else:  # seqscore's layout: tab-separated, no header
        for row in rows:
            print(f"{row['count']}\t{row['type']}\t{row['text']}")
    return 0
