"""The report's nested view: gold whose mentions nest (several tag columns read as layers,
``nerspan.layers``; span lists that nest or hold discontinuous mentions).

Entity scores need no tags: every mention counts, matched exactly on (type, fragments),
as ``nerspan.score`` scores it; this view shows them per system over every mention, per
layer (``LayeredScores.layers``) and on the nesting-aware views (``shapes``: inner
mentions only, discontinuous ones, the sentences that hold them). What reads one gold
tag per token cannot take such gold: a family whose descriptor does not say it takes it
(``Family.takes_nested``), one that refuses a shape (its own error says why) and the
parts in ``ONE_TAG_PARTS`` are left out, and the view names each with its reason; nothing
is read as the first layer alone. A family whose numbers are defined on one tag per token
may score each layer on its own (its result's ``layers``): its statistics are then named
per layer (``names.layer_statistic``) and its section has one part per layer.
"""
from __future__ import annotations

from nerspan.blocks import Heading, Note, Noted, Strong, Table
from nerspan.errors import counted
from nerspan.family import NOT_NESTED
from nerspan.layers import is_layered, layer_columns, scores_of_layers
from nerspan.scores import is_flat

from nerlens.families import get_family

TITLE = "Nested gold: every mention, per layer and shape"

# The report's own parts that read one gold tag per token, with why (the families say
# their own reasons when they refuse)
ONE_TAG_PARTS = {
    "confusion": "the entity confusion matrix pairs each gold mention with the "
                 "predictions over one tag column of gold: with nested gold a mention "
                 "inside another would be counted as a boundary error of the outer one",
}

# A system's rows in the view after the one over every mention and one per layer: the
# shapes (key in the scores' ``shapes``, label), each shown where either side has it
SHAPE_ROWS = (("inner", "inner mentions only"),
              ("discontinuous", "discontinuous mentions only"),
              ("sentences", "sentences holding nested mentions"))


def nests(evaluation) -> bool:
    """Whether the evaluation's gold has layers or mentions that nest, overlap or
    are discontinuous."""
    return (is_layered(evaluation.corpus, evaluation.gold_column)
            or not is_flat(evaluation.gold))


def with_nested_options(families, options) -> tuple[dict, dict]:
    """``(options, applied)``: each family's ``nested_options`` (what lets it take gold
    that nests) under the options given for it, and family -> those of them it gets."""
    given = {name: dict(value) for name, value in (options or {}).items()}
    applied = {}
    for name in families:
        extra = {key: value for key, value in get_family(name).nested_options.items()
                 if key not in given.get(name, {})}
        if extra:
            applied[name] = extra
            given[name] = {**extra, **given.get(name, {})}
    return given, applied


def declared(families) -> tuple[list, dict]:
    """``(kept, skipped)``: the families (names) whose descriptor says they take gold
    that nests (``Family.takes_nested``), and family -> why each other one is left out.
    A kept family may still refuse a shape on the inputs given (training data read with
    layers, a discontinuous mention): the report then leaves it out with its own reason
    (``build.score_systems``), from the one pass that scores it."""
    kept = [name for name in families if get_family(name).takes_nested]
    return kept, {name: NOT_NESTED for name in families if name not in kept}


def collect(evaluation, systems) -> dict:
    """System -> its scores against every gold mention (``nerspan.score``'s dict of
    layered gold: ``layers``, ``merged_mentions``; ``shapes`` where mentions nest)."""
    gold = evaluation.layers(evaluation.gold_column)   # decoded once, for every system
    return {system: scores_of_layers(gold, evaluation.layers(system)).to_dict()
            for system in systems}


def info(evaluation, skipped: dict, applied: dict) -> dict:
    """What the page says about the gold: its layers, what was left out, why, and the
    options families were scored under to take it (``with_nested_options``)."""
    return {"layers": len(layer_columns(evaluation.corpus, evaluation.gold_column)),
            "skipped": {**skipped, **ONE_TAG_PARTS},
            "applied": {name: {key: list(value) if isinstance(value, tuple) else value
                               for key, value in extra.items()}
                        for name, extra in applied.items() if name not in skipped}}


def blocks(report) -> list:
    """The view as page blocks (``nerspan.blocks``): what the gold holds, one table of
    every system's rows, and what was left out; none when gold does not nest."""
    about = report.info.get("nesting")
    if not about:
        return []
    first = report.nesting[report.systems[0]]
    out = [Note(gold_sentence(first, about["layers"])),
           Table(("system: mentions", "gold", "predicted", "found", "precision",
                  "recall", "F1"),
                 tuple(row for system in report.systems
                       for row in system_rows(system, report.nesting[system])),
                 note=TABLE_NOTE)]
    out += [Note(f"{name} is scored with {key}={_shown(value)}: the options under which "
                 "it takes gold that nests") for name, extra in about.get("applied", {}).items()
            for key, value in extra.items()]
    if about["skipped"]:
        out += [Heading("Left out, each with its reason", 4)]
        out += [Note(f"{name}: {why}") for name, why in about["skipped"].items()]
    return out


TABLE_NOTE = (
    "Found: gold mentions the system predicts exactly, type and fragments, as "
    "nerspan.score matches them. A layer is the k-th tag column given to layers / "
    "--layers; a flat system is scored against each gold layer with all its mentions, so "
    "a layer's precision counts them all: read its recall. In the shape rows, precision is "
    "the share of the system's mentions of that shape that gold has, recall the share of "
    "gold's that it predicts; the sentences row counts every mention of the sentences "
    "where gold or the system has a nested, overlapping or discontinuous mention. A dash "
    "where nothing is counted.")


def _shown(value) -> str:
    """An option's value as the command line spells it (a list comma-separated)."""
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def gold_sentence(scores: dict, n_layers: int) -> str:
    """What the gold holds, in one sentence."""
    layers = scores.get("layers", {})
    parts = [f"layer {k}: {row['gold']}" for k, row in layers.items()] if n_layers > 1 else []
    shapes, merged = scores.get("shapes", {}), scores.get("merged_mentions", 0)
    inner, split = (shapes.get(key, {}).get("gold", 0) for key in ("inner", "discontinuous"))
    return (f"Gold holds {scores['gold']} mentions"
            + (f" ({', '.join(parts)}; {merged} in two layers counted once)" if parts else "")
            + f", {inner} of them inside another" + (f", {split} discontinuous" if split else "")
            + ". Every one is scored below.")


def system_rows(system: str, scores: dict) -> list:
    """One system's rows: every mention, each layer, each shape that occurs."""
    rows = [("every mention", scores, "correct")]
    if len(scores.get("layers", {})) > 1:
        rows += [(f"layer {k}", row, "correct") for k, row in scores["layers"].items()]
    shapes = scores.get("shapes", {})
    rows += [(label + (f" ({counted(shapes[key]['sentences'], 'sentence')})" if key == "sentences"
                       else ""),
              shapes[key], "found_gold") for key, label in SHAPE_ROWS if key in shapes]
    return [(Noted(Strong(system) if k == 0 else "", label), row["gold"], row["predicted"],
             row[correct], defined(row["precision"], row["predicted"]),
             defined(row["recall"], row["gold"]), defined(row["f1"], row["gold"]
                                                          + row["predicted"]))
            for k, (label, row, correct) in enumerate(rows)]


def defined(value: float, count: int):
    """``value``, or None (shown as a dash) when it counts nothing."""
    return value if count else None


def left_out(report, part: str) -> str:
    """Why the report left ``part`` out because gold nests; '' when it did not."""
    why = (report.info.get("nesting") or {}).get("skipped", {}).get(part)
    return f"Left out: gold nests, and {why}." if why else ""

