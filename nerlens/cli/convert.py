"""``nerlens convert``: a tag file's mentions written in another scheme, as seqscore's
convert; a clear error where the target cannot keep them apart (IO), unless ``--lossy``
(then merged as seqscore merges them, and counted)."""
from __future__ import annotations

from nerspan.encodings import convert
from nerspan.errors import counted

from .common import note
from .tag_files import add_file_arguments, add_repair_argument, add_scheme_argument, rewrite


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
    converted = rewrite(args, args.from_scheme, lambda source, **reading: convert(
        source, args.from_scheme, args.to_scheme, repair=args.repair, lossy=args.lossy,
        **reading))
    merged = converted.counts.get("merged_pairs")
    if merged:
        note(f"{counted(merged, 'pair')} of adjacent mentions of one type merged "
             f"({converted.scheme} writes each pair as one mention; --lossy)")
    return 0
