"""The one translator from command-line arguments to the library's options.

Every flag whose value the library takes is one row of ``FLAGS``: its argparse
destination, the option name the library gives it (the one contract: the same name in
the API, the evaluate modules and here), the library calls (``targets``) that take it,
the function that turns the flag's text into the option's value, and its value when a
command has no such flag. ``from_args(args, target)`` reads a parsed ``Namespace``
through the table; ``given(args, dest)`` reads one flag (its ``absent`` value when the
command does not define it). Adding a flag is adding its row here (and its
``add_argument`` in the command's module); nothing else translates arguments.

One flag has one meaning per value: a flag whose values mean different things to
different library calls (``--matching grounded|strings`` for generated output,
``greedy|optimal`` for faireval's SemEval pairing) has one row per meaning, each with its
``values``; the row that holds the value given takes it, the others their ``absent``.
A row's ``commands`` are the commands its values apply to: ``check_values`` refuses the
value on any other command, saying what it means and a command that takes it.

>>> import argparse
>>> args = argparse.Namespace(scheme="IOBES", mode="strict", labels="PER, LOC",
...                           exclude="", weights=None)
>>> opts = from_args(args, FAIREVAL)
>>> opts["scheme"], opts["labels"], opts["exclude"]
('IOBES', ['PER', 'LOC'], ())
>>> given(args, "jsonl"), given(args, "tokens_column")
(False, 'tokens')
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from typing import Callable

from nerspan import InputOptions
from nerspan.options import MATCHING, OVERLAPS, PAIRINGS

from nerlens.families import family_package

from .common import UsageError, load_json

# The library calls the rows feed (``targets``).
READ = "read"                    # nerspan.read_columns: how a column file is read
SYSTEMS = "systems"              # nerspan.reading.systems.read_systems / add_systems / read_gold
SPANS = "spans"                  # span input (--jsonl)
FAIREVAL = "faireval"            # faireval.score
ATTRIBUTE_BUCKETS = "attribute_buckets"  # attribute_buckets.score
TYPES = "types"                  # the type options (nerspan.records.TypeOptions)
GENERATED = "generated"          # grounding --generated responses (read_systems)
TAG_FILES = "tag_files"          # nerspan.tagfiles.TagFile: the file tools' inputs
REPORT = "report"                # nerlens.report: the report's own options
STRINGS = "strings"              # nerspan.score of --generated output (matching, script, word_overlap)
KEEP = "keep"                    # faireval.score of --generated output (overlaps)
SWEEP = "sweep"                  # nerspan.sweep: scored predictions (nerlens sweep)


def comma_list(value: str | None) -> list | None:
    """``"A, B"`` -> ``["A", "B"]``; None stays None."""
    if value is None:
        return None
    return [item.strip() for item in value.split(",") if item.strip()]


def comma_list_or_none_left(value: str | None):
    """``comma_list``, an empty or absent list as ``()`` (nothing left out)."""
    return comma_list(value) or ()


def weight_table(value: str | None):
    """--weights: a preset name, a JSON weight table or a JSON file's."""
    faireval = family_package("faireval")   # imported by the commands that have --weights
    if value in faireval.HEADLINE_WEIGHTS:   # they chose the headline scores until 0.2
        raise UsageError(f"--weights {value}: {faireval.headline_weights_error(value)}")
    if value is None or value in faireval.WEIGHT_NAMES:
        return value
    text = value
    if os.path.exists(value):
        with open(value, encoding="utf-8") as handle:
            text = handle.read()
    try:
        return load_json(text, "--weights")
    except json.JSONDecodeError:
        raise UsageError(f"--weights must be a preset ({', '.join(faireval.WEIGHT_NAMES)}), "
                         f"a JSON weight table or a JSON file, not {value!r}") from None


def attribute_names(value: str | None) -> list | None:
    """--attributes: comma-separated names of ``attribute_buckets.ATTRIBUTES``."""
    known = family_package("attribute_buckets").ATTRIBUTES  # as --weights' family
    attributes = comma_list(value) if value else None
    unknown = [a for a in attributes or () if a not in known]
    if unknown:
        raise UsageError(f"unknown attribute(s) {', '.join(unknown)}; choose among "
                         f"{', '.join(known)}")
    return attributes


def bucket_count(value: int) -> int:
    """--n-buckets: at least 2."""
    if value < 2:
        raise UsageError("--n-buckets must be at least 2")
    return value


@dataclass(frozen=True)
class Flag:
    """One flag: argparse ``dest``, the library's ``option`` name, the ``targets`` that
    take it, ``parse`` (the flag's value -> the option's; None: as it is) and ``absent``
    (its value for a command without the flag, or given a value of another row).
    ``values``: the values of this row's meaning (empty: all); ``commands``: the
    commands they apply to (empty: every command with the flag), ``use`` what they mean
    and a command that takes them (``{gold}``, ``{pred}``, ``{generated}``, ``{train}``:
    the user's files, ``{value}``: the value)."""

    dest: str
    option: str | None = None
    targets: tuple = ()
    parse: Callable | None = None
    absent: object = None
    values: tuple = ()
    commands: tuple = ()
    use: str = ""

    def value(self, args):
        raw = getattr(args, self.dest, self.absent)   # the one place a flag may be missing
        return raw if self.parse is None else self.parse(raw)


