"""``nerlens repair``: a tag file with its invalid transitions repaired, as seqscore's
repair (``conlleval`` or ``discard``); the changes listed."""
from __future__ import annotations

import sys

from nerspan.encodings import repair
from nerspan.errors import counted
from nerspan.type_processing import process_retagged

from .common import print_json
from .options import type_processing
from .tag_files import (command_hints, add_file_arguments, add_repair_argument, add_scheme_argument,
                        check_in_out, file_options)


def add_arguments(parser) -> None:
    add_file_arguments(parser, files="in_out")
    add_scheme_argument(parser)
    add_repair_argument(parser, "--method", default="conlleval",
                        help_text="conlleval (default): write every chunk conlleval.pl "
                                  "reads; discard: the chunks not written as the scheme "
                                  "writes them become O")


def run(args) -> int:
    processing = type_processing(args)
    source, out = check_in_out(args)
    with command_hints(args, args.scheme):
        fixed = repair(source, args.scheme, args.repair, **file_options(args))
    fixed = process_retagged(fixed, processing)
    fixed.write(out)
    print_changes(fixed, args.format, out)
    return 0


def print_changes(fixed, output_format: str, out: str) -> None:
    """The changes (JSON: the whole ``Retagged.to_dict()`` and the file written)."""
    if output_format == "json":
        print_json({**fixed.to_dict(), "output": out})
        return
    for change in fixed.changes:
        token = f" (token {change.token!r})" if change.token is not None else ""
        print(f"{change.path}:{change.line}: {change.tag} -> {change.repaired}{token}")
    counts = ", ".join(counted(value, *COUNT_NOUNS.get(key, (key.replace("_", " "),)))
                       for key, value in fixed.counts.items())
    print(f"wrote {out} ({fixed.scheme}{'; ' + counts if counts else ''})", file=sys.stderr)


# What a ``Retagged`` counts, in words: the type counts are of mentions, not of types
COUNT_NOUNS = {"invalid_transitions": ("invalid transition",),
               "changed_tags": ("changed tag",), "chunks": ("chunk",),
               "discarded_chunks": ("discarded chunk",), "merged_pairs": ("merged pair",),
               "types_mapped": ("mention retyped", "mentions retyped"),
               "types_removed": ("mention removed", "mentions removed")}
