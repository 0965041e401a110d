"""nerlens: NER evaluation that says where a model fails.

The layer above the four metric families (``tough_mentions``, ``hardeval``,
``faireval``, ``attribute_buckets``): the ``nerlens`` command, the one-pass report, the
Trainer helper and the demo data.
"""
from nerspan import __version__

# The function shadows its module's name on purpose: ``nerlens.report(...)`` runs the
# report (imported here, eagerly, so that no later ``import nerlens.report`` rebinds it).
from .report import Report, report
from .systems import read_systems
from .experiment import Experiment, experiment  # noqa: E402 (after report: it uses it)

__all__ = ["__version__", "report", "Report", "experiment", "Experiment", "read_systems"]
