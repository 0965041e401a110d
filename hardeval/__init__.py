"""hardeval: token error rates on unseen and label-shifted tokens.

Test tokens are split by what training says about them (METHODS.md section 2): *unseen*
(the token string never occurs in training), *diff* (its gold label is not its usual
training label: diff-I, diff-O, diff-E, keyed ``diff_i``, ``diff_o``, ``diff_e``) and
*other*; the token error rate (TER) is reported on each subset, and ``hardeval`` = mean TER on unseen and diff (lower is better).

>>> import hardeval
>>> r = hardeval.score([["B-PER", "O"]], [["B-PER", "B-PER"]], tokens=[["Ana", "sings"]],
...                    train=([["Ana", "sings"]], [["O", "O"]]))
>>> r.subsets["diff_i"].tokens, r.ter("diff_i"), r.ter("other")
(1, 0.0, 1.0)
"""
from . import analysis
from .analysis import corpus_statistics, hard_tokens, subset_shares, token_errors
from .core import (DOMAIN_KEYS, HEADLINE, HardevalOptions, HardevalResult, LayeredHardevalResult,
                   SubsetStats, average_domains, score, score_codes, score_domains,
                   systems_over_domains)
from .partials import (HardevalPartial, LayeredHardevalPartial, SpanListHardevalPartial,
                       partial)
from .labels import ERROR_LABELS, ReferenceRepairs, encode, reference_mentions
from .subsets import (DIFF_E, DIFF_I, DIFF_O, GROUPS, HEADER_LEGEND, HEADERS, LEAF_NAMES,
                      OTHER, UNSEEN_I, UNSEEN_O, classify, classify_tokens, gold_io,
                      gold_token_classes, kfold_folds, kfold_subsets, sentence_folds)

from .family import FAMILY  # noqa: E402  (the package's descriptor, last)

__all__ = [
    "FAMILY",
    "score", "partial", "HardevalPartial", "LayeredHardevalPartial", "SpanListHardevalPartial", "score_codes", "score_domains", "average_domains",
    "systems_over_domains",
    "HardevalOptions",
    "HardevalResult", "LayeredHardevalResult",
    "SubsetStats", "HEADLINE", "ERROR_LABELS", "ReferenceRepairs", "reference_mentions",
    "encode", "classify", "classify_tokens", "gold_token_classes", "gold_io", "kfold_folds", "kfold_subsets",
    "sentence_folds", "GROUPS",
    "LEAF_NAMES", "HEADERS", "HEADER_LEGEND", "OTHER", "UNSEEN_I", "UNSEEN_O", "DIFF_I",
    "DIFF_O", "DIFF_E", "DOMAIN_KEYS",
    "analysis", "hard_tokens", "token_errors", "subset_shares", "corpus_statistics",
]
