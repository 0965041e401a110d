"""What the subcommands share: reading GOLD [PRED ...] files, output, errors."""
from __future__ import annotations

import argparse
import codecs
import json
import os
import sys
import warnings
from pathlib import Path

from nerspan import GOLD, Corpus, NerspanError, TrainIndex, as_train_index, read_columns
from nerspan.readers import undecodable_error
from nerlens import systems as library
from nerlens.systems import check_tags

from ..jsonable import json_ready  # noqa: F401 (the commands' JSON output)


class UsageError(Exception):
    """A problem with the command line or the input files: exit code 2, one line."""


def encoding_name(text: str) -> str:
    """argparse type: a text encoding Python knows."""
    try:
        codecs.lookup(text)
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {text!r}") from None
    return text


def read_text_file(reader, path: str, encoding: str):
    """``reader(path, encoding=...)``, a UTF-8 BOM dropped and undecodable bytes named
    (file, line, byte offset), as ``read_columns`` does for column files."""
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    try:
        return reader(path, encoding=codec)
    except UnicodeDecodeError as error:
        raise undecodable_error(path, codec, error) from None


def load_json(text: str, where: str):
    """``json.loads(text)``, a key given twice in one object (two datasets or systems of
    one name) an error naming ``where``: JSON keeps the last one silently."""
    def distinct(pairs: list) -> dict:
        keys = [key for key, _ in pairs]
        for key in keys:
            if keys.count(key) > 1:
                raise UsageError(f"{where}: {key!r} is given twice in one object (the "
                                 "second would replace the first)")
        return dict(pairs)

    return json.loads(text, object_pairs_hook=distinct)


