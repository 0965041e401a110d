"""``nerlens report``: all four methods, several systems, intervals, JSON and HTML."""
from __future__ import annotations

import sys
from pathlib import Path

from nerspan import GOLD, Corpus, as_train_index, read_columns

from .common import (UsageError, add_predictions, add_reading_arguments, add_train_arguments,
                     check_file, check_tags, non_negative_int, read_gold, read_training)
from .experiment_inputs import add_experiment_arguments, is_experiment, run_experiment
from .span_files import add_span_arguments, load_span_systems

NAME = "report"
HELP = "every method in one pass: terminal summary, report.json and report.html"


def add_arguments(parser) -> None:
    parser.add_argument("predictions", nargs="*", help="prediction column file(s), tag last")
    parser.add_argument("--gold", help="gold column file (token first, tag last)")
    add_train_arguments(parser, required=False, help_text="training column file (token first, "
                        "tag last), or a datasets split saved with save_to_disk")
    parser.add_argument("--dataset", help="the evaluation data as a datasets split saved with "
                                          "save_to_disk (instead of --gold)")
    parser.add_argument("--split", default=None, help="split of a saved DatasetDict")
    parser.add_argument("--tokens-column", default="tokens")
    parser.add_argument("--tags-column", default="ner_tags")
    parser.add_argument("--output", default=".", help="folder for report.json and report.html")
    parser.add_argument("--bootstrap", type=non_negative_int, default=1000,
                        help="bootstrap samples for the intervals (0 = none; default 1000)")
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--baseline", help="the system the others are compared with "
                                           "(default: the first)")
    parser.add_argument("--min-share", type=float, default=0.0, metavar="FRACTION",
                        help="leave tough-mention subsets holding less than this share of "
                             "the gold mentions out of the recall table (the paper: 0.01)")
    parser.add_argument("--scheme", default="IOB2")
    parser.add_argument("--mode", default="lenient", choices=("lenient", "strict"))
    parser.add_argument("--demo", action="store_true",
                        help="the embedded WNUT-17 demo: spaCy's output and a memorisation "
                             "baseline")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--format", default="table", choices=("table", "json"),
                        help="what to print: the summary table or the JSON")
    add_reading_arguments(parser)
    add_span_arguments(parser)
    add_experiment_arguments(parser)


def _load_dataset(path: str, split: str | None, default_split: str):
    import datasets

    loaded = datasets.load_from_disk(check_file(path))
    if isinstance(loaded, datasets.DatasetDict):
        name = split or default_split
        if name not in loaded:
            raise UsageError(f"{path}: no split {name!r} (has {sorted(loaded)})")
        loaded = loaded[name]
    return loaded


def _evaluation_corpus(args) -> tuple[Corpus, list[str]]:
    if args.jsonl:  # --gold and the predictions are JSON Lines span files
        return load_span_systems(args)
    if args.dataset:
        data = _load_dataset(args.dataset, args.split, "test")
        corpus = Corpus.from_dataset(data, tags_column=args.tags_column,
                                     tokens_column=args.tokens_column)
        check_tags(corpus, GOLD, args.scheme, args.mode, "gold", outside_scheme_is_error=True)
    elif args.gold:
        corpus = read_gold(args, check_file(args.gold), outside_scheme_is_error=True)
    else:
        raise UsageError("give --gold FILE or --dataset DIR (or --demo)")
    if not args.predictions:
        raise UsageError("give at least one prediction file")
    return add_predictions(args, corpus, [check_file(p) for p in args.predictions],
                           outside_scheme_is_error=True)


def _training(args):
    if not args.train:
        raise UsageError("give --train FILE (the training split indexes the unseen mentions)")
    if Path(args.train).is_dir():
        return _load_dataset(args.train, None, "train")
    return read_training(args, outside_scheme_is_error=True)


def run(args) -> int:
    from nerlens.report import report

    if is_experiment(args):
        return run_experiment(args)
    if args.demo:
        from nerlens.baseline import MEMORISATION_NOTE, with_memorisation_baseline
        from nerlens.demo import DEMO_NOTES, demo_gold, demo_systems, demo_train

        train = read_columns(demo_train(), {GOLD: -1})
        corpus = read_columns(demo_gold(), {GOLD: -1})
        names = []
        for name, path in demo_systems().items():
            corpus = corpus.with_columns(read_columns(path, {GOLD: -1}), {GOLD: name})
            names.append(name)
        index = as_train_index(train, args.scheme, args.mode)
        corpus = with_memorisation_baseline(index, corpus, "memorisation")
        names.append("memorisation")
        train = index
        notes = [*DEMO_NOTES, MEMORISATION_NOTE]
        inputs = {"gold": "demo: WNUT-17 test", "train": "demo: WNUT-17 train",
                  "systems": {"spacy_sm": "demo: spaCy en_core_web_sm 3.8.0",
                              "memorisation": "the memorisation baseline"}}
    else:
        corpus, names = _evaluation_corpus(args)
        train = _training(args)
        notes = []
        inputs = {"gold": args.gold or f"{args.dataset} (split {args.split or 'test'})",
                  "train": args.train, "systems": dict(zip(names, args.predictions))}

    result = report(None, corpus=corpus, system_names=names, train=train, scheme=args.scheme,
                    mode=args.mode, bootstrap=args.bootstrap, seed=args.seed,
                    baseline=args.baseline, min_share=args.min_share,
                    progress=not args.no_progress and sys.stderr.isatty(), inputs=inputs,
                    notes=notes)
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    text = result.to_json(output / "report.json")
    result.to_html(output / "report.html")
    if args.format == "json":
        print(text)
    else:
        print(result.summary())
        print(f"\nwrote {output / 'report.json'} and {output / 'report.html'}", file=sys.stderr)
    return 0
