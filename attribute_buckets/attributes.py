"""The nine attributes of METHODS.md section 4, computed for all units at once.

Mention attributes (one value per mention, gold or predicted): eLen, sLen, eDen, oDen,
eCon, eFre, and the discrete ``tag`` (the mention's type id; see ``discrete``). Token
attributes (one value per scored token): tCon, tFre. A predicted
mention gets the value computed for *it* (its own length, text and type); the sentence
attributes (sLen, eDen, oDen) are properties of its sentence, the same for gold and
predicted mentions (eDen counts the *gold* mention tokens of the sentence).

Mentions may nest, overlap, share a span with another type or have fragments
(``shapes``): a mention's tokens are its fragments' (never the gaps), eDen counts the
tokens of every gold mention (inner ones too), and eCon / eFre read its fragments' words
in order against every training mention (``tables``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from nerspan import Corpus, Spans, TrainIndex
from nerspan.flat import ranges
from nerspan.scores import is_flat
from nerspan.train_index import mention_texts

from .discrete import DISCRETE
from .shapes import WordPositions, covered_lengths, shared_token
from .tables import TrainingTables, needs_regex

FREQUENCY_NORMS = ("ratio", "rank5")
RANK = 5  # the reference code divides frequencies by the 5th largest count


@dataclass
class Side:
    """The scored units of one column: mentions (``spans``) and token labels."""

    spans: Spans
    # per position: 0 = O, 1 + t = inside a mention of test type t (a discontinuous
    # mention's fragments, not its gaps); None when two mentions share a token
    io: np.ndarray | None

    @classmethod
    def of(cls, spans: Spans, n_tokens: int) -> "Side":
        """The side of ``spans``; IO codes as int8 when the types allow (they live for the
        whole scoring: an eighth of int64's memory)."""
        if not is_flat(spans) and shared_token(spans) is not None:
            return cls(spans, None)   # no label per token (``shapes.check_shapes``)
        io = spans.io_codes(n_tokens)
        return cls(spans, io.astype(np.int8) if len(spans.types) < 127 else io)


@dataclass
class Context:
    """Everything an attribute function may look at."""

    corpus: Corpus
    gold: Side
    types: tuple                          # test entity types (``Spans.types``)
    train: TrainIndex | None
    tables: TrainingTables | None
    frequency_norm: str = "ratio"
    compat: str | None = None
    _memo: dict = field(default_factory=dict, repr=False)

    def cached(self, key, build):
        """``build()``, made once per context: gold and predicted units share it."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    # -- shared per-corpus arrays ------------------------------------------------------
    def vocab_rows(self) -> np.ndarray:
        """Training row of every word of the test vocabulary (-1 = not in training)."""
        return self.cached("vocab_rows", lambda: self.tables.rows(self.corpus.vocab))

    def rows_at(self, positions: np.ndarray) -> np.ndarray:
        """Training row of the test tokens at ``positions`` (-1 = not in training)."""
        return self.vocab_rows()[self.corpus.tokens[positions]]

    def table_rows(self) -> np.ndarray:
        """Row of every test token in the token tables (``consistency_table``,
        ``frequency_table``): its training row, the last row when unseen; in the smallest
        unsigned type, as token results keep it (``TableValues``)."""
        def build():
            unseen = len(self.tables.label_counts)
            rows = self.vocab_rows()
            rows = np.where(rows >= 0, rows, unseen).astype(np.min_scalar_type(unseen))
            return rows[self.corpus.tokens]
        return self.cached("table_rows", build)

    def type_columns(self) -> np.ndarray:
        return self.cached("columns", lambda: self.tables.type_columns(self.types))


# -- sentence attributes -----------------------------------------------------------------
def sentence_lengths(ctx: Context) -> np.ndarray:
    return ctx.corpus.lengths.astype(float)


def sentence_entity_density(ctx: Context) -> np.ndarray:
    def build():
        # every gold mention's tokens, inner mentions included (fragments, not gaps)
        inside = np.bincount(ctx.gold.spans.sentence,
                             weights=covered_lengths(ctx.gold.spans),
                             minlength=ctx.corpus.n_sentences)
        return _per_length(inside, ctx.corpus.lengths)
    return ctx.cached("eDen", build)


def sentence_oov_density(ctx: Context) -> np.ndarray:
    def build():
        # the sentences of the unseen tokens only: no array of a float or a sentence per token
        unseen = np.flatnonzero(_unseen_words(ctx)[ctx.corpus.tokens])
        sentences = np.searchsorted(ctx.corpus.offsets, unseen, side="right") - 1
        counts = np.bincount(sentences, minlength=ctx.corpus.n_sentences)
        return _per_length(counts, ctx.corpus.lengths)
    return ctx.cached("oDen", build)


def _unseen_words(ctx: Context) -> np.ndarray:
    """Per word of the test vocabulary: absent from the training vocabulary. The
    reference code (``compat="interpreteval"``) looks the test tokens up exactly as
    written among the training tokens as written, whatever ``lowercase`` says."""
    if ctx.compat == "interpreteval":
        return ctx.train.token_rows(ctx.corpus.vocab, lowercase=False) < 0
    return ctx.vocab_rows() < 0


def _per_length(counts, lengths):
    return np.divide(counts, lengths, out=np.zeros(len(lengths)), where=lengths > 0)


# -- mention attributes ------------------------------------------------------------------
def entity_length(ctx: Context, spans: Spans) -> np.ndarray:
    """eLen: the tokens a mention covers (a discontinuous one's fragments, not its gaps)."""
    return covered_lengths(spans).astype(float)


def entity_sentence_length(ctx: Context, spans: Spans) -> np.ndarray:
    return sentence_lengths(ctx)[spans.sentence]


def entity_density(ctx: Context, spans: Spans) -> np.ndarray:
    return sentence_entity_density(ctx)[spans.sentence]


def entity_oov_density(ctx: Context, spans: Spans) -> np.ndarray:
    return sentence_oov_density(ctx)[spans.sentence]


def entity_type(ctx: Context, spans: Spans) -> np.ndarray:
    """tag: the mention's type id (shared by gold and predicted mentions)."""
    return spans.type.astype(float)


def entity_consistency(ctx: Context, spans: Spans) -> np.ndarray:
    """eCon: training mentions of the span's text and type / training occurrences of its
    token sequence (annotated or not); 0 when it never occurs."""
    if ctx.compat == "interpreteval":
        return _reference_entity_values(ctx, spans)[0]
    values = np.zeros(len(spans))
    columns = ctx.type_columns()[spans.type] if len(spans) else np.zeros(0, dtype=np.int64)
    for length, members, ids in _sequence_ids(ctx, spans):
        occurrences = _lookup(ctx.tables.occurrences(length), ids)
        typed = ctx.tables.typed_mention_counts(length, ids, columns[members])
        values[members] = np.divide(typed, occurrences, out=np.zeros(len(ids)),
                                    where=occurrences > 0)
    return values


def entity_frequency(ctx: Context, spans: Spans) -> np.ndarray:
    """eFre: training mentions with the span's text / all training mentions (``ratio``);
    ``rank5``: occurrences of the text in training / the 5th largest such count among
    training mention texts, capped at 1 (0 for a text never annotated in training)."""
    if ctx.compat == "interpreteval":
        return _reference_entity_values(ctx, spans)[1]
    values = np.zeros(len(spans))
    n_mentions = max(ctx.train.n_mentions, 1)
    scale = _rank_scale_mentions(ctx.tables) if ctx.frequency_norm == "rank5" else None
    for length, members, ids in _sequence_ids(ctx, spans):
        mentions = _lookup(ctx.tables.mention_counts(length), ids)
        if scale is None:
            values[members] = mentions / n_mentions
        else:
            occurrences = _lookup(ctx.tables.occurrences(length), ids)
            values[members] = np.where(mentions > 0, np.minimum(occurrences / scale, 1.0), 0.0)
    return values


def _rank_scale_mentions(tables: TrainingTables) -> float:
    """The 5th largest occurrence count among distinct training mention texts."""
    counts = []
    for length in tables.mention_lengths().tolist():
        ids = np.unique(tables.mention_ids(length)[0])
        counts.append(tables.occurrences(length)[ids])
    return _rank_value(np.concatenate(counts) if counts else np.zeros(0))


def _rank_value(counts: np.ndarray) -> float:
    """The RANK-th largest count (the smallest one when there are fewer), at least 1."""
    if not len(counts):
        return 1.0
    ordered = np.sort(counts)[::-1]
    return float(max(ordered[min(RANK, len(ordered)) - 1], 1))


def _sequence_ids(ctx: Context, spans: Spans) -> list:
    """(length, span indices, training sequence ids) per distinct number of tokens
    covered (a mention's words: its fragments' in order); made once per spans object
    (eCon and eFre both ask)."""
    key = ("sequence_ids", id(spans))
    kept = ctx._memo.get(key)
    if kept is None or kept[0] is not spans:   # an id names one live object only
        groups = []
        covered, positions = covered_lengths(spans), WordPositions(spans)
        for length in np.unique(covered).tolist():
            members = np.flatnonzero(covered == length)
            matrix = ctx.rows_at(positions.of(members, length))
            groups.append((length, members, ctx.tables.sequence_ids(matrix)))
        kept = ctx._memo[key] = (spans, groups)
    return kept[1]


def _lookup(table: np.ndarray, ids: np.ndarray) -> np.ndarray:
    return np.where(ids >= 0, table[np.maximum(ids, 0)] if len(table) else 0, 0)


# -- token attributes --------------------------------------------------------------------
# A token's value depends only on its training row and its label code, so each token
# attribute is a table of cells (row x label code; the last row for tokens unseen in
# training) and a token's value is one look-up: buckets are assigned to the cells, not
# to every token.
def consistency_table(ctx: Context) -> np.ndarray:
    """tCon of every cell, ``(training rows + 1) x (1 + test types)``: share of the row's
    training occurrences carrying the label (0 = O, 1 + t = test type t); 0 for a type
    training never saw and for the unseen row."""
    def build():
        columns = np.concatenate([[0], ctx.type_columns()]).astype(np.int64)
        hits = np.where(columns >= 0, ctx.tables.label_counts[:, np.maximum(columns, 0)], 0)
        hits = np.vstack([hits, np.zeros((1, len(columns)), dtype=hits.dtype)])
        total = np.append(ctx.tables.row_totals, 0)[:, None]
        return np.divide(hits, total, out=np.zeros(hits.shape), where=total > 0)
    return ctx.cached("tCon", build)


def frequency_table(ctx: Context) -> np.ndarray:
    """tFre of every training row, ``(training rows + 1) x 1`` (the label does not
    matter; the unseen row is 0): occurrences / all training tokens (``ratio``), or / the
    5th largest token count, capped at 1 (``rank5``)."""
    def build():
        totals = ctx.tables.row_totals
        occurrences = np.append(totals, 0).astype(float)[:, None]
        if ctx.frequency_norm == "rank5" or ctx.compat == "interpreteval":
            return np.minimum(occurrences / _rank_value(totals), 1.0)
        return occurrences / max(ctx.tables.n_tokens, 1)
    return ctx.cached("tFre", build)


@dataclass(frozen=True)
class TableValues:
    """Token values kept as look-ups in a token table: token ``i`` has
    ``table[rows[i], labels[i]]`` (``labels`` None: the table's one column). A float per
    token costs 8 bytes; a table row costs 1-4 (one array for both sides and every token
    attribute, ``Context.table_rows``) and a label code 1 (the side's IO codes)."""

    table: np.ndarray                # (table rows x columns) values
    rows: np.ndarray                 # table row of every token
    labels: np.ndarray | None        # column (label code) of every token

    @classmethod
    def of(cls, table: np.ndarray, rows: np.ndarray, labels: np.ndarray) -> "TableValues":
        """The values of tokens at table ``rows`` with label codes ``labels``."""
        return cls(table, rows, labels if table.shape[1] > 1 else None)

    def __len__(self) -> int:
        return len(self.rows)

    def cells(self) -> np.ndarray:
        """The flat table cell of every token (int64: what NumPy indexes and counts with;
        made when needed, never kept)."""
        cells = self.rows.astype(np.int64)
        if self.labels is not None:
            cells *= self.table.shape[1]
            cells += self.labels
        return cells

    def take(self, table: np.ndarray) -> np.ndarray:
        """``table`` (shaped as ``self.table``) read at every token."""
        return table.ravel()[self.cells()]

    def values(self) -> np.ndarray:
        return self.take(self.table)

    def value_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct values of the tokens, increasing, and how many tokens have each:
        the sorted values without an array of them."""
        per_cell = np.bincount(self.cells(), minlength=self.table.size)
        occupied = np.flatnonzero(per_cell)
        values, inverse = np.unique(self.table.ravel()[occupied], return_inverse=True)
        # float sums of integers below 2**53: exact
        counts = np.bincount(inverse, weights=per_cell[occupied], minlength=len(values))
        return values, counts.astype(np.int64)


def token_consistency(ctx: Context, positions: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """tCon of each (token position, label code): share of the token's training
    occurrences carrying the label (0 = O, 1 + t = test type t); 0 when unseen."""
    table = consistency_table(ctx)
    return TableValues.of(table, ctx.table_rows()[positions], labels).values()


def token_frequency(ctx: Context, positions: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """tFre: the token's training occurrences / all training tokens (``ratio``), or /
    the 5th largest token count, capped at 1 (``rank5``)."""
    table = frequency_table(ctx)
    return TableValues.of(table, ctx.table_rows()[positions], labels).values()


# -- the reference code's eCon and eFre (compat="interpreteval") -------------------------
def _reference_entity_values(ctx: Context, spans: Spans) -> tuple[np.ndarray, np.ndarray]:
    """eCon and eFre as the reference code computes them.

    Only texts that are training mentions have values (others: 0). Occurrences are the
    regex matches of the lowercased text in the space-joined training text (see
    ``TrainingTables.reference_matches``); eCon is the share of the matched tokens whose
    training label has the mention's type, eFre the match count over the 5th largest
    match count among training mention texts, and 0 when the count exceeds that 5th
    largest one (the reference keeps no entry for those texts); both rounded to 3
    decimals.
    """
    tables = ctx.tables
    consistency = np.zeros(len(spans))
    frequency = np.zeros(len(spans))
    if not len(spans):
        return consistency, frequency
    texts = mention_texts(ctx.corpus, spans, lowercase=True)
    columns = ctx.type_columns()[spans.type]
    train_mentions = ctx.train.mention_types(lowercase=True)
    scale = _reference_scale(tables)
    for length, members, ids in _sequence_ids(ctx, spans):
        for i, member in enumerate(members.tolist()):
            text = texts[member]
            if text not in train_mentions:
                continue
            starts = _reference_starts(tables, text, length, ids[i])
            n = len(starts)
            # the reference's table has no entry for a text matched more often than the
            # 5th largest count: such a text gets 0, like a text never annotated
            frequency[member] = n / scale if n <= scale else 0.0
            if n and columns[member] >= 1:
                window = ranges(starts, np.full(n, length))
                same = np.count_nonzero(tables.io[window] == columns[member])
                consistency[member] = same / len(window)
    return _round3(consistency), _round3(frequency)


def _reference_starts(tables: TrainingTables, text: str, length: int, window_id: int):
    if needs_regex(text):
        return tables.reference_regex_starts(text)
    if window_id < 0:
        return np.zeros(0, dtype=np.int64)
    ids, starts = tables.reference_matches(length)
    lo, hi = np.searchsorted(ids, window_id, "left"), np.searchsorted(ids, window_id, "right")
    return starts[lo:hi]


def _reference_scale(tables: TrainingTables) -> float:
    """5th largest regex match count among the distinct training mention texts."""
    if "reference_scale" not in tables._memo:
        texts = list(tables.index.mention_types(lowercase=True))
        counts = [len(tables.reference_regex_starts(t)) for t in texts if needs_regex(t)]
        by_length: dict = {}
        for text in texts:
            if not needs_regex(text):
                by_length.setdefault(text.count(" ") + 1, []).append(text)
        for length, group in by_length.items():
            words = [w for text in group for w in text.split(" ")]
            rows = tables.index.token_rows(words, True).reshape(len(group), length)
            window_ids = tables.sequence_ids(rows)
            ids, _ = tables.reference_matches(length)
            found = np.searchsorted(ids, window_ids, "right") - np.searchsorted(ids, window_ids, "left")
            counts.extend(np.where(window_ids >= 0, found, 0).tolist())
        tables._memo["reference_scale"] = _rank_value(np.asarray(counts, dtype=np.int64))
    return tables._memo["reference_scale"]


def reference_token_values(ctx: Context, positions: np.ndarray, labels: np.ndarray,
                           mention_start: np.ndarray, function: Callable) -> np.ndarray:
    """tCon / tFre as the reference code gives them to the tokens of one mention: a token
    unseen in training keeps the value of the previous token of the same mention (the
    reference never resets it inside a mention); the first one gets 0. Rounded to 3
    decimals like the reference's precomputed tables."""
    values = function(ctx, positions, labels)
    seen = ctx.rows_at(positions) >= 0
    valid = seen | mention_start
    values = np.where(valid, values, 0.0)
    source = np.where(valid, np.arange(len(values)), 0)
    np.maximum.accumulate(source, out=source)
    return _round3(values[source])


def _round3(values: np.ndarray) -> np.ndarray:
    """Round as ``float('%.3f' % v)`` does (the reference stores values that way)."""
    unique, inverse = np.unique(values, return_inverse=True)
    rounded = np.asarray([float("%.3f" % v) for v in unique.tolist()])
    return rounded[inverse.ravel()] if len(values) else values


# -- the table: one record per attribute --------------------------------------------------
MENTION, TOKEN = "mention", "token"


@dataclass(frozen=True)
class Attribute:
    """One bucketing attribute, everything the scoring, the tables, the plots and the
    report's names read of it.

    - ``name`` (its key: ``eLen``), ``title`` (its readable name: ``entity length``),
      ``description`` (its definition, METHODS.md section 4);
    - ``level``: ``"mention"`` (a value per gold and predicted mention) or ``"token"`` (a
      value per token and label: its buckets score tokens, O included);
    - ``ordered``: whether its buckets have an order (``tag``'s, one per type, have none:
      the analyses that need an order skip it);
    - ``needs_training``: it looks at the training data (and the test tokens);
    - ``training_labels``: it counts the label of every training token (training whose
      mentions share a token has none: ``shapes.check_shapes`` refuses it);
    - ``bucketing``: its buckets by default, a strategy of ``bucketing.STRATEGIES`` or
      ``discrete.DISCRETE`` (one bucket per type);
    - ``compat``: its buckets under ``compat="interpreteval"``, a rule of
      ``bucketing.REFERENCE_RULES`` (``"types"``: ``discrete.tag_buckets``' reference rule);
    - ``values``: how its values are computed: ``values(ctx, spans)`` for a mention
      attribute, ``values(ctx, positions, labels)`` for a token attribute, whose values are
      also a ``table(ctx)`` of cells (training row x label code) read per token.
    """

    name: str
    title: str
    description: str
    level: str
    values: Callable
    bucketing: str = "equal"
    compat: str = "greedy"
    ordered: bool = True
    needs_training: bool = False
    table: Callable | None = None
    training_labels: bool = False


ATTRIBUTE_TABLE = {a.name: a for a in (
    Attribute("eLen", "entity length", "entity length: tokens of the mention", MENTION,
              entity_length, bucketing="length", compat="length"),
    Attribute("sLen", "sentence length", "sentence length: tokens of the mention's sentence",
              MENTION, entity_sentence_length),
    Attribute("eDen", "entity density",
              "entity density: gold mention tokens of the sentence / sentence length",
              MENTION, entity_density),
    Attribute("oDen", "OOV density", "OOV density: sentence tokens absent from the training "
              "vocabulary / sentence length", MENTION, entity_oov_density,
              bucketing="zero_then_equal", compat="zero", needs_training=True),
    Attribute("eCon", "entity label consistency",
              "entity label consistency: share of the training occurrences of the mention's "
              "token sequence annotated as a mention of its type", MENTION,
              entity_consistency, bucketing="consistency", compat="fixed",
              needs_training=True),
    Attribute("eFre", "entity frequency", "entity frequency: training mentions with the "
              "mention's text / all training mentions", MENTION, entity_frequency,
              bucketing="zero_then_equal", compat="zero", needs_training=True),
    Attribute("tCon", "token label consistency",
              "token label consistency: share of the token's training occurrences that carry "
              "its label (type or O)", TOKEN, token_consistency, bucketing="consistency",
              compat="fixed", needs_training=True, table=consistency_table,
              training_labels=True),
    Attribute("tFre", "token frequency",
              "token frequency: the token's training occurrences / all training tokens",
              TOKEN, token_frequency, bucketing="zero_then_equal", compat="zero",
              needs_training=True, table=frequency_table),
    Attribute("tag", "entity type", "entity type: one bucket per type, ordered by type name",
              MENTION, entity_type, bucketing=DISCRETE, compat="types", ordered=False),
)}

# The names, as the options and the checks list them (read from the table)
ATTRIBUTES = tuple(ATTRIBUTE_TABLE)
MENTION_ATTRIBUTES = tuple(a.name for a in ATTRIBUTE_TABLE.values() if a.level == MENTION)
TOKEN_ATTRIBUTES = tuple(a.name for a in ATTRIBUTE_TABLE.values() if a.level == TOKEN)
# What takes mentions that nest or share a token: all but the token attributes, which
# score one label per token
EVERY_SHAPE = tuple(name for name in ATTRIBUTES if name not in TOKEN_ATTRIBUTES)
DISCRETE_ATTRIBUTES = tuple(a.name for a in ATTRIBUTE_TABLE.values() if not a.ordered)
NEEDS_TRAINING = tuple(a.name for a in ATTRIBUTE_TABLE.values() if a.needs_training)
