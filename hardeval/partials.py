"""hardeval from partial statistics that merge (METHODS.md §7).

``partial(shard, train=index)`` keeps what ``score``'s result is computed from for one
shard of the test sentences; ``a.merge(b)`` (``a + b``) adds two; ``result()`` is a
``HardevalResult`` with the ``to_dict()`` of ``score`` on the concatenated shards, for
any cut and merge order.

How it merges:

- A token's leaf subset depends on its word, its gold label and the training index,
  which every worker holds whole (index once, ship it), or on the ``subsets=`` codes
  given for the shard's tokens. Tokens are counted per cell (leaf, gold type as
  compared): tokens and errors are summed; every TER, ``hardeval``, the error breakdown
  and ``per_type`` are computed once, by ``result()``, from the summed cells.
- ``words`` (distinct words per subset) is no sum: a partial keeps, per leaf, the set
  of words its tokens are, merged by union. A partial grows with the distinct words of
  the shard
  (and the types), not with the tokens. Classified against training, a leaf of seen
  words keeps them as their rows in the training index (which every shard shares):
  sorted integers, united by one array operation; only unseen words are strings.
- With ``options={"kfold": k}`` the subsets come from k-fold cross-validation over the
  references themselves (``kfold_subsets``). A sentence's fold is drawn from
  ``fold_seed`` and its global id (``subsets.sentence_folds``), so no shard needs the
  others; but a token's leaf depends on its word's counts in the other folds of the
  whole corpus, which no shard knows: the partial counts cells (word, gold IO label,
  fold, gold type) and ``result()`` classifies them from the merged counts. It grows with the distinct
  (word, label) pairs times the folds.
- A cell is a row of integer codes (``cells``), its words, IO labels and types codes
  into the partial's own vocabularies: a merge looks each value of the other
  partial's vocabularies up once, recodes its cells with arrays and sums the cells of
  both by one integer key; ``result()`` classifies and counts the codes. No string is
  touched per cell (merging k-fold partials keyed by strings cost more than the one
  pass they replace). Codes and counts pickle in the narrowest integer type.
- Gold with layers read from tag columns (the input option ``layers``): a
  ``LayeredHardevalPartial``, one partial per layer (each layer as ``score`` scores it:
  the only gold column, with the prediction's layer of its number or its one column),
  merged layer by layer; ``result()`` is ``score``'s ``LayeredHardevalResult``. With
  ``kfold`` each layer is classified by k-fold over its own tags.
- Span lists (either side, nested or flat): a ``SpanListHardevalPartial``. One pass
  layers them as deep as their deepest nesting over the whole, but the layer of a
  mention depends on its sentence alone: a shard keeps its own layers, each gold layer
  against the prediction's layer of its number and (while its prediction is no table)
  against the whole prediction, plus one partial per pairing for every deeper layer
  (no gold mention there); a merge extends the shallower shard by that partial.
  ``result()`` decides flat or layered from the merged depths, as ``score`` does.
- Repairs are counted per side and kind, summed; their sentences are global ids, the
  first 20 kept (as one pass keeps them).
- With ``return_hard_tokens`` each cell keeps its tokens, at most ``listed`` of them when
  given, the first by global (sentence, position); a subset lists its first tokens in
  that order. A token's subset depends on its cell only, so a subset's first ``listed``
  tokens are among their cells' first ``listed``: the listing does not depend on the cut
  (with ``listed``, each subset's listing is one pass's, cut after ``listed`` rows;
  without, a partial grows with the tokens it lists).
- Per-sentence counts only when asked (``per_sentence=True``: each sentence's tokens
  and errors per cell, by global id; a cell's leaf is known in ``result()``, so k-fold
  too): the merged result's ``statistics()`` is then one pass's; without, the merged
  result has none. Two partials merge only when scored with the same options (error labels,
  ``strict_diff``, scheme, mode, how tokens are classified, the listing); the training
  index is not compared: ship one index to every worker. Generated output is refused.

>>> import hardeval
>>> train = ([["Kim", "runs"], ["Paris", "is", "in"]], [["B-PER", "O"], ["B-ORG", "O", "O"]])
>>> gold, pred = [["B-PER", "O"], ["O", "B-LOC"]], [["B-PER", "O"], ["O", "B-ORG"]]
>>> words = [["Kim", "runs"], ["in", "Paris"]]
>>> a = partial(gold[:1], pred[:1], tokens=words[:1], train=train)
>>> b = partial(gold[1:], pred[1:], tokens=words[1:], train=train, first_sentence=1)
>>> (b + a).result().to_dict() == hardeval.score(gold, pred, tokens=words,
...                                              train=train).to_dict()
True
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

import numpy as np

from nerspan import GOLD, PRED, Corpus, Evaluation, InputOptions
from nerspan.evaluation import resolve
from nerspan.layers import (as_layers, is_layered, layer_column, layer_columns,
                            padded_layers, tables_as_layers)
from nerspan.migration import migrated
from nerspan.options import check_int
from nerspan.partials import Mergeable, SentenceRows, Shard, kept_numbers, numbers_by_id
from nerspan.schemes import get_scheme

from .core import (TOKEN_ROW, HardevalOptions, HardevalResult, LayeredHardevalResult,
                   _compared_labels, check_kfold, folds_of, gold_types, layer_pair,
                   layer_pairs, leaf_codes, refuse_layered_subsets, subset_stats, token_rows,
                   word_leaves)
from .subsets import (GROUPS, LEAF_NAMES, check_folds, fold_classes, gold_io,
                      gold_word_rows, kfold_summary, sentence_folds)

# the leaves of words seen in training (the others are GROUPS["unseen"])
SEEN_LEAVES = frozenset(GROUPS["all"]) - frozenset(GROUPS["unseen"])

@dataclass(frozen=True, eq=False)
class HardevalPartial(Mergeable):
    """What hardeval of some sentences is computed from (module docstring).

    Attributes:
        cells: int64 ``(cells x columns)``, one row of codes per cell of tokens: the
            leaf code, or with ``kfold`` (word, gold IO label, fold); then the gold
            type as compared.
        vocabularies: per column of ``cells``, the values its codes index (a tuple of
            strings; ``""`` is no IO label, no type), or None where the code is the
            value (leaf, fold). Each partial has its own; a merge aligns them once.
        tokens, errors: int64, per cell.
        rows: per cell, its listed tokens (``core.TOKEN_ROW`` tuples by global
            sentence id) with ``return_hard_tokens``; else ``()``.
        words: per leaf, the set of its tokens' words (None without test words, or
            with ``kfold``: the cells hold the words): a frozenset of strings, or,
            for a leaf of seen words classified against training, their training
            index rows (sorted int64).
        repairs: the gold and the pred side's repairs, each as ``(kind, count)`` items
            (``sentences``: the first 20 global ids).
        n_sentences: the sentences scored.
        options: the options that shaped the numbers as items; ``()`` when empty.
        sentences: with ``per_sentence``, ``SentenceRows`` of ``(global sentence id,
            cell, tokens, errors)``, cells as rows of ``cells``; else None.

    Two partials are equal when they hold the same cells (by their values), in
    whatever order and numbering.
    """

    cells: np.ndarray | tuple = ()
    vocabularies: tuple = ()
    tokens: np.ndarray | tuple = ()
    errors: np.ndarray | tuple = ()
    rows: tuple = ()
    words: tuple | None = None
    repairs: tuple = ()
    n_sentences: int = 0
    options: tuple = ()
    sentences: SentenceRows | None = None

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._canonical() == other._canonical()

    __hash__ = None

    @property
    def keys(self) -> tuple:
        """Each cell's codes as values (strings where a column has a vocabulary)."""
        if self.empty:
            return ()
        columns = [np.asarray(vocabulary, dtype=object)[codes].tolist()
                   if vocabulary is not None else codes.tolist()
                   for codes, vocabulary in zip(self.cells.T, self.vocabularies)]
        return tuple(zip(*columns))

    def _canonical(self) -> tuple:
        keys = self.keys
        return (dict(zip(keys, zip(np.asarray(self.tokens).tolist(),
                                   np.asarray(self.errors).tolist(),
                                   self.rows or ((),) * len(keys)))),
                _comparable_words(self.words), self.repairs, self.n_sentences,
                self.options,
                None if self.sentences is None else
                (tuple(self.sentences.ids.tolist()),
                 frozenset((sentence, keys[cell], tokens, errors) for sentence, cell,
                           tokens, errors in self.sentences.rows.tolist())))

    def __getstate__(self) -> dict:   # codes, counts, index rows: the narrowest dtype
        return {name: _each_array(value, _narrowed, name) for name, value in
                self.__dict__.items()}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update({name: _each_array(value, lambda a: a.astype(np.int64), name)
                              for name, value in state.items()})

    def merge(self, other):
        if self.empty and isinstance(other, (LayeredHardevalPartial,   # an empty shard
                                             SpanListHardevalPartial)):
            return other
        if isinstance(other, SpanListHardevalPartial):   # sentences of no token, read as tags
            return other.lifted(self).merge(other)
        return super().merge(other)

    def merged_with(self, other: "HardevalPartial") -> "HardevalPartial":
        """Cells summed, listings merged (the first ``listed`` kept), words united:
        ``other``'s codes put in this partial's vocabularies (their words looked up once,
        not per cell), then both partials' cells counted by one integer key."""
        vocabularies, theirs = _aligned(self.vocabularies, other.vocabularies, other.cells)
        both = np.concatenate([self.cells, theirs])
        shape = tuple(max(len(vocabulary), 1) if vocabulary is not None else
                      int(both[:, c].max(initial=0)) + 1
                      for c, vocabulary in enumerate(vocabularies))
        present, at = np.unique(np.ravel_multi_index(tuple(both.T), shape),
                                return_inverse=True)
        at = at.reshape(-1)
        mine, yours = at[:len(self.cells)], at[len(self.cells):]
        tokens, errors = (np.bincount(at, weights=np.concatenate([a, b]),
                                      minlength=len(present)).astype(np.int64)
                          for a, b in ((self.tokens, other.tokens),
                                       (self.errors, other.errors)))
        return HardevalPartial(
            np.stack(np.unravel_index(present, shape), axis=1).astype(np.int64),
            vocabularies, tokens, errors,
            _merged_rows(((self.rows, mine), (other.rows, yours)), len(present),
                         dict(self.options)["listed"]),
            None if self.words is None else
            tuple(map(_united, self.words, other.words)),
            tuple(_merged_side(a, b) for a, b in zip(self.repairs, other.repairs)),
            self.n_sentences + other.n_sentences, self.options,
            None if self.sentences is None else SentenceRows(
                self.sentences.ids, _renumbered(self.sentences.rows, mine)).merged_with(
                    other.sentences, _renumbered(other.sentences.rows, yours)))

    def computed(self) -> HardevalResult:
        """``score``'s result of every sentence merged here (per-sentence counts, for
        ``statistics()``, with ``per_sentence``)."""
        options = dict(self.options)
        kfold = options["classified"] == "kfold"
        leaf = self._leaves(options)
        n_leaves = len(LEAF_NAMES)
        words = _distinct_words(self.words) if not kfold else \
            _distinct_codes(self.cells[:, 0], leaf)
        stats = subset_stats(np.bincount(leaf, weights=self.tokens, minlength=n_leaves),
                             np.bincount(leaf, weights=self.errors, minlength=n_leaves),
                             words)
        listing = None
        if options["return_hard_tokens"]:
            listing = _listing(leaf, self.rows, options["listed"])
        strict_diff = None if options["classified"] == "subsets" else options["strict_diff"]
        return HardevalResult(stats, options["error_labels"], strict_diff,
                              {side: _side_dict(items) for side, items in
                               zip(("gold", "pred"), self.repairs)}, listing,
                              self._sentence_counts(leaf),
                              {"scheme": options["scheme"], "mode": options["mode"]},
                              _type_counts(self.cells[:, -1], self.vocabularies[-1], leaf,
                                           self.tokens, self.errors),
                              kfold_summary(options["kfold"], self.n_sentences, leaf,
                                            self.tokens) if kfold else None)

    def _sentence_counts(self, leaf: np.ndarray) -> np.ndarray | None:
        """sentences x leaves x (tokens, errors), as one pass's ``sentence_counts``, of
        the kept rows and each cell's ``leaf``; None without them."""
        if self.sentences is None:
            return None
        rows, n_leaves = self.sentences.rows, len(LEAF_NAMES)
        size = len(self.sentences.ids) * n_leaves
        at = self.sentences.places() * n_leaves + leaf[rows[:, 1]]
        counts = [np.bincount(at, weights=rows[:, k], minlength=size).astype(np.int64)
                  for k in (2, 3)]
        return np.stack(counts, axis=1).reshape(-1, n_leaves, 2)

    def _leaves(self, options: dict) -> np.ndarray:
        """The leaf code of every cell: given, or classified by k-fold from the merged
        counts of the other folds (word and IO label codes as merged: ``""``, no IO
        label, is code 0 in every partial)."""
        if options["classified"] != "kfold":
            return self.cells[:, 0]
        k = options["kfold"][0]
        check_folds(self.n_sentences, k)
        word, io, fold = self.cells[:, 0], self.cells[:, 1], self.cells[:, 2]
        return fold_classes(word, io, fold, k, options["strict_diff"],
                            weights=self.tokens).astype(np.int64)


