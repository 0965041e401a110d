"""What the engines (``nerlens.spark``, ``nerlens.ray``, ``nerlens.torchmetrics``) share:
one family's partials (METHODS.md §7) computed shard by shard, wherever the shard is.

An engine cuts the sentences into shards (a Spark partition, a Ray block, a training
batch), computes one partial per shard where the shard is, and merges the partials; the
merged result is ``score``'s on the whole. Nothing here imports an engine, so
``import nerlens`` imports none (the engine modules import theirs).

- ``Scoring``: a family's ``partial`` and its options, checked and prepared on the driver
  once (the training data indexed once): what is shipped to every worker.
- ``Outcome``: what a shard gives: its partial, the sentences it held, or the input error
  it raised (naming the sentence by its global id). Outcomes merge as partials do; an
  outcome that failed stays failed through any merge (the failing shard first in the
  corpus wins, as one pass would report it), so a failed shard never yields a result
  presented as the whole's.
- ``local_outcome``: the local engine: shards scored by N processes of this machine
  (``concurrent.futures.ProcessPoolExecutor``; the scoring shipped once to each), their
  outcomes merged; ``score_corpus_locally`` scores a corpus's system columns so, as
  ``nerlens score --workers N`` does (the same JSON as one process, gold with layers
  too); ``local_results``
  scores several families of several systems so (``SystemsScoring``, shipped once to
  each process; each process scores whole blocks of sentences for every system and
  family), as ``nerlens report --workers N`` does; ``score_corpus`` chooses among them
  (and the evaluation, for spans tags cannot hold) the way ``nerlens score`` scores;
  ``score_files`` scores files alone as ``nerlens score --threshold`` / ``--matching
  strings`` does.

>>> scoring = Scoring.of("nerspan", {"mode": "strict"})
>>> rows = [(0, ["B-PER", "O"], ["B-PER", "O"], None), (1, ["B-LOC"], ["O"], None)]
>>> outcome = scoring.shard(rows[1:]) + scoring.shard(rows[:1])
>>> outcome.sentences, outcome.result().to_dict()["recall"]
(2, 0.5)
"""
from __future__ import annotations

import functools
import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Callable

import numpy as np

import nerspan
from nerspan import Evaluation
from nerspan.counts import system_error_counts
from nerspan.errors import InputTypeError, NerspanError, shown
from nerspan.flat import GOLD
from nerspan.layers import is_layered
from nerspan.options import check_int
from nerspan.reading.answers import read_generated_files, read_scored_files
from nerspan.reading.training import as_train_index
from nerspan.streaming import (SCORE_BLOCK, layered_in_blocks, score_in_blocks, sentence_blocks,
                               token_scores)

from .families import get_family, registered, result_dict

# nerspan's entity scores are no registered family (they are every family's ground): the
# engines take them under nerspan's name
ENTITY_SCORES = "nerspan"


def merging_families() -> tuple:
    """The names the engines take: nerspan's entity scores, then every registered family
    whose descriptor merges (``Family.merges``)."""
    return (ENTITY_SCORES, *(name for name, family in registered().items() if family.merges))


def partial_function(family: str) -> Callable:
    """The ``partial`` of ``family`` (a name of ``merging_families()``)."""
    if family == ENTITY_SCORES:
        return nerspan.partial
    if not isinstance(family, str):
        raise InputTypeError(f"family must be a family's name, not {shown(family)}")
    descriptor = get_family(family)
    if not descriptor.merges:
        raise ValueError(f"family {family!r} computes in one pass only (its descriptor has "
                         f"no partial): the engines score {merging_families()}")
    return descriptor.partial


@dataclass(frozen=True)
class Scoring:
    """A family's ``partial`` and the options of its ``score`` (``train`` indexed once):
    what every worker receives."""

    family: str
    partial: Callable
    options: dict

    @classmethod
    def of(cls, family: str, options: dict) -> "Scoring":
        """``family``'s scoring with ``options``, its training data indexed here, once."""
        options = dict(options)
        for taken in ("first_sentence", "sentence_ids"):
            if taken in options:
                raise TypeError(f"{taken}: the engines place each shard themselves (give "
                                f"the rows a sentence id column instead)")
        if options.get("train") is not None:
            options["train"] = as_train_index(options["train"],
                                              options.get("scheme") or "IOB2",
                                              options.get("mode") or "lenient",
                                              inputs=options.get("inputs"))
        return cls(family, partial_function(family), options)

    def shard(self, rows) -> "Outcome":
        """The outcome of one shard: ``rows`` of ``(global sentence id, reference,
        prediction, tokens or None)``, in any order (placed by their ids)."""
        rows = sorted(rows, key=lambda row: row[0])
        ids, references, predictions, tokens = (list(column) for column in zip(*rows)) \
            if rows else ([], [], [], [])
        if any(words is None for words in tokens):
            tokens = None
        return self.columns(ids, references, predictions, tokens)

    def columns(self, ids, references, predictions, tokens=None) -> "Outcome":
        """The outcome of one shard given as columns: ``ids`` increasing, the others in
        any input form of ``score`` (lists, or Arrow list arrays, read with no Python
        object per token)."""
        ids = [int(i) for i in ids]
        if not ids:
            return Outcome(self.partial([], [], **self.options))
        try:
            found = self.partial(references, predictions, tokens=tokens, sentence_ids=ids,
                                 **self.options)
        except NerspanError as error:
            return Outcome(None, len(ids), (ids[0], error))
        return Outcome(found, len(ids))


