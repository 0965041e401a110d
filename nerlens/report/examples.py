"""Error examples: for each system, the sentences it gets wrong, by kind of error.

Kinds: FairEval's error types (LE: wrong label, BE: wrong boundary, LBE: both, FN: a gold
mention with no overlapping prediction, FP: a prediction with no overlapping gold
mention), the tough mentions it misses (an unseen gold mention not predicted exactly)
and hardeval's label-shifted (diff) tokens it gets wrong (``analyses``).
The families list them (faireval ``return_pairs``, tough_mentions ``return_mentions``);
``collect`` moves those lists out of the result dicts, so the results keep their usual
shape. report.json keeps every example (sentence index and spans: ``[type, start,
end)``, token positions in the sentence); the page shows ``SHOWN`` of each kind per
system, spread over the test set, with their sentences.
"""
from __future__ import annotations

import numpy as np

# family -> the score() options that make it list its errors or mentions
LISTING_OPTIONS = {"faireval": {"return_pairs": True},
                   "tough_mentions": {"return_mentions": True}}

KINDS = {"LE": "wrong label (LE)", "BE": "wrong boundary (BE)",
         "LBE": "wrong label and boundary (LBE)", "FN": "missed mention (FN)",
         "FP": "spurious mention (FP)", "missed_unseen": "missed unseen mention",
         "diff_token": "wrong label-shifted token"}
FAIREVAL_KINDS = {"LE": "LE", "BEs": "BE", "BEl": "BE", "BEo": "BE", "LBE": "LBE",
                  "FN": "FN", "FP": "FP"}
SHOWN = 3


def collect(results: dict, corpus) -> dict:
    """``{system: {kind: [example, ...]}}``, every example of every kind; removes the
    families' listings (``pairs``, ``mentions``) from ``results``."""
    out = {}
    for system, by_family in results.items():
        kinds: dict = {kind: [] for kind in KINDS}
        pairs = by_family.get("faireval", {}).pop("pairs", None) or []
        for sentence, events in enumerate(pairs):
            for event in events:
                kind = FAIREVAL_KINDS.get(event["type"])
                if kind:
                    kinds[kind].append({"sentence": sentence, "error": event["type"],
                                        "gold": event["target"],
                                        "predicted": event["system"]})
        mentions = by_family.get("tough_mentions", {}).pop("mentions", None) or {}
        for mention in mentions.get("unseen_any", []):
            if not mention["hit"]:
                start, end, sentence = mention["start"], mention["end"], mention["sentence"]
                kinds["missed_unseen"].append({
                    "sentence": sentence, "gold": [mention["type"], start, end],
                    "text": mention["text"],
                    "predicted_tags": corpus.tags(system, sentence)[start:end]})
        if pairs or mentions:
            out[system] = {kind: rows for kind, rows in kinds.items() if kind in
                           FAIREVAL_KINDS.values() or kind == "missed_unseen"}
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
