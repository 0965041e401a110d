"""``nerlens score``: entity-level P/R/F1 as conlleval.pl prints it; with --threshold, the
scored predictions kept at it, and with --matching strings, generated output matched as
strings: each of those files scored alone by ``nerspan.score``, as the API scores it."""
from __future__ import annotations

from dataclasses import dataclass

from nerspan import InputOptions
from nerspan.conlleval import conlleval_text, strings_text
from nerspan.records import Record, ScoringOptions, switch
from nerspan.spans import reading_notes, types_note

from nerlens.demo import demo_gold, demo_scored, demo_systems
from nerlens.engines import score_corpus, score_files

from .common import (UsageError, note, prediction_paths, print_confusion, print_notes,
                     print_results)
from .flags import THRESHOLD_FILES, Shared, add_flags
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
    add_flags(parser, ScoringOptions, ("beta", "confusion"))
    add_flags(parser, Shared, ("workers",))
    add_flags(parser, InputOptions, ("threshold",), notes={"threshold": THRESHOLD_FILES})


def score_alone(args, strings: bool) -> dict:
    """Name -> the result dict (--beta) of each PRED and --generated file scored alone
    (``nerlens.engines.score_files``), --matching strings: the --generated files; a note
    of what each generated file held and of what the type flags did."""
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
    results = score_files(args.gold, preds + generated, strings=strings, beta=args.beta,
                          **system_options(args, not strings))
    for name, result in results.items():
        if "generative" in result["repairs"]["pred"]:
            note(f"{name}: {result['repairs']['pred']['generative']['summary']}")
        print_notes(types_note(name if column == "pred" else column, repairs,
                               "string" if strings else "mention")
                    for column, repairs in result["repairs"].items())
    return results


def run(args) -> int:
    place = place_of(args)   # its flags were checked to apply (``options.refuse_unread``)
    if args.demo:
        refuse_files_with_demo(args)  # before the demo's files take their place
        # its gold and spaCy's output, or with --threshold the CRF's scored mentions
        files = demo_scored() if place == SCORE_THRESHOLD else demo_systems()
        args.gold, args.predictions = str(demo_gold()), list(map(str, files.values()))
    if place != "nerlens score":   # each file scored alone
        strings = place == SCORE_STRINGS
        print_results(score_alone(args, strings), strings_text if strings else
                      conlleval_text, args.format == "json")
        return 0
    # no token is shown but in the error counts
    corpus, systems = load_systems(args, keep_tokens=args.error_counts)
    results = score_corpus(corpus, systems, args.scheme, args.mode, beta=args.beta,
                           confusion=args.confusion, error_counts=args.error_counts,
                           workers=args.workers)
    print_results(results, conlleval_text, args.format == "json")
    if args.format == "json":
        return 0
    for name, result in results.items():
        for column, repairs in result.get("repairs", {}).items():
            print_notes(reading_notes(corpus, name if column == "pred" else column, column,
                                      repairs, args.scheme))
    print_confusion(results)
    return 0
