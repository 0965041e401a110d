"""``nerlens agreement A B``: mention F1 with A as the reference and Cohen's kappa over
the tokens' tags, overall and per type (``nerspan.audit.agreement``).

Its own command, not a flag of ``diff``: the API has ``agreement`` and ``diff`` apart,
and their results are different documents (numbers against listed changes); one name
for one thing on both sides."""
from __future__ import annotations

from nerspan.audit import agreement

from .inputs import add_two_arguments, run_two
from nerlens.report import blocks
from nerspan.blocks import Note, Table


def add_arguments(parser) -> None:
    add_two_arguments(parser)


def agreement_text(result: dict) -> str:
    """The agreement in the terminal: the overall numbers, then one row per type."""
    names, mentions = result["names"], result["mentions"]
    rows = [[t, row["precision"], row["recall"], row["f1"], row["kappa"]]
            for t, row in sorted(result["per_type"].items())]
    per_type = [Table(["type", "precision", "recall", "F1", "kappa"], rows)] if rows else []
    return "\n".join([
        f"A = {names['a']} (the reference)", f"B = {names['b']}",
        f"mentions: A {mentions['a']}, B {mentions['b']}, identical {mentions['identical']}",
        blocks.text([Table(["", "precision", "recall", "F1", "kappa", "observed", "chance"],
                           [["all", result["precision"], result["recall"], result["f1"],
                             result["kappa"], result["observed_agreement"],
                             result["chance_agreement"]]])]), "",
        blocks.text(per_type + [Note(
            "Percent (kappa x 100 too). F1 of mentions (B against A; symmetric); Cohen's "
            "kappa over every token's tag (per type: inside a mention of that type or not); "
            "- = undefined.")])])


def run(args) -> int:
    return run_two(args, agreement, agreement_text)
