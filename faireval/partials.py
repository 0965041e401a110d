"""FairEval from partial statistics that merge (METHODS.md §7).

``partial(shard)`` keeps what ``score``'s result is computed from for one shard of the
sentences; ``a.merge(b)`` (``a + b``) adds two; ``result()`` is a ``FairEvalResult``
with the ``to_dict()`` (and ``to_dict(beta=2)``) of ``score`` on the concatenated
shards, for any cut of the sentences and any order of merging.

How it merges:

- FairEval's matching pairs spans of one sentence only, so a shard's events are the
  whole's events of its sentences. A partial sums them per label name: the eight event
  counts overall, per label the counts under the focus label with its target and
  system spans, and the confusion's cells ``(target label, system label)`` (None: the
  missing side). The traditional, fair and weight-table scores, overall and per label,
  are computed once in ``result()`` from the summed counts, never averaged; a weight
  table's sums are checked there, on the whole's counts.
- The label vocabulary is the whole's: a partial keeps the labels of its data (before
  the filter), merged as a set; ``result()`` applies ``labels`` and ``exclude`` to it
  as one pass does (``inputs.filtered_labels``), and only then checks that the filter
  leaves a label of the data (a shard alone may hold none of them).
- The SemEval-2013 schemas (``schemas``) pair spans within a sentence too: their
  outcome counts (correct, incorrect, partial, spurious, missed) are summed overall and
  per label, precision, recall and F1 computed from them in ``result()``.
- Repairs keep the global sentence ids (``nerspan.partials.placed``) and are merged per
  column as ``nerspan.partials.merged_repairs`` merges them; a shard keeps every
  column's repairs, even those that repaired nothing, so that counts such as strict
  decoding's ``lenient_chunks`` add up to the whole's.
- Listings: ``pairs`` (``return_pairs``: per sentence, its events) and
  ``semeval_instances`` (``return_instances``: per schema, a row per span) are kept by
  global sentence id, the first ``listed`` rows when ``listed`` is given (a sentence of
  ``pairs`` is one row): each listing is one pass's, cut after ``listed`` rows, whatever
  the cut. Their ``sentence`` is the global id; ``pairs`` lists the sentences in the
  order of their ids (one pass's order when the shards' ids are ``0..n-1``).
- Per-sentence vectors (the bootstrap's ``statistics()``, ``semeval_counts``) only when
  asked (``per_sentence=True``: each sentence's row of event counts and SemEval outcomes,
  by global id): the merged result's ``statistics()`` is then one pass's; without, it
  says it has none.
- Generated output merges as ``nerspan.partials`` merges it (``types``: the whole's gold
  types; the grounding record bounded and merged by global sentence id);
  ``matching="strings"`` is refused, as ``faireval.score`` refuses it.

>>> import faireval
>>> gold = [["B-PER", "I-PER", "O"], ["B-LOC", "O"], ["B-ORG", "I-ORG"]]
>>> pred = [["B-PER", "O", "O"], ["B-ORG", "O"], ["B-ORG", "I-ORG"]]
>>> a = partial(gold[:2], pred[:2], schemas="semeval")
>>> b = partial(gold[2:], pred[2:], schemas="semeval", first_sentence=2)
>>> merged = (b + a).result()
>>> merged.to_dict() == faireval.score(gold, pred, schemas="semeval").to_dict()
True
>>> merged.counts["BE"], merged.counts["LE"], round(merged.to_dict()["fair_f1"], 4)
(1, 1, 0.5)
"""
from __future__ import annotations

import heapq
import operator
from dataclasses import dataclass
from itertools import islice
from typing import Sequence

import numpy as np

from nerspan import InputOptions
from nerspan.flat import PRED
from nerspan.migration import migrated
from nerspan.options import check_int
from nerspan.partials import Mergeable, SentenceRows, Shard, merged_repairs, placed

from .core import MOVED, FairevalOptions, read_sides, scored
from .inputs import (filtered_labels, label_filter_problem, label_filtered,
                     reported_repairs)
from .result import FairEvalResult, summed_cells
from .semeval import COUNT_NAMES, MIN_OVERLAP, SCHEMAS, schema_row
from .weights import ERROR_TYPES, check_sums, resolve_weights

# the options a partial keeps beside those its result reports (``core.result_options``)
LISTING_OPTIONS = ("return_pairs", "return_instances", "listed", "per_sentence")


