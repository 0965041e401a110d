"""Gold you can audit, in the report (option ``gold_alt``): every system under every gold
version, and the gold mentions that look wrong.

With other versions of the gold (a re-annotation, a corrected release such as CoNLL++),
the report scores every system against each (``nerspan.audit.score_golds``: the
differences with paired bootstrap intervals, the rankings, Kendall's tau-a, the flipped
pairs and whether each is outside sampling noise, the errors that were gold's), diffs
each version against the gold (``nerspan.audit.diff``), ranks the suspect gold mentions
(``nerspan.audit.suspects``, the systems and the training data as evidence) and counts
how many of each version's changes the first suspects hold. ``collect`` computes it
(``Report.audit``), ``findings`` states it in sentences, ``sections`` draws it.
"""
from __future__ import annotations

from nerspan import GOLD, Evaluation
from nerspan.spans import column_spans
from nerspan.audit import (corrections_found, diff_spans, evidence_text, in_sentence,
                           score_golds, suspects)
from nerspan.family import Rule, finding

from nerspan.reading.systems import PathLike, add_systems

from .page_kit import Raw, escape, table

SUSPECTS_SHOWN = 25   # suspects the page lists in their sentences (report.json: LISTED)
LISTED = 100
TOPS = (100, 500, 1000)
CONTEXT = 8           # words shown on each side of a suspect
# Why a report ranks its suspects without the type consistency within a document
NO_DOCUMENTS = ("the input has no document boundaries (-DOCSTART- rows, or documents=...): "
                "type inconsistency within a document was not used; the suspects are ranked "
                "on the other evidence")

RULE = ("With other gold versions (gold_alt): each version's effect on every system's "
        "entity F1 (the paired bootstrap interval of the difference), on the ranking "
        "(Kendall's tau-a, the pairs whose order flips, outside sampling noise when the "
        "interval under the other version excludes 0) and the share of each system's "
        "errors that were gold's.")


def alternative_spans(context: Evaluation, names) -> dict:
    """name -> the mentions of each other gold version (a column of the context's
    corpus), read as gold is (``column_spans``: a span list's table, else its tags
    decoded); a bad tag is named as that gold's."""
    return {name: column_spans(context.corpus, name, context.scheme, context.mode,
                               context.table, f"gold version {name!r}", flat=True)
            for name in names}


def collect(context: Evaluation, system_names: list, alternatives: list, bootstrap: int,
            seed: int, confidence: float, documents=None) -> dict:
    """The audit of ``Report.audit``: ``golds`` (``GoldComparison.to_dict``), ``diffs``
    (name -> the diff's counts, without the listing), ``suspects`` (``Suspects.to_dict``,
    the first ``LISTED``), ``found`` (name -> ``corrections_found``) and ``unavailable``
    (evidence part -> why the suspects are ranked without it: the document's, when
    ``documents``, the document of every sentence, are not known); ``{}`` without
    ``alternatives``."""
    if not alternatives:
        return {}
    versions = alternative_spans(context, alternatives)
    systems = {name: context.spans(name) for name in system_names}
    golds = score_golds({GOLD: context.gold, **versions}, systems, bootstrap=bootstrap,
                        seed=seed, confidence=confidence).to_dict()
    corpus = context.corpus
    diffs = {name: diff_spans(context.gold, spans, corpus,
                              (corpus.column(GOLD) != corpus.column(name)).nonzero()[0],
                              (GOLD, name)) for name, spans in versions.items()}
    found = suspects(context.gold, systems, corpus=corpus, train=context.train,
                     documents=documents, listed=LISTED)
    ranked = found.to_dict()
    shown = {row["sentence"] for row in ranked["suspects"]}
    return {"golds": golds,
            "diffs": {name: {key: value for key, value in d.to_dict().items()
                             if key != "changes"} for name, d in diffs.items()},
            "suspects": ranked, "sentences": {str(s): corpus.sentence_tokens(s)
                                              for s in sorted(shown)},
            "found": {name: corrections_found(found, d, TOPS) for name, d in diffs.items()},
            "unavailable": {} if documents is not None else {"document": NO_DOCUMENTS}}


