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

from . import generated

SHOWN = 3


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
    # what a system's generated output had that became no span: the model's own text
    for system, record in generated.records(results).items():
        out.setdefault(system, {}).update(generated.example_rows(record))
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
