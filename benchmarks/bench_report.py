"""The whole report on CoNLL-2003 with its 15 systems against seqeval, in one run.

    python -m benchmarks.bench_report [--bootstrap 1000] [--types 100] [--rounds 3]
                                      [--systems 15]

Times ``nerlens.report`` (all four families, training index built once, HTML and JSON
rendered) without figures and bootstrap (the scoring alone: gold, every system and the
training data decoded once, every family scored), with figures and the bootstrap off,
and with ``--bootstrap`` samples, against seqeval's ``classification_report`` alone on
the same 15 systems; prints the ratios of wall and CPU time. Seqeval and the two reports
run in interleaved rounds, the best of each kept. Skips when ``../shared/data`` is absent.

Issue 29 (2 cores shared with other sessions; ``--bootstrap 10 --types 4``, 3 rounds;
main at 5deb6ea, then this branch, at load 1.4-2.8): the report with its figures took
1.28x seqeval's wall time (5.69 s against 4.46 s) and 1.27x its CPU time; now 0.96x and
0.93x (4.33 s against 4.53 s). What changed: each column decoded once; one key of the
systems' colours for the nine bucket charts instead of a 15-entry legend on each (half
their cost); per-system figures for the first 2 systems, not 4; report.json by json's C
encoder. At load 5-7 the ratios varied (before 0.99-1.54x wall, 1.29-1.39x CPU; after
1.05-1.06x wall, 0.98x CPU). The scoring alone: 0.40x seqeval's time (0.48x before).

Issue 32 (the figures drawn in forked processes, 2 cores, load 1.0; ``--bootstrap 10
--types 4``, 3 rounds): the report with its figures 3.36 s against seqeval's 4.31 s
(0.78x wall, was 0.97x; 0.98x CPU, which counts the forked processes' time too).

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
import gc
import resource
import tempfile
import time
from pathlib import Path

import nerlens
from benchmarks.common import add_systems_argument
from nerspan import GOLD, read_columns, read_system_file

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "conll03"

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--bootstrap", "10", "--types", "4", "--rounds", "1", "--systems", "2"]


def main(argv=None) -> dict | None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--types", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of (seqeval, report without figures, report); the "
                             "best of each is kept")
    add_systems_argument(parser)
    args = parser.parse_args(argv)
    many_types = many_types_row(args.types)
    systems = sorted((DATA / "systems").glob("*.txt"))[:args.systems]
    if not systems:
        print(f"skipped: no CoNLL-2003 systems under {DATA}")
        return {"many_types": many_types}
    from seqeval.metrics import classification_report

    corpora = [read_system_file(path) for path in systems]
    lists = [([c.tags("gold", i) for i in range(c.n_sentences)],
              [c.tags("pred", i) for i in range(c.n_sentences)]) for c in corpora]

    def seqeval_reports() -> None:
        for gold, pred in lists:
            classification_report(gold, pred, output_dict=True)

    def whole_report(bootstrap: int, figures: bool = True) -> None:
        corpus = corpora[0].select([GOLD])
        names = []
        for path, system in zip(systems, corpora):
            corpus = corpus.with_columns(system.select(["pred"]), {"pred": path.stem})
            names.append(path.stem)
        train = read_columns(DATA / "train.txt", {GOLD: -1})
        report = nerlens.build_report(None, corpus=corpus, system_names=names, train=train,
                                bootstrap=bootstrap, figures=figures)
        with tempfile.TemporaryDirectory() as folder:
            report.to_json(Path(folder) / "report.json")
            report.to_html(Path(folder) / "report.html")

    # Interleaved rounds, the best of each kept: on a shared machine the load changes
    # within a run, and one timing of each side can differ 2x for that alone. CPU time
    # (this process's) is printed too: other processes change it far less.
    runs = {"seqeval": seqeval_reports, "scoring": lambda: whole_report(0, figures=False),
            "report": lambda: whole_report(0)}
    best = {name: (float("inf"), float("inf")) for name in runs}
    for _ in range(max(args.rounds, 1)):
        for name, run in runs.items():
            seconds = timed(run)
            best[name] = tuple(min(a, b) for a, b in zip(best[name], seconds))
    with_bootstrap = timed(lambda: whole_report(args.bootstrap))
    (peer, peer_cpu), (scoring, scoring_cpu) = best["seqeval"], best["scoring"]
    without, without_cpu = best["report"]
    print(f"CoNLL-2003, {len(systems)} systems, {corpora[0].n_sentences} sentences; "
          f"best of {args.rounds} interleaved rounds (wall, CPU)")
    print(f"seqeval classification_report alone       {peer:7.2f} s {peer_cpu:7.2f} s")
    print(f"nerlens report, no figures, no bootstrap  {scoring:7.2f} s {scoring_cpu:7.2f} s "
          f" ({scoring / peer:.2f}x, {scoring_cpu / peer_cpu:.2f}x seqeval's time)")
    print(f"nerlens report, bootstrap off             {without:7.2f} s {without_cpu:7.2f} s "
          f" ({without / peer:.2f}x, {without_cpu / peer_cpu:.2f}x seqeval's time; goal < 1)")
    print(f"nerlens report, {args.bootstrap} bootstrap samples  {with_bootstrap[0]:7.2f} s "
          f"{with_bootstrap[1]:7.2f} s  ({with_bootstrap[0] / peer:.2f}x seqeval's time; "
          "goal < 20; one run)")
    return {"seqeval": peer, "report_scoring": scoring, "report": without,
            "report_bootstrap": with_bootstrap[0], "cpu": {
                "seqeval": peer_cpu, "report_scoring": scoring_cpu, "report": without_cpu},
            "many_types": many_types}


def timed(function) -> tuple[float, float]:
    """``(wall seconds, CPU seconds of this process and of the processes it forked to draw
    figures)`` of one call."""
    gc.collect()
    start, cpu = time.perf_counter(), _cpu()
    function()
    return time.perf_counter() - start, _cpu() - cpu


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


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
        nerlens.build_report(gold, systems, tokens=tokens, families=("faireval",), bootstrap=0,
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