def findings(report) -> list[dict]:
    """One finding per other gold version: how every system's F1 moves, how far the
    ranking holds, and what the first suspects find of its changes."""
    audit, out = report.audit, []
    for name, against in (audit["golds"]["against"] if audit else {}).items():
        moves = [d["estimate"] for d in against["f1_difference"].values()]
        noisy = sum(d["outside_noise"] is True for d in against["f1_difference"].values())
        flips = against["flips"]
        text = (f"Under gold version {name}, entity F1 moves by {_points(min(moves))} to "
                f"{_points(max(moves))} points ({noisy} of {len(moves)} outside sampling "
                f"noise); Kendall's tau-a of the rankings {_tau(against, 2)}, "
                f"{len(flips)} pair{'s' if len(flips) != 1 else ''} flip"
                f"{'s' if len(flips) == 1 else ''} "
                f"({sum(f['outside_noise'] is True for f in flips)} outside noise).")
        found = audit["found"][name]["top"].get(TOPS[0])
        if found and audit["found"][name]["changes"]:
            text += (f" The first {TOPS[0]} suspects hold {found['found']} of its "
                     f"{audit['found'][name]['changes']} changes (a random ranking: "
                     f"{found['expected_at_random']:.1f}).")
        out.append(finding("gold_versions", None, text, size=max(map(abs, moves)),
                           gold=name, tau=against["tau"], flips=len(flips),
                           outside_noise=noisy))
    return out


FINDINGS = Rule("gold_versions", RULE, findings)


def _points(value: float) -> str:
    return f"{100 * value:+.2f}"


def _tau(against: dict, digits: int) -> str:
    """Kendall's tau-a of a version's rankings; undefined (None) for one system."""
    tau = against["tau"]
    return "undefined (one system: no pair to rank)" if tau is None else f"{tau:.{digits}f}"


def sections(report) -> list[tuple[str, str, str]]:
    """``(anchor, title, body)`` of the page's audit sections; none without ``gold_alt``."""
    audit = report.audit
    if not audit:
        return []
    return [("gold-versions", "Gold versions: every system under each", versions_html(audit)),
            ("suspects", "Suspect gold: the mentions that look wrong", suspects_html(audit))]


def _interval(cell: dict) -> Raw:
    """A difference in points with its interval."""
    text = _points(cell["estimate"])
    if cell.get("low") is not None:
        text += f" <span class='ci'>[{_points(cell['low'])}, {_points(cell['high'])}]</span>"
    return Raw(text)


def _noise(value) -> str:
    return "-" if value is None else "yes" if value else "no"


def versions_html(audit: dict) -> str:
    """Per other gold version: its diff, every system under both golds, the ranking's
    agreement and the flipped pairs."""
    golds = audit["golds"]
    parts = []
    for name, against in golds["against"].items():
        changed = audit["diffs"][name]
        kinds = ", ".join(f"{kind} {n['a']}/{n['b']}" for kind, n in changed["kinds"].items()
                          if kind != "identical" and (n["a"] or n["b"]))
        parts.append(f"<h3>{escape(GOLD)} &rarr; {escape(name)}</h3><p>{escape(name)} changes "
                     f"{changed['changed_tags']} tags in {len(changed['changed_tag_sentences'])}"
                     f" sentences; mentions {changed['mentions']['a']} &rarr; "
                     f"{changed['mentions']['b']} (changed, {escape(GOLD)}/{escape(name)}: "
                     f"{escape(kinds or 'none')}).</p>")
        rows = []
        for system in golds["rankings"][GOLD]:
            errors = against["errors"][system]
            rows.append([system, golds["scores"][system][GOLD]["f1"],
                         golds["scores"][system][name]["f1"],
                         _interval(against["f1_difference"][system]),
                         _noise(against["f1_difference"][system]["outside_noise"]),
                         Raw(f"<span class='w'>{golds['ranks'][GOLD][system]} &rarr; "
                             f"{golds['ranks'][name][system]}</span>"),
                         Raw(f"{errors['removed']} of {errors['errors']}"),
                         errors["share_removed"]])
        parts.append(table(["system", f"F1 {GOLD}", f"F1 {name}", "difference [interval]",
                            "outside noise", "rank", "errors removed", "share removed"], rows))
        flips = against["flips"]
        parts.append(f"<p>Kendall's tau-a of the two rankings: {_tau(against, 3)} "
                     f"({against['concordant']} concordant, {against['discordant']} "
                     f"discordant of {against['pairs']} pairs); {len(flips)} flipped "
                     f"pair{'s' if len(flips) != 1 else ''}.</p>")
        if flips:
            parts.append(table(["ahead now", "behind now", f"difference under {GOLD}",
                                f"under {name} [interval]", "outside noise"],
                               [[f["systems"][0], f["systems"][1],
                                 _interval(f["reference"]), _interval(f["alternative"]),
                                 _noise(f["outside_noise"])] for f in flips]))
    parts.append(f"<p class='note'>Points of entity F1; intervals: paired percentile "
                 f"bootstrap over sentences ({golds['options']['bootstrap']} resamples, "
                 f"{golds['options']['confidence']:.0%}). Errors removed: the system's false "
                 "positives and negatives under the gold that the other version does not "
                 "count as errors (the errors that were gold's).</p>")
    return "".join(parts)


