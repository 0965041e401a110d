"""Generated predictions as one input form of the dispatcher (``nerspan.reading.forms.FORMS``).

When the predictions are generated output (``is_generated_input``: entity lists, dicts
from type to texts, inline markup, raw responses; or what ``read_generated`` or
``ground`` returned), the references are read as any references are, the entities are
grounded in the sentence text (``tokens``, ``texts``, or the references' own words;
never their labels), and the grounded spans become the predicted column as span input
does. What reading and grounding did rides with that column (``Source.generated``):
decoding puts it in the column's ``Repairs``, so every family's ``repairs`` holds it
(``pred["generative"]``) and entity scores count each ungrounded entity as a wrong
prediction (``Repairs.unplaced``).

``matching="strings"`` scores no spans: ``nerspan.score`` takes it (``score_strings``);
a family asked for it is told so.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..collector import collector_paused
from ..errors import InputTypeError
from ..flat import GOLD, PRED
from ..reading.forms import InputForm, Reading, read_input, register_form
from ..schemes import get_scheme
from ..reading.span_lists import check_span_scheme, spans_on
from ..spans import LabelTable
from .detect import is_generated_input
from .grounding import Grounded, _Rules, grounded
from .reading import Generated, read_generated
from .type_names import known_names


def is_generated(predictions) -> bool:
    """Generated predictions: output of a model (``is_generated_input``) or what
    ``read_generated`` or ``ground`` returned."""
    if isinstance(predictions, (Generated, Grounded)):
        return True
    return is_generated_input(predictions) is True


def _recognise(references, predictions, inputs, words) -> bool:
    return predictions is not None and inputs.label_list is None and is_generated(predictions)


@collector_paused
def read_generated_form(references, predictions, inputs, scheme, words) -> Reading:
    """The references' gold column and the grounded predictions as column ``pred``."""
    if inputs.generated.matching == "strings":
        raise InputTypeError('matching="strings" compares sets of strings and gives entity '
                             "scores only (nerspan.score); the families score spans: "
                             'ground the output (matching="grounded", the default)')
    if inputs.generated.overlaps == "keep":
        raise InputTypeError('overlaps="keep" keeps nested and overlapping spans, which '
                             "only faireval scores; the other families read tags: "
                             'overlaps="drop" (the default)')
    if scheme is not None:
        check_span_scheme(scheme)
    reading = read_input(references, None, inputs=inputs, scheme=scheme, words=True)
    gold = reading.corpus.paired(reading.gold_column, None)
    grounded = ground_predictions(predictions, gold, inputs)
    # the grounded spans' own layout (token offsets, end exclusive), whatever the options
    corpus = gold.with_columns(spans_on(gold.lengths, grounded.spans), {GOLD: PRED})
    source = dataclasses.replace(corpus.source,
                                 generated={**corpus.source.generated, PRED: grounded.repairs})
    return Reading(GENERATED, corpus.with_source(source), context=reading.context)


def ground_predictions(predictions, gold, inputs) -> Grounded:
    """``predictions`` grounded in the sentences of the ``gold`` corpus (its words, or
    ``tokens``/``texts``), types matched as ``read_typed`` matches them."""
    if isinstance(predictions, Grounded):
        return predictions
    if not isinstance(predictions, Generated):
        predictions = read_typed(predictions, gold, mapped_names(inputs))
    tokens, texts = sentence_text(gold, inputs)
    # gold's words are the tokens (read from them, or they are gold's): its token ids
    # are read, no word is
    return grounded(predictions, tokens, texts, grounding_rules(inputs),
                    corpus=gold if texts is None else None)


def mapped_names(inputs) -> list:
    """The model's type names the input options map (``type_map``'s keys)."""
    processing = inputs.types.processing
    return [] if processing is None else [source for source, _ in processing.mapping]


def grounding_rules(inputs) -> _Rules:
    """The grounding options of the input options (``occurrences``, ``overlaps``,
    ``fuzzy``), checked."""
    generated = inputs.generated
    return _Rules(generated.occurrences, generated.overlaps, generated.fuzzy)


def sentence_text(gold, inputs) -> tuple:
    """``(tokens, texts)`` generated output is grounded in: the input options', else the
    words of the ``gold`` corpus."""
    tokens, texts = inputs.tokens, inputs.texts
    if tokens is None and texts is None:
        tokens = words_of(gold)
        if tokens is None:
            raise InputTypeError("generated predictions are grounded in the sentence text: "
                                 "pass tokens=... (the words of each sentence) or texts=...",
                                 side="predictions")
    return tokens, texts


def read_typed(predictions, gold, mapped=(), name: str = "predictions",
               scored: bool = False) -> Generated:
    """``predictions`` read (``read_generated``), their types matched to the types of
    the ``gold`` corpus's gold column before any type processing, then to the names
    ``mapped`` (the keys of the ``type_map`` the types are processed with afterwards),
    as string matching matches them (``type_names.known_names``): a model's ``"Person"``
    with ``type_map={"person": "PER"}`` is matched by the map, not counted unknown."""
    if GOLD in gold.source.types_mapped:   # processed already: the types it had
        types = set(gold.source.types_seen)
    else:
        # the labels of the gold column only: the corpus's label list also holds those of
        # its other columns (a generated system read before, with its unknown types)
        used = np.unique(gold.column(GOLD))
        types = set(LabelTable.build([gold.labels[k] for k in used.tolist()],
                                     get_scheme("IOB2")).types)
    names, type_map = known_names(types, mapped)
    return read_generated(predictions, types=names, type_map=type_map, name=name,
                          scored=scored)


def words_of(corpus) -> list | None:
    """The corpus's words per sentence, or None when it has none."""
    if corpus.tokens is None:
        return None
    return [corpus.sentence_tokens(i) for i in range(corpus.n_sentences)]


GENERATED = InputForm(
    "generated", _recognise, read_generated_form,
    "generated predictions (entity lists, dicts from type to texts, inline markup, raw "
    "LLM responses), grounded in the sentence text; references in any form")
# Before the forms of the references' own kind (an entity list is no span list, a response
# no tag list), after the gold context, which reads its predictions through this one.
register_form(GENERATED, before="dataset")


__all__ = ["GENERATED", "is_generated", "ground_predictions", "read_generated_form", "read_typed",
           "words_of", "sentence_text", "grounding_rules", "mapped_names"]
