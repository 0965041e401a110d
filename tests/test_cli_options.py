"""The command line's flags are made of the option records (issue 38): every input option
and every family option with a flag is declared once, as a record field
(``nerspan.records``, ``Family.options``), and ``nerlens.cli.flags.add_flags`` makes it a
flag whose ``dest`` is the option's name, read by ``record_of`` / ``inputs_of``."""
from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import nerspan
from nerspan.records import FileOptions, Record, TypeOptions
from nerspan.records import option as field_option
from nerlens.cli import build_parser, main
from nerlens.cli.common import UsageError
from nerlens.cli.flags import add_flags, dest, record_of
from nerlens.cli.options import given, inputs_of, refuse_unread
from nerlens.families import get_family

CLI = Path(__file__).resolve().parents[1] / "nerlens" / "cli"
# the command of each family
COMMANDS = {"tough_mentions": "tough-mentions", "hardeval": "hardeval",
            "faireval": "faireval", "attribute_buckets": "buckets"}


def _actions(command: str) -> dict:
    """flag -> argparse action of one subcommand."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]._option_string_actions


@pytest.mark.parametrize("family", list(COMMANDS))
def test_every_option_of_a_family_s_record_is_a_flag_of_its_command(family):
    record = get_family(family).options
    actions = _actions(COMMANDS[family])
    for option in record.options():
        if option.flag is None:
            continue
        action = actions[option.flag]
        assert action.dest == dest(option), option.name
        # --compat: on every command (the others refuse it, naming buckets)
        assert option.name == "compat" or action.help.startswith(option.doc), \
            option.name
        assert action.default == option.default, option.name


@pytest.mark.parametrize("command", ["score", "report", "hardeval", "faireval"])
def test_every_input_option_with_a_flag_reads_files_the_same_way(command):
    """The reading flags of every command are InputOptions' fields, of the same defaults."""
    actions = _actions(command)
    names = {"suffix", "inclusive_end", "snap", "offsets", "jsonl", "encoding",
             "comment_prefix", "missing_tag", "token_column", "gold_tag_column",
             "keep_types", "remove_types", "type_map", "matching", "fuzzy", "occurrences"}
    for option in nerspan.InputOptions.options():
        if option.name in names:
            action = actions[option.flag]
            assert action.dest == option.name and action.default == option.default


def test_one_flag_one_meaning_per_value(capsys):
    """--matching is generated output's, --pairing faireval's: each call its own."""
    parse = build_parser().parse_args
    args = parse(["faireval", "g.txt", "--schemas", "semeval", "--pairing", "optimal"])
    assert record_of(args, get_family("faireval").options).pairing == "optimal"
    assert inputs_of(args).generated.matching == "grounded"
    args = parse(["score", "g.txt", "--generated", "x.jsonl", "--matching", "strings",
                  "--script", "universalner", "--word-overlap"])
    generated = inputs_of(args).generated
    assert (generated.matching, generated.script, generated.word_overlap) == (
        "strings", "universalner", True)
    args = parse(["faireval", "g.txt"])   # nothing given: each call's default
    assert record_of(args, get_family("faireval").options).pairing == "greedy"
    assert inputs_of(args).generated.overlaps == "drop"
    refuse_unread(args)
    # the values --matching had for faireval's pairing until 0.2: an error naming --pairing
    with pytest.raises(SystemExit) as stop:
        main(["faireval", "g.txt", "--matching", "optimal"])
    assert stop.value.code == 2
    assert "--matching optimal is --pairing optimal since nerlens 0.2" in capsys.readouterr().err
    args = parse(["hardeval", "g.txt", "--script", "universalner"])
    with pytest.raises(UsageError, match=r"^--script universalner does not apply to nerlens "
                                         r"hardeval: .*--matching strings --script "
                                         r"universalner$"):
        refuse_unread(args)
    refuse_unread(parse(["hardeval", "g.txt", "--matching", "grounded"]))


def test_a_value_a_field_s_check_refuses_is_a_usage_error_naming_its_flag(capsys):
    """The field's own check refuses a flag's value as it is read, one usage line naming
    the flag, so that no command wraps the check; a check across fields (faireval's
    SemEval options without --schemas) is record_of's, raised as is."""
    record = get_family("faireval").options
    with pytest.raises(SystemExit) as stop:
        main(["faireval", "g.txt", "--min-overlap", "2", "--schemas", "semeval"])
    assert stop.value.code == 2
    assert re.search(r"^nerlens faireval: error: argument --min-overlap: min_overlap must be "
                     r"a fraction .*not 2\.0 \(see", capsys.readouterr().err)
    parser = argparse.ArgumentParser()
    add_flags(parser, record, ("min_overlap", "schemas"))
    with pytest.raises(ValueError) as raised:
        record_of(parser.parse_args(["--min-overlap", "0.5"]), record)
    assert not isinstance(raised.value, UsageError)


