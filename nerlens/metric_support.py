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

from nerspan import (InputOptions, InputTypeError, InvalidTagError, TrainIndex,
                     as_train_index)
from nerspan.arrow_columns import is_arrow, list_column
from nerspan.gold_context import resolve
from nerspan.reading.span_lists import is_span_input
from nerspan.corpus import as_sentences
from nerspan.errors import shown
from nerspan.generative.form import is_generated
from nerspan.input_options import GENERATIVE_INPUT_NAMES, OPTION_NAMES
from nerspan.type_processing import TYPE_OPTIONS, TypeProcessing
from nerspan.reading.span_lists import SPAN_OPTIONS

# The input options a module takes at load time or compute: span input's (``texts``,
# ``inclusive_end``, ``snap``) and generated output's (``matching``, ``occurrences``,
# ``fuzzy``), under nerspan's names.
READ_OPTIONS = SPAN_OPTIONS + GENERATIVE_INPUT_NAMES

# nerspan.score's options of generated output scored as strings (``matching="strings"``),
# at the values that mean it: no family scores strings, so a module refuses them rather
# than score spans under them (other values of ``compat`` are a family's own, or its error)
STRING_MATCHING = {"partial": True, "compat": "universalner"}

DECODING = ("scheme", "mode")
# Type processing, as every family's score takes it (nerspan.type_processing): read at
# load time and by compute, applied to gold, predictions and training data.
TYPES = TYPE_OPTIONS
# Options every module takes beside its family's own: how the tags are written, and the
# entity confusion matrix (``confusion=True``: ``confusion`` and ``boundary_errors``, as
# ``nerspan.score`` gives them; every family's ``score`` takes it).
SHARED_OPTIONS = ("suffix", "confusion")
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


def score_in_context(score, references, predictions, *, train=None, **options):
    """``score`` (a family's) of one compute through one ``nerspan.GoldContext``: the
    gold decoded once, with the training index given (the load-time one, reused).
    ``options`` are the family's and the input options (``nerspan.InputOptions``), which
    read both sides into the context."""
    # the input options the family reads as such (faireval's ``matching`` is its own)
    input_names = getattr(score, "input_option_names", OPTION_NAMES)
    context, _, _, pred_column = resolve(
        references, predictions, scheme=options.get("scheme"), mode=options.get("mode"),
        train=train, inputs=InputOptions.of({k: v for k, v in options.items()
                                             if k in input_names}))
    family = {k: v for k, v in options.items() if k not in input_names}
    return score(context, pred_column=pred_column, train=train, **family)


def module_result(score, references, predictions, **options) -> dict:
    """A module's result: ``score_in_context(...).to_dict()``; ``confusion`` (one of
    ``SHARED_OPTIONS``) is the family's ``score`` option like the others."""
    return score_in_context(score, references, predictions, **options).to_dict()


def refuse_string_matching(module: str, options: Mapping) -> None:
    """``partial=True`` or ``compat="universalner"`` (``STRING_MATCHING``) given to a
    module: an error saying whose options they are and where they apply."""
    for name, value in STRING_MATCHING.items():
        if options.get(name) is not None and options.get(name) == value:
            raise InputTypeError(
                f"{name}={value!r} is nerspan.score's, for generated output scored as "
                f'strings (matching="strings"); the {module} module grounds generated '
                "output and scores spans: score strings with nerspan.score(references, "
                f'predictions, tokens=..., matching="strings", {name}={value!r}) or '
                "nerlens score GOLD --generated FILE.jsonl --matching strings")


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
    """The family's ``score`` options, at ``evaluate.load(...)`` or at ``compute(...)``.

    A subclass names them in ``OPTIONS``; ``scheme``, ``mode``, ``label_list`` (the
    tags in id order, for label ids as a ``Trainer`` gives them) and ``suffix`` (tags
    written ``PER-B``) are always accepted.
    Options given to ``compute`` win over those given at load time; other keywords are
    ignored, because ``evaluate.combine`` passes every keyword to every module.
    """

    OPTIONS: tuple = ()

    def __init__(self, *args, scheme: str = "IOB2", mode: str = "lenient", label_list=None,
                 **kwargs):
        # the module's name is evaluate's, set below: the script's file name is the same
        refuse_string_matching(type(self).__module__.rpartition(".")[2], kwargs)
        self._load_options = {"scheme": scheme, "mode": mode}
        if label_list is not None:  # checked here, at load, rather than at the first compute
            self._load_options["label_list"] = InputOptions(label_list=label_list).label_list
        self._load_options.update({k: kwargs.pop(k) for k in self.OPTIONS + TYPES
                                   + SHARED_OPTIONS if k in kwargs})
        TypeProcessing.of(*(self._load_options.get(k) for k in TYPES))  # errors at load
        self._load_span_options = {k: kwargs.pop(k) for k in READ_OPTIONS if k in kwargs}
        super().__init__(*args, **kwargs)
        self.info.format = COLUMN_FORMAT   # _compute reads the columns (read_columns)

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
        refuse_string_matching(self.name, kwargs)
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

    def _options(self, given: dict) -> dict:
        """The load-time options updated by the known ones among ``given`` (a per-token
        input evaluate stored, ``pos`` or ``subsets``, as Python lists)."""
        options = dict(self._load_options)
        options.update({k: python_lists(v) for k, v in given.items()
                        if k in self.OPTIONS + DECODING + TYPES + SHARED_OPTIONS})
        options["label_list"] = self._label_list(given)
        if options["label_list"] is None:
            del options["label_list"]
        # the training index of this compute is processed, and its tags read, as its
        # gold (``_index_for``)
        self._types = TypeProcessing.of(*(options.get(k) for k in TYPES))
        self._suffix = options.get("suffix", False)
        return options

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

    def _columns(self, options: dict, predictions, references, tokens=None) -> tuple:
        """``read_columns`` of this compute's inputs, with its ``options``
        (``_options``): ``(predictions, references, tokens)``."""
        return read_columns(predictions, references, tokens, options.get("label_list"))

    def _span_options(self, given: dict) -> dict:
        """``texts``, ``inclusive_end``, ``snap`` (nerspan.reading.span_lists) and ``matching``,
        ``occurrences``, ``fuzzy`` (generated output): load time, then compute."""
        options = dict(self._load_span_options)
        # a family's own option of the same name is its own (faireval's SemEval matching)
        options.update({k: v for k, v in given.items()
                        if k in READ_OPTIONS and k not in self.OPTIONS})
        return options

