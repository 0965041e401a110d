"""The report as one self-contained HTML page: inline CSS, pictures as data URIs, one
small inline script (the error-example filter; the page works without it).

Sections: notes and contents, findings, the overview heat map, headline statistics (with
intervals), paired comparisons (``overview``), then tough mentions (composition,
recall, its spread across systems), hardeval (with the corpus statistics and the hard
tokens), faireval (error types figure, per-label table, confusion heat map and matrix),
attribute buckets (charts, tables, diagnoses and self-diagnosis histograms), each present
whenever its family ran; last the repairs made while decoding and the provenance.
"""
from __future__ import annotations

from nerlens.families import METHODS_ORDER as FAMILIES, family_package  # the report's order

from . import overview
from .analyses import (FAIREVAL_ERRORS_TITLE, OVERVIEW_TITLE, faireval_confusion_title,
                       self_diagnosis_title)
from .names import attribute_name, bucket_label
from .page_kit import Raw, contents, escape, figure, number, page, section, table
from .repairs import decoding_repairs
from .statistics import bucket_figure_title


def render(report) -> str:
    """The page: notes, contents, findings and overview first, then every table."""
    sections = page_sections(report)
    parts = [f"<h1>nerlens report</h1><p>Systems: {escape(', '.join(report.systems))}</p>",
             overview.notes(report), section(*sections[0]),
             contents([(a, t, []) for a, t, _ in sections])]
    parts += [section(anchor, title, body) for anchor, title, body in sections[1:]]
    return page("nerlens report", "".join(parts))


def page_sections(report) -> list[tuple[str, str, str]]:
    """``(anchor, title, body)`` of every section of one report's page, in page order
    (findings first; the experiment page nests them per dataset)."""
    sections = [("findings", "Findings", overview.findings(report)),
                ("overview", "Overview: where each system is weaker or stronger",
                 overview.heat_map(report, OVERVIEW_TITLE)),
                ("summary", "Headline statistics", overview.headline(report)),
                ("comparisons", "Paired comparisons with the baseline",
                 overview.comparisons(report))]
    sections += family_sections(report)
    sections.append(("examples", "Error examples", overview.examples(report)))
    sections += [("repairs", "Repairs made while decoding",
                  overview.repairs(decoding_repairs(report.results), report.info["mode"])),
                 ("provenance", "Provenance", overview.provenance(report))]
    return sections


TITLES = {"tough_mentions": "Tough mentions: recall on unseen and type-confusable mentions",
          "hardeval": "hardeval: token error rates on unseen and label-shifted tokens",
          "faireval": "faireval: error types without double penalties",
          "attribute_buckets": "Attribute buckets: F1 by entity and sentence attributes"}


# -- family sections ---------------------------------------------------------------------
def family_sections(report) -> list[tuple[str, str, str]]:
    """``(anchor, title, body)`` of each family that ran, in ``FAMILIES`` order."""
    families = [f for f in FAMILIES if f in report.info.get("families", FAMILIES)]
    return [(family, TITLES[family], SECTIONS[family](report)) for family in families]


def _results(report, family: str) -> dict:
    return {system: report.results[system][family] for system in report.systems}


def _tough_mentions_section(report) -> str:
    results = _results(report, "tough_mentions")
    first = next(iter(results.values()))
    subsets = list(first["counts"])
    parts = ["<h3>Data composition</h3>", _composition_table(first, subsets),
             "<p class='note'>Gold mentions in each subset and, in brackets, their share of "
             "the gold mentions of the row's type (last row: of all gold mentions).</p>"]
    extra = report.analyses.get("tough_mentions", {})
    left_out = extra.get("small_subsets", {}).get("overall", []) if extra.get("min_share") else []
    shown = [s for s in subsets if s not in left_out]
    rows = [[system] + [r["recall"] if s == "all" else r.get(f"recall_{s}") for s in shown]
            for system, r in results.items()]
    parts += ["<h3>Recall per subset (%)</h3>",
              table(["system"] + [SUBSET_HEADERS.get(s, s) for s in shown], rows),
              "<p class='note'>Recall only: false positives cannot be assigned to a subset, "
              "so precision and F1 are not defined on subsets. &ndash; = empty subset. "
              f"{SUBSET_LEGEND}</p>"]
    if left_out:
        parts.append(f"<p class='note'>Left out (under {100 * extra['min_share']:g}% of the "
                     f"gold mentions, as the paper's tables): {escape(', '.join(left_out))}; "
                     "report.json keeps their numbers.</p>")
    spread = extra.get("recall_spread")
    if spread:
        rows = [[subset, Raw(str(row["n_systems"])), row["min"], row["max"], row["range"],
                 row["std"]] for subset, row in spread.items() if subset not in left_out]
        parts += ["<h3>Spread of each subset's recall across the systems</h3>",
                  table(["subset", "systems", "min", "max", "range", "std"], rows),
                  "<p class='note'>A subset whose recall spreads much wider than the overall "
                  "recall (row all) separates systems that overall scores rank alike.</p>"]
    return "".join(parts)