@dataclass(frozen=True)
class Outcome:
    """What one or several merged shards gave: their ``partial``, the ``sentences`` they
    held, and ``failure``, ``(first sentence id of the failing shard, its error)`` or
    None."""

    partial: object
    sentences: int = 0
    failure: tuple | None = None

    def merge(self, other: "Outcome") -> "Outcome":
        """Both outcomes as one: partials merged, or the failure first in the corpus."""
        failures = [found.failure for found in (self, other) if found.failure is not None]
        sentences = self.sentences + other.sentences
        if failures:
            return Outcome(None, sentences, min(failures, key=lambda failure: failure[0]))
        return Outcome(self.partial.merge(other.partial), sentences)

    def __add__(self, other: "Outcome") -> "Outcome":
        return self.merge(other)

    def result(self):
        """The family's result of every sentence merged here; a shard's input error
        raised as it was (it names the global sentence)."""
        if self.failure is not None:
            raise self.failure[1]
        return self.partial.result()


def table_outcome(scoring: Scoring, table, ids) -> Outcome:
    """The outcome of one shard held as an Arrow table (its columns: references,
    predictions, and tokens when given) whose rows have the global ``ids``: sorted by id
    when they are not; lists of tags, label ids and words passed as Arrow (no Python
    object per token), or, with span structs, every column as Python data."""
    ids = np.asarray(ids, dtype=np.int64)
    if (np.diff(ids) <= 0).any():
        order = np.argsort(ids, kind="stable")
        table, ids = table.take(order), ids[order]
    columns = [table.column(i) for i in range(table.num_columns)]
    if not all(map(_flat_list, columns)):  # span structs: every column as Python data
        columns = [column.to_pylist() for column in columns]
    return scoring.columns(ids, *columns)


def _flat_list(column) -> bool:
    """An Arrow column of lists of strings or integers (what nerspan reads as Arrow)."""
    value = str(getattr(column.type, "value_type", ""))
    return value in ("string", "large_string") or value.startswith(("int", "uint"))


def merged_outcomes(outcomes) -> Outcome:
    """Outcomes merged as a balanced tree (the order does not change the result)."""
    outcomes = list(outcomes)
    if not outcomes:
        raise nerspan.EmptyInputError("no sentence was scored: the data holds no row")
    while len(outcomes) > 1:
        outcomes = [outcomes[i] + outcomes[i + 1] if i + 1 < len(outcomes) else outcomes[i]
                    for i in range(0, len(outcomes), 2)]
    return outcomes[0]


# what a worker process of ``local_outcome`` or ``local_results`` received (its
# initializer sets it): a ``Scoring`` or a ``SystemsScoring``
_WORKER_STATE: list = []


def _install(state) -> None:
    _WORKER_STATE[:] = [state]


def _worker_run(method: str, shard: tuple):
    return getattr(_WORKER_STATE[0], method)(*shard)


def _mapped(state, method: str, shards, workers: int) -> list:
    """``state.<method>(*shard)`` of every shard, in order, computed by ``workers``
    processes of this machine (``state`` shipped once to each; 1: here). A worker that
    dies raises (``BrokenProcessPool``): no partial result stands for the whole."""
    workers = check_int("workers", workers, minimum=1)
    if workers == 1:
        return [getattr(state, method)(*shard) for shard in shards]
    with ProcessPoolExecutor(workers, initializer=_install, initargs=(state,)) as pool:
        return list(pool.map(functools.partial(_worker_run, method), shards))


def local_outcome(scoring: Scoring, shards, workers: int) -> Outcome:
    """The outcome of ``shards``, each ``(global ids, references, predictions, tokens)``
    as ``Scoring.columns`` takes it, computed by ``workers`` processes of this machine
    (``scoring``, its training index with it, shipped once to each), merged."""
    return merged_outcomes(_mapped(scoring, "columns", shards, workers))


def _block_tokens(corpus, workers: int) -> int:
    """The tokens of one block of whole sentences: about a share per worker, two each
    (a slow block then holds the others back less)."""
    return min(SCORE_BLOCK, max(1, math.ceil(corpus.n_tokens / (2 * workers))))


@dataclass(frozen=True)
class SystemsScoring:
    """Several families' scorings of several system columns against gold, on the
    evaluation's ``scheme``, ``mode`` and training index ``train``: what every worker of
    ``local_results`` receives (once)."""

    scorings: dict   # family -> Scoring
    systems: tuple
    scheme: str
    mode: str
    train: object = None

    def block(self, first: int, corpus) -> dict:
        """``(system, family) -> Outcome`` of the block ``corpus`` (gold and the system
        columns) whose first sentence is sentence ``first`` of the whole (``Corpus.block``:
        its generated records merge to the whole's)."""
        evaluation = Evaluation(corpus, self.scheme, self.mode, self.train)
        ids = range(first, first + corpus.n_sentences)
        return {(system, family): scoring.columns(ids, evaluation, system)
                for system in self.systems for family, scoring in self.scorings.items()}


