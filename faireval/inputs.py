"""Every input form faireval accepts, turned into two span tables.

Forms: tag sequences in any scheme of the core (a ``Corpus``, or lists of tag strings
per sentence), multi-level tags ``B-X|I-Y`` (outer level first), several tag columns of
a side read as its layers (``nerspan.layers``: the union of their mentions), or explicit
span lists per sentence, ``(label, start, end)`` with ``end`` exclusive, which may nest
or overlap, and mentions of several fragments (``{"label", "fragments"}``, BigBio's
``{"type", "offsets"}``: see ``nerspan.reading.span_lists``). A side is nerspan's
``Spans`` (flat positions; its ``type`` the label ids of ``Prepared.labels``; results
give offsets in the sentence, ``start - base``). It keeps the spans in list order: tags give them sorted by start (outer level
first at the same start), layers in the order of their union (start, end, type); span
lists keep the order they are listed in, which matters only for the algorithm's last
tie-break. A mention a span list repeats on one side (same type and fragments) is kept
once and counted in ``repairs`` (``duplicates``), as nerspan reads span lists.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np

from nerspan.corpus import PER_COLUMN, Corpus
from nerspan.flat import GOLD, PRED, Interner, as_sentences, side_name
from nerspan.evaluation import in_table
from nerspan.layers import decode_layers, layer_column, layer_columns
from nerspan.generative.form import GENERATED, ground_predictions, words_of
from nerspan.records import InputOptions
from nerspan.reading.forms import SPAN_PAIRS, SPANS, input_form, read_input
from nerspan.schemes import get_scheme
from nerspan.reading.span_lists import layout, read_spans
from nerspan.spans import LabelTable, Repairs, Spans, column_spans
from nerspan.type_processing import changed_sentences, process_spans, process_ungrounded

from .fragments import shape_ids
from nerspan.reading.span_lists import LEVEL_SEPARATOR, check_within
from nerspan.errors import (EmptyInputError, InputTypeError, LengthMismatchError,
                            SentenceCountError, counted, shown)

# POS tags the reference code counts as punctuation (STTS, UPOS, custom, PTB).
PUNCT_TAGS = frozenset({"$.", "$,", "$(", "PUNCT", "PUNKT", "KOMMA", "COMMA", "KLAMMER",
                        ".", ",", ":", "(", ")", '"', "\u2018", "\u201c", "\u2019", "\u201d"})


def sentence_spans(sentence, start, end, types, offsets=None) -> Spans:
    """One side's contiguous spans given in their sentences (``types``: label ids) as
    ``Spans`` at the flat positions of ``offsets`` (default: each sentence as long as its
    spans reach, ``layout``; the other side of a comparison needs the same)."""
    sentence, start, end = (np.asarray(x, dtype=np.int64) for x in (sentence, start, end))
    if offsets is None:
        offsets = layout(int(sentence.max()) + 1 if len(sentence) else 0, (sentence, end))
    base = offsets[sentence]
    return Spans(base + start, base + end, offsets, np.asarray(types), ())


@dataclass(frozen=True)
class Prepared:
    """Target and system spans over one label vocabulary, ready for matching."""

    target: Spans              # type: label ids
    system: Spans
    labels: tuple              # label vocabulary (label ids index it)
    n_sentences: int
    punct: "PunctMask | None"  # set when ignore_punct is on
    repairs: dict              # column -> nerspan.Repairs of lenient decoding (tags only)
    # what the reading adds to the result's options: {"layers": ...} when a side has some
    read_options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class PunctMask:
    """Which tokens are punctuation: ``flags`` over all tokens of all sentences, sentence
    i's starting at ``offsets[i]``. Arrays, so a long sentence costs linear time."""

    flags: np.ndarray    # bool, one per token
    offsets: np.ndarray  # n_sentences + 1

    @classmethod
    def from_pos(cls, pos) -> "PunctMask":
        lengths = np.fromiter(map(len, pos), dtype=np.int64, count=len(pos))
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        flags = np.fromiter((tag in PUNCT_TAGS for tags in pos for tag in tags),
                            dtype=bool, count=int(offsets[-1]))
        return cls(flags, offsets)

    def bits(self, sentence: np.ndarray, start: np.ndarray, end: np.ndarray) -> list:
        """Per span, its punctuation tokens as a bitmask relative to its start."""
        first = self.offsets[sentence] + start
        last = self.offsets[sentence] + end
        before = np.concatenate([[0], np.cumsum(self.flags)])
        out = [0] * len(first)
        for k in np.flatnonzero(before[last] > before[first]).tolist():
            packed = np.packbits(self.flags[first[k]:last[k]], bitorder="little")
            out[k] = int.from_bytes(packed.tobytes(), "little")
        return out


