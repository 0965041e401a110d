"""MkDocs hooks: the command-line page is written from nerlens' argparse parser at build time.

A page holding the marker ``<!-- cli-reference -->`` gets, in its place, one section per
subcommand of ``nerlens.cli.build_parser()`` (in ``nerlens --help``'s order): its one-line
help, its usage line and a table of its arguments with their help, choices and defaults.
Nothing is copied by hand, so the page cannot fall behind the parser; flags hidden from
``--help`` (deprecated aliases) are left out as ``--help`` leaves them out.

Besides, the docstrings are written for ``help()``: a subscript such as ``d["LOC"]`` reads
as a Markdown reference there, which mkdocs-autorefs reports as a missing target. Only
those are let through (a target that is a quoted string or a tuple, never a Python name):
a real broken reference to a documented name still fails ``mkdocs build --strict``.
"""
from __future__ import annotations

import argparse
import html
import logging
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:      # the checkout being documented, not an installed copy
    sys.path.insert(0, str(ROOT))

from nerlens.cli import build_parser  # noqa: E402

MARKER = "<!-- cli-reference -->"
AUTOREFS_LOGGER = "mkdocs.plugins.mkdocs_autorefs._internal.plugin"
NOT_A_NAME = re.compile(r"Could not find cross-reference target '[\"'(]")


def subscripts_are_no_references(record: logging.LogRecord) -> bool:
    return not NOT_A_NAME.search(record.getMessage())


def on_config(config):
    logger = logging.getLogger(AUTOREFS_LOGGER)
    if subscripts_are_no_references not in logger.filters:
        logger.addFilter(subscripts_are_no_references)
    return config


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, cli_reference(build_parser()))


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """``(name, one-line help, parser)`` of every subcommand, in ``--help``'s order."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in action._choices_actions}
    return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]


def cli_reference(parser: argparse.ArgumentParser) -> str:
    rows = ["| command | what it does |", "|---|---|"]
    rows += [f"| [`nerlens {name}`](#{anchor(name)}) | {cell(text)} |"
             for name, text, _ in subcommands(parser)]
    sections = [command_section(name, text, sub) for name, text, sub in subcommands(parser)]
    return "\n".join(rows) + "\n\n" + "\n\n".join(sections) + "\n"


def anchor(name: str) -> str:
    return f"nerlens-{name}"


def command_section(name: str, text: str, parser: argparse.ArgumentParser) -> str:
    usage = parser.format_usage().removeprefix("usage: ").strip()
    rows = ["| argument | value | default | help |", "|---|---|---|---|"]
    formatter = parser._get_formatter()
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
            continue
        rows.append(f"| {argument(action)} | {value(action)} | {default(action)} | "
                    f"{cell(formatter._expand_help(action) if action.help else '')} |")
    return (f"## `nerlens {name}` {{#{anchor(name)}}}\n\n{cell(text)}\n\n"
            f"```text\n{usage}\n```\n\n" + "\n".join(rows))


def argument(action: argparse.Action) -> str:
    names = action.option_strings or [action.dest.upper() if action.dest != "gold" else "GOLD"]
    if not action.option_strings and action.nargs in ("*", "+"):
        names = [f"{names[0]} ..."]
    return "<br>".join(f"`{n}`" for n in names)


def value(action: argparse.Action) -> str:
    if action.choices:
        return " ".join(f"`{c}`" for c in action.choices)
    if action.nargs == 0:
        return ""
    metavar = action.metavar if isinstance(action.metavar, str) else None
    return f"`{metavar or action.dest.upper()}`" if action.option_strings else ""


def default(action: argparse.Action) -> str:
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS, [], ""):
        return ""
    return f"`{action.default}`"


def cell(text: str) -> str:
    """Text for a Markdown table cell: HTML and the Markdown marks escaped, one line."""
    text = html.escape(" ".join(str(text).split()), quote=False)
    return re.sub(r"([|*_\[\]`])", r"\\\1", text)
