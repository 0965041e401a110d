"""The confidence section's pictures as inline SVG: lines, points and bars on two axes
(a precision-recall curve, a reliability diagram, headline numbers against the
threshold). SVG, not matplotlib: the curves have a point per distinct confidence, and
text in the page stays text (selectable, sharp at any zoom).

>>> chart = Chart("t", "x", "y").line("a", [0, 1], [0, 0.5])
>>> svg = chart.svg()
>>> svg.startswith("<svg") and "<polyline" in svg and ">a</text>" in svg
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .page_kit import escape

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf",
           "#7f7f7f")
WIDTH, HEIGHT = 520, 320
LEFT, RIGHT, TOP, BOTTOM = 52, 200, 30, 42   # the plot area's margins (legend on the right)
LEGEND_CHARACTERS = 32
TICKS = 5


def nice_ceiling(value: float) -> float:
    """The axis end for data up to ``value`` (> 0): 1, 2, 2.5 or 5 times a power of ten,
    at most 1 for a fraction.

    >>> nice_ceiling(0.093), nice_ceiling(0.6), nice_ceiling(0.99)
    (0.1, 1.0, 1.0)
    """
    if value <= 0 or value != value:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    step = next(s for s in (1, 2, 2.5, 5, 10) if s * power >= value - 1e-12)
    return min(1.0, step * power) if value <= 1 else step * power


def percent_tick(value: float) -> str:
    return f"{100 * value:g}"


def plain_tick(value: float) -> str:
    return f"{value:g}"


@dataclass
class Chart:
    """One chart: add ``line``s, ``point``s, ``bar``s and ``vertical`` rules, then ``svg``.
    Values are data coordinates on [0, ``x_max``] x [0, ``y_max``]."""

    title: str
    x_label: str
    y_label: str
    x_max: float = 1.0
    y_max: float = 1.0
    x_tick: object = plain_tick
    y_tick: object = percent_tick
    parts: list = field(default_factory=list)
    legend: list = field(default_factory=list)

    def _x(self, value: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * min(value, self.x_max) / self.x_max

    def _y(self, value: float) -> float:
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * min(value, self.y_max) / self.y_max

    def _color(self) -> str:
        return PALETTE[len(self.legend) % len(PALETTE)]

    def line(self, label: str, xs, ys, dashed: bool = False, color: str | None = None,
             steps: bool = False) -> "Chart":
        """A line through the points (``None`` values skipped); ``steps``: a staircase,
        each value held to the next point."""
        color = color or self._color()
        points = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
        if steps:
            points = [p for (x0, y0), (x1, _) in zip(points, points[1:] + [points[-1]])
                      for p in ((x0, y0), (x1, y0))] if points else []
        coords = " ".join(f"{self._x(x):.1f},{self._y(y):.1f}" for x, y in points)
        dash = " stroke-dasharray='4 3'" if dashed else ""
        self.parts.append(f"<polyline fill='none' stroke='{color}' stroke-width='1.8'{dash} "
                          f"points='{coords}'/>")
        self.legend.append((label, color, "line"))
        return self

    def point(self, label: str, x: float, y: float, color: str, square: bool = False
              ) -> "Chart":
        cx, cy = self._x(x), self._y(y)
        shape = (f"<rect x='{cx - 4:.1f}' y='{cy - 4:.1f}' width='8' height='8'"
                 if square else f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='4.5'")
        self.parts.append(f"{shape} fill='{color}' stroke='#000' stroke-width='.8'>"
                          f"<title>{escape(label)}</title></{'rect' if square else 'circle'}>")
        return self

    def bar(self, x0: float, x1: float, height: float, color: str, note: str = "") -> "Chart":
        top, bottom = self._y(height), self._y(0)
        self.parts.append(f"<rect x='{self._x(x0) + 1:.1f}' y='{top:.1f}' "
                          f"width='{self._x(x1) - self._x(x0) - 2:.1f}' "
                          f"height='{bottom - top:.1f}' fill='{color}' fill-opacity='.55'>"
                          f"<title>{escape(note)}</title></rect>")
        return self

    def vertical(self, x: float, label: str) -> "Chart":
        px = self._x(x)
        self.parts.append(f"<line x1='{px:.1f}' x2='{px:.1f}' y1='{TOP}' y2='{HEIGHT - BOTTOM}' "
                          "stroke='#999' stroke-dasharray='2 3'/>"
                          f"<text x='{px + 3:.1f}' y='{TOP + 10}' font-size='10' "
                          f"fill='#555'>{escape(label)}</text>")
        return self

    def svg(self) -> str:
        return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
                f"viewBox='0 0 {WIDTH} {HEIGHT}' role='img' font-family='sans-serif'>"
                f"<title>{escape(self.title)}</title>{self._axes()}{''.join(self.parts)}"
                f"{self._legend()}</svg>")

    def _axes(self) -> str:
        x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP
        out = [f"<text x='{LEFT}' y='16' font-size='12' font-weight='600'>"
               f"{escape(self.title)}</text>",
               f"<rect x='{x0}' y='{y1}' width='{x1 - x0}' height='{y0 - y1}' fill='none' "
               "stroke='#bbb'/>"]
        for k in range(TICKS + 1):
            xv, yv = self.x_max * k / TICKS, self.y_max * k / TICKS
            px, py = self._x(xv), self._y(yv)
            out.append(f"<line x1='{px:.1f}' x2='{px:.1f}' y1='{y0}' y2='{y0 + 4}' "
                       f"stroke='#888'/><text x='{px:.1f}' y='{y0 + 15}' font-size='10' "
                       f"text-anchor='middle'>{escape(self.x_tick(xv))}</text>"
                       f"<line x1='{x0}' x2='{x1}' y1='{py:.1f}' y2='{py:.1f}' stroke='#eee'/>"
                       f"<text x='{x0 - 5}' y='{py + 3:.1f}' font-size='10' "
                       f"text-anchor='end'>{escape(self.y_tick(yv))}</text>")
        out.append(f"<text x='{(x0 + x1) / 2:.1f}' y='{HEIGHT - 8}' font-size='11' "
                   f"text-anchor='middle'>{escape(self.x_label)}</text>"
                   f"<text x='12' y='{(y0 + y1) / 2:.1f}' font-size='11' text-anchor='middle' "
                   f"transform='rotate(-90 12 {(y0 + y1) / 2:.1f})'>"
                   f"{escape(self.y_label)}</text>")
        return "".join(out)

    def _legend(self) -> str:
        x = WIDTH - RIGHT + 10
        rows = []
        for k, (label, color, _) in enumerate(self.legend):
            y = TOP + 8 + 15 * k
            rows.append(f"<line x1='{x}' x2='{x + 16}' y1='{y}' y2='{y}' stroke='{color}' "
                        f"stroke-width='2'/><text x='{x + 20}' y='{y + 4}' font-size='10'>"
                        f"{escape(label[:LEGEND_CHARACTERS])}</text>")
        return "".join(rows)


__all__ = ["Chart", "nice_ceiling", "PALETTE"]