@migrated(record=HardevalOptions)
def partial(references, predictions=None, *, tokens=None, train=None,
            scheme: str | None = None, mode: str | None = None, label_list=None,
            inputs=None, subsets=None, strict_diff: bool = False,
            error_labels: str = "bilou", return_hard_tokens: bool = False, options=None,
            listed: int | None = None, first_sentence: int = 0, sentence_ids=None, types=None,
            per_sentence: bool = False) -> HardevalPartial:
    """The partial hardeval of one shard of the test sentences.

    Args:
        references, ..., options: as ``hardeval.score`` takes them, for the shard's
            sentences (``subsets``: the codes of the shard's tokens); ``train``: the
            whole training data, best a prebuilt ``nerspan.TrainIndex`` (indexed once,
            shipped to every worker). The options' ``kfold`` (and ``fold_seed``)
            classify the tokens by k-fold cross-validation over the references (instead
            of ``train`` or ``subsets``), as ``score`` does on the whole.
        listed: with ``return_hard_tokens``, list at most this many tokens per subset
            (the first by global sentence id and position); None: all.
        first_sentence, sentence_ids: where the shard's sentences sit in the whole
            (``nerspan.partial``).
        per_sentence: keep each sentence's counts, so that the merged result has
            ``score``'s ``statistics()`` (the report's bootstrap); the partial then grows
            with the sentences.
        types: with generated predictions, the whole's gold types (``nerspan.partial``).

    An empty shard (no sentence on either side) gives the empty partial. An input
    error names the sentence by its global id.
    """
    options = HardevalOptions.of(options).with_keywords(
        strict_diff=strict_diff, error_labels=error_labels,
        return_hard_tokens=return_hard_tokens)
    bound = None if listed is None else check_int("listed", listed, minimum=1)
    check_kfold(options, train, subsets)
    folds = folds_of(options)
    shard = Shard(first_sentence, sentence_ids)
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    with shard.named():
        reading = shard.read_typed(lambda read_as: resolve(
            references, read_as, scheme=scheme, mode=mode, train=train, inputs=inputs,
            layered=True, tables=True), references, predictions, inputs, types)
        if reading is None:
            return HardevalPartial()
        context, corpus, gold_column, pred_column = reading
        layer_partial = lambda own, alone: _partial_of(   # noqa: E731
            own, alone, GOLD, PRED, None, None, folds, options, shard, bound, per_sentence)
        if _span_lists(context, corpus, (gold_column, pred_column), subsets):
            return SpanListHardevalPartial.of(context, corpus, (gold_column, pred_column),
                                              train, layer_partial)
        if is_layered(context.corpus, context.gold_column):
            return LayeredHardevalPartial.of(context, corpus, pred_column, train, subsets,
                                             layer_partial)
    return _partial_of(context, corpus, gold_column, pred_column, train, subsets, folds,
                       options, shard, bound, per_sentence)


