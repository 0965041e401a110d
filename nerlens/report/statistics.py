"""Scoring and bootstrap statistics for the report, read from the family descriptors.

Every headline number of a family is re-expressed by the family's result object as
``nerspan.bootstrap.Statistic``s (``result.statistics()``): per-sentence counts and the
function that turns their totals into the number. The estimate of each statistic equals
the number the family reports (tests check this), so the intervals are intervals of
exactly the published numbers.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect

from nerspan import GOLD
from nerspan.bootstrap import Statistic, f1_statistic, ratio_or_zero_statistic
from nerspan.errors import InputTypeError
from nerspan.fbeta import fbeta, fbeta_key
from nerspan.layers import layer_columns
from nerspan.family import Family
from nerspan.scores import sentence_counts
from nerspan.span_table import SpanShapeError

from nerlens.engines import Scoring, SystemsScoring, local_results
from nerlens.families import get_family

from .names import layer_statistic
from .nesting import nests


def score_family(family: Family, evaluation, system: str, options=None):
    """The family's result object for ``system`` of the ``evaluation``
    (``nerspan.Evaluation``: gold decoded and classified once, each system decoded once,
    for all families), scored with the options the report passes
    (``family.report_options``) and ``options`` (a dict of its record's fields). The
    evaluation alone carries scheme, mode and training index: nothing beside it for the
    family to check against it."""
    return family.score(evaluation, system, **family_keywords(family, options))


def family_keywords(family: Family, options=None) -> dict:
    """The keywords of the family's ``score`` (and ``partial``) the report passes: its
    ``report_options`` and ``options``, as its record (a family without a record takes
    them by name)."""
    given = {**family.report_options, **dict(options or {})}
    return given if family.options is None else {"options": given}


def keeps_sentences(family: Family) -> bool:
    """Whether the family's partial keeps each sentence's counts when asked
    (``per_sentence``), which a merged result's bootstrap statistics need."""
    return family.merges and "per_sentence" in inspect.signature(family.partial).parameters


def merged_results(evaluation, system_names, families, options=None,
                   workers: int = 1) -> dict:
    """``(system, family) -> result`` of the report's families scored from partials in
    ``workers`` local processes (``nerlens.engines.local_results``), with each sentence's
    counts (the same statistics as one pass). Absent, so scored in one pass by the caller:
    every pair with one worker; a family whose partial keeps no per-sentence counts (its
    merged result would have no bootstrap statistics: a family registered from outside
    may lack ``per_sentence``). A system of generated output merges as tags do (each
    block holds its sentences' grounding record, the output's totals counted once:
    ``Corpus.block``), one that answers some of gold's sentences too (the partials keep
    the number in gold of each repaired sentence they name, ``nerspan.partials.
    numbers_by_id``, and name it so, as one pass does). Gold that nests: the
    blocks hold every layer of gold and of the systems, and a family whose partials
    refuse such gold is named in the one error raised."""
    systems = tuple(system_names)
    merging = [name for name in families if keeps_sentences(get_family(name))]
    if workers == 1 or not systems or not merging:
        return {}
    scorings = {name: Scoring.of(name, {**family_keywords(get_family(name),
                                                         (options or {}).get(name)),
                                        "per_sentence": True})
                for name in merging}
    # every layer of gold and of each system: a block is read as the whole is
    corpus = evaluation.corpus.select([column for name in (GOLD, *systems)
                                       for column in layer_columns(evaluation.corpus, name)])
    if not nests(evaluation):
        return local_results(SystemsScoring(scorings, systems, evaluation.scheme,
                                            evaluation.mode, evaluation.train), corpus, workers)
    out = {}
    for name, scoring in scorings.items():   # one family at a time: a refusal names it
        try:
            out.update(local_results(SystemsScoring({name: scoring}, systems,
                                                    evaluation.scheme, evaluation.mode,
                                                    evaluation.train), corpus, workers))
        except (InputTypeError, SpanShapeError) as refusal:
            raise InputTypeError(
                f"scoring in local processes (workers={workers}): gold nests, and {name}'s "
                f"partials do not merge it here ({refusal}); score without workers "
                "(workers=1, no --workers): one pass scores it or leaves it out, saying "
                "why") from refusal
    return out


def entity_statistics(evaluation, system: str, beta: float = 1.0
                      ) -> tuple[dict, list[Statistic]]:
    """nerspan's entity scores of ``system`` (the evaluation's, computed once) and its
    entity F1/precision/recall statistics; with ``beta`` other than 1, the entity F-beta
    too (``entity_f2``), beside F1 in the scores."""
    counts = sentence_counts(evaluation.gold, evaluation.spans(system),
                             evaluation.corpus.n_sentences)
    n_gold = int(counts[:, 2].sum())
    statistics = [
        Statistic("entity_f1", counts, f1_statistic, n_gold),
        Statistic("entity_precision", counts[:, [0, 1]], ratio_or_zero_statistic,
                  int(counts[:, 1].sum())),
        Statistic("entity_recall", counts[:, [0, 2]], ratio_or_zero_statistic, n_gold),
    ]
    if beta != 1:
        statistics.insert(1, Statistic(fbeta_key(beta, "entity_"), counts,
                                       functools.partial(fbeta_statistic, beta=beta), n_gold))
    return evaluation.entity_scores(system).to_dict(beta=beta), statistics


def fbeta_statistic(totals, beta: float):
    """F-beta from totals (correct, predicted, gold) through precision and recall (0
    where undefined), as nerspan's entity scores compute it."""
    return fbeta(ratio_or_zero_statistic(totals[:, [0, 1]]),
                 ratio_or_zero_statistic(totals[:, [0, 2]]), beta)


def family_statistics(family: Family, result) -> list[Statistic]:
    """The bootstrap statistics a family's result object provides, less those that
    restate nerspan's entity scores (``family.same_as_entity``: the report shows them
    once, as ``entity_*``; the families' tests assert the equality). A result scored per
    gold layer only (``scored_per_layer``) gives each layer's, named per layer
    (``layer_statistic``)."""
    if getattr(result, "scored_per_layer", False):
        return [dataclasses.replace(s, name=layer_statistic(s.name, layer))
                for layer, part in result.layers.items()
                for s in family_statistics(family, part)]
    if not hasattr(result, "statistics"):    # a family may offer none: no interval then
        return []
    same = {family.key(key) for key in family.same_as_entity}
    return [s for s in result.statistics() if s.name not in same]

