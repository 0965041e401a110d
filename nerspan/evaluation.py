"""The evaluation: gold, the systems, the training index and the input options, built once.

An ``Evaluation`` holds the evaluation corpus (its gold column and one column per
system), the scheme, mode and label table, the training index (optional) and the input
options (``nerspan.InputOptions``) it was read with. What several families share is
computed once and kept: the gold spans, each system's spans (``spans``), its entity
scores (``entity_scores``) and its entity confusion matrix (``confusion``, the one place
the matrix is computed); each family keeps its training-based classification of the
gold side in ``derived`` (tough_mentions' subsets, hardeval's token classes,
attribute_buckets' attribute values). Every family's ``score`` takes an evaluation as
``references`` and a system's name as ``predictions`` (or predictions in any form, read
as the gold was).

>>> evaluation = Evaluation.build([["B-PER", "I-PER", "O"]], [["B-PER", "O", "B-LOC"]],
...                               tokens=[["Ada", "Byron", "ran"]])
>>> evaluation.systems, evaluation.entity_scores("pred").micro()
(('pred',), (0.0, 0.0, 0.0))
>>> evaluation.confusion("pred")["confusion"]   # PER: a boundary error, apart
{'O': {'LOC': 1}}
>>> evaluation.spans("pred").types, [evaluation.gold_decodes, evaluation.pred_decodes]
(('LOC', 'PER'), [1, {'pred': 1}])
"""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping

from .confusion import confusion_cells, confusion_dict
from .corpus import Corpus
from .errors import InputTypeError
from .flat import GOLD, PRED
from .layers import LayeredSpans, decode_layers, in_types, own_columns, refuse_layers
from .migration import migrated, moved_names
from .reading.forms import CORPUS, InputForm, Reading, input_form, read_input, register_form
from .reading.training import as_train_index
from .records import InputOptions
from .schemes import check_mode, get_scheme
from .scores import EntityScores, entity_scores
from .spans import LabelTable, Spans
from .train_index import TrainIndex


