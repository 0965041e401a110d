"""``nerlens buckets``: bucket-wise F1 by entity and sentence attributes (Fu et al., 2020)."""
from __future__ import annotations

from dataclasses import dataclass

from attribute_buckets import analysis, plots
from attribute_buckets.report import bucket_results
from nerlens.families import get_family
from nerlens.report import blocks
from nerspan.blocks import Heading, Note, Table
from nerspan.errors import counted
from nerspan.family import ExperimentView
from nerspan.records import Record, switch

from .common import UsageError, print_json
from .flags import Shared, add_flags, record_of, whole_number
from .family import (add_family_arguments, manifest_datasets, print_scores, save_plots,
                     score_family, score_systems, section_text)
from .inputs import load_training
from .manifest import read_manifest


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags."""

    runs: bool = switch(False, "the PRED files are repeated runs of one system: Friedman test "
                        "across buckets over the runs")


def add_arguments(parser) -> None:
    add_family_arguments(parser, "attribute_buckets", train_required=False,
                         train_note="with --manifest each dataset names its own",
                         parse={"bootstrap": whole_number, "seed": whole_number},
                         skip=("compat",))   # --compat: every command's (generated_files)
    add_flags(parser, Shared, ("plot", "plot_format", "manifest", "baseline"),
              notes={"plot": "(bar chart per attribute, heat map, comparison of the first two "
                     "systems)", "manifest": "(the same systems in each): zeta/rho per "
                     "dataset, Friedman and Wilcoxon over datasets, radar chart and heat map",
                     "baseline": "with --manifest"})
    add_flags(parser, Flags)


def diagnoses(results: dict) -> tuple:
    """The paper's views beyond the section's self-diagnosis (page blocks): model-wise,
    attribute-wise, comparative."""
    view = analysis.summary(results)
    attributes = list(next(iter(results.values()))["buckets"])
    attribute_view = view["attribute_wise"]
    out = (Heading("Model-wise (Spearman of F1 with bucket order / std of bucket F1 %)"),
           Table(["system"] + attributes, [[system] + [
               _pair(view["model_wise"][system][a]) for a in attributes] for system in results]),
           Heading("Attribute-wise (zeta = mean value over gold units; rho = mean |Spearman|)"),
           Table(["", *attributes],
                 [["zeta"] + [analysis.zeta_text(attribute_view[a]["zeta"]) for a in attributes],
                  ["rho"] + [_rho(attribute_view[a]["rho"]) for a in attributes]]))
    first, *others = results
    for b in others:  # keyed "first vs b" (never split: a name may hold " vs ")
        per_attribute = view["comparative_diagnosis"][f"{first} vs {b}"]
        out += (Heading(f"Comparative diagnosis, {first} minus {b} (F1 points)"),
                Table(["attribute", "largest", "at", "smallest", "at"],
                      [[attr, f"{100 * d['exceeds_by']:+.1f}", d["most_exceeds"],
                        f"{100 * d['trails_by']:+.1f}", d["most_trails"]]
                       for attr, d in per_attribute.items() if "most_exceeds" in d]))
    return out


def _pair(entry: dict) -> str:
    std = None if entry["std"] is None else 100 * entry["std"]
    return f"{_shown(entry['spearman'], '+.2f')}/{_shown(std, '.1f')}"


def _shown(value, spec: str = ".4g") -> str:
    """A number as the text views write it (``spec``; a rho as the page: ``.2f``), - for
    undefined."""
    return "-" if value is None else format(value, spec)


def _rho(value) -> str:
    return _shown(value, ".2f")


# why --train is needed
LOOKED_UP = "the attributes look up the training set"


def run(args) -> int:
    if args.manifest:
        family = get_family("attribute_buckets")
        return _run_datasets(args, family, record_of(args, family.options))
    dicts = score_family(args, "attribute_buckets", why=LOOKED_UP)[2]
    if args.runs and len(dicts) < 2:
        raise UsageError("--runs needs at least two PRED files (runs of one system)")
    significance = analysis.significance_datasets(
        {name: {"system": d} for name, d in dicts.items()}) if args.runs else None
    if args.format == "json" and significance is not None:
        print_json({"runs": dicts, "significance": significance})
    else:
        more = diagnoses(dicts) + (significance_blocks(significance) if args.runs else ())
        print_scores(args, dicts, section_text(get_family("attribute_buckets"), dicts, tail=more))
    return save_plots(args, plots.save_all, dicts)


def _run_datasets(args, family, options) -> int:
    """Every dataset of the manifest read as ``nerlens report --manifest`` reads it: a
    system's runs are its runs (``Dataset.runs``), averaged in the views and paired in the
    tests, not systems of their own."""
    datasets = manifest_datasets(args, read_manifest, "--runs", args.runs)
    systems = list(datasets[0].runs)
    results, runs = {}, {}
    for data in datasets:
        if list(data.runs) != systems:
            raise UsageError(f"{args.manifest}: dataset {data.name!r} has systems "
                             f"{list(data.runs)}, the first one {systems}: give every "
                             "dataset the same systems")
        train = load_training(args, data.train, LOOKED_UP)
        results[data.name] = score_systems(args, family, data.corpus, data.systems, train,
                                           options)[1]
        runs[data.name] = data.runs
    baseline = args.baseline or systems[0]
    if baseline not in systems:
        raise UsageError(f"--baseline {baseline!r} is not one of the systems {systems}")
    # the views and charts read each system's bucket F1 averaged over its runs
    averaged = bucket_results(ExperimentView(family.name, tuple(results), tuple(systems),
                                             runs, results))
    out = {"datasets": results, "runs": runs,
           "attribute_wise": analysis.attribute_wise_datasets(averaged),
           "significance": analysis.significance_runs(results, runs, baseline)}
    if args.format == "json":
        print_json(out)
    else:
        print(datasets_text(out, systems, averaged))
    return save_plots(args, plots.save_datasets, averaged, baseline=baseline)


def datasets_text(out: dict, systems: list, averaged: dict) -> str:
    """Holistic F1 table (datasets x systems, mean over runs), zeta/rho per dataset, the
    tests."""
    several = any(len(c) > 1 for by_system in out["runs"].values() for c in by_system.values())
    parts = (Heading(f"Overall F1 (%{', mean over runs' if several else ''})"),
             Table(["dataset"] + systems, [[name] + [r[s]["f1"] for s in systems]
                                           for name, r in averaged.items()]))
    attrs = list(next(iter(out["attribute_wise"].values())))
    for key, title, shown in (("zeta", "mean attribute value over gold units", analysis.zeta_text),
                              ("rho", "mean |Spearman| over systems", _rho)):
        parts += (Heading(f"Attribute-wise {key} ({title})"),
                  Table(["dataset"] + attrs, [[name] + [shown(view[a][key]) for a in attrs]
                                              for name, view in out["attribute_wise"].items()]))
    return blocks.text(parts + significance_blocks(out["significance"]))


def significance_blocks(significance: dict) -> tuple:
    """Friedman (per system and attribute) and Wilcoxon (per pair) p-values as tables,
    each with its Holm-adjusted p-value (``analysis.significance_runs``)."""
    friedman = significance["friedman"]
    attrs = list(next(iter(friedman.values())))
    n = significance["n_datasets"]
    over = (f"the runs of {counted(n, 'dataset')}"
            if max(significance.get("n_runs", {}).values(), default=n) > n
            else counted(n, "dataset/run", "datasets/runs"))
    out = (Note(f"Friedman test across buckets over {over} (p / Holm-adjusted p over the "
                "table's tests; - = not computable):"),
           Table(["system"] + attrs, [[system] + [_tested(friedman[system][a]) for a in attrs]
                                      for system in friedman]))
    if significance["wilcoxon"]:
        keys = ["overall"] + attrs
        out += (Note("Wilcoxon signed-rank test, paired F1 (overall) and bucket F1 (per "
                     f"attribute) over {over}, run k with run k (p / Holm-adjusted p over "
                     "the pairs, per column):"),
                Table(["pair"] + keys, [[pair] + [_tested(entry[k]) for k in keys]
                                        for pair, entry in significance["wilcoxon"].items()]))
    return out


def _tested(test: dict) -> str:
    """A test's p-value and its Holm-adjusted one (``p/holm``), or - when not computable."""
    if test.get("pvalue") is None:
        return "-"
    return f"{_shown(test['pvalue'])}/{_shown(test.get('pvalue_holm'))}"
