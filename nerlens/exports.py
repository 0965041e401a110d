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
import types
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


class _Renamed(types.ModuleType):
    """A package whose name a function of the package above had until 0.2: calling it is
    an error naming the function's new name (``nerlens.report(...)``)."""

    renamed_function = ""

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.__name__}(...) is {self.renamed_function}(...) since nerlens "
                        f"0.2 ({self.__name__} is the package)")


def renamed_function(package: str, new: str) -> None:
    """Make the module ``package`` (a package) say, when called, that the function of its
    name is ``new`` now."""
    module = sys.modules[package]
    module.__class__ = _Renamed
    module.renamed_function = new
