"""The nerlens report: every method in one pass, with uncertainty, pictures and HTML.

    import nerlens
    report = nerlens.build_report(gold="test.conll", systems={"spacy": "spacy.txt"},
                                  train="train.conll")
    print(report.summary())
    report.to_html("report.html"); open("report.json", "w").write(report.to_json())

One ``nerspan.Evaluation`` holds the gold column and one column per system, and the
training index, built once; each family scores each system against it, and the entity
scores and the confusion matrix of each system are the evaluation's. Every headline number is a
function of per-sentence counts (``statistics``), so one matrix of bootstrap
sentence weights, shared by all systems, gives every interval and every paired
comparison at the cost of one matrix product per system.

Gold whose mentions nest (tag columns read as layers, ``inputs={"layers": (2, 3)}``;
span lists that nest) is scored over every mention, and shown per layer and shape in the
nested view (``nesting``, ``Report.nesting``); a family that reads one gold tag per
token refuses it and is left out, the page saying why.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping, Sequence

from nerspan import (Corpus, Evaluation, InputOptions, LabelTable, __version__,
                     as_train_index, get_scheme)
from nerspan.options import check_int
from nerspan.bootstrap import MIN_SUPPORT, percentile_interval, probability_better, resample
from nerspan.corpus import side_name
from nerspan.errors import InputTypeError
from nerspan.layers import layer_columns
from nerspan.migration import migrated
from nerspan.partials import sentence_weights
from nerspan.reading.training import read_training_index
from nerspan.span_table import SpanShapeError
from nerspan.spans import check_tags

from nerlens.demo import demo_inputs
from nerlens.families import get_family, in_report_order
from nerlens.jsonable import json_text
from nerspan.reading.answers import read_scored_systems, scored_mentions
from nerspan.reading.systems import (PathLike, add_gold_versions, check_system_names,
                                     named_files, sentence_documents)

from . import analyses, blocks, confusion, examples, findings, gold_audit, html, nesting, text
from . import confidence as confidence_section   # report() has a confidence= option
from .names import pair_key
from .options import ReportOptions
from .repairs import decoding_repairs
from .statistics import entity_statistics, family_statistics, merged_results, score_family


@dataclass
class Report:
    """What ``build_report()`` computed; ``to_dict()``/``to_json()``/``to_html()``/
    ``summary()``."""

    systems: list[str]
    results: dict            # system -> family -> the family's ``to_dict()``
    estimates: dict          # system -> statistic -> value
    intervals: dict          # system -> statistic -> {low, high, support, too_small}
    comparisons: dict        # "B vs A" -> statistic -> P(B better than A)
    higher_is_better: dict   # statistic -> bool
    info: dict               # corpus sizes, options
    figures: dict = field(default_factory=dict)  # title -> PNG bytes
    analyses: dict = field(default_factory=dict)  # family -> the papers' other analyses
    findings: list = field(default_factory=list)  # findings.findings(self)
    examples: dict = field(default_factory=dict)  # system -> error kind -> examples
    example_sentences: dict = field(default_factory=dict)  # "index" -> tokens (shown ones)
    confusion: dict = field(default_factory=dict)  # system -> entity confusion matrix
    confidence: dict = field(default_factory=dict)  # scored system -> its dial (METHODS §8)
    audit: dict = field(default_factory=dict)  # other gold versions (gold_audit.collect)
    nesting: dict = field(default_factory=dict)  # system -> scores on nested gold (nesting)

    def to_dict(self) -> dict:
        return {"systems": self.systems, "info": self.info, "findings": self.findings,
                "repairs": decoding_repairs(self.results), "estimates": self.estimates,
                "intervals": self.intervals, "comparisons": self.comparisons,
                "higher_is_better": self.higher_is_better, "results": self.results,
                "analyses": self.analyses,
                "examples": {"systems": self.examples, "sentences": self.example_sentences},
                "confusion": self.confusion,
                **({"confidence": self.confidence} if self.confidence else {}),
                **({"audit": self.audit} if self.audit else {}),
                **({"nesting": self.nesting} if self.nesting else {})}

    def to_json(self, path: str | Path | None = None) -> str:
        text = json_text(self.to_dict())
        if path is not None:
            Path(path).write_text(text + "\n", encoding="utf-8")
        return text

    def summary(self) -> str:
        """The terminal view: findings, then one row of headline numbers per system
        (fits 100 columns; every statistic is in the HTML and the JSON)."""
        shown = nesting.blocks(self)   # gold that nests: every mention, per layer
        return text.summary(self, f"{nesting.TITLE}\n{blocks.text(shown)}" if shown else "")

    def to_html(self, path: str | Path | None = None) -> str:
        page = html.render(self)
        if path is not None:
            Path(path).write_text(page, encoding="utf-8")
        return page


def provenance(sources: Mapping | None, options: dict) -> dict:
    """Where the report's numbers come from: its input files (JSON key ``inputs``),
    options, nerlens version, date."""
    return {"inputs": dict(sources or {}), "options": options, "nerlens_version": __version__,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def input_names(gold, systems: Mapping | None, train, gold_alt: Mapping | None = None,
                split: str | None = None) -> dict:
    """File paths as given (a saved datasets folder with its ``split``); anything else by
    its kind; ``gold_alt``: the other gold versions, when there are any."""
    def name(value):
        if value is None:
            return None
        return str(value) if isinstance(value, (str, Path)) else type(value).__name__

    folder = isinstance(gold, PathLike) and Path(gold).is_dir()
    return {"gold": f"{gold} (split {split or 'test'})" if folder else name(gold),
            "train": name(train), "systems": {s: name(v) for s, v in (systems or {}).items()},
            **({"gold_alt": {v: name(f) for v, f in gold_alt.items()}} if gold_alt else {})}


def _progress(total: int, enabled: bool | None, description: str):
    """A bar on stderr (``enabled`` None: when stderr is a terminal, as tqdm decides)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm comes with datasets; without it, no bar
        return None

    class Bar(tqdm):
        # no monitor thread: the figures are drawn in forked processes, which is safe
        # only in a process of one thread (analyses.figure_pngs)
        monitor_interval = 0

    return Bar(total=total, desc=description, file=sys.stderr,
               disable=None if enabled is None else not enabled,
               leave=False)