def local_results(scoring: SystemsScoring, corpus, workers: int) -> dict:
    """``(system, family) -> result`` of the ``corpus`` (gold and the systems' columns),
    each family's result from the partials of blocks of whole sentences computed by
    ``workers`` local processes, merged exactly. Any block's input error is raised, the
    first in the corpus (it names the sentence by its global id): no result then."""
    shards = list(sentence_blocks(corpus, _block_tokens(corpus, workers)))
    found = _mapped(scoring, "block", shards, workers)
    merged = {key: merged_outcomes(block[key] for block in found) for key in found[0]}
    failures = [outcome.failure for outcome in merged.values() if outcome.failure]
    if failures:
        raise min(failures, key=lambda failure: failure[0])[1]
    return {key: outcome.result() for key, outcome in merged.items()}


def score_corpus_locally(corpus, systems, scheme: str = "IOB2", mode: str = "lenient",
                         workers: int = 2) -> dict:
    """``nerspan.streaming.score_in_blocks(corpus, systems, scheme, mode)`` computed by
    ``workers`` local processes: each block of whole sentences (about a share of the
    tokens per worker) scored as an evaluation of the block, merged exactly; name ->
    ``TokenScores`` (``tokens`` and ``accuracy`` counted here). Gold with layers: the
    blocks of ``layered_in_blocks`` scored so (each layer and their union)."""
    workers = check_int("workers", workers, minimum=1)
    if is_layered(corpus, GOLD):
        return layered_in_blocks(corpus, list(systems), scheme, mode,
                                 _block_tokens(corpus, workers),
                                 functools.partial(_mapped, workers=workers))
    scoring = Scoring.of(ENTITY_SCORES, {"scheme": scheme, "mode": mode})
    blocks = [(first, Evaluation(block, scheme, mode))
              for first, block in sentence_blocks(corpus, _block_tokens(corpus, workers))]
    out = {}
    for name in systems:
        outcome = local_outcome(scoring, [
            (range(first, first + block.corpus.n_sentences), block, name, None)
            for first, block in blocks], workers)
        outcome.result()   # a shard's input error, raised as it was
        same = int(np.count_nonzero(corpus.column(name) == corpus.column(GOLD)))
        out[name] = token_scores(outcome.partial, corpus.n_tokens, same)
    return out


def score_corpus(corpus, systems, scheme: str = "IOB2", mode: str = "lenient", *,
                 beta: float = 1.0, confusion: bool = False, error_counts: bool = False,
                 workers: int = 1) -> dict:
    """Entity scores of every system column of ``corpus``: name -> result dict
    (``to_dict(beta=beta)``, with token accuracy), scored in blocks of whole sentences
    (``score_in_blocks``; ``workers`` > 1: in that many local processes,
    ``score_corpus_locally``, the same numbers). Span columns whose mentions nest, overlap
    or have fragments (tags cannot hold them): the evaluation's entity scores, in one
    process, without token accuracy (no tags). ``confusion``: each with its entity
    confusion matrix, of the one evaluation the spans are scored by (gold decoded once),
    added where the family commands add it (``result_dict``); ``error_counts``: each
    with seqscore's error-count table (``nerspan.counts.system_error_counts``)."""
    spans = any(corpus.mentions(column) is not None for column in [GOLD, *systems])
    evaluation = Evaluation(corpus, scheme, mode) if confusion or spans else None
    if spans:
        scored = {name: evaluation.entity_scores(name) for name in systems}
    else:
        scored = score_in_blocks(corpus, systems, scheme, mode) if workers == 1 else \
            score_corpus_locally(corpus, systems, scheme, mode, workers)
    # scored already: F-beta and the matrix added as for the family commands
    results = {name: result_dict(result, beta, evaluation if confusion else None, name)
               for name, result in scored.items()}
    if error_counts:
        for name, rows in system_error_counts(corpus, scored, scheme, mode).items():
            results[name]["error_counts"] = rows
    return results


def score_files(gold, files, *, strings: bool = False, beta: float = 1.0, **reading) -> dict:
    """Name -> the result dict (``to_dict(beta=beta)``) of each file of ``files`` (name ->
    file, or files named after them) scored alone against ``gold`` by ``nerspan.score``,
    as the API scores it: scored predictions or generated output (``read_scored_files``),
    or with ``strings`` generated output matched as strings (``read_generated_files``);
    ``reading``: the reader's keywords."""
    read = (read_generated_files if strings else read_scored_files)(gold, files, **reading)
    return {one.name: one.call(nerspan.score).to_dict(beta=beta) for one in read}


__all__ = ["ENTITY_SCORES", "merging_families", "partial_function", "Scoring", "Outcome",
           "table_outcome", "merged_outcomes", "local_outcome", "SystemsScoring",
           "local_results", "score_corpus_locally", "score_corpus", "score_files"]
