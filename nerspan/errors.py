"""One exception type per input problem.

Every error that concerns a sentence names its index (0-based) and, when the input came
from a file, the file and line, so that the user can go straight to the offending place;
errors about one tag or id also name the side (references or predictions) and the
position in the sentence, and show the offending value cut to ``MAX_SHOWN`` characters.
All of them derive from ``NerspanError``, itself a ``ValueError``.
"""
from __future__ import annotations

import difflib
import json
import reprlib

MAX_SHOWN = 80


def shown(value, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` cut to ``limit`` characters (a bad 5 MB line is not echoed whole).

    >>> print(shown("x" * 100, limit=10))
    'xxxxxxxxx... (100 characters)
    """
    try:
        # lists nested deeper than repr can go (how deep it goes depends on the caller's
        # stack and the recursion limit): their outer levels, whatever the stack
        text = _OUTER_LEVELS.repr(value) if _nested_deeper(value, _OUTER_LEVELS.maxlevel) \
            else repr(value)
    except RecursionError:  # nested deep past the first items
        text = _OUTER_LEVELS.repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return text[:limit] + "..." + size


_OUTER_LEVELS = reprlib.Repr()
_OUTER_LEVELS.maxlevel = 8


def _nested_deeper(value, levels: int) -> bool:
    """Whether the first items of ``value`` are lists or tuples more than ``levels`` deep."""
    for _ in range(levels + 1):
        if not isinstance(value, (list, tuple)) or not value:
            return False
        value = value[0]
    return True


def did_you_mean(name: str, known, cutoff: float = 0.6) -> str:
    """``" (did you mean 'x'?)"`` for the name among ``known`` closest to a misspelt
    ``name`` (``difflib``, at least ``cutoff`` alike), or ``""`` when none is close.

    >>> did_you_mean("sentense", ["response", "sentence"]), did_you_mean("id", ["text"])
    (" (did you mean 'sentence'?)", '')
    """
    close = difflib.get_close_matches(name.casefold(), [k.casefold() for k in known], 1,
                                      cutoff)
    if not close:
        return ""
    return f" (did you mean {next(k for k in known if k.casefold() == close[0])!r}?)"


def unknown_key(item, allowed, what: str = "a line's keys") -> str | None:
    """The problem of a JSON object (``item``) holding a key outside ``allowed``: the
    first such key, the allowed one it is likely a misspelling of, and the allowed keys
    (``what`` names them); None when every key is allowed. One wording for every
    JSON Lines reader: a misspelt key ignored would change the numbers in silence.

    >>> unknown_key({"spans": [], "txt": "Hi"}, ("spans", "tokens", "text"))
    "unknown key 'txt' (did you mean 'text'?); a line's keys are spans, tokens, text"
    >>> print(unknown_key({"spans": []}, ("spans",)))
    None
    """
    unknown = [key for key in item if key not in allowed]
    if not unknown:
        return None
    return (f"unknown key {shown(unknown[0])}{did_you_mean(str(unknown[0]), allowed)}; "
            f"{what} are {', '.join(allowed)}")


def load_json(text: str, where: str | None = None):
    """``json.loads(text)``, a key given twice in one object (two datasets, systems or
    error types of one name) a ``FormatError`` naming ``where`` (a file; None: none):
    JSON keeps the last one silently. The one such check (a manifest, a weight table).

    >>> load_json('{"a": 1, "a": 2}', "m.json")
    Traceback (most recent call last):
    ...
    nerspan.errors.FormatError: m.json: 'a' is given twice in one object (the second would replace the first)
    """
    def distinct(pairs: list) -> dict:
        keys = [key for key, _ in pairs]
        for key in keys:
            if keys.count(key) > 1:
                raise FormatError(f"{key!r} is given twice in one object (the second would "
                                  "replace the first)", path=where)
        return dict(pairs)

    return json.loads(text, object_pairs_hook=distinct)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: the one way messages count.

    >>> counted(1, "sentence"), counted(3, "column"), counted(0, "entry", "entries")
    ('1 sentence', '3 columns', '0 entries')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


class NerspanError(ValueError):
    """Base class of every input error raised by nerspan and the families."""

    def __init__(self, problem: str, sentence: int | None = None,
                 path: str | None = None, line: int | None = None, *,
                 side: str | None = None, position: int | None = None):
        self.problem = problem
        self.sentence = sentence
        self.path = path
        self.line = line
        self.side = side          # "references", "predictions", "tokens", a column ...
        self.position = position  # token position within the sentence (0-based)
        super().__init__(self._message())

    def on_side(self, side: str) -> "NerspanError":
        """The same error naming another side (a system's name, the training data)."""
        return type(self)(self.problem, self.sentence, self.path, self.line, side=side,
                          position=self.position)

    def _message(self) -> str:
        where = []
        if self.path is not None:
            where.append(f"{self.path}:{self.line}" if self.line is not None else self.path)
        elif self.line is not None:
            where.append(f"line {self.line}")
        if self.side is not None:
            where.append(self.side)
        if self.sentence is not None:
            where.append(f"sentence {self.sentence}")
        if self.position is not None:
            where.append(f"position {self.position}")
        return f"{', '.join(where)}: {self.problem}" if where else self.problem


class EmptyInputError(NerspanError):
    """The input holds no sentence at all."""


class SentenceCountError(NerspanError):
    """Predictions and references hold different numbers of sentences."""


class LengthMismatchError(NerspanError):
    """A sentence has a different number of tags in predictions and references."""


class LabelIdError(NerspanError):
    """A label id lies outside the label list."""


class InvalidTagError(NerspanError):
    """A tag cannot be read, or (strict mode) its prefix lies outside the scheme."""


class FormatError(NerspanError):
    """A line of a column file cannot be read (missing column, stray text)."""


class TooFewColumnsError(FormatError):
    """No row of a column file has the columns asked for: the file lacks a column (a
    prediction file given as GOLD alone?), not a row its tag."""


class AmbiguousInputError(NerspanError):
    """The input reads two ways that give different numbers (which column is gold, whether
    offsets count tokens or characters) and nothing says which: an option chooses."""


class TokenMismatchError(NerspanError):
    """A prediction file holds another token than the gold file on the same row."""


class InputTypeError(NerspanError, TypeError):
    """An argument has the wrong kind of value (None, a string for a list of sentences,
    lists nested too deep, a float id, a non-bool flag); a ``TypeError`` as well."""


class NameTakenError(NerspanError):
    """A name given (a system, a run, a column, an entity type) is taken: by the gold
    column, another column or system, or a name the results use. A corpus never replaces
    one column with another of the same name."""


class DecodingWarning(UserWarning):
    """Decoding lost most of a column's chunks (strict mode under a scheme that does not
    fit the data, most likely)."""


class TagColumnWarning(UserWarning):
    """A tag file was read at its last column, no column chosen, while another column
    holds tags of the same entity types (a ``token gold prediction`` file): the counts,
    summary or file written are of the last one; ``tag_column`` chooses."""
