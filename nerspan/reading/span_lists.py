"""Spans instead of tags: every span form users have, turned into token spans or a ``Corpus``.

Forms, per sentence (or per document: one list stands for one unit of text):

- token offsets ``(start, end, label)`` (or FairEval's ``(label, start, end)``: the
  string is the label), or dicts in nervaluate's layout ``{"label", "start", "end"}``;
  ``end`` is exclusive unless ``inclusive_end=True`` (nervaluate's own dicts are
  inclusive);
- the output of a ``transformers`` token-classification pipeline, as it comes: grouped
  entities (``entity_group``, ``start``, ``end``, ``word``, ``score``) or, without
  aggregation, one dict per sub-token (``entity`` = its tag, ``start``, ``end``). Their
  offsets are characters of the sentence text: ``texts`` gives it; otherwise it is the
  ``tokens`` joined by single spaces (what the pipeline sees with
  ``is_split_into_words=True``). Per-sub-token output is read as tags: each word takes
  the tag of the sub-token that starts it (the convention of training with -100 on the
  other sub-tokens), and the tags are decoded like any others (lenient IOB2).

A character span must start at a token start and end at a token end; otherwise it is an
error naming it, unless ``snap=True``, which widens it to the tokens it touches and counts
every such repair (``Repairs.snapped``, reported in every family's ``repairs``).

``read_spans`` gives one side's token spans, which may nest or overlap (faireval scores
them as they are); ``from_spans`` builds the ``Corpus`` every family scores: a side
whose spans nest or overlap is kept there as a table (``nerspan.spans.Spans``), which
entity scores read as it is and whatever needs tags refuses (``SpanShapeError``).
"""
from __future__ import annotations

import codecs
import dataclasses
import json
import os
import re
from functools import partial
from itertools import chain
from typing import Mapping

import numpy as np

from ..arrow_columns import is_arrow
from ..corpus import Corpus, Source
from ..flat import GOLD, PRED, _a, _offsets, check_shapes, first_outside, ranges
from ..errors import (AmbiguousInputError, EmptyInputError, FormatError, InputTypeError,
                      InvalidTagError, NerspanError, SentenceCountError, counted, shown,
                      unknown_key)
from ..migration import migrated
from ..records import InputOptions
from ..schemes import get_scheme
from ..span_table import normal_fragments
from ..spans import Repairs, Spans, decode

_NOT_A_TOKEN = re.compile(r"\S+")


def is_span_input(value) -> bool | None:
    """True for span lists per sentence, False for tags, ids, a Corpus or Arrow arrays
    (nerspan's ``arrow`` form reads tags and ids), None if all empty."""
    if value is None or isinstance(value, (Corpus, str, bytes)) or (
            isinstance(value, np.ndarray)) or is_arrow(value):
        return False
    if not isinstance(value, (list, tuple)):
        # an iterator cannot be peeked at without consuming it: tags, as before
        if not hasattr(value, "__iter__") or iter(value) is value or hasattr(value, "features"):
            return False
        value = list(value)
    for sentence in value:
        if (isinstance(sentence, (str, bytes)) or not hasattr(sentence, "__iter__")
                or getattr(sentence, "ndim", 1) == 0):
            return False  # not a sentence: the tag or id path names it
        for item in sentence:
            return isinstance(item, (tuple, list, Mapping))
    return None


def span_sides(references, predictions=None, inputs=None, words=None) -> tuple[bool, bool]:
    """Whether each side is span input (``is_span_input``), deciding a side whose
    sentences are all empty lists.

    Such a side is spans (no mention at all) when anything else says the sentences have
    words: the other side (spans, tags or a ``Corpus`` with tokens), the input options'
    ``tokens`` or ``texts``, or ``words`` (other lists per token, such as POS tags); as
    tag lists, they would be empty sentences and a length mismatch. When nothing has a
    word, it is tags (empty sentences).

    >>> span_sides([["B-PER", "O"]], [[]])
    (False, True)
    >>> span_sides([[]], [[]])
    (False, False)
    """
    forms = [is_span_input(references), is_span_input(predictions)]
    if None in forms:
        tokens, texts = (None, None) if inputs is None else (inputs.tokens, inputs.texts)
        has_words = True in forms \
            or any(map(_has_words, (references, predictions, tokens, words))) \
            or (texts is not None and any(map(str.strip, texts)))
        forms = [has_words if form is None else form for form in forms]
    return forms[0], forms[1]


def _has_words(value) -> bool:
    """Whether ``value`` (lists per sentence, a 2-D array or a Corpus) has an item."""
    if isinstance(value, Corpus):
        return value.n_tokens > 0
    if isinstance(value, np.ndarray) and value.ndim > 1:
        return value.size > 0
    if not isinstance(value, (list, tuple, np.ndarray)):
        return False
    return any(not isinstance(s, (str, bytes)) and hasattr(s, "__len__") and len(s) > 0
               for s in value)


def check_span_scheme(scheme) -> None:
    """Span input becomes IOB2 tags: another ``scheme`` would misread them."""
    if get_scheme(scheme).name != "IOB2":
        raise ValueError(f"span input is scored as IOB2 tags; scheme={scheme!r} applies to "
                         "tag input only: leave scheme at 'IOB2'")


