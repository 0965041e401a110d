"""Type processing, as seqscore's ``process``: keep some entity types, remove some, map
others (``PERSON -> PER``), applied to the mentions of every tag column before anything
scores them.

A mention's type is mapped first (``type_map``), then the mention is dropped unless its
(mapped) type is kept (``keep_types``) or when it is removed (``remove_types``), as
seqscore's ``TypeMapper`` does. Keeping and removing at once is refused, as seqscore
refuses it: one of them says all. A type named in any option that occurs in no tag of the
input is an error, so that a misspelt type never passes as "nothing to do": a mapped type
must be written so, a kept or removed one written so or made so by the map (with
``LOC -> GPE``, ``keep_types=["LOC"]`` names a type and keeps no mention of it, as
seqscore's ``process`` does). Types are case-sensitive, as in every peer: a name that a
written type matches only in another case is named in the error.

It works on mentions, not on tags: ``B-PER I-PERSON`` with ``PERSON -> PER`` stays two
mentions (a type change ends one), written anew in the scheme. Only the runs of non-``O``
tags that hold a changed mention are written anew; every other tag stays as it was, so
that what decoding repairs there is still counted, and what it would have repaired in
the runs written anew is kept in the corpus's ``source`` and counted with it
(``LOST_REPAIRS``). The mentions changed are counted in every result's ``repairs``
(``types_mapped``, ``types_removed``).

>>> processing = TypeProcessing.of(type_map={"PERSON": "PER"}, remove_types=["MISC"])
>>> from nerspan import Corpus, decode
>>> corpus = process_corpus(Corpus.from_tags([["B-PER", "I-PERSON", "B-MISC"]]),
...                         ["gold"], "IOB2", "lenient", processing)
>>> corpus.tags("gold", 0)
['B-PER', 'B-PER', 'O']
>>> spans = decode(corpus)
>>> spans.to_list(corpus), spans.repairs.types_mapped, spans.repairs.types_removed
([[('PER', 0, 1), ('PER', 1, 2)]], 1, 1)
"""
from __future__ import annotations

import dataclasses
import re
import warnings
from dataclasses import dataclass, field

import numpy as np

from .corpus import Corpus
from .encodings import encode, tag_labels
from .errors import DecodingWarning, InputTypeError, NerspanError, shown
from .schemes import O, Scheme, get_scheme, split_tag
from .spans import LabelTable, Spans, decode
from .validation import find_problems

TYPE_OPTIONS = ("keep_types", "remove_types", "type_map")
_SPACE = re.compile(r"\s")


class TypeNotFoundError(NerspanError):
    """A type named in keep_types, remove_types or type_map occurs in no tag."""


def type_names(name: str, value) -> tuple | None:
    """``keep_types``/``remove_types``: None, or type names (a list, tuple or set of
    non-empty strings, never ``O``), as a sorted tuple."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        raise InputTypeError(f"{name} must be a list of type names, not a string "
                             f"({shown(value)}): e.g. {name}=['PER', 'LOC']")
    try:
        names = list(value)
    except TypeError:
        raise InputTypeError(f"{name} must be a list of type names, not {shown(value)}"
                             ) from None
    for item in names:
        _check_type(name, item)
    return tuple(sorted(set(names)))


def type_mapping(name: str, value) -> tuple | None:
    """``type_map``: None, or a dict from a type to the type it becomes, as sorted
    ``(source, target)`` pairs."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InputTypeError(f"{name} must be a dict from a type to the type it becomes "
                             f"(e.g. {{'PERSON': 'PER'}}), not {shown(value)}")
    for source, target in value.items():
        _check_type(f"{name} key", source)
        _check_type(f"{name}[{source!r}]", target)
    return tuple(sorted(value.items()))


def _check_type(name: str, value) -> None:
    if not isinstance(value, str) or not value:
        raise InputTypeError(f"{name} must be a type name (a non-empty string), not "
                             f"{shown(value)}")
    if value == "O" or _SPACE.search(value):
        raise InputTypeError(f"{name}: {value!r} is no entity type (O is outside every "
                             "mention; a type holds no space)")