@dataclass(frozen=True)
class FairevalPartial(Mergeable):
    """What FairEval's result of some sentences is computed from (module docstring):
    plain tuples, labels by name, so that a partial pickles small and compares equal.

    Attributes:
        names: the labels of the data before the filter, sorted.
        kinds: the event counts overall, ``weights.ERROR_TYPES`` order.
        rows: per label ``(label, counts)``, sorted: the eight event counts under the
            focus label, then its target and system spans.
        cells: the confusion's non-zero cells ``((target label, system label), count)``,
            None for the missing side.
        semeval: per schema ``(schema, counts, ((label, counts), ...))``, counts in
            ``semeval.COUNT_NAMES`` order.
        pairs: with ``return_pairs``, ``(global sentence, its events)`` by id; else None.
        instances: with ``return_instances``, per schema ``(schema, rows)``; else None.
        repairs: ``(column, Repairs)`` per column, sentences by global id.
        options: ``score``'s result options, then ``LISTING_OPTIONS``, as items; ``()``
            when empty.
        n_sentences: the sentences scored.
        sentences: with ``per_sentence``, each sentence's row (``SentenceRows``): its
            global id, ``result.sentence_counts``' row, then per schema its SemEval
            counts; else None.
    """

    names: tuple = ()
    kinds: tuple = ()
    rows: tuple = ()
    cells: tuple = ()
    semeval: tuple = ()
    pairs: tuple | None = None
    instances: tuple | None = None
    repairs: tuple = ()
    options: tuple = ()
    n_sentences: int = 0
    sentences: SentenceRows | None = None

    __hash__ = None   # options and listings hold lists and dicts

    def merged_with(self, other: "FairevalPartial") -> "FairevalPartial":
        """Counts summed by label, listings merged by sentence id (the first ``listed``
        kept), repairs merged per column."""
        bound = dict(self.options)["listed"]
        return FairevalPartial(
            tuple(sorted(set(self.names) | set(other.names))),
            tuple(map(operator.add, self.kinds, other.kinds)),
            _summed(self.rows, other.rows), _summed(self.cells, other.cells, _cell_order),
            tuple((name, tuple(map(operator.add, mine, theirs)), _summed(a, b))
                  for (name, mine, a), (_, theirs, b) in zip(self.semeval, other.semeval)),
            None if self.pairs is None else _first(self.pairs, other.pairs, bound),
            None if self.instances is None else tuple(
                (name, _first(a, b, bound, operator.itemgetter("sentence")))
                for (name, a), (_, b) in zip(self.instances, other.instances)),
            _summed(self.repairs, other.repairs, add=merged_repairs),
            self.options, self.n_sentences + other.n_sentences,
            None if self.sentences is None else self.sentences.merged_with(other.sentences))

    def computed(self) -> FairEvalResult:
        """``score``'s result of every sentence merged here (per-sentence vectors with
        ``per_sentence``)."""
        options = dict(self.options)
        return_pairs, return_instances, _, _ = (options.pop(name)
                                                for name in LISTING_OPTIONS)
        if options["labels"] is not None or options["exclude"]:
            problem = label_filter_problem(self.names, options["labels"], options["exclude"])
            if problem:
                raise ValueError(problem)
        labels = filtered_labels(self.names, options["labels"], options["exclude"])
        index = {name: k for k, name in enumerate(labels)}
        # per label: the event counts, then its target and system spans (``rows``)
        label_rows = np.zeros((len(labels), len(ERROR_TYPES) + 2), dtype=np.int64)
        for name, counts in self.rows:
            label_rows[index[name]] = counts
        weights = options["weights"]
        result = FairEvalResult(
            labels, np.array(self.kinds, dtype=np.int64), label_rows[:, :len(ERROR_TYPES)],
            label_rows[:, -2], label_rows[:, -1], self._cells(index), options["focus"],
            weights, None if weights is None else resolve_weights(weights),
            resolve_weights("fair"),
            [list(events) for _, events in self.pairs] if return_pairs else None,
            reported_repairs(dict(self.repairs)),
            semeval=self._semeval(labels) if options["schemas"] else None,
            instances={name: list(rows) for name, rows in self.instances}
            if return_instances and options["schemas"] else None, options=options,
            **self._per_sentence())
        if result.weight_table is not None:   # the whole's sums, as one pass checks them
            check_sums(result.weight_table, result.kind_counts)
        return result

    def _per_sentence(self) -> dict:
        """``sentence_counts`` and ``semeval_counts`` of the kept rows (sentences by
        id), or nothing."""
        if self.sentences is None:
            return {}
        rows, width = self.sentences.rows, len(ERROR_TYPES) + 2
        names = [name for name, _, _ in self.semeval]
        return {"sentence_counts": rows[:, 1:1 + width],
                "semeval_counts": {name: rows[:, 1 + width + 5 * k:1 + width + 5 * (k + 1)]
                                   for k, name in enumerate(names)} if names else None}

    def _cells(self, index: dict) -> np.ndarray:
        """The confusion's cells as ``FairEvalResult.error_cells`` (the missing side the
        last label)."""
        missing = len(index)
        row, col = (np.array([missing if key[k] is None else index[key[k]]
                              for key, _ in self.cells], dtype=np.int64) for k in (0, 1))
        count = np.array([n for _, n in self.cells], dtype=np.int64)
        return summed_cells(row, col, count, missing + 1)

    def _semeval(self, labels: tuple) -> dict:
        """Schema -> ``semeval_scores``' row, per type for the labels with a span (a
        shard's row lists them: a generated entity found nowhere, counted in
        ``label_rows``, is no span)."""
        out = {}
        for name, counts, per_label in self.semeval:
            schema, by_label = SCHEMAS[name], dict(per_label)
            row = schema_row(schema, counts)
            row["per_type"] = {label: schema_row(schema, by_label[label])
                               for label in labels if label in by_label}
            out[name] = row
        return out


