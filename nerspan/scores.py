"""Entity-level precision, recall and F1 (micro, macro, weighted, per type)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .fbeta import fbeta
from .result import Result, entity_row
from .spans import Spans, check_same_fragments, repairs_dict


def match(gold: Spans, pred: Spans) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks: which gold spans were predicted exactly, which predictions are correct.

    Mentions of one flat column never overlap, so at most one gold span starts at a
    position: a table of the gold span starting at each position (-1 where none does)
    pairs every prediction with its candidate in one look-up (half the time of a binary
    search), then end and type must agree. Spans that nest or overlap (span lists, layers)
    are matched on their (start, end, type) keys instead.
    """
    gold_ok = np.zeros(len(gold), dtype=bool)
    pred_ok = np.zeros(len(pred), dtype=bool)
    if not (len(gold) and len(pred)):
        return gold_ok, pred_ok
    if not (is_flat(gold) and is_flat(pred)):
        n_positions = int(gold.offsets[-1])
        gold_key, pred_key = gold.key(n_positions), pred.key(n_positions)
        gold_ok, pred_ok = np.isin(gold_key, pred_key), np.isin(pred_key, gold_key)
        if gold.has_fragments or pred.has_fragments:  # equal keys, equal fragment sets
            at_gold = np.flatnonzero(gold_ok)
            order = np.argsort(pred_key)
            at_pred = order[np.searchsorted(pred_key[order], gold_key[at_gold])]
            check_same_fragments(gold, at_gold, pred, at_pred)
        return gold_ok, pred_ok
    gold_at = np.full(int(gold.offsets[-1]), -1, dtype=np.int32)
    gold_at[gold.start] = np.arange(len(gold), dtype=np.int32)
    index = gold_at[pred.start]  # -1 reads the last gold span: masked out below
    pred_ok = (index >= 0) & (gold.end[index] == pred.end) & (gold.type[index] == pred.type)
    gold_ok[index[pred_ok]] = True
    return gold_ok, pred_ok


def is_flat(spans: Spans) -> bool:
    """No two spans share a token (spans sorted by start, as decoding gives them), and
    none is discontinuous."""
    return not spans.has_fragments and bool(np.all(spans.start[1:] >= spans.end[:-1]))


def safe_divide(numerator, denominator, zero_division: float = 0.0):
    """Elementwise ratio; where the denominator is 0 the result is ``zero_division``."""
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    out = np.full(np.broadcast(numerator, denominator).shape, float(zero_division))
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def prf_from_counts(correct, predicted, gold, zero_division: float = 0.0):
    """Precision, recall, F1 from mention counts: correct, predicted and gold (arrays or scalars); F1 from unrounded P and R.

    As seqeval 1.2.2 (and scikit-learn): ``zero_division`` replaces an undefined
    precision (nothing predicted) or recall (nothing to find); F1 is then computed from
    those two and is 0 when both are 0, whatever ``zero_division`` says.

    >>> [float(x) for x in prf_from_counts(0, 1, 1, zero_division=1)]   # a wrong prediction
    [0.0, 0.0, 0.0]
    >>> [float(x) for x in prf_from_counts(0, 0, 0, zero_division=1)]   # nothing at all
    [1.0, 1.0, 1.0]
    """
    precision = safe_divide(correct, predicted, zero_division)
    recall = safe_divide(correct, gold, zero_division)
    f1 = safe_divide(2 * precision * recall, precision + recall, 0.0)
    return precision, recall, f1


