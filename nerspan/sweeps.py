"""Scores with a dial: the whole precision / recall / F1 curve of scored predictions
(METHODS §8).

``sweep_spans(gold, predictions)`` scores ``ScoredMentions`` (``nerspan.scored``) against
gold ``Spans``. A mention is kept at threshold t when its confidence is >= t. The exact
match of every predicted mention is computed once (``nerspan.scores.match``); the mentions
are sorted once by confidence, highest first, and every curve point is a cumulative sum
over that order (per type, the same order grouped by type, a counting sort that keeps it).

- the curve: P, R, F1 at every distinct confidence, micro and per type; recall is over
  every gold mention (those no prediction matches included);
- ``average_precision``: with the distinct confidences t_1 > ... > t_n,
  sum_n (R(t_n) - R(t_{n-1})) P(t_n), R(t_0) = 0, no interpolation;
- the best threshold: the one of the highest F1 (the highest threshold among ties),
  overall and per type;
- ``at(t)``: the full entity result at t, ``nerspan.score`` of the mentions kept;
- calibration: the expected calibration error over 10 equal-width bins and the
  reliability table, over every predicted mention.

>>> from nerspan import Corpus, decode
>>> from nerspan.scored import scored_spans
>>> gold = decode(Corpus.from_tags([["B-PER", "O", "B-LOC", "O"]]))
>>> pred = scored_spans([[(0, 1, "PER", 0.9), (2, 3, "ORG", 0.6), (3, 4, "LOC", 0.3)]])
>>> s = sweep_spans(gold, pred)
>>> s.curve.threshold.tolist(), s.curve.f1.tolist()
([0.9, 0.6, 0.3], [0.6666666666666666, 0.5, 0.4])
>>> s.average_precision, s.best_threshold
(0.5, 0.9)
>>> s.at(0.5).micro()
(0.5, 0.5, 0.5)
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property
from typing import Mapping

import numpy as np

from .errors import SentenceCountError, counted, did_you_mean, shown
from .options import check_int, check_zero_division
from .result import Result, entity_row, undefined_keys
from .scored import ScoredMentions, check_confidence
from .scores import EntityScores, entity_scores, match, prf_from_counts
from .reading.span_lists import check_within
from .spans import Spans

# Calibration: equal-width confidence bins [0, .1), [.1, .2), ..., [.9, 1] (METHODS §8).
N_BINS = 10
_BIN_EDGES = np.arange(N_BINS) / N_BINS
# Along the curve, the families score at every distinct confidence when there are at most
# this many, else at this many quantiles of the confidences (METHODS §8).
GRID_POINTS = 101


@dataclass(frozen=True)
class Curve:
    """P, R, F1 of the mentions kept at every distinct confidence, highest first.

    ``predicted`` and ``correct`` count the mentions kept at each ``threshold``;
    ``gold`` the gold mentions (the denominator of recall); ``zero_division`` the value
    of an undefined ratio (recall without gold), as ``nerspan.score`` gives it.
    """

    threshold: np.ndarray
    predicted: np.ndarray
    correct: np.ndarray
    gold: int
    zero_division: float = 0.0

    def __len__(self) -> int:
        return len(self.threshold)

    @cached_property
    def _prf(self) -> tuple:
        return prf_from_counts(self.correct, self.predicted, self.gold, self.zero_division)

    @property
    def precision(self) -> np.ndarray:
        return self._prf[0]

    @property
    def recall(self) -> np.ndarray:
        return self._prf[1]

    @property
    def f1(self) -> np.ndarray:
        return self._prf[2]

    @property
    def average_precision(self) -> float | None:
        """sum_n (R_n - R_{n-1}) P_n over the thresholds, highest first, R_0 = 0; None
        without gold mentions (recall is undefined), 0 without predictions."""
        if self.gold == 0:
            return None
        return float(np.sum(np.diff(self.recall, prepend=0.0) * self.precision))

    @cached_property
    def best(self) -> int | None:
        """The index of the highest F1, the highest threshold among ties; None without
        points. Ties are exact: F1 = 2 correct / (predicted + gold), a ratio of integers,
        whose float is the same for equal ratios."""
        if not len(self):
            return None
        return int(np.argmax(2 * self.correct / (self.predicted + self.gold)))

    def point(self, index: int | None) -> dict:
        """``threshold``, ``precision``, ``recall``, ``f1``, ``predicted``, ``correct`` of
        one point (all None for ``index`` None)."""
        keys = ("threshold", "precision", "recall", "f1", "predicted", "correct")
        if index is None:
            return dict.fromkeys(keys)
        values = (self.threshold, self.precision, self.recall, self.f1)
        return {**{key: float(column[index]) for key, column in zip(keys, values)},
                "predicted": int(self.predicted[index]), "correct": int(self.correct[index])}

    def to_dict(self) -> dict:
        """The points as columns (lists), highest threshold first."""
        return {"threshold": self.threshold.tolist(), "precision": self.precision.tolist(),
                "recall": self.recall.tolist(), "f1": self.f1.tolist(),
                "predicted": self.predicted.tolist(), "correct": self.correct.tolist()}


@dataclass(frozen=True)
class Sweep(Result):
    """Scored predictions against gold, at every threshold (``sweep_spans``).

    ``gold`` and ``predicted`` are ``Spans`` over one type vocabulary; ``predicted`` is
    sorted by ``confidence``, highest first, ``correct`` says which match a gold mention
    exactly. ``duplicates``: identical predicted mentions merged (``ScoredMentions``).
    ``operating_point``: the thresholds ``nerspan.sweep`` chose (on a dev split, or on
    this one) and this split's scores there; None from ``sweep_spans``.
    ``unplaced_type``, ``unplaced_confidence``: the predicted entities without a span
    (generated entities found nowhere, ``ScoredMentions.unplaced``; in the order of
    ``predicted.repairs.generated.ungrounded``): wrong predictions where they are kept,
    on the curve, in calibration and in ``at``.
    """

    gold: Spans
    predicted: Spans
    confidence: np.ndarray
    correct: np.ndarray
    zero_division: float = 0.0
    duplicates: int = 0
    options: dict = dataclasses.field(default_factory=dict)
    # a nerspan.operating_points.OperatingPoint (that module reads this one)
    operating_point: object = None
    unplaced_type: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros(0, dtype=np.int32))
    unplaced_confidence: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))

    @property
    def types(self) -> tuple:
        return self.gold.types

    @cached_property
    def gold_counts(self) -> np.ndarray:
        return np.bincount(self.gold.type, minlength=len(self.types))

    @cached_property
    def scored(self) -> tuple:
        """``(type, confidence, correct)`` of every predicted mention, those without a
        span (``unplaced_*``, never correct) included, highest confidence first."""
        if not len(self.unplaced_confidence):
            return self.predicted.type, self.confidence, self.correct
        confidence = np.concatenate([self.confidence, self.unplaced_confidence])
        order = np.argsort(-confidence, kind="stable")
        return (np.concatenate([self.predicted.type, self.unplaced_type])[order],
                confidence[order], np.concatenate([self.correct, np.zeros(
                    len(self.unplaced_confidence), dtype=bool)])[order])

    @cached_property
    def curve(self) -> Curve:
        """The micro curve: every type's mentions pooled."""
        _, confidence, correct = self.scored
        group = np.zeros(len(confidence), dtype=np.uint8)
        points = _curve_points(group, confidence, correct)
        return Curve(*points[1:], len(self.gold), self.zero_division)

    @cached_property
    def type_curves(self) -> dict:
        """type -> its ``Curve``, for every type of gold or predictions."""
        small = np.uint8 if len(self.types) <= 2 ** 8 else \
            np.uint16 if len(self.types) <= 2 ** 16 else np.int64
        types, confidence, correct = self.scored
        by_type = np.argsort(types.astype(small), kind="stable")
        group, threshold, predicted, correct = _curve_points(
            types[by_type], confidence[by_type], correct[by_type])
        bounds = np.searchsorted(group, np.arange(len(self.types) + 1))
        present = (self.gold_counts > 0) | (np.diff(bounds) > 0)
        return {self.types[t]: Curve(threshold[a:b], predicted[a:b], correct[a:b],
                                     int(self.gold_counts[t]), self.zero_division)
                for t, a, b in zip(range(len(self.types)), bounds[:-1], bounds[1:])
                if present[t]}

    @property
    def average_precision(self) -> float | None:
        return self.curve.average_precision

    @property
    def best_threshold(self) -> float | None:
        return self.curve.point(self.curve.best)["threshold"]

    def best_thresholds(self) -> dict:
        """type -> the threshold of its highest F1 (None for a type never predicted)."""
        return {t: curve.point(curve.best)["threshold"]
                for t, curve in self.type_curves.items()}

    def kept(self, threshold) -> np.ndarray:
        """Which predicted mentions (in ``predicted``'s order) are kept at ``threshold``:
        a number, or a mapping type -> number covering every predicted type."""
        if isinstance(threshold, Mapping):
            per_type = self._per_type_thresholds(threshold)
            return self.confidence >= per_type[self.predicted.type]
        threshold = check_confidence(threshold, "threshold")
        kept = np.zeros(len(self.confidence), dtype=bool)
        kept[:np.searchsorted(-self.confidence, -threshold, side="right")] = True
        return kept

    def _per_type_thresholds(self, thresholds: Mapping) -> np.ndarray:
        index = {t: k for k, t in enumerate(self.types)}
        out = np.full(len(self.types), np.inf)
        for name, value in thresholds.items():
            if name not in index:
                raise ValueError(f"thresholds: {shown(name)} is no entity type of gold or "
                                 f"predictions{did_you_mean(str(name), self.types)}")
            out[index[name]] = check_confidence(value, f"threshold of {name}")
        predicted = np.unique(self.scored[0])
        missing = [self.types[t] for t in predicted if np.isinf(out[t])]
        if missing:
            raise ValueError(f"thresholds give none for the predicted "
                             f"{counted(len(missing), 'type')} {', '.join(missing)}")
        return out

    def at(self, threshold) -> EntityScores:
        """The entity scores of the mentions kept at ``threshold`` (a number, or a
        mapping type -> number): ``nerspan.score`` of those mentions."""
        kept = np.flatnonzero(self.kept(threshold))
        predicted = self.predicted.take(kept)
        if len(self.unplaced_confidence):
            predicted = _with_unplaced(predicted, self.unplaced_kept(threshold))
        return entity_scores(self.gold, predicted, self.zero_division)

    def unplaced_kept(self, threshold) -> np.ndarray:
        """Which predicted entities without a span are kept at ``threshold`` (as
        ``kept``)."""
        if isinstance(threshold, Mapping):
            per_type = self._per_type_thresholds(threshold)
            return self.unplaced_confidence >= per_type[self.unplaced_type]
        return self.unplaced_confidence >= check_confidence(threshold, "threshold")

    def counts_at(self, threshold) -> tuple[int, int, int]:
        """``(correct, predicted, gold)`` mentions at ``threshold`` (as ``at``)."""
        kept = self.kept(threshold)
        unplaced = int(self.unplaced_kept(threshold).sum()) \
            if len(self.unplaced_confidence) else 0
        return int(self.correct[kept].sum()), int(kept.sum()) + unplaced, len(self.gold)

    @cached_property
    def calibration(self) -> dict:
        """``ece`` and the ``reliability`` table over every predicted mention."""
        return calibration(*self.scored[1:])

    def grid(self, points: int = GRID_POINTS) -> np.ndarray:
        """Thresholds to score along the curve, highest first: every distinct confidence
        when there are at most ``points``, else ``points`` quantiles of the confidences
        (each a confidence of some mention)."""
        points = check_int("points", points, minimum=2)
        distinct = self.curve.threshold
        if len(distinct) <= points:
            return distinct
        quantiles = np.quantile(self.scored[1], np.linspace(1, 0, points),
                                method="inverted_cdf")
        return np.unique(quantiles)[::-1]

    def subset(self, sentences: np.ndarray) -> "Sweep":
        """The sweep of the sentences whose flags ``sentences`` (bool per sentence) set."""
        gold = np.flatnonzero(sentences[self.gold.sentence])
        predicted = self.predicted.take(np.flatnonzero(sentences[self.predicted.sentence]))
        unplaced = {}
        if len(self.unplaced_confidence):
            kept = sentences[[item.sentence for item in _ungrounded(self.predicted)]]
            predicted = _with_unplaced(predicted, kept)
            unplaced = {"unplaced_type": self.unplaced_type[kept],
                        "unplaced_confidence": self.unplaced_confidence[kept]}
        flags = sentences[self.predicted.sentence]
        return dataclasses.replace(self, gold=self.gold.take(gold), predicted=predicted,
                                   confidence=self.confidence[flags],
                                   correct=self.correct[flags], operating_point=None,
                                   **unplaced)

    def same_data(self, other: "Sweep") -> bool:
        """Whether ``other`` sweeps the same gold and scored predictions."""
        if other is self:
            return True
        mine = (self.gold.start, self.gold.end, self.predicted.start, self.predicted.end,
                self.confidence, self.gold.offsets, self.unplaced_confidence)
        theirs = (other.gold.start, other.gold.end, other.predicted.start,
                  other.predicted.end, other.confidence, other.gold.offsets,
                  other.unplaced_confidence)
        return self.types == other.types and all(
            np.array_equal(a, b) for a, b in zip(mine, theirs)) and \
            np.array_equal(self.gold.type, other.gold.type) and \
            np.array_equal(self.predicted.type, other.predicted.type)

    @cached_property
    def everything(self) -> EntityScores:
        """The entity scores of every predicted mention (the confidences left out)."""
        return entity_scores(self.gold, self.predicted, self.zero_division)

    @property
    def repairs(self) -> dict:
        """``{"gold": ..., "pred": ...}`` as every result's (the predictions' with their
        ``duplicates``, as at any threshold: ``ScoredMentions.repairs``)."""
        return self.everything.repairs

    def headline(self) -> dict:
        """The scalars of ``to_dict``: the scores of every predicted mention
        (``precision``, ``recall``, ``f1``: ``nerspan.score`` ignoring the confidences,
        and the counts), ``average_precision``, the best point (``best_threshold``,
        ``best_precision``, ``best_recall``, ``best_f1``) and ``ece``."""
        everything = self.everything
        precision, recall, f1 = everything.micro()
        return {"precision": precision, "recall": recall, "f1": f1,
                "gold": everything.n_gold, "predicted": everything.n_predicted,
                "correct": everything.n_correct,
                "average_precision": self.average_precision,
                **_best_keys(self.curve), "ece": self.calibration["ece"]}

    def undefined(self) -> list:
        """The ratios that took ``zero_division`` (as ``nerspan.score`` lists them),
        then the scalars that are undefined (None)."""
        return undefined_keys(self.headline(), self.everything.undefined())

    def plain_dict(self) -> dict:
        """Plain JSON (the result contract): ``headline()``, then ``curve`` (columns),
        ``reliability``, ``per_type`` (per type: its entity row of every predicted
        mention, ``average_precision``, the best point and its ``curve``),
        ``operating_point`` when one was chosen (``OperatingPoint.to_dict``),
        ``undefined``, ``options`` and ``repairs``."""
        zero_division = self.zero_division
        per_type = {}
        for name, curve in self.type_curves.items():
            last = len(curve) - 1
            row = entity_row(curve.correct[last] if len(curve) else 0,
                             curve.predicted[last] if len(curve) else 0, curve.gold,
                             zero_division)
            per_type[name] = {**row, "average_precision": curve.average_precision,
                              **_best_keys(curve), "curve": curve.to_dict()}
        chosen = {} if self.operating_point is None else \
            {"operating_point": self.operating_point.to_dict()}
        return {**self.headline(), "curve": self.curve.to_dict(),
                "reliability": self.calibration["reliability"], "per_type": per_type,
                **chosen, "undefined": self.undefined(),
                "options": {**self.everything.options, "zero_division": zero_division,
                            **self.options},
                "repairs": self.repairs}