def _check_system_tags(corpus: Corpus, system_names: list, scheme: str, mode: str) -> None:
    """Every tag column valid for ``scheme`` and ``mode``, checked up front so that an
    error names the system (the families see each system as ``predictions``)."""
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    for column in layer_columns(corpus) + system_names:
        if corpus.mentions(column) is None:   # span lists (they may nest) hold no tags
            check_tags(corpus, corpus.column(column), table, get_scheme(scheme), mode,
                       f"system {column!r}" if column in system_names else side_name(column))


@migrated(datasets="nerlens.run_experiment(datasets, ...) (a whole experiment's report)")
def build_report(gold=None, systems: Mapping | None = None, train=None, *,
                 corpus: Corpus | None = None, system_names: Sequence[str] | None = None,
                 tokens=None, generated=None, scheme: str = "IOB2", mode: str = "lenient",
                 inputs=None, bootstrap: int = 1000, seed: int = 0,
                 confidence: float = 0.95, baseline: str | None = None,
                 families: Sequence[str] | None = None, options: Mapping | None = None,
                 beta: float = 1.0, figures: bool = True, min_share: float = 0.0,
                 progress: bool = False, sources: Mapping | None = None,
                 notes: Sequence[str] = (), scored: Mapping | None = None,
                 gold_alt: Mapping | None = None, gold_alt_names: Sequence[str] = (),
                 documents=None, workers: int = 1, demo: str | None = None) -> Report:
    """Run every family on every system; bootstrap intervals and paired comparisons.

    Give ``gold`` (a column file or tag lists, with ``tokens``) and ``systems`` (name ->
    column file or tag lists), or a prebuilt ``corpus`` with a ``gold`` column and the
    columns ``system_names`` (read already: ``inputs`` are not applied to it).
    ``train`` is anything ``nerspan.as_train_index`` takes. ``inputs``: how the
    input is read (``nerspan.InputOptions`` or a dict: ``suffix``, the type options,
    ``gold_tag_column``, ...), on gold, systems and training data alike. ``families``
    names the registered families to run (default: every one,
    ``nerlens.families.family_names()``). Each system is compared with ``baseline``
    (default: the first system). ``options``: family -> its options
    (``{"faireval": {"weights": "weighted"}}``, the family's record). ``beta``: also
    F-beta beside every F1 (``result.to_dict(beta=...)``): the entity scores' ``f2``, the
    statistic ``entity_f2`` with its interval, and in each family that reports F1; 1
    (default) adds nothing. ``min_share`` leaves the tough-mention subsets holding less
    than that share of the gold mentions out of the recall table (a family reads such
    report options through its ``settings``). ``sources`` names the input files for the
    provenance (default: the paths given as ``gold``, ``systems``, ``generated``,
    ``scored``, ``gold_alt`` and ``train``); ``generated``: name -> a JSON Lines file of
    generated output (or a list of files, named after them), grounded in gold's sentences
    as one more system each (``read_systems``);
    ``notes`` are sentences the page and the terminal show first.
    ``scored``: name -> a system's mentions with a confidence each
    (``nerspan.scored.ScoredMentions``, scored span lists over gold's sentences, or a
    scored JSON Lines file, ``scored_mentions``; a list of files: named after them), each
    added as a system (its every mention) and turned on the dial in the confidence
    section (``nerlens.report.confidence``). ``gold_alt``: name -> another version of the
    gold (a column file or tag lists, read as a system is), or ``gold_alt_names``: columns
    of ``corpus`` holding them: every system is scored under each too, with the suspect
    gold mentions (``gold_audit``; ``Report.audit``, two sections and a finding);
    ``documents``: the document of every gold sentence (integers), for the suspects' type
    consistency within a document (None: those of a GOLD column file's -DOCSTART- rows,
    else not known, which the suspects section says).
    ``workers``: score the families in that many local processes, from partials merged
    exactly (the same report; ``score_systems``). ``demo``: instead of the inputs, the
    embedded WNUT-17 demo report of that name (``nerlens.demo.demo_inputs``: "spacy",
    "generative", "confidence"; ``nerlens report --demo NAME``).

    Gold is decoded once, and classified once per family, in one ``nerspan.Evaluation``
    against which every system and family is scored; each system is decoded once there
    for every family, and the training data read once.

    The settings ``bootstrap``, ``seed``, ``confidence``, ``baseline``, ``families``,
    ``min_share``, ``beta``, ``figures`` and ``progress`` (a bar on stderr; None: when
    stderr is a terminal) are checked as ``nerlens.report.options.ReportOptions``, of
    which ``nerlens report`` makes its flags.

    One dataset; ``nerlens.run_experiment`` runs a whole experiment.
    """
    settings = ReportOptions(bootstrap=bootstrap, seed=seed, confidence=confidence,
                             baseline=baseline, families=families, min_share=min_share,
                             beta=beta, figures=figures, progress=progress)
    families, workers = settings.run_families(), check_int("workers", workers, minimum=1)
    inputs = _input_options(inputs, tokens)
    if demo is not None:   # its corpus, systems, training data, notes and sources
        corpus, system_names, train, notes, sources, scored = demo_inputs(
            demo, scheme, mode, gold=gold, systems=systems, train=train, corpus=corpus,
            generated=generated, scored=scored, gold_alt=gold_alt)
    if corpus is None:
        corpus, system_names, alternatives, scored, documents, sources = _read_corpus(
            gold, systems, generated, scored, gold_alt, train, documents, sources, inputs,
            scheme, mode)
    else:
        corpus, alternatives = gold_audit.with_versions(corpus, gold_alt, gold_alt_names,
                                                        scheme=scheme, mode=mode, inputs=inputs)
    corpus, system_names, scored = confidence_section.with_scored(
        corpus, list(system_names or ()), scored or {})
    evaluation = _evaluation(corpus, system_names, alternatives, train, scheme, mode,
                             families, inputs)
    system_names, families, options, left_out = _to_score(evaluation, alternatives, families,
                                                          options)
    audit = gold_audit.collect(evaluation, system_names, alternatives, settings.bootstrap,
                               settings.seed, settings.confidence, documents)
    bar = _progress(len(system_names) * len(families) + (1 if settings.bootstrap else 0),
                    settings.progress, "nerlens report")
    refused = None if left_out is None else left_out["skipped"]   # gold nests
    results, statistics = score_systems(evaluation, system_names, families, bar, options,
                                        settings.beta, workers, refused)
    families = [name for name in families if name not in (refused or {})]
    estimates = {system: {s.name: s.estimate() for s in statistics[system]}
                 for system in system_names}
    intervals, comparisons = _bootstrap(statistics, estimates, system_names, settings,
                                        corpus.n_sentences, bar)
    if bar is not None:
        bar.close()
    higher = {s.name: s.higher_is_better for s in statistics[system_names[0]]}
    info = _report_info(evaluation, settings, baseline or system_names[0], families, notes,
                        sources if sources is not None else input_names(None, None, train))
    result = Report(system_names, results, estimates, intervals, comparisons, higher, info,
                    audit=audit)
    result.confidence = confidence_section.collect(evaluation, scored, families, options)
    _add_analyses(result, evaluation, families, settings.figures, settings.to_dict(), left_out)
    return result


