"""What lenient decoding repaired in a report, gathered from the family results."""
from __future__ import annotations

from . import generated
from .views import every_family

DECODING_NOTE = ("Lenient decoding reads tags as conlleval.pl does: an invalid transition "
                 "(e.g. O followed by I-PER) starts a mention, a tag outside the scheme is "
                 "read by its usual meaning.")


def decoding_repairs(results: dict) -> dict:
    """What lenient decoding repaired, without zeros: ``{"gold" or system: {source:
    {kind: count}}}``. Sources: nerspan's decoding (every family reads the spans it
    decodes; ``repairs`` of the entity scores) and the repairs a family makes beyond it
    (``Family.repairs``: hardeval's re-encoding of the predictions as BILOU).

    ``results`` is the report's system -> family -> result dict.
    """
    out: dict = {}
    repairing = [f for f in every_family() if f.repairs is not None]
    for system, by_family in results.items():
        decoded = by_family.get("entity", {}).get("repairs", {})
        for side, owner in (("gold", "gold"), ("pred", system)):
            counts = {k: v for k, v in decoded.get(side, {}).items()
                      if k not in ("sentences", "generative") and v}
            if counts:
                out.setdefault(owner, {})["decoding"] = counts
            record = decoded.get(side, {}).get("generative")
            if record and generated.repair_counts(record):
                out.setdefault(owner, {})[generated.SOURCE] = generated.repair_counts(record)
        for family in repairing:
            if family.name in by_family:
                counts = family.repairs.count(by_family[family.name])
                if counts:
                    out.setdefault(system, {})[family.repairs.source] = counts
    return out


def repairs_note() -> str:
    """What the repairs are: lenient decoding's and every family's."""
    return " ".join([DECODING_NOTE] + [f.repairs.note for f in every_family()
                                       if f.repairs is not None])
