"""The paper's Algorithm 2: pair target and system spans and name every error.

Step 1 (TP, then LE) is done for the whole corpus at once with integer keys: within a
sentence the k-th target of a key (in sorted list order) takes the k-th system span of
the same key, which is exactly what "first match in list order" gives. Only the spans
left over after step 1, in sentences that have leftovers on both sides, go through the
passes of steps 2 and 3; that is where the few real errors are. A span's candidates are
the other side's spans that overlap it, found once by binary search over sorted starts,
so a sentence costs O((n + overlapping pairs) log n), however long it is. Remaining
token sets are bitmasks (Python ints) in blocks of ``BLOCK`` tokens from the span's start,
so reading the tokens two spans share costs little however long either span is.

Mentions of several fragments (``faireval.fragments``) take part as their fragment sets:
step 1 pairs equal fragment sets; a candidate must cover a token the span covers (the
gaps between fragments are no token of it, as punctuation is not with ``ignore_punct``);
a boundary error's subtype compares the tokens covered; a span's length is the tokens
it covers. Contiguous spans meet exactly the interval arithmetic of before.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nerspan.flat import ranges
from nerspan.spans import Spans

from .fragments import covered_bits, covered_lengths, covers, shape_ids, shared_tokens
from .inputs import Prepared

# Event kinds, in the order of weights.ERROR_TYPES.
TP, LE, BES, BEL, BEO, LBE, FN, FP = range(8)
BLOCK = 1024  # tokens per bitmask block of a remaining token set (a multiple of 8)


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

    ``reference_iteration``: see ``_sweep``.
    """
    target, system = prepared.target, prepared.system
    rank_t, rank_s = _sorted_rank(target), _sorted_rank(system)
    shape_t, shape_s = shape_ids(target, system)
    parts = []

    # Step 1a: TP = same sentence, start, end, fragments and label.
    key_t, key_s = _shared_keys([target.sentence, target.start, target.end, shape_t,
                                 target.type],
                                [system.sentence, system.start, system.end, shape_s,
                                 system.type])
    tp_t, tp_s = _pair_equal_keys(key_t, rank_t, key_s, rank_s)
    parts.append((TP, tp_t, tp_s))
    left_t = np.setdiff1d(np.arange(len(target)), tp_t, assume_unique=True)
    left_s = np.setdiff1d(np.arange(len(system)), tp_s, assume_unique=True)

    # Step 1b: LE = same sentence, start and end among the rest. After the TP pass no
    # label is left on both sides of a position, so every such pair has different labels.
    key_t, key_s = _shared_keys([target.sentence[left_t], target.start[left_t],
                                 target.end[left_t], shape_t[left_t]],
                                [system.sentence[left_s], system.start[left_s],
                                 system.end[left_s], shape_s[left_s]])
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
def _sorted_rank(table: Spans) -> np.ndarray:
    """Position of every span in the list sorted stably by length (tokens covered),
    sentence by sentence."""
    n = len(table)
    order = np.lexsort((np.arange(n), covered_lengths(table), table.sentence))
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
@dataclass
class _Side:
    """One side's spans left after step 1, in sorted list order (sentence by sentence).

    ``left[k]`` is span k's set of remaining tokens: a list of bitmask blocks, bit i of
    block b standing for token ``start + b * BLOCK + i`` (as large as the span, not the
    sentence); ``count[k]`` is its size. ``matched[k]`` is -1 while span k is unmatched,
    then the number of the match that first took it: the reference code keeps matched
    spans in a list in that order, and its last tie-break among them is that order.
    ``unmatched[k]``: span k is on the list of unmatched spans (only ``reference_iteration``
    can leave a matched span there, see ``_removed``). ``same[k]`` / ``other[k]``: the
    positions (ascending) in the other side's lists of the spans that overlap span k with
    the same / another label; nothing else can share a token with it. ``twins[k]``: the
    positions (ascending) of the spans with span k's sentence, label, start and end, when
    there are several. ``length[k]``: the tokens span k covers; ``covered[k]``: for a
    discontinuous span, those tokens as a bitmask from its start (None: its interval).
    """

    index: list      # row in the side's Spans
    sentence: list
    start: list
    end: list
    left: list
    count: list
    matched: list
    unmatched: list
    same: list
    other: list
    twins: list
    length: list
    covered: list


