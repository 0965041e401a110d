"""``nerlens hardeval``: token error rates on unseen and label-shifted tokens, and the
paper's other analyses (the flags of ``Flags``: k-fold subsets, domains of a manifest,
hard tokens, corpus statistics). With ``--layers``, each gold layer is scored on its own
(a section per layer; JSON: ``layers``); ``--hard-tokens`` and ``--kfold`` refuse them.
"""
from __future__ import annotations

from dataclasses import dataclass

import hardeval
from hardeval import analysis, report
from nerlens.report import blocks
from nerlens.report.blocks import section_text
from nerspan.layers import is_layered
from nerspan.records import Record, option, switch

from .common import UsageError, print_confusion, print_json, print_results
from .flags import Shared, add_flags, at_least_one, record_of
from .family import (add_family_arguments, manifest_flag_datasets, print_scores,
                     score_datasets, score_family)
from .inputs import load_training, read_gold


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags: the paper's other analyses."""

    kfold: int | None = option(None, "identify the subsets by K-fold cross-validation over "
                               "GOLD (each fold against the other K-1 folds; no --train)",
                               parse=int, metavar="K")
    fold_seed: int = option(0, "seed of the --kfold fold of each sentence, drawn from it and "
                            "the sentence id (default 0)", parse=int)
    top: int = option(10, "tokens per subset with --hard-tokens (default 10)",
                      parse=at_least_one, metavar="N")
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
    if args.manifest:
        return _run_domains(args)
    if args.corpus_stats:
        return _run_corpus_stats(args)
    if args.kfold is not None and args.train:
        raise UsageError("--kfold identifies the subsets from GOLD alone: drop --train")
    folds = {}

    def kfold_subsets(corpus):   # each token's subset, from the folds of GOLD
        _one_gold_column(args, corpus)
        folds["codes"] = hardeval.kfold_subsets(corpus, args.kfold, args.fold_seed,
                                                args.scheme, args.mode, args.strict_diff)
        folds["summary"] = analysis.kfold_summary(folds["codes"], corpus.n_sentences,
                                                  args.kfold, args.fold_seed)
        return folds["codes"]
    family, evaluation, results, _ = score_family(
        args, "hardeval", _options(args), kfold_subsets if args.kfold is not None else None,
        why=NO_TRAIN)
    _one_gold_column(args, evaluation.corpus)
    kfold = folds.get("summary")
    for result in results.values() if kfold else ():   # the folds' codes were classified
        result["options"]["strict_diff"] = args.strict_diff   # with --strict-diff's value
    extra = {"kfold": kfold} if kfold else {}
    text = [f"Subsets by {args.kfold}-fold cross-validation over GOLD (seed {args.fold_seed}; "
            f"sentences per fold {kfold['fold_sentences']})"] if kfold else []
    text.append(section_text(family, results))   # with layers, a section per layer
    if args.hard_tokens:
        codes = folds["codes"] if kfold else hardeval.gold_token_classes(evaluation,
                                                                         args.strict_diff)
        extra["hard_tokens"] = analysis.systems_hard_tokens(evaluation, results, codes,
                                                            args.top, args.error_labels)
        text.append(blocks.text(report.hard_tokens_blocks(extra["hard_tokens"], results)))
    return print_scores(args, results, "\n\n".join(text), extra)


def _one_gold_column(args, corpus) -> None:
    if args.hard_tokens and is_layered(corpus):
        raise UsageError("--hard-tokens ranks the tokens of one gold column's subsets, and "
                         "gold has layers (--layers): read one layer (--gold-tag-column)")


def _options(args):
    """hardeval's options of the flags; --hard-tokens ranks the tokens of every system at
    once (``run``), not in each system's result (and not over domains)."""
    return record_of(args, hardeval.FAMILY.options, return_hard_tokens=False)


def _run_domains(args) -> int:
    if args.hard_tokens:   # the domains' JSON and table hold no hard tokens: say so
        raise UsageError("--hard-tokens ranks the tokens of one GOLD; with --manifest score "
                         "each domain's GOLD on its own to rank its hard tokens")
    datasets = manifest_flag_datasets(args, "--kfold", args.kfold is not None)
    systems = _common_systems(datasets, args.manifest)
    scored = score_datasets(args, hardeval.FAMILY, datasets, NO_TRAIN, _options(args))
    out = {}
    for system in systems:
        # a domain's one system is the same system under any file name
        results = {name: _with_entity_scores(evaluation, results, system)
                   for name, (evaluation, results) in scored.items()}
        out[system] = {**hardeval.average_domains(results), "results": results}
    print_results(out, lambda averaged: blocks.text(report.domains_blocks(averaged)),
                  args.format == "json")
    if args.format == "json":
        return 0
    print(report.DOMAINS_NOTE)
    print_confusion({f"{system}, {domain}": result for system, averaged in out.items()
                     for domain, result in averaged["results"].items()})
    return 0


def _with_entity_scores(evaluation, results: dict, system: str) -> dict:
    """``system``'s result dict (the one system's when it is not there) with its entity
    micro precision, recall and F1 before the confusion matrix (as ``score_domains``)."""
    name = system if system in results else next(iter(results))
    result = dict(results[name])
    matrix = {key: result.pop(key) for key in ("confusion", "boundary_errors") if key in result}
    micro = evaluation.entity_scores(name).micro()
    return {**result, **dict(zip(("precision", "recall", "f1"), micro)), **matrix}


def _run_corpus_stats(args) -> int:
    if args.kfold is not None:
        raise UsageError("--corpus-stats describes a fixed train/test split: drop --kfold")
    if args.predictions or args.confusion:
        raise UsageError("--corpus-stats describes the data, not a system: give GOLD "
                         "without PRED files"
                         + (" (--confusion compares a system with GOLD)" if args.confusion
                            else ""))
    if not args.gold:
        raise UsageError("no GOLD file given")
    train = load_training(args, why=NO_TRAIN)
    # GOLD and --dev read as every command reads GOLD (a column file or a saved split)
    evaluation = {"dev": read_gold(args, args.dev)} if args.dev else {}
    evaluation["test"] = read_gold(args, args.gold)
    stats = analysis.corpus_statistics(train, evaluation, args.scheme, args.mode)
    if args.format == "json":
        print_json(stats)
    else:
        print(blocks.text(report.statistics_blocks(stats, per_subset=True)))
    return 0


def _common_systems(datasets, path) -> list:
    """The first dataset's systems, which every other must have (one system in each: the
    same system under any file name)."""
    systems = list(datasets[0].systems)
    for data in datasets[1:]:
        missing = [s for s in systems if s not in data.systems]
        if missing and not len(data.systems) == len(systems) == 1:
            raise UsageError(f"{path}: dataset {data.name!r} lacks system(s) "
                             f"{', '.join(missing)}")
    return systems
