"""Names a reader understands for the report's statistics and buckets.

report.json keeps the stable keys (``attribute_buckets.buckets.eLen.0``,
``tough_mentions.recall_unseen_any``); the page and the terminal show what they mean
("F1, entity length XS {1}", "recall, unseen mentions (any)"). Every number of the report
is a fraction in [0, 1]; the page and the terminal show it in percent and say so.
"""
from __future__ import annotations

def pair_key(system: str, other: str) -> str:
    """The key of a comparison of ``system`` with ``other`` (``comparisons``, Wilcoxon
    tests): ``"system vs other"``. Built, never split back: a system's name may hold
    " vs ".

    >>> pair_key("x vs y", "base")
    'x vs y vs base'
    """
    return f"{system} vs {other}"


ENTITY = {"entity_f1": "entity F1", "entity_precision": "entity precision",
          "entity_recall": "entity recall"}

TOUGH_SUBSETS = {
    "all": "all mentions",
    "seen": "seen mentions (text and type in training)",
    "unseen_any": "unseen mentions (any)",
    "unseen_tokens": "unseen mentions (text never a training mention)",
    "unseen_type": "unseen mentions (text seen, type never)",
    "tcm_all": "type-confusable mentions",
    "tcm_seen": "type-confusable mentions, seen",
    "tcm_unseen": "type-confusable mentions, unseen",
}

HARD_SUBSETS = {
    "ter": "all tokens", "ter_unseen": "unseen tokens", "ter_unseen_i": "unseen tokens in mentions",
    "ter_unseen_o": "unseen tokens outside mentions", "ter_diff": "label-shifted tokens",
    "ter_diff_i": "label-shifted: mostly O in training, in a mention here",
    "ter_diff_o": "label-shifted: mostly in mentions in training, O here",
    "ter_diff_e": "label-shifted: mostly another type in training",
    "ter_other": "other tokens",
}

FAIREVAL = {"fair_precision": "fair precision (FairEval)", "fair_recall": "fair recall (FairEval)",
            "fair_f1": "fair F1 (FairEval)"}

# faireval's SemEval-2013 Task 9.1 schemas (``faireval.semeval.<schema>.f1``)
SEMEVAL = {"strict": "strict: exact span and type", "exact": "exact: exact span, any type",
           "partial": "partial: overlapping span, any type",
           "ent_type": "type: overlapping span, same type"}

ATTRIBUTES = {"eLen": "entity length", "sLen": "sentence length", "eDen": "entity density",
              "oDen": "OOV density", "eCon": "entity label consistency",
              "eFre": "entity frequency", "tCon": "token label consistency",
              "tFre": "token frequency", "tag": "entity type"}

BUCKET_PREFIX = "attribute_buckets.buckets."


def attribute_name(attribute: str) -> str:
    """``eLen`` -> ``entity length (eLen)``; an unknown (custom) attribute as it is."""
    name = ATTRIBUTES.get(attribute)
    return f"{name} ({attribute})" if name else attribute


def bucket_label(bucket: dict) -> str:
    """A bucket's name with its interval; a type bucket is named by its type alone."""
    if bucket["interval"] == bucket["name"]:
        return str(bucket["name"])
    return f"{bucket['name']} {bucket['interval']}"


def bucket_of(name: str, buckets: dict) -> tuple[str, dict] | None:
    """``(attribute, bucket row)`` of a bucket statistic's key, else None."""
    if not name.startswith(BUCKET_PREFIX):
        return None
    attribute, _, index = name[len(BUCKET_PREFIX):].rpartition(".")
    rows = buckets.get(attribute)
    if rows is None or not index.isdigit() or int(index) >= len(rows):
        return None
    return attribute, rows[int(index)]


def statistic_label(name: str, buckets: dict | None = None) -> str:
    """The readable name of a report statistic. ``buckets`` is one system's
    ``attribute_buckets`` result ``buckets`` (attribute -> bucket rows), for the bucket
    names and intervals."""
    if name in ENTITY:
        return ENTITY[name]
    family, _, key = name.partition(".")
    if family == "tough_mentions" and key.startswith("recall_"):
        subset = key[len("recall_"):]
        return f"recall, {TOUGH_SUBSETS.get(subset, subset)}"
    if family == "hardeval":
        if key == "hardeval":
            return "hardeval score (mean TER unseen, label-shifted)"
        return f"token error rate, {HARD_SUBSETS.get(key, key)}"
    if family == "faireval":
        schema = key[len("semeval."):-len(".f1")] if key.startswith("semeval.") else None
        if schema in SEMEVAL and key.endswith(".f1"):
            return f"F1, SemEval-2013 {SEMEVAL[schema]}"
        return FAIREVAL.get(key, key)
    found = bucket_of(name, buckets or {})
    if found:
        attribute, bucket = found
        return f"F1, {attribute_name(attribute)} {bucket_label(bucket)}"
    return name
