"""``nerlens buckets``: bucket-wise F1 by entity and sentence attributes (Fu et al., 2020)."""
from __future__ import annotations

import argparse
import copy

import attribute_buckets
from attribute_buckets import analysis, plots
from nerspan import GOLD
from nerspan.gold_context import resolve
from nerspan.errors import counted

from .common import (UsageError, add_alias, add_beta_argument, add_confusion_argument,
                     confusion_text, fbeta_column, format_table, non_negative_int, print_json)
from .inputs import (add_input_arguments, add_train_arguments, load_systems_with_tokens,
                     load_training)
from .manifest import read_manifest
from .options import ATTRIBUTE_BUCKETS, from_args


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    add_train_arguments(parser, required=False,
                        help_text="training column file (token first, tag last); with "
                                  "--datasets each dataset names its own")
    parser.add_argument("--n-buckets", type=int, default=4, metavar="N",
                        help="buckets per attribute (default 4: XS, S, L, XL)")
    add_alias(parser, "--buckets", "--n-buckets", "n_buckets", type=int)
    parser.add_argument("--equal-width", action="store_true",
                        help="cut each value range evenly instead of into equal counts "
                             "({0}, {1} and eLen's buckets stay)")
    parser.add_argument("--attributes", default=None,
                        help="comma-separated attributes (default: all of "
                             f"{', '.join(attribute_buckets.ATTRIBUTES)})")
    parser.add_argument("--case-sensitive", action=argparse.BooleanOptionalAction,
                        default=False,
                        help="compare tokens with training as they are (default "
                             "--no-case-sensitive: lowercased)")
    parser.add_argument("--frequency-norm", default="ratio",
                        choices=attribute_buckets.FREQUENCY_NORMS,
                        help="ratio (default, the paper) or rank5 (the reference code)")
    # --compat interpreteval: defined with the input flags (generated_files), one flag
    parser.add_argument("--bootstrap", type=non_negative_int, default=0, metavar="N",
                        help="sentence resamples for an interval on every bucket F1")
    add_beta_argument(parser)
    add_confusion_argument(parser)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--confidence", type=float, default=0.95,
                        help="level of the --bootstrap intervals (default 0.95)")
    parser.add_argument("--plot", default=None, metavar="DIR",
                        help="write the charts (bar chart per attribute, heat map, "
                             "comparison of the first two systems) to DIR as PNG")
    parser.add_argument("--plot-format", default="png", choices=("png", "svg"))
    parser.add_argument("--datasets", default=None, metavar="MANIFEST",
                        help="several datasets from a JSON manifest (name -> train, gold, "
                             "predictions; the same systems in each): zeta/rho per dataset, "
                             "Friedman and Wilcoxon over datasets, radar chart and heat map")
    parser.add_argument("--runs", action="store_true",
                        help="the PRED files are repeated runs of one system: Friedman test "
                             "across buckets over the runs")
    parser.add_argument("--baseline", default=None,
                        help="with --datasets: the system the others are compared with "
                             "(default: the first)")


def compute(corpus, systems, train, **options) -> dict:
    """System name -> result object, every system against one gold context (gold decoded
    once; the training tables are built once, on ``train``)."""
    context = resolve(corpus, gold_column=GOLD, pred_column=GOLD, scheme=options.get("scheme"),
                      mode=options.get("mode"), train=train)[0]
    return {name: attribute_buckets.score(context, pred_column=name, train=train, **options)
            for name in systems}


def tables(results: dict) -> str:
    """One table per attribute: buckets as rows, F1 (%) of each system as columns."""
    systems = list(results)
    first = next(iter(results.values()))
    parts = []
    for attribute, rows in first["buckets"].items():
        header = [attribute, "interval", "gold"] + systems
        body = []
        for i, row in enumerate(rows):
            body.append([row["name"], row["interval"], row["gold"]]
                        + [results[s]["buckets"][attribute][i]["f1"] for s in systems])
        parts.append(format_table(header, body))
    fb = fbeta_column(first)   # --beta: F-beta after F1
    overall_keys = ("precision", "recall", "f1") + ((fb[0],) if fb else ())
    overall = format_table(["overall", "", ""] + systems,
                           [[key, "", ""] + [results[s][key] for s in systems]
                            for key in overall_keys])
    return "\n\n".join([overall] + parts)


def diagnoses(results: dict) -> str:
    """The three views of the paper as text."""
    view = analysis.summary(results)
    lines = ["Self-diagnosis (best / worst bucket F1 %, gap):"]
    for system, per_attribute in view["self_diagnosis"].items():
        parts = [f"{a} {d['best']}/{d['worst']} {100 * d['gap']:.1f}"
                 for a, d in per_attribute.items() if d]
        lines.append(f"  {system}: " + "; ".join(parts))
    attributes = list(next(iter(results.values()))["buckets"])
    rows = [[system] + [_pair(view["model_wise"][system][a]) for a in attributes]
            for system in results]
    lines += ["", "Model-wise (Spearman of F1 with bucket order / std of bucket F1 %):",
              format_table(["system"] + attributes, rows)]
    attribute_view = view["attribute_wise"]
    lines += ["", "Attribute-wise (zeta = mean value over gold units; rho = mean |Spearman|):",
              format_table(["", *attributes],
                           [["zeta"] + [_number(attribute_view[a]["zeta"]) for a in attributes],
                            ["rho"] + [_number(attribute_view[a]["rho"]) for a in attributes]])]
    first, *others = results
    for b in others:  # keyed "first vs b" (never split: a name may hold " vs ")
        per_attribute = view["comparative_diagnosis"][f"{first} vs {b}"]
        parts = [f"{attr}: largest {100 * d['exceeds_by']:+.1f} at {d['most_exceeds']}, "
                 f"smallest {100 * d['trails_by']:+.1f} at {d['most_trails']}"
                 for attr, d in per_attribute.items() if "most_exceeds" in d]
        lines += ["", f"Comparative diagnosis, {first} minus {b} (F1 points):"]
        lines += [f"  {p}" for p in parts]
    return "\n".join(lines)


