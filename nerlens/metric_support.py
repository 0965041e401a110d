"""Support for the evaluate loading scripts in ``metrics/``: options, training data, tokens,
label ids with ``label_list``.

evaluate passes the keyword arguments of ``evaluate.load(path, **kwargs)`` to the module's
``__init__`` and swallows them unless the class takes them; these mixins take the family's
options, the training data and the evaluation tokens there, index the training data once,
and let ``compute(...)`` override any of them. They are mixins, not ``EvaluationModule``
subclasses, so that evaluate still finds the script's own metric class first.

What evaluate costs a module is kept to what it must do. It encodes every input into an
Arrow cache before ``_compute`` runs; it is asked to hand the columns over as they are
stored (``format="arrow"``), and tag strings (or label ids with ``label_list``) on both
sides, with their tokens, are read through their Arrow buffers (``read_columns``,
nerspan's ``arrow`` input form): no Python list is decoded per sentence, no string per
tag. Other forms (span dicts, generated output) are decoded to lists, as evaluate would.
Python's garbage collector is paused while a batch is added and computed
(``collector_paused``): its passes over the objects evaluate makes while encoding took
about half of a compute's time. ``benchmarks/bench_evaluate.py`` times each module
against its family's ``score`` and a no-op module with the same features.
"""
from __future__ import annotations

import gc
import numbers
import warnings
from collections.abc import Mapping
from contextlib import contextmanager

import datasets

from nerspan import (PRED, InputOptions, InputTypeError, InvalidTagError, TrainIndex,
                     as_train_index)
from nerspan.arrow_columns import is_arrow, list_column
from nerspan.evaluation import resolve
from nerspan.corpus import as_sentences
from nerspan.errors import shown
from nerspan.generative.form import is_generated
from nerspan.migration import moved_keyword_text
from nerspan.reading.answers import Answers
from nerspan.reading.training import TRAIN_FORMS
from nerspan.records import OLD_SPELLINGS, ScoringOptions

from .families import get_family, result_dict, result_dicts

# generated output scored as strings: nerspan.score's, no family's
STRING_MATCHING = ("script", "word_overlap")
# The span dict layouts of nerspan.reading.span_lists: nervaluate's, and a token-classification
# pipeline's output with and without aggregation. evaluate needs a dict's keys to be
# exactly those of its feature, so each layout is its own feature.
_STRING, _INT, _FLOAT = datasets.Value("string"), datasets.Value("int64"), datasets.Value("float64")
SPAN_LAYOUTS = (
    {"label": _STRING, "start": _INT, "end": _INT},
    {"entity_group": _STRING, "score": _FLOAT, "word": _STRING, "start": _INT, "end": _INT},
    {"entity": _STRING, "score": _FLOAT, "index": _INT, "word": _STRING, "start": _INT,
     "end": _INT},
)


# Generated output per sentence, on the prediction side: an LLM's response (a string:
# JSON, inline markup, prose) or its entities as {"text", "type"} dicts. Grounding needs
# the sentence's words: a ``tokens`` input travels with it unless given at load time.
GENERATED_FORMS = (_STRING, datasets.List({"text": _STRING, "type": _STRING}))

# Per-example inputs besides the tags: lists per sentence, one item per token.
PER_TOKEN = {"tokens": datasets.Sequence(datasets.Value("string")),
             "pos": datasets.Sequence(datasets.Value("string")),
             "subsets": datasets.Sequence(datasets.Value("int64"))}


