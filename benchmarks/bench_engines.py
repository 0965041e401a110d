"""The engines on a large corpus: Spark local mode and Ray against one process.

    python -m benchmarks.bench_engines [--tokens 10000000] [--family nerspan]
        [--rows-per-file 20000] [--cpus 2]

A synthetic corpus (``benchmarks.synthetic``, about 15 tokens per sentence) of
``--tokens`` tokens is written as Parquet files of ``--rows-per-file`` sentences (columns
``id``, ``references``, ``predictions``, ``tokens``: data at rest, as Spark and Ray read
it). In the same run it times: one pass (``score`` on the lists, in this process); and
``nerlens.spark.score`` (``local[CPUS]``, a partition per file) and ``nerlens.ray.score``
(``CPUS`` CPUs, a read task per file, blocks of at most 4,096 sentences scored) reading
the files, sessions started beforehand (Ray afresh for each run: no worker keeps
another run's memory), and
prints each engine's time over one pass. Each engine's ``to_dict()`` is checked equal to
one pass's first.

Memory: the peak private resident memory of the largest engine worker process (Spark's
Python workers; Ray's workers, apart by the tasks a process ran: ``nerlens.ray``'s scoring
only, Ray Data's Parquet reading only, or both; 0: no such process), sampled every 20 ms,
at two corpus sizes: ``--tokens`` and a quarter of it; and, the baseline, Ray's largest
worker while Ray Data reads the same files alone and counts their rows (no scoring). A
scoring task holds one block of at most 4,096 sentences and the partial, so its peak
should not depend on the corpus. The driver holds only the merged partials. (The sampler
reads every process of the machine: another session's Ray workers count too.)

Last measured (``python -m benchmarks.bench_engines --tokens 10000000``, the default
size: one pass on the lists against the engines reading Parquet; two cores, load under 1
at the start):

    corpus       tokens  one pass s  spark s  ratio   ray s  ratio  spark  ray  read  both  alone
    whole    10,003,631        2.78    10.92   3.9x   17.65   6.4x    112  136   109   794    788
    quarter   2,498,345        0.72     2.72   3.8x    8.96  12.5x    118  135   107   516    516

(MB: a Spark worker; Ray's that scored only, read only, did both; Ray Data reading alone.)

Equal results. A Spark worker's peak stays flat while the corpus grows 4x (118 -> 112
MB), and so does a Ray worker that only scores (135 -> 136 MB) or only reads (107 -> 109
MB). The Ray process that reads the Parquet files and scores grows (516 -> 794 MB), as
much as Ray Data's reading with no scoring at all does (516 -> 788 MB): the growth is Ray
Data's reading in that process (what its allocators keep), not ``nerlens.ray``'s blocks
or partials. The run before (2M and 0.5M tokens, load 6 to 23) measured the same shape:
Spark 111 -> 113 MB, Ray scoring 120 -> 133 MB, reading and scoring 226 -> 409 MB, Ray
Data alone 205 -> 442 MB; scoring 12 passes of 20,000 sentences in one process keeps it
at 86-90 MB.
Earlier, at load 3 to 8 with a block per file, the same process grew 329 -> 594 MB for
4x at 4,000,000 tokens, 152 -> 239 MB with the allocators returning memory
(``ARROW_DEFAULT_MEMORY_POOL=system MALLOC_MMAP_THRESHOLD_=65536
MALLOC_TRIM_THRESHOLD_=65536`` in the environment Ray's workers inherit). On two cores an
engine costs more than one process that holds the lists already: the engines are for
data already spread over machines, or more than one process holds; their cost per token
is a partition's reading plus its partial, so it divides by the workers, and the driver
merges small partials only.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import threading
import time
import warnings

import psutil
import pyarrow as pa
import pyarrow.parquet as pq
import ray
import ray.data
from pyspark.sql import SparkSession

import nerlens.ray
import nerlens.spark
import nerspan
from benchmarks.synthetic import make_corpus
from nerlens.engines import ENTITY_SCORES
from nerlens.families import get_family
from nerspan.errors import DecodingWarning

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--tokens", "30000", "--rows-per-file", "500"]
TOKENS_PER_SENTENCE = 15   # make_corpus's mean length


class PeakMemory:
    """Samples, while open, the private resident memory (resident less shared: Ray's
    object store is mapped into its workers) of the processes ``kind_of`` names by their
    command line (the task a Ray worker runs shows there), every 20 ms. ``peaks``: the
    kinds of task a process ran, joined by ``+``, -> the largest peak of such a process,
    in bytes (a process keeps what an earlier task left in its allocator, so a process
    that ran one kind only measures that kind)."""

    def __init__(self, kind_of):
        self.kind_of, self.processes, self.running = kind_of, {}, False

    def __enter__(self):
        self.running = True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()

    def sample(self):
        while self.running:
            for process in psutil.process_iter(["cmdline"]):
                try:
                    kind = self.kind_of(" ".join(process.info["cmdline"] or ()))
                    if kind is not None:
                        memory = process.memory_info()
                        peak, kinds = self.processes.get(process.pid, (0, frozenset()))
                        self.processes[process.pid] = (max(peak, memory.rss - memory.shared),
                                                       kinds | {kind})
                except psutil.Error:
                    continue
            time.sleep(0.02)

    @property
    def peaks(self) -> dict:
        out: dict = {}
        for peak, kinds in self.processes.values():
            key = "+".join(sorted(kinds))
            out[key] = max(out.get(key, 0), peak)
        return out


def spark_worker(cmdline: str) -> str | None:
    return "spark" if "pyspark.daemon" in cmdline or "pyspark.worker" in cmdline else None


# the tasks of ``nerlens.ray.score`` (batches scored, blocks counted and scored) and those
# of Ray Data's Parquet reading, told apart by the name a Ray worker shows while it runs one
RAY_SCORING = ("MapBatches(_outcome)", "_block_outcome", "_rows", "StreamingRepartition")
RAY_READING = ("ReadFiles", "ListFiles", "FooterReader", "ReadParquet")


def ray_worker(cmdline: str) -> str | None:
    if not cmdline.startswith("ray::"):
        return None
    task = cmdline[len("ray::"):]
    if task.startswith(RAY_SCORING):
        return "ray"
    return "ray_reading" if task.startswith(RAY_READING) else None


def written(folder: str, corpus: tuple, rows_per_file: int) -> None:
    """The corpus as Parquet files of ``rows_per_file`` sentences each."""
    tokens, gold, pred = corpus
    for n, start in enumerate(range(0, len(gold), rows_per_file)):
        stop = min(start + rows_per_file, len(gold))
        table = pa.table({"id": list(range(start, stop)), "references": gold[start:stop],
                          "predictions": pred[start:stop], "tokens": tokens[start:stop]})
        pq.write_table(table, os.path.join(folder, f"part-{n:05d}.parquet"))


def family_options(family: str, n_sentences: int) -> dict:
    """The options ``family`` is scored with: a training index when it needs one."""
    if family != ENTITY_SCORES and get_family(family).needs_train:
        train_tokens, train_gold, _ = make_corpus(max(n_sentences // 4, 10), seed=1)
        return {"train": nerspan.as_train_index((train_tokens, train_gold))}
    return {}


def one_size(n_tokens: int, args, spark) -> dict:
    """One pass, Spark and Ray on ``n_tokens`` tokens: seconds, worker peaks, checked."""
    corpus = make_corpus(max(n_tokens // TOKENS_PER_SENTENCE, 1))
    tokens, gold, pred = corpus
    options = family_options(args.family, len(gold))
    score = nerspan.score if args.family == ENTITY_SCORES else get_family(args.family).score
    start = time.perf_counter()
    whole = score(gold, pred, tokens=tokens, **options).to_dict()
    out = {"tokens": sum(map(len, gold)), "one_pass": time.perf_counter() - start}
    common = {"family": args.family, "tokens": "tokens", "sentence_id": "id", **options}
    with tempfile.TemporaryDirectory() as folder:
        written(folder, corpus, args.rows_per_file)
        del corpus, tokens, gold, pred
        runs = {"spark": (spark_worker, lambda: nerlens.spark.score(
                    spark.read.parquet(folder), **common)),
                "ray": (ray_worker, lambda: nerlens.ray.score(
                    ray.data.read_parquet(folder, override_num_blocks=len(os.listdir(folder))),
                    **common))}
        for name, (kind_of, run) in runs.items():
            if name == "ray":
                ray_started(args.cpus)   # fresh workers: none keeps another run's memory
            with PeakMemory(kind_of) as memory:
                start = time.perf_counter()
                result = run().to_dict()
                out[name] = time.perf_counter() - start
            assert result == whole, name
            out.update({f"{kinds}_worker_mb": peak / 2 ** 20
                        for kinds, peak in memory.peaks.items()})
        ray_started(args.cpus)
        with PeakMemory(ray_worker) as memory:   # the baseline: Ray Data's reading alone
            read_rows(folder)
        out["read_alone_worker_mb"] = max(memory.peaks.values(), default=0) / 2 ** 20
    return out


def read_rows(folder: str) -> int:
    """The rows of the Parquet files, read as ``nerlens.ray.score`` reads them and counted
    by a task per block: Ray Data's reading without scoring."""
    dataset = ray.data.read_parquet(folder, override_num_blocks=len(os.listdir(folder)))
    return sum(row["rows"] for row in dataset.map_batches(
        lambda table: {"rows": [table.num_rows]}, batch_format="pyarrow",
        batch_size=None).iter_rows())


