"""The parts of the HTML report around the family sections: the notes, the findings,
the headline statistics with readable names, the paired comparisons, the error examples,
the repairs made while decoding and the provenance."""
from __future__ import annotations

from nerspan.errors import counted
from nerspan.fbeta import fbeta_key

from .examples import CONTEXT, cut_note, kinds, shown_examples, subset_names, window
from .findings import rule_texts, shown
from .names import first_results, headlines, pair_key, statistic_label
from .page_kit import FEW_MARK, SYSTEMS_PER_TABLE, Raw, escape, number, table
from . import generated
from .repairs import repairs_note
from .views import every_family, ran

# a listing of more rows than this (repairs, the systems' files) is collapsed
LONG = 10
UNDEFINED_NOTE = "&ndash; = undefined (an empty subset or bucket, or nothing to divide by)"


def notes(report) -> str:
    items = "".join(f"<p>{escape(note)}</p>" for note in report.info.get("notes", []))
    return f"<div class='notes'>{items}</div>" if items else ""


def findings(report) -> str:
    kept, more = shown(report.findings)
    texts = rule_texts(report)
    if not report.findings:
        items = "<li>None: no statement's evidence holds (rules below).</li>"
    else:
        items = "".join(_finding_item(f, texts) for f in kept)
    parts = [f"<ul class='findings'>{items}</ul>"]
    if more:
        rest = [f for f in report.findings if f not in kept]
        parts.append(f"<details><summary>{counted(more, 'more finding')}</summary>"
                     "<ul class='findings'>"
                     + "".join(_finding_item(f, texts) for f in rest) + "</ul></details>")
    # the rules by their texts (their names are report.json's, in each finding's rule)
    rules = "".join(f"<li data-rule='{escape(rule)}'>{escape(text)}</li>"
                    for rule, text in texts.items())
    parts.append("<details><summary>How findings are chosen</summary><ul class='note'>"
                 f"{rules}</ul><p class='note'>Intervals in brackets are percent, "
                 "from the report's bootstrap. report.json lists every finding with its "
                 "evidence (fractions).</p></details>")
    return "".join(parts)


def _finding_item(finding: dict, texts: dict) -> str:
    return (f"<li data-rule='{escape(finding['rule'])}' "
            f"title='{escape(texts.get(finding['rule'], ''))}'>{escape(finding['text'])}</li>")


def _chunks(systems: list) -> list[list]:
    return [systems[i:i + SYSTEMS_PER_TABLE] for i in range(0, len(systems),
                                                           SYSTEMS_PER_TABLE)]


def headline_columns(report) -> list[tuple]:
    """The headline table's columns: ``(title, legend, family, Headline)``, entity F1
    first (family None, the statistic's name for Headline; with ``report(beta=...)`` the
    entity F-beta after it), then each family's ``headline`` in the report's
    order (a statistic that was not computed is left out)."""
    columns = [("entity F1", "entity F1 (exact span and type)", None, "entity_f1")]
    columns += [(statistic_label(name), fbeta_legend(report), None, name)
                for name in entity_fbeta(report)]
    for family in ran(report):
        for h in headlines(family, report.higher_is_better):   # per layer, where scored so
            if h.value is not None or family.key(h.key) in report.higher_is_better:
                lower = report.higher_is_better.get(family.key(h.key)) is False
                title = h.title + (" \u2193" if lower and "lower" not in h.title else "")
                columns.append((title, h.legend, family, h))
    return columns


def _headline_cell(report, system: str, family, h) -> str:
    if family is None:
        return _with_interval(report, system, h)
    if h.value is None:
        return _with_interval(report, system, family.key(h.key))
    value, about = h.value(report.results[system][family.name])
    return number(value) + (f" <span class='note'>{escape(about)}</span>" if about else "")