@migrated(**MOVED)
def partial(references, predictions=None, *, tokens=None, train=None,
            scheme: str | None = None, mode: str | None = None, label_list=None,
            inputs=None, pos=None, weights=None, focus: str = "target",
            labels: Sequence[str] | None = None, exclude: Sequence[str] = (),
            ignore_punct: bool = False, confusion_tp: bool = False,
            return_pairs: bool = False, reference_iteration: bool = False,
            keep_duplicates: bool = False, schemas=None,
            min_overlap: float = MIN_OVERLAP, pairing: str = "greedy",
            return_instances: bool = False, options=None, listed: int | None = None,
            first_sentence: int = 0, sentence_ids=None,
            per_sentence: bool = False, types=None) -> FairevalPartial:
    """The partial FairEval result of one shard of the sentences (module docstring).

    Args:
        references, ..., options: as ``faireval.score`` takes them, for the shard's
            sentences (``pos`` too, when a list per sentence).
        listed: with ``return_pairs`` / ``return_instances``, keep at most this many
            rows of each listing, the first by global sentence id; None: all.
        first_sentence, sentence_ids: where the shard's sentences sit in the whole
            (``nerspan.partial``).
        per_sentence: keep each sentence's counts, so that the merged result has
            ``score``'s ``statistics()`` (the report's bootstrap); the partial then grows
            with the sentences.
        types: with generated predictions, the whole's gold types (``nerspan.partial``).

    An empty shard (no sentence on either side) gives the empty partial. An input
    error names the sentence by its global id.
    """
    options = FairevalOptions.of(options).with_keywords(
        weights=weights, focus=focus, labels=labels, exclude=exclude,
        ignore_punct=ignore_punct, confusion_tp=confusion_tp, return_pairs=return_pairs,
        reference_iteration=reference_iteration, keep_duplicates=keep_duplicates,
        schemas=schemas, min_overlap=min_overlap,
        pairing=pairing, return_instances=return_instances)
    bound = None if listed is None else check_int("listed", listed, minimum=1)
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    if inputs.generated.matching == "strings":
        raise ValueError('matching="strings" is not merged from partials yet: score it '
                         "in one pass (faireval.score)")
    shard = Shard(first_sentence, sentence_ids)
    with shard.named():   # read as a family's reading: no evaluation, the sides (Prepared)
        reading = shard.read_typed(lambda read_as: (None, *read_sides(
            references, read_as, options, train=train, scheme=scheme, mode=mode,
            inputs=inputs, pos=pos, shard=True)), references, predictions, inputs, types,
            generated=_read_generated)
    if reading is None:
        return FairevalPartial()
    _, prepared, scheme, mode = reading
    names = _with_ungrounded_types(prepared)
    result = scored(label_filtered(prepared, options.labels, options.exclude), options,
                    scheme, mode)
    return _of_result(result, names, shard, bound, prepared.n_sentences, per_sentence)