FLAGS = (
    # reading column files
    Flag("comment_prefix", "comment_prefix", (READ, SYSTEMS, TAG_FILES)),
    Flag("encoding", "encoding", (READ, SYSTEMS, TAG_FILES)),
    Flag("missing_tag", "missing_tag", (READ, SYSTEMS)),
    Flag("gold_tag_column", "gold_tag_column", (SYSTEMS,)),
    Flag("pred_tag_column", "pred_tag_column", (SYSTEMS,)),
    Flag("token_column", "token_column", (SYSTEMS, TAG_FILES)),
    Flag("tag_column", "tag_column", (TAG_FILES,)),
    Flag("allow_token_mismatch", "allow_token_mismatch", (SYSTEMS,)),
    Flag("split", "split", (), absent=None),
    Flag("tokens_column", "tokens_column", (), absent="tokens"),
    Flag("tags_column", "tags_column", (), absent="ner_tags"),
    # decoding
    Flag("scheme", "scheme", (SYSTEMS, FAIREVAL, ATTRIBUTE_BUCKETS)),
    Flag("mode", "mode", (SYSTEMS, FAIREVAL, ATTRIBUTE_BUCKETS)),
    Flag("suffix", "suffix", (SYSTEMS,), absent=False),   # tags written PER-B
    # scores
    Flag("beta", "beta", (REPORT,), absent=1.0),
    Flag("confusion", absent=False),
    # span files (--jsonl)
    Flag("jsonl", "jsonl", absent=False),
    Flag("inclusive_end", "inclusive_end", (SPANS,)),
    Flag("snap", "snap", (SPANS,)),
    Flag("offsets", "offsets", (SPANS,)),
    # entity types (seqscore's process), on every input
    Flag("keep_types", "keep_types", (TYPES,)),
    Flag("remove_types", "remove_types", (TYPES,)),
    Flag("type_map", "type_map", (TYPES,)),
    # generated output (--generated FILE.jsonl)
    Flag("occurrences", "occurrences", (GENERATED,)),
    Flag("fuzzy", "fuzzy", (GENERATED,)),
    Flag("matching", "matching", (STRINGS,), absent="grounded", values=MATCHING[:1]),
    Flag("matching", "matching", (STRINGS,), absent="grounded", values=MATCHING[1:],
         commands=("score",), use="it scores generated output as sets of (text, type) "
         "strings, entity P/R/F1 only, which nerlens score gives: nerlens score {gold} "
         "--generated {generated} --matching strings"),
    Flag("script", "script", (STRINGS,), commands=("score",),
         use="it reproduces the UniversalNER script's string matching of generated "
         "output: nerlens score {gold} --generated {generated} --matching strings "
         "--script universalner"),
    Flag("word_overlap", "word_overlap", (STRINGS,), absent=False, commands=("score",),
         use="it counts word-overlap matches in the string matching of generated output: "
         "nerlens score {gold} --generated {generated} --matching strings --word-overlap"),
    Flag("overlaps", "overlaps", (KEEP,), absent="drop", values=OVERLAPS[:1]),
    Flag("overlaps", "overlaps", (KEEP,), absent="drop", values=OVERLAPS[1:],
         commands=("faireval",), use="it keeps nested and overlapping grounded spans, "
         "which only faireval scores (the other commands read tags): nerlens faireval "
         "{gold} --generated {generated} --overlaps keep"),
    # faireval
    Flag("weights", "weights", (FAIREVAL,), weight_table),
    Flag("focus", "focus", (FAIREVAL,)),
    Flag("labels", "labels", (FAIREVAL,), comma_list),
    Flag("exclude", "exclude", (FAIREVAL,), comma_list_or_none_left),
    Flag("confusion_tp", "confusion_tp", (FAIREVAL,)),
    Flag("reference_iteration", "reference_iteration", (FAIREVAL,)),
    Flag("schemas", "schemas", (FAIREVAL,), comma_list),
    Flag("min_overlap", "min_overlap", (FAIREVAL,)),
    Flag("pairing", "pairing", (FAIREVAL,), absent="greedy"),
    Flag("return_instances", "return_instances", (FAIREVAL,), absent=False),
    Flag("csv"),
    # attribute_buckets
    Flag("n_buckets", "n_buckets", (ATTRIBUTE_BUCKETS,), bucket_count),
    Flag("attributes", "attributes", (ATTRIBUTE_BUCKETS,), attribute_names),
    Flag("equal_width", "equal_width", (ATTRIBUTE_BUCKETS,)),
    Flag("case_sensitive", "case_sensitive", (ATTRIBUTE_BUCKETS,)),
    Flag("frequency_norm", "frequency_norm", (ATTRIBUTE_BUCKETS,)),
    Flag("compat", "compat", (ATTRIBUTE_BUCKETS,), values=("interpreteval",),
         commands=("buckets",), use="it reproduces InterpretEval's attribute buckets: "
         "nerlens buckets --train {train} {gold} {pred} --compat interpreteval"),
    Flag("bootstrap", "bootstrap", (ATTRIBUTE_BUCKETS,)),
    Flag("seed", "seed", (ATTRIBUTE_BUCKETS,)),
    Flag("confidence", "confidence", (ATTRIBUTE_BUCKETS,)),
    # gold you can audit: nerspan.audit.suspects's options, and the report's other golds
    Flag("min_systems"),
    Flag("listed"),
    Flag("evidence"),
    Flag("gold_alt"),
    # what the commands read for themselves (no library option)
    Flag("debug", absent=False),
    Flag("run"),
    Flag("gold"),
    Flag("predictions"),
    Flag("train"),
    Flag("generated"),
    Flag("demo", absent=False),
    Flag("families"),
    Flag("choose_on"),   # the dev split's two files, read into the sweep nerspan.sweep takes
    Flag("per_type", "per_type", (SWEEP,), absent=False),
    Flag("gold_option"),
    Flag("dataset_option"),
    Flag("declared"),
    Flag("manifest"),
)