def started(cpus: int, rows_per_file: int):
    """A Spark session (``local[cpus]``, a partition per Parquet file) and Ray."""
    spark = (SparkSession.builder.master(f"local[{cpus}]").appName("bench_engines")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.files.maxPartitionBytes", "1m").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    ray_started(cpus)
    return spark


def ray_started(cpus: int) -> None:
    """Ray with ``cpus`` CPUs, started afresh (its worker processes new)."""
    ray.shutdown()
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    context.target_max_block_size = 16 * 2 ** 20  # Ray's 128 MB: more than a test corpus


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=10_000_000)
    parser.add_argument("--family", default=ENTITY_SCORES)
    parser.add_argument("--rows-per-file", type=int, default=20_000)
    parser.add_argument("--cpus", type=int, default=2)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", DecodingWarning)
    spark = started(args.cpus, args.rows_per_file)
    try:
        one_size(3_000, args, spark)  # warm-up: the JVM's and Ray's first job, not timed
        sizes = {"whole": one_size(args.tokens, args, spark),
                 "quarter": one_size(args.tokens // 4, args, spark)}
    finally:
        spark.stop()
        ray.shutdown()
    print(f"{args.family}, {args.cpus} CPUs, {args.rows_per_file:,} sentences per file")
    print(f"{'corpus':<9}{'tokens':>12}{'one pass s':>12}{'spark s':>9}{'ratio':>9}"
          f"{'ray s':>8}{'ratio':>9}{'spark worker MB':>17}{'ray worker MB':>15}"
          f"{'ray reading MB':>16}{'ray both MB':>13}{'read alone MB':>15}")
    for name, run in sizes.items():
        print(f"{name:<9}{run['tokens']:>12,}{run['one_pass']:>12.2f}{run['spark']:>9.2f}"
              f"{run['spark'] / run['one_pass']:>8.1f}x{run['ray']:>8.2f}"
              f"{run['ray'] / run['one_pass']:>8.1f}x{run.get('spark_worker_mb', 0):>17.0f}"
              f"{run.get('ray_worker_mb', 0):>15.0f}{run.get('ray_reading_worker_mb', 0):>16.0f}"
              f"{run.get('ray+ray_reading_worker_mb', 0):>13.0f}"
              f"{run['read_alone_worker_mb']:>15.0f}")
    return sizes


if __name__ == "__main__":
    main()
