"""The families' analyses and figures beyond the headline numbers, for the report.

Each family that ran adds its extra analyses (``Family.analyses``: JSON-ready, e.g.
hardeval's corpus statistics) and its figures (``Family.figures``: matplotlib Figures by
title, here turned into PNG bytes). Everything is computed from what the report already
holds (the evaluation, the family result dicts, the intervals); nothing here feeds back
into the headline numbers.
"""
from __future__ import annotations

import io
import os
import pickle
import struct
import sys
import threading
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
    drawn = {}
    for family in families:
        if family.figures is not None:
            drawn.update(family.figures(report_view(report, family)))
    return figure_pngs(drawn)


# Drawing is most of a report's time (matplotlib lays out and rasterises every label):
# the figures are shared out over forked processes, each with its own copy of them. Only
# where fork is safe: on Linux, with one thread (a thread holding a lock at the fork
# would leave the copy deadlocked), and with enough figures to pay for a process.
MOST_WORKERS = 4
FIGURES_PER_WORKER = 3


def figure_pngs(figures: dict) -> dict:
    """Title -> PNG bytes (``figure_png``) of ``figures`` (title -> Figure), in their
    order; drawn in parallel where that is safe, and identical either way."""
    titles = list(figures)
    workers = _workers(len(titles))
    shares = [titles[k::workers] for k in range(workers)]
    children = [_draw_in_child(figures, share) for share in shares[1:]]
    out = {title: figure_png(figures[title]) for title in shares[0]}
    for share, child in zip(shares[1:], children):
        drawn = _collect(child)
        if drawn is None:   # a child that failed (or did not start): drawn here
            drawn = {title: figure_png(figures[title]) for title in share}
        else:
            for title in share:   # this process's copies, freed as figure_png frees them
                _release(figures[title])
        out.update(drawn)
    return {title: out[title] for title in titles}


def _workers(n_figures: int) -> int:
    if not (sys.platform.startswith("linux") and threading.active_count() == 1):
        return 1
    cores = len(os.sched_getaffinity(0))
    return max(1, min(cores, MOST_WORKERS, n_figures // FIGURES_PER_WORKER))


def _draw_in_child(figures: dict, titles: list):
    """A forked process drawing ``titles``, and the pipe it writes their PNGs to; None
    when the fork failed."""
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:   # the child: draw, write, and leave without running the parent's exits
        status = 1
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(pickle.dumps({t: figure_png(figures[t]) for t in titles}))
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return pid, read_end


def _collect(child) -> dict | None:
    """The PNGs a child drew; None when it did not finish."""
    if child is None:
        return None
    pid, read_end = child
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    return pickle.loads(data) if status == 0 and data else None


DPI = 90   # a 6.4 inch chart is 576 px wide: shown at its size on a 1280 px page
SMALLEST_FONT = "nerlens:smallest-font-px"   # the PNG text chunk the page's tests read


def figure_png(figure) -> bytes:
    """The figure as PNG bytes, with the size of its smallest text in pixels at its own
    size (the text chunk ``SMALLEST_FONT``: a page test scales it by the shown width);
    then the figure is cleared and closed (its memory freed)."""
    from matplotlib.text import Text

    buffer = io.BytesIO()
    # the charts lay themselves out; fast compression: a few % more bytes, a third of the
    # time of encoding (the report draws 15 to 25 figures)
    figure.savefig(buffer, format="png", dpi=DPI, pil_kwargs={"compress_level": 1})
    # after drawing: the tick labels exist and hold their text
    sizes = [t.get_fontsize() for t in figure.findobj(Text)
             if t.get_visible() and t.get_text().strip()]
    _release(figure)
    png = buffer.getvalue()
    if not sizes:
        return png
    return with_text_chunk(png, SMALLEST_FONT, f"{min(sizes) * DPI / 72:.2f}")


def _release(figure) -> None:
    import matplotlib.pyplot as plt
    figure.clear()
    plt.close(figure)


def with_text_chunk(png: bytes, key: str, value: str) -> bytes:
    """``png`` with a tEXt chunk ``key``: ``value`` before its IEND chunk (the last 12
    bytes: length, type, CRC)."""
    data = key.encode("latin-1") + b"\0" + value.encode("latin-1")
    chunk = (struct.pack(">I", len(data)) + b"tEXt" + data
             + struct.pack(">I", zlib.crc32(b"tEXt" + data) & 0xFFFFFFFF))
    return png[:-12] + chunk + png[-12:]