def _read_corpus(gold, systems, generated, scored, gold_alt, train, documents, sources,
                 inputs: InputOptions, scheme: str, mode: str) -> tuple:
    """``(corpus, system names, gold version names, scored, documents, sources)`` of
    ``build_report``'s files or tag lists, read by ``read_scored_systems`` as the command line
    reads them (a file's tags checked as it is read, so that an error names its file and
    line, a tag outside ``scheme`` refused; tag lists, and gold given so, checked by
    ``build_report``, which names the position); the other gold versions
    (``add_gold_versions``) and the scored files (``scored_mentions``) read against it.
    With scored systems alone, gold is read alone. ``documents`` None, with other gold
    versions: those of a GOLD column file's sentences (``sentence_documents``);
    ``sources`` None: the files read (``input_names``)."""
    reading = dict(scheme=scheme, mode=mode, inputs=inputs, outside_scheme_is_error=True)
    corpus, names = read_scored_systems(gold, systems, scored, generated=generated,
                                        check=isinstance(gold, PathLike), **reading)
    files = {**(named_files(systems) if systems else dict.fromkeys(names, gold)),
             **named_files(generated)}
    given = gold_alt.items() if isinstance(gold_alt, Mapping) else gold_alt or ()
    corpus, versions = add_gold_versions(corpus, gold, given, **reading)
    if scored is not None and not isinstance(scored, Mapping):   # files, named after them
        scored = named_files(scored, taken=names)
    paths = {name: path for name, path in (scored or {}).items() if isinstance(path, PathLike)}
    read = scored_mentions(corpus, paths, gold_name=gold, inputs=inputs)
    scored = {name: read.get(name, given) for name, given in (scored or {}).items()}
    if documents is None and versions and isinstance(gold, PathLike):
        documents = sentence_documents(gold, corpus, inputs)
    if sources is None:
        sources = input_names(gold, {**files, **paths}, train, versions, inputs.files.split)
    return corpus, names, list(versions), scored, documents, sources