@dataclass(frozen=True)
class TypeProcessing:
    """What to do with entity types: ``keep`` (None: every type), ``remove``, and
    ``mapping`` (``(source, target)`` pairs)."""

    keep: tuple | None = None
    remove: tuple = ()
    mapping: tuple = ()
    # the look-ups ``target`` reads, built once: a call costs O(1), not O(types)
    _map: dict = field(init=False, repr=False, compare=False)
    _kept: frozenset | None = field(init=False, repr=False, compare=False)
    _removed: frozenset = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "_map", dict(self.mapping))
        object.__setattr__(self, "_kept", None if self.keep is None else frozenset(self.keep))
        object.__setattr__(self, "_removed", frozenset(self.remove))

    @classmethod
    def of(cls, keep_types=None, remove_types=None, type_map=None) -> "TypeProcessing | None":
        """The processing the options ask for (checked), or None when they ask none."""
        keep = type_names("keep_types", keep_types)
        remove = type_names("remove_types", remove_types)
        mapping = type_mapping("type_map", type_map)
        if keep is not None and remove is not None:
            raise InputTypeError("keep_types (--keep-types) and remove_types "
                                 "(--remove-types) were both given: give one (keeping "
                                 "some types removes all the others)")
        if keep is None and not remove and not mapping:
            return None
        return cls(keep, remove or (), mapping or ())

    @classmethod
    def of_options(cls, inputs) -> "TypeProcessing | None":
        """The processing of an ``InputOptions`` (or None)."""
        return cls.of(*(getattr(inputs, name) for name in TYPE_OPTIONS))

    def relabel(self, corpus: Corpus, column: str) -> Corpus:
        """``relabel_tags`` of ``column``: its tags renamed one by one (no mentions yet)."""
        return relabel_tags(corpus, column, self)

    def target(self, name: str) -> str | None:
        """The type a mention of type ``name`` becomes; None: it is dropped."""
        name = self._map.get(name, name)
        if (self._kept is not None and name not in self._kept) or name in self._removed:
            return None
        return name

    def check_types(self, present) -> None:
        """``TypeNotFoundError`` for a type named here that no tag has (``present``:
        the types of the tags as written, before mapping). A mapped type must be written
        so; a kept or removed one written so, or be what ``type_map`` makes of one
        (seqscore's order: a mention is mapped, then kept or removed by its new type, so
        ``keep_types=["LOC"]`` with ``LOC -> GPE`` names a type and keeps no mention of
        it, as seqscore's ``process`` does)."""
        present = set(present)
        mapped = {self._map.get(t, t) for t in present}
        for what, names, among in (("mapped", [s for s, _ in self.mapping], present),
                                   ("kept", self.keep or (), present | mapped),
                                   ("removed", self.remove, present | mapped)):
            missing = [name for name in names if name not in among]
            if missing:
                raise TypeNotFoundError(f"{what} type {', '.join(map(repr, missing))} "
                                        f"occurs in no tag ({self._types_text(what, present)})"
                                        + _other_case(missing, among))

    def _types_text(self, what: str, present: set) -> str:
        """The types a name was looked for among, as the error lists them."""
        written = ", ".join(sorted(present)) or "none"
        if what == "mapped" or not self.mapping:
            return f"the types: {written}"
        made = sorted({self._map[t] for t in present if t in self._map} - present)
        return f"the types: {written}; by type_map: {', '.join(made) or 'none'}"

    def describe(self) -> str:
        parts = [f"{s}->{t}" for s, t in self.mapping]
        if self.keep is not None:
            parts.append(f"keep {','.join(self.keep)}")
        if self.remove:
            parts.append(f"remove {','.join(self.remove)}")
        return "; ".join(parts)


def _other_case(missing, among) -> str:
    """The hint for names that a type written in another case would match: types are
    case-sensitive in tags (as in every peer), so such a name is no type."""
    folded = {}
    for name in sorted(among):
        folded.setdefault(name.casefold(), name)
    near = [(name, folded[name.casefold()]) for name in missing if name.casefold() in folded]
    if not near:
        return ""
    return "; " + "; ".join(f"{name!r}: did you mean {written!r}?" for name, written in near
                            ) + " (type names are case-sensitive)"


