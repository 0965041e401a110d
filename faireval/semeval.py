"""SemEval-2013 Task 9.1 schemas, as nervaluate counts them: another accounting of the spans.

Every predicted span is correct, incorrect, partial or spurious; every gold span not
taken by a prediction is missed. possible = correct + incorrect + partial + missed (the
gold spans), actual = correct + incorrect + partial + spurious (the predictions).

nervaluate's matching, which this reproduces (it is greedy, so results can depend on
the order of the spans; tags give them in text order): predictions are taken in list
order, each against the gold spans of its sentence not yet taken that overlap it (at
least 1% of the gold span's tokens, or the same boundaries). Among those candidates the
schema's "correct" candidate wins if there is one (the first; for ent_type the one with
the closest boundaries, the first on ties); otherwise the first candidate is taken as
incorrect (partial in the partial schema). Per type, each type is evaluated on its own
spans only (both sides filtered to it), so a type confusion is missed + spurious there
and the per-type counts need not add up to the overall ones. Zero division gives 0.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nerspan.corpus import ranges

from .inputs import Prepared, SpanTable

CORRECT, INCORRECT, PARTIAL, SPURIOUS, MISSED = range(5)
COUNT_NAMES = ("correct", "incorrect", "partial", "spurious", "missed")
MIN_OVERLAP_PERCENT = 1.0  # nervaluate's default min_overlap_percentage


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


def semeval_scores(prepared: Prepared, schemas=SEMEVAL) -> tuple[dict, dict]:
    """Schema -> counts, possible, actual, precision, recall, f1 and ``per_type``; and
    schema -> per-sentence counts (sentences x 5, ``COUNT_NAMES`` order) for the bootstrap."""
    out, per_sentence = {}, {}
    n_labels = len(prepared.labels)
    target, system = prepared.target, prepared.system
    used = np.flatnonzero(np.bincount(target.label, minlength=n_labels)
                          + np.bincount(system.label, minlength=n_labels))
    for name in check_schemas(schemas):
        schema = SCHEMAS[name]
        overall = _outcomes(schema, target, system, target.sentence, system.sentence)
        # per type: the same matching with each (sentence, type) on its own
        by_type = _outcomes(schema, target, system,
                            target.sentence * n_labels + target.label,
                            system.sentence * n_labels + system.label)
        per_sentence[name] = _count(overall, system.sentence, target.sentence,
                                    prepared.n_sentences)
        row = _row(schema, per_sentence[name].sum(0))
        per_label = _count(by_type, system.label, target.label, n_labels)
        row["per_type"] = {prepared.labels[k]: _row(schema, per_label[k]) for k in used}
        out[name] = row
    return out, per_sentence


def credit_counts(name: str, counts: np.ndarray) -> np.ndarray:
    """Per sentence (credit, actual, possible): the totals P, R and F1 are made of."""
    correct, incorrect, partial, spurious, missed = counts.T.astype(float)
    credit = correct + 0.5 * partial if SCHEMAS[name].half_partial else correct
    return np.stack([credit, correct + incorrect + partial + spurious,
                     correct + incorrect + partial + missed], axis=1)


def _count(outcomes, system_key: np.ndarray, target_key: np.ndarray, n: int) -> np.ndarray:
    """n x 5 counts (``COUNT_NAMES`` order): system spans by their outcome under
    ``system_key``, missed target spans under ``target_key``."""
    pred_kind, missed = outcomes
    counts = np.bincount(system_key.astype(np.int64) * 5 + pred_kind, minlength=n * 5)
    counts = counts.reshape(n, 5)
    counts[:, MISSED] = np.bincount(target_key[missed], minlength=n)
    return counts


def _row(schema: Schema, counts) -> dict:
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


def _outcomes(schema: Schema, target: SpanTable, system: SpanTable, target_group,
              system_group) -> tuple[np.ndarray, np.ndarray]:
    """Per system span its kind, per target span whether it was missed.

    Groups (sentences, or sentence-type pairs) are matched independently: only spans of
    one group form pairs. A pair whose two spans take part in no other pair has its
    outcome read off directly; the pairs that share a span replay the greedy matching.
    """
    pairs_s, pairs_t = _overlap_pairs(target, system, target_group, system_group)
    good = _is_correct(schema, target, system, pairs_t, pairs_s)
    shared = ((np.bincount(pairs_s, minlength=len(system)) > 1)[pairs_s]
              | (np.bincount(pairs_t, minlength=len(target)) > 1)[pairs_t])
    pred_kind = np.full(len(system), SPURIOUS, dtype=np.int64)
    missed = np.ones(len(target), dtype=bool)
    alone = ~shared
    pred_kind[pairs_s[alone]] = np.where(good[alone], CORRECT, schema.other)
    missed[pairs_t[alone]] = False
    s, t, good = pairs_s[shared], pairs_t[shared], good[shared]
    distance = (np.abs(target.start[t] - system.start[s])
                + np.abs(target.end[t] - system.end[s]) if schema.closest else None)
    matched, kinds, taken = _greedy(schema, s, t, good, distance)
    pred_kind[matched] = kinds
    missed[taken] = False
    return pred_kind, missed


def _is_correct(schema: Schema, target, system, t, s) -> np.ndarray:
    ok = np.ones(len(t), dtype=bool)
    if schema.same_bounds:
        ok &= (target.start[t] == system.start[s]) & (target.end[t] == system.end[s])
    if schema.same_label:
        ok &= target.label[t] == system.label[s]
    return ok


def _overlap_pairs(target: SpanTable, system: SpanTable, target_group, system_group
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Every (system, target) pair of one group that overlaps enough.

    Two spans overlap when one starts within the other: the target spans that start
    within a system span (at or after its start) and the system spans that start within
    a target span (after its start) are ranges of one sorted order each. Finding them
    costs n log n plus the pairs, however the spans nest.
    """
    empty = np.zeros(0, dtype=np.int64)
    if not len(target) or not len(system):
        return empty, empty
    width = int(max(target.end.max(), system.end.max())) + 1  # keys never cross groups
    t_start, t_end = target_group * width + target.start, target_group * width + target.end
    s_start, s_end = system_group * width + system.start, system_group * width + system.end
    s_one, t_one = _starting_within(s_start, s_end, t_start)
    t_two, s_two = _starting_within(t_start + 1, t_end, s_start)
    pairs_s, pairs_t = np.concatenate([s_one, s_two]), np.concatenate([t_one, t_two])
    overlap = (np.minimum(system.end[pairs_s], target.end[pairs_t])
               - np.maximum(system.start[pairs_s], target.start[pairs_t]))
    length = target.end[pairs_t] - target.start[pairs_t]
    keep = (overlap > 0) & ((overlap / length) * 100.0 >= MIN_OVERLAP_PERCENT)
    return pairs_s[keep], pairs_t[keep]


