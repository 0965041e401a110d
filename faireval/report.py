"""What the nerlens report shows of FairEval, as plain data.

- ``statistic_name``: readable names of the fair scores and the SemEval-2013 schemas;
- ``figures``: the paper's two figures, errors by type (traditional vs fair, every
  system) and the confusion of errors (one per drawn system);
- ``section``: the figures, the per-label counts, the confusion matrix and the SemEval
  schemas of every system (page blocks);
- ``countings_blocks``: fair and weight-table precision, recall and F1 (the command
  line's table beside the entity scores);
- ``error_examples``: the system's errors by type (LE, BE, LBE, FN, FP), as examples;
- ``boundary_errors``: the findings' rule.
"""
from __future__ import annotations

from nerspan.blocks import Collapsed, FiguresCapNote, Figure, Heading, Strong, Table
from nerspan.bootstrap import MIN_SUPPORT
from nerspan.errors import counted
from nerspan.fbeta import fbeta_key
from nerspan.family import finding, no_gold_note, percent

from . import plots
from .result import confusion_layout, error_confusion, summed_note

SCORES = {"fair_precision": "fair precision (FairEval)", "fair_recall": "fair recall (FairEval)",
          "fair_f1": "fair F1 (FairEval)"}
# the SemEval-2013 Task 9.1 schemas (``faireval.semeval.<schema>.f1``)
SEMEVAL = {"strict": "strict: exact span and type", "exact": "exact: exact span, any type",
           "partial": "partial: overlapping span, any type",
           "ent_type": "type: overlapping span, same type"}


# a schema's name in the table (the SemEval-2013 task's; nervaluate's key ent_type is
# its type schema)
SEMEVAL_SHORT = {name: text.partition(":")[0] for name, text in SEMEVAL.items()}


def statistic_name(key: str, first=None) -> str | None:
    """``fair_f1`` -> ``fair F1 (FairEval)``; ``semeval.partial.f1`` -> ``F1, SemEval-2013
    partial: overlapping span, any type``.

    >>> statistic_name("semeval.strict.f1")
    'F1, SemEval-2013 strict: exact span and type'
    """
    schema = key[len("semeval."):-len(".f1")] if key.startswith("semeval.") else None
    if schema in SEMEVAL and key.endswith(".f1"):
        return f"F1, SemEval-2013 {SEMEVAL[schema]}"
    return SCORES.get(key, key)


# -- figures -----------------------------------------------------------------------------
ERRORS_TITLE = "FairEval: errors by type, traditional vs fair counting"


def confusion_title(system: str) -> str:
    return f"FairEval: confusion of errors, {system}"


def figures(view) -> dict:
    """Title -> Figure: errors by type for every system, the confusion of errors of the
    systems ``view.drawn``."""
    out = {ERRORS_TITLE: plots.error_distribution(dict(view.results))}
    for system in view.drawn:
        title = f"Confusion of errors: {system}\n(diagonal: boundary errors)"
        out[confusion_title(system)] = plots.confusion_heatmap(view.results[system],
                                                               title=title)
    return out


# -- the report's section ----------------------------------------------------------------
COUNTS = ("TP", "FP", "FN", "LE", "BE", "BEs", "BEl", "BEo", "LBE")
CONFUSION_NOTE = ("Rows: target label, then the system spans no target span took (FP); "
                  "columns: system label, then the target spans no system span took (FN); "
                  "the diagonal holds boundary errors.")
COUNTS_LEGEND = ("Per label: TP correct; FP spurious; FN missed; LE wrong label; BE wrong "
                 "boundary, the system span smaller (BEs), larger (BEl) or overlapping (BEo); "
                 "LBE wrong label and boundary. F1 in percent.")
SEMEVAL_COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


NO_GOLD = ("there is nothing to find, so every system span is a false positive; "
           "traditional and fair F1 are 0 for a system that predicts a mention and "
           "undefined (\u2013) for one that predicts none.")


