"""Scoring from ids, datasets splits and logits against seqeval, in one run (issue 18).

    python -m benchmarks.bench_ids [--sentences 50000] [--repeat 3] [--no-families]
                                   [--file-mb 100]

The synthetic corpus (benchmarks.synthetic) is given to every scorer in the form it
takes: seqeval always gets lists of tag strings (what it needs); nerlens gets tag
strings, label ids (2-D padded with -100, ragged rows of arrays, or lists of Python
ints), a ``datasets`` split with a ``ClassLabel`` column plus predicted ids, or logits
(the Trainer helper). Every row prints both times and the ratio seqeval / nerlens, then
peak memory (tracemalloc, plus the rise of pyarrow's system pool, where ragged id rows
are joined: ``arrow_peak``). Building the inputs is not timed; the Trainer's training
index is built once, outside the timing, as the helper does.

The last rows write the corpus as a ``token gold pred`` column file of about
``--file-mb`` MB (the corpus repeated) into a temporary folder and run ``nerlens score``
on it in a subprocess: its peak resident memory (``getrusage(RUSAGE_CHILDREN)``) against
the file size (target: at most 2x; conlleval.pl streams in 5.6 MB), and the same for a
subprocess that only imports the command line, for reference; then the same data as two
files, ``token gold`` and ``token pred`` (``nerlens score GOLD PRED``), against their
total size.

Measured on 2 shared cores (issue 18), ratios one run each (``compare`` alternates the
two sides' runs); "before" is the main of 2026-11-24 (1e90c4c), "after" the code of this
docstring (2026-11-24, fifth session, load ~0.5 at the start of the run):

=====================================  ===========  ===========  ====================
row (750k tokens, 50k sentences)       before       after        after: peak / peer's
=====================================  ===========  ===========  ====================
tag-string lists vs f1_score           9.9x         16.4x        0.39
2-D padded ids vs f1_score             52.1x        65.0x        0.47
ragged id rows vs f1_score             32.9x        50.5x        0.56
id lists (Python ints) vs f1_score     --           13.4x        0.39
datasets split vs f1_score             37.0x        55.1x        0.39
Trainer helper vs run_ner-style        60.0x        64.4x        0.64
tough_mentions vs classification_rep.  36.2x        60.5x        0.48
hardeval vs classification_report      36.2x        67.5x        1.25
faireval vs classification_report      63.5x        69.9x        0.82
attribute_buckets vs classification_r. 14.5x        36.6x        1.17
nerlens score, 99 MB file: peak RSS    2.81x        1.38x        --
nerlens score, 2 files 140 MB: RSS     2.03x        1.45x        --
=====================================  ===========  ===========  ====================

seqeval's own time moves by 1.6x within one run and between runs (``f1_score``
1.06-1.88 s in these sessions' runs), and every ratio with it. nerlens' own times after:
tag strings 65 ms, 2-D ids 20 ms, ragged rows 27 ms, id lists 89 ms, the split 22 ms.
Ragged rows took 25-29 ms in five runs, 46.0x, 47.9x, 50.5x, 51.0x and 54.7x as seqeval
took 1.17-1.46 s: the one row under its target (50x) in some runs. Id lists of Python
ints (new row, no target) are read by one exact type pass and one ``np.fromiter`` copy:
89 ms, where the code before (ef14445) took 103 (median of 12 alternated runs). The
Trainer helper now checks its logits for NaN (one sum, 4 ms; 70af35e): its row measured
54.6x, 61.2x and 61.2x in three runs after it (113-133 ms), and tag strings 14.1x
(79 ms against seqeval's 1.10 s; the path unchanged), 19.9x and 17.0x in the same runs.

What ragged rows cost beyond a 2-D array is the join: a pass over 50k array objects
for their dtypes, then pyarrow's copy, about 7.5 ms a column just after a seqeval run
(profiled: most of it pyarrow's work per row, a shared-pointer copy, a validity bit and
a ``memcpy`` each). The rows are joined 4,096 at a time (``nerspan.corpus.JOIN_ROWS``):
in one call pyarrow grew a column's buffer by copying it into fresh pages, ~3,000 page
faults per score at ~2 us each, now ~240; narrowed to int32 as the blocks are put
together. Over 100 alternated scores after a seqeval run (mean of the faster half)
ragged rows went from 34.5 to 30.8 ms and 2-D ids from 24.0 to 22.2 ms (that machine
state was slower than the run above). Lenient decoding reads mention starts and ends as
alternating events (``np.repeat`` of the flagged positions: 0.35 ms a column where two
selections took 1.1). Measured and no faster: the dtype pass per block,
``itertools.islice`` blocks, Arrow's default pool with an int32 copy,
``np.concatenate`` (7-8 ms a column), ``bytes.join`` with length, dtype and ndim passes
(its copy is 1.5-2 ms a column faster than pyarrow's, but each extra pass over the 50k
rows costs 1.2-2 ms), pyarrow's type inference, its ``large_list`` and ``list_view``
types, its mimalloc and jemalloc pools (within 0.5 ms).

attribute_buckets keeps token values as table look-ups
(``attribute_buckets.attributes.TableValues``): its result went from 31 to 18 MiB, its
peak from 81 to 42 MiB. The 99 MB row: 131 MiB peak RSS, 31 MiB of it the interpreter
and imports; ``nerlens score`` reads the file without its token strings, in chunks split
in C (3.9 s in this run; 12-13 s before), and scores it in blocks of whole sentences
(``nerspan.streaming.SCORE_BLOCK``). The two-file row: 193 MiB for 133 MiB of
files; the prediction file is read into the gold corpus's vocabularies and its tokens
compared block by block as they are read (``read_columns(reference=...)``), so neither
its token ids nor its remapped tag ids are a second copy.

Many labels (issue 28; ``--many-labels``, default 20,000 and 80,000): a vocabulary of
``O`` and ``B-``/``I-`` of n/2 types, each mention's type drawn from all of them (a
Trainer's large ``id2label``). Decoding tabulated every label pair, (labels + 1)^2
entries built as int64 codes: on the main of 2026-11-26 (b11c063) 20,001 labels took
25.5 s and 3,825 MiB (0.1x seqeval), 80,001 would need 51 GB. Pairs are now tabulated up
to 256 labels (``nerspan.spans.PAIR_TABLE_LABELS``); beyond, each position's transition
code comes from per-label prefix and type arrays, 65,536 positions at a time
(``CODE_CHUNK``; all at once, the fresh temporaries' page faults doubled the time):
20,001 labels 42-67 ms and 17 MiB (29-38x), 80,001 labels 122-261 ms and 19 MiB
(14.5-14.7x), most of it ``LabelTable.build``'s pass over the labels. The rows above
keep their paths: two alternated runs each of main and this code, nerlens' own times
(ms) before / after: tag strings 82, 86 / 84, 87; 2-D ids 12, 12 / 12, 12; ragged rows
18, 18 / 18, 18; the split 11, 11 / 12, 11; the Trainer helper 86, 88 / 92, 88 (seqeval
1.04-1.97 s: tag strings 13.0-13.3x before, 12.4x after, both under the 15x of issue 18
in these runs). Decoding alone, 9 labels, 6 alternated processes of 40: lenient 2.70 /
2.60 ms, strict 12.97 / 12.82 ms at best.
"""
from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from types import SimpleNamespace