SUBSET_HEADERS = {"all": "all", "seen": "seen", "unseen_any": "unseen (any)",
                  "unseen_tokens": "unseen text", "unseen_type": "unseen type",
                  "tcm_all": "TCM", "tcm_seen": "TCM seen", "tcm_unseen": "TCM unseen"}
SUBSET_LEGEND = ("Seen: text and type occur together in training; unseen text: the text "
                 "is no training mention; unseen type: the text is, never with this type; "
                 "TCM: type-confusable mentions, texts with two or more types in the test "
                 "set.")


def _composition_table(result: dict, subsets: list) -> str:
    """One row per type and one over all types: each subset's count (share %)."""
    def cells(counts, shares):
        return [Raw(f"{counts[s]} ({number(shares[s])}%)" if shares[s] is not None
                    else str(counts[s])) for s in subsets]

    rows = [[Raw(escape(t))] + cells(row["counts"], row["composition"])
            for t, row in result["per_type"].items()]
    rows.append([Raw("<b>all types</b>")] + cells(result["counts"], result["composition"]))
    return table(["type"] + [SUBSET_HEADERS.get(s, s) for s in subsets], rows)


def _hardeval_section(report) -> str:
    results = _results(report, "hardeval")
    first = next(iter(results.values()))
    names = list(first["subsets"])
    rows = [["tokens", None] + [Raw(str(first["subsets"][n]["tokens"])) for n in names]]
    rows += [[system, r["hardeval"]] + [r["subsets"][n]["ter"] for n in names]
             for system, r in results.items()]
    breakdown = [[system] + [r["error_breakdown"][k] for k in ("unseen", "diff", "other")]
                 for system, r in results.items()]
    shares = [["% of tokens", None] + [first["subsets"][n]["tokens"]
                                        / max(first["subsets"]["all"]["tokens"], 1)
                                        for n in names]]
    return (table(["system", "hardeval"] + names, rows[:1] + shares + rows[1:])
            + "<p class='note'>Token error rate (%) per subset; lower is better. TER on "
              "diff-O and unseen-O means little on its own: a system that tags nothing has "
              "TER 0 there.</p>"
            + "<h3>Share of all errors (%)</h3>"
            + table(["system", "unseen", "diff", "other"], breakdown)
            + _hardeval_analyses(report))


def _hardeval_analyses(report) -> str:
    extra = report.analyses.get("hardeval")
    if not extra:
        return ""
    stats = extra["corpus_statistics"]
    keys = ["sentences", "tokens", "mentions", "unique_mentions", "ambiguous_tokens",
            "ambiguous_mentions", "unseen_mentions", "unseen_unique_mentions"]

    def cell(value):
        if isinstance(value, dict):
            share = "" if value["share"] is None else f" ({100 * value['share']:.1f}%)"
            return Raw(escape(f"{value['count']}{share}"))
        return Raw("&ndash;" if value is None else escape(value))

    parts = ["<h3>Corpus statistics (the paper's Tables 1-2)</h3>",
             table(["statistic", *stats], [[k] + [cell(stats[c].get(k)) for c in stats]
                                            for k in keys]),
             "<p class='note'>Ambiguous: a token string seen with two or more IO labels, a "
             "mention text with two or more types; unseen: a mention text that is no "
             "training mention.</p>",
             "<h3>Most frequent hard tokens (the paper's section 3.2)</h3>"]
    tiles = []
    for subset, rows in extra["tokens"].items():
        if not rows:
            continue
        body = [[Raw(escape(r["token"])), Raw(str(r["count"]))]
                + [Raw(str(r["errors"][s])) for s in report.systems] for r in rows]
        tiles.append(f"<div><h4>{escape(subset)}</h4>"
                     + table(["token", "count"] + [f"errors {s}" for s in report.systems],
                             body) + "</div>")
    return "".join(parts) + f"<div class='tiles'>{''.join(tiles)}</div>"


FAIREVAL_COUNTS = ("TP", "FP", "FN", "LE", "BE", "BEs", "BEl", "BEo", "LBE")


