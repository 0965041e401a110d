"""SemEval-2013 Task 9.1 schemas, as nervaluate counts them: another accounting of the spans.

Every predicted span is correct, incorrect, partial or spurious; every gold span not
taken by a prediction is missed. possible = correct + incorrect + partial + missed (the
gold spans), actual = correct + incorrect + partial + spurious (the predictions).

nervaluate's pairing (``pairing="greedy"``, the default; ``nervaluate/strategies.py``),
which this reproduces: predictions are taken in list order, each against the gold spans
of its sentence not yet taken that overlap it by at least ``min_overlap`` (a fraction of
the gold span's tokens; nervaluate's ``min_overlap_percentage`` / 100, default 1%).
Among those candidates the schema's "correct" candidate wins if there is one (the first;
for ent_type the one with the closest boundaries, the first on ties); otherwise the
first candidate is taken as incorrect (partial in the partial schema). Being greedy, it
can depend on the order of the spans (tags give them in text order; nervaluate issue
40). ``pairing="optimal"`` pairs them instead by a maximum-weight assignment within
each group of spans linked by overlaps: the pairs the schema counts correct first, then
the most overlapping tokens, then the most pairs; spans tied on all three are taken in
the order of their boundaries and labels, so the pairing does not depend on the order
of the input (``faireval.assignment``: linear in the pairs).

Per type, each type is evaluated on its own spans only (both sides filtered to it), so
a type confusion is missed + spurious there and the per-type counts need not add up to
the overall ones. Zero division gives 0. ``semeval_instances`` lists, per schema, every
gold and predicted span with its outcome (nervaluate's per-instance indices, with the
gold span each prediction took), as plain JSON; ``write_instances_csv`` writes them.

Mentions of several fragments are fragment sets (``faireval.fragments``): two spans
overlap when the tokens they cover intersect, the overlap is the tokens both cover (a
fraction of those the gold span covers), and exact boundaries are equal fragment sets.
Contiguous spans meet the interval arithmetic nervaluate's are counted with.
"""
from __future__ import annotations

import csv
import numbers
import os
from dataclasses import dataclass

import numpy as np

from nerspan.corpus import ranges
from nerspan.errors import InputTypeError, shown
from nerspan.options import PAIRINGS

from .assignment import optimal_pairs
from nerspan.spans import Spans

from .fragments import covered_lengths, shape_ids, shared_tokens
from .inputs import Prepared

CORRECT, INCORRECT, PARTIAL, SPURIOUS, MISSED = range(5)
COUNT_NAMES = ("correct", "incorrect", "partial", "spurious", "missed")
MIN_OVERLAP = 0.01  # nervaluate's default min_overlap_percentage (1.0), as a fraction


@dataclass(frozen=True)
class Schema:
    """One schema: what makes a candidate correct, how the rest is named and weighed."""

    name: str
    same_bounds: bool   # a correct candidate has the gold span's boundaries
    same_label: bool    # ... and its label
    closest: bool       # among correct candidates take the closest boundaries (else first)
    other: int          # what a non-correct overlapping candidate counts as
    half_partial: bool  # precision and recall count a partial as half correct


SCHEMAS = {schema.name: schema for schema in (
    Schema("strict", True, True, False, INCORRECT, False),
    Schema("exact", True, False, False, INCORRECT, False),
    Schema("partial", True, False, False, PARTIAL, True),
    Schema("ent_type", False, True, True, INCORRECT, True),
)}
SEMEVAL = "semeval"


def check_schemas(schemas) -> tuple:
    """``None`` -> (); ``"semeval"`` -> all four; or a list of schema names."""
    if schemas is None or schemas == () or schemas == []:
        return ()
    if schemas == SEMEVAL:
        return tuple(SCHEMAS)
    names = [schemas] if isinstance(schemas, str) else list(schemas)
    for name in names:
        if name not in SCHEMAS and name != SEMEVAL:
            raise ValueError(f"unknown schema {name!r}; choose 'semeval' (all four) or some "
                             f"of {', '.join(SCHEMAS)}")
    return tuple(SCHEMAS) if SEMEVAL in names else tuple(dict.fromkeys(names))