_BY_DEST = {}
for _flag in FLAGS:   # a flag of several rows (one per meaning) is read as its first's
    _BY_DEST.setdefault(_flag.dest, _flag)


def from_args(args, target: str, **fixed) -> dict:
    """The options of the library call ``target`` from the parsed ``args`` (the flags
    the command defines), plus ``fixed`` (options no flag gives). A row with ``values``
    takes the flag's value when it is one of them, else gives its ``absent``."""
    out = {}
    for flag in FLAGS:
        if target in flag.targets and hasattr(args, flag.dest):
            value = flag.value(args)
            if flag.values and value not in flag.values:
                out.setdefault(flag.option, flag.absent)
            else:
                out[flag.option] = value
    out.update(fixed)
    return out


# flag values of 0.1 whose meaning has a flag of its own since 0.2
MOVED_VALUES = {**{("matching", value): f"--pairing {value}" for value in PAIRINGS},
                ("compat", "universalner"): "--script universalner"}


def check_values(args, command: str) -> None:
    """Refuse a flag's value that does not apply to ``command`` (its row's ``commands``):
    one error naming the flag, the value and the command, what the value means and a
    command that takes it; a value of 0.1 that moved to another flag names that."""
    for (dest, value), new in MOVED_VALUES.items():
        if getattr(args, dest, None) == value:
            raise UsageError(f"--{dest.replace('_', '-')} {value} is {new} since nerlens 0.2")
    for flag in FLAGS:
        if not flag.commands or command in flag.commands or not hasattr(args, flag.dest):
            continue
        value = getattr(args, flag.dest)
        if value is None or value is False or (flag.values and value not in flag.values):
            continue   # not given (argparse's default), or another row's value
        generated = given(args, "generated")
        preds = " ".join(map(str, given(args, "predictions") or []))
        files = dict(gold=given(args, "gold") or "GOLD", train=given(args, "train") or "TRAIN",
                     generated=generated[0] if generated else "FILE.jsonl",
                     pred=preds or (f"--generated {generated[0]}" if generated else "PRED"))
        shown = "" if value is True else f" {value}"
        raise UsageError(f"--{flag.dest.replace('_', '-')}{shown} does not apply to nerlens "
                         f"{command}: {flag.use.format(value=value, **files)}")


def type_processing(args):
    """The ``nerspan.type_processing.TypeProcessing`` of the type flags (None: none)."""
    return inputs_of(args).types.processing


def inputs_of(args, **fixed) -> InputOptions:
    """The input options (``nerspan.InputOptions``) of the flags the command has: every
    row whose option is one of the record's, at the value given (a row of several
    meanings: the value of its meaning), plus ``fixed``."""
    names, given_options = set(InputOptions.all_names()), {}
    for flag in FLAGS:
        if flag.option in names and hasattr(args, flag.dest):
            value = flag.value(args)
            if not flag.values or value in flag.values:
                given_options.setdefault(flag.option, value)
    given_options.update(fixed)
    if given_options.get("keep_types") and given_options.get("remove_types"):
        raise UsageError("--keep-types and --remove-types were both given: give one "
                         "(keeping some types removes all the others)")
    return InputOptions.of({k: v for k, v in given_options.items() if v is not None})


def given(args, dest: str):
    """The value of the flag ``dest`` (parsed by its row), or its ``absent`` value when
    the command has no such flag."""
    try:
        flag = _BY_DEST[dest]
    except KeyError:
        raise KeyError(f"no row for the flag {dest!r} in nerlens.cli.options.FLAGS") from None
    return flag.value(args)
