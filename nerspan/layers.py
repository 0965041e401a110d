"""Layers: several tag columns of one side read as one side whose mentions may nest.

GermEval 2014 writes each token's outer and inner tag in two columns; the input option
``layers`` (``--layers 2,3``) reads them as the layers of gold. A corpus holds layer 1
in the side's own column (``gold``) and layer k (k >= 2) in the column
``layer_column("gold", k)`` (``gold@layer2``), so that everything that reads one column
still finds the first layer there, and nothing reads the others by mistake as a system.
In memory, a corpus made with those column names is layered gold too:

>>> from nerspan import Corpus
>>> corpus = Corpus.from_tags([["B-ORG", "I-ORG", "O"]], columns={
...     layer_column("gold", 2): [["B-LOC", "O", "O"]], "pred": [["B-LOC", "O", "O"]]})
>>> layer_columns(corpus)
['gold', 'gold@layer2']
>>> s = layered_scores(corpus, "gold", "pred")
>>> s.n_gold, s.layers["2"].micro()
(2, (1.0, 1.0, 1.0))

Each layer is decoded on its own (scheme, mode and repairs per layer); the side's
mentions are the union of the layers' spans (``union_spans``: sorted by start, then
end; a mention identical in two layers is one mention, and ``merged`` counts how many
were merged so). Scores against layered gold (``layered_scores``, ``nerspan.score``,
``nerspan.streaming.score_in_blocks``) are entity scores over the union, plus each
layer's (``layers``, keyed by the layer's number, 1 = the first column of ``layers``):
gold layer k against the system's layer k when the system has layers too, else against
every predicted mention (so a layer's precision counts the predictions of every layer
as its own: its recall is the number to read).

A side read as a span table (span lists that nest, overlap or give one span two types,
``Corpus.mentions``) has layers too where a scorer needs one tag per token (hardeval):
``nesting_layers`` places its mentions, ``as_layers`` writes them as tag columns.
The rule, deterministic: mentions in order of start, then longest first, then type;
each goes to the first layer after the deepest layer holding a mention that contains
it (the same span counts as containing: a second type of one span goes one deeper)
where it overlaps no mention. So layer 1 holds the outermost mentions, layer 2 those
directly inside them, and so on; two mentions that cross go to adjacent layers.
Discontinuous mentions cannot be tags and are refused.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .corpus import Corpus
from .errors import InputTypeError
from .flat import GOLD, PRED, ranges, side_name
from .schemes import get_scheme
from .scores import EntityScores, entity_scores
from .spans import (LabelTable, Repairs, Spans, check_tags, column_spans, decode,
                    table_spans)

LAYER_MARK = "@layer"   # gold@layer2: gold's second layer


def layer_column(side: str, layer: int) -> str:
    """The column holding layer ``layer`` (1-based) of the column ``side``."""
    return side if layer == 1 else f"{side}{LAYER_MARK}{layer}"


def layer_title(layer) -> str:
    """A layer as a page names it (layer 1 holds the outermost mentions: the first
    column given to ``layers``, or by nesting).

    >>> layer_title("1"), layer_title(2)
    ('layer 1 (outermost)', 'layer 2')
    """
    return f"layer {layer}" + (" (outermost)" if int(layer) == 1 else "")


def is_layer_column(column: str) -> bool:
    """Whether ``column`` holds a second or later layer of another column."""
    return LAYER_MARK in column


def layer_columns(corpus: Corpus, side: str = GOLD) -> list:
    """The columns of ``side``'s layers in order: ``[side]`` when it has one layer."""
    prefix = side + LAYER_MARK
    more = sorted((c for c in corpus.columns if c.startswith(prefix)
                   and c[len(prefix):].isdigit()), key=lambda c: int(c[len(prefix):]))
    return [side] + more


def paired_layers(corpus: Corpus, gold_column: str = GOLD, pred_column: str = PRED
                  ) -> Corpus:
    """``corpus.paired(gold_column, pred_column)`` with each side's later layers too, as
    the layers of ``GOLD`` and ``PRED``.

    >>> c = Corpus.from_tags([["B-X"]], columns={"outer@layer2": [["B-Y"]], "sys": [["O"]]})
    >>> paired_layers(c.renamed({"gold": "outer"}), "outer", "sys").columns.keys()
    dict_keys(['gold', 'pred', 'gold@layer2'])
    """
    paired = corpus.paired(gold_column, pred_column)
    later = {layer_column(side, k): corpus.column(column)
             for side, own in ((GOLD, gold_column), (PRED, pred_column))
             for k, column in enumerate(layer_columns(corpus, own)[1:], 2)}
    return paired.with_tags({**paired.columns, **later}) if later else paired


