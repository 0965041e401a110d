"""The paper's Algorithm 2: pair target and system spans and name every error.

Step 1 (TP, then LE) is done for the whole corpus at once with integer keys: within a
sentence the k-th target of a key (in sorted list order) takes the k-th system span of
the same key, which is exactly what "first match in list order" gives. Only the spans
left over after step 1, in sentences that have leftovers on both sides, go through the
per-sentence passes of steps 2 and 3; that is where the few real errors are. Token sets
are Python ints used as bitmasks (bit i = token i of the sentence).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .inputs import Prepared, SpanTable

# Event kinds, in the order of weights.ERROR_TYPES.
TP, LE, BES, BEL, BEO, LBE, FN, FP = range(8)


@dataclass(frozen=True)
class Events:
    """One row per counted event: its kind and the target/system span (-1 = none).

    Indices point into ``Prepared.target`` / ``Prepared.system``.
    """

    kind: np.ndarray
    target: np.ndarray
    system: np.ndarray

    def __len__(self) -> int:
        return len(self.kind)


def find_errors(prepared: Prepared, reference_iteration: bool = False) -> Events:
    """Every TP, LE, BE (by subtype), LBE, FN and FP of the corpus.

    ``reference_iteration``: see ``_match_sentence``.
    """
    target, system = prepared.target, prepared.system
    rank_t, rank_s = _sorted_rank(target), _sorted_rank(system)
    parts = []

    # Step 1a: TP = same sentence, start, end and label.
    key_t, key_s = _shared_keys([target.sentence, target.start, target.end, target.label],
                                [system.sentence, system.start, system.end, system.label])
    tp_t, tp_s = _pair_equal_keys(key_t, rank_t, key_s, rank_s)
    parts.append((TP, tp_t, tp_s))
    left_t = np.setdiff1d(np.arange(len(target)), tp_t, assume_unique=True)
    left_s = np.setdiff1d(np.arange(len(system)), tp_s, assume_unique=True)

    # Step 1b: LE = same sentence, start and end among the rest. After the TP pass no
    # label is left on both sides of a position, so every such pair has different labels.
    key_t, key_s = _shared_keys([target.sentence[left_t], target.start[left_t], target.end[left_t]],
                                [system.sentence[left_s], system.start[left_s], system.end[left_s]])
    le_t, le_s = _pair_equal_keys(key_t, rank_t[left_t], key_s, rank_s[left_s])
    le_t, le_s = left_t[le_t], left_s[le_s]
    parts.append((LE, le_t, le_s))
    left_t = np.setdiff1d(left_t, le_t, assume_unique=True)
    left_s = np.setdiff1d(left_s, le_s, assume_unique=True)

    # Steps 2-4 sentence by sentence, only where both sides have leftovers.
    both = np.intersect1d(target.sentence[left_t], system.sentence[left_s])
    alone_t = left_t[~np.isin(target.sentence[left_t], both)]
    alone_s = left_s[~np.isin(system.sentence[left_s], both)]
    parts.append((FN, alone_t, np.full(len(alone_t), -1)))
    parts.append((FP, np.full(len(alone_s), -1), alone_s))
    busy_t = left_t[np.isin(target.sentence[left_t], both)]
    busy_s = left_s[np.isin(system.sentence[left_s], both)]
    kinds, ts, ss = _match_leftovers(prepared, busy_t[np.argsort(rank_t[busy_t], kind="stable")],
                                     busy_s[np.argsort(rank_s[busy_s], kind="stable")],
                                     reference_iteration)
    kind = np.concatenate([np.full(len(t), k, dtype=np.int8) for k, t, _ in parts]
                          + [np.asarray(kinds, dtype=np.int8)])
    t_index = np.concatenate([t for _, t, _ in parts] + [np.asarray(ts, dtype=np.int64)])
    s_index = np.concatenate([s for _, _, s in parts] + [np.asarray(ss, dtype=np.int64)])
    return Events(kind, t_index.astype(np.int64), s_index.astype(np.int64))


# -- step 1 helpers ----------------------------------------------------------------------
def _sorted_rank(table: SpanTable) -> np.ndarray:
    """Position of every span in the list sorted stably by length, sentence by sentence."""
    n = len(table)
    order = np.lexsort((np.arange(n), table.end - table.start, table.sentence))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    return rank


def _shared_keys(cols_a: list, cols_b: list) -> tuple[np.ndarray, np.ndarray]:
    """Dense int64 ids (0..n_distinct) of the rows of both column sets, equal for equal rows."""
    n_a = len(cols_a[0])
    stacked = [np.concatenate([a, b]).astype(np.int64) for a, b in zip(cols_a, cols_b)]
    if not len(stacked[0]):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    key = np.zeros(len(stacked[0]), dtype=np.int64)
    capacity = 1
    for col in stacked:  # mixed radix while it fits in int64, np.unique rows otherwise
        span = int(col.max()) + 1
        capacity *= span
        if capacity >= 2 ** 62 or col.min() < 0:
            _, key = np.unique(np.stack(stacked, axis=1), axis=0, return_inverse=True)
            return key[:n_a].ravel().astype(np.int64), key[n_a:].ravel().astype(np.int64)
        key = key * span + col
    _, key = np.unique(key, return_inverse=True)  # dense, so that counts fit in memory
    key = key.ravel().astype(np.int64)
    return key[:n_a], key[n_a:]


def _occurrence(key: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """For every element, how many elements with the same key come before it by rank."""
    order = np.lexsort((rank, key))
    sorted_key = key[order]
    head = np.ones(len(key), dtype=bool)
    head[1:] = sorted_key[1:] != sorted_key[:-1]
    run_start = np.maximum.accumulate(np.where(head, np.arange(len(key)), 0))
    occurrence = np.empty(len(key), dtype=np.int64)
    occurrence[order] = np.arange(len(key)) - run_start
    return occurrence


def _pair_equal_keys(key_a, rank_a, key_b, rank_b) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the pairs (a, b) with equal keys: the k-th a of a key with the k-th b."""
    if not len(key_a) or not len(key_b):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    occ_a, occ_b = _occurrence(key_a, rank_a), _occurrence(key_b, rank_b)
    size = int(max(key_a.max(), key_b.max())) + 1
    count_a = np.bincount(key_a, minlength=size)
    count_b = np.bincount(key_b, minlength=size)
    hit_a = np.flatnonzero(occ_a < count_b[key_a])
    hit_b = np.flatnonzero(occ_b < count_a[key_b])
    # both hit lists hold the same (key, occurrence) pairs: sort both the same way
    hit_a = hit_a[np.lexsort((occ_a[hit_a], key_a[hit_a]))]
    hit_b = hit_b[np.lexsort((occ_b[hit_b], key_b[hit_b]))]
    return hit_a, hit_b