def _input_options(inputs, tokens) -> InputOptions:
    """``build_report``'s input options (``inputs`` named the input files before 0.2)."""
    if isinstance(inputs, Mapping) and {"gold", "systems", "train"} & set(inputs):
        raise TypeError("build_report(inputs=...) takes the input options since nerlens "
                        "0.2: give the input files the provenance names as sources=...")
    return InputOptions.of(inputs, tokens=tokens)


def _evaluation(corpus: Corpus, system_names, alternatives, train, scheme: str, mode: str,
                families, inputs: InputOptions) -> Evaluation:
    """The report's evaluation: gold, the systems ``system_names`` (checked, their tags
    too), the other gold versions ``alternatives``, and the training index when a family
    needs it."""
    system_names = check_system_names(system_names, "system_names")
    if not system_names:
        raise ValueError("the report needs at least one system")
    if corpus.tokens is None:
        raise ValueError("the report needs the tokens of the evaluation sentences")
    _check_system_tags(corpus, system_names, scheme, mode)
    if isinstance(train, PathLike):   # read as an experiment's is: its errors name the line
        index = read_training_index(train, scheme=scheme, mode=mode, inputs=inputs,
                                    outside_scheme_is_error=True)
    else:
        index = as_train_index(train, scheme, mode, inputs=inputs) if train is not None else None
    needs = [name for name in families if get_family(name).needs_train]
    if index is None and needs:
        raise ValueError(f"{_listed(needs)} need{'s' if len(needs) == 1 else ''} train=... "
                         "(--train FILE: the training split indexes the unseen mentions)")
    return Evaluation(corpus.select([*layer_columns(corpus), *system_names, *alternatives]),
                      scheme, mode, index)