def check_min_overlap(min_overlap) -> float:
    """``min_overlap`` as a float in (0, 1]: a fraction, not nervaluate's percentage.

    >>> check_min_overlap(0.5)
    0.5
    >>> check_min_overlap(50)
    Traceback (most recent call last):
    ...
    ValueError: min_overlap must be a fraction of the gold span's tokens in (0, 1] (nervaluate's min_overlap_percentage / 100), not 50
    """
    if isinstance(min_overlap, (bool, np.bool_)) or not isinstance(min_overlap, numbers.Real):
        raise InputTypeError(f"min_overlap must be a number in (0, 1], not {shown(min_overlap)}"
                             f" (a {type(min_overlap).__name__})")
    if not 0 < min_overlap <= 1:
        raise ValueError("min_overlap must be a fraction of the gold span's tokens in (0, 1] "
                         f"(nervaluate's min_overlap_percentage / 100), not {min_overlap}")
    return float(min_overlap)


def check_pairing(pairing: str) -> str:
    if pairing not in PAIRINGS:
        raise ValueError(f"unknown pairing {pairing!r}; choose 'greedy' (nervaluate's, in "
                         "list order) or 'optimal' (a maximum-weight pairing)")
    return pairing


@dataclass(frozen=True)
class Pairing:
    """How predictions take gold spans: ``min_overlap`` (a fraction of the gold span's
    tokens) and ``pairing`` (``"greedy"`` or ``"optimal"``); ``label_rank`` orders the
    label ids by name (optimal matching's order of ties)."""

    min_overlap: float = MIN_OVERLAP
    pairing: str = "greedy"
    label_rank: np.ndarray | None = None

    @classmethod
    def checked(cls, prepared: Prepared, min_overlap, pairing) -> "Pairing":
        rank = np.argsort(np.argsort(np.asarray(prepared.labels, dtype=object)))
        return cls(check_min_overlap(min_overlap), check_pairing(pairing), rank)

    @property
    def percent(self) -> float:
        """The threshold as nervaluate's percentage, which it compares with
        ``overlap / gold length * 100`` (rounded: 0.29 is 29, not 28.999999999999996)."""
        return round(self.min_overlap * 100.0, 9)


def semeval_scores(prepared: Prepared, schemas=SEMEVAL, *, min_overlap: float = MIN_OVERLAP,
                   pairing: str = "greedy") -> tuple[dict, dict]:
    """Schema -> counts, possible, actual, precision, recall, f1 and ``per_type``; and
    schema -> per-sentence counts (sentences x 5, ``COUNT_NAMES`` order) for the bootstrap.

    ``min_overlap``: the least overlap of a prediction that may take a gold span, as a
    fraction of the gold span's tokens (default 0.01: nervaluate's 1%; equal numbers to
    nervaluate's ``min_overlap_percentage`` = 100 x ``min_overlap``); ``pairing``:
    ``"greedy"`` (nervaluate's) or ``"optimal"`` (see the module).
    """
    how = Pairing.checked(prepared, min_overlap, pairing)
    out, per_sentence = {}, {}
    n_labels = len(prepared.labels)
    target, system = prepared.target, prepared.system
    used = np.flatnonzero(np.bincount(target.type, minlength=n_labels)
                          + np.bincount(system.type, minlength=n_labels))
    for name in check_schemas(schemas):
        schema = SCHEMAS[name]
        overall = _outcomes(schema, target, system, target.sentence, system.sentence, how)
        # per type: the same matching with each (sentence, type) on its own
        by_type = _outcomes(schema, target, system,
                            target.sentence * n_labels + target.type,
                            system.sentence * n_labels + system.type, how)
        per_sentence[name] = _count(overall, system.sentence, target.sentence,
                                    prepared.n_sentences)
        row = schema_row(schema, per_sentence[name].sum(0))
        per_label = _count(by_type, system.type, target.type, n_labels)
        row["per_type"] = {prepared.labels[k]: schema_row(schema, per_label[k]) for k in used}
        out[name] = row
    return out, per_sentence


