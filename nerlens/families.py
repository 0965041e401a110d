"""The registered metric families: their descriptors (``nerspan.family.Family``), by name.

A family registers its descriptor through the entry point group ``nerlens.families`` of
its distribution (``NAME = package:FAMILY``; nerlens declares its four built-in families
so in setup.cfg), or at run time with ``register_family(descriptor)``. Everything above
the families (the report, the experiment, the Trainer helper, the command line, the
Spaces) reads the descriptors here and names no family.

Order: the report's, by each descriptor's ``order`` (METHODS.md's sections for the
built-in families), then by name.

A family's package is imported when its descriptor is first asked for (``get_family``,
``family_package``): the entry points are read at once, each family loaded on its own,
so that ``nerlens faireval`` or the faireval evaluate module imports no other family.
``registered()`` (every family, in order) loads them all.

The packages are imported by a path no loading script can shadow. A metric folder
(``metrics/faireval/``), and the Hub Space published from it, holds the evaluate loading
script ``faireval.py`` beside ``app.py``; Python puts the folder of the script it runs
first on ``sys.path``, so there ``import faireval`` finds the loading script, not the
package. A package installed beside nerlens (the distribution ships them side by side) is
imported from there and registered under its name (``family_package``), so every later
``import faireval`` in the process gets the package too.
"""
from __future__ import annotations

import configparser
import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from nerspan import PRED
from nerspan.errors import InputTypeError, shown
from nerspan.family import Family

GROUP = "nerlens.families"
DISTRIBUTION = "nerlens"

# where the distribution installed nerlens, and so the family packages beside it
INSTALLED_BESIDE = Path(__file__).resolve().parents[1]

_registry: dict[str, Family] = {}    # name -> descriptor, once loaded
_packages: dict[str, str] = {}       # name -> the package that exports the descriptor
_points: dict = {}                   # name -> its entry point, until its descriptor loads
_loaded = False


# -- the registry ----------------------------------------------------------------------------
def registered() -> dict[str, Family]:
    """Every registered family, name -> descriptor, in the report's order."""
    _load()
    for name in list(_points):
        _descriptor(name)
    return dict(sorted(_registry.items(), key=lambda item: (item[1].order, item[0])))


def family_names() -> tuple:
    """The names of the registered families, in the report's order.

    >>> family_names()[:4]
    ('tough_mentions', 'hardeval', 'faireval', 'attribute_buckets')
    """
    return tuple(registered())


def get_family(name: str) -> Family:
    """The descriptor of the registered family ``name`` (only its package imported)."""
    _load()
    descriptor = _descriptor(name) if isinstance(name, str) else None
    if descriptor is None:
        raise ValueError(f"unknown metric family {shown(name)}; choose from "
                         f"{tuple(registered())}")
    return descriptor


def in_report_order(names) -> list[Family]:
    """The descriptors of ``names`` (registered families) in the report's order."""
    chosen = set(names)
    return [family for name, family in registered().items() if name in chosen]


def register_family(descriptor: Family, *, replace: bool = False) -> None:
    """Register a family at run time (a family outside the repository; its distribution
    may declare an entry point instead). ``replace=True`` replaces a family of the same
    name; otherwise a name registered already is an error."""
    if not isinstance(descriptor, Family):
        raise InputTypeError(f"register_family takes a nerspan.family.Family, not "
                             f"{shown(descriptor)} (a {type(descriptor).__name__})")
    _load()
    taken = descriptor.name in _points or (descriptor.name in _registry
                                           and _registry[descriptor.name] is not descriptor)
    if taken and not replace:
        raise ValueError(f"a family named {descriptor.name!r} is registered already (from "
                         f"{_packages.get(descriptor.name)}); pass replace=True to replace it")
    _points.pop(descriptor.name, None)
    _registry[descriptor.name] = descriptor
    module = getattr(descriptor.score, "__module__", None) or ""
    _packages[descriptor.name] = module.split(".")[0] or descriptor.name


def unregister_family(name: str) -> Family:
    """Remove a family registered at run time (tests); returns its descriptor."""
    descriptor = get_family(name)
    _packages.pop(name, None)
    return _registry.pop(name, descriptor)