def test_no_command_reads_a_maybe_missing_flag_itself():
    """``getattr(args, name, default)`` only where flags are read as records: a flag's
    value when a command lacks it is stated once."""
    found = [f"{path.name}:{n}" for path in sorted(CLI.glob("*.py"))
             if path.name not in ("options.py", "flags.py")
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"getattr\(args\b", line)]
    assert found == []


def test_a_record_is_read_from_the_flags_a_command_has():
    args = build_parser().parse_args(["faireval", "g.txt", "--labels", "PER, LOC",
                                      "--schemas", "strict,exact", "--scheme", "IOBES"])
    options = record_of(args, get_family("faireval").options)
    assert options.labels == ["PER", "LOC"] and list(options.schemas) == ["strict", "exact"]
    assert list(options.exclude) == [] and args.scheme == "IOBES"
    # a namespace without the flags: nothing given, the library's defaults apply
    record = get_family("faireval").options
    assert record_of(argparse.Namespace(), record).to_dict() == record().to_dict()


@pytest.mark.parametrize("line, message", [
    (["buckets", "g.txt", "--bootstrap", "many"], "expected a whole number, not 'many'"),
    (["score", "g.txt", "--encoding", "utf-9"], "unknown encoding 'utf-9'"),
    (["score", "g.txt", "--type-map", "PER"], "expected SRC=DST"),
    (["score", "g.txt", "--type-map", "{PER}"], "expected SRC=DST"),   # braces kept as given
    (["score", "g.txt", "--workers", "{x}"], "expected a whole number, not '{x}'"),
    # a value the field's check refuses: the check's words, as the API says them
    (["buckets", "g.txt", "--attributes", "eLen,eLn", "--train", "t.txt"], "eLn"),
    (["buckets", "g.txt", "--n-buckets", "1", "--train", "t.txt"],
     "argument --n-buckets: n_buckets must be at least 2, not 1 (see"),
])
def test_a_text_its_option_cannot_read_is_a_usage_error_naming_the_flag(line, message, capsys):
    with pytest.raises(SystemExit) as stop:
        main(line)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {line[2]}:" in err and message in err and "Traceback" not in err


def test_given_reads_a_flag_a_command_may_lack():
    empty = argparse.Namespace()
    assert given(empty, "jsonl") is None and given(empty, "jsonl", False) is False
    assert given(argparse.Namespace(jsonl=True), "jsonl") is True


def test_a_flag_is_never_read_from_an_abbreviation(capsys):
    """``--json`` is no flag: argparse would read it as ``--jsonl`` (the span files) and
    the user would get "not JSON" for a column file; it is refused, naming it."""
    with pytest.raises(SystemExit) as stop:
        main(["score", "gold.txt", "pred.txt", "--json"])
    assert stop.value.code == 2
    assert "unrecognized arguments: --json" in capsys.readouterr().err


def test_a_field_may_be_a_positional_a_repeated_flag_or_take_several_values():
    """A record field declares what the hand-written add_argument calls did: a positional
    (a flag without ``--``), an argparse ``action`` and ``nargs``; the command line's own
    files (GOLD, PRED, --generated, --gold-alt, --scored) are such fields."""
    @dataclass(frozen=True)
    class Files(Record):
        gold: str | None = field_option(None, "the gold file", flag="gold", nargs="?")
        extra: list | None = field_option(None, "repeatable", action="append")
        pair: list | None = field_option(None, "two files", nargs=2, metavar=("A", "B"))

    parser = argparse.ArgumentParser()
    add_flags(parser, Files)
    args = parser.parse_args(["g.txt", "--extra", "x", "--extra", "y", "--pair", "a", "b"])
    assert (args.gold, args.extra, args.pair) == ("g.txt", ["x", "y"], ["a", "b"])
    assert record_of(args, Files).extra == ["x", "y"]
    actions = _actions("report")
    assert actions["--scored"].dest == "scored" and actions["--gold-alt"].dest == "gold_alt"
    assert _actions("score")["--generated"].dest == "generated"


def test_a_field_s_own_check_names_its_flag_and_a_check_across_fields_is_kept():
    """The error of a field's own check names the field (``error.option``), which
    ``record_of`` turns into a usage error naming its flag."""
    parser = argparse.ArgumentParser()
    add_flags(parser, TypeOptions)
    args = parser.parse_args(["--keep-types", "PER", "--remove-types", "LOC"])
    with pytest.raises(ValueError) as caught:   # keep with remove: across fields
        record_of(args, TypeOptions)
    assert not isinstance(caught.value, UsageError) and not hasattr(caught.value, "option")
    with pytest.raises((ValueError, TypeError)) as caught:
        FileOptions(pred_tag_column="last")
    assert caught.value.option == "pred_tag_column"
