"""The attribute buckets as a metric family of nerlens: its descriptor, ``FAMILY``."""
from __future__ import annotations

from nerspan.family import ExperimentPart, Family, Headline, Logged, Rule

from . import report
from .attributes import EVERY_SHAPE
from .core import BucketOptions, score
from .partials import partial

FAMILY = Family(
    name="attribute_buckets",
    title="Attribute buckets: F1 by entity and sentence attributes",
    order=4,
    score=score,
    options=BucketOptions,
    needs_train=True,
    needs_tokens=True,
    nested_options={"attributes": EVERY_SHAPE},
    # no bootstrap statistic: the report computes it from each system's buckets
    headline=(Headline("largest_gap", "gap", report.GAP_NOTE, title="largest bucket gap",
                       value=report.largest_gap),),
    statistic_name=report.statistic_name,
    same_as_entity=("f1",),
    figures=report.figures,
    section=report.section,
    overview=report.overview,
    findings=(Rule("bucket_gap", report.BUCKET_GAP, report.bucket_gap),
              Rule("token_bucket_gap", report.TOKEN_BUCKET_GAP, report.token_bucket_gap)),
    plot_command="nerlens buckets --plot",
    experiment=ExperimentPart(("attribute_wise", "model_wise"), report.views,
                              report.experiment_sections, report.experiment_figures,
                              findings=(Rule("attribute", report.ATTRIBUTE, report.attribute),)),
    logged=Logged({"buckets": "drop"}, headline=("f1",), trainer_keys=("eLen/*/f1",)),
    takes_nested=True,
    partial=partial,
)
