"""Names users give (systems, attributes) as parts of file names: safe and distinct.

A figure per system is written as ``confusion_<system>.png``: a system name may hold
characters a file name cannot (``/``), and two names may map to one file name (``a b``
and ``a_b``; ``Flair`` and ``flair`` on a file system that ignores case), where the
second figure silently replaced the first.
"""
from __future__ import annotations


def file_stems(names) -> dict:
    """name -> a part of a file name for it, distinct from every other name's: letters,
    digits, ``-``, ``_`` and ``.`` are kept, any other character is ``_``; a part that
    another name took already (ignoring case) gets ``_2``, ``_3``, ... in order.

    >>> file_stems(["a b", "a_b", "A_B", "x/y"])
    {'a b': 'a_b', 'a_b': 'a_b_2', 'A_B': 'A_B_3', 'x/y': 'x_y'}
    """
    stems: dict = {}
    taken: set = set()
    for name in names:
        stem = "".join(c if c.isalnum() or c in "-_." else "_" for c in str(name))
        candidate, k = stem, 1
        while candidate.lower() in taken:
            k += 1
            candidate = f"{stem}_{k}"
        taken.add(candidate.lower())
        stems[name] = candidate
    return stems
