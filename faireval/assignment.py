"""The optimal pairing of overlapping spans (``matching="optimal"``), in time and memory
that follow the pairs.

Pairs of a system span and a target span that overlap form a bipartite graph; in each
connected group of it, the pairing taken is the one with the most pairs correct under
the schema, then the most overlapping tokens, then the most pairs (``lexicographic``:
one integer weight per pair). Spans are ordered by group, start, end and label
(``positions``), so that ties fall the same way whatever the order of the input.

- A group without a cycle (always, when neither side's spans overlap each other: tags
  give such spans) is a tree, paired exactly by dynamic programming over it
  (``tree_pairs``): linear in its pairs, however long the chain (a boundary shift
  across a document links all its mentions into one).
- A group with a cycle (nested or overlapping spans on both sides) goes to a sparse
  assignment (SciPy's ``min_weight_full_bipartite_matching``) with a way out for every
  system span, never a dense matrix of its spans squared.
"""
from __future__ import annotations

import numpy as np

# Exact integers in float64: a group with a cycle whose costs could pass this keeps the
# first two levels of its weights only (``lexicographic``)
EXACT = 2 ** 52


def optimal_pairs(pair_s, pair_t, good, overlap, tables, label_rank) -> tuple:
    """``(system spans, targets they took, whether each pair is good)`` of the best
    pairing (see the module) of the pairs ``(pair_s[k], pair_t[k])``, each pair once;
    ``tables``: the system and target ``nerspan.Spans``; ``label_rank``: label id -> rank of
    its name."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    empty = np.zeros(0, dtype=np.int64)
    if not len(pair_s):
        return empty, empty, np.zeros(0, dtype=bool)
    s_ids, s_local = np.unique(pair_s, return_inverse=True)
    t_ids, t_local = np.unique(pair_t, return_inverse=True)
    n_s, n_t = len(s_ids), len(t_ids)
    graph = coo_matrix((np.ones(len(pair_s)), (s_local, n_s + t_local)),
                       shape=(n_s + n_t, n_s + n_t))
    n_groups, group = connected_components(graph, directed=False)
    pair_group = group[s_local]
    cyclic = (np.bincount(pair_group, minlength=n_groups)
              >= np.bincount(group, minlength=n_groups))   # edges >= nodes: not a tree
    weight, ceiling = lexicographic(good, overlap, pair_group, group[:n_s], group[n_s:],
                                    cyclic)
    rank = np.concatenate([positions(s_ids, group[:n_s], tables[0], label_rank),
                           n_s + positions(t_ids, group[n_s:], tables[1], label_rank)])
    ends = (s_local, n_s + t_local)
    in_tree = ~cyclic[pair_group]
    taken = np.concatenate([
        tree_pairs(np.flatnonzero(in_tree), ends, weight, rank, group),
        _assigned(np.flatnonzero(~in_tree), ends, weight, ceiling, pair_group, rank, n_s)])
    return s_ids[s_local[taken]], t_ids[t_local[taken]], good[taken].astype(bool)


def lexicographic(good, overlap, pair_group, s_group, t_group, cyclic) -> tuple:
    """Integer weights per pair and a ceiling per group above every weight of it, such
    that a pairing of more good pairs weighs more, then of more overlapping tokens, then
    of more pairs: ``good * G + overlap * M + 1``, ``M`` above the pairs a group can
    hold, ``G`` above the rest summed. A group with a cycle too large for exact float64
    costs (``EXACT``: some 10^5 linked spans) keeps the first two levels (``+ 1`` left
    out): its ties on them are then the solver's."""
    n_groups = len(cyclic)
    spans = (np.bincount(s_group, minlength=n_groups), np.bincount(t_group, minlength=n_groups))
    pairs_max = np.minimum(*spans) + 1
    overlaps = np.bincount(pair_group, overlap, minlength=n_groups).astype(np.int64)
    # a cost is at most 2G; the solver's sums run over at most every span of the group
    third = ~cyclic | ((spans[0] + spans[1]) * 2 * (overlaps * pairs_max + pairs_max) < EXACT)
    m = np.where(third, pairs_max, 1)
    g = overlaps * m + m
    weight = good * g[pair_group] + overlap * m[pair_group] + third[pair_group]
    ceiling = np.zeros(n_groups, dtype=np.int64)
    np.maximum.at(ceiling, pair_group, weight + 1)
    return weight, ceiling


def positions(ids: np.ndarray, group: np.ndarray, table, label_rank) -> np.ndarray:
    """Where each span of ``ids`` (distinct, one group each) stands: by group, then
    start, end and label (then index: only spans equal in all three, interchangeable,
    keep list order)."""
    order = np.lexsort((ids, label_rank[table.type[ids]], table.end[ids], table.start[ids],
                        group))
    position = np.empty(len(ids), dtype=np.int64)
    position[order] = np.arange(len(ids))
    return position


