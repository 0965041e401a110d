"""Systems scored against several versions of one gold (METHODS §10): each system's
P/R/F1 under each, paired bootstrap intervals of the differences, the rankings,
Kendall's tau-a between them, the pairs of systems whose order flips (and whether each
flip is outside sampling noise), and how much of each system's errors a correction
removes.

The first gold is the reference; every other is an alternative compared with it. Every
number comes from per-sentence counts (correct, predicted, gold mentions: the counts
``nerspan.scores.sentence_counts`` gives and the report bootstraps), so one matrix of
sentence weights resamples every system under every gold at once: the intervals are
paired across systems and across golds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..bootstrap import Statistic, percentile_interval, prf_f1_statistic, resample, sample_weights
from ..errors import NameTakenError
from ..result import entity_row
from ..scores import match, sentence_counts
from ..significance import kendall_tau_a
from ..spans import Spans
from .overlaps import on_shared_types


def error_changes(gold: Spans, alternative: Spans, predicted: Spans) -> dict:
    """How the errors of ``predicted`` change from ``gold`` to ``alternative`` (three
    flat annotations of the same positions, on shared types).

    An error is a false positive (a predicted mention the gold lacks) or a false
    negative (a gold mention not predicted). ``false_positives_removed``: predictions
    wrong under ``gold``, right under ``alternative``; ``false_negatives_removed``:
    missed mentions of ``gold`` that ``alternative`` does not have; ``*_introduced`` the
    reverse. ``errors - removed + introduced = errors_alternative``; ``share_removed`` is
    ``removed / errors`` (None without errors): the share of the system's errors that
    were the gold's.

    >>> from nerspan import Corpus, decode
    >>> c = Corpus.from_tags([["B-PER", "O", "B-ORG"]], [["B-LOC", "O", "B-ORG"]],
    ...                      columns={"system": [["B-LOC", "O", "O"]]})
    >>> changes = error_changes(decode(c), decode(c, "pred"), decode(c, "system"))
    >>> changes["errors"], changes["removed"], changes["errors_alternative"]
    (3, 2, 1)
    """
    found_gold, right_gold = match(gold, predicted)
    found_alt, right_alt = match(alternative, predicted)
    gold_kept, alt_kept = match(gold, alternative)
    out = {"errors": int((~right_gold).sum() + (~found_gold).sum()),
           "errors_alternative": int((~right_alt).sum() + (~found_alt).sum()),
           "false_positives_removed": int((~right_gold & right_alt).sum()),
           "false_negatives_removed": int((~found_gold & ~gold_kept).sum()),
           "false_positives_introduced": int((right_gold & ~right_alt).sum()),
           "false_negatives_introduced": int((~found_alt & ~alt_kept).sum())}
    out["removed"] = out["false_positives_removed"] + out["false_negatives_removed"]
    out["introduced"] = out["false_positives_introduced"] + out["false_negatives_introduced"]
    out["share_removed"] = out["removed"] / out["errors"] if out["errors"] else None
    return out


@dataclass(frozen=True)
class GoldComparison:
    """Systems under several golds (``compare_golds``).

    ``counts``: gold -> system -> per-sentence ``(correct, predicted, gold)`` counts;
    ``samples``: gold -> (resamples x systems) F1 in each bootstrap resample (None
    without a bootstrap); ``errors``: alternative gold -> system -> ``error_changes``.
    """

    counts: dict
    samples: dict | None
    errors: dict
    options: dict

    @property
    def golds(self) -> list:
        return list(self.counts)

    @property
    def systems(self) -> list:
        return list(next(iter(self.counts.values())))

    def scores(self) -> dict:
        """system -> gold -> the entity scores from the summed counts (``entity_row``:
        P, R, F1 and the counts), an undefined ratio 0 as in ``nerspan.score``."""
        return {system: {gold: entity_row(*np.asarray(self.counts[gold][system]).sum(0),
                                          zero_division=0.0)
                         for gold in self.golds} for system in self.systems}

    def f1(self, gold: str) -> np.ndarray:
        """F1 of every system under ``gold`` (0 where undefined, as nerspan's)."""
        totals = np.array([np.asarray(self.counts[gold][s]).sum(0) for s in self.systems])
        return prf_f1_statistic(totals)

    def ranking(self, gold: str) -> list:
        """The systems by F1 under ``gold``, best first (ties: in the order given)."""
        order = np.argsort(-self.f1(gold), kind="stable")
        return [self.systems[i] for i in order.tolist()]

    def ranks(self, gold: str) -> dict:
        """system -> rank under ``gold`` (1 = best; tied F1 share the best rank)."""
        f1 = self.f1(gold)
        return {s: int((f1 > f1[i]).sum()) + 1 for i, s in enumerate(self.systems)}

    def interval(self, values: np.ndarray, estimate: float) -> dict:
        """``{"estimate", "low", "high"}`` of resampled ``values`` (None bounds without
        a bootstrap)."""
        if values is None:
            return {"estimate": float(estimate), "low": None, "high": None}
        ci = percentile_interval(values, float(estimate), self.options["confidence"])
        return {"estimate": float(estimate), "low": ci.low, "high": ci.high}

    def against(self, alternative: str) -> dict:
        """The alternative gold against the reference: each system's F1 difference
        (alternative - reference) with its paired interval, rank changes, Kendall's
        tau-a of the two scorings, the flips, and the error changes."""
        reference = self.golds[0]
        f1_ref, f1_alt = self.f1(reference), self.f1(alternative)
        differences = {}
        for i, system in enumerate(self.systems):
            values = (None if self.samples is None else
                      self.samples[alternative][:, i] - self.samples[reference][:, i])
            differences[system] = _with_noise(self.interval(values, f1_alt[i] - f1_ref[i]))
        ranks_ref, ranks_alt = self.ranks(reference), self.ranks(alternative)
        return {"f1_difference": differences,
                # places moved up (positive) or down from the reference's ranking
                "rank_change": {s: ranks_ref[s] - ranks_alt[s] for s in self.systems},
                **kendall_tau_a(f1_ref, f1_alt), "flips": self.flips(alternative),
                "errors": self.errors.get(alternative, {})}

    def flips(self, alternative: str) -> list:
        """The pairs of systems whose order under ``alternative`` is the reverse of the
        reference's, each ``{"systems": [ahead, behind]`` (under the alternative)``,
        "reference": ..., "alternative": ...`` (the F1 difference ahead - behind under
        each, with its paired interval), ``"outside_noise"``: the alternative's interval
        excludes 0 (None without a bootstrap)}``, the widest difference first."""
        reference = self.golds[0]
        f1_ref, f1_alt = self.f1(reference), self.f1(alternative)
        ahead, behind = np.nonzero((f1_alt[:, None] > f1_alt[None, :])
                                   & (f1_ref[:, None] < f1_ref[None, :]))
        out = []
        for i, j in zip(ahead.tolist(), behind.tolist()):
            sides = {}
            for name, gold, f1 in (("reference", reference, f1_ref),
                                   ("alternative", alternative, f1_alt)):
                values = None if self.samples is None else \
                    self.samples[gold][:, i] - self.samples[gold][:, j]
                sides[name] = self.interval(values, f1[i] - f1[j])
            out.append({"systems": [self.systems[i], self.systems[j]], **sides,
                        "outside_noise": _with_noise(sides["alternative"])["outside_noise"]})
        return sorted(out, key=lambda f: (-f["alternative"]["estimate"], f["systems"]))

    def to_dict(self) -> dict:
        """Plain JSON: ``golds`` (the reference first), ``systems``, ``scores`` (system ->
        gold -> entity scores), ``rankings`` and ``ranks`` per gold, ``against``
        (alternative -> ``against(alternative)``), ``options``, ``undefined``."""
        scores = self.scores()
        return {"golds": self.golds, "reference": self.golds[0], "systems": self.systems,
                "scores": scores,
                "rankings": {g: self.ranking(g) for g in self.golds},
                "ranks": {g: self.ranks(g) for g in self.golds},
                "against": {g: self.against(g) for g in self.golds[1:]},
                "options": dict(self.options),
                # the ratios that took nerspan's zero_division (0): nothing predicted,
                # nothing to find
                "undefined": [f"{s}/{g}/{key}" for s, row in scores.items()
                              for g, cell in row.items()
                              for key, count in (("precision", "predicted"),
                                                 ("recall", "support"))
                              if cell[count] == 0]}


def _with_noise(interval: dict) -> dict:
    """``interval`` with ``outside_noise``: whether it excludes 0 (None without bounds)."""
    low, high = interval["low"], interval["high"]
    outside = None if low is None or low != low else bool(low > 0 or high < 0)
    return {**interval, "outside_noise": outside}


def compare_golds(counts: Mapping[str, Mapping[str, np.ndarray]], *,
                  errors: Mapping[str, Mapping[str, dict]] | None = None,
                  bootstrap: int = 1000, seed: int | None = 0,
                  confidence: float = 0.95) -> GoldComparison:
    """Systems under several golds, from per-sentence counts.

    Args:
        counts: gold -> system -> per-sentence counts, an array (sentences x 3) of
            correct, predicted and gold mentions (``nerspan.scores.sentence_counts``);
            the first gold is the reference, every gold has the same systems and
            sentences.
        errors: alternative gold -> system -> ``error_changes`` (optional).
        bootstrap, seed, confidence: resamples of sentences (0: no intervals), one
            matrix of weights for every gold and system (``sample_weights``).

    >>> one = np.array([[1, 1, 1], [0, 1, 1]]); two = np.array([[1, 1, 1], [1, 1, 1]])
    >>> result = compare_golds({"old": {"x": one, "y": two}, "new": {"x": two, "y": one}},
    ...                        bootstrap=0)
    >>> result.to_dict()["against"]["new"]["tau"], result.ranking("new")
    (-1.0, ['x', 'y'])
    """
    counts = {gold: {system: np.asarray(c) for system, c in by_system.items()}
              for gold, by_system in counts.items()}
    _check_counts(counts)
    samples = None
    if bootstrap:
        n_sentences = len(next(iter(next(iter(counts.values())).values())))
        weights = sample_weights(n_sentences, bootstrap, seed)
        samples = {gold: resample([Statistic(s, c, prf_f1_statistic, int(c[:, 2].sum()))
                                   for s, c in by_system.items()], weights)
                   for gold, by_system in counts.items()}
    return GoldComparison(counts, samples, {g: dict(e) for g, e in (errors or {}).items()},
                          {"bootstrap": int(bootstrap), "seed": seed,
                           "confidence": float(confidence)})


def _check_counts(counts: dict) -> None:
    if len(counts) < 2:
        raise ValueError(f"compare_golds needs at least two golds, got {list(counts)}")
    systems = [list(by_system) for by_system in counts.values()]
    if any(s != systems[0] for s in systems) or not systems[0]:
        raise ValueError("every gold needs the counts of the same systems, in one order: "
                         + "; ".join(f"{g}: {s}" for g, s in zip(counts, systems)))
    shapes = {c.shape for by_system in counts.values() for c in by_system.values()}
    if len(shapes) != 1 or len(next(iter(shapes))) != 2 or next(iter(shapes))[1] != 3:
        raise ValueError("per-sentence counts must be (sentences x 3) arrays of correct, "
                         f"predicted and gold mentions, one shape for all; got {shapes}")


def score_golds(golds: Mapping[str, Spans], systems: Mapping[str, Spans], *,
                bootstrap: int = 1000, seed: int | None = 0,
                confidence: float = 0.95) -> GoldComparison:
    """Every system scored against every gold (flat spans of the same positions; the
    first gold the reference), with the error changes of every alternative
    (``compare_golds``, ``error_changes``). A system named like a gold is refused."""
    taken = set(golds) & set(systems)
    if taken:
        raise NameTakenError(f"{sorted(taken)} name a gold and a system: name them apart")
    shared = on_shared_types(*golds.values(), *systems.values())
    gold_spans = dict(zip(golds, shared[:len(golds)]))
    system_spans = dict(zip(systems, shared[len(golds):]))
    n_sentences = len(next(iter(golds.values())).offsets) - 1
    counts = {g: {s: sentence_counts(gold, pred, n_sentences)
                  for s, pred in system_spans.items()} for g, gold in gold_spans.items()}
    reference = next(iter(gold_spans.values()))
    errors = {g: {s: error_changes(reference, alternative, pred)
                  for s, pred in system_spans.items()}
              for g, alternative in list(gold_spans.items())[1:]}
    return compare_golds(counts, errors=errors, bootstrap=bootstrap, seed=seed,
                         confidence=confidence)
