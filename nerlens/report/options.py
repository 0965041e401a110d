"""The settings of a report, declared once: ``ReportOptions``, with which
``build_report`` and ``run_experiment`` check their keywords, and of which ``nerlens
report`` makes its flags (the help texts are these docs). Importing it imports no
family: a family's command reads tough-mentions' --min-share here."""
from __future__ import annotations

from dataclasses import dataclass

from nerspan.fbeta import check_beta
from nerspan.options import check_bool, check_fraction, check_int
from nerspan.records import Record, comma_list, option, switch

from nerlens.families import check_families, family_names, registered


def family_setting(name: str, value):
    """A report setting that families read (``Family.settings``: tough-mentions'
    ``min_share``), checked by every registered family that reads it."""
    for family in registered().values():
        if name in family.settings:
            value = family.settings[name](value)
    return value


@dataclass(frozen=True)
class ReportOptions(Record):
    """How a report (``build_report``) and an experiment (``run_experiment``, each of
    its datasets' reports) are made, beside their inputs."""

    bootstrap: int = option(1000, "bootstrap samples for the intervals (0 = none; default "
                            "1000)", lambda name, value: check_int(name, value, minimum=0),
                            parse=int, metavar="N")
    seed: int = option(0, "seed of the bootstrap resampling (default 0)", check_int, parse=int)
    confidence: float = option(0.95, "the level of the bootstrap intervals", check_fraction,
                               flag=None)
    baseline: str | None = option(None, "the system the others are compared with (default: "
                                  "the first)")
    families: tuple | None = option(None, "the metric families to run, comma-separated; "
                                    "default: every registered one",
                                    lambda name, value: check_families(value),
                                    parse=lambda text: check_families(comma_list(text)),
                                    metavar="NAME,...")
    min_share: float = option(0.0, "leave tough-mention subsets holding less than this share "
                              "of the gold mentions out of the recall table (the paper: "
                              "0.01); JSON keeps every number", family_setting, parse=float,
                              metavar="FRACTION")
    beta: float = option(1.0, "F-beta beside every F1 (1 adds nothing)",
                         lambda name, value: check_beta(value), flag=None)
    figures: bool = switch(True, "draw the figures", flag=None)
    progress: bool | None = option(None, "a progress bar on stderr (default: when stderr is "
                                   "a terminal)", check_bool, parse=None)

    def run_families(self) -> tuple:
        """The families to run: those given, else every registered one."""
        return family_names() if self.families is None else self.families