import numpy as np

import nerspan
from benchmarks.common import best_time
from benchmarks.synthetic import make_corpus

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "300", "--repeat", "1", "--many-labels", "200", "--file-mb", "0.2"]


def id_inputs(gold, pred, labels=None):
    """Labels in id order (default: those of the data, sorted) and the ids as padded 2-D
    arrays and as ragged rows."""
    labels = labels or sorted({t for s in gold for t in s} | {t for s in pred for t in s})
    index = {label: i for i, label in enumerate(labels)}
    lengths = np.array([len(s) for s in gold])
    inside = np.arange(lengths.max()) < lengths[:, None]
    padded = {}
    for name, sents in (("gold", gold), ("pred", pred)):
        array = np.full(inside.shape, -100, dtype=np.int64)
        array[inside] = [index[t] for s in sents for t in s]
        padded[name] = array
    ragged = {name: [row[:n] for row, n in zip(array, lengths)] for name, array in padded.items()}
    return labels, padded, ragged


def split_of(tokens, gold, labels, pred_ids):
    import datasets

    features = datasets.Features({
        "tokens": datasets.Sequence(datasets.Value("string")),
        "ner_tags": datasets.Sequence(datasets.ClassLabel(names=labels))})
    gold_ids = [[labels.index(t) for t in s] for s in gold]
    return datasets.Dataset.from_dict({"tokens": tokens, "ner_tags": gold_ids},
                                      features=features), pred_ids


def run_ner_compute_metrics(labels):
    """``compute_metrics`` as transformers' run_ner.py writes it, with seqeval."""
    from seqeval.metrics import classification_report

    def compute(prediction):
        ids = np.argmax(prediction.predictions, axis=2)
        true_predictions = [[labels[p] for (p, g) in zip(row, gold) if g != -100]
                            for row, gold in zip(ids, prediction.label_ids)]
        true_labels = [[labels[g] for (p, g) in zip(row, gold) if g != -100]
                       for row, gold in zip(ids, prediction.label_ids)]
        report = classification_report(true_labels, true_predictions, output_dict=True)
        return {"precision": report["micro avg"]["precision"],
                "recall": report["micro avg"]["recall"], "f1": report["micro avg"]["f1-score"]}
    return compute