def semeval_instances(prepared: Prepared, schemas=SEMEVAL, *,
                      min_overlap: float = MIN_OVERLAP, pairing: str = "greedy") -> dict:
    """Per schema, every span with its outcome (the overall matching of
    ``semeval_scores``): a list of rows ``{"sentence", "outcome", "pred", "gold"}``, the
    predictions of each sentence in list order (``pred`` the span, ``gold`` the one it
    took or None), then its missed gold spans (``pred`` None). A span is ``{"index",
    "label", "start", "end"}``: its index among its side's spans of the sentence (as
    nervaluate's instance indices count), its offsets 0-based, ``end`` exclusive.

    >>> from faireval.inputs import prepare
    >>> rows = semeval_instances(prepare([["B-PER", "I-PER", "O"]], [["B-PER", "O", "B-LOC"]]),
    ...                          ["partial"])["partial"]
    >>> [(r["outcome"], r["pred"] and r["pred"]["label"], r["gold"] and r["gold"]["end"])
    ...  for r in rows]
    [('partial', 'PER', 2), ('spurious', 'LOC', None)]
    """
    how = Pairing.checked(prepared, min_overlap, pairing)
    target, system = prepared.target, prepared.system
    out = {}
    for name in check_schemas(schemas):
        kinds, took = _outcomes(SCHEMAS[name], target, system, target.sentence,
                                system.sentence, how)
        out[name] = list(_instance_rows(prepared, kinds, took))
    return out


def _instance_rows(prepared: Prepared, kinds: np.ndarray, took: np.ndarray):
    target, system, labels = prepared.target, prepared.system, prepared.labels
    missed = np.ones(len(target), dtype=bool)
    missed[took[took >= 0]] = False
    side_index = [np.arange(len(t)) - np.searchsorted(t.sentence, t.sentence)
                  for t in (system, target)]
    # predictions of a sentence first (list order), then its missed gold spans
    sentence = np.concatenate([system.sentence, target.sentence[missed]])
    order = np.lexsort((np.arange(len(sentence)), sentence))
    for k in order.tolist():
        if k < len(system):
            t = int(took[k])
            yield {"sentence": int(system.sentence[k]), "outcome": COUNT_NAMES[kinds[k]],
                   "pred": _span(system, k, side_index[0], labels),
                   "gold": None if t < 0 else _span(target, t, side_index[1], labels)}
        else:
            t = int(np.flatnonzero(missed)[k - len(system)])
            yield {"sentence": int(target.sentence[t]), "outcome": "missed", "pred": None,
                   "gold": _span(target, t, side_index[1], labels)}


def _span(table: Spans, k: int, index: np.ndarray, labels: tuple) -> dict:
    """A span's row; a discontinuous one's start and end are its bounds, and it has
    ``fragments`` (``[[start, end], ...]``)."""
    base = int(table.base[k])   # offsets in its sentence
    row = {"index": int(index[k]), "label": labels[table.type[k]],
           "start": int(table.start[k]) - base, "end": int(table.end[k]) - base}
    if table.discontinuous[k]:
        row["fragments"] = table.fragments_of(k)
    return row


CSV_COLUMNS = ("schema", "sentence", "outcome", "gold_index", "gold_label", "gold_start",
               "gold_end", "pred_index", "pred_label", "pred_start", "pred_end")


def write_instances_csv(instances: dict, out) -> None:
    """Write ``semeval_instances``'s rows as CSV (``CSV_COLUMNS``, a header first, a
    side's cells empty where it has no span) to ``out``, a path or a text file.

    >>> import io
    >>> buffer = io.StringIO()
    >>> write_instances_csv({"strict": [{"sentence": 0, "outcome": "missed", "pred": None,
    ...     "gold": {"index": 0, "label": "PER", "start": 0, "end": 2}}]}, buffer)
    >>> print(buffer.getvalue().splitlines()[1])
    strict,0,missed,0,PER,0,2,,,,
    """
    if isinstance(out, (str, os.PathLike)):
        with open(out, "w", newline="", encoding="utf-8") as handle:
            return write_instances_csv(instances, handle)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for schema, rows in instances.items():
        for row in rows:
            cells = [schema, row["sentence"], row["outcome"]]
            for side in ("gold", "pred"):
                span = row[side] or {}
                cells += [span.get(key, "") for key in ("index", "label", "start", "end")]
            writer.writerow(cells)



