"""The input options: how every input form is read, one record for nerspan and every family.

``InputOptions`` holds them: one field each, with its name, default, check and the text
that documents it. The dispatcher (``as_corpus``, ``resolve``, ``GoldContext``) reads the
record; ``input_options`` gives a function the fields as keyword parameters, under the
same names and defaults, and documents them in its docstring. So ``nerspan.score`` and
every family's ``score`` take the same options with the same meaning, from this one
definition, and pass the record down whole (``inputs=``).

>>> InputOptions(inclusive_end=True).inclusive_end
True
>>> InputOptions(snap="no")
Traceback (most recent call last):
...
nerspan.errors.InputTypeError: snap must be True or False, not 'no' (a str)
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
import textwrap
from dataclasses import dataclass, field

from .flat import GOLD, PRED, _a, as_label_list, first_outside
from .errors import InputTypeError, shown
from .options import (MATCHING, OCCURRENCES, OFFSETS, OVERLAPS, check_bool, check_choice,
                      check_fraction)
from .type_processing import type_mapping, type_names


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


def _types(check, name: str, value):
    """The value as given, once ``check`` (``nerspan.type_processing``) accepts it."""
    check(name, value)
    return value


def _column(name: str, value) -> str:
    if not isinstance(value, str):
        raise InputTypeError(f"{name} must be a column name (a string), not {shown(value)}")
    return value


def _option(default, doc: str, check=None, span: bool = False, generative: bool = False):
    """A field of ``InputOptions``: ``check(name, value)`` returns the value to keep;
    ``span``: an option of span input (``nerspan.reading.span_lists`` reads it); ``generative``:
    an option of generated predictions (``nerspan.generative`` reads it)."""
    return field(default=default, metadata={"doc": doc, "check": check, "span": span,
                                            "generative": generative})


@dataclass(frozen=True)
class InputOptions:
    """How the input is read, whatever its form (``nerspan.as_corpus``).

    ``given`` names the options set explicitly (passed as keywords, or else not at their
    default): a ``GoldContext``'s own options read the predictions scored against it
    unless the scoring call gives others.
    """

    tokens: object = _option(
        None, "the words of each sentence (a list per sentence) when the input does not "
        "hold them; given with a ``datasets`` split or a ``Corpus`` that has words, they "
        "are used instead. Character offsets of span input refer to them joined by single "
        "spaces (what a pipeline sees with ``is_split_into_words=True``) unless ``texts`` "
        "is given.", _text_lists, span=True)
    label_list: object = _option(
        None, "the tags in id order (a list, or an ``id2label`` dict) when references and "
        "predictions are label ids: positions whose reference id is -100 are dropped from "
        "both, as a ``Trainer`` gives them.", lambda name, value: as_label_list(value))
    texts: object = _option(
        None, "span input: the text of each sentence, to which character offsets "
        "(pipeline output) refer; without ``tokens`` its whitespace-separated words are "
        "the tokens.", _texts, span=True)
    inclusive_end: bool = _option(
        False, "span input: token offsets have inclusive ends (nervaluate's layout); by "
        "default ``end`` is exclusive.", check_bool, span=True)
    snap: bool = _option(
        False, "span input: a character span that does not start and end on token "
        "boundaries is widened to the tokens it touches and counted in ``repairs`` "
        "(``snapped``); by default it is an error naming it.", check_bool, span=True)
    offsets: str | None = _option(
        None, "span input: what ``start`` and ``end`` count in spans written ``(start, "
        "end, label)`` or ``{'label', 'start', 'end'}``: ``\"tokens\"``, or ``\"chars\"``, "
        "characters of the sentence text (``texts``, else the tokens joined by single "
        "spaces), as spaCy, doccano, Label Studio and GLiNER write them (a span must start "
        "and end on token boundaries unless ``snap``). None (default): tokens, unless "
        "``texts`` are given; then characters when some span reaches past its sentence's "
        "words as token offsets, and an error naming the ambiguity when every span fits "
        "both ways. A pipeline's output always counts characters.",
        lambda name, value: check_choice(name, value, OFFSETS), span=True)
    suffix: bool = _option(
        False, "tags are written type first and prefix last (``PER-B``, ``MISC-I``), as "
        "seqeval's ``suffix=True``: split on the last hyphen. For tags and label ids on "
        "both sides and the training tags; span input has types, not tags, and refuses "
        "it.", check_bool)
    gold_column: str = _option(
        GOLD, "the gold column when ``references`` is a ``Corpus`` given without "
        "predictions.", _column)
    pred_column: str = _option(
        PRED, "the predicted column when ``references`` is a ``Corpus`` given without "
        "predictions.", _column)
    keep_types: object = _option(
        None, "entity types to keep (a list; every other type's mentions are dropped), "
        "as seqscore's ``process --keep-types``; on gold, predictions and training data "
        "alike, after ``type_map``; the mentions dropped are counted in ``repairs`` "
        "(``types_removed``). Not together with ``remove_types``; a type that occurs in "
        "no tag is an error.", lambda name, value: _types(type_names, name, value))
    remove_types: object = _option(
        None, "entity types whose mentions are dropped (a list), after ``type_map``, "
        "counted in ``repairs`` (``types_removed``).",
        lambda name, value: _types(type_names, name, value))
    type_map: object = _option(
        None, "a dict from an entity type to the type it becomes (``{'PERSON': 'PER'}``), "
        "applied to every mention before ``keep_types``/``remove_types``, counted in "
        "``repairs`` (``types_mapped``). Mentions, not tags, are retyped: ``B-PER "
        "I-PERSON`` stays two mentions.", lambda name, value: _types(type_mapping, name, value))
    matching: str = _option(
        "grounded", "generated predictions (entity lists, dicts from type to texts, inline "
        "markup, raw LLM responses; ``nerspan.generative``): ``\"grounded\"`` locates each "
        "entity text in its sentence (``tokens`` or ``texts``), which every family then "
        "scores as spans; ``\"strings\"`` compares sets of (normalised text, type) per "
        "sentence, entity scores only (``nerspan.score``, whose ``compat`` and ``partial`` "
        "follow the LLM papers' scripts).",
        lambda name, value: check_choice(name, value, MATCHING),
        generative=True)
    occurrences: str = _option(
        "all", "generated predictions, grounded: ``\"all\"`` marks every occurrence of an "
        "entity's text in its sentence; ``\"ordered\"`` gives the i-th listing of a text "
        "its i-th occurrence.", lambda name, value: check_choice(name, value, OCCURRENCES),
        generative=True)
    overlaps: str = _option(
        "drop", "generated predictions, grounded: of overlapping spans the longer is kept "
        "(``\"drop\"``, the others counted); ``\"keep\"`` keeps them all, for faireval, "
        "which scores nested and overlapping spans (the other families read tags).",
        lambda name, value: check_choice(name, value, OVERLAPS), generative=True)
    fuzzy: float | None = _option(
        None, "generated predictions, grounded: a similarity threshold in (0, 1) to also "
        "ground an entity text at the most similar token window; None (default): exact, "
        "case-insensitive and normalised matches only.", check_fraction, generative=True)
    given: frozenset | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        for option in OPTION_FIELDS:
            value = getattr(self, option.name)
            check = option.metadata["check"]
            if value is not None and check is not None:
                object.__setattr__(self, option.name, check(option.name, value))
        if self.given is None:  # built directly: what is not at its default
            object.__setattr__(self, "given", frozenset(
                f.name for f in OPTION_FIELDS if not _is_default(getattr(self, f.name), f)))

    @classmethod
    def of(cls, mapping) -> "InputOptions":
        """The options among the keys of ``mapping`` (a family's arguments, say)."""
        given = {name: mapping[name] for name in OPTION_NAMES if name in mapping}
        return cls(**given, given=frozenset(given))

    def replace(self, **changes) -> "InputOptions":
        """A copy with ``changes`` (checked), which count as given."""
        if not changes:
            return self
        return dataclasses.replace(self, **changes, given=self.given | frozenset(changes))

    def over(self, base: "InputOptions") -> "InputOptions":
        """``base`` with the options given here put over it."""
        return base.replace(**{name: getattr(self, name) for name in self.given})


def _is_default(value, option) -> bool:
    # by identity: a list of words is never compared element by element
    return value is option.default or (type(value) in (bool, str) and value == option.default)


OPTION_FIELDS = tuple(f for f in dataclasses.fields(InputOptions) if f.name != "given")
OPTION_NAMES = tuple(f.name for f in OPTION_FIELDS)
SPAN_OPTION_NAMES = tuple(f.name for f in OPTION_FIELDS if f.metadata["span"])
# The options of generated predictions (``nerspan.generative``), beside tokens and texts.
GENERATIVE_INPUT_NAMES = tuple(f.name for f in OPTION_FIELDS if f.metadata["generative"])
_FIELDS = {f.name: f for f in OPTION_FIELDS}


def input_options(*names: str, positional: tuple = ()):
    """Decorator (``@input_options`` or ``@input_options(*names, positional=...)``): a
    function ``f(..., inputs)`` that reads input takes the options as keywords.

    The decorated function's signature is ``f``'s with ``inputs`` replaced by the options
    ``names`` (default: all of ``InputOptions``) under their names and defaults,
    keyword-only except those in ``positional``, which follow ``f``'s positional
    parameters in that order; then ``inputs=None``, through which a caller passes a whole
    ``InputOptions`` down (keywords given beside it are put over it). ``f`` receives
    ``inputs`` always. The options' documentation is added to the end of the docstring's
    ``Args:`` (or a new one before its examples).
    """
    if len(names) == 1 and callable(names[0]):  # @input_options, without arguments
        return input_options()(names[0])
    taken = names or OPTION_NAMES

    def decorate(func):
        signature = _signature(func, taken, positional)
        var_keyword = next((p.name for p in signature.parameters.values()
                            if p.kind == inspect.Parameter.VAR_KEYWORD), None)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            try:
                arguments = signature.bind(*args, **kwargs).arguments
            except TypeError as error:  # Python's wording, with the function's name
                raise TypeError(f"{func.__qualname__}() {error}") from None
            given = {name: arguments.pop(name) for name in taken if name in arguments}
            base = arguments.pop("inputs", None)
            if base is None:
                inputs = InputOptions(**given, given=frozenset(given))
            else:
                inputs = base.replace(**given) if given else base
            extra = arguments.pop(var_keyword, {}) if var_keyword else {}
            return func(**arguments, **extra, inputs=inputs)

        wrapper.__signature__ = signature
        wrapper.input_option_names = tuple(taken)  # what the function reads as input options
        wrapper.__doc__ = _documented(func.__doc__ or "", taken)
        return wrapper
    return decorate


def _signature(func, taken: tuple, positional: tuple) -> inspect.Signature:
    """``func``'s signature with ``inputs`` replaced by the options ``taken``."""
    parameters = inspect.signature(func).parameters
    if "inputs" not in parameters or set(taken) & set(parameters):
        raise TypeError(f"{func.__qualname__} must take inputs and none of {list(taken)} "
                        "itself: input_options gives them")
    kinds = inspect.Parameter
    head = [p for p in parameters.values() if p.kind == kinds.POSITIONAL_OR_KEYWORD]
    keyword = [p for p in parameters.values() if p.kind == kinds.KEYWORD_ONLY
               and p.name != "inputs"]
    rest = [p for p in parameters.values() if p.kind == kinds.VAR_KEYWORD]
    option = lambda name, kind: kinds(name, kind, default=_FIELDS[name].default)  # noqa: E731
    head += [option(name, kinds.POSITIONAL_OR_KEYWORD) for name in positional]
    keyword += [option(name, kinds.KEYWORD_ONLY) for name in taken if name not in positional]
    keyword.append(kinds("inputs", kinds.KEYWORD_ONLY, default=None))
    return inspect.Signature(head + keyword + rest,
                             return_annotation=inspect.signature(func).return_annotation)


def _documented(doc: str, taken: tuple) -> str:
    """``doc`` with the options ``taken`` described at the end of its ``Args:`` (a new
    ``Args:`` before the examples, or at the end, when it has none)."""
    lines = doc.splitlines()
    indent = min((len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()),
                 default=4) * " "
    at = next((k for k, line in enumerate(lines) if line.strip() == "Args:"), None)
    if at is None:
        at = next((k for k, line in enumerate(lines) if line.strip().startswith(">>>")),
                  len(lines))
        lines[at:at] = [indent + "Args:", ""]
    end = next(k for k in range(at + 1, len(lines)) if not lines[k].strip())
    entry = indent + " " * 4
    for line in lines[at + 1:end]:
        name = line.strip().split(":")[0].split(",")[0]
        if line.startswith(entry) and not line.startswith(entry + " ") and name in taken:
            raise ValueError(f"{name} is documented by input_options: remove it from the "
                             "docstring")
    described = [(name, _FIELDS[name].metadata["doc"]) for name in taken]
    described.append(("inputs", "the options above as one ``nerspan.InputOptions``, the "
                                "same in every family."))
    lines[end:end] = [textwrap.fill(f"{name}: {text}", 88, initial_indent=entry,
                                    subsequent_indent=entry + " " * 4)
                      for name, text in described]
    return "\n".join(lines)


__all__ = ["InputOptions", "input_options", "OPTION_NAMES", "SPAN_OPTION_NAMES",
           "GENERATIVE_INPUT_NAMES"]