def section(view) -> tuple:
    """Errors by type and one row of counts per system, then per system (collapsed but
    the first): the per-label counts and scores, the confusion of errors (figure and
    matrix) and the SemEval-2013 schemas."""
    overall = [[system] + [str(r["counts"][c]) for c in COUNTS]
               + [r["traditional_f1"], r["fair_f1"]] for system, r in view.results.items()]
    blocks = [*no_gold_note(view, NO_GOLD), Figure(ERRORS_TITLE),
              Table(["system", *COUNTS, "traditional F1", "fair F1"], overall,
                    note=COUNTS_LEGEND)]
    for n, (system, result) in enumerate(view.results.items()):
        rows = [[label] + [str(row[c]) for c in COUNTS] + [row["traditional_f1"], row["fair_f1"]]
                for label, row in result["per_type"].items()]
        rows.append([Strong("overall")] + [str(result["counts"][c]) for c in COUNTS]
                    + [result["traditional_f1"], result["fair_f1"]])
        row_names, columns, counts, summed = confusion_layout(error_confusion(result))
        parts = (Heading(f"{system}: per label"),
                 Table(["label", *COUNTS, "traditional F1", "fair F1"], rows),
                 Heading(f"{system}: confusion of errors"),
                 Figure(confusion_title(system)),
                 Table(["target \\ system", *columns],
                       [[name] + cells for name, cells in zip(row_names, counts)],
                       note=" ".join(filter(None, (CONFUSION_NOTE,
                                                   summed_note(summed, row_names[-2] if summed else ""))))),
                 *semeval_blocks(system, result.get("semeval") or {}))
        blocks.append(Collapsed(f"{system}: per label, confusion of errors"
                                + (", SemEval-2013 schemas" if result.get("semeval") else ""),
                                parts, opened=n == 0))
    return (*blocks, FiguresCapNote())


def semeval_blocks(system: str, semeval: dict) -> tuple:
    """The SemEval-2013 schemas (nervaluate's accounting of the same spans), overall."""
    if not semeval:
        return ()
    rows = [[SEMEVAL_SHORT.get(name, name)] + [str(row[c]) for c in SEMEVAL_COUNTS]
            + [row["precision"], row["recall"], row["f1"]] for name, row in semeval.items()]
    return (Heading(f"{system}: SemEval-2013 schemas"),
            Table(["schema", *SEMEVAL_COUNTS, "P", "R", "F1"], rows))


# -- the command line's scores ------------------------------------------------------------
# the countings beside the traditional one (the entity scores): title by key prefix
COUNTINGS = {"fair": "fair", "weight_table": "weight table (--weights)"}


def countings_blocks(results: dict) -> tuple:
    """Fair (and weight-table) precision, recall and F1 of each system (F-beta too, scored
    with a beta other than 1): ``section`` shows their F1 only."""
    first = next(iter(results.values()))
    beta = first.get("options", {}).get("beta", 1.0)
    keys = ["precision", "recall", "f1"] + ([fbeta_key(beta)] if beta != 1 else [])
    kinds = [kind for kind in COUNTINGS if f"{kind}_f1" in first]
    return (Heading("FairEval scores (%)"),
            Table(["system", "counting", *keys], [[name, COUNTINGS[kind]] + [
                r[f"{kind}_{key}"] for key in keys] for name, r in results.items()
                for kind in kinds]))


# -- error examples ----------------------------------------------------------------------
KINDS = {"LE": "wrong label (LE)", "BE": "wrong boundary (BE)",
         "LBE": "wrong label and boundary (LBE)", "FN": "missed mention (FN)",
         "FP": "spurious mention (FP)"}
# FairEval's error types as example kinds (the BE subtypes are one kind)
KIND_OF = {"LE": "LE", "BEs": "BE", "BEl": "BE", "BEo": "BE", "LBE": "LBE", "FN": "FN",
           "FP": "FP"}


def error_examples(result: dict, system: str, context=None) -> dict:
    """Every error of the system by kind (``result`` scored with ``return_pairs=True``):
    sentence, error type, the gold and the predicted span."""
    kinds: dict = {kind: [] for kind in KINDS}
    for sentence, events in enumerate(result.get("pairs") or []):
        for event in events:
            kind = KIND_OF.get(event["type"])
            if kind:
                kinds[kind].append({"sentence": sentence, "error": event["type"],
                                    "gold": event["target"], "predicted": event["system"]})
    return kinds


# -- findings ----------------------------------------------------------------------------
BOUNDARY_ERRORS = ("Share of a system's errors that are boundary errors (FairEval BE + LBE "
                   "over FP + FN + LE + BE + LBE): stated when the system makes at least "
                   f"{counted(MIN_SUPPORT, 'error')} (a count, no interval).")


def boundary_errors(view) -> list[dict]:
    out = []
    for system in view.systems:
        counts = view.results.get(system, {}).get("counts")
        if not counts:
            continue
        errors = sum(counts[k] for k in ("FP", "FN", "LE", "BE", "LBE"))
        if errors < MIN_SUPPORT:
            continue
        share = (counts["BE"] + counts["LBE"]) / errors
        out.append(finding(
            "boundary_errors", system,
            f"{percent(share)} of {system}'s {counted(errors, 'error')} are boundary errors "
            f"({counts['BE']} BE, {counts['LBE']} LBE; FairEval counting).", size=share,
            share=share, errors=errors, BE=counts["BE"], LBE=counts["LBE"]))
    return out
