"""The flags of every input of the command line (GOLD [PRED ...], --generated, --train,
--gold-alt, the two annotations of ``diff`` / ``agreement``), and the calls of
``nerspan.reading`` with them: the one reader, which alone decides what form a file is."""
from __future__ import annotations

import argparse
from dataclasses import dataclass

from nerspan import GOLD, Corpus, InputOptions, TrainIndex
from nerspan.reading import systems as library
from nerspan.reading.forms import finished
from nerspan.reading.training import read_training_index
from nerspan.records import (FileOptions, GeneratedOptions, Record, ScoringOptions,
                             TypeOptions, option)

from .common import UsageError, note, prediction_paths
from .flags import Shared, add_flags
from .options import given, inputs_of

# the FileOptions flags of every command that reads GOLD, of --train, of --jsonl
READING = ("token_column", "gold_tag_column", "pred_tag_column", "comment_prefix", "encoding",
           "missing_tag", "allow_token_mismatch", "split", "tokens_column", "tags_column")
TRAINING = ("train_tag_column", "train_token_column")
SPAN_FILES = ("jsonl",) + library.SPAN_OPTIONS
# after what reading generated output did: how its entities found nowhere are counted
UNGROUNDED = ("an entity not found in its sentence is a wrong prediction in every precision "
              "(hardeval's token error rates have no token for it: it is counted beside them)")


class Declare(argparse.Action):
    """Keeps an experiment's --data, --pred and --gold-alt in the order given (a --pred or
    a --gold-alt belongs to the last --data): ``(flag, values)`` in ``declared``, the
    entries of a ``Declaration``; the values in the flag's own list too."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), values])
        namespace.declared = [*(getattr(namespace, "declared", None) or []),
                              (self.dest, values if isinstance(values, list) else [values])]


def name_and_file(text: str) -> tuple:
    """--gold-alt's NAME=FILE as ``(name, file)``."""
    name, equals, path = (part.strip() for part in text.partition("="))
    if not equals or not name or not path:
        raise ValueError(f"expected NAME=FILE (e.g. conllpp=conllpp_test.txt), not {text!r}")
    return name, path


@dataclass(frozen=True)
class Inputs(Record):
    """The files the command line reads, as flags (the library takes what they hold)."""

    gold: str | None = option(None, "gold column file (token first), or a saved datasets "
                              "split or DatasetDict (see --split)", flag="gold", nargs="?")
    predictions: list | None = option(
        None, "prediction file(s), token first and tag last; omitted: GOLD holds both gold "
        "and prediction columns (second-to-last and last)", flag="predictions", nargs="*")
    generated: list | None = option(
        None, "a JSON Lines file of an LLM's responses, one object per sentence with "
        "\"response\" (and \"tokens\"/\"text\", \"sentence\"): scored as a system (repeat "
        "for several)", action="append", metavar="FILE.jsonl")
    gold_alt: list | None = option(
        None, "another version of the gold (token first, tag last; repeatable): every "
        "system is scored under it too, with the flips of the ranking and the suspect gold "
        "mentions; in an experiment, a version of the last --data before it (or "
        "DATASET:NAME=FILE: of dataset DATASET)", parse=name_and_file, action=Declare,
        metavar="NAME=FILE")
    scored: list | None = option(
        None, "a system with a confidence per mention: a JSON Lines span file, one line per "
        "sentence of GOLD, each span with a \"score\"; or generated output, one \"response\" "
        "per sentence of GOLD, each entity with a \"score\" (named after its file; "
        "repeatable);", action="append", metavar="FILE.jsonl")