def _span_lists(context, corpus: Corpus, columns: tuple, subsets) -> bool:
    """Whether a side was read from span lists, scored by ``SpanListHardevalPartial``;
    with precomputed ``subsets`` never: span lists that nest are then refused, as one
    pass refuses them (one code per token, layers)."""
    if subsets is None:
        return any(corpus.span_table(column) is not None for column in columns)
    layered = tables_as_layers(corpus, *columns, context.scheme, context.mode)
    if layered is not None:
        refuse_layered_subsets(len(layer_columns(layered, columns[0])))
    return False


def _partial_of(context, corpus: Corpus, gold_column: str, pred_column: str, train,
                subsets, folds, options: HardevalOptions, shard: Shard, bound,
                per_sentence: bool) -> "HardevalPartial":
    """``partial`` of a shard read: ``context`` its evaluation, one gold column."""
    error_labels = options.error_labels   # checked by the record
    with shard.named():
        if folds is None:
            codes, strict = leaf_codes(context, corpus, train, subsets, options)
        else:
            codes, strict = _fold_codes(context, corpus, folds, shard), options.strict_diff
        compared = _compared_labels(corpus, gold_column, pred_column, context.scheme,
                                    context.mode, error_labels, context)
    classified = "kfold" if folds is not None else "subsets" if subsets is not None \
        else "train"
    words = None
    if classified != "kfold" and corpus.tokens is not None:
        words = _leaf_words(corpus, codes,
                            gold_word_rows(context) if classified == "train" else None)
    cells, sentences = _cells(corpus, codes, compared, error_labels, context.scheme, shard,
                              bound if options.return_hard_tokens else 0, per_sentence)
    return HardevalPartial(
        *cells, words, tuple(_placed(compared[2][side], corpus, shard, column)
                             for side, column in zip(("gold", "pred"),
                                                     (gold_column, pred_column))),
        corpus.n_sentences,
        (("error_labels", error_labels), ("strict_diff", strict),
         ("scheme", get_scheme(context.scheme).name), ("mode", context.mode),
         ("classified", classified), ("kfold", folds), ("words", corpus.tokens is not None),
         ("return_hard_tokens", options.return_hard_tokens), ("listed", bound),
         ("per_sentence", bool(per_sentence))), sentences)


