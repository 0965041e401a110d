"""FairEval as a metric family of nerlens: ``describe(score)``, its descriptor.

``faireval``'s ``score`` lives in the package's ``__init__``, which builds ``FAMILY`` with
``describe`` (this module cannot import the package: that would be an import circle).
"""
from __future__ import annotations

from nerspan.family import Examples, Family, Headline, Logged, Rule

from . import report


def describe(score, options, partial) -> Family:
    """FairEval's descriptor around its ``score``, its options' record and its
    ``partial`` (``faireval.partials``)."""
    return Family(
        name="faireval",
        title="faireval: error types without double penalties",
        order=3,
        score=score,
        options=options,
        headline=(Headline("fair_f1", "fair F1", "FairEval's F1 without double penalties",
                           title="fair F1"),),
        statistic_name=report.statistic_name,
        same_as_entity=("traditional_f1",),
        # the report shows the SemEval-2013 schemas and lists every error as an example
        report_options={"schemas": "semeval", "return_pairs": True},
        examples=Examples(report.KINDS, report.error_examples, listed=("pairs",),
                          classifies_mentions=True),
        figures=report.figures,
        section=report.section,
        findings=(Rule("boundary_errors", report.BOUNDARY_ERRORS, report.boundary_errors),),
        plot_command="nerlens faireval --plot",
        logged=Logged(headline=("fair_f1", "traditional_f1", "f1"),
                      trainer_keys=("precision", "recall", "fair_precision", "fair_recall",
                                    "per_type/*/f1", "per_type/*/fair_f1")),
        partial=partial,
        takes_nested=True,
    )
