"""The gold audit on the command line (``nerspan.audit``): ``diff GOLD_A GOLD_B`` (the tags
that differ and every mention by kind of change), ``agreement A B`` (mention F1 and Cohen's
kappa, overall and per type: its own command, as the API has them apart) and ``suspects
GOLD PRED... [--train FILE]`` (the gold mentions, and the mentions gold lacks, that look
wrong, ranked with their evidence). Their text views are the library's (``*_parts``).
``COMMANDS``: each one's flags and run."""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from nerspan import Evaluation
from nerspan.audit import (EVIDENCE, agreement, agreement_parts, diff, diff_parts, suspects,
                           suspects_parts)
from nerspan.reading.systems import sentence_documents
from nerspan.records import Record, option

from nerlens.report.blocks import parts_text

from .common import UsageError, show_result
from .flags import add_flags, at_least_one, flag_values, whole_number
from .inputs import (TwoAnnotations, add_input_arguments, add_train_arguments, load_training,
                     run_two)
from .options import inputs_of
from .scored_files import add_scored_argument, load_with_scored


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


def add_suspects_arguments(parser) -> None:
    add_input_arguments(parser)
    add_scored_argument(parser, "its vote weighs its confidence, so confident "
                        "disagreements with gold rank first")
    add_train_arguments(parser, required=False,
                        note="(its labels of the same texts are evidence too)")
    add_flags(parser, Flags)


def run_suspects(args) -> int:
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
                     documents=sentence_documents(args.gold, corpus, inputs_of(args)),
                     confidences={name: m.confidence for name, m in scored.items()},
                     **flag_values(args, Flags))
    return show_result(args, found.to_dict(),
                       lambda result: parts_text(suspects_parts(result, corpus.sentence_tokens)))


# diff's and agreement's arguments: GOLD_A [GOLD_B] and the reading flags
add_two_arguments = partial(add_input_arguments, files=TwoAnnotations)
# each command's name -> (its add_arguments(parser), its run(args))
COMMANDS = {"diff": (add_two_arguments, lambda args: run_two(
                args, diff, lambda result: parts_text(diff_parts(result)))),
            "agreement": (add_two_arguments, lambda args: run_two(
                args, agreement, lambda result: parts_text(agreement_parts(result)))),
            "suspects": (add_suspects_arguments, run_suspects)}