@dataclass(frozen=True, eq=False)
class LayeredHardevalPartial(Mergeable):
    """What hardeval against gold with layers (tag columns) of some sentences is computed
    from: one ``HardevalPartial`` per layer (``layers``: ``(number, partial)`` items),
    each merged with the same layer of the other shard; ``result()`` is
    ``LayeredHardevalResult`` with ``score``'s ``to_dict()`` on the whole. ``columns``:
    ``(number, (gold column, pred column))`` items."""

    layers: tuple = ()
    columns: tuple = ()
    options: tuple = ()

    @classmethod
    def of(cls, context, corpus: Corpus, pred_column: str, train, subsets,
           layer_partial) -> "LayeredHardevalPartial":
        """Each gold layer of ``context`` with the prediction (``score_layers``' pairs;
        ``train``: the training data) as ``layer_partial(evaluation, corpus)``."""
        layers, columns = [], []
        for name, own, alone, pair in layer_pairs(context, corpus, pred_column, train,
                                                  subsets):
            layers.append((name, layer_partial(own, alone)))
            columns.append((name, pair))
        options = dict(layers[0][1].options)
        return cls(tuple(layers), tuple(columns),
                   tuple({**options, "layers": len(layers)}.items()))

    def merge(self, other):
        if isinstance(other, HardevalPartial) and other.empty:   # an empty shard
            return self
        return super().merge(other)

    def merged_with(self, other: "LayeredHardevalPartial") -> "LayeredHardevalPartial":
        theirs = dict(other.layers)
        return LayeredHardevalPartial(tuple((name, mine.merge(theirs[name]))
                                            for name, mine in self.layers),
                                      self.columns, self.options)

    def computed(self) -> LayeredHardevalResult:
        layers = {name: part.result() for name, part in self.layers}
        first = layers["1"].to_dict()["options"]
        return LayeredHardevalResult(layers, dict(self.columns),
                                     {**first, "layers": len(layers)})


