"""Every input form, one dispatcher: the ``Corpus`` (or ``TrainIndex``) every family scores.

An input form is data: one ``InputForm`` record (its name, how it is recognised, its
reader) in ``FORMS``, which ``read_input`` reads in order; the first form that
recognises the references (and predictions) reads them. The built-in forms:

- ``evaluation``: an ``Evaluation`` as references (registered by ``nerspan.evaluation``);
- ``dataset``: a ``datasets`` split, predictions a column name, an Arrow or NumPy array
  or lists (``Corpus.from_dataset``);
- ``arrow``: Arrow list arrays of tag strings, or of label ids with ``label_list``, as
  evaluate hands a module's inputs over (``Corpus.from_arrow``);
- ``span_pairs``: span lists per sentence on both sides (every layout of
  ``nerspan.reading.span_lists``: token tuples, nervaluate's dicts, pipeline output);
- ``spans``: span lists on one side, tag lists (or a ``Corpus``) on the other;
- ``corpus``: a ``Corpus``; predictions another corpus, tag lists or label ids beside it;
- ``ids``: label ids with ``label_list`` (ragged lists, rows of arrays, padded 2-D
  arrays): -100 positions dropped (``Corpus.from_ids``);
- ``tags``: lists of tag strings per sentence (``Corpus.from_tags``).

Both span forms become IOB2 tags through ``nerspan.from_spans`` for every family;
faireval, which scores nested and overlapping spans as they are, asks ``input_form``
and reads ``span_pairs`` itself. One set of input options (``InputOptions``) reads every
form. A new form is one more record (``register_form``). Files (column files, JSON Lines
span files) are read by ``nerspan.reading.columns`` and ``nerspan.reading.span_lists``
into the same ``Corpus``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..arrow_columns import is_arrow
from ..corpus import Corpus
from ..errors import InputTypeError, InvalidTagError, NerspanError, shown
from ..flat import GOLD, PRED, as_label_list, side_name
from ..layers import refuse_layers
from ..records import InputOptions
from ..schemes import FALLBACK_PREFIXES, from_suffix, split_tag, to_suffix
from ..spans import tag_problem
from .span_lists import check_span_scheme, from_spans, span_sides
from ..type_processing import process_corpus


@dataclass(frozen=True)
class InputForm:
    """One input form: ``recognise(references, predictions, inputs, words)`` says whether
    the pair is in this form; ``read(references, predictions, inputs, scheme, words)``
    gives a ``Reading``. ``pairs``: predictions are read together with these references
    (they share their positions or label names), so a gold context keeps the references
    to read each system with them."""

    name: str
    recognise: Callable
    read: Callable
    doc: str
    pairs: bool = False
    tags: bool = True   # the form's labels are tags as written (``suffix`` applies)


@dataclass(frozen=True)
class Reading:
    """What ``read_input`` gives: the form, the corpus, the names of its gold and
    predicted columns, and the gold context when the references were one."""

    form: InputForm
    corpus: Corpus
    gold_column: str = GOLD
    pred_column: str = PRED
    context: object = None


def input_form(references, predictions=None, inputs: InputOptions | None = None,
               words=None) -> InputForm:
    """The first form of ``FORMS`` that recognises the pair. ``words``: other lists per
    token (POS tags) that say the sentences have words (see ``span_sides``).

    >>> input_form([["B-PER"]], [["O"]]).name, input_form([[(0, 1, "PER")]], [[]]).name
    ('tags', 'span_pairs')
    """
    inputs = inputs or InputOptions()
    return next(form for form in FORMS if form.recognise(references, predictions, inputs,
                                                         words))


def read_input(references, predictions=None, *, inputs: InputOptions | None = None,
               scheme=None, words: bool = True, form: InputForm | None = None,
               mode: str = "lenient", turned: bool = False) -> Reading:
    """The one dispatcher: the references and predictions, in whichever form, read
    into a ``Reading`` by the form's reader (``form``: one recognised already), then
    ``finished``.

    ``scheme``: the scheme the tags will be decoded with, checked against span input
    (which becomes IOB2 tags). ``words=False``: a split's token column is not read.
    ``turned``: the references are a ``Corpus`` whose tags were turned round already (an
    evaluation's gold), read with predictions written type first too.
    """
    inputs = inputs or InputOptions()
    generated = inputs.generated
    if generated.matching != "strings" and (generated.script or generated.word_overlap):
        # string matching's options, which every other reading would ignore
        raise ValueError('script and word_overlap apply to matching="strings" only '
                         '(nerspan.score of generated output as sets of strings)')
    if turned:   # back as written, to be turned round with the predictions
        references = as_written(references, inputs)
    form = form or input_form(references, predictions, inputs)
    reading = form.read(references, predictions, inputs, scheme, words)
    if reading.context is not None:  # an evaluation's corpus is read already
        return reading
    if inputs.suffix and not form.tags:
        raise InputTypeError("suffix=True reads tags written type first (PER-B); span "
                             "input has types, not tags: leave suffix out")
    columns = [c for c in (reading.gold_column, reading.pred_column)
               if c in reading.corpus.columns]
    # a gold side alone: its types are checked beside predictions
    return dataclasses.replace(reading, corpus=finished(
        reading.corpus, columns, inputs, scheme or "IOB2", mode, check=len(columns) == 2))


def finished(corpus: Corpus, columns, inputs: InputOptions, scheme="IOB2",
             mode: str = "lenient", check: bool = True) -> Corpus:
    """What follows reading, once, whatever the form: tags written type first
    (``inputs.suffix``: ``PER-B``) turned round, the only place they are, then the
    mentions of ``columns`` processed by the type options (``nerspan.type_processing``;
    ``check``: the types named must occur)."""
    if inputs.suffix:
        corpus = _turned(corpus)
    processing = inputs.types.processing
    if processing is None:
        return corpus
    return process_corpus(corpus, columns, scheme, mode, processing, check=check)


def as_written(corpus: Corpus, inputs: InputOptions) -> Corpus:
    """A ``finished`` corpus's tags back as written (``inputs.suffix``: ``PER-B``), so that
    columns read from more files join them and are ``finished`` together."""
    return _turned(corpus, undo=True) if inputs.suffix else corpus


def _turned(corpus: Corpus, undo: bool = False) -> Corpus:
    """``corpus`` with its labels (tags written type first, ``PER-B``) in the usual order
    (``B-PER``; ``nerspan.schemes.from_suffix``), or, with ``undo``, back: a change of the
    label vocabulary, the tag columns' ids stay."""
    change = to_suffix if undo else from_suffix
    turned = corpus._derive(labels=tuple(change(label) for label in corpus.labels))
    if not undo:
        _check_turned(corpus, turned)
    return turned


def _check_turned(corpus: Corpus, turned: Corpus) -> None:
    """A tag that turned round is no tag (``PER-X``) is an error naming it as written,
    its side, sentence and position: later checks would name it as read (``X-PER``)."""
    bad = [k for k, label in enumerate(turned.labels) if label != "O" and (
        tag_problem(label) or split_tag(label)[0] not in FALLBACK_PREFIXES)]
    if not bad:
        return
    for column in corpus.columns:
        mask = np.isin(corpus.column(column), bad)
        if mask.any():
            position = int(np.argmax(mask))
            sentence = int(np.searchsorted(corpus.offsets, position, side="right") - 1)
            written = corpus.labels[corpus.column(column)[position]]
            raise corpus.error(
                InvalidTagError, f"{shown(written)} (written type first, read as "
                f"{shown(from_suffix(written))}) is not a tag: expected O or TYPE-PREFIX with "
                f"a prefix among {', '.join(sorted(FALLBACK_PREFIXES))}", sentence,
                side=side_name(column), position=position - int(corpus.offsets[sentence]))


def register_form(form: InputForm, before: str | tuple | None = None) -> None:
    """Add ``form`` to ``FORMS``, before the first registered of the forms named
    ``before`` (a name or several: forms register as their modules are imported, in any
    order, so a form names every one it must precede; default: last, where only what no
    other form recognises reaches it)."""
    if any(f.name == form.name for f in FORMS):
        raise ValueError(f"an input form named {form.name!r} is registered already")
    names = (before,) if isinstance(before, str) else tuple(before or ())
    at = next((k for k, f in enumerate(FORMS) if f.name in names), len(FORMS))
    FORMS.insert(at, form)


# -- the built-in forms ------------------------------------------------------------------
def is_dataset(value) -> bool:
    """Whether ``value`` is a ``datasets.Dataset`` split (duck-typed: no import).

    The class is asked first: on a split, reading ``features`` copies them (~0.7 ms).
    """
    return all(hasattr(type(value), name) for name in _DATASET_ATTRIBUTES) \
        or all(hasattr(value, name) for name in _DATASET_ATTRIBUTES)


_DATASET_ATTRIBUTES = ("features", "column_names", "with_format")


def _read_split(split, predictions, inputs, scheme, words: bool) -> Reading:
    """A ``datasets`` split's corpus: ``tokens`` given are its words (its token column
    is then not read), else its ``tokens`` column if it has one and ``words`` are wanted."""
    if inputs.label_list is not None:
        check_split_labels(split, inputs.label_list)
    column = "tokens" if words and inputs.tokens is None and \
        "tokens" in split.column_names else None
    corpus = Corpus.from_dataset(split, tokens_column=column, predictions=predictions)
    return Reading(DATASET, _with_words(corpus, inputs))


def check_split_labels(split, label_list) -> None:
    """``label_list`` given with a split must be the names of its ClassLabel tags: its
    ids, and the predicted ids, are read with those names."""
    feature = split.features.get("ner_tags")
    names = getattr(getattr(feature, "feature", None), "names", None)
    labels = as_label_list(label_list)
    if names is not None and tuple(names) != labels:
        raise InputTypeError(f"label_list {shown(list(labels)[:10])} is not the split's "
                             f"ClassLabel names {shown(list(names)[:10])}, with which its "
                             "ids and the predicted ids are read")


def _span_sides(references, predictions, inputs, words) -> tuple:
    """Which sides are span lists; never with ``label_list`` (ids are no spans)."""
    if inputs.label_list is not None or is_dataset(references):
        return False, False
    return span_sides(references, predictions, inputs, words)


def _read_spans(form_name: str):
    def read(references, predictions, inputs, scheme, words) -> Reading:
        if scheme is not None:
            check_span_scheme(scheme)
        return Reading(FORM_NAMED[form_name], from_spans(references, predictions,
                                                         inputs=inputs))
    return read


def _read_corpus(corpus: Corpus, predictions, inputs, scheme, words) -> Reading:
    """A ``Corpus`` alone (its columns named by the options) or with predictions beside
    it (another corpus, tag lists or label ids): then columns ``gold`` and ``pred``."""
    if predictions is None:
        return Reading(CORPUS, _with_words(corpus, inputs), inputs.gold_column,
                       inputs.pred_column)
    refuse_layers(corpus, GOLD, "scoring predictions given beside a Corpus")
    if isinstance(predictions, Corpus):
        other = predictions.select([PRED if PRED in predictions.columns else GOLD])
    else:
        other = _predictions_alone(predictions, inputs.label_list)
    paired = corpus.paired(GOLD, None).with_columns(other, {GOLD: PRED})
    return Reading(CORPUS, _with_words(paired, inputs))


def _predictions_alone(predictions, label_list) -> Corpus:
    """Predictions given beside a ``Corpus``, as a corpus of their own (its gold
    column); errors name the predictions, not the references."""
    try:
        if label_list is not None:
            return Corpus.from_ids(predictions, label_list=label_list)
        return Corpus.from_tags(predictions)
    except NerspanError as error:
        if error.side == side_name(GOLD):
            raise error.on_side(side_name(PRED)) from None
        raise


def _read_ids(references, predictions, inputs, scheme, words) -> Reading:
    return Reading(IDS, Corpus.from_ids(references, predictions, inputs.label_list,
                                        inputs.tokens))


def _read_arrow(references, predictions, inputs, scheme, words) -> Reading:
    return Reading(ARROW, Corpus.from_arrow(references, predictions, inputs.tokens,
                                            inputs.label_list))


def _read_tags(references, predictions, inputs, scheme, words) -> Reading:
    return Reading(TAGS, Corpus.from_tags(references, predictions, inputs.tokens))


def _with_words(corpus: Corpus, inputs) -> Corpus:
    return corpus if inputs.tokens is None else corpus.with_tokens(inputs.tokens)


DATASET = InputForm(
    "dataset", lambda r, p, inputs, words: is_dataset(r), _read_split,
    "a datasets split (ClassLabel or tag-string ner_tags); predictions a column name, "
    "an Arrow or NumPy array, or lists", pairs=True)
ARROW = InputForm(
    "arrow", lambda r, p, inputs, words: is_arrow(r), _read_arrow,
    "Arrow list arrays (pyarrow: what evaluate hands a module) of tag strings, or of label "
    "ids with label_list; predictions an Arrow array or lists, tokens too", pairs=True)
SPAN_PAIRS = InputForm(
    "span_pairs", lambda r, p, inputs, words: p is not None
    and _span_sides(r, p, inputs, words) == (True, True), _read_spans("span_pairs"),
    "span lists per sentence on both sides, in any layout (token tuples, nervaluate "
    "dicts, pipeline output)", tags=False)
SPANS = InputForm(
    "spans", lambda r, p, inputs, words: True in _span_sides(r, p, inputs, words),
    _read_spans("spans"), "span lists on one side, tags (or a Corpus) on the other",
    tags=False)
CORPUS = InputForm(
    "corpus", lambda r, p, inputs, words: isinstance(r, Corpus), _read_corpus,
    "a Corpus; predictions another corpus, tag lists or label ids beside it")
IDS = InputForm(
    "ids", lambda r, p, inputs, words: inputs.label_list is not None, _read_ids,
    "label ids with label_list (lists, rows of arrays, padded 2-D arrays); -100 "
    "positions dropped", pairs=True)
TAGS = InputForm(
    "tags", lambda r, p, inputs, words: True, _read_tags, "lists of tag strings per sentence")
# In order: the first that recognises the input reads it (tags take what is left).
FORMS = [DATASET, ARROW, SPAN_PAIRS, SPANS, CORPUS, IDS, TAGS]
FORM_NAMED = {form.name: form for form in FORMS}


__all__ = ["as_written", "InputForm", "Reading", "FORMS", "FORM_NAMED", "input_form", "read_input",
           "finished", "register_form", "is_dataset", "check_split_labels"]
