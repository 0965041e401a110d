"""The gold audit on the command line: ``diff``, ``agreement`` and ``suspects`` (``nerlens
--help`` says what each does), the work and the text views ``nerspan.audit``'s; ``COMMANDS``:
each one's flags and run."""
from __future__ import annotations

from functools import partial

from nerspan import GOLD, Evaluation
from nerspan.audit import (SuspectOptions, agreement, agreement_parts, diff, diff_parts,
                           suspects, suspects_parts)
from nerspan.reading import answers as library
from nerspan.reading.systems import named_files, read_systems, sentence_documents

from nerlens.report.blocks import parts_text

from .common import UsageError, prediction_paths, show_result
from .flags import add_flags, record_of
from .inputs import (Inputs, TwoAnnotations, add_input_arguments, add_train_arguments,
                     load_training, note_generated, system_options)
from .options import inputs_of


def add_suspects_arguments(parser) -> None:
    add_input_arguments(parser)
    add_flags(parser, Inputs, ("scored",), notes={"scored": "its vote weighs its confidence, "
                                                  "so confident disagreements with gold "
                                                  "rank first"})
    add_train_arguments(parser, required=False,
                        note="(its labels of the same texts are evidence too)")
    add_flags(parser, SuspectOptions)


def run_suspects(args) -> int:
    options = record_of(args, SuspectOptions)   # a value refused before any reading
    corpus, systems = library.read_scored_systems(
        args.gold, prediction_paths(args), args.scored, generated=args.generated or [],
        **system_options(args))
    note_generated(corpus)
    scored = library.scored_mentions(
        corpus, named_files(args.scored or [], taken=systems), gold_name=args.gold,
        inputs=inputs_of(args), needed_by="nerlens suspects",
        tag_file="score its tags (nerlens suspects {gold} {path})")
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
                     **options.to_dict())
    return show_result(args, found.to_dict(),
                       lambda result: parts_text(suspects_parts(result, corpus.sentence_tokens)))


def run_two(args, compare, render) -> int:
    """GOLD_A and GOLD_B (or GOLD_A holding both) compared (``diff`` or ``agreement``, which
    refuse generated output and a third column) and printed: JSON, or ``render``'s text."""
    corpus, columns = read_systems(args.gold, prediction_paths(args) or None,
                                   generated=args.generated or [], **system_options(args))
    second = prediction_paths(args) or [f"{args.gold} (last column)"]
    return show_result(args, compare(corpus, columns=(GOLD, *columns), names=(
        str(args.gold), *second), scheme=args.scheme, mode=args.mode).to_dict(), render)


# diff's and agreement's arguments: GOLD_A [GOLD_B] and the reading flags
add_two_arguments = partial(add_input_arguments, files=TwoAnnotations)
# each command's name -> (its add_arguments(parser), its run(args))
COMMANDS = {"diff": (add_two_arguments, lambda args: run_two(
                args, diff, lambda result: parts_text(diff_parts(result)))),
            "agreement": (add_two_arguments, lambda args: run_two(
                args, agreement, lambda result: parts_text(agreement_parts(result)))),
            "suspects": (add_suspects_arguments, run_suspects)}
