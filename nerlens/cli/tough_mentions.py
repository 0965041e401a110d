"""``nerlens tough-mentions``: recall on unseen and type-confusable mentions (TMR)."""
from __future__ import annotations

import argparse

import tough_mentions
from nerlens.report.text import wrap
from tough_mentions.report import composition_cell
from nerspan import Evaluation

from .common import (UsageError, add_alias, add_beta_argument, add_confusion_argument,
                     confusion_text, fbeta_column, format_table, print_json, with_confusion)
from .inputs import (add_input_arguments, add_train_arguments, load_systems_with_tokens,
                     load_training)


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    add_train_arguments(parser)
    parser.add_argument("--case-sensitive", action=argparse.BooleanOptionalAction,
                        default=True,
                        help="compare mention texts as they are (default) or, with "
                             "--no-case-sensitive, lowercased")
    add_alias(parser, "--case-insensitive", "--no-case-sensitive", "case_sensitive",
              const=False)
    parser.add_argument("--return-mentions", action="store_true",
                        help="with --format json: list the gold mentions of each subset "
                             "with their hit")
    add_alias(parser, "--mentions", "--return-mentions", "return_mentions", const=True)
    add_beta_argument(parser)
    add_confusion_argument(parser)
    parser.add_argument("--min-share", type=float, default=0.0, metavar="FRACTION",
                        help="leave subsets holding less than this share of the gold "
                             "mentions out of the recall table (the paper: 0.01); JSON "
                             "keeps every number and lists them under small_subsets")
    parser.add_argument("--spread", action="store_true",
                        help="with --format json and several systems: add the spread of "
                             "each subset's recall across the systems (always printed in "
                             "the table view)")


def compute(corpus, systems, index, scheme="IOB2", mode="lenient", case_sensitive=True,
            return_mentions=False, beta: float = 1.0, confusion: bool = False) -> dict:
    """System name -> result dict; the gold mentions are decoded and classified once for
    all systems (one evaluation)."""
    evaluation = Evaluation(corpus, scheme, mode, index)
    return {name: with_confusion(tough_mentions.score(
        evaluation, name, case_sensitive=case_sensitive, return_mentions=return_mentions
    ).to_dict(beta=beta), evaluation, name, confusion) for name in systems}


# The label of the composition row over every type (a tag type cannot contain a space).
ALL_TYPES = "all types"


def composition_table(result: dict) -> str:
    """The data composition: per type, each subset's count and its share of the gold
    mentions of that type; last row, each subset's count and share of all gold mentions."""
    names = tough_mentions.ALL_SUBSETS

    def row(label, counts, shares):
        return [label] + [composition_cell(counts[n], shares[n]) for n in names]

    rows = [row(t, r["counts"], r["composition"]) for t, r in result["per_type"].items()]
    rows.append(row(ALL_TYPES, result["counts"], result["composition"]))
    return format_table(["type"] + [header(n) for n in names], rows)


def header(subset: str) -> str:
    """A subset's column, as the page heads it (``tough_mentions.NAMING``)."""
    return tough_mentions.NAMING[subset].header


def recall_table(results: dict, left_out=()) -> str:
    """One row per system: overall P/R/F1, then recall on each subset (less ``left_out``)."""
    subsets = [s for s in tough_mentions.SUBSETS if s not in left_out]
    fb = fbeta_column(next(iter(results.values())))   # --beta: F-beta after F1
    keys = ["precision", "recall", "f1"] + ([fb[0]] if fb else [])
    rows = [[system] + [r[k] for k in keys] + [r[f"recall_{s}"] for s in subsets]
            for system, r in results.items()]
    return format_table(["system", "P", "R", "F1"] + ([fb[1]] if fb else [])
                        + [header(s) for s in subsets], rows)


def spread_table(spread: dict, left_out=()) -> str:
    """Per subset: the lowest and highest recall over the systems, range and std (%)."""
    rows = [[tough_mentions.NAMING[s].title, row["n_systems"], row["min"], row["max"],
             row["range"], row["std"]] for s, row in spread.items() if s not in left_out]
    return format_table(["subset", "systems", "min", "max", "range", "std"], rows)


def run(args) -> int:
    try:
        min_share = tough_mentions.check_min_share(args.min_share)
    except ValueError as error:
        raise UsageError(f"--min-share: {error}") from None
    index = load_training(args)
    corpus, systems = load_systems_with_tokens(args)
    results = compute(corpus, systems, index, args.scheme, args.mode,
                      args.case_sensitive, args.return_mentions, args.beta, args.confusion)
    first = next(iter(results.values()))
    small = tough_mentions.small_subsets(first, min_share) if min_share else None
    spread = tough_mentions.recall_spread(results) if len(systems) > 1 else None
    if args.format == "json":
        extra = {}
        if small is not None:
            extra.update(min_share=min_share, small_subsets=small)
        if args.spread and spread is not None:
            extra["recall_spread"] = spread
        body = results[systems[0]] if len(systems) == 1 else results
        print_json({"results": results, **extra} if extra else body)
        return 0
    left_out = small["overall"] if small else ()
    print("Data composition (gold mentions; share of the type's gold mentions, "
          f"{ALL_TYPES!r}: of all):")
    print(composition_table(first))
    print()
    print("Recall on each subset (%); precision and F1 overall only:")
    print(recall_table(results, left_out))
    print(wrap(f"- = empty subset (no recall). {tough_mentions.SUBSET_LEGEND}"))
    if left_out:
        print(f"Left out (under {100 * min_share:g}% of the gold mentions): "
              + ", ".join(tough_mentions.NAMING[s].title for s in left_out))
    if spread is not None:
        print("\nSpread of each subset's recall across the systems (%):")
        print(spread_table(spread, left_out))
    matrices = confusion_text(results)
    if matrices:
        print(f"\n{matrices}")
    return 0