@migrated
def read_spans(sentences, name: str = "spans", *, inputs=None) -> tuple[Spans, np.ndarray]:
    """One side's mentions as ``Spans`` in list order (they may nest or overlap), and the
    sentence of every span that ``snap=True`` widened (``Spans.repairs`` counts them).

    Sentences are as long as ``tokens`` say, or else (or where a span reaches past its
    words: its reader names it) as far as their spans reach (``layout``).

    Args:
        sentences: per sentence, a list of spans in any form of the module docstring.
        name: which side, for error messages ("references", "predictions").
        inputs: the input options (``nerspan.InputOptions`` or a dict): ``tokens``,
            ``texts``, ``inclusive_end``, ``snap``, ``offsets``.

    >>> spans, snapped = read_spans([[(0, 2, "PER")], [{"label": "LOC", "start": 1, "end": 2}]])
    >>> spans.types, (spans.start - spans.base).tolist(), spans.offsets.tolist(), len(snapped)
    (('LOC', 'PER'), [0, 1], [0, 2, 4], 0)
    """
    sentences = _as_list(sentences, name)
    inputs = InputOptions.of(inputs)
    counted_as, why = _counted_offsets(sentences, inputs, name)
    fast = _rows_fast(sentences, inputs.inclusive_end) if counted_as == "tokens" else None
    rows, snapped, decoded = (fast, [], None) if fast is not None else _rows(
        sentences, name, inputs, counted_as, why)
    snapped = np.asarray(snapped, dtype=np.int64)
    repairs = Repairs(invalid_transitions=decoded.invalid_transitions if decoded else 0,
                      snapped=len(snapped), sentences=tuple(sorted(set(snapped.tolist())))[:20])
    return _as_spans(rows, len(sentences), inputs.tokens, repairs), snapped


def _rows(sentences: list, name: str, inputs, counted_as: str, why: str) -> tuple:
    """``(rows, snapped, repairs)``: the ``(sentence, start, end, label, fragments or
    None)`` of every span, the sentence of every snapped one, the ``Repairs`` of
    decoding per-sub-token pipeline output (None without any)."""
    text_of = _Texts(inputs.tokens, inputs.texts, len(sentences), name)
    rows, snapped, raw = [], [], {}
    for i, spans in enumerate(sentences):
        _check_sentence(spans, name, i)
        spans = list(spans)
        for k, item in enumerate(spans):
            read = _shaped_rows if _is_shaped(item) else partial(_token_row, raw=raw)
            if read(rows, item, (name, i, k), counted_as, inputs, text_of, why):
                snapped.append(i)
        if i in raw and len(raw[i]) != len(spans):
            raise NerspanError("pipeline output without aggregation (dicts with "
                               "'entity') cannot be mixed with other spans in one sentence",
                               side=name, sentence=i)
    repairs = None
    if raw:
        decoded, repairs = _subtoken_rows(raw, text_of)
        rows = sorted(rows + [row + (None,) for row in decoded], key=lambda r: r[0])
    for i, start, end, label, _ in rows:
        _check_span(label, start, end, name, i)
    return rows, snapped, repairs


def _token_row(rows: list, item, where: tuple, counted_as: str, inputs, text_of, why: str,
               raw: dict) -> bool:
    """Append the row of a span of one fragment and one label (or keep a sub-token's
    tag in ``raw``); whether it was snapped."""
    name, i, k = where
    label, start, end, offsets = _fields(item, name, i, k)
    if offsets == "token" and counted_as == "tokens":
        rows.append((i, start, end + 1 if inputs.inclusive_end else end, label, None))
    elif offsets == "subtoken":
        raw.setdefault(i, []).append((label, start, end))
    else:
        a, b, was_snapped = _align(text_of(i), start, end, label, inputs.snap, name, i,
                                   why if offsets == "token" else "")
        rows.append((i, a, b, label, None))
        return was_snapped
    return False


def _as_spans(rows, n_sentences: int, tokens, repairs: Repairs) -> Spans:
    """The ``Spans`` of rows (``(sentence, start, end, label, fragments or None)``
    tuples, or ``_rows_fast``'s arrays), each sentence as long as its ``tokens`` or, if
    longer (or without tokens), as far as its spans reach."""
    if isinstance(rows, list):
        as_array = lambda xs: np.asarray(xs, dtype=np.int64)  # noqa: E731
        owners = [k for k, row in enumerate(rows) if row[4] is not None]
        pieces = [(k, a, b) for k in owners for a, b in rows[k][4]]
        fragments = tuple(as_array([p[j] for p in pieces]) for j in range(3))
        rows = (*(as_array([r[j] for r in rows]) for j in range(3)), [r[3] for r in rows])
    else:
        fragments = (_NONE,) * 3
    sentence, start, end, labels = rows
    lengths = np.diff(layout(n_sentences, (sentence, end)))
    if tokens is not None and len(tokens) == n_sentences:   # (else the caller names it)
        # longer where a span reaches past its words: the caller names that too
        lengths = np.maximum(lengths, np.fromiter(map(len, tokens), np.int64, n_sentences))
    offsets = _offsets(lengths)
    types = tuple(sorted(set(labels)))
    index = {label: k for k, label in enumerate(types)}
    type_ids = np.fromiter(map(index.__getitem__, labels), dtype=np.int32, count=len(labels))
    base = offsets[sentence]
    owner = fragments[0]
    return Spans(base + start, base + end, offsets, type_ids, types, repairs=repairs,
                 fragments=(owner, base[owner] + fragments[1], base[owner] + fragments[2])
                 if len(owner) else None)


