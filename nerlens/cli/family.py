"""One command for every metric family, ``nerlens FAMILY GOLD [PRED ...]``: its flags are
the family's option record and the reading flags, each system is scored on one
``nerspan.Evaluation``, and the text view is the family's section of the report
(``Family.section``). A family without extras is this module's command (``COMMANDS``);
the extras (hardeval's domains and corpus statistics, buckets over datasets, faireval's
span files, plots, CSV) are their command module's.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from nerspan import Evaluation, InputOptions
from nerspan.family import Family
from nerspan.records import Record, ScoringOptions, switch

from nerlens.experiment.manifest import manifest_datasets as read_datasets
from nerlens.families import get_family, result_dicts
from nerlens.report.blocks import section_text
from nerlens.report.options import ReportOptions

from .common import UsageError, print_confusion, print_results
from .flags import THRESHOLD_FILES, add_flags, record_of
from .inputs import (add_input_arguments, add_train_arguments, load_systems, load_training,
                     system_options)
from .options import given


def add_family_arguments(parser, name: str, *, train_required: bool = True,
                         train_note: str | None = None, skip: tuple = ()) -> None:
    """GOLD [PRED ...] and how they are read, --train (a family that needs it), the
    family's options (its record's fields but ``skip``), the report settings it reads
    (``Family.settings``, each refused when read by the family's check), --confusion and,
    where it has F1, --beta."""
    family = get_family(name)
    add_input_arguments(parser)
    if family.needs_train:
        add_train_arguments(parser, required=train_required, note=train_note)
    add_flags(parser, family.options, tuple(n for n in family.options.names() if n not in skip))
    add_flags(parser, ScoringOptions, ("beta", "confusion") if family.same_as_entity
              else ("confusion",))
    add_flags(parser, ReportOptions, tuple(family.settings), checks=family.settings)
    add_flags(parser, InputOptions, ("threshold",), notes={"threshold": THRESHOLD_FILES})


def manifest_flag_datasets(args, refused: str, given_too: bool) -> list:
    """--manifest's datasets, each with its "train", read as ``nerlens report --manifest``
    reads them (their gold versions refused: a family command scores none); GOLD, PRED,
    --train and ``refused`` (``given_too``) refused beside it."""
    if args.gold or args.train or given_too:
        raise UsageError("--manifest reads every file from the manifest: give no GOLD, "
                         f"PRED, --train or {refused}")
    return read_datasets(args.manifest, without_versions=f"nerlens {args.command}",
                         needs_train=True, **system_options(args))


def score_datasets(args, family: Family, datasets, why: str, options) -> dict:
    """Dataset name -> (evaluation, system -> result dict): each dataset of --manifest
    scored as ``score_systems`` scores GOLD and PRED, with its own "train" (``why``)."""
    return {data.name: score_systems(args, family, data.corpus, data.systems,
                                     load_training(args, data.train, why), options)
            for data in datasets}


def score_family(args, name: str, options=None,
                 why: str = "the training set the subsets are made of", *,
                 needs_train: bool = True, **keywords):
    """The family ``name``, the evaluation, system -> result dict (``score_systems``) and
    the report settings it reads (``Family.settings``, checked when read), its options
    checked before a file is read; the training index --train's when the family needs it
    (``why``) and its options do (``needs_train``: hardeval's --kfold does not)."""
    family = get_family(name)
    options = record_of(args, family.options) if options is None else options
    train = load_training(args, why=why) if family.needs_train and needs_train else None
    corpus, systems = load_systems(args)
    if family.needs_tokens and corpus.tokens is None:
        raise UsageError(f"{args.gold}: no token column")
    return (family, *score_systems(args, family, corpus, systems, train, options, **keywords),
            {setting: given(args, setting) for setting in family.settings})


def score_systems(args, family: Family, corpus, systems, train, options,
                  **keywords) -> tuple[Evaluation, dict]:
    """The evaluation (gold decoded once) and system -> the family's result dict
    (``result_dicts``: F-beta of --beta, the entity confusion matrix with --confusion);
    ``options``: the family's record; ``keywords``: what the command gives its ``score``."""
    evaluation = Evaluation(corpus, args.scheme, args.mode, train)
    results = result_dicts(family.score, evaluation, systems, options,
                           beta=given(args, "beta", 1.0), confusion=args.confusion, **keywords)
    threshold = given(args, "threshold")
    for result in results.values() if threshold is not None else ():
        # the systems were kept at it as they were read: named as the API names it
        result["options"]["threshold"] = threshold
    return evaluation, results


def save_plots(args, save, *data, what: str = "charts", **keywords) -> int:
    """--plot DIR: ``save(*data, DIR, fmt=--plot-format, **keywords)``, said after the
    text view."""
    if args.plot:
        save(*data, args.plot, fmt=args.plot_format, **keywords)
        if args.format != "json":
            print(f"\n{what} written to {args.plot}")
    return 0


def show_scores(args, family: Family, results: dict, extra: dict | None = None,
                text: str | None = None, plot=None, what: str = "charts", **blocks) -> int:
    """--format json: one system's result dict (several: by name; ``extra``: beside them
    under ``results``); else ``text``, by default the family's section (``section_text``
    with ``blocks``: its analyses, head and tail), and the --confusion matrices; then
    with --plot, ``plot``'s figures of the results (``save_plots``)."""
    if args.format == "json":
        print_results(results, None, True, extra)
    else:
        print(text or section_text(family, results, **blocks))
        print_confusion(results)
    return save_plots(args, plot, results, what=what) if plot else 0



@dataclass(frozen=True)
class Flags(Record):
    """The flags of a family command without extras."""

    analyses: bool = switch(False, "with --format json: add the family's analyses beside "
                            "the results, as the report does (tough-mentions: the subsets "
                            "under --min-share, each subset's recall spread across systems)")


def add_arguments(parser, name: str) -> None:
    add_family_arguments(parser, name)
    add_flags(parser, Flags)


def run(args, name: str) -> int:
    """The family ``name``'s section (its analyses drawn in it; JSON: beside the results
    with --analyses)."""
    family, evaluation, results, settings = score_family(args, name)
    analyses = family.analyses(evaluation, results, settings) if family.analyses else {}
    return show_scores(args, family, results, analyses if args.analyses else None,
                       analyses=analyses)


# each command's name -> (its add_arguments(parser), its run(args))
COMMANDS = {command: (partial(add_arguments, name=name), partial(run, name=name))
            for command, name in (("tough-mentions", "tough_mentions"),)}
