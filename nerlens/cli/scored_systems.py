"""Systems with a confidence per mention for the commands that add them beside the
PRED files (``nerlens report --scored``, ``nerlens suspects --scored``): each --scored
file read into ``nerspan.scored.ScoredMentions`` over GOLD's sentences, a span file whose
spans carry a ``score`` or generated output whose entities carry one (told apart by
their first line: ``is_generated_file``). ``nerlens score --threshold`` and ``nerlens
sweep`` read such files for the library's calls instead (``scored_files``).
"""
from __future__ import annotations

import json

from nerspan import read_span_jsonl
from nerspan.errors import counted
from nerspan.flat import GOLD
from nerspan.generative.scored_output import scored_generated
from nerspan.reading.systems import answers_located, read_answers, span_errors_located
from nerspan.scored import scored_spans

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


def is_generated_file(path: str, encoding: str = "utf-8") -> bool:
    """Whether a JSON Lines file of scored predictions holds generated output (its first
    object has a ``"response"``) rather than span lists (``"spans"``): the two forms a
    --scored file takes. A file that is no JSON is read as spans, whose reader names the
    line."""
    with open(path, encoding=encoding, errors="replace") as handle:
        first = next((line for line in handle if line.strip()), "")
    try:
        row = json.loads(first.lstrip("\ufeff"))
    except json.JSONDecodeError:
        return False
    return isinstance(row, dict) and "response" in row and "spans" not in row


def scored_mentions(args, corpus, files: dict) -> dict:
    """Name -> the scored mentions (``nerspan.scored.ScoredMentions``) of each file of
    ``files`` (name -> path: a --scored file), over GOLD's sentences (``corpus``): a span
    file whose spans carry a score, one line per sentence, or generated output whose
    entities carry one (``is_generated_file``), answering every sentence in order. An
    error names the file and line."""
    scored = {}
    words = [corpus.sentence_tokens(i) for i in range(corpus.n_sentences)]
    for name, path in files.items():
        if is_generated_file(check_file(path), args.encoding):
            scored[name] = _scored_generated_file(args, corpus, name, path)
            continue
        read = read_span_jsonl(path, args.encoding)
        if len(read["spans"]) != corpus.n_sentences:
            raise UsageError(f"{path}: {counted(len(read['spans']), 'line')} of spans, but "
                             f"{args.gold} holds {counted(corpus.n_sentences, 'sentence')}: "
                             "one line is needed per sentence")
        with span_errors_located(args.gold, {"lines": None}, path, read):
            scored[name] = scored_spans(read["spans"], inputs=inputs_of(args).replace(
                tokens=words))
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
