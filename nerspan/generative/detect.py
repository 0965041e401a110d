"""Whether predictions are generated output (``is_generated_input``), for the dispatcher."""
from __future__ import annotations

import re
from collections.abc import Mapping

from .reading import ENTITY_KEYS


def is_generated_input(value) -> bool | None:
    """True for generated output per sentence (strings, dicts from type to texts,
    lists of entity dicts without offsets or of ``[text, type]`` pairs), False for
    every other input form (tags, ids, span lists), None when every sentence is empty.

    A list of tags given flat (a list for one sentence: ``["B-PER", "O"]``), or of a
    sentence's tags as one string, is not generated output: False, so that the tag
    reader names the mistake. Any other string is a response, one word or empty
    included (``"None"``, ``"N/A"``, ``""``: a response without entities, counted as
    unreadable).

    >>> is_generated_input(['[{"text": "Paris", "type": "LOC"}]'])
    True
    >>> is_generated_input([[{"text": "Paris", "type": "LOC"}]])
    True
    >>> is_generated_input([[("Paris", "LOC")]])
    True
    >>> is_generated_input([[{"label": "LOC", "start": 0, "end": 1}]])
    False
    >>> is_generated_input(["B-LOC", "O"]), is_generated_input(["B-LOC I-LOC O"])
    (False, False)
    >>> is_generated_input(["None", "N/A", ""])
    True
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple)):
        return False
    strings = [s for s in value if isinstance(s, str)]
    if strings:
        return any(_is_response(s) for s in strings)
    for sentence in value:
        if isinstance(sentence, Mapping):
            return True
        if isinstance(sentence, (list, tuple)) and sentence:
            return _is_entity(sentence[0])
    return None


def _is_response(text: str) -> bool:
    """A model's answer, not a tag (tags given flat) nor tags joined by spaces (a
    sentence's tags as one string): those are the tag reader's to refuse, by name."""
    if any(c in text for c in "[{<"):
        return True
    words = text.split()
    return not words or not all(_TAG.match(word) for word in words)


# A tag of any scheme: O, or a prefix letter, a hyphen and a type.
_TAG = re.compile(r"(?:O|[BIEOSLUM]-\S+)\Z")


# The keys that place a span dict in its sentence: tokens or characters, or fragments
PLACED_KEYS = {"start", "end", "fragments", "offsets"}


def _is_entity(item) -> bool:
    if isinstance(item, Mapping):
        keys = {k.casefold() for k in item if isinstance(k, str)}
        # a text or a type key (a misspelt text key is still an entity, rejected by name);
        # offsets of any kind make it a span (nerspan.reading.span_lists)
        return bool(keys & set(ENTITY_KEYS)) and not keys & PLACED_KEYS
    return isinstance(item, (list, tuple)) and len(item) == 2 \
        and all(isinstance(x, str) for x in item)


__all__ = ["is_generated_input"]
