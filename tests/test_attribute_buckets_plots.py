"""attribute_buckets.plots: the charts are produced, saved, opened and look like images."""
from __future__ import annotations

import numpy as np
import pytest

import attribute_buckets as ab
from attribute_buckets import plots

TRAIN_TOKENS = [["Kim", "lives", "in", "New", "York"], ["New", "York", "is", "big"],
                ["Kim", "met", "Ana", "in", "Paris"]]
TRAIN_TAGS = [["B-PER", "O", "O", "B-LOC", "I-LOC"], ["B-ORG", "I-ORG", "O", "O"],
              ["B-PER", "O", "B-PER", "O", "B-LOC"]]
TOKENS = [["Ana", "visited", "New", "York"], ["Kim", "is", "big", "in", "Paris"],
          ["The", "New", "York", "Times", "Company", "said"]]
GOLD = [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O", "O", "B-LOC"],
        ["O", "B-ORG", "I-ORG", "I-ORG", "I-ORG", "O"]]
SYSTEMS = {
    "good": [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O", "O", "B-LOC"],
             ["O", "B-ORG", "I-ORG", "I-ORG", "O", "O"]],
    "weak": [["B-PER", "O", "B-LOC", "O"], ["O", "O", "O", "O", "B-LOC"],
             ["O", "B-LOC", "I-LOC", "O", "O", "O"]],
}


@pytest.fixture(scope="module")
def results():
    return {name: ab.score(GOLD, pred, tokens=TOKENS, train=(TRAIN_TOKENS, TRAIN_TAGS), options={'bootstrap': 100, 'seed': 0})
            for name, pred in SYSTEMS.items()}


def read_image(path):
    from matplotlib.image import imread
    image = imread(path)
    assert image.ndim == 3 and image.shape[2] in (3, 4)
    return image


def not_blank(image) -> bool:
    """More than a background: several distinct colours over a fair share of pixels."""
    rgb = (image[:, :, :3].reshape(-1, 3) * 255).astype(np.int64)
    background = np.all(rgb > 247, axis=1)
    colours = np.unique(rgb[:, 0] * 65536 + rgb[:, 1] * 256 + rgb[:, 2])
    return background.mean() < 0.97 and len(colours) > 10


def test_bucket_chart_with_error_bars(results, tmp_path):
    path = tmp_path / "eCon.png"
    figure = plots.bucket_chart(results, "eCon", path=path)
    axes = figure.axes[0]
    # percent, the axis fitted to the bars and their intervals, never past 100
    highest = max(100 * b["f1_interval"][1] for r in results.values()
                  for b in r.to_dict()["buckets"]["eCon"] if b["f1_interval"][1] is not None)
    assert highest <= axes.get_ylim()[1] <= 100 and axes.get_ylabel() == "F1 (%)"
    # 2 systems x 4 buckets of bars, error bars from the bootstrap intervals
    assert len(axes.patches) == 8
    # each system's overall F1 drawn as a dashed line across the chart
    from matplotlib.collections import LineCollection
    dashed = [c for c in axes.collections if isinstance(c, LineCollection)
              and c.get_linestyle()[0][1] is not None]
    assert sorted(segment[0][1] for c in dashed for segment in c.get_segments()) == sorted(
        100 * r.to_dict()["f1"] for r in results.values())
    image = read_image(path)
    width, height = figure.get_size_inches() * 100   # at 100 dpi
    assert image.shape[:2] == (round(height), round(width))
    assert not_blank(image)
    single = plots.bucket_chart(results["good"], "eLen", path=tmp_path / "one.svg")
    assert len(single.axes[0].patches) == 4
    assert (tmp_path / "one.svg").read_text().lstrip().startswith("<?xml")


def test_comparison_chart_and_heatmap(results, tmp_path):
    plots.comparison_chart(results["good"], results["weak"], ("good", "weak"),
                           path=tmp_path / "compare.png")
    image = read_image(tmp_path / "compare.png")
    assert image.shape[:2] == (360, 900) and not_blank(image)
    figure = plots.heatmap(results, baseline="weak", path=tmp_path / "heat.png")
    assert len(figure.axes) == 2                 # the map and its colour bar
    image = read_image(tmp_path / "heat.png")
    width, height = figure.get_size_inches() * figure.dpi
    assert image.shape[:2] == (round(height), round(width)) and not_blank(image)
    with pytest.raises(ValueError, match="png or .svg"):
        plots.save(figure, tmp_path / "heat.jpg")


def test_save_all_writes_every_chart(results, tmp_path):
    written = plots.save_all({k: r.to_dict() for k, r in results.items()}, tmp_path / "out",
                             attributes=["eLen", "tCon"])
    names = sorted(p.name for p in written)
    assert names == ["buckets_eLen.png", "buckets_tCon.png", "comparison.png", "heatmap.png",
                     "self_diagnosis_good.png", "self_diagnosis_weak.png"]
    for path in written:
        assert not_blank(read_image(path))