# -- steps 2-4 ---------------------------------------------------------------------------
def _match_leftovers(prepared: Prepared, left_t: np.ndarray, left_s: np.ndarray,
                     reference_iteration: bool = False):
    """Run steps 2-4 on every sentence's leftovers (each side given in sorted order)."""
    target, system = prepared.target, prepared.system
    kinds: list = []
    ts: list = []
    ss: list = []
    if not len(left_t):
        return kinds, ts, ss
    punct = prepared.punct.masks if prepared.punct is not None else None
    sent_t = target.sentence[left_t]
    sent_s = system.sentence[left_s]
    # left_t/left_s are in sorted order, which keeps sentences together and ascending
    cut_t = np.flatnonzero(np.diff(sent_t)) + 1
    cut_s = np.flatnonzero(np.diff(sent_s)) + 1
    rows_t = _rows(target, left_t)
    rows_s = _rows(system, left_s)
    bounds_t = [0, *cut_t.tolist(), len(left_t)]
    bounds_s = [0, *cut_s.tolist(), len(left_s)]
    for k in range(len(bounds_t) - 1):
        t_rows = rows_t[bounds_t[k]:bounds_t[k + 1]]
        s_rows = rows_s[bounds_s[k]:bounds_s[k + 1]]
        holes = ~punct[t_rows[0][4]] if punct is not None else -1
        _match_sentence(t_rows, s_rows, holes, kinds, ts, ss, reference_iteration)
    return kinds, ts, ss