def _match_leftovers(prepared: Prepared, left_t: np.ndarray, left_s: np.ndarray,
                     reference_iteration: bool = False):
    """Steps 2-4 on every sentence's leftovers (each side given in sorted order).

    The passes run over all sentences at once: a match only touches spans of its own
    sentence, so the events of each sentence come out as if the sentences ran one by
    one, and a stable sort by sentence puts them in that order.
    """
    if not len(left_t):
        return np.zeros(0, np.int8), np.zeros(0, np.int64), np.zeros(0, np.int64)
    targets, systems = _link(prepared, left_t, left_s)
    events: list = []
    for same_label in (True, False):  # step 2: BE, step 3: LBE
        _sweep(targets, systems, same_label, False, True, reference_iteration, events)  # (a)
        _sweep(targets, systems, same_label, True, True, reference_iteration, events)   # (b)
        _sweep(systems, targets, same_label, True, False, reference_iteration, events)  # (c)
    # step 4
    events += [(FN, targets.index[i], -1, targets.sentence[i])
               for i, unmatched in enumerate(targets.unmatched) if unmatched]
    events += [(FP, -1, systems.index[j], systems.sentence[j])
               for j, unmatched in enumerate(systems.unmatched) if unmatched]
    kind, t_index, s_index, sentence = (np.array(column, dtype=np.int64)
                                        for column in zip(*events))
    order = np.argsort(sentence, kind="stable")
    return kind[order].astype(np.int8), t_index[order], s_index[order]


def _link(prepared: Prepared, left_t: np.ndarray, left_s: np.ndarray) -> tuple:
    """Both sides' ``_Side``, with the overlapping pairs as candidate lists."""
    target, system = prepared.target, prepared.system
    pair_t, pair_s = _overlapping_pairs(target.take(left_t), system.take(left_s))
    # bounds that overlap, fragments that need not: a candidate shares a covered token
    touching = shared_tokens(target, left_t[pair_t], system, left_s[pair_s]) > 0
    pair_t, pair_s = pair_t[touching], pair_s[touching]
    same = target.type[left_t][pair_t] == system.type[left_s][pair_s]
    sides = []
    for table, index, own, partner in ((target, left_t, pair_t, pair_s),
                                       (system, left_s, pair_s, pair_t)):
        start, end = table.start[index], table.end[index]
        lengths = (end - start).tolist()
        split = table.discontinuous[index]
        bits = covered_bits(table, index)
        covered = [b if s else None for b, s in zip(bits, split.tolist())]
        if prepared.punct is not None:  # punctuation inside a span is not one of its tokens
            base = table.base[index]
            holes = prepared.punct.bits(table.sentence[index], start - base, end - base)
            bits = [full & ~hole for full, hole in zip(bits, holes)]
        left = [[b] if n <= BLOCK else _blocks(b, n) for b, n in zip(bits, lengths)]
        sides.append(_Side(index.tolist(), table.sentence[index].tolist(), start.tolist(),
                           end.tolist(), left, [b.bit_count() for b in bits],
                           [-1] * len(index), [True] * len(index),
                           _grouped(own[same], partner[same], len(index)),
                           _grouped(own[~same], partner[~same], len(index)),
                           _twins(table.take(index)),
                           covered_lengths(table)[index].tolist(), covered))
    return sides[0], sides[1]


def _twins(table: Spans) -> list:
    """Per span, the positions of the spans identical to it (sentence, label, start,
    end, fragments), ascending, or () when it has no twin."""
    key = _shared_keys([table.sentence, table.type, table.start, table.end,
                        shape_ids(table)[0]], [np.zeros(0, np.int64)] * 5)[0]
    n = len(key)
    twinned = np.bincount(key, minlength=1)[key] > 1 if n else np.zeros(0, dtype=bool)
    groups = _grouped(key[twinned], np.flatnonzero(twinned), int(key.max()) + 1 if n else 0)
    return [groups[k] if dup else () for k, dup in zip(key.tolist(), twinned.tolist())]