@dataclass(frozen=True)
class SpanListHardevalPartial(Mergeable):
    """What hardeval of span lists (either side) of some sentences is computed from.
    One pass layers them by their deepest nesting over the whole (``tables_as_layers``),
    but the layer rule is sentence-local: a shard's layer k is the whole's layer k on its
    sentences, and a layer deeper than the shard's own holds no mention there. So a
    shard keeps its layers as deep as its own nesting, each with one more for every
    deeper layer, and ``result()`` decides flat or layered from the merged depths.

    Attributes:
        gold_depth, pred_depth: the shard's layers per side (1: none nests).
        layers: ``HardevalPartial`` per k = 1 .. max(depths), gold layer k against the
            prediction's layer k (what one pass scores when the prediction nests in the
            whole), then one of no mention on either side (any deeper layer).
        whole: while no prediction is a span table (nests, overlaps or repeats a
            mention), gold layer k against the whole prediction (what one pass scores
            then) per k = 2 .. gold depth, then one of no gold mention against it (any
            deeper layer); layer 1 is ``layers[0]``. None once one is.
        columns: the gold and the prediction's column.
    """

    gold_depth: int = 0
    pred_depth: int = 0
    layers: tuple = ()
    whole: tuple | None = None
    columns: tuple = ()
    options: tuple = ()

    @classmethod
    def of(cls, context, corpus: Corpus, columns: tuple, train,
           layer_partial) -> "SpanListHardevalPartial":
        """The shard read (``resolve``), each side's span table as layers
        (``layer_partial(evaluation, corpus)`` gives a pair's partial)."""
        gold_column, pred_column = columns
        pred_table = corpus.mentions(pred_column) is not None
        corpus, gold_depth = as_layers(corpus, gold_column, context.scheme, context.mode)
        corpus, pred_depth = as_layers(corpus, pred_column, context.scheme, context.mode)
        depth = max(gold_depth, pred_depth)
        corpus = padded_layers(padded_layers(corpus, gold_column, depth + 1), pred_column,
                               depth + 1)
        context = Evaluation(corpus, context.scheme, context.mode, context.index(train),
                             gold_column, inputs=context.inputs)
        index = context.index(None)

        def against(k: int, pred: str) -> HardevalPartial:
            return layer_partial(*layer_pair(context, corpus, layer_column(gold_column, k),
                                              pred, index))
        layers = tuple(against(k, layer_column(pred_column, k)) for k in range(1, depth + 2))
        whole = None if pred_table else \
            tuple(against(k, pred_column) for k in range(2, gold_depth + 2))
        return cls(gold_depth, pred_depth, layers, whole, columns, layers[0].options)

    def merge(self, other):
        if isinstance(other, HardevalPartial) and other.empty:   # an empty shard
            return self
        if isinstance(other, HardevalPartial):
            other = self.lifted(other)
        return super().merge(other)

    def lifted(self, flat: HardevalPartial) -> "SpanListHardevalPartial":
        """A shard of sentences without tokens (read as tags: no span list to tell) as a
        partial of span lists of depth 1: every layer of it is its one partial."""
        if np.asarray(flat.tokens).sum():
            raise TypeError("a SpanListHardevalPartial merges with partials of span lists, "
                            "not of tags")
        return SpanListHardevalPartial(1, 1, (flat, flat), (flat,), self.columns,
                                       flat.options)

    def merged_with(self, other: "SpanListHardevalPartial") -> "SpanListHardevalPartial":
        """Layer by layer, the shallower partial's layers beyond its depth its last."""
        gold_depth = max(self.gold_depth, other.gold_depth)
        pred_depth = max(self.pred_depth, other.pred_depth)
        depth = max(gold_depth, pred_depth)
        layers = _deepened(self.layers, other.layers, depth + 1)
        whole = None if self.whole is None or other.whole is None else \
            _deepened(self.whole, other.whole, gold_depth)
        return SpanListHardevalPartial(gold_depth, pred_depth, layers, whole, self.columns,
                                       self.options)

    def computed(self) -> HardevalResult | LayeredHardevalResult:
        """One pass's result: flat when no side nests in the whole; else per layer, each
        gold layer against the prediction's of its number (a span table somewhere) or the
        whole one."""
        if self.gold_depth == 1 and self.pred_depth == 1:
            return self.layers[0].result()
        gold_column, pred_column = self.columns
        if self.whole is not None:
            parts = (self.layers[0], *self.whole[:self.gold_depth - 1])
            preds = [pred_column] * len(parts)
        else:
            parts = self.layers[:-1]
            preds = [layer_column(pred_column, k) for k in range(1, len(parts) + 1)]
        layers = {str(k): part.result() for k, part in enumerate(parts, 1)}
        columns = {str(k): (layer_column(gold_column, k), pred)
                   for k, pred in enumerate(preds, 1)}
        first = layers["1"].to_dict()["options"]
        return LayeredHardevalResult(layers, columns, {**first, "layers": len(layers)})


