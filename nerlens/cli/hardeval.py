"""``nerlens hardeval``: token error rates on unseen and label-shifted tokens.

Besides the scores (one row per system), the paper's other analyses:
``--kfold K`` identifies the subsets by k-fold cross-validation over GOLD itself,
``--manifest FILE`` scores several (train, gold, prediction) domains and averages
them, ``--tokens`` ranks the hard tokens of each subset, ``--corpus-stats`` prints the
corpus statistics of its Tables 1-2 and the share of test tokens per subset (Table 4).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import hardeval
from hardeval import analysis
from nerlens.families import get_family
from nerspan import GOLD, Evaluation, read_columns
from nerspan.errors import counted
from nerspan.records import Record, option, switch

from .common import (UsageError, check_file, confusion_text, format_table, print_json,
                     print_results, with_confusion)
from .flags import Shared, add_flags
from .family import add_family_arguments, section_text
from .inputs import load_systems_with_tokens, load_training
from .manifest import read_manifest
from .options import inputs_of


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags: the paper's other analyses."""

    kfold: int | None = option(None, "identify the subsets by K-fold cross-validation over "
                               "GOLD (each fold against the other K-1 folds; no --train)",
                               parse=int, metavar="K")
    fold_seed: int = option(0, "seed of the --kfold fold of each sentence, drawn from it and the sentence id (default 0)", parse=int)
    top: int = option(10, "tokens per subset with --hard-tokens (default 10)", parse=int,
                      metavar="N")
    corpus_stats: bool = switch(
        False, "corpus statistics of --train, --dev and GOLD (the paper's Tables 1-2: "
        "ambiguous tokens and mentions, unique and unseen mentions) and the share of tokens "
        "per subset (Table 4); GOLD's tag is its last column (or --gold-tag-column), no PRED "
        "files")
    dev: str | None = option(None, "with --corpus-stats: a development file to describe too")


def add_arguments(parser) -> None:
    add_family_arguments(parser, "hardeval", train_required=False,
                         train_note="not needed with --kfold or --manifest")
    add_flags(parser, Shared, ("manifest",),
              notes={"manifest": "scored domain by domain and macro-averaged, with entity F1"})
    add_flags(parser, Flags)


def compute(corpus, systems, train, scheme="IOB2", mode="lenient", strict_diff=False,
            error_labels="bilou", codes=None, confusion: bool = False) -> dict:
    """System name -> result dict; the subsets are classified once for all systems
    (or given as leaf ``codes``, e.g. from ``hardeval.kfold_subsets``); ``confusion``:
    the entity confusion matrix of each system's decoded mentions too."""
    evaluation = Evaluation(corpus, scheme, mode, train)  # gold decoded once for all systems
    if codes is None:
        codes = hardeval.gold_token_classes(evaluation, strict_diff)
    out = {}
    for name in systems:
        result = hardeval.score_codes(corpus, codes, GOLD, name, scheme, mode, error_labels,
                                      strict_diff=strict_diff, context=evaluation)
        out[name] = with_confusion(result.to_dict(), evaluation, name, confusion)
    return out


def domains_table(averaged: dict) -> str:
    """The out-of-domain table: one row per domain, entity F1 and TERs, then the average."""
    keys = ["f1", "hardeval", "ter", "ter_unseen", "ter_diff", "ter_other"]
    rows = [[name] + [head[k] for k in keys] for name, head in averaged["domains"].items()]
    rows.append(["avg"] + [averaged[k] for k in keys])
    return format_table(["domain", "F1", "hardeval score", "TER", "unseen",
                         hardeval.HEADERS["diff"], "other"], rows)


def tokens_table(ranked: dict, systems: list) -> str:
    parts = []
    for subset, rows in ranked.items():
        body = [[row["token"], row["count"]] + [row["errors"][s] for s in systems]
                for row in rows]
        parts.append(f"{hardeval.HEADERS.get(subset, subset)}:\n"
                     + format_table(["token", "count"] + [f"errors {s}" for s in systems],
                                    body))
    return "\n\n".join(parts)


def stats_table(stats: dict) -> str:
    """Tables 1-2 (corpus statistics) and Table 4 (% of tokens per subset)."""
    corpora = list(stats)
    keys = ["sentences", "tokens", "mentions", "unique_mentions", "ambiguous_tokens",
            "ambiguous_unique_tokens", "ambiguous_mentions", "ambiguous_unique_mentions",
            "unseen_mentions", "unseen_unique_mentions"]

    def cell(value):
        if isinstance(value, dict):
            share = value["share"]
            return f"{value['count']} ({'-' if share is None else f'{100 * share:.1f}%'})"
        return "-" if value is None else str(value)

    rows = [[key] + [cell(stats[c].get(key)) for c in corpora] for key in keys]
    parts = [format_table(["statistic"] + corpora, rows)]
    evaluated = [c for c in corpora if "subsets" in stats[c]]
    if evaluated:
        rows = [[hardeval.HEADERS[name]] + [cell(stats[c]["subsets"][name]) for c in evaluated]
                for name in hardeval.GROUPS]
        parts.append("Tokens per subset (share of all tokens):\n"
                     + format_table(["subset"] + evaluated, rows))
    return "\n\n".join(parts)