def test_tag_charts_name_each_type_once_and_the_heat_map_is_not_padded(results, tmp_path):
    figure = plots.bucket_chart(results, "tag", path=tmp_path / "tag.png")
    labels = [t.get_text() for t in figure.axes[0].get_xticklabels()]
    assert labels == ["LOC\nn=2", "ORG\nn=1", "PER\nn=2"]
    assert not_blank(read_image(tmp_path / "tag.png"))
    eLen = [t.get_text() for t in plots.bucket_chart(results, "eLen").axes[0].get_xticklabels()]
    assert eLen[0] == "XS\n{1}\nn=3"          # Ana, Kim, Paris
    # one column per bucket: 4 for eLen, 3 for tag (no padding to the widest attribute)
    heat = plots.heatmap(results, baseline="weak", attributes=["eLen", "tag"])
    columns = [t.get_text() for t in heat.axes[0].get_xticklabels()]
    assert columns == ["XS", "S", "L", "XL", "LOC", "ORG", "PER"]
    # each attribute named in full above its columns, its key beside the name
    texts = [t.get_text().replace("\n", " ") for t in heat.axes[0].texts]
    assert [t for t in texts if t not in (plots.UNDEFINED, "*")] == [
        "entity length (eLen)", "entity type (tag)"]
    # every defined cell is a bucket of fewer than 30 gold units here: marked *
    defined = np.isfinite(heat.axes[0].images[0].get_array().filled(np.nan))
    assert texts.count("*") == int(defined.sum())
    # an empty bucket shows the tables' mark of undefined, one per undefined cell
    _, _, cube = ab.analysis.relative_change(results, "weak", ["eLen", "tag"])
    widths = [4, 3]
    undefined = sum(int(np.isnan(cube[:, j, :n]).sum()) for j, n in enumerate(widths))
    assert texts.count(plots.UNDEFINED) == undefined
    compare = plots.comparison_chart(results["good"], results["weak"], ("good", "weak"),
                                     attributes=["eLen", "tag"], path=tmp_path / "cmp.png")
    assert {t.get_rotation() for t in compare.axes[0].get_xticklabels()} == {0.0}
    assert not_blank(read_image(tmp_path / "cmp.png"))
    # long type names stand upright, so that neighbours never overlap
    gold = [["B-company", "O", "B-musicartist"]]
    long = {name: ab.score(gold, pred, attributes=["tag"])
            for name, pred in (("a", gold), ("b", [["B-company", "O", "O"]]))}
    compare = plots.comparison_chart(long["a"], long["b"], ("a", "b"))
    assert {t.get_rotation() for t in compare.axes[0].get_xticklabels()} == {90.0}


def test_token_attributes_are_never_drawn_against_entity_f1(results):
    """tCon and tFre score tokens, O included: their buckets are compared with the F1 over
    all their tokens, in a panel of their own, never with the entity F1 (issue 28)."""
    from matplotlib.collections import LineCollection

    from attribute_buckets.analysis import overall_f1, relative_change

    weak = results["weak"].to_dict()
    token_f1 = overall_f1(weak, "tCon")
    assert token_f1 != weak["f1"] and overall_f1(weak, "eLen") == weak["f1"]
    figure = plots.self_diagnosis_chart(weak)
    mentions, tokens = figure.axes
    names = [t.get_text().replace("\n", " ") for t in tokens.get_xticklabels()]
    assert names == ["token label consistency (tCon)", "token frequency (tFre)"]
    assert not any("tCon" in t.get_text() for t in mentions.get_xticklabels())
    # in percent, as every chart of the report
    assert [line.get_ydata()[0] for line in mentions.get_lines()] == [100 * weak["f1"]]
    assert tokens.get_lines() == []            # no entity-F1 line over the token bars
    segments = [c for c in tokens.collections if isinstance(c, LineCollection)]
    assert [s.get_segments()[0][0][1] for s in segments] == [
        100 * overall_f1(weak, "tCon"), 100 * overall_f1(weak, "tFre")]
    # the heat map against each system's own overall F1: the token one for tCon
    _, _, cube = relative_change({"weak": weak}, attributes=["tCon"], difference=True)
    f1s = [row["f1"] for row in weak["buckets"]["tCon"]]
    assert [c for c in cube[0, 0] if c == c] == pytest.approx(
        [f - token_f1 for f in f1s if f is not None])
    assert plots.bucket_chart(results, "tCon").axes[0].get_ylabel() == "token F1 (%)"


def test_one_key_of_the_systems_colours_serves_charts_without_legends(results, tmp_path):
    """The report's bucket charts share ``system_key``: each chart's bars take the
    colours the key shows, in the systems' order."""
    from matplotlib.colors import to_rgba
    chart = plots.bucket_chart(results, "eLen", legend=False)
    assert chart.axes[0].get_legend() is None
    key = plots.system_key(list(results), path=tmp_path / "key.png")
    assert not_blank(read_image(tmp_path / "key.png"))
    [legend] = key.legends
    assert [t.get_text() for t in legend.get_texts()] == list(results)
    n_buckets = len(next(iter(results.values())).to_dict()["buckets"]["eLen"])
    bars = chart.axes[0].patches
    for i, handle in enumerate(legend.legend_handles):   # system i's bars: its colour
        assert to_rgba(bars[i * n_buckets].get_facecolor()) == to_rgba(handle.get_facecolor())
    assert plots.bucket_chart(results, "eLen").axes[0].get_legend() is not None
