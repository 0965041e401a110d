"""Suspect gold: the gold mentions (and the mentions gold lacks) that look wrong, ranked,
each with its evidence.

Candidates are every gold mention and every span that at least ``min_systems`` systems
predict exactly and that overlaps no gold mention (a missing mention). A system reads a
gold mention one of three ways: as gold (it predicts the mention exactly), as nothing (no
prediction of it overlaps the mention), or as its prediction sharing most tokens with
the mention (the first of equals); a missing mention it reads as itself or not at all.

Evidence, each part in [0, 1], the score their sum (at most 3):

- ``systems``: the systems that agree with each other against gold: of the readings
  other than gold's, the one with the largest weight (then the most systems, then the
  smallest reading: nothing, then by start, end and type); its weight over the number
  of systems. A system's vote weighs 1, or, when its predictions carry confidences, the
  confidence of the mention it reads (a reading of nothing weighs 1): a confident
  disagreement counts more than a hesitant one.
- ``surface``: the same token sequence elsewhere, in gold (this mention left out) and in
  the training data: the occurrences labelled otherwise (as another type, or, for a gold
  mention, not at all; for a missing mention: as any mention) over all occurrences read
  plus one, ``other / (same + other + 1)``, so that one occurrence is weak evidence.
  An occurrence counts when it is exactly a mention or lies wholly outside mentions.
- ``document``: the same, over the other occurrences in the mention's document alone
  (type inconsistency within a document), when the documents are known.

Candidates are ranked by score, highest first; ties by sentence, then start, then gold
mentions before missing ones, then end and type: the ranking depends on nothing else
(not on the order the systems are given in).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import partial
from typing import Mapping

import numpy as np

from ..blocks import Heading
from ..corpus import Corpus
from ..errors import counted, shown
from ..options import check_int
from ..records import Record, option
from ..scores import match
from ..spans import Spans
from ..train_index import TrainIndex
from .mention_diff import KIND
from .overlaps import check_flat, on_shared_types, overlap_pairs, overlap_runs, overlap_size
from .surface_forms import (UNLABELLED, LabelCounts, TextTrie, occurrence_labels,
                            shared_words)

# A system's reading of a gold mention that is no span: gold's own, or nothing at all.
AGREES, NOTHING = -2, -1
GOLD_MENTION, MISSING = 0, 1
CANDIDATE_KINDS = ("gold", "missing")
EVIDENCE = ("systems", "surface", "document")


def readings(gold: Spans, predicted: Spans, confidence: np.ndarray | None
             ) -> tuple[np.ndarray, np.ndarray]:
    """``(reading, weight)`` of one system for every gold mention: ``AGREES``,
    ``NOTHING`` or the key (``Spans.key``) of the prediction sharing most tokens with it;
    the weight of that vote (the prediction's confidence, else 1)."""
    n_positions = int(gold.offsets[-1])
    exact = match(gold, predicted)[0]
    i, j = overlap_pairs(gold, predicted)
    chosen = np.full(len(gold), -1, dtype=np.int64)
    if len(i):
        order = np.lexsort((j, -overlap_size(gold, predicted, i, j), i))
        first = order[np.concatenate([[True], i[order][1:] != i[order][:-1]])]
        chosen[i[first]] = j[first]
    has = chosen >= 0
    reading = np.full(len(gold), NOTHING, dtype=np.int64)
    reading[has] = predicted.key(n_positions)[chosen[has]]
    reading[exact] = AGREES
    weight = np.ones(len(gold))
    if confidence is not None:
        weight[has] = confidence[chosen[has]]
    return reading, weight


def strongest_reading(reading: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per row of ``reading`` (candidates x systems), the reading other than ``AGREES``
    with the largest summed weight (then the most systems, then the smallest), and that
    weight; ``AGREES`` and 0 where every system agrees with gold. Each group's weights
    are summed in ascending order: the same sum in any order of the systems."""
    n, n_systems = reading.shape
    best, best_weight = np.full(n, AGREES, dtype=np.int64), np.zeros(n)
    rows = np.repeat(np.arange(n), n_systems)
    keys, weights = reading.ravel(), weight.ravel()
    kept = keys != AGREES
    rows, keys, weights = rows[kept], keys[kept], weights[kept]
    if not len(rows):
        return best, best_weight
    order = np.lexsort((weights, keys, rows))
    rows, keys, weights = rows[order], keys[order], weights[order]
    starts = np.flatnonzero(np.concatenate([[True], (rows[1:] != rows[:-1])
                                            | (keys[1:] != keys[:-1])]))
    group_weight = np.add.reduceat(weights, starts)
    group_size = np.diff(np.append(starts, len(rows)))
    group_row, group_key = rows[starts], keys[starts]
    pick = np.lexsort((group_key, -group_size, -group_weight, group_row))
    first = pick[np.concatenate([[True], group_row[pick][1:] != group_row[pick][:-1]])]
    best[group_row[first]], best_weight[group_row[first]] = group_key[first], group_weight[first]
    return best, best_weight


@dataclass(frozen=True)
class Candidates:
    """The suspects before ranking: gold mentions first (in gold's order), then missing
    ones. ``spans``: every candidate (its start, end, type); ``kind``: ``GOLD_MENTION``
    or ``MISSING``; ``proposal``: the reading the agreeing systems share (a key,
    ``NOTHING``, or ``AGREES`` when no system disagrees); ``agree``, ``weight``:
    candidates x systems, which systems read it as the proposal, and with what weight."""

    spans: Spans
    kind: np.ndarray
    proposal: np.ndarray
    agree: np.ndarray
    weight: np.ndarray
    votes: np.ndarray


def candidates(gold: Spans, systems: list, confidences: list, min_systems: int
               ) -> Candidates:
    """Every gold mention and every missing mention that ``min_systems`` systems
    predict (``systems``: flat spans on gold's types; ``confidences``: per system an
    array per predicted mention, or None)."""
    n_positions = int(gold.offsets[-1])
    pairs = [readings(gold, pred, conf) for pred, conf in zip(systems, confidences)]
    shape = (len(gold), len(systems))
    reading = np.stack([r for r, _ in pairs], axis=1) if pairs else np.zeros(shape, np.int64)
    weight = np.stack([w for _, w in pairs], axis=1) if pairs else np.zeros(shape)
    proposal, votes = strongest_reading(reading, weight)
    agree = (reading == proposal[:, None]) & (proposal[:, None] != AGREES)
    missing = _missing(gold, systems, confidences, max(min_systems, 1), n_positions)
    spans = gold.take(np.arange(len(gold)))
    if len(missing[0]):
        start, end, kind = _unkeyed(missing[0], n_positions, len(gold.types))
        spans = _joined(gold, start, end, kind)
    n_missing = len(missing[0])
    return Candidates(spans, np.repeat([GOLD_MENTION, MISSING], [len(gold), n_missing]),
                      np.concatenate([proposal, missing[0]]),
                      np.concatenate([agree, missing[1]]),
                      np.concatenate([weight * agree, missing[2]]),
                      np.concatenate([votes, np.sort(missing[2], axis=1).sum(1)]))


def _missing(gold: Spans, systems: list, confidences: list, min_systems: int,
             n_positions: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(keys, agree, weight)`` of the spans at least ``min_systems`` systems predict
    that overlap no gold mention; ``agree``/``weight``: spans x systems."""
    outside = []
    for pred, conf in zip(systems, confidences):
        alone = overlap_runs(pred, gold)[1] == 0
        outside.append((pred.key(n_positions)[alone], None if conf is None else conf[alone]))
    if not outside:
        return np.zeros(0, np.int64), np.zeros((0, 0), bool), np.zeros((0, 0))
    keys, counts = np.unique(np.concatenate([k for k, _ in outside]), return_counts=True)
    keys = keys[counts >= min_systems]
    agree = np.zeros((len(keys), len(systems)), dtype=bool)
    weight = np.zeros((len(keys), len(systems)))
    for j, (mine, conf) in enumerate(outside):  # each system's keys are sorted
        at = np.minimum(np.searchsorted(mine, keys), max(len(mine) - 1, 0))
        agree[:, j] = mine[at] == keys if len(mine) else False
        weight[agree[:, j], j] = 1.0 if conf is None else conf[at[agree[:, j]]]
    return keys, agree, weight


def _unkeyed(keys: np.ndarray, n_positions: int, n_types: int) -> tuple[np.ndarray, ...]:
    """``(start, end, type)`` of span keys (``Spans.key``)."""
    position, kind = np.divmod(keys, n_types + 1)
    start, end = np.divmod(position, n_positions + 1)
    return start, end, kind.astype(np.int32)


def _joined(gold: Spans, start: np.ndarray, end: np.ndarray, kind: np.ndarray) -> Spans:
    """Gold's mentions followed by the spans ``start``/``end``/``kind`` (not sorted)."""
    return dataclasses.replace(gold, start=np.concatenate([gold.start, start]),
                               end=np.concatenate([gold.end, end]),
                               type=np.concatenate([gold.type, kind]))


@dataclass(frozen=True)
class SurfaceForms:
    """The label counts of the candidates' texts: ``text`` (per candidate), in gold
    (``gold``), in training (``train``, or None) and per document (``documents``, or
    None); ``label_names``: label code -> name (``"O"``: not labelled)."""

    text: np.ndarray
    own: np.ndarray
    gold: LabelCounts
    train: LabelCounts | None
    documents: LabelCounts | None
    document_of: np.ndarray | None
    label_names: tuple

    def same_other(self, counts: LabelCounts, groups=None, itself: int = 0) -> tuple:
        """``(same, other)`` occurrences of each candidate's text labelled as the
        candidate is (as gold has it) or otherwise, ``itself`` left out of ``same``."""
        same = counts.count(self.text, self.own, groups) - itself
        return same, counts.count(self.text, None, groups) - itself - same


def surface_forms(spans: Spans, own: np.ndarray, corpus: Corpus, gold: Spans,
                  train: TrainIndex | None, documents: np.ndarray | None) -> SurfaceForms:
    """Where the texts of the candidates ``spans`` occur in ``corpus`` and in the
    training data, and how gold (and training) label them there."""
    streams = shared_words(corpus, None if train is None else train.corpus)
    base = int(max(s.max(initial=0) for s in streams)) + 2
    trie, text = TextTrie.build(streams[0], spans.start, spans.length, base)
    extra = () if train is None else tuple(sorted(set(train.types) - set(gold.types)))
    names = ("O",) + tuple(gold.types) + extra
    code = {name: i for i, name in enumerate(names)}
    starts, lengths, texts = trie.occurrences(streams[0], corpus.sentence_of_position)
    labels = occurrence_labels(starts, lengths, gold, corpus.n_tokens,
                               np.arange(1, len(gold.types) + 1))
    gold_counts = LabelCounts.of(texts, labels, trie.n_ids, len(names))
    train_counts = document_counts = document_of = None
    if train is not None:
        found = trie.occurrences(streams[1], train.corpus.sentence_of_position)
        train_labels = occurrence_labels(found[0], found[1], train.spans, train.corpus.n_tokens,
                                         np.array([code[t] for t in train.types] or [0]))
        train_counts = LabelCounts.of(found[2], train_labels, trie.n_ids, len(names))
    if documents is not None:
        documents = np.asarray(documents, dtype=np.int64)
        groups = documents[corpus.sentence_of_position[starts]]
        document_counts = LabelCounts.of(texts, labels, trie.n_ids, len(names), groups)
        document_of = documents[spans.sentence]
    return SurfaceForms(text, own, gold_counts, train_counts, document_counts, document_of,
                        names)


def occurrence_evidence(forms: SurfaceForms | None) -> dict:
    """Per candidate: name -> counts of occurrences labelled the same and otherwise, in
    gold, training and the document (None where not known)."""
    out = dict.fromkeys(("gold_same", "gold_other", "train_same", "train_other",
                         "document_same", "document_other"))
    if forms is None:
        return out
    out["gold_same"], out["gold_other"] = forms.same_other(forms.gold, itself=1)
    if forms.train is not None:
        out["train_same"], out["train_other"] = forms.same_other(forms.train)
    if forms.documents is not None:
        out["document_same"], out["document_other"] = forms.same_other(
            forms.documents, forms.document_of, itself=1)
    return out


def _share_other(same, other) -> np.ndarray | None:
    """``other / (same + other + 1)`` summed over the sources known (None: none)."""
    known = [(s, o) for s, o in zip(same, other) if s is not None]
    if not known:
        return None
    same, other = sum(s for s, _ in known), sum(o for _, o in known)
    return other / (same + other + 1.0)


@dataclass(frozen=True)
class Suspects:
    """Ranked suspect gold (``suspects``). ``found``: the candidates; ``names``: the
    systems; ``counts``: per candidate the occurrence counts of ``evidence``;
    ``parts``: per candidate each part of the score (``EVIDENCE``; 0 where unknown);
    ``score``: their sum; ``order``: the candidates, best suspect first; ``confidence``:
    per candidate the highest confidence among the agreeing systems (NaN: none known)."""

    found: Candidates
    names: tuple
    forms: SurfaceForms | None
    counts: dict
    parts: dict
    score: np.ndarray
    order: np.ndarray
    confidence: np.ndarray
    corpus: Corpus
    options: dict

    def __len__(self) -> int:
        return len(self.order)

    @property
    def rank(self) -> np.ndarray:
        """Per candidate its place in the ranking (0 = the first suspect)."""
        rank = np.empty(len(self.order), dtype=np.int64)
        rank[self.order] = np.arange(len(self.order))
        return rank

    def row(self, candidate: int, rank: int) -> dict:
        """One listed suspect: where it is, its text, score and evidence."""
        spans, c = self.found.spans, candidate
        sentence = int(spans.sentence[c])
        base = int(self.corpus.offsets[sentence])
        start, end = int(spans.start[c]), int(spans.end[c])
        words = self.corpus.tokens[start:end] if self.corpus.tokens is not None else None
        return {"rank": rank + 1, "kind": CANDIDATE_KINDS[self.found.kind[c]],
                "sentence": sentence, "start": start - base, "end": end - base,
                "type": spans.types[spans.type[c]],
                "text": None if words is None else " ".join(self.corpus.vocab[w] for w in words),
                "score": float(self.score[c]),
                "parts": {part: float(self.parts[part][c]) for part in EVIDENCE},
                "systems": self._systems_evidence(c, base), "surface": self._surface(c)}

    def _systems_evidence(self, c: int, base: int) -> dict:
        agreeing = [name for name, agrees in zip(self.names, self.found.agree[c]) if agrees]
        proposal, reading = int(self.found.proposal[c]), None
        if proposal == NOTHING:
            reading = {"start": None, "end": None, "type": None}
        elif proposal >= 0:
            start, end, kind = _unkeyed(np.array([proposal]), self.corpus.n_tokens,
                                        len(self.found.spans.types))
            reading = {"start": int(start[0]) - base, "end": int(end[0]) - base,
                       "type": self.found.spans.types[int(kind[0])]}
        confidence = float(self.confidence[c])
        return {"agree": len(agreeing), "of": len(self.names), "names": sorted(agreeing),
                "reading": reading, "weight": float(self.found.votes[c]),
                "confidence": None if confidence != confidence else confidence}

    def _surface(self, c: int) -> dict | None:
        """label -> occurrences of the candidate's text elsewhere: in gold, in training,
        in its document (itself left out)."""
        forms = self.forms
        if forms is None:
            return None
        named = lambda counts, less=0: {  # noqa: E731
            forms.label_names[label]: n - (less if label == forms.own[c] else 0)
            for label, n in counts.items() if n - (less if label == forms.own[c] else 0)}
        text = int(forms.text[c])
        return {"gold": named(forms.gold.labels_of(text), 1),
                "train": None if forms.train is None else named(forms.train.labels_of(text)),
                "document": None if forms.documents is None else named(
                    forms.documents.labels_of(text, int(forms.document_of[c])), 1)}

    def to_dict(self) -> dict:
        """Plain JSON: how many candidates (gold mentions, missing ones, with a score
        above 0), the first ``listed`` suspects with a score above 0 (``row``), the
        options and ``undefined``."""
        kinds = np.bincount(self.found.kind, minlength=2)
        shown = [c for c in self.order[:self.options["listed"]].tolist() if self.score[c] > 0]
        return {"systems": list(self.names), "candidates": len(self),
                "gold_mentions": int(kinds[GOLD_MENTION]),
                "missing_mentions": int(kinds[MISSING]),
                "scored": int((self.score > 0).sum()),
                "suspects": [self.row(c, r) for r, c in enumerate(shown)],
                "options": dict(self.options), "undefined": []}


def in_sentence(words: list, start: int, end: int, context: int = 6,
                marks: tuple = ("[", "]"), more: str = "...", word=str) -> str:
    """A suspect's words ``[start, end)`` between ``marks``, with ``context`` words on
    each side (6: the command line's), ``more`` where the sentence goes on (``word``
    shows a word: the page escapes it).

    >>> in_sentence("a b c d e f g h".split(), 3, 5, 2)
    '... b c [d e] f g ...'
    """
    low, high = max(0, start - context), min(len(words), end + context)
    shown = [word(w) for w in words[low:high]]
    shown[start - low] = marks[0] + shown[start - low]
    shown[end - 1 - low] += marks[1]
    return " ".join(([more] if low else []) + shown + ([more] if high < len(words) else []))


def evidence_text(row: dict) -> str:
    """One listed suspect's evidence (``Suspects.row``) in words: the systems reading it
    otherwise, the labels of its text elsewhere.

    >>> evidence_text({"start": 0, "end": 1, "systems": {"agree": 2, "of": 3, "reading":
    ...     {"start": 0, "end": 1, "type": "ORG"}}, "surface": {"gold": {"ORG": 4}}})
    '2/3 systems read ORG; gold: ORG 4'
    """
    systems, parts = row["systems"], []
    if systems["agree"]:
        reading = systems["reading"]
        same = (reading["start"], reading["end"]) == (row["start"], row["end"])
        read = "nothing" if reading["type"] is None else reading["type"] if same else \
            f"{reading['type']} [{reading['start']}, {reading['end']})"
        confident = systems.get("confidence")
        parts.append(f"{systems['agree']}/{systems['of']} systems read {read}" + (
            "" if confident is None else f" (confidence up to {confident:.2f})"))
    for where, labels in (row["surface"] or {}).items():
        if labels:
            parts.append(f"{where}: " + ", ".join(f"{label} {n}" for label, n in labels.items()))
    return "; ".join(parts)


def suspects_parts(result: dict, sentence_tokens) -> list[tuple]:
    """The ranked suspects (``Suspects.to_dict``) for a terminal, as page blocks: each in
    its sentence (``sentence_tokens(s)``: the words of sentence ``s``, as
    ``Corpus.sentence_tokens``) with its evidence."""
    listed = len(result["suspects"])
    lines = [f"{counted(result['candidates'], 'candidate')} ({result['gold_mentions']} gold "
             f"mentions, {result['missing_mentions']} missing ones that systems predict), "
             f"{result['scored']} with evidence" + (f"; the first {listed}:" if listed else ".")]
    for row in result["suspects"]:
        words = sentence_tokens(row["sentence"])
        lines += [f"{row['rank']:4d}. {row['score']:.2f} {row['kind']:7s} {row['type']:6s} "
                  f"sentence {row['sentence']}: {in_sentence(words, row['start'], row['end'])}",
                  f"      {evidence_text(row)}"]
    return [tuple(map(Heading, lines))]


def _checked_evidence(name: str, evidence) -> tuple:
    """``evidence`` (parts, or one string of them comma-separated, as ``--evidence``
    takes them) as a tuple of parts in ``EVIDENCE``'s order; an unknown part or none at
    all is an error."""
    parts = [part.strip() for part in evidence.split(",")] if isinstance(evidence, str) \
        else list(evidence)
    if not parts or set(parts) - set(EVIDENCE):
        raise ValueError(f"{name} must be parts among {', '.join(EVIDENCE)}, comma-separated, "
                         f"at least one; not {shown(evidence)}")
    return tuple(part for part in EVIDENCE if part in parts)


@dataclass(frozen=True)
class SuspectOptions(Record):
    """``suspects``' own options (the command line's flags are made of these fields)."""

    min_systems: int = option(2, "systems that must predict a span gold lacks for it to be a "
                              "candidate (default 2; at most the number of systems)",
                              partial(check_int, minimum=1), parse=int, metavar="N")
    listed: int = option(100, "suspects listed (default 100; those with a score above 0)",
                         partial(check_int, minimum=0), parse=int, metavar="N")
    evidence: tuple = option(EVIDENCE, "the parts of the evidence the score sums: "
                             f"{', '.join(EVIDENCE)} (default: all)", _checked_evidence,
                             metavar="PART,...")

    describes = "suspects"


def suspects(gold: Spans, systems: Mapping[str, Spans] | None = None, *, corpus: Corpus,
             train: TrainIndex | None = None, documents=None,
             confidences: Mapping[str, np.ndarray] | None = None, min_systems: int = 2,
             listed: int = 100, evidence: tuple = EVIDENCE) -> Suspects:
    """The gold mentions and missing mentions that look wrong, ranked (this module's
    docstring defines the evidence and the score).

    Args:
        gold: the gold mentions (flat spans of ``corpus``'s positions).
        systems: name -> each system's predicted mentions (flat spans of the same
            positions); none: only the surface forms speak.
        corpus: the tokens and sentences (without tokens, no surface-form evidence).
        train: the training data's index (``nerspan.TrainIndex``): its labels of the
            same texts count as evidence too.
        documents: the document of every sentence (integers, one per sentence), for the
            type inconsistency within a document; None: not known.
        confidences: name -> one confidence in [0, 1] per predicted mention of that
            system (in its spans' order); a system without them votes 1.
        min_systems: how many systems must predict a span gold lacks for it to be a
            candidate (at most the number of systems).
        listed: how many suspects ``to_dict`` lists (those with a score above 0).
        evidence: the parts of ``EVIDENCE`` the score sums, or one string of them
            comma-separated (default: all; the others are still listed), to see what
            each part finds.
    """
    systems = dict(systems or {})
    options = SuspectOptions(min_systems=min_systems, listed=listed, evidence=evidence)
    min_systems, listed, evidence = options.min_systems, options.listed, options.evidence
    _check_inputs(gold, systems, corpus, documents)
    shared = on_shared_types(gold, *systems.values())
    gold, predicted = shared[0], shared[1:]
    confidence = [_checked_confidence(name, (confidences or {}).get(name), pred)
                  for name, pred in zip(systems, predicted)]
    unknown = set(confidences or {}) - set(systems)
    if unknown:
        raise ValueError(f"confidences of {sorted(unknown)}: no such system ({list(systems)})")
    found = candidates(gold, predicted, confidence, min(min_systems, max(len(systems), 1)))
    own = np.where(found.kind == GOLD_MENTION, found.spans.type + 1, UNLABELLED)
    forms = None if corpus.tokens is None else surface_forms(found.spans, own, corpus, gold,
                                                             train, documents)
    counts = occurrence_evidence(forms)
    parts = {"systems": found.votes / max(len(systems), 1)}
    for part, (same, other) in (("surface", (("gold_same", "train_same"),
                                             ("gold_other", "train_other"))),
                                ("document", (("document_same",), ("document_other",)))):
        share = _share_other([counts[k] for k in same], [counts[k] for k in other])
        parts[part] = np.zeros(len(own)) if share is None else share
    score = sum((parts[part] for part in evidence), np.zeros(len(own)))
    spans = found.spans
    order = np.lexsort((spans.type, spans.end, found.kind, spans.start, spans.sentence, -score))
    return Suspects(found, tuple(systems), forms, counts, parts, score, order,
                    _agreeing_confidence(found, confidence), corpus,
                    {"min_systems": min_systems, "listed": listed, "scheme": gold.scheme,
                     "mode": gold.mode, "train": train is not None,
                     "documents": documents is not None,
                     "confidences": sorted(confidences or {}), "evidence": list(evidence)})


def _check_inputs(gold: Spans, systems: dict, corpus: Corpus, documents) -> None:
    """Every side flat, on ``corpus``'s sentences; ``documents`` one per sentence."""
    for name, spans in (("gold", gold), *systems.items()):
        if not np.array_equal(spans.offsets, corpus.offsets):
            raise ValueError(f"{name}: its spans are not of the corpus's sentences")
        check_flat(spans, name)
    if documents is not None and np.shape(documents) != (corpus.n_sentences,):
        raise ValueError(f"documents: one document number per sentence "
                         f"({corpus.n_sentences}), got shape {np.shape(documents)}")


def _checked_confidence(name: str, values, spans: Spans) -> np.ndarray | None:
    """One system's confidences as floats, one per predicted mention, in [0, 1]."""
    if values is None:
        return None
    values = np.asarray(values, dtype=float)
    if values.shape != (len(spans),):
        raise ValueError(f"confidences of {name}: one per predicted mention "
                         f"({len(spans)}), got shape {values.shape}")
    bad = ~((values >= 0) & (values <= 1))
    if bad.any():
        raise ValueError(f"confidences of {name}: {float(values[bad][0])!r} (mention "
                         f"{int(np.argmax(bad))}) is not in [0, 1]")
    return values


def _agreeing_confidence(found: Candidates, confidences: list) -> np.ndarray:
    """Per candidate the highest confidence among the agreeing systems that give
    confidences, for a reading that is a mention (NaN where none)."""
    known = np.array([c is not None for c in confidences], dtype=bool)
    chosen = found.agree & known[None, :] & (found.proposal != NOTHING)[:, None]
    best = np.where(chosen, found.weight, -np.inf).max(axis=1, initial=-np.inf)
    return np.where(np.isfinite(best), best, np.nan)


def expected_at_random(covering: np.ndarray, n_candidates: int, top: int) -> float:
    """How many of some units a uniformly random ranking of ``n_candidates`` finds in
    its first ``top`` places, in expectation, when unit ``u`` is found by any of
    ``covering[u]`` candidates: the sum over units of ``1 - C(n - c, top) / C(n, top)``.

    >>> expected_at_random(np.array([1, 1, 2, 0]), 10, 5)
    1.7777777777777777
    """
    top = min(max(int(top), 0), n_candidates)
    total = 0.0
    for c, units in zip(*np.unique(np.asarray(covering, dtype=np.int64), return_counts=True)):
        if c <= 0:
            continue
        # probability that none of the c is among the first top: prod (n-top-i)/(n-i)
        missed = np.prod([(n_candidates - top - i) / (n_candidates - i)
                          for i in range(int(c))]) if n_candidates - top >= c else 0.0
        total += int(units) * (1.0 - float(missed))
    return total


def corrections_found(found: Suspects, correction, tops=(100, 500, 1000)) -> dict:
    """How many of a gold correction's changes the suspect ranking puts in its first
    ``top`` places, against a random ranking of the same candidates.

    ``correction`` is the ``Diff`` of the suspects' gold (as A) against the corrected
    gold (B). A change is a mention of A that is not identical in B (found by that gold
    candidate) or a mention B adds (found by a missing candidate overlapping it).
    ``{"changes", "candidates", "top": {top: {"found", "share", "expected_at_random",
    "expected_share"}}}``.
    """
    spans, n_gold = found.found.spans, int((found.found.kind == GOLD_MENTION).sum())
    a = correction.a
    if len(a) != n_gold or not (np.array_equal(a.start, spans.start[:n_gold])
                                and np.array_equal(a.end, spans.end[:n_gold])):
        raise ValueError("the correction's A side is not the suspects' gold")
    changed = np.flatnonzero(correction.kind_a != KIND["identical"])
    added = np.flatnonzero(correction.kind_b == KIND["added"])
    missing = np.flatnonzero(found.found.kind == MISSING)
    i, j = overlap_pairs(spans.take(missing), correction.b.take(added))
    unit = np.concatenate([np.arange(len(changed)), len(changed) + j])
    candidate = np.concatenate([changed, missing[i]])
    n_units = len(changed) + len(added)
    best = np.full(n_units, len(found), dtype=np.int64)
    np.minimum.at(best, unit, found.rank[candidate])
    covering = np.bincount(unit, minlength=n_units)
    out = {}
    for top in tops:
        hits = int((best < top).sum())
        expected = expected_at_random(covering, len(found), top)
        out[int(top)] = {"found": hits, "share": hits / n_units if n_units else None,
                         "expected_at_random": expected,
                         "expected_share": expected / n_units if n_units else None}
    return {"changes": n_units, "candidates": len(found), "top": out}