def is_layered(corpus: Corpus, side: str = GOLD) -> bool:
    """Whether ``side`` has more than one layer in ``corpus``."""
    return len(layer_columns(corpus, side)) > 1


def layer_name(column: str) -> str:
    """A layer column's number as a result names it (``gold@layer2`` -> ``"2"``)."""
    return column.rpartition(LAYER_MARK)[2] if is_layer_column(column) else "1"


def own_columns(corpus: Corpus) -> list:
    """The columns that are no later layer of another: the sides, each once."""
    return [c for c in corpus.columns if not is_layer_column(c)]


@dataclass(frozen=True)
class LayeredSpans:
    """One side's layers decoded: ``union`` (every mention once, may nest), ``layers``
    (the ``Spans`` of each layer, in order) and ``merged`` (mentions identical in two
    layers, counted once in ``union``)."""

    union: Spans
    layers: tuple
    merged: int


def union_spans(parts: Sequence[Spans]) -> tuple[Spans, int]:
    """The mentions of ``parts`` (spans of one corpus and label table) once each, sorted
    by start, then end, then type; and how many duplicates were merged.

    >>> from nerspan import Corpus, decode
    >>> c = Corpus.from_tags([["B-PER", "I-PER"]], columns={"x": [["B-LOC", "O"]],
    ...                                                     "y": [["B-PER", "I-PER"]]})
    >>> u, merged = union_spans([decode(c, n) for n in ("gold", "x", "y")])
    >>> u.to_list(), merged
    ([[('LOC', 0, 1), ('PER', 0, 2)]], 1)
    """
    first = parts[0]
    if any(p.types != first.types for p in parts):
        raise ValueError("the layers' spans come from different label tables")
    start = np.concatenate([p.start for p in parts])
    end = np.concatenate([p.end for p in parts])
    kind = np.concatenate([p.type for p in parts])
    order = np.lexsort((kind, end, start))
    start, end, kind = start[order], end[order], kind[order]
    keep = np.ones(len(start), dtype=bool)
    keep[1:] = (start[1:] != start[:-1]) | (end[1:] != end[:-1]) | (kind[1:] != kind[:-1])
    repairs = Repairs.merged([p.repairs for p in parts])
    union = dataclasses.replace(first, start=start[keep], end=end[keep], type=kind[keep],
                                repairs=repairs)
    return union, int(len(keep) - keep.sum())


def decode_layers(corpus: Corpus, side: str, scheme="IOB2", mode: str = "lenient",
                  table: LabelTable | None = None, named: str | None = None
                  ) -> LayeredSpans:
    """``side``'s layers each decoded on its own (``nerspan.decode``; ``named``: how
    its warnings and errors name the side), and their union."""
    columns = layer_columns(corpus, side)
    if len(columns) == 1 and corpus.span_table(side) is not None:   # span lists
        spans = column_spans(corpus, side, scheme, mode, table)
        return LayeredSpans(spans, (spans,), 0)
    layers = tuple(decode(corpus, column, scheme, mode, table, side=named)
                   for column in columns)
    if len(layers) == 1:   # one column: its spans are already sorted and distinct
        return LayeredSpans(layers[0], layers, 0)
    union, merged = union_spans(layers)
    return LayeredSpans(union, layers, merged)


def in_types(spans: Spans, types: tuple) -> Spans:
    """``spans`` with type ids of ``types`` (which has every type of its mentions)."""
    if spans.types == types:
        return spans
    index = {t: i for i, t in enumerate(types)}
    remap = np.array([index[t] for t in spans.types] or [0], dtype=spans.type.dtype)
    return dataclasses.replace(spans, type=remap[spans.type] if len(spans) else spans.type,
                               types=types)


@dataclass(frozen=True)
class LayeredScores(EntityScores):
    """Entity scores against layered gold: the numbers of ``EntityScores`` over every
    mention of every layer (the union), plus ``layers`` (layer number -> the
    ``EntityScores`` of that layer, see the module docstring) and ``merged`` (gold
    mentions identical in two layers, counted once). ``to_dict()`` adds ``layers``
    (number -> that layer's dict, with ``layer`` and ``column`` saying which it is)
    and ``merged_mentions``."""

    layers: dict = field(default_factory=dict)
    merged: int = 0

    def plain_dict(self) -> dict:
        return with_layers(super().plain_dict(), self.layers, self.merged)


def with_layers(out: dict, layers: dict, merged: int) -> dict:
    """A result's dict ``out`` (over the union) with its ``layers`` (number -> scores),
    each saying which layer it is, and ``merged_mentions``."""
    out["layers"] = {name: {"layer": int(name), "gold_column": layer_column(GOLD, int(name)),
                            **scores.plain_dict()} for name, scores in layers.items()}
    out["merged_mentions"] = merged
    out["options"] = {**out["options"], "layers": len(layers)}
    return out


