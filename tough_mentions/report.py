"""What the nerlens report and experiment show of Tough Mentions Recall, as plain data.

- ``statistic_name``: the readable names of the recall statistics;
- ``analyses``: the subsets under ``min_share`` of the gold mentions and the spread of
  each subset's recall across the systems;
- ``section``: the data composition, the recall per subset and its spread (page blocks);
- ``missed_unseen``: the unseen gold mentions a system misses, as error examples;
- ``no_seen_mentions``, ``seen_unseen_gap``: the findings' rules;
- ``over_runs`` and ``experiment_sections``: recall per subset, mean +- std over the runs
  of an experiment (TMR's Table 3).

Every function reads result dicts (``ToughMentionsResult.to_dict()``) through a
``nerspan.family.ReportView`` or ``ExperimentView``.
"""
from __future__ import annotations

from nerspan.blocks import Heading, Noted, Note, OverRuns, Strong, Table
from nerspan.bootstrap import MIN_SUPPORT
from nerspan.errors import counted
from nerspan.family import Section, finding, interval_text, no_gold_note, percent, usable
from nerspan.significance import mean_std

from .analysis import recall_spread, small_subsets, subset_recall
from .subsets import NAMING, SUBSET_LEGEND

# the subsets' names, as the terminal names them too (``subsets.NAMING``)
SUBSETS = {key: naming.title for key, naming in NAMING.items()}
SUBSET_HEADERS = {key: naming.header for key, naming in NAMING.items()}


def statistic_name(key: str, first=None) -> str | None:
    """``recall_unseen_any`` -> ``recall, unseen mentions (any)``.

    >>> statistic_name("recall_tcm_seen")
    'recall, type-confusable mentions, seen'
    """
    if not key.startswith("recall_"):
        return None
    subset = key[len("recall_"):]
    return f"recall, {SUBSETS.get(subset, subset)}"


def analyses(context, results: dict, settings: dict) -> dict:
    """The subsets under ``min_share`` of the gold mentions (left out of the recall
    table) and, with two or more systems, the spread of each subset's recall."""
    min_share = settings.get("min_share", 0.0)
    first = next(iter(results.values()))
    return {"min_share": min_share, "small_subsets": small_subsets(first, min_share),
            "recall_spread": recall_spread(results) if len(results) > 1 else None}


# -- the report's section ----------------------------------------------------------------
NO_GOLD = ("every subset is empty, so recall is undefined in each (\u2013), the column all "
           "included (the entity scores give it 0, by seqeval's zero_division).")


def section(view) -> tuple:
    """Data composition, recall per subset (without the small subsets), the spread."""
    first = view.first()
    subsets = list(first["counts"])
    blocks = [*no_gold_note(view, NO_GOLD), Heading("Data composition"),
              Table(["type"] + [SUBSET_HEADERS.get(s, s) for s in subsets],
                    composition_rows(first, subsets),
                    note="Gold mentions in each subset and, in brackets, their share of the "
                         "gold mentions of the row's type (last row: of all gold mentions).")]
    extra = view.analyses
    left_out = extra.get("small_subsets", {}).get("overall", []) if extra.get("min_share") else []
    shown = [s for s in subsets if s not in left_out]
    rows = [[system] + [subset_recall(r, s) for s in shown] for system, r in view.results.items()]
    blocks += [Heading("Recall per subset (%)"),
               Table(["system"] + [SUBSET_HEADERS.get(s, s) for s in shown], rows,
                     note="Recall only: false positives cannot be assigned to a subset, so "
                          "precision and F1 are not defined on subsets. \u2013 = empty "
                          f"subset. {SUBSET_LEGEND}")]
    if left_out:
        blocks.append(Note(f"Left out (under {100 * extra['min_share']:g}% of the gold "
                           f"mentions, as the paper's tables): "
                           f"{', '.join(SUBSETS.get(s, s) for s in left_out)}; "
                           "report.json keeps their numbers."))
    spread = extra.get("recall_spread")
    if spread:
        rows = [[SUBSETS.get(subset, subset), row["n_systems"], row["min"], row["max"],
                 row["range"], row["std"]]
                for subset, row in spread.items() if subset not in left_out]
        blocks += [Heading("Spread of each subset's recall across the systems"),
                   Table(["subset", "systems", "min", "max", "range", "std"], rows,
                         note="Recall in percent. A subset whose recall spreads much wider "
                              "than the overall recall (row all mentions) separates systems "
                              "that overall scores rank alike.")]
    return tuple(blocks)


def composition_cell(count: int, share: float | None) -> str:
    """A subset's count and its share, as the page and the terminal write it.

    >>> composition_cell(3, 0.25), composition_cell(0, None)
    ('3 (25.00%)', '0')
    """
    return f"{count} ({100 * share:.2f}%)" if share is not None else str(count)


def composition_rows(result: dict, subsets: list) -> list:
    """One row per type and one over all types: each subset's count (share %)."""
    def cells(counts, shares):
        return [composition_cell(counts[s], shares[s]) for s in subsets]

    rows = [[t] + cells(row["counts"], row["composition"])
            for t, row in result["per_type"].items()]
    rows.append([Strong("all types")] + cells(result["counts"], result["composition"]))
    return rows