def _train_index(args):
    if not args.train:
        raise UsageError("give --train FILE (or --kfold K, or --manifest FILE)")
    return load_training(args)


def run(args) -> int:
    if args.top < 1:
        raise UsageError("--top must be at least 1")
    if args.manifest:
        return _run_domains(args)
    if args.corpus_stats:
        return _run_corpus_stats(args)
    if args.kfold is not None and args.train:
        raise UsageError("--kfold identifies the subsets from GOLD alone: drop --train")
    train = _train_index(args) if args.kfold is None else None
    corpus, systems = load_systems_with_tokens(args)
    out = {}
    if args.kfold is not None:
        codes = hardeval.kfold_subsets(corpus, args.kfold, args.fold_seed, args.scheme,
                                       args.mode, args.strict_diff)
        folds = hardeval.kfold_folds(corpus.n_sentences, args.kfold, args.fold_seed)
        out["kfold"] = {"k": args.kfold, "seed": args.fold_seed,
                        "fold_sentences": np.bincount(folds, minlength=args.kfold).tolist(),
                        "subsets": analysis.subset_shares(codes)}
    else:
        codes = hardeval.classify_tokens(corpus, train, args.scheme, args.mode, args.strict_diff)
    results = compute(corpus, systems, None, args.scheme, args.mode, args.strict_diff,
                      args.error_labels, codes, args.confusion)
    if args.hard_tokens:
        wrong = {s: analysis.token_errors(corpus, s, GOLD, args.scheme, args.mode,
                                          args.error_labels) for s in systems}
        out["hard_tokens"] = analysis.hard_tokens(corpus, codes, wrong, args.top)
    return _print(args, results, systems, out)


def _print(args, results: dict, systems: list, extra: dict) -> int:
    if args.format == "json":
        body = results[systems[0]] if len(systems) == 1 and not extra else results
        print_json({"results": results, **extra} if extra else body)
        return 0
    if "kfold" in extra:
        kfold = extra["kfold"]
        print(f"Subsets by {kfold['k']}-fold cross-validation over GOLD (seed {kfold['seed']}; "
              f"sentences per fold {kfold['fold_sentences']})")
    print(section_text(get_family("hardeval"), results))
    if "hard_tokens" in extra:
        print(f"\nThe {counted(args.top, 'most frequent token')} of each subset, with each "
              "system's errors on them:\n")
        print(tokens_table(extra["hard_tokens"], systems))
    matrices = confusion_text(results)
    if matrices:
        print(f"\n{matrices}")
    return 0


def _run_domains(args) -> int:
    if args.gold or args.kfold is not None or args.train:
        raise UsageError("--manifest reads every file from the manifest: give no GOLD, PRED, "
                         "--train or --kfold")
    datasets = read_manifest(args.manifest, args)
    systems = _common_systems(datasets, args.manifest)
    out = {}
    for system in systems:
        domains = {}
        for data in datasets:
            if not data.train:
                raise UsageError(f"{args.manifest}: dataset {data.name!r} has no \"train\"")
            column = system if system in data.systems else data.systems[0]
            domains[data.name] = dict(references=Evaluation(data.corpus, args.scheme,
                                                            args.mode),
                                      predictions=column, train=check_file(data.train),
                                      inputs=inputs_of(args))
        out[system] = hardeval.score_domains(domains, strict_diff=args.strict_diff,
                                             error_labels=args.error_labels)
        for name, result in out[system]["results"].items():
            evaluation, column = domains[name]["references"], domains[name]["predictions"]
            with_confusion(result, evaluation, column, args.confusion)
    print_results(out, domains_table, args.format == "json")
    if args.format == "json":
        return 0
    print("F1 = entity-level micro F1; TER in %, lower is better; avg = macro average over "
          "the domains where a number is defined")
    matrices = confusion_text({f"{system}, {domain}": result for system, averaged in out.items()
                               for domain, result in averaged["results"].items()})
    if matrices:
        print(f"\n{matrices}")
    return 0


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
    train = _train_index(args)
    read = dict(comment_prefix=args.comment_prefix)
    # None: the last column, unless another holds tags of the same types (then refused)
    gold_column = None if args.gold_tag_column is None else {GOLD: args.gold_tag_column}
    evaluation = {}
    if args.dev:
        evaluation["dev"] = read_columns(check_file(args.dev), {GOLD: -1}, **read)
    evaluation["test"] = read_columns(check_file(args.gold), gold_column, **read)
    stats = analysis.corpus_statistics(train, evaluation, args.scheme, args.mode)
    if args.format == "json":
        print_json(stats)
        return 0
    print(stats_table(stats))
    print("Ambiguous: a token string seen with two or more IO labels, a mention text with "
          "two or more types; unseen: a mention text that is no training mention")
    return 0


def _common_systems(datasets, path) -> list:
    systems = list(datasets[0].systems)
    for data in datasets[1:]:
        if len(data.systems) == 1 and len(systems) == 1:
            continue   # one system per domain: the same system under any file name
        missing = [s for s in systems if s not in data.systems]
        if missing:
            raise UsageError(f"{path}: dataset {data.name!r} lacks system(s) "
                             f"{', '.join(missing)}")
    return systems

