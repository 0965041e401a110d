"""GOLD [PRED ...] and --train for every subcommand: the flags that say how to read them,
and the reading, through ``nerspan.reading.systems`` (the one loader behind the API and the CLI):
column files, saved ``datasets`` folders and, with --jsonl, span files (``span_files``)."""
from __future__ import annotations

from pathlib import Path

from nerspan import GOLD, Corpus, TrainIndex, as_train_index, read_columns
from nerspan.type_processing import process_corpus
from nerspan.reading.forms import suffixed

from nerspan.reading import systems as library
from nerspan.reading.systems import check_tags

from .common import (UsageError, add_alias, add_type_arguments, check_file, encoding_name,
                     note, prediction_paths)
from .generated_files import add_generated_arguments, generated_options
from .options import READ, SPANS, SYSTEMS, from_args, given, type_processing
from .span_files import add_span_arguments, refuse_span_flags, span_paths


def add_input_arguments(parser, multiple_predictions: bool = True) -> None:
    """GOLD [PRED ...] and the options that say how to read them."""
    parser.add_argument("gold", nargs="?", help="gold column file (token first)")
    parser.add_argument("predictions", nargs="*" if multiple_predictions else "?",
                        help="prediction file(s), token first and tag last; omitted: GOLD "
                             "holds both gold and prediction columns (second-to-last and "
                             "last)")
    add_reading_arguments(parser)
    parser.add_argument("--scheme", default="IOB2",
                        help="tag scheme: IOB1, IOB2/BIO, IOE1, IOE2, IOBES/BIOES, BMES, "
                             "BILOU, IO (default IOB2)")
    parser.add_argument("--mode", default="lenient", choices=("lenient", "strict"),
                        help="lenient = conlleval.pl's chunk rules (default); strict = "
                             "seqeval's strict mode")
    parser.add_argument("--suffix", action="store_true",
                        help="tags are written type first, prefix last (PER-B), as "
                             "seqeval's suffix=True: split on the last hyphen")
    parser.add_argument("--format", default="table", choices=("table", "json"))
    add_span_arguments(parser)
    add_generated_arguments(parser)


def add_reading_arguments(parser) -> None:
    """How every column file is read: the same flags in every command."""
    parser.add_argument("--gold-tag-column", type=int, default=None, metavar="INDEX",
                        help="position of GOLD's tag column, 0-based, negative from the "
                             "end (default: last, or second-to-last when PRED is omitted)")
    parser.add_argument("--pred-tag-column", type=int, default=-1, metavar="INDEX",
                        help="position of the prediction tag column (default -1: last)")
    add_alias(parser, "--gold-column", "--gold-tag-column", "gold_tag_column", type=int)
    add_alias(parser, "--pred-column", "--pred-tag-column", "pred_tag_column", type=int)
    parser.add_argument("--token-column", type=int, default=0,
                        help="token column of GOLD (default 0, the first; GermEval: 1); "
                             "prediction files hold their token first")
    parser.add_argument("--comment-prefix", default=None,
                        help="skip lines starting with this (e.g. '#') before a sentence; "
                             "inside a sentence such a line is a token")
    parser.add_argument("--encoding", default="utf-8", type=encoding_name,
                        help="text encoding of every input file (default utf-8; a BOM is "
                             "dropped)")
    parser.add_argument("--missing-tag", default=None, metavar="TAG",
                        help="read a row without its tag as this tag (e.g. O) instead of "
                             "failing; the rows are counted on stderr")
    parser.add_argument("--allow-token-mismatch", action="store_true",
                        help="accept prediction files whose tokens differ from GOLD's "
                             "(systems that normalise quotes or brackets); counted on stderr")
    add_type_arguments(parser)


def add_train_arguments(parser, required: bool = True,
                        help_text: str = "training column file (token first, tag last)"):
    """--train FILE and its columns, for the methods that index the training set."""
    parser.add_argument("--train", required=required, help=help_text)
    parser.add_argument("--train-tag-column", type=int, default=-1,
                        help="tag column of the training file (default: last)")
    parser.add_argument("--train-token-column", type=int, default=0,
                        help="token column of the training file (default 0, the first)")


def system_options(args, outside_scheme_is_error: bool = False) -> dict:
    """The ``nerspan.reading.systems.read_systems`` options of the flags (``options.SYSTEMS``)."""
    return from_args(args, SYSTEMS, outside_scheme_is_error=outside_scheme_is_error,
                   on_repairs=report_repairs)


def read_training(args, outside_scheme_is_error: bool = False) -> Corpus:
    """The --train column file, its tags checked (named as the training file's)."""
    corpus = read_columns(check_file(args.train), {GOLD: args.train_tag_column},
                          token_column=args.train_token_column, **from_args(args, READ))
    report_repairs(corpus)
    check_tags(corpus, GOLD, args.scheme, args.mode, "training", outside_scheme_is_error,
               given(args, "suffix"))
    corpus = with_suffix(args, corpus)
    # processed as gold and predictions are; its types are checked beside theirs
    return process_corpus(corpus, [GOLD], args.scheme, args.mode, type_processing(args),
                          check=False)


def load_training(args) -> TrainIndex:
    """The training index of --train, decoded with --scheme and --mode."""
    return as_train_index(read_training(args), args.scheme, args.mode)


def load_systems_with_tokens(args) -> tuple[Corpus, list[str]]:
    """``load_systems``, and the GOLD file must hold the tokens."""
    corpus, systems = load_systems(args)
    if corpus.tokens is None:
        raise UsageError(f"{args.gold}: no token column")
    return corpus, systems