def _deepened(mine: tuple, theirs: tuple, n: int) -> tuple:
    """Two shards' layer partials merged as ``n``: each's last (no mention of its own
    there) standing for every layer beyond its own."""
    def extended(parts: tuple) -> tuple:
        return parts + parts[-1:] * (n - len(parts))
    return tuple(a.merge(b) for a, b in zip(extended(mine), extended(theirs)))


def _fold_codes(context, corpus: Corpus, folds: tuple, shard: Shard) -> tuple:
    """``(class, how)``: each token's k-fold class as one id, ``(word x width + gold IO
    code) x k + fold``, and ``how`` to read it back, ``(width, k, IO types)``."""
    if corpus.tokens is None:
        raise ValueError("k-fold subsets need the corpus tokens")
    io, io_types, _ = gold_io(corpus, context.gold_column, context.scheme, context.mode,
                              spans=context.gold)
    k, seed = folds
    sentences = np.arange(corpus.n_sentences)
    fold = sentence_folds(shard.global_ids(sentences), k, seed)[corpus.sentence_of_position]
    width = len(io_types) + 1
    word = corpus.tokens.astype(np.int64)
    return (word * width + io) * k + fold, (width, k, io_types)


def _cells(corpus: Corpus, codes: tuple, compared: tuple, error_labels: str, scheme,
           shard: Shard, bound, per_sentence: bool = False) -> tuple:
    """The shard's tokens counted per cell: ``HardevalPartial``'s ``cells``,
    ``vocabularies``, ``tokens``, ``errors``, ``rows``; ``bound``: how many tokens a cell lists (None: all, 0: none);
    then, at the end, ``sentences`` (None without ``per_sentence``)."""
    classes, how = codes if isinstance(codes, tuple) else (codes, None)
    gold, pred, _, types = compared
    wrong = gold != pred
    typed, gold_type = gold_types(corpus, gold, error_labels, scheme)
    type_of = np.zeros(corpus.n_tokens, dtype=np.int64)
    type_of[typed] = gold_type + 1
    key = classes.astype(np.int64) * (len(types) + 1) + type_of
    present, counts, errors = _counted(key, wrong)
    class_of, type_id = np.divmod(present, len(types) + 1)
    columns, vocabularies = _class_columns(corpus, class_of, how)
    rows = ()
    if bound != 0:
        rows = tuple(_rows(corpus, key, present, counts, bound, compared, wrong,
                           error_labels, shard)) if len(present) else ()
    sentences = _sentence_cells(corpus, key, present, wrong, shard) if per_sentence \
        else None
    return (np.stack([*columns, type_id], axis=1).astype(np.int64),
            (*vocabularies, ("", *types)), counts.astype(np.int64),
            errors.astype(np.int64), rows), sentences


def _sentence_cells(corpus: Corpus, key: np.ndarray, present: np.ndarray,
                    wrong: np.ndarray, shard: Shard) -> SentenceRows:
    """Each sentence's tokens and errors per cell (``present``, the cells' keys sorted,
    ``key``: each token's)."""
    n_cells = max(len(present), 1)
    combined = corpus.sentence_of_position.astype(np.int64) * n_cells \
        + np.searchsorted(present, key)
    found, inverse, tokens = np.unique(combined, return_inverse=True, return_counts=True)
    errors = np.bincount(inverse.reshape(-1)[wrong], minlength=len(found))
    sentence, cell = np.divmod(found, n_cells)
    ids = shard.global_ids(np.arange(corpus.n_sentences))
    return SentenceRows.of(ids, ids[sentence], cell, tokens, errors)


