"""The whole report on CoNLL-2003 with its 15 systems against seqeval, one run.

    python -m benchmarks.bench_report [--bootstrap 1000] [--types 100]

Times ``nerlens.report`` (all four families, training index built once, HTML and JSON
rendered) without figures and bootstrap (the scoring alone: gold decoded once, every
system and family scored), with the bootstrap off and with ``--bootstrap`` samples, and seqeval's
``classification_report`` alone on the same 15 systems; prints both ratios. Skips when
``../shared/data`` is absent.

Then a synthetic corpus of ``--types`` entity types (benchmarks.synthetic, 3,000
sentences) and four systems: the FairEval report with and without its figures, against
seqeval's ``classification_report`` on the same systems (the figures' cost should not
grow with the types: a heat map shows at most ``faireval.plots.HEATMAP_LABELS`` labels).
Issue 28, 2 shared cores: on the main of 2026-11-26 (b11c063) the 100-type report took
61.7 s with its figures and 0.37 s without (40.8x and 0.24x seqeval's 1.51 s: each heat
map wrote 10,201 cells); now 5.8 s and 0.59 s (2.65x and 0.27x of 2.19 s), a heat map of
22 x 22 cells taking 0.4-0.7 s whatever the types (4 types: the whole report 0.93 s).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import nerlens
from nerspan import GOLD, read_columns, read_system_file

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "conll03"


def main(argv=None) -> dict | None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--types", type=int, default=100)
    args = parser.parse_args(argv)
    many_types = many_types_row(args.types)
    systems = sorted((DATA / "systems").glob("*.txt"))
    if not systems:
        print(f"skipped: no CoNLL-2003 systems under {DATA}")
        return {"many_types": many_types}
    from seqeval.metrics import classification_report

    corpora = [read_system_file(path) for path in systems]
    lists = [([c.tags("gold", i) for i in range(c.n_sentences)],
              [c.tags("pred", i) for i in range(c.n_sentences)]) for c in corpora]
    start = time.perf_counter()
    for gold, pred in lists:
        classification_report(gold, pred, output_dict=True)
    seqeval_seconds = time.perf_counter() - start

    def whole_report(bootstrap: int, figures: bool = True) -> float:
        start = time.perf_counter()
        corpus = corpora[0].select([GOLD])
        names = []
        for path, system in zip(systems, corpora):
            corpus = corpus.with_columns(system.select(["pred"]), {"pred": path.stem})
            names.append(path.stem)
        train = read_columns(DATA / "train.txt", {GOLD: -1})
        report = nerlens.report(None, corpus=corpus, system_names=names, train=train,
                                bootstrap=bootstrap, figures=figures)
        with tempfile.TemporaryDirectory() as folder:
            report.to_json(Path(folder) / "report.json")
            report.to_html(Path(folder) / "report.html")
        return time.perf_counter() - start

    scoring = min(whole_report(0, figures=False) for _ in range(3))
    without = whole_report(0)
    with_bootstrap = whole_report(args.bootstrap)
    print(f"CoNLL-2003, {len(systems)} systems, {corpora[0].n_sentences} sentences")
    print(f"seqeval classification_report alone       {seqeval_seconds:8.2f} s")
    print(f"nerlens report, no figures, no bootstrap  {scoring:8.2f} s  "
          f"({scoring / seqeval_seconds:.2f}x seqeval's time; best of 3)")
    print(f"nerlens report, bootstrap off             {without:8.2f} s  "
          f"({without / seqeval_seconds:.2f}x seqeval's time; goal < 1)")
    print(f"nerlens report, {args.bootstrap} bootstrap samples  {with_bootstrap:8.2f} s  "
          f"({with_bootstrap / seqeval_seconds:.2f}x seqeval's time; goal < 20)")
    return {"seqeval": seqeval_seconds, "report_scoring": scoring, "report": without,
            "report_bootstrap": with_bootstrap, "many_types": many_types}


def many_types_row(n_types: int, n_sentences: int = 3000, n_systems: int = 4) -> dict:
    """FairEval's report of ``n_systems`` systems on ``n_types`` types, without and with
    its figures (one heat map per system), against seqeval's ``classification_report``."""
    from seqeval.metrics import classification_report

    from benchmarks.synthetic import make_corpus

    types = tuple(f"T{i}" for i in range(n_types))
    tokens, gold, pred = make_corpus(n_sentences, types=types)
    systems = {f"system{k}": [g if i % (k + 2) == 0 else p
                              for i, (g, p) in enumerate(zip(gold, pred))]
               for k in range(n_systems)}
    seconds = {}
    start = time.perf_counter()
    for tags in systems.values():
        classification_report(gold, tags, output_dict=True)
    seconds["seqeval"] = time.perf_counter() - start
    for figures in (False, True):
        start = time.perf_counter()
        nerlens.report(gold, systems, tokens=tokens, families=("faireval",), bootstrap=0,
                       figures=figures).to_html()
        seconds[f"figures={figures}"] = time.perf_counter() - start
    without, with_figures, peer = (seconds["figures=False"], seconds["figures=True"],
                                   seconds["seqeval"])
    print(f"{n_types} types, {n_systems} systems, {n_sentences} sentences: seqeval "
          f"classification_report {peer:.2f} s; FairEval report without figures "
          f"{without:.2f} s ({without / peer:.2f}x), with {with_figures:.2f} s "
          f"({with_figures / peer:.2f}x)")
    return seconds


if __name__ == "__main__":
    main()
