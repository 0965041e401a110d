"""An experiment in the terminal: findings, entity F1 (and with ``beta`` the entity
F-beta) mean +- std per system and dataset (cut into blocks of datasets to fit ``WIDTH``
columns), the significant Wilcoxon tests."""
from __future__ import annotations

from nerspan.errors import counted
from nerspan.fbeta import fbeta_key

from nerlens.report.names import fbeta_name
from nerlens.report.text import UNDEFINED, WIDTH, fit, row_line, wrap

NO_RUN = "no run"   # the system has no run on that dataset (UNDEFINED: it has, no number)


def cell(value: dict | None) -> str:
    """``92.4+-0.3 (5)``: mean +- std in percent and the number of runs; ``NO_RUN`` for
    no value, ``UNDEFINED`` for no mean (undefined in every run)."""
    if value is None:
        return NO_RUN
    if value.get("mean") is None:
        return UNDEFINED
    text = f"{100 * value['mean']:.1f}"
    if value.get("std") is not None:
        text += f"+-{100 * value['std']:.1f}"
    return text + f" ({value['n']})"


def f1_table(experiment, statistic: str = "entity_f1") -> list[str]:
    """``statistic`` (default entity F1) per system and dataset, mean+-std over runs."""
    names = experiment.datasets
    cells = {s: [cell(experiment.aggregate_cell(d, s, statistic)) for d in names]
             for s in experiment.systems}
    widths = [max(len(fit(d, 16)), *(len(c[i]) for c in cells.values()))
              for i, d in enumerate(names)]
    name_width = max(6, min(20, max(len(s) for s in experiment.systems)))
    lines, start = [], 0
    while start < len(names):
        stop, used = start, name_width
        while stop < len(names) and (stop == start or used + 2 + widths[stop] <= WIDTH):
            used += 2 + widths[stop]
            stop += 1
        shown = [name_width] + widths[start:stop]
        lines.append(row_line(["system"] + [fit(d, 16) for d in names[start:stop]], shown))
        lines.append(row_line(["-" * w for w in shown], shown))
        lines += [row_line([fit(s, name_width)] + cells[s][start:stop], shown)
                  for s in experiment.systems]
        lines.append("")
        start = stop
    return lines[:-1]


def summary(experiment) -> str:
    info = experiment.info
    runs = sum(len(c) for by_system in experiment.runs.values() for c in by_system.values())
    lines = [wrap(f"nerlens experiment: {counted(len(experiment.datasets), 'dataset')}, "
                   f"{counted(len(experiment.systems), 'system')}, {counted(runs, 'run')} "
                   "scored; baseline "
                   f"{info['baseline']}; scheme {info['scheme']}, {info['mode']} decoding.")]
    lines += ["", "Findings:"]
    lines += [wrap(f["text"], initial_indent="- ", subsequent_indent="  ")
              for f in experiment.findings] or ["- none whose evidence holds"]
    lines += ["", "Entity F1 (%), mean+-std over runs (runs):"] + f1_table(experiment)
    if info.get("beta", 1) != 1:   # the experiment's F-beta, taken as F1 is
        key = fbeta_key(info["beta"], "entity_")
        name = fbeta_name(key)
        lines += ["", f"{name[0].upper()}{name[1:]} (%), beta {info['beta']:g}, mean+-std "
                  "over runs (runs):"] + f1_table(experiment, key)
    lines.append(wrap("std: sample standard deviation over a system's runs; every headline "
                       f"number, per subset and per bucket, is in the HTML and the JSON; "
                       f"{NO_RUN} = the system has no run on that dataset; {UNDEFINED} = "
                       "undefined in every run."))
    return "\n".join(lines)