def prepare(references, predictions=None, *, scheme: str = "IOB2", mode: str = "lenient",
            pos=None, ignore_punct: bool = False, labels: Sequence[str] | None = None,
            exclude: Sequence[str] = (), context=None, system: str | None = None,
            inputs=None, shard: bool = False, keep_duplicates: bool = False) -> Prepared:
    """Decode or read both sides, drop punctuation if asked, apply the label filter.

    Span lists on both sides are read as they are (they may nest or overlap); span lists
    on one side and tags on the other go through ``nerspan.from_spans`` (no overlaps).
    Label ids (with ``label_list``) are read as tags. ``context``: the
    ``nerspan.Evaluation`` whose gold column is ``references``'s (a corpus with columns
    ``gold`` and ``pred``): its gold spans, decoded once, are used for single-level tags,
    and so are the predictions of its corpus's column ``system`` when it is given.
    ``inputs``: the input options (``nerspan.InputOptions`` or a dict). ``shard``: the
    sentences are a shard of the whole (``faireval.partial``): every column's repairs
    are kept, those that repaired nothing too (the whole's counts add them up).
    ``keep_duplicates``: a mention a span list repeats on one side is kept as often as
    it is listed (the reference code's counting), not once.

    Args:
        references, predictions: the target and system sides (see ``faireval.score``).
    """
    inputs = InputOptions.of(inputs)
    target, spans, names, n_sentences, lengths, repairs, layers = _sides(
        references, predictions, scheme, mode, inputs, (context, system),
        None if isinstance(pos, str) else pos, keep_duplicates)
    if isinstance(pos, str):
        if not isinstance(references, Corpus):
            raise InputTypeError(f"pos={pos!r} names a column, which needs a Corpus as "
                                 "references: give POS tags per sentence (lists of tags)")
        pos = [references.tags(pos, i) for i in range(references.n_sentences)]
    if pos is not None:
        pos = as_sentences(pos, "pos")
        lengths = _pos_lengths(pos, n_sentences, lengths)
    if lengths is not None:
        for name, table in (("references", target), ("predictions", spans)):
            check_within(table.sentence, table.start - table.base, table.end - table.base,
                         lambda k: names[int(table.type[k])], lengths, name)
    punct = None
    if ignore_punct:
        if pos is None:
            raise ValueError("ignore_punct needs the POS tags: pass pos=[[tag, ...], ...] "
                             "(one list per sentence) or a Corpus column name")
        punct = PunctMask.from_pos(pos)
        target = _drop_punct(target, punct)
        spans = _drop_punct(spans, punct)
    names, target, spans = _filter_labels(names, target, spans, labels, exclude)
    if not shard:
        repairs = reported_repairs(repairs)
    # the layers the reading found, what a result's options report when a side has some
    layered = {"layers": {"gold": layers[GOLD], "pred": layers[PRED]}} \
        if max(layers.values(), default=1) > 1 else {}
    return Prepared(target, spans, names, n_sentences, punct, repairs, layered)


