"""File tools against seqscore: validate, repair, convert and count a CoNLL-2003 file.

    python -m benchmarks.bench_encodings [--repeat 3] [--documents 946]

The CoNLL-2003 training file (IOB2, 203,621 tokens in 14,041 sentences and 946
documents; read where it lies, never copied) through nerlens's functions
(``nerspan.validation``, ``nerspan.encodings``, ``nerspan.counts``) and seqscore's
(``seqscore.conll``, what its commands run), file in, file out, in one run; the tags
are checked equal first. Validation and repair read the file as IOB1, where every B-
after O is an invalid transition (23,429 of them): the work of a file in the wrong
scheme.

Measured (2 shared cores, one run, best of 3; nerlens / seqscore 0.9.0): validate 0.19 /
0.58 s (3.0x), repair 0.31 / 1.57 s (5.1x), convert IOB2 -> IOBES 0.38 / 1.00 s (2.6x),
count 0.12 / 0.83 s (6.8x). Reading the file is 0.10 s of each; writing it back line for
line 0.14 s.
"""
from __future__ import annotations

import argparse
import importlib.util
import tempfile
from pathlib import Path

from benchmarks.common import DATA, best_time
from nerspan.counts import count
from nerspan.encodings import convert, repair
from nerspan.validation import validate

TRAIN = DATA / "conll03" / "train.txt"

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--repeat", "1", "--documents", "20"]


def ours(task: str, out: Path, source: Path = TRAIN):
    if task == "validate":
        return len(validate(source, "IOB1").problems)
    if task == "repair":
        return repair(source, "IOB1", "conlleval").write(out)
    if task == "convert":
        return convert(source, "IOB2", "IOBES").write(out)
    return count(source, "IOB2")


def theirs(task: str, out: Path, source: Path = TRAIN):
    from seqscore.conll import (LineSpec, ingest_conll_file, validate_conll_file,
                                write_docs_using_encoding)

    spec, options = LineSpec(0, -1), dict(ignore_document_boundaries=False,
                                          allow_comment_lines=False)
    if task == "validate":
        return len(validate_conll_file(str(source), "IOB", "UTF-8", spec, **options).errors)
    name, repair_method, target = {"repair": ("IOB", "conlleval", "IOB"),
                                   "convert": ("BIO", None, "BIOES"),
                                   "count": ("BIO", None, None)}[task]
    docs = ingest_conll_file(source, name, "UTF-8", spec, repair=repair_method, quiet=True,
                             **options)
    if target is None:  # count: as the command counts
        from collections import Counter
        counts = Counter((m.type, " ".join(s.mention_tokens(m)))
                         for doc in docs for s in doc for m in s.mentions)
        return [{"count": n, "type": k, "text": t} for (k, t), n in counts.most_common()]
    return write_docs_using_encoding(docs, target, "UTF-8", "\t", spec, out)


def first_documents(path: Path, n: int, out: Path) -> Path:
    """The first ``n`` documents (``-DOCSTART-`` lines) of ``path``, written to ``out``."""
    kept, seen = [], 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            seen += line.startswith("-DOCSTART-")
            if seen > n:
                break
            kept.append(line)
    out.write_text("".join(kept), encoding="utf-8")
    return out


def tags(path: Path) -> list:
    return [line.split()[-1] for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("-DOCSTART-")]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--documents", type=int, default=None,
                        help="the first N documents of the file (default: all 946)")
    args = parser.parse_args(argv)
    if not TRAIN.exists():
        print(f"skipped: {TRAIN} not found")
        return 0
    if importlib.util.find_spec("seqscore") is None:
        print("seqscore not installed (pip install seqscore==0.9.0): no comparison")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        mine, peer = Path(folder) / "ours.txt", Path(folder) / "theirs.txt"
        source = TRAIN if args.documents is None else first_documents(
            TRAIN, args.documents, Path(folder) / "train.txt")
        print(f"CoNLL-2003 train.txt ({args.documents or 'all'} documents), best of "
              f"{args.repeat}; nerlens / seqscore")
        for task in ("validate", "repair", "convert", "count"):
            a, b = ours(task, mine, source), theirs(task, peer, source)
            assert a == b and (task not in ("repair", "convert") or tags(mine) == tags(peer))
            time_ours = best_time(lambda: ours(task, mine, source), args.repeat)
            time_theirs = best_time(lambda: theirs(task, peer, source), args.repeat)
            print(f"  {task:9s} {time_ours:7.3f} s  {time_theirs:7.3f} s  "
                  f"{time_theirs / time_ours:5.1f}x (same {'tags' if a is None else 'output'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
