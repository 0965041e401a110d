"""``nerlens score``: entity-level P/R/F1 as conlleval.pl prints it."""
from __future__ import annotations

import dataclasses
import sys
import warnings

import numpy as np

from nerspan import (GOLD, Corpus, DecodingWarning, EntityScores, LabelTable, decode,
                     entity_scores, get_scheme)
from nerspan.confusion import confusion_counts, counts_dict
from nerspan.corpus import side_name
from nerspan.counts import error_counts
from nerspan.fbeta import fbeta_key
from nerspan.schemes import check_mode
from nerspan.errors import counted
from nerspan.spans import Repairs, check_tags, repair_note, repairs_dict

from nerlens.demo import demo_systems

from .common import UsageError, add_beta_argument, format_table, print_json
from .inputs import add_input_arguments, load_systems, refuse_files_with_demo

NAME = "score"
HELP = "entity-level precision, recall, F1 (conlleval-style)"

# Tokens per block of whole sentences that ``compute`` decodes at once: the spans of a
# whole 100 MB file would add 0.6x the file to the peak memory; a block of 2**18 tokens
# adds 6 MiB and scores it as fast as 2**20 (which adds 27 MiB) or 2**16.
SCORE_BLOCK = 1 << 18


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    parser.add_argument("--demo", action="store_true",
                        help="score the embedded WNUT-17 demo (spaCy's output)")
    parser.add_argument("--error-counts", action="store_true",
                        help="also the false positives and negatives by type and text "
                             "(seqscore's error-count table; JSON: error_counts)")
    add_beta_argument(parser)
    parser.add_argument("--confusion", action="store_true",
                        help="add the entity confusion matrix (gold type x predicted type "
                             "over identical spans; O: missed, spurious) and the boundary "
                             "errors per type apart")


def compute(corpus, systems, scheme="IOB2", mode="lenient", beta: float = 1.0,
            confusion: bool = False) -> dict:
    """Scores of every system column: name -> json dict (plus token accuracy).

    The corpus is decoded and counted in blocks of whole sentences (about
    ``SCORE_BLOCK`` tokens): mentions never cross a sentence, so the blocks' counts and
    repairs add up to the corpus's, and only one block's spans are held at once. No
    ``DecodingWarning`` is raised: the ``repairs`` of the result say it (``run`` prints
    them), once per column. ``beta`` and ``confusion`` as in ``nerspan.score``.
    """
    check_mode(mode)
    scheme = get_scheme(scheme)
    table = LabelTable.build(corpus.labels, scheme)
    # generated systems' records are added once to the sums, never to each block's counts
    generated = dict(corpus.source.generated)
    if generated:
        corpus = corpus.with_source(dataclasses.replace(corpus.source, generated={}))
    for column in (GOLD, *systems):  # before the blocks: errors name the corpus's sentence
        check_tags(corpus, corpus.column(column), table, scheme, mode, side_name(column))
    parts = {name: [] for name in systems}  # per system, per block: _BlockScores
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DecodingWarning)
        for first, block in _sentence_blocks(corpus, SCORE_BLOCK):
            gold = decode(block, GOLD, scheme, mode, table)
            for name in systems:
                pred = decode(block, name, scheme, mode, table)
                same_tags = np.count_nonzero(block.column(name) == block.column(GOLD))
                parts[name].append(_BlockScores(
                    entity_scores(gold, pred), _shifted(gold.repairs, first),
                    _shifted(pred.repairs, first), int(same_tags),
                    confusion_counts(gold, pred) if confusion else None))
    return {name: _summed(parts[name], table.types, corpus.n_tokens, generated.get(name),
                          beta)
            for name in systems}


@dataclasses.dataclass(frozen=True)
class _BlockScores:
    """One system on one block: its scores, both columns' repairs with sentences
    counted in the whole corpus, and how many tokens have the gold tag."""

    scores: EntityScores
    gold_repairs: Repairs
    pred_repairs: Repairs
    same_tags: int
    confusion: tuple | None = None   # confusion_counts over the table's types


def _summed(parts: list, types: tuple, n_tokens: int, generated=None,
            beta: float = 1.0) -> dict:
    """One system's result dict from its blocks (``_BlockScores``, in corpus order):
    the mention counts of ``types`` summed, the repairs merged; as ``entity_scores``
    gives for the whole corpus, plus ``tokens`` and ``accuracy``. ``generated``: the
    record of a generated system, whose ungrounded entities are wrong predictions."""
    pred_repairs = dataclasses.replace(Repairs.merged([p.pred_repairs for p in parts]),
                                       generated=generated)
    unplaced = pred_repairs.unplaced()
    types = tuple(sorted(set(types) | set(unplaced))) if unplaced else types
    index = {name: i for i, name in enumerate(types)}
    counts = np.zeros((3, len(types)), dtype=np.int64)  # gold, predicted, correct
    for part in parts:
        at = [index[name] for name in part.scores.types]
        counts[:, at] += (part.scores.gold, part.scores.predicted, part.scores.correct)
    for name, n in unplaced.items():
        counts[1, index[name]] += n
    present = np.flatnonzero((counts[0] > 0) | (counts[1] > 0))
    first, first_confusion = parts[0].scores, parts[0].confusion
    repairs = repairs_dict(Repairs.merged([p.gold_repairs for p in parts]), pred_repairs)
    result = EntityScores(tuple(types[i] for i in present), gold=counts[0, present],
                          predicted=counts[1, present], correct=counts[2, present],
                          zero_division=first.zero_division, repairs=repairs,
                          options=first.options, beta=beta,
                          confusion=None if first_confusion is None else counts_dict(
                              types, present, *(sum(counts) for counts in zip(
                                  *(p.confusion for p in parts))))).to_dict()
    result["tokens"] = n_tokens
    same_tags = sum(p.same_tags for p in parts)
    result["accuracy"] = same_tags / n_tokens if n_tokens else 0.0
    return result