def reported_repairs(repairs: dict) -> dict:
    """The columns' repairs a result reports: those that repaired something (or hold
    generated output's record)."""
    return {column: found for column, found in repairs.items()
            if found.total or found.generated is not None}


def _sides(references, predictions, scheme, mode, inputs, context, pos=None,
           keep_duplicates=False):
    """``(target, system, label names, n_sentences, sentence lengths or None, repairs,
    layers)`` (side -> how many layers it was read from; {} for span lists);
    ``context``: ``(evaluation, its system column)`` as ``prepare`` takes them.

    The input form is nerspan's dispatcher's (``nerspan.reading.forms.input_form``; POS tags
    per sentence, like tokens, say that empty span lists are no mention): span lists on
    both sides are read here as they are, nested or overlapping; every other form is
    read by the dispatcher into a corpus of tags, whose spans are decoded.
    """
    form = input_form(references, predictions, inputs, words=pos)
    if form is GENERATED and inputs.generated.overlaps == "keep":
        return _generated_spans(references, predictions, scheme, mode, inputs)
    if form is SPAN_PAIRS:
        target, system, names, n_sentences, repairs = _spans_from_lists(
            references, predictions, inputs, keep_duplicates)
        tokens = inputs.tokens
        lengths = None if tokens is None else np.fromiter(map(len, tokens), dtype=np.int64,
                                                          count=len(tokens))
        return target, system, names, n_sentences, lengths, repairs, {}
    if predictions is None and not isinstance(references, Corpus):
        raise InputTypeError("predictions is None: pass the system's "
                             + ("span lists" if form is SPANS else "tags (a list per "
                                "sentence), or a Corpus with a pred column as references"))
    corpus = read_input(references, predictions, inputs=inputs, scheme=scheme,
                        form=form).corpus
    target, system, names, repairs, layers = _spans_from_tags(corpus, scheme, mode, *context)
    return target, system, names, corpus.n_sentences, corpus.lengths, repairs, layers


def _generated_spans(references, predictions, scheme, mode, inputs):
    """Generated predictions grounded with ``overlaps="keep"``: their spans as they are,
    nested and overlapping, against gold's decoded spans (``_sides``' tuple)."""
    reading = read_input(references, None, inputs=inputs, scheme=scheme)
    gold = reading.corpus.paired(reading.gold_column, None)
    grounded = ground_predictions(predictions, gold, inputs)
    # processed as read (type options); flat: the gold lists below hold no fragments
    gold_spans = column_spans(gold, GOLD, scheme, mode, flat=True)
    gold_lists = [[(a, b, t) for t, a, b in sentence] for sentence in gold_spans.to_list(gold)]
    tokens = inputs.tokens if inputs.tokens is not None else words_of(gold)
    spans, record, retyped, dropped = _processed(grounded, inputs.types.processing)
    target, system, names, n_sentences, repairs = _spans_from_lists(
        gold_lists, spans, InputOptions.of(None, tokens=tokens, texts=inputs.texts,
                                           offsets="tokens"))
    if gold_spans.repairs is not None and gold_spans.repairs.total:
        repairs[GOLD] = gold_spans.repairs
    repairs[PRED] = Repairs(sentences=tuple(grounded.repairs.sentences()),
                            types_mapped=retyped, types_removed=dropped, generated=record,
                            sentence_numbers=gold.source.sentence_numbers)
    return target, system, names, n_sentences, gold.lengths, repairs, {}


def _processed(grounded, processing):
    """``(spans, record, retyped, dropped)``: the grounded spans and the ungrounded
    entities of ``grounded`` processed by the type options (``processing``; None: as
    they are), as ``nerspan.type_processing`` processes the mentions of a tag column,
    and how many of them were retyped and dropped."""
    if processing is None:
        return grounded.spans, grounded.repairs, 0, 0
    spans, retyped, dropped = [], 0, 0
    for sentence in grounded.spans:
        kept = []
        for a, b, entity_type in sentence:
            target = processing.target(entity_type)
            retyped += target is not None and target != entity_type
            dropped += target is None
            if target is not None:
                kept.append((a, b, target))
        spans.append(kept)
    record, more_retyped, more_dropped = process_ungrounded(grounded.repairs, processing)
    return spans, record, retyped + len(more_retyped), dropped + len(more_dropped)


