"""Generated output -> ``(text, type)`` entities per sentence, every failure counted.

Forms accepted per sentence (or document), as METHODS §6 lists them:

- a list of entities: dicts ``{"text": ..., "type": ...}`` (the text also under
  ``mention``, ``span`` or ``entity``, the type under ``label`` or ``entity_type``; keys
  in any case) or pairs ``[text, type]``;
- a dict from type to texts, ``{"PER": ["Ada Lovelace"], "LOC": []}`` (a single text
  for a list, ``null`` for none); one entity dict alone; a list of such dicts; a wrapper
  whose values are entity lists (``{"entities": [...]}``);
- a string: a raw model response. Its first fenced code block (```json ... ```) is read
  as JSON; without one, the first JSON array or object in it, prose around it allowed;
  or, when markup comes first, the sentence with ``<TYPE>text</TYPE>`` around each
  entity (nesting allowed).

What the model wrote and cannot be read is never a crash and never silent: a response
with no JSON, invalid JSON or of no entity shape is a *parse failure* (the sentence has
no entity); an item that is no entity (a number, a text without a type, a type that is
a number, an empty text) is *rejected*; both are listed with sentence and text in
``GenerativeRepairs``. What the caller passed wrongly (not a list of sentences, a
sentence of a kind no JSON gives) raises a ``nerspan.errors`` exception naming the side
and the sentence.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from itertools import chain
from operator import itemgetter
from dataclasses import dataclass

from ..errors import EmptyInputError, InputTypeError, did_you_mean, shown
from .repairs import TYPE_MATCHES, GenerativeRepairs, Listing
from .type_names import TypeMatcher

TEXT_KEYS = ("text", "mention", "span", "entity")
TYPE_KEYS = ("type", "label", "entity_type")
ENTITY_KEYS = TEXT_KEYS + TYPE_KEYS
# Keys an entity may carry beside its text and type, read and not used (grounding finds
# the text; METHODS §6; a score is read by ``read_generated(scored=True)``, METHODS §8):
# any other key of an entity rejects it, naming the key.
IGNORED_KEYS = ("start", "end", "score", "confidence")
# How close a key of a dict from type to texts must be to an entity key to read as one
# misspelt (``{"txt": "Paris", "tpe": "LOC"}``), unless gold has that type: 0.8 leaves
# types such as QUANTITY, PLANT or TEST (0.67 to 0.75 from "entity", "span", "text").
MISSPELT = 0.8
# Containers inside containers: a wrapper, a list of type dicts, an entity in a type
# list; deeper than this no model answers, so it is rejected rather than followed.
MAX_DEPTH = 4
# Brackets tried as the start of JSON: prose rarely holds more before the answer, and
# trying each of 500,000 brackets of a 1 MB response would take minutes.
MAX_JSON_STARTS = 100
# Open tags searched for the one a closing tag ends (markup is never nested deeper).
MAX_OPEN_TAGS = 32

_FENCE = re.compile(r"```[^\n`]*\n?(.*?)(?:```|\Z)", re.S)
_JSON_START = re.compile(r"[\[{]")
_TAG = re.compile(r"<(/?)([A-Za-z][\w.\-]*)\s*>")
_DECODER = json.JSONDecoder()
_NOTHING = object()
# An entity read with ``scored=True`` that has no confidence (a pair, markup, a text of a
# dict from type to texts, a dict without "score"): named by the caller that needs one.
MISSING = object()


@dataclass(frozen=True)
class Generated:
    """One side's generated output read: per sentence, ``(text, type)`` entities in the
    order the model listed them (types matched, see ``type_names``), and the record of
    what reading counted (``parse_failures``, ``rejected``, ``unknown_types``,
    ``types``)."""

    entities: list
    repairs: GenerativeRepairs
    # ``read_generated(scored=True)``: per sentence, each entity's confidence as written
    # (``"score"`` or ``"confidence"``; ``MISSING`` where it has none), checked by
    # ``nerspan.generative.scored_output``; None when read without them
    scores: list | None = None

    @property
    def n_sentences(self) -> int:
        return len(self.entities)


def read_generated(predictions, *, types=None, type_map=None, name: str = "predictions",
                   scored: bool = False) -> Generated:
    """Read every sentence's generated output (any form of the module docstring).

    Args:
        predictions: one item per sentence (or document): a raw response string, an
            entity list or a dict from type to texts.
        types: the gold type names (a set of strings), to match types against; None
            matches nothing and counts nothing unknown.
        type_map: a dict from a model's type name to a gold type name.
        name: the side, for error messages.
        scored: also read each entity's confidence (``Generated.scores``): the
            ``"score"`` (or ``"confidence"``) of an entity dict.

    >>> read = read_generated(['Sure! ```json\\n[{"text": "Ada", "type": "person"}]\\n```',
    ...                        {"LOC": ["Paris"]}, "<ORG>ACME</ORG> hired me", "No idea."],
    ...                       types={"PER", "LOC", "ORG"}, type_map={"person": "PER"})
    >>> read.entities
    [[('Ada', 'PER')], [('Paris', 'LOC')], [('ACME', 'ORG')], []]
    >>> read.repairs.parse_failures[0].reason
    'no JSON array or object, and no <TYPE>...</TYPE> markup'
    """
    sentences = _sentences(predictions, name)
    match = TypeMatcher(types, type_map)
    written, failures, rejected = [], [], []
    scores = [] if scored else None
    for i, value in enumerate(sentences):
        found = plain_entities(value) if type(value) is str and not scored else None
        if found is None:
            found, failure, bad = _read_any(value, name, i, match.knows, scores)
            if failure is not None:
                failures.append(Listing(i, value if isinstance(value, str) else shown(value),
                                        reason=failure))
            if bad:
                rejected.extend(Listing(i, text, given, reason) for text, given, reason in bad)
        written.append(found)
    entities, how_typed, unknown = _typed(written, match)
    repairs = GenerativeRepairs(
        responses=len(sentences), entities=sum(map(len, entities)), types=how_typed,
        parse_failures=tuple(failures), rejected=tuple(rejected), unknown_types=tuple(unknown))
    return Generated(entities, repairs, scores)


def _typed(written: list, match: TypeMatcher) -> tuple[list, dict, list]:
    """``(entities, how_typed, unknown)``: per sentence, the ``(text, type)`` entities
    as written with their types matched (``match``), how many were matched each way,
    and the listings of those of an unknown type. Each name is matched once; the
    sentences are rebuilt only when a name matches another."""
    given = Counter(map(itemgetter(1), chain.from_iterable(written)))
    matched = {name: match(name) for name in given}
    how_typed = dict.fromkeys(TYPE_MATCHES, 0)
    for name, n in given.items():
        how_typed[matched[name][1]] += n
    unknown = [Listing(i, text, name) for i, found in enumerate(written)
               for text, name in found if matched[name][1] == "unknown"] \
        if how_typed["unknown"] else []
    if all(name == entity_type for name, (entity_type, _) in matched.items()):
        return written, how_typed, unknown
    return ([[(text, matched[name][0]) for text, name in found] for found in written],
            how_typed, unknown)


def _sentences(predictions, name: str) -> list:
    if predictions is None:
        raise InputTypeError(f"{name} is None: expected a list with one model output per "
                             "sentence")
    if isinstance(predictions, (str, bytes, Mapping)) or not hasattr(predictions, "__iter__"):
        raise InputTypeError(f"expected a list with one model output per sentence, not "
                             f"{shown(predictions)}", side=name)
    sentences = list(predictions)
    if not sentences:
        raise EmptyInputError(f"{name} hold no sentence")
    return sentences


def read_response(value, name: str = "predictions", sentence: int | None = None,
                  known_type=None) -> tuple[list, str | None, list]:
    """One sentence's output -> ``(entities, failure, rejected)``: ``(text, type)``
    pairs as written, the parse failure's reason (or None) and ``(text, type, reason)``
    of each rejected item. ``known_type(name)``: whether a name is a gold type (a key
    of a dict from type to texts that is no misspelt entity key).

    >>> read_response('[["Paris", "LOC"], [3, "LOC"], ["", "PER"]]')
    ([('Paris', 'LOC')], None, [('3', 'LOC', 'text is not a string'), ('', 'PER', 'empty text')])
    >>> read_response('[{"text": "Paris", "type": "LOC"')[1]
    "invalid JSON: Expecting ',' delimiter (character 32)"
    """
    if isinstance(value, str):
        plain = plain_entities(value)
        if plain is not None:
            return plain, None, []
    return _read_any(value, name, sentence, known_type)


def _read_any(value, name: str, sentence: int | None, known_type, scores: list | None = None
              ) -> tuple[list, str | None, list]:
    """``read_response`` of any form (the plain entity list tried already); with
    ``scores`` (a list), the confidences of the sentence's entities are appended to it,
    one list per sentence."""
    found, rejected = [], []
    reader = _Reader(found, rejected, known_type, [] if scores is not None else None)
    if scores is not None:
        scores.append(reader.scores)
    if value is None:
        return found, "no response (None)", rejected
    if isinstance(value, str):
        return found, reader.string(value), rejected
    if isinstance(value, (bool, int, float)):
        return found, f"not entities: {type(value).__name__} {shown(value)}", rejected
    if isinstance(value, Mapping):
        reader.entity_dict(value, None, 0)
    elif isinstance(value, (list, tuple)):
        reader.items(value, None, 0)
    else:
        raise InputTypeError(f"a model output is a string, a list or a dict (what JSON "
                             f"gives), not {shown(value)} ({type(value).__name__})",
                             side=name, sentence=sentence)
    return found, None, rejected


def plain_entities(text: str) -> list | None:
    """The entities of the response most models give, read at C speed: a JSON list
    first (whitespace before it, anything after it), no code fence, no markup, every
    item ``{"text": ..., "type": ...}`` with two non-empty strings and no other key.
    None for anything else, which ``_Reader`` reads (to the same entities when it is
    this form: the first JSON of such a text is this list).

    >>> plain_entities(' [{"text": "Ada ", "type": "PER"}] thanks'), plain_entities("[1]")
    ([('Ada', 'PER')], None)
    """
    start = len(text) - len(text.lstrip())
    if text[start:start + 1] != "[" or "```" in text or "</" in text:
        return None
    try:
        items = _DECODER.raw_decode(text, start)[0]
    except (ValueError, RecursionError):
        return None
    found = []
    for item in items:
        if type(item) is not dict or len(item) != 2:
            return None
        entity_text, entity_type = item.get("text"), item.get("type")
        if type(entity_text) is not str or type(entity_type) is not str:
            return None
        entity_text, entity_type = entity_text.strip(), entity_type.strip()
        if not entity_text or not entity_type:
            return None
        found.append((entity_text, entity_type))
    return found


class _Reader:
    """Walks one sentence's output, adding to ``found`` and ``rejected``."""

    def __init__(self, found: list, rejected: list, known_type=None, scores=None):
        self.found, self.rejected = found, rejected
        # each found entity's confidence (``MISSING`` without one), when read
        self.scores = scores
        # whether a name is one of gold's types (a type dict's key, not a misspelt key)
        self.known_type = known_type

    def string(self, text: str) -> str | None:
        """Read a raw response; the parse failure's reason, or None."""
        if not text.strip():
            return "empty response"
        fence = _FENCE.search(text)
        if fence is not None:
            return self._fenced(fence.group(1))
        markup, first_tag = _markup(text) if "</" in text else ([], None)
        value, error = first_json(text, len(text) if first_tag is None else first_tag)
        if value is not _NOTHING:
            return self.value(value)
        if markup:
            for entity_text, entity_type in markup:
                self.entity(entity_text, entity_type)
            return None
        if error is not None:
            return error
        return "no JSON array or object, and no <TYPE>...</TYPE> markup"

    def _fenced(self, content: str) -> str | None:
        try:
            return self.value(json.loads(content))
        except RecursionError:
            return "invalid JSON in the code fence: nested too deep"
        except ValueError as error:
            markup, _ = _markup(content)
            if not markup:
                return f"invalid JSON in the code fence: {_described(error)}"
        for entity_text, entity_type in markup:
            self.entity(entity_text, entity_type)
        return None

    def value(self, value) -> str | None:
        if isinstance(value, Mapping):
            self.entity_dict(value, None, 0)
        elif isinstance(value, list):
            self.items(value, None, 0)
        else:  # a fence holding a bare string or number
            return f"not entities: JSON {type(value).__name__} {shown(value)}"
        return None

    def items(self, items, key, depth: int) -> None:
        """A list: entity dicts, ``[text, type]`` pairs, texts of type ``key``."""
        for item in items:
            if isinstance(item, str):
                if key is None:
                    self.reject(item, None, "a text without a type")
                else:
                    self.entity(item, key)
            elif isinstance(item, Mapping):
                self.entity_dict(item, key, depth + 1)
            elif isinstance(item, (list, tuple)) and len(item) == 2 \
                    and not any(isinstance(x, (list, tuple, Mapping)) for x in item):
                self.entity(item[0], item[1])
            elif isinstance(item, (list, tuple)) and item and depth < MAX_DEPTH \
                    and all(isinstance(x, (list, tuple, Mapping)) for x in item):
                self.items(item, key, depth + 1)
            else:
                self.reject(item, key, "not an entity")

    def entity_dict(self, item: Mapping, key, depth: int) -> None:
        """One entity (a dict with a text or type key whose value is no container: its
        other keys must be entity keys), else a dict from type to texts (or a wrapper,
        ``{"entities": [...]}``)."""
        text, entity_type = item.get("text"), item.get("type")
        if len(item) == 2 and isinstance(text, str) and entity_type is not None:
            self.entity(text, entity_type)  # the usual keys, first
            return
        keys = {k.casefold(): k for k in item if isinstance(k, str)}
        text_key = next((keys[k] for k in TEXT_KEYS if k in keys), None)
        type_key = next((keys[k] for k in TYPE_KEYS if k in keys), None)
        named = text_key if text_key is not None else type_key
        if named is not None and not isinstance(item[named], (list, tuple, Mapping)):
            self.entity_record(item, key, text_key, type_key)
        elif depth > MAX_DEPTH:
            self.reject(shown(dict(item)), key, "nested too deep")
        else:
            self.type_dict(item, depth)

    def entity_record(self, item: Mapping, key, text_key, type_key) -> None:
        """An entity dict: its text and type (``key``, the type it is listed under, when
        it has no type key); an unknown key rejects it, named (a misspelt key would
        lose the text or the type)."""
        unknown = next((k for k in item if not isinstance(k, str)
                        or k.casefold() not in ENTITY_KEYS + IGNORED_KEYS), _NOTHING)
        given_type = key if type_key is None else item[type_key]
        if unknown is not _NOTHING:
            self.reject(item[text_key] if text_key is not None else shown(dict(item)),
                        given_type, f"unknown key {shown(unknown)}"
                        f"{did_you_mean(str(unknown), ENTITY_KEYS)}: an entity has "
                        f"{'/'.join(TEXT_KEYS)} and {'/'.join(TYPE_KEYS)} "
                        f"({', '.join(IGNORED_KEYS)} ignored)")
        elif text_key is None:
            self.reject(shown(dict(item)), given_type, "no text")
        elif type_key is None and key is None:
            self.reject(item[text_key], None, "no type")
        else:
            self.entity(item[text_key], given_type, _score_of(item))

    def type_dict(self, item: Mapping, depth: int) -> None:
        """A dict from type to texts; refused whole when a key with one text is an
        entity key misspelt (``{"txt": "Paris", "tpe": "LOC"}``) and no gold type."""
        misspelt = next((k for k, value in item.items() if isinstance(value, str)
                         and misspelt_key(k, self.known_type)), None)
        if misspelt is not None:
            self.reject(shown(dict(item)), None, f"key {misspelt!r}"
                        f"{did_you_mean(misspelt, ENTITY_KEYS, MISSPELT)} is no type: "
                        "neither an entity nor a dict from type to texts")
            return
        for key, value in item.items():
            if value is None:
                continue  # {"LOC": null}: no entity of the type
            if not isinstance(key, str):
                self.reject(value, key, "type is not a string")
            elif isinstance(value, (list, tuple)):
                self.items(value, key, depth + 1)
            elif isinstance(value, Mapping):
                self.entity_dict(value, key, depth + 1)
            else:
                self.entity(value, key)

    def entity(self, text, entity_type, score=None) -> None:
        if not isinstance(text, str):
            self.reject(text, entity_type, "text is not a string")
        elif not isinstance(entity_type, str):
            self.reject(text, entity_type, "type is not a string")
        elif not text.strip():
            self.reject(text, entity_type, "empty text")
        elif not entity_type.strip():
            self.reject(text, entity_type, "empty type")
        else:
            self.found.append((text.strip(), entity_type.strip()))
            if self.scores is not None:
                self.scores.append(MISSING if score is None else score)

    def reject(self, text, entity_type, reason: str) -> None:
        self.rejected.append((text if isinstance(text, str) else shown(text),
                              entity_type if entity_type is None or isinstance(
                                  entity_type, str) else shown(entity_type), reason))


