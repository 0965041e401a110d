"""``nerlens faireval``: FairEval error types and traditional/fair/weight-table scores."""
from __future__ import annotations

import argparse
import sys

import faireval
from faireval import plots
from faireval.semeval import MIN_OVERLAP, check_min_overlap
from nerspan import GOLD, PRED, Evaluation, read_columns
from nerspan.options import PAIRINGS

from nerspan.reading.systems import answers_located, named_files, span_errors_located

from .common import (PLOT_FORMAT_HELP, UsageError, add_beta_argument,
                     add_confusion_argument, check_file, confusion_text, fbeta_column,
                     format_table, note, print_results, read_text_file, with_confusion)
from .inputs import add_input_arguments, load_generated, load_systems
from .options import FAIREVAL, KEEP, from_args, given, inputs_of
from .span_files import read_span_files, refuse_span_flags


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    parser.add_argument("--spans", action="store_true",
                        help="GOLD and PRED are FairEval span files (LABEL begin end tokens)")
    parser.add_argument("--weights", default=None,
                        help="add the scores of a weight table (weight_table_*): weighted "
                             "(the paper's preset), or a table as JSON or a JSON file: "
                             "{\"BEs\": [0.5, 0, 0.5], ...}")
    parser.add_argument("--focus", default="target", choices=faireval.result.FOCUS,
                        help="count LE and LBE per label under the target (default) or "
                             "the system label")
    parser.add_argument("--labels", default=None,
                        help="comma-separated labels to evaluate, in this order")
    parser.add_argument("--exclude", default="", help="comma-separated labels to drop")
    parser.add_argument("--confusion-tp", action="store_true",
                        help="put the TPs on the confusion matrix's diagonal")
    parser.add_argument("--ignore-punct", action="store_true",
                        help="remove punctuation tokens (by POS) from spans before matching")
    parser.add_argument("--pos-column", type=int, default=1,
                        help="POS column of GOLD for --ignore-punct (default 1)")
    parser.add_argument("--schemas", default=None,
                        help="semeval: add the SemEval-2013 Task 9.1 schemas (strict, exact, "
                             "partial, ent_type) as nervaluate counts them; or a "
                             "comma-separated list of some of them")
    parser.add_argument("--min-overlap", type=min_overlap_fraction, default=MIN_OVERLAP,
                        metavar="F",
                        help="with --schemas: the least overlap of a prediction that may "
                             "take a gold span, a fraction of the gold span's tokens in "
                             "(0, 1] (nervaluate's min_overlap_percentage / 100; default "
                             "0.01)")
    parser.add_argument("--pairing", default="greedy", choices=PAIRINGS,
                        help="with --schemas: how predictions take gold spans, greedy "
                             "(nervaluate's, default) or optimal (a maximum-weight pairing, "
                             "independent of the order)")
    parser.add_argument("--return-instances", action="store_true",
                        help="with --schemas: list every span with its outcome per schema "
                             "(semeval_instances in the JSON)")
    parser.add_argument("--csv", default=None, metavar="FILE",
                        help="with --schemas: write the per-instance listing as CSV to FILE "
                             "(FILE-SYSTEM.csv per system when there are several)")
    add_beta_argument(parser)
    add_confusion_argument(parser)
    parser.add_argument("--reference-iteration", action="store_true",
                        help="reproduce the reference code's numbers (it skips the span "
                             "after each match within a pass)")
    parser.add_argument("--plot", default=None, metavar="DIR",
                        help="write the paper's figures to DIR: error types, traditional vs "
                             "fair counting (error_types), and each system's confusion "
                             "matrix as a heat map (confusion_SYSTEM)")
    parser.add_argument("--plot-format", default="png", choices=("png", "svg"),
                        help=PLOT_FORMAT_HELP)


def min_overlap_fraction(text: str) -> float:
    """argparse type of ``--min-overlap``: a fraction in (0, 1]."""
    try:
        return check_min_overlap(float(text))
    except ValueError as error:
        message = str(error) if "fraction" in str(error) else \
            f"must be a fraction in (0, 1], not {text!r}"
        raise argparse.ArgumentTypeError(message) from None


# the SemEval flags and their defaults (not given)
SEMEVAL_FLAGS = {"min_overlap": ("--min-overlap", MIN_OVERLAP),
                 "pairing": ("--pairing", "greedy"),
                 "return_instances": ("--return-instances", False), "csv": ("--csv", None)}


