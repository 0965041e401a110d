"""``nerlens convert``: a tag file's mentions written in another scheme, as seqscore's
convert; a clear error where the target cannot keep them apart (IO), unless ``--lossy``
(then merged as seqscore merges them, and counted)."""
from __future__ import annotations

import sys

from nerspan.encodings import convert
from nerspan.errors import counted
from nerspan.type_processing import process_retagged

from .options import type_processing
from .repair import print_changes
from .tag_files import (command_hints, add_file_arguments, add_repair_argument, add_scheme_argument,
                        check_in_out, file_options)


def add_arguments(parser) -> None:
    add_file_arguments(parser, files="in_out")
    add_scheme_argument(parser, "--from", "from_scheme", "the scheme of IN")
    add_scheme_argument(parser, "--to", "to_scheme", "the scheme to write", required=True)
    add_repair_argument(parser)
    parser.add_argument("--lossy", action="store_true",
                        help="write adjacent mentions of one type that the target cannot "
                             "part (IO) as it writes them, read back as one mention, as "
                             "seqscore does; the pairs merged are counted (default: refuse)")


def run(args) -> int:
    processing = type_processing(args)
    source, out = check_in_out(args)
    with command_hints(args, args.from_scheme):
        converted = convert(source, args.from_scheme, args.to_scheme, repair=args.repair,
                            lossy=args.lossy, **file_options(args))
    converted = process_retagged(converted, processing)
    converted.write(out)
    print_changes(converted, args.format, out)
    merged = converted.counts.get("merged_pairs")
    if merged:
        print(f"note: {counted(merged, 'pair')} of adjacent mentions of one type merged "
              f"({converted.scheme} writes each pair as one mention; --lossy)",
              file=sys.stderr)
    return 0