def non_negative_int(text: str) -> int:
    """argparse type: a whole number >= 0 (``--bootstrap -5`` is a usage error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


class DeprecatedAlias(argparse.Action):
    """A hidden old flag: does what ``new`` does and prints one warning line.

    ``const`` given: a flag without a value that stores ``const`` (``--case-insensitive``
    stores ``case_sensitive=False``); otherwise it takes the value ``new`` takes.
    """

    def __init__(self, option_strings, dest, new: str, const=None, nargs=None, **kwargs):
        self.new = new
        super().__init__(option_strings, dest, nargs=0 if const is not None else nargs,
                         const=const, help=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        deprecated(option_string, self.new)
        setattr(namespace, self.dest, self.const if self.nargs == 0 else values)


def deprecated(old: str, new: str) -> None:
    """The one warning line of a deprecated flag."""
    print(f"nerlens: warning: {old} is deprecated: use {new} ({old} goes in the next "
          "release)", file=sys.stderr)


def add_alias(parser, old: str, new: str, dest: str, **kwargs) -> None:
    """``old`` as a hidden deprecated alias of ``new`` (same ``dest``)."""
    parser.add_argument(old, dest=dest, action=DeprecatedAlias, new=new,
                        default=argparse.SUPPRESS, **kwargs)


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
    parser.add_argument("--format", default="table", choices=("table", "json"))
    from .span_files import add_span_arguments  # span_files imports this module
    add_span_arguments(parser)


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


def add_train_arguments(parser, required: bool = True,
                        help_text: str = "training column file (token first, tag last)"):
    """--train FILE and its columns, for the methods that index the training set."""
    parser.add_argument("--train", required=required, help=help_text)
    parser.add_argument("--train-tag-column", type=int, default=-1,
                        help="tag column of the training file (default: last)")
    parser.add_argument("--train-token-column", type=int, default=0,
                        help="token column of the training file (default 0, the first)")


def read_options(args) -> dict:
    return dict(comment_prefix=args.comment_prefix, encoding=args.encoding,
                missing_tag=args.missing_tag)


def system_options(args, outside_scheme_is_error: bool = False) -> dict:
    """The ``nerlens.systems.read_systems`` options of the reading flags."""
    return dict(scheme=args.scheme, mode=args.mode, gold_tag_column=args.gold_tag_column,
                pred_tag_column=args.pred_tag_column, token_column=args.token_column,
                allow_token_mismatch=args.allow_token_mismatch,
                outside_scheme_is_error=outside_scheme_is_error,
                on_repairs=report_repairs, **read_options(args))


def read_training(args, outside_scheme_is_error: bool = False) -> Corpus:
    """The --train column file, its tags checked (named as the training file's)."""
    corpus = read_columns(check_file(args.train), {GOLD: args.train_tag_column},
                          token_column=args.train_token_column, **read_options(args))
    report_repairs(corpus)
    check_tags(corpus, GOLD, args.scheme, args.mode, "training", outside_scheme_is_error)
    return corpus


def load_training(args) -> TrainIndex:
    """The training index of --train, decoded with --scheme and --mode."""
    return as_train_index(read_training(args), args.scheme, args.mode)


def load_systems_with_tokens(args) -> tuple[Corpus, list[str]]:
    """``load_systems``, and the GOLD file must hold the tokens."""
    corpus, systems = load_systems(args)
    if corpus.tokens is None:
        raise UsageError(f"{args.gold}: no token column")
    return corpus, systems


def prediction_paths(args) -> list[str]:
    """The PRED files (one or several positional arguments)."""
    preds = args.predictions
    return preds if isinstance(preds, list) else ([preds] if preds else [])


def refuse_files_with_demo(args) -> None:
    """``--demo`` scores the embedded demo: files given with it would be ignored."""
    given = [usage for name, usage in (("gold", "GOLD"), ("predictions", "PRED"),
                                       ("train", "--train")) if getattr(args, name, None)]
    if given:
        raise UsageError(f"--demo scores the embedded demo; {', '.join(given)} would be "
                         "ignored: give either --demo or files")


def load_systems(args, outside_scheme_is_error: bool = False,
                 keep_tokens: bool = True) -> tuple[Corpus, list[str]]:
    """GOLD [PRED ...] as one corpus: column ``gold`` and one column per system (named
    after its file); without PRED, GOLD holds both columns. ``nerlens.systems``
    (``keep_tokens=False``: no tokens in the corpus, for commands that do not show them)."""
    if getattr(args, "jsonl", False):
        from .span_files import span_paths  # span_files imports this module

        gold, preds = span_paths(args)
        return library.read_systems(gold, preds, jsonl=True, inclusive_end=args.inclusive_end,
                                    snap=args.snap, keep_tokens=keep_tokens,
                                    encoding=args.encoding)
    if not args.gold:
        raise UsageError("no GOLD file given")
    gold = args.gold if Path(args.gold).is_dir() else check_file(args.gold)
    return library.read_systems(gold, [check_file(p) for p in prediction_paths(args)] or None,
                                split=getattr(args, "split", None),
                                tokens_column=getattr(args, "tokens_column", "tokens"),
                                tags_column=getattr(args, "tags_column", "ner_tags"),
                                keep_tokens=keep_tokens,
                                **system_options(args, outside_scheme_is_error))


def read_gold(args, path: str, outside_scheme_is_error: bool = False) -> Corpus:
    """The GOLD column file (--gold-tag-column, default last), its tags checked."""
    options = system_options(args, outside_scheme_is_error)
    for key in ("gold_tag_column", "pred_tag_column", "allow_token_mismatch"):
        options.pop(key)
    return library.read_gold(check_file(path), tag_column=args.gold_tag_column, **options)


def add_predictions(args, corpus: Corpus, paths: list[str],
                    outside_scheme_is_error: bool = False,
                    names: list[str] | None = None) -> tuple[Corpus, list[str]]:
    """``corpus`` plus one column per prediction file (``nerlens.systems.add_systems``);
    the columns are ``names`` (default: the file names, made unique)."""
    options = system_options(args, outside_scheme_is_error)
    for key in ("gold_tag_column", "token_column"):
        options.pop(key)
    paths = [check_file(p) for p in paths]
    systems = dict(zip(names, paths)) if names else paths
    return library.add_systems(corpus, systems, **options)


def report_repairs(corpus: Corpus) -> None:
    """A note on stderr for the rows --missing-tag filled in."""
    text = library.repaired_lines_text(corpus, "--missing-tag")
    if text:
        note(f"{corpus.source.path}: {text}")


def note(message: str) -> None:
    print(f"note: {message}", file=sys.stderr)


def print_json(value) -> None:
    json.dump(json_ready(value), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def format_table(header: list[str], rows: list[list], align_first_left: bool = True) -> str:
    """A plain text table; floats are printed as percentages with 2 decimals."""
    def cell(v):
        if v is None or (isinstance(v, float) and v != v):  # undefined: one mark, never nan
            return "-"
        if isinstance(v, float):
            return f"{100 * v:.2f}"
        return str(v)
    body = [[cell(v) for v in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in body)) if body else len(str(h))
              for i, h in enumerate(header)]
    def line(values):
        return "  ".join(
            (v.ljust(w) if (i == 0 and align_first_left) else v.rjust(w))
            for i, (v, w) in enumerate(zip(values, widths)))
    return "\n".join([line([str(h) for h in header]), line(["-" * w for w in widths])]
                     + [line(r) for r in body])


MESSAGE_LIMIT = 500  # characters of an error message; values in it are cut to 80 already


def fail(message: str) -> int:
    message = " ".join(message.split("\n"))
    if len(message) > MESSAGE_LIMIT:
        message = message[:MESSAGE_LIMIT] + "... (cut; --debug shows all)"
    print(f"nerlens: error: {message}", file=sys.stderr)
    return 2


def run_guarded(run, args) -> int:
    """Run a subcommand: every error becomes one line on stderr and exit code 2 (with
    ``--debug`` the traceback instead); a closed output pipe (``| head``) ends quietly
    with code 0; library warnings become one ``nerlens: warning:`` line each."""
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            code = run(args) or 0
            sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
        return code
    except BrokenPipeError:
        _discard_stdout()
        return 0
    except KeyboardInterrupt:
        print("nerlens: interrupted", file=sys.stderr)
        return 130
    except Exception as error:
        if getattr(args, "debug", False):
            raise
        return fail(describe(error))


def describe(error: Exception) -> str:
    """One line for an exception: the message of an input error, the file of an OSError."""
    if isinstance(error, (NerspanError, UsageError)):
        return str(error)
    if isinstance(error, OSError) and error.filename is not None:
        reason = {FileNotFoundError: "no such file", IsADirectoryError: "is a directory, "
                  "not a file", PermissionError: "permission denied"}.get(type(error))
        return f"{error.filename}: {reason or error.strerror or error}"
    if isinstance(error, (ValueError, TypeError, KeyError, OSError)):
        return str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    return (f"internal error: {type(error).__name__}: {error} (run again with --debug for "
            "the traceback, and please report it)")


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    print(f"nerlens: warning: {message}", file=sys.stderr)


def _discard_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # stdout is no real file (a test's capture)


def check_file(path: str) -> str:
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    return path


def show_progress(args) -> bool:
    """--progress/--no-progress; neither: a bar when stderr is a terminal."""
    return sys.stderr.isatty() if args.progress is None else args.progress


def write_outputs(result, args, stem: str) -> None:
    """``STEM.json`` and ``STEM.html`` of a report or experiment into --output; prints
    the JSON (--format json) or the terminal summary."""
    output = Path(args.output)
    output.mkdir(parents=True, exist_ok=True)
    text = result.to_json(output / f"{stem}.json")
    result.to_html(output / f"{stem}.html")
    if args.format == "json":
        print(text)
    else:
        print(result.summary())
        print(f"\nwrote {output / (stem + '.json')} and {output / (stem + '.html')}",
              file=sys.stderr)
