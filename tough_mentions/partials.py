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
  mentions and hits are summed. Groups are rows of integer codes (text, type, kind,
  mentions, hits): a merge looks each text of the smaller partial up once in the
  larger's text index (handed on from merge to merge, never copied) and joins the rows
  as arrays, so merging costs a dictionary look-up per distinct text, nothing per
  mention.
- Type confusability is a property of a text over the whole test set (two gold types or
  more): no shard can decide it, so ``result()`` decides it from the merged groups. A
  partial therefore grows with the distinct gold (text, type) pairs, not with the tokens.
- With ``return_mentions`` a group keeps its mentions, at most ``listed`` of them when
  given, the first by global (sentence, start); a subset lists its first mentions in that
  order. Whether a mention is in a subset depends on its group only, so a subset's first
  ``listed`` mentions are among their groups' first ``listed``: the listing does not
  depend on the cut (with ``listed``, each subset's listing is one pass's, cut after
  ``listed`` rows).
- Per-sentence counts only when asked (``per_sentence=True``: each sentence's predicted
  and correct mentions, and its mentions and hits per group, by global id): the merged
  result then has ``score``'s ``statistics()`` (the report's paired bootstrap, so its
  intervals do not depend on the cut); without it there is no ``statistics()``.

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
from itertools import groupby, islice
from operator import itemgetter

import numpy as np

from nerspan import InputOptions
from nerspan.flat import Interner
from nerspan.migration import migrated
from nerspan.options import check_int
from nerspan.partials import (EntityPartial, Mergeable, SentenceRows, Shard,
                              spans_partial)
from nerspan.result import Result
from nerspan.scores import match
from nerspan.train_index import mention_texts

from .core import (LISTING, SubsetCounts, ToughMentionsOptions, counts_dict, gold_subsets,
                   generated_record, layers_option, predicted_per_sentence, result_options,
                   scoring_inputs, sentence_statistics)
from .subsets import MentionSubsets


# the columns of ``ToughMentionsPartial.groups``
TEXT, TYPE, KIND, SIZE, HITS = range(5)


def _no_groups() -> np.ndarray:
    return np.zeros((0, 5), dtype=np.int64)