def layout(n_sentences: int, *sides) -> np.ndarray:
    """Flat offsets of ``n_sentences`` sentences, each as long as the furthest end of
    the spans ``sides`` (``(sentence, end)`` pairs, ends in the sentence) give it: span
    lists need not come with their sentences' lengths."""
    longest = np.zeros(n_sentences, dtype=np.int64)
    for sentence, end in sides:
        np.maximum.at(longest, sentence, end)
    return _offsets(longest)


_NONE = np.zeros(0, dtype=np.int64)


# The keys that make a span dict a mention of several fragments or labels: fragments
# (token offsets, or characters with offsets="chars"), BigBio's offsets (characters),
# labels (one span, several types).
SHAPED_KEYS = ("fragments", "offsets", "labels")


def _is_shaped(item) -> bool:
    return isinstance(item, Mapping) and any(item.get(k) is not None for k in SHAPED_KEYS)


def _shaped_rows(rows: list, item: Mapping, where: tuple, counted_as: str, inputs,
                 text_of, why: str) -> bool:
    """Append the rows of a mention given with fragments, BigBio offsets or several
    labels (one row per label; fragments normalised, ``normal_fragments``); whether a
    fragment was snapped."""
    name, i, k = where
    labels, fragments, kind = _shaped_fields(item, name, i, k)
    in_tokens, was_snapped = [], False
    for start, end in fragments:
        if kind == "token" and counted_as == "tokens":
            in_tokens.append([start, end + 1 if inputs.inclusive_end else end])
            continue
        a, b, snapped = _align(text_of(i), start, end, labels[0], inputs.snap, name, i,
                               why if kind == "token" else "")
        in_tokens.append([a, b])
        was_snapped = was_snapped or snapped
    for start, end in in_tokens:
        _check_span(labels[0], start, end, name, i)
    in_tokens = normal_fragments(in_tokens)
    several = [tuple(f) for f in in_tokens] if len(in_tokens) > 1 else None
    for label in labels:
        rows.append((i, in_tokens[0][0], in_tokens[-1][1], label, several))
    return was_snapped


def _shaped_fields(item: Mapping, name: str, sentence: int, position: int) -> tuple:
    """``(labels, fragments, kind)`` of a shaped span dict (``SHAPED_KEYS``): kind
    "token" for ``fragments`` or ``start``/``end``, "char" for BigBio's ``offsets``."""
    given = {key: value for key, value in item.items() if value is not None}
    fail = lambda problem: NerspanError(  # noqa: E731
        f"span {position} {shown(dict(item))}: {problem}", side=name, sentence=sentence)
    named = [key for key in ("label", "labels", "type") if key in given]
    if len(named) != 1:
        raise fail("give its type as one of 'label', 'labels' (several) or 'type' (BigBio)")
    labels = given[named[0]]
    labels = list(labels) if named[0] == "labels" and isinstance(labels, (list, tuple)) \
        else [labels] if named[0] != "labels" else None
    if not labels:
        raise fail("'labels' must be a non-empty list of labels")
    labels = [_checked_label(label, item, name, sentence) for label in dict.fromkeys(labels)]
    places = [key for key in ("fragments", "offsets") if key in given]
    if len(places) > 1:
        raise fail("give either 'fragments' (token offsets) or 'offsets' (BigBio's "
                   "characters), not both")
    if not places:
        if "start" not in given or "end" not in given:
            raise fail("has no start/end, 'fragments' or 'offsets'")
        pairs = [[given["start"], given["end"]]]
    else:
        pairs = given[places[0]]
    if not isinstance(pairs, (list, tuple)) or not pairs:
        raise fail(f"{places[0] if places else 'start/end'} must be a non-empty list of "
                   "[start, end] pairs")
    fragments = []
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise fail(f"fragment {shown(pair)} is not a [start, end] pair")
        fragments.append([_offset(pair[0], item, name, sentence),
                          _offset(pair[1], item, name, sentence)])
    return labels, fragments, "char" if places == ["offsets"] else "token"