def label_types(labels) -> set:
    """The entity types of tag strings (``O`` and the empty type left out)."""
    return {split_tag(label)[1] for label in labels if label != "O"} - {""}


def process_spans(spans: Spans, processing: TypeProcessing) -> tuple[Spans, np.ndarray]:
    """``(processed spans, changed)``: the mentions ``processing`` keeps, with their
    new types (``types`` extended by new names), and for every input span whether it was
    retyped or dropped."""
    targets = [processing.target(name) for name in spans.types]
    known = set(spans.types)
    types = spans.types + tuple(dict.fromkeys(
        t for t in targets if t is not None and t not in known))
    index = {name: i for i, name in enumerate(types)}
    remap = np.array([index.get(t, -1) if t is not None else -1 for t in targets] or [-1],
                     dtype=np.int64)
    new_type = remap[spans.type] if len(spans) else np.zeros(0, dtype=np.int64)
    changed = new_type != spans.type
    kept = np.flatnonzero(new_type >= 0)
    processed = dataclasses.replace(spans.take(kept), type=new_type[kept].astype(spans.type.dtype),
                                    types=types)
    return processed, changed


def changed_sentences(spans: Spans, processing: TypeProcessing,
                      changed: np.ndarray) -> tuple[tuple, tuple]:
    """``(retyped, dropped)``: the sentences of the mentions of ``spans`` that
    ``process_spans`` retyped (``changed``, its second result, and kept) and of those it
    dropped, as a repair record counts them."""
    if not len(spans):
        return (), ()
    gone = np.array([processing.target(t) is None for t in spans.types], dtype=bool)
    dropped = gone[spans.type.astype(np.int64)]
    return (tuple(spans.sentence[changed & ~dropped].tolist()),
            tuple(spans.sentence[dropped].tolist()))


def process_ungrounded(record, processing: TypeProcessing):
    """``(record, retyped, dropped)``: a generated system's record
    (``nerspan.generative.GenerativeRepairs``) whose ungrounded entities, each a wrong
    prediction of its type, are processed as the mentions are (retyped or dropped), and
    the sentences of those retyped and dropped. Left as they were, ``keep_types=["PER"]``
    would still count a hallucinated location as a false positive."""
    kept, retyped, dropped = [], [], []
    for item in record.ungrounded:
        target = processing.target(item.type)
        if target is None:
            dropped.append(item.sentence)
            continue
        if target != item.type:
            retyped.append(item.sentence)
        kept.append(item._replace(type=target))
    return record.replace(ungrounded=tuple(kept)), retyped, dropped


def _ungrounded_types(corpus: Corpus) -> set:
    """The types of the generated columns' ungrounded entities: mentions of their type
    too (with no tag), which string matching sees."""
    return {item.type for record in corpus.source.generated.values()
            for item in record.ungrounded}