def headline(report) -> str:
    """One row per system: the handful of numbers a reader compares first (entity F1
    and each family's ``headline``); entity precision and recall collapsed below; every
    other statistic in its family's section."""
    columns = headline_columns(report)
    reference = report.info.get("baseline")
    rows = [[Raw(f"<b>{escape(system)}</b>" + (" <span class='note'>(reference)</span>"
                                               if system == reference and len(report.systems) > 1
                                               else ""))]
            + [Raw(_headline_cell(report, system, family, h)) for _, _, family, h in columns]
            for system in report.systems]
    parts = [table(["system"] + [title for title, *_ in columns], rows)]
    legends = "; ".join(f"{escape(title)}: {escape(legend)}" for title, legend, *_ in columns
                        if legend != title)
    info = report.info
    note = (f"<p class='note'>{counted(info['sentences'], 'sentence')}, "
            f"{counted(info['tokens'], 'token')}; scheme "
            f"{escape(info['scheme'])}, {escape(info['mode'])} decoding. Numbers in percent "
            f"(a gap in points); {legends}; "
            + ("\u2193 = lower is better; " if any("\u2193" in c[0] for c in columns) else "")
            + f"{UNDEFINED_NOTE}. "
            "Every other statistic, with its interval and its paired comparison, is in its "
            "family's section (collapsed).")
    if info.get("bootstrap"):
        note += (f" Brackets: {info['confidence']:.0%} percentile bootstrap interval over "
                 f"sentences ({counted(info['bootstrap'], 'sample')}, seed {info['seed']}); "
                 "* marks numbers computed on fewer than "
                 f"{counted(info['min_support'], 'item')}.")
    parts.append(note + "</p>")
    entity = [n for n in ("entity_precision", "entity_recall") if n in report.higher_is_better]
    if entity:
        rows = [[Raw(escape(system))] + [Raw(_with_interval(report, system, n)) for n in entity]
                for system in report.systems]
        parts.append("<details><summary>Entity precision and recall</summary>"
                     + table(["system"] + [statistic_label(n) for n in entity], rows)
                     + "</details>")
    return "".join(parts)


def _with_interval(report, system: str, name: str) -> str:
    text = number(report.estimates[system].get(name))
    interval = report.intervals.get(system, {}).get(name)
    if interval and interval["low"] is not None and interval["low"] == interval["low"]:
        text += (f" <span class='note ci'>[{100 * interval['low']:.2f}, "
                 f"{100 * interval['high']:.2f}]</span>")
    if interval and interval.get("too_small") and text != "&ndash;":
        text += FEW_MARK
    return text


TIE = "<span title='both systems score the same on the test set'>tie</span>"


def comparison_cell(report, system: str, name: str) -> Raw:
    """The share of paired resamples in which ``system`` beats the reference system on
    ``name``; ``tie`` when both score the same on the test set (two systems both at 0
    are not "50%" apart, which counting ties half would say)."""
    reference = report.info.get("baseline")
    mine, theirs = report.estimates[system].get(name), report.estimates[reference].get(name)
    if mine is not None and mine == theirs:
        return Raw(TIE)
    return Raw(number(report.comparisons[pair_key(system, reference)].get(name)))


def comparison_tables(report, names: list) -> str:
    """The paired comparisons of the statistics ``names``: one row per statistic, one
    column per system other than the reference system (tables of ``SYSTEMS_PER_TABLE``)."""
    reference = report.info.get("baseline")
    first = first_results(report)
    others = [s for s in report.systems if pair_key(s, reference) in report.comparisons]
    return "".join(
        table(["statistic"] + systems,
              [[Raw(escape(statistic_label(name, first))
                    + ("" if report.higher_is_better[name] else " \u2193"))]
               + [comparison_cell(report, s, name) for s in systems] for name in names])
        for systems in _chunks(others))


def headline_statistics(report) -> list:
    """The statistics of the headline (entity scores and each family's headline
    statistics that were computed), in the report's order."""
    names = [*ENTITY_STATISTICS[:1], *entity_fbeta(report), *ENTITY_STATISTICS[1:]]
    names += [family.key(h.key) for family in ran(report) for h in family.headline
              if h.value is None]
    return [n for n in names if n in report.higher_is_better]


ENTITY_STATISTICS = ("entity_f1", "entity_precision", "entity_recall")


def entity_fbeta(report) -> list:
    """The entity F-beta statistic of ``report(beta=...)`` (``entity_f2``), if any."""
    beta = report.info.get("beta", 1)
    name = fbeta_key(beta, "entity_")
    return [name] if beta != 1 and name in report.higher_is_better else []


def fbeta_legend(report) -> str:
    """What the entity F-beta column is."""
    beta = report.info.get("beta", 1)
    return (f"entity F-beta with beta {beta:g}, recall weighted {beta:g} times as much as "
            "precision (seqeval's beta)")


PAIRED_NOTE = ("Paired bootstrap: both systems are scored on the same resampled "
               "sentences; a resample in which they tie counts half; tie: both score the "
               "same on the test set; better means lower for the statistics marked "
               "\u2193")


def comparisons(report) -> str:
    if not report.comparisons:
        return "<p class='note'>No paired comparison (one system, or no bootstrap).</p>"
    reference = report.info.get("baseline")
    return (f"<p>Each column: the percentage of paired resamples in which <b>that column's "
            f"system</b> is better than the reference system <b>{escape(reference)}</b> "
            "(option baseline).</p>"
            + comparison_tables(report, headline_statistics(report))
            + f"<p class='note'>{PAIRED_NOTE}; {UNDEFINED_NOTE}. The comparisons of every "
              "other statistic are in its family's section (collapsed).</p>")


