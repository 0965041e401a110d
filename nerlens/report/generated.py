"""Generated output (an LLM's responses) in the report: how much of it was usable, and
what was not, entity by entity.

A system read from generated output carries, in its entity scores' ``repairs``
(``pred["generative"]``, ``nerspan.generative.GenerativeRepairs.to_dict``), what reading
and grounding did. The report states how much of it became spans (a finding, first of
all), lists what did not (error examples of their own kinds, with the model's text) and
counts it beside the decoding repairs.
"""
from __future__ import annotations

from nerspan.errors import counted
from nerspan.family import finding, percent

# Example kind -> (its human name, the listing of ``to_dict()["listed"]`` it shows).
KINDS = {"ungrounded": ("entity not in the sentence", "ungrounded"),
         "unparsed": ("response not read", "parse_failures"),
         "rejected": ("item that is no entity", "rejected"),   # with why: a misspelt key
         "unknown_type": ("entity of an unknown type", "unknown_types"),
         "dropped_overlap": ("overlapping entity dropped", "dropped_overlaps")}

RULE = ("For a system given as generated output (an LLM's responses), the share of its "
        "entities that are not in their sentence (a wrong prediction in every precision), "
        "the responses that could not be read and the share of entities that became spans.")

SOURCE = "generated output"   # its rows' "where" in the repairs table
NOTE = ("Generated output (an LLM's responses): the rows count responses that could not be "
        "read, items that are no entity, entities of a type gold does not have, listed "
        "twice, found nowhere in their sentence (each a wrong prediction) and overlapping "
        "spans dropped (the longer one kept); the error examples show them with the "
        "model's text.")

# ``to_dict()`` counts shown among the repairs (the listings are the examples).
COUNTED = ("parse_failures", "rejected", "unknown_types", "duplicates", "ungrounded",
           "dropped_overlaps")


def records(results: dict) -> dict:
    """System -> its generated output's record (``to_dict()``), for the systems that
    have one; ``results`` is the report's system -> family -> result dict."""
    out = {}
    for system, by_family in results.items():
        record = by_family.get("entity", {}).get("repairs", {}).get("pred", {}).get("generative")
        if record:
            out[system] = record
    return out


def usable(report) -> list[dict]:
    """One finding per generated system: "12% of the model's entities are not in the
    sentence", with the unread responses and the usable share."""
    out = []
    for system, record in records(report.results).items():
        entities, ungrounded = record["entities"], record["ungrounded"]
        share = ungrounded / entities if entities else 0.0
        parts = [f"{percent(share)} of {system}'s entities are not in the sentence "
                 f"({ungrounded} of {counted(entities, 'entity', 'entities')}, each a wrong "
                 "prediction)"]
        if record["parse_failures"]:
            parts.append(f"{record['parse_failures']} of "
                         f"{counted(record['responses'], 'response')} could not be read")
        usable_share = record["usable"] / entities if entities else 0.0
        parts.append(f"{percent(usable_share)} of its entities became spans")
        out.append(finding("generated_output", system, "; ".join(parts) + ".",
                           size=1 - usable_share, ungrounded_share=share,
                           usable_share=usable_share, responses=record["responses"],
                           parse_failures=record["parse_failures"], entities=entities))
    return out


def example_rows(record: dict) -> dict:
    """Kind -> rows of what did not become a span: ``{"sentence", "gold": None,
    "predicted": None, "generated": text, "type", "reason"}``."""
    out = {}
    for kind, (_, listing) in KINDS.items():
        rows = [{"sentence": item["sentence"], "gold": None, "predicted": None,
                 "generated": item["text"], "type": item.get("type"),
                 "reason": item.get("reason")}
                for item in record["listed"].get(listing, [])]
        if rows:
            out[kind] = rows
    return out


def kind_names() -> dict:
    return {kind: name for kind, (name, _) in KINDS.items()}


def repair_counts(record: dict) -> dict:
    """The record's non-zero counts, for the repairs table."""
    return {kind: record[kind] for kind in COUNTED if record.get(kind)}


__all__ = ["records", "usable", "example_rows", "kind_names", "repair_counts", "KINDS",
           "RULE", "SOURCE", "NOTE"]