def _in_sentence(words: list, row: dict) -> str:
    """The suspect highlighted in its sentence, ``CONTEXT`` words on each side."""
    mark = "gold" if row["kind"] == "gold" else "pred"
    return in_sentence(words, row["start"], row["end"], CONTEXT,
                       (f"<span class='{mark}'>", "</span>"), "&hellip;", escape)


def suspects_html(audit: dict) -> str:
    """The suspects' count, what the first ones find of each version's changes, and the
    first ``SUSPECTS_SHOWN`` in their sentences with their evidence."""
    found, sentences = audit["suspects"], audit["sentences"]
    parts = [f"<p>{found['candidates']} candidates: every gold mention and "
             f"{found['missing_mentions']} mentions gold lacks that systems predict; "
             f"{found['scored']} with evidence against gold (systems that agree with each "
             "other against it, the same words labelled otherwise in gold and training "
             "data). <span class='gold'>gold mention</span>, <span class='pred'>mention gold "
             "lacks</span>.</p>"]
    rows = [[f"{name}: first {top}", Raw(f"{cell['found']} of {changes['changes']}"),
             cell["share"], Raw(f"{cell['expected_at_random']:.1f}")]
            for name, changes in audit["found"].items()
            for top, cell in changes["top"].items()]
    parts += [f"<p class='note'>Not available: {escape(part)} evidence, {escape(why)}.</p>"
              for part, why in audit.get("unavailable", {}).items()]
    parts.append(table(["suspects", "changes found", "share", "random ranking"], rows))
    items = "".join(
        f"<li><b>{escape(row['type'])}</b> ({row['kind']}, score "
        f"{row['score']:.2f}) sentence {row['sentence']}: "
        f"{_in_sentence(sentences[str(row['sentence'])], row)} <span class='note'>"
        f"({escape(evidence_text(row))})</span></li>"
        for row in found["suspects"][:SUSPECTS_SHOWN])
    parts.append(f"<ol class='examples'>{items}</ol><p class='note'>The JSON lists the "
                 f"first {len(found['suspects'])} (audit, suspects).</p>")
    return "".join(parts)


def with_versions(corpus, gold_alt, gold_alt_names, **reading) -> tuple:
    """``(corpus, names)``: ``corpus`` with the other gold versions ``gold_alt`` (name ->
    a column file or tag lists, read as a system is: ``nerspan.reading.systems.add_systems``
    with the options ``reading``, a file's tags checked as the manifest checks them, a tag
    outside the scheme refused) as columns, and the names of every version
    (``gold_alt_names``, columns it holds, first)."""
    names = list(gold_alt_names)
    missing = [name for name in names if name not in corpus.columns]
    if missing:
        raise ValueError(f"gold_alt_names: {missing} name no column of the corpus "
                         f"({list(corpus.columns)})")
    for name, version in (gold_alt or {}).items():
        corpus, added = add_systems(corpus, {name: version}, what="gold version",
                                    check=isinstance(version, PathLike),
                                    outside_scheme_is_error=True, **reading)
        names += added
    return corpus, names
