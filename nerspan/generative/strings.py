"""String matching (``matching="strings"``, METHODS §6 way 2): no grounding at all.

Each sentence's predicted entities become a set of (normalised text, type) pairs, and so
do its gold mentions (their tokens joined by single spaces); a prediction is correct when
its pair is among gold's, as LLM NER papers score. ``script="universalner"`` applies the
UniversalNER evaluation's rules instead (``universalner``): its normalisation, its
parse of each (sentence, type) response, unique strings per query and its formulas; a
sentence's prediction is then, as its model answers, a dict from type to the response
to "What describes TYPE in the text?" (a string, or the list it holds), though any form
of ``reading`` is accepted. ``word_overlap=True`` counts a prediction correct when its
word-overlap F1 with a gold string of its sentence and type reaches 0.5 (and a gold
string found when a prediction reaches 0.5 with it).

Type processing (``type_map``, ``keep_types``, ``remove_types``: seqscore's ``process``,
``nerspan.type_processing``) means here what it means in the grounded route: the types
of gold's mentions and of the predicted strings alike are mapped, then kept or removed,
before the sets are compared. A predicted type is first matched (``type_names``) to
the gold types or to a name ``type_map`` maps (``"Person"`` to the map's ``"person"``),
then processed. A type named in an option that neither side has is an
error (``TypeNotFoundError``); the gold mentions and the predicted strings (unique per
sentence and type) retyped or dropped are counted in ``repairs`` (``types_mapped``,
``types_removed``), and predicted strings that a mapping makes equal are listed as
duplicates.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from ..collector import collector_paused
from ..corpus import GOLD
from ..errors import InputTypeError, NerspanError, SentenceCountError, counted
from ..migration import migrated
from ..records import GeneratedOptions, InputOptions
from ..scores import EntityScores, safe_divide
from ..reading.span_lists import from_spans, is_span_input
from ..spans import Repairs, decode, repairs_dict
from ..type_processing import TypeProcessing
from . import universalner
from .normalise import normalise
from .reading import ENTITY_KEYS, _sentences, misspelt_key, read_generated, read_response
from .repairs import TYPE_MATCHES, GenerativeRepairs, Listing, merge_repairs
from .type_names import TypeMatcher, known_names


@dataclass(frozen=True)
class StringScores(EntityScores):
    """``nerspan.EntityScores`` of string matching: per type, ``gold`` and ``predicted``
    strings (unique per sentence), ``correct`` predictions and ``found`` gold strings
    (equal to ``correct`` unless ``word_overlap``); precision = correct / predicted,
    recall = found / gold. Under ``script="universalner"`` the micro scores are the script's
    (1e-10 in each denominator), to its last digit."""

    found: np.ndarray = field(default=None)
    script: str | None = None
    word_overlap: bool = False

    def per_type(self):
        return _prf(self.correct, self.found, self.predicted, self.gold, self.zero_division)

    def micro(self) -> tuple[float, float, float]:
        correct, found = int(self.correct.sum()), int(self.found.sum())
        if self.script == "universalner":
            return universalner.script_prf(correct, self.n_predicted, self.n_gold, found)
        return tuple(float(x) for x in _prf(correct, found, self.n_predicted, self.n_gold,
                                            self.zero_division))

    def plain_dict(self) -> dict:
        out = super().plain_dict()
        out["found"] = int(self.found.sum())
        for k, row in enumerate(out["per_type"].values()):
            row["found"] = int(self.found[k])
        return out


def _prf(correct, found, predicted, gold, zero_division: float):
    """Precision of the correct predictions, recall of the gold strings found, F1."""
    precision = safe_divide(correct, predicted, zero_division)
    recall = safe_divide(found, gold, zero_division)
    return precision, recall, safe_divide(2 * precision * recall, precision + recall)


@collector_paused
@migrated
def score_strings(references, predictions, tokens=None, *, types=None,
                  scheme: str = "IOB2", mode: str = "lenient", inputs=None) -> StringScores:
    """Precision, recall and F1 of generated entities against gold, as strings.

    Args:
        references: gold, as span lists per sentence (any form of
            ``nerspan.reading.span_lists``), tag lists per sentence (decoded by ``scheme`` and
            ``mode``) or a ``Corpus`` (its gold column); ``tokens`` or ``texts`` give
            the words unless the Corpus has them.
        predictions: per sentence, generated output in any form of ``reading``.
        types: the gold type names predicted types are matched to (``type_names``);
            by default the types of gold's mentions.
        inputs: the input options (``nerspan.InputOptions`` or a dict): ``texts``, the
            type options, ``script`` (None or ``"universalner"``) and ``word_overlap``
            (count word-overlap matches, F1 >= 0.5, as correct).

    >>> s = score_strings([[(0, 2, "PER"), (3, 4, "LOC")]],
    ...                   ['[{"text": "ada lovelace", "type": "PER"}, ["Paris", "ORG"]]'],
    ...                   tokens=[["Ada", "Lovelace", "in", "Paris"]])
    >>> s.micro(), s.to_dict()["per_type"]["LOC"]["recall"]
    ((0.5, 0.5, 0.5), 0.0)
    >>> u = score_strings([[(0, 2, "PER"), (3, 4, "LOC")]],
    ...                   [{"person": '["The Ada Lovelace"]', "location": "[]"}],
    ...                   tokens=[["Ada", "Lovelace", "in", "Paris"]],
    ...                   inputs={"script": "universalner",
    ...                           "type_map": {"person": "PER", "location": "LOC"}})
    >>> u.micro()
    (0.9999999999, 0.499999999975, 0.6666666665777777)
    """
    inputs = InputOptions.of(inputs, tokens=tokens)
    return string_counts(references, predictions, types=types, scheme=scheme, mode=mode,
                         inputs=inputs).scores()


@dataclass(frozen=True)
class StringCounts:
    """What ``score_strings`` counts, before its result: per type (``types``, sorted)
    gold, predicted, correct and found strings (``counts``, rows in that order), the
    repairs of both sides, the record of what reading did, the options read. Counts of
    disjoint sentences add up (``nerspan.partials.StringPartial``)."""

    types: tuple
    counts: tuple
    gold_repairs: Repairs | None
    pred_repairs: Repairs | None
    record: GenerativeRepairs
    script: str | None
    word_overlap: bool

    def scores(self) -> StringScores:
        column = lambda k: np.array([row[k] for row in self.counts],  # noqa: E731
                                    dtype=np.int64).reshape(-1)
        return StringScores(
            self.types, column(0), column(1), column(2), 0.0,
            merge_repairs(repairs_dict(self.gold_repairs, self.pred_repairs), self.record),
            {"matching": "strings", "script": self.script,
             "word_overlap": self.word_overlap},
            found=column(3), script=self.script, word_overlap=self.word_overlap)


def string_counts(references, predictions, *, types=None, scheme: str = "IOB2",
                  mode: str = "lenient", inputs: InputOptions) -> StringCounts:
    """``score_strings``' counts (its arguments, ``inputs`` an ``InputOptions``)."""
    script, word_overlap = inputs.generated.script, inputs.generated.word_overlap
    gold_texts = gold_mention_texts(references, scheme=scheme, mode=mode, inputs=inputs)
    sentences = _sentences(predictions, "predictions")
    if len(sentences) != len(gold_texts):
        raise SentenceCountError(f"predictions hold {counted(len(sentences), 'sentence')}, "
                                 f"references {len(gold_texts)}")
    processing = inputs.types.processing
    if types is None:
        types = {t for mentions in gold_texts for _, t in mentions}
    # the mapping itself is the processing's, on both sides (below)
    names, type_map = known_names(types, () if processing is None else
                                  (source for source, _ in processing.mapping))
    if script == "universalner":
        predicted, record = _universalner_queries(sentences, TypeMatcher(names, type_map))
    else:
        predicted, record = _normalised_sets(sentences, names, type_map)
    gold_repairs = pred_repairs = None
    if processing is not None:
        processing.check_types({t for mentions in gold_texts for _, t in mentions}
                               | {t for queries in predicted for t in queries})
        gold_texts, gold_repairs = _process_mentions(gold_texts, processing)
        predicted, pred_repairs, record = _process_sets(predicted, processing, record)
    unique = universalner.gold_strings if script == "universalner" else _unique_normalised
    gold = [_by_type(mentions, unique) for mentions in gold_texts]
    counts = (_partial_counts if word_overlap else _exact_counts)(gold, predicted)
    types = tuple(sorted(counts))
    return StringCounts(types, tuple(tuple(counts[t]) for t in types), gold_repairs,
                        pred_repairs, record, script, word_overlap)


