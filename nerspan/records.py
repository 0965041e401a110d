"""Option records: every option declared once, with its doc, its check and its flag.

A record is a frozen dataclass whose fields are options (``option(...)``): each has a
default, a doc, a ``check(name, value)`` that returns the value to keep (or raises),
``parse(text)`` that reads it from a command line's text, and its command-line flag
(``--`` and the name with hyphens, unless the field names another or none) and its
evaluate-module feature (the name). What reads options reads the records:
``Record.options()`` lists them as ``Option``s (name, default, doc, check, parse, flag,
group), which is what the command line's flags and the evaluate modules' features are
made of. A record takes a plain dict too (``Record.of``), refusing an unknown key with
the names it knows.

The records of input: ``InputOptions`` (how any input is read), with its parts
``TypeOptions`` (entity types kept, removed, mapped), ``GeneratedOptions`` (generated
output) and ``FileOptions`` (how files are read); ``InputOptions.of`` takes the keys of
all four flat. Each family declares its own record (``Family.options``).

>>> InputOptions.of({"snap": True, "type_map": {"PERSON": "PER"}}).types.type_map
{'PERSON': 'PER'}
>>> InputOptions.of({"snapp": True})
Traceback (most recent call last):
...
nerspan.errors.InputTypeError: unknown input option 'snapp' (did you mean 'snap'?)
>>> [o.flag for o in TypeOptions.options()]
['--keep-types', '--remove-types', '--type-map']
"""
from __future__ import annotations

import codecs
import dataclasses
import difflib
from dataclasses import dataclass, field
from typing import Callable

from .errors import InputTypeError, shown
from .fbeta import check_beta
from .flat import GOLD, PRED, _a, as_label_list, first_outside
from .options import (MATCHING, OCCURRENCES, OFFSETS, OVERLAPS, PAIRINGS, check_bool,
                      check_choice, check_confidence, check_fraction, check_int)
from .type_processing import TypeProcessing


@dataclass(frozen=True)
class Option:
    """What a command line and an evaluate module read of a record's field: its
    ``name`` (the API's keyword and the module's feature), ``default``, ``doc``,
    ``check(name, value)``, ``parse(text)`` (None: a switch, True or False),
    ``flag`` (None: no flag, the value is data such as words; without ``--``: a
    positional argument), ``choices``, the record it belongs to (``group``), the name of
    a flag's value (``metavar``) and how a command line takes it: ``action`` (argparse's,
    e.g. "append" for a repeatable flag), ``nargs`` (e.g. "*" for several values) and
    ``const`` (the value of a flag given without its optional value)."""

    name: str
    default: object
    doc: str
    check: Callable | None
    parse: Callable | None
    flag: str | None
    choices: tuple
    group: str
    metavar: str | None = None
    action: object = None
    nargs: object = None
    const: object = None


def option(default, doc: str, check: Callable | None = None, *, parse: Callable | None = str,
           flag: str | None = "", choices: tuple = (), metavar: str | None = None,
           action: object = None, nargs: object = None, const: object = None):
    """A record's field. ``flag`` "" (default): ``--name-with-hyphens``; None: none; a
    name without ``--``: a positional argument. ``choices``: the values allowed (checked,
    and listed by ``--help``); ``metavar``: what ``--help`` calls the flag's value;
    ``action``, ``nargs``, ``const``: argparse's, for a flag that is repeated or takes
    several values (the field's value is then a list) or an optional one."""
    if choices and check is None:
        check = lambda name, value: check_choice(name, value, choices)  # noqa: E731
    return field(default=default, metadata={"doc": doc, "check": check, "parse": parse,
                                            "flag": flag, "choices": choices,
                                            "metavar": metavar, "action": action,
                                            "nargs": nargs, "const": const})


def switch(default: bool, doc: str, *, flag: str | None = ""):
    """A bool field (a flag without a value on a command line)."""
    return option(default, doc, check_bool, parse=None, flag=flag)


def comma_list(text: str) -> list:
    """``"A, B"`` -> ``["A", "B"]`` (a command line's list)."""
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or not all(items):
        raise ValueError(f"expected names separated by commas (A,B), not {text!r}")
    return items