def input_features(with_tokens: bool = False, per_token: tuple = ()) -> list:
    """The alternatives evaluate chooses from by the first example: tags on both sides
    first (evaluate requires the first alternative's inputs of every call), then
    generated output (``GENERATED_FORMS``, which the tag feature refuses: a string is no
    list, a dict no tag) against tags or spans, then every combination of tags and span
    layouts, then label ids on both sides (read with ``label_list``; last, because an
    int64 feature would take the string "1"). ``with_tokens`` and ``per_token`` (names
    among ``PER_TOKEN``: ``pos``, ``subsets``) add inputs that travel with each example,
    so that batches stay aligned in distributed runs (grounding generated output reads
    those ``tokens``)."""
    tags = datasets.Sequence(datasets.Value("string"))
    forms = [tags] + [datasets.List(layout) for layout in SPAN_LAYOUTS]
    extra = {"tokens": tags} if with_tokens else {}
    extra.update({name: PER_TOKEN[name] for name in per_token})
    ids = datasets.Sequence(datasets.Value("int64"))
    pairs = [(tags, tags), *((g, r) for g in GENERATED_FORMS for r in forms),
             *((p, r) for p in forms for r in forms if (p, r) != (tags, tags)), (ids, ids)]
    return [datasets.Features({"predictions": p, "references": r, **extra}) for p, r in pairs]


# How evaluate hands the stored inputs to ``_compute``: as Arrow arrays (``read_columns``).
COLUMN_FORMAT = "arrow"


def read_columns(predictions, references, tokens=None, label_list=None) -> tuple:
    """``(predictions, references, tokens)`` as the family reads them, from the Arrow
    arrays evaluate hands over: tag strings on both sides (or label ids, with
    ``label_list``) stay Arrow, and their tokens with them (nerspan reads their buffers);
    any other form (span dicts, generated output), a side of empty sentences only (span
    lists without a mention, or an error nerspan words), and their tokens, become Python
    lists, as evaluate decodes them. Values that are no Arrow arrays are kept as they are.
    """
    if all(_arrow_tags(side, label_list) for side in (predictions, references)):
        return predictions, references, tokens
    return python_lists(predictions), python_lists(references), python_lists(tokens)


def python_lists(value):
    """An Arrow array as Python lists (evaluate's decoding); anything else as it is."""
    return value.to_pylist() if is_arrow(value) else value


def _arrow_tags(column, label_list) -> bool:
    """Whether ``column`` is an Arrow list array of strings (of integers: with a
    ``label_list``), not all its sentences empty, which nerspan reads through its
    buffers."""
    if not is_arrow(column) or not hasattr(column.type, "value_type"):
        return False   # no list per sentence: generated output, a string each
    kind = str(column.type.value_type)
    if not (kind in ("string", "large_string")
            or (label_list is not None and kind.startswith(("int", "uint")))):
        return False
    values, _ = list_column(column, "predictions")
    return len(values) > 0


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off for the block, on again after (if it was
    on): adding a batch makes a Python object per tag and per sentence (evaluate's
    encoding), and the collector's passes over them and over the caller's own lists took
    about half of a compute's time. Those objects are freed by reference counting;
    nothing here makes cycles, which is all the collector frees."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def module_result(score, references, predictions, *, family_options, inputs: InputOptions,
                  scheme: str = "IOB2", mode: str = "lenient", train=None, beta: float = 1.0,
                  confusion: bool = False, as_given: bool = False, **data) -> dict:
    """A module's result: the family's ``score`` of one compute, as a dict with F-beta
    (``to_dict(beta=...)``), and with ``confusion`` the entity confusion matrix of the
    evaluation (``nerspan.Evaluation.confusion``), added as the command line adds them
    (``nerlens.families.result_dicts``, ``result_dict``).

    Both sides are read into one ``nerspan.Evaluation`` (gold decoded once, with the
    training index given: the load-time one, reused), scored by the family, unless
    ``as_given`` (faireval's module): ``score`` then scores both sides as they are (nested
    spans); the matrix then reads them as every family does (``resolve``). ``data``: per-example
    inputs (``pos``, ``subsets``).
    """
    evaluation, system = None, PRED
    if not as_given or confusion:
        evaluation, _, _, system = resolve(references, predictions, scheme=scheme, mode=mode,
                                           train=train, inputs=inputs)
    if as_given:
        given = Answers(system, references, predictions, scheme, mode, inputs)
        return result_dict(given.call(score, options=family_options, **data), beta,
                           evaluation if confusion else None, system)
    return result_dicts(score, evaluation, [system], family_options, beta=beta,
                        confusion=confusion, **data)[system]


