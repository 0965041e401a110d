"""Release 0.2's renames: every old spelling is an error naming the new one.

0.2 re-cut the options (issue 38): a family's ``score`` takes its own options and one
record of input options (``inputs=``); F-beta is asked of a result (``to_dict(beta=2)``);
the entity confusion matrix is the evaluation's (``Evaluation.confusion``); training
data is one ``train=``; some names changed. No old spelling is read silently: each one is
an error that names the new one (CHANGELOG.md's migration table lists them all).

- ``MOVED_KEYWORDS``: an old keyword of a function -> what to write instead;
  ``migrated`` makes a function refuse an old keyword with that message (and a keyword
  of the input options with ``inputs={...}``), keeping its signature as written;
- ``moved_names``: a module ``__getattr__`` for names that moved or went;
- ``MOVED_MODULES``: modules that moved, named when an import of the old one fails.

>>> def f(references, *, inputs=None):
...     return references
>>> migrated(f)(1, beta=2)
Traceback (most recent call last):
...
TypeError: f() takes no beta since nerlens 0.2: ask the result for F-beta, result.to_dict(beta=2)
>>> migrated(f)(1, snap=True)
Traceback (most recent call last):
...
TypeError: f() takes snap with the input options since nerlens 0.2: inputs={'snap': True}
"""
from __future__ import annotations

import difflib
import functools
import importlib.abc
import inspect
import sys

from .records import InputOptions

# old keyword -> what to write instead (``{value}``: the value given), in every function
MOVED_KEYWORDS = {
    "beta": "ask the result for F-beta, result.to_dict(beta={value})",
    "confusion": "the entity confusion matrix is the evaluation's: "
                 "nerspan.Evaluation.build(references, predictions).confusion('pred')",
    "train_tokens": "give train=(train_tokens, train_tags)",
    "train_tags": "give train=(train_tokens, train_tags)",
    "train_options": "give how to read a training file as inputs={{'train_tag_column': "
                     "..., 'encoding': ...}}",
    "strict": "strict_diff={value} (hardeval's variant; mode='strict' is the decoding)",
    "return_tokens": "return_hard_tokens={value} (the result's hard_tokens)",
    "compat": "inputs={{'script': {value!r}}} (string matching's UniversalNER script)",
    "partial": "inputs={{'word_overlap': {value}}} (string matching's partial match)",
}


def migrated(func=None, *, record=None, **moved):
    """Decorator: ``func`` as written (its signature untouched), but a keyword it does
    not take is an error naming what to write instead: ``moved`` (old -> text, for this
    function), ``MOVED_KEYWORDS``, an option of ``record`` (the family's options,
    ``options={...}``), an input option (``inputs={...}``), or the closest keyword it
    takes."""
    if func is None:
        return lambda f: migrated(f, record=record, **moved)
    taken = frozenset(inspect.signature(func).parameters)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if not kwargs.keys() <= taken:
            name = min(kwargs.keys() - taken)
            raise TypeError(moved_keyword_text(f"{func.__qualname__}()", name, kwargs[name],
                                               taken, moved, record))
        return func(*args, **kwargs)
    return wrapper


def moved_keyword_text(who: str, name: str, value, taken=(), moved: dict | None = None,
                       record=None) -> str:
    """The error of a keyword that ``who`` (``"f()"``, ``"the faireval module"``) does
    not take (see ``migrated``): ``taken``, the keywords it takes."""
    text = (moved or {}).get(name) or MOVED_KEYWORDS.get(name)
    if text is not None:
        return f"{who} takes no {name} since nerlens 0.2: {text.format(value=value)}"
    if record is not None and name in record.names() and "options" in taken:
        return f"{who} takes {name} in its options: options={{{name!r}: {value!r}}}"
    if name in InputOptions.all_names() and "inputs" in taken:
        return (f"{who} takes {name} with the input options since nerlens 0.2: "
                f"inputs={{{name!r}: {value!r}}}")
    close = difflib.get_close_matches(name, sorted(taken), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"{who} got an unexpected keyword argument {name!r}{hint}"


def moved_names(package: str, moved: dict):
    """A module ``__getattr__`` for ``package``: a name in ``moved`` (old name -> its
    new spelling) is an error naming that."""
    def __getattr__(name: str):
        if name in moved:
            raise AttributeError(f"{package}.{name} is {moved[name]} since nerlens 0.2")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    __getattr__.moved = moved   # read by the tests: every old name must say its new one
    return __getattr__


# module -> where what it held is now
MOVED_MODULES = {
    "nerspan.inputs": "nerspan.reading.forms",
    "nerspan.readers": "nerspan.reading.columns",
    "nerspan.span_input": "nerspan.reading.span_lists",
    "nerspan.generative.files": "nerspan.reading.generated",
    "nerspan.input_options": "nerspan.records",
    "nerspan.gold_context": "nerspan.evaluation",
    "nerspan.deprecation": "nerspan.migration",
    "nerlens.systems": "nerspan.reading.systems",
}


class _MovedModules(importlib.abc.MetaPathFinder):
    """Last on ``sys.meta_path``: asked only when no module of the name exists."""

    def find_spec(self, name, path=None, target=None):
        if name in MOVED_MODULES:
            raise ModuleNotFoundError(f"{name} is {MOVED_MODULES[name]} since nerlens 0.2",
                                      name=name)
        return None


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())


__all__ = ["MOVED_KEYWORDS", "MOVED_MODULES", "migrated", "moved_keyword_text",
           "moved_names"]
