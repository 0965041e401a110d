"""Plain JSON values from what the library computes (numpy scalars, NaN)."""
from __future__ import annotations

import math


def json_ready(value):
    """Replace NaN/inf (not JSON) by None, numpy scalars by Python numbers, tuples by
    lists and mapping keys by strings.

    Every family's ``to_dict()`` is plain JSON already; the report's own tables (bootstrap
    estimates and intervals, which may be NaN) go through this.

    >>> import numpy as np
    >>> json_ready({1: (np.int64(2), float("nan"))})
    {'1': [2, None]}
    """
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
