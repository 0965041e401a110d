"""The files faireval scores, and in what form: ``read_files`` decides it for the command
line and the API alike.

GOLD and PRED are read as every family reads them (column files, saved splits; generated
output grounded as flat mentions), and scored on one evaluation; FairEval span files,
JSON Lines span files and generated output kept with ``overlaps="keep"`` are scored as
they are (nested and overlapping spans too), each against the gold it answers
(``nerspan.reading.answers.Answers``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from nerspan import Corpus, InputOptions
from nerspan.reading.answers import read_generated_files, read_span_answers
from nerspan.reading.columns import column_values
from nerspan.reading.systems import read_systems
from nerspan.records import Record, option, switch

from .core import FairevalOptions
from .spanfile import read_span_files


@dataclass(frozen=True)
class ReadOptions(Record):
    """How ``read_files`` reads faireval's files besides the input options."""

    span_files: bool = switch(False, "GOLD and PRED are FairEval span files (LABEL begin end "
                              "tokens)", flag="--spans")
    pos_column: int = option(1, "POS column of GOLD for --ignore-punct (default 1)", parse=int)

    describes = "faireval reading"


@dataclass(frozen=True)
class Files:
    """What ``read_files`` found to score: ``corpus`` and its ``systems``, read as every
    family reads them (none: ``systems`` empty); ``answers``, the files scored as they
    are (``Answers.call``); ``pos``, gold's POS tags per sentence (``ignore_punct``; None: not
    read)."""

    corpus: Corpus | None
    systems: list
    answers: list
    pos: list | None


def read_files(gold, predictions=(), generated=None, *, reading=None, options=None,
               confusion: bool = False, scheme: str = "IOB2", mode: str = "lenient",
               inputs=None, outside_scheme_is_error: bool = False, on_repairs=None) -> Files:
    """The files of ``gold``, ``predictions`` (files, or name -> file) and ``generated``
    output, read for faireval's ``score``: FairEval span files (``reading``'s
    ``span_files``, a ``ReadOptions`` or a dict: a target and one system file), JSON Lines
    span files (the input option ``jsonl``) and, with ``overlaps="keep"``, the generated
    output as they are (``Files.answers``); else, and the predictions beside kept
    generated output, as every family reads them. With the ``options``' ``ignore_punct``
    (a ``FairevalOptions``), gold's POS tags are read from its column ``pos_column``.
    Raises ``ValueError`` for what these files cannot give: ``overlaps="keep"`` without
    generated output, or with the entity confusion matrix (``confusion``: asked for; it
    pairs flat mentions), ``ignore_punct`` without a gold column file holding POS tags."""
    reading, inputs = ReadOptions.of(reading), InputOptions.of(inputs)
    options, keep = FairevalOptions.of(options), inputs.generated.overlaps == "keep"
    if keep and not generated:
        shown = gold if isinstance(gold, (str, os.PathLike)) else "GOLD"
        raise ValueError("overlaps='keep' (--overlaps keep) applies to generated output: give "
                         f"generated=[FILE.jsonl] (nerlens faireval {shown} --generated "
                         "FILE.jsonl --overlaps keep)")
    if options.ignore_punct and (reading.span_files or inputs.files.jsonl):
        raise ValueError("ignore_punct (--ignore-punct) reads the POS tags of gold's column "
                         "file: span files (--spans, jsonl / --jsonl) hold none")
    if confusion and keep:   # the entity matrix pairs flat mentions
        raise ValueError("confusion (--confusion) counts flat mentions, overlaps='keep' "
                         "(--overlaps keep) keeps nested and overlapping spans: give one of "
                         "them")
    sides = dict(scheme=scheme, mode=mode, inputs=inputs)
    if reading.span_files or inputs.files.jsonl:
        read = read_span_files if reading.span_files else read_span_answers
        return Files(None, [], list(read(gold, predictions, **sides)), None)
    sides.update(outside_scheme_is_error=outside_scheme_is_error, on_repairs=on_repairs)
    files = inputs.files
    pos = column_values(gold, reading.pos_column, token_column=files.token_column,
                        comment_prefix=files.comment_prefix, encoding=files.encoding,
                        missing_tag=files.missing_tag) if options.ignore_punct else None
    # kept generated output is scored as it is, the predictions beside it as usual
    corpus, systems = read_systems(gold, predictions or None, generated=[] if keep else (
        generated or []), **sides) if predictions or not keep else (None, [])
    answers = read_generated_files(gold, generated, **sides) if keep else []
    return Files(corpus, systems, answers, pos)


__all__ = ["Files", "ReadOptions", "read_files"]
