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

from .corpus import Corpus
from .errors import (AmbiguousInputError, DecodingWarning, EmptyInputError, FormatError,
                     InputTypeError, InvalidTagError, LabelIdError, LengthMismatchError,
                     NameTakenError, NerspanError, SentenceCountError, TagColumnWarning,
                     TokenMismatchError, TooFewColumnsError)
from .flat import GOLD, PRED
from .migration import migrated, moved_names
from .options import check_zero_division
from .reading.columns import read_columns, read_system_file
from .reading.span_lists import from_spans, read_span_jsonl
from .reading.training import as_train_index
from .records import InputOptions
from .result import Result
from .schemes import get_scheme
from .scores import EntityScores, entity_scores, prf_from_counts
from .spans import LabelTable, Spans, decode
from .train_index import TrainIndex
from .evaluation import Evaluation
from .evaluation import resolve as _resolve   # nerspan.resolve went (0.2): _MOVED
from .generative import score_strings  # registers generated predictions as an input form
from .generative.strings import STRINGS_UNREAD, refuse_unread as _refuse_unread
from .dial import sweep
from .threshold_form import stating_threshold  # registers scored predictions at a threshold
from .partials import EntityPartial, partial  # statistics that merge (METHODS §7)
from .layers import is_layered, score_layered


__version__ = "0.2.0"


@migrated
def score(references, predictions=None, *, tokens=None, scheme: str = "IOB2",
          mode: str = "lenient", label_list=None, zero_division: float = 0.0,
          inputs=None) -> EntityScores:
    """Entity-level precision, recall and F1 of ``predictions`` against ``references``.

    Args:
        references, predictions: lists of tag strings per sentence, label ids with
            ``label_list`` (-100 positions dropped), a ``datasets`` split
            (``Corpus.from_dataset``), span lists per sentence on either side
            (``nerspan.reading.span_lists``), a ``Corpus`` (then ``predictions`` may be
            omitted and the columns are named by the input options ``gold_column`` and
            ``pred_column``), or an ``Evaluation`` and a system's name; predictions may
            be generated output (``nerspan.generative``: entity lists, dicts from type to
            texts, inline markup, raw LLM responses), grounded in the sentence text, each
            entity not found in it a false positive.
        tokens: the words of each sentence, when the input does not hold them.
        scheme, mode: how tags are decoded (``decode``); span input is IOB2.
        label_list: the tags in id order, when both sides are label ids.
        zero_division: 0 or 1, seqeval's value of an undefined precision or recall.
        inputs: the other input options (``nerspan.InputOptions``, or a dict of them):
            span input's, the type options (``type_map``, ...), generated output's; with
            ``matching="strings"`` generated output is compared as strings
            (``nerspan.generative.score_strings``: ``script``, ``word_overlap``).
            A ``Corpus`` whose gold has layers (``nerspan.layers``; a column file read
            with the input option ``layers``) gives ``LayeredScores``: over every
            mention of every layer, and per layer.

    F-beta is the result's: ``to_dict(beta=2)``; the entity confusion matrix the
    evaluation's: ``Evaluation.build(references, predictions).confusion("pred")``.

    >>> s = score([["B-PER", "O", "B-LOC"]], [["B-PER", "O", "B-ORG"]])
    >>> s.micro()
    (0.5, 0.5, 0.5)
    >>> s.to_dict()["per_type"]["LOC"]["recall"]
    0.0
    """
    zero_division = check_zero_division(zero_division)
    inputs = InputOptions.of(inputs, tokens=tokens, label_list=label_list)
    generated = inputs.generated
    if generated.matching == "strings":  # generated output as strings: no spans to decode
        _refuse_unread(generated, zero_division != 0)
        return score_strings(references, predictions, scheme=scheme, mode=mode, inputs=inputs)
    if _layered_gold(references, inputs):
        return _score_layers(references, predictions, inputs, scheme, mode, zero_division)
    # entity scores need no words: a split's token column is not read
    evaluation, corpus, _, pred_column = _resolve(references, predictions, scheme=scheme,
                                                  mode=mode, inputs=inputs, words=False,
                                                  tables=True)
    table = LabelTable.build(corpus.labels, get_scheme(evaluation.scheme))
    return stating_threshold(entity_scores(evaluation.gold_spans(table),
                                           evaluation.pred_spans(corpus, pred_column, table),
                                           zero_division), predictions, inputs)