class Evaluation:
    """Gold and the systems of one evaluation, built once (see the module docstring).

    Attributes:
        corpus: the evaluation corpus; ``gold_column`` names its gold column, the other
            columns are the systems (``systems``).
        scheme, mode: how tags are decoded (as given: families echo them in ``options``).
        table: the ``LabelTable`` of ``corpus.labels``.
        train: the ``TrainIndex``, or None.
        inputs: the ``InputOptions`` the gold was read with; they also read predictions
            scored against the evaluation, unless the scoring call gives others.
        gold_decodes: how many times the gold column was decoded (1 after first use).
        pred_decodes: system -> how many times it was decoded (1 after first use).
    """

    def __init__(self, corpus: Corpus, scheme: str = "IOB2", mode: str = "lenient",
                 train: TrainIndex | None = None, gold_column: str = GOLD, *,
                 source: tuple | None = None, inputs: InputOptions | None = None):
        if not isinstance(corpus, Corpus):
            raise InputTypeError("Evaluation needs a Corpus; build one from any input "
                                 "form with Evaluation.build(...)")
        if gold_column not in corpus.columns:
            corpus.column(gold_column)  # a clear KeyError
        self.corpus, self.gold_column = corpus, gold_column
        self.scheme, self.mode, self.train = scheme, mode, train
        self.inputs = InputOptions.of(inputs).replace(gold_column=gold_column)
        self._table: LabelTable | None = None
        self.gold_decodes = 0
        self._gold: LayeredSpans | None = None
        self.pred_decodes: dict = {}
        self._kept: dict = {}      # (what, system) -> layers, scores, cells, matrix
        self._derived: dict = {}
        # (input form, references as given): a form that reads predictions together
        # with its references (label ids, a split) reads every system with them
        self._source = source

    # -- building ------------------------------------------------------------------------
    @classmethod
    @migrated
    def build(cls, references, predictions=None, *, tokens=None, train=None,
              scheme: str = "IOB2", mode: str = "lenient", label_list=None,
              inputs=None) -> "Evaluation":
        """An evaluation from any gold input form: tag lists, label ids with
        ``label_list`` (-100 positions dropped), a ``Corpus`` (its column
        ``gold_column``; its other columns are systems), a ``datasets`` split, or span
        lists; ``predictions``: one system (column ``pred``) in any form, read with the
        gold, or None. ``train``: training data in any form (``as_train_index``);
        without it, the evaluation has no training index. ``inputs``: the other input
        options (``nerspan.InputOptions``, or a dict of them)."""
        if isinstance(references, Evaluation):
            return references
        inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
        if predictions is None and isinstance(references, Corpus):
            reading = read_input(references, None, inputs=inputs, scheme=scheme, mode=mode)
            corpus = reading.corpus
        else:
            reading = read_input(references, predictions, inputs=inputs, scheme=scheme,
                                 mode=mode)
            columns = [reading.gold_column] + ([reading.pred_column]
                                               if predictions is not None else [])
            corpus = reading.corpus.select(columns)
        source = (reading.form, references) if reading.form.pairs else None
        index = None if train is None else as_train_index(train, scheme, mode, inputs=inputs)
        return cls(corpus, scheme, mode, index, reading.gold_column, source=source,
                   inputs=inputs)

    @property
    def systems(self) -> tuple:
        """The system columns: every column of the corpus but gold's."""
        return tuple(c for c in own_columns(self.corpus) if c != self.gold_column)

    # -- the gold side, once -------------------------------------------------------------
    @property
    def table(self) -> LabelTable:
        """The ``LabelTable`` of the corpus's labels under the scheme (built once)."""
        if self._table is None:
            self._table = LabelTable.build(self.corpus.labels, get_scheme(self.scheme))
        return self._table

    @property
    def gold(self) -> Spans:
        """The gold spans, decoded on first use (with ``table``), then kept; when gold
        has layers (``nerspan.layers``), every layer's mentions (they may nest)."""
        return self.layers(self.gold_column).union

    def layers(self, column: str) -> LayeredSpans:
        """The gold column's or a system's layers decoded (``decode_layers``: ``union``,
        ``layers``, ``merged``), on first use, then kept: ``gold`` and ``spans`` are
        their union, and what scores a layer on its own reads them here."""
        if column != self.gold_column:
            return self._keep("layers", column, self._decoded)
        if self._gold is None:
            self._gold = decode_layers(self.corpus, self.gold_column, self.scheme, self.mode,
                                       self.table)
            self.gold_decodes += 1
        return self._gold

    def with_decoded(self, decoded: Mapping) -> Evaluation:
        """The evaluation, given columns decoded already (column -> ``Spans`` of one
        layer, or ``LayeredSpans``, in ``table``'s type ids: what decoding the column here
        gives, such as another evaluation's decoding of the same tags): they are not
        decoded again. Columns decoded here already keep their decoding."""
        for column, spans in decoded.items():
            layered = spans if isinstance(spans, LayeredSpans) else \
                LayeredSpans(spans, (spans,), 0)
            if column == self.gold_column and self._gold is None:
                self._gold = layered
            elif column != self.gold_column:
                self._kept.setdefault(("layers", column), layered)
        return self

    def gold_spans(self, table: LabelTable | None = None) -> Spans:
        """The gold spans with type ids of ``table`` (the table of a scoring corpus whose
        predictions may add labels and so types): the same mentions, renumbered."""
        return in_table(self.gold, table)

    # -- each system, once ---------------------------------------------------------------
    def spans(self, system: str, table: LabelTable | None = None) -> Spans:
        """The spans of the system column ``system``, decoded on first use and kept:
        every family scoring that system reads these, so a report decodes each system
        once. In the type ids of ``table`` when given (as ``gold_spans``)."""
        if system == self.gold_column:
            return self.gold_spans(table)
        return in_table(self.layers(system).union, table)

    def entity_scores(self, system: str) -> EntityScores:
        """nerspan's entity scores of ``system`` (precision, recall, F1 per type), kept."""
        return self._keep("scores", system,
                          lambda s: entity_scores(self.gold, self.spans(s)))

    def confusion_cells(self, system: str) -> tuple:
        """``nerspan.confusion.confusion_cells`` of gold and ``system``, kept."""
        refuse_layers(self.corpus, self.gold_column, "the entity confusion matrix")
        return self._keep("cells", system,
                          lambda s: confusion_cells(self.gold, self.spans(s)))

    def confusion(self, system: str) -> dict:
        """The entity confusion matrix of ``system`` (``{"confusion", "boundary_errors"}``,
        ``nerspan.confusion``), computed once: what the report, the command line and the
        evaluate modules add to a system's results."""
        return self._keep("confusion", system, lambda s: confusion_dict(
            self.gold, self.spans(s), self.confusion_cells(s)))

    def _keep(self, what: str, system: str, build):
        key = (what, system)
        if key not in self._kept:
            self._kept[key] = build(system)
        return self._kept[key]

    def _decoded(self, system: str) -> LayeredSpans:
        if system not in self.corpus.columns:
            raise KeyError(f"no system {system!r} (the evaluation has {list(self.systems)})")
        self.pred_decodes[system] = self.pred_decodes.get(system, 0) + 1
        return decode_layers(self.corpus, system, self.scheme, self.mode, self.table)

    def pred_spans(self, corpus: Corpus, column: str, table: LabelTable | None = None
                   ) -> Spans:
        """The predictions ``column`` of a scoring ``corpus`` (``scoring_corpus``) decoded
        with the evaluation's scheme and mode: kept (``spans``) when ``corpus`` is the
        evaluation's own, decoded here when it is one built for predictions given apart."""
        if corpus is self.corpus:
            return self.spans(column, table)
        return decode_layers(corpus, column, self.scheme, self.mode, table).union

    def derived(self, key, build):
        """``build()``'s value, built on first use for ``key`` and kept: where each family
        keeps its classification of the gold side (``key`` names family and options)."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]

    def check(self, scheme=None, mode=None, train=None) -> None:
        """Refuse explicit values that contradict the evaluation's scheme, mode or index."""
        for name, given, own in (("scheme", scheme, self.scheme), ("mode", mode, self.mode)):
            if given is not None and get_name(name, given) != get_name(name, own):
                raise ValueError(f"{name}={given!r} conflicts with the evaluation's "
                                 f"{name} {own!r}: build the evaluation with it, or omit it")
        if train is not None and self.train is not None and train is not self.train:
            raise ValueError("train conflicts with the evaluation's training index: give "
                             "the training data when building the evaluation, not to score")

    def index(self, train=None) -> TrainIndex | None:
        """The evaluation's training index, or one built from ``train`` (any form of
        ``as_train_index``) when it has none (it is then kept)."""
        self.check(train=train)
        if self.train is None and train is not None:
            self.train = as_train_index(train, self.scheme, self.mode, inputs=self.inputs)
        return self.train

    # -- predictions given apart ---------------------------------------------------------
    def scoring_corpus(self, predictions=None, *, inputs=None) -> tuple[Corpus, str, str]:
        """``(corpus, gold column, pred column)`` to score a system against this gold.

        ``predictions``: a system's name (a column of the corpus), None (the column
        ``pred_column`` of ``inputs``), or predictions in any form (tag lists, label ids
        as the gold was given, a ``Corpus``, span lists, for a ``datasets`` evaluation a
        column name or array), read with the evaluation's input options, those of
        ``inputs`` put over them. New labels of the predictions are appended to the
        label list: gold ids keep their meaning, and ``gold_spans(table)`` gives the gold
        in the new table's type ids."""
        inputs = InputOptions.of(inputs).over(self.inputs)
        if inputs.gold_column != self.gold_column:
            raise ValueError(f"gold_column={inputs.gold_column!r} conflicts with the "
                             f"evaluation's gold column {self.gold_column!r}")
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
        if gold.mentions(GOLD) is not None:  # its sentences and words read predictions;
            # its table (mentions that tags cannot hold) stays the evaluation's
            gold = gold.with_source(dataclasses.replace(gold.source, mentions={}))
        if gold.tokens is not None:  # the gold's words are the evaluation's: not read again
            inputs = inputs.replace(tokens=None)
        beside = input_form(gold, predictions, inputs)
        if beside is CORPUS and form is not None and not isinstance(predictions, Corpus):
            return read_input(references, predictions, inputs=inputs.over(self.inputs),
                              words=False, form=form).corpus.select([PRED])
        if beside is CORPUS and inputs.label_list is not None:
            raise InputTypeError("label ids need an evaluation built from label ids with "
                                 "label_list (Evaluation.build(ids, label_list=...))")
        if isinstance(predictions, (str, os.PathLike)):
            raise InputTypeError(f"predictions {predictions!r}: not a column of the "
                                 f"evaluation's corpus ({list(self.corpus.columns)})")
        # the gold's tags were turned round when it was read: read_input turns them back
        # to read them with the predictions
        return read_input(gold, predictions, inputs=inputs, scheme=self.scheme,
                          form=beside, mode=self.mode,
                          turned=self.inputs.suffix and inputs.suffix).corpus.select([PRED])


