"""``nerlens convert``: a tag file's mentions written in another scheme, as seqscore's
convert; a clear error where the target cannot keep them apart (IO)."""
from __future__ import annotations

from nerspan.encodings import convert
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


def run(args) -> int:
    processing = type_processing(args)
    source, out = check_in_out(args)
    with command_hints(args, args.from_scheme):
        converted = convert(source, args.from_scheme, args.to_scheme, repair=args.repair,
                            **file_options(args))
    converted = process_retagged(converted, processing)
    converted.write(out)
    print_changes(converted, args.format, out)
    return 0