def _to_score(evaluation: Evaluation, alternatives, families, options
              ) -> tuple[list, list, Mapping | None, dict | None]:
    """The systems (not the other gold versions ``alternatives``) and families to score,
    their options, and when gold nests what the nested view says of them (None: gold does
    not nest): ``skipped``, family -> why it was left out (``nesting.declared``; a
    family that refuses a shape when scored is added there), and ``applied``, family ->
    the ``nested_options`` it was scored under."""
    system_names = [name for name in evaluation.systems if name not in alternatives]
    if not nesting.nests(evaluation):
        return system_names, families, options, None
    kept, skipped = nesting.declared(families)
    options, applied = nesting.with_nested_options(kept, options)
    return system_names, kept, options, {"skipped": skipped, "applied": applied}


def _listed(names: list) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def score_systems(evaluation: Evaluation, system_names, families, bar=None,
                  options: Mapping[str, Mapping] | None = None,
                  beta: float = 1.0, workers: int = 1,
                  refused: dict | None = None) -> tuple[dict, dict]:
    """``(results, statistics)``: system -> family -> result dict (``entity`` first), and
    system -> bootstrap statistics, each of ``system_names`` scored against ``evaluation``
    (``options``: family -> its options; ``beta``: F-beta beside every F1; ``workers``:
    the families' results from partials merged across that many local processes where
    they merge with their per-sentence counts, ``statistics.merged_results``; the entity
    scores, and every section read from the whole evaluation, computed here once).
    ``refused`` (gold that nests): a family whose ``score`` refuses a shape of it is left
    out of every system's results, its error put in ``refused`` under its name."""
    results, statistics = {}, {}
    merged = merged_results(evaluation, system_names, families, options, workers)
    for system in system_names:
        entity, statistics[system] = entity_statistics(evaluation, system, beta)
        results[system] = {"entity": entity}
    for name in families:
        try:
            scored = family_results(evaluation, system_names, get_family(name), merged,
                                    (options or {}).get(name))
        except (InputTypeError, SpanShapeError) as refusal:
            if refused is None:
                raise
            refused[name] = str(refusal)
            scored = {}
        for system, (result, family_statistics_) in scored.items():
            results[system][name] = result.to_dict(beta=beta)
            statistics[system] += family_statistics_
        if bar is not None:
            bar.update(len(system_names))
    return results, statistics


def family_results(evaluation: Evaluation, system_names, family, merged: dict,
                   options=None) -> dict:
    """System -> ``(result, bootstrap statistics)`` of ``family`` for each of
    ``system_names`` (from ``merged``, ``(system, family) -> result``, where it is)."""
    out = {}
    for system in system_names:
        key = (system, family.name)
        result = merged[key] if key in merged else \
            score_family(family, evaluation, system, options)
        out[system] = (result, family_statistics(family, result))
    return out


def _bootstrap(statistics: dict, estimates: dict, system_names: list,
               settings: ReportOptions, n_sentences: int, bar=None) -> tuple[dict, dict]:
    """``(intervals, comparisons)`` from one matrix of sentence weights for all systems
    (``settings``: the bootstrap samples, seed and confidence, the baseline)."""
    intervals: dict = {system: {} for system in system_names}
    comparisons: dict = {}
    if not settings.bootstrap:
        return intervals, comparisons
    names = [s.name for s in statistics[system_names[0]]]
    higher = {s.name: s.higher_is_better for s in statistics[system_names[0]]}
    # Poisson(1) weights keyed by (seed, replicate, sentence id), as the partials draw
    # them: the intervals do not depend on how the corpus is cut
    weights = sentence_weights(range(n_sentences), settings.bootstrap, settings.seed)
    samples = {system: resample(statistics[system], weights) for system in system_names}
    for system in system_names:
        for column, stat in enumerate(statistics[system]):
            ci = percentile_interval(samples[system][:, column], estimates[system][stat.name],
                                     settings.confidence)
            intervals[system][stat.name] = {
                "low": ci.low, "high": ci.high, "support": stat.support,
                "too_small": stat.too_small}
    reference = settings.baseline or system_names[0]
    if reference not in samples:
        raise ValueError(f"baseline {reference!r} is not one of the systems {system_names}")
    for system in system_names:
        if system == reference:
            continue
        comparisons[pair_key(system, reference)] = {
            name: probability_better(samples[system][:, i], samples[reference][:, i],
                                     higher[name])
            for i, name in enumerate(names)}
    if bar is not None:
        bar.update(1)
    return intervals, comparisons


