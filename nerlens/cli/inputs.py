"""Every input of the command line, read by ``nerspan.reading`` (the one reader behind the
API and the CLI, which alone decides what form a file is and refuses what does not apply
to it): GOLD [PRED ...] (column files, saved ``datasets`` folders, --jsonl span files),
--generated output, --train, --gold-alt versions (scored against like the gold; in an
experiment a version of the last --data before it, or ``DATASET:NAME=FILE``) and the two
annotations of ``diff`` / ``agreement``. Here: the flags, and the calls with them.
"""
from __future__ import annotations

import argparse

from nerspan import GOLD, Corpus, InputOptions, TrainIndex, as_train_index
from nerspan.reading import systems as library
from nerspan.reading.training import read_training_file
from nerspan.reading.forms import as_written, finished
from nerspan.reading.span_lists import read_span_jsonl
from nerspan.records import FileOptions, GeneratedOptions, TypeOptions
from nerspan.tagfiles import TagFile

from .common import UsageError, check_file, note, prediction_paths, show_result
from .flags import DECODING, Shared, add_flags, number_flag
from .options import given, inputs_of, type_processing

# the FileOptions flags of every command that reads column files, of --train, of --jsonl
READING = ("token_column", "gold_tag_column", "pred_tag_column", "comment_prefix", "encoding",
           "missing_tag", "allow_token_mismatch")
TRAINING = ("train_tag_column", "train_token_column")
SPAN_FILES = ("jsonl",) + library.SPAN_OPTIONS
VERSION_KIND = "gold_alt"   # a --gold-alt in ``declared``, the order of an experiment's flags


# -- the flags ---------------------------------------------------------------------------
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


def add_generated_arguments(parser) -> None:
    """--generated FILE.jsonl and how it is read (``GeneratedOptions``); --compat, which
    buckets reads (the others refuse it naming buckets, without importing the family)."""
    parser.add_argument("--generated", action="append", default=None, metavar="FILE.jsonl",
                        help="a JSON Lines file of an LLM's responses, one object per "
                             "sentence with \"response\" (and \"tokens\"/\"text\", "
                             "\"sentence\"): scored as a system (repeat for several)")
    add_flags(parser, GeneratedOptions, parse={"fuzzy": fraction})
    parser.add_argument("--compat", default=None, choices=("interpreteval", "universalner"),
                        help="interpreteval: InterpretEval's attribute buckets, as its "
                             "reference code scores them (nerlens buckets)")


class GoldVersion(argparse.Action):
    """--gold-alt NAME=FILE, appended, and kept in order among an experiment's --data and
    --pred (``declared``, as ``manifest._Declare`` keeps them)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest, None) or []), values])
        namespace.declared = [*(getattr(namespace, "declared", None) or []),
                              (VERSION_KIND, [values])]


def add_gold_alt_argument(parser) -> None:
    parser.add_argument("--gold-alt", type=named_file, action=GoldVersion, metavar="NAME=FILE",
                        help="another version of the gold (token first, tag last; "
                             "repeatable): every system is scored under it too, with the "
                             "flips of the ranking and the suspect gold mentions; in an "
                             "experiment, a version of the last --data before it (or "
                             "DATASET:NAME=FILE: of dataset DATASET)")


def add_two_arguments(parser) -> None:
    """GOLD_A GOLD_B (``diff``, ``agreement``) and the reading flags."""
    add_input_arguments(parser, multiple_predictions=False)
    shown = {"gold": ("GOLD_A", "the first annotation (a column file, token first, tag last; "
                                "a saved datasets split; a --jsonl span file)"),
             "predictions": ("GOLD_B", "the second annotation of the same tokens; omitted: "
                                       "GOLD_A holds both (second-to-last and last column)")}
    for action in parser._actions:   # the positionals of add_input_arguments, renamed
        if action.dest in shown:
            action.metavar, action.help = shown[action.dest]


# --fuzzy: a number strictly between 0 and 1, refused as the flag is read
fraction = number_flag(float, "expected a number between 0 and 1, not {text!r}",
                       lambda value: 0 < value < 1)


def named_file(text: str) -> tuple[str, str]:
    """argparse type of --gold-alt: ``NAME=FILE``."""
    name, equals, path = text.partition("=")
    if not equals or not name.strip() or not path.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=FILE (e.g. conllpp=conllpp_test.txt), "
                                         f"not {text!r}")
    return name.strip(), path.strip()


# -- GOLD [PRED ...] ---------------------------------------------------------------------
def system_options(args, outside_scheme_is_error: bool = False) -> dict:
    """The keywords of ``nerspan.reading``'s readers of the flags."""
    return dict(scheme=args.scheme, mode=args.mode, inputs=inputs_of(args),
                outside_scheme_is_error=outside_scheme_is_error, on_repairs=report_repairs)


