"""What ``nerlens diff``, ``agreement`` and ``suspects`` read: GOLD [PRED ...] as every
command reads it (``inputs.load_systems``: column files, a saved split, --jsonl span
files), generated output refused as a gold side, and the sentences' documents of a
column file."""
from __future__ import annotations

from pathlib import Path

from nerspan import GOLD, Corpus
from nerspan.tagfiles import TagFile

from .common import UsageError, print_json
from .inputs import add_input_arguments, load_systems
from .options import given

GENERATED_REFUSED = ("--generated: nerlens {command} compares annotations of the same "
                     "tokens; generated output (entity strings without offsets) is a "
                     "model's answer, never a gold side: score it with nerlens score "
                     "{gold} --generated FILE.jsonl")


def refuse_generated(args) -> None:
    """--generated is no annotation to compare: one error saying what to do instead."""
    if given(args, "generated"):
        raise UsageError(GENERATED_REFUSED.format(command=args.command,
                                                  gold=args.gold or "GOLD"))


def load_two(args) -> tuple[Corpus, tuple, tuple]:
    """GOLD_A and GOLD_B (or GOLD_A alone holding both: second-to-last and last column)
    as one corpus: ``(corpus, its two columns, the names of A and B)`` (the files as
    given)."""
    refuse_generated(args)
    corpus, columns = load_systems(args)
    if len(columns) != 1:
        raise UsageError(f"nerlens {args.command} compares two annotations: give GOLD_A and "
                         f"GOLD_B (or one file holding both), got {len(columns)} besides "
                         "GOLD_A")
    second = args.predictions if isinstance(args.predictions, str) else (
        args.predictions[0] if args.predictions else f"{args.gold} (last column)")
    return corpus, (GOLD, columns[0]), (str(args.gold), str(second))


def sentence_documents(args, corpus: Corpus):
    """The document of every sentence of a GOLD column file with ``-DOCSTART-`` rows
    (``TagFile.sentence_documents``); None for span files, saved splits, and a file of
    one document (its evidence would repeat gold's)."""
    if given(args, "jsonl") or Path(args.gold).is_dir() \
            or corpus.source.sentence_lines is None:
        return None
    documents = TagFile(args.gold, encoding=args.encoding).sentence_documents(corpus)
    return documents if len(documents) and documents.max() > documents.min() else None


def add_two_arguments(parser) -> None:
    """GOLD_A GOLD_B and the flags every command reads its input with."""
    add_input_arguments(parser, multiple_predictions=False)
    shown = {"gold": ("GOLD_A", "the first annotation (a column file, token first, tag last; "
                                "a saved datasets split; a --jsonl span file)"),
             "predictions": ("GOLD_B", "the second annotation of the same tokens; omitted: "
                                       "GOLD_A holds both (second-to-last and last column)")}
    for action in parser._actions:   # the positionals of add_input_arguments, renamed
        if action.dest in shown:
            action.metavar, action.help = shown[action.dest]


def run_two(args, compare, render) -> int:
    """Read GOLD_A and GOLD_B, compare them (``nerspan.audit.diff`` or ``agreement``,
    with --scheme and --mode) and print the result: JSON, or ``render``'s text."""
    corpus, columns, names = load_two(args)
    result = compare(corpus, columns=columns, names=names, scheme=args.scheme,
                     mode=args.mode).to_dict()
    if args.format == "json":
        print_json(result)
    else:
        print(render(result))
    return 0