def peak(function) -> int:
    gc.collect()
    tracemalloc.start()
    function()
    result = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result


def arrow_peak() -> int:
    """The high-water mark of pyarrow's system pool, which tracemalloc does not see
    (ragged id rows are joined there). Every call of a row peaks the same, so the mark's
    rise during the first row that uses the pool is that row's peak per call."""
    import pyarrow as pa

    return pa.system_memory_pool().max_memory()


def compare(title: str, ours, theirs, repeat: int, memory: bool = True) -> float:
    arrow_before = arrow_peak()
    mine = peer = float("inf")
    for _ in range(repeat):   # alternated: a change of load on shared cores hits both
        mine, peer = min(mine, best_time(ours, 1)), min(peer, best_time(theirs, 1))
    line = f"{title:58s} nerlens {mine:7.3f} s  seqeval {peer:7.3f} s  ratio {peer / mine:6.1f}x"
    if memory:
        mine_bytes, peer_bytes = peak(ours) + arrow_peak() - arrow_before, peak(theirs)
        line += (f"  peak memory {mine_bytes / 2**20:.0f} / {peer_bytes / 2**20:.0f} MiB "
                 f"(ratio {mine_bytes / peer_bytes:.2f})")
    print(line, flush=True)
    return peer / mine


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-families", action="store_true")
    parser.add_argument("--many-labels", type=int, nargs="*", default=[20_000, 80_000],
                        help="label vocabularies of the many-labels rows (none: no rows)")
    parser.add_argument("--file-mb", type=float, default=100,
                        help="size of the column file for the nerlens score row (0: none)")
    args = parser.parse_args(argv)
    from seqeval.metrics import classification_report, f1_score

    tokens, gold, pred = make_corpus(args.sentences)
    labels, padded, ragged = id_inputs(gold, pred)
    n_tokens = sum(map(len, gold))
    print(f"{len(gold)} sentences, {n_tokens} tokens, {len(labels)} labels; best of "
          f"{args.repeat}; peer on the same data as tag strings")
    seqeval_f1 = lambda: f1_score(gold, pred)  # noqa: E731
    ratios = {"strings": compare("tag-string lists vs f1_score",
                                 lambda: nerspan.score(gold, pred).micro(), seqeval_f1,
                                 args.repeat)}
    ratios["2-D ids"] = compare("2-D padded ids vs f1_score", lambda: nerspan.score(
        padded["gold"], padded["pred"], label_list=labels).micro(), seqeval_f1, args.repeat)
    ratios["ragged ids"] = compare("ragged id rows vs f1_score", lambda: nerspan.score(
        ragged["gold"], ragged["pred"], label_list=labels).micro(), seqeval_f1, args.repeat)
    lists = {name: [row.tolist() for row in rows] for name, rows in ragged.items()}
    ratios["id lists"] = compare("id lists (Python ints) vs f1_score", lambda: nerspan.score(
        lists["gold"], lists["pred"], label_list=labels).micro(), seqeval_f1, args.repeat)
    split, pred_ids = split_of(tokens, gold, labels, padded["pred"])
    ratios["split"] = compare("datasets split (ClassLabel + 2-D predicted ids) vs f1_score",
                              lambda: nerspan.score(split, pred_ids).micro(), seqeval_f1,
                              args.repeat)
    ratios.update(trainer_rows(tokens, labels, padded, args.repeat))
    if not args.no_families:
        report = lambda: classification_report(gold, pred, output_dict=True)  # noqa: E731
        ratios.update(family_rows(tokens, gold, split, pred_ids, report, args.repeat))
    for n_labels in args.many_labels:
        ratios[f"{n_labels} labels"] = many_labels_row(args.sentences, n_labels, args.repeat)
    if args.file_mb:
        ratios["score file memory"] = score_file_row(tokens, gold, pred, args.file_mb)
        ratios["score two files memory"] = score_two_files_row(tokens, gold, pred,
                                                               args.file_mb)
    return ratios


def column_text(*columns) -> bytes:
    """The sentences of the parallel ``columns`` (token, tags, ...) as column-file rows."""
    return "".join("".join(" ".join(row) + "\n" for row in zip(*sentence)) + "\n"
                   for sentence in zip(*columns)).encode()


def write_repeated(path, block: bytes, repeats: int) -> int:
    """``block`` written ``repeats`` times to ``path``; the file's size."""
    with open(path, "wb") as handle:
        for _ in range(repeats):
            handle.write(block)
    return os.path.getsize(path)