def _renumbered(rows: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Rows of ``SentenceRows`` whose cells (column 1) are put at ``at``."""
    out = rows.copy()
    out[:, 1] = at[rows[:, 1]]
    return out


def _merged_rows(parts: tuple, n_cells: int, bound: int | None) -> tuple:
    """The listed tokens of two partials' cells (``parts``: each partial's ``rows`` and
    where its cells are put), each cell's first ``bound`` kept; ``()`` without a
    listing."""
    if not any(rows for rows, _ in parts):
        return ()
    merged = [()] * n_cells
    for rows, at in parts:
        for i, found in zip(at.tolist(), rows):
            merged[i] = tuple(sorted(merged[i] + found)[:bound]) if merged[i] else found
    return tuple(merged)


def _aligned(mine: tuple, theirs: tuple, cells: np.ndarray) -> tuple:
    """``(vocabularies, cells)``: ``mine`` extended by the values only ``theirs`` has,
    and the other partial's ``cells`` recoded into them (each value looked up once)."""
    vocabularies, cells = [], cells.copy()
    for column, (a, b) in enumerate(zip(mine, theirs)):
        if a is None or a == b:
            vocabularies.append(a)
            continue
        index = dict(zip(a, range(len(a))))
        added = tuple(value for value in dict.fromkeys(b) if value not in index)
        index.update(zip(added, range(len(a), len(a) + len(added))))
        vocabularies.append(a + added)
        cells[:, column] = np.fromiter(map(index.__getitem__, b), dtype=np.int64,
                                       count=len(b))[cells[:, column]]
    return tuple(vocabularies), cells


def _counted(key: np.ndarray, wrong: np.ndarray) -> tuple:
    """The keys present, their tokens and their errors: a ``bincount`` over few keys
    (the leaves), a sort over many (k-fold's words)."""
    space = int(key.max(initial=-1)) + 1
    if space <= 2 * len(key) + 64:
        tokens = np.bincount(key, minlength=space)
        present = np.flatnonzero(tokens)
        return present, tokens[present], np.bincount(key[wrong], minlength=space)[present]
    present, inverse, tokens = np.unique(key, return_inverse=True, return_counts=True)
    return present, tokens, np.bincount(inverse[wrong], minlength=len(present))


def _each_array(value, convert, name: str):
    """``value`` (the attribute ``name``) converted if an array, or each array of it
    converted if the ``words`` (``_leaf_words``)."""
    if isinstance(value, np.ndarray):
        return convert(value)
    if name == "words" and value is not None:
        return tuple(convert(v) if isinstance(v, np.ndarray) else v for v in value)
    return value


def _narrowed(values: np.ndarray) -> np.ndarray:
    """Non-negative integers in the narrowest unsigned dtype that holds them."""
    return values.astype(np.min_scalar_type(int(values.max(initial=0))))


def _class_columns(corpus: Corpus, class_of: np.ndarray, how) -> tuple:
    """``(columns, vocabularies)``: a cell's class as the partial keeps it, the leaf,
    or with k-fold (word, IO label, fold) codes; the words kept are those of the
    cells."""
    if how is None:
        return [class_of], (None,)
    width, k, io_types = how
    word_io, fold = np.divmod(class_of, k)
    word, io = np.divmod(word_io, width)
    used, word = np.unique(word, return_inverse=True)
    vocab = tuple(np.asarray(corpus.vocab, dtype=object)[used].tolist())
    return [word.reshape(-1), io, fold], (vocab, ("", *io_types), None)


def _rows(corpus, key, present, counts, bound, compared, wrong, error_labels,
          shard) -> list:
    """Each cell's first ``bound`` tokens (all: None) as ``TOKEN_ROW`` tuples."""
    order = np.argsort(key, kind="stable")
    starts = np.searchsorted(key[order], present)
    taken = counts if bound is None else np.minimum(counts, bound)
    positions = np.concatenate([order[a:a + n] for a, n in zip(starts.tolist(),
                                                                taken.tolist())])
    gold, pred, _, types = compared
    found = token_rows(corpus, positions, gold, pred, wrong, error_labels, types,
                       shard.global_ids)
    cuts = np.cumsum(taken)[:-1].tolist()
    return [tuple(found[a:b]) for a, b in zip([0, *cuts], [*cuts, len(found)])]


def _placed(side: dict, corpus: Corpus, shard: Shard, column: str) -> tuple:
    """A side's repairs (``compared_codes``) as items, its sentences by global id; its
    generated record (``generative``) as a partial keeps it (``bounded``); a corpus of
    some of gold's sentences: ``numbers``, the number in gold of each sentence they name
    (``nerspan.partials.numbers_by_id``)."""
    record = corpus.source.generated[column].bounded() if "generative" in side else None
    sentences = side["sentences"]
    numbers = corpus.source.sentence_numbers
    named = {}
    if numbers is not None:   # named by their numbers in the input: back to places
        place = {int(number): i for i, number in enumerate(np.asarray(numbers).tolist())}
        sentences = [place[s] for s in sentences]
        named["numbers"] = numbers_by_id(numbers, shard, sentences, record)
    if record is not None:
        side = {**side, "generative": record.bounded(shard.global_ids)}
    return tuple({**side, "sentences": tuple(shard.global_ids(sentences).tolist()),
                  **named}.items())


