"""Counting the events and turning counts into traditional, fair and weight-table scores."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

import nerspan
from nerspan.flat import PRED
from nerspan.confusion import summed_name
from nerspan.spans import Repairs, repairs_dict
from nerspan.migration import moved_names
from nerspan.result import Result, entity_row, undefined_keys
from nerspan.bootstrap import Statistic, f1_statistic, prf_f1_statistic, ratio_statistic

from .fragments import fragment_sets
from .inputs import Prepared
from .matching import FP, LBE, LE, TP, Events
from .semeval import credit_counts
from .weights import COUNT_NAMES, ERROR_TYPES

FOCUS = ("target", "system")
# The confusion matrix's extra row and column (the paper's Figure 2), as tables and figures
# name them. In ``confusion()`` they are the keys "FP" and "FN" beside "matrix", never
# keys beside the labels: a label may be called FP, FN or anything else.
NO_TARGET = "no target span (FP)"   # row: system spans no target span took
NO_SYSTEM = "no system span (FN)"   # column: target spans no system span took
# The confusion's tables and figures lay out at most this many labels, those with the most
# errors; the others are summed in one row and column (``confusion_layout``, named by
# ``summed_name``), so that a table or figure stays the same size whatever the labels.
CONFUSION_LABELS = 20


def prf_from_errors(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """Precision, recall and F1 from TP, FP and FN counts (from the unrounded P and R);
    zero division gives 0. ``nerspan.prf_from_counts`` takes correct, predicted, gold.

    >>> prf_from_errors(3, 1, 2)[:2], round(prf_from_errors(3, 1, 2)[2], 4)
    ((0.75, 0.6), 0.6667)
    """
    return tuple(float(v) for v in nerspan.prf_from_counts(tp, tp + fp, tp + fn))


def named_counts(row) -> dict:
    """The nine counts from one row of per-kind counts (ERROR_TYPES order)."""
    by_kind = dict(zip(ERROR_TYPES, (int(v) for v in row)))
    by_kind["BE"] = by_kind["BEs"] + by_kind["BEl"] + by_kind["BEo"]
    return {name: by_kind[name] for name in COUNT_NAMES}


def weight_table_prf(row, table: dict) -> tuple[float, float, float]:
    """P, R, F1 of per-kind counts under a weight table (kind -> (TP, FP, FN) shares)."""
    tp, fp, fn = np.asarray(row, dtype=float) @ share_matrix(table)
    return prf_from_errors(tp, fp, fn)


def share_matrix(table: dict) -> np.ndarray:
    """The weight table as an 8 x 3 array: rows in ERROR_TYPES order, columns TP, FP, FN."""
    return np.array([table[kind] for kind in ERROR_TYPES], dtype=float)


@dataclass(frozen=True)
class FairEvalResult(Result):
    """Error counts and scores of one system against the target annotation.

    ``kind_counts`` holds, overall and per label, the counts of the eight event kinds in
    ``weights.ERROR_TYPES`` order; ``to_dict()`` gives the documented keys.

    ``to_dict()``'s headline ``precision``, ``recall``, ``f1`` are the exact-match
    scores, as in every family's result (nerspan's micro entity scores, ``zero_division``
    0, listed in ``undefined``); the fair scores are ``fair_*``, those of a weight table
    ``weight_table_*``.

    Zero division: ``traditional()``, ``fair()`` and ``weight_table_scores()`` return the
    reference code's 0 for an undefined ratio; the ``traditional_*``, ``fair_*`` and
    ``weight_table_*`` keys of ``to_dict()`` and ``per_type()`` give None (JSON null)
    there, as every family does: precision is undefined without system spans (TP + FP =
    0), recall without target spans (TP + FN = 0), F1 when both are (otherwise F1 = 2 TP
    / (2 TP + FP + FN)).
    """

    moved_methods = {"headline": "traditional() (the exact-match scores; fair() the fair ones)",
                     "weighted": "weight_table_scores()"}

    labels: tuple
    kind_counts: np.ndarray          # 8, overall
    label_kind_counts: np.ndarray    # n_labels x 8, under the focus label
    n_target: np.ndarray             # per label
    n_system: np.ndarray             # per label
    # the confusion of errors, sparse: one row (target label, system label, count) per
    # non-zero cell, sorted; label n_labels is the missing side (no target / system span).
    # Never (n_labels + 1)^2 cells: its size is at most the number of events.
    error_cells: np.ndarray
    focus: str
    weights: str | dict | None       # the option as given (it no longer picks the headline)
    weight_table: dict | None        # None unless weight-table scores were asked for
    fair_table: dict
    pairs: list | None = None
    repairs: dict = field(default_factory=dict)
    # per sentence: the 8 event kinds, then target and system spans (for the bootstrap)
    sentence_counts: np.ndarray | None = field(default=None, repr=False, compare=False)
    # schema -> SemEval-2013 counts and scores (faireval.semeval), when schemas were asked for
    semeval: dict | None = None
    semeval_counts: dict | None = field(default=None, repr=False, compare=False)
    # schema -> per-instance rows (faireval.semeval.semeval_instances), when asked for
    instances: dict | None = None
    options: dict = field(default_factory=dict)   # what shaped the numbers (see ``score``)

    # -- overall -----------------------------------------------------------------------
    @property
    def confusion_matrix(self) -> np.ndarray:
        """The confusion of errors as a dense ``(n_labels + 1) x (n_labels + 1)`` array
        (FairEval's layout: the last row no target span, the last column no system span).
        Quadratic in the labels: for a few labels; ``error_cells`` and ``confusion()``
        hold the same counts in the size of the errors."""
        size = len(self.labels) + 1
        dense = np.zeros((size, size), dtype=np.int64)
        dense[self.error_cells[:, 0], self.error_cells[:, 1]] = self.error_cells[:, 2]
        return dense

    @property
    def counts(self) -> dict:
        return named_counts(self.kind_counts)

    def traditional(self) -> tuple[float, float, float]:
        tp = int(self.kind_counts[TP])
        return prf_from_errors(tp, int(self.n_system.sum()) - tp, int(self.n_target.sum()) - tp)

    def fair(self) -> tuple[float, float, float]:
        return weight_table_prf(self.kind_counts, self.fair_table)

    def weight_table_scores(self) -> tuple[float, float, float] | None:
        """P, R, F1 under the weight table of ``weights`` (the ``weight_table_*`` keys),
        or None when no weight table was asked for. Not a support-weighted average: that
        is ``nerspan.EntityScores.support_weighted`` (the ``weighted_*`` keys)."""
        if self.weight_table is None:
            return None
        return weight_table_prf(self.kind_counts, self.weight_table)

    def undefined(self) -> list[str]:
        """The top-level keys of ``to_dict()`` that took 0 as nerspan lists them
        (``precision`` without system spans, ``recall`` without target spans), then those
        that are None (``fair_precision`` without system spans, ...)."""
        zero_division = ((["precision"] if not self.n_system.sum() else [])
                         + (["recall"] if not self.n_target.sum() else []))
        return undefined_keys(self._scores(), zero_division)

    def _scores(self) -> dict:
        """The top-level scores of ``to_dict()``: the headline (exact match), the
        traditional, fair and weight-table ones."""
        tp, fp, fn = self._traditional_counts()
        out = {}
        # the headline: exact-match scores with nerspan's zero division, the same numbers
        # under the same keys as every family's result
        _put(out, "", self.traditional())
        _put(out, "traditional", defined_prf(tp, fp, fn))
        _put(out, "fair", defined_prf(*self._shares(self.kind_counts, self.fair_table)))
        if self.weight_table is not None:
            _put(out, "weight_table",
                 defined_prf(*self._shares(self.kind_counts, self.weight_table)))
        return out

    def _shares(self, row, table: dict) -> tuple:
        """(TP, FP, FN) of per-kind counts under a weight table."""
        return tuple(float(x) for x in np.asarray(row, dtype=float) @ share_matrix(table))

    def _traditional_counts(self) -> tuple:
        tp = int(self.kind_counts[TP])
        return tp, int(self.n_system.sum()) - tp, int(self.n_target.sum()) - tp

    # -- output ------------------------------------------------------------------------
    def per_type(self) -> dict:
        """Label -> the exact-match ``precision``, ``recall``, ``f1`` with ``support``
        (target spans), ``predicted`` (system spans) and ``correct`` (``TP``) as every
        family's rows give them (``nerspan.result.entity_row``), the nine counts (under
        the focus label), ``traditional_FP``/``_FN`` and the traditional, fair (and
        weight-table) P/R/F1, None where undefined."""
        rows = {}
        for k, label in enumerate(self.labels):
            counts = named_counts(self.label_kind_counts[k])
            tp = counts["TP"]
            row = entity_row(tp, self.n_system[k], self.n_target[k])
            row.update(counts)
            row["traditional_FP"] = int(self.n_system[k]) - tp
            row["traditional_FN"] = int(self.n_target[k]) - tp
            _put(row, "traditional",
                 defined_prf(tp, row["traditional_FP"], row["traditional_FN"]))
            _put(row, "fair",
                 defined_prf(*self._shares(self.label_kind_counts[k], self.fair_table)))
            if self.weight_table is not None:
                _put(row, "weight_table",
                     defined_prf(*self._shares(self.label_kind_counts[k], self.weight_table)))
            rows[label] = row
        return rows

    def confusion(self) -> dict:
        """``{"matrix": target label -> system label -> count, "FN": target label ->
        count, "FP": system label -> count}``: LE, BE and LBE (and TPs with
        ``confusion_tp``) between labels, target spans no system span took, system spans
        no target span took. ``"matrix"`` holds the non-zero cells only (a missing cell,
        or a target label with no cell, is 0), so its size is at most the number of
        errors, never labels x labels; ``"FN"`` and ``"FP"`` give every label (0
        included), in label order. ``confusion_table`` lays it out as the paper's
        Figure 2."""
        labels, n = self.labels, len(self.labels)
        matrix: dict = {}
        fn, fp = dict.fromkeys(labels, 0), dict.fromkeys(labels, 0)
        for i, j, count in self.error_cells.tolist():
            if i == n:
                fp[labels[j]] = count
            elif j == n:
                fn[labels[i]] = count
            else:
                matrix.setdefault(labels[i], {})[labels[j]] = count
        return {"matrix": matrix, "FN": fn, "FP": fp}

    def plain_dict(self) -> dict:
        tp, fp, fn = self._traditional_counts()
        out = self._scores()
        out["undefined"] = self.undefined()
        out["counts"] = self.counts
        out["traditional_counts"] = {"TP": tp, "FP": fp, "FN": fn}
        out["per_type"] = self.per_type()
        out["error_confusion"] = self.confusion()
        if self.pairs is not None:   # spans as lists in JSON's types
            out["pairs"] = [[{"type": item["type"], "target": _listed(item["target"]),
                              "system": _listed(item["system"])} for item in sentence]
                            for sentence in self.pairs]
        if self.semeval is not None:   # a copy: to_dict(beta=) adds F-beta keys to it
            out["semeval"] = copy.deepcopy(self.semeval)
        if self.instances is not None:
            out["semeval_instances"] = self.instances
        out["options"] = dict(self.options)
        out["repairs"] = self.repairs_dict()
        return out

    def repairs_dict(self) -> dict:
        """``{"gold": ..., "pred": ...}`` (``nerspan.repairs_dict``); the levels of
        multi-level tags (``gold:0``, ``gold:1``, ...) are summed per column."""
        by_column = {}
        for key, repairs in self.repairs.items():
            by_column.setdefault(key.split(":")[0], []).append(repairs)
        return repairs_dict(*(Repairs.merged(by_column.get(column, []))
                              for column in (nerspan.GOLD, nerspan.PRED)))

    def statistics(self) -> list:
        """Fair and traditional scores as bootstrap statistics over sentences.

        Names are ``faireval.<key of to_dict()>``; each estimate equals that value.
        """
        if self.sentence_counts is None:
            raise ValueError("this result has no per-sentence counts to resample")
        kinds = self.sentence_counts[:, :len(ERROR_TYPES)].astype(float)
        n_target = self.sentence_counts[:, len(ERROR_TYPES)]
        n_system = self.sentence_counts[:, len(ERROR_TYPES) + 1]
        fair = kinds @ share_matrix(self.fair_table)  # tp, fp, fn per sentence
        # f1_statistic and the ratios take (correct, predicted, gold) totals
        fair_cpg = np.stack([fair[:, 0], fair[:, 0] + fair[:, 1], fair[:, 0] + fair[:, 2]], 1)
        traditional = np.stack([kinds[:, TP], n_system, n_target], axis=1)
        support = int(n_target.sum())
        return [
            Statistic("faireval.fair_precision", fair_cpg[:, [0, 1]], ratio_statistic, support),
            Statistic("faireval.fair_recall", fair_cpg[:, [0, 2]], ratio_statistic, support),
            Statistic("faireval.fair_f1", fair_cpg, _fair_f1_statistic, support),
            Statistic("faireval.traditional_f1", traditional, _traditional_f1_statistic,
                      support),
        ] + [Statistic(f"faireval.semeval.{name}.f1", credit_counts(name, counts),
                       prf_f1_statistic, int(counts[:, [0, 1, 2, 4]].sum()))
             for name, counts in (self.semeval_counts or {}).items()]


def error_confusion(result) -> dict:
    """FairEval's confusion of errors (``{"matrix", "FN", "FP"}``) of a result dict: its
    ``error_confusion``, or in a result saved before the rename its ``confusion``; as
    ``FairEvalResult.confusion()`` gives it (a result saved with every cell, zeros
    included, reads with its non-zero cells only).

    >>> error_confusion({"confusion": {"matrix": {"A": {"A": 0, "B": 2}, "B": {"A": 0,
    ...     "B": 0}}, "FN": {"A": 1, "B": 0}, "FP": {"A": 0, "B": 0}}})["matrix"]
    {'A': {'B': 2}}
    """
    if "error_confusion" in result:
        confusion = result["error_confusion"]
    else:
        confusion = result.get("confusion")
        if not (isinstance(confusion, dict) and "matrix" in confusion):
            raise KeyError("error_confusion: not a faireval result (FairEval's confusion "
                           "of errors is missing)")
    matrix = {t: {s: count for s, count in row.items() if count}
              for t, row in confusion["matrix"].items()}
    return {**confusion, "matrix": {t: row for t, row in matrix.items() if row}}


def confusion_table(confusion: dict, max_labels: int | None = CONFUSION_LABELS
                    ) -> tuple[list, list, list]:
    """``(row names, column names, rows of counts)``: a ``confusion()`` dict as the paper's
    Figure 2 draws it, target labels then ``NO_TARGET`` (FP) down, system labels then
    ``NO_SYSTEM`` (FN) across; the FP x FN corner is no cell (None). Beyond
    ``max_labels`` labels, those with the fewest errors are one ``other`` row and column
    (``confusion_layout``; None: every label, labels x labels cells).

    >>> confusion_table({"matrix": {"FN": {"FN": 1}}, "FN": {"FN": 2}, "FP": {"FN": 3}})
    (['FN', 'no target span (FP)'], ['FN', 'no system span (FN)'], [[1, 2], [3, None]])
    """
    return confusion_layout(confusion, max_labels)[:3]


def confusion_layout(confusion: dict, max_labels: int | None = CONFUSION_LABELS) -> tuple:
    """``confusion_table``'s rows, columns and counts, and how many labels it summed.

    The labels are those of ``"FN"``, ``"FP"`` and ``"matrix"`` in that order (a missing
    cell is 0: the sparse ``confusion()`` and a dense one saved before lay out alike).
    Beyond ``max_labels`` labels, those with the fewest errors (row and column, FP and FN
    included; the later on ties) are summed in one row and column (``summed_name``) before the FP
    row and FN column; the others keep their order. The work is in the size of the dict,
    the table ``max_labels + 2`` square.

    >>> confusion = {"matrix": {"A": {"B": 5, "A": 1}, "B": {"C": 1}, "C": {"A": 1}},
    ...              "FN": {"A": 2, "B": 0, "C": 0}, "FP": {"A": 0, "B": 3, "C": 0}}
    >>> rows, columns, counts, summed = confusion_layout(confusion, max_labels=2)
    >>> rows, summed
    (['A', 'B', 'other (1 label)', 'no target span (FP)'], 1)
    >>> counts
    [[1, 5, 0, 2], [0, 0, 1, 0], [1, 0, 0, 0], [0, 3, 0, None]]
    """
    matrix = confusion["matrix"]
    labels = list(dict.fromkeys([*confusion["FN"], *confusion["FP"], *matrix,
                                 *(s for row in matrix.values() for s in row)]))
    n = len(labels)
    index = {label: k for k, label in enumerate(labels)}
    cells = ([(index[t], index[s], c) for t, row in matrix.items() for s, c in row.items()]
             + [(index[t], n, c) for t, c in confusion["FN"].items()]
             + [(n, index[s], c) for s, c in confusion["FP"].items()])
    i, j, count = np.array(cells, dtype=np.int64).reshape(-1, 3).T
    if max_labels is None or n <= max_labels:
        kept, summed = np.arange(n), 0
    else:
        errors = (np.bincount(i, count, n + 1) + np.bincount(j, count, n + 1))[:n]
        kept, summed = np.sort(np.argsort(-errors, kind="stable")[:max_labels]), n - max_labels
    names = [labels[k] for k in kept.tolist()] + ([summed_name(summed, labels)] if summed else [])
    position = np.full(n + 1, len(kept))   # every summed label: the other row/column
    position[kept] = np.arange(len(kept))
    position[n] = len(names)
    table = np.zeros((len(names) + 1, len(names) + 1), dtype=np.int64)
    np.add.at(table, (position[i], position[j]), count)
    rows = table.tolist()
    rows[-1][-1] = None
    return names + [NO_TARGET], names + [NO_SYSTEM], rows, summed


def summed_note(summed: int, name: str) -> str:
    """What a confusion table says when it sums ``summed`` labels in the row and column
    ``name`` (``confusion_layout``): how many, and where every cell is.

    >>> summed_note(0, ""), summed_note(3, "other (3 labels)")[:48]
    ('', 'The 3 labels with the fewest errors are summed i')
    """
    if not summed:
        return ""
    return (f"The {summed} labels with the fewest errors are summed in \"{name}\" "
            "(every non-zero cell is in the result's error_confusion).")


def defined_prf(tp: float, fp: float, fn: float) -> tuple:
    """Precision, recall and F1 as ``prf_from_errors``, but None where undefined: precision when
    TP + FP = 0, recall when TP + FN = 0, F1 when TP + FP + FN = 0.

    >>> defined_prf(0, 0, 2), defined_prf(0, 0, 0)
    ((None, 0.0, 0.0), (None, None, None))
    """
    p, r, f = prf_from_errors(tp, fp, fn)
    return (p if tp + fp else None, r if tp + fn else None, f if tp + fp + fn else None)


def _fair_f1_statistic(totals: np.ndarray) -> np.ndarray:
    """``prf_f1_statistic`` (bit for bit the point estimate), NaN where F1 is undefined:
    no system and no target span (columns correct, predicted, gold)."""
    return _nan_without_spans(prf_f1_statistic(totals), totals)


def _traditional_f1_statistic(totals: np.ndarray) -> np.ndarray:
    """``f1_statistic``, NaN where F1 is undefined (no span on either side)."""
    return _nan_without_spans(f1_statistic(totals), totals)


def _nan_without_spans(values: np.ndarray, totals: np.ndarray) -> np.ndarray:
    values[(totals[:, 1] + totals[:, 2]) == 0] = np.nan
    return values


def _put(out: dict, prefix: str, scores) -> None:
    for name, value in zip(("precision", "recall", "f1"), scores):
        out[f"{prefix}_{name}" if prefix else name] = value


def build_result(prepared: Prepared, events: Events, focus: str, weights, weight_table,
                 fair_table, confusion_tp: bool, return_pairs: bool, *,
                 semeval: tuple = (None, None), options: dict | None = None
                 ) -> FairEvalResult:
    """The result of ``events`` (``matching.find_errors``) on ``prepared``, built once:
    ``semeval`` is ``(scores, per-sentence counts)`` of the SemEval schemas, or Nones;
    ``options`` what shaped the numbers."""
    n_labels = len(prepared.labels)
    t_label = np.where(events.target >= 0,
                       prepared.target.type[np.maximum(events.target, 0)]
                       if len(prepared.target) else -1, -1)
    s_label = np.where(events.system >= 0,
                       prepared.system.type[np.maximum(events.system, 0)]
                       if len(prepared.system) else -1, -1)
    kind = events.kind.astype(np.int64)
    kind_counts = np.bincount(kind, minlength=len(ERROR_TYPES))
    # per label: FP under the system label, TP/BE/FN under the target label, LE and LBE
    # under the focus side's label
    use_system = (kind == FP) | (((kind == LE) | (kind == LBE)) & (focus == "system"))
    label = np.where(use_system, s_label, t_label)
    label_kind = np.bincount(label * len(ERROR_TYPES) + kind,
                             minlength=n_labels * len(ERROR_TYPES)).reshape(n_labels, len(ERROR_TYPES))
    n_target = np.bincount(prepared.target.type, minlength=n_labels)
    n_system = np.bincount(prepared.system.type, minlength=n_labels)
    # confusion: errors (and optionally TPs); a missing side is the extra row/column.
    # Sparse: one code per event, the distinct codes counted (never labels^2 cells)
    shown = kind != TP if not confusion_tp else np.ones(len(kind), dtype=bool)
    row = np.where(t_label >= 0, t_label, n_labels)[shown]
    col = np.where(s_label >= 0, s_label, n_labels)[shown]
    confusion = summed_cells(row, col, np.ones(len(row), dtype=np.int64), n_labels + 1)
    pairs = _pairs(prepared, events) if return_pairs else None
    counts = (prepared.labels, kind_counts, label_kind, n_target, n_system, confusion,
              _sentence_counts(prepared, events))
    unplaced = _unplaced(prepared)
    if unplaced:
        counts = _with_unplaced(counts, unplaced)
    labels, kind_counts, label_kind, n_target, n_system, confusion, per_sentence = counts
    return FairEvalResult(labels, kind_counts, label_kind, n_target, n_system,
                          confusion, focus, weights, weight_table, fair_table, pairs,
                          prepared.repairs, per_sentence, *semeval,
                          options=dict(options or {}))


def summed_cells(row: np.ndarray, col: np.ndarray, count: np.ndarray, size: int) -> np.ndarray:
    """The non-zero cells of a ``size`` x ``size`` matrix as rows (row, column, count),
    sorted: the counts of equal (row, column) summed."""
    code = row.astype(np.int64) * size + col.astype(np.int64)
    cells, where = np.unique(code, return_inverse=True)
    totals = np.bincount(where.ravel(), count, len(cells)).astype(np.int64)
    keep = totals != 0
    return np.column_stack([cells[keep] // size, cells[keep] % size, totals[keep]])


def _unplaced(prepared: Prepared) -> tuple:
    """The system's generated entities found nowhere in their sentence (``nerspan.
    generative``): spans with no position, each a false positive (FP)."""
    repairs = prepared.repairs.get(PRED)
    generated = getattr(repairs, "generated", None)
    return generated.ungrounded if generated is not None else ()


def _with_unplaced(counts: tuple, unplaced: tuple) -> tuple:
    """The counts with every unplaced entity an FP of its type (a label added when the
    type is none of them): overall, per label, in the confusion's no-target row and in
    its sentence. They are in no ``pairs`` (they have no span)."""
    labels, kind_counts, label_kind, n_target, n_system, confusion, per_sentence = counts
    new = sorted({item.type for item in unplaced} - set(labels))
    labels = tuple(labels) + tuple(new)
    index = {label: k for k, label in enumerate(labels)}
    size, grow = len(labels), len(new)
    label_kind = np.pad(label_kind, ((0, grow), (0, 0)))
    n_target, n_system = np.pad(n_target, (0, grow)), np.pad(n_system, (0, grow))
    # the confusion's last row and column (no target span, no system span) stay last
    old = len(index) - grow
    row, col = (np.where(confusion[:, k] == old, size, confusion[:, k]) for k in (0, 1))
    unplaced_label = np.array([index[item.type] for item in unplaced], dtype=np.int64)
    widened = summed_cells(np.concatenate([row, np.full(len(unplaced), size)]),
                     np.concatenate([col, unplaced_label]),
                     np.concatenate([confusion[:, 2], np.ones(len(unplaced), np.int64)]),
                     size + 1)
    kind_counts, per_sentence = kind_counts.copy(), per_sentence.copy()
    for item in unplaced:
        k = index[item.type]
        kind_counts[FP] += 1
        label_kind[k, FP] += 1
        n_system[k] += 1
        per_sentence[item.sentence, FP] += 1
        per_sentence[item.sentence, -1] += 1
    return labels, kind_counts, label_kind, n_target, n_system, widened, per_sentence


def _sentence_counts(prepared: Prepared, events: Events) -> np.ndarray:
    """Sentences x (8 event kinds, target spans, system spans)."""
    n, width = prepared.n_sentences, len(ERROR_TYPES)
    target_sentence = prepared.target.sentence
    system_sentence = prepared.system.sentence
    sentence = np.where(events.target >= 0,
                        target_sentence[np.maximum(events.target, 0)] if len(target_sentence) else -1,
                        system_sentence[np.maximum(events.system, 0)] if len(system_sentence) else -1)
    kinds = np.bincount(sentence.astype(np.int64) * width + events.kind.astype(np.int64),
                        minlength=n * width).reshape(n, width)
    return np.column_stack([kinds, np.bincount(target_sentence, minlength=n),
                            np.bincount(system_sentence, minlength=n)])


def _pairs(prepared: Prepared, events: Events) -> list:
    """Per sentence, every event as ``{"type", "target", "system"}`` (spans as
    ``(label, start, end)`` or None), ordered by the start (then end) of its first span;
    events tied keep their order. The order is found on arrays; Python only builds the
    listed dicts."""
    t, s = events.target, events.system
    first, last = np.iinfo(np.int64).max, np.iinfo(np.int64).max
    sentence = np.where(t >= 0, _at(prepared.target.sentence, t, 0),
                        _at(prepared.system.sentence, s, 0))
    t_start, t_end = _at(prepared.target.start, t, first), _at(prepared.target.end, t, last)
    s_start, s_end = _at(prepared.system.start, s, first), _at(prepared.system.end, s, last)
    by_target = (t_start < s_start) | ((t_start == s_start) & (t_end <= s_end))
    order = np.lexsort((np.where(by_target, t_end, s_end), np.where(by_target, t_start, s_start),
                        sentence))
    targets, systems = _span_tuples(prepared.target, prepared.labels), \
        _span_tuples(prepared.system, prepared.labels)
    out = [[] for _ in range(prepared.n_sentences)]
    for k, i, j, n in zip(events.kind[order].tolist(), t[order].tolist(), s[order].tolist(),
                          sentence[order].tolist()):
        out[n].append({"type": ERROR_TYPES[k], "target": targets[i] if i >= 0 else None,
                       "system": systems[j] if j >= 0 else None})
    return out


def _listed(span: tuple | None) -> list | None:
    if span is None:
        return None
    fragments = [[list(fragment) for fragment in span[3]]] if len(span) > 3 else []
    return list(span[:3]) + fragments


def _at(values: np.ndarray, index: np.ndarray, missing: int) -> np.ndarray:
    """``values[index]`` as int64, ``missing`` where ``index`` is -1 (no span)."""
    if not len(values):
        return np.full(len(index), missing, dtype=np.int64)
    return np.where(index >= 0, values[np.maximum(index, 0)].astype(np.int64), missing)


def _span_tuples(table, labels) -> list:
    """Per span ``(label, start, end)``; a discontinuous one's has its fragments too,
    ``(label, start, end, ((start, end), ...))``, start and end being its bounds."""
    base = table.base   # offsets in its sentence
    spans = list(zip([labels[k] for k in table.type.tolist()], (table.start - base).tolist(),
                     (table.end - base).tolist()))
    for row, fragments in fragment_sets(table, local=True).items():
        spans[row] += (fragments,)
    return spans


__all__ = ["FairEvalResult", "prf_from_errors", "defined_prf", "build_result",
           "named_counts", "weight_table_prf", "FOCUS", "confusion_table",
           "confusion_layout", "summed_note", "error_confusion", "summed_cells",
           "CONFUSION_LABELS", "summed_name",
           "NO_TARGET", "NO_SYSTEM"]

# 0.1's alias, gone in 0.2: an error naming its new spelling.
__getattr__ = moved_names(__name__, {"weighted_prf": "faireval.result.weight_table_prf"})
