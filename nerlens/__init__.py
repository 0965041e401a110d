"""nerlens: NER evaluation that says where a model fails.

The layer above the metric families (the four built-in ones: ``tough_mentions``,
``hardeval``, ``faireval``, ``attribute_buckets``; any other registered with
``register_family`` or an entry point, see ``nerlens.families``): the ``nerlens``
command (``nerlens.cli``), the one-pass report (``nerlens.report``), whole experiments
(``nerlens.experiment``), the Trainer helper and the demo data.
"""
from __future__ import annotations

from typing import Mapping

from nerspan import __version__

from .experiment import Experiment, experiment
from .families import register_family
from .report import Report
from .report import report as dataset_report
from .systems import read_systems

__all__ = ["__version__", "report", "Report", "experiment", "Experiment", "read_systems",
           "register_family"]


def report(gold=None, systems: Mapping | None = None, train=None, *,
           datasets: Mapping | None = None, **options):
    """Every method in one pass: the report of ``gold`` and ``systems``, or, with
    ``datasets=`` instead of them, the report of a whole experiment.

    Without ``datasets`` this is ``nerlens.report.build.report`` (gold decoded once,
    every family run on every system, bootstrap intervals and paired comparisons; its
    options are documented there) and returns a ``Report``. With ``datasets`` (several
    datasets, several runs per system) it is ``nerlens.experiment(datasets, **options)``
    and returns an ``Experiment``.
    """
    if datasets is None:
        return dataset_report(gold, systems, train, **options)
    if gold is not None or systems is not None or options.pop("corpus", None) is not None:
        raise ValueError("give datasets=... (each with its gold, train and systems) or "
                         "gold and systems, not both")
    return experiment(datasets, **options)
