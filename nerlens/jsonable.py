"""Plain JSON values from what the library computes (numpy scalars, NaN)."""
from __future__ import annotations

import json
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


def json_text(value, levels: int = 3) -> str:
    """JSON text of ``value`` by ``json_ready``'s rules, objects indented two spaces a
    level down to ``levels`` levels (a report's systems, families and keys), each deeper
    value on one line. Indenting every level would take json's Python encoder, 6x
    slower than its C encoder on a 15-system report (7 MB of JSON).

    >>> print(json_text({"a": {"b": [1, float("nan")]}, "c": {}}, levels=1))
    {
      "a": {"b": [1, null]},
      "c": {}
    }
    """
    return _indented(value, levels, 0)


def _indented(value, levels: int, depth: int) -> str:
    if isinstance(value, dict) and value and depth < levels:
        pad = "  " * (depth + 1)
        items = [f"{pad}{json.dumps(str(key), ensure_ascii=False)}: "
                 f"{_indented(item, levels, depth + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    try:   # the C encoder; NaN, inf or a value it does not take: json_ready first
        return json.dumps(value, ensure_ascii=False, allow_nan=False, default=_scalar)
    except (ValueError, TypeError):
        return json.dumps(json_ready(value), ensure_ascii=False)


def _scalar(value):
    """A numpy scalar as its Python number (json's ``default``)."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON")
