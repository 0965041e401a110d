"""Tough Mentions Recall from partial statistics that merge (METHODS.md §7).

``partial(shard, train=index)`` keeps what ``score``'s result is computed from for one
shard of the test sentences; ``a.merge(b)`` (``a + b``) adds two; ``result()`` has the
``to_dict()`` of ``score`` on the concatenated shards, for any cut and merge order.

How it merges:

- The entity part (overall precision, recall, F1; predicted and correct mentions per
  type; repairs) is nerspan's ``EntityPartial``.
- Gold mentions are grouped by (text, type), the text normalised as ``case_sensitive``
  says. A group's kind (seen, unseen type, unseen tokens) depends on its text, its type
  and the training index, which every worker holds whole (index once, ship it); its
  mentions and hits are summed.
- Type confusability is a property of a text over the whole test set (two gold types or
  more): no shard can decide it, so ``result()`` decides it from the merged groups. A
  partial therefore grows with the distinct gold (text, type) pairs, not with the tokens.
- With ``return_mentions`` a group keeps its mentions, at most ``listed`` of them when
  given, the first by global (sentence, start); a subset lists its first mentions in that
  order. Whether a mention is in a subset depends on its group only, so a subset's first
  ``listed`` mentions are among their groups' first ``listed``: the listing does not
  depend on the cut (with ``listed``, each subset's listing is one pass's, cut after
  ``listed`` rows).

>>> import tough_mentions
>>> train = ([["Lima", "won"]], [["B-ORG", "O"]])
>>> gold, pred = [["B-PER", "O"], ["B-LOC", "O"]], [["B-PER", "O"], ["B-ORG", "O"]]
>>> words = [["Ana", "in"], ["Lima", "won"]]
>>> a = partial(gold[:1], pred[:1], tokens=words[:1], train=train)
>>> b = partial(gold[1:], pred[1:], tokens=words[1:], train=train, first_sentence=1)
>>> (b + a).result().to_dict() == tough_mentions.score(gold, pred, tokens=words,
...                                                    train=train).to_dict()
True
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from nerspan import InputOptions
from nerspan.migration import migrated
from nerspan.options import check_int
from nerspan.partials import (EntityPartial, Mergeable, Shard, shard_predictions,
                              spans_partial)
from nerspan.result import Result
from nerspan.scores import match
from nerspan.train_index import mention_texts

from .core import (LISTING, SubsetCounts, ToughMentionsOptions, counts_dict, gold_subsets,
                   layers_option, result_options, scoring_inputs)
from .subsets import MentionSubsets, confusable


@dataclass(frozen=True, eq=False)
class ToughMentionsPartial(Mergeable):
    """What Tough Mentions Recall of some sentences is computed from (module docstring).

    Attributes:
        entity: nerspan's ``EntityPartial`` of the same sentences.
        groups: per entity type of gold mentions, sorted by type: ``(type, texts, kind,
            size, hits, rows)``, each per group of the type's gold mentions with one
            text: the text, its kind (``subsets.SEEN``, ...), mentions, hits and, with
            ``return_mentions``, its listed mentions ``(sentence, start, end, text as
            written, hit)`` by global sentence id (else ``rows`` is ``()``). Strings and
            tuples of numbers: many groups cost the garbage collector nothing.
        options: ``score``'s result options as items, ``return_mentions``, ``listed``;
            ``()`` for the empty partial.

    Two partials are equal when they hold the same groups, in whatever order.
    """

    entity: EntityPartial = field(default_factory=EntityPartial)
    groups: tuple = ()
    options: tuple = ()

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._canonical() == other._canonical()

    __hash__ = None

    def _canonical(self) -> tuple:
        return self.entity, self.options, {
            name: dict(zip(texts, zip(kind, size, hits, rows or ((),) * len(texts))))
            for name, texts, kind, size, hits, rows in self.groups}

    def merged_with(self, other: "ToughMentionsPartial") -> "ToughMentionsPartial":
        """Group counts summed, listings merged (the first ``listed`` kept)."""
        bound = dict(self.options)["listed"]
        by_type = {group[0]: group for group in self.groups}
        for group in other.groups:
            old = by_type.get(group[0])
            by_type[group[0]] = group if old is None else _merged_groups(old, group, bound)
        return ToughMentionsPartial(self.entity.merge(other.entity),
                                    tuple(by_type[name] for name in sorted(by_type)),
                                    self.options)

    def computed(self) -> "MergedToughMentions":
        """``score``'s ``to_dict()`` of every sentence merged here."""
        scores = self.entity.result()
        index = {name: i for i, name in enumerate(scores.types)}
        names, texts, kind, size, hits, rows = (
            [part for group in self.groups for part in group[k]] if k else
            [group[0] for group in self.groups for _ in group[1]] for k in range(6))
        text_index = {text: i for i, text in enumerate(dict.fromkeys(texts))}
        text_id = np.array([text_index[t] for t in texts], dtype=np.int64)
        type_id = np.array([index[name] for name in names], dtype=np.int64)
        masks = MentionSubsets(None, np.array(kind, dtype=np.int8),
                               confusable(text_id, type_id, len(text_index)),
                               text_id).masks()
        size, hits = (np.array(values, dtype=np.int64) for values in (size, hits))
        counts = SubsetCounts(scores.types, *({name: np.bincount(
            type_id[mask], weights=values[mask], minlength=len(index)).astype(np.int64)
            for name, mask in masks.items()} for values in (size, hits)),
            _placed_predictions(scores, self.entity), scores.correct)
        options = dict(self.options)
        bound, listed = options.pop("listed"), options.pop("return_mentions")
        listing = _listing(masks, names, rows, bound) if listed else None
        zero_division = ((["precision"] if not scores.n_predicted else [])
                         + (["recall"] if not scores.n_gold else []))
        return MergedToughMentions(counts, scores.micro(), zero_division, options,
                                   scores.repairs, listing)