NO_GOLD_NOTE = ("Gold holds no mention: recall is undefined for every system. Entity recall "
                "and F1 show 0 (seqeval's zero_division), and so does precision: every "
                "predicted mention is a false positive, and a system predicting none gets "
                "zero_division's 0. Each method's section says what else is undefined.")


def _report_info(context: Evaluation, settings: ReportOptions, baseline, families, notes,
                 sources: Mapping) -> dict:
    """Corpus sizes and options (``Report.info``: ``settings``, the ``baseline`` and
    ``families`` run; ``beta`` stated when it adds numbers, as a result's options state
    it) and the provenance of ``sources``."""
    corpus, index = context.corpus, context.train
    mentions = len(context.gold)
    if not mentions:   # said first, on the page and in the terminal
        notes = [*notes, NO_GOLD_NOTE]
    info = {"sentences": corpus.n_sentences, "tokens": corpus.n_tokens, "mentions": mentions,
            "train_sentences": index.corpus.n_sentences if index is not None else None,
            "scheme": context.scheme, "mode": context.mode, "bootstrap": settings.bootstrap,
            "seed": settings.seed, "confidence": settings.confidence, "baseline": baseline,
            "families": list(families), "min_support": MIN_SUPPORT,
            "min_share": settings.min_share, "notes": list(notes),
            **({"beta": settings.beta} if settings.beta != 1 else {})}
    info["provenance"] = provenance(sources, {
        k: info[k] for k in ("scheme", "mode", "bootstrap", "seed", "confidence", "baseline",
                             "families", "min_share", "beta") if k in info})
    return info


def _add_analyses(result: Report, context: Evaluation, families, figures: bool,
                  settings: dict, left_out: dict | None = None) -> None:
    """The families' examples, analyses, figures and findings, into ``result``; with
    ``left_out`` (gold nests: what was left out or scored under other options,
    ``nesting.info``) the nested view."""
    if left_out is not None:
        result.nesting = nesting.collect(context, result.systems)
        result.info["nesting"] = nesting.info(context, **left_out)
    ran = in_report_order(families)
    corpus, system_names, results = context.corpus, result.systems, result.results
    result.examples = examples.collect(results, context, ran)
    result.analyses = analyses.analyses(context, results, system_names, ran, settings)
    if figures:
        result.figures = analyses.figures(result, ran)
    result.findings = findings.findings(result)
    result.example_sentences = examples.shown_sentences(result.examples, corpus)
    result.confusion = {} if nesting.left_out(result, "confusion") else \
        confusion.collect(context, system_names)
    result.example_sentences.update(confusion.sentences(result.confusion, corpus))
    _by_gold_number(result, corpus.source.sentence_numbers)


def _by_gold_number(result: Report, numbers) -> None:
    """The examples' sentences named by their numbers in gold (``numbers``, a corpus of
    some of gold's sentences: those generated output answers), not their places here."""
    if numbers is None:
        return
    renumbered = lambda rows: [{**row, "sentence": int(numbers[row["sentence"]])}  # noqa: E731
                               for row in rows]
    result.examples = {system: {kind: renumbered(rows) for kind, rows in kinds.items()}
                       for system, kinds in result.examples.items()}
    for data in result.confusion.values():
        data["examples"] = {cell: renumbered(rows) for cell, rows in data["examples"].items()}
    result.example_sentences = {str(int(numbers[int(i)])): words
                                for i, words in result.example_sentences.items()}
