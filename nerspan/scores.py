"""Entity-level precision, recall and F1 (micro, macro, weighted, per type)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .fbeta import fbeta
from .result import Result, entity_row
from .spans import Spans, check_same_fragments, repairs_dict


def match(gold: Spans, pred: Spans, flat: bool | None = None
          ) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks: which gold spans were predicted exactly, which predictions are correct.

    Mentions of one flat column never overlap, so at most one gold span starts at a
    position: a table of the gold span starting at each position (-1 where none does)
    pairs every prediction with its candidate in one look-up (half the time of a binary
    search), then end and type must agree. Spans that nest or overlap (span lists, layers)
    are matched on their (start, end, type) keys instead (``flat``: whether both sides
    are flat, when known: ``is_flat``).
    """
    gold_ok = np.zeros(len(gold), dtype=bool)
    pred_ok = np.zeros(len(pred), dtype=bool)
    if not (len(gold) and len(pred)):
        return gold_ok, pred_ok
    if not (flat if flat is not None else is_flat(gold) and is_flat(pred)):
        n_positions = int(gold.offsets[-1])
        gold_key, pred_key = gold.key(n_positions), pred.key(n_positions)
        at_gold, at_pred = equal_keys(gold_key, pred_key)
        if gold.has_fragments or pred.has_fragments:  # equal keys, equal fragment sets
            check_same_fragments(gold, at_gold, pred, at_pred)
        gold_ok[at_gold] = True
        # every prediction of a key gold has (spans of several layers may repeat one)
        pred_ok[equal_keys(pred_key, gold_key)[0]] = True
        return gold_ok, pred_ok
    gold_at = np.full(int(gold.offsets[-1]), -1, dtype=np.int32)
    gold_at[gold.start] = np.arange(len(gold), dtype=np.int32)
    index = gold_at[pred.start]  # -1 reads the last gold span: masked out below
    pred_ok = (index >= 0) & (gold.end[index] == pred.end) & (gold.type[index] == pred.type)
    gold_ok[index[pred_ok]] = True
    return gold_ok, pred_ok


