"""Tag schemes as data.

A tag is ``O`` or ``PREFIX-TYPE``, split on the first hyphen (``B-WORK-OF-ART`` has type
``WORK-OF-ART``); an untyped tag (``B``) has the empty type. Each scheme maps its prefix
letters to five canonical prefixes (O, B, I, E, S: BILOU's L and U are E and S, BMES's M
is I) and declares, for strict mode, which transitions ``(previous, current, type
relation)`` start, continue ("inside") and end a mention. These patterns are compiled
into boolean lookup tables indexed by ``[previous prefix, current prefix, same type]`` so
that decoding a whole corpus is a handful of array look-ups (see ``nerspan.spans``).

Strict-mode patterns are those of seqeval's ``seqeval.scheme`` (so strict decoding equals
seqeval's strict mode); IO, which seqeval lacks, follows the same logic. Lenient mode is
the chunk logic of conlleval.pl / seqeval's default mode and is the same table for every
scheme.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Canonical prefix codes.
O, B, I, E, S = range(5)
N_PREFIXES = 5
PREFIX_NAMES = "OBIES"

ANY, SAME, DIFF = "any", "same", "diff"

# What a prefix letter means when it is not one of the scheme's own (lenient mode only).
FALLBACK_PREFIXES = {"O": O, "B": B, "I": I, "E": E, "S": S, "L": E, "U": S, "M": I}


@dataclass(frozen=True)
class Scheme:
    """A tag scheme: its prefix letters and its strict-mode transition patterns.

    Each pattern is ``(previous prefixes, current prefixes, type relation)`` with the
    prefixes as canonical letters ("*" = any, O included) and the relation one of
    ``"any"``, ``"same"``, ``"diff"``. ``also_valid``: transitions valid under the
    scheme that its strict patterns start no mention at (seqeval's IOE1 starts none at
    an ``E-`` after ``O``, though IOE1 writes a one-token mention so before one of its
    type); they count as valid (``nerspan.encodings.validate``) and strict decoding
    still drops those mentions, as seqeval does.
    """

    name: str
    prefixes: dict
    start: tuple
    inside: tuple
    end: tuple
    also_valid: tuple = ()
    tables: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        tables = {kind: _compile(getattr(self, kind)) for kind in ("start", "inside", "end")}
        # A transition is valid when it continues a mention, or when the previous mention
        # (if any) ends there and the current token starts one (or is O).
        prev_o = np.zeros_like(tables["start"])
        prev_o[O] = True
        cur_o = np.zeros_like(tables["start"])
        cur_o[:, O] = True
        tables["valid"] = (tables["inside"] | _compile(self.also_valid)
                           | ((prev_o | tables["end"]) & (cur_o | tables["start"])))
        object.__setattr__(self, "tables", {k: v.ravel() for k, v in tables.items()})


def _compile(patterns) -> np.ndarray:
    table = np.zeros((N_PREFIXES, N_PREFIXES, 2), dtype=bool)  # [prev, cur, same type]
    for prev, cur, relation in patterns:
        prev_codes = range(N_PREFIXES) if prev == "*" else [PREFIX_NAMES.index(c) for c in prev]
        cur_codes = range(N_PREFIXES) if cur == "*" else [PREFIX_NAMES.index(c) for c in cur]
        same_values = {ANY: (0, 1), SAME: (1,), DIFF: (0,)}[relation]
        for p in prev_codes:
            for c in cur_codes:
                for same in same_values:
                    table[p, c, same] = True
    return table


def _lenient_tables() -> dict:
    """conlleval.pl's chunk rules, as seqeval's default mode states them (with S-)."""
    start = np.zeros((N_PREFIXES, N_PREFIXES, 2), dtype=bool)
    end = np.zeros_like(start)
    for p in range(N_PREFIXES):
        for c in range(N_PREFIXES):
            for same in (0, 1):
                start[p, c, same] = (
                    c in (B, S)
                    or (c in (I, E) and p in (O, E, S))
                    or (c != O and not same)
                )
                # a mention ends just before the current token
                end[p, c, same] = (
                    p in (E, S)
                    or (p in (B, I) and c in (B, S, O))
                    or (p != O and not same)
                )
    return {"start": start.ravel(), "end": end.ravel()}


LENIENT_TABLES = _lenient_tables()

_IOB_LETTERS = {"O": O, "B": B, "I": I}
_IOE_LETTERS = {"O": O, "I": I, "E": E}
_IOBES_LETTERS = {"O": O, "B": B, "I": I, "E": E, "S": S}

IOB1 = Scheme(
    "IOB1", _IOB_LETTERS,
    start=(("O", "I", ANY), ("I", "I", DIFF), ("B", "I", ANY), ("I", "B", SAME), ("B", "B", SAME)),
    inside=(("B", "I", SAME), ("I", "I", SAME)),
    end=(("I", "I", DIFF), ("I", "O", ANY), ("I", "B", ANY), ("B", "O", ANY),
         ("B", "I", DIFF), ("B", "B", SAME)),
)
IOB2 = Scheme(
    "IOB2", _IOB_LETTERS,
    start=(("*", "B", ANY),),
    inside=(("B", "I", SAME), ("I", "I", SAME)),
    end=(("I", "O", ANY), ("I", "I", DIFF), ("I", "B", ANY), ("B", "O", ANY),
         ("B", "I", DIFF), ("B", "B", ANY)),
)
IOE1 = Scheme(
    "IOE1", _IOE_LETTERS,
    start=(("O", "I", ANY), ("I", "I", DIFF), ("E", "I", ANY), ("E", "E", SAME)),
    inside=(("I", "I", SAME), ("I", "E", SAME)),
    end=(("I", "I", DIFF), ("I", "O", ANY), ("I", "E", DIFF), ("E", "I", SAME),
         ("E", "E", SAME)),
    also_valid=(("O", "E", ANY), ("I", "E", DIFF)),  # "O E-X I-X", "I-Y E-X I-X"
)
IOE2 = Scheme(
    "IOE2", _IOE_LETTERS,
    start=(("O", "I", ANY), ("O", "E", ANY), ("E", "I", ANY), ("E", "E", ANY),
           ("I", "I", DIFF), ("I", "E", DIFF)),
    inside=(("I", "E", SAME), ("I", "I", SAME)),
    end=(("E", "*", ANY),),
)
_IOBES_PATTERNS = dict(
    start=(("*", "B", ANY), ("*", "S", ANY)),
    inside=(("B", "I", SAME), ("B", "E", SAME), ("I", "I", SAME), ("I", "E", SAME)),
    end=(("S", "*", ANY), ("E", "*", ANY)),
)
IOBES = Scheme("IOBES", _IOBES_LETTERS, **_IOBES_PATTERNS)
BILOU = Scheme("BILOU", {"O": O, "B": B, "I": I, "L": E, "U": S}, **_IOBES_PATTERNS)
BMES = Scheme("BMES", {"O": O, "B": B, "M": I, "E": E, "S": S}, **_IOBES_PATTERNS)
IO = Scheme(
    "IO", {"O": O, "I": I},
    start=(("O", "I", ANY), ("I", "I", DIFF)),
    inside=(("I", "I", SAME),),
    end=(("I", "O", ANY), ("I", "I", DIFF)),
)

SCHEMES = {
    "IOB1": IOB1, "IOB2": IOB2, "BIO": IOB2, "IOE1": IOE1, "IOE2": IOE2,
    "IOBES": IOBES, "BIOES": IOBES, "BMES": BMES, "BILOU": BILOU, "IO": IO,
}
MODES = ("lenient", "strict")


def get_scheme(scheme: str | Scheme) -> Scheme:
    """Return the scheme named ``scheme`` (case-insensitive; aliases BIO, BIOES, BMES)."""
    if isinstance(scheme, Scheme):
        return scheme
    try:
        return SCHEMES[str(scheme).upper()]
    except KeyError:
        raise ValueError(
            f"unknown tag scheme {scheme!r}; choose one of {', '.join(SCHEMES)}") from None


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown decoding mode {mode!r}; choose 'lenient' or 'strict'")
    return mode


def split_tag(tag: str) -> tuple[str, str]:
    """``"B-WORK-OF-ART"`` -> ``("B", "WORK-OF-ART")``; ``"O"`` -> ``("O", "")``."""
    prefix, _, entity_type = tag.partition("-")
    return prefix, entity_type


def from_suffix(tag: str) -> str:
    """A tag written type first (seqeval's ``suffix=True``) in the usual order: split on
    the LAST hyphen, ``"WORK-OF-ART-B"`` -> ``"B-WORK-OF-ART"``; a tag without a hyphen
    (``O``) stays.

    >>> from_suffix("PER-B"), from_suffix("WORK-OF-ART-I"), from_suffix("O")
    ('B-PER', 'I-WORK-OF-ART', 'O')
    >>> to_suffix(from_suffix("WORK-OF-ART-I"))
    'WORK-OF-ART-I'
    """
    entity_type, hyphen, prefix = tag.rpartition("-")
    return f"{prefix}-{entity_type}" if hyphen else tag


def to_suffix(tag: str) -> str:
    """``from_suffix`` undone: ``"B-WORK-OF-ART"`` -> ``"WORK-OF-ART-B"``."""
    prefix, hyphen, entity_type = tag.partition("-")
    return f"{entity_type}-{prefix}" if hyphen else tag