def options(args) -> dict:
    """faireval's options of the flags (``options.FLAGS``: ``faireval.FairevalOptions``);
    the SemEval flags apply to the SemEval-2013 schemas only, and --csv lists the
    instances."""
    kwargs = {k: v for k, v in from_args(args, FAIREVAL).items()
              if k in faireval.FairevalOptions.names()}
    set_flags = [flag for name, (flag, default) in SEMEVAL_FLAGS.items()
                 if given(args, name) != default]
    if set_flags and not kwargs["schemas"]:
        raise UsageError(f"{', '.join(set_flags)} appl{'ies' if len(set_flags) == 1 else 'y'} "
                         "to the SemEval-2013 schemas: add --schemas semeval (or some of "
                         f"{', '.join(faireval.SCHEMAS)})")
    kwargs["return_instances"] = bool(kwargs["return_instances"] or args.csv)
    return kwargs


def _scored(args, references, predictions, kwargs: dict, **reading) -> dict:
    """One pair of span lists scored as they are (nested spans too), with --confusion
    the matrix of both read as every family reads them."""
    result = faireval.score(references, predictions, scheme=args.scheme, mode=args.mode,
                            options=kwargs, **reading).to_dict(beta=args.beta)
    evaluation = Evaluation.build(references, predictions, scheme=args.scheme,
                                  mode=args.mode, **reading) if args.confusion else None
    return with_confusion(result, evaluation, PRED, args.confusion)


def compute(args) -> dict:
    """System name -> result dict (compute()'s keys)."""
    kwargs = options(args)
    if from_args(args, KEEP)["overlaps"] == "keep":   # before the span files: it is --generated's
        return keep_overlaps(args, kwargs)
    preds = args.predictions if isinstance(args.predictions, list) else [args.predictions]
    if args.spans:
        if not args.gold or len(preds) != 1 or not preds[0]:
            raise UsageError("--spans needs TARGET and SYSTEM span files")
        if args.ignore_punct:
            raise UsageError("--ignore-punct needs POS tags, which span files do not have")
        refuse_span_flags(args)
        target = read_text_file(faireval.read_span_file, check_file(args.gold), args.encoding)
        system = read_text_file(faireval.read_span_file, check_file(preds[0]), args.encoding)
        [name] = named_files(preds)
        return {name: _scored(args, target, system, kwargs)}
    if args.jsonl:  # span lists as they are: nested and overlapping spans are scored too
        if args.ignore_punct:
            raise UsageError("--ignore-punct needs POS tags, which span files do not have")
        gold, systems = read_span_files(args)
        results = {}
        for name, path, system in systems:
            with span_errors_located(args.gold, gold, path, system):
                results[name] = _scored(args, gold["spans"], system["spans"], kwargs,
                                        tokens=gold["tokens"], inputs=inputs_of(
                                            args, texts=gold["texts"], jsonl=False))
        return results
    corpus, names = load_systems(args)
    pos = None
    if args.ignore_punct:
        files = inputs_of(args).files
        pos_corpus = read_columns(args.gold, {GOLD: args.pos_column},
                                  token_column=args.token_column,
                                  comment_prefix=files.comment_prefix,
                                  encoding=files.encoding, missing_tag=files.missing_tag)
        pos = [pos_corpus.tags(GOLD, i) for i in range(pos_corpus.n_sentences)]
        kwargs["ignore_punct"] = True   # no FLAGS row: it needs the POS column read here
    evaluation = Evaluation(corpus, args.scheme, args.mode)  # gold decoded once
    return {name: with_confusion(faireval.score(evaluation, name, pos=pos, options=kwargs)
                                 .to_dict(beta=args.beta), evaluation, name, args.confusion)
            for name in names}


def keep_overlaps(args, kwargs: dict) -> dict:
    """--generated output with --overlaps keep: each file's responses as
    ``faireval.score(gold, responses, overlaps="keep", ...)`` scores them (its grounded
    spans nested and overlapping as they are), the PRED files as usual."""
    if not given(args, "generated"):
        raise UsageError("--overlaps keep applies to --generated output: nerlens faireval "
                         f"{args.gold or 'GOLD'} --generated FILE.jsonl --overlaps keep")
    if args.ignore_punct:
        raise UsageError("--ignore-punct is not read with --overlaps keep: give one of them")
    if args.confusion:   # the entity matrix pairs flat mentions, as nerlens score does
        raise UsageError("--confusion counts flat mentions, --overlaps keep keeps nested and "
                         "overlapping spans: give one of them")
    # the PRED files as without --generated (the flags that read it left out)
    results = compute(argparse.Namespace(**{**vars(args), "generated": None,
                                            "overlaps": None})) if args.predictions else {}
    _, answers = load_generated(args)
    for name, gold, read in answers:
        with answers_located(f"generated {name!r}", gold, read):
            results[name] = faireval.score(
                gold, read["responses"], tokens=read["tokens"] if gold.tokens is None else None,
                scheme=args.scheme, mode=args.mode, inputs=inputs_of(args, suffix=False),
                options=kwargs).to_dict(beta=args.beta)
        note(f"{name}: {results[name]['repairs']['pred']['generative']['summary']}")
    return results


