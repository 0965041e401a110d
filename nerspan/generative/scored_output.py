"""Generated output with a confidence per entity, grounded into scored mentions
(METHODS §6 and §8).

An entity dict of any form ``read_generated`` reads may carry its confidence as
``"score"`` (or ``"confidence"``): ``{"text": "Paris", "type": "LOC", "score": 0.8}``,
``{"LOC": [{"text": "Paris", "score": 0.8}]}``. The entities are grounded as any
generated output is (``grounding``: the same spans, overlaps resolved by the same rule,
before any threshold); each grounded mention takes the highest confidence of the
entities that ground to it (two identical mentions keep the higher, counted in
``ScoredMentions.duplicates``, as for scored spans), and an entity found nowhere keeps
its own (the highest of its repeats): a wrong prediction wherever it is kept
(``ScoredMentions.unplaced``). ``nerspan.sweep`` and the report's confidence section
read the result as they read any scored mentions.

Every entity needs a confidence, a number in [0, 1]: an entity without one (a pair,
markup, a dict without ``"score"``) or with another value is an error naming the side,
the sentence, the entity and the value.

>>> from nerspan import Corpus
>>> gold = Corpus.from_tags([["B-PER", "O", "B-LOC"]], tokens=[["Ada", "in", "Paris"]])
>>> out = [[{"text": "Ada", "type": "PER", "score": 0.9},
...         {"text": "paris", "type": "LOC", "score": 0.4},
...         {"text": "Paris", "type": "LOC", "score": 0.7},
...         {"text": "Oz", "type": "LOC", "score": 0.6}]]
>>> m = scored_generated(out, gold)
>>> m.to_lists(), m.duplicates, m.unplaced.tolist()
([[{'start': 0, 'end': 1, 'label': 'PER', 'score': 0.9}, {'start': 2, 'end': 3, 'label': 'LOC', 'score': 0.7}]], 1, [0.6])
"""
from __future__ import annotations

from ..errors import InputTypeError, NerspanError, shown
from ..records import InputOptions
from ..scored import ScoredMentions, check_confidence
from ..spans import Repairs
from .form import grounding_rules, ground_predictions, mapped_names, read_typed, sentence_text
from .grounding import Grounded, _InOrder, _SentenceTexts
from .normalise import normalise
from .reading import MISSING, Generated


def scored_generated(predictions, gold, inputs=None, name: str = "predictions"
                     ) -> ScoredMentions:
    """The scored mentions of generated ``predictions`` whose entities carry a
    confidence, grounded in the sentences of the ``gold`` corpus (its words, or the
    input options' ``tokens``/``texts``), types matched to gold's as for any generated
    output; ``inputs``: the input options (``nerspan.InputOptions`` or a dict; the
    grounding options ``occurrences``, ``overlaps``, ``fuzzy`` among them)."""
    inputs = InputOptions.of(inputs)
    if isinstance(predictions, (Generated, Grounded)):
        if getattr(predictions, "scores", None) is None:
            raise InputTypeError("scored generated output is read with its confidences: "
                                 "pass the model output itself, or read_generated(..., "
                                 "scored=True)", side=name)
        generated = predictions
    else:
        generated = read_typed(predictions, gold, mapped_names(inputs), name, scored=True)
    confidences = _checked(generated, name)
    grounded = ground_predictions(generated, gold, inputs)
    tokens, texts = sentence_text(gold, inputs)
    rows, missing = _mention_rows(generated, grounded.spans, confidences,
                                  _SentenceTexts(tokens, texts, generated.n_sentences, name),
                                  grounding_rules(inputs))
    ungrounded = grounded.repairs.ungrounded
    unplaced = [missing[item.sentence, normalise(item.text), item.type] for item in ungrounded]
    types = tuple(sorted({row[3] for row in rows} | {item.type for item in ungrounded}))
    index = {t: k for k, t in enumerate(types)}
    columns = list(zip(*rows)) if rows else [(), (), (), (), ()]
    return ScoredMentions.build(columns[0], columns[1], columns[2],
                                [index[t] for t in columns[3]], types, columns[4],
                                generated.n_sentences,
                                repairs=Repairs(generated=grounded.repairs), unplaced=unplaced)


def _checked(generated: Generated, name: str) -> list:
    """Per sentence, its entities' confidences as floats; the first entity without one,
    or with one that is no number in [0, 1], is an error naming it."""
    out = []
    for i, (entities, scores) in enumerate(zip(generated.entities, generated.scores)):
        row = []
        for k, ((text, entity_type), score) in enumerate(zip(entities, scores)):
            where = f"entity {k} {shown(text)} ({entity_type})"
            if score is MISSING:
                raise NerspanError(f"{where} has no score: scored generated output needs "
                                   "a confidence per entity ('score' or 'confidence')",
                                   side=name, sentence=i)
            try:
                row.append(check_confidence(score, where))
            except InputTypeError as error:
                raise InputTypeError(str(error), side=name, sentence=i) from None
            except ValueError as error:
                raise NerspanError(str(error), side=name, sentence=i) from None
        out.append(row)
    return out


def _mention_rows(generated: Generated, spans: list, confidences: list, text_of,
                  rules) -> tuple[list, dict]:
    """``(rows, missing)``: ``(sentence, start, end, type, confidence)`` of every entity
    at every grounded span it grounds to (looked up as grounding looks it up, the i-th
    listing of a text at its i-th occurrence under ``occurrences="ordered"``); and
    ``(sentence, normalised text, type)`` -> the highest confidence of the entities
    found nowhere (grounding lists the first of such repeats as ungrounded)."""
    rows, missing = [], {}
    for i, kept in enumerate(spans):
        entities = generated.entities[i]
        if not entities:
            continue
        kept, index = set(kept), text_of(i)
        take = _InOrder() if rules.ordered else None
        for (text, entity_type), confidence in zip(entities, confidences[i]):
            hits = index.find(text, rules.fuzzy)[1]
            if not hits:
                key = (i, normalise(text), entity_type)
                missing[key] = max(confidence, missing.get(key, 0.0))
                continue
            if take is not None:
                hits = take(text, entity_type, hits)
            rows.extend((i, a, b, entity_type, confidence) for a, b in hits
                        if (a, b, entity_type) in kept)
    return rows, missing


__all__ = ["scored_generated"]
