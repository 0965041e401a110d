"""nerspan: the span utilities shared by every nerlens metric family.

Tag schemes -> spans (``decode``), the corpus model and its readers (``Corpus``,
``read_columns``), the training-set index (``TrainIndex``), entity-level scores
(``score``), and the input errors (``nerspan.errors``).

>>> import nerspan
>>> result = nerspan.score([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O"]])
>>> round(result.micro()[2], 4)
0.6667
"""
from __future__ import annotations

import dataclasses

from .corpus import Corpus
from .confusion import confusion_dict
from .deprecation import moved_names
from .fbeta import check_beta
from .errors import (AmbiguousInputError, DecodingWarning, EmptyInputError, FormatError,
                     InputTypeError, InvalidTagError, LabelIdError, LengthMismatchError,
                     NameTakenError, NerspanError, SentenceCountError, TagColumnWarning,
                     TokenMismatchError, TooFewColumnsError)
from .flat import GOLD, PRED
from .input_options import InputOptions, input_options
from .reading.columns import read_columns, read_system_file
from .reading.forms import as_train_index, read_input
from .reading.span_lists import from_spans, read_span_jsonl
from . import options as _options
from .options import check_zero_division
from .result import Result
from .schemes import get_scheme
from .scores import EntityScores, entity_scores, prf_from_counts
from .spans import REPAIR_KINDS, LabelTable, Spans, decode
from .train_index import TrainIndex
from .gold_context import GoldContext
from .generative import score_strings  # registers generated predictions as an input form
from .dial import sweep
from .scores import prf  # noqa: F401,E402  (a deprecated alias of prf_from_counts: it warns)


__version__ = "0.1.0"


@input_options
def score(references, predictions=None, *, scheme: str = "IOB2", mode: str = "lenient",
          zero_division: float = 0.0, beta: float = 1.0, confusion: bool = False,
          compat: str | None = None, partial: bool = False,
          inputs) -> EntityScores:
    """Entity-level precision, recall and F1 of ``predictions`` against ``references``.

    Args:
        references, predictions: lists of tag strings per sentence, label ids with
            ``label_list`` (-100 positions dropped), a ``datasets`` split
            (``Corpus.from_dataset``), span lists per sentence on either side
            (``nerspan.reading.span_lists``), or a ``Corpus`` (then ``predictions`` may be omitted
            and the columns are named by ``gold_column``/``pred_column``); predictions
            may be generated output (``nerspan.generative``: entity lists, dicts from
            type to texts, inline markup, raw LLM responses), grounded in the sentence
            text, each entity not found in it a false positive.
        scheme, mode: how tags are decoded (``decode``); span input is IOB2.
        zero_division: 0 or 1, seqeval's value of an undefined precision or recall.
        beta: also report F-beta beside every F1, as seqeval's ``beta`` (a number > 0;
            the key names it: ``f2``, ``macro_f2``, ``f0.5``; ``nerspan.fbeta``); 1
            (default) adds nothing.
        confusion: add the entity confusion matrix, ``confusion[gold type][predicted
            type]`` over mentions with identical spans ("O": missed, spurious), and
            ``boundary_errors`` per type apart (``nerspan.confusion``).
        compat, partial: ``matching="strings"`` only (``nerspan.generative.score_strings``):
            ``compat="universalner"`` reproduces the UniversalNER evaluation script;
            ``partial=True`` counts a word-overlap F1 of 0.5 with a gold string correct.
            ``keep_types``, ``remove_types`` and ``type_map`` process the types of
            gold's strings and the predicted ones alike there too (a model's
            ``"person"`` mapped to gold's ``"PER"``), counted in ``repairs``.

    >>> s = score([["B-PER", "O", "B-LOC"]], [["B-PER", "O", "B-ORG"]])
    >>> s.micro()
    (0.5, 0.5, 0.5)
    >>> s.to_dict()["per_type"]["LOC"]["recall"]
    0.0
    """
    zero_division = check_zero_division(zero_division)
    beta = check_beta(beta)
    _options.check_bool("confusion", confusion)
    if inputs.matching == "strings":  # generated output as strings: no spans to decode
        _refuse_unread(inputs, zero_division=zero_division != 0, beta=beta != 1,
                       confusion=confusion)
        return score_strings(references, predictions, compat=compat, partial=partial,
                             scheme=scheme, mode=mode, inputs=inputs)
    if compat is not None or partial:
        raise ValueError('compat and partial apply to matching="strings" only')
    if predictions is None and not isinstance(references, Corpus):
        raise InputTypeError("predictions is None: pass the predicted tags (a list per "
                             "sentence), or a Corpus with a pred column as references")
    # entity scores need no words: a split's token column is not read
    reading = read_input(references, predictions, inputs=inputs, scheme=scheme, words=False,
                         mode=mode)
    corpus = reading.corpus
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    gold = decode(corpus, reading.gold_column, scheme, mode, table)
    pred = decode(corpus, reading.pred_column, scheme, mode, table)
    scores = entity_scores(gold, pred, zero_division, beta=beta)
    if confusion:
        scores = dataclasses.replace(scores, confusion=confusion_dict(gold, pred))
    return scores