def refuse_moved(module: str, given: Mapping) -> None:
    """A keyword of 0.1 (``nerspan.records.OLD_SPELLINGS``: a keyword, or one with the value
    that meant what another option is now) or string matching's (``STRING_MATCHING``) given
    to a module: an error naming what to write instead. Any other keyword is ignored, as
    ``evaluate.combine`` passes every keyword to every module."""
    for name, value in given.items():
        if name in OLD_SPELLINGS or f"{name} {value}" in OLD_SPELLINGS:
            raise TypeError(moved_keyword_text(f"the {module} module", name, value))
        if name in STRING_MATCHING and value not in (None, False):
            raise InputTypeError(
                f"{name}={value!r} is nerspan.score's, for generated output scored as "
                f'strings (matching="strings"); the {module} module grounds generated '
                "output and scores spans: score strings with nerspan.score(references, "
                f"predictions, tokens=..., inputs={{'matching': 'strings', {name!r}: "
                f"{value!r}}}) or nerlens score GOLD --generated FILE.jsonl --matching "
                "strings")


def per_example_option(module: str, name: str, value, declared: bool, load_flag: str):
    """An array that should travel per example (``pos``, ``subsets``) given as a
    ``compute`` option instead: still used for one release, with a DeprecationWarning."""
    if value is not None and not declared:
        warnings.warn(f"{module}: {name}=... as a compute option is deprecated: it does not "
                      f"follow the batches (add_batch, distributed runs); load the module "
                      f"with evaluate.load(..., {load_flag}) and pass {name} with each batch "
                      f"like the tags", DeprecationWarning, stacklevel=4)
    return value


def check_tag_strings(module: str, ids: bool = False, **inputs) -> None:
    """Refuse what evaluate would misread before it encodes the batch: a sentence given
    as a string (``datasets`` splits it into characters), lists nested too deep, and
    label ids (e.g. a Trainer's ids with -100) without ``label_list`` (``ids``: one is
    given, or may still come with ``compute``), saying what to do instead. One side None
    and the other given is an error too (both None means: the batches added before). The
    checks look at the sentences' types and at the first tag only: evaluate checks the
    rest against the features, nerspan the ids against ``label_list``."""
    missing = [name for name, sentences in inputs.items() if sentences is None]
    if len(missing) == 1:
        raise InputTypeError(f"{missing[0]} is None: pass both predictions and references "
                             "(tag lists per sentence)")
    for name, sentences in inputs.items():
        if sentences is None or (name == "predictions" and is_generated(sentences)):
            continue  # generated output (an LLM's responses) is read by nerspan.generative
        sentences = as_sentences(sentences, name)
        sentence, first = _first_item(sentences)
        if first is None or isinstance(first, (str, Mapping)):
            continue  # tags, or span dicts (one of the span features)
        if ids and _is_id(first):
            continue
        if isinstance(first, (list, tuple)):
            raise InvalidTagError(f"{shown(first)} is a list: {name} are nested too deep "
                                  "(expected one list of tags per sentence)",
                                  sentence=sentence, side=name, position=0)
        raise InputTypeError(
            f"the {module} module takes tag strings per sentence, but {name} hold "
            f"{shown(first)} of type {type(first).__name__}: for label ids, give the tags in "
            f"id order as label_list=model.config.id2label (to evaluate.load(...) or to "
            f"compute(...); positions whose reference id is -100 are dropped), or in a "
            f"Trainer use nerlens.trainer.make_compute_metrics(label_list=...)")


