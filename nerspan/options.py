"""Checks of option values shared by every family: one rule, one message.

A flag must be a bool (``strict="False"`` is a non-empty string, which Python reads as
true: refused, not guessed); a count must be an integer (``n_buckets=2.7`` is refused,
not truncated).
"""
from __future__ import annotations

import numbers

import numpy as np

from .errors import InputTypeError, shown


def check_bool(name: str, value) -> bool:
    """``value`` as a bool; anything but True/False (numpy bools included) is an error.

    >>> check_bool("strict", np.True_)
    True
    >>> check_bool("strict", "False")
    Traceback (most recent call last):
    ...
    nerspan.errors.InputTypeError: strict must be True or False, not 'False' (a str)
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InputTypeError(f"{name} must be True or False, not {shown(value)} "
                         f"(a {type(value).__name__})")


def check_int(name: str, value, minimum: int | None = None, maximum: int | None = None
              ) -> int:
    """``value`` as an int of at least ``minimum`` (and at most ``maximum``); a float, a
    bool or a string is an error.

    >>> check_int("n_buckets", 3, minimum=2)
    3
    >>> check_int("n_buckets", 2.7)
    Traceback (most recent call last):
    ...
    nerspan.errors.InputTypeError: n_buckets must be an integer, not 2.7 (a float)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InputTypeError(f"{name} must be an integer, not {shown(value)} "
                             f"(a {type(value).__name__})")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, not {value}")
    return int(value)


def check_zero_division(value) -> float:
    """``zero_division`` as a float: 0 or 1 (seqeval's values), never a bool.

    >>> check_zero_division(1)
    1.0
    """
    if value not in (0, 1, 0.0, 1.0) or isinstance(value, bool):
        raise ValueError(f"zero_division must be 0 or 1, not {value!r}")
    return float(value)


def check_fraction(name: str, value) -> float:
    """``value`` as a float strictly between 0 and 1 (a confidence level, a significance
    level): ``alpha=5`` would mark every test significant, not fail, so it is refused.

    >>> check_fraction("alpha", 0.01)
    0.01
    >>> check_fraction("confidence", 95)
    Traceback (most recent call last):
    ...
    ValueError: confidence must be between 0 and 1 (exclusive), not 95
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{name} must be a number between 0 and 1, not {shown(value)} "
                             f"(a {type(value).__name__})")
    if not 0 < value < 1:
        raise ValueError(f"{name} must be between 0 and 1 (exclusive), not {value}")
    return float(value)


def check_confidence(value, where: str) -> float:
    """``value`` as a float if it is a number in [0, 1]; else an error saying ``where``.

    >>> check_confidence(1, "threshold")
    1.0
    >>> check_confidence(float("nan"), "threshold")
    Traceback (most recent call last):
    ...
    ValueError: threshold: nan is not a confidence (a number in [0, 1])
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InputTypeError(f"{where}: {shown(value)} ({type(value).__name__}) is not a "
                             "confidence (a number in [0, 1])")
    if not 0 <= value <= 1:  # NaN too
        raise ValueError(f"{where}: {shown(value)} is not a confidence (a number in [0, 1])")
    return float(value)


# The choices of generated predictions' options (``nerspan.generative``, METHODS §6), here
# where ``InputOptions`` checks them and the generative package reads them.
MATCHING = ("grounded", "strings")
OCCURRENCES = ("all", "ordered")
OVERLAPS = ("drop", "keep")
# What ``start`` and ``end`` of span input count (``InputOptions.offsets``): words of the
# sentence, or characters of its text.
OFFSETS = ("tokens", "chars")
# How faireval's SemEval-2013 schemas pair spans (``faireval.semeval``, its ``pairing``),
# here so that the command line offers the values without importing the family.
PAIRINGS = ("greedy", "optimal")


def check_choice(name: str, value, choices: tuple):
    """``value`` if it is one of ``choices``, else an error listing them.

    >>> check_choice("occurrences", "every", OCCURRENCES)
    Traceback (most recent call last):
    ...
    ValueError: occurrences must be one of 'all', 'ordered', not 'every'
    """
    if isinstance(value, (list, dict, set)) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, "
                         f"not {value!r}")
    return value