def _placed_predictions(scores, entity: EntityPartial) -> np.ndarray:
    """Predicted mentions per type of ``scores``, without the generated entities that
    found no span: one pass counts them in the overall precision only."""
    unplaced = entity.pred_repairs.unplaced() if entity.pred_repairs is not None else {}
    return scores.predicted - np.array([unplaced.get(t, 0) for t in scores.types],
                                       dtype=np.int64)


def _merged_groups(a: tuple, b: tuple, bound: int | None) -> tuple:
    """One type's groups of two partials as one; the loop runs over the smaller."""
    small, large = sorted((a, b), key=lambda group: len(group[1]))
    at = dict(zip(large[1], range(len(large[1]))))
    texts, kind, size, hits, rows = (list(part) for part in large[1:])
    for j, text in enumerate(small[1]):
        i = at.get(text)
        if i is None:
            texts.append(text)
            kind.append(small[2][j])
            size.append(small[3][j])
            hits.append(small[4][j])
            rows.extend(small[5][j:j + 1])
            continue
        size[i] += small[3][j]
        hits[i] += small[4][j]
        if rows:
            rows[i] = tuple(sorted(rows[i] + small[5][j])[:bound])
    return (large[0], tuple(texts), tuple(kind), tuple(size), tuple(hits), tuple(rows))


@dataclass(frozen=True)
class MergedToughMentions(Result):
    """Tough Mentions Recall of merged partials: ``to_dict(beta=)`` as ``score``'s
    result gives it (no ``statistics()``: a bootstrap needs per-sentence vectors, which
    a partial does not keep)."""

    counts: SubsetCounts
    scores: tuple
    zero_division: list
    options: dict
    repairs: dict
    mentions: dict | None = None

    def plain_dict(self) -> dict:
        return counts_dict(self.scores, self.counts, self.zero_division, self.options,
                           self.repairs, self.mentions)

    def undefined(self) -> list:
        return self.plain_dict()["undefined"]