def _merged_side(a: tuple, b: tuple) -> tuple:
    """Two shards' repairs of one side: counts summed (None: not applicable), the first
    20 sentences kept (and the numbers of those named)."""
    mine, other = dict(a), dict(b)
    out = {kind: tuple(sorted(set(value) | set(other[kind])))[:20]
           if kind == "sentences" else value.merged_by_id(other[kind])
           if kind == "generative" else
           None if value is None else value + other[kind]
           for kind, value in mine.items() if kind != "numbers"}
    if "numbers" in mine:
        out["numbers"] = kept_numbers((mine["numbers"], other["numbers"]),
                                      out["sentences"], out.get("generative"))
    return tuple(out.items())


def _side_dict(items: tuple) -> dict:
    """A side's repairs as ``score`` gives them: sentences by their numbers in gold
    where the partial keeps them, else by global id."""
    side = dict(items)
    numbers = side.pop("numbers", None)
    side["sentences"] = list(side["sentences"]) if numbers is None else \
        [numbers[s] for s in side["sentences"]]
    if "generative" in side:
        side["generative"] = side["generative"].to_dict(numbers)
    return side


def _distinct_codes(word: np.ndarray, leaf: np.ndarray) -> dict:
    """Subset -> its distinct words, of cells' word codes and leaves (k-fold)."""
    return {name: len(np.unique(word[np.isin(leaf, leaves)]))
            for name, leaves in GROUPS.items()}


def _leaf_words(corpus: Corpus, codes: np.ndarray, rows: np.ndarray | None) -> tuple:
    """Per leaf, the words of its tokens (``HardevalPartial.words``): with ``rows``, each
    word's row in the training index the codes were classified against
    (``gold_word_rows``), a leaf of seen words as their index rows (a seen word has one:
    no string is kept or hashed), else as strings."""
    occurs = word_leaves(corpus, codes)
    vocab = np.asarray(corpus.vocab, dtype=object)
    return tuple(np.sort(rows[occurs[:, leaf]]) if rows is not None and leaf in SEEN_LEAVES
                 else frozenset(vocab[occurs[:, leaf]].tolist())
                 for leaf in range(len(LEAF_NAMES)))


def _united(a, b):
    """Two partials' words of one leaf united (``_leaf_words``); index rows, sorted, by
    inserting the smaller's new rows in the larger (no sort of both)."""
    if not isinstance(a, np.ndarray):
        return a | b
    if len(a) < len(b):
        a, b = b, a
    at = np.searchsorted(a, b)
    new = b[(at == len(a)) | (a[np.minimum(at, len(a) - 1)] != b)] if len(a) else b
    return np.insert(a, np.searchsorted(a, new), new)


def _comparable_words(words: tuple | None) -> tuple | None:
    """``words`` with index rows as frozensets, for equality."""
    return None if words is None else tuple(
        frozenset(leaf.tolist()) if isinstance(leaf, np.ndarray) else leaf for leaf in words)


def _distinct_words(words: tuple | None) -> dict | None:
    """Subset -> its distinct words, from the words of each leaf (``core.distinct_words``
    of a corpus): a word is seen or not, so rows and strings never name one word."""
    if words is None:
        return None
    return {name: len(set().union(*(words[leaf] for leaf in leaves
                                    if not isinstance(words[leaf], np.ndarray))))
            + len(reduce(_united, [words[leaf] for leaf in leaves
                                    if isinstance(words[leaf], np.ndarray)],
                         np.zeros(0, dtype=np.int64)))
            for name, leaves in GROUPS.items()}


def _type_counts(type_codes: np.ndarray, vocabulary: tuple, leaf: np.ndarray,
                 tokens: np.ndarray, errors: np.ndarray) -> dict:
    """Type -> leaves x (tokens, errors) over the typed cells (``type_codes`` into
    ``vocabulary``), types sorted (the label table's order,
    ``HardevalResult.type_counts``)."""
    present = np.unique(type_codes).tolist()
    names = sorted(vocabulary[code] for code in present if vocabulary[code])
    order = dict(zip(names, range(len(names))))
    place = np.array([order.get(name, -1) for name in vocabulary], dtype=np.int64)
    n_leaves = len(LEAF_NAMES)
    cell_place = place[type_codes] if len(type_codes) else np.zeros(0, dtype=np.int64)
    typed = cell_place >= 0
    cell = cell_place[typed] * n_leaves + leaf[typed]
    counts = np.stack([np.bincount(cell, weights=values[typed],
                                   minlength=len(names) * n_leaves).astype(np.int64)
                       for values in (tokens, errors)], axis=1)
    counts = counts.reshape(len(names), n_leaves, 2)
    return {name: counts[i] for i, name in enumerate(names)}


def _listing(leaf: np.ndarray, rows: list, bound: int | None) -> dict:
    """Subset -> its listed tokens as ``score`` lists them (``hard_tokens``)."""
    out = {}
    for name, leaves in GROUPS.items():
        found = sorted(row for code, cell in zip(leaf.tolist(), rows) if code in leaves
                       for row in cell)[:bound]
        out[name] = [dict(zip(TOKEN_ROW, row)) for row in found]
    return out


__all__ = ["partial", "HardevalPartial", "LayeredHardevalPartial", "SpanListHardevalPartial"]