def layered_scores(corpus: Corpus, gold_column: str = GOLD, pred_column: str = "pred",
                   scheme="IOB2", mode: str = "lenient", zero_division: float = 0.0,
                   table: LabelTable | None = None) -> LayeredScores:
    """Entity scores of ``pred_column`` against the layers of ``gold_column`` (see the
    module docstring); the prediction may have layers of its own."""
    table = table or LabelTable.build(corpus.labels, get_scheme(scheme))
    gold = decode_layers(corpus, gold_column, scheme, mode, table)
    pred = decode_layers(corpus, pred_column, scheme, mode, table)
    return scores_of_layers(gold, pred, zero_division)


def score_layered(corpus: Corpus, predictions=None, *, gold_column: str = GOLD,
                  pred_column: str = "pred", scheme="IOB2", mode: str = "lenient",
                  zero_division: float = 0.0) -> LayeredScores:
    """``nerspan.score`` of a corpus whose gold has layers: ``predictions`` None (the
    column ``pred_column``), a column's name, or tag lists per sentence (one layer)."""
    if isinstance(predictions, str):
        corpus.column(predictions)   # a clear KeyError for a missing column
        pred_column = predictions
    elif predictions is not None:
        other = Corpus.from_tags(predictions)
        corpus = corpus.select(layer_columns(corpus, gold_column)).with_columns(
            other, {GOLD: "pred"})
        pred_column = "pred"
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    for column in layer_columns(corpus, gold_column) + layer_columns(corpus, pred_column):
        check_tags(corpus, corpus.column(column), table, get_scheme(scheme), mode,
                   side_name(column))
    return layered_scores(corpus, gold_column, pred_column, scheme, mode, zero_division,
                          table)


def refuse_layers(corpus: Corpus, side: str = GOLD, what: str = "this scorer") -> None:
    """Refuse gold with layers where ``what`` reads one layer: never flattened silently."""
    if is_layered(corpus, side):
        raise InputTypeError(
            f"gold has {len(layer_columns(corpus, side))} layers (the input option layers / "
            f"--layers), and {what} reads one tag column of gold: score the layers with "
            "nerspan.score or nerlens score, or read one layer (gold_tag_column / "
            "--gold-tag-column)")


def refuse_layered_training(n_layers: int, what: str) -> None:
    """Refuse a training index read with ``n_layers`` layers where ``what`` counts one
    tag per training token (never the first layer's, silently)."""
    if n_layers > 1:
        raise InputTypeError(
            f"the training data has {n_layers} layers (the input option layers / --layers, "
            f"or span lists that nest), and {what} counts one tag per training token: read "
            "one tag column of the training file (train_tag_column / --train-tag-column), "
            "or give flat training spans")


def nesting_layers(spans: Spans) -> np.ndarray:
    """The layer (1 = outermost) of every mention of ``spans`` by the rule of the module
    docstring. One pass in start order; per layer only its last mention is looked at
    (an earlier one ends before it starts), so the cost is mentions times depth.

    >>> from nerspan import Corpus
    >>> c = Corpus.from_tags([["O"] * 6])
    >>> start, end = np.array([0, 0, 1, 2, 3]), np.array([6, 3, 2, 4, 5])
    >>> spans = Spans(start, end, c.offsets, start * 0, ("X",))
    >>> nesting_layers(spans).tolist()   # (2, 4) crosses (0, 3); (3, 5) follows it
    [1, 2, 3, 3, 2]
    """
    order = np.lexsort((spans.type, -spans.end, spans.start))
    last_start, last_end = [], []   # per layer: its last mention placed
    layer = np.zeros(len(spans), dtype=np.int64)
    for i, a, b in zip(order.tolist(), spans.start[order].tolist(),
                       spans.end[order].tolist()):
        k = 0
        for depth, (c, d) in enumerate(zip(last_start, last_end)):
            if c <= a and b <= d:   # inside that layer's mention: go deeper
                k = depth + 1
        while k < len(last_end) and last_end[k] > a:
            k += 1
        if k == len(last_end):
            last_start.append(a)
            last_end.append(b)
        last_start[k], last_end[k] = a, b
        layer[i] = k + 1
    return layer


