"""Systems with a confidence per mention for the commands that add them beside the
PRED files (``nerlens report --scored``, ``nerlens suspects --scored``): each --scored
file read into ``nerspan.scored.ScoredMentions`` over GOLD's sentences, a span file whose
spans carry a ``score`` or generated output whose entities carry one (told apart by
``nerspan.reading.systems.file_form``, read by ``read_scored_spans`` / ``read_answers``).
``nerlens score --threshold`` and ``nerlens sweep`` read such files for the library's
calls instead (``scored_files``).
"""
from __future__ import annotations

from nerspan.errors import counted
from nerspan.flat import GOLD
from nerspan.generative.scored_output import scored_generated
from nerspan.reading.systems import (answers_located, file_form, read_answers, read_scored_spans,
                                     span_errors_located)
from nerspan.threshold_form import scored_of

from nerlens.report.confidence import check_fits

from .common import UsageError, check_file
from .options import inputs_of


def add_scored_argument(parser, effect: str) -> None:
    """--scored FILE.jsonl (repeatable): a system with a confidence per mention; ``effect``:
    what the command does with it."""
    parser.add_argument("--scored", action="append", default=None, metavar="FILE.jsonl",
                        help="a system with a confidence per mention: a JSON Lines span file, "
                             "one line per sentence of GOLD, each span with a \"score\"; or "
                             "generated output, one \"response\" per sentence of GOLD, each "
                             "entity with a \"score\" (named after its file; repeatable); "
                             + effect)


def scored_mentions(args, corpus, files: dict) -> dict:
    """Name -> the scored mentions (``nerspan.scored.ScoredMentions``) of each file of
    ``files`` (name -> path: a --scored file), over GOLD's sentences (``corpus``): a span
    file whose spans carry a score, one line per sentence, or generated output whose
    entities carry one (``file_form``), answering every sentence in order. An
    error names the file and line."""
    scored = {}
    for name, path in files.items():
        if file_form(check_file(path), args.encoding) == "generated":
            scored[name] = _scored_generated_file(args, corpus, name, path)
            continue
        read = read_scored_spans(path, corpus, args.encoding, gold_name=args.gold,
                                 tag_file=f"score its tags as a PRED file (nerlens "
                                 f"{args.command} {args.gold} {path})")
        with span_errors_located(args.gold, {"lines": None}, path, read):
            scored[name] = scored_of(read["spans"], corpus, inputs_of(args))
            check_fits(scored[name], corpus, "predictions")
    return scored


def _scored_generated_file(args, corpus, name: str, path: str):
    """The scored mentions of a file of generated output (a score per entity), grounded
    in GOLD's sentences, every one of which it must answer, in order."""
    answered, read = read_answers(corpus, path, args.encoding)
    if answered.n_sentences != corpus.n_sentences or \
            read["sentences"] not in (None, list(range(corpus.n_sentences))):
        raise UsageError(f"{path} answers {counted(answered.n_sentences, 'sentence')} of "
                         f"{args.gold}'s {corpus.n_sentences} (\"sentence\" indices): "
                         f"nerlens {args.command} needs every sentence answered, in order; "
                         f"sweep the ones answered with nerlens sweep {args.gold} "
                         f"--generated {path}")
    with answers_located(f"generated {name!r} ({path})", answered, read):
        return scored_generated(read["responses"], corpus.select([GOLD]), inputs_of(args))
