"""``nerspan.sweep``: scored predictions against gold in any of its forms, at every
threshold, with the operating point chosen in the same call (METHODS §8).

The gold side is read as ``nerspan.score`` reads it (tag lists, label ids, a ``Corpus``,
a ``datasets`` split, span lists; the input options alike); the predictions are scored
span lists (``nerspan.scored.scored_spans``: a pipeline's output, GLiNER's dicts, span
dicts or tuples with a ``score``), generated output whose entities carry a ``score``
(``nerspan.generative.scored_output``: grounded in gold's words, or ``tokens``/``texts``,
with the grounding options of ``inputs``; an entity found nowhere is a wrong prediction
where kept) or ``ScoredMentions`` made already (``scored_tokens`` of a Trainer's
logits). ``choose_on``: a dev split's ``(references, predictions)`` (or
its ``Sweep``), on which the thresholds of the highest F1 are chosen and applied to
these predictions; without it they are chosen on the split that is scored, and the
operating point says so and estimates what that inflates
(``nerspan.operating_points``). ``sweep_files``: the same of files, gold and one scored
file (a dev pair of them to choose on: ``SweepOptions``), as ``nerlens sweep`` reads them.

>>> s = sweep([["B-PER", "O", "B-LOC", "O"]],
...           [[(0, 1, "PER", 0.9), (2, 3, "ORG", 0.6), (3, 4, "LOC", 0.3)]])
>>> s.average_precision, s.best_threshold, s.at(0.5).micro()
(0.5, 0.9, (0.5, 0.5, 0.5))
>>> s.operating_point.threshold, s.operating_point.chosen_on_scored
(0.9, True)
"""
from __future__ import annotations

import dataclasses

from .evaluation import Evaluation
from .generative.form import is_generated, words_of
from .generative.scored_output import scored_generated
from .reading.answers import read_scored_files
from .records import InputOptions, Record, option, switch
from .operating_points import operating_point
from .options import check_bool
from .scored import AGGREGATES, ScoredMentions, scored_spans
from .sweeps import Sweep, sweep_spans

def sweep(references, predictions, *, choose_on=None, per_type: bool = False,
          tokens=None, scheme: str = "IOB2", mode: str = "lenient",
          zero_division: float = 0.0, aggregate: str = "min", inputs=None) -> Sweep:
    """The sweep of scored ``predictions`` against ``references``, with its operating
    point (``Sweep.operating_point``; None when nothing was predicted to choose on).

    Args:
        references: the gold side, in any form ``nerspan.score`` takes.
        predictions: scored span lists, one list per sentence; generated output (one
            response or entity list per sentence) whose entities carry a ``score``; or
            ``ScoredMentions``.
        choose_on: the dev split, ``(references, predictions)`` read as these are, or a
            ``Sweep``; None: the thresholds are chosen on the split that is scored.
        per_type: one threshold per entity type (a type the dev split never predicted
            takes the overall one).
        tokens: the words of each sentence, when the gold input does not hold them.
        scheme, mode: how gold tags are decoded; zero_division: as ``nerspan.score``'s.
        aggregate: how per-sub-token pipeline output makes a mention's confidence
            (``"min"`` or ``"mean"`` of its words' scores).
        inputs: the other input options (``nerspan.InputOptions``, or a dict of them):
            how gold and the scored spans are read (``texts``, ``offsets``, ...).
    """
    per_type = check_bool("per_type", per_type)
    inputs = InputOptions.of(inputs, tokens=tokens)
    read = dict(scheme=scheme, mode=mode, zero_division=zero_division, aggregate=aggregate,
                inputs=inputs)
    test = _swept(references, predictions, "predictions", **read)
    if choose_on is None:
        dev = test
    elif isinstance(choose_on, Sweep):
        dev = choose_on
    else:
        dev = _swept(*_dev_pair(choose_on), "choose_on predictions", **read)
    point = operating_point(dev, test, per_type=per_type) if len(dev.confidence) else None
    return dataclasses.replace(test, operating_point=point)


def _dev_pair(choose_on) -> tuple:
    if isinstance(choose_on, (tuple, list)) and len(choose_on) == 2:
        return choose_on
    raise TypeError(f"choose_on must be a dev split's (references, predictions) or its "
                    f"Sweep, not {type(choose_on).__name__}")


def _swept(references, predictions, side: str, *, scheme: str, mode: str,
           zero_division: float, aggregate: str, inputs: InputOptions) -> Sweep:
    """One split's sweep: gold decoded as ``nerspan.score`` decodes it, the scored
    spans read with the span options given (gold's words when none are)."""
    if aggregate not in AGGREGATES:  # scored_spans names the choices
        scored_spans([], aggregate=aggregate)
    context = Evaluation.build(references, scheme=scheme, mode=mode, inputs=inputs)
    if not isinstance(predictions, ScoredMentions) and is_generated(predictions):
        predictions = scored_generated(predictions, context.corpus, inputs, side)
    if not isinstance(predictions, ScoredMentions):
        if inputs.tokens is None and inputs.texts is None:
            inputs = inputs.replace(tokens=words_of(context.corpus))  # to read offsets
        predictions = scored_spans(predictions, side, aggregate=aggregate, inputs=inputs)
    predictions = predictions.processed(inputs.types.processing)
    return sweep_spans(context.gold, predictions, zero_division=zero_division)


@dataclasses.dataclass(frozen=True)
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
    """The sweep of the ``scored`` file (a JSON Lines span file whose spans carry a
    ``score``, or generated output with a score per entity) against ``gold``, with
    ``options`` (``SweepOptions``, or a dict of them): both read by ``read_scored_files``
    with ``reading`` (its keywords), the dev pair too; a dev file with no scored mention
    to choose on is refused (``sweep`` would choose nothing)."""
    options, dev = SweepOptions.of(options), None
    if options.choose_on:
        dev_gold, dev_scored = options.choose_on
        dev = read_scored_files(dev_gold, [dev_scored], **reading)[0].call(sweep)
        if not len(dev.confidence):
            raise ValueError(f"{SweepOptions.spelled('choose_on')}: {dev_scored} holds no "
                             "scored mention to choose a threshold on")
    [split] = read_scored_files(gold, [scored], **reading)
    return split.call(sweep, choose_on=dev, per_type=options.per_type)


__all__ = ["sweep", "sweep_files", "SweepOptions"]
