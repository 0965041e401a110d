"""Entity types as a model writes them, matched to the gold types (METHODS §6).

The gold types are names the caller gives (a set of strings, the type vocabulary), never
gold spans or labels. A type the model wrote is mapped by ``type_map`` if it names it
(as written, then case-insensitively), then matched to a gold type as written, then
case-insensitively: case folded and runs of spaces, hyphens and underscores read alike,
so ``"Creative Work"`` is WNUT-17's ``creative-work``. A type that still matches none is
kept as its own type (its entities can only be wrong) and counted as unknown; without
gold types nothing is checked (``unchecked``). A kept type becomes a span label, which
holds no whitespace and no ``|`` (``nerspan.from_spans``): those characters become ``_``.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from ..errors import InputTypeError, NerspanError, shown
from ..type_processing import TypeNotFoundError

_SEPARATORS = re.compile(r"[\s_\-]+")
_NOT_IN_A_LABEL = re.compile(r"[\s|]+")


def loose_key(name: str) -> str:
    """The key under which type names match case-insensitively.

    >>> loose_key("Creative Work") == loose_key("creative-work")
    True
    """
    return _SEPARATORS.sub("-", name.strip().casefold())


def as_label(name: str) -> str:
    """``name`` as a span label: whitespace and ``|`` as ``_``.

    >>> as_label(" creative work ")
    'creative_work'
    """
    return _NOT_IN_A_LABEL.sub("_", name.strip())


class TypeMatcher:
    """Given type -> ``(type, how)``; ``how`` is one of ``repairs.TYPE_MATCHES``.

    >>> match = TypeMatcher({"PER", "LOC", "creative-work"}, {"city": "LOC"})
    >>> match("PER"), match("per"), match("City"), match("Creative Work"), match("date")
    (('PER', 'as_given'), ('PER', 'case_insensitive'), ('LOC', 'type_map'), \
('creative-work', 'case_insensitive'), ('date', 'unknown'))
    """

    def __init__(self, types=None, type_map: Mapping | None = None):
        self.types = _checked_types(types)
        self.type_map = _checked_type_map(type_map)
        self.mapped_loose = {loose_key(k): v for k, v in reversed(list(self.type_map.items()))}
        self.loose = {} if self.types is None else \
            {loose_key(t): t for t in sorted(self.types, reverse=True)}
        self.cache: dict = {}

    def __call__(self, given: str) -> tuple[str, str]:
        found = self.cache.get(given)
        if found is None:
            found = self.cache[given] = self._match(given)
        return found

    def knows(self, given: str) -> bool:
        """Whether ``given`` names a type: one of ``types`` (in any case) or a key of
        ``type_map``."""
        return self(given)[1] in ("as_given", "case_insensitive", "type_map")

    def _match(self, given: str) -> tuple[str, str]:
        mapped = self.type_map.get(given)
        if mapped is None:
            mapped = self.mapped_loose.get(loose_key(given))
        name = given if mapped is None else mapped
        if self.types is None:
            return as_label(name), "unchecked" if mapped is None else "type_map"
        if name in self.types:
            return name, "as_given" if mapped is None else "type_map"
        loose = self.loose.get(loose_key(name))
        if loose is not None:
            return loose, "case_insensitive" if mapped is None else "type_map"
        return as_label(name), "unknown"


def known_names(types, mapped=()) -> tuple:
    """``(names, type_map)`` for ``TypeMatcher`` when the types are processed afterwards
    (``nerspan.type_processing``; ``mapped``: the names its ``type_map`` maps): the gold
    types and the mapped names that are none of them, each read as itself, so that a
    model's ``"Person"`` is the map's ``"person"`` (counted as matched by ``type_map``,
    not as unknown) and the processing then maps it. The same in both ways of METHODS §6
    (``form.ground_predictions``, ``strings.score_strings``).

    A mapped name that is a gold type in another spelling (``"Corporation"`` where gold
    writes ``"corporation"``) is refused (``TypeNotFoundError``): the model's types are
    matched to gold's first, in any case, so the map would rename the model's entities of
    that type and not gold's, and turn correct predictions into errors; in tags, where
    types are case-sensitive, such a key names no type either.

    >>> names, type_map = known_names({"PER"}, ["person", "PER"])
    >>> sorted(names), type_map
    (['PER', 'person'], {'person': 'person'})
    >>> known_names({"corporation"}, ["Corporation"])
    Traceback (most recent call last):
    ...
    nerspan.type_processing.TypeNotFoundError: mapped type 'Corporation' is gold's type 'corporation' written otherwise: generated types are matched to gold's (in any case) before type_map maps them, so this key would map the model's entities and not gold's; write it as gold does ('corporation')
    """
    names = set(types)
    sources = sorted(set(mapped) - names)
    gold = {loose_key(t): t for t in sorted(names, reverse=True)}
    for name in sources:
        if loose_key(name) in gold:
            raise TypeNotFoundError(
                f"mapped type {name!r} is gold's type {gold[loose_key(name)]!r} written "
                "otherwise: generated types are matched to gold's (in any case) before "
                "type_map maps them, so this key would map the model's entities and not "
                f"gold's; write it as gold does ({gold[loose_key(name)]!r})")
    return names | set(sources), {name: name for name in sources} or None


def _checked_types(types):
    """The gold type names as a frozenset (None: nothing to match against)."""
    if types is None:
        return None
    if isinstance(types, (str, bytes)) or not hasattr(types, "__iter__"):
        raise InputTypeError(f"types must be a set of type names, not {shown(types)}",
                             side="types")
    names = list(types)
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise InputTypeError(f"types must be type names (non-empty strings), not "
                                 f"{shown(name)}: give the gold type vocabulary, never "
                                 "gold spans or labels", side="types")
    return frozenset(names)


def _checked_type_map(type_map) -> dict:
    if type_map is None:
        return {}
    if not isinstance(type_map, Mapping):
        raise InputTypeError(f"type_map must be a dict from a model's type name to a gold "
                             f"type name, not {shown(type_map)}", side="type_map")
    for key, value in type_map.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise InputTypeError(f"type_map maps strings to strings, not {shown(key)} -> "
                                 f"{shown(value)}", side="type_map")
        if not value.strip():
            raise NerspanError(f"type_map maps {shown(key)} to an empty type name",
                               side="type_map")
    return dict(type_map)


__all__ = ["TypeMatcher", "known_names", "loose_key", "as_label"]
