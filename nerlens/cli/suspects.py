"""``nerlens suspects GOLD PRED... [--train FILE]``: the gold mentions (and the mentions
gold lacks) that look wrong, ranked with their evidence (``nerspan.audit.suspects``)."""
from __future__ import annotations

from dataclasses import dataclass

from nerspan import Evaluation
from nerspan.audit import EVIDENCE, evidence_text, suspects
from nerspan.errors import counted
from nerspan.records import Record, option

from .common import UsageError, print_json
from .flags import add_flags, at_least_one, whole_number
from .inputs import add_input_arguments, add_train_arguments, load_training, sentence_documents
from .scored_files import add_scored_argument, load_with_scored

CONTEXT = 6   # words shown on each side of a suspect in the text view


def evidence_list(text: str) -> tuple:
    """--evidence: comma-separated parts of ``EVIDENCE``."""
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in parts if part not in EVIDENCE]
    if unknown or not parts:
        raise UsageError(f"--evidence: parts among {', '.join(EVIDENCE)}, comma-separated; "
                         f"got {text!r}")
    return parts


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags: ``nerspan.audit.suspects``' options."""

    min_systems: int = option(2, "systems that must predict a span gold lacks for it to be a "
                              "candidate (default 2; at most the number of systems)",
                              parse=at_least_one, metavar="N")
    listed: int = option(100, "suspects listed (default 100; those with a score above 0)",
                         parse=whole_number, metavar="N")
    evidence: str = option(",".join(EVIDENCE), "the parts of the evidence the score sums: "
                           f"{', '.join(EVIDENCE)} (default: all)", metavar="PART,...")


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    add_scored_argument(parser, "its vote weighs its confidence, so confident "
                        "disagreements with gold rank first")
    add_train_arguments(parser, required=False,
                        note="(its labels of the same texts are evidence too)")
    add_flags(parser, Flags)


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
    corpus, systems, scored = load_with_scored(args)
    if corpus.tokens is None:
        raise UsageError(f"{args.gold}: no token column (the suspects are shown in their "
                         "sentences)")
    train = load_training(args) if args.train else None
    context = Evaluation(corpus, args.scheme, args.mode, train)
    spans = {name: context.spans(name) for name in systems}
    # a scored system: its every mention, each vote weighing the mention's confidence
    spans.update({name: mentions.flat_spans(corpus.offsets) for name, mentions in scored.items()})
    found = suspects(context.gold, spans, corpus=corpus, train=train,
                     documents=sentence_documents(args, corpus),
                     confidences={name: m.confidence for name, m in scored.items()},
                     min_systems=args.min_systems, listed=args.listed, evidence=evidence)
    result = found.to_dict()
    if args.format == "json":
        print_json(result)
    else:
        print(suspects_text(result, corpus))
    return 0