def _ungrounded(spans: Spans) -> tuple:
    """The ungrounded entities the spans' repairs list (generated output), or none."""
    generated = spans.repairs.generated if spans.repairs is not None else None
    return () if generated is None else generated.ungrounded


def _with_unplaced(spans: Spans, kept: np.ndarray) -> Spans:
    """``spans`` whose repairs list, of their ungrounded entities, those ``kept`` flags:
    the false positives ``entity_scores`` adds (``Repairs.unplaced``)."""
    listed = _ungrounded(spans)
    generated = spans.repairs.generated.replace(
        ungrounded=tuple(item for item, keep in zip(listed, kept.tolist()) if keep))
    return dataclasses.replace(spans, repairs=dataclasses.replace(spans.repairs,
                                                                  generated=generated))


def _best_keys(curve: Curve) -> dict:
    best = curve.point(curve.best)
    return {f"best_{key}": best[key] for key in ("threshold", "precision", "recall", "f1")}


def _curve_points(group: np.ndarray, confidence: np.ndarray, correct: np.ndarray
                  ) -> tuple:
    """``(group, threshold, predicted, correct)`` per curve point, from mentions sorted by
    group, then by confidence, highest first: a point ends each run of equal confidence
    within a group; its counts are the group's cumulative sums there."""
    n = len(confidence)
    if not n:
        empty = np.zeros(0, dtype=np.int64)
        return group[:0], confidence[:0], empty, empty.copy()
    new_group = np.ones(n, dtype=bool)
    new_group[1:] = group[1:] != group[:-1]
    ends = np.flatnonzero(np.append(new_group[1:] | (confidence[1:] != confidence[:-1]),
                                    True))
    group_starts = np.flatnonzero(new_group)
    first = group_starts[np.searchsorted(group_starts, ends, side="right") - 1]
    cumulative = np.concatenate([[0], np.cumsum(correct, dtype=np.int64)])
    return (group[ends], confidence[ends], ends - first + 1,
            cumulative[ends + 1] - cumulative[first])


