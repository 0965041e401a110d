"""Page blocks: what a family's section of a page is made of, as plain data.

A family describes what it shows (``nerspan.family``) as a tuple of blocks; nerlens renders
the blocks to HTML and to text with its page kit. Families never write HTML.

Blocks:

- ``Heading(text)``: a sub-heading of the section;
- ``Note(text)``: a sentence or two of small print;
- ``Table(header, rows, note)``: rows of cells under a header, with an optional note (and
  ``system_columns``: where its columns of one system each begin);
- ``Figure(title)``: the figure of that title, when it was drawn (families draw figures
  as matplotlib Figures; the page shows them by title, or nothing when absent);
- ``Tiles(tiles)``: small ``(title, Table)`` pairs shown side by side;
- ``FiguresCapNote()``: where the page says that per-system figures were drawn for the
  first systems only (nothing when every system has them);
- ``Collapsed(summary, blocks)``: blocks shown on demand under a one-line summary (a long
  table, one part per system), open when ``opened``.

Cells of a table:

- a float: a fraction, shown in percent (2 decimals), or as it is with
  ``Table(percent=False)``; None and NaN: undefined, shown as a dash;
- an int or a str: as it is (text, never markup);
- ``Strong(text)``: emphasised text (a total row's name);
- ``Hover(text, title)``: text with a title shown on hover (a key behind a name);
- ``Noted(cell, note)``: a cell followed by a small note (``(3)``, ``± 0.12``);
- ``Few(cell)``: a number computed on fewer than ``MIN_SUPPORT`` items, marked *;
- ``OverRuns(value, runs)``: mean and standard deviation over runs
  (``value``: ``{"mean", "std", "n"}`` as ``nerspan.significance.mean_std`` gives, or None
  for no run), with the number of runs unless it is ``runs``;
- ``Marked(value, test, digits)``: a number marked † when its significance ``test``
  (``{"pvalue", "pvalue_holm", "significant"}`` or ``{"error"}``) does not hold.

>>> Table(("system", "recall"), (("a", 0.5), ("b", None))).rows[1]
('b', None)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


def _tuple(value) -> tuple:
    return tuple(value) if not isinstance(value, tuple) else value


# -- blocks ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Heading:
    """A sub-heading of a section (``level`` 3; 4 inside tiles)."""

    text: str
    level: int = 3


@dataclass(frozen=True)
class Note:
    """Small print: what a table means, what was left out."""

    text: str


@dataclass(frozen=True)
class Table:
    """Rows of cells under a header (see the module docstring for the cells); ``note`` is
    small print under the table; ``percent=False`` shows floats as they are;
    ``system_columns``: the columns from this index on are one per system (a page splits
    many systems into several tables, each repeating the columns before)."""

    header: tuple
    rows: tuple
    note: str = ""
    percent: bool = True
    system_columns: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "header", _tuple(self.header))
        object.__setattr__(self, "rows", tuple(_tuple(row) for row in self.rows))


@dataclass(frozen=True)
class Figure:
    """The figure of this title, shown when it was drawn (nothing otherwise)."""

    title: str


@dataclass(frozen=True)
class Tiles:
    """``(title, Table)`` pairs shown side by side (small tables of one kind)."""

    tiles: tuple

    def __post_init__(self):
        object.__setattr__(self, "tiles", _tuple(self.tiles))


@dataclass(frozen=True)
class FiguresCapNote:
    """Where the page says that the per-system figures were drawn for the first systems
    only; renders as nothing when every system has its figures."""


@dataclass(frozen=True)
class Collapsed:
    """Blocks a reader opens on demand, under a one-line ``summary`` (HTML: a
    ``<details>``; a terminal shows them all)."""

    summary: str
    blocks: tuple
    opened: bool = False

    def __post_init__(self):
        object.__setattr__(self, "blocks", _tuple(self.blocks))


# -- cells -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Strong:
    """Emphasised text in a cell."""

    text: str


@dataclass(frozen=True)
class Hover:
    """Text with a title shown on hover."""

    text: str
    title: str


@dataclass(frozen=True)
class Noted:
    """A cell (any cell) followed by a small note."""

    cell: Any
    note: str


@dataclass(frozen=True)
class Few:
    """A cell (any cell) whose number is computed on fewer than ``MIN_SUPPORT`` items
    (``nerspan.bootstrap``): marked *, as the report marks such an interval."""

    cell: Any


@dataclass(frozen=True)
class OverRuns:
    """Mean +- standard deviation over runs (``value``: ``{"mean", "std", "n"}``, None for
    no run; ``mean`` None: undefined in every run), the number of runs shown unless it
    is ``runs`` (the row says it)."""

    value: Mapping | None
    runs: int | None = None


@dataclass(frozen=True)
class Marked:
    """A number marked † when its significance ``test`` does not hold (None: no test)."""

    value: float | None
    test: Mapping | None
    digits: int = 2


BLOCKS = (Heading, Note, Table, Figure, Tiles, FiguresCapNote, Collapsed)
CELLS = (Strong, Hover, Noted, Few, OverRuns, Marked)
