"""Scored mentions: predicted mentions with a confidence each (METHODS §8).

The forms users have, each read into one ``ScoredMentions`` table:

- span lists whose items carry a score (``scored_spans``): a ``transformers``
  token-classification pipeline's output as it comes (grouped, ``entity_group`` and
  ``score``; or one dict per sub-token, ``entity`` and ``score``), GLiNER's
  ``{"start", "end", "text", "label", "score"}`` (character offsets:
  ``offsets="chars"``), span dicts ``{"label", "start", "end", "score"}`` and tuples
  ``(start, end, label, score)`` or ``(label, start, end, score)``. The spans are read by
  ``nerspan.reading.span_lists.read_spans`` (token or character offsets, ``snap``, ``tokens``,
  ``texts``, as for any span input); the scores are carried alongside. Per-sub-token
  pipeline output becomes word tags there (each word the tag of the sub-token starting
  it); a mention's confidence is then the minimum (``aggregate="mean"``: the mean) of
  its words' scores, the scores of those sub-tokens.
- token probabilities (``scored_tokens``): per token, a probability (or a logit) for
  every label, as a ``Trainer`` gives them with label ids (-100 positions dropped, as
  everywhere), or as a CRF's marginals. The predicted tags (the argmax, unless given)
  are decoded into mentions; a mention's confidence is the minimum over its tokens of
  the probability of the predicted tag (``aggregate="mean"``: their mean).

Two identical mentions (sentence, start, end, type) keep the higher confidence; the others
are counted (``duplicates``, and in ``repairs``: the sweep's, and the result's at a
threshold). A confidence is a number in [0, 1]: anything else is an error
naming the sentence, the span and the value.

>>> m = scored_spans([[(0, 2, "PER", 0.9), (0, 2, "PER", 0.4)], [(1, 2, "LOC", 0.7)]])
>>> m.to_lists()[0], m.duplicates
([{'start': 0, 'end': 2, 'label': 'PER', 'score': 0.9}], 1)
"""
from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass, field
from itertools import chain, islice
from operator import itemgetter
from typing import Mapping

import numpy as np

from .corpus import Corpus
from .errors import (InputTypeError, LabelIdError, LengthMismatchError, NerspanError,
                     SentenceCountError, counted, shown)
from .flat import IGNORE_INDEX, PRED, _offsets, as_label_list
from .options import check_choice, check_confidence
from .reading.span_lists import _Texts, check_within, read_spans
from .records import InputOptions
from .spans import Repairs, Spans, decode

# How a mention's confidence comes from its tokens' (or words') probabilities.
AGGREGATES = ("min", "mean")
# Probabilities of one token sum to 1 within this (float32 softmax, a CRF's marginals).
_SUMS_TO_ONE = 1e-3


