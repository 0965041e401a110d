"""``nerlens count``: mentions by type and text, as seqscore's count."""
from __future__ import annotations

from nerspan.counts import count

from .common import print_json
from .options import type_processing
from .tag_files import (command_hints, add_file_arguments, add_repair_argument, add_scheme_argument,
                        file_options, input_files)


def add_arguments(parser) -> None:
    add_file_arguments(parser, files="several")
    add_scheme_argument(parser)
    add_repair_argument(parser)


def run(args) -> int:
    with command_hints(args, args.scheme):
        rows = count(input_files(args), args.scheme, repair=args.repair,
                     types=type_processing(args), **file_options(args))
    if args.format == "json":
        print_json(rows)
    else:  # seqscore's layout: tab-separated, no header
        for row in rows:
            print(f"{row['count']}\t{row['type']}\t{row['text']}")
    return 0