def write_systems_csv(results: dict, path: str) -> list[str]:
    """Each system's instance listing (system -> result dict with ``semeval_instances``)
    as CSV: to ``path``, or with several systems to ``path`` with ``-SYSTEM`` before its
    extension. Returns the paths written."""
    stem, dot, extension = path.rpartition(".")
    paths = {name: path if len(results) == 1 else f"{stem}-{name}.{extension}" if dot
             else f"{path}-{name}" for name in results}
    for name, target in paths.items():
        write_instances_csv(results[name]["semeval_instances"], target)
    return list(paths.values())

def credit_counts(name: str, counts: np.ndarray) -> np.ndarray:
    """Per sentence (credit, actual, possible): the totals P, R and F1 are made of."""
    correct, incorrect, partial, spurious, missed = counts.T.astype(float)
    credit = correct + 0.5 * partial if SCHEMAS[name].half_partial else correct
    return np.stack([credit, correct + incorrect + partial + spurious,
                     correct + incorrect + partial + missed], axis=1)


def _count(outcomes, system_key: np.ndarray, target_key: np.ndarray, n: int) -> np.ndarray:
    """n x 5 counts (``COUNT_NAMES`` order): system spans by their outcome under
    ``system_key``, missed target spans (taken by none) under ``target_key``."""
    pred_kind, took = outcomes
    counts = np.bincount(system_key.astype(np.int64) * 5 + pred_kind, minlength=n * 5)
    counts = counts.reshape(n, 5)
    missed = np.ones(len(target_key), dtype=bool)
    missed[took[took >= 0]] = False
    counts[:, MISSED] = np.bincount(target_key[missed], minlength=n)
    return counts


def schema_row(schema: Schema, counts) -> dict:
    correct, incorrect, partial, spurious, missed = (int(c) for c in counts)
    possible = correct + incorrect + partial + missed
    actual = correct + incorrect + partial + spurious
    credit = correct + 0.5 * partial if schema.half_partial else correct
    precision = credit / actual if actual else 0.0
    recall = credit / possible if possible else 0.0
    f1 = 2 * (precision * recall) / (precision + recall) if precision + recall else 0.0
    return {"correct": correct, "incorrect": incorrect, "partial": partial, "missed": missed,
            "spurious": spurious, "possible": possible, "actual": actual,
            "precision": float(precision), "recall": float(recall), "f1": float(f1)}


def _outcomes(schema: Schema, target: Spans, system: Spans, target_group,
              system_group, how: Pairing) -> tuple[np.ndarray, np.ndarray]:
    """Per system span its kind and the target span it took (-1: none).

    Groups (sentences, or sentence-type pairs) are matched independently: only spans of
    one group form pairs. A pair whose two spans take part in no other pair has its
    outcome read off directly; the pairs that share a span are matched by ``how``.
    """
    pairs_s, pairs_t, overlap = _overlap_pairs(target, system, target_group, system_group,
                                               how.percent)
    good = _is_correct(schema, target, system, pairs_t, pairs_s)
    shared = ((np.bincount(pairs_s, minlength=len(system)) > 1)[pairs_s]
              | (np.bincount(pairs_t, minlength=len(target)) > 1)[pairs_t])
    pred_kind = np.full(len(system), SPURIOUS, dtype=np.int64)
    took = np.full(len(system), -1, dtype=np.int64)
    alone = ~shared
    pred_kind[pairs_s[alone]] = np.where(good[alone], CORRECT, schema.other)
    took[pairs_s[alone]] = pairs_t[alone]
    s, t, good = pairs_s[shared], pairs_t[shared], good[shared]
    if how.pairing == "greedy":
        distance = (np.abs(target.start[t] - system.start[s])
                    + np.abs(target.end[t] - system.end[s]) if schema.closest else None)
        matched, chosen, correct = _greedy(s, t, good, distance)
    else:
        matched, chosen, correct = optimal_pairs(s, t, good, overlap[shared], (system, target),
                                                 how.label_rank)
    pred_kind[matched] = np.where(correct, CORRECT, schema.other)
    took[matched] = chosen
    return pred_kind, took


