"""``nerlens agreement A B``: mention F1 with A as the reference and Cohen's kappa over
the tokens' tags, overall and per type (``nerspan.audit.agreement``).

Its own command, not a flag of ``diff``: the API has ``agreement`` and ``diff`` apart,
and their results are different documents (numbers against listed changes); one name
for one thing on both sides."""
from __future__ import annotations

from nerspan.audit import agreement

from .inputs import add_two_arguments, run_two
from .common import format_table


def add_arguments(parser) -> None:
    add_two_arguments(parser)


def agreement_text(result: dict) -> str:
    """The agreement in the terminal: the overall numbers, then one row per type."""
    names, mentions = result["names"], result["mentions"]
    kappa = result["kappa"]
    lines = [f"A = {names['a']} (the reference)", f"B = {names['b']}",
             f"mentions: A {mentions['a']}, B {mentions['b']}, identical "
             f"{mentions['identical']}",
             format_table(["", "precision", "recall", "F1", "kappa", "observed", "chance"],
                          [["all", result["precision"], result["recall"], result["f1"],
                            kappa, result["observed_agreement"], result["chance_agreement"]]]),
             ""]
    rows = [[t, row["precision"], row["recall"], row["f1"], row["kappa"]]
            for t, row in sorted(result["per_type"].items())]
    if rows:
        lines.append(format_table(["type", "precision", "recall", "F1", "kappa"], rows))
    lines.append("Percent (kappa x 100 too). F1 of mentions (B against A; symmetric); Cohen's kappa over "
                 "every token's tag (per type: inside a mention of that type or not); "
                 "- = undefined.")
    return "\n".join(lines)


def run(args) -> int:
    return run_two(args, agreement, agreement_text)