def _score_of(item: Mapping):
    """An entity dict's confidence as written: its ``score`` (else ``confidence``) key,
    in any case; None without one."""
    keys = {k.casefold(): k for k in item if isinstance(k, str)}
    key = keys.get("score", keys.get("confidence"))
    return None if key is None else item[key]


def first_json(text: str, before: int) -> tuple:
    """``(value, None)``: the first JSON array or object starting before character
    ``before``; else ``(_NOTHING, failure)``, why broken JSON or too many brackets fail
    the response, or None when no bracket started JSON at all.

    A bracket whose JSON breaks after its first value (``[{"text": "Ada"}, {"te``, a
    response cut short) makes the response invalid JSON: the scan stops there rather
    than take an object inside it for the answer. A bracket that starts no value at all
    (``[ here ]``, ``{sic}``) is prose, and the scan goes on.
    """
    for tried, start in enumerate(_JSON_START.finditer(text, 0, before)):
        if tried == MAX_JSON_STARTS:
            return _NOTHING, f"no JSON array or object in its first {MAX_JSON_STARTS} " \
                "brackets"
        try:
            return _DECODER.raw_decode(text, start.start())[0], None
        except RecursionError:
            return _NOTHING, "invalid JSON: nested too deep"
        except ValueError as failure:
            if getattr(failure, "pos", 0) > _first_value(text, start.start()):
                return _NOTHING, f"invalid JSON: {_described(failure)}"
    return _NOTHING, None


