"""``nerlens hardeval``: token error rates on unseen and label-shifted tokens."""
from __future__ import annotations

import hardeval
from nerspan import GOLD

from .common import (add_input_arguments, add_train_arguments, format_table,
                     load_systems_with_tokens, load_training, print_json)

NAME = "hardeval"
HELP = "token error rates on unseen and label-shifted tokens (HardEval)"


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    add_train_arguments(parser)
    parser.add_argument("--strict", action="store_true",
                        help="a token is diff only if its gold label never occurs with it "
                             "in training")
    parser.add_argument("--error-labels", default="bilou", choices=hardeval.ERROR_LABELS,
                        help="labels compared: bilou (default, the reference code), bio "
                             "(raw tags) or io (typed IO labels)")


def compute(corpus, systems, train, scheme="IOB2", mode="lenient", strict=False,
            error_labels="bilou") -> dict:
    """System name -> result dict; the subsets are classified once for all systems."""
    codes = hardeval.classify_tokens(corpus, train, scheme, mode, strict)
    out = {}
    for name in systems:
        result = hardeval.score_codes(corpus, codes, GOLD, name, scheme, mode, error_labels,
                                      strict=strict)
        out[name] = result.to_dict()
    return out


def table(results: dict) -> str:
    """The paper's table: one row per system, TER (%) per subset, sizes in the first row."""
    names = list(hardeval.GROUPS)
    first = next(iter(results.values()))["subsets"]
    rows = [["tokens", None] + [first[n]["tokens"] for n in names]]
    for system, result in results.items():
        rows.append([system, result["hardeval"]] + [result["subsets"][n]["ter"] for n in names])
    return format_table(["system", "hardeval"] + names, rows)


def run(args) -> int:
    train = load_training(args)
    corpus, systems = load_systems_with_tokens(args)
    results = compute(corpus, systems, train, args.scheme, args.mode, args.strict,
                      args.error_labels)
    if args.format == "json":
        print_json(results[systems[0]] if len(systems) == 1 else results)
        return 0
    print(table(results))
    print("TER in %, lower is better; hardeval = mean TER on unseen and diff; "
          "- = empty subset")
    return 0
