"""The rules of the UniversalNER evaluation (``compat="universalner"``), reimplemented.

Read from the published script (universal-ner/universal-ner, ``src/eval/evaluate.py``,
with ``src/utils.py`` and ``src/serve/inference.py`` for how a response reaches it):

- One query per (sentence, entity type) ("What describes TYPE in the text?"); its gold
  answer and the model's response are each a JSON list of strings.
- The response is what follows the last ``ASSISTANT:``, stripped (its inference step).
- Parse: only a bracketed list at the very start of the response counts, matched
  non-greedily (``\\[(.*?)\\]``, without DOTALL): it ends at the first ``]`` and never
  crosses a line, so a list written over several lines, a list after prose, or a text
  holding ``]`` gives no entity. No match reads as ``[]``. The match is decoded as JSON;
  any failure, in decoding or after, makes the whole list empty.
- Each item is normalised (below); an item that is itself a list becomes the tuple of
  its normalised elements (it never equals a gold string; in a response it cannot occur,
  since the match ends at the list's first ``]``); an item of another kind (a
  number, null, an object) makes the whole list empty. Repeated items are kept once.
- Normalisation: lower case; every ASCII punctuation character removed; the words
  ``a``, ``an``, ``the`` (at word boundaries) replaced by a space; whitespace runs
  collapsed and stripped.
- Gold answers go through the same parse. The gold list is the JSON of the mention
  texts, so a query whose gold text holds ``]`` parses to an empty gold list (the
  non-greedy match ends inside that text); ``gold_strings`` reproduces that.
- Counts are summed over all queries: predicted items, gold items, and predicted items
  found among the query's gold items; precision = correct / (predicted + 1e-10), recall
  = correct / (gold + 1e-10), F1 = 2PR / (P + R + 1e-10).

The partial variant (METHODS §6; not in the published script) counts a predicted item
correct when its word-overlap F1 (``word_f1``) with some gold item of the query reaches
0.5, and, for recall, a gold item found when some predicted item reaches 0.5 with it.
"""
from __future__ import annotations

import functools
import json
import re
import string
from collections import Counter

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)
_LIST_AT_START = re.compile(r"\[(.*?)\]")
EPSILON = 1e-10
PARTIAL_THRESHOLD = 0.5


@functools.lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """UniversalNER's normalisation of an answer string.

    >>> normalise("The  Bank of America, N.A.")
    'bank of america na'
    """
    text = text.lower().translate(_ASCII_PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def parse(response: str, repeats: list | None = None) -> tuple[list, str | None]:
    """``(items, failure)``: the normalised, unique items of a response by the
    script's parse, and why it gave none (None when it read a list, even ``[]``);
    items kept once are added to ``repeats`` (when given) each time they recur.

    >>> parse('["Paris", "the Paris", "Rome."] and more')
    (['paris', 'rome'], None)
    >>> print(parse('["Paris", ["a", "b"]]')[1])  # the match ends at the first "]"
    invalid JSON in '["Paris", ["a", "b"]': Expecting ',' delimiter: line 1 column 21 (char 20)
    >>> parse('Answer: ["Paris"]')
    ([], 'no [...] list at the start of the response, on its first line')
    >>> parse('["Paris", 3]')
    ([], 'an item is not a string or a list of strings: 3')
    """
    response = response.split("ASSISTANT:")[-1].strip()
    found = _LIST_AT_START.match(response)
    if found is None:
        return [], "empty response" if response == "" else \
            "no [...] list at the start of the response, on its first line"
    try:
        items = json.loads(found.group())
    except ValueError as error:
        return [], f"invalid JSON in {found.group()[:80]!r}: {error}"
    return normalised_items(items, repeats)


def normalised_items(items, repeats: list | None = None) -> tuple[list, str | None]:
    """Items as the script keeps them (the step after decoding), with its failure.

    >>> normalised_items(["Ada", "ada!", None])
    ([], 'an item is not a string or a list of strings: None')
    """
    if type(items) is list and set(map(type, items)) <= {str}:   # strings: at C speed
        kept = list(dict.fromkeys(map(normalise, items)))
        if len(kept) == len(items) or repeats is None:
            return kept, None
    kept = []
    for item in items:
        if isinstance(item, (list, tuple)):
            if not all(isinstance(element, str) for element in item):
                return [], f"an item is not a string or a list of strings: {item!r}"[:120]
            item = tuple(normalise(element) for element in item)
        elif isinstance(item, str):
            item = normalise(item)
        else:
            return [], f"an item is not a string or a list of strings: {item!r}"[:120]
        if item not in kept:
            kept.append(item)
        elif repeats is not None:
            repeats.append(item)
    return kept, None


def gold_strings(texts: list) -> list:
    """A query's gold items from its mention texts, as the script parses the JSON list
    of them: empty when a text holds ``]``.

    >>> gold_strings(["Paris", "the paris", "Rome"]), gold_strings(["[ here ]", "Rome"])
    (['paris', 'rome'], [])
    """
    if "]" in "".join(texts):   # (one text holds it)
        return []
    return normalised_items(texts)[0]


def word_f1(predicted: str, gold: str) -> float:
    """Word-overlap F1 of two normalised strings (words counted with repetition).

    >>> word_f1("new york", "new york city")
    0.8
    """
    predicted_words, gold_words = predicted.split(), gold.split()
    common = sum((Counter(predicted_words) & Counter(gold_words)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(predicted_words), common / len(gold_words)
    return 2 * precision * recall / (precision + recall)


def script_prf(correct: int, predicted: int, gold: int, found: int | None = None
               ) -> tuple[float, float, float]:
    """Precision, recall and F1 as the script computes them (1e-10 in each denominator);
    recall counts ``found`` gold items when given (the partial variant), else ``correct``.

    >>> script_prf(1, 2, 1)
    (0.499999999975, 0.9999999999, 0.6666666665777777)
    """
    precision = correct / (predicted + EPSILON)
    recall = (correct if found is None else found) / (gold + EPSILON)
    return precision, recall, 2 * precision * recall / (precision + recall + EPSILON)


__all__ = ["normalise", "parse", "normalised_items", "gold_strings", "word_f1",
           "script_prf", "EPSILON", "PARTIAL_THRESHOLD"]