class TrainingDataMixin(OptionsMixin):
    """Also accept ``train`` / ``train_tokens`` + ``train_tags`` / ``tokens`` at load time.

    ``train`` may be a ``nerspan.TrainIndex``, a ``Corpus``, a ``datasets`` split, or a
    column-file path; or give ``train_tokens`` and ``train_tags`` (lists per sentence).

    Tokens given at load time serve every ``compute`` (what ``evaluate.evaluator`` needs:
    it passes only predictions and references). Without them, ``tokens`` is an input
    like ``predictions`` and ``references`` (see ``input_features``), so that each
    batch's words travel with its tags: in distributed mode the batches of all processes
    are merged in an order no process knows in advance.
    """

    def __init__(self, *args, train=None, train_tokens=None, train_tags=None, tokens=None,
                 **kwargs):
        self._load_tokens = tokens  # before EvaluationModule.__init__, which calls _info()
        self._load_train = (train, train_tokens, train_tags)
        self._index_cache: dict = {}
        super().__init__(*args, **kwargs)
        if train is not None or train_tokens is not None:
            self._index_for(train, train_tokens, train_tags)  # index once, at load time

    def input_features(self) -> list:
        """predictions and references (tags or spans), plus tokens unless they were given
        at load time."""
        return input_features(with_tokens=self._load_tokens is None,
                              per_token=self._per_token())

    def _index_for(self, train=None, train_tokens=None, train_tags=None,
                   scheme: str | None = None, mode: str | None = None) -> TrainIndex | None:
        """The training index for these arguments, or for the load-time training data when
        none are given (None when there is none).

        The same training object with the same scheme and mode is indexed only once; a
        ``compute`` with another scheme or mode indexes the training data for it.
        """
        scheme = scheme or self._load_options["scheme"]
        mode = mode or self._load_options["mode"]
        # tags written PER-B: training data given to this compute is read as its tags
        # (its options), training data given at load time as loaded
        suffix = getattr(self, "_suffix", self._load_options.get("suffix", False))
        if train is None and train_tokens is None:
            train, train_tokens, train_tags = self._load_train
            suffix = self._load_options.get("suffix", False)
            if train is None and train_tokens is None:
                return None
        if isinstance(train, TrainIndex):
            return train
        source = train if train is not None else train_tokens
        types = getattr(self, "_types", None)
        key = (id(source), id(train_tags), scheme, mode, types, suffix)
        cached = self._index_cache.get(key)
        if cached is None:
            index = as_train_index(train, scheme, mode, train_tags=train_tags,
                                   train_tokens=train_tokens, types=types, suffix=suffix)
            # keep the sources alive so that their ids cannot be reused by other objects
            cached = self._index_cache[key] = (source, train_tags, index)
        return cached[2]

    def _tokens_for(self, tokens=None):
        """Evaluation tokens: those given to ``compute`` or else those given at load time."""
        return tokens if tokens is not None else self._load_tokens

    def _require_train(self, index, family: str) -> TrainIndex:
        if index is None:
            raise ValueError(
                f"{family} needs training data: pass train=... (a datasets split, a column "
                "file or a TrainIndex) or train_tokens=... and train_tags=... to "
                "evaluate.load(...) or to compute(...)")
        return index