# -- error examples ----------------------------------------------------------------------
def missed_unseen(result: dict, system: str, context) -> dict:
    """The unseen gold mentions ``system`` does not predict exactly (``result`` scored
    with ``return_mentions=True``), with the system's tags on them."""
    rows = []
    for mention in (result.get("mentions") or {}).get("unseen_any", []):
        if not mention["hit"]:
            start, end, sentence = mention["start"], mention["end"], mention["sentence"]
            rows.append({"sentence": sentence, "gold": [mention["type"], start, end],
                         "text": mention["text"],
                         **_predicted_on(context.corpus, system, sentence, start, end)})
    return {"missed_unseen": rows}


def _predicted_on(corpus, system: str, sentence: int, start: int, end: int) -> dict:
    """What ``system`` predicts on tokens ``[start, end)`` of ``sentence``: its tags, or
    the mentions that overlap them where its mentions nest (no tags hold them)."""
    spans = corpus.mentions(system)
    if spans is None:
        return {"predicted_tags": corpus.tags(system, sentence, start, end)}
    mine = spans.at([sentence])   # its mentions at their places in the sentence
    return {"predicted_mentions": [[str(mine.types[t]), a, b] for t, a, b in zip(
        mine.type.tolist(), mine.start.tolist(), mine.end.tolist()) if a < end and b > start]}


# -- findings ----------------------------------------------------------------------------
NO_SEEN_MENTIONS = ("The test set has no gold mention whose text and type occur in "
                    "training: recall on seen mentions is undefined.")
SEEN_UNSEEN_GAP = ("Recall on seen vs unseen mentions (tough mentions): stated when each "
                   f"subset holds at least {counted(MIN_SUPPORT, 'gold mention')} and the "
                   "two bootstrap intervals do not overlap.")
SEEN, UNSEEN = "tough_mentions.recall_seen", "tough_mentions.recall_unseen_any"


def no_seen_mentions(view) -> list[dict]:
    counts = next((c for c in (view.results.get(s, {}).get("counts") for s in view.systems)
                   if c), None)
    if not counts or counts.get("seen") != 0 or not counts.get("all"):
        return []
    return [finding("no_seen_mentions", None,
                    f"None of the {counted(counts['all'], 'gold mention')} of the test set "
                    "occurs in training with its type: every mention is unseen, recall on "
                    "seen mentions is undefined.", size=1.0, seen=0, mentions=counts["all"])]


def seen_unseen_gap(view) -> list[dict]:
    out = []
    for system in view.systems:
        seen, unseen = (view.intervals.get(system, {}).get(n) for n in (SEEN, UNSEEN))
        if not (usable(seen) and usable(unseen)):
            continue
        if seen["low"] <= unseen["high"] and unseen["low"] <= seen["high"]:
            continue
        a, b = (view.estimates[system][n] for n in (SEEN, UNSEEN))
        out.append(finding(
            "seen_unseen_gap", system,
            f"{system} recalls {percent(a)} of seen mentions {interval_text(seen)} but "
            f"{percent(b)} of unseen ones {interval_text(unseen)}.", size=abs(a - b),
            recall_seen=a, recall_unseen=b, interval_seen=seen, interval_unseen=unseen))
    return out


# -- over the runs of an experiment ------------------------------------------------------
def over_runs(view) -> dict:
    """``{"tough_mentions": dataset -> system -> subset -> recall mean +- std over its
    runs}`` (TMR's Table 3)."""
    out = {}
    for name in view.datasets:
        if name not in view.results:
            continue
        out[name] = {}
        for system, columns in view.runs[name].items():
            results = [view.results[name][c] for c in columns]
            out[name][system] = {
                subset: mean_std(subset_recall(x, subset) for x in results)
                for subset in results[0]["counts"]}
    return {"tough_mentions": out}


def experiment_sections(view) -> tuple:
    """The experiment's table of recall per subset over runs, per dataset."""
    blocks = []
    for name, by_system in view.data.get("tough_mentions", {}).items():
        subsets = list(next(iter(by_system.values())))
        runs = {s: len(view.runs[name][s]) for s in by_system}
        rows = [[Noted(s, f"({runs[s]})")] + [OverRuns(by_system[s][k], runs[s]) for k in subsets]
                for s in by_system]
        blocks += [Heading(name),
                   Table(["system"] + [SUBSET_HEADERS.get(k, k) for k in subsets], rows)]
    if blocks:
        blocks.append(Note("Recall (%) per subset, mean \u00b1 sample std over the system's "
                           "runs, (runs) after its name, as TMR's tables; a cell over fewer "
                           "runs (a subset empty in some) says how many; \u2013 = undefined in "
                           f"every run (the subset is empty). {SUBSET_LEGEND}"))
    else:
        blocks.append(Note("tough_mentions did not run."))
    return (Section("tmr", "Recall per subset over runs (tough mentions)", tuple(blocks)),)
