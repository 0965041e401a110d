"""The families' analyses and figures beyond the headline numbers, for the report.

Each family that ran adds its extra analyses (``Family.analyses``: JSON-ready, e.g.
hardeval's corpus statistics) and its figures (``Family.figures``: matplotlib Figures by
title, here turned into PNG bytes). Everything is computed from what the report already
holds (the gold context, the family result dicts, the intervals); nothing here feeds back
into the headline numbers.
"""
from __future__ import annotations

import io
import struct
import zlib

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


DPI = 90   # a 6.4 inch chart is 576 px wide: shown at its size on a 1280 px page
SMALLEST_FONT = "nerlens:smallest-font-px"   # the PNG text chunk the page's tests read


def figure_png(figure) -> bytes:
    """The figure as PNG bytes, with the size of its smallest text in pixels at its own
    size (the text chunk ``SMALLEST_FONT``: a page test scales it by the shown width);
    then the figure is cleared and closed (its memory freed)."""
    import matplotlib.pyplot as plt
    from matplotlib.text import Text

    buffer = io.BytesIO()
    # the charts lay themselves out; fast compression: a few % more bytes, a third of the
    # time of encoding (the report draws 15 to 25 figures)
    figure.savefig(buffer, format="png", dpi=DPI, pil_kwargs={"compress_level": 1})
    # after drawing: the tick labels exist and hold their text
    sizes = [t.get_fontsize() for t in figure.findobj(Text)
             if t.get_visible() and t.get_text().strip()]
    figure.clear()
    plt.close(figure)
    png = buffer.getvalue()
    if not sizes:
        return png
    return with_text_chunk(png, SMALLEST_FONT, f"{min(sizes) * DPI / 72:.2f}")


def with_text_chunk(png: bytes, key: str, value: str) -> bytes:
    """``png`` with a tEXt chunk ``key``: ``value`` before its IEND chunk (the last 12
    bytes: length, type, CRC)."""
    data = key.encode("latin-1") + b"\0" + value.encode("latin-1")
    chunk = (struct.pack(">I", len(data)) + b"tEXt" + data
             + struct.pack(">I", zlib.crc32(b"tEXt" + data) & 0xFFFFFFFF))
    return png[:-12] + chunk + png[-12:]
