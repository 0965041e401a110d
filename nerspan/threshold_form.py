"""Scored predictions at a threshold as one input form of the dispatcher (METHODS §8).

With the input option ``threshold`` (``InputOptions.threshold``), predictions that carry
a confidence per mention (scored span lists as ``nerspan.scored.scored_spans`` reads
them, generated output whose entities carry a ``score``, or ``ScoredMentions``) are read
into scored mentions, those of confidence >= threshold kept, and the kept mentions
become the predicted column as span input does: every family's ``score`` (and
``nerspan.score``) then scores them as it scores any prediction, exactly as it scores
the kept mentions given as span lists. A generated entity found nowhere stays a wrong
prediction where its confidence keeps it. The references are read as any references.

>>> import nerspan
>>> scored = [[(0, 1, "PER", 0.9), (2, 3, "ORG", 0.4)]]
>>> nerspan.score([["B-PER", "O", "B-LOC"]], scored, inputs={"threshold": 0.5}).micro()
(1.0, 0.5, 0.6666666666666666)
"""
from __future__ import annotations

import dataclasses

from .flat import GOLD, PRED
from .generative.form import is_generated, words_of
from .generative.scored_output import scored_generated
from .reading.forms import InputForm, Reading, read_input, register_form
from .reading.span_lists import check_span_scheme, spans_on
from .records import InputOptions
from .scored import ScoredMentions, scored_spans


def _recognise(references, predictions, inputs, words) -> bool:
    return kept_at(predictions, inputs) is not None


def kept_at(predictions, inputs) -> float | None:
    """The threshold ``predictions`` are kept at (the input option ``threshold``, when
    they are predictions to read, not a system's name), or None."""
    threshold = InputOptions.of(inputs).threshold
    return None if predictions is None or isinstance(predictions, str) else threshold


def stating_threshold(result, predictions, inputs):
    """``result`` (any family's: a dataclass with ``options``) whose ``options`` name
    the ``threshold`` its predictions were kept at, when they were: every family's
    ``score`` returns its result through this."""
    threshold = kept_at(predictions, inputs)
    if threshold is None:
        return result
    return dataclasses.replace(result, options={**result.options, "threshold": threshold})


def read_kept(references, predictions, inputs, scheme, words) -> Reading:
    """The references' gold column and the scored predictions kept at the threshold as
    column ``pred`` (what reading and grounding generated output did rides with it)."""
    if scheme is not None:
        check_span_scheme(scheme)
    reading = read_input(references, None, inputs=inputs, scheme=scheme, words=True)
    gold = reading.corpus.paired(reading.gold_column, None)
    kept = scored_of(predictions, gold, inputs).kept_at(inputs.threshold)
    corpus = gold.with_columns(spans_on(gold.lengths, kept.to_spans()), {GOLD: PRED})
    return Reading(KEPT, corpus.with_source(_with_repairs(corpus.source, kept)),
                   context=reading.context)


def _with_repairs(source, kept: ScoredMentions):
    """``source`` whose column ``pred`` carries what reading the scored predictions
    repaired (snapped spans, identical mentions dropped: counted over all that were read,
    as the sweep counts them; what grounding did), for its repairs."""
    changed = {kind: {**getattr(source, kind), PRED: tuple(sentences.tolist())}
               for kind, sentences in kept.changed.items() if len(sentences)}
    if kept.repairs.generated is not None:
        changed["generated"] = {**source.generated, PRED: kept.repairs.generated}
    return dataclasses.replace(source, **changed)


def scored_of(predictions, gold, inputs) -> ScoredMentions:
    """``predictions`` as scored mentions over the sentences of the ``gold`` corpus
    (read with its words unless ``tokens`` or ``texts`` are given)."""
    if isinstance(predictions, ScoredMentions):
        return predictions
    if is_generated(predictions):
        return scored_generated(predictions, gold, inputs)
    if inputs.tokens is None and inputs.texts is None:
        inputs = inputs.replace(tokens=words_of(gold))
    return scored_spans(predictions, inputs=inputs)


KEPT = InputForm(
    "scored", _recognise, read_kept,
    "scored predictions (a confidence per mention) with the input option threshold: the "
    "mentions of confidence >= threshold, as span input; references in any form",
    tags=False)
# Before generated output's form, which reads entity lists without their scores.
register_form(KEPT, before=("generated", "dataset"))


__all__ = ["KEPT", "read_kept", "scored_of", "kept_at", "stating_threshold"]
