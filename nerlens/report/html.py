"""The report as one self-contained HTML page: inline CSS, pictures as data URIs, one
small inline script (the error-example filter; the page works without it).

Sections: notes and contents, findings, the overview (each family's part of it, e.g. the
attribute buckets' heat map), headline statistics (with intervals), paired comparisons
(``overview``), then one section per family that ran, in the report's order, made of the
blocks the family describes (``Family.section``, rendered by ``blocks``); last the error
examples, the repairs made while decoding and the provenance.
"""
from __future__ import annotations

from . import blocks, confidence, confusion, gold_audit, nesting, overview
from .page_kit import contents, escape, page, section
from .repairs import decoding_repairs
from .views import every_family, figure_systems, ran, report_view


def render(report) -> str:
    """The page: notes, contents, findings and overview first, then every table."""
    sections = page_sections(report)
    parts = [f"<h1>nerlens report</h1><p>Systems: {escape(', '.join(report.systems))}</p>",
             overview.notes(report), section(*sections[0]),
             contents([(a, t, []) for a, t, _ in sections])]
    parts += [section(anchor, title, body) for anchor, title, body in sections[1:]]
    return page("nerlens report", "".join(parts))


def page_sections(report) -> list[tuple[str, str, str]]:
    """``(anchor, title, body)`` of every section of one report's page, in page order
    (findings first; the experiment page nests them per dataset)."""
    sections = [("findings", "Findings", overview.findings(report)),
                ("overview", "Overview: where each system is weaker or stronger",
                 overview_parts(report)),
                ("summary", "Headline: the numbers to compare first",
                 overview.headline(report)),
                ("comparisons", "Paired comparisons with the reference system",
                 overview.comparisons(report))]
    shown = nesting.blocks(report)   # gold that nests: every mention, per layer and shape
    if shown:
        sections.append(("nesting", nesting.TITLE, blocks.html(shown, report)))
    sections += gold_audit.sections(report) + family_sections(report)
    sections += confidence.sections(report)   # none without scored systems
    sections.append(("confusion", "Entity confusion matrix", confusion.html(report)))
    sections.append(("examples", "Error examples", overview.examples(report)))
    sections += [("repairs", "Repairs made while decoding",
                  overview.repairs(decoding_repairs(report.results), report.info["mode"])),
                 ("provenance", "Provenance", overview.provenance(report))]
    return sections


def overview_parts(report) -> str:
    """Every registered family's part of the overview section (a family that did not run
    says so)."""
    parts = [blocks.html(family.overview(report_view(report, family)), report)
             for family in every_family() if family.overview is not None]
    return "".join(parts) or "<p class='note'>No overview: no family draws one.</p>"


def family_sections(report) -> list[tuple[str, str, str]]:
    """``(anchor, title, body)`` of each family that ran, in the report's order."""
    cap = figures_cap_note(report)
    return [(family.name, family.title,
             blocks.html(family.section(report_view(report, family)), report, cap)
             + overview.family_statistics(report, family))
            for family in ran(report) if family.section is not None]


def figures_cap_note(report) -> str:
    """Says which systems have no per-system figure (the tables cover every system), and
    which commands draw them for every system; '' when every system has them."""
    drawn = figure_systems(report.systems) if report.figures else []
    if not drawn or len(drawn) == len(report.systems):
        return ""
    commands = [f"<code>{escape(f.plot_command)}</code>" for f in every_family()
                if f.plot_command]
    told = f"Per-system figures are drawn for the first {len(drawn)} systems only " \
           f"({escape(', '.join(drawn))})"
    if commands:
        listed = ", ".join(commands[:-1]) + " and " + commands[-1] if len(commands) > 1 \
            else commands[0]
        told += f"; {listed} {'draws' if len(commands) == 1 else 'draw'} them for every system"
    return f"<p class='note'>{told}.</p>"