def family_statistics(report, family) -> str:
    """Every statistic of ``family`` with its interval, and its paired comparisons,
    collapsed (a long list); statistics undefined for every system are left out and
    named."""
    first = first_results(report)
    names = [n for n in report.higher_is_better if n.startswith(family.name + ".")]
    defined = [n for n in names
               if any(number(report.estimates[s].get(n)) != "&ndash;" for s in report.systems)]
    if not defined:
        return ""
    tables = []
    for systems in _chunks(report.systems):
        # hover a name for its key in report.json
        rows = [[Raw(f"<span title='{escape(n)}'>{escape(statistic_label(n, first))}</span>"
                     + ("" if report.higher_is_better[n] else " \u2193"))]
                + [Raw(_with_interval(report, s, n)) for s in systems] for n in defined]
        tables.append(table(["statistic"] + systems, rows))
    left = [statistic_label(n, first) for n in names if n not in defined]
    parts = ["".join(tables)]
    if left:
        parts.append(f"<p class='note'>Left out, undefined for every system: "
                     f"{escape('; '.join(left))}.</p>")
    if report.comparisons:
        parts.append("<p>Paired comparisons: the percentage of paired resamples in which "
                     "each column's system is better than the reference system <b>"
                     f"{escape(report.info.get('baseline'))}</b>.</p>"
                     + comparison_tables(report, defined)
                     + f"<p class='note'>{PAIRED_NOTE}.</p>")
    return (f"<details class='statistics'><summary>Every statistic of this section with its "
            f"interval ({len(defined)}; hover a name for its key in report.json)"
            + (", and its paired comparisons" if report.comparisons else "")
            + "</summary>" + "".join(parts) + "</details>")


def repairs(repaired: dict, mode: str) -> str:
    rows = [[Raw(escape(owner)), Raw(escape(source)), Raw(escape(kind.replace("_", " "))),
             Raw(str(n))]
            for owner, by_source in repaired.items() for source, kinds in by_source.items()
            for kind, n in kinds.items()]
    if not rows:
        return f"<p>No tag needed a repair ({escape(mode)} decoding).</p>"
    note = repairs_note()
    if any(generated.SOURCE in by_source for by_source in repaired.values()):
        note += " " + generated.NOTE
    listing = table(["column", "where", "repair", "tags"], rows, text=True)
    if len(rows) > LONG:
        listing = (f"<details><summary>{counted(len(rows), 'repair count')} over "
                   f"{counted(len(repaired), 'column')}</summary>{listing}</details>")
    return (listing + f"<p class='note'>{escape(note)} report.json lists the "
            "first sentences concerned under each family's repairs.</p>")


# the report's options in the provenance table, by what they set (report.json keeps the
# keywords: ``report(min_share=...)``)
OPTION_NAMES = {"scheme": "tagging scheme", "mode": "decoding mode",
                "bootstrap": "bootstrap samples", "seed": "bootstrap seed",
                "confidence": "confidence of the intervals",
                "baseline": "reference system (option baseline)",
                "families": "families run",
                "min_share": "smallest share of the gold mentions a recall subset needs",
                "beta": "F-beta's beta (weight of recall against precision)"}


def _option_value(key: str, value) -> str:
    """An option's value as the page shows it: the families by their sections' names."""
    if key == "families":
        titles = {f.name: f.title.partition(":")[0] for f in every_family()}
        return ", ".join(titles.get(name, name) for name in value)
    return ", ".join(map(str, value)) if isinstance(value, list) else value


def provenance(report) -> str:
    record = report.info.get("provenance", {})
    inputs = record.get("inputs", {})
    rows = [["gold", inputs.get("gold")], ["training data", inputs.get("train")]]
    rows += [[OPTION_NAMES.get(key, key), _option_value(key, value)]
             for key, value in record.get("options", {}).items()]
    rows += [["nerlens version", record.get("nerlens_version")],
             ["date (UTC)", record.get("date")]]
    systems = [[f"system {name}", source] for name, source in inputs.get("systems", {}).items()]

    def listed(pairs):
        return table(["", "value"], [[Raw(escape(k)), Raw("&ndash;" if v is None else escape(v))]
                                     for k, v in pairs], text=True)

    if len(systems) > LONG:   # the systems' files apart, on demand
        return listed(rows) + (f"<details><summary>The files of the "
                               f"{counted(len(systems), 'system')}</summary>"
                               f"{listed(systems)}</details>")
    return listed(rows[:2] + systems + rows[2:])


# -- error examples ----------------------------------------------------------------------
# the filter: hides the examples of other kinds; without script every example shows
FILTER_SCRIPT = """
(function(){var f=document.getElementById('example-filter');f.hidden=false;
f.querySelector('select').addEventListener('change',function(e){var k=e.target.value;
document.querySelectorAll('li.example').forEach(function(li){
li.hidden=!!k&&li.dataset.kind!==k;});});})();
"""