def _faireval_section(report) -> str:
    parts = [figure(report, FAIREVAL_ERRORS_TITLE)]
    for system, result in _results(report, "faireval").items():
        rows = [[label] + [Raw(str(row[c])) for c in FAIREVAL_COUNTS]
                + [row["traditional_f1"], row["fair_f1"]]
                for label, row in result["per_type"].items()]
        rows.append([Raw("<b>overall</b>")] + [Raw(str(result["counts"][c]))
                                               for c in FAIREVAL_COUNTS]
                    + [result["traditional_f1"], result["fair_f1"]])
        row_names, columns, counts = family_package("faireval").result.confusion_table(
            result["confusion"])
        matrix = [[row_name] + cells for row_name, cells in zip(row_names, counts)]
        parts += [f"<h3>{escape(system)}: per label</h3>",
                  table(["label", *FAIREVAL_COUNTS, "traditional F1", "fair F1"], rows),
                  f"<h3>{escape(system)}: confusion of errors</h3>",
                  figure(report, faireval_confusion_title(system)),
                  table(["target \\ system", *columns], matrix),
                  _semeval_table(system, result.get("semeval") or {})]
    parts.append(_figures_note(report))
    parts.append("<p class='note'>Rows: target label, then the system spans no target span "
                 "took (FP); columns: system label, then the target spans no system span took "
                 "(FN); the diagonal holds boundary errors.</p>")
    return "".join(parts)


SEMEVAL_COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


def _semeval_table(system: str, semeval: dict) -> str:
    """The SemEval-2013 schemas (nervaluate's accounting of the same spans), overall."""
    if not semeval:
        return ""
    rows = [[Raw(escape(name))] + [Raw(str(row[c])) for c in SEMEVAL_COUNTS]
            + [row["precision"], row["recall"], row["f1"]] for name, row in semeval.items()]
    return (f"<h3>{escape(system)}: SemEval-2013 schemas</h3>"
            + table(["schema", *SEMEVAL_COUNTS, "P", "R", "F1"], rows))


TOKEN_NOTE = ("Scored over tokens, O included (every token is a unit): token F1, not "
              "comparable with entity F1.")


def _attribute_buckets_section(report) -> str:
    unit = family_package("attribute_buckets").analysis.unit
    results = _results(report, "attribute_buckets")
    first = next(iter(results.values()))
    parts = []
    for attribute, buckets in first["buckets"].items():
        parts.append(f"<h3>{escape(attribute_name(attribute))}</h3>")
        if unit(first, attribute) == "token":
            parts.append(f"<p class='note'>{TOKEN_NOTE}</p>")
        title = bucket_figure_title(attribute)
        parts.append(figure(report, title))
        rows = []
        for i, bucket in enumerate(buckets):
            rows.append([Raw(escape(bucket_label(bucket))),
                         Raw(str(bucket["gold"]))]
                        + [r["buckets"][attribute][i]["f1"] for r in results.values()])
        parts.append(table(["bucket", "gold"] + list(results), rows))
    diagnoses = []
    for system, result in results.items():
        for attribute, buckets in result["buckets"].items():
            scored = [(b["f1"], b["name"]) for b in buckets if b["f1"] is not None]
            if len(scored) >= 2:
                (worst, worst_name), (best, best_name) = min(scored), max(scored)
                tokens = ", token F1" if unit(result, attribute) == "token" else ""
                diagnoses.append([system, attribute_name(attribute) + tokens,
                                  Raw(escape(best_name)), best, Raw(escape(worst_name)), worst,
                                  best - worst])
    if diagnoses:
        parts += ["<h3>Self-diagnosis: best and worst bucket</h3>",
                  table(["system", "attribute", "best", "F1", "worst", "F1", "gap"],
                        diagnoses)]
        charts = [figure(report, self_diagnosis_title(system)) for system in results]
        if any(charts):
            parts += charts + ["<p class='note'>Each chart draws the entity attributes beside "
                               "the system's entity F1, and the token attributes (token F1) "
                               "apart, beside the F1 over all tokens.</p>"]
        parts.append(_figures_note(report))
    return "".join(parts)


def _figures_note(report) -> str:
    """Says which systems have no per-system figure (the tables cover every system)."""
    drawn = [s for s in report.systems if self_diagnosis_title(s) in report.figures
             or faireval_confusion_title(s) in report.figures]
    if not drawn or len(drawn) == len(report.systems):
        return ""
    return (f"<p class='note'>Per-system figures are drawn for the first {len(drawn)} "
            f"systems only ({escape(', '.join(drawn))}); <code>nerlens faireval --plot</code> and "
            "<code>nerlens buckets --plot</code> draw them for every system.</p>")


SECTIONS = {"tough_mentions": _tough_mentions_section, "hardeval": _hardeval_section,
            "faireval": _faireval_section, "attribute_buckets": _attribute_buckets_section}