@dataclass(frozen=True)
class EntityScores(Result):
    """Entity-level scores of one system against the gold standard.

    Averages follow seqeval/scikit-learn: ``micro`` pools the counts; ``macro`` is the
    unweighted mean over types present in gold or predictions; ``weighted`` weights each
    type's score by its gold support. ``zero_division`` is the value used where a ratio is
    undefined (0 by default, as conlleval and seqeval give); ``undefined`` lists them.
    ``repairs`` is ``{"gold": ..., "pred": ...}`` (``nerspan.repairs_dict``); ``options``
    the options that shaped the numbers (scheme, mode, zero_division).
    ``to_dict(beta=2)`` adds F-beta beside every F1 (``f2``, ``macro_f2``,
    ``weighted_f2`` and per type), as seqeval's ``beta``.
    """

    moved_methods = {"weighted": "support_weighted()"}

    types: tuple
    gold: np.ndarray
    predicted: np.ndarray
    correct: np.ndarray
    zero_division: float = 0.0
    repairs: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)

    @property
    def n_gold(self) -> int:
        return int(self.gold.sum())

    @property
    def n_predicted(self) -> int:
        return int(self.predicted.sum())

    @property
    def n_correct(self) -> int:
        return int(self.correct.sum())

    def per_type(self):
        return prf_from_counts(self.correct, self.predicted, self.gold, self.zero_division)

    def micro(self) -> tuple[float, float, float]:
        p, r, f = prf_from_counts(self.n_correct, self.n_predicted, self.n_gold, self.zero_division)
        return float(p), float(r), float(f)

    def macro(self) -> tuple[float, float, float]:
        """Unweighted mean over the types; with no type at all (seqeval gives NaN, a mean
        of nothing) every value is ``zero_division``."""
        if not len(self.types):
            return (float(self.zero_division),) * 3
        return tuple(float(x.mean()) for x in self.per_type())

    def support_weighted(self) -> tuple[float, float, float]:
        """Mean over the types weighted by their gold support (seqeval's "weighted avg";
        the ``weighted_*`` keys of ``to_dict``). Without gold mentions it is, as in seqeval:
        recall ``zero_division``; precision and F1 ``zero_division`` if nothing was
        predicted either, else 0."""
        support = self.gold.sum()
        if support == 0:
            value = float(self.zero_division) if self.n_predicted == 0 else 0.0
            return value, float(self.zero_division), value
        return tuple(float((x * self.gold).sum() / support) for x in self.per_type())

    def fbeta(self, beta: float) -> dict:
        """F-beta as seqeval gives it: ``micro``, ``macro`` (the mean of the per-type
        values), ``weighted`` (weighted by gold support; without gold, as
        ``support_weighted``) and ``per_type`` (an array in ``types`` order)."""
        p, r, _ = self.micro()
        per_type = fbeta(*self.per_type()[:2], beta)
        support = self.gold.sum()
        if support == 0:
            weighted = float(self.zero_division) if self.n_predicted == 0 else 0.0
        else:
            weighted = float((per_type * self.gold).sum() / support)
        macro = float(per_type.mean()) if len(self.types) else float(self.zero_division)
        return {"micro": fbeta(p, r, beta), "macro": macro, "weighted": weighted,
                "per_type": per_type}

    def fbeta_means(self, beta: float) -> dict:
        values = self.fbeta(beta)
        return {"macro_f1": values["macro"], "weighted_f1": values["weighted"]}

    def undefined(self) -> list[str]:
        """Which ratios were undefined (a zero denominator) and took ``zero_division``."""
        out = []
        if self.n_predicted == 0:
            out.append("precision")
        if self.n_gold == 0:
            out.append("recall")
        for t, g, p in zip(self.types, self.gold.tolist(), self.predicted.tolist()):
            if p == 0:
                out.append(f"{t}/precision")
            if g == 0:
                out.append(f"{t}/recall")
        return out

    def plain_dict(self) -> dict:
        p, r, f = self.micro()
        out = {
            "precision": p, "recall": r, "f1": f,
            "gold": self.n_gold, "predicted": self.n_predicted, "correct": self.n_correct,
            "macro_precision": self.macro()[0], "macro_recall": self.macro()[1],
            "macro_f1": self.macro()[2],
            "weighted_precision": self.support_weighted()[0],
            "weighted_recall": self.support_weighted()[1],
            "weighted_f1": self.support_weighted()[2],
            "per_type": {t: entity_row(c, n_pred, n_gold, self.zero_division)
                         for t, c, n_pred, n_gold in zip(
                             self.types, self.correct.tolist(), self.predicted.tolist(),
                             self.gold.tolist())},
            "undefined": self.undefined(),
            "options": {**self.options, "zero_division": self.zero_division},
            "repairs": self.repairs or repairs_dict(None, None),
        }
        return out


def entity_scores(gold: Spans, pred: Spans, zero_division: float = 0.0,
                  options: dict | None = None) -> EntityScores:
    """Count gold, predicted and correct mentions per type.

    Only types that occur in gold or predictions get a row (as in seqeval). ``options``
    (reported in ``to_dict()``) start from how the spans were decoded (``scheme``,
    ``mode``); ``options`` given here are added.
    """
    if gold.types != pred.types:
        raise ValueError("gold and predicted spans come from different label tables")
    n_types = len(gold.types)
    _, pred_ok = match(gold, pred)
    gold_counts = np.bincount(gold.type, minlength=n_types)
    pred_counts = np.bincount(pred.type, minlength=n_types)
    correct = np.bincount(pred.type[pred_ok], minlength=n_types)
    types = list(gold.types)
    unplaced = pred.repairs.unplaced() if pred.repairs is not None else {}
    if unplaced:  # generated entities not found in their sentence: predictions, all wrong
        types += sorted(set(unplaced) - set(types))
        extra = np.array([unplaced.get(t, 0) for t in types], dtype=np.int64)
        pad = len(types) - n_types
        gold_counts, correct = np.pad(gold_counts, (0, pad)), np.pad(correct, (0, pad))
        pred_counts = np.pad(pred_counts, (0, pad)) + extra
        order = np.argsort(types, kind="stable") if pad else np.arange(len(types))
        types, gold_counts, pred_counts, correct = ([types[i] for i in order],
                                                    gold_counts[order], pred_counts[order],
                                                    correct[order])
    present = np.flatnonzero((gold_counts > 0) | (pred_counts > 0))
    return EntityScores(tuple(types[i] for i in present), gold_counts[present],
                        pred_counts[present], correct[present], float(zero_division),
                        repairs_dict(gold.repairs, pred.repairs),
                        {"scheme": gold.scheme, "mode": gold.mode, **(options or {})})


def sentence_counts(gold: Spans, pred: Spans, n_sentences: int) -> np.ndarray:
    """Per sentence: correct, predicted and gold mentions (for the bootstrap)."""
    _, pred_ok = match(gold, pred)
    predicted = np.bincount(pred.sentence, minlength=n_sentences)
    generated = pred.repairs.generated if pred.repairs is not None else None
    if generated is not None:  # its ungrounded entities are wrong predictions too
        predicted = predicted + generated.ungrounded_per_sentence(n_sentences)[:n_sentences]
    return np.stack([np.bincount(pred.sentence[pred_ok], minlength=n_sentences),
                     predicted, np.bincount(gold.sentence, minlength=n_sentences)], axis=1)