@migrated
def partial(references, predictions=None, *, tokens=None, train=None,
            scheme: str | None = None, mode: str | None = None, label_list=None,
            inputs=None, case_sensitive: bool = True, return_mentions: bool = False,
            options=None, listed: int | None = None, first_sentence: int = 0,
            sentence_ids=None, types=None) -> ToughMentionsPartial:
    """The partial Tough Mentions Recall of one shard of the test sentences.

    Args:
        references, ..., options: as ``tough_mentions.score`` takes them, for the
            shard's sentences; ``train``: the whole training data, best a prebuilt
            ``nerspan.TrainIndex`` (indexed once, shipped to every worker).
        listed: with ``return_mentions``, list at most this many mentions per subset
            (the first by global sentence id and position); None: all.
        first_sentence, sentence_ids: where the shard's sentences sit in the whole
            (``nerspan.partial``).
        types: with generated predictions, the whole's gold types (``nerspan.partial``).
    """
    options = ToughMentionsOptions.of(options).with_keywords(
        case_sensitive=case_sensitive, return_mentions=return_mentions)
    bound = None if listed is None else check_int("listed", listed, minimum=1)
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    shard = Shard(first_sentence, sentence_ids)
    with shard.named():
        read_as = shard_predictions(predictions, inputs, types)
        reading = shard.read(lambda: scoring_inputs(references, read_as, train=train,
                                                    scheme=scheme, mode=mode,
                                                    inputs=inputs), references, predictions)
        if reading is None:
            return ToughMentionsPartial()
        context, corpus, pred_column, table = reading
        subsets = gold_subsets(context, options.case_sensitive, table)
        pred = context.pred_spans(corpus, pred_column, table)
    entity = spans_partial(subsets.gold, pred, 0.0, shard)
    hit, _ = match(subsets.gold, pred)
    rows = _rows(corpus, subsets, hit, shard) if options.return_mentions else None
    return ToughMentionsPartial(entity, _groups(subsets, hit, rows, bound), (
        *result_options(options.case_sensitive, context.scheme, context.mode).items(),
        *layers_option(context).items(), ("return_mentions", options.return_mentions),
        ("listed", bound)))


def _groups(subsets: MentionSubsets, hit: np.ndarray, rows: list | None,
            bound: int | None) -> tuple:
    """The shard's gold mentions by type, then text: ``ToughMentionsPartial.groups``."""
    gold = subsets.gold
    n_texts = max(len(subsets.texts), 1)
    key = gold.type.astype(np.int64) * n_texts + subsets.text_id
    keys, group, sizes = np.unique(key, return_inverse=True, return_counts=True)
    if not len(keys):
        return ()
    hits = np.bincount(group, weights=hit, minlength=len(keys)).astype(np.int64)
    kinds = np.zeros(len(keys), dtype=np.int8)
    kinds[group] = subsets.kind
    listed = None
    if rows is not None:
        listed = [[] for _ in keys]
        for g, row in zip(group.tolist(), rows):
            listed[g].append(row)  # ordered by sort before the first are kept
    type_of, text_of = np.divmod(keys, n_texts)
    cuts = np.flatnonzero(np.diff(type_of)) + 1
    out = []
    for a, b in zip([0, *cuts.tolist()], [*cuts.tolist(), len(keys)]):
        out.append((gold.types[int(type_of[a])],
                    tuple(subsets.texts[i] for i in text_of[a:b].tolist()),
                    tuple(kinds[a:b].tolist()), tuple(sizes[a:b].tolist()),
                    tuple(hits[a:b].tolist()),
                    () if listed is None else tuple(tuple(sorted(found)[:bound])
                                                    for found in listed[a:b])))
    return tuple(out)


def _rows(corpus, subsets: MentionSubsets, hit: np.ndarray, shard: Shard) -> list:
    """Each gold mention as ``(global sentence, start, end, text as written, hit)``."""
    gold = subsets.gold
    base = corpus.offsets[gold.sentence]
    return list(zip(shard.global_ids(gold.sentence).tolist(), (gold.start - base).tolist(),
                    (gold.end - base).tolist(), mention_texts(corpus, gold),
                    hit.tolist()))


def _listing(masks: dict, types: tuple, rows: tuple, bound: int | None) -> dict:
    """Subset key -> its listed mentions as ``score`` lists them (``mentions``)."""
    out = {}
    for name, mask in masks.items():
        found = sorted((s, a, b, types[g], text, h) for g in np.flatnonzero(mask).tolist()
                       for s, a, b, text, h in rows[g])[:bound]   # ordered as LISTING
        out[name] = [dict(zip(LISTING, row)) for row in found]
    return out


__all__ = ["partial", "ToughMentionsPartial", "MergedToughMentions"]