@dataclass(frozen=True)
class ScoredMentions:
    """Predicted mentions with a confidence each, sorted by sentence, start, end, type.

    ``start``/``end`` are token offsets within the sentence (``end`` exclusive);
    ``type`` indexes ``types``; ``confidence`` is in [0, 1]; ``n_sentences`` is how many
    sentences the input held (mentions or not). ``duplicates`` counts the identical
    mentions dropped (each kept one holds the highest confidence of its copies);
    ``repairs`` what reading the spans repaired (``snapped``, ``invalid_transitions``,
    ``duplicates``; of generated output, ``generated``: what reading and grounding did),
    and ``changed`` the sentence of each change of the kinds of
    ``nerspan.corpus.CHANGE_KINDS`` among them (``snapped``, ``duplicates``), which the
    column of the mentions kept at a threshold carries (``Source``);
    ``options`` how the confidences were made (``aggregate``). ``unplaced``: the
    confidences of the predicted entities that have no span (generated entities found
    nowhere in their sentence: ``repairs.generated.ungrounded``, in its order), each a
    wrong prediction where it is kept (``nerspan.generative.scored_output``).
    """

    sentence: np.ndarray
    start: np.ndarray
    end: np.ndarray
    type: np.ndarray
    confidence: np.ndarray
    types: tuple
    n_sentences: int
    duplicates: int = 0
    repairs: Repairs = field(default_factory=Repairs)
    options: dict = field(default_factory=dict)
    unplaced: np.ndarray = field(default_factory=lambda: np.zeros(0))
    changed: Mapping = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.start)

    @classmethod
    def build(cls, sentence, start, end, type_ids, types: tuple, confidence,
              n_sentences: int, *, repairs: Repairs | None = None,
              options: dict | None = None, unplaced=(), changed: Mapping | None = None
              ) -> "ScoredMentions":
        """The table of parallel arrays (any order), identical mentions merged into the
        one with the highest confidence and counted, in ``repairs`` too (``unplaced``,
        ``changed``: the class docstring)."""
        columns = [np.asarray(x, dtype=np.int64) for x in (sentence, start, end, type_ids)]
        confidence = np.asarray(confidence, dtype=np.float64)
        order = _position_order(*columns, n_sentences, len(types))
        columns = [x[order] for x in columns]
        confidence = confidence[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = np.logical_or.reduce([x[1:] != x[:-1] for x in columns])
        starts = np.flatnonzero(first)
        dropped = columns[0][~first]  # the sentence of each identical mention dropped
        if len(starts) < len(order):
            confidence = np.maximum.reduceat(confidence, starts)
            columns = [x[starts] for x in columns]
        sentence, start, end, type_ids = columns
        repairs = repairs or Repairs()
        if len(dropped):
            repairs = dataclasses.replace(
                repairs, duplicates=repairs.duplicates + len(dropped),
                sentences=tuple(sorted({*repairs.sentences, *dropped.tolist()}))[:20])
        changed = {**(changed or {}), "duplicates": dropped}
        return cls(sentence, start, end, type_ids.astype(np.int32), confidence, tuple(types),
                   int(n_sentences), len(dropped), repairs, dict(options or {}),
                   np.asarray(unplaced, dtype=np.float64), changed)

    def processed(self, processing) -> "ScoredMentions":
        """The mentions a ``nerspan.type_processing.TypeProcessing`` keeps (None: all),
        retyped, counted in ``repairs`` (``types_mapped``, ``types_removed``) as
        decoding counts them; entities without a span are processed alike (a removed
        type's hallucination is no wrong prediction of it)."""
        if processing is None:
            return self
        generated = self.repairs.generated
        listed = () if generated is None else generated.ungrounded
        targets = [processing.target(name) for name in self.types]
        unplaced = [processing.target(item.type) for item in listed]
        types = tuple(sorted({t for t in (*targets, *unplaced) if t is not None}))
        index = {name: k for k, name in enumerate(types)}
        remap = np.array([index.get(t, -1) for t in targets] or [-1], dtype=np.int64)
        changed = np.array([t != name for t, name in zip(targets, self.types)] or [False])
        new_type = remap[self.type] if len(self) else np.zeros(0, dtype=np.int64)
        keep = new_type >= 0
        kept_unplaced = [t is not None for t in unplaced]
        repairs = dataclasses.replace(
            self.repairs, types_mapped=self.repairs.types_mapped + int(
                (changed[self.type] & keep).sum() if len(self) else 0) + sum(
                t is not None and t != item.type for t, item in zip(unplaced, listed)),
            types_removed=self.repairs.types_removed + int((~keep).sum())
            + kept_unplaced.count(False))
        if generated is not None:
            repairs = dataclasses.replace(repairs, generated=generated.replace(ungrounded=tuple(
                item._replace(type=t) for item, t in zip(listed, unplaced) if t is not None)))
        return dataclasses.replace(
            self, sentence=self.sentence[keep], start=self.start[keep], end=self.end[keep],
            type=new_type[keep].astype(np.int32), confidence=self.confidence[keep],
            types=types, repairs=repairs,
            unplaced=self.unplaced[np.array(kept_unplaced, dtype=bool)] if listed
            else self.unplaced)

    def kept_at(self, threshold: float) -> "ScoredMentions":
        """The mentions of confidence >= ``threshold`` (checked), and the entities
        without a span so kept (their listing in ``repairs.generated`` too)."""
        threshold = check_confidence(threshold, "threshold")
        keep = self.confidence >= threshold
        unplaced = self.unplaced >= threshold
        repairs = self.repairs
        if repairs.generated is not None:
            listed = repairs.generated.ungrounded
            repairs = dataclasses.replace(repairs, generated=repairs.generated.replace(
                ungrounded=tuple(item for item, kept in zip(listed, unplaced.tolist())
                                 if kept)))
        return dataclasses.replace(
            self, sentence=self.sentence[keep], start=self.start[keep], end=self.end[keep],
            type=self.type[keep], confidence=self.confidence[keep], repairs=repairs,
            unplaced=self.unplaced[unplaced])

    def flat_spans(self, offsets) -> Spans:
        """The mentions as flat ``Spans`` of a corpus whose sentences start at ``offsets``
        (``Corpus.offsets``), one per mention in this order (by position): for the readers
        of flat spans, as ``nerspan.audit.suspects``, whose ``confidences`` of them are
        ``self.confidence``.

        >>> m = scored_spans([[(0, 2, "PER", 0.9)], [(1, 2, "LOC", 0.7)]])
        >>> spans = m.flat_spans([0, 3, 5])   # sentences of 3 and 2 tokens
        >>> spans.start.tolist(), spans.end.tolist(), spans.sentence.tolist()
        ([0, 4], [2, 5], [0, 1])
        """
        offsets = np.asarray(offsets, dtype=np.int64)
        base = offsets[self.sentence]
        return Spans(base + self.start, base + self.end, offsets, self.type, self.types)

    def to_spans(self) -> list[list[tuple]]:
        """Per sentence, ``(start, end, type)`` of its mentions (token offsets)."""
        out = [[] for _ in range(self.n_sentences)]
        for s, a, b, t in zip(self.sentence.tolist(), self.start.tolist(), self.end.tolist(),
                              self.type.tolist()):
            out[s].append((a, b, self.types[t]))
        return out

    def to_lists(self) -> list[list[dict]]:
        """Per sentence, ``{"start", "end", "label", "score"}`` dicts (token offsets)."""
        out = [[] for _ in range(self.n_sentences)]
        for s, a, b, t, c in zip(self.sentence.tolist(), self.start.tolist(),
                                 self.end.tolist(), self.type.tolist(),
                                 self.confidence.tolist()):
            out[s].append({"start": a, "end": b, "label": self.types[t], "score": c})
        return out


def check_fits(mentions: ScoredMentions, corpus: Corpus, side: str) -> None:
    """The scored mentions hold gold's sentences, each mention within its sentence."""
    if mentions.n_sentences != corpus.n_sentences:
        raise SentenceCountError(f"{side} holds {counted(mentions.n_sentences, 'sentence')}, "
                                 f"gold {corpus.n_sentences}")
    check_within(mentions.sentence, mentions.start, mentions.end,
                 lambda k: mentions.types[mentions.type[k]], np.diff(corpus.offsets), side)


def _position_order(sentence, start, end, type_ids, n_sentences: int, n_types: int
                    ) -> np.ndarray:
    """The order of the mentions by (sentence, start, end, type): one stable sort of one
    key when the four fit in 63 bits (input in that order already costs one pass)."""
    if not len(start):
        return np.zeros(0, dtype=np.int64)
    width = int(end.max()) + 1
    if n_sentences * width * width * max(n_types, 1) < 2 ** 62:
        key = ((sentence * width + start) * width + end) * max(n_types, 1) + type_ids
        return np.argsort(key, kind="stable")
    return np.lexsort((type_ids, end, start, sentence))


def scored_spans(sentences, name: str = "predictions", *, tokens=None, inputs=None,
                 aggregate: str = "min") -> ScoredMentions:
    """The scored mentions of span lists whose items carry a score (module docstring).

    Args:
        sentences: per sentence (or document), a list of scored spans.
        name: which side, for error messages.
        tokens: the words of each sentence.
        inputs: how the spans are read, as every span input (``nerspan.InputOptions`` or a
            dict: ``texts``, ``offsets``, ``inclusive_end``, ``snap``; GLiNER and
            pipelines count characters).
        aggregate: per-sub-token pipeline output only: a mention's confidence is the
            minimum (``"min"``) or the mean (``"mean"``) of its words' scores.

    >>> gliner = [[{"start": 4, "end": 9, "text": "Paris", "label": "LOC", "score": 0.8}]]
    >>> scored_spans(gliner, inputs={"texts": ["See Paris"], "offsets": "chars"}).to_lists()
    [[{'start': 1, 'end': 2, 'label': 'LOC', 'score': 0.8}]]
    """
    check_choice("aggregate", aggregate, AGGREGATES)
    inputs = InputOptions.of(inputs, tokens=tokens)
    tokens, texts = inputs.tokens, inputs.texts
    if sentences is None or isinstance(sentences, (str, bytes)) \
            or not hasattr(sentences, "__iter__"):
        read_spans(sentences, name)  # names what is wrong with it
    sentences = list(sentences)
    spans, scores, subtokens = _split_scores(sentences, name)
    read, snapped = read_spans(spans, name, inputs=inputs)
    read.check_contiguous(name, "a dial over scored predictions keeps one span per mention")
    sentence, start, end = read.sentence, read.start - read.base, read.end - read.base
    confidence = np.empty(len(read), dtype=np.float64)
    by_words = np.isin(sentence, list(subtokens))
    if int((~by_words).sum()) != len(scores):   # a span of several labels: one score
        raise NerspanError("a span with several labels ('labels') has one score: give "
                           "each label its own span and score", side=name)
    confidence[~by_words] = scores
    if subtokens:
        text_of = _Texts(tokens, texts, len(sentences), name)
        confidence[by_words] = [
            _word_confidence(subtokens[s], text_of(s)[1], a, b, aggregate)
            for s, a, b in zip(sentence[by_words].tolist(), start[by_words].tolist(),
                               end[by_words].tolist())]
    return ScoredMentions.build(sentence, start, end, read.type, read.types, confidence,
                                len(sentences), repairs=read.repairs,
                                options={"aggregate": aggregate} if subtokens else {},
                                changed={"snapped": snapped})


def _split_scores(sentences: list, name: str) -> tuple[list, np.ndarray, dict]:
    """``(spans, scores, subtokens)``: the spans without their scores, per sentence; the
    confidences of the spans in list order; per sentence of per-sub-token pipeline
    output, its ``(start character, tag, score)`` (its spans are read as word tags)."""
    if not all(isinstance(items, list) for items in sentences):
        sentences = [items if isinstance(items, (list, str, bytes, Mapping))
                     or not hasattr(items, "__iter__") else list(items)
                     for items in sentences]
        if not all(isinstance(items, list) for items in sentences):
            return sentences, np.zeros(0), {}  # not sentences: reading the spans names it
    sizes = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    flat = list(chain.from_iterable(sentences))
    kinds = set(map(type, flat))
    if kinds <= {tuple, list} and set(map(len, flat)) <= {4}:  # (start, end, label, score)
        stripped = map(itemgetter(0, 1, 2), flat)
        spans = [list(islice(stripped, n)) for n in sizes.tolist()]
        scores = list(map(itemgetter(3), flat))
    else:
        spans, scores = [], []
        for i, items in enumerate(sentences):
            split = [_split_item(item, name, i, k) for k, item in enumerate(items)]
            spans.append([span for span, _ in split])
            scores.extend(score for _, score in split)
    confidence = _confidences(scores, flat, sizes, name)
    subtokens, by_words = {}, np.zeros(len(flat), dtype=bool)
    starts = _offsets(sizes)
    for i, items in enumerate(sentences if kinds - {tuple, list} else ()):
        if items and isinstance(items[0], Mapping) and items[0].get("entity") is not None \
                and items[0].get("entity_group") is None:
            found = confidence[starts[i]:starts[i + 1]].tolist()
            subtokens[i] = [(item.get("start"), item.get("entity"), score)
                            for item, score in zip(items, found)]
            by_words[starts[i]:starts[i + 1]] = True
    return spans, confidence[~by_words], subtokens


def _split_item(item, name: str, sentence: int, position: int) -> tuple:
    """``(span, score)`` of one scored item: a dict as it is, a tuple without its score."""
    if isinstance(item, Mapping):
        if item.get("score") is None:
            raise NerspanError(f"span {position} {shown(dict(item))} has no score: scored "
                               "predictions need a confidence per span ('score')",
                               side=name, sentence=sentence)
        return item, item["score"]
    if isinstance(item, (tuple, list)) and len(item) == 4:
        return tuple(item[:3]), item[3]
    if isinstance(item, (tuple, list)) and len(item) == 3:
        raise NerspanError(f"span {position} {shown(item)} has no score: scored "
                           "predictions are (start, end, label, score) or dicts with "
                           "'score'", side=name, sentence=sentence)
    return item, 0.0  # not a span: reading the spans names what it is


def _confidences(scores: list, items: list, sizes: np.ndarray, name: str) -> np.ndarray:
    """The scores as confidences, checked at once; the first that is no number in
    [0, 1] is an error naming its sentence, span and value."""
    kinds = set(map(type, scores))
    if all(issubclass(kind, numbers.Real) and not issubclass(kind, (bool, np.bool_))
           for kind in kinds):
        confidence = np.array(scores, dtype=np.float64)
        bad = np.flatnonzero(~((confidence >= 0) & (confidence <= 1)))
    else:
        confidence = None
        bad = [k for k, score in enumerate(scores)
               if isinstance(score, (bool, np.bool_)) or not isinstance(score, numbers.Real)
               or not 0 <= score <= 1]
    if len(bad):
        k = int(bad[0])
        sentence = int(np.searchsorted(np.cumsum(sizes), k, side="right"))
        position = k - int(sizes[:sentence].sum())
        where = f"span {position} {shown(items[k])}"
        try:
            check_confidence(scores[k], where)
        except InputTypeError as error:
            raise InputTypeError(str(error), side=name, sentence=sentence) from None
        except ValueError as error:
            raise NerspanError(str(error), side=name, sentence=sentence) from None
    return confidence


def _word_confidence(subtokens: list, word_starts: np.ndarray, start: int, end: int,
                     aggregate: str) -> float:
    """A mention's confidence from per-sub-token output: its words' scores, each the
    score of the sub-token whose tag the word takes (the first starting it that is not
    ``O``, as ``span_input`` reads such output), aggregated."""
    first = {}
    for character, tag, score in subtokens:
        if tag != "O":
            first.setdefault(character, score)
    scores = [first[int(c)] for c in word_starts[start:end]]
    return float(min(scores) if aggregate == "min" else np.mean(scores))


def scored_tokens(probabilities, label_list, *, label_ids=None, predicted=None,
                  logits: bool | None = None, aggregate: str = "min", scheme: str = "IOB2",
                  mode: str = "lenient") -> ScoredMentions:
    """The scored mentions of token probabilities (or logits) over the labels.

    Args:
        probabilities: a 3-D array (sentences x positions x labels), as a ``Trainer``'s
            predictions, or a list of 2-D arrays (positions x labels), one per sentence
            (a CRF's marginals).
        label_list: the labels in id order (a list, or an ``id2label`` dict).
        label_ids: the reference ids of the same positions (padded 2-D or ragged); the
            positions where they are -100 are dropped, as everywhere. None: every
            position is a token.
        predicted: the predicted label id of every position (a CRF's Viterbi path);
            None: the most probable label.
        logits: whether ``probabilities`` are logits (softmax is applied). None: they
            are probabilities when every kept position's values lie in [0, 1] and sum
            to 1, else logits.
        aggregate: a mention's confidence is the minimum (``"min"``) or the mean
            (``"mean"``) of its tokens' probabilities of their predicted tags.
        scheme, mode: how the predicted tags are decoded (``nerspan.decode``).

    >>> probs = np.array([[[0.1, 0.9, 0.0], [0.3, 0.1, 0.6], [0.8, 0.1, 0.1]]])
    >>> scored_tokens(probs, ["O", "B-PER", "I-PER"]).to_lists()
    [[{'start': 0, 'end': 2, 'label': 'PER', 'score': 0.6}]]
    """
    labels = as_label_list(label_list)
    check_choice("aggregate", aggregate, AGGREGATES)
    rows, lengths, where = _kept_rows(probabilities, label_ids, len(labels))
    token_probabilities = _as_probabilities(rows, where, logits)
    if predicted is None:  # of the values given: softmax may round two logits to a tie
        ids = rows.argmax(axis=1)
    else:
        ids = _kept_predicted(predicted, label_ids, where, len(labels))
    confidence = token_probabilities[np.arange(len(ids)), ids]
    corpus = Corpus(_offsets(lengths), {PRED: ids.astype(np.int32)}, labels)
    spans = decode(corpus, PRED, scheme, mode)
    mention_confidence = _segments(confidence, spans.start, spans.end, aggregate)
    sentence = spans.sentence
    base = corpus.offsets[sentence]
    return ScoredMentions.build(sentence, spans.start - base, spans.end - base, spans.type,
                                spans.types, mention_confidence, corpus.n_sentences,
                                repairs=spans.repairs,
                                options={"aggregate": aggregate})


@dataclass(frozen=True)
class _Where:
    """Where each kept row was: its sentence and position (before -100 positions were
    dropped), to name it in errors."""

    sentence: np.ndarray
    position: np.ndarray

    def error(self, cls, problem: str, row: int) -> NerspanError:
        return cls(problem, side="predictions", sentence=int(self.sentence[row]),
                   position=int(self.position[row]))


def _kept_rows(probabilities, label_ids, n_labels: int) -> tuple:
    """``(rows, kept lengths, where)``: one row of ``n_labels`` values per kept token."""
    blocks = _sentence_blocks(probabilities, "probabilities", ndim=2)
    for i, block in enumerate(blocks):
        if block.shape[-1] != n_labels:
            raise InputTypeError(f"probabilities over {block.shape[-1]} labels, but "
                                 f"label_list has {n_labels}: is it the model's id2label?",
                                 side="predictions", sentence=i)
    lengths = np.array([len(block) for block in blocks], dtype=np.int64)
    rows = np.concatenate(blocks).reshape(-1, n_labels) if blocks else \
        np.zeros((0, n_labels))
    sentence = np.repeat(np.arange(len(blocks)), lengths)
    position = np.arange(len(rows)) - _offsets(lengths)[:-1][sentence]
    if label_ids is None:
        return rows, lengths, _Where(sentence, position)
    references = _sentence_blocks(label_ids, "label_ids", ndim=1)
    reference_lengths = np.array([len(r) for r in references], dtype=np.int64)
    if len(references) != len(blocks) or (reference_lengths != lengths).any():
        raise LengthMismatchError(f"label_ids have {len(references)} sentences of "
                                  f"{reference_lengths[:5].tolist()}... positions, "
                                  f"probabilities {len(blocks)} of {lengths[:5].tolist()}...: "
                                  "one row of probabilities is needed per label position")
    keep = np.concatenate(references) != IGNORE_INDEX if references else np.zeros(0, bool)
    kept_lengths = np.bincount(sentence[keep], minlength=len(blocks))
    return rows[keep], kept_lengths, _Where(sentence[keep], position[keep])


def _sentence_blocks(value, name: str, ndim: int) -> list:
    """A padded array (one more dimension than a sentence's) or a list per sentence, as
    a list of per-sentence arrays of ``ndim`` dimensions."""
    if value is None or isinstance(value, (str, bytes, Mapping)):
        raise InputTypeError(f"{name} must be an array or a list per sentence, not "
                             f"{shown(value)}")
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray) and value.ndim == ndim + 1:
        return list(value)
    blocks = [np.asarray(block) for block in value]
    for i, block in enumerate(blocks):
        if block.ndim != ndim or (block.dtype.kind not in "fiu" and block.size):
            raise InputTypeError(f"{name} of a sentence must be a {ndim}-D array of "
                                 f"numbers, not {shown(block)}", sentence=i)
    return blocks


