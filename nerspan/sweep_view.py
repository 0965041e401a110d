"""What one sweep (``nerspan.sweep``, METHODS §8) shows, as page blocks: the curve in a
few rows (every mention kept, the default threshold, the best one, the operating point)
under average precision and calibration, the reliability bins, and per entity type; and
what its operating point says of itself when it was chosen on the split that is scored.
``nerlens sweep`` draws them; the report's confidence section keeps to the same default.
"""
from __future__ import annotations

from .blocks import Heading, Note, Table
from .errors import counted
from .result import entity_row

# the cut a threshold left at its default keeps (the report and `nerlens sweep` show it)
DEFAULT_THRESHOLD = 0.5


def sweep_blocks(sweep, per_type: bool = False, dev: str = "the dev split") -> list[tuple]:
    """The view of ``sweep`` as parts of page blocks (a terminal leaves a blank line
    between them): the curve's rows under a note of the counts, average precision and
    calibration error (the operating point's row says "chosen on ``dev``" when it was
    chosen on a dev split); the reliability bins; with ``per_type`` a row a type."""
    result, point = sweep.to_dict(), sweep.operating_point
    cuts = [("every mention kept", 0.0, 0.0),
            (f"threshold {DEFAULT_THRESHOLD}", DEFAULT_THRESHOLD, DEFAULT_THRESHOLD)]
    if result["best_threshold"] is not None:
        cuts.append(("best F1 here", result["best_threshold"], result["best_threshold"]))
    if point is not None:
        where = "this split" if point.chosen_on_scored else dev
        cuts.append((f"chosen on {where}", point.threshold,
                     point.threshold if point.threshold is not None else point.thresholds))
    unplaced = len(sweep.unplaced_confidence)
    out = [(Note(f"{counted(len(sweep.confidence), 'scored mention')} "
                + (f"(and {counted(unplaced, 'generated entity', 'generated entities')} "
                   "found nowhere in its sentence, a wrong prediction where kept) "
                   if unplaced else "")
                + f"against {counted(len(sweep.gold), 'gold mention')}; average precision "
                f"{_percent(result['average_precision'])}, expected calibration error "
                f"{_percent(result['ece'])}"),
            Table(["mentions kept", "threshold", "P", "R", "F1", "correct", "predicted"],
                  [_cut_row(name, shown, *sweep.counts_at(cut)) for name, shown, cut in cuts])),
           (Heading("Reliability (confidence bins)"),
            Table(["bin", "mentions", "mean confidence", "share correct"],
                  [[f"{row['lower']:.1f}-{row['upper']:.1f}", row["count"],
                    row["mean_confidence"], row["share_correct"]]
                   for row in result["reliability"]]))]
    return out + ([_per_type_blocks(result)] if per_type else [])


def _percent(value) -> str:
    """A fraction in a note as a table cell shows it: percent, 2 decimals; - undefined."""
    return "-" if value is None or value != value else f"{100 * value:.2f}"


def _cut_row(name: str, threshold, correct: int, predicted: int, gold: int) -> list:
    """``[name, threshold, P, R, F1, correct, predicted]`` (an undefined ratio is 0, as in
    ``nerspan.score``)."""
    row = entity_row(correct, predicted, gold, 0.0)
    return [name, "per type" if threshold is None else f"{threshold:g}", row["precision"],
            row["recall"], row["f1"], correct, predicted]


def _per_type_blocks(result: dict) -> tuple:
    """Per type: gold mentions, average precision, the best threshold and F1 there, F1 of
    every mention kept, and the threshold the operating point applies."""
    applied = result.get("operating_point", {}).get("thresholds", {})
    rows = [[name, row["support"], row["average_precision"], _threshold(row["best_threshold"]),
             row["best_f1"], row["f1"], _threshold(applied.get(name))]
            for name, row in sorted(result["per_type"].items())]
    return (Heading("Per type"), Table(["type", "gold", "AP", "best threshold", "best F1",
                                        "F1 all", "threshold applied"], rows))


def _threshold(value) -> str:
    return "-" if value is None else f"{value:g}"


def inflation_finding(sweep) -> str | None:
    """What the operating point says of itself: chosen on the split that is scored, the
    F1 it inflates and by how much (``nerspan.operating_points``); None when chosen on a
    dev split, or when nothing was predicted to choose on."""
    point = sweep.operating_point
    if point is None or not point.chosen_on_scored:
        return None
    return (f"the threshold{'s were' if point.per_type else ' was'} chosen on the split "
            f"that is scored: its F1 there, {100 * point.f1_chosen_on_scored:.2f}, is "
            f"inflated by {100 * point.inflation:+.2f} points (chosen on the other half of "
            f"its sentences: {100 * point.f1_chosen_elsewhere:.2f})")