def _pair(entry: dict) -> str:
    rho = "-" if entry["spearman"] is None else f"{entry['spearman']:+.2f}"
    std = "-" if entry["std"] is None else f"{100 * entry['std']:.1f}"
    return f"{rho}/{std}"


def _number(value) -> str:
    return "-" if value is None else f"{value:.4g}"


def _training(args, path=None):
    """The training index of ``path`` (a manifest's) or of --train."""
    if not (path or args.train):
        raise UsageError("give --train FILE (the attributes look up the training set)")
    if path:
        args = copy.copy(args)
        args.train = path
    return load_training(args)


def run(args) -> int:
    options = from_args(args, ATTRIBUTE_BUCKETS)
    if args.datasets:
        return _run_datasets(args, options)
    train = _training(args)
    corpus, systems = load_systems_with_tokens(args)
    results = compute(corpus, systems, train, **options)
    dicts = {name: result.to_dict() for name, result in results.items()}
    significance = None
    if args.runs:
        if len(systems) < 2:
            raise UsageError("--runs needs at least two PRED files (runs of one system)")
        significance = analysis.significance_datasets(
            {name: {"system": d} for name, d in dicts.items()})
    if args.plot:
        plots.save_all(dicts, args.plot, fmt=args.plot_format)
    if args.format == "json":
        if significance is not None:
            print_json({"runs": dicts, "significance": significance})
        else:
            print_json(dicts[systems[0]] if len(systems) == 1 else dicts)
        return 0
    print(tables(dicts))
    print("F1 in %; - = empty bucket (no gold and no predicted unit)")
    print()
    print(diagnoses(dicts))
    if significance is not None:
        print("\n" + significance_text(significance))
    matrices = confusion_text(dicts)
    if matrices:
        print(f"\n{matrices}")
    if args.plot:
        print(f"\ncharts written to {args.plot}")
    return 0


def _run_datasets(args, options) -> int:
    if args.gold or args.train or args.runs:
        raise UsageError("--datasets reads every file from the manifest: give no GOLD, "
                         "PRED, --train or --runs")
    datasets = read_manifest(args.datasets, args)
    systems = datasets[0].systems
    results = {}
    for data in datasets:
        if data.systems != systems:
            raise UsageError(f"{args.datasets}: dataset {data.name!r} has systems "
                             f"{data.systems}, the first one {systems}: give every dataset "
                             "the same systems")
        if not data.train:
            raise UsageError(f"{args.datasets}: dataset {data.name!r} has no \"train\"")
        train = _training(args, data.train)
        results[data.name] = {name: r.to_dict() for name, r in
                              compute(data.corpus, systems, train, **options).items()}
    baseline = args.baseline or systems[0]
    if baseline not in systems:
        raise UsageError(f"--baseline {baseline!r} is not one of the systems {systems}")
    out = {"datasets": results,
           "attribute_wise": analysis.attribute_wise_datasets(results),
           "significance": analysis.significance_datasets(results, baseline)}
    if args.plot:
        plots.save_datasets(results, args.plot, baseline, fmt=args.plot_format)
    if args.format == "json":
        print_json(out)
        return 0
    print(datasets_text(out, systems))
    if args.plot:
        print(f"\ncharts written to {args.plot}")
    return 0


def datasets_text(out: dict, systems: list) -> str:
    """Holistic F1 table (datasets x systems), zeta/rho per dataset, the tests."""
    results = out["datasets"]
    lines = ["Overall F1 (%):", format_table(["dataset"] + systems,
                                             [[name] + [r[s]["f1"] for s in systems]
                                              for name, r in results.items()])]
    attrs = list(next(iter(out["attribute_wise"].values())))
    for key, title in (("zeta", "mean attribute value over gold units"),
                       ("rho", "mean |Spearman| over systems")):
        rows = [[name] + [_number(view[a][key]) for a in attrs]
                for name, view in out["attribute_wise"].items()]
        lines += ["", f"Attribute-wise {key} ({title}):", format_table(["dataset"] + attrs, rows)]
    lines += ["", significance_text(out["significance"])]
    return "\n".join(lines)


def significance_text(significance: dict) -> str:
    """Friedman (per system and attribute) and Wilcoxon (per pair) p-values as tables."""
    friedman = significance["friedman"]
    attrs = list(next(iter(friedman.values())))
    rows = [[system] + [_number(friedman[system][a]["pvalue"]) for a in attrs]
            for system in friedman]
    lines = [f"Friedman test across buckets over "
             f"{counted(significance['n_datasets'], 'dataset/run', 'datasets/runs')} "
             "(p-value; - = not computable):", format_table(["system"] + attrs, rows)]
    if significance["wilcoxon"]:
        keys = ["overall"] + attrs
        rows = [[pair] + [_number(entry[k]["pvalue"]) for k in keys]
                for pair, entry in significance["wilcoxon"].items()]
        lines += ["", "Wilcoxon signed-rank test, paired F1 (overall) and bucket F1 (per "
                  "attribute) over the datasets/runs (p-value):",
                  format_table(["pair"] + keys, rows)]
    return "\n".join(lines)
