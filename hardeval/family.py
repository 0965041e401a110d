"""hardeval as a metric family of nerlens: its descriptor, ``FAMILY``."""
from __future__ import annotations

from nerspan.family import Examples, Family, Headline, Logged

from . import report
from .core import HardevalOptions, score
from .partials import partial
from .subsets import LEAF_NAMES

FAMILY = Family(
    name="hardeval",
    title="hardeval: token error rates on unseen and label-shifted tokens",
    order=2,
    score=score,
    options=HardevalOptions,
    needs_train=True,
    needs_tokens=True,
    headline=(Headline("hardeval", "hardeval",
                       "hardeval score, mean token error rate on unseen and label-shifted "
                       "tokens (lower is better)", title="hardeval (lower is better)",
                       undefined="hardeval with no unseen or label-shifted token"),),
    statistic_name=report.statistic_name,
    analyses=report.analyses,
    examples=Examples({"diff_token": "wrong label-shifted token"}, report.diff_tokens,
                      subsets={leaf: report.subset_title(leaf) for leaf in LEAF_NAMES}),
    section=report.section,
    repairs=report.REPAIRS,
    logged=Logged({"subsets": "drop"}, headline=("hardeval", "ter_unseen", "ter_diff"),
                  trainer_keys=("ter", "ter_other")),
    takes_nested=True,
    partial=partial,
)