def as_layers(corpus: Corpus, column: str, scheme="IOB2", mode: str = "lenient",
              n_layers: int = 0) -> tuple:
    """``(corpus, n)``: ``column``'s ``n`` layers of tags. A span table
    (``Corpus.mentions``) is written as ``n`` IOB2 tag columns ``layer_column(column, k)``
    (``nesting_layers``; at least ``n_layers``, the deeper ones all O), the corpus's
    labels extended with the tags they need; tag columns are kept as they are. A
    discontinuous mention is a ``SpanShapeError``: tags cannot hold it."""
    rows = corpus.mentions(column)
    if rows is None:   # tags already: its layers as they are
        return corpus, len(layer_columns(corpus, column))
    rows.check_contiguous(side_name(column), "layers of tags (one per token in each) "
                          "cannot hold it", "score discontinuous mentions with nerspan.score "
                          "or tough_mentions.score, which read fragments, or leave them out "
                          "of this input")
    spans = table_spans(corpus, column, scheme, mode)
    layer = nesting_layers(spans)
    n = max(int(layer.max()) if len(layer) else 1, n_layers, 1)
    labels = list(corpus.labels)
    known = {label: i for i, label in enumerate(labels)}
    for tag in ["O"] + [f"{p}-{t}" for t in spans.types for p in "BI"]:
        if tag not in known:
            known[tag] = len(labels)
            labels.append(tag)
    begin = np.array([known[f"B-{t}"] for t in spans.types] or [0], dtype=np.int64)
    inside = np.array([known[f"I-{t}"] for t in spans.types] or [0], dtype=np.int64)
    columns = dict(corpus.columns)
    for k in range(1, n + 1):
        mine = spans.take(np.flatnonzero(layer == k))
        ids = np.full(corpus.n_tokens, known["O"], dtype=np.int64)
        ids[ranges(mine.start, mine.length)] = np.repeat(inside[mine.type], mine.length)
        ids[mine.start] = begin[mine.type]
        columns[layer_column(column, k)] = ids
    mentions = {c: r for c, r in corpus.source.mentions.items() if c != column}
    return corpus.with_tags(columns, labels, dataclasses.replace(corpus.source,
                                                                  mentions=mentions)), n


def padded_layers(corpus: Corpus, column: str, n: int) -> Corpus:
    """``corpus`` with ``column`` given ``n`` layers: the missing deeper ones all O (no
    mention there)."""
    have = len(layer_columns(corpus, column))
    if have >= n:
        return corpus
    labels = list(corpus.labels) + ([] if "O" in corpus.labels else ["O"])
    outside = np.full(corpus.n_tokens, labels.index("O"), dtype=np.int64)
    columns = {**corpus.columns, **{layer_column(column, k): outside
                                    for k in range(have + 1, n + 1)}}
    return corpus.with_tags(columns, labels)


def tables_as_layers(corpus: Corpus, gold_column: str, pred_column: str, scheme="IOB2",
                     mode: str = "lenient") -> Corpus | None:
    """``corpus`` with each side read as a span table written as layers
    (``as_layers``), as many for both when the prediction has layers (the
    shallower side's deeper layers all O); None when neither side is a table."""
    if corpus.mentions(gold_column) is None and corpus.mentions(pred_column) is None:
        return None
    corpus, n_gold = as_layers(corpus, gold_column, scheme, mode)
    corpus, n_pred = as_layers(corpus, pred_column, scheme, mode, n_gold)
    if n_pred > 1:   # layer k against layer k: both sides as deep
        n = max(n_gold, n_pred)
        corpus = padded_layers(padded_layers(corpus, gold_column, n), pred_column, n)
    return corpus


def scores_of_layers(gold: LayeredSpans, pred: LayeredSpans,
                     zero_division: float = 0.0) -> LayeredScores:
    """``LayeredScores`` of decoded layers (``decode_layers``)."""
    whole = entity_scores(gold.union, pred.union, zero_division)
    layers = {str(k): entity_scores(layer, layer_against(pred, k), zero_division)
              for k, layer in enumerate(gold.layers, 1)}
    return LayeredScores(**{f.name: getattr(whole, f.name)
                            for f in dataclasses.fields(EntityScores)},
                         layers=layers, merged=gold.merged)


def layer_against(pred: LayeredSpans, layer: int) -> Spans:
    """What gold layer ``layer`` is scored against: the prediction's layer of that
    number when it has as many, else all its mentions."""
    if 1 < len(pred.layers) and layer <= len(pred.layers):
        return pred.layers[layer - 1]
    return pred.union


__all__ = ["LAYER_MARK", "layer_column", "layer_title", "is_layer_column", "layer_columns", "paired_layers", "is_layered",
           "layer_name", "own_columns", "LayeredSpans", "union_spans", "decode_layers", "in_types",
           "LayeredScores", "with_layers", "nesting_layers", "as_layers",
           "padded_layers", "tables_as_layers", "layered_scores", "score_layered", "refuse_layers", "refuse_layered_training", "scores_of_layers", "layer_against"]
