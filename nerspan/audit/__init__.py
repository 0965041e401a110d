"""Gold you can audit (METHODS §10): gold is not truth.

- ``diff`` (``mention_diff``): two annotations of the same tokens, the tags that differ
  and every mention by kind of change (``DIFF_KINDS``), per type, in their sentences;
- ``agreement`` (``annotator_agreement``): mention F1 with one as reference and Cohen's
  kappa over the tokens' tags, overall and per type;
- ``score_golds`` / ``compare_golds`` (``gold_versions``): systems under several golds,
  the differences with paired bootstrap intervals, rankings, Kendall's tau-a, flips,
  and the errors a correction removes (``error_changes``);
- ``suspects`` (``suspect_gold``): the gold mentions and missing mentions that look
  wrong, ranked with their evidence; ``corrections_found`` measures a ranking against a
  known correction.

Everything reads flat spans (``nerspan.Spans``, one tag column decoded) of one
``Corpus``'s positions; ``diff`` and ``agreement`` also read tag lists or a corpus's
columns (``annotations.read_two``), refusing generated output as either side.
``diff_parts``, ``agreement_parts`` and ``suspects_parts`` are the results' terminal
views, as page blocks (``nerspan.blocks``).
"""
from __future__ import annotations

from .annotator_agreement import Agreement, agreement, agreement_parts, cohen_kappa
from .gold_versions import GoldComparison, compare_golds, error_changes, score_golds
from .mention_diff import DIFF_KINDS, Diff, diff, diff_parts, diff_spans, mention_kinds
from .suspect_gold import (EVIDENCE, SuspectOptions, Suspects, corrections_found, evidence_text,
                           expected_at_random, in_sentence, suspects, suspects_parts)

__all__ = ["DIFF_KINDS", "Diff", "diff", "diff_spans", "mention_kinds", "Agreement",
           "agreement", "cohen_kappa", "GoldComparison", "compare_golds", "error_changes",
           "score_golds", "EVIDENCE", "SuspectOptions", "Suspects", "suspects", "evidence_text",
           "in_sentence", "corrections_found", "expected_at_random", "diff_parts", "agreement_parts",
           "suspects_parts"]