def _pos_lengths(pos, n_sentences: int, lengths):
    """The sentence lengths the POS tags give, checked against the tags' ``lengths``."""
    if len(pos) != n_sentences:
        raise SentenceCountError(f"pos holds {counted(len(pos), 'sentence')}, references "
                                 f"{n_sentences}")
    pos_lengths = np.fromiter(map(len, pos), dtype=np.int64, count=len(pos))
    if lengths is not None:
        bad = np.flatnonzero(pos_lengths != lengths)
        if len(bad):
            i = int(bad[0])
            raise LengthMismatchError(
                f"pos has {counted(int(pos_lengths[i]), 'tag')}, the tags {int(lengths[i])}",
                sentence=i)
    return pos_lengths

# -- span lists --------------------------------------------------------------------------
def _spans_from_lists(references, predictions, inputs, keep_duplicates=False):
    """Both sides' span lists as they are (``nerspan.read_spans``): they may nest and
    have several fragments; a mention listed twice on one side is kept once (unless
    ``keep_duplicates``)."""
    if predictions is None:
        raise InputTypeError("predictions is None: pass the system's span lists")
    (target, target_snapped), (system, system_snapped) = (
        read_spans(references, "references", inputs=inputs),
        read_spans(predictions, "predictions", inputs=inputs))
    n_target, n_system = len(references), len(predictions)
    if n_target == 0:
        raise EmptyInputError("references hold no sentence")
    if n_system != n_target:
        raise SentenceCountError(f"predictions hold {counted(n_system, 'sentence')}, "
                                 f"references {n_target}")
    (target, target_changed), (system, system_changed) = _types_processed(
        (target, system), inputs.types.processing)
    names = tuple(sorted(set(target.types) | set(system.types)))
    offsets = layout(n_target, *((spans.sentence, spans.end - spans.base)
                                 for spans in (target, system)))
    read = {GOLD: (target, target_snapped), PRED: (system, system_snapped)}
    changed = {GOLD: target_changed, PRED: system_changed}
    (target, target_copies), (system, system_copies) = _deduplicated(
        *(replace(spans.with_types(names).on(offsets), repairs=None)
          for spans, _ in read.values()), keep=keep_duplicates)
    # what span input repaired: snapped character spans, pipeline tags decoded leniently,
    # mentions listed twice
    repairs = {}
    for (column, (spans, snapped)), copies in zip(read.items(), (target_copies, system_copies)):
        mapped, removed = changed[column]
        if len(snapped) or spans.repairs.invalid_transitions or len(copies) or mapped or removed:
            repaired = set(snapped.tolist()) | set(copies.tolist()) | set(mapped + removed)
            repairs[column] = replace(spans.repairs, sentences=tuple(sorted(repaired))[:20],
                                      duplicates=len(copies), types_mapped=len(mapped),
                                      types_removed=len(removed))
    return target, system, names, n_target, repairs


def _types_processed(sides: tuple, processing) -> list:
    """Per side (span lists read, ``Spans``), ``(its mentions processed by the type options,
    (sentences of the mentions retyped, of those dropped))``, as ``nerspan`` processes a
    tag column's (``processing``: the ``TypeProcessing``; None: as they are). A type
    named in the options that neither side has is an error."""
    if processing is None:
        return [(spans, ((), ())) for spans in sides]
    processing.check_types(set().union(*(spans.types for spans in sides)))
    out = []
    for spans in sides:
        processed, changed = process_spans(spans, processing)
        out.append((processed, changed_sentences(spans, processing, changed)))
    return out


