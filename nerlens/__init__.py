"""nerlens: NER evaluation that says where a model fails.

The layer above the four metric families (``tough_mentions``, ``hardeval``,
``faireval``, ``attribute_buckets``): the ``nerlens`` command and the demo data.
"""
from nerspan import __version__

__all__ = ["__version__"]