def add_input_arguments(parser, files=Inputs) -> None:
    """GOLD [PRED ...] (``files``' positionals), --scheme, --mode, --format and how every
    input is read: the same flags in every command (column files, the types, span files,
    --generated and how it is read, --compat)."""
    add_flags(parser, files, ("gold", "predictions"))
    add_flags(parser, ScoringOptions, ("scheme", "mode"))
    add_flags(parser, Shared, ("format",))
    add_flags(parser, FileOptions, READING)
    add_flags(parser, InputOptions, ("layers",))
    add_flags(parser, TypeOptions)
    add_flags(parser, InputOptions, ("suffix",) + SPAN_FILES)
    add_flags(parser, Inputs, ("generated",))
    add_flags(parser, GeneratedOptions)
    add_flags(parser, Shared, ("compat",))


def add_train_arguments(parser, required: bool = True, note: str | None = None):
    """--train FILE and its columns, for the methods that index the training set."""
    add_flags(parser, Shared, ("train",), required=("train",) if required else (),
              notes={"train": note})
    add_flags(parser, FileOptions, TRAINING)


@dataclass(frozen=True)
class TwoAnnotations(Record):
    """GOLD_A [GOLD_B] of ``diff`` and ``agreement``: read as GOLD and one PRED."""

    gold: str | None = option(None, "the first annotation (a column file, token first, tag "
                              "last; a saved datasets split; a --jsonl span file)",
                              flag="gold", nargs="?", metavar="GOLD_A")
    predictions: str | None = option(None, "the second annotation of the same tokens; "
                                     "omitted: GOLD_A holds both (second-to-last and last "
                                     "column)", flag="predictions", nargs="?", metavar="GOLD_B")


# -- reading, by ``nerspan.reading`` ----------------------------------------------------------
def system_options(args, outside_scheme_is_error: bool = False) -> dict:
    """The keywords of ``nerspan.reading``'s readers of the flags."""
    return dict(scheme=args.scheme, mode=args.mode, inputs=inputs_of(args),
                outside_scheme_is_error=outside_scheme_is_error, on_repairs=report_repairs)


def report_repairs(corpus: Corpus) -> None:
    """A note on stderr for the rows --missing-tag filled in."""
    text = library.repaired_lines_text(corpus, "--missing-tag")
    if text:
        note(f"{corpus.source.path}: {text}")


def load_systems(args, outside_scheme_is_error: bool = False,
                 keep_tokens: bool = True) -> tuple[Corpus, list[str]]:
    """GOLD [PRED ...] and --generated as one corpus (``read_systems``); ``keep_tokens=
    False``: no tokens, for commands not showing them."""
    corpus, systems = library.read_systems(
        args.gold, prediction_paths(args) or None, generated=args.generated or [],
        keep_tokens=keep_tokens, **system_options(args, outside_scheme_is_error))
    note_generated(corpus)
    return corpus, systems


def note_generated(corpus: Corpus) -> None:
    """A note on stderr of what each generated output grounded in ``corpus`` held."""
    for name, record in corpus.source.generated.items():
        note(f"{name}: {record.summary()}; {UNGROUNDED}")


def read_gold(args, path: str) -> Corpus:
    """The GOLD file alone, its tags checked and finished (its types are checked beside
    the predictions)."""
    options = system_options(args)
    corpus = library.read_gold(path, **options)
    return finished(corpus, [GOLD], options["inputs"], args.scheme, args.mode, check=False)


def refuse_files_with_demo(args) -> None:
    """``--demo`` scores the embedded demo: files given with it would be ignored."""
    files = [usage for name, usage in (("gold", "GOLD"), ("predictions", "PRED"),
                                       ("generated", "--generated"), ("train", "--train"),
                                       ("scored", "--scored"), ("gold_alt", "--gold-alt"))
             if given(args, name)]
    if files:
        raise UsageError(f"--demo scores the embedded demo; {', '.join(files)} would be "
                         "ignored: give either --demo or files")


def load_training(args, path: str | None = None, why: str = "the training set") -> TrainIndex:
    """The training index of ``path`` (default --train); neither given, an error saying
    ``why`` it is needed."""
    if not (path or given(args, "train")):
        raise UsageError(f"give --train FILE ({why})")
    return read_training_index(path or args.train, **system_options(args))