def _is_correct(schema: Schema, target, system, t, s) -> np.ndarray:
    ok = np.ones(len(t), dtype=bool)
    if schema.same_bounds:   # the same fragment set
        shape_t, shape_s = shape_ids(target, system)
        ok &= ((target.start[t] == system.start[s]) & (target.end[t] == system.end[s])
               & (shape_t[t] == shape_s[s]))
    if schema.same_label:
        ok &= target.type[t] == system.type[s]
    return ok


def _overlap_pairs(target: Spans, system: Spans, target_group, system_group,
                   percent: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (system, target) pair of one group that overlaps by at least ``percent``
    of the target's tokens (as nervaluate computes it), and their overlaps in tokens.

    Two spans overlap when one starts within the other: the target spans that start
    within a system span (at or after its start) and the system spans that start within
    a target span (after its start) are ranges of one sorted order each. Finding them
    costs n log n plus the pairs, however the spans nest.
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(target) or not len(system):
        return empty, empty, empty
    width = int(max(target.end.max(), system.end.max())) + 1  # keys never cross groups
    t_start, t_end = target_group * width + target.start, target_group * width + target.end
    s_start, s_end = system_group * width + system.start, system_group * width + system.end
    s_one, t_one = _starting_within(s_start, s_end, t_start)
    t_two, s_two = _starting_within(t_start + 1, t_end, s_start)
    pairs_s, pairs_t = np.concatenate([s_one, s_two]), np.concatenate([t_one, t_two])
    overlap = shared_tokens(system, pairs_s, target, pairs_t)   # tokens covered by both
    length = covered_lengths(target)[pairs_t]
    keep = (overlap > 0) & ((overlap / length) * 100.0 >= percent)
    return pairs_s[keep], pairs_t[keep], overlap[keep]


def _starting_within(first: np.ndarray, after: np.ndarray, other_first: np.ndarray) -> tuple:
    """``(i, j)`` for every ``other_first[j]`` in ``[first[i], after[i])``."""
    order = np.argsort(other_first, kind="stable")
    lo = np.searchsorted(other_first[order], first, "left")
    n = np.searchsorted(other_first[order], after, "left") - lo
    return np.repeat(np.arange(len(first)), n), order[ranges(lo, n)]


def _greedy(pair_s, pair_t, good, distance) -> tuple:
    """nervaluate's matching of ``(system, target)`` pairs that share spans: system spans
    in list order, each taking its first correct candidate not yet taken (``good``; with
    ``distance`` the one of least distance, the first on ties), else its first candidate
    not yet taken. Returns the system spans matched, the targets they took and whether
    each took a correct one.

    Pairs of different groups share no span, so one pass over the pairs, each looked at
    once, replays every group.
    """
    order = np.lexsort((pair_t, pair_s))
    pair_s, pair_t, good = pair_s[order], pair_t[order].tolist(), good[order].tolist()
    distance = distance[order].tolist() if distance is not None else None
    bounds = np.flatnonzero(np.diff(pair_s, prepend=-1, append=-1)).tolist()
    systems, chosen, correct, taken = [], [], [], set()
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        free = [p for p in range(lo, hi) if pair_t[p] not in taken]
        if not free:
            continue
        good_ones = [p for p in free if good[p]]
        if good_ones and distance is not None:
            choice = min(good_ones, key=distance.__getitem__)  # min: the first on ties
        else:
            choice = good_ones[0] if good_ones else free[0]
        systems.append(int(pair_s[lo]))
        chosen.append(pair_t[choice])
        correct.append(bool(good_ones))
        taken.add(pair_t[choice])
    return (np.array(systems, dtype=np.int64), np.array(chosen, dtype=np.int64),
            np.array(correct, dtype=bool))
