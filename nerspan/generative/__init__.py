"""Generated NER output: entities as strings, without offsets (METHODS §6).

A large language model answers a NER prompt with text: a JSON list of entities, a list
per type, the sentence with inline ``<TYPE>...</TYPE>`` markup, often inside prose or a
code fence, sometimes with entities that are not in the sentence. This package reads
all of it and scores it two ways:

- ``read_generated``: every form -> ``(text, type)`` entities per sentence, types
  matched to the gold type names (``types``, ``type_map``), failures counted
  (``reading``, ``type_names``).
- ``ground`` (way 1, the default): each entity located in its sentence, at token
  boundaries, by exact, case-insensitive, normalised (and, if asked, fuzzy) matching ->
  token spans per sentence, which ``nerspan.from_spans`` and every family score like
  any prediction (``grounding``).
- ``score_strings`` (way 2, ``matching="strings"``): sets of (normalised text, type)
  per sentence against gold's; ``script="universalner"`` reproduces the UniversalNER
  evaluation (``strings``, ``universalner``). The options of both ways are
  ``nerspan.records.GeneratedOptions``.

Both keep one ``GenerativeRepairs`` record of what could not be used, which joins a
result's ``repairs`` (``merge_repairs``); ``add_ungrounded`` makes every ungrounded
entity a false positive of ``nerspan`` entity scores.

>>> import nerspan
>>> from nerspan.generative import add_ungrounded, ground
>>> tokens = [["Ada", "Lovelace", "visited", "Paris", "."]]
>>> response = 'Here you go:\\n```json\\n[{"text": "Ada Lovelace", "type": "person"},' \\
...            ' {"text": "paris", "type": "LOC"}, {"text": "Atlantis", "type": "LOC"}]\\n```'
>>> grounded = ground([response], tokens=tokens, types={"PER", "LOC"},
...                   type_map={"person": "PER"})
>>> grounded.spans
[[(0, 2, 'PER'), (3, 4, 'LOC')]]
>>> scores = nerspan.score([[(0, 2, "PER"), (3, 4, "LOC")]], grounded.spans, tokens=tokens)
>>> add_ungrounded(scores, grounded.repairs).micro()
(0.6666666666666666, 1.0, 0.8)
>>> print(grounded.repairs.summary())
2 of 3 entities usable (67%); 1 entity ungrounded
"""
from __future__ import annotations

from ..options import MATCHING
from .detect import is_generated_input
from ..reading.generated import read_generated_jsonl
from .form import GENERATED, ground_predictions
from .grounding import OCCURRENCES, OVERLAPS, Grounded, ground
from .reading import Generated, read_generated, read_response
from .repairs import (LEVELS, MAX_LISTED, TYPE_MATCHES, GenerativeRepairs, Listing,
                      add_ungrounded, merge_repairs)
from .strings import StringScores, score_strings
from .type_names import TypeMatcher


__all__ = ["ground", "Grounded", "read_generated", "read_response", "Generated",
           "score_strings", "StringScores", "GenerativeRepairs", "Listing",
           "add_ungrounded", "merge_repairs", "is_generated_input", "read_generated_jsonl",
           "TypeMatcher", "LEVELS", "TYPE_MATCHES", "MAX_LISTED", "OCCURRENCES", "OVERLAPS",
           "MATCHING", "GENERATED", "ground_predictions"]