def _rows(table: SpanTable, index: np.ndarray) -> list:
    return list(zip(index.tolist(), table.label[index].tolist(), table.start[index].tolist(),
                    table.end[index].tolist(), table.sentence[index].tolist()))


def _match_sentence(targets: list, systems: list, keep_bits: int, kinds, ts, ss,
                    reference_iteration: bool = False) -> None:
    """Steps 2-4 for one sentence. Rows are (index, label, start, end, sentence).

    ``keep_bits`` masks out punctuation tokens (all ones when punctuation counts).
    ``reference_iteration`` reproduces the reference code, which removes a matched span
    from the list it is iterating over and so skips the span after it in that pass.
    """
    t_left = [((1 << (e - s)) - 1) << s & keep_bits for _, _, s, e, _ in targets]
    s_left = [((1 << (e - s)) - 1) << s & keep_bits for _, _, s, e, _ in systems]
    t_done = [False] * len(targets)
    s_done = [False] * len(systems)

    def best(bits, candidates, cand_left, cand_rows, cand_is_system):
        """The most similar candidate: most shared tokens, fewest target-only, fewest
        system-only, shortest original span, first in list order."""
        chosen, chosen_key = -1, None
        own = bits.bit_count()
        for j in candidates:
            shared = (bits & cand_left[j]).bit_count()
            if not shared:
                continue
            other = cand_left[j].bit_count() - shared
            own_only = own - shared
            t_only, s_only = (own_only, other) if cand_is_system else (other, own_only)
            _, _, start, end, _ = cand_rows[j]
            key = (-shared, t_only, s_only, end - start, j)
            if chosen_key is None or key < chosen_key:
                chosen, chosen_key = j, key
        return chosen

    def record(i, j, same_label):
        t, s = targets[i], systems[j]
        if same_label:
            if s[2] >= t[2] and s[3] <= t[3]:
                kind = BES
            elif s[2] <= t[2] and s[3] >= t[3]:
                kind = BEL
            else:
                kind = BEO
        else:
            kind = LBE
        kinds.append(kind)
        ts.append(t[0])
        ss.append(s[0])
        shared = t_left[i] & s_left[j]
        t_left[i] &= ~shared
        s_left[j] &= ~shared
        t_done[i] = s_done[j] = True

    def sweep(same_label, from_targets, partners_done):
        """One pass over the spans of one side that are still unmatched, each against the
        other side's spans of the wanted label relation whose matched state is
        ``partners_done``."""
        own_done, own_left = (t_done, t_left) if from_targets else (s_done, s_left)
        other_done, other_left = (s_done, s_left) if from_targets else (t_done, t_left)
        other_rows = systems if from_targets else targets
        skip = False
        for a in range(len(own_done)):
            if own_done[a]:
                continue
            if skip:
                skip = False
                continue
            own_label = (targets if from_targets else systems)[a][1]
            candidates = [b for b in range(len(other_done))
                          if other_done[b] == partners_done
                          and (other_rows[b][1] == own_label) == same_label]
            b = best(own_left[a], candidates, other_left, other_rows, from_targets)
            if b >= 0:
                record(*((a, b) if from_targets else (b, a)), same_label)
                skip = reference_iteration

    for same_label in (True, False):  # step 2: BE, step 3: LBE
        sweep(same_label, from_targets=True, partners_done=False)  # (a) free against free
        sweep(same_label, from_targets=True, partners_done=True)   # (b) free target, matched system
        sweep(same_label, from_targets=False, partners_done=True)  # (c) free system, matched target
    # step 4
    n_t, n_s = len(targets), len(systems)
    for i in range(n_t):
        if not t_done[i]:
            kinds.append(FN)
            ts.append(targets[i][0])
            ss.append(-1)
    for j in range(n_s):
        if not s_done[j]:
            kinds.append(FP)
            ts.append(-1)
            ss.append(systems[j][0])
