"""Entity texts -> token spans: each text located in its sentence (METHODS §6, way 1).

An entity becomes a span where its text occurs in the sentence at token boundaries,
found at the first level that finds it: ``exact``; ``case_insensitive``; ``normalised``
(``normalise.normalise`` on both sides, where a token's own surrounding punctuation may
lie outside the span's text: ``Paris`` finds the token ``Paris,``); and, only when asked
(``fuzzy=0.9``), ``fuzzy``: the token window most similar to the normalised text, by
``difflib``'s character ratio, if that reaches the threshold.

- ``occurrences="all"`` (default): an entity marks every occurrence of its text (a model
  lists "Paris" once for a sentence that has it twice); ``"ordered"``: the i-th listing
  of a text takes its i-th occurrence, left to right, whatever the types (so
  ``[("Washington", PER), ("Washington", LOC)]`` reads "Washington was born in
  Washington"); a listing past the last occurrence is a duplicate when an earlier one
  had the same type, and else takes the last occurrence, where the overlap rule decides.
- An entity listed twice with the same type is one (a duplicate, counted); so are two
  listings that ground to the same spans (``Paris`` and ``paris``).
- Overlapping spans: the longer wins, then the leftmost, then (same tokens, other
  types) the first listed under ``"ordered"`` and else the first in the order of
  (text, type), so that under ``"all"`` the order of the list changes nothing; the
  others are dropped and counted. ``overlaps="keep"`` keeps them all, for faireval.
- An entity found nowhere is ungrounded: counted and listed with its text; it is a false
  positive in every precision (``repairs.add_ungrounded``).

Grounding reads the sentence text and the entity texts only, never gold spans or labels.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property
from itertools import accumulate, chain, repeat
from operator import itemgetter

import numpy as np

from ..collector import collector_paused
from ..errors import InputTypeError, NerspanError, shown
from ..records import InputOptions
from ..options import OCCURRENCES, OVERLAPS, check_fraction
from ..reading.span_lists import _Texts
from .normalise import core_bounds, lowercase_in_place, normalise, unify
from .reading import Generated, read_generated
from .repairs import LEVELS, GenerativeRepairs, Listing



@dataclass(frozen=True)
class Grounded:
    """Grounded generated output: per sentence, ``(start, end, type)`` token spans
    (``end`` exclusive, sorted), the span form ``nerspan.from_spans`` and
    ``faireval.score`` read, and the ``GenerativeRepairs`` of reading and grounding."""

    spans: list
    repairs: GenerativeRepairs


@collector_paused
def ground(predictions, *, tokens=None, texts=None, types=None, type_map=None,
           occurrences: str = "all", overlaps: str = "drop", fuzzy: float | None = None,
           name: str = "predictions") -> Grounded:
    """Ground every sentence's generated entities to token spans.

    Args:
        predictions: per sentence, generated output in any form of
            ``nerspan.generative.reading``, or what ``read_generated`` returned (read
            once, grounded under several options; its types are matched already).
        types, type_map: how types are matched (``read_generated``): the gold type
            names (a set of strings, never gold spans) and a dict of other names.
        occurrences: ``"all"`` (default) or ``"ordered"`` (module docstring).
        overlaps: ``"drop"`` (default: the longer span wins) or ``"keep"`` (faireval).
        fuzzy: None (default: no fuzzy level) or a similarity threshold in (0, 1).
        name: the side, for error messages.
        tokens, texts: the words of each sentence, the text of each sentence.

    The sentence text is ``texts`` (its whitespace-separated words are the tokens) or
    ``tokens`` joined by single spaces, or both (each token found in the text in turn).

    >>> grounded = ground([[["Paris", "LOC"], ["paris hilton", "PER"], ["Oz", "LOC"]]],
    ...                   tokens=[["Paris", "Hilton", "left", "Paris", "."]])
    >>> grounded.spans
    [[(0, 2, 'PER'), (3, 4, 'LOC')]]
    >>> r = grounded.repairs
    >>> r.levels["exact"], r.levels["case_insensitive"], [x.text for x in r.ungrounded]
    (1, 1, ['Oz'])
    >>> r.dropped_overlaps[0].reason
    "tokens 0..1 overlap 'paris hilton' (PER) at tokens 0..2"
    """
    rules = _Rules(occurrences, overlaps, fuzzy)
    if isinstance(predictions, Generated):
        if types is not None or type_map is not None:
            raise ValueError("types and type_map apply when the output is read: pass them "
                             "to read_generated, whose result this is")
        generated = predictions
    else:
        generated = read_generated(predictions, types=types, type_map=type_map, name=name)
    checked = InputOptions.of(None, tokens=tokens, texts=texts)  # as every input is checked
    tokens, texts = checked.tokens, checked.texts
    if tokens is None and texts is None:
        raise NerspanError("grounding needs the sentence text: pass tokens=... or "
                           "texts=...", side=name)
    return grounded(generated, tokens, texts, rules, name)


def grounded(generated: Generated, tokens, texts, rules: "_Rules", name: str = "predictions",
             corpus=None) -> Grounded:
    """``ground`` of output read (``generated``) under ``rules`` (``_Rules``), in the
    sentences of ``tokens`` or ``texts``; ``corpus``: a ``nerspan.Corpus`` whose words
    ``tokens`` are (``form.ground_predictions``' gold), whose token ids are read then."""
    text_of = _SentenceTexts(tokens, texts, generated.n_sentences, name)
    found = _Found()
    spans = None
    if texts is None and not rules.ordered:
        spans = _ground_at_once(generated.entities, tokens, text_of, rules, found, corpus)
    if spans is None:
        spans = [_ground_sentence(i, entities, text_of, rules, found) if entities else []
                 for i, entities in enumerate(generated.entities)]
    return Grounded(spans, found.repairs(generated.repairs, spans))


class _Rules:
    """The grounding options, checked."""

    def __init__(self, occurrences: str, overlaps: str, fuzzy):
        for option, value, choices in (("occurrences", occurrences, OCCURRENCES),
                                       ("overlaps", overlaps, OVERLAPS)):
            if value not in choices:
                raise ValueError(f"{option} must be one of {', '.join(map(repr, choices))}, "
                                 f"not {value!r}")
        self.ordered = occurrences == "ordered"
        self.keep_overlaps = overlaps == "keep"
        self.fuzzy = None if fuzzy is None else check_fraction("fuzzy", fuzzy)


class _Found:
    """What grounding counts, across sentences."""

    def __init__(self):
        self.levels = dict.fromkeys(LEVELS, 0)
        self.duplicates, self.ungrounded, self.dropped = [], [], []
        self.usable = 0

    def repairs(self, read: GenerativeRepairs, spans: list) -> GenerativeRepairs:
        return read.replace(
            levels=self.levels, usable=self.usable, spans=sum(map(len, spans)),
            duplicates=read.duplicates + tuple(self.duplicates),
            ungrounded=tuple(self.ungrounded), dropped_overlaps=tuple(self.dropped))


class _SentenceTexts(_Texts):
    """``span_input._Texts`` (the text and where each token starts and ends), read into
    a ``SentenceIndex``, as lists and without NumPy where the tokens or the text alone
    are given: a sentence is read in a microsecond, not ten (grounding 10,000 sentences
    reads all of them). Tokens joined by single spaces, none holding a space, need no
    list of where they start (``SentenceIndex``'s spaced text)."""

    _WORD = re.compile(r"\S+")

    def __call__(self, i: int) -> "SentenceIndex":
        if self.texts is None:
            words = self.tokens[i]
            if isinstance(words, str):  # joined, it would be read letter by letter
                raise InputTypeError(f"the sentence's tokens are a string ({shown(words)}); "
                                     "expected a list of words", side="tokens", sentence=i)
            try:
                text = " ".join(words)
            except TypeError:  # a token that is not a string: the checked path names it
                return self._lists(i)
            if words and text.count(" ") == len(words) - 1:
                return SentenceIndex(text)
            starts = [0, *accumulate(len(word) + 1 for word in words[:-1])] if words else []
            return SentenceIndex(text, starts, [a + len(word) for a, word in zip(starts, words)])
        if self.tokens is None:
            text = self.texts[i]
            found = [(m.start(), m.end()) for m in self._WORD.finditer(text)]
            return SentenceIndex(text, [a for a, _ in found], [b for _, b in found])
        return self._lists(i)

    def _lists(self, i: int) -> "SentenceIndex":
        text, starts, ends = self._build(i)
        return SentenceIndex(text, starts.tolist(), ends.tolist())


def _ground_sentence(i: int, entities: list, text_of, rules: _Rules, found: _Found,
                     looked_up: dict | None = None) -> list:
    """One sentence's spans, sorted; what was not kept is added to ``found``.
    ``looked_up``: text -> what ``SentenceIndex.find`` gives for it, for every text of
    ``entities`` (looked up at once, ``_ground_at_once``)."""
    index = text_of(i)
    find, fuzzy, levels = index.find, rules.fuzzy, found.levels
    if looked_up is not None:
        find = lambda text, _: looked_up[text]  # noqa: E731
    take = _InOrder() if rules.ordered else None
    candidates, missing, added = {}, set(), 0
    for order, (text, entity_type) in enumerate(_listings(i, entities, rules, found)):
        level, hits = find(text, fuzzy)
        if not hits:
            key = (normalise(text), entity_type)
            (found.duplicates if key in missing else found.ungrounded).append(
                Listing(i, text, entity_type))
            missing.add(key)
            continue
        if take is not None:
            hits = take(text, entity_type, hits)
        new = [(a, b, entity_type) for a, b in hits if (a, b, entity_type) not in candidates]
        if not new:  # past the last occurrence, or the same spans as an earlier listing
            found.duplicates.append(Listing(i, text, entity_type))
            continue
        levels[level] += 1
        added += 1
        for span in new:
            candidates[span] = (order, text)
    if len(candidates) < 2:
        found.usable += added
        return list(candidates)
    spans = sorted(candidates)
    if rules.keep_overlaps or all(left[1] <= right[0] for left, right in zip(spans, spans[1:])):
        found.usable += added   # every listing that added a span keeps them all
        return spans
    kept = _without_overlaps(i, candidates, index.n_tokens, found)
    found.usable += len({order for order, _ in kept.values()})
    return sorted(kept)


# Sentences of more tokens than this are grounded one by one (a long text's windows
# indexed, ``WindowIndex``): the search at once compares each listing with every token
# of its sentence.
AT_ONCE_MAX_TOKENS = 400


def _ground_at_once(entities: list, tokens, text_of, rules: _Rules, found: _Found,
                    corpus=None) -> list | None:
    """``_ground_sentence`` of every sentence, the same spans and records, with the
    Python work per listing, not per sentence: each listing's exact occurrences found
    for all sentences at once (``_AtOnce``), the other levels looked up where a cheap
    test cannot rule them out (``_other_levels``), the spans of a sentence whose
    listings are distinct and ground to distinct spans taken as they are, or, where
    some overlap, the longer (then leftmost) kept, for all such sentences at once
    (``_AtOnce.keep``). The other sentences, and long ones, are grounded one by one from
    what was looked up. None when ``tokens`` are not lists of words joined by single
    spaces, none holding one (the caller grounds one by one)."""
    bulk = _AtOnce.of(entities, tokens, corpus)
    if bulk is None:
        return None
    bulk.other = _other_levels(bulk, text_of, rules.fuzzy)
    at_once = bulk.sort_out()
    kinds = ("duplicates", "ungrounded", "dropped")
    before = {kind: len(getattr(found, kind)) for kind in kinds}
    spans = bulk.keep(at_once, rules.keep_overlaps, found)
    for i in np.flatnonzero(~at_once & (bulk.counts > 0)).tolist():
        spans[i] = _ground_sentence(i, entities[i], text_of, rules, found, bulk.looked_up(i))
    for kind in kinds:   # in sentence order, each sentence's in the order it found them
        listed = getattr(found, kind)
        listed[before[kind]:] = sorted(listed[before[kind]:], key=itemgetter(0))
    return spans


class _AtOnce:
    """Every listing of every sentence and its exact occurrences, found at once: the
    tokens are joined by single spaces, none holding one, so a text occurs at token
    boundaries exactly where its words (split at spaces) equal a window of tokens
    (``spaced_occurrences``' hits). Per listing: ``sentence``, ``text``, ``type``,
    ``exact`` (found so); per hit (by listing, then start): ``listing``, ``start``,
    ``end``; ``other``: listing -> ``(level, hits)`` of the listings looked up at the
    other levels. Sentences of more than ``AT_ONCE_MAX_TOKENS`` are not searched."""

    @classmethod
    def of(cls, entities: list, tokens, corpus=None) -> "_AtOnce | None":
        """The listings of ``entities`` searched in ``tokens`` (lists of words per
        sentence), or in ``corpus`` (a ``nerspan.Corpus`` whose words ``tokens`` are:
        its token ids are read, no word is); None unless no word holds a space."""
        if not any(map(len, entities)):
            return None
        if corpus is not None and corpus.tokens is not None \
                and corpus.n_sentences == len(entities):
            return cls._of_corpus(entities, tokens, corpus)
        if tokens is None or len(tokens) != len(entities) \
                or not set(map(type, tokens)) <= {list, tuple}:
            return None
        words = list(chain.from_iterable(tokens))
        try:
            joined = " ".join(words)
        except TypeError:   # a token that is not a string: named one by one
            return None
        if not words or joined.count(" ") != len(words) - 1:   # a token holds a space
            return None
        # ids of the listings' words; a word that is none of them is -1
        bulk = cls(entities, tokens, np.fromiter(map(len, tokens), dtype=np.int64,
                                                 count=len(tokens)))
        ids = {word: k for k, word in enumerate(dict.fromkeys(bulk.parts))}
        bulk.search(np.fromiter(map(ids.get, words, repeat(-1)), dtype=np.int64,
                                count=len(words)), ids)
        return bulk

    @classmethod
    def _of_corpus(cls, entities: list, tokens, corpus) -> "_AtOnce | None":
        vocab = corpus.vocab
        if not vocab or " ".join(vocab).count(" ") != len(vocab) - 1:
            return None
        ids = dict(zip(vocab, range(len(vocab))))
        word_ids = corpus.tokens
        if len(ids) < len(vocab):   # a word twice in the vocabulary: one id for it
            word_ids = np.fromiter(map(ids.__getitem__, vocab), dtype=np.int64,
                                   count=len(vocab))[word_ids]
        bulk = cls(entities, tokens, corpus.lengths)
        bulk.search(word_ids, ids)
        return bulk

    def __init__(self, entities: list, tokens, lengths: np.ndarray):
        self.tokens, self.lengths = tokens, np.asarray(lengths, dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)])
        self.counts = np.fromiter(map(len, entities), dtype=np.int64, count=len(entities))
        self.first = np.concatenate([[0], np.cumsum(self.counts)])   # of each sentence
        listings = list(chain.from_iterable(entities))
        self.sentence = np.repeat(np.arange(len(entities)), self.counts)
        self.text = list(map(itemgetter(0), listings))
        self.type = list(map(itemgetter(1), listings))
        self.long = self.lengths > AT_ONCE_MAX_TOKENS
        # each text's words (split at single spaces), all texts' in one list
        self.size = np.fromiter(map(str.count, self.text, repeat(" ")), dtype=np.int64,
                                count=len(self.text)) + 1
        self.parts = " ".join(self.text).split(" ") if self.text else []
        self.other: dict = {}

    def search(self, word_ids: np.ndarray, ids: dict) -> None:
        """Every exact occurrence (``listing``, ``start``, ``end``, by listing and
        start): the windows of token ids (``word_ids``, flat) equal to the ids of a
        text's words (``ids``: word -> id; a word not in it is in no window)."""
        size = self.size
        part_ids = np.fromiter(map(ids.get, self.parts, repeat(-1)), dtype=np.int64,
                               count=len(self.parts))
        first = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
        room = self.lengths[self.sentence] - size + 1
        room[self.long[self.sentence] | (room < 0) | (part_ids[first] < 0)] = 0
        listing = np.repeat(np.arange(len(size)), room)
        at = np.arange(len(listing)) + np.repeat(
            self.starts[self.sentence] - (np.cumsum(room) - room), room)
        found = np.flatnonzero(word_ids[at] == np.repeat(part_ids[first], room))
        for k in range(1, int(size.max(initial=1))):   # the next word of longer texts
            longer = size[listing[found]] > k
            further = found[longer]
            same = word_ids[at[further] + k] == part_ids[first[listing[further]] + k]
            found = np.sort(np.concatenate([found[~longer], further[same]]))
        self.listing = listing[found]
        self.start = at[found] - self.starts[self.sentence[self.listing]]
        self.end = self.start + size[self.listing]
        self.exact = np.bincount(self.listing, minlength=len(size)) > 0

    def sort_out(self) -> np.ndarray:
        """Per sentence: whether it is grounded here (``keep``): not long; at most one
        listing found nowhere; no span of one type given by two listings. Keeps
        every hit sorted by sentence and span (``hits``) and whether a sentence has
        spans that overlap (``overlapping``)."""
        listing, start, end = self._all_hits()
        sentence = self.sentence[listing]
        # sorted by sentence, span and type (names by rank), as one key where it fits
        ranks = self._type_ranks()[listing]
        width, kinds = int(end.max(initial=0)) + 1, len(set(self.type)) + 1
        if len(self.counts) * width * width * kinds < 2 ** 62:
            order = np.argsort(((sentence * width + start) * width + end) * kinds + ranks,
                               kind="stable")
        else:
            order = np.lexsort((ranks, end, start, sentence))
        listing, sentence, start, end = listing[order], sentence[order], start[order], end[order]
        same = sentence[1:] == sentence[:-1]
        twice = same & (start[1:] == start[:-1]) & (end[1:] == end[:-1]) \
            & (ranks[order][1:] == ranks[order][:-1])   # one span and type, two listings
        self.overlapping = np.zeros(len(self.counts), dtype=bool)
        self.overlapping[sentence[1:][same & (end[:-1] > start[1:])]] = True
        self.found = self.exact.copy()
        self.found[list(self.other)] = [bool(hits) for _, hits in self.other.values()]
        missing = np.bincount(self.sentence[~self.found], minlength=len(self.counts))
        at_once = ~self.long & (missing < 2)
        at_once[sentence[1:][twice]] = False
        self.hits = (listing, sentence, start, end)
        return at_once

    def _all_hits(self) -> tuple:
        """The hits of every level: the exact ones, then those of ``other``."""
        other = [(listing, a, b) for listing, (_, hits) in self.other.items()
                 for a, b in hits]
        if not other:
            return self.listing, self.start, self.end
        more = np.array(other, dtype=np.int64).reshape(-1, 3).T
        return tuple(np.concatenate([mine, extra]) for mine, extra
                     in zip((self.listing, self.start, self.end), more))

    def _type_ranks(self) -> np.ndarray:
        """Each listing's type as its rank among the types by name (spans sort by it)."""
        rank = {name: k for k, name in enumerate(sorted(set(self.type)))}
        return np.fromiter(map(rank.__getitem__, self.type), dtype=np.int64,
                           count=len(self.type))

    def keep(self, at_once: np.ndarray, keep_overlaps: bool, found: _Found) -> list:
        """Per sentence, the spans of one grounded here (sorted; ``[]`` for the others),
        the spans that overlap a longer (then more leftward) one dropped unless
        ``keep_overlaps``; what they add to ``found``: the listings found, per level
        (each became a span before overlaps were dropped), those left with a span
        (usable), the one found nowhere (ungrounded) and the spans dropped."""
        listing, sentence, start, end = self.hits
        kept = at_once[sentence]
        if not keep_overlaps:
            dropped, winners = self._dropped(np.flatnonzero(kept & self.overlapping[sentence]))
            kept[dropped] = False
            found.dropped.extend(self._dropped_listings(dropped, winners))
        in_at_once = at_once[self.sentence]
        found.levels["exact"] += int((self.exact & in_at_once).sum())
        for k, (level, hits) in self.other.items():
            if hits and in_at_once[k]:
                found.levels[level] += 1
        found.usable += int(np.count_nonzero(np.bincount(listing[kept],
                                                         minlength=len(self.text))))
        lost = np.flatnonzero(~self.found & in_at_once).tolist()
        found.ungrounded.extend(map(Listing._make, zip(
            self.sentence[lost].tolist(), map(self.text.__getitem__, lost),
            map(self.type.__getitem__, lost), repeat(None))))
        spans = list(zip(start[kept].tolist(), end[kept].tolist(),
                         map(self.type.__getitem__, listing[kept].tolist())))
        bounds = np.concatenate([[0], np.cumsum(np.bincount(sentence[kept],
                                                            minlength=len(self.counts)))])
        return list(map(spans.__getitem__, map(slice, bounds[:-1].tolist(),
                                                bounds[1:].tolist())))

    def _dropped(self, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Of the hits ``chosen`` (their sentences' every span, none twice), those a
        longer (then more leftward) kept one overlaps, as ``_without_overlaps`` drops
        them one after the other, and the kept span named for each: its leftmost.
        Taken in rounds, a span kept once no span before it that it overlaps is left
        undecided (the greedy order's result, at once per round)."""
        listing, sentence, start, end = (x[chosen] for x in self.hits)
        n = len(chosen)
        rank = np.empty(n, dtype=np.int64)
        rank[np.lexsort((self._listing_order(listing, sentence, start, end), start,
                         start - end, sentence))] = np.arange(n)
        head = np.searchsorted(sentence, sentence)   # each pair of one sentence's spans
        size = np.searchsorted(sentence, sentence, "right") - head
        i = np.repeat(np.arange(n), size)
        j = np.repeat(head - (np.cumsum(size) - size), size) + np.arange(len(i))
        touch = (i != j) & (start[j] < end[i]) & (start[i] < end[j])
        i, j = i[touch], j[touch]
        state = np.zeros(n, dtype=np.int8)   # 0 undecided, 1 kept, 2 dropped
        while (state == 0).any():
            blocked = np.zeros(n, dtype=bool)
            blocked[i[(state[j] == 0) & (rank[j] < rank[i])]] = True
            taken = (state == 0) & ~blocked
            state[taken] = 1
            state[i[taken[j] & (state[i] == 0)]] = 2
        lost = (state[i] == 2) & (state[j] == 1) & (rank[j] < rank[i])
        i, j = i[lost], j[lost]
        by = np.lexsort((start[j], rank[i]))
        i, j = i[by], j[by]
        first = np.flatnonzero(np.diff(i, prepend=-1))
        return chosen[i[first]], chosen[j[first]]

    def _listing_order(self, listing, sentence, start, end) -> np.ndarray:
        """Among the hits of one span with several types (adjacent: sorted by span),
        each one's place in the order grounding takes listings (by text, then type);
        0 elsewhere."""
        order = np.zeros(len(listing), dtype=np.int64)
        same = (sentence[1:] == sentence[:-1]) & (start[1:] == start[:-1]) \
            & (end[1:] == end[:-1])
        bounds = np.flatnonzero(np.diff(np.concatenate([[False], same, [False]])))
        for a, b in zip(bounds[::2].tolist(), (bounds[1::2] + 1).tolist()):
            keys = [(self.text[k], self.type[k]) for k in listing[a:b].tolist()]
            order[a:b][sorted(range(len(keys)), key=keys.__getitem__)] = \
                np.arange(len(keys))
        return order

    def _dropped_listings(self, dropped: np.ndarray, winners: np.ndarray) -> list:
        listing, sentence, start, end = self.hits
        text, kind = self.text, self.type
        return [Listing(i, text[mine], kind[mine], f"tokens {a}..{b} overlap {text[theirs]!r} "
                        f"({kind[theirs]}) at tokens {c}..{d}")
                for i, mine, a, b, theirs, c, d in zip(
                    *(x.tolist() for x in (sentence[dropped], listing[dropped], start[dropped],
                                           end[dropped], listing[winners], start[winners],
                                           end[winners])))]

    def looked_up(self, i: int) -> dict | None:
        """Text -> ``SentenceIndex.find``'s answer, for every listing of sentence ``i``
        (None for a long sentence, which was not searched)."""
        if self.long[i]:
            return None
        first, stop = int(self.first[i]), int(self.first[i + 1])
        a, b = np.searchsorted(self.listing, [first, stop]).tolist()
        hits: dict = {}
        for k, start, end in zip(self.listing[a:b].tolist(), self.start[a:b].tolist(),
                                 self.end[a:b].tolist()):
            hits.setdefault(k, []).append((start, end))
        return {self.text[k]: ("exact", hits[k]) if k in hits else self.other.get(k, (None, []))
                for k in range(first, stop)}


def _other_levels(bulk: _AtOnce, text_of, fuzzy) -> dict:
    """Listing -> ``SentenceIndex.find``'s answer, for the listings found nowhere
    exactly that another level may find: their lower case in the sentence's, or their
    normalised text in the sentence's (``_may_be_found``); all of them with ``fuzzy``."""
    missing = np.flatnonzero(~bulk.exact & ~bulk.long[bulk.sentence])
    if not len(missing):
        return {}
    maybe = _may_be_found(bulk, missing) if fuzzy is None else \
        np.ones(len(missing), dtype=bool)
    out, indexes = {}, {}
    for k in missing[maybe].tolist():
        i = int(bulk.sentence[k])
        if i not in indexes:
            indexes[i] = text_of(i)
        out[k] = indexes[i].find(bulk.text[k], fuzzy)
    return out


def _may_be_found(bulk: _AtOnce, missing: np.ndarray) -> np.ndarray:
    """Per listing of ``missing``: False where no level but fuzzy can find it: its lower
    case is not in the sentence's lower case (``lowercase_in_place``), nor its
    normalised text in the sentence's text ``unify``-ed (which holds every normalised
    window, ``SentenceIndex.normalised``). The sentences' views are made in one call
    each, over their texts joined by NUL, which both keep apart (no case context and no
    composition crosses it, no whitespace run takes it)."""
    sentences = np.unique(bulk.sentence[missing])
    joined = "\0".join([" ".join(bulk.tokens[i]) for i in sentences.tolist()])
    lowered = joined.lower()
    if joined.count("\0") != len(sentences) - 1 or len(lowered) != len(joined):
        return np.ones(len(missing), dtype=bool)   # a NUL in a token, or an 'İ'
    lower, unified = lowered.split("\0"), unify(joined).split("\0")
    where = np.searchsorted(sentences, bulk.sentence[missing]).tolist()
    out = np.empty(len(missing), dtype=bool)
    for n, (k, q) in enumerate(zip(missing.tolist(), where)):
        text = bulk.text[k]
        key = normalise(text)
        out[n] = lowercase_in_place(text) in lower[q] or bool(key) and key in unified[q]
    return out


class _InOrder:
    """``occurrences="ordered"``: the i-th listing of a text takes its i-th occurrence;
    one past the last is a duplicate of an earlier listing of the same type, else takes
    the last occurrence."""

    def __init__(self):
        self.listed, self.used = set(), Counter()

    def __call__(self, text: str, entity_type: str, hits: list) -> list:
        repeated = (text, entity_type) in self.listed
        self.listed.add((text, entity_type))
        k = self.used[text]
        self.used[text] += 1
        if k >= len(hits) and repeated:
            return []
        return [hits[min(k, len(hits) - 1)]]


def _listings(i: int, entities: list, rules: _Rules, found: _Found) -> list:
    """The entities in the order grounding takes them: as listed under
    ``occurrences="ordered"``; else each (text, type) once (repeats are duplicates),
    sorted, so that the order of the list changes nothing, ties of overlapping spans
    included."""
    if rules.ordered or len(entities) < 2:
        return entities
    unique = sorted(set(entities))
    if len(unique) < len(entities):
        repeats = Counter(entities)
        found.duplicates.extend(Listing(i, text, entity_type) for text, entity_type in unique
                                for _ in range(repeats[text, entity_type] - 1))
    return unique


def _without_overlaps(i: int, candidates: dict, n_tokens: int, found: _Found) -> dict:
    """The spans that overlap no longer (then more leftward, then earlier taken) one:
    taken in that order, each kept unless a token of it is already a kept span's."""
    kept, owner = {}, [None] * n_tokens  # the kept span on each token
    for _, _, order, span in sorted((a - b, a, order, (a, b, t))
                                    for (a, b, t), (order, _) in candidates.items()):
        a, b, entity_type = span
        winner = next((o for o in owner[a:b] if o is not None), None)
        if winner is None:
            kept[span] = candidates[span]
            owner[a:b] = [span] * (b - a)
            continue
        found.dropped.append(Listing(
            i, candidates[span][1], entity_type, f"tokens {a}..{b} overlap "
            f"{kept[winner][1]!r} ({winner[2]}) at tokens {winner[0]}..{winner[1]}"))
    return kept


class SentenceIndex:
    """One sentence's text, where its tokens start and end, and its lower-case and
    normalised views (built when first needed): ``find`` looks an entity text up.

    ``starts`` and ``ends`` None: the text is its tokens joined by single spaces and no
    token holds a space, so a token starts where a space ends and ends where one starts
    (``spaced_occurrences``: no map of the positions is built, the common case). A text
    longer than ``LONG_TEXT`` characters (a document) is looked up in an index of its
    token-aligned windows (``WindowIndex``), each view built once: an entity costs its
    own length and occurrences, not the text's."""

    def __init__(self, text: str, starts: list | None = None, ends: list | None = None):
        self.text, self.spaced = text, starts is None
        if starts is None:
            self.n_tokens = text.count(" ") + 1
        else:
            self.n_tokens = len(starts)
            self.__dict__.update(starts=starts, ends=ends)   # the cached properties' values
        # the exact level of a short spaced text, the usual lookup, in one call
        self.quick = self.spaced and len(text) <= LONG_TEXT
        self.windows: dict | None = None

    @cached_property
    def starts(self) -> list:
        words = self.text.split(" ")
        return [0, *accumulate(len(word) + 1 for word in words[:-1])]

    @cached_property
    def ends(self) -> list:
        return [a + len(word) for a, word in zip(self.starts, self.text.split(" "))]

    @cached_property
    def start_at(self) -> dict:
        return dict(zip(self.starts, range(len(self.starts))))

    @cached_property
    def end_at(self) -> dict:
        return dict(zip(self.ends, range(1, len(self.ends) + 1)))

    def find(self, entity: str, fuzzy: float | None = None) -> tuple[str | None, list]:
        """``(level, [(start, end), ...])``: the token spans where ``entity`` occurs, at
        the first level that finds any (``(None, [])`` when none does)."""
        hits = spaced_occurrences(self.text, entity) if self.quick else \
            self._occurrences("exact", entity)
        if hits:
            return "exact", hits
        hits = self._occurrences("case_insensitive", lowercase_in_place(entity))
        if hits:
            return "case_insensitive", hits
        key = normalise(entity)
        # when the tokens are the text's words, the per-token view is the whole text
        # unified (one C-level pass): a key not in it is not looked for in a view built
        if key and len(self.text) > LONG_TEXT:
            hits = self._windows("normalised", *self.normalised).occurrences(key)
        else:
            hits = occurrences(*self.normalised, key) if key and (
                self.split_unified is None or key in self.unified) else []
        if hits:
            return "normalised", hits
        if fuzzy is not None and key:
            best = self.most_similar(key, fuzzy)
            if best is not None:
                return "fuzzy", [best]
        return None, []

    def _occurrences(self, level: str, entity: str) -> list:
        """``occurrences`` of ``entity`` in the text (``"exact"``) or its lower case."""
        text = self.text if level == "exact" else self.lower
        if len(text) > LONG_TEXT:
            return self._windows(level, text, self.start_at, self.end_at).occurrences(entity)
        if self.spaced:
            return spaced_occurrences(text, entity)
        return occurrences(text, self.start_at, self.end_at, entity)

    def _windows(self, level: str, text: str, start_at: dict, end_at: dict) -> "WindowIndex":
        if self.windows is None:
            self.windows = {}
        if level not in self.windows:
            self.windows[level] = WindowIndex(text, start_at, end_at)
        return self.windows[level]

    @cached_property
    def lower(self) -> str:
        return lowercase_in_place(self.text)

    @cached_property
    def unified(self) -> str:
        return unify(self.text)

    @cached_property
    def normalised(self) -> tuple[str, dict, dict]:
        """The tokens ``unify``-ed and joined by single spaces, and where a span may
        start and end in it: at a token's edges, or inside its surrounding punctuation."""
        parts = self._unified_tokens()
        starts = [0, *accumulate(len(part) + 1 for part in parts[:-1])] if parts else []
        start_at = dict(zip(starts, range(len(parts))))
        end_at = {start + len(part): k + 1 for k, (start, part) in enumerate(zip(starts, parts))}
        for k, (start, part) in enumerate(zip(starts, parts)):
            if not (part[:1].isalnum() and part[-1:].isalnum()):
                a, b = core_bounds(part)
                if b > a:
                    start_at.setdefault(start + a, k)
                    end_at.setdefault(start + b, k + 1)
        return " ".join(parts), start_at, end_at

    @cached_property
    def cores(self) -> list:
        """Each token's ``(start, end)`` in the normalised text, without its surrounding
        punctuation (all of it when nothing else is left)."""
        parts, cores, at = self._unified_tokens(), [], 0
        for part in parts:
            a, b = core_bounds(part)
            cores.append((at + a, at + b) if b > a else (at, at + len(part)))
            at += len(part) + 1
        return cores

    @cached_property
    def split_unified(self) -> list | None:
        """The whole text unified, split into the tokens unified, when the tokens are
        its whitespace-separated words and stay so (NFKC can put a space inside a
        token: ``"\u00a8"``); else None."""
        words = self.text.split(" ") if self.spaced else \
            [self.text[a:b] for a, b in zip(self.starts, self.ends)]
        parts = self.unified.split(" ")
        return parts if len(parts) == len(words) and self.text.split() == words else None

    def _unified_tokens(self) -> list:
        if self.split_unified is not None:
            return self.split_unified
        return [unify(self.text[a:b]) for a, b in zip(self.starts, self.ends)]

    def most_similar(self, key: str, threshold: float) -> tuple[int, int] | None:
        """The token window whose normalised text is most similar to ``key`` (ratio of
        ``difflib.SequenceMatcher``) if it reaches ``threshold``; ties go to the shorter
        window, then the leftmost. Windows too short or too long to reach the threshold
        (ratio <= 2 min / (sum of lengths)) are never compared."""
        text, cores = self.normalised[0], self.cores
        shortest = len(key) * threshold / (2 - threshold)
        longest = len(key) * (2 - threshold) / threshold
        best, best_rank = None, None
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(key)
        for a in range(len(cores)):
            for b in range(a, len(cores)):
                window = text[cores[a][0]:cores[b][1]]
                if len(window) > longest:
                    break
                if len(window) < shortest:
                    continue
                matcher.set_seq1(window)
                if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
                    continue
                rank = (-matcher.ratio(), b - a, a)
                if rank[0] <= -threshold and (best_rank is None or rank < best_rank):
                    best, best_rank = (a, b + 1), rank
        return best


def occurrences(text: str, start_at: dict, end_at: dict, entity: str) -> list:
    """Token spans ``(start, end)`` where ``entity`` occurs in ``text`` starting at a
    key of ``start_at`` and ending at a key of ``end_at`` (character -> token maps).

    >>> occurrences("Paris and Parisians", {0: 0, 6: 1, 10: 2}, {5: 1, 9: 2, 19: 3}, "Paris")
    [(0, 1)]
    """
    out, size = [], len(entity)
    at = text.find(entity)
    while at >= 0:
        first = start_at.get(at)
        if first is not None:
            last = end_at.get(at + size)
            if last is not None:
                out.append((first, last))
        at = text.find(entity, at + 1)
    return out


def spaced_occurrences(text: str, entity: str) -> list:
    """``occurrences`` in a text of tokens joined by single spaces, none holding a space:
    a token starts at 0 or after a space and ends at the end or before one, and its
    index is the number of spaces before it.

    >>> spaced_occurrences("Paris and Parisians in Paris", "Paris")
    [(0, 1), (4, 5)]
    """
    out, size, length = [], len(entity), len(text)
    at = text.find(entity)
    while at >= 0:
        end = at + size
        if (at == 0 or text[at - 1] == " ") and (end == length or text[end] == " "):
            first = text.count(" ", 0, at)
            out.append((first, first + text.count(" ", at, end) + 1))
        at = text.find(entity, at + 1)
    return out


# Characters from which a sentence's views are looked up in an index of their windows
# (a document): below, one ``str.find`` over the text costs less than building one.
LONG_TEXT = 20_000
# The polynomial hash of a window: characters weighted by powers of an odd number
# modulo 2**64 (NumPy's unsigned arithmetic wraps), its inverse making every window's
# hash a difference of two prefix sums.
_BASE = 0x9E3779B97F4A7C15
_INVERSE = pow(_BASE, -1, 2 ** 64)


class WindowIndex:
    """The windows of a text that start at a key of ``start_at`` and end at a key of
    ``end_at`` (character -> token maps), by length and hash of their characters, built
    once per length asked for: ``occurrences`` gives ``occurrences(text, start_at,
    end_at, entity)`` in time of the entity's length and its candidates (each checked
    character for character), where ``str.find`` scanned the whole text per entity.

    >>> index = WindowIndex("Paris and Parisians", {0: 0, 6: 1, 10: 2}, {5: 1, 9: 2, 19: 3})
    >>> index.occurrences("Paris"), index.occurrences("and Parisians")
    ([(0, 1)], [(1, 3)])
    """

    def __init__(self, text: str, start_at: dict, end_at: dict):
        self.text, self.start_at, self.end_at = text, start_at, end_at
        codes = _codes(text)
        self.inverse, self.powers = _powers(_INVERSE, len(codes)), _powers(_BASE, len(codes))
        self.prefix = np.concatenate([np.zeros(1, dtype=np.uint64),
                                      np.cumsum(codes * self.inverse[:-1])])
        self.first = np.array(sorted(start_at), dtype=np.int64)
        self.is_end = np.zeros(len(codes) + 1, dtype=bool)
        self.is_end[np.array(list(end_at), dtype=np.int64)] = True
        self.by_length: dict = {}

    def occurrences(self, entity: str) -> list:
        size = len(entity)
        if not 0 < size <= len(self.text):
            return occurrences(self.text, self.start_at, self.end_at, entity)
        hashes, starts = self._windows(size)
        key = np.sum(_codes(entity) * self.inverse[:size], dtype=np.uint64)
        lo, hi = np.searchsorted(hashes, key, "left"), np.searchsorted(hashes, key, "right")
        text, start_at, end_at = self.text, self.start_at, self.end_at
        return [(start_at[at], end_at[at + size]) for at in sorted(starts[lo:hi].tolist())
                if text.startswith(entity, at)]

    def _windows(self, size: int) -> tuple:
        """``(hashes sorted, their starts)`` of the windows of ``size`` characters."""
        if size not in self.by_length:
            starts = self.first[self.first + size < len(self.is_end)]
            starts = starts[self.is_end[starts + size]]
            hashes = (self.prefix[starts + size] - self.prefix[starts]) * self.powers[starts]
            order = np.argsort(hashes, kind="stable")
            self.by_length[size] = hashes[order], starts[order]
        return self.by_length[size]


def _codes(text: str) -> np.ndarray:
    """The code points of ``text``, one per character (its offsets)."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)


def _powers(base: int, n: int) -> np.ndarray:
    """``base ** k`` modulo 2**64 for k in 0..n."""
    return np.cumprod(np.concatenate([np.ones(1, dtype=np.uint64),
                                      np.full(n, base, dtype=np.uint64)]))


__all__ = ["ground", "Grounded", "SentenceIndex", "occurrences", "spaced_occurrences",
           "WindowIndex", "LONG_TEXT", "OCCURRENCES", "OVERLAPS"]