def _shifted(repairs: Repairs, first: int) -> Repairs:
    """``repairs`` of a block starting at sentence ``first``, sentences of the corpus."""
    return dataclasses.replace(repairs, sentences=tuple(s + first for s in repairs.sentences))


def _sentence_blocks(corpus: Corpus, size: int):
    """``(first sentence, block)`` for blocks of whole sentences of about ``size``
    tokens (a longer sentence is a block of its own), each a ``Corpus`` of views of
    ``corpus``'s arrays, with the file lines of its sentences for error messages. A
    corpus of at most ``size`` tokens is one block: itself."""
    if corpus.n_tokens <= size:
        yield 0, corpus
        return
    cuts = np.searchsorted(corpus.offsets, np.arange(size, corpus.n_tokens, size))
    bounds = np.unique(np.concatenate([[0], cuts, [corpus.n_sentences]])).tolist()
    for first, stop in zip(bounds[:-1], bounds[1:]):
        yield first, corpus.block(first, stop)


def conlleval_report(result: dict) -> str:
    """The text conlleval.pl prints, number for number (with ``--beta``, ``FB<beta>``
    after ``FB1``)."""
    beta = result.get("options", {}).get("beta", 1.0)
    key = fbeta_key(beta)

    def fb(row) -> str:
        return f"; F{key[1:].upper()}: {100 * row[key]:6.2f}" if beta != 1 else ""

    lines = [
        f"processed {result['tokens']} tokens with {result['gold']} phrases; "
        f"found: {result['predicted']} phrases; correct: {result['correct']}.",
    ]
    if result["tokens"]:
        lines.append(
            f"accuracy: {100 * result['accuracy']:6.2f}%; precision: {100 * result['precision']:6.2f}%; "
            f"recall: {100 * result['recall']:6.2f}%; FB1: {100 * result['f1']:6.2f}{fb(result)}")
    for name, row in sorted(result["per_type"].items()):
        lines.append(
            f"{name:>17}: precision: {100 * row['precision']:6.2f}%; "
            f"recall: {100 * row['recall']:6.2f}%; FB1: {100 * row['f1']:6.2f}{fb(row)}"
            f"  {row['predicted']}")
    return "\n".join(lines)


def add_error_counts(results: dict, corpus, systems: list, args) -> None:
    """Each system's ``error_counts`` (``nerspan.counts.error_counts``): its mentions
    read as the scores read them (lenient: conlleval's repair; strict: ``discard``)."""
    if corpus.tokens is None:
        raise UsageError("--error-counts needs the tokens: GOLD has no token column")
    repair = "conlleval" if args.mode == "lenient" else "discard"
    for name in systems:
        results[name]["error_counts"] = error_counts(corpus.paired(GOLD, name), None,
                                                     args.scheme, repair=repair)


def error_count_table(rows: list) -> str:
    """seqscore's error-count table: count, error (FP/FN), type, text."""
    return "\n".join(["count\terror\ttype\ttext"] + [
        f"{row['count']}\t{row['error']}\t{row['type']}\t{row['text']}" for row in rows])
def confusion_report(result: dict) -> str:
    """The confusion matrix (rows: gold, columns: predicted) and the boundary errors."""
    matrix = result["confusion"]
    columns = list(matrix[next(iter(matrix))]) if matrix else []
    rows = [[gold] + [cells.get(column, "") for column in columns]
            for gold, cells in matrix.items()]
    boundary = result["boundary_errors"]
    return ("\nconfusion over identical spans (rows: gold, columns: predicted; O: missed "
            "or spurious)\n" + format_table(["gold\\pred"] + columns, rows)
            + "\n\nboundary errors (overlapping spans that differ, not in the matrix)\n"
            + format_table(["type", "gold", "predicted"],
                           [[t, n, boundary["predicted"][t]]
                            for t, n in boundary["gold"].items()]))


def run(args) -> int:
    if args.demo:
        refuse_files_with_demo(args)  # before the demo's files take their place
        args.gold = str(next(iter(demo_systems().values())))
        args.predictions = []
    # no token is shown but in the error counts
    corpus, systems = load_systems(args, keep_tokens=args.error_counts)
    results = compute(corpus, systems, args.scheme, args.mode, args.beta, args.confusion)
    if args.error_counts:
        add_error_counts(results, corpus, systems, args)
    if args.format == "json":
        print_json(results[systems[0]] if len(systems) == 1 else results)
        return 0
    for name in systems:
        if len(systems) > 1:
            print(f"== {name}")
        print(conlleval_report(results[name]))
        if args.error_counts:
            print(error_count_table(results[name]["error_counts"]))
        if "confusion" in results[name]:
            print(confusion_report(results[name]))
        repairs = results[name].get("repairs")
        if repairs:
            for column, r in repairs.items():
                if r["invalid_transitions"] or r["outside_scheme"] or r.get("discarded_chunks"):
                    print(repair_note(column, r, args.scheme), file=sys.stderr)
                if r.get("types_mapped") or r.get("types_removed"):
                    print(f"note: {counted(r['types_mapped'], 'mention')} of {column} "
                          f"retyped, {r['types_removed']} dropped (--map-types, "
                          "--keep-types, --remove-types)", file=sys.stderr)
                if r.get("snapped"):
                    print(f"note: {counted(r['snapped'], 'span')} of {column} widened to "
                          "token boundaries (--snap)", file=sys.stderr)
    return 0
