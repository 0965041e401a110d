"""tough_mentions: Tough Mentions Recall (TMR), recall on unseen and type-confusable mentions.

Gold test mentions are split by what the training data says about them (METHODS.md
section 1; Tu and Lignos, 2021): Seen, Unseen-Type (the text was a training mention, but
never of this type), Unseen-Tokens (the text was never a training mention), Unseen-Any
(both); and type-confusable mentions (TCM-All: the text has several gold types in the
test set), split into TCM-Unseen (unseen tokens) and TCM-Seen. Recall is reported on each
subset; precision and F1 only overall (false positives belong to no subset).

>>> import tough_mentions
>>> r = tough_mentions.score([["B-PER", "O", "B-LOC"]], [["B-PER", "O", "B-ORG"]],
...                          tokens=[["Ana", "in", "Lima"]],
...                          train=([["Lima", "won"]], [["B-ORG", "O"]]))
>>> d = r.to_dict()
>>> d["recall"], d["recall_unseen_tokens"], d["recall_unseen_type"], d["recall_seen"]
(0.5, 1.0, 0.0, None)
>>> d["counts"]["unseen_any"], d["composition"]["unseen_type"]
(2, 0.5)
>>> d["per_type"]["LOC"]["composition"]["unseen_type"]   # share of the LOC mentions
1.0
"""
from . import analysis
from .analysis import check_min_share, recall_spread, small_subsets
from .core import (ALL_SUBSETS, HEADLINE, ToughMentionsOptions, ToughMentionsResult,
                   gold_subsets, score, score_subsets)
from .partials import MergedToughMentions, ToughMentionsPartial, partial
from .subsets import (KIND_KEYS, NAMING, SEEN, SUBSET_LEGEND, SUBSET_NAMES, SUBSETS,
                      UNSEEN_TOKENS, UNSEEN_TYPE, MentionSubsets, SubsetNaming, classify,
                      confusable, training_pairs)

from .family import FAMILY  # noqa: E402  (the package's descriptor, last)

__all__ = [
    "FAMILY",
    "score", "partial", "ToughMentionsPartial", "MergedToughMentions", "score_subsets", "gold_subsets", "ToughMentionsOptions", "ToughMentionsResult",
    "HEADLINE",
    "ALL_SUBSETS", "SUBSETS", "SUBSET_NAMES", "NAMING", "SubsetNaming", "SUBSET_LEGEND",
    "KIND_KEYS", "SEEN", "UNSEEN_TYPE",
    "UNSEEN_TOKENS", "MentionSubsets", "classify", "confusable", "training_pairs",
    "analysis", "small_subsets", "recall_spread", "check_min_share",
]