def calibration(confidence: np.ndarray, correct: np.ndarray) -> dict:
    """``ece``: sum over the bins of |B|/N |share correct in B - mean confidence in B|
    (None without mentions); ``reliability``: per bin ``lower``, ``upper``, ``count``,
    ``mean_confidence`` and ``share_correct`` (None in an empty bin).

    >>> # bin .9: 2 mentions, 1 correct, mean .925; bin .1: 1 wrong, .15: 2/3 .425 + 1/3 .15
    >>> calibration(np.array([0.95, 0.9, 0.15]), np.array([True, False, False]))["ece"]
    0.3333333333333333
    """
    bins = np.searchsorted(_BIN_EDGES, confidence, side="right") - 1
    count = np.bincount(bins, minlength=N_BINS)
    confidence_sum = np.bincount(bins, weights=confidence, minlength=N_BINS)
    correct_sum = np.bincount(bins, weights=correct.astype(np.float64), minlength=N_BINS)
    filled = count > 0
    mean_confidence = np.divide(confidence_sum, count, where=filled,
                                out=np.zeros(N_BINS))
    share_correct = np.divide(correct_sum, count, where=filled, out=np.zeros(N_BINS))
    ece = float(np.sum(count / len(confidence) * np.abs(share_correct - mean_confidence))
                ) if len(confidence) else None
    rows = [{"lower": k / N_BINS, "upper": (k + 1) / N_BINS, "count": int(count[k]),
             "mean_confidence": float(mean_confidence[k]) if filled[k] else None,
             "share_correct": float(share_correct[k]) if filled[k] else None}
            for k in range(N_BINS)]
    return {"ece": ece, "reliability": rows}