# What string matching does not read: grounding's options; given, they are refused. Type
# processing (keep_types, remove_types, type_map) it reads, on gold's mention texts and the
# predicted strings alike (``score_strings``).
STRINGS_UNREAD = ("occurrences", "overlaps", "fuzzy")
_GENERATED_DEFAULTS = InputOptions().generated


def refuse_unread(generated, zero_division: bool) -> None:
    """A ``ValueError`` naming the options of ``generated`` (``GeneratedOptions``, each
    with its flag: the command line's words too) that string matching does not read, and
    ``zero_division`` (when not 0), if given."""
    unread = [GeneratedOptions.spelled(name) for name in STRINGS_UNREAD
              if getattr(generated, name) != getattr(_GENERATED_DEFAULTS, name)] + \
        (["zero_division"] if zero_division else [])
    if unread:
        raise ValueError(f"{', '.join(unread)} {'is' if len(unread) == 1 else 'are'} not read "
                         'by matching="strings" (--matching strings), which compares sets of '
                         "(text, type) strings per sentence, not spans: leave "
                         f"{'it' if len(unread) == 1 else 'them'} out, or ground the output "
                         '(matching="grounded", the default)')


def gold_mention_texts(references, *, scheme: str = "IOB2", mode: str = "lenient",
                       inputs: InputOptions) -> list:
    """Per sentence, ``(text, type)`` of every gold mention (tokens joined by a space),
    read and checked as every family reads gold (``nerspan.from_spans``)."""
    spans_given = is_span_input(references)
    corpus = from_spans(references, inputs=inputs)
    if corpus.tokens is None:
        raise NerspanError("string matching needs the gold mentions' words: pass "
                           "tokens=... or texts=...", side="references")
    mentions = decode(corpus, GOLD, "IOB2" if spans_given else scheme, mode).to_list(corpus)
    # the words given are the corpus's (checked by from_spans): read, not rebuilt from it
    words = corpus.sentence_tokens if inputs.tokens is None else inputs.tokens.__getitem__
    return [[(" ".join(words(i)[a:b]), label) for label, a, b in sentence] if sentence
            else [] for i, sentence in enumerate(mentions)]