def in_table(spans: Spans, table: LabelTable | None) -> Spans:
    """``spans`` with the type ids of ``table`` (which has every type of ``spans``): the
    same mentions, renumbered; as they are when the types agree."""
    return spans if table is None else in_types(spans, table.types)


def get_name(option: str, value) -> str:
    """The canonical spelling of a scheme (``iob2`` -> ``IOB2``) or a mode."""
    return get_scheme(value).name if option == "scheme" else check_mode(value)


def resolve(references, predictions=None, *, scheme=None, mode=None, train=None,
            inputs: InputOptions | None = None, words: bool = True,
            layered: bool = False, tables: bool = False
            ) -> tuple[Evaluation, Corpus, str, str]:
    """What a family's ``score`` works on: ``(evaluation, corpus, gold column, pred
    column)``.

    ``references`` may be an ``Evaluation`` (explicit ``scheme``, ``mode`` or ``train``
    must then agree with it; None = not given), with ``predictions`` a system's name or
    predictions in any form, or any input form, from which an evaluation is built around
    the corpus read (``words=False``: a split's token column is not read). The training
    index is not built here: the family asks ``evaluation.index(train)`` when it needs
    it. ``layered``: the caller scores gold with layers (``nerspan.layers``); otherwise
    such gold is refused, naming the option (never read as its first layer alone). A
    side whose spans nest or overlap (``Corpus.mentions``) is a ``SpanShapeError``
    unless ``tables`` says the caller scores such tables (entity scores): a family that
    reads tags refuses them here, before reading anything."""
    inputs = InputOptions.of(inputs)
    if not layered:
        for given in (references, getattr(references, "corpus", None)):
            if isinstance(given, Corpus):
                refuse_layers(given, getattr(references, "gold_column", inputs.gold_column))
    if predictions is None and not isinstance(references, (Corpus, Evaluation)):
        raise InputTypeError("predictions is None: pass the predicted tags (a list per "
                             "sentence), or a Corpus with a pred column as references")
    reading = read_input(references, predictions, inputs=inputs, scheme=scheme,
                         mode=mode or "lenient", words=words)
    if not tables:
        for column in (reading.gold_column, reading.pred_column):
            reading.corpus.column(column)   # a SpanShapeError if tags cannot hold it
    if reading.context is not None:
        reading.context.check(mode=mode, train=train)
        return reading.context, reading.corpus, reading.gold_column, reading.pred_column
    evaluation = Evaluation(reading.corpus, scheme or "IOB2", mode or "lenient",
                            train if isinstance(train, TrainIndex) else None,
                            reading.gold_column, inputs=inputs)
    return evaluation, reading.corpus, reading.gold_column, reading.pred_column


def _read_evaluation(evaluation: Evaluation, predictions, inputs, scheme, words) -> Reading:
    """An evaluation's corpus with the system ``predictions`` (``scoring_corpus``); its
    ``scheme`` (when given) must be the evaluation's (``resolve`` checks the rest)."""
    evaluation.check(scheme)
    corpus, gold_column, pred_column = evaluation.scoring_corpus(predictions, inputs=inputs)
    return Reading(EVALUATION, corpus, gold_column, pred_column, evaluation)


EVALUATION = InputForm(
    "evaluation", lambda r, p, inputs, words: isinstance(r, Evaluation), _read_evaluation,
    "an Evaluation as references (gold decoded and classified once): predictions a "
    "system's name, or predictions read as it reads them")
register_form(EVALUATION, before=("scored", "generated", "dataset"))

__getattr__ = moved_names(__name__, {"GoldContext": "nerspan.Evaluation"})

__all__ = ["Evaluation", "resolve", "in_table", "EVALUATION"]
