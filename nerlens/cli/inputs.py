"""GOLD [PRED ...] and --train for every subcommand: the flags that say how to read them,
and the reading, through ``nerspan.reading.systems`` (the one loader behind the API and the CLI):
column files, saved ``datasets`` folders and, with --jsonl, span files (``span_files``)."""
from __future__ import annotations

from pathlib import Path

from nerspan import GOLD, Corpus, InputOptions, TrainIndex, as_train_index, read_columns
from nerspan.records import FileOptions, TypeOptions
from nerspan.reading import systems as library
from nerspan.reading.forms import as_written, finished
from nerspan.reading.systems import check_tags

from .common import UsageError, check_file, note, prediction_paths
from .flags import DECODING, Shared, add_flags
from .generated_files import add_generated_arguments, generated_files
from .options import given, inputs_of, type_processing
from .span_files import refuse_span_flags, span_paths


# the FileOptions flags of every command that reads column files, of --train, of --jsonl
READING = ("token_column", "gold_tag_column", "pred_tag_column", "comment_prefix", "encoding",
           "missing_tag", "allow_token_mismatch")
TRAINING = ("train_tag_column", "train_token_column")
SPAN_FILES = ("jsonl", "inclusive_end", "snap", "offsets")


def add_input_arguments(parser, multiple_predictions: bool = True) -> None:
    """GOLD [PRED ...] and the options that say how to read them."""
    parser.add_argument("gold", nargs="?", help="gold column file (token first)")
    parser.add_argument("predictions", nargs="*" if multiple_predictions else "?",
                        help="prediction file(s), token first and tag last; omitted: GOLD "
                             "holds both gold and prediction columns (second-to-last and "
                             "last)")
    add_flags(parser, Shared, DECODING)
    add_reading_arguments(parser)
    add_flags(parser, InputOptions, ("suffix",) + SPAN_FILES)
    add_generated_arguments(parser)


def add_reading_arguments(parser) -> None:
    """How every column file is read: the same flags in every command (and the types)."""
    add_flags(parser, FileOptions, READING)
    add_flags(parser, InputOptions, ("layers",))
    add_flags(parser, TypeOptions)


def add_train_arguments(parser, required: bool = True, note: str | None = None):
    """--train FILE and its columns, for the methods that index the training set."""
    add_flags(parser, Shared, ("train",), required=("train",) if required else (),
              notes={"train": note})
    add_flags(parser, FileOptions, TRAINING)


def system_options(args, outside_scheme_is_error: bool = False) -> dict:
    """The options of ``nerspan.reading.systems``' readers of the flags: the scheme and
    mode, the input options (``inputs_of``), how bad tags and repaired rows are told."""
    return dict(scheme=args.scheme, mode=args.mode, inputs=inputs_of(args),
                outside_scheme_is_error=outside_scheme_is_error, on_repairs=report_repairs)


def read_training(args, outside_scheme_is_error: bool = False) -> Corpus:
    """The --train column file as read, its tags checked (named as the training file's);
    ``as_train_index`` reads it on (suffix, types) as it reads every training set."""
    column = -1 if args.train_tag_column is None else args.train_tag_column   # last
    corpus = read_columns(check_file(args.train), {GOLD: column},
                          token_column=args.train_token_column, **_file_reading(args))
    report_repairs(corpus)
    check_tags(corpus, GOLD, args.scheme, args.mode, "training", outside_scheme_is_error,
               given(args, "suffix"))
    return corpus


def _file_reading(args) -> dict:
    """How --train is read as a column file (``read_columns``' options of the flags)."""
    files = inputs_of(args).files
    return dict(comment_prefix=files.comment_prefix, encoding=files.encoding,
                missing_tag=files.missing_tag)


