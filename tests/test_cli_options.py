"""The command line has one translator from arguments to options (issue 29, item 5):
``nerlens.cli.options.FLAGS``, one row a flag, read by ``from_args`` and ``given``."""
from __future__ import annotations

import argparse
import inspect
import re
from pathlib import Path

import pytest

import attribute_buckets
import faireval
import nerspan
from nerspan import read_columns
from nerspan.tagfiles import TagFile
from nerspan.reading import systems
from nerlens.cli import build_parser, main
from nerlens.cli.common import UsageError
from nerlens.cli.options import (ATTRIBUTE_BUCKETS, FAIREVAL, FLAGS, GENERATED, KEEP, READ,
                                 REPORT, SPANS, STRINGS, SWEEP, SYSTEMS, TAG_FILES,
                                 TYPES, check_values, from_args, given)
from nerlens.report.build import build_report

CLI = Path(__file__).resolve().parents[1] / "nerlens" / "cli"


def _names(function, record=None) -> set:
    """A call's parameters and the fields of the record it takes whole."""
    return set(inspect.signature(function).parameters) | set(record.names() if record else ())


INPUTS = set(nerspan.InputOptions.all_names())
# the library call behind each target: every option a row gives must be its parameter, or
# a field of the record it takes (the input options, the family's)
TARGETS = {READ: _names(read_columns), SYSTEMS: INPUTS | _names(systems.read_systems),
           SPANS: INPUTS, FAIREVAL: _names(faireval.score, faireval.FairevalOptions),
           ATTRIBUTE_BUCKETS: _names(attribute_buckets.score, attribute_buckets.BucketOptions),
           TYPES: INPUTS, GENERATED: INPUTS, TAG_FILES: _names(TagFile),
           REPORT: _names(build_report), STRINGS: INPUTS, KEEP: INPUTS,
           SWEEP: INPUTS | _names(nerspan.sweep)}


def _dests() -> set:
    """Every argparse destination of every subcommand."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {dest for command in sub.choices.values()
            for dest in [a.dest for a in command._actions] + list(command._defaults)}


def test_every_row_is_a_flag_of_some_command_and_an_option_of_its_targets():
    dests = _dests()
    for flag in FLAGS:
        assert flag.dest in dests, f"{flag.dest}: no command has this flag"
        for target in flag.targets:
            assert flag.option in TARGETS[target], (flag.dest, target)
    # one row a flag, or one row per meaning: then every row states its values, apart
    rows: dict = {}
    for flag in FLAGS:
        rows.setdefault(flag.dest, []).append(flag)
    for dest, same in rows.items():
        if len(same) > 1:
            values = [value for flag in same for value in flag.values]
            assert all(flag.values for flag in same), dest
            assert len(values) == len(set(values)), dest


def test_one_flag_one_meaning_per_value():
    """--matching is generated output's, --pairing faireval's: each call its own."""
    parse = build_parser().parse_args
    args = parse(["faireval", "g.txt", "--schemas", "semeval", "--pairing", "optimal"])
    assert from_args(args, FAIREVAL)["pairing"] == "optimal"
    assert from_args(args, STRINGS)["matching"] == "grounded"
    args = parse(["score", "g.txt", "--generated", "x.jsonl", "--matching", "strings",
                  "--script", "universalner", "--word-overlap"])
    assert from_args(args, STRINGS) == {"matching": "strings", "script": "universalner",
                                        "word_overlap": True}
    args = parse(["faireval", "g.txt"])   # nothing given: each call's default
    assert from_args(args, FAIREVAL)["pairing"] == "greedy"
    assert from_args(args, KEEP) == {"overlaps": "drop"}
    check_values(args, "faireval")
    # the values --matching had for faireval's pairing until 0.2: an error naming --pairing
    args = parse(["faireval", "g.txt", "--matching", "optimal"])
    with pytest.raises(UsageError, match=r"^--matching optimal is --pairing optimal since "
                                         r"nerlens 0.2$"):
        check_values(args, "faireval")
    args = parse(["hardeval", "g.txt", "--script", "universalner"])
    with pytest.raises(UsageError, match=r"^--script universalner does not apply to nerlens "
                                         r"hardeval: .*--matching strings --script "
                                         r"universalner$"):
        check_values(args, "hardeval")
    check_values(parse(["hardeval", "g.txt", "--matching", "grounded"]), "hardeval")


def test_no_command_reads_a_maybe_missing_flag_itself():
    """``getattr(args, name, default)`` only in the translator: a flag's value when a
    command lacks it is stated once, in its row."""
    found = [f"{path.name}:{n}" for path in sorted(CLI.glob("*.py"))
             if path.name != "options.py"
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"getattr\(args\b", line)]
    assert found == []


def test_from_args_parses_through_the_rows_and_skips_flags_a_command_lacks():
    args = build_parser().parse_args(["faireval", "g.txt", "--labels", "PER, LOC",
                                      "--schemas", "strict,exact", "--scheme", "IOBES"])
    options = from_args(args, FAIREVAL)
    assert options["labels"] == ["PER", "LOC"] and options["schemas"] == ["strict", "exact"]
    assert options["exclude"] == () and options["scheme"] == "IOBES"
    assert set(options) <= TARGETS[FAIREVAL]
    # a namespace without the flags: nothing given, the library's defaults apply
    assert from_args(argparse.Namespace(), FAIREVAL) == {}
    assert from_args(argparse.Namespace(), SYSTEMS, on_repairs=print) == {"on_repairs": print}


def test_parse_errors_are_usage_errors():
    args = build_parser().parse_args(["buckets", "g.txt", "--attributes", "eLen,eLn"])
    with pytest.raises(UsageError, match="unknown attribute.*eLn"):
        from_args(args, ATTRIBUTE_BUCKETS)
    args = build_parser().parse_args(["buckets", "g.txt", "--n-buckets", "1"])
    with pytest.raises(UsageError, match="--n-buckets must be at least 2"):
        from_args(args, ATTRIBUTE_BUCKETS)


def test_given_reads_the_row_s_absent_value():
    empty = argparse.Namespace()
    assert given(empty, "jsonl") is False and given(empty, "tokens_column") == "tokens"
    assert given(argparse.Namespace(jsonl=True), "jsonl") is True
    with pytest.raises(KeyError, match="no row for the flag 'nope'"):
        given(empty, "nope")


def test_a_flag_is_never_read_from_an_abbreviation(capsys):
    """``--json`` is no flag: argparse would read it as ``--jsonl`` (the span files) and
    the user would get "not JSON" for a column file; it is refused, naming it."""
    with pytest.raises(SystemExit) as stop:
        main(["score", "gold.txt", "pred.txt", "--json"])
    assert stop.value.code == 2
    assert "unrecognized arguments: --json" in capsys.readouterr().err