def _counted_offsets(sentences: list, inputs, name: str) -> tuple[str, str]:
    """What ``start`` and ``end`` count in the spans written as token spans (tuples,
    ``{"label", "start", "end"}``): ``("tokens" | "chars", why)``, ``why`` saying, when
    the spans decided it, what made them characters (``InputOptions.offsets``).

    Without ``offsets``, a side with ``texts`` is read as characters when some span
    reaches past its sentence's words as token offsets, as tokens when some span would
    cut a word's letters apart as characters (``_cuts_a_word``); when every span fits
    both ways, which one is meant is not guessed (``AmbiguousInputError``).
    """
    if inputs.offsets is not None or inputs.texts is None:
        return inputs.offsets or "tokens", ""
    text_of = _Texts(inputs.tokens, inputs.texts, len(sentences), name)
    example, cuts = None, False  # a span that fits both ways (for the error); a cut word
    for i, spans in enumerate(sentences):
        for k, item in enumerate(spans if isinstance(spans, (list, tuple)) else ()):
            if _is_shaped(item):   # fragments say what they count; BigBio's, characters
                continue
            try:
                label, start, end, kind = _fields(item, name, i, k)
            except NerspanError:  # reading the spans names it
                return "tokens", ""
            if kind != "token":
                continue
            text, starts, _ = text_of(i)
            if end + inputs.inclusive_end > len(starts):
                return "chars", (f"read as characters of the text: as token offsets, span "
                                 f"({start}, {end}, {shown(label)}) of sentence {i} reaches "
                                 f"past its {counted(len(starts), 'word')}; offsets='tokens' "
                                 "(--offsets tokens) reads token offsets")
            cuts = cuts or _cuts_a_word(text, start, end)
            if example is None and 0 <= start < end:
                example = (i, label, start, end + inputs.inclusive_end)
    if example is None or cuts:
        return "tokens", ""
    i, label, start, end = example
    text, starts, ends = text_of(i)
    raise AmbiguousInputError(
        f"span ({start}, {end - inputs.inclusive_end}, {shown(label)}) reads as the words "
        f"{shown(text[starts[start]:ends[end - 1]])} or as the characters "
        f"{shown(text[start:end - inputs.inclusive_end])} of the text, and every span fits "
        "both ways: say what start and end count, offsets='chars' (--offsets chars; spaCy, "
        "doccano, Label Studio and GLiNER count characters) or offsets='tokens' (--offsets "
        "tokens)", side=name, sentence=i)


def _cuts_a_word(text: str, start: int, end: int) -> bool:
    """Whether the characters ``[start, end)`` of ``text`` are no span a tool would
    write: outside the text, or cutting letters or digits apart at either end (a
    punctuation mark beside them may be cut off: ``Paris`` of ``Paris,``).

    >>> _cuts_a_word("Ada met Bob", 0, 2), _cuts_a_word("Ada, Bob", 0, 3)
    (True, False)
    """
    if not 0 <= start < end <= len(text):
        return True
    return any(0 < at < len(text) and text[at - 1].isalnum() and text[at].isalnum()
               for at in (start, end))


def _as_list(value, name: str) -> list:
    if value is None:
        raise InputTypeError(f"{name} is None: expected a list of sentences (lists of spans)")
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InputTypeError("expected a list of sentences (lists of spans), not "
                             f"{shown(value)}", side=name)
    return value if isinstance(value, list) else list(value)


def _rows_fast(sentences, inclusive_end: bool) -> tuple | None:
    """``(sentence, start, end, labels)`` when every span is a well-formed token tuple,
    else None (checked in C)."""
    if not set(map(type, sentences)) <= {list, tuple} and \
            any(isinstance(spans, (str, bytes, Mapping)) for spans in sentences):
        return None   # (the types first: an isinstance of typing's Mapping costs 2 us)
    try:
        sizes = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    except TypeError:
        return None
    flat = list(chain.from_iterable(sentences))
    empty = np.zeros(0, dtype=np.int64)
    if not flat:
        return empty, empty, empty.copy(), []
    if not set(map(type, flat)) <= {tuple, list} or set(map(len, flat)) != {3}:
        return None
    first, second, third = (list(column) for column in zip(*flat))
    if set(map(type, first)) == {str}:        # (label, start, end)
        labels, starts, ends = first, second, third
    elif set(map(type, third)) == {str}:      # (start, end, label)
        starts, ends, labels = first, second, third
    else:
        return None
    if not all(labels) or not set(map(type, starts)) | set(map(type, ends)) <= {int} \
            or any(map(_has_space, set(labels))):
        return None
    try:
        start = np.array(starts, dtype=np.int64)
        end = np.array(ends, dtype=np.int64) + int(inclusive_end)
    except OverflowError:  # an offset beyond int64: the checked path names it
        return None
    if (start < 0).any() or (end <= start).any():
        return None
    sentence = np.repeat(np.arange(len(sentences), dtype=np.int64), sizes)
    return sentence, start, end, labels


def _check_sentence(spans, name: str, sentence: int) -> None:
    if isinstance(spans, (str, bytes)):
        raise InputTypeError("the sentence is a string; expected a list of spans",
                             side=name, sentence=sentence)
    if not hasattr(spans, "__iter__"):
        raise InputTypeError(f"expected a list of spans, got {shown(spans)}", side=name,
                             sentence=sentence)


def _fields(item, name: str, sentence: int, position: int) -> tuple:
    """``(label, start, end, offsets)``; offsets is "token", "char" or "subtoken"."""
    if isinstance(item, (tuple, list)) and item \
            and all(isinstance(x, (str, list, tuple)) for x in item):  # tags, or lists of them
        raise InvalidTagError(f"{shown(item)} is a list: {name} are nested too deep "
                              "(expected one list of tags per sentence, or spans such as "
                              "(start, end, label))", side=name, sentence=sentence,
                              position=position)
    if isinstance(item, Mapping):
        return _dict_fields(item, name, sentence)
    if isinstance(item, (tuple, list)) and len(item) == 3:
        if isinstance(item[0], str):
            label, start, end = item
        else:
            start, end, label = item
        return _checked_label(label, item, name, sentence), \
            _offset(start, item, name, sentence), _offset(end, item, name, sentence), "token"
    # a tuple of another size has the right type and the wrong shape
    error = NerspanError if isinstance(item, (tuple, list)) else InputTypeError
    raise error(f"a span must be (start, end, label), (label, start, end) or a dict, got "
                f"{shown(item)}", side=name, sentence=sentence, position=position)


