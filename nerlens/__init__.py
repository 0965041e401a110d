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

# The report and the experiment import every family, the pages and the figures: they are
# imported when first used (``nerlens.exports``), so that a command that uses neither
# starts without them. Their packages come first: ``nerlens.report`` and
# ``nerlens.experiment`` are then the functions of these names, however late a module of
# the packages is imported (importing a submodule binds only a package not imported yet).
from . import experiment as _experiment_package
from . import report as _report_package
from .exports import on_demand
from .families import register_family
from nerspan.reading.systems import read_systems

del experiment   # the function of that name, from ``__getattr__``
__getattr__ = on_demand(__name__, {"experiment": ".experiment", "Experiment": ".experiment",
                                   "Report": ".report"})

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
        return _report_package.report(gold, systems, train, **options)
    if gold is not None or systems is not None or options.pop("corpus", None) is not None:
        raise ValueError("give datasets=... (each with its gold, train and systems) or "
                         "gold and systems, not both")
    return _experiment_package.experiment(datasets, **options)
