"""Operating points: thresholds chosen on one split and applied to another (METHODS §8).

``operating_point(dev, test)`` chooses the threshold of the highest F1 on the ``dev``
sweep (``per_type=True``: one per entity type) and scores the ``test`` sweep there.
Choosing on the split that is scored inflates its F1: when ``dev`` is ``test`` (the same
gold and scored predictions), ``chosen_on_scored`` says so and ``inflation`` estimates by
how much, as the F1 at the thresholds chosen on the split itself minus the F1 at
thresholds chosen elsewhere, here on the other half of its sentences (2-fold
cross-fitting: thresholds chosen on the first half score the second, and the other way
round; the counts of both halves pooled). With a real dev split, ``inflation`` is what
choosing on the scored split would have added.

>>> from nerspan import Corpus, decode
>>> from nerspan.scored import scored_spans
>>> from nerspan.sweeps import sweep_spans
>>> gold = decode(Corpus.from_tags([["B-PER", "O", "B-LOC", "O"]]))
>>> pred = scored_spans([[(0, 1, "PER", 0.9), (2, 3, "LOC", 0.6), (3, 4, "LOC", 0.7)]])
>>> test = sweep_spans(gold, pred)
>>> point = operating_point(test, test)
>>> point.threshold, point.chosen_on_scored, point.scores.micro()[2]
(0.6, True, 0.8)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .options import check_bool
from .result import Result, undefined_keys
from .scores import EntityScores, prf_from_counts
from .sweeps import Sweep


@dataclass(frozen=True)
class OperatingPoint(Result):
    """The scores of the test split at thresholds chosen on the dev split.

    ``threshold``: the one threshold (None with ``per_type``); ``thresholds``: the
    threshold applied to each type of the test split (per type: the dev split's, or the
    overall one for the ``fallback_types`` it never predicted). ``dev_f1``: the dev
    split's F1 there; ``f1_chosen_on_scored``: the test split's F1 at thresholds chosen
    on itself; ``f1_chosen_elsewhere``: its F1 at thresholds chosen on the dev split, or,
    when that is the test split itself, on the other half of its sentences.
    """

    scores: EntityScores
    threshold: float | None
    thresholds: dict
    fallback_types: tuple
    chosen_on_scored: bool
    dev_f1: float
    f1_chosen_on_scored: float
    f1_chosen_elsewhere: float
    per_type: bool = False

    @property
    def inflation(self) -> float:
        """What choosing on the scored split adds to its F1 (module docstring)."""
        return self.f1_chosen_on_scored - self.f1_chosen_elsewhere

    @property
    def options(self) -> dict:
        return {**self.scores.options, "zero_division": self.scores.zero_division,
                "per_type": self.per_type}

    @property
    def repairs(self) -> dict:
        return self.scores.repairs

    def undefined(self) -> list:
        return self.to_dict()["undefined"]

    def plain_dict(self) -> dict:
        """Plain JSON: the test split's entity scores at the chosen thresholds
        (``nerspan.score``'s keys), then ``threshold`` (None with ``per_type``),
        ``thresholds``, ``fallback_types``, ``chosen_on_scored``, ``dev_f1``,
        ``f1_chosen_on_scored``, ``f1_chosen_elsewhere`` and ``inflation``;
        ``options`` adds ``per_type``."""
        out = self.scores.to_dict()
        tail = {key: out.pop(key) for key in ("undefined", "options", "repairs")}
        out.update({"threshold": self.threshold, "thresholds": dict(self.thresholds),
                    "fallback_types": list(self.fallback_types),
                    "chosen_on_scored": self.chosen_on_scored, "dev_f1": self.dev_f1,
                    "f1_chosen_on_scored": self.f1_chosen_on_scored,
                    "f1_chosen_elsewhere": self.f1_chosen_elsewhere,
                    "inflation": self.inflation})
        tail["options"]["per_type"] = self.per_type
        tail["undefined"] = undefined_keys(out, self.scores.undefined())
        return {**out, **tail}


def choose_thresholds(sweep: Sweep, per_type: bool = False):
    """The threshold of the highest F1 (the highest among ties); ``per_type``: a dict
    type -> the threshold of that type's highest F1, the overall one for a type never
    predicted. ``ValueError`` when nothing was predicted."""
    overall = sweep.best_threshold
    if overall is None:
        raise ValueError("no predicted mention to choose a threshold on (the split holds "
                         f"{len(sweep.gold)} gold mentions and no prediction)")
    if not per_type:
        return overall
    return {t: overall if chosen is None else chosen
            for t, chosen in sweep.best_thresholds().items()}


def operating_point(dev: Sweep, test: Sweep, *, per_type: bool = False) -> OperatingPoint:
    """``test`` scored at the thresholds chosen on ``dev`` (module docstring)."""
    per_type = check_bool("per_type", per_type)
    chosen = choose_thresholds(dev, per_type)
    applied, fallback = _applied(chosen, dev.best_threshold, test)
    scores = test.at(applied)
    chosen_on_scored = dev.same_data(test)
    if len(test.confidence):
        own = _applied(choose_thresholds(test, per_type), test.best_threshold, test)[0]
        f1_chosen_on_scored = _f1(test, *test.counts_at(own))
    else:
        f1_chosen_on_scored = float(scores.micro()[2])
    if chosen_on_scored:
        f1_elsewhere = _cross_fitted_f1(test, per_type)
    else:
        f1_elsewhere = float(scores.micro()[2])
    if not per_type:
        applied = dict.fromkeys(test.type_curves, chosen)
    return OperatingPoint(scores, None if per_type else chosen, applied, fallback,
                          chosen_on_scored, _f1(dev, *dev.counts_at(chosen)),
                          f1_chosen_on_scored, f1_elsewhere, per_type)


def _applied(chosen, overall: float, test: Sweep) -> tuple:
    """``(thresholds for test, the types that took the overall threshold)``: a per-type
    choice covers the types of the split it was made on; another type of ``test`` takes
    the ``overall`` threshold of that split."""
    if not isinstance(chosen, dict):
        return chosen, ()
    fallback = tuple(t for t in test.type_curves if t not in chosen)
    return {t: chosen.get(t, overall) for t in test.type_curves}, fallback


def _f1(sweep: Sweep, correct: int, predicted: int, gold: int) -> float:
    return float(prf_from_counts(correct, predicted, gold, sweep.zero_division)[2])


def _cross_fitted_f1(test: Sweep, per_type: bool) -> float:
    """F1 with the thresholds of each half of the sentences chosen on the other half (a
    half without predictions keeps everything), the counts of both halves pooled."""
    n = len(test.gold.offsets) - 1
    first = np.arange(n) < (n + 1) // 2
    halves = (test.subset(first), test.subset(~first))
    pooled = np.zeros(3, dtype=np.int64)
    for choose_on, score_on in ((halves[0], halves[1]), (halves[1], halves[0])):
        if len(choose_on.confidence):
            chosen = choose_thresholds(choose_on, per_type)
            pooled += score_on.counts_at(_applied(chosen, choose_on.best_threshold,
                                                  score_on)[0])
        else:
            pooled += score_on.counts_at(0.0)
    return _f1(test, *pooled.tolist())


__all__ = ["OperatingPoint", "operating_point", "choose_thresholds"]