def _dict_fields(item: Mapping, name: str, sentence: int) -> tuple:
    # evaluate's Arrow round trip gives every declared key; None means absent
    given = {k: v for k, v in item.items() if v is not None}
    for key, offsets in (("entity_group", "char"), ("entity", "subtoken"), ("label", "token")):
        if key in given:
            if "start" not in given or "end" not in given:
                raise NerspanError(
                    f"span {shown(dict(item))} has no start/end"
                    + (" (a pipeline needs a fast tokenizer to give character offsets)"
                       if offsets != "token" else ""), side=name, sentence=sentence)
            return (_checked_label(given[key], item, name, sentence),
                    _offset(given["start"], item, name, sentence),
                    _offset(given["end"], item, name, sentence), offsets)
    if "label" in item:  # declared, but None
        _checked_label(item["label"], item, name, sentence)
    raise NerspanError(f"a span dict needs 'label' (or a pipeline's 'entity_group' "
                       f"or 'entity'), 'start' and 'end'; got keys {sorted(item)}",
                       side=name, sentence=sentence)


def _checked_label(label, item, name: str, sentence: int) -> str:
    if not isinstance(label, str) or not label:
        error = NerspanError if isinstance(label, str) else InputTypeError
        raise error(f"span label must be a non-empty string, got {shown(label)} in "
                    f"{shown(item)}", side=name, sentence=sentence)
    if _has_space(label):  # as in a tag (nerspan.spans.tag_problem): every side reads it
        raise NerspanError(f"span label {shown(label)} contains whitespace, which no "
                           f"entity type holds, in {shown(item)}", side=name,
                           sentence=sentence)
    return label


def _has_space(label: str) -> bool:
    return any(c.isspace() for c in label)