def _read_generated(reading: tuple) -> bool:
    """Whether a shard's reading ``(None, prepared, scheme, mode)`` read generated output
    (a column's repairs hold its record), for ``Shard.read_typed``."""
    return any(found.generated is not None for found in reading[1].repairs.values())


def _of_result(result: FairEvalResult, names: tuple, shard: Shard, bound: int | None,
               n_sentences: int, per_sentence: bool) -> FairevalPartial:
    """A shard's partial from its one-pass ``result``, labels by name."""
    labels = result.labels
    side = [*labels, None]   # label id n: the missing side
    counts = np.column_stack([result.label_kind_counts, result.n_target, result.n_system])
    rows = tuple((labels[k], tuple(counts[k].tolist()))
                 for k in np.flatnonzero(counts.any(axis=1)).tolist())
    cells = tuple(sorted((((side[i], side[j]), count)
                          for i, j, count in result.error_cells.tolist()), key=_cell_order))
    ids = shard.global_ids(np.arange(n_sentences)).tolist()
    pairs = None if result.pairs is None else tuple(
        islice(((ids[s], tuple(events)) for s, events in enumerate(result.pairs)), bound))
    options = {**result.options, "return_pairs": result.pairs is not None,
               "return_instances": result.instances is not None, "listed": bound,
               "per_sentence": bool(per_sentence)}
    return FairevalPartial(
        tuple(names), tuple(result.kind_counts.tolist()), tuple(sorted(rows)), cells,
        _semeval_counts(result.semeval or {}),
        pairs, _instances(result.instances, ids, bound),
        tuple(sorted((column, placed(found, shard))
                     for column, found in result.repairs.items())),
        tuple(options.items()), n_sentences,
        SentenceRows.of(ids, ids, result.sentence_counts,
                        *(result.semeval_counts or {}).values()) if per_sentence else None)


def _with_ungrounded_types(prepared) -> tuple:
    """The labels of a shard, and the types of its generated entities found nowhere
    (false positives of their type, a label of their own when gold has none)."""
    generated = getattr(prepared.repairs.get(PRED), "generated", None)
    ungrounded = () if generated is None else generated.ungrounded
    return tuple(dict.fromkeys([*prepared.labels, *(item.type for item in ungrounded)]))


def _semeval_counts(semeval: dict) -> tuple:
    """``FairevalPartial.semeval`` of ``semeval_scores``' rows."""
    def counts(row: dict) -> tuple:
        return tuple(row[name] for name in COUNT_NAMES)
    return tuple((name, counts(row), tuple(sorted((label, counts(by_type)) for label, by_type
                                                  in row["per_type"].items())))
                 for name, row in semeval.items())


def _instances(instances: dict | None, ids: list, bound: int | None) -> tuple | None:
    """Per schema its first ``bound`` rows, sentences by global id."""
    if instances is None:
        return None
    return tuple((name, tuple({**row, "sentence": ids[row["sentence"]]}
                              for row in rows[:bound]))
                 for name, rows in instances.items())


def _summed(a: tuple, b: tuple, order=None, add=None) -> tuple:
    """Two tuples of ``(key, value)`` items as one, the values of a key added (``add``;
    default ints and tuples of ints), sorted by key (``order``)."""
    total = dict(a)
    for key, value in b:
        old = total.get(key)
        total[key] = value if old is None else (add or _added)(old, value)
    return tuple(sorted(total.items(), key=order or operator.itemgetter(0)))


def _added(a, b):
    return a + b if isinstance(a, int) else tuple(map(operator.add, a, b))


def _cell_order(item: tuple) -> tuple:
    """A cell's place among the cells: labels by name, the missing side last."""
    (target, system), _ = item
    return (target is None, target or "", system is None, system or "")


def _first(a: tuple, b: tuple, bound: int | None, key=operator.itemgetter(0)) -> tuple:
    """The rows of two listings sorted by sentence id (``key``), the first ``bound``."""
    return tuple(islice(heapq.merge(a, b, key=key), bound))


__all__ = ["partial", "FairevalPartial", "LISTING_OPTIONS"]