def load_training(args) -> TrainIndex:
    """The training index of --train, decoded with --scheme and --mode."""
    return as_train_index(read_training(args), args.scheme, args.mode, inputs=inputs_of(args))


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
    after its file); without PRED, GOLD holds both columns. ``nerspan.reading.systems``,
    which reads them as every input is read (--suffix, the type flags)
    (``keep_tokens=False``: no tokens in the corpus, for commands that do not show them)."""
    type_processing(args)  # flag errors before any reading
    options = system_options(args, outside_scheme_is_error)
    if given(args, "jsonl"):
        if given(args, "generated"):
            raise UsageError("--generated reads GOLD as a column file or a saved split, "
                             "not with --jsonl span files")
        if given(args, "suffix"):
            raise UsageError("--suffix reads tags written type first (PER-B); --jsonl spans "
                             "have types, not tags")
        gold, preds = span_paths(args)
        return library.read_systems(gold, preds, keep_tokens=keep_tokens, **options)
    if not args.gold:
        raise UsageError("no GOLD file given")
    refuse_span_flags(args)
    gold = args.gold if Path(args.gold).is_dir() else check_file(args.gold)
    corpus, systems = library.read_systems(
        gold, [check_file(p) for p in prediction_paths(args)] or None,
        generated=generated_files(args), keep_tokens=keep_tokens, **options)
    for name, record in corpus.source.generated.items():
        note(f"{name}: {record.summary()}; an entity not found in its sentence is a "
             "wrong prediction in every precision (hardeval's token error rates have no "
             "token for it: it is counted beside them)")
    return corpus, systems


def load_generated(args) -> tuple[Corpus, list[tuple[str, Corpus, dict]]]:
    """GOLD and the --generated files as they are, for the library calls that read the
    responses themselves (``nerspan.score`` with ``matching="strings"``, ``faireval.score``
    with ``overlaps="keep"``): the gold corpus (tags turned round with --suffix, types as
    they are: the call processes them) and, per file, its name, the gold sentences it
    answers and the file read (``nerspan.reading.systems.read_answers``)."""
    if given(args, "jsonl"):
        raise UsageError("--generated reads GOLD as a column file or a saved split, not "
                         "with --jsonl span files")
    if not args.gold:
        raise UsageError("no GOLD file given")
    refuse_span_flags(args)
    gold = args.gold if Path(args.gold).is_dir() else check_file(args.gold)
    options = system_options(args)
    corpus = finished(library.read_gold(gold, **options), [GOLD],
                      InputOptions.of(None, suffix=options["inputs"].suffix))
    answers = []
    for name, path in generated_files(args).items():
        answered, read = library.read_answers(corpus, path, options["inputs"].files.encoding)
        answers.append((name, answered, read))
    return corpus, answers


def read_gold(args, path: str, outside_scheme_is_error: bool = False) -> Corpus:
    """The GOLD column file alone (--gold-tag-column, default last), its tags checked,
    finished as every input is (--suffix, the type flags; its types are checked once
    predictions are added: ``add_predictions``)."""
    options = system_options(args, outside_scheme_is_error)
    corpus = library.read_gold(check_file(path), **options)
    return finished(corpus, [GOLD], options["inputs"], args.scheme, args.mode, check=False)


def add_predictions(args, corpus: Corpus, paths: list[str],
                    outside_scheme_is_error: bool = False,
                    names: list[str] | None = None,
                    what: str | None = None) -> tuple[Corpus, list[str]]:
    """``corpus`` (read already) plus one column per prediction file
    (``nerspan.reading.systems.add_systems``); the columns are ``names`` (default: the
    file names, made unique); ``what`` they are, for errors (default: predictions)."""
    options = system_options(args, outside_scheme_is_error)
    paths = [check_file(p) for p in paths]
    systems = dict(zip(names, paths)) if names else paths
    corpus, columns = library.add_systems(as_written(corpus, options["inputs"]), systems,
                                          what=what, **options)
    return finished(corpus, columns, options["inputs"], args.scheme, args.mode), columns


def report_repairs(corpus: Corpus) -> None:
    """A note on stderr for the rows --missing-tag filled in."""
    text = library.repaired_lines_text(corpus, "--missing-tag")
    if text:
        note(f"{corpus.source.path}: {text}")
