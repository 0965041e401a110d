"""What lenient decoding repaired in a report, gathered from the family results."""
from __future__ import annotations

from ..families import family_package


def decoding_repairs(results: dict) -> dict:
    """What lenient decoding repaired, without zeros: ``{"gold" or system: {source:
    {kind: count}}}``. Sources: nerspan's decoding (every family reads the spans it
    decodes; ``repairs`` of the entity scores) and hardeval's re-encoding of the
    predictions as BILOU (its ``REFERENCE_KINDS``).

    ``results`` is the report's system -> family -> result dict.
    """
    out: dict = {}
    reference_kinds = family_package("hardeval").labels.REFERENCE_KINDS
    for system, by_family in results.items():
        decoded = by_family.get("entity", {}).get("repairs", {})
        for side, owner in (("gold", "gold"), ("pred", system)):
            counts = {k: v for k, v in decoded.get(side, {}).items() if k != "sentences" and v}
            if counts:
                out.setdefault(owner, {})["decoding"] = counts
        hard = by_family.get("hardeval", {}).get("repairs", {}).get("pred", {})
        counts = {k: hard[k] for k in reference_kinds if hard.get(k)}
        if counts:
            out.setdefault(system, {})["hardeval re-encoding"] = counts
    return out
