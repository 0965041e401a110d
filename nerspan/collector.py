"""Python's garbage collector paused around work that makes many small objects at once.

Reading a million model responses makes millions of lists, tuples and strings that live
until the scores are counted: each allocation past a threshold starts a collection that
walks every one of them again, and CPython's collector took 40-57% of the time of
scoring 300,000 responses. None of these objects forms a cycle, so nothing is lost by
collecting once afterwards. ``collector_paused`` turns the collector off for the call and
back on after it, only when it was on (a caller who turned it off keeps it off).

>>> import gc
>>> @collector_paused
... def work():
...     return gc.isenabled()
>>> work(), gc.isenabled()
(False, True)
"""
from __future__ import annotations

import functools
import gc


def collector_paused(function):
    """``function`` with the garbage collector off while it runs (see the module)."""
    @functools.wraps(function)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()
    return paused


__all__ = ["collector_paused"]