def examples(report) -> str:
    names, subsets = kinds(ran(report)), subset_names(ran(report))
    if not report.examples:
        listing = [f.name for f in every_family() if f.examples is not None]
        return (f"<p class='note'>No examples: {escape(', '.join(listing) or 'no family')} "
                "did not run.</p>")
    options = "".join(f"<option value='{kind}'>{escape(name)}</option>"
                      for kind, name in names.items())
    parts = ["<p>Sentences each system gets wrong, a few of each kind spread over the test "
             "set: <span class='gold'>gold mention</span> and <span class='pred'>system "
             "mention</span>. report.json lists every example (under examples).</p>",
             "<form id='example-filter' hidden><label>Show only: <select><option value=''>"
             f"every kind</option>{options}</select></label></form>"]
    for n, (system, by_kind) in enumerate(report.examples.items()):
        # "kind: count": a kind's name is a phrase in the singular ("wrong label (LE)")
        counts = ", ".join(f"{names.get(kind, kind)}: {len(rows)}"
                           for kind, rows in by_kind.items())
        items = "".join(_example(report, kind, row, names, subsets)
                        for kind, rows in by_kind.items() for row in shown_examples(rows))
        parts.append(f"<details{' open' if n == 0 else ''}><summary><b>{escape(system)}</b> "
                     f"({escape(counts)})</summary><ul class='examples'>{items}</ul></details>")
    parts.append(f"<script>{FILTER_SCRIPT}</script>")
    return "".join(parts)


def _example(report, kind: str, row: dict, names: dict, subsets: dict) -> str:
    tokens = report.example_sentences.get(str(row["sentence"]), [])
    if "generated" in row:               # generated output that became no span: its text
        return _generated_example(kind, row, tokens, names)
    if "token_index" in row:             # a token row: both tags on that token
        at = row["token_index"]
        row = {**row, "gold": None if row["gold_tag"] == "O" else [row["gold_tag"], at, at + 1],
               "predicted": (None if row["predicted_tag"] == "O"
                             else [row["predicted_tag"], at, at + 1])}
    gold, predicted = row.get("gold"), row.get("predicted")
    low, high = window(len(tokens), (gold, predicted))
    words = []
    for i in range(low, high):
        classes = [name for name, span in (("gold", gold), ("pred", predicted))
                   if span and span[1] <= i < span[2]]
        word = escape(tokens[i])
        words.append(f"<span class='{' '.join(classes)}'>{word}</span>" if classes else word)
    text = ellipsis(low) + " ".join(words) + ellipsis(len(tokens) - high, before=False)
    detail = f"gold {escape(gold[0])}" if gold else "no gold mention"
    if "subset" in row:
        detail = (f"{escape(subsets.get(row['subset'], row['subset']))}; gold tag {escape(row['gold_tag'])}, system tag "
                  f"{escape(row['predicted_tag'])}")
    elif "predicted_tags" in row:
        detail += f"; system tags {escape(' '.join(row['predicted_tags']))}"
    elif "predicted_mentions" in row:
        found = ", ".join(f"{label} {a}-{b}" for label, a, b in row["predicted_mentions"])
        detail += f"; system mentions {escape(found)}" if found else "; no system mention"
    else:
        detail += f"; system {escape(predicted[0])}" if predicted else "; no system mention"
    return (f"<li class='example' data-kind='{kind}'><span class='kind'>{escape(names.get(kind, kind))}"
            f"</span> sentence {row['sentence']}: {text} <span class='note'>({detail})"
            "</span></li>")


def ellipsis(cut: int, before: bool = True) -> str:
    """Where an example leaves ``cut`` tokens of its sentence out: an ellipsis that says
    so on hover ('' when nothing is cut)."""
    if cut <= 0:
        return ""
    mark = f"<span class='cut' title='{cut_note(cut)}'>&hellip;</span>"
    return mark + " " if before else " " + mark


def _generated_example(kind: str, row: dict, tokens: list, names: dict) -> str:
    """The model's text (and type) beside its sentence, cut to ``2 * CONTEXT`` words."""
    sentence = (escape(" ".join(tokens[:2 * CONTEXT]))
                + ellipsis(len(tokens) - 2 * CONTEXT, before=False))
    typed = f" ({escape(row['type'])})" if row.get("type") else ""
    reason = f"; {escape(row['reason'])}" if row.get("reason") else ""
    said = (f"the model's <span class='pred'>{escape(row['generated'])}</span>"
            if row["generated"].strip() else "the model said nothing")
    return (f"<li class='example' data-kind='{kind}'><span class='kind'>"
            f"{escape(names.get(kind, kind))}</span> sentence {row['sentence']}: {sentence} "
            f"<span class='note'>({said}{typed}{reason})</span></li>")