def _starting_within(first: np.ndarray, after: np.ndarray, other_first: np.ndarray) -> tuple:
    """``(i, j)`` for every ``other_first[j]`` in ``[first[i], after[i])``."""
    order = np.argsort(other_first, kind="stable")
    lo = np.searchsorted(other_first[order], first, "left")
    n = np.searchsorted(other_first[order], after, "left") - lo
    return np.repeat(np.arange(len(first)), n), order[ranges(lo, n)]


def _greedy(schema: Schema, pair_s, pair_t, good, distance) -> tuple:
    """nervaluate's matching of ``(system, target)`` pairs that share spans: system spans
    in list order, each taking its first correct candidate not yet taken (``good``; with
    ``schema.closest`` the one of least ``distance``, the first on ties), else its first
    candidate not yet taken. Returns the system spans matched, their kinds and the
    targets taken.

    Pairs of different groups share no span, so one pass over the pairs, each looked at
    once, replays every group.
    """
    order = np.lexsort((pair_t, pair_s))
    pair_s, pair_t, good = pair_s[order], pair_t[order].tolist(), good[order].tolist()
    distance = distance[order].tolist() if distance is not None else None
    bounds = np.flatnonzero(np.diff(pair_s, prepend=-1, append=-1)).tolist()
    systems, kinds, taken = [], [], set()
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        free = [p for p in range(lo, hi) if pair_t[p] not in taken]
        if not free:
            continue
        correct = [p for p in free if good[p]]
        if correct and distance is not None:
            choice = min(correct, key=distance.__getitem__)  # min: the first on ties
        else:
            choice = correct[0] if correct else free[0]
        systems.append(int(pair_s[lo]))
        kinds.append(CORRECT if correct else schema.other)
        taken.add(pair_t[choice])
    return (np.array(systems, dtype=np.int64), np.array(kinds, dtype=np.int64),
            np.fromiter(taken, dtype=np.int64, count=len(taken)))