def process_corpus(corpus: Corpus, columns, scheme: str | Scheme, mode: str,
                   processing: TypeProcessing | None, check: bool = True) -> Corpus:
    """``corpus`` with the mentions of ``columns`` processed (see the module), each
    decoded in ``scheme`` and ``mode``; the runs of tags holding a changed mention are
    written anew, and the sentences of the mentions changed are kept in its ``source``
    (``types_mapped``, ``types_removed``), where decoding counts them in ``repairs``.
    A column processed already is left as it is. ``check``: refuse a type named in
    ``processing`` that no tag of the corpus has."""
    if processing is None:
        return corpus
    columns = [c for c in columns if c not in corpus.source.types_mapped]
    used = np.zeros(len(corpus.labels), dtype=bool)
    for column in corpus.columns:
        used[np.unique(corpus.column(column))] = True
    seen = corpus.source.types_seen | label_types(np.asarray(corpus.labels, dtype=object)[used])
    seen |= _ungrounded_types(corpus)
    if check:
        processing.check_types(seen)
    if not columns:
        return corpus
    scheme = get_scheme(scheme)
    table = LabelTable.build(corpus.labels, scheme)
    labels = list(corpus.labels)
    label_index = {label: i for i, label in enumerate(labels)}
    new_columns = dict(corpus.columns)
    mapped, removed = dict(corpus.source.types_mapped), dict(corpus.source.types_removed)
    lost = {kind: dict(getattr(corpus.source, kind)) for kind in LOST_REPAIRS}
    generated = dict(corpus.source.generated)
    for column in columns:
        with warnings.catch_warnings():  # the scoring decode warns, once
            warnings.simplefilter("ignore", DecodingWarning)
            spans = decode(corpus, column, scheme, mode, table)
        processed, changed = process_spans(spans, processing)
        mapped[column], removed[column] = changed_sentences(spans, processing, changed)
        if column in generated:   # its ungrounded entities are mentions too (no span)
            generated[column], retyped, gone = process_ungrounded(generated[column],
                                                                  processing)
            mapped[column] = tuple(sorted(mapped[column] + tuple(retyped)))
            removed[column] = tuple(sorted(removed[column] + tuple(gone)))
        if not changed.any():
            continue
        ids = corpus.column(column)
        column_ids = new_columns[column] = _rewritten(
            corpus, ids, table, spans.start[changed], processed, scheme, labels, label_index)
        for kind, sentences in _lost_repairs(corpus, ids, column_ids, labels, scheme,
                                             mode).items():
            lost[kind][column] = sentences
    source = dataclasses.replace(corpus.source, types_mapped=mapped, types_removed=removed,
                                 types_seen=frozenset(seen), generated=generated, **lost)
    return corpus.with_tags(new_columns, labels, source)


def relabel_tags(corpus: Corpus, column: str, processing: TypeProcessing | None) -> Corpus:
    """``corpus`` with the tags of ``column`` renamed tag by tag (``B-PERSON`` ->
    ``B-PER``; a tag of a type dropped -> ``O``): what validation reads, where the tags
    need not form mentions yet. The types named are checked against the tags."""
    if processing is None:
        return corpus
    processing.check_types(label_types(corpus.labels))
    labels = list(corpus.labels)
    index = {label: i for i, label in enumerate(labels)}
    remap = []
    for label in corpus.labels:
        prefix, kind = split_tag(label)
        target = kind if label == "O" else processing.target(kind)
        new = "O" if target is None else label if target == kind else f"{prefix}-{target}"
        if new not in index:
            index[new] = len(labels)
            labels.append(new)
        remap.append(index[new])
    ids = np.array(remap or [0], dtype=corpus.column(column).dtype)[corpus.column(column)]
    return corpus.with_tags({**corpus.columns, column: ids}, labels)


# Where IO cannot write apart two adjacent mentions that a map made one type
MERGED_BY_MAP = ("type_map made them one type (seqscore's process would merge them): "
                 "convert the tags to a scheme that parts them first "
                 "(nerspan.encodings.convert, nerlens convert IN OUT --from IO --to IOB2), "
                 "or map the types apart")


def _rewritten(corpus: Corpus, ids: np.ndarray, table: LabelTable, starts: np.ndarray,
               processed: Spans, scheme: Scheme, labels: list, label_index: dict
               ) -> np.ndarray:
    """The column ``ids`` with the runs of tags holding a changed mention (``starts``)
    written anew from the ``processed`` spans; new labels are appended to ``labels``
    (and ``label_index``)."""
    rewrite = _runs_to_rewrite(corpus, ids, table, starts)
    prefix, types = encode(processed, scheme, corpus, remedy=MERGED_BY_MAP)
    new_ids, new_labels = tag_labels(prefix[rewrite], types[rewrite], processed.types, scheme)
    for label in new_labels:
        if label not in label_index:
            label_index[label] = len(labels)
            labels.append(label)
    remap = np.array([label_index[label] for label in new_labels] or [0], dtype=ids.dtype)
    column_ids = ids.copy()
    column_ids[rewrite] = remap[new_ids]
    return column_ids


