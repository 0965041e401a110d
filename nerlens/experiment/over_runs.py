"""The numbers of an experiment over runs and datasets, from its per-dataset reports.

- ``aggregate``: every headline number, mean +- sample std over each system's runs;
- ``wilcoxon_tests``: Wilcoxon between every two systems on each ``headline`` number,
  paired over runs x datasets, with Holm's correction over the pairs of systems for one
  statistic (the tests are ``nerspan.significance``'s);
- the dial's numbers (``DIAL``: average precision, METHODS §8) of the runs given with a
  confidence per mention, from each report's confidence section, folded and tested the
  same way (``run_value``);
- what the families add (``parts``: their ``ExperimentPart``s, e.g. TMR's recall per
  subset over runs, the attribute-wise and model-wise views of the attribute buckets),
  each reading the experiment through an ``experiment_view``.
"""
from __future__ import annotations

from itertools import combinations

from nerspan.family import ExperimentView
from nerspan.fbeta import fbeta_key
from nerspan.significance import (defined_pairs, holm, mean_difference, mean_std,
                                  result_or_reason, wilcoxon)

from nerlens.report.names import fbeta_name, pair_key
from nerlens.report.views import every_family

# (statistic key, header): the entity scores, first of the experiment's headline numbers
ENTITY = (("entity_f1", "entity F1"), ("entity_precision", "precision"),
          ("entity_recall", "recall"))
# (statistic key, header): the numbers of a scored run's dial (the report's confidence
# section), last of the headline numbers; all higher is better
DIAL = (("average_precision", "average precision"),)
DIAL_KEYS = tuple(key for key, _ in DIAL)


def headline(beta: float = 1.0) -> tuple:
    """``(statistic key, header)`` of the headline numbers of the experiment tables (those
    computed are shown): the entity scores (with an experiment's ``beta`` other than 1,
    the entity F-beta after F1: ``entity_f2``, "entity F2"), then each family's
    ``headline``."""
    fbeta = fbeta_key(beta, "entity_")
    entity = ENTITY[:1] + (((fbeta, fbeta_name(fbeta)),) if beta != 1 else ()) + ENTITY[1:]
    return entity + tuple((family.key(h.key), h.title) for family in every_family()
                          for h in family.headline) + DIAL


def run_value(report, column: str, stat: str):
    """One run's value of a statistic: its estimate in the dataset's report, or, for a
    ``DIAL`` statistic, its confidence section's (None for a run without scores)."""
    if stat in DIAL_KEYS:
        return (report.confidence.get(column) or {}).get(stat)
    return report.estimates[column].get(stat)


def dial_higher(reports: dict) -> dict:
    """The ``DIAL`` statistics (higher is better) when some run of some dataset was
    scored with a confidence per mention; else none."""
    return dict.fromkeys(DIAL_KEYS, True) if any(r.confidence for r in reports.values()) \
        else {}


def family_parts() -> list[tuple]:
    """``(family, its ExperimentPart)`` of every registered family that has one."""
    return [(family, family.experiment) for family in every_family()
            if family.experiment is not None]


def experiment_view(experiment, family) -> ExperimentView:
    """The experiment as ``family`` sees it: the results of the datasets where it ran."""
    results = {name: {c: r.results[c][family.name] for cs in experiment.runs[name].values()
                      for c in cs}
               for name, r in experiment.reports.items()
               if family.name in r.info.get("families", [])}
    keys = family.experiment.keys if family.experiment else ()
    return ExperimentView(family.name, tuple(experiment.datasets), tuple(experiment.systems),
                          experiment.runs, results,
                          {k: experiment.views[k] for k in keys if k in experiment.views},
                          frozenset(experiment.figures), experiment.info)


def aggregate(reports: dict, runs: dict) -> dict:
    """Dataset -> system -> statistic -> ``{mean, std, n}`` over the system's runs (the
    ``DIAL`` statistics for a system with a scored run there)."""
    return {name: {system: {stat: mean_std(run_value(r, c, stat) for c in runs[name][system])
                            for stat in [*r.higher_is_better, *(
                                DIAL_KEYS if any(c in r.confidence for c in runs[name][system])
                                else ())]}
                   for system in runs[name]}
            for name, r in reports.items()}


def wilcoxon_tests(reports: dict, runs: dict, systems: list, higher: dict,
                   alpha: float, beta: float = 1.0) -> dict:
    """"A vs B" -> statistic -> Wilcoxon over runs x datasets, with Holm's correction over
    the pairs of systems (one family per statistic); ``difference`` = mean of A - B. The
    statistics are the ``headline`` numbers (with ``beta``: the entity F-beta too)."""
    statistics = [key for key, _ in headline(beta) if key in higher]
    out, pvalues = {}, {}
    for a, b in combinations(systems, 2):
        pair = pair_key(a, b)
        out[pair] = {}
        for stat in statistics:
            xs, ys = [], []
            for name, r in reports.items():
                if a in runs[name] and b in runs[name]:
                    for ca, cb in zip(runs[name][a], runs[name][b]):
                        xs.append(run_value(r, ca, stat))
                        ys.append(run_value(r, cb, stat))
            test = result_or_reason(wilcoxon, xs, ys)
            # an undefined run's pair is left out
            test["n_pairs"] = len(defined_pairs(xs, ys))
            test["difference"] = mean_difference(xs, ys)
            out[pair][stat] = test
            pvalues[(pair, stat)] = test.get("pvalue")
    for stat in statistics:   # one family of tests per statistic: all pairs of systems
        adjusted = holm({pair: p for (pair, s), p in pvalues.items() if s == stat})
        for pair, p in adjusted.items():
            out[pair][stat]["pvalue_holm"] = p
            out[pair][stat]["significant"] = p is not None and p < alpha
    return out
