"""What reading and grounding generated output did: one record, never silent.

``GenerativeRepairs`` counts and lists, with sentence and text, everything of a model's
output that did not become a span as it was written: responses that could not be read
(``parse_failures``), items that are no entity (``rejected``), types that match no gold
type (``unknown_types``), entities listed twice (``duplicates``), entity texts not found
in the sentence (``ungrounded``) and overlapping spans dropped (``dropped_overlaps``),
with the number of entities found at each grounding level (``levels``).

It joins a result's ``repairs`` on the prediction side (``merge_repairs``), and
``add_ungrounded`` turns the ungrounded entities into the false positives they are in
``nerspan`` entity scores (and so in every family's headline ``precision``). A family's
own counts take them from ``ungrounded_by_type`` (an FP per entity under its type:
faireval's FP and traditional FP, attribute_buckets' predicted mentions) and
``ungrounded_per_sentence`` (a bootstrap's resampled counts); hardeval and
tough_mentions, which score tokens and gold mentions, report ``len(ungrounded)`` beside
their numbers.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..errors import counted, shown

LEVELS = ("exact", "case_insensitive", "normalised", "fuzzy")
TYPE_MATCHES = ("as_given", "case_insensitive", "type_map", "unknown", "unchecked")
LISTED_KINDS = ("parse_failures", "rejected", "unknown_types", "duplicates", "ungrounded",
                "dropped_overlaps")
# How ``summary`` names each kind: noun, plural, what happened to it.
_SUMMARY = (("rejected", "item", "items", "rejected"),
            ("unknown_types", "entity", "entities", "of an unknown type"),
            ("duplicates", "entity", "entities", "listed twice"),
            ("ungrounded", "entity", "entities", "ungrounded"),
            ("dropped_overlaps", "overlapping span", "overlapping spans", "dropped"))
# ``to_dict`` lists at most this many of each kind (the counts are always whole): a
# model stuck in a loop can repeat one entity 50,000 times in a 1 MB response.
MAX_LISTED = 1000
# ``sentences`` names at most this many sentences (as ``nerspan.spans.Repairs`` does)
SENTENCES_NAMED = 20


class Listing(NamedTuple):
    """One entity (or response) in the record: where, what, and why it is listed."""

    sentence: int
    text: str
    type: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict:
        out = {"sentence": int(self.sentence), "text": _cut(self.text)}
        if self.type is not None:
            out["type"] = _cut(self.type)
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def _cut(text) -> str:
    """A listed text: whole up to 80 characters, else cut as errors cut values."""
    return text if isinstance(text, str) and len(text) <= 80 else shown(text)


@dataclass(frozen=True)
class GenerativeRepairs:
    """Everything reading and grounding did to one side's generated output.

    ``responses``: the sentences (or documents) read; ``entities``: the entities read
    from them; ``usable``: those that became at least one span (after duplicates,
    overlaps and ungrounded entities); ``spans``: the spans they became (an entity marks
    every occurrence of its text by default); ``levels``: entities grounded per level (``LEVELS``);
    ``types``: entities per way their type was matched (``TYPE_MATCHES``). The listings
    are tuples of ``Listing``.
    """

    responses: int = 0
    entities: int = 0
    usable: int = 0
    spans: int = 0
    levels: dict = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    types: dict = field(default_factory=lambda: dict.fromkeys(TYPE_MATCHES, 0))
    parse_failures: tuple = ()
    rejected: tuple = ()
    unknown_types: tuple = ()
    duplicates: tuple = ()
    ungrounded: tuple = ()
    dropped_overlaps: tuple = ()
    # a partial's record (``bounded``): each listed kind's whole count (``LISTED_KINDS``
    # order) and the ungrounded entities per type as items, its listings cut to the
    # first ``MAX_LISTED`` by sentence; None: the listings are whole
    whole_counts: tuple | None = None
    whole_ungrounded: tuple | None = None

    def count(self, kind: str) -> int:
        """How many of ``kind`` (one of ``LISTED_KINDS``) there are, listed or not."""
        if self.whole_counts is None:
            return len(getattr(self, kind))
        return self.whole_counts[LISTED_KINDS.index(kind)]

    @property
    def total(self) -> int:
        """How many responses and entities are listed, of every kind."""
        return sum(self.count(kind) for kind in LISTED_KINDS)

    @property
    def grounded(self) -> int:
        return sum(self.levels.values())

    def ungrounded_by_type(self) -> dict:
        """type -> ungrounded entities of that type: the false positives to add per type.

        >>> GenerativeRepairs(ungrounded=(Listing(0, "Atlantis", "LOC"),
        ...                               Listing(2, "Oz", "LOC"))).ungrounded_by_type()
        {'LOC': 2}
        """
        if self.whole_ungrounded is not None:
            return dict(self.whole_ungrounded)
        return dict(sorted(Counter(item.type for item in self.ungrounded).items()))

    def ungrounded_per_sentence(self, n_sentences: int | None = None) -> np.ndarray:
        """Ungrounded entities per sentence (a bootstrap resamples them with it)."""
        if self.whole_counts is not None:
            raise ValueError("a partial's generated record lists at most MAX_LISTED "
                             "entities: it has no per-sentence counts")
        sentences = np.array([item.sentence for item in self.ungrounded], dtype=np.int64)
        return np.bincount(sentences, minlength=n_sentences or self.responses)

    def sentences(self, limit: int = SENTENCES_NAMED) -> list:
        """The first sentences concerned by any listing (as ``Repairs.sentences``)."""
        found = {item.sentence for kind in LISTED_KINDS for item in getattr(self, kind)}
        return sorted(found)[:limit]

    def summary(self) -> str:
        """How much of the output was usable, in one sentence (for findings).

        >>> print(GenerativeRepairs(responses=2, entities=4, usable=3, spans=3,
        ...                         ungrounded=(Listing(1, "Oz", "LOC"),)).summary())
        3 of 4 entities usable (75%); 1 entity ungrounded
        """
        share = f" ({100 * self.usable / self.entities:.0f}%)" if self.entities else ""
        parts = [f"{self.usable} of {counted(self.entities, 'entity', 'entities')} usable"
                 f"{share}"]
        if self.count("parse_failures"):
            parts.append(f"{self.count('parse_failures')} of "
                         f"{counted(self.responses, 'response')} unreadable")
        for kind, noun, plural, what in _SUMMARY:
            n = self.count(kind)
            if n:
                parts.append(f"{counted(n, noun, plural)} {what}")
        return "; ".join(parts)

    def to_dict(self, numbers=None) -> dict:
        """Plain JSON: the counts, ``ungrounded_by_type``, ``sentences``, the
        ``summary`` and, under ``listed``, at most ``MAX_LISTED`` of each kind; with
        ``numbers`` (each sentence's number in gold, ``nerspan.spans.Repairs``'s
        ``sentence_numbers``) the sentences are named by them, as errors and report
        examples name them, not by their places among the sentences answered.

        >>> record = GenerativeRepairs(responses=2, ungrounded=(Listing(1, "Oz", "LOC"),))
        >>> record.to_dict([7, 64])["listed"]["ungrounded"], record.to_dict()["sentences"]
        ([{'sentence': 64, 'text': 'Oz', 'type': 'LOC'}], [1])
        """
        number = int if numbers is None else (lambda s: int(numbers[s]))  # noqa: E731
        listed = {kind: [item._replace(sentence=number(item.sentence)).to_dict()
                         for item in getattr(self, kind)[:MAX_LISTED]]
                  for kind in LISTED_KINDS}
        return {"responses": int(self.responses), "entities": int(self.entities),
                "usable": int(self.usable), "spans": int(self.spans),
                **{kind: self.count(kind) for kind in LISTED_KINDS},
                "levels": {k: int(v) for k, v in self.levels.items()},
                "types": {k: int(v) for k, v in self.types.items()},
                "ungrounded_by_type": self.ungrounded_by_type(),
                "sentences": [number(s) for s in self.sentences()],
                "summary": self.summary(), "listed_at_most": MAX_LISTED, "listed": listed}

    def replace(self, **changes) -> "GenerativeRepairs":
        return dataclasses.replace(self, **changes)

    def at(self, places, totals: bool = True) -> "GenerativeRepairs":
        """The record of a corpus of some of the sentences (``nerspan.Corpus.subset``,
        ``block``): each listing of sentence ``i`` at each of ``places(i)`` (none, one,
        or several in a resample), so that its ungrounded entities stay the false
        positives of their sentences. The totals (``responses``, ``entities``,
        ``usable``, ``spans``, ``levels``, ``types``) are not kept per sentence: the
        whole output's, or with ``totals`` False none (zeros), so that the records of
        blocks that cut the sentences, one of them given the totals, sum to the whole's.

        >>> record = GenerativeRepairs(responses=3, ungrounded=(Listing(0, "Oz", "LOC"),
        ...                                                     Listing(2, "Atlantis", "LOC")))
        >>> [(item.sentence, item.text) for item in record.at({2: [0, 1]}.get).ungrounded]
        [(0, 'Atlantis'), (1, 'Atlantis')]
        >>> record.at({2: [0]}.get, totals=False).to_dict()["responses"]
        0
        """
        listed = {kind: tuple(sorted(
            (item._replace(sentence=k) for item in getattr(self, kind)
             for k in places(item.sentence) or ()), key=lambda item: item.sentence))
            for kind in LISTED_KINDS}
        if not totals:
            listed.update(responses=0, entities=0, usable=0, spans=0,
                          levels=dict.fromkeys(self.levels, 0),
                          types=dict.fromkeys(self.types, 0))
        return self.replace(**listed)

    @classmethod
    def merged(cls, parts) -> "GenerativeRepairs":
        """One record from the records of consecutive batches (a distributed or
        streamed evaluation): counts summed, each batch's sentences shifted by the
        responses of the batches before it.

        >>> a = GenerativeRepairs(responses=2, ungrounded=(Listing(1, "Oz", "LOC"),))
        >>> GenerativeRepairs.merged([a, a]).ungrounded[1].sentence
        3
        """
        out, shift = cls(), 0
        for part in parts:
            moved = {kind: getattr(out, kind) + tuple(
                item._replace(sentence=item.sentence + shift) for item in getattr(part, kind))
                for kind in LISTED_KINDS}
            out = out.replace(
                responses=out.responses + part.responses,
                entities=out.entities + part.entities, usable=out.usable + part.usable,
                spans=out.spans + part.spans,
                levels={k: out.levels[k] + part.levels.get(k, 0) for k in LEVELS},
                types={k: out.types[k] + part.types.get(k, 0) for k in TYPE_MATCHES},
                **moved)
            shift += part.responses
        return out

    def bounded(self, global_ids=None) -> "GenerativeRepairs":
        """This record as a partial keeps it (``nerspan.partials``): its sentences by
        global id (``global_ids``: local sentences -> global ids, NumPy-style; default
        as they are), each listing cut to the first ``MAX_LISTED`` by sentence, the
        counts (``count``, ``ungrounded_by_type``) whole. ``to_dict`` gives what the
        whole record gives.

        >>> record = GenerativeRepairs(responses=2, ungrounded=(Listing(1, "Oz", "LOC"),))
        >>> part = record.bounded(lambda ids: [i + 10 for i in ids])
        >>> part.ungrounded[0].sentence, part.to_dict()["ungrounded"]
        (11, 1)
        """
        whole = self.whole_counts or tuple(len(getattr(self, k)) for k in LISTED_KINDS)
        by_type = tuple(self.ungrounded_by_type().items())
        listed = {kind: _first_listed(getattr(self, kind)) for kind in LISTED_KINDS}
        if global_ids is not None:
            listed = {kind: tuple(item._replace(sentence=int(g)) for item, g in zip(
                items, global_ids([item.sentence for item in items])))
                for kind, items in listed.items()}
        return self.replace(whole_counts=whole, whole_ungrounded=by_type, **listed)

    def merged_by_id(self, other: "GenerativeRepairs") -> "GenerativeRepairs":
        """Two shards' ``bounded`` records (sentences by global id, disjoint) as one:
        counts summed, the first ``MAX_LISTED`` listings of each kind by sentence kept,
        whatever the cut and the order of merging."""
        mine, theirs = self.bounded(), other.bounded()
        types = Counter(dict(mine.whole_ungrounded))
        types.update(dict(theirs.whole_ungrounded))
        return GenerativeRepairs(
            mine.responses + theirs.responses, mine.entities + theirs.entities,
            mine.usable + theirs.usable, mine.spans + theirs.spans,
            {k: mine.levels.get(k, 0) + theirs.levels.get(k, 0) for k in LEVELS},
            {k: mine.types.get(k, 0) + theirs.types.get(k, 0) for k in TYPE_MATCHES},
            *(_first_listed(getattr(mine, kind) + getattr(theirs, kind))
              for kind in LISTED_KINDS),
            whole_counts=tuple(map(sum, zip(mine.whole_counts, theirs.whole_counts))),
            whole_ungrounded=tuple(sorted(types.items())))


def _first_listed(items: tuple) -> tuple:
    """The first listings by sentence (a sentence's in their order): the ``MAX_LISTED``
    that ``to_dict`` lists, and every listing of the first ``SENTENCES_NAMED`` sentences
    (``sentences`` names them: a sentence may hold several listings of a kind)."""
    ordered = sorted(items, key=lambda item: item.sentence)
    named = sorted({item.sentence for item in ordered})[:SENTENCES_NAMED]
    last = named[-1] if named else -1
    return tuple(item for k, item in enumerate(ordered)
                 if k < MAX_LISTED or item.sentence <= last)


def merge_repairs(repairs: dict, generative: GenerativeRepairs) -> dict:
    """A result's ``repairs`` (``{"gold": ..., "pred": ...}``, ``nerspan.spans.repairs_dict``)
    with the generated side's record as ``pred["generative"]``; the sentences it
    concerns join ``pred["sentences"]`` (the first 20).

    >>> from nerspan.spans import repairs_dict
    >>> record = GenerativeRepairs(responses=1, ungrounded=(Listing(0, "Oz", "LOC"),))
    >>> merged = merge_repairs(repairs_dict(None, None), record)
    >>> merged["pred"]["generative"]["ungrounded"], merged["pred"]["sentences"]
    (1, [0])
    """
    pred = dict(repairs.get("pred") or {})
    pred["generative"] = generative.to_dict()
    pred["sentences"] = sorted(set(pred.get("sentences", [])) | set(generative.sentences()))[:20]
    return {**repairs, "pred": pred}


def add_ungrounded(scores, generative: GenerativeRepairs):
    """``nerspan.EntityScores`` with every ungrounded entity counted as a prediction
    that is wrong: ``predicted`` grows by ``ungrounded_by_type`` (a type without a row
    gets one), so precision and F1 fall, recall stays; the record joins ``repairs``.

    >>> import nerspan
    >>> scores = nerspan.score([[(0, 1, "LOC")]], [[(0, 1, "LOC")]], tokens=[["Paris"]])
    >>> adjusted = add_ungrounded(scores, GenerativeRepairs(
    ...     responses=1, ungrounded=(Listing(0, "Atlantis", "LOC"),)))
    >>> adjusted.micro()
    (0.5, 1.0, 0.6666666666666666)
    """
    extra = generative.ungrounded_by_type()
    types = tuple(sorted(set(scores.types) | set(extra)))
    row = {t: k for k, t in enumerate(scores.types)}

    def widened(counts, add=None):
        return np.array([(counts[row[t]] if t in row else 0) + (add or {}).get(t, 0)
                         for t in types], dtype=np.int64)
    return dataclasses.replace(
        scores, types=types, gold=widened(scores.gold), correct=widened(scores.correct),
        predicted=widened(scores.predicted, extra),
        repairs=merge_repairs(scores.repairs or {}, generative))


__all__ = ["GenerativeRepairs", "Listing", "LEVELS", "TYPE_MATCHES", "MAX_LISTED",
           "merge_repairs", "add_ungrounded"]
