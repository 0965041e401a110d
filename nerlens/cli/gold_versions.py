"""``nerlens report --gold-alt NAME=FILE``: other versions of the gold (a re-annotation, a
corrected release), each scored against like the gold (``nerlens.report``'s
``gold_alt_names``, ``nerlens.report.gold_audit``)."""
from __future__ import annotations

import argparse

from nerspan import GOLD
from nerspan.reading.forms import finished
from nerspan.reading.systems import read_span_systems

from .common import UsageError, check_file
from .inputs import add_predictions
from .options import given, inputs_of


def named_file(text: str) -> tuple[str, str]:
    """argparse type of --gold-alt: ``NAME=FILE``."""
    name, equals, path = text.partition("=")
    if not equals or not name.strip() or not path.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=FILE (e.g. conllpp=conllpp_test.txt), "
                                         f"not {text!r}")
    return name.strip(), path.strip()


def add_gold_alt_argument(parser) -> None:
    parser.add_argument("--gold-alt", type=named_file, action="append", metavar="NAME=FILE",
                        help="another version of the gold (token first, tag last; "
                             "repeatable): every system is scored under it too, with the "
                             "flips of the ranking and the suspect gold mentions")


def gold_versions(args) -> dict:
    """name -> file of every --gold-alt, a name given twice refused."""
    versions: dict = {}
    for name, path in given(args, "gold_alt") or ():
        if name in versions:
            raise UsageError(f"--gold-alt {name}=...: the name {name!r} is given twice")
        versions[name] = path
    return versions


def refuse_gold_versions(args, where: str) -> None:
    """--gold-alt goes with GOLD and PRED files, not with ``where``."""
    if given(args, "gold_alt"):
        raise UsageError(f"--gold-alt applies to a report of GOLD and PRED files, not to "
                         f"{where}")


def add_gold_versions(args, corpus) -> tuple:
    """``(corpus, names)``: ``corpus`` with a column per --gold-alt file, read and checked
    as a PRED file is (its errors name the file, line and gold version)."""
    versions = gold_versions(args)
    if not versions:
        return corpus, {}
    for name in versions:
        if name in corpus.columns:
            taken = "the gold" if name == GOLD else "a system"
            raise UsageError(f"--gold-alt {name}=...: {name!r} names {taken} already: name "
                             "the gold version apart")
    if given(args, "jsonl"):   # span files, read as GOLD is
        return add_span_versions(args, corpus, versions), versions
    corpus, names = add_predictions(args, corpus, list(versions.values()),
                                    outside_scheme_is_error=True, names=list(versions),
                                    what="gold version")
    return corpus, dict(zip(names, versions.values()))


def add_span_versions(args, corpus, versions: dict):
    """``corpus`` with a column per --gold-alt span file (with --jsonl), each read against
    GOLD's sentences and words as a PRED span file is (``read_span_systems``)."""
    paths = {name: check_file(path) for name, path in versions.items()}
    read, names = read_span_systems(args.gold, paths, scheme=args.scheme, inputs=inputs_of(args))
    return corpus.with_columns(finished(read.select(names), names, inputs_of(args)),
                               what="gold version")
