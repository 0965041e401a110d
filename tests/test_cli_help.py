"""``nerlens --help``: the commands by group, each with a one-line example that parses; every
flag of every command has help text."""
from __future__ import annotations

import argparse
import shlex

import pytest

from nerlens.cli import COMMANDS, build_parser, commands_help, main

GROUPS = ("scoring", "report and experiments", "gold audit", "tag-file tools")


def test_the_help_lists_every_command_once_under_its_group(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert text.count("\n  ") >= len(COMMANDS) and commands_help() in text
    headings = [text.index(f"\n{group}:\n") for group in GROUPS]
    assert headings == sorted(headings)
    for command in COMMANDS:
        assert command.group in GROUPS
        at = text.index(f"\n  {command.name} ")
        group = max((h, g) for h, g in zip(headings, GROUPS) if h < at)[1]
        assert group == command.group, command.name
        assert f"e.g. {command.example}" in text


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_each_example_is_a_command_line_its_parser_reads(command):
    words = shlex.split(command.example)
    assert words[:2] == ["nerlens", command.name]
    args, extra = build_parser().parse_known_args(words[1:])
    assert args.command == command.name and extra == []


def test_every_flag_has_help_text():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [(name, action.option_strings or action.dest)
               for name, subparser in sub.choices.items() for action in subparser._actions
               if action.help is None]
    assert missing == []
