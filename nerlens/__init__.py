"""nerlens: NER evaluation that says where a model fails.

The layer above the four metric families (``tough_mentions``, ``hardeval``,
``faireval``, ``attribute_buckets``): the ``nerlens`` command and the demo data.
"""
from nerspan import __version__


def report(*args, **kwargs):
    """Every method in one pass; see ``nerlens.report.report`` (imported on first use)."""
    from .report import report as run_report

    return run_report(*args, **kwargs)


__all__ = ["__version__", "report"]
