"""Charts of bucket scores (matplotlib, no display needed: figures are drawn off-screen).

- ``bucket_chart``: per attribute, bucket F1 of one or several systems as grouped bars,
  with the bootstrap intervals (``f1_interval``) as error bars when the results have them;
- ``comparison_chart``: the comparative diagnosis, F1(A) - F1(B) per bucket of every
  attribute (green where A is better, red where it is worse);
- ``heatmap``: relative change (``analysis.relative_change``), systems or settings x
  (attribute, bucket);
- ``self_diagnosis_chart``: the self-diagnosis histogram, per attribute the best and the
  worst bucket F1 of a system beside its overall F1 (token attributes in a panel of their
  own, beside the F1 over all tokens: never against the entity F1);
- ``radar_chart``: the attribute-wise view across datasets (the paper's Figure 4): zeta
  (scaled by its largest value over the datasets) and rho per attribute, one polygon per
  dataset;
- ``dataset_heatmap``: relative change of bucket F1 against a baseline system, one row per
  (dataset, system) (the paper's Figure 6).

Every function returns a ``matplotlib.figure.Figure`` and, given ``path``, saves it (PNG
or SVG by the file suffix). matplotlib is imported only when a chart is drawn.
"""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Mapping

import numpy as np

from nerspan.bootstrap import MIN_SUPPORT
from nerspan.names import file_stems

from .attributes import TOKEN
from .bucketing import bucket_names
from .analysis import (_as_dict, _attributes, attribute_name, attribute_wise_datasets,
                       bucket_gold, comparative_diagnosis, overall_f1, relative_change,
                       relative_change_gold, self_diagnosis, unit, without_degenerate)

FORMATS = (".png", ".svg")
# The smallest text of a chart, in points: 9 pt at the report's 90 dpi is 11 px on a page
# showing the chart at its own size, readable at 1280 px (tick labels, legends, cells)
SMALL = 9
UNDEFINED = "\u2013"   # an undefined number, as the report's tables show it


def percent_axis(axes, values, label: str) -> None:
    """A y axis in percent fitted to ``values`` (percent; NaN ignored): from 0 (bars'
    lengths are their values) to a round step above the largest value, at most 100,
    labelled ``label``."""
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    top = float(finite.max()) if finite.size else 100.0
    step = 5 if top <= 30 else 10
    axes.set_ylim(0.0, min(100.0, step * np.ceil(top * 1.08 / step) or step))
    axes.set_ylabel(label)
    axes.tick_params(labelsize=SMALL)


