"""Text normalisation for grounding and string matching (METHODS §6).

``normalise`` is the "normalised" grounding level and the key of ``matching="strings"``:
Unicode NFKC, curly quotes, primes and backticks as ``'`` or ``"``, every dash as ``-``,
case folded, whitespace runs as one space, and punctuation (and whitespace) stripped from
both ends. ``lowercase_in_place`` is the case-insensitive level: a lower case that keeps
every character at its offset, so that positions found in it are positions in the text.
"""
from __future__ import annotations

import functools
import unicodedata

# Why unify these: a model rewrites the sentence's typewriter quotes and hyphens as
# typographic ones (and back), which says nothing about the entity.
_UNIFIED = str.maketrans({
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035`\u00b4", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
})


def unify(text: str) -> str:
    """NFKC, quotes and dashes unified, case folded, whitespace runs as one space and
    none at either end (punctuation stays: a token keeps its own).

    >>> unify("\u201cNew\u00a0 York\u201d \u2013 NY")
    '"new york" - ny'
    """
    return " ".join(unicodedata.normalize("NFKC", text).translate(_UNIFIED).casefold().split())


def _is_punctuation_or_space(char: str) -> bool:
    return char.isspace() or unicodedata.category(char).startswith("P")


def core_bounds(text: str) -> tuple[int, int]:
    """``(start, end)`` of ``text`` without the punctuation and whitespace around it
    (``(k, k)`` when nothing is left).

    >>> core_bounds('("Paris!")')
    (2, 7)
    """
    if text[:1].isalnum() and text[-1:].isalnum():   # most texts: nothing to strip
        return 0, len(text)
    start, end = 0, len(text)
    while start < end and _is_punctuation_or_space(text[start]):
        start += 1
    while end > start and _is_punctuation_or_space(text[end - 1]):
        end -= 1
    return start, end


@functools.lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """The normalised form of an entity text: ``unify`` and then the surrounding
    punctuation stripped.

    >>> normalise("  \u2018Ada   LOVELACE\u2019, ")
    'ada lovelace'
    >>> normalise("U.S.")
    'u.s'
    """
    unified = unify(text)
    start, end = core_bounds(unified)
    return unified[start:end]


def lowercase_in_place(text: str) -> str:
    """``text`` in lower case, character for character: a character whose lower case
    is longer (``'İ'``) stays as it is, so offsets in the result are offsets in ``text``.

    >>> lowercase_in_place("İstanbul ADA")
    'İstanbul ada'
    """
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


__all__ = ["normalise", "unify", "core_bounds", "lowercase_in_place"]