def _layered_gold(references, inputs: InputOptions) -> bool:
    """Whether ``references`` is a Corpus or an Evaluation whose gold has layers."""
    if isinstance(references, Evaluation):
        return is_layered(references.corpus, references.gold_column)
    return isinstance(references, Corpus) and is_layered(references, inputs.gold_column)


def _score_layers(references, predictions, inputs, scheme, mode, zero_division):
    """``score`` of layered gold (``nerspan.layers.score_layered``)."""
    gold_column = inputs.gold_column
    if isinstance(references, Evaluation):
        references.check(scheme, mode)
        scheme, mode, gold_column = references.scheme, references.mode, references.gold_column
        references = references.corpus
    return score_layered(references, predictions, gold_column=gold_column,
                         pred_column=inputs.pred_column, scheme=scheme, mode=mode,
                         zero_division=zero_division)


# What ``from nerspan import *`` gives: what a user needs (at most 30 names). Every other
# name is its module's (``nerspan.spans.LabelTable``, ``nerspan.options.check_int``);
# those this package gave before are an error naming their module (``__getattr__``).
__all__ = [
    "score", "Corpus", "Evaluation", "TrainIndex", "InputOptions", "Result", "decode",
    "read_columns", "read_span_jsonl", "from_spans", "as_train_index",
    "EntityScores", "Spans", "GOLD", "PRED", "prf_from_counts",
    "NerspanError", "EmptyInputError", "FormatError", "InvalidTagError", "LabelIdError",
    "LengthMismatchError", "SentenceCountError", "InputTypeError", "NameTakenError",
    "TooFewColumnsError", "TokenMismatchError", "AmbiguousInputError", "DecodingWarning",
    "TagColumnWarning",
]

# Names this package gave before, now read from their modules (or gone in 0.2).
_MOVED = {name: f"nerspan.{module}.{name}" for name, module in {
    "IGNORE_INDEX": "flat", "ranges": "flat", "as_label_list": "flat",
    "check_same_shape": "corpus", "is_dataset": "reading.forms",
    "check_split_labels": "reading.forms", "MODES": "schemes", "SCHEMES": "schemes",
    "Scheme": "schemes", "split_tag": "schemes", "match": "scores",
    "safe_divide": "scores", "mention_texts": "train_index",
    "is_span_input": "reading.span_lists", "read_spans": "reading.span_lists",
    "check_span_scheme": "reading.span_lists", "span_sides": "reading.span_lists",
    "Source": "corpus", "counted": "errors", "resolve": "evaluation",
    "check_bool": "options", "check_fraction": "options", "check_int": "options",
    "check_mode": "schemes", "Repairs": "spans", "repairs_dict": "spans",
    "REPAIR_KINDS": "spans"}.items()}
_MOVED.update({
    "GoldContext": "nerspan.Evaluation", "prf": "nerspan.prf_from_counts",
    "input_options": "gone: every function takes inputs= (nerspan.InputOptions or a dict)",
    "as_corpus": "nerspan.reading.forms.read_input(references, predictions).corpus",
    "as_corpus_columns": "nerspan.reading.forms.read_input(references, predictions)",
    "with_tokens": "Corpus.with_tokens", "confusion_dict": "nerspan.Evaluation.confusion",
    "check_beta": "nerspan.fbeta.check_beta", "SpanRows": "nerspan.Spans"})
__getattr__ = moved_names(__name__, _MOVED)