def load_systems(args, outside_scheme_is_error: bool = False,
                 keep_tokens: bool = True) -> tuple[Corpus, list[str]]:
    """GOLD [PRED ...] and --generated as one corpus (``library.read_systems``, which
    decides their form); ``keep_tokens=False``: no tokens, for commands not showing them."""
    type_processing(args)  # flag errors before any reading
    corpus, systems = library.read_systems(
        args.gold, prediction_paths(args) or None, generated=generated_files(args),
        keep_tokens=keep_tokens, **system_options(args, outside_scheme_is_error))
    for name, record in corpus.source.generated.items():
        note(f"{name}: {record.summary()}; an entity not found in its sentence is a "
             "wrong prediction in every precision (hardeval's token error rates have no "
             "token for it: it is counted beside them)")
    return corpus, systems


def load_systems_with_tokens(args) -> tuple[Corpus, list[str]]:
    """``load_systems``, and the GOLD file must hold the tokens."""
    corpus, systems = load_systems(args)
    if corpus.tokens is None:
        raise UsageError(f"{args.gold}: no token column")
    return corpus, systems


def score_generated(args, score, **options) -> dict:
    """Name -> the result dict (--beta's F-beta) of ``score`` (``nerspan.score``, strings;
    ``faireval.score``, overlaps kept) on each --generated file against the gold
    sentences it answers (``library.read_answers``), gold's tags turned round with
    --suffix (``score`` processes the types); a note of what each file held."""
    reading = system_options(args)
    library.check_jsonl(reading["inputs"], generated=True)
    if not args.gold:
        raise UsageError("no GOLD file given")
    corpus = finished(library.read_gold(args.gold, **reading), [GOLD],
                      InputOptions.of(None, suffix=reading["inputs"].suffix))
    results = {}
    for name, path in generated_files(args).items():
        gold, read = library.read_answers(corpus, path, reading["inputs"].files.encoding)
        with library.answers_located(f"generated {name!r}", gold, read):
            results[name] = score(
                gold, read["responses"], scheme=args.scheme, mode=args.mode,
                tokens=read["tokens"] if gold.tokens is None else None,
                inputs=inputs_of(args, suffix=False), **options).to_dict(beta=args.beta)
        note(f"{name}: {results[name]['repairs']['pred']['generative']['summary']}")
    return results


def read_gold(args, path: str, outside_scheme_is_error: bool = False) -> Corpus:
    """The GOLD column file alone, its tags checked, finished as every input is (its types
    are checked once predictions are added: ``add_predictions``)."""
    options = system_options(args, outside_scheme_is_error)
    corpus = library.read_gold(check_file(path), **options)
    return finished(corpus, [GOLD], options["inputs"], args.scheme, args.mode, check=False)


def add_predictions(args, corpus: Corpus, paths: list[str],
                    outside_scheme_is_error: bool = False,
                    names: list[str] | None = None,
                    what: str | None = None) -> tuple[Corpus, list[str]]:
    """``corpus`` plus a column per prediction file (``library.add_systems``), named
    ``names`` (default: after the files); ``what`` they are, for errors."""
    options = system_options(args, outside_scheme_is_error)
    systems = dict(zip(names, paths)) if names else paths
    corpus, columns = library.add_systems(as_written(corpus, options["inputs"]), systems,
                                          what=what, **options)
    return finished(corpus, columns, options["inputs"], args.scheme, args.mode), columns


def report_repairs(corpus: Corpus) -> None:
    """A note on stderr for the rows --missing-tag filled in."""
    text = library.repaired_lines_text(corpus, "--missing-tag")
    if text:
        note(f"{corpus.source.path}: {text}")


def refuse_files_with_demo(args) -> None:
    """``--demo`` scores the embedded demo: files given with it would be ignored."""
    files = [usage for name, usage in (("gold", "GOLD"), ("predictions", "PRED"),
                                       ("generated", "--generated"), ("train", "--train"))
             if given(args, name)]
    if files:
        raise UsageError(f"--demo scores the embedded demo; {', '.join(files)} would be "
                         "ignored: give either --demo or files")


# -- --train -----------------------------------------------------------------------------
def read_training(args, outside_scheme_is_error: bool = False, path: str | None = None
                  ) -> Corpus:
    """The training data (``path``, default --train) as ``read_training_file`` reads it."""
    return read_training_file(path or args.train,
                              **system_options(args, outside_scheme_is_error))


def load_training(args, path: str | None = None, why: str = "the training set") -> TrainIndex:
    """The training index of ``path`` (default --train); neither given, an error saying
    ``why`` it is needed."""
    if not (path or given(args, "train")):
        raise UsageError(f"give --train FILE ({why})")
    return as_train_index(read_training(args, path=path), args.scheme, args.mode,
                          inputs=inputs_of(args))