def _first_value(text: str, bracket: int) -> int:
    """Where the first value after an opening bracket starts (whitespace skipped)."""
    at = bracket + 1
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _described(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} (character {error.pos})"
    return str(error)


def _markup(text: str) -> tuple[list, int | None]:
    """``(text, type)`` of every ``<TYPE>...</TYPE>`` pair (in the order they open,
    tags removed from the text inside) and where the first of them opens."""
    plain, at, last = [], 0, 0
    open_tags, pairs = [], []
    for tag in _TAG.finditer(text):
        plain.append(text[last:tag.start()])
        at += tag.start() - last
        last = tag.end()
        name = tag.group(2)
        if not tag.group(1):
            open_tags.append((name.casefold(), name, at, len(pairs), tag.start()))
            pairs.append(None)
            continue
        for k in range(len(open_tags) - 1, max(-1, len(open_tags) - 1 - MAX_OPEN_TAGS), -1):
            if open_tags[k][0] == name.casefold():
                _, opened, start, slot, where = open_tags[k]
                pairs[slot] = (start, at, opened, where)
                del open_tags[k:]
                break
    plain.append(text[last:])
    joined = "".join(plain)
    found = [pair for pair in pairs if pair is not None]
    first = min((where for *_, where in found), default=None)
    return [(joined[a:b], name) for a, b, name, _ in found], first


def misspelt_key(name, known_type=None) -> bool:
    """Whether ``name`` (a key of a dict from type to texts) reads as an entity key
    misspelt (``MISSPELT``), not as a type (``known_type``, gold's)."""
    return isinstance(name, str) and not (known_type is not None and known_type(name)) \
        and bool(did_you_mean(name, ENTITY_KEYS, MISSPELT))


__all__ = ["Generated", "read_generated", "read_response", "first_json", "TEXT_KEYS",
           "TYPE_KEYS", "ENTITY_KEYS", "IGNORED_KEYS", "misspelt_key"]