def _process_mentions(mentions: list, processing: TypeProcessing) -> tuple[list, Repairs]:
    """Gold's ``(text, type)`` mentions per sentence processed, and the ``Repairs``
    counting those retyped and dropped (one per mention, as the grounded route counts)."""
    out, mapped, removed = [], [], []
    for i, sentence in enumerate(mentions):
        kept = []
        for text, entity_type in sentence:
            target = processing.target(entity_type)
            if target is None:
                removed.append(i)
                continue
            if target != entity_type:
                mapped.append(i)
            kept.append((text, target))
        out.append(kept)
    return out, _type_repairs(mapped, removed)


def _process_sets(predicted: list, processing: TypeProcessing, record: GenerativeRepairs
                  ) -> tuple[list, Repairs, GenerativeRepairs]:
    """Predicted sets (per sentence, type -> unique items) processed: each item of a
    type retyped or dropped is counted once; an item a mapping makes equal to another
    of its new type is kept once and listed as a duplicate (no longer usable)."""
    out, mapped, removed, merged = [], [], [], []
    for i, queries in enumerate(predicted):
        processed: dict = {}
        for entity_type, items in queries.items():
            target = processing.target(entity_type)
            if target is None:
                removed.extend([i] * len(items))
                continue
            if target != entity_type:
                mapped.extend([i] * len(items))
            kept = processed.setdefault(target, [])
            for item in items:
                if item in kept:
                    merged.append(Listing(i, str(item), target,
                                          f"the same as another after type_map "
                                          f"({entity_type} -> {target})"))
                else:
                    kept.append(item)
        out.append(processed)
    record = record.replace(duplicates=record.duplicates + tuple(merged),
                            usable=record.usable - len(merged))
    return out, _type_repairs(mapped, removed), record