def sweep_spans(gold: Spans, predictions: ScoredMentions, *,
                zero_division: float = 0.0) -> Sweep:
    """The sweep of scored ``predictions`` against ``gold`` (decoded, non-overlapping
    ``Spans`` of a corpus of the same sentences).

    ``zero_division``: the value of an undefined ratio, as ``nerspan.score``'s.
    """
    zero_division = check_zero_division(zero_division)
    lengths = np.diff(gold.offsets)
    _check_in_sentences(predictions, lengths)
    types = tuple(sorted(set(gold.types) | set(predictions.types)))
    index = {t: k for k, t in enumerate(types)}
    to_union = lambda own: np.array([index[t] for t in own], dtype=np.int32)  # noqa: E731
    gold = dataclasses.replace(gold, type=to_union(gold.types)[gold.type], types=types)
    base = gold.offsets[predictions.sentence]
    predicted = Spans(base + predictions.start, base + predictions.end, gold.offsets,
                      to_union(predictions.types)[predictions.type], types,
                      predictions.repairs, gold.scheme, gold.mode)
    _, correct = match(gold, predicted)
    # the one sort; the order of equal confidences is free: a point ends their run
    order = np.argsort(-predictions.confidence)
    unplaced = [item.type for item in _ungrounded(predicted)]
    return Sweep(gold, predicted.take(order), predictions.confidence[order], correct[order],
                 zero_division, predictions.duplicates, dict(predictions.options),
                 unplaced_type=np.array([index[t] for t in unplaced], dtype=np.int32),
                 unplaced_confidence=np.asarray(predictions.unplaced, dtype=np.float64))


def _check_in_sentences(predictions: ScoredMentions, lengths: np.ndarray) -> None:
    """Every predicted mention lies in a sentence of gold."""
    if predictions.n_sentences != len(lengths):
        raise SentenceCountError(f"predictions hold "
                                 f"{counted(predictions.n_sentences, 'sentence')}, "
                                 f"references {len(lengths)}")
    check_within(predictions.sentence, predictions.start, predictions.end,
                 lambda k: predictions.types[predictions.type[k]], lengths, "predictions")


__all__ = ["Sweep", "Curve", "sweep_spans", "calibration", "N_BINS", "GRID_POINTS"]