def _as_probabilities(rows: np.ndarray, where: _Where, logits: bool | None) -> np.ndarray:
    """Per kept token, the probability of every label (softmax of logits)."""
    rows = rows.astype(np.float64)
    finite = np.isfinite(rows).all(axis=1)
    if not finite.all():
        row = int(np.flatnonzero(~finite)[0])
        raise where.error(LabelIdError, f"probabilities {shown(rows[row].tolist())} are "
                          "not all numbers", row)
    in_range = ((rows >= 0) & (rows <= 1)).all(axis=1)
    if logits is None:
        logits = not (in_range.all() and
                      np.allclose(rows.sum(axis=1), 1.0, rtol=0, atol=_SUMS_TO_ONE))
    if logits:
        shifted = np.exp(rows - rows.max(axis=1, keepdims=True))
        return shifted / shifted.sum(axis=1, keepdims=True)
    if not in_range.all():
        row = int(np.flatnonzero(~in_range)[0])
        raise where.error(NerspanError, f"probabilities {shown(rows[row].tolist())} are "
                          "not all in [0, 1] (logits=True reads logits)", row)
    return rows


def _kept_predicted(predicted, label_ids, where: _Where, n_labels: int) -> np.ndarray:
    """The given predicted ids of the kept positions, each a label id."""
    blocks = _sentence_blocks(predicted, "predicted", ndim=1)
    flat = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.int64)
    lengths = np.array([len(b) for b in blocks], dtype=np.int64)
    starts = _offsets(lengths)[:-1]
    if len(blocks) <= int(where.sentence.max(initial=-1)) or \
            (where.position >= lengths[where.sentence]).any():
        raise LengthMismatchError("predicted has fewer positions than probabilities: one "
                                  "predicted id is needed per position")
    ids = flat[starts[where.sentence] + where.position]
    if ids.dtype.kind not in "iu":
        raise InputTypeError("predicted must hold label ids (integers)", side="predictions")
    outside = (ids < 0) | (ids >= n_labels)
    if outside.any():
        row = int(np.flatnonzero(outside)[0])
        raise where.error(LabelIdError, f"predicted id {int(ids[row])} is outside the "
                          f"label list (0..{n_labels - 1})", row)
    return ids.astype(np.int64)


def _segments(values: np.ndarray, starts: np.ndarray, ends: np.ndarray,
              aggregate: str) -> np.ndarray:
    """The minimum or the mean of ``values[start:end]`` for every segment."""
    if not len(starts):
        return np.zeros(0, dtype=np.float64)
    bounds = np.stack([starts, ends], axis=1).ravel()
    padded = np.append(values, 0.0)  # an end may be the last position
    if aggregate == "min":
        return np.minimum.reduceat(padded, bounds)[::2]
    return np.add.reduceat(padded, bounds)[::2] / (ends - starts)


__all__ = ["ScoredMentions", "scored_spans", "scored_tokens", "check_confidence", "check_fits",
           "AGGREGATES"]