def _type_repairs(mapped: list, removed: list) -> Repairs:
    return Repairs(sentences=tuple(sorted(set(mapped) | set(removed)))[:20],
                   types_mapped=len(mapped), types_removed=len(removed))


def _by_type(mentions: list, unique) -> dict:
    """type -> that type's unique strings, by ``unique`` (a list of texts -> items)."""
    texts: dict = {}
    for text, entity_type in mentions:
        texts.setdefault(entity_type, []).append(text)
    return {t: unique(found) for t, found in texts.items()}


def _unique_normalised(texts: list) -> list:
    return list(dict.fromkeys(map(normalise, texts)))


def _normalised_sets(sentences: list, types, type_map) -> tuple[list, GenerativeRepairs]:
    """Per sentence, type -> unique normalised texts; repeats listed as duplicates."""
    read = read_generated(sentences, types=types, type_map=type_map)
    predicted, duplicates = [], []
    for i, entities in enumerate(read.entities):
        keys: dict = {}
        for text, entity_type in entities:
            kept = keys.setdefault(entity_type, {})
            key = normalise(text)
            if key in kept:
                duplicates.append(Listing(i, text, entity_type))
            kept[key] = True
        predicted.append({t: list(kept) for t, kept in keys.items()})
    usable = sum(len(items) for sentence in predicted for items in sentence.values())
    return predicted, read.repairs.replace(duplicates=tuple(duplicates), usable=usable)


def _universalner_queries(sentences: list, match: TypeMatcher) -> tuple[list, GenerativeRepairs]:
    """Per sentence, type -> the query's unique items by the script's rules."""
    predicted, record = [], _Record()
    matched: dict = {}   # each type name matched once
    for i, value in enumerate(sentences):
        queries: dict = {}
        for given, answer in _answers(value, i, record, match.knows):
            if given not in matched:
                matched[given] = match(given)
            entity_type, how = matched[given]
            record.typed(i, how, given, answer)
            repeats: list = []
            items, parse_failure = (universalner.parse(answer, repeats)
                                    if isinstance(answer, str)
                                    else universalner.normalised_items(answer, repeats))
            if parse_failure:
                record.failures.append(Listing(i, answer if isinstance(answer, str)
                                               else repr(answer)[:80], given, parse_failure))
            record.entities += len(items) + len(repeats)
            if repeats:
                record.duplicates.extend(Listing(i, str(item), entity_type) for item in repeats)
            kept = queries.get(entity_type)
            if kept is None:   # the usual case: the type's first answer in the sentence
                queries[entity_type] = items
                continue
            # two answers for one type (a model's "person" and "PERSON") form one query
            for item in items:
                if item in kept:
                    record.duplicates.append(Listing(i, str(item), entity_type))
                else:
                    kept.append(item)
        predicted.append(queries)
    return predicted, record.repairs(len(sentences), predicted)


