"""``sweep_files``: ``nerspan.sweep`` of files, gold and one scored file (a JSON Lines span
file whose spans carry a ``score``, or generated output with a score per entity: the one
reader, ``read_scored_files``, tells them apart), the thresholds chosen on a dev pair of
such files when one is given (``SweepOptions.choose_on``), else on the file scored."""
from __future__ import annotations

from dataclasses import dataclass

from .dial import sweep
from .reading.answers import read_scored_files
from .records import Record, option, switch
from .sweeps import Sweep


@dataclass(frozen=True)
class SweepOptions(Record):
    """How a sweep of files chooses its thresholds."""

    choose_on: list | None = option(
        None, "choose the thresholds on this dev split (gold and scored predictions, read "
        "as GOLD and PRED) and apply them to GOLD PRED; default: chosen on GOLD PRED "
        "itself, which inflates its F1 (the output says by how much)", nargs=2,
        metavar=("DEV_GOLD", "DEV_PRED"))
    per_type: bool = switch(False, "one threshold per entity type (chosen where that type's "
                            "F1 is highest), and the per-type curve summary in the text "
                            "view")

    describes = "sweep"


def sweep_files(gold, scored, options=None, **reading) -> Sweep:
    """The sweep of the ``scored`` file against ``gold`` with ``options``
    (``SweepOptions``, or a dict of them), both read by ``read_scored_files`` with
    ``reading`` (its keywords), the dev pair too; a dev file with no scored mention to
    choose on is refused."""
    options, dev = SweepOptions.of(options), None
    if options.choose_on:
        dev_gold, dev_scored = options.choose_on
        [dev_split] = read_scored_files(dev_gold, [dev_scored], **reading)
        dev = dev_split.call(sweep)
        if not len(dev.confidence):
            raise ValueError(f"{SweepOptions.spelled('choose_on')}: {dev_scored} holds no "
                             "scored mention to choose a threshold on")
    [split] = read_scored_files(gold, [scored], **reading)
    return split.call(sweep, choose_on=dev, per_type=options.per_type)
