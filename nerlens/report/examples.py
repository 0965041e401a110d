"""Error examples: for each system, the sentences it gets wrong, by kind of error.

Each family that lists examples says how (``Family.examples``): its kinds, and a function
from a system's result dict (scored with the family's ``report_options``) to its rows.
``collect`` gathers them and removes the listings from the result dicts, so the results
keep their usual shape; a system given as generated output adds what became no span
(``generated``: entities not in the sentence, responses not read), with its text. report.json keeps every example (sentence index and spans:
``[type, start, end)``, token positions in the sentence); the page shows ``SHOWN`` of each
kind per system, spread over the test set, with their sentences.
"""
from __future__ import annotations

import numpy as np

from nerspan.errors import counted

from . import generated

SHOWN = 3
CONTEXT = 8   # tokens shown on each side of an example's spans in a long sentence


def window(length: int, spans, context: int = CONTEXT) -> tuple[int, int]:
    """The tokens ``[low, high)`` an example shows of a sentence of ``length`` tokens:
    its spans (``[type, start, end)``, None for no span) and ``context`` tokens on each
    side. An example costs its window, not its sentence (a document never split into
    sentences is one sentence of a million tokens).

    >>> window(100, [["PER", 40, 42], None]), window(5, [["PER", 1, 2]])
    ((32, 50), (0, 5))
    """
    given = [span for span in spans if span]
    if not given:
        return 0, min(length, 2 * context)
    return (max(0, min(s[1] for s in given) - context),
            min(length, max(s[2] for s in given) + context))


def cut_note(count: int) -> str:
    """What an ellipsis stands for: the tokens of the sentence left out there.

    >>> cut_note(1), cut_note(12)
    ('1 token of the sentence left out', '12 tokens of the sentence left out')
    """
    return f"{counted(count, 'token')} of the sentence left out"


def kinds(families) -> dict:
    """Kind -> its human name, of every family (descriptors) that lists examples."""
    return {**{kind: name for family in families if family.examples is not None
               for kind, name in family.examples.kinds.items()}, **generated.kind_names()}


def subset_names(families) -> dict:
    """A token example's subset -> its human name, of every family (descriptors) that
    lists examples."""
    return {key: name for family in families if family.examples is not None
            for key, name in family.examples.subsets.items()}


def collect(results: dict, context, families) -> dict:
    """``{system: {kind: [example, ...]}}``, every example of every kind of the families
    (descriptors, in the report's order) that ran; removes the families' listings
    (``Examples.listed``) from ``results``."""
    out: dict = {}
    for family in families:
        if family.examples is None:
            continue
        for system, by_family in results.items():
            result = by_family[family.name]
            rows = family.examples.rows(result, system, context)
            out.setdefault(system, {}).update(rows)
            for key in family.examples.listed:
                result.pop(key, None)
    # what a system's generated output had that became no span: the model's own text,
    # its listings named by gold's numbers (``repairs``), here by their places again (as
    # every example is until the report names them all by gold's, ``build``)
    numbers = context.corpus.source.sentence_numbers
    place = None if numbers is None else {int(n): k for k, n in enumerate(numbers.tolist())}
    for system, record in generated.records(results).items():
        rows = generated.example_rows(record)
        if place is not None:
            rows = {kind: [{**row, "sentence": place[row["sentence"]]} for row in kind_rows]
                    for kind, kind_rows in rows.items()}
        out.setdefault(system, {}).update(rows)
    return out


def shown_examples(rows: list) -> list:
    """``SHOWN`` examples spread evenly over the list (the list is in sentence order)."""
    if len(rows) <= SHOWN:
        return rows
    return [rows[i] for i in np.linspace(0, len(rows) - 1, SHOWN).round().astype(int)]


def shown_sentences(examples: dict, corpus) -> dict:
    """Sentence index (a string, as JSON keys are) -> tokens, for the shown examples."""
    wanted = {row["sentence"] for kinds in examples.values() for rows in kinds.values()
              for row in shown_examples(rows)}
    return {str(i): corpus.sentence_tokens(i) for i in sorted(wanted)}