def _is_id(value) -> bool:
    """An integer label id (a Python or numpy integer, not a bool)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _first_item(sentences) -> tuple:
    """(sentence index, first tag) of the first non-empty sentence, or (None, None)."""
    for i, sentence in enumerate(sentences):
        if len(sentence):
            return i, sentence[0]
    return None, None


class OptionsMixin:
    """The family's options, the input options, ``beta`` and ``confusion``, at
    ``evaluate.load(...)`` or at ``compute(...)``.

    A subclass names its family in ``FAMILY`` (its options are that family's record,
    ``Family.options``) and the per-example inputs its ``score`` takes by name in
    ``DATA``. Options given to ``compute`` win over those given at load time; other
    keywords are ignored, because ``evaluate.combine`` passes every keyword to every
    module (an old name is an error naming the new one).
    """

    FAMILY = ""
    DATA: tuple = ()

    def __init__(self, *args, **kwargs):
        # the module's name is evaluate's, set below: the script's file name is the same
        refuse_moved(type(self).__module__.rpartition(".")[2], kwargs)
        self._load_options = {k: kwargs.pop(k) for k in self.accepted() if k in kwargs}
        self._settings(self._load_options)   # errors at load, not at the first compute
        super().__init__(*args, **kwargs)
        self.info.format = COLUMN_FORMAT   # _compute reads the columns (read_columns)

    @classmethod
    def options(cls) -> tuple:
        """The family's options: the fields of its record."""
        return get_family(cls.FAMILY).options.names()

    @classmethod
    def accepted(cls) -> tuple:
        """Every keyword the module takes: its family's options, its per-example data,
        ``ScoringOptions`` (the decoding, F-beta, the entity confusion matrix) and the input
        options."""
        return cls.options() + cls.DATA + ScoringOptions.names() + InputOptions.all_names()

    def _settings(self, given: dict) -> dict:
        """The keywords of one compute (load-time ones updated by ``given``; a per-example
        input evaluate stored as Python lists), checked: ``family_options`` (the family's
        record), ``inputs`` (``InputOptions``), ``scheme``, ``mode``, ``beta``,
        ``confusion`` and the per-example data."""
        merged = {**self._load_options,
                  **{k: python_lists(v) if k in self.DATA else v for k, v in given.items()
                     if k in self.accepted()}}
        record = get_family(self.FAMILY).options
        inputs = InputOptions.of({k: v for k, v in merged.items()
                                  if k in InputOptions.all_names()})
        return {"family_options": record.of({k: v for k, v in merged.items()
                                             if k in record.names()}),
                "inputs": inputs, **ScoringOptions.of({k: v for k, v in merged.items()
                                                       if k in ScoringOptions.names()}).to_dict(),
                **{k: merged[k] for k in self.DATA if merged.get(k) is not None}}

    # Tag strings are checked before evaluate encodes the batch, whose own error on label
    # ids ("don't match the expected format") does not say what to do.
    # label ids are let through when added: label_list may still come with compute(...),
    # where _compute checks them again
    def add_batch(self, *, predictions=None, references=None, **kwargs):
        """Add a batch of tag lists or label ids (see ``evaluate.EvaluationModule.add_batch``)."""
        check_tag_strings(self.name, True, predictions=predictions, references=references)
        with collector_paused():
            return super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs):
        """Add one sentence's tags or label ids (see ``evaluate.EvaluationModule.add``)."""
        check_tag_strings(self.name, True, predictions=[prediction], references=[reference])
        with collector_paused():
            return super().add(prediction=prediction, reference=reference, **kwargs)

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Compute the metric; tag lists per sentence, or label ids with ``label_list``
        (see the module's description)."""
        check_tag_strings(self.name, self._label_list(kwargs) is not None,
                          predictions=predictions, references=references)
        refuse_moved(self.name, kwargs)
        with collector_paused():
            return super().compute(predictions=predictions, references=references, **kwargs)

    def _label_list(self, given: dict):
        """``label_list`` given to ``compute``, else the load-time one (None: none)."""
        if given.get("label_list") is not None:
            return given["label_list"]
        return self._load_options.get("label_list")

    # Per-token inputs (names of ``PER_TOKEN``) this instance declares as features.
    def _per_token(self) -> tuple:
        return ()

    def _infer_feature_from_batch(self, batch):
        # evaluate reads the format off the first example; an empty first sentence fits
        # tags, so look at the first non-empty one of each input
        if not isinstance(self.features, list):
            return super()._infer_feature_from_batch(batch)
        example = {k: next((x for x in v if x is not None and len(x)), v[0] if len(v) else [])
                   for k, v in batch.items()}
        return self._infer_feature_from_example(example)

    def _infer_feature_from_example(self, example):
        # evaluate 0.4.6 tries each alternative but lets the KeyError of a dict layout
        # with other keys escape; try them all, then let evaluate word the error
        for features in self.features if isinstance(self.features, list) else []:
            try:
                self._enforce_nested_string_type(features, example)
                features.encode_example(example)
                return features
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                continue
        return super()._infer_feature_from_example(example)

    def _read(self, settings: dict, predictions, references, tokens=None) -> tuple:
        """This compute's ``(predictions, references)`` as the family reads them
        (``read_columns``), the tokens put in the input options."""
        inputs = settings["inputs"]
        predictions, references, tokens = read_columns(predictions, references, tokens,
                                                       inputs.label_list)
        if tokens is not None:
            settings["inputs"] = inputs.replace(tokens=tokens)
        return predictions, references


class TrainingDataMixin(OptionsMixin):
    """Also accept ``train`` (any form of ``nerspan.as_train_index``) and ``tokens`` at
    load time.

    Tokens given at load time serve every ``compute`` (what ``evaluate.evaluator`` needs:
    it passes only predictions and references). Without them, ``tokens`` is an input
    like ``predictions`` and ``references`` (see ``input_features``), so that each
    batch's words travel with its tags: in distributed mode the batches of all processes
    are merged in an order no process knows in advance.
    """

    def __init__(self, *args, train=None, tokens=None, **kwargs):
        self._load_tokens = tokens  # before EvaluationModule.__init__, which calls _info()
        self._load_train = train
        self._index_cache: dict = {}
        super().__init__(*args, **kwargs)
        if train is not None:
            self._index_for(None, self._settings({}))   # index once, at load time

    def input_features(self) -> list:
        """predictions and references (tags or spans), plus tokens unless they were given
        at load time."""
        return input_features(with_tokens=self._load_tokens is None,
                              per_token=self._per_token())

    def _index_for(self, train, settings: dict) -> TrainIndex | None:
        """The training index for ``train``, or for the load-time training data when none
        is given (None when there is none), read as this compute's gold is
        (``settings``: suffix, type options; load-time data with the load-time suffix).

        The same training object with the same scheme, mode and reading is indexed only
        once; a ``compute`` with others indexes the training data for them.
        """
        inputs = settings["inputs"]
        if train is None:   # given at load time: read as loaded (tags written PER-B or not)
            train = self._load_train
            inputs = inputs.replace(suffix=self._load_options.get("suffix", False))
        if train is None or isinstance(train, TrainIndex):
            return train
        key = (id(train), settings["scheme"], settings["mode"], inputs.suffix,
               inputs.types.processing)
        cached = self._index_cache.get(key)
        if cached is None:
            index = as_train_index(train, settings["scheme"], settings["mode"], inputs=inputs)
            # keep the source alive so that its id cannot be reused by another object
            cached = self._index_cache[key] = (train, index)
        return cached[1]

    def _tokens_for(self, tokens=None):
        """Evaluation tokens: those given to ``compute`` or else those given at load time."""
        return tokens if tokens is not None else self._load_tokens

    def _require_train(self, index, family: str) -> TrainIndex:
        if index is None:
            raise ValueError(f"{family} needs training data: pass train=... ({TRAIN_FORMS}) "
                             "to evaluate.load(...) or to compute(...)")
        return index