def file_repeats(tokens, gold, pred, megabytes: float) -> int:
    """How often the corpus is repeated in a ``token gold pred`` file of ``megabytes`` MB."""
    return max(1, round(megabytes * 1e6 / len(column_text(tokens, gold, pred))))


def child_peak(argv) -> tuple[int, float]:
    """Peak RSS in bytes (Linux ru_maxrss is in KiB) and seconds of one subprocess run
    (each in a fresh process via a wrapper, so that RUSAGE_CHILDREN is its own)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
             "stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", probe, *argv], check=True,
                         capture_output=True, text=True).stdout
    return int(out.split()[-1]) * 1024, time.perf_counter() - start


def score_peak_line(title: str, paths: list, size: int) -> float:
    """Run ``nerlens score PATHS`` in a fresh process, print its time and peak RSS
    against ``size`` (the input's bytes); the ratio."""
    rss, seconds = child_peak([sys.executable, "-m", "nerlens", "score", *paths])
    base, _ = child_peak([sys.executable, "-c", "import nerlens.cli"])
    print(f"{title:58s} {seconds:7.1f} s  peak RSS {rss / 2**20:.0f} MiB = {rss / size:.2f}x "
          f"the input (importing the command line alone: {base / 2**20:.0f} MiB)", flush=True)
    return rss / size


def score_file_row(tokens, gold, pred, megabytes: float) -> float:
    """``nerlens score FILE`` on a ``token gold pred`` file of about ``megabytes`` MB."""
    repeats = file_repeats(tokens, gold, pred, megabytes)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "system.txt")
        size = write_repeated(path, column_text(tokens, gold, pred), repeats)
        return score_peak_line(f"nerlens score on a {size / 1e6:.0f} MB column file",
                               [path], size)


def score_two_files_row(tokens, gold, pred, megabytes: float) -> float:
    """``nerlens score GOLD PRED`` on the data of ``score_file_row``: a ``token gold``
    file and a ``token pred`` file; peak RSS against their total size."""
    repeats = file_repeats(tokens, gold, pred, megabytes)
    with tempfile.TemporaryDirectory() as folder:
        paths = [os.path.join(folder, name) for name in ("gold.txt", "pred.txt")]
        size = sum(write_repeated(path, column_text(tokens, tags), repeats)
                   for path, tags in zip(paths, (gold, pred)))
        return score_peak_line(f"nerlens score on two files of {size / 1e6:.0f} MB in all",
                               paths, size)


def many_labels_row(n_sentences: int, n_labels: int, repeat: int) -> float:
    """2-D ids over a vocabulary of ``n_labels`` labels (``O``, ``B-`` and ``I-`` of
    ``n_labels // 2`` types, each mention's type drawn from all of them: a Trainer's
    large ``id2label``) against seqeval on the same tag strings."""
    from seqeval.metrics import f1_score

    types = tuple(f"T{i}" for i in range(n_labels // 2))
    _, gold, pred = make_corpus(n_sentences, types=types)
    labels = ["O"] + [f"{prefix}-{t}" for t in types for prefix in "BI"]
    _, padded, _ = id_inputs(gold, pred, labels)
    return compare(f"2-D padded ids, {len(labels)} labels vs f1_score", lambda: nerspan.score(
        padded["gold"], padded["pred"], label_list=labels).micro(),
        lambda: f1_score(gold, pred), repeat)


def trainer_rows(tokens, labels, padded, repeat) -> dict:
    from nerlens.trainer import make_compute_metrics

    rng = np.random.default_rng(0)
    logits = rng.random(padded["pred"].shape + (len(labels),), dtype=np.float32)
    np.put_along_axis(logits, np.maximum(padded["pred"], 0)[..., None], 2.0, axis=-1)
    prediction = SimpleNamespace(predictions=logits, label_ids=padded["gold"])
    peer = run_ner_compute_metrics(labels)
    helper = make_compute_metrics(labels, metrics=("faireval",), eval_tokens=tokens)
    return {"trainer": compare("Trainer helper (faireval) from logits vs run_ner-style",
                               lambda: helper(prediction), lambda: peer(prediction), repeat)}


def family_rows(tokens, gold, split, pred_ids, report, repeat) -> dict:
    import importlib

    train = nerspan.as_train_index((tokens, gold))  # built once, not timed
    ratios = {}
    for name in ("tough_mentions", "hardeval", "faireval", "attribute_buckets"):
        family = importlib.import_module(name)
        options = {} if name == "faireval" else {"train": train}
        ratios[name] = compare(f"{name} on the split vs classification_report",
                               lambda: family.score(split, pred_ids, **options), report,
                               repeat)
    return ratios


if __name__ == "__main__":
    main()