@dataclass(frozen=True, eq=False)
class ToughMentionsPartial(Mergeable):
    """What Tough Mentions Recall of some sentences is computed from (module docstring).

    Attributes:
        entity: nerspan's ``EntityPartial`` of the same sentences.
        texts: the distinct (normalised) gold mention texts, by text code.
        types: the gold entity types, sorted, by type code.
        groups: int64 ``(groups x 5)``, one row per (text, type) of gold mentions:
            text code, type code, kind (``subsets.SEEN``, ...), mentions, hits.
            Integer codes: merging is array work, whatever the number of groups.
        rows: with ``return_mentions``, the listed mentions ``(group, global sentence,
            start, end, text as written, hit)``, sorted, at most ``listed`` per group;
            else ``()``.
        options: ``score``'s result options as items, ``return_mentions``, ``listed``,
            ``per_sentence``; ``()`` for the empty partial.
        sentences: with ``per_sentence``, ``SentenceRows`` of ``(global sentence id,
            predicted, correct)``, one row per sentence; else None.
        cells: with ``per_sentence``, ``SentenceRows`` of ``(global sentence id, group,
            mentions, hits)``, one row per sentence and group it holds; else None.

    Two partials are equal when they hold the same groups, in whatever order.
    """

    entity: EntityPartial = field(default_factory=EntityPartial)
    texts: tuple = ()
    types: tuple = ()
    groups: np.ndarray = field(default_factory=_no_groups)
    rows: tuple = ()
    options: tuple = ()
    sentences: SentenceRows | None = None
    cells: SentenceRows | None = None

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._canonical() == other._canonical()

    __hash__ = None

    def _canonical(self) -> tuple:
        named = [(self.texts[text], self.types[kind]) for text, kind in
                 self.groups[:, :2].tolist()]
        cells = None if self.cells is None else frozenset(
            (sentence, named[group], size, hits)
            for sentence, group, size, hits in self.cells.rows.tolist())
        return (self.entity, self.options, self.sentences,
                dict(zip(named, map(tuple, self.groups[:, 2:].tolist()))),
                frozenset((named[group], *rest) for group, *rest in self.rows), cells)

    def merged_with(self, other: "ToughMentionsPartial") -> "ToughMentionsPartial":
        """Groups summed by (text, type), listings merged (the first ``listed`` kept),
        per-sentence rows joined."""
        if len(other.texts) > len(self.texts):   # the smaller's texts are looked up
            return other.merged_with(self)
        index = self._text_index()
        # one look-up per text: a new one takes the next code as it is met
        at = np.fromiter(map(index.__getitem__, other.texts), dtype=np.int64,
                         count=len(other.texts))
        added = tuple(islice(index, len(self.texts), None))
        types = tuple(sorted(set(self.types) | set(other.types)))
        groups, theirs = _joined_groups(_recoded(self.groups, None, self.types, types),
                                        _recoded(other.groups, at, other.types, types),
                                        len(index), len(types))
        mine = np.arange(len(self.groups))
        return ToughMentionsPartial(
            self.entity.merge(other.entity), self.texts + added, types, groups,
            _merged_rows(self.rows, other.rows, mine, theirs, dict(self.options)["listed"]),
            self.options, None if self.sentences is None else
            self.sentences.merged_with(other.sentences),
            None if self.cells is None else _merged_cells(self.cells, other.cells, mine,
                                                          theirs))._indexed(index)

    def _text_index(self) -> Interner:
        """Text -> its code, for the merged partial to extend: the index the merge that
        made this partial left here, handed on (a chain of merges then hashes each text
        once, copies no index), else built."""
        index = self.__dict__.pop("_index", None)
        return index if index is not None else Interner(zip(self.texts, range(len(self.texts))))

    def _indexed(self, index: Interner) -> "ToughMentionsPartial":
        object.__setattr__(self, "_index", index)
        return self

    def __getstate__(self) -> dict:
        """Pickled without the text index (rebuilt when needed), the groups in the
        smallest unsigned integers that hold them (every code and count is >= 0)."""
        state = {k: v for k, v in self.__dict__.items() if k != "_index"}
        groups = self.groups
        state["groups"] = groups.astype(np.min_scalar_type(int(groups.max()) if len(groups)
                                                           else 0))
        return state

    def __setstate__(self, state: dict) -> None:
        state["groups"] = state["groups"].astype(np.int64)
        self.__dict__.update(state)

    def computed(self) -> "MergedToughMentions":
        """``score``'s ``to_dict()`` of every sentence merged here (and its
        ``statistics()``, with ``per_sentence``)."""
        scores = self.entity.result()
        index = {name: i for i, name in enumerate(scores.types)}
        groups = self.groups
        type_id = np.array([index[name] for name in self.types] or [0],
                           dtype=np.int64)[groups[:, TYPE]]
        # a text's groups are its distinct types: confusable when it has two or more
        tcm = np.bincount(groups[:, TEXT], minlength=len(self.texts))[groups[:, TEXT]] >= 2
        masks = MentionSubsets(None, groups[:, KIND].astype(np.int8), tcm,
                               groups[:, TEXT]).masks()
        counts = SubsetCounts(scores.types, *({name: np.bincount(
            type_id[mask], weights=groups[mask, column], minlength=len(index)).astype(
                np.int64) for name, mask in masks.items()} for column in (SIZE, HITS)),
            scores.predicted, scores.correct)
        options = dict(self.options)
        bound, listed = options.pop("listed"), options.pop("return_mentions")
        del options["per_sentence"]
        listing = _listing(masks, self.types, groups[:, TYPE], self.rows, bound) \
            if listed else None
        zero_division = ((["precision"] if not scores.n_predicted else [])
                         + (["recall"] if not scores.n_gold else []))
        return MergedToughMentions(counts, scores.micro(), zero_division, options,
                                   scores.repairs, listing, self._statistics(masks))

    def _statistics(self, masks: dict) -> list | None:
        """One pass's ``statistics()`` from the kept per-sentence rows (None without)."""
        if self.sentences is None:
            return None
        cells, rows = self.cells.rows, self.sentences.rows
        at = np.searchsorted(self.sentences.ids, cells[:, 0])
        return sentence_statistics(len(self.sentences.ids), at, cells[:, 2], cells[:, 3],
                                   {name: mask[cells[:, 1]] for name, mask in masks.items()},
                                   rows[:, 1], rows[:, 2])


def _joined_groups(mine: np.ndarray, theirs: np.ndarray, n_texts: int,
                   n_types: int) -> tuple:
    """``(groups, where each of theirs went)``: ``mine`` then the groups of ``theirs``
    that are new, the counts of the others added (codes already shared: a dense table
    of (text, type) slots, no sort)."""
    slot = np.full(n_texts * n_types, -1, dtype=np.int64)
    slot[mine[:, TEXT] * n_types + mine[:, TYPE]] = np.arange(len(mine))
    place = slot[theirs[:, TEXT] * n_types + theirs[:, TYPE]]
    fresh = place < 0
    place[fresh] = len(mine) + np.arange(int(fresh.sum()))
    groups = np.concatenate([mine, theirs[fresh]])
    known = ~fresh   # each (text, type) once in theirs: no place repeats
    groups[place[known], SIZE:] += theirs[known, SIZE:]
    return groups, place


