"""The four metric family packages, imported by a path no loading script can shadow.

A metric folder (``metrics/faireval/``), and the Hub Space published from it, holds the
evaluate loading script ``faireval.py`` beside ``app.py``. Python puts the folder of the
script it runs first on ``sys.path``, so there ``import faireval`` finds the loading
script, not the package. ``family_package`` finds the package where ``nerlens`` itself is
installed (the distribution ships all of them side by side) and registers it under its
name, so every later ``import faireval`` in the process gets the package too.

Hence every module that ``import nerlens`` (or a Space) loads reaches a family through
``family_package`` and ``family_module``, never by an import statement naming it; only
the command line (``nerlens.cli``), which no loading script imports, names them.
"""
from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from nerspan.errors import InputTypeError, shown

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")
# the same four in the order of METHODS.md (sections 1-4), which the report follows
METHODS_ORDER = tuple(FAMILIES[i] for i in (1, 2, 0, 3))

# where the distribution installed nerlens, and so the family packages beside it
INSTALLED_BESIDE = Path(__file__).resolve().parents[1]


def check_families(families) -> tuple:
    """``families`` as a tuple: distinct names among ``FAMILIES``, in the given order.

    >>> check_families(["hardeval", "faireval"])
    ('hardeval', 'faireval')
    >>> check_families("faireval")
    Traceback (most recent call last):
    ...
    nerspan.errors.InputTypeError: families must be a list of family names, not 'faireval' (a str)
    """
    if isinstance(families, (str, bytes)) or not hasattr(families, "__iter__"):
        raise InputTypeError(f"families must be a list of family names, not "
                             f"{shown(families)} (a {type(families).__name__})")
    families = tuple(families)
    for name in families:
        if name not in FAMILIES:
            raise ValueError(f"unknown metric family {shown(name)}; choose from {FAMILIES}")
    if len(set(families)) != len(families):
        raise ValueError(f"families names a family twice: {list(families)}")
    return families


def family_package(name: str) -> ModuleType:
    """The family package ``name`` installed with nerlens, imported once.

    Raises ValueError for a name that is no family, ImportError when a module of that
    name that is no package (a loading script, imported from its folder) came first.
    """
    if name not in FAMILIES:
        raise ValueError(f"unknown metric family {name!r}; choose from {FAMILIES}")
    loaded = sys.modules.get(name)
    if loaded is not None:
        if hasattr(loaded, "__path__"):  # a package, not a one-file loading script
            return loaded
        raise ImportError(
            f"the name {name!r} is already taken by {getattr(loaded, '__file__', loaded)}, "
            f"not the {name} package of nerlens (a loading script imported from its own "
            f"folder?); import nerlens.families.family_package({name!r}) first", name=name)
    spec = importlib.machinery.PathFinder.find_spec(name, [str(INSTALLED_BESIDE)])
    if spec is None:
        raise ModuleNotFoundError(f"the {name} package is missing beside nerlens in "
                                  f"{INSTALLED_BESIDE}: pip install nerlens", name=name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it: the package imports its own modules
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def family_module(name: str, module: str) -> ModuleType:
    """The module ``module`` of the family package ``name`` (``family_module("faireval",
    "plots")``), the package imported by ``family_package``: how the modules the package
    does not import itself are reached without naming the family in an import."""
    return importlib.import_module(f"{family_package(name).__name__}.{module}")
