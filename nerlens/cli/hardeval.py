"""``nerlens hardeval``: token error rates on unseen and label-shifted tokens (k-fold
subsets: hardeval's --kfold), and the paper's other analyses (``Flags``): domains of a
manifest, hard tokens, corpus statistics. With ``--layers``, each gold layer is scored alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import hardeval
from hardeval import analysis, report
from nerspan.options import check_int
from nerlens.experiment.runs import naming
from nerlens.report import blocks
from nerspan.records import Record, option, switch

from .common import UsageError, print_confusion, print_results, show_result
from .flags import Shared, add_flags, record_of
from .family import (add_family_arguments, manifest_flag_datasets, score_datasets,
                     score_family, show_scores)
from .inputs import load_training, read_gold


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags: the paper's other analyses."""

    top: int = option(10, "tokens per subset with --hard-tokens (default 10)",
                      partial(check_int, minimum=1), parse=int, metavar="N")
    corpus_stats: bool = switch(
        False, "corpus statistics of --train, --dev and GOLD (the paper's Tables 1-2: "
        "ambiguous tokens and mentions, unique and unseen mentions) and the share of tokens "
        "per subset (Table 4); GOLD's tag is its last column (or --gold-tag-column), no PRED "
        "files")
    dev: str | None = option(None, "with --corpus-stats: a development file to describe too "
                             "(read as GOLD is)")


def add_arguments(parser) -> None:
    add_family_arguments(parser, "hardeval", train_required=False,
                         train_note="(not needed with --kfold or --manifest)")
    add_flags(parser, Shared, ("manifest",),
              notes={"manifest": "scored domain by domain and macro-averaged, with entity F1"})
    add_flags(parser, Flags)


# where the subsets come from without --train
NO_TRAIN = "or --kfold K, or --manifest FILE"


def run(args) -> int:
    # --hard-tokens ranks the tokens of every system at once (below), not in each
    # system's result (and not over domains)
    options = record_of(args, hardeval.FAMILY.options, return_hard_tokens=False)
    if args.manifest:
        return _run_domains(args, options)
    if args.corpus_stats:
        return _run_corpus_stats(args)
    if options.kfold is not None and args.train:
        raise UsageError("--kfold identifies the subsets from GOLD alone: drop --train")
    family, evaluation, results, _ = score_family(args, "hardeval", options, why=NO_TRAIN,
                                                  needs_train=options.kfold is None)
    if not args.hard_tokens:
        return show_scores(args, family, results)
    tokens = report.hard_tokens_of(evaluation, results, args.top)
    return show_scores(args, family, results, {"hard_tokens": tokens},
                       analyses={"tokens": tokens})   # drawn as the report draws them


def _run_domains(args, options) -> int:
    if args.hard_tokens:   # the domains' JSON and table hold no hard tokens: say so
        raise UsageError("--hard-tokens ranks the tokens of one GOLD; with --manifest score "
                         "each domain's GOLD on its own to rank its hard tokens")
    datasets = manifest_flag_datasets(args, "--kfold", options.kfold is not None)
    scored = score_datasets(args, hardeval.FAMILY, datasets, NO_TRAIN, options)
    with naming(args.manifest):   # a dataset lacking a system: its error names the manifest
        out = hardeval.systems_over_domains(scored)
    print_results(out, lambda averaged: blocks.text(report.domains_blocks(averaged)),
                  args.format == "json")
    if args.format != "json":
        print(report.DOMAINS_NOTE)
        print_confusion({f"{system}, {domain}": result for system, averaged in out.items()
                         for domain, result in averaged["results"].items()})
    return 0


def _run_corpus_stats(args) -> int:
    if args.kfold is not None:
        raise UsageError("--corpus-stats describes a fixed train/test split: drop --kfold")
    if args.predictions or args.confusion or not args.gold:
        raise UsageError("--corpus-stats describes the data, not a system: give GOLD "
                         "without PRED files" + (" (--confusion compares a system with "
                                                  "GOLD)" if args.confusion else ""))
    train = load_training(args, why=NO_TRAIN)
    # GOLD and --dev read as every command reads GOLD (a column file or a saved split)
    evaluation = {"dev": read_gold(args, args.dev)} if args.dev else {}
    evaluation["test"] = read_gold(args, args.gold)
    stats = analysis.corpus_statistics(train, evaluation, args.scheme, args.mode)
    return show_result(args, stats, lambda stats: blocks.text(
        report.statistics_blocks(stats, per_subset=True)))
