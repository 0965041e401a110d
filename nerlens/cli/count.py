"""``nerlens count``: mentions by type and text, as seqscore's count."""
from __future__ import annotations

from nerspan.counts import count

from .common import show_result
from .tag_files import add_tool_arguments, input_files, run_tool


def add_arguments(parser) -> None:
    add_tool_arguments(parser)


def run(args) -> int:
    # the text view in seqscore's layout: tab-separated, no header
    return show_result(args, run_tool(args, count, input_files(args)), lambda rows: "\n".join(
        f"{row['count']}\t{row['type']}\t{row['text']}" for row in rows))
