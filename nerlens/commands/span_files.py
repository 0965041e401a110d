"""``--jsonl``: GOLD and PRED as JSON Lines span files, for every subcommand that reads them.

One JSON object per line and sentence (or document): ``"spans"`` (token spans
``[start, end, "LABEL"]``, nervaluate dicts, or a pipeline's output dicts with character
offsets) and, in the GOLD file, ``"tokens"`` and/or ``"text"``. A PRED file's lines may
carry only their spans: the words are the gold file's.
"""
from __future__ import annotations

from nerspan import get_scheme, read_span_jsonl
from nerlens.systems import named_files

from .common import UsageError, check_file


def add_span_arguments(parser) -> None:
    parser.add_argument("--jsonl", action="store_true",
                        help="GOLD and PRED are JSON Lines span files: one object per "
                             "sentence or document with \"spans\" and \"tokens\" or \"text\"")
    parser.add_argument("--inclusive-end", action="store_true",
                        help="--jsonl token spans have inclusive ends (nervaluate's layout)")
    parser.add_argument("--snap", action="store_true",
                        help="widen --jsonl character spans to the tokens they touch "
                             "(each one is counted in repairs) instead of failing")


def span_options(args) -> dict:
    return dict(inclusive_end=args.inclusive_end, snap=args.snap)


def read_span_files(args) -> tuple[dict, list[tuple[str, dict]]]:
    """The gold file's spans, tokens and texts, and (name, spans) for every PRED file, as
    they are (faireval scores nested spans); tag-based commands read --jsonl through
    ``common.load_systems`` (``nerlens.systems.read_systems(..., jsonl=True)``)."""
    if get_scheme(args.scheme).name != "IOB2":
        raise UsageError("--jsonl spans are scored as IOB2 tags: --scheme applies to tag files")
    preds = args.predictions if isinstance(args.predictions, list) else (
        [args.predictions] if args.predictions else [])
    if not args.gold or not preds:
        raise UsageError("--jsonl needs a GOLD and at least one PRED span file")
    gold = read_span_jsonl(check_file(args.gold))
    return gold, [(name, read_span_jsonl(check_file(path)))
                  for name, path in named_files(preds).items()]
