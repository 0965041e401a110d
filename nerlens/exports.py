"""Names a package exports from its modules, imported when first asked for (PEP 562).

``nerlens``, ``nerlens.report`` and ``nerlens.experiment`` export functions and classes of
modules that import much (every family, the report's pages and figures). A command that
uses none of them (``nerlens score``) should not import them when it starts, so each of
these packages sets ``__getattr__ = on_demand(__name__, {name: module})``: a name is
taken from its module, imported then, and kept in the package.
"""
from __future__ import annotations

import importlib
import sys
from typing import Callable, Mapping


def on_demand(package: str, exported: Mapping[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: ``exported`` maps each name to the
    module, relative to ``package`` (``".build"``), that defines it."""

    def __getattr__(name: str):
        if name not in exported:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(exported[name], package), name)
        setattr(sys.modules[package], name, value)   # asked once
        return value

    return __getattr__