def check_families(families) -> tuple:
    """``families`` as a tuple: distinct names of registered families, in the given order.

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
        get_family(name)
    if len(set(families)) != len(families):
        raise ValueError(f"families names a family twice: {list(families)}")
    return families


# -- scoring with a family ---------------------------------------------------------------------
def result_dicts(score, evaluation, systems, options=None, *, beta: float = 1.0,
                 confusion: bool = False, **keywords) -> dict:
    """System -> result dict of each of ``systems`` scored on ``evaluation`` (a
    ``nerspan.Evaluation``) by a family's ``score`` (``options``: its record; ``keywords``:
    what else it takes), with F-beta (``beta``) and, with ``confusion``, the entity
    confusion matrix added by ``result_dict``."""
    return {system: result_dict(score(evaluation, system, options=options, **keywords), beta,
                                evaluation if confusion else None, system)
            for system in systems}


def result_dict(result, beta: float = 1.0, matrix_of=None, system: str = PRED) -> dict:
    """A family's ``result``, scored already, as a dict with F-beta beside every F1
    (``beta``) and, given ``matrix_of`` (a ``nerspan.Evaluation`` holding the system as the
    column ``system``), its entity confusion matrix (``nerspan.Evaluation.confusion``):
    what the command line and the evaluate modules add to a family's result, in one
    place."""
    out = result.to_dict(beta=beta)
    if matrix_of is not None:
        out.update(matrix_of.confusion(system))
    return out


# -- entry points ----------------------------------------------------------------------------
def _load() -> None:
    """Read the entry points once: every installed distribution's, and, when the
    installed nerlens metadata declares none (a source checkout installed before the
    group existed), those of setup.cfg beside the packages. No family is imported here
    (``_descriptor``)."""
    global _loaded
    if _loaded:
        return
    try:
        _load_entry_points()
    except BaseException:
        _points.clear()
        raise
    _loaded = True


def _descriptor(name: str) -> Family | None:
    """The descriptor of ``name``, its entry point loaded now if it was not (None: no
    family of that name). A package that asks for the registry while it loads finds
    itself not registered yet."""
    if name in _registry:
        return _registry[name]
    point = _points.pop(name, None)
    if point is None:
        return None
    try:
        descriptor = _load_point(point)
    except BaseException:
        _points[name] = point
        raise
    return _registry.setdefault(name, descriptor)


def _load_entry_points() -> None:
    points = list(importlib.metadata.entry_points(group=GROUP))
    if not any(_distribution(point) == DISTRIBUTION for point in points):
        points = _source_entry_points() + points
    found: dict = {}
    for point in points:
        if point.name in found and found[point.name].value != point.value:
            raise ValueError(f"two entry points of {GROUP} name the family {point.name!r}: "
                             f"{found[point.name].value} and {point.value}")
        found[point.name] = point
    for name, point in found.items():
        if name not in _registry:   # a family registered at run time first stays
            _points[name] = point
            _packages.setdefault(name, point.value.split(":")[0].split(".")[0])


def _distribution(point) -> str | None:
    """The normalised name of the distribution that declares ``point`` (None: unknown)."""
    dist = getattr(point, "dist", None)
    name = dist.metadata["Name"] if dist is not None else None
    return name.lower().replace("_", "-") if name else None


def _source_entry_points() -> list:
    """The ``nerlens.families`` entry points declared in setup.cfg beside the packages
    (a source checkout), as ``importlib.metadata.EntryPoint``s; none elsewhere."""
    setup = INSTALLED_BESIDE / "setup.cfg"
    if not setup.is_file():
        return []
    config = configparser.ConfigParser()
    config.read(setup, encoding="utf-8")
    text = config.get("options.entry_points", GROUP, fallback="")
    points = []
    for line in text.splitlines():
        name, equals, value = line.partition("=")
        if equals:
            points.append(importlib.metadata.EntryPoint(name.strip(), value.strip(), GROUP))
    return points


def _load_point(point) -> Family:
    """The descriptor an entry point names (``package.module:ATTRIBUTE``), its package
    imported beside nerlens when it is installed there."""
    module_name, _, attribute = point.value.partition(":")
    family_package(module_name.split(".")[0], known=False)
    target = importlib.import_module(module_name.strip())
    for part in attribute.strip().split(".") if attribute.strip() else ():
        target = getattr(target, part)
    if not isinstance(target, Family):
        raise TypeError(f"the entry point {point.name} = {point.value} of {GROUP} gives "
                        f"{shown(target)}, not a nerspan.family.Family")
    if target.name != point.name:
        raise ValueError(f"the entry point {point.name} = {point.value} of {GROUP} gives "
                         f"the family {target.name!r}: name the entry point as the family")
    return target


# -- the packages ----------------------------------------------------------------------------
def family_package(name: str, known: bool = True) -> ModuleType:
    """The package of the registered family ``name``, imported once: from beside nerlens
    when it is installed there (whatever a loading script's folder on ``sys.path`` holds),
    else as any import would find it. ``known=False``: ``name`` is a package's name, no
    registered family's.

    Raises ValueError for a name that is no family, ImportError when a module of that
    name that is no package (a loading script, imported from its folder) came first.
    """
    package = name
    if known:
        get_family(name)
        package = _packages.get(name, name)
    loaded = sys.modules.get(package)
    if loaded is not None:
        if hasattr(loaded, "__path__"):  # a package, not a one-file loading script
            return loaded
        raise ImportError(
            f"the name {package!r} is already taken by "
            f"{getattr(loaded, '__file__', loaded)}, not the {package} package (a loading "
            f"script imported from its own folder?); import "
            f"nerlens.families.family_package({name!r}) first", name=package)
    spec = importlib.machinery.PathFinder.find_spec(package, [str(INSTALLED_BESIDE)])
    if spec is None:
        return importlib.import_module(package)
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module  # before running it: the package imports its own modules
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[package]
        raise
    return module


def family_module(name: str, module: str) -> ModuleType:
    """The module ``module`` of the family package ``name`` (``family_module("faireval",
    "plots")``), the package imported by ``family_package``: how the modules the package
    does not import itself are reached without naming the family in an import."""
    return importlib.import_module(f"{family_package(name).__name__}.{module}")


def __getattr__(name: str):
    """``FAMILIES`` and ``METHODS_ORDER``, the registered families' names (read when asked:
    a family registers after nerlens is imported)."""
    if name in ("FAMILIES", "METHODS_ORDER"):
        return family_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