# -- --jsonl span files, --generated -----------------------------------------------------
def refuse_span_flags(args) -> None:
    """--inclusive-end, --snap and --offsets given for other files than --jsonl's."""
    library.check_jsonl(inputs_of(args))


def read_span_files(args):
    """The gold span file as read, and ``(name, path, spans)`` of every PRED file
    (``library.span_files``: gold's words, checked), as they are (faireval scores nested
    spans; the tag-based commands read --jsonl through ``load_systems``)."""
    preds = library.named_files(prediction_paths(args))
    library.check_span_input(args.gold, preds, args.scheme, inputs_of(args))
    gold = read_span_jsonl(args.gold, args.encoding)
    return gold, library.span_files(args.gold, gold, preds, args.encoding)


def generated_files(args) -> dict | None:
    """``library.read_systems``' ``generated``: name -> --generated file."""
    files = given(args, "generated")
    return library.named_files(files) if files else None


def generated_paths(args) -> list[str]:
    return list(given(args, "generated") or [])


# -- --gold-alt --------------------------------------------------------------------------
def gold_versions(args) -> dict:
    """name -> file of every --gold-alt, a name given twice refused."""
    versions: dict = {}
    for name, path in given(args, "gold_alt") or ():
        if name in versions:
            raise UsageError(f"--gold-alt {name}=...: the name {name!r} is given twice")
        versions[name] = path
    return versions


def refuse_gold_versions(args, where: str) -> None:
    """--gold-alt goes with GOLD and PRED files, not with ``where``."""
    if given(args, "gold_alt"):
        raise UsageError(f"--gold-alt applies to a report of GOLD and PRED files, not to "
                         f"{where}")


def add_gold_versions(args, corpus) -> tuple:
    """``(corpus, names)``: ``corpus`` with a column per --gold-alt file, read and checked
    as a PRED file is (its errors name the file, line and gold version)."""
    versions = gold_versions(args)
    if not versions:
        return corpus, {}
    for name in versions:
        if name in corpus.columns:
            taken = "the gold" if name == GOLD else "a system"
            raise UsageError(f"--gold-alt {name}=...: {name!r} names {taken} already: name "
                             "the gold version apart")
    if given(args, "jsonl"):   # span files, read against GOLD as PRED span files are
        read, names = library.read_systems(args.gold, versions, scheme=args.scheme,
                                           inputs=inputs_of(args))
        return corpus.with_columns(read.select(names), what="gold version"), versions
    corpus, names = add_predictions(args, corpus, list(versions.values()),
                                    outside_scheme_is_error=True, names=list(versions),
                                    what="gold version")
    return corpus, dict(zip(names, versions.values()))


# -- two annotations (diff, agreement, suspects) ------------------------------------------
def load_two(args) -> tuple[Corpus, tuple, tuple]:
    """GOLD_A and GOLD_B (or GOLD_A holding both) as ``(corpus, its two columns, the names
    of A and B)``; generated output refused (no annotation to compare)."""
    if given(args, "generated"):
        raise UsageError(f"--generated: nerlens {args.command} compares annotations of the "
                         "same tokens; generated output (entity strings without offsets) "
                         "is a model's answer, never a gold side: score it with nerlens "
                         f"score {args.gold or 'GOLD'} --generated FILE.jsonl")
    corpus, columns = load_systems(args)
    if len(columns) != 1:
        raise UsageError(f"nerlens {args.command} compares two annotations: give GOLD_A and "
                         f"GOLD_B (or one file holding both), got {len(columns)} besides "
                         "GOLD_A")
    second = prediction_paths(args)[0] if prediction_paths(args) else \
        f"{args.gold} (last column)"
    return corpus, (GOLD, columns[0]), (str(args.gold), str(second))


def run_two(args, compare, render) -> int:
    """GOLD_A and GOLD_B compared (``nerspan.audit.diff`` or ``agreement``) and printed:
    JSON, or ``render``'s text."""
    corpus, columns, names = load_two(args)
    return show_result(args, compare(corpus, columns=columns, names=names, scheme=args.scheme,
                                     mode=args.mode).to_dict(), render)


def sentence_documents(args, corpus: Corpus):
    """The document of every sentence of a GOLD column file with ``-DOCSTART-`` rows
    (``TagFile.sentence_documents``); None for span files, saved splits and a file of one
    document (its evidence would repeat gold's)."""
    if given(args, "jsonl") or corpus.source.sentence_lines is None:
        return None
    documents = TagFile(args.gold, encoding=args.encoding).sentence_documents(corpus)
    return documents if len(documents) and documents.max() > documents.min() else None
