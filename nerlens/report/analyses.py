"""The families' analyses and figures beyond the headline numbers, for the report.

Each family that ran adds its extra analyses (``Family.analyses``: JSON-ready, e.g.
hardeval's corpus statistics) and its figures (``Family.figures``: matplotlib Figures by
title, here turned into PNG bytes). Everything is computed from what the report already
holds (the gold context, the family result dicts, the intervals); nothing here feeds back
into the headline numbers.
"""
from __future__ import annotations

import io

from .views import report_view


def analyses(context, results: dict, system_names: list, families, settings: dict) -> dict:
    """Family -> its extra analyses, for the families (descriptors) that ran and have
    some; ``settings``: the report options a family reads (``Family.settings``)."""
    out = {}
    for family in families:
        if family.analyses is not None:
            mine = {s: results[s][family.name] for s in system_names}
            found = family.analyses(context, mine, settings)
            if found is not None:
                out[family.name] = found
    return out


def figures(report, families) -> dict:
    """Title -> PNG bytes of every figure of the families (descriptors) that ran."""
    out = {}
    for family in families:
        if family.figures is not None:
            for title, figure in family.figures(report_view(report, family)).items():
                out[title] = figure_png(figure)
    return out


def figure_png(figure) -> bytes:
    """The figure as PNG bytes; then the figure is cleared and closed (its memory freed)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)  # the charts lay themselves out
    figure.clear()
    plt.close(figure)
    return buffer.getvalue()
