"""The parts of the HTML report around the family sections: the notes, the findings,
the headline statistics with readable names, the paired comparisons, the error examples,
the repairs made while decoding and the provenance."""
from __future__ import annotations

from nerspan.errors import counted

from .examples import kinds, shown_examples
from .findings import rule_texts, shown
from .names import first_results, pair_key, statistic_label
from .page_kit import Raw, escape, number, table
from . import generated
from .repairs import repairs_note
from .views import every_family, ran

# Tables with one column per system are cut into tables of at most this many systems:
# wider ones would not fit a 1280 px page
SYSTEMS_PER_TABLE = 6
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
    rules = "".join(f"<li><b>{escape(rule)}</b>: {escape(text)}</li>"
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


def headline(report) -> str:
    first = first_results(report)
    tables = []
    for systems in _chunks(report.systems):
        rows = []
        for name, higher in report.higher_is_better.items():
            label = statistic_label(name, first) + ("" if higher else " ↓")
            row = [Raw(f"<span title='{escape(name)}'>{escape(label)}</span>")]
            row += [Raw(_with_interval(report, system, name)) for system in systems]
            rows.append(row)
        tables.append(table(["statistic"] + systems, rows))
    info = report.info
    note = (f"<p class='note'>{counted(info['sentences'], 'sentence')}, "
            f"{counted(info['tokens'], 'token')}; scheme "
            f"{escape(info['scheme'])}, {escape(info['mode'])} decoding. Numbers in percent; ↓ = "
            f"lower is better; {UNDEFINED_NOTE}. Hover a statistic for its key in "
            "report.json.")
    if info.get("bootstrap"):
        note += (f" Brackets: {info['confidence']:.0%} percentile bootstrap interval over "
                 f"sentences ({counted(info['bootstrap'], 'sample')}, seed {info['seed']}); "
                 "* marks numbers computed on fewer than "
                 f"{counted(info['min_support'], 'item')}.")
    return "".join(tables) + note + "</p>"


def _with_interval(report, system: str, name: str) -> str:
    text = number(report.estimates[system].get(name))
    interval = report.intervals.get(system, {}).get(name)
    if interval and interval["low"] is not None and interval["low"] == interval["low"]:
        text += (f" <span class='note ci'>[{100 * interval['low']:.2f}, "
                 f"{100 * interval['high']:.2f}]</span>")
    if interval and interval.get("too_small") and text != "&ndash;":
        text += " <span class='small' title='fewer than min_support items'>*</span>"
    return text


def comparisons(report) -> str:
    if not report.comparisons:
        return "<p class='note'>No paired comparison (one system, or no bootstrap).</p>"
    baseline = report.info.get("baseline")
    first = first_results(report)
    others = [s for s in report.systems if pair_key(s, baseline) in report.comparisons]
    tables = []
    for systems in _chunks(others):
        rows = [[Raw(escape(statistic_label(name, first)))]
                + [report.comparisons[pair_key(s, baseline)].get(name) for s in systems]
                for name in report.higher_is_better]
        tables.append(table(["statistic"] + systems, rows))
    return (f"<p>Each column: the percentage of paired resamples in which <b>that column's "
            f"system</b> is better than the baseline <b>{escape(baseline)}</b>.</p>"
            + "".join(tables)
            + "<p class='note'>Paired bootstrap: both systems are scored on the same resampled "
              "sentences; ties count half; better means lower for the statistics marked ↓ "
              f"in the headline table; {UNDEFINED_NOTE}.</p>")


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
    return (table(["column", "where", "repair", "tags"], rows, text=True)
            + f"<p class='note'>{escape(note)} report.json lists the first "
              "sentences concerned under each family's repairs.</p>")


def provenance(report) -> str:
    record = report.info.get("provenance", {})
    inputs = record.get("inputs", {})
    rows = [["gold", inputs.get("gold")], ["training data", inputs.get("train")]]
    rows += [[f"system {name}", source] for name, source in inputs.get("systems", {}).items()]
    rows += [[f"option {key}", ", ".join(map(str, value)) if isinstance(value, list) else value]
             for key, value in record.get("options", {}).items()]
    rows += [["nerlens version", record.get("nerlens_version")],
             ["date (UTC)", record.get("date")]]
    return table(["", "value"], [[Raw(escape(k)), Raw("&ndash;" if v is None else escape(v))]
                                 for k, v in rows], text=True)


# -- error examples ----------------------------------------------------------------------
CONTEXT = 8   # tokens shown on each side of an example's spans in a long sentence

# the filter: hides the examples of other kinds; without script every example shows
FILTER_SCRIPT = """
(function(){var f=document.getElementById('example-filter');f.hidden=false;
f.querySelector('select').addEventListener('change',function(e){var k=e.target.value;
document.querySelectorAll('li.example').forEach(function(li){
li.hidden=!!k&&li.dataset.kind!==k;});});})();
"""


def examples(report) -> str:
    names = kinds(ran(report))
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
        counts = ", ".join(f"{len(rows)} {kind}" for kind, rows in by_kind.items())
        items = "".join(_example(report, kind, row, names) for kind, rows in by_kind.items()
                        for row in shown_examples(rows))
        parts.append(f"<details{' open' if n == 0 else ''}><summary><b>{escape(system)}</b> "
                     f"({escape(counts)})</summary><ul class='examples'>{items}</ul></details>")
    parts.append(f"<script>{FILTER_SCRIPT}</script>")
    return "".join(parts)


def _example(report, kind: str, row: dict, names: dict) -> str:
    tokens = report.example_sentences.get(str(row["sentence"]), [])
    if "generated" in row:               # generated output that became no span: its text
        return _generated_example(kind, row, tokens, names)
    if "token_index" in row:             # a token row: both tags on that token
        at = row["token_index"]
        row = {**row, "gold": None if row["gold_tag"] == "O" else [row["gold_tag"], at, at + 1],
               "predicted": (None if row["predicted_tag"] == "O"
                             else [row["predicted_tag"], at, at + 1])}
    gold, predicted = row.get("gold"), row.get("predicted")
    spans = [s for s in (gold, predicted) if s]
    low = max(0, min(s[1] for s in spans) - CONTEXT)
    high = min(len(tokens), max(s[2] for s in spans) + CONTEXT)
    words = []
    for i in range(low, high):
        classes = [name for name, span in (("gold", gold), ("pred", predicted))
                   if span and span[1] <= i < span[2]]
        word = escape(tokens[i])
        words.append(f"<span class='{' '.join(classes)}'>{word}</span>" if classes else word)
    text = ("&hellip; " if low else "") + " ".join(words) + (" &hellip;" if high < len(tokens)
                                                              else "")
    detail = f"gold {escape(gold[0])}" if gold else "no gold mention"
    if "subset" in row:
        detail = (f"{escape(row['subset'])} token; gold tag {escape(row['gold_tag'])}, system tag "
                  f"{escape(row['predicted_tag'])}")
    elif "predicted_tags" in row:
        detail += f"; system tags {escape(' '.join(row['predicted_tags']))}"
    else:
        detail += f"; system {escape(predicted[0])}" if predicted else "; no system mention"
    return (f"<li class='example' data-kind='{kind}'><span class='kind'>{escape(names.get(kind, kind))}"
            f"</span> sentence {row['sentence']}: {text} <span class='note'>({detail})"
            "</span></li>")


def _generated_example(kind: str, row: dict, tokens: list, names: dict) -> str:
    """The model's text (and type) beside its sentence, cut to ``2 * CONTEXT`` words."""
    cut = len(tokens) > 2 * CONTEXT
    sentence = escape(" ".join(tokens[:2 * CONTEXT])) + (" &hellip;" if cut else "")
    typed = f" ({escape(row['type'])})" if row.get("type") else ""
    reason = f"; {escape(row['reason'])}" if row.get("reason") else ""
    said = (f"the model's <span class='pred'>{escape(row['generated'])}</span>"
            if row["generated"].strip() else "the model said nothing")
    return (f"<li class='example' data-kind='{kind}'><span class='kind'>"
            f"{escape(names.get(kind, kind))}</span> sentence {row['sentence']}: {sentence} "
            f"<span class='note'>({said}{typed}{reason})</span></li>")