# What string matching does not read: grounding's options and those of spans or counts;
# given, they are refused. Type processing (keep_types, remove_types, type_map) it reads,
# on gold's mention texts and the predicted strings alike (``score_strings``).
STRINGS_UNREAD = ("occurrences", "overlaps", "fuzzy")
_DEFAULT_INPUTS = InputOptions()


def _refuse_unread(inputs: InputOptions, **others: bool) -> None:
    unread = [name for name in STRINGS_UNREAD
              if getattr(inputs, name) != getattr(_DEFAULT_INPUTS, name)] + \
        [name for name, is_given in others.items() if is_given]
    if unread:
        raise ValueError(f"{', '.join(unread)} {'is' if len(unread) == 1 else 'are'} not read "
                         'by matching="strings", which compares sets of (text, type) '
                         "strings per sentence: leave "
                         f"{'it' if len(unread) == 1 else 'them'} out, or ground the output "
                         '(matching="grounded", the default)')


# What ``from nerspan import *`` gives: what a user needs (at most 30 names). Every other
# name is its module's (``nerspan.spans.LabelTable``, ``nerspan.options.check_int``);
# those this package gave before are still read here through ``__getattr__``, with a
# deprecation warning naming their module.
__all__ = [
    "score", "Corpus", "GoldContext", "TrainIndex", "InputOptions", "Result", "decode",
    "read_columns", "read_system_file", "read_span_jsonl", "from_spans", "as_train_index",
    "EntityScores", "Spans", "REPAIR_KINDS", "GOLD", "PRED", "prf_from_counts",
    "NerspanError", "EmptyInputError", "FormatError", "InvalidTagError", "LabelIdError",
    "LengthMismatchError", "SentenceCountError", "InputTypeError", "NameTakenError",
    "TooFewColumnsError", "TokenMismatchError", "AmbiguousInputError", "DecodingWarning",
    "TagColumnWarning",
]

# Names this package gave before issue 29, now read from their modules.
__getattr__ = moved_names(__name__, {
    "IGNORE_INDEX": "flat", "ranges": "flat", "as_label_list": "flat",
    "check_same_shape": "corpus", "as_corpus": "reading.forms",
    "as_corpus_columns": "reading.forms",
    "with_tokens": "reading.forms", "is_dataset": "reading.forms",
    "check_split_labels": "reading.forms",
    "MODES": "schemes", "SCHEMES": "schemes", "Scheme": "schemes", "split_tag": "schemes",
    "match": "scores", "safe_divide": "scores", "mention_texts": "train_index",
    "SpanRows": "reading.span_lists", "is_span_input": "reading.span_lists",
    "read_spans": "reading.span_lists",
    "check_span_scheme": "reading.span_lists", "span_sides": "reading.span_lists",
    "Source": "corpus",
    "counted": "errors", "resolve": "gold_context", "check_bool": "options",
    "check_fraction": "options", "check_int": "options", "check_mode": "schemes",
    "Repairs": "spans", "repairs_dict": "spans",
})