def _overlapping_pairs(target: Spans, system: Spans) -> tuple[np.ndarray, np.ndarray]:
    """Every (target, system) pair of the same sentence sharing at least one position.

    Two intervals overlap exactly when one starts inside the other: the system span
    starts in [target start, target end), or the target starts in (system start, system
    end). Each case is a range of the other side sorted by start, found by binary search:
    O((n + pairs) log n) time and O(n + pairs) memory, never an n x m matrix.
    """
    # positions as dense, order-keeping ids of (sentence, position): sentences never meet
    ids_t, ids_s = _shared_keys([np.concatenate([target.sentence, target.sentence]),
                                 np.concatenate([target.start, target.end])],
                                [np.concatenate([system.sentence, system.sentence]),
                                 np.concatenate([system.start, system.end])])
    n_t, n_s = len(target), len(system)
    start_t, end_t = ids_t[:n_t], ids_t[n_t:]
    start_s, end_s = ids_s[:n_s], ids_s[n_s:]
    t_first, s_inside = _starting_within(start_t, end_t, start_s, strict=False)
    s_first, t_inside = _starting_within(start_s, end_s, start_t, strict=True)
    return np.concatenate([t_first, t_inside]), np.concatenate([s_inside, s_first])


def _starting_within(low: np.ndarray, high: np.ndarray, starts: np.ndarray, strict: bool):
    """The pairs (i, j) with ``low[i] <= starts[j] < high[i]`` (``<`` at low if ``strict``)."""
    order = np.argsort(starts, kind="stable")
    sorted_starts = starts[order]
    first = np.searchsorted(sorted_starts, low, side="right" if strict else "left")
    count = np.maximum(np.searchsorted(sorted_starts, high, side="left") - first, 0)
    return np.repeat(np.arange(len(low)), count), order[ranges(first, count)]


def _grouped(owner: np.ndarray, member: np.ndarray, n: int) -> list:
    """For every owner 0..n-1, the list of its members, ascending."""
    order = np.lexsort((member, owner))
    bounds = np.searchsorted(owner[order], np.arange(n + 1)).tolist()
    members = member[order].tolist()
    return [members[bounds[k]:bounds[k + 1]] for k in range(n)]


def _sweep(own: _Side, other: _Side, same_label: bool, partners_done: bool,
           own_is_target: bool, reference_iteration: bool, events: list) -> None:
    """One pass: every span on ``own``'s unmatched list, in list order, against its
    overlapping ``other`` spans of the wanted label relation: those on the unmatched list
    (``partners_done`` False) or those already matched; each match is recorded at once.

    ``reference_iteration`` reproduces the reference code, which removes a matched span
    from the list it is iterating over and so skips the next unmatched span of the same
    sentence in that pass (and removes the first span equal to it: ``_removed``).
    """
    candidates_of = own.same if same_label else own.other
    skip_sentence = -1
    for a in [k for k, unmatched in enumerate(own.unmatched) if unmatched]:
        if skip_sentence >= 0:
            skipped, skip_sentence = own.sentence[a] == skip_sentence, -1
            if skipped:
                continue
        b = _best(own, a, other, candidates_of[a], partners_done, own_is_target)
        if b < 0:
            continue
        removed = _removed(own, a) if reference_iteration else a
        if own_is_target:
            _record(own, a, other, b, same_label, events)
        else:
            _record(other, b, own, a, same_label, events)
        own.unmatched[removed] = False
        if not partners_done:
            other.unmatched[b] = False
        if reference_iteration:
            skip_sentence = own.sentence[a]


def _removed(own: _Side, a: int) -> int:
    """The span the reference code takes off the unmatched list when span a is matched:
    ``list.remove`` takes the first span EQUAL to it (label, start, end and remaining
    tokens). Only with ``reference_iteration``, and only for duplicate spans: a twin
    skipped just before is removed instead, and span a stays on the list (with the
    tokens it has left) as well as being matched."""
    for u in own.twins[a]:
        if u >= a:
            break
        if own.unmatched[u] and own.left[u] == own.left[a]:
            return u
    return a


def _best(own: _Side, a: int, other: _Side, candidates: list, partners_done: bool,
          own_is_target: bool) -> int:
    """The most similar candidate (-1 if none): most shared remaining tokens, fewest
    target-only, fewest system-only, shortest span, then the first in list order: among
    unmatched candidates the sorted list's, among matched ones the order in which they
    were first matched (the reference code's list of matched spans).

    A matched candidate must share a remaining token. An unmatched one need only overlap,
    as in the reference code: two spans never matched share a token whenever they
    overlap, and a span that ``_removed`` left on the list is taken even without one."""
    chosen, chosen_key = -1, None
    for b in candidates:
        if not (other.matched[b] >= 0 if partners_done else other.unmatched[b]):
            continue
        shared = _shared(own, a, other, b)[0].bit_count()
        if not shared and partners_done:  # unmatched spans need none: see the docstring
            continue
        own_only, other_only = own.count[a] - shared, other.count[b] - shared
        t_only, s_only = (own_only, other_only) if own_is_target else (other_only, own_only)
        key = (-shared, t_only, s_only, other.length[b],
               other.matched[b] if partners_done else b)
        if chosen_key is None or key < chosen_key:
            chosen, chosen_key = b, key
    return chosen


