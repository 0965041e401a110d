"""``nerlens tough-mentions``: recall on unseen and type-confusable mentions (TMR), the
family command (``family``) with --spread, the recall spread in the JSON."""
from __future__ import annotations

from dataclasses import dataclass

from nerspan.records import Record, switch

from nerlens.families import get_family

from .family import (add_family_arguments, print_scores, read_inputs, score_systems,
                     section_text, settings_of)
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
    family = get_family("tough_mentions")
    settings = settings_of(args, family)
    corpus, systems, train = read_inputs(args, family)
    evaluation, results = score_systems(args, family, corpus, systems, train)
    analyses = family.analyses(evaluation, results, settings)
    extra = {}
    if settings["min_share"]:
        extra.update(min_share=settings["min_share"], small_subsets=analyses["small_subsets"])
    if args.spread and analyses["recall_spread"] is not None:
        extra["recall_spread"] = analyses["recall_spread"]
    return print_scores(args, results, section_text(family, results, analyses), extra)
