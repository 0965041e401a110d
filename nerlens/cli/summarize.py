"""``nerlens summarize``: documents, sentences, tokens and mentions per type of tag files,
as seqscore's summarize."""
from __future__ import annotations

from nerspan.counts import summarize

from nerlens.report import blocks
from nerspan.blocks import Heading, Table

from .common import show_result
from .tag_files import add_tool_arguments, input_files, run_tool


def add_arguments(parser) -> None:
    add_tool_arguments(parser)


def run(args) -> int:
    paths = input_files(args)
    summary = run_tool(args, summarize, paths if len(paths) > 1 else paths[0])
    return show_result(args, summary, lambda summary: blocks.text([
        Heading(f"{', '.join(paths)}: {summary['documents']} document(s), "
                f"{summary['sentences']} sentence(s), {summary['tokens']} token(s)"),
        Table(["type", "mentions"], [[kind, n] for kind, n in summary["mentions"].items()]
              + [["total", summary["total"]]])]))
