"""faireval's optimal pairing (``matching="optimal"``, ``faireval.assignment``) against
the dense assignment it replaced (one ``linear_sum_assignment`` per group of linked
spans, kept here as the reference) and a brute force over every pairing.

The new pairing has the dense one's weight (the most good pairs, then the most
overlapping tokens); among pairings tied on both it takes the most pairs, which the
dense solver did not always (so its counts are now those of the input, not of a
solver's choice); where one pairing alone is best, both take it. Trees (flat spans on
both sides) and groups with cycles (nested spans) are both drawn.
"""
from __future__ import annotations

import itertools
from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

import faireval
from faireval import assignment, semeval
from faireval.inputs import sentence_spans


def dense_pairs(pair_s, pair_t, good, overlap, tables, label_rank) -> set:
    """The pairing as it was computed before: a dense matrix per group, ``good`` pairs
    weighing more than all overlaps together, spans in boundary and label order."""
    s_ids, s_local = np.unique(pair_s, return_inverse=True)
    t_ids, t_local = np.unique(pair_t, return_inverse=True)
    n = len(s_ids) + len(t_ids)
    graph = coo_matrix((np.ones(len(pair_s)), (s_local, len(s_ids) + t_local)), shape=(n, n))
    group = connected_components(graph, directed=False)[1][s_local]
    weight = overlap + good * (float(overlap.sum()) + 1.0)
    chosen = set()
    for g in np.unique(group):
        p = np.flatnonzero(group == g)
        rows, rows_at = ordered(pair_s[p], tables[0], label_rank)
        cols, cols_at = ordered(pair_t[p], tables[1], label_rank)
        matrix = np.zeros((len(rows), len(cols)))
        matrix[rows_at, cols_at] = weight[p]
        r, c = linear_sum_assignment(matrix, maximize=True)
        chosen |= {(int(rows[i]), int(cols[j])) for i, j in zip(r, c) if matrix[i, j] > 0}
    return chosen


def ordered(ids, table, label_rank):
    spans = np.unique(ids)
    spans = spans[np.lexsort((spans, label_rank[table.type[spans]], table.end[spans],
                              table.start[spans]))]
    by_id = np.argsort(spans)
    return spans, by_id[np.searchsorted(spans[by_id], ids)]


def all_best(pairs: list, weights: list) -> tuple:
    """Every pairing of the greatest total weight (brute force)."""
    best, found = -1.0, []
    for size in range(len(pairs) + 1):
        for chosen in itertools.combinations(range(len(pairs)), size):
            s = [pairs[k][0] for k in chosen]
            t = [pairs[k][1] for k in chosen]
            if len(set(s)) < size or len(set(t)) < size:
                continue
            total = sum(weights[k] for k in chosen)
            if total > best + 1e-9:
                best, found = total, []
            if abs(total - best) <= 1e-9:
                found.append({pairs[k] for k in chosen})
    return best, found


@st.composite
def spans(draw, nested: bool):
    """One sentence's spans of one side: flat (a tree of overlaps) or nested."""
    out, at = [], 0
    for _ in range(draw(st.integers(1, 5))):
        if nested:
            start = draw(st.integers(0, 9))
            out.append((start, start + draw(st.integers(1, 4)), draw(st.integers(0, 1))))
        else:
            at += draw(st.integers(0, 1))
            size = draw(st.integers(1, 3))
            out.append((at, at + size, draw(st.integers(0, 1))))
            at += size
    return out


def table(rows):
    start, end, label = (np.array(column, dtype=np.int64) for column in zip(*rows))
    return sentence_spans(np.zeros(len(rows), dtype=np.int64), start, end, label)


@settings(max_examples=400, deadline=None)
@given(st.booleans().flatmap(lambda nested: st.tuples(spans(nested), spans(nested))),
       st.sampled_from(sorted(semeval.SCHEMAS)), st.sampled_from([1.0, 50.0]))
def test_the_pairing_has_the_dense_weight_the_most_pairs_and_the_unique_best(
        sides, schema, percent):
    target, system = table(sides[0]), table(sides[1])
    pair_s, pair_t, overlap = semeval._overlap_pairs(target, system, target.sentence,
                                                     system.sentence, percent)
    if not 0 < len(pair_s) <= 10:
        return
    good = semeval._is_correct(semeval.SCHEMAS[schema], target, system, pair_t, pair_s)
    rank = np.arange(2)
    s, t, is_good = assignment.optimal_pairs(pair_s, pair_t, good, overlap,
                                             (system, target), rank)
    new = set(zip(s.tolist(), t.tolist()))
    pairs = list(zip(pair_s.tolist(), pair_t.tolist()))
    assert len(new) == len(s) and new <= set(pairs)
    assert is_good.tolist() == [bool(good[pairs.index(p)]) for p in zip(s.tolist(), t.tolist())]
    old = dense_pairs(pair_s, pair_t, good, overlap, (system, target), rank)
    weight = (overlap + good * (float(overlap.sum()) + 1.0)).tolist()
    total = lambda chosen: sum(weight[pairs.index(p)] for p in chosen)  # noqa: E731
    best, every_best = all_best(pairs, weight)
    assert total(new) == total(old) == best           # the dense weight, the best one
    assert len(new) == max(map(len, every_best)) >= len(old)   # then the most pairs
    if len(every_best) == 1:
        assert new == old == every_best[0]


@settings(max_examples=100, deadline=None)
@given(st.tuples(spans(True), spans(True)))
def test_a_group_too_large_for_exact_costs_keeps_the_dense_weight(sides):
    """Past ``EXACT`` a group with a cycle is weighed on the first two levels only: its
    pairing still has the dense one's weight."""
    target, system = table(sides[0]), table(sides[1])
    pair_s, pair_t, overlap = semeval._overlap_pairs(target, system, target.sentence,
                                                     system.sentence, 1.0)
    if not len(pair_s):
        return
    good = semeval._is_correct(semeval.SCHEMAS["strict"], target, system, pair_t, pair_s)
    with mock.patch.object(assignment, "EXACT", 1):
        s, t, _ = assignment.optimal_pairs(pair_s, pair_t, good, overlap, (system, target),
                                           np.arange(2))
    pairs = list(zip(pair_s.tolist(), pair_t.tolist()))
    weight = (overlap + good * (float(overlap.sum()) + 1.0)).tolist()
    old = dense_pairs(pair_s, pair_t, good, overlap, (system, target), np.arange(2))
    assert sum(weight[pairs.index(p)] for p in zip(s.tolist(), t.tolist())) == \
        sum(weight[pairs.index(p)] for p in old)


def test_a_chain_of_boundary_shifts_pairs_all_but_one():
    """A document whose predictions are all shifted by a token: one chain of 2n - 1 spans
    (a tree); every prediction takes a gold span, one gold span is missed."""
    n = 3000
    gold = [[("ENT", 2 * k, 2 * k + 2) for k in range(n)]]
    pred = [[("ENT", 2 * k + 1, 2 * k + 3) for k in range(n - 1)]]
    result = faireval.score(gold, pred, schemas="semeval", pairing="optimal").to_dict()
    strict = result["semeval"]["strict"]
    assert (strict["incorrect"], strict["missed"], strict["spurious"]) == (n - 1, 1, 0)
    partial = result["semeval"]["partial"]
    assert (partial["partial"], partial["missed"]) == (n - 1, 1)