def _answers(value, i: int, record: "_Record", known_type=None):
    """``(type, answer)`` per query of one sentence: a dict from type to a
    response (or its list) as UniversalNER's model answers (no key an entity key, nor
    one misspelt: ``{"txt": ..., "type": ...}`` is an entity); any other form is read
    (``reading``) and its texts grouped by type."""
    if type(value) is not str and isinstance(value, Mapping) \
            and all(isinstance(k, str) for k in value) \
            and not {k.casefold() for k in value} & set(ENTITY_KEYS) \
            and not any(misspelt_key(k, known_type) for k in value) and all(
                v is None or isinstance(v, (str, list, tuple)) for v in value.values()):
        return [(k, [] if v is None else v) for k, v in value.items()]
    found, failure, rejected = read_response(value, "predictions", i, known_type)
    if rejected:
        record.rejected.extend(Listing(i, text, given, reason)
                               for text, given, reason in rejected)
    if failure is not None:
        record.failures.append(Listing(i, value if isinstance(value, str) else repr(value),
                                       reason=failure))
    grouped: dict = {}
    for text, given in found:
        grouped.setdefault(given, []).append(text)
    return list(grouped.items())


class _Record:
    """What the UniversalNER reading counts."""

    def __init__(self):
        self.failures, self.rejected, self.unknown, self.duplicates = [], [], [], []
        self.types = dict.fromkeys(TYPE_MATCHES, 0)
        self.entities = 0

    def typed(self, i: int, how: str, given: str, answer) -> None:
        self.types[how] += 1
        if how == "unknown":
            self.unknown.append(Listing(i, answer if isinstance(answer, str)
                                        else repr(answer)[:80], given))

    def repairs(self, n: int, predicted: list) -> GenerativeRepairs:
        usable = sum(len(items) for sentence in predicted for items in sentence.values())
        return GenerativeRepairs(
            responses=n, entities=self.entities, usable=usable, types=self.types,
            parse_failures=tuple(self.failures), rejected=tuple(self.rejected),
            unknown_types=tuple(self.unknown), duplicates=tuple(self.duplicates))


def _exact_counts(gold: list, predicted: list) -> dict:
    """type -> [gold, predicted, correct, found] items, over every sentence's dicts from
    type to unique items: a prediction is correct when its sentence's gold has it under
    its type. A type a sentence names with no item still gets its row."""
    counts: dict = {}
    for gold_items, predicted_items in zip(gold, predicted):
        for entity_type, found in predicted_items.items():
            row = counts.get(entity_type) or counts.setdefault(entity_type, [0, 0, 0, 0])
            row[1] += len(found)
            truth = gold_items.get(entity_type)
            if truth:
                correct = len(set(found).intersection(truth))
                row[2] += correct
                row[3] += correct
        for entity_type, found in gold_items.items():
            row = counts.get(entity_type) or counts.setdefault(entity_type, [0, 0, 0, 0])
            row[0] += len(found)
    return counts


def _partial_counts(gold: list, predicted: list) -> dict:
    """``_exact_counts`` where a prediction is correct when its word-overlap F1 with a
    gold item of its sentence and type reaches 0.5, and a gold item found when some
    prediction reaches 0.5 with it."""
    similar = universalner.word_f1
    counts: dict = {}
    for gold_items, predicted_items in zip(gold, predicted):
        for entity_type in set(gold_items) | set(predicted_items):
            g, p = gold_items.get(entity_type, []), predicted_items.get(entity_type, [])
            row = counts.setdefault(entity_type, [0, 0, 0, 0])
            hit = [[isinstance(x, str) and similar(x, y) >= universalner.PARTIAL_THRESHOLD
                    for y in g] for x in p]
            correct, found = sum(map(any, hit)), sum(map(any, zip(*hit))) if hit else 0
            for k, n in enumerate((len(g), len(p), correct, found)):
                row[k] += n
    return counts


__all__ = ["score_strings", "StringScores", "StringCounts", "string_counts",
           "gold_mention_texts", "refuse_unread", "STRINGS_UNREAD"]
