"""``nerlens score``: entity-level P/R/F1 as conlleval.pl prints it."""
from __future__ import annotations

from dataclasses import dataclass

import nerspan
from nerspan import InputOptions
from nerspan.flat import GOLD
from nerspan.counts import error_counts
from nerspan.conlleval import conlleval_text, strings_text
from nerspan.layers import refuse_layers
from nerspan.records import GeneratedOptions, Record, switch
from nerspan.spans import reading_notes, types_note

from nerlens.demo import demo_gold, demo_scored, demo_systems
from nerlens.engines import score_corpus

from .common import UsageError, note, print_confusion, print_notes, print_results
from .flags import THRESHOLD_FILES, Shared, add_flags, record_of
from .inputs import add_input_arguments, load_systems, refuse_files_with_demo, score_generated
from .options import given
from .scored_files import confidence, scores_at_threshold


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


def score_strings(args) -> dict:
    """--generated output scored as strings (``--matching strings``): per file, the
    ``nerspan.score`` result dict of its responses against the gold sentences it answers
    (the type flags process gold's strings and the predicted ones alike)."""
    if not given(args, "generated") or given(args, "predictions"):
        raise UsageError("--matching strings scores generated output: give it with "
                         "--generated FILE.jsonl, without PRED files (nerlens score "
                         f"{args.gold or 'GOLD'} --generated FILE.jsonl --matching strings)")
    # this command's own flags; nerspan.score refuses, naming its flag, each of its
    # options that string matching does not read
    refused = [flag for flag, is_given in (("--demo", args.demo), ("--error-counts",
               args.error_counts), ("--confusion", args.confusion)) if is_given]
    if refused:
        raise UsageError(f"--matching strings compares sets of (text, type) strings of "
                         f"--generated output, not spans: {', '.join(refused)} do"
                         f"{'es' if len(refused) == 1 else ''} not apply to it")
    return score_generated(args, nerspan.score)


def run_strings(args) -> int:
    results = score_strings(args)
    for name, result in results.items():
        print_notes(types_note(column, repairs, "string", f"{name}: ")
                    for column, repairs in result["repairs"].items())
    print_results(results, strings_text, args.format == "json")
    return 0


def run_threshold(args) -> int:
    """--threshold: the scored predictions kept at it, scored (``scored_files``)."""
    demo = None
    if args.demo:
        refuse_files_with_demo(args)
        demo = (str(demo_gold()), [str(path) for path in demo_scored().values()])
    results = scores_at_threshold(args, demo)
    for name, result in results.items():
        generated = result["repairs"]["pred"].get("generative")
        if generated:
            note(f"{name}: {generated['summary']}")
        print_notes(types_note(name if column == "pred" else column, repairs)
                    for column, repairs in result["repairs"].items())
    print_results(results, conlleval_text, args.format == "json")
    return 0


def run(args) -> int:
    strings = record_of(args, GeneratedOptions)
    if args.threshold is not None:
        return run_threshold(args)
    if strings.matching == "strings":
        return run_strings(args)
    if strings.script is not None or strings.word_overlap:
        # as nerspan.score refuses them: they are string matching's
        raise UsageError(f"{'--script universalner' if strings.script else '--word-overlap'} "
                         "applies to --matching strings: add --matching strings")
    if args.demo:
        refuse_files_with_demo(args)  # before the demo's files take their place
        args.gold = str(next(iter(demo_systems().values())))
        args.predictions = []
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