COUNT_COLUMNS = ["TP", "FP", "LE", "BE", "LBE", "FN"]
# the reference script's table titles, by key prefix (the weight table's: "Weighted")
KIND_TITLES = {"traditional": "Traditional", "fair": "Fair", "weight_table": "Weighted"}


def report(result: dict) -> str:
    """Per-label tables (traditional, fair, weight table if present), comparison,
    confusion (with ``--beta``, an F-beta column after each F1)."""
    fb = fbeta_column(result)
    extra = [fb[1]] if fb else []

    def scores(row, prefix=""):
        keys = ["precision", "recall", "f1"] + ([fb[0]] if fb else [])
        return [row[f"{prefix}{key}"] for key in keys]

    parts = []
    trad_rows = [[label, row["TP"], row["traditional_FP"], row["traditional_FN"]]
                 + scores(row, "traditional_") for label, row in result["per_type"].items()]
    tc = result["traditional_counts"]
    trad_rows.append(["overall", tc["TP"], tc["FP"], tc["FN"]] + scores(result, "traditional_"))
    parts.append("### Traditional evaluation\n" + format_table(
        ["Label", "TP", "FP", "FN", "Prec", "Rec", "F1"] + extra, trad_rows))
    kinds = ["fair"] + (["weight_table"] if "weight_table_f1" in result else [])
    columns = COUNT_COLUMNS + ["BEs", "BEl", "BEo"]
    for kind in kinds:
        rows = [[label] + [row[c] for c in columns] + scores(row, f"{kind}_")
                for label, row in result["per_type"].items()]
        rows.append(["overall"] + [result["counts"][c] for c in columns]
                    + scores(result, f"{kind}_"))
        parts.append(f"### {KIND_TITLES[kind]} evaluation\n" + format_table(
            ["Label"] + columns + ["Prec", "Rec", "F1"] + extra, rows))
    parts.append("### Comparison\n" + format_table(
        ["Version", "Prec", "Rec", "F1"] + extra,
        [[KIND_TITLES[kind]] + scores(result, f"{kind}_")
         for kind in ["traditional"] + kinds]))
    rows, columns, counts, summed = faireval.result.confusion_layout(
        faireval.result.error_confusion(result))
    parts.append("### Confusion of errors (rows: target, columns: system)\n" + format_table(
        ["Target\\System"] + columns, [[row] + cells for row, cells in zip(rows, counts)])
        + (f"\n{faireval.result.summed_note(summed, rows[-2])}" if summed else ""))
    for schema, row in result.get("semeval", {}).items():
        parts.append(semeval_table(schema, row, fb))
    return "\n\n".join(parts)


SEMEVAL_COLUMNS = ["correct", "incorrect", "partial", "missed", "spurious", "possible",
                   "actual"]


def semeval_table(schema: str, row: dict, fb: tuple | None = None) -> str:
    """One SemEval-2013 schema: counts and P/R/F1 (and F-beta, ``fb``: ``fbeta_column``)
    per type and overall."""
    keys = ["precision", "recall", "f1"] + ([fb[0]] if fb else [])
    rows = [[label] + [r[c] for c in SEMEVAL_COLUMNS] + [r[k] for k in keys]
            for label, r in row["per_type"].items()]
    rows.append(["overall"] + [row[c] for c in SEMEVAL_COLUMNS] + [row[k] for k in keys])
    return f"### SemEval-2013 {schema}\n" + format_table(
        ["Label"] + [c.title() for c in SEMEVAL_COLUMNS] + ["Prec", "Rec", "F1"]
        + ([fb[1]] if fb else []), rows)


def write_csv(results: dict, path: str) -> list[str]:
    """Each system's instance listing as CSV: to ``path``, or with several systems to
    ``path`` with ``-SYSTEM`` before its extension. Returns the paths written."""
    written = []
    for name, result in results.items():
        target = path
        if len(results) > 1:
            stem, dot, extension = path.rpartition(".")
            target = f"{stem}-{name}.{extension}" if dot else f"{path}-{name}"
        faireval.write_instances_csv(result["semeval_instances"], target)
        written.append(target)
    return written


def run(args) -> int:
    results = compute(args)
    if args.csv:
        for path in write_csv(results, args.csv):
            print(f"nerlens: wrote {path}", file=sys.stderr)
        if not args.return_instances:  # asked for the file, not for the listing in the output
            for result in results.values():
                result.pop("semeval_instances", None)
    if args.plot:
        plots.save_all(results, args.plot, fmt=args.plot_format)
    print_results(results, report, args.format == "json")
    if args.format == "json":
        return 0
    matrices = confusion_text(results)
    if matrices:
        print(f"\n{matrices}")
    if args.plot:
        print(f"\nfigures written to {args.plot}")
    return 0
