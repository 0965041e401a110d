"""``nerlens score``: entity-level P/R/F1 as conlleval.pl prints it; with --threshold, the
scored predictions kept at it, and with --matching strings, generated output matched as
strings: each of those files scored alone by ``nerspan.score``, as the API scores it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import nerspan
from nerspan import InputOptions
from nerspan.flat import GOLD
from nerspan.counts import error_counts
from nerspan.conlleval import conlleval_text, strings_text
from nerspan.layers import refuse_layers
from nerspan.reading.answers import read_generated_files, read_scored_files
from nerspan.reading.systems import file_form
from nerspan.records import Record, switch
from nerspan.spans import reading_notes, types_note

from nerlens.demo import demo_gold, demo_scored, demo_systems
from nerlens.engines import score_corpus

from .common import (UsageError, note, prediction_paths, print_confusion, print_notes,
                     print_results)
from .flags import THRESHOLD_FILES, Shared, add_flags, confidence
from .inputs import add_input_arguments, load_systems, refuse_files_with_demo, system_options
from .options import SCORE_STRINGS, SCORE_THRESHOLD, place_of


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    demo: bool = switch(False, "score the embedded WNUT-17 demo (spaCy's output)")
    error_counts: bool = switch(False, "also the false positives and negatives by type and "
                                "text (seqscore's error-count table; JSON: error_counts)")


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    add_flags(parser, Flags)
    add_flags(parser, Shared, ("beta", "confusion", "workers"))
    add_flags(parser, InputOptions, ("threshold",), notes={"threshold": THRESHOLD_FILES},
              parse={"threshold": confidence})


def score_alone(args, strings: bool) -> dict:
    """Name -> the result dict (--beta) of each PRED and --generated file scored alone
    by ``nerspan.score``, as the API scores it (read by ``read_scored_files``, or with
    --matching strings ``read_generated_files``); a note of what each generated file
    held and of what the type flags did."""
    preds, generated = prediction_paths(args), args.generated or []
    if strings and (not args.gold or not generated or preds):
        raise UsageError("--matching strings scores generated output: give it with --generated "
                         f"FILE.jsonl, without PRED files (nerlens score {args.gold or 'GOLD'} "
                         "--generated FILE.jsonl --matching strings)")
    if not args.gold or not (preds or generated):
        raise UsageError("--threshold reads scored predictions: give GOLD and PRED span files "
                         "whose spans carry a \"score\" (nerlens score GOLD PRED.jsonl "
                         "--threshold 0.5), or --generated files whose entities carry one "
                         "(nerlens score GOLD --generated FILE.jsonl --threshold 0.5)")
    if strings:
        files = read_generated_files(args.gold, generated, **system_options(args))
    else:
        files = read_scored_files(args.gold, preds + generated, **system_options(args, True))
    results = {}
    for one in files:
        results[one.name] = result = one.call(nerspan.score).to_dict(beta=args.beta)
        generated_output = result["repairs"]["pred"].get("generative")
        if generated_output:
            note(f"{one.name}: {generated_output['summary']}")
        print_notes(types_note(one.name if column == "pred" else column, repairs,
                               "string" if strings else "mention")
                    for column, repairs in result["repairs"].items())
    return results


def refuse_generated_as_pred(args) -> None:
    """A PRED file of generated output, which tags and spans would read as a column file,
    failing at its first line's "tag": a usage error naming --generated, which reads it
    (scored predictions and span files, --jsonl: their reader tells the forms apart)."""
    for path in [] if args.jsonl else prediction_paths(args):
        if Path(path).is_file() and file_form(path, args.encoding) == "generated":
            raise UsageError(f"{path} holds generated output (a \"response\" per line), not "
                             f"tags: give it with --generated (nerlens score "
                             f"{args.gold or 'GOLD'} --generated {path})")


def add_error_counts(results: dict, corpus, systems: list, args) -> None:
    """Each system's ``error_counts`` (``nerspan.counts.error_counts``): its mentions
    read as the scores read them (lenient: conlleval's repair; strict: ``discard``)."""
    if corpus.tokens is None:
        raise UsageError("--error-counts needs the tokens: GOLD has no token column")
    refuse_layers(corpus, what="--error-counts (seqscore's table pairs one gold column)")
    repair = "conlleval" if args.mode == "lenient" else "discard"
    for name in systems:
        results[name]["error_counts"] = error_counts(corpus.paired(GOLD, name), None,
                                                     args.scheme, repair=repair)


def run(args) -> int:
    place = place_of(args)   # its flags were checked to apply (``options.refuse_unread``)
    if args.demo:
        refuse_files_with_demo(args)  # before the demo's files take their place
        if place == SCORE_THRESHOLD:   # the demo's scored mentions
            args.gold = str(demo_gold())
            args.predictions = [str(path) for path in demo_scored().values()]
        else:
            args.gold, args.predictions = str(next(iter(demo_systems().values()))), []
    if place != "nerlens score":   # each file scored alone
        strings = place == SCORE_STRINGS
        print_results(score_alone(args, strings), strings_text if strings else
                      conlleval_text, args.format == "json")
        return 0
    refuse_generated_as_pred(args)
    # no token is shown but in the error counts
    corpus, systems = load_systems(args, keep_tokens=args.error_counts)
    results = score_corpus(corpus, systems, args.scheme, args.mode, beta=args.beta,
                           confusion=args.confusion, workers=args.workers)
    if args.error_counts:
        add_error_counts(results, corpus, systems, args)
    print_results(results, conlleval_text, args.format == "json")
    if args.format == "json":
        return 0
    for name, result in results.items():
        for column, repairs in result.get("repairs", {}).items():
            print_notes(reading_notes(corpus, GOLD if column == "gold" else name, column,
                                      repairs, args.scheme))
    print_confusion(results)
    return 0
