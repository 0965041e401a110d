"""``nerlens tough-mentions``: recall on unseen and type-confusable mentions (TMR), the
family command (``family``) with --spread, the recall spread in the JSON."""
from __future__ import annotations

from dataclasses import dataclass

from nerspan.records import Record, switch

from .family import add_family_arguments, score_family, show_scores
from .flags import add_flags


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    spread: bool = switch(False, "with --format json and several systems: add the spread of "
                          "each subset's recall across the systems (always printed in the "
                          "table view)")


def add_arguments(parser) -> None:
    add_family_arguments(parser, "tough_mentions")
    add_flags(parser, Flags)


def run(args) -> int:
    family, evaluation, results, settings = score_family(args, "tough_mentions")
    analyses = family.analyses(evaluation, results, settings)
    extra = {key: analyses[key] for key, asked in (
        ("min_share", settings["min_share"]), ("small_subsets", settings["min_share"]),
        ("recall_spread", args.spread and analyses["recall_spread"] is not None)) if asked}
    return show_scores(args, family, results, extra, analyses=analyses)
