"""``nerlens diff GOLD_A GOLD_B``: the tags that differ and every mention by kind of change
(``nerspan.audit.diff``)."""
from __future__ import annotations

from nerspan.audit import DIFF_KINDS, diff
from nerspan.errors import counted

from .inputs import add_two_arguments, run_two
from nerlens.report import blocks
from nerspan.blocks import Heading, Table

# changes listed in the text view (the JSON lists every one)
LISTED = 20


def add_arguments(parser) -> None:
    add_two_arguments(parser)


def diff_text(result: dict) -> str:
    """The diff in the terminal: the counts, the kinds by side and per type, the retyped
    pairs and the first ``LISTED`` changes."""
    names = result["names"]
    lines = [f"A = {names['a']}", f"B = {names['b']}",
             f"{counted(result['changed_tags'], 'changed tag')} in "
             f"{counted(len(result['changed_tag_sentences']), 'sentence')} (of "
             f"{counted(result['tokens'], 'token')}, "
             f"{counted(result['sentences'], 'sentence')}); mentions: A "
             f"{result['mentions']['a']}, B {result['mentions']['b']}; changed: A "
             f"{result['changed_mentions']['a']}, B {result['changed_mentions']['b']}", ""]
    rows = [[k.name, result["kinds"][k.name]["a"] if "a" in k.sides else None,
             result["kinds"][k.name]["b"] if "b" in k.sides else None,
             len(result["kind_sentences"][k.name])] for k in DIFF_KINDS]
    lines += [blocks.text([Table(["kind", "A", "B", "sentences"], rows)]), ""]
    changed = [k.name for k in DIFF_KINDS if k.name != "identical"]
    per_type = [[t] + [f"{row[k]['a']}/{row[k]['b']}" for k in changed]
                for t, row in result["per_type"].items()]
    if per_type:
        lines += [blocks.text([Heading("Per type (A/B mentions of each kind):"),
                               Table(["type"] + changed, per_type)]), ""]
    pairs = [f"{a} -> {b} {n}" for a, row in result["retyped_pairs"].items()
             for b, n in row.items()]
    if pairs:
        lines += ["Retyped: " + ", ".join(pairs), ""]
    listed = result["changes"][:LISTED]
    if listed:
        lines.append("sentence  side  kind              type    tokens  text")
        lines += [f"{c['sentence']:>8}  {c['side'].upper():4s}  {c['kind']:16s}  "
                  f"{c['type']:6s}  {c['start']:>3}-{c['end']:<3}  {c['text'] or ''}"
                  for c in listed]
        more = len(result["changes"]) - len(listed)
        if more:
            lines.append(f"({more} more changes in --format json)")
    return "\n".join(lines).rstrip()


def run(args) -> int:
    return run_two(args, diff, diff_text)