def equal_keys(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` with ``a[i] == b[j]``: every ``i`` whose key ``b`` has, with
    one ``j`` of that key (the pairs are one to one when the keys of each side are
    distinct). One sort and one binary search (``numpy.isin`` hashes: several times
    slower on these keys)."""
    if not (len(a) and len(b)):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    order = np.argsort(b, kind="stable")
    ordered = b[order]
    at = np.minimum(np.searchsorted(ordered, a), len(b) - 1)
    hit = np.flatnonzero(ordered[at] == a)
    return hit, order[at[hit]]


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
    ``weighted_f2`` and per type), as seqeval's ``beta``. ``shapes``: the nesting-aware
    views (``shape_views``), only when a side holds inner or discontinuous mentions.
    """

    moved_methods = {"weighted": "support_weighted()"}

    types: tuple
    gold: np.ndarray
    predicted: np.ndarray
    correct: np.ndarray
    zero_division: float = 0.0
    repairs: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    shapes: dict = field(default_factory=dict)

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
        if self.shapes:
            out["shapes"] = self.shapes
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
    flat = is_flat(gold) and is_flat(pred)
    _, pred_ok = match(gold, pred, flat)
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
    shapes = {} if flat else shape_views(gold, pred, zero_division)
    return EntityScores(tuple(types[i] for i in present), gold_counts[present],
                        pred_counts[present], correct[present], float(zero_division),
                        repairs_dict(gold.repairs, pred.repairs),
                        {"scheme": gold.scheme, "mode": gold.mode, **(options or {})},
                        shapes)


def inner(spans: Spans) -> np.ndarray:
    """Per mention: is its span strictly inside another mention's of the same side
    (first to last token; a span given with two types is not inside itself)."""
    if not len(spans):
        return np.zeros(0, dtype=bool)
    order = np.lexsort((-spans.end, spans.start))
    start, end = spans.start[order], spans.end[order]
    new = np.concatenate([[True], (start[1:] != start[:-1]) | (end[1:] != end[:-1])])
    span_id = np.cumsum(new) - 1                    # identical spans share an id
    distinct_end = end[new]
    furthest_before = np.concatenate([[-1], np.maximum.accumulate(distinct_end)[:-1]])
    out = np.empty(len(spans), dtype=bool)
    out[order] = furthest_before[span_id] >= end
    return out


def shape_views(gold: Spans, pred: Spans, zero_division: float = 0.0) -> dict:
    """The nesting-aware views, each present when either side has its shape:
    ``inner`` (mentions inside another of their side), ``discontinuous`` (mentions of
    several fragments), and ``sentences`` (every mention of the sentences where either
    side has an inner, overlapping or discontinuous mention). In a view, precision is
    the share of its predictions that gold has, recall the share of its gold mentions
    predicted (one side's shape may differ from the other's); ``sentences`` counts them.
    """
    gold_ok, pred_ok = match(gold, pred)
    views = {}
    for name, of in (("inner", inner), ("discontinuous", _discontinuous)):
        in_gold, in_pred = of(gold), of(pred)
        if in_gold.any() or in_pred.any():
            views[name] = _view_row(gold_ok[in_gold], pred_ok[in_pred], zero_division)
    shaped = np.zeros(len(gold.offsets), dtype=bool)   # per sentence
    for side in (gold, pred):
        shaped[side.sentence[inner(side) | _discontinuous(side) | _overlapped(side)]] = True
    if shaped.any():
        in_gold, in_pred = shaped[gold.sentence], shaped[pred.sentence]
        views["sentences"] = {**_view_row(gold_ok[in_gold], pred_ok[in_pred],
                                          zero_division), "sentences": int(shaped.sum())}
    return views


def _discontinuous(spans: Spans) -> np.ndarray:
    mask = np.zeros(len(spans), dtype=bool)
    if spans.has_fragments:
        mask[spans.fragments[0]] = True
    return mask


def _overlapped(spans: Spans) -> np.ndarray:
    """Per mention: does it share a token with another mention of its side (first to
    last token): one that starts earlier ends after its start, or the next starts
    before its end."""
    order = np.lexsort((spans.end, spans.start))
    start, end = spans.start[order], spans.end[order]
    earlier = np.concatenate([[-1], np.maximum.accumulate(end)[:-1]]) if len(end) else end
    later = np.concatenate([start[1:], [np.iinfo(np.int64).max]]) if len(end) else end
    out = np.zeros(len(spans), dtype=bool)
    out[order] = (start < earlier) | (later < end)
    return out


def _view_row(gold_found: np.ndarray, pred_correct: np.ndarray, zero_division: float
              ) -> dict:
    """A view's scores: its predictions that gold has (precision), its gold mentions
    predicted (recall), F1 from the two, as ``prf_from_counts`` computes them."""
    correct_predicted, found_gold = int(pred_correct.sum()), int(gold_found.sum())
    precision = float(safe_divide(correct_predicted, len(pred_correct), zero_division))
    recall = float(safe_divide(found_gold, len(gold_found), zero_division))
    f1 = float(safe_divide(2 * precision * recall, precision + recall, 0.0))
    return {"precision": precision, "recall": recall, "f1": f1,
            "gold": len(gold_found), "predicted": len(pred_correct),
            "correct_predicted": correct_predicted, "found_gold": found_gold}


def sentence_counts(gold: Spans, pred: Spans, n_sentences: int) -> np.ndarray:
    """Per sentence: correct, predicted and gold mentions (for the bootstrap)."""
    _, pred_ok = match(gold, pred)
    predicted = np.bincount(pred.sentence, minlength=n_sentences)
    generated = pred.repairs.generated if pred.repairs is not None else None
    if generated is not None:  # its ungrounded entities are wrong predictions too
        predicted = predicted + generated.ungrounded_per_sentence(n_sentences)[:n_sentences]
    return np.stack([np.bincount(pred.sentence[pred_ok], minlength=n_sentences),
                     predicted, np.bincount(gold.sentence, minlength=n_sentences)], axis=1)
