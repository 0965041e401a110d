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

from .corpus import (GOLD, IGNORE_INDEX, PRED, Corpus, Source, as_label_list, check_same_shape,
                     ranges)
from .errors import (DecodingWarning, EmptyInputError, FormatError, InputTypeError,
                     InvalidTagError, LabelIdError, LengthMismatchError, NameTakenError,
                     NerspanError, SentenceCountError, TooFewColumnsError, counted)
from .options import check_bool, check_fraction, check_int
from .input_options import InputOptions, input_options
from .inputs import (as_corpus, as_corpus_columns, as_train_index, check_split_labels,
                     is_dataset, with_tokens)
from .readers import read_columns, read_system_file
from .span_input import (SpanRows, check_span_scheme, from_spans, is_span_input,
                         read_span_jsonl, read_spans, span_sides)
from .schemes import MODES, SCHEMES, Scheme, check_mode, get_scheme, split_tag
from .scores import EntityScores, entity_scores, match, prf, prf_from_counts, safe_divide
from .spans import REPAIR_KINDS, LabelTable, Repairs, Spans, decode, repairs_dict
from .train_index import TrainIndex, mention_texts
from .gold_context import GoldContext, resolve

__version__ = "0.1.0"


def check_zero_division(value) -> float:
    if value not in (0, 1, 0.0, 1.0) or isinstance(value, bool):
        raise ValueError(f"zero_division must be 0 or 1, not {value!r}")
    return float(value)


@input_options
def score(references, predictions=None, *, scheme: str = "IOB2", mode: str = "lenient",
          zero_division: float = 0.0, inputs) -> EntityScores:
    """Entity-level precision, recall and F1 of ``predictions`` against ``references``.

    Args:
        references, predictions: lists of tag strings per sentence, label ids with
            ``label_list`` (-100 positions dropped), a ``datasets`` split
            (``Corpus.from_dataset``), span lists per sentence on either side
            (``nerspan.span_input``), or a ``Corpus`` (then ``predictions`` may be omitted
            and the columns are named by ``gold_column``/``pred_column``).
        scheme, mode: how tags are decoded (``decode``); span input is IOB2.
        zero_division: 0 or 1, seqeval's value of an undefined precision or recall.

    >>> s = score([["B-PER", "O", "B-LOC"]], [["B-PER", "O", "B-ORG"]])
    >>> s.micro()
    (0.5, 0.5, 0.5)
    >>> s.to_dict()["per_type"]["LOC"]["recall"]
    0.0
    """
    zero_division = check_zero_division(zero_division)
    # entity scores need no words: a split's token column is not read
    corpus, gold_column, pred_column = as_corpus_columns(
        references, predictions, scheme=scheme, words=False, inputs=inputs)
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    gold = decode(corpus, gold_column, scheme, mode, table)
    pred = decode(corpus, pred_column, scheme, mode, table)
    return entity_scores(gold, pred, zero_division)


__all__ = [
    "Corpus", "Source", "GOLD", "PRED", "IGNORE_INDEX", "check_same_shape", "ranges",
    "NerspanError", "EmptyInputError", "FormatError", "InvalidTagError", "LabelIdError",
    "LengthMismatchError", "SentenceCountError", "InputTypeError", "NameTakenError",
    "TooFewColumnsError", "DecodingWarning", "counted",
    "check_bool", "check_fraction", "check_int", "as_label_list", "as_corpus", "as_corpus_columns",
    "as_train_index", "with_tokens",
    "read_columns", "read_system_file", "MODES", "SCHEMES", "Scheme", "check_mode",
    "get_scheme", "split_tag", "EntityScores", "entity_scores", "match", "prf_from_counts",
    "prf", "safe_divide", "LabelTable", "Repairs", "REPAIR_KINDS", "repairs_dict", "Spans",
    "decode", "TrainIndex",
    "mention_texts", "score", "check_zero_division", "SpanRows", "from_spans",
    "is_span_input", "read_span_jsonl", "read_spans", "check_span_scheme", "span_sides",
    "GoldContext", "resolve", "InputOptions", "input_options",
]
