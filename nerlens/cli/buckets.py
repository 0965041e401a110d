"""``nerlens buckets``: bucket-wise F1 by entity and sentence attributes (Fu et al., 2020)."""
from __future__ import annotations

from dataclasses import dataclass

from attribute_buckets import FAMILY, analysis, plots
from attribute_buckets.report import (datasets_blocks, diagnosis_blocks, over_datasets,
                                      significance_blocks)
from nerlens.experiment.runs import naming
from nerlens.report.blocks import text
from nerlens.report.options import ReportOptions
from nerspan.records import Record, switch

from .common import UsageError, print_json, show_result
from .flags import Shared, add_flags, record_of
from .family import (add_family_arguments, manifest_flag_datasets, save_plots,
                     score_datasets, score_family, show_scores)


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    runs: bool = switch(False, "the PRED files are repeated runs of one system: Friedman test "
                        "across buckets over the runs")


def add_arguments(parser) -> None:
    add_family_arguments(parser, "attribute_buckets", train_required=False,
                         train_note="(with --manifest each dataset names its own)",
                         skip=("compat",))   # --compat: every command's (generated_files)
    add_flags(parser, Shared, ("plot", "plot_format", "manifest"),
              notes={"plot": "(bar chart per attribute, heat map, comparison of the first two "
                     "systems)", "manifest": "(the same systems in each): zeta/rho per "
                     "dataset, Friedman and Wilcoxon over datasets, radar chart and heat map"})
    add_flags(parser, ReportOptions, ("baseline",), notes={"baseline": "with --manifest"})
    add_flags(parser, Flags)


# why --train is needed
LOOKED_UP = "the attributes look up the training set"


def run(args) -> int:
    if args.manifest:
        return _run_datasets(args)
    dicts = score_family(args, FAMILY.name, why=LOOKED_UP)[2]
    if args.runs and len(dicts) < 2:
        raise UsageError("--runs needs at least two PRED files (runs of one system)")
    significance = analysis.significance_datasets(
        {name: {"system": d} for name, d in dicts.items()}) if args.runs else None
    if args.format == "json" and args.runs:   # the runs beside their tests
        print_json({"runs": dicts, "significance": significance})
        return save_plots(args, plots.save_all, dicts)
    return show_scores(args, FAMILY, dicts, plot=plots.save_all, tail=diagnosis_blocks(
        dicts) + (significance_blocks(significance) if args.runs else ()))


def _run_datasets(args) -> int:
    """Every dataset of the manifest read as ``nerlens report --manifest`` reads it: a
    system's runs are its runs (``Dataset.runs``), averaged in the views and paired in the
    tests, not systems of their own. The options, the systems and --baseline are checked
    before any dataset is scored."""
    options = record_of(args, FAMILY.options)
    datasets = manifest_flag_datasets(args, "--runs", args.runs)
    runs = {data.name: data.runs for data in datasets}
    with naming(args.manifest):   # its errors name the manifest
        baseline = analysis.checked_baseline(runs, args.baseline)
    scored = score_datasets(args, FAMILY, datasets, LOOKED_UP, options)
    # the views and charts read each system's bucket F1 averaged over its runs
    out, averaged = over_datasets({name: results for name, (_, results) in scored.items()},
                                  runs, baseline)
    show_result(args, out, lambda out: text(datasets_blocks(out, averaged)))
    return save_plots(args, plots.save_datasets, averaged, baseline=baseline)