def refuse_files_with_demo(args) -> None:
    """``--demo`` scores the embedded demo: files given with it would be ignored."""
    files = [usage for name, usage in (("gold", "GOLD"), ("predictions", "PRED"),
                                       ("generated", "--generated"), ("train", "--train"))
             if given(args, name)]
    if files:
        raise UsageError(f"--demo scores the embedded demo; {', '.join(files)} would be "
                         "ignored: give either --demo or files")


def load_systems(args, outside_scheme_is_error: bool = False,
                 keep_tokens: bool = True) -> tuple[Corpus, list[str]]:
    """GOLD [PRED ...] as one corpus: column ``gold`` and one column per system (named
    after its file); without PRED, GOLD holds both columns. ``nerspan.reading.systems``
    (``keep_tokens=False``: no tokens in the corpus, for commands that do not show them)."""
    processing = type_processing(args)  # flag errors before any reading
    if given(args, "jsonl"):
        if given(args, "generated"):
            raise UsageError("--generated reads GOLD as a column file or a saved split, "
                             "not with --jsonl span files")
        if given(args, "suffix"):
            raise UsageError("--suffix reads tags written type first (PER-B); --jsonl spans "
                             "have types, not tags")
        gold, preds = span_paths(args)
        corpus, systems = library.read_systems(gold, preds, jsonl=True, keep_tokens=keep_tokens,
                                               encoding=args.encoding, **from_args(args, SPANS))
    else:
        if not args.gold:
            raise UsageError("no GOLD file given")
        refuse_span_flags(args)
        gold = args.gold if Path(args.gold).is_dir() else check_file(args.gold)
        corpus, systems = library.read_systems(
            gold, [check_file(p) for p in prediction_paths(args)] or None,
            split=given(args, "split"), tokens_column=given(args, "tokens_column"),
            tags_column=given(args, "tags_column"), keep_tokens=keep_tokens,
            **generated_options(args), **system_options(args, outside_scheme_is_error))
        for name, record in corpus.source.generated.items():
            note(f"{name}: {record.summary()}; an entity not found in its sentence is a "
                 "wrong prediction in every precision (hardeval's token error rates have no "
                 "token for it: it is counted beside them)")
        corpus = with_suffix(args, corpus)
    # --keep-types, --remove-types, --map-types: on every column, as the API's read_input
    scheme = "IOB2" if given(args, "jsonl") else args.scheme
    return process_corpus(corpus, [GOLD, *systems], scheme, args.mode, processing), systems


def load_generated(args) -> tuple[Corpus, list[tuple[str, Corpus, dict]]]:
    """GOLD and the --generated files as they are, for the library calls that read the
    responses themselves (``nerspan.score`` with ``matching="strings"``, ``faireval.score``
    with ``overlaps="keep"``): the gold corpus and, per file, its name, the gold sentences
    it answers and the file read (``nerspan.reading.systems.read_answers``)."""
    if given(args, "jsonl"):
        raise UsageError("--generated reads GOLD as a column file or a saved split, not "
                         "with --jsonl span files")
    if not args.gold:
        raise UsageError("no GOLD file given")
    refuse_span_flags(args)
    gold = args.gold if Path(args.gold).is_dir() else check_file(args.gold)
    corpus = with_suffix(args, library.read_gold(
        gold, split=given(args, "split"), tokens_column=given(args, "tokens_column"),
        tags_column=given(args, "tags_column"),
        **{key: value for key, value in system_options(args).items()
           if key not in ("pred_tag_column", "allow_token_mismatch")}))
    answers = []
    for name, path in generated_options(args)["generated"].items():
        answered, read = library.read_answers(corpus, path, args.encoding)
        answers.append((name, answered, read))
    return corpus, answers


def with_suffix(args, corpus: Corpus, undo: bool = False) -> Corpus:
    """``corpus`` with --suffix tags (``PER-B``, checked as they were read) in the usual
    order (``undo``: back)."""
    return suffixed(corpus, undo) if given(args, "suffix") else corpus


def read_gold(args, path: str, outside_scheme_is_error: bool = False) -> Corpus:
    """The GOLD column file (--gold-tag-column, default last), its tags checked."""
    options = system_options(args, outside_scheme_is_error)
    for key in ("pred_tag_column", "allow_token_mismatch"):
        options.pop(key)
    corpus = with_suffix(args, library.read_gold(check_file(path), **options))
    # its types are checked once predictions are added (add_predictions)
    return process_corpus(corpus, [GOLD], args.scheme, args.mode, type_processing(args),
                          check=False)


def add_predictions(args, corpus: Corpus, paths: list[str],
                    outside_scheme_is_error: bool = False,
                    names: list[str] | None = None,
                    what: str | None = None) -> tuple[Corpus, list[str]]:
    """``corpus`` plus one column per prediction file (``nerspan.reading.systems.add_systems``);
    the columns are ``names`` (default: the file names, made unique); ``what`` they are,
    for errors (default: predictions)."""
    options = system_options(args, outside_scheme_is_error)
    for key in ("gold_tag_column", "token_column"):
        options.pop(key)
    paths = [check_file(p) for p in paths]
    systems = dict(zip(names, paths)) if names else paths
    # the gold's labels turned back, then all of them turned round at once
    corpus, columns = library.add_systems(with_suffix(args, corpus, undo=True), systems,
                                          what=what, **options)
    corpus = with_suffix(args, corpus)
    return process_corpus(corpus, columns, args.scheme, args.mode, type_processing(args)), columns


def report_repairs(corpus: Corpus) -> None:
    """A note on stderr for the rows --missing-tag filled in."""
    text = library.repaired_lines_text(corpus, "--missing-tag")
    if text:
        note(f"{corpus.source.path}: {text}")