def int_list(text: str) -> tuple:
    """``"2,3"`` -> ``(2, 3)`` (a command line's list of column positions)."""
    try:
        return tuple(int(item) for item in comma_list(text))
    except ValueError:
        raise ValueError(f"expected column positions separated by commas (2,3), not "
                         f"{text!r}") from None


def mapping(text: str) -> dict:
    """``"SRC=DST,SRC2=DST2"`` -> a dict (a command line's mapping)."""
    out = {}
    for pair in text.split(","):
        source, equals, target = (part.strip() for part in pair.partition("="))
        if not equals or not source or not target or "=" in target:
            raise ValueError(f"expected SRC=DST[,SRC=DST] (e.g. PERSON=PER), not {text!r}")
        if source in out:
            raise ValueError(f"{source} is mapped twice in {text!r}")
        out[source] = target
    return out


def optional(parse: Callable) -> Callable:
    """``parse``, with "none" read as None (``reads``: ``parse``, whose refusal a command
    line words)."""
    def read(text: str):
        return None if text.lower() == "none" else parse(text)
    read.reads = parse
    return read


# What 0.2 renamed, by the option that took it over: each 0.1 spelling -> the new one,
# refused naming it. A flag ("--strict"): a usage error of the command line
# (``nerlens.cli.flags.add_flags``); an option and a value ("matching greedy"): that value,
# of its flag and of the evaluate modules' keyword; a keyword ("strict"): an evaluate
# module's (``nerlens.metric_support.refuse_moved``, naming ``nerspan.migration``'s
# spelling).
RENAMED = {
    "type_map": {"--map-types": "--type-map"},
    "gold_tag_column": {"--gold-column": "--gold-tag-column"},
    "pred_tag_column": {"--pred-column": "--pred-tag-column"},
    "word_overlap": {"--partial": "--word-overlap", "partial": "word_overlap"},
    "case_sensitive": {"--case-insensitive": "--no-case-sensitive"},
    # buckets' --case-sensitive (default off) is its opposite, --no-lowercase
    "lowercase": {"--case-sensitive": "--no-lowercase", "--no-case-sensitive": "--lowercase"},
    "return_mentions": {"--mentions": "--return-mentions"},
    "analyses": {"--spread": "--analyses"},
    "strict_diff": {"--strict": "--strict-diff", "strict": "strict_diff"},
    "return_hard_tokens": {"--tokens": "--hard-tokens", "return_tokens": "return_hard_tokens"},
    "n_buckets": {"--buckets": "--n-buckets"},
    "fold_seed": {"--seed": "--fold-seed"},
    "manifest": dict.fromkeys(("--domains", "--datasets"), "--manifest"),
    "gold": dict.fromkeys(("--gold", "--dataset"), "GOLD (the first argument)"),
    "pairing": {f"matching {value}": f"--pairing {value}" for value in PAIRINGS},
    "script": {"compat universalner": "--script universalner"},
    "train": dict.fromkeys(("train_tokens", "train_tags"), "train"),
}
# every 0.1 spelling -> its new one
OLD_SPELLINGS = {old: new for spellings in RENAMED.values() for old, new in spellings.items()}