# Source fields: per column, the sentence of every repair of a tag that was written anew
# (decoding adds them to ``invalid_transitions``, ``outside_scheme`` and, in strict
# mode, to ``discarded_chunks`` and ``lenient_chunks``).
LOST_REPAIRS = ("retyped_transitions", "retyped_outside", "retyped_discarded")


def _lost_repairs(corpus: Corpus, before: np.ndarray, after: np.ndarray, labels: list,
                  scheme: Scheme, mode: str) -> dict:
    """What decoding would have repaired in the tags written anew: per kind, a
    sentence per repair. These are the problems ``validate`` finds (their counts are
    decoding's) and, in strict mode, the lenient chunks strict decoding does not keep,
    in the column before, less those after: a rewritten run is valid."""
    table = LabelTable.build(tuple(labels), scheme)
    counted = {}
    for name, ids in (("before", before), ("after", after)):
        probe = corpus.with_tags({"tags": ids}, labels)
        outside, invalid, ends = find_problems(probe, "tags", table, scheme)
        sentence = probe.sentence_of_position
        # as decoding counts them: a tag outside the scheme is an invalid transition too
        transitions = np.concatenate([invalid, ends])
        counted[name] = [np.bincount(sentence[p], minlength=corpus.n_sentences)
                         for p in (transitions, outside)]
        counted[name].append(_discarded(probe, table, scheme) if mode == "strict"
                             else np.zeros(corpus.n_sentences, dtype=np.int64))
    return {kind: tuple(np.repeat(np.arange(corpus.n_sentences),
                                  np.maximum(b - a, 0)).tolist())
            for kind, b, a in zip(LOST_REPAIRS, counted["before"], counted["after"])}


def _discarded(corpus: Corpus, table: LabelTable, scheme: Scheme) -> np.ndarray:
    """Per sentence, the lenient chunks of column ``"tags"`` that strict decoding does
    not keep as they are (what ``Repairs.discarded_chunks`` counts)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DecodingWarning)
        lenient = decode(corpus, "tags", scheme, "lenient", table)
        strict = decode(corpus, "tags", scheme, "strict", table)
    n = corpus.n_tokens
    lost = ~np.isin(lenient.key(n), strict.key(n))
    return np.bincount(lenient.sentence[lost], minlength=corpus.n_sentences)


def _runs_to_rewrite(corpus: Corpus, ids: np.ndarray, table: LabelTable,
                     starts: np.ndarray) -> np.ndarray:
    """The flat positions of the runs of non-``O`` tags (within a sentence) that hold
    one of ``starts``: mentions never cross such a run, so writing a run anew leaves the
    reading of every other tag as it was."""
    inside = np.take(table.prefix, ids) != O
    n = len(ids)
    begins = inside.copy()
    begins[1:] &= ~inside[:-1]
    heads = corpus.offsets[:-1][corpus.lengths > 0]
    begins[heads] = inside[heads]
    run = np.cumsum(begins)  # the run of every inside position (1-based)
    chosen = np.zeros(int(run[-1]) + 1 if n else 1, dtype=bool)
    chosen[run[starts]] = True
    return np.flatnonzero(inside & chosen[run])


def process_retagged(retagged, processing: TypeProcessing | None):
    """A ``nerspan.encodings.Retagged`` (repaired or converted tags, valid in its
    scheme) with its mentions processed; ``counts`` gains ``types_mapped`` and
    ``types_removed``. The types named are checked against its tags."""
    if processing is None:
        return retagged
    tags = retagged.corpus.with_tags({"tags": retagged.ids}, retagged.labels)
    done = process_corpus(tags, ["tags"], retagged.scheme, "lenient", processing)
    counts = {**retagged.counts,
              "types_mapped": len(done.source.types_mapped["tags"]),
              "types_removed": len(done.source.types_removed["tags"])}
    return dataclasses.replace(retagged, ids=done.column("tags"), labels=done.labels,
                               counts=counts)


__all__ = ["process_retagged", "relabel_tags", "TypeProcessing", "TypeNotFoundError", "process_corpus", "process_spans", "changed_sentences",
           "label_types", "TYPE_OPTIONS"]