def _recoded(groups: np.ndarray, text_at: np.ndarray | None, types: tuple,
             merged_types: tuple) -> np.ndarray:
    """``groups`` with texts put at ``text_at`` and types at their place among
    ``merged_types``."""
    if text_at is None and types == merged_types:
        return groups
    out = groups.copy()
    if text_at is not None and len(out):
        out[:, TEXT] = text_at[out[:, TEXT]]
    place = np.array([merged_types.index(name) for name in types] or [0], dtype=np.int64)
    out[:, TYPE] = place[out[:, TYPE]]
    return out


def _merged_rows(mine: tuple, theirs: tuple, my_groups: np.ndarray,
                 their_groups: np.ndarray, bound: int | None) -> tuple:
    """Both partials' listed mentions with their groups renumbered, the first
    ``bound`` of each group kept."""
    if not mine and not theirs:
        return ()
    rows = sorted([(int(my_groups[g]), *rest) for g, *rest in mine]
                  + [(int(their_groups[g]), *rest) for g, *rest in theirs])
    return _bounded(rows, bound)


def _bounded(rows: list, bound: int | None) -> tuple:
    """Sorted rows, at most ``bound`` of each group (their first element)."""
    if bound is None:
        return tuple(rows)
    return tuple(row for _, found in groupby(rows, itemgetter(0))
                 for row in islice(found, bound))


def _merged_cells(mine: SentenceRows, theirs: SentenceRows, my_groups: np.ndarray,
                  their_groups: np.ndarray) -> SentenceRows:
    """Both partials' per-sentence cells, groups renumbered."""
    rows = mine.rows.copy()
    rows[:, 1] = my_groups[rows[:, 1]]
    renumbered = theirs.rows.copy()
    renumbered[:, 1] = their_groups[renumbered[:, 1]]
    return SentenceRows(mine.ids, rows).merged_with(theirs, renumbered)


@dataclass(frozen=True)
class MergedToughMentions(Result):
    """Tough Mentions Recall of merged partials: ``to_dict(beta=)`` as ``score``'s
    result gives it; with ``per_sentence`` partials, ``score``'s ``statistics()`` too
    (rows by global sentence id: the report's bootstrap intervals of one pass)."""

    counts: SubsetCounts
    scores: tuple
    zero_division: list
    options: dict
    repairs: dict
    mentions: dict | None = None
    kept_statistics: list | None = field(default=None, repr=False, compare=False)

    def plain_dict(self) -> dict:
        return counts_dict(self.scores, self.counts, self.zero_division, self.options,
                           self.repairs, self.mentions)

    def undefined(self) -> list:
        return self.plain_dict()["undefined"]

    def statistics(self) -> list:
        """``score``'s ``statistics()``, from partials made with ``per_sentence``."""
        if self.kept_statistics is None:
            raise ValueError("a result merged from partials keeps no per-sentence counts, "
                             "which a bootstrap resamples: give partial per_sentence=True")
        return self.kept_statistics


@migrated
def partial(references, predictions=None, *, tokens=None, train=None,
            scheme: str | None = None, mode: str | None = None, label_list=None,
            inputs=None, case_sensitive: bool = True, return_mentions: bool = False,
            options=None, listed: int | None = None, first_sentence: int = 0,
            sentence_ids=None, per_sentence: bool = False,
            types=None) -> ToughMentionsPartial:
    """The partial Tough Mentions Recall of one shard of the test sentences.

    Args:
        references, ..., options: as ``tough_mentions.score`` takes them, for the
            shard's sentences; ``train``: the whole training data, best a prebuilt
            ``nerspan.TrainIndex`` (indexed once, shipped to every worker).
        listed: with ``return_mentions``, list at most this many mentions per subset
            (the first by global sentence id and position); None: all.
        first_sentence, sentence_ids: where the shard's sentences sit in the whole
            (``nerspan.partial``).
        per_sentence: keep each sentence's counts, so that the merged result has
            ``score``'s ``statistics()`` (the report's paired bootstrap); the partial
            then grows with the sentences.
        types: with generated predictions, the whole's gold types (``nerspan.partial``).
    """
    options = ToughMentionsOptions.of(options).with_keywords(
        case_sensitive=case_sensitive, return_mentions=return_mentions)
    bound = None if listed is None else check_int("listed", listed, minimum=1)
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    shard = Shard(first_sentence, sentence_ids)
    with shard.named():
        reading = shard.read_typed(lambda read_as: scoring_inputs(
            references, read_as, train=train, scheme=scheme, mode=mode, inputs=inputs),
            references, predictions, inputs, types)
        if reading is None:
            return ToughMentionsPartial()
        context, corpus, pred_column, table = reading
        subsets = gold_subsets(context, options.case_sensitive, table)
        pred = context.pred_spans(corpus, pred_column, table)
    hit, pred_correct = match(subsets.gold, pred)
    texts, types, groups, group_of = _groups(subsets, hit)
    rows = _rows(corpus, subsets, hit, shard, group_of, bound) \
        if options.return_mentions else ()
    sentences = cells = None
    if per_sentence:
        sentences, cells = _sentence_rows(corpus, subsets, hit, pred, pred_correct,
                                          group_of, shard)
    return ToughMentionsPartial(spans_partial(subsets.gold, pred, 0.0, shard), texts, types,
                                groups, rows, (
        *result_options(options.case_sensitive, context.scheme, context.mode).items(),
        *layers_option(context).items(), ("return_mentions", options.return_mentions),
        ("listed", bound), ("per_sentence", bool(per_sentence))), sentences, cells)


