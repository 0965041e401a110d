"""nerlens: NER evaluation that says where a model fails.

The layer above the metric families (the four built-in ones: ``tough_mentions``,
``hardeval``, ``faireval``, ``attribute_buckets``; any other registered with
``register_family`` or an entry point, see ``nerlens.families``): the ``nerlens``
command (``nerlens.cli``), the one-pass report (``nerlens.build_report``, package
``nerlens.report``), whole experiments (``nerlens.run_experiment``, package
``nerlens.experiment``), the Trainer helper and the demo data.
"""
from __future__ import annotations

from nerspan import __version__
from nerspan.reading.systems import read_systems

# The report and the experiment import every family, the pages and the figures: they are
# imported when first used (``nerlens.exports``), so that a command that uses neither
# starts without them. ``nerlens.report`` and ``nerlens.experiment`` are their packages.
from . import experiment, report  # noqa: F401  (the packages: calling one names its function)
from .exports import on_demand
from .families import register_family

__getattr__ = on_demand(__name__, {"build_report": ".report.build", "Report": ".report.build",
                                   "run_experiment": ".experiment.build",
                                   "Experiment": ".experiment.build"})

__all__ = ["__version__", "build_report", "Report", "run_experiment", "Experiment",
           "read_systems", "register_family"]
