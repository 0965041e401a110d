"""``--jsonl``: GOLD and PRED as JSON Lines span files, for every subcommand that reads them.

One JSON object per line and sentence (or document): ``"spans"`` (token spans
``[start, end, "LABEL"]``, nervaluate dicts, or a pipeline's output dicts with character
offsets) and, in the GOLD file, ``"tokens"`` and/or ``"text"``. A PRED file's lines may
carry only their spans: the words are the gold file's.
"""
from __future__ import annotations

from nerspan import get_scheme, read_span_jsonl
from nerspan.reading.systems import named_files, span_files

from .common import UsageError, check_file, prediction_paths
from .options import given


def refuse_span_flags(args) -> None:
    """--inclusive-end, --snap and --offsets say how --jsonl spans are read: given for
    other files, they would be ignored in silence."""
    flags = [f"--{option.replace('_', '-')}" for option in ("inclusive_end", "snap", "offsets")
             if given(args, option) not in (None, False)]
    if flags:
        raise UsageError(f"{', '.join(flags)} read{'s' if len(flags) == 1 else ''} --jsonl "
                         "span files: add --jsonl if GOLD and PRED are such files, else "
                         f"leave {'it' if len(flags) == 1 else 'them'} out")


def span_paths(args) -> tuple[str, list[str]]:
    """GOLD and the PRED files of --jsonl, checked to exist (--scheme must be IOB2)."""
    if get_scheme(args.scheme).name != "IOB2":
        raise UsageError("--jsonl spans are scored as IOB2 tags: --scheme applies to tag files")
    preds = prediction_paths(args)
    if not args.gold or not preds:
        raise UsageError("--jsonl needs a GOLD and at least one PRED span file")
    return check_file(args.gold), [check_file(path) for path in preds]


def read_span_files(args):
    """The gold file's spans, tokens and texts, and ``(name, path, spans)`` for every PRED
    file (``nerspan.reading.systems.span_files``: gold's words, checked), as they are (faireval
    scores nested spans); tag-based commands read --jsonl through ``inputs.load_systems``
    (``nerspan.reading.systems.read_systems(..., jsonl=True)``)."""
    gold_path, preds = span_paths(args)
    gold = read_span_jsonl(gold_path, args.encoding)
    return gold, span_files(gold_path, gold, named_files(preds), args.encoding)