def _groups(subsets: MentionSubsets, hit: np.ndarray) -> tuple:
    """``(texts, types, groups, group of each gold mention)`` of the shard
    (``ToughMentionsPartial``): the gold mentions by (text, type)."""
    gold = subsets.gold
    n_types = max(len(gold.types), 1)
    keys, group_of, sizes = np.unique(subsets.text_id * n_types + gold.type,
                                      return_inverse=True, return_counts=True)
    text, kind = np.divmod(keys, n_types)
    present = np.unique(kind)
    types = sorted(gold.types[i] for i in present.tolist())
    place = np.zeros(n_types, dtype=np.int64)   # a type id -> its code among ``types``
    place[present] = [types.index(gold.types[i]) for i in present.tolist()]
    groups = np.zeros((len(keys), 5), dtype=np.int64)
    groups[:, TEXT], groups[:, TYPE] = text, place[kind]
    groups[group_of, KIND] = subsets.kind
    groups[:, SIZE] = sizes
    groups[:, HITS] = np.bincount(group_of, weights=hit, minlength=len(keys))
    return subsets.texts, tuple(types), groups, group_of.reshape(-1)


def _rows(corpus, subsets: MentionSubsets, hit: np.ndarray, shard: Shard,
          group_of: np.ndarray, bound: int | None) -> tuple:
    """Each gold mention as ``(group, global sentence, start, end, text as written,
    hit)``, sorted, the first ``bound`` of each group."""
    gold = subsets.gold
    base = corpus.offsets[gold.sentence]
    return _bounded(sorted(zip(group_of.tolist(),
                               shard.global_ids(gold.sentence).tolist(),
                               (gold.start - base).tolist(), (gold.end - base).tolist(),
                               mention_texts(corpus, gold), hit.tolist())), bound)


def _sentence_rows(corpus, subsets: MentionSubsets, hit: np.ndarray, pred, pred_correct,
                   group_of: np.ndarray, shard: Shard) -> tuple:
    """``(sentences, cells)`` of ``ToughMentionsPartial`` for ``per_sentence``."""
    n = corpus.n_sentences
    ids = shard.global_ids(np.arange(n))
    sentences = SentenceRows.of(ids, ids, predicted_per_sentence(
        pred.sentence, generated_record(pred), n),
        np.bincount(pred.sentence[pred_correct], minlength=n))
    n_groups = int(group_of.max()) + 1 if len(group_of) else 1
    key = subsets.gold.sentence.astype(np.int64) * n_groups + group_of
    keys, cell_of, sizes = np.unique(key, return_inverse=True, return_counts=True)
    sentence, group = np.divmod(keys, n_groups)
    hits = np.bincount(cell_of.reshape(-1), weights=hit, minlength=len(keys))
    return sentences, SentenceRows.of(ids, ids[sentence], group, sizes, hits)


def _listing(masks: dict, types: tuple, type_of: np.ndarray, rows: tuple,
             bound: int | None) -> dict:
    """Subset key -> its listed mentions as ``score`` lists them (``mentions``);
    ``type_of``: each group's type code among ``types``."""
    out = {}
    name_of = [types[i] for i in type_of.tolist()]
    for name, mask in masks.items():
        found = sorted((s, a, b, name_of[g], text, h) for g, s, a, b, text, h in rows
                       if mask[g])[:bound]   # ordered as LISTING
        out[name] = [dict(zip(LISTING, row)) for row in found]
    return out


__all__ = ["partial", "ToughMentionsPartial", "MergedToughMentions"]