def tree_pairs(pairs: np.ndarray, ends: tuple, weight: np.ndarray, rank: np.ndarray,
               group: np.ndarray) -> np.ndarray:
    """The pairs (of ``pairs``, whose groups are trees) of a maximum-weight matching of
    each tree: per node, bottom up, the best weight of its subtree with the node left
    free for its parent and with it matched to a child (the first in ``rank`` order on
    ties, free before matched); then top down, the choices taken. ``ends``: the two node
    ids of every pair; ``group``: the group (tree) of every node."""
    if not len(pairs):
        return pairs
    node = np.concatenate([ends[0][pairs], ends[1][pairs]])
    other = np.concatenate([ends[1][pairs], ends[0][pairs]])
    order = np.lexsort((rank[other], node))
    neighbours = other[order].tolist()
    via = np.concatenate([pairs, pairs])[order].tolist()
    first = np.searchsorted(node[order], np.arange(len(rank) + 1)).tolist()
    w = weight.tolist()
    systems = np.unique(ends[0][pairs])
    systems = systems[np.argsort(rank[systems], kind="stable")]
    _, root_at = np.unique(group[systems], return_index=True)   # first system span in rank
    taken: list = []
    for root in systems[root_at].tolist():
        _match_tree(root, neighbours, via, first, w, taken)
    return np.array(taken, dtype=np.int64)


def _match_tree(root: int, neighbours: list, via: list, first: list, w: list,
                taken: list) -> None:
    """One tree's matching (``tree_pairs``), its pairs appended to ``taken``."""
    order, parent, up = [root], {root: -1}, {root: -1}   # up: the pair to the parent
    for v in order:   # breadth first; grows as it goes
        for k in range(first[v], first[v + 1]):
            if neighbours[k] != parent[v]:
                parent[neighbours[k]], up[neighbours[k]] = v, via[k]
                order.append(neighbours[k])
    free, best, choice = {}, {}, {}
    for v in reversed(order):
        children = [u for u in neighbours[first[v]:first[v + 1]] if u != parent[v]]
        left = sum(best[u] for u in children)
        value, pick = left, -1
        for u in children:
            matched = left - best[u] + free[u] + w[up[u]]
            if matched > value:
                value, pick = matched, u
        free[v], best[v], choice[v] = left, value, pick
    stack = [(root, False)]
    while stack:
        v, to_parent = stack.pop()
        pick = -1 if to_parent else choice[v]
        if pick >= 0:
            taken.append(up[pick])
        stack.extend((u, u == pick) for u in neighbours[first[v]:first[v + 1]]
                     if u != parent[v])


def _assigned(pairs: np.ndarray, ends: tuple, weight, ceiling, pair_group, rank,
              n_s: int) -> np.ndarray:
    """The pairs (of ``pairs``, whose groups have cycles) of one sparse minimum-cost
    assignment: cost = the group's ceiling - weight (> 0: explicit zeros are no edges),
    and for every system span a column of its own at the ceiling (matched to nothing)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    if not len(pairs):
        return pairs
    systems = np.unique(ends[0][pairs])
    targets = np.unique(ends[1][pairs])
    row = np.empty(len(systems), dtype=np.int64)
    row[np.argsort(rank[systems], kind="stable")] = np.arange(len(systems))
    col = np.empty(len(targets), dtype=np.int64)
    col[np.argsort(rank[targets], kind="stable")] = np.arange(len(targets))
    pair_row = row[np.searchsorted(systems, ends[0][pairs])]
    pair_col = col[np.searchsorted(targets, ends[1][pairs])]
    n_rows, n_cols = len(systems), len(targets)
    group_of_system = np.zeros(n_s, dtype=np.int64)
    group_of_system[ends[0][pairs]] = pair_group[pairs]
    costs = csr_matrix(
        (np.concatenate([ceiling[pair_group[pairs]] - weight[pairs],
                         ceiling[group_of_system[systems]]]).astype(float),
         (np.concatenate([pair_row, row]), np.concatenate([pair_col, n_cols + row]))),
        shape=(n_rows, n_cols + n_rows))
    rows, cols = min_weight_full_bipartite_matching(costs)
    real = cols < n_cols
    key = pair_row * n_cols + pair_col   # distinct: each pair once
    order = np.argsort(key)
    return pairs[order[np.searchsorted(key[order], rows[real] * n_cols + cols[real])]]


__all__ = ["optimal_pairs", "lexicographic", "positions", "tree_pairs", "EXACT"]