def _offset(value, item, name: str, sentence: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputTypeError(f"span {shown(item)} needs integer start and end",
                             side=name, sentence=sentence)
    return int(value)


def _check_span(label: str, start: int, end: int, name: str, sentence: int) -> None:
    if start < 0:
        raise NerspanError(f"span ({start}, {end}, {shown(label)}) starts before the "
                           "sentence", side=name, sentence=sentence)
    if end <= start:
        raise NerspanError(f"span ({start}, {end}, {shown(label)}) is empty or reversed: "
                           "end must be greater than start (end is exclusive; "
                           "inclusive_end=True reads inclusive ends)",
                           side=name, sentence=sentence)
    if end > _LAST_OFFSET:
        raise NerspanError(f"span ({start}, {end}, {shown(label)}) reaches past the end of "
                           "any sentence", side=name, sentence=sentence)


_LAST_OFFSET = np.iinfo(np.int64).max  # offsets are kept as int64


class _Texts:
    """Per sentence, lazily: the text and the character start/end of every token."""

    def __init__(self, tokens, texts, n: int, name: str):
        self.tokens, self.texts, self.name = tokens, texts, name
        for what, value in (("tokens", tokens), ("texts", texts)):
            if value is not None and len(value) != n:
                raise SentenceCountError(f"{what} hold {counted(len(value), 'sentence')}, "
                                         f"{name} {n}")
        self.cache: dict = {}

    def __call__(self, i: int):
        if i not in self.cache:
            self.cache[i] = self._build(i)
        return self.cache[i]

    def _build(self, i: int):
        words = None if self.tokens is None else list(self.tokens[i])
        if words is not None and first_outside(words, (str,)) is not None:
            k = first_outside(words, (str,))
            raise InputTypeError(f"{shown(words[k])} ({_a(type(words[k]).__name__)}) is not "
                                 "a word", side="tokens", sentence=i, position=k)
        if self.texts is None:
            if words is None:
                raise NerspanError("character offsets need the sentence text: "
                                   "pass tokens=... or texts=...", side=self.name,
                                   sentence=i)
            text = " ".join(words)
            lengths = np.array([len(w) for w in words], dtype=np.int64)
            starts = _offsets(lengths + 1)[:-1]
            return text, starts, starts + lengths
        text = self.texts[i]
        if words is None:
            found = [(m.start(), m.end()) for m in _NOT_A_TOKEN.finditer(text)]
        else:
            found, position = [], 0
            for k, word in enumerate(words):
                at = text.find(word, position)
                if at < 0:
                    raise NerspanError(f"token {k} {word!r} is not in the text after "
                                       f"character {position}: {text!r}", sentence=i)
                found.append((at, at + len(word)))
                position = at + len(word)
        starts = np.array([a for a, _ in found], dtype=np.int64)
        return text, starts, np.array([b for _, b in found], dtype=np.int64)


def _align(text_info, start: int, end: int, label: str, snap: bool, name: str,
           sentence: int, why: str = "") -> tuple[int, int, bool]:
    """Token offsets of the character span [start, end); whether it had to be widened.
    ``why``: why the offsets are read as characters, when the spans decided it."""
    text, starts, ends = text_info
    first = int(np.searchsorted(starts, start))
    last = int(np.searchsorted(ends, end))
    if first < len(starts) and last < len(ends) and starts[first] == start \
            and ends[last] == end and first <= last:
        return first, last + 1, False
    # the tokens the span touches: ends after its start, starts before its end
    a = int(np.searchsorted(ends, start, side="right"))
    b = int(np.searchsorted(starts, end, side="left"))
    described = f"{shown(label)} at characters {start}..{end} ({shown(text[start:end])})"
    why = f" ({why})" if why else ""
    if b <= a:
        raise NerspanError(f"span {described} covers no token{why}", side=name,
                           sentence=sentence)
    if not snap:
        raise NerspanError(f"span {described} does not fall on token boundaries; "
                           f"snap=True (--snap) widens it to the tokens it touches{why}",
                           side=name, sentence=sentence)
    return a, b, True


def _subtoken_tags(raw: dict, text_of) -> list[list[str]]:
    """Pipeline output without aggregation -> per word, the tag of the sub-token starting it."""
    word_tags = []
    for i in sorted(raw):
        _, starts, _ = text_of(i)
        tags = ["O"] * len(starts)
        at = {int(s): k for k, s in enumerate(starts.tolist())}
        for tag, start, _ in raw[i]:
            if start in at and tags[at[start]] == "O":
                tags[at[start]] = tag
        word_tags.append(tags)
    return word_tags


def _subtoken_rows(raw: dict, text_of) -> tuple[list, object]:
    """The spans of per-sub-token pipeline output (decoded as lenient IOB2) and the
    decoding's ``Repairs``, with sentence indices of the whole input."""
    sentences = sorted(raw)
    corpus = Corpus.from_tags(_subtoken_tags(raw, text_of))
    spans = decode(corpus, GOLD, "IOB2", "lenient")
    base = corpus.offsets[spans.sentence]
    rows = [(sentences[s], a, b, spans.types[t]) for s, a, b, t in zip(
        spans.sentence.tolist(), (spans.start - base).tolist(), (spans.end - base).tolist(),
        spans.type.tolist())]
    return rows, spans.repairs


def _is_subtoken_output(value) -> bool:
    """Whether span input is a pipeline's output without aggregation (dicts with 'entity')."""
    for sentence in value:
        for item in sentence:
            return isinstance(item, Mapping) and item.get("entity") is not None \
                and item.get("entity_group") is None
    return False


def subtoken_tags(sentences, name: str, *, tokens=None, texts=None) -> list[list[str]]:
    """Word tags from a pipeline's output without aggregation (one dict per sub-token)."""
    sentences = _as_list(sentences, name)
    text_of = _Texts(tokens, texts, len(sentences), name)
    raw = {}
    for i, spans in enumerate(sentences):
        raw[i] = []
        _check_sentence(spans, name, i)
        for k, item in enumerate(spans):
            label, start, end, offsets = _fields(item, name, i, k)
            if offsets != "subtoken":
                raise NerspanError("pipeline output without aggregation (dicts with "
                                   "'entity') cannot be mixed with other spans",
                                   side=name, sentence=i)
            raw[i].append((label, start, end))
    return _subtoken_tags(raw, text_of)


@migrated
def from_spans(references, predictions=None, tokens=None, *, inputs=None) -> Corpus:
    """A ``Corpus`` (columns ``gold`` and ``pred``) from span lists, for every family.

    Either side may instead be tag lists (``references`` also a ``Corpus``: its gold tags
    and words). Spans become IOB2 tags, so the families score them with the default
    ``scheme="IOB2"``: lenient and strict decoding give back exactly the spans. Sentence
    lengths come from ``tokens``, the tag side, ``texts`` (its
    whitespace-separated words, which also become the tokens) or, failing all, the
    furthest span end. Every span side keeps its spans as a table
    (``Corpus.span_table``), which entity scores read; a side whose spans nest or
    overlap has no tags (``Corpus.mentions``; its tags all O): reading them is a
    ``SpanShapeError`` naming two of them. ``inputs``:
    the other input options (``texts``, ``inclusive_end``, ``snap``, ``offsets``).

    >>> c = from_spans([[(0, 2, "PER")]], [[{"label": "PER", "start": 0, "end": 1}]],
    ...                tokens=[["Ada", "Lovelace", "wrote"]])
    >>> c.tags("gold", 0), c.tags("pred", 0)
    (['B-PER', 'I-PER', 'O'], ['B-PER', 'O', 'O'])
    """
    inputs = InputOptions.of(inputs, tokens=tokens)
    tokens, texts = inputs.tokens, inputs.texts
    table = lengths = None
    if isinstance(references, Corpus):  # its gold (and words) against span predictions
        references, tokens, table, lengths = _gold_of_corpus(references, tokens)
    sides = {GOLD: references} if predictions is None else {GOLD: references, PRED: predictions}
    names = {GOLD: "references", PRED: "predictions"}
    counts = {column: len(_as_list(value, names[column])) for column, value in sides.items()}
    n = counts[GOLD]
    if n == 0:
        raise EmptyInputError("references hold no sentence")
    if counts.get(PRED, n) != n:
        raise SentenceCountError(f"predictions hold {counted(counts[PRED], 'sentence')}, "
                                 f"references {n}")
    tag_sides = {c: v for c, v in sides.items() if is_span_input(v) is False}
    # per-sub-token pipeline output is tags: the families decode it and count its repairs
    tag_sides.update({c: subtoken_tags(v, names[c], tokens=tokens, texts=texts)
                      for c, v in sides.items() if c not in tag_sides and _is_subtoken_output(v)})
    text_of = _Texts(tokens, texts, n, "references")
    read = {c: read_spans(v, names[c], inputs=inputs.replace(tokens=tokens))
            for c, v in sides.items() if c not in tag_sides}
    if tokens is None and texts is not None:
        tokens = [[text_of(i)[0][a:b] for a, b in zip(*text_of(i)[1:])] for i in range(n)]
    lengths = _lengths(tokens, tag_sides, read, n) if lengths is None else lengths
    # every span side keeps its table (entity scores read it); one whose spans nest,
    # overlap or have fragments has no tags (tags cannot hold it)
    offsets = _offsets(lengths)
    mentions = {c: _checked(spans, lengths, names[c]) for c, (spans, _) in read.items()}
    snapped = {c: tuple(side.tolist()) for c, (_, side) in read.items() if len(side)}
    if table is not None:   # the gold mentions of a corpus: at its offsets already
        mentions[GOLD], gold_snapped = table
        snapped.update({GOLD: gold_snapped} if gold_snapped else {})
    # every span side keeps its table (entity scores read it); one whose spans nest,
    # overlap or have fragments has no tags (tags cannot hold it)
    labels, columns = _tag_columns(mentions, offsets)
    corpus = Corpus(offsets, columns, labels, source=Source(snapped=snapped, mentions=mentions))
    for column, tags in tag_sides.items():
        tagged = Corpus.from_tags(tags, names={GOLD: names[column]})
        if tokens is not None:  # else the lengths are this side's
            check_shapes({names[column]: tagged.lengths, "tokens": lengths})
        corpus = corpus.with_columns(tagged, {GOLD: column}, names[column])
    return corpus if tokens is None else corpus.with_tokens(tokens)


def _gold_of_corpus(corpus: Corpus, tokens) -> tuple:
    """``(gold side, tokens, table, lengths)`` of a ``Corpus`` given as references: its
    gold tags, or, when its mentions are a table (``Corpus.span_table``), empty span
    lists standing for them, the table (its ``Spans`` and snapped sentences) and the
    corpus's sentence lengths."""
    if tokens is None and corpus.tokens is not None:
        tokens = [corpus.sentence_tokens(i) for i in range(corpus.n_sentences)]
    table = corpus.span_table(GOLD)
    if table is not None:
        return ([[] for _ in range(corpus.n_sentences)], tokens,
                (table, corpus.source.snapped.get(GOLD, ())), corpus.lengths)
    return ([corpus.tags(GOLD, i) for i in range(corpus.n_sentences)], tokens, None,
            None)


def _checked(spans: Spans, lengths: np.ndarray, name: str) -> Spans:
    """One side as read (``read_spans``), checked (no label holds ``|``, every span ends
    in its sentence of ``lengths``) and at the offsets of ``lengths``: what
    ``Source.mentions`` holds, its invalid transitions in ``repairs`` (its snapped
    spans are ``Source.snapped``)."""
    _check_no_level_separator(spans, name)
    base = spans.base
    check_within(spans.sentence, spans.start - base, spans.end - base,
                 lambda k: spans.types[spans.type[k]], lengths, name)
    return dataclasses.replace(
        spans.on(_offsets(lengths)),
        repairs=Repairs(invalid_transitions=spans.repairs.invalid_transitions))


def spans_on(lengths: np.ndarray, sentences, name: str = "predictions") -> Corpus:
    """One side's token spans (``(start, end, label)`` per sentence, or any form of
    ``read_spans`` with token offsets) as the gold column of a ``Corpus`` of sentences
    of ``lengths`` tokens, without words: ``from_spans`` for a side whose sentences are
    known already (its checks, and no second copy of the words to intern).

    >>> spans_on(np.array([3]), [[(0, 2, "PER")]]).tags("gold", 0)
    ['B-PER', 'I-PER', 'O']
    """
    spans = _checked(read_spans(sentences, name)[0], lengths, name)
    if spans.needs_table():
        raise spans.shape_error(name)
    labels, columns = _tag_columns({GOLD: spans}, spans.offsets)
    return Corpus(spans.offsets, columns, labels)


def _lengths(tokens, tag_sides: dict, read: dict, n: int) -> np.ndarray:
    if tokens is not None:
        return np.array([len(t) for t in tokens], dtype=np.int64)
    if tag_sides:
        return np.array([len(t) for t in next(iter(tag_sides.values()))], dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    for spans, _ in read.values():   # each sentence as long as its spans reach
        np.maximum(lengths, np.diff(spans.offsets), out=lengths)
    return lengths


def check_within(sentence: np.ndarray, start: np.ndarray, end: np.ndarray, label_of,
                 lengths: np.ndarray, side: str) -> None:
    """Every span (``sentence``, ``start``, ``end`` arrays) ends inside its sentence
    (``lengths``); the error names the first that does not, with its label
    (``label_of(k)`` of the k-th span), its sentence and its ``side``."""
    bad = np.flatnonzero(end > lengths[sentence]) if len(end) else ()
    if len(bad):
        k = int(bad[0])
        s = int(sentence[k])
        raise NerspanError(f"span ({int(start[k])}, {int(end[k])}, {shown(label_of(k))}) "
                           f"reaches past the end of the sentence "
                           f"({counted(int(lengths[s]), 'token')})", side=side, sentence=s)


# Tags join the labels of annotation levels with it (faireval reads ``B-X|I-Y`` as two).
LEVEL_SEPARATOR = "|"


def _check_no_level_separator(spans: Spans, name: str) -> None:
    """Refuse a span label holding ``|``: as a tag it would read as several levels in
    faireval (a report scores every family on the tags). faireval keeps such a label
    whole when both sides are span lists, which never become tags."""
    bad = [k for k, label in enumerate(spans.types) if LEVEL_SEPARATOR in label]
    if bad:
        k = int(np.flatnonzero(np.isin(spans.type, bad))[0])
        raise NerspanError(
            f"span label {shown(spans.types[spans.type[k]])} holds '|', which separates the "
            "levels of multi-level tags: as a tag it would be read as several spans (give "
            "another label, or both sides as span lists to faireval.score)",
            side=name, sentence=int(spans.sentence[k]))


def _tag_columns(mentions: dict, offsets: np.ndarray) -> tuple[tuple, dict]:
    """IOB2 label ids per span side (``Spans`` at ``offsets``), over one label
    vocabulary (O first); a side whose spans tags cannot hold (they nest, overlap or
    split) all O."""
    types = sorted(set(chain.from_iterable(spans.types for spans in mentions.values())))
    labels = ("O",) + tuple(chain.from_iterable((f"B-{t}", f"I-{t}") for t in types))
    columns = {}
    for column, spans in mentions.items():
        ids = np.zeros(int(offsets[-1]), dtype=np.int32)
        columns[column] = ids
        if spans.needs_table():
            continue
        type_ids = spans.with_types(types).type
        ids[ranges(spans.start, spans.length)] = np.repeat(2 + 2 * type_ids, spans.length)
        ids[spans.start] = 1 + 2 * type_ids
    return labels, columns


# What a line of a span file may hold: any other key is refused, named.
SPAN_LINE_KEYS = ("spans", "tokens", "text")


def read_span_jsonl(path: str | os.PathLike, encoding: str = "utf-8") -> dict:
    """A JSON Lines span file: one object per sentence (or document) and line.

    Each line holds ``"spans"`` (any form of this module; token spans as
    ``[start, end, "LABEL"]``) and optionally ``"tokens"`` (the words) and/or ``"text"``
    (a line with text only has its whitespace-separated words as tokens); any other key
    is a ``FormatError`` naming it, the line and the keys allowed. Returns
    ``{"spans", "tokens", "texts", "lines"}`` lists (``tokens``/``texts`` None when no
    line has them; ``lines``: each sentence's line number). Errors name the file and line;
    a UTF-8 byte-order mark is dropped.
    """
    path = os.fspath(path)
    codec = "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding
    try:
        with open(path, encoding=codec) as handle:
            return _span_lines(handle, path)
    except UnicodeDecodeError as error:
        raise FormatError(f"not {encoding} text: byte {error.object[error.start]:#04x} at "
                          f"byte offset {error.start} of a block does not decode (give the "
                          "file's encoding with encoding=, --encoding)", path=path) from None


def _span_lines(handle, path: str) -> dict:
    """``read_span_jsonl`` of an open file."""
    spans, tokens, texts, lines = [], [], [], []
    for number, line in enumerate(handle, 1):
        if not line.strip():
            continue
        fail = lambda problem: FormatError(problem, path=path, line=number,  # noqa: E731
                                           sentence=len(spans))
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise fail(f"not JSON: {error.msg}") from None
        if not isinstance(item, dict) or not isinstance(item.get("spans"), list):
            raise fail('expected an object with a "spans" list')
        unknown = unknown_key(item, SPAN_LINE_KEYS)
        if unknown:   # a misspelt "text" or "tokens" would leave the line without words
            raise fail(unknown)
        words, text = item.get("tokens"), item.get("text")
        if words is not None and (not isinstance(words, list)
                                  or not all(isinstance(w, str) for w in words)):
            raise fail('"tokens" must be a list of strings')
        if text is not None and not isinstance(text, str):
            raise fail('"text" must be a string')
        spans.append([tuple(s) if isinstance(s, list) else s for s in item["spans"]])
        tokens.append(words if words is not None or text is None else text.split())
        texts.append(text)
        lines.append(number)
    if not spans:
        raise EmptyInputError("no line in the span file", path=path)
    has_words = [t is not None for t in tokens]
    if any(has_words) and not all(has_words):
        k = has_words.index(False)
        raise FormatError('no "tokens" or "text" here, but other lines have them', path=path,
                          line=lines[k], sentence=k)
    if any(t is not None for t in texts):
        texts = [t if t is not None else " ".join(w) for t, w in zip(texts, tokens)]
    return {"spans": spans, "tokens": tokens if has_words[0] else None,
            "texts": texts if texts[0] is not None else None, "lines": lines}