def _deduplicated(*tables: Spans, keep: bool = False) -> list:
    """Per table, ``(table without repeated mentions, sentence of every copy removed)``:
    the first of identical mentions (sentence, type, fragment set) is kept (``keep``:
    every copy, none counted)."""
    out = []
    for table, shape in zip(tables, shape_ids(*tables)):
        if keep or not len(table):
            out.append((table, np.zeros(0, dtype=np.int64)))
            continue
        rows = np.stack([table.type, table.start, table.end, shape], axis=1)
        _, first = np.unique(rows.astype(np.int64), axis=0, return_index=True)
        kept = np.zeros(len(table), dtype=bool)
        kept[first] = True
        out.append((table.take(np.flatnonzero(kept)) if len(first) < len(table) else table,
                    table.sentence[~kept].astype(np.int64)))
    return out

# -- tags --------------------------------------------------------------------------------
def _spans_from_tags(corpus: Corpus, scheme: str, mode: str, context=None,
                     system: str | None = None):
    """Decode gold and pred, level by level when tags are multi-level (``B-X|I-Y``), each
    level the union of the side's layers (``nerspan.layers.decode_layers``: a mention
    identical in two layers is one); single-level gold comes from the gold ``context``
    when there is one (its union of layers too), single-level predictions too when
    ``system`` names their column in the context's corpus. Returns ``(target, system,
    label names, repairs, layers)``, ``layers``: side -> how many it has."""
    levels, depth = _split_levels(corpus)
    table = LabelTable.build(levels.labels, get_scheme(scheme))
    sides, repairs, layers = [], {}, {}
    for column in (GOLD, PRED):
        parts = []
        for level in range(depth):
            name = _level_column(column, level, depth)
            if column == GOLD and depth == 1 and context is not None:
                layered = context.layers(context.gold_column)
            elif depth == 1 and system is not None:
                layered = context.layers(system)
            else:   # one level: errors name each layer's column as nerspan does
                layered = decode_layers(levels, name, scheme, mode, table, named=None
                                        if depth == 1 else f"{side_name(column)} (level "
                                        f"{level + 1})")
            spans = in_table(layered.union, table)
            layers[column] = len(layered.layers)
            if spans.repairs is not None:   # prepare drops those that repaired nothing
                repairs[name] = spans.repairs
            parts.append((spans, level))
        sides.append(_side_spans(corpus, parts))
    # Per-label rows for the types the tags use, not every type of a label list (ids
    # with the model's label list, a ClassLabel column): as with the same tags as strings.
    present = np.zeros(len(levels.labels), dtype=bool)   # label ids the columns use
    for column in levels.columns:   # a count per id: no sort of every token
        if levels.mentions(column) is None:   # (a table's types are its mentions')
            present |= np.bincount(levels.column(column), minlength=len(levels.labels)) > 0
    # and the types of the mentions (a gold layer the scoring corpus does not hold)
    used = np.unique(np.concatenate([table.type[np.flatnonzero(present)],
                                     *(side.type for side in sides)]))
    used = used[used >= 0]
    names = tuple(table.types[i] for i in used)
    remap = np.full(len(table.types), -1, dtype=np.int32)
    remap[used] = np.arange(len(used), dtype=np.int32)
    sides = [replace(t, type=remap[t.type] if len(used) < len(table.types) else t.type,
                     types=names) for t in sides]
    return sides[0], sides[1], names, repairs, layers


def _side_spans(corpus: Corpus, parts: list) -> Spans:
    """One side's spans of its levels' ``(spans, level)``: by position, outer level
    first (within a level, in the order of its spans); a discontinuous mention (an
    evaluation's span lists) with its fragments."""
    start = np.concatenate([s.start for s, _ in parts])
    end = np.concatenate([s.end for s, _ in parts])
    label = np.concatenate([s.type for s, _ in parts]).astype(np.int32)
    level = np.concatenate([np.full(len(s), lv) for s, lv in parts])
    before = np.cumsum([0] + [len(s) for s, _ in parts])
    fragments = [(s.fragments[0] + before[i], *s.fragments[1:])
                 for i, (s, _) in enumerate(parts) if s.has_fragments]
    side = Spans(start, end, corpus.offsets, label, (), fragments=tuple(
        map(np.concatenate, zip(*fragments))) if fragments else None)
    return side.take(np.lexsort((level, start)))  # by position, outer level first