@dataclass(frozen=True)
class Record:
    """The base of option records: checks every field when built (an error of a field's
    own check names it: ``error.option``); ``given``: the names set explicitly (``of``,
    ``replace``; built directly: those not at their default)."""

    given: frozenset | None = field(default=None, repr=False, compare=False, kw_only=True)

    def __post_init__(self):
        for f in self._fields():
            value, check = getattr(self, f.name), f.metadata["check"]
            if value is not None and check is not None:
                try:
                    object.__setattr__(self, f.name, check(f.name, value))
                except (ValueError, TypeError) as error:
                    error.option = f.name   # a field's own check: what a flag's error names
                    raise
        if self.given is None:
            object.__setattr__(self, "given", frozenset(
                f.name for f in self._fields() if not _is_default(getattr(self, f.name), f)))

    @classmethod
    def _fields(cls) -> tuple:
        return tuple(f for f in dataclasses.fields(cls) if "doc" in f.metadata)

    @classmethod
    def names(cls) -> tuple:
        """The names of its options."""
        return tuple(f.name for f in cls._fields())

    @classmethod
    def options(cls) -> tuple:
        """Its options as ``Option``s, in declaration order."""
        return tuple(Option(f.name, f.default, f.metadata["doc"], f.metadata["check"],
                            f.metadata["parse"], _flag(f), f.metadata["choices"],
                            cls.__name__, *(f.metadata[key] for key in (
                                "metavar", "action", "nargs", "const"))) for f in cls._fields())

    @classmethod
    def spelled(cls, name: str) -> str:
        """An option in an error, as the API and the command line write it:
        ``min_overlap (--min-overlap)``."""
        flag = _flag(next(f for f in cls._fields() if f.name == name))
        return f"{name} ({flag})" if flag else name

    @classmethod
    def of(cls, value=None, **changes):
        """A record from None (the defaults), a dict of its options or a record of its
        kind, with ``changes`` (keywords that are None are not given) put over it."""
        if value is None:
            value = {}
        if isinstance(value, cls):
            record = value
        elif isinstance(value, dict):
            record = cls(**cls._checked_keys(value), given=frozenset(value))
        else:
            raise InputTypeError(f"{cls.__name__} options must be a dict or "
                                 f"{_a(cls.__name__)}, not {shown(value)} "
                                 f"({_a(type(value).__name__)})")
        return record.replace(**{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def _checked_keys(cls, value: dict) -> dict:
        unknown = [key for key in value if key not in cls.names()]
        if unknown:
            raise InputTypeError(unknown_text(f"{cls.describes} option".lstrip(), unknown[0],
                                              cls.names()))
        return value

    describes = ""   # the kind of option its errors name ("unknown faireval option")

    def replace(self, **changes):
        """A copy with ``changes`` (checked), which count as given."""
        if not changes:
            return self
        self._checked_keys(changes)
        return dataclasses.replace(self, **changes, given=self.given | frozenset(changes))

    def over(self, base):
        """``base`` with the options given here put over it."""
        return base.replace(**{name: getattr(self, name) for name in self.given})

    def with_keywords(self, **keywords):
        """This record with a function's own keywords put over it: a keyword at its
        default changes nothing; one given otherwise here too is an error."""
        fields = {f.name: f for f in self._fields()}
        changed = {}
        for name, value in keywords.items():
            if _is_default(value, fields[name]):
                continue
            if name in self.given and getattr(self, name) != value:
                raise ValueError(f"{name} is given twice, as a keyword ({value!r}) and in "
                                 f"options ({getattr(self, name)!r}): give it once")
            changed[name] = value
        return self.replace(**changed)

    def to_dict(self) -> dict:
        """Name -> value of every option."""
        return {name: getattr(self, name) for name in self.names()}


def _flag(f) -> str | None:
    flag = f.metadata["flag"]
    return "--" + f.name.replace("_", "-") if flag == "" else flag


def _is_default(value, f) -> bool:
    # by identity: a list of words is never compared element by element
    return value is f.default or (type(value) in (bool, str, int, float)
                                  and type(value) is type(f.default) and value == f.default)


def unknown_text(what: str, name: str, known) -> str:
    """"unknown WHAT 'name' (did you mean 'x'?)", or the names known."""
    close = difflib.get_close_matches(str(name), list(known), n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known)}"
    return f"unknown {what} {name!r} ({hint})"


# -- the checks of input options ----------------------------------------------------------
def _text_lists(name: str, value):
    """Lists per sentence (words, tags), never one string: it would be read letter by letter."""
    if isinstance(value, (str, bytes)):
        raise InputTypeError(f"{name} must be a list per sentence, not a string "
                             f"({shown(value)})")
    return value


def _texts(name: str, value):
    """One string per sentence."""
    _text_lists(name, value)
    if not hasattr(value, "__len__"):
        raise InputTypeError(f"{name} must be a list of strings (one per sentence), not "
                             f"{shown(value)}")
    position = first_outside(list(value), (str,))
    if position is not None:
        raise InputTypeError(f"{name} must hold one string per sentence, not "
                             f"{shown(value[position])} ({_a(type(value[position]).__name__)})",
                             side=name, sentence=position)
    return value


def _column(name: str, value) -> str:
    if not isinstance(value, str):
        raise InputTypeError(f"{name} must be a column name (a string), not {shown(value)}")
    return value


def _integer(name: str, value):
    return check_int(name, value)


def _optional_integer(name: str, value):
    return None if value is None else check_int(name, value)


def _layers(name: str, value) -> tuple:
    """Two or more distinct column positions (ints), as a tuple."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise InputTypeError(f"{name} must be a list of column positions (e.g. [2, 3]), "
                             f"not {shown(value)}")
    columns = tuple(check_int(name, column) for column in value)
    if len(columns) < 2 or len(set(columns)) != len(columns):
        raise ValueError(f"{name} must name two or more different columns, not "
                         f"{list(columns)}")
    return columns


def _encoding(name: str, value):
    """A text encoding Python knows, refused when the record is built, not at the first
    file read."""
    try:
        codecs.lookup(_string(name, value))
    except LookupError:
        raise InputTypeError(f"unknown {name} {value!r}") from None
    return value


def _string(name: str, value):
    if not isinstance(value, str):
        raise InputTypeError(f"{name} must be a string, not {shown(value)}")
    return value


@dataclass(frozen=True)
class TypeOptions(Record):
    """Entity types kept, removed and mapped, as seqscore's ``process``, on gold,
    predictions and training data alike (``nerspan.type_processing``)."""

    keep_types: object = option(
        None, "entity types to keep (a list; every other type's mentions are dropped), as "
        "seqscore's process --keep-types, after the type map; counted in repairs "
        "(types_removed). Not together with types removed; a type that occurs in no tag is "
        "an error.", parse=comma_list, metavar="A,B")
    remove_types: object = option(
        None, "entity types whose mentions are dropped (a list), after the type map, counted in "
        "repairs (types_removed).", parse=comma_list, metavar="C,D")
    type_map: object = option(
        None, "each entity type mapped to the type it becomes (PERSON to PER), applied to "
        "every mention before types are kept or removed, counted in repairs "
        "(types_mapped). Mentions, not tags, are retyped: B-PER I-PERSON stays two "
        "mentions.", parse=mapping, metavar="SRC=DST[,SRC=DST]")

    describes = "type"

    def __post_init__(self):
        super().__post_init__()
        # the checks of the names, and of keep with remove, run here, once
        object.__setattr__(self, "_processing", TypeProcessing.of(
            self.keep_types, self.remove_types, self.type_map))

    @property
    def processing(self) -> TypeProcessing | None:
        """The ``nerspan.type_processing.TypeProcessing`` asked for, or None."""
        return self._processing


@dataclass(frozen=True)
class GeneratedOptions(Record):
    """How generated output (an LLM's entity lists, markup or raw responses;
    ``nerspan.generative``) is read and matched."""

    matching: str = option(
        "grounded", "\"grounded\" locates each entity text in its sentence, which every "
        "family then scores as spans; \"strings\" compares sets of (normalised text, type) "
        "per sentence, entity scores only (nerspan.score).", choices=MATCHING)
    occurrences: str = option(
        "all", "grounded: \"all\" marks every occurrence of an entity's text in its "
        "sentence; \"ordered\" gives the i-th listing of a text its i-th occurrence.",
        choices=OCCURRENCES)
    overlaps: str = option(
        "drop", "grounded: of overlapping spans the longer is kept (\"drop\", the others "
        "counted); \"keep\" keeps them all, for faireval, which scores nested spans.",
        choices=OVERLAPS)
    fuzzy: float | None = option(
        None, "grounded: a similarity threshold in (0, 1) to also ground an entity text at "
        "the most similar token window; by default exact, case-insensitive and normalised "
        "matches only.", check_fraction, parse=float, metavar="THRESHOLD")
    script: str | None = option(
        None, "strings: \"universalner\" reproduces the UniversalNER evaluation script.",
        choices=(None, "universalner"))
    word_overlap: bool = switch(
        False, "strings: a prediction whose word-overlap F1 with a gold string reaches 0.5 "
        "counts as correct (the LLM papers' partial match).")

    describes = "generated-output"


@dataclass(frozen=True)
class FileOptions(Record):
    """How files are read: column files (``read_columns``), saved ``datasets`` splits,
    JSON Lines span files."""

    token_column: int | None = option(
        0, "the token column of GOLD (0-based; GermEval: 1); prediction files hold their "
        "token first.", _optional_integer, parse=optional(int), metavar="INDEX")
    gold_tag_column: int | None = option(
        None, "the position of GOLD's tag column (0-based, negative from the end; default "
        "last, or second-to-last when the file holds predictions too).", _optional_integer,
        parse=optional(int), metavar="INDEX")
    pred_tag_column: int = option(-1, "the position of a prediction file's tag column.",
                                  _integer, parse=int, metavar="INDEX")
    train_tag_column: int | None = option(
        None, "the position of the training file's tag column (default last, unless "
        "another column holds tags of the same types: then say which).", _optional_integer,
        parse=optional(int), metavar="INDEX")
    train_token_column: int = option(0, "the position of the training file's tokens.",
                                     _integer, parse=int, metavar="INDEX")
    comment_prefix: str | None = option(
        None, "skip lines starting with this (e.g. '#') before a sentence; inside a "
        "sentence such a line is a token.", _string)
    encoding: str = option("utf-8", "the text encoding of every input file (a BOM is "
                           "dropped).", _encoding, parse=lambda text: _encoding("encoding", text))
    missing_tag: str | None = option(
        None, "read a row without its tag as this tag (e.g. O) instead of failing; the rows "
        "are counted.", _string, metavar="TAG")
    allow_token_mismatch: bool = switch(
        False, "accept prediction files whose tokens differ from GOLD's (counted).")
    split: str | None = option(None, "the split of a saved DatasetDict folder (default "
                               "test).", _string)
    tokens_column: str = option("tokens", "the words column of a saved split.", _string)
    tags_column: str = option("ner_tags", "the tags column of a saved split.", _string)
    jsonl: bool = switch(False, "GOLD and the predictions are JSON Lines span files.")

    describes = "file"


@dataclass(frozen=True)
class ScoringOptions(Record):
    """How tags are decoded into mentions (``scheme``, ``mode``) and what a result adds
    (F-beta, the entity confusion matrix): the options of every entry point beside the
    input options and a family's own (an evaluate module's features, the flags)."""

    scheme: str = option("IOB2", "tag scheme: IOB1, IOB2/BIO, IOE1, IOE2, IOBES/BIOES, BMES, "
                         "BILOU, IO (default IOB2)")
    mode: str = option("lenient", "lenient = conlleval.pl's chunk rules (default); strict = "
                       "seqeval's strict mode", choices=("lenient", "strict"))
    beta: float = option(1.0, "also report F-beta beside every F1, as seqeval's beta (a "
                         "number between 1e-150 and 1e150; keys f2, f0.5, ...; default 1 "
                         "adds nothing)", lambda name, value: check_beta(value), parse=float,
                         metavar="B")
    confusion: bool = switch(False, "add the entity confusion matrix (gold type x predicted "
                             "type over identical spans; O: missed, spurious) and the "
                             "boundary errors per type apart (JSON: confusion, "
                             "boundary_errors)")

    describes = "scoring"


@dataclass(frozen=True)
class InputOptions(Record):
    """How the input is read, whatever its form: one record for nerspan and every
    family. Its parts ``types``, ``generated`` and ``files`` are records of their own;
    ``InputOptions.of`` and ``replace`` take their keys flat too."""

    tokens: object = option(
        None, "the words of each sentence (a list per sentence) when the input does not "
        "hold them. Character offsets of span input refer to them joined by single spaces "
        "unless texts is given.", _text_lists, flag=None)
    label_list: object = option(
        None, "the tags in id order (a list, or an id2label dict) when references and "
        "predictions are label ids: positions whose reference id is -100 are dropped from "
        "both, as a Trainer gives them.", lambda name, value: as_label_list(value),
        flag=None)
    texts: object = option(
        None, "span input: the text of each sentence, to which character offsets (pipeline "
        "output) refer; without tokens its whitespace-separated words are the tokens.",
        _texts, flag=None)
    inclusive_end: bool = switch(
        False, "span input: token offsets have inclusive ends (nervaluate's layout).")
    snap: bool = switch(
        False, "span input: a character span that does not start and end on token "
        "boundaries is widened to the tokens it touches and counted in repairs (snapped); "
        "by default it is an error naming it.")
    offsets: str | None = option(
        None, "span input: what start and end count: \"tokens\", or \"chars\" of the "
        "sentence text (spaCy, doccano, Label Studio, GLiNER). By default tokens, unless texts "
        "are given and a span reaches past its sentence's words; an ambiguity is an "
        "error.", choices=(None,) + OFFSETS)
    threshold: float | None = option(
        None, "scored predictions (a confidence per mention: scored span lists, generated "
        "output whose entities carry a score, nerspan.scored.ScoredMentions): keep the "
        "mentions whose confidence is >= threshold, a number in [0, 1], and score them as "
        "any prediction (METHODS §8). Not set: a score is ignored.",
        lambda name, value: None if value is None else check_confidence(value, name),
        parse=optional(float))
    suffix: bool = switch(
        False, "tags are written type first and prefix last (PER-B), as seqeval's "
        "suffix=True: split on the last hyphen (tags, label ids and training tags; span "
        "input refuses it).")
    layers: tuple | None = option(
        None, "GOLD's tag columns read as layers of gold (0-based positions, e.g. (2, 3) "
        "for GermEval 2014's outer and inner columns): each decoded on its own, gold's "
        "mentions their union (they may nest; one identical in two layers counts once, "
        "the merges counted), entity scores over all of them plus per layer "
        "(nerspan.layers). Not with a gold tag column.", _layers, parse=int_list,
        metavar="COL,COL")
    gold_column: str = option(GOLD, "the gold column of a Corpus given without "
                              "predictions.", _column, flag=None)
    pred_column: str = option(PRED, "the predicted column of a Corpus given without "
                              "predictions.", _column, flag=None)
    types: TypeOptions = field(default_factory=TypeOptions)
    generated: GeneratedOptions = field(default_factory=GeneratedOptions)
    files: FileOptions = field(default_factory=FileOptions)

    describes = "input"

    @classmethod
    def parts(cls) -> dict:
        """Part name -> its record class."""
        return {"types": TypeOptions, "generated": GeneratedOptions, "files": FileOptions}

    @classmethod
    def options(cls) -> tuple:
        """Its own options, then those of its parts."""
        return super().options() + tuple(o for part in cls.parts().values()
                                         for o in part.options())

    @classmethod
    def all_names(cls) -> tuple:
        return tuple(o.name for o in cls.options())

    @classmethod
    def of(cls, value=None, **changes) -> "InputOptions":
        if isinstance(value, dict):
            value = cls().replace(**value)
        return super().of(value, **changes)

    def replace(self, **changes) -> "InputOptions":
        """A copy with ``changes`` (checked; the keys of the parts too), given."""
        own, parts = {}, {}
        for name, value in changes.items():
            if name in self.parts():   # a part whole: a record of its kind or a dict
                own[name] = self.parts()[name].of(value)
                continue
            part = _PART_OF.get(name)
            if part is None and name not in self.names():
                raise InputTypeError(unknown_text("input option", name, self.all_names()))
            (own if part is None else parts.setdefault(part, {}))[name] = value
        for part, values in parts.items():
            own[part] = getattr(self, part).replace(**values)
        if not own:
            return self
        given = self.given | frozenset(changes)
        return dataclasses.replace(self, **own, given=given)

    def over(self, base: "InputOptions") -> "InputOptions":
        return base.replace(**{name: self.value(name) for name in self.given})

    def value(self, name: str):
        """The option ``name``, of this record or of one of its parts."""
        part = _PART_OF.get(name)
        return getattr(self if part is None else getattr(self, part), name)


_PART_OF = {name: part for part, record in InputOptions.parts().items()
            for name in record.names()}
assert len(set(InputOptions.all_names())) == len(InputOptions.all_names())


__all__ = ["Option", "Record", "option", "switch", "comma_list", "int_list", "mapping",
           "optional", "unknown_text", "RENAMED", "OLD_SPELLINGS", "ScoringOptions", "InputOptions", "TypeOptions",
           "GeneratedOptions", "FileOptions"]
