"""The gold context: one gold corpus, decoded and classified once, scored many times.

A ``GoldContext`` holds the evaluation corpus (its gold column and tokens), the scheme,
mode and label table, the gold spans decoded once, the training index (optional), and a
keyed cache in which each family keeps its training-based classification of the gold
side (tough_mentions' subsets, hardeval's token classes, attribute_buckets' attribute
values of gold mentions). Any number of systems is then scored against it by any family:
every family's ``score`` takes a context as ``references``.

>>> context = GoldContext.build([["B-PER", "I-PER", "O"]], tokens=[["Ada", "Byron", "ran"]])
>>> corpus, gold, pred = context.scoring_corpus([["B-PER", "O", "B-LOC"]])
>>> corpus.tags(pred, 0), [len(context.gold), context.gold_decodes]
(['B-PER', 'O', 'B-LOC'], [1, 1])
>>> context.gold_spans(LabelTable.build(corpus.labels, get_scheme("IOB2"))).types
('LOC', 'PER')
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np

from .corpus import Corpus
from .errors import InputTypeError
from .flat import GOLD, PRED
from .input_options import InputOptions, input_options
from .reading.forms import CORPUS, InputForm, Reading, as_train_index, input_form, read_input, \
    register_form, suffixed
from .schemes import check_mode, get_scheme
from .spans import LabelTable, Spans, decode
from .train_index import TrainIndex
from .type_processing import TypeProcessing


class GoldContext:
    """The gold side of an evaluation, built once (see the module docstring).

    Attributes:
        corpus: the evaluation corpus; ``gold_column`` names its gold column (it may hold
            system columns too: the report's corpus does).
        scheme, mode: how tags are decoded (as given: families echo them in ``options``).
        table: the ``LabelTable`` of ``corpus.labels``.
        train: the ``TrainIndex``, or None.
        inputs: the ``InputOptions`` the gold was read with; they also read the
            predictions scored against the context, unless the scoring call gives others.
        gold_decodes: how many times the gold column was decoded (1 after first use).
        pred_decodes: system column -> how many times it was decoded (1 after first use:
            ``predicted`` keeps it for every family).
    """

    def __init__(self, corpus: Corpus, scheme: str = "IOB2", mode: str = "lenient",
                 train: TrainIndex | None = None, gold_column: str = GOLD, *,
                 source: tuple | None = None, inputs: InputOptions | None = None):
        if not isinstance(corpus, Corpus):
            raise InputTypeError("GoldContext needs a Corpus; build one from any input "
                                 "form with GoldContext.build(...)")
        corpus.column(gold_column)  # a clear KeyError for a missing column
        self.corpus, self.gold_column = corpus, gold_column
        self.scheme, self.mode, self.train = scheme, mode, train
        self.inputs = (inputs or InputOptions()).replace(gold_column=gold_column)
        self._table: LabelTable | None = None
        self.gold_decodes = 0
        self._gold: Spans | None = None
        self.pred_decodes: dict = {}
        self._predicted: dict = {}
        self._derived: dict = {}
        # (input form, references as given): a form that reads predictions together
        # with its references (label ids, a split) reads every system with them
        self._source = source

    # -- building ------------------------------------------------------------------------
    @classmethod
    @input_options
    def build(cls, references, *, scheme: str = "IOB2", mode: str = "lenient", train=None,
              train_tokens=None, train_tags=None, train_options: dict | None = None,
              inputs) -> "GoldContext":
        """A context from any gold input form: tag lists, label ids with ``label_list``
        (-100 positions dropped), a ``Corpus`` (its column ``gold_column``), a ``datasets``
        split, or span lists. Training data as every family's ``score`` takes it
        (``train``, or ``train_tokens`` + ``train_tags``; ``train_options`` to read a file
        or split); without any, the context has no training index.

        Args:
            references: the gold side, in any form above.
        """
        if isinstance(references, GoldContext):
            return references
        reading = read_input(references, None, inputs=inputs, scheme=scheme, mode=mode)
        source = (reading.form, references) if reading.form.pairs else None
        index = None
        if train is not None or train_tokens is not None:
            index = as_train_index(train, scheme, mode, train_tags=train_tags,
                                   train_tokens=train_tokens,
                                   types=TypeProcessing.of_options(inputs),
                                   **(train_options or {}))
        return cls(reading.corpus, scheme, mode, index, reading.gold_column, source=source,
                   inputs=inputs)

    # -- the gold side, once -------------------------------------------------------------
    @property
    def table(self) -> LabelTable:
        """The ``LabelTable`` of the corpus's labels under the scheme (built once)."""
        if self._table is None:
            self._table = LabelTable.build(self.corpus.labels, get_scheme(self.scheme))
        return self._table

    @property
    def gold(self) -> Spans:
        """The gold spans, decoded on first use (with ``table``), then kept."""
        if self._gold is None:
            self._gold = decode(self.corpus, self.gold_column, self.scheme, self.mode,
                                self.table)
            self.gold_decodes += 1
        return self._gold

    def gold_spans(self, table: LabelTable | None = None) -> Spans:
        """The gold spans with type ids of ``table`` (the table of a scoring corpus whose
        predictions may add labels and so types): the same mentions, renumbered."""
        return in_table(self.gold, table)

    # -- the prediction side, once per system ---------------------------------------------
    def predicted(self, column: str, table: LabelTable | None = None) -> Spans:
        """The spans of the system column ``column`` of the context's corpus, decoded on
        first use (the context's scheme, mode and table) and kept: every family scoring
        that system reads these, so a report decodes each system once. In the type ids
        of ``table`` when given (as ``gold_spans``)."""
        if column == self.gold_column:
            return self.gold_spans(table)
        if column not in self._predicted:
            self._predicted[column] = decode(self.corpus, column, self.scheme, self.mode,
                                             self.table)
            self.pred_decodes[column] = self.pred_decodes.get(column, 0) + 1
        return in_table(self._predicted[column], table)

    def pred_spans(self, corpus: Corpus, column: str, table: LabelTable | None = None
                   ) -> Spans:
        """The predictions ``column`` of a scoring ``corpus`` (``scoring_corpus``) decoded
        with the context's scheme and mode: kept (``predicted``) when ``corpus`` is the
        context's own, decoded here when it is one built for predictions given apart."""
        if corpus is self.corpus:
            return self.predicted(column, table)
        return decode(corpus, column, self.scheme, self.mode, table)

    def derived(self, key, build):
        """``build()``'s value, built on first use for ``key`` and kept: where each family
        keeps its classification of the gold side (``key`` names family and options)."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]

    def check(self, scheme=None, mode=None, train=None) -> None:
        """Refuse explicit values that contradict the context's scheme, mode or index."""
        for name, given, own in (("scheme", scheme, self.scheme), ("mode", mode, self.mode)):
            if given is not None and get_name(name, given) != get_name(name, own):
                raise ValueError(f"{name}={given!r} conflicts with the gold context's "
                                 f"{name} {own!r}: build the context with it, or omit it")
        if train is not None and self.train is not None and train is not self.train \
                and not (isinstance(train, TrainIndex) and train is self.train):
            raise ValueError("train conflicts with the gold context's training index: give "
                             "the training data when building the context, not to score")

    def index(self, train=None, train_tokens=None, train_tags=None,
              train_options: dict | None = None) -> TrainIndex | None:
        """The context's training index, or one built from the given training data when
        the context has none (it is then kept)."""
        self.check(train=train)
        if self.train is not None and (train_tokens is not None or train_tags is not None):
            raise ValueError("train_tokens/train_tags conflict with the gold context's "
                             "training index: give the training data when building the "
                             "context, not to score")
        if self.train is None and (train is not None or train_tokens is not None):
            self.train = as_train_index(train, self.scheme, self.mode, train_tags=train_tags,
                                        train_tokens=train_tokens, suffix=self.inputs.suffix,
                                        types=TypeProcessing.of_options(self.inputs),
                                        **(train_options or {}))
        return self.train

    # -- systems -------------------------------------------------------------------------
    @input_options
    def scoring_corpus(self, predictions=None, *, inputs) -> tuple[Corpus, str, str]:
        """``(corpus, gold column, pred column)`` to score a system against this gold.

        ``predictions`` in any accepted form (tag lists, label ids as the gold was given,
        a ``Corpus``, span lists, for a ``datasets`` context a column name or array), or
        None to score the column ``pred_column`` of the context's corpus. The context's
        input options read them, with those given here put over them. New labels of
        the predictions are appended to the label list: gold ids keep their meaning, and
        ``gold_spans(table)`` gives the gold in the new table's type ids.

        Args:
            predictions: the system's side, or None (see above).
        """
        inputs = inputs.over(self.inputs)
        if inputs.gold_column != self.gold_column:
            raise ValueError(f"gold_column={inputs.gold_column!r} conflicts with the gold "
                             f"context's gold column {self.gold_column!r}")
        if predictions is None or (isinstance(predictions, str)
                                   and predictions in self.corpus.columns):
            column = inputs.pred_column if predictions is None else predictions
            if column not in self.corpus.columns:
                raise ValueError(f"no predictions: pass predictions=... or score a corpus "
                                 f"with a {column!r} column (it has {list(self.corpus.columns)})")
            return self.corpus, self.gold_column, column
        other = self._prediction_corpus(predictions, inputs)
        # gold as GOLD: a gold column named "pred" is not the predictions' column
        corpus = self.gold_corpus().with_columns(other, {GOLD: PRED, PRED: PRED})
        return corpus, GOLD, PRED

    def gold_corpus(self) -> Corpus:
        """The corpus with the gold column alone, named ``GOLD``."""
        return self.corpus.paired(self.gold_column, None)

    def _prediction_corpus(self, predictions, inputs: InputOptions) -> Corpus:
        """The predictions as a one-column corpus (column ``pred``), read by the input
        form that recognises them beside the gold corpus, or, for label ids and a split's
        predictions, together with the references they were given with."""
        form, references = self._source or (None, None)
        gold = self.gold_corpus()
        if gold.tokens is not None:  # the gold's words are the context's: not read again
            inputs = inputs.replace(tokens=None)
        beside = input_form(gold, predictions, inputs)
        if beside is CORPUS and form is not None and not isinstance(predictions, Corpus):
            return read_input(references, predictions, inputs=inputs, words=False,
                              form=form).corpus.select([PRED])
        if beside is CORPUS and inputs.label_list is not None:
            raise InputTypeError("label ids need a gold context built from label ids with "
                                 "label_list (GoldContext.build(ids, label_list=...))")
        if isinstance(predictions, (str, os.PathLike)):
            raise InputTypeError(f"predictions {predictions!r}: not a column of the gold "
                                 f"context's corpus ({list(self.corpus.columns)})")
        if inputs.suffix:  # read_input turns the labels around again, the gold's too
            gold = suffixed(gold, undo=True)
        return read_input(gold, predictions, inputs=inputs, scheme=self.scheme,
                          form=beside, mode=self.mode).corpus.select([PRED])


def in_table(spans: Spans, table: LabelTable | None) -> Spans:
    """``spans`` with the type ids of ``table`` (which has every type of ``spans``): the
    same mentions, renumbered; as they are when the types agree."""
    if table is None or table.types == spans.types:
        return spans
    index = {t: i for i, t in enumerate(table.types)}
    remap = np.array([index[t] for t in spans.types] or [0], dtype=spans.type.dtype)
    return dataclasses.replace(spans, type=remap[spans.type] if len(spans) else spans.type,
                               types=table.types)


def get_name(option: str, value) -> str:
    """The canonical spelling of a scheme (``iob2`` -> ``IOB2``) or a mode."""
    return get_scheme(value).name if option == "scheme" else check_mode(value)


@input_options
def resolve(references, predictions=None, *, scheme=None, mode=None, train=None,
            inputs) -> tuple[GoldContext, Corpus, str, str]:
    """What a family's ``score`` works on: ``(context, corpus, gold column, pred column)``.

    ``references`` may be a ``GoldContext`` (explicit ``scheme``, ``mode`` or ``train``
    must then agree with it; None = not given) or any input form, from which a context
    is built around the corpus exactly as ``as_corpus_columns`` builds it. The training
    index is not built here: the family asks ``context.index(...)`` when it needs it.

    Args:
        references, predictions: the two sides (see above).
        scheme, mode, train: the family's, or None (not given).
    """
    if predictions is None and not isinstance(references, (Corpus, GoldContext)):
        raise InputTypeError("predictions is None: pass the predicted tags (a list per "
                             "sentence), or a Corpus with a pred column as references")
    reading = read_input(references, predictions, inputs=inputs, scheme=scheme,
                         mode=mode or "lenient")
    if reading.context is not None:
        reading.context.check(mode=mode, train=train)
        return reading.context, reading.corpus, reading.gold_column, reading.pred_column
    context = GoldContext(reading.corpus, scheme or "IOB2", mode or "lenient",
                          train if isinstance(train, TrainIndex) else None,
                          reading.gold_column, inputs=inputs)
    return context, reading.corpus, reading.gold_column, reading.pred_column


def _read_context(context: GoldContext, predictions, inputs, scheme, words) -> Reading:
    """A gold context's corpus with the system ``predictions`` (``scoring_corpus``);
    its ``scheme`` (when given) must be the context's (``resolve`` checks the rest)."""
    context.check(scheme)
    corpus, gold_column, pred_column = context.scoring_corpus(predictions, inputs=inputs)
    return Reading(CONTEXT, corpus, gold_column, pred_column, context)


CONTEXT = InputForm(
    "context", lambda r, p, inputs, words: isinstance(r, GoldContext), _read_context,
    "a GoldContext as references (gold decoded and classified once): the predictions "
    "are read as it reads them")
register_form(CONTEXT, before="dataset")


__all__ = ["GoldContext", "resolve"]
