"""``nerlens suspects GOLD PRED... [--train FILE]``: the gold mentions (and the mentions
gold lacks) that look wrong, ranked with their evidence (``nerspan.audit.suspects``)."""
from __future__ import annotations

import argparse

from nerspan import Evaluation
from nerspan.audit import EVIDENCE, evidence_text, suspects
from nerspan.errors import counted

from .audit_inputs import sentence_documents
from .common import UsageError, non_negative_int, print_json
from .inputs import add_input_arguments, add_train_arguments, load_systems, load_training
from .options import comma_list

CONTEXT = 6   # words shown on each side of a suspect in the text view


def evidence_list(text: str) -> tuple:
    """--evidence: comma-separated parts of ``EVIDENCE``."""
    parts = tuple(comma_list(text) or ())
    unknown = [part for part in parts if part not in EVIDENCE]
    if unknown or not parts:
        raise UsageError(f"--evidence: parts among {', '.join(EVIDENCE)}, comma-separated; "
                         f"got {text!r}")
    return parts


def positive_int(text: str) -> int:
    """argparse type of --min-systems: a whole number >= 1."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more, not 0")
    return value


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    add_train_arguments(parser, required=False,
                        help_text="training column file: its labels of the same texts are "
                                  "evidence too")
    parser.add_argument("--min-systems", type=positive_int, default=2, metavar="N",
                        help="systems that must predict a span gold lacks for it to be a "
                             "candidate (default 2; at most the number of systems)")
    parser.add_argument("--listed", type=non_negative_int, default=100, metavar="N",
                        help="suspects listed (default 100; those with a score above 0)")
    parser.add_argument("--evidence", default=",".join(EVIDENCE), metavar="PART,...",
                        help="the parts of the evidence the score sums: "
                             f"{', '.join(EVIDENCE)} (default: all)")


def in_sentence(words: list, start: int, end: int, context: int = CONTEXT) -> str:
    """The suspect's words in brackets, with ``context`` words on each side.

    >>> in_sentence("a b c d e f g h".split(), 3, 5, 2)
    '... b c [d e] f g ...'
    """
    low, high = max(0, start - context), min(len(words), end + context)
    return " ".join((["..."] if low else []) + words[low:start] + ["[" + " ".join(
        words[start:end]) + "]"] + words[end:high] + (["..."] if high < len(words) else []))


def suspects_text(result: dict, corpus) -> str:
    """The ranked suspects, each in its sentence with its evidence."""
    listed = len(result["suspects"])
    lines = [f"{counted(result['candidates'], 'candidate')} ({result['gold_mentions']} gold "
             f"mentions, {result['missing_mentions']} missing ones that systems predict), "
             f"{result['scored']} with evidence" + (f"; the first {listed}:" if listed else ".")]
    for row in result["suspects"]:
        words = corpus.sentence_tokens(row["sentence"])
        lines.append(f"{row['rank']:4d}. {row['score']:.2f} {row['kind']:7s} {row['type']:6s} "
                     f"sentence {row['sentence']}: "
                     f"{in_sentence(words, row['start'], row['end'])}")
        lines.append(f"      {evidence_text(row)}")
    return "\n".join(lines)


def run(args) -> int:
    evidence = evidence_list(args.evidence)
    corpus, systems = load_systems(args)
    if corpus.tokens is None:
        raise UsageError(f"{args.gold}: no token column (the suspects are shown in their "
                         "sentences)")
    train = load_training(args) if args.train else None
    context = Evaluation(corpus, args.scheme, args.mode, train)
    found = suspects(context.gold, {name: context.spans(name) for name in systems},
                     corpus=corpus, train=train, documents=sentence_documents(args, corpus),
                     min_systems=args.min_systems, listed=args.listed, evidence=evidence)
    result = found.to_dict()
    if args.format == "json":
        print_json(result)
    else:
        print(suspects_text(result, corpus))
    return 0
