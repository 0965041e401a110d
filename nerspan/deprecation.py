"""Old names kept for one release: they work as before and warn once per call site."""
from __future__ import annotations

import functools
import importlib
import warnings


def deprecated_alias(function, old: str, new: str, removal: str = "the next release"):
    """``function`` under its old name ``old``: each call warns (``DeprecationWarning``)
    that ``new`` replaces it, then returns what ``function`` returns.

    >>> import warnings
    >>> double = deprecated_alias(lambda x: 2 * x, "twice", "double")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     double(2), str(caught[0].message)
    (4, 'twice is deprecated: use double (twice goes in the next release)')
    """
    @functools.wraps(function)
    def alias(*args, **kwargs):
        warn_renamed(old, new, removal, stacklevel=3)
        return function(*args, **kwargs)

    alias.__name__ = old.rsplit(".", 1)[-1].split("(")[0]
    alias.__doc__ = f"Deprecated alias of ``{new}`` (goes in {removal})."
    return alias


def warn_renamed(old: str, new: str, removal: str = "the next release",
                 stacklevel: int = 2) -> None:
    """The one deprecation message: ``old`` is deprecated, use ``new``."""
    warnings.warn(f"{old} is deprecated: use {new} ({old} goes in {removal})",
                  DeprecationWarning, stacklevel=stacklevel + 1)


def renamed_keyword(function: str, old: str, old_value, new: str, new_value, default):
    """The value of keyword ``new`` when a caller may still pass its old name ``old``
    (None when not given): the old one warns, and giving both differently is an error.

    >>> import warnings
    >>> renamed_keyword("f", "strict", None, "strict_diff", True, False)
    True
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     renamed_keyword("f", "strict", True, "strict_diff", False, False)
    True
    """
    if old_value is None:
        return new_value
    warn_renamed(f"{function}({old}=...)", f"{new}=...", stacklevel=3)
    if new_value != default and new_value != old_value:
        raise TypeError(f"{function}: give {new} only ({old} is its deprecated name)")
    return old_value


def moved_names(package: str, moved: dict):
    """A module ``__getattr__`` for ``package``: a name in ``moved`` (name -> the
    submodule that holds it now) is read from there, with a warning naming the new place.

    >>> import warnings
    >>> getattr_ = moved_names("nerspan", {"split_tag": "schemes"})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     getattr_("split_tag")("B-PER"), str(caught[0].message).split(" (")[0]
    (('B', 'PER'), 'nerspan.split_tag is deprecated: use nerspan.schemes.split_tag')
    """
    def __getattr__(name: str):
        if name not in moved:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(f"{package}.{moved[name]}")
        warn_renamed(f"{package}.{name}", f"{package}.{moved[name]}.{name}")
        return getattr(module, name)
    __getattr__.moved = moved   # read by the tests: every name must resolve
    return __getattr__


class RenamedKeys(dict):
    """A result dict (plain JSON: it holds and serializes the new keys only) in which a
    key renamed in this release still reads under its old name for one release, with a
    warning naming the new one: ``renamed`` maps old -> new. An old key that names
    something else now (``confusion`` with ``confusion=True``) is a real key then, read
    as such.

    >>> import warnings
    >>> out = RenamedKeys({"error_confusion": {"matrix": {}}}, {"confusion": "error_confusion"})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     out["confusion"], str(caught[0].message).split(" (")[0]
    ({'matrix': {}}, 'result["confusion"] is deprecated: use result["error_confusion"]')
    >>> list(out), "confusion" in out
    (['error_confusion'], False)
    """

    def __init__(self, data, renamed: dict, removal: str = "the next release"):
        super().__init__(data)
        self.renamed = dict(renamed)
        self.removal = removal

    def __missing__(self, key):
        new = self.renamed.get(key) if isinstance(key, str) else None
        if new is None or new not in self:
            raise KeyError(key)
        warn_renamed(f"result[{key!r}]".replace("'", '"'), f"result[{new!r}]".replace("'", '"'),
                     self.removal)
        return self[new]

    def get(self, key, default=None):
        return self[key] if key in self or key in self.renamed and \
            self.renamed[key] in self else default

    def __reduce__(self):   # pickled and copied with its old names
        return type(self), (dict(self), self.renamed, self.removal)