def _level_column(side: str, level: int, depth: int, layer: int = 1) -> str:
    """The column of ``_split_levels``' corpus holding level ``level`` of ``side``'s layer
    ``layer``: the layer's own column when tags have one level."""
    return layer_column(side if depth == 1 else f"{side}:{level}", layer)


def _split_levels(corpus: Corpus) -> tuple[Corpus, int]:
    """A corpus with one column per side, layer and level (``gold:0``, ``gold:1``,
    ``gold:0@layer2``, ...; with one level, the columns as they are), and the depth."""
    if PRED not in corpus.columns:
        raise InputTypeError("faireval needs predictions: a 'pred' column or predictions=...")
    split = [label.split(LEVEL_SEPARATOR) for label in corpus.labels]
    depth = max(len(parts) for parts in split) if split else 1
    if depth == 1:   # the columns as they are (a span table that nests among them)
        return corpus, 1
    vocab = Interner()
    vocab["O"]
    # a tag with fewer levels is O on the others; an empty tag or level ('', 'B-X|')
    # stays '' and decoding rejects it, as every family does
    per_level = np.array([[vocab[parts[k]] if k < len(parts) else vocab["O"]
                           for k in range(depth)] for parts in split] or [[0] * depth],
                         dtype=np.int32)
    columns, first_level = {}, {}
    for side in (GOLD, PRED):
        for layer, column in enumerate(layer_columns(corpus, side), 1):
            ids = corpus.column(column)
            first_level[column] = _level_column(side, 0, depth, layer)
            for k in range(depth):
                columns[_level_column(side, k, depth, layer)] = per_level[ids, k]
    # what span input, type processing or grounding changed (single level) stays counted
    # in the level-0 column
    source = replace(corpus.source, **{
        kind: {first_level[c]: v for c, v in getattr(corpus.source, kind).items()
               if c in first_level}
        for kind in PER_COLUMN + ("generated",)})
    return corpus.with_tags(columns, tuple(vocab), source), depth


# -- punctuation -------------------------------------------------------------------------
def _drop_punct(table: Spans, punct: PunctMask) -> Spans:
    """Shrink every span past punctuation at either edge; drop spans left empty. A
    discontinuous mention's fragments shrink so (its bounds follow them), and it is
    dropped when every fragment is left empty.

    Punctuation inside a span stays inside its boundaries but leaves its token set (the
    matcher builds token sets with ``PunctMask.bits``).
    """
    if not len(table):
        return table
    keep, start, end = _shrunk(punct, table.sentence, table.start, table.end, table.base)
    owner, fragment_start, fragment_end = table.fragment_table
    if len(owner):
        kept, fragment_start, fragment_end = _shrunk(
            punct, table.sentence[owner], fragment_start, fragment_end, table.base[owner])
        owner, fragment_start, fragment_end = (owner[kept], fragment_start[kept],
                                               fragment_end[kept])
        split = table.discontinuous
        left = np.bincount(owner, minlength=len(table))
        keep[split] = left[split] > 0
        lows = np.full(len(table), np.iinfo(np.int64).max)
        highs = np.zeros(len(table), dtype=np.int64)
        np.minimum.at(lows, owner, fragment_start)
        np.maximum.at(highs, owner, fragment_end)
        start, end = np.where(split, lows, start), np.where(split, highs, end)
        alone = left[owner] == 1   # one fragment left: a contiguous mention
        owner, fragment_start, fragment_end = (owner[~alone], fragment_start[~alone],
                                               fragment_end[~alone])
    fragments = (owner, fragment_start, fragment_end) if len(owner) else None
    return replace(table, start=start, end=end, fragments=fragments).take(
        np.flatnonzero(keep))


