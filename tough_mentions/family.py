"""Tough Mentions Recall as a metric family of nerlens: its descriptor, ``FAMILY``."""
from __future__ import annotations

from nerspan.family import Examples, ExperimentPart, Family, Headline, Logged, Rule

from . import report
from .analysis import check_min_share
from .core import ToughMentionsOptions, score
from .partials import partial

FAMILY = Family(
    name="tough_mentions",
    title="Tough mentions: recall on unseen and type-confusable mentions",
    order=1,
    score=score,
    options=ToughMentionsOptions,
    needs_train=True,
    needs_tokens=True,
    headline=(Headline("recall_unseen_any", "R unseen", "recall on unseen mentions",
                       undefined="recall on unseen mentions when every mention is seen"),),
    statistic_name=report.statistic_name,
    same_as_entity=("precision", "recall", "f1"),
    report_options={"return_mentions": True},
    settings={"min_share": check_min_share},
    analyses=report.analyses,
    examples=Examples({"missed_unseen": "missed unseen mention"}, report.missed_unseen,
                      listed=("mentions",)),
    section=report.section,
    findings=(Rule("no_seen_mentions", report.NO_SEEN_MENTIONS, report.no_seen_mentions,
                   warning=True),
              Rule("seen_unseen_gap", report.SEEN_UNSEEN_GAP, report.seen_unseen_gap)),
    experiment=ExperimentPart(("tough_mentions",), report.over_runs,
                              report.experiment_sections),
    logged=Logged({"counts": "suffix:count", "hits": "suffix:hits"},
                  headline=("recall", "recall_unseen_any"),
                  trainer_keys=("recall_seen", "recall_unseen_tokens", "recall_unseen_type",
                                "recall_tcm_all", "per_type/*/recall_unseen_any")),
    takes_nested=True,
    partial=partial,
)
