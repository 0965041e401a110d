"""The whole report on CoNLL-2003 with its 15 systems against seqeval, one run.

    python -m benchmarks.bench_report [--bootstrap 1000]

Times ``nerlens.report`` (all four families, training index built once, HTML and JSON
rendered) without figures and bootstrap (the scoring alone: gold decoded once, every
system and family scored), with the bootstrap off and with ``--bootstrap`` samples, and seqeval's
``classification_report`` alone on the same 15 systems; prints both ratios. Skips when
``../shared/data`` is absent.
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
    args = parser.parse_args(argv)
    systems = sorted((DATA / "systems").glob("*.txt"))
    if not systems:
        print(f"skipped: no CoNLL-2003 systems under {DATA}")
        return None
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
    return {"seqeval": seqeval_seconds, "report_scoring": scoring, "report": without, "report_bootstrap": with_bootstrap}


if __name__ == "__main__":
    main()