def _shrunk(punct: PunctMask, sentence, start, end, base) -> tuple:
    """``(keep, start, end)``: spans (flat positions, ``base`` their sentence's first)
    shrunk past punctuation at either edge (where not ``keep``, left empty; their
    bounds are then meaningless)."""
    shift = punct.offsets[sentence] - base   # the punctuation's positions of the tokens
    words = np.flatnonzero(~punct.flags)  # positions of the tokens that are not punctuation
    first = np.searchsorted(words, start + shift, side="left")  # first word >= start
    last = np.searchsorted(words, end + shift, side="left") - 1  # last word < end
    keep = first <= last
    safe_first = np.minimum(first, max(len(words) - 1, 0))
    safe_last = np.maximum(last, 0)
    if not len(words):
        return keep, start, end
    return keep, words[safe_first] - shift, words[safe_last] + 1 - shift


# -- label filter ------------------------------------------------------------------------
def label_filtered(prepared: Prepared, labels, exclude) -> Prepared:
    """``prepared`` (read without a filter) with the label filter applied, unchecked: a
    shard's labels need not meet the filter's, the whole's must (the merged partial
    checks them with ``label_filter_problem``)."""
    names, target, system = _filter_labels(prepared.labels, prepared.target,
                                           prepared.system, labels, exclude, checked=False)
    return replace(prepared, labels=names, target=target, system=system)


def filtered_labels(names, labels, exclude) -> tuple:
    """The label vocabulary the filter leaves: ``labels`` in the given order (else the
    data's label ``names``, sorted) minus ``exclude``."""
    excluded = set(exclude or ())
    wanted = dict.fromkeys(labels) if labels is not None else names
    return tuple(name for name in wanted if name not in excluded)


def label_filter_problem(names, labels, exclude) -> str | None:
    """What is wrong when the filter leaves no label, or none of the data's ``names``
    (``ValueError``'s text), else None."""
    kept, present = filtered_labels(names, labels, exclude), set(names)
    if kept and not (present and not present & set(kept)):
        return None
    return (f"the label filter leaves nothing to evaluate: labels="
            f"{list(labels) if labels is not None else 'all'}, exclude="
            f"{sorted(set(exclude or ()))}; labels in the data: {sorted(present)}")


def _filter_labels(names: tuple, target: Spans, system: Spans, labels, exclude,
                   checked: bool = True):
    """Keep the spans whose label is in ``labels`` (if given) and not in ``exclude``.

    The new vocabulary is ``filtered_labels``. Raises ``ValueError`` when the filter
    leaves no label at all (unless not ``checked``: see ``prepare``'s ``shard``).
    """
    if labels is None and not exclude:
        return names, target, system
    for name, given in (("labels", labels), ("exclude", exclude)):
        if isinstance(given, (str, bytes)) or (given is not None
                                               and not hasattr(given, "__iter__")):
            raise InputTypeError(f"{name} must be a list of label strings, not "
                                 f"{shown(given)}")
    problem = label_filter_problem(names, labels, exclude)
    if problem and checked:
        raise ValueError(problem)
    kept = filtered_labels(names, labels, exclude)
    index = {name: i for i, name in enumerate(kept)}
    remap = np.array([index.get(name, -1) for name in names] or [-1], dtype=np.int32)

    def apply(table: Spans) -> Spans:
        new = remap[table.type] if len(table) else table.type
        keep = np.flatnonzero(new >= 0)
        return replace(table.take(keep), type=new[keep].astype(np.int32), types=tuple(kept))
    return tuple(kept), apply(target), apply(system)


__all__ = ["PUNCT_TAGS", "sentence_spans", "layout", "Prepared", "PunctMask", "prepare", "reported_repairs",
           "filtered_labels", "label_filter_problem", "label_filtered"]