def _figure(width: float, height: float):
    from matplotlib.figure import Figure   # no pyplot: no global state, no GUI backend
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def save(figure, path) -> Path:
    """Save as PNG or SVG (by suffix), creating the folder."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"{path}: charts are saved as .png or .svg")
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format=path.suffix[1:].lower())
    return path


def _systems(results) -> dict:
    """System name -> result dict, without the buckets empty by construction (a chart
    leaves them out; the tables say so)."""
    if isinstance(results, Mapping) and "buckets" not in results:
        return {str(name): without_degenerate(r) for name, r in results.items()}
    return {"system": without_degenerate(results)}


def bucket_chart(results, attribute: str, path=None, title: str | None = None,
                 width: float = 6.4, height: float = 3.6, legend: bool = True):
    """Grouped bars of bucket F1 (percent) for ``results`` ({system name: result} or one
    result), each system's overall F1 as a dashed line in its colour.

    Empty buckets (F1 None) get no bar; buckets empty by construction are left out; the
    gold count of each bucket is under its name; the axis fits the bars and intervals.
    ``legend=False``: no legend (charts shown together share one ``system_key``).
    """
    from matplotlib import colormaps

    systems = _systems(results)
    first = next(iter(systems.values()))
    rows = first["buckets"][attribute]
    if not rows:   # tag without a type in gold: no bar to draw, and no axis to fit
        raise ValueError(f"{attribute_name(attribute)} has no bucket to draw (no gold "
                         "mention of any type)")
    n_buckets, n_systems = len(rows), len(systems)
    # many buckets (tag: one per type) get more room, so that their names never overlap;
    # many systems too (bars of at least 0.064 inch, 6 px), their legend under the chart
    below = legend and n_systems > 6  # a legend of many systems goes under the chart
    figure = _figure(max(width, 2.5 + max(1.25, 0.08 * n_systems) * n_buckets),
                     height + (0.2 * np.ceil(n_systems / 3) if below else 0))
    axes = figure.add_subplot()
    x = np.arange(n_buckets)
    bar = 0.8 / max(n_systems, 1)
    tops, lines = [], []
    for i, (name, data) in enumerate(systems.items()):
        buckets = data["buckets"][attribute]
        f1 = 100 * np.array([np.nan if b["f1"] is None else b["f1"] for b in buckets])
        errors, ends = _error_bars(buckets, f1)
        tops += ends
        drawn = axes.bar(x - 0.4 + bar * (i + 0.5), np.nan_to_num(f1), bar, yerr=errors,
                         capsize=3 if n_systems <= 4 else 0, label=name,
                         # past 10 systems the default colours repeat: 20 distinct ones
                         color=colormaps["tab20"](i % 20) if n_systems > 10 else None)
        overall = overall_f1(data, attribute)
        if overall is not None:
            lines.append((100 * overall, drawn.patches[0].get_facecolor()))
        tops.append(f1)
    if lines:   # each system's overall F1: one collection of lines, cheap to draw
        axes.hlines([y for y, _ in lines], -0.5, n_buckets - 0.5, colors=[c for _, c in lines],
                    linestyles="--", linewidth=1)
        axes.set_xlim(-0.5, n_buckets - 0.5)
        tops.append([y for y, _ in lines])
    axes.set_xticks(x, [_tick_label(r) for r in rows], fontsize=SMALL)
    score = "token F1" if unit(first, attribute) == "token" else "F1"   # not entity F1
    # from 0, always: a bar's length is its value (token F1 near 95% drawn from 60 made
    # a 67% bucket look a tenth of a 99% one)
    percent_axis(axes, np.concatenate([np.ravel(t) for t in tops]), f"{score} (%)")
    # one line of title, no x label (the ticks name each bucket, its values and gold
    # count): each text costs its share of the report's time
    axes.set_title(title or f"{attribute_name(attribute)}: {score} per bucket "
                   f"(dashed: overall {score})", fontsize=10)
    if legend and below:
        figure.legend(fontsize=SMALL, loc="outside lower center", ncols=3)
    elif legend and n_systems > 1:
        # outside the axes: never over a bar, and cheap ("best" tests every placement)
        axes.legend(fontsize=SMALL, loc="upper left", bbox_to_anchor=(1.01, 1))
    if path is not None:
        save(figure, path)
    return figure


def _error_bars(buckets: list, f1: np.ndarray) -> tuple:
    """``(yerr, [high, low])`` of the buckets' ``f1_interval`` (percent) about ``f1``;
    ``(None, [])`` when the buckets carry no interval."""
    if not all("f1_interval" in b for b in buckets):
        return None, []
    low, high = (100 * np.array([np.nan if b["f1_interval"][k] is None
                                 else b["f1_interval"][k] for b in buckets]) for k in (0, 1))
    return (np.nan_to_num(np.vstack([np.clip(f1 - low, 0, None), np.clip(high - f1, 0, None)])),
            [high, low])


def drawable(results: Mapping, attributes) -> list:
    """The ``attributes`` that have a bucket to draw in ``results`` ({system: result
    dict}): a bucket holding gold items (not tag on a gold without mentions, whose types
    make no bucket, nor an entity attribute whose every bucket is empty then)."""
    first = without_degenerate(next(iter(results.values())))
    return [a for a in attributes if any(row["gold"] for row in first["buckets"][a])]


def system_key(names, path=None, title: str = "Systems"):
    """The legend of ``bucket_chart``s of the systems ``names`` (their bars' colours, in
    that order) as a figure of its own: one key for many charts. A legend of 15 systems
    costs as much to draw as the rest of a chart, and each chart repeated it."""
    from matplotlib import colormaps, rcParams
    from matplotlib.patches import Patch

    names = [str(name) for name in names]
    cycle = rcParams["axes.prop_cycle"].by_key()["color"]   # the bars' colours
    # past 10 systems ``bucket_chart`` takes 20 distinct colours: so does its key
    colours = ([colormaps["tab20"](i % 20) for i in range(len(names))] if len(names) > 10
               else [cycle[i % len(cycle)] for i in range(len(names))])
    columns = min(len(names), 3)
    longest = max(map(len, names), default=0)   # a name's width: its characters at 9 pt
    figure = _figure(max(6.4, columns * (0.6 + 0.08 * longest)),
                     0.35 + 0.25 * -(-len(names) // max(columns, 1)))
    figure.legend(handles=[Patch(color=colour, label=name)
                           for colour, name in zip(colours, names)],
                  loc="center", ncols=max(columns, 1), fontsize=SMALL, frameon=False,
                  title=title, title_fontsize=SMALL)
    if path is not None:
        save(figure, path)
    return figure


def _tick_label(row: dict) -> str:
    """Bucket name, its interval (unless it is the name, as for a type) and gold count."""
    lines = [row["name"]] + ([row["interval"]] if row["interval"] != row["name"] else [])
    return "\n".join(lines + [f"n={row['gold']}"])


def comparison_chart(result_a, result_b, names=("A", "B"), attributes=None, path=None,
                     width: float = 9.0, height: float = 3.6):
    """F1(A) - F1(B) for every bucket of every attribute (the comparative diagnosis)."""
    diagnosis = comparative_diagnosis(result_a, result_b, attributes)
    labels, values, starts = [], [], []
    for attribute, entry in diagnosis.items():
        starts.append(len(labels))
        for name, d in zip(entry["names"], entry["differences"]):
            labels.append(name)
            values.append(np.nan if d is None else 100 * d)
    values = np.asarray(values, dtype=float)
    figure = _figure(width, height)
    axes = figure.add_subplot()
    x = np.arange(len(values))
    colours = np.where(np.nan_to_num(values) >= 0, "tab:green", "tab:red")
    axes.bar(x, np.nan_to_num(values), color=colours)
    axes.axhline(0, color="black", linewidth=0.8)
    for start in starts[1:]:
        axes.axvline(start - 0.5, color="grey", linewidth=0.5, linestyle=":")
    # long bucket names (tag: the types) stand upright; the attribute names then go
    # above the bars, where the upright names cannot reach them
    upright = max(map(len, labels), default=0) > 3
    axes.set_xticks(x, labels, fontsize=SMALL, rotation=90 if upright else 0)
    axes.tick_params(axis="y", labelsize=SMALL)
    for attribute, start, end in zip(diagnosis, starts, starts[1:] + [len(labels)]):
        axes.text((start + end - 1) / 2, 1.01 if upright else -0.12, attribute,
                  ha="center", va="bottom" if upright else "top", fontsize=SMALL,
                  transform=axes.get_xaxis_transform())
    axes.set_ylabel("F1 difference (points)")
    axes.set_title(f"F1({names[0]}) - F1({names[1]}): where each is better",
                   pad=16 if upright else 6)
    if path is not None:
        save(figure, path)
    return figure


def heatmap(results: Mapping, baseline: str | None = None, attributes=None, path=None,
            width: float | None = None, height: float | None = None,
            difference: bool = False, title: str | None = None):
    """Relative change per (system or setting) x (attribute, bucket) as a heat map, in
    percent.

    With ``baseline`` the change is against that system's bucket F1, else against each
    system's own overall F1 (``analysis.relative_change``); ``difference=True`` draws
    the difference of F1 (points) instead of the relative change. Buckets empty by
    construction are left out; buckets of fewer than ``MIN_SUPPORT`` gold units are
    faded and marked ``*`` (the tables' mark), and the colour scale is robust
    (``colour_limit``): a cell beyond it shows its value.
    """
    results = {name: without_degenerate(r) for name, r in results.items()}
    rows, attrs, cube = relative_change(results, baseline, attributes, difference)
    if not rows:
        raise ValueError("heatmap needs at least one system besides the baseline")
    # each attribute takes as many columns as it has buckets (tag has one per type)
    first = next(iter(results.values()))
    labels = [[str(b["name"]) for b in first["buckets"][attribute]] for attribute in attrs]
    gold = np.broadcast_to(bucket_gold(first, attrs, cube.shape[2]), cube.shape)
    drawn = _relative_map(rows, 100 * cube, labels, width, height,
                          [attribute_name(a) for a in attrs], gold,
                          "points" if difference else "%")
    drawn.colour_bar("F1 difference (points)" if difference else "relative change of F1 (%)",
                     SMALL)
    drawn.axes.set_title(title or (
        ("difference of bucket F1" if difference else "relative change of bucket F1")
        + (f" against {baseline}" if baseline else " against overall F1")),
        pad=drawn.pad)
    if path is not None:
        save(drawn.figure, path)
    return drawn.figure


# a cell of fewer than MIN_SUPPORT gold units: this much of its colour (the rest white)
FADED = 0.35


def colour_limit(values) -> tuple[float, int]:
    """The colour scale's end (symmetric around 0) for ``values`` (NaN ignored), and how
    many values lie beyond it. A robust end: the largest absolute value, unless it is
    more than twice the 90th percentile (one bucket against a near-zero baseline bucket
    gave +2000% and washed every other cell out): then twice that percentile, rounded
    up to 1, 2, 2.5 or 5 times a power of ten (never past the largest value).

    >>> colour_limit([1.0, -2.0, 3.0])
    (3.0, 0)
    >>> colour_limit([1.0] * 9 + [-2000.0])
    (2.0, 1)
    """
    finite = np.abs(np.asarray(values, dtype=float))
    finite = finite[np.isfinite(finite)]
    largest = float(finite.max()) if finite.size else 0.0
    typical = float(np.percentile(finite, 90, method="lower")) if finite.size else 0.0
    if largest <= 2 * typical or typical == 0:
        return largest or 1.0, 0
    power = 10.0 ** np.floor(np.log10(2 * typical))
    limit = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= 2 * typical)
    if limit >= largest:
        return largest, 0
    return float(limit), int((finite > limit).sum())


class _Drawn:
    """What ``_relative_map`` drew: ``figure``, ``axes``, ``image``, the title's ``pad``
    (points, clearing the attribute names), the scale's ``limit`` and ``unit``, and the
    ``clipped`` and ``few`` (faded) cell counts."""

    def __init__(self, **parts):
        self.__dict__.update(parts)

    def colour_bar(self, label: str, size: float, **options):
        """The colour bar, with arrows at the ends when cells lie beyond the scale, and a
        key to the marks under the map."""
        bar = self.figure.colorbar(self.image, ax=self.axes,
                                   extend="both" if self.clipped else "neither", **options)
        bar.set_label(label, fontsize=size)
        bar.ax.tick_params(labelsize=size)
        marks = []
        if self.few:
            marks.append(f"* faded: a bucket of fewer than {MIN_SUPPORT} gold units")
        if self.clipped:
            marks.append(f"a number: the cell's value, beyond the scale's "
                         f"\u00b1{self.limit:g}{'%' if self.unit == '%' else ' ' + self.unit}")
        if marks:
            self.figure.supxlabel("; ".join(marks), fontsize=size)
        return bar


def _relative_map(rows, cube, labels, width=None, height=None, groups=None, gold=None,
                  unit: str = "%") -> _Drawn:
    """The heat map both relative-change charts draw: rows x (attribute, bucket) cells on
    a diverging scale symmetric around 0 (``colour_limit``: cells beyond show their value
    in ``unit``), attributes parted by black lines and named above their columns
    (``groups``, default: none), cells of fewer than ``MIN_SUPPORT`` units (``gold``, the
    cube's shape) faded and marked ``*``. ``labels`` holds one list of bucket labels per
    attribute (attributes differ in bucket count)."""
    widths = [len(names) for names in labels]

    def flat(array):
        return np.concatenate([array[:, j, :n] for j, n in enumerate(widths)], axis=1)

    matrix = flat(cube)
    few = flat(gold) < MIN_SUPPORT if gold is not None else np.zeros(matrix.shape, bool)
    few &= np.isfinite(matrix)
    figure = _figure(width or max(6.0, 0.45 * matrix.shape[1] + 2),
                     height or max(2.0, 0.45 * len(rows) + 1.5))
    axes = figure.add_subplot()
    limit, clipped = colour_limit(matrix)
    image = axes.imshow(np.ma.masked_invalid(np.clip(matrix, -limit, limit)), cmap="RdYlGn",
                        vmin=-limit, vmax=limit, aspect="auto",
                        alpha=np.where(few, FADED, 1.0))
    axes.set_xticks(np.arange(matrix.shape[1]), sum(labels, []), rotation=90,
                    fontsize=SMALL)
    axes.set_yticks(np.arange(len(rows)), rows, fontsize=SMALL)
    for edge in np.cumsum(widths)[:-1].tolist():
        axes.axvline(edge - 0.5, color="black", linewidth=0.8)
    for i, j in zip(*np.nonzero(~np.isfinite(matrix) | few | (np.abs(matrix) > limit))):
        # the tables' marks: undefined (an empty bucket), * (few units); a clipped value
        value = matrix[i, j]
        text = (UNDEFINED if not np.isfinite(value) else
                (f"{value:+.0f}" if abs(value) > limit else "") + ("*" if few[i, j] else ""))
        # a clipped cell has a colour scale's dark end: white text, unless faded
        axes.text(j, i, text, ha="center", va="center", fontsize=SMALL,
                  color="grey" if not np.isfinite(value) else
                  "white" if abs(value) > limit and not few[i, j] else "black")
    lines = 0
    for name, start, n in zip(groups or (), np.cumsum([0] + widths[:-1]).tolist(), widths):
        # the attribute's name above its columns, wrapped to their width
        wrapped = textwrap.fill(name, max(10, 4 * n))
        lines = max(lines, wrapped.count("\n") + 1)
        axes.text(start + (n - 1) / 2, 1.02, wrapped, ha="center", va="bottom",
                  fontsize=SMALL, transform=axes.get_xaxis_transform())
    return _Drawn(figure=figure, axes=axes, image=image, limit=limit, clipped=clipped, unit=unit,
                  few=int(few.sum()), pad=6 + 1.25 * SMALL * lines)  # title above the names


def save_all(results: Mapping, folder, attributes=None, fmt: str = "png") -> list[Path]:
    """What ``nerlens buckets --plot DIR`` writes: one bar chart per attribute, the heat
    map, with two or more systems the comparison of the first two, and each system's
    self-diagnosis histogram."""
    folder = Path(folder)
    systems = _systems(results)
    written = []
    chosen = _attributes(systems, attributes)
    parts = file_stems(chosen)  # distinct: one chart never replaces another
    for attribute in drawable(systems, chosen):
        written.append(save(bucket_chart(systems, attribute),
                            folder / f"buckets_{parts[attribute]}.{fmt}"))
    written.append(save(heatmap(systems, attributes=attributes), folder / f"heatmap.{fmt}"))
    if len(systems) >= 2:
        a, b = list(systems)[:2]
        written.append(save(comparison_chart(systems[a], systems[b], (a, b), attributes),
                            folder / f"comparison.{fmt}"))
    parts = file_stems(systems)
    for name, result in systems.items():
        written.append(save(self_diagnosis_chart(result, title=f"Self-diagnosis: {name}",
                                                 attributes=attributes),
                            folder / f"self_diagnosis_{parts[name]}.{fmt}"))
    return written


def self_diagnosis_chart(result, path=None, title: str | None = None, attributes=None,
                         width: float | None = None, height: float = 3.8):
    """The self-diagnosis histogram: per attribute, the F1 (percent) of the system's best
    and worst bucket (named above the bars) beside the overall F1 they compare with.
    Mention attributes share a panel with the entity F1 as a line; token attributes (tCon,
    tFre: F1 over tokens, O included) get a panel of their own, each with the F1 over all
    its tokens (``analysis.overall_f1``): the two kinds of F1 never share an axis."""
    data = without_degenerate(result)
    diagnosis = {a: d for a, d in self_diagnosis(data, attributes).items() if d}
    groups = [g for g in ([a for a in diagnosis if unit(data, a) != "token"],
                          [a for a in diagnosis if unit(data, a) == "token"]) if g]
    # at most 12.5 inches: 1125 px at the report's 90 dpi, shown at its size at 1280 px
    figure = _figure(width or min(12.5, max(6.0, 0.95 * len(diagnosis)
                                            + 1.2 * len(groups) + 1.8)), height)
    panels = figure.subplots(1, max(len(groups), 1), sharey=True, squeeze=False,
                             width_ratios=[len(g) for g in groups] or [1])[0]
    for axes, names in zip(panels, groups):
        _diagnosis_panel(axes, data, diagnosis, names)
    values = [100 * diagnosis[a]["best_f1"] for a in diagnosis] + [100 * (data.get("f1") or 0)]
    percent_axis(panels[0], values, "F1 (%)")
    # room above the bars for their bucket names, ticks up to 100 only
    top = panels[0].get_ylim()[1]
    panels[0].set_yticks([t for t in panels[0].get_yticks() if t <= top])
    panels[0].set_ylim(0, top * 1.1)
    figure.supxlabel("attribute (bucket names above the bars)", fontsize=SMALL)
    figure.suptitle(title or "Self-diagnosis: best and worst bucket per attribute")
    handles = {label: h for axes in panels
               for h, label in zip(*axes.get_legend_handles_labels())}
    # beside the last panel, outside the axes: never over a bar
    panels[-1].legend(handles.values(), handles.keys(), fontsize=SMALL, loc="upper left",
                      bbox_to_anchor=(1.01, 1))
    if path is not None:
        save(figure, path)
    return figure


def _diagnosis_panel(axes, data: dict, diagnosis: dict, names: list) -> None:
    """Best and worst bucket of ``names`` (attributes of one unit) and their overall F1."""
    tokens = unit(data, names[0]) == "token"
    x = np.arange(len(names))
    for offset, which, colour in ((-0.2, "best", "tab:green"), (0.2, "worst", "tab:red")):
        values = [100 * diagnosis[a][f"{which}_f1"] for a in names]
        axes.bar(x + offset, values, 0.4, color=colour, label=f"{which} bucket")
        for xi, a, value in zip(x, names, values):
            axes.text(xi + offset, value + 0.5, diagnosis[a][which], ha="center",
                      va="bottom", fontsize=SMALL)
    if tokens:   # each token attribute's own tokens: a line over its bars only
        for xi, a in zip(x, names):
            overall = overall_f1(data, a)
            if overall is not None:
                axes.hlines(100 * overall, xi - 0.45, xi + 0.45, color="black",
                            linewidth=0.8, linestyles=":", label="overall F1 over tokens")
    elif data.get("f1") is not None:
        axes.axhline(100 * data["f1"], color="black", linewidth=0.8, linestyle="--",
                     label="overall entity F1")
    # the attribute spelled out over two or three short lines, its key last
    axes.set_xticks(x, [textwrap.fill(attribute_name(a), 12) for a in names],
                    fontsize=SMALL)
    axes.tick_params(axis="y", labelsize=SMALL)
    axes.set_title("tokens (O included)" if tokens else "mentions", fontsize=SMALL)


def radar_chart(datasets: Mapping, path=None, attributes=None, width: float = 9.0,
                height: float = 4.4):
    """Attribute-wise zeta and rho across datasets: two radar panels, one polygon per
    dataset (``datasets``: name -> {system: result}).

    zeta values have each attribute's own unit, so each axis shows zeta divided by its
    largest absolute value over the datasets; rho is in [0, 1] as it is.
    """
    views = attribute_wise_datasets(datasets, attributes)
    attrs = list(next(iter(views.values())))
    if len(attrs) < 3:
        raise ValueError("a radar chart needs at least 3 attributes")
    angles = np.linspace(0, 2 * np.pi, len(attrs), endpoint=False)
    zeta = np.array([[np.nan if v[a]["zeta"] is None else v[a]["zeta"] for a in attrs]
                     for v in views.values()], dtype=float)
    scale = np.nanmax(np.abs(zeta), axis=0) if np.isfinite(zeta).any() else np.ones(len(attrs))
    scale = np.where(np.isfinite(scale) & (scale > 0), scale, 1.0)
    rho = np.array([[np.nan if v[a]["rho"] is None else v[a]["rho"] for a in attrs]
                    for v in views.values()], dtype=float)
    figure = _figure(width, height)
    panels = (("zeta (scaled to the largest dataset value)", zeta / scale),
              ("rho (mean |Spearman| over systems)", rho))
    for k, (label, values) in enumerate(panels):
        axes = figure.add_subplot(1, 2, k + 1, projection="polar")
        for name, row in zip(views, values):
            closed = np.append(np.nan_to_num(row), np.nan_to_num(row[0]))
            axes.plot(np.append(angles, angles[0]), closed, linewidth=1.2, label=name)
            axes.fill(np.append(angles, angles[0]), closed, alpha=0.1)
        # 9 pt and up: at least 11 px on a page 1280 px wide (the figure is shown 1:1)
        axes.set_xticks(angles, attrs, fontsize=10)
        axes.set_ylim(0, 1)
        axes.set_yticks([0.25, 0.5, 0.75, 1.0], ["0.25", "0.5", "0.75", "1"], fontsize=9)
        axes.set_title(label, fontsize=10, pad=14)
    figure.suptitle("Attribute-wise view across datasets", fontsize=12)
    figure.legend(*axes.get_legend_handles_labels(), fontsize=9, loc="outside lower center",
                  ncols=min(len(views), 5), title="dataset", title_fontsize=9)
    if path is not None:
        save(figure, path)
    return figure


def dataset_heatmap(datasets: Mapping, baseline: str, path=None, attributes=None,
                    width: float | None = None, height: float | None = None):
    """Relative change of bucket F1 against ``baseline``, one row per (dataset, system).

    ``attributes``: default the entity attributes, as the report's overview (the token
    attributes score every token, O included). Buckets of fewer than ``MIN_SUPPORT`` gold
    units are faded and marked ``*``; the colour scale is robust (``colour_limit``)."""
    if attributes is None:
        first = next(iter(next(iter(datasets.values())).values()))
        attributes = [a for a in _as_dict(first)["buckets"] if unit(first, a) != TOKEN]
    rows, attrs, cube, gold = relative_change_gold(datasets, baseline, attributes)
    if not rows:
        raise ValueError("the heat map needs at least one system besides the baseline")
    from matplotlib.ticker import PercentFormatter

    labels = [[f"{a} {b}" for b in bucket_names(cube.shape[2])] for a in attrs]
    columns = sum(map(len, labels))
    # at most 12.2 in (1,098 px at 90 dpi): shown 1:1 in a page's figure 1280 px wide
    # (1,118 px), so that 9 pt labels stay 11 px
    drawn = _relative_map(
        rows, 100 * cube, labels, width or min(12.2, max(6.0, 0.32 * columns + 3)),
        height or max(3.6, 0.45 * len(rows) + 2.6), gold=gold)
    drawn.axes.tick_params(labelsize=9)
    drawn.axes.set_xlabel("attribute and bucket", fontsize=10)
    drawn.colour_bar(f"change against {baseline} (%)", 9,
                     format=PercentFormatter(xmax=100, decimals=0))
    drawn.axes.set_title(f"Relative change of bucket F1 against {baseline}, per dataset",
                         fontsize=11)
    if path is not None:
        save(drawn.figure, path)
    return drawn.figure


def save_datasets(datasets: Mapping, folder, baseline: str | None = None, attributes=None,
                  fmt: str = "png") -> list[Path]:
    """What ``nerlens buckets --datasets MANIFEST --plot DIR`` adds: the radar chart and,
    with two or more systems, the heat map against the baseline (default: first system)."""
    folder = Path(folder)
    written = [save(radar_chart(datasets, attributes=attributes), folder / f"radar.{fmt}")]
    systems = list(next(iter(datasets.values())))
    if len(systems) >= 2:
        written.append(save(dataset_heatmap(datasets, baseline or systems[0],
                                            attributes=attributes),
                            folder / f"heatmap_datasets.{fmt}"))
    return written
