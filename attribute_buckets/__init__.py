"""attribute_buckets: interpretable evaluation by attribute buckets (Fu et al., 2020).

Every gold and predicted mention (or token) gets a value for nine attributes — eLen,
sLen, eDen, oDen, eCon, eFre (mentions), tCon, tFre (tokens) and the discrete tag (the
entity type) — the values are cut into buckets (edges from the gold values; one bucket
per type for tag), and precision, recall and F1 are reported per bucket, so that one sees
*where* a system fails: long entities, rare ones, inconsistent ones, dense sentences, one
type... (METHODS.md section 4). ``analysis`` compares systems and datasets; ``plots``
draws the pictures.

>>> import attribute_buckets
>>> tags = [["O", "O", "B-LOC", "I-LOC", "O", "O", "O"]]
>>> r = attribute_buckets.score(tags, tags, attributes=["eLen", "sLen", "eDen"])
>>> [(b["interval"], b["gold"]) for b in r.to_dict()["buckets"]["eLen"]]
[('{1}', 0), ('{2}', 1), ('{3}', 0), ('[4, inf)', 0)]
>>> r.to_dict()["attributes"]["eDen"]["mean_value"] == 2 / 7
True
>>> r = attribute_buckets.score(tags, tags, attributes=["tag"])
>>> [(b["name"], b["gold"], b["f1"]) for b in r.to_dict()["buckets"]["tag"]]
[('LOC', 1, 1.0)]
"""
from nerspan.migration import moved_names

from .attributes import (ATTRIBUTE_TABLE, ATTRIBUTES, DISCRETE_ATTRIBUTES, FREQUENCY_NORMS,
                         MENTION_ATTRIBUTES, NEEDS_TRAINING, TOKEN_ATTRIBUTES, Attribute)
from .bucketing import (REFERENCE_RULES, STRATEGIES, Bucket, assign, bucket_names,
                        edges_buckets, equal_count, equal_width, equal_width_buckets,
                        reference_buckets, strategy_buckets)
from .discrete import DISCRETE, Category, tag_buckets
from .core import (COMPATS, AttributeBucketsResult, AttributeTable, BucketOptions,
                   bucket_f1_statistic, score)
from .tables import TrainingTables, training_tables
from .partials import BucketsPartial, MergedAttributeBuckets, partial
from . import analysis, plots  # noqa: E402  (both import scipy/matplotlib only when used)

from .family import FAMILY  # noqa: E402  (the package's descriptor, last)

__all__ = [
    "FAMILY",
    "score", "BucketOptions", "AttributeBucketsResult", "AttributeTable",
    "partial", "BucketsPartial", "MergedAttributeBuckets",
    "bucket_f1_statistic", "COMPATS",
    "ATTRIBUTE_TABLE", "Attribute", "ATTRIBUTES", "MENTION_ATTRIBUTES", "TOKEN_ATTRIBUTES",
    "DISCRETE_ATTRIBUTES", "NEEDS_TRAINING", "DISCRETE", "Category", "tag_buckets",
    "FREQUENCY_NORMS", "Bucket", "assign", "bucket_names", "edges_buckets", "equal_count",
    "equal_width", "equal_width_buckets", "reference_buckets", "strategy_buckets",
    "STRATEGIES", "REFERENCE_RULES",
    "TrainingTables", "training_tables", "analysis", "plots",
]


# Two tables the attribute records replaced.
__getattr__ = moved_names(__name__, {
    "DESCRIPTIONS": "attribute_buckets.ATTRIBUTE_TABLE[name].description",
    "DEFAULT_STRATEGY": "attribute_buckets.ATTRIBUTE_TABLE[name].bucketing"})
