"""``nerlens score``: entity-level P/R/F1 as conlleval.pl prints it."""
from __future__ import annotations

import sys

from nerspan.errors import counted
from nerspan.spans import repair_note
from nerspan.streaming import score_in_blocks

from nerlens.demo import demo_systems

from .common import print_json
from .inputs import add_input_arguments, load_systems, refuse_files_with_demo

NAME = "score"
HELP = "entity-level precision, recall, F1 (conlleval-style)"


def add_arguments(parser) -> None:
    add_input_arguments(parser)
    parser.add_argument("--demo", action="store_true",
                        help="score the embedded WNUT-17 demo (spaCy's output)")


def compute(corpus, systems, scheme="IOB2", mode="lenient") -> dict:
    """Scores of every system column: name -> json dict (plus token accuracy), scored in
    blocks of whole sentences by the library (``nerspan.streaming.score_in_blocks``)."""
    return score_in_blocks(corpus, systems, scheme, mode)


def conlleval_report(result: dict) -> str:
    """The text conlleval.pl prints, number for number."""
    lines = [
        f"processed {result['tokens']} tokens with {result['gold']} phrases; "
        f"found: {result['predicted']} phrases; correct: {result['correct']}.",
    ]
    if result["tokens"]:
        lines.append(
            f"accuracy: {100 * result['accuracy']:6.2f}%; precision: {100 * result['precision']:6.2f}%; "
            f"recall: {100 * result['recall']:6.2f}%; FB1: {100 * result['f1']:6.2f}")
    for name, row in sorted(result["per_type"].items()):
        lines.append(
            f"{name:>17}: precision: {100 * row['precision']:6.2f}%; "
            f"recall: {100 * row['recall']:6.2f}%; FB1: {100 * row['f1']:6.2f}  {row['predicted']}")
    return "\n".join(lines)


def run(args) -> int:
    if args.demo:
        refuse_files_with_demo(args)  # before the demo's files take their place
        args.gold = str(next(iter(demo_systems().values())))
        args.predictions = []
    corpus, systems = load_systems(args, keep_tokens=False)  # no token is shown
    results = compute(corpus, systems, args.scheme, args.mode)
    if args.format == "json":
        print_json(results[systems[0]] if len(systems) == 1 else results)
        return 0
    for name in systems:
        if len(systems) > 1:
            print(f"== {name}")
        print(conlleval_report(results[name]))
        repairs = results[name].get("repairs")
        if repairs:
            for column, r in repairs.items():
                if r["invalid_transitions"] or r["outside_scheme"] or r.get("discarded_chunks"):
                    print(repair_note(column, r, args.scheme), file=sys.stderr)
                if r.get("snapped"):
                    print(f"note: {counted(r['snapped'], 'span')} of {column} widened to "
                          "token boundaries (--snap)", file=sys.stderr)
    return 0