def _shared(x: _Side, i: int, y: _Side, j: int) -> tuple[int, int]:
    """The remaining tokens spans x[i] and y[j] share, as a bitmask from the later of their
    starts, and that start."""
    x_start, y_start, x_left, y_left = x.start[i], y.start[j], x.left[i], y.left[j]
    low = x_start if x_start > y_start else y_start
    # the span ending first has no bits past the other's end: no mask needed
    if len(x_left) == 1 and len(y_left) == 1:  # short spans: one block each
        return (x_left[0] >> (low - x_start)) & (y_left[0] >> (low - y_start)), low
    size = min(x.end[i], y.end[j]) - low
    return (_window(x_left, low - x_start, size) & _window(y_left, low - y_start, size)), low


def _window(blocks: list, offset: int, size: int) -> int:
    """The bits ``offset`` to at least ``offset + size - 1`` of a blocked bitmask, from bit 0."""
    first, last = offset // BLOCK, (offset + size - 1) // BLOCK
    if first == last:
        return blocks[first] >> (offset - first * BLOCK)
    joined = b"".join(block.to_bytes(BLOCK // 8, "little") for block in blocks[first:last + 1])
    return int.from_bytes(joined, "little") >> (offset - first * BLOCK)


def _blocks(bits: int, length: int) -> list:
    """A bitmask of ``length`` bits cut into blocks of ``BLOCK`` bits, lowest first."""
    raw = bits.to_bytes((length + 7) // 8, "little")
    step = BLOCK // 8
    return [int.from_bytes(raw[k:k + step], "little") for k in range(0, len(raw), step)]


def _remove(blocks: list, offset: int, bits: int) -> None:
    """Clear the bits ``bits`` (bit 0 = bit ``offset``) of a blocked bitmask."""
    k = offset // BLOCK
    bits <<= offset - k * BLOCK
    while bits:
        blocks[k] &= ~bits  # bits past this block are not set in it anyway
        bits >>= BLOCK
        k += 1


def _record(targets: _Side, i: int, systems: _Side, j: int, same_label: bool,
            events: list) -> None:
    """Count the match of target i and system j, take their shared tokens away, and
    number the spans matched for the first time."""
    t_start, t_end = targets.start[i], targets.end[i]
    s_start, s_end = systems.start[j], systems.end[j]
    if not same_label:
        kind = LBE
    elif targets.covered[i] is not None or systems.covered[j] is not None:
        kind = _fragment_subtype(targets, i, systems, j)
    elif s_start >= t_start and s_end <= t_end:
        kind = BES
    elif s_start <= t_start and s_end >= t_end:
        kind = BEL
    else:
        kind = BEO
    events.append((kind, targets.index[i], systems.index[j], targets.sentence[i]))
    shared, low = _shared(targets, i, systems, j)
    _remove(targets.left[i], low - t_start, shared)
    _remove(systems.left[j], low - s_start, shared)
    n_shared = shared.bit_count()
    targets.count[i] -= n_shared
    systems.count[j] -= n_shared
    if targets.matched[i] < 0:
        targets.matched[i] = len(events)
    if systems.matched[j] < 0:
        systems.matched[j] = len(events)


def _fragment_subtype(targets: _Side, i: int, systems: _Side, j: int) -> int:
    """BEs, BEl or BEo of a pair one of which is discontinuous: the system's covered
    tokens within the target's, holding them, or neither."""
    masks = []
    for side, k in ((targets, i), (systems, j)):
        mask = side.covered[k]
        masks.append((1 << (side.end[k] - side.start[k])) - 1 if mask is None else mask)
    t_start, s_start = targets.start[i], systems.start[j]
    if covers(masks[0], t_start, masks[1], s_start):
        return BES
    return BEL if covers(masks[1], s_start, masks[0], t_start) else BEO
