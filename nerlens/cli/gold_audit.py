"""The gold audit on the command line (``nerspan.audit``): ``diff GOLD_A GOLD_B`` (the tags
that differ and every mention by kind of change), ``agreement A B`` (mention F1 with A as
the reference and Cohen's kappa over the tokens' tags, overall and per type: its own
command, not a flag of ``diff``, as the API has them apart and their results are
different documents) and ``suspects GOLD PRED... [--train FILE]`` (the gold mentions,
and the mentions gold lacks, that look wrong, ranked with their evidence). ``COMMANDS``:
each one's flags and run."""
from __future__ import annotations

from dataclasses import dataclass

from nerspan import Evaluation
from nerspan.audit import (DIFF_KINDS, EVIDENCE, agreement, diff, evidence_text, in_sentence,
                           suspects)
from nerspan.blocks import Heading, Note, Table
from nerspan.errors import counted
from nerspan.records import Record, option

from nerlens.report import blocks

from .common import UsageError, show_result
from .flags import add_flags, at_least_one, whole_number
from .inputs import (add_input_arguments, add_train_arguments, add_two_arguments,
                     load_training, run_two, sentence_documents)
from .scored_files import add_scored_argument, load_with_scored

LISTED = 20   # changes listed in diff's text view (the JSON lists every one)


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


def agreement_text(result: dict) -> str:
    """The agreement in the terminal: the overall numbers, then one row per type."""
    names, mentions = result["names"], result["mentions"]
    rows = [[t, row["precision"], row["recall"], row["f1"], row["kappa"]]
            for t, row in sorted(result["per_type"].items())]
    per_type = [Table(["type", "precision", "recall", "F1", "kappa"], rows)] if rows else []
    return "\n".join([
        f"A = {names['a']} (the reference)", f"B = {names['b']}",
        f"mentions: A {mentions['a']}, B {mentions['b']}, identical {mentions['identical']}",
        blocks.text([Table(["", "precision", "recall", "F1", "kappa", "observed", "chance"],
                           [["all", result["precision"], result["recall"], result["f1"],
                             result["kappa"], result["observed_agreement"],
                             result["chance_agreement"]]])]), "",
        blocks.text(per_type + [Note(
            "Percent (kappa x 100 too). F1 of mentions (B against A; symmetric); Cohen's "
            "kappa over every token's tag (per type: inside a mention of that type or not); "
            "- = undefined.")])])


def suspects_text(result: dict, corpus) -> str:
    """The ranked suspects, each in its sentence with its evidence."""
    listed = len(result["suspects"])
    lines = [f"{counted(result['candidates'], 'candidate')} ({result['gold_mentions']} gold "
             f"mentions, {result['missing_mentions']} missing ones that systems predict), "
             f"{result['scored']} with evidence" + (f"; the first {listed}:" if listed else ".")]
    for row in result["suspects"]:
        words = corpus.sentence_tokens(row["sentence"])
        lines.append(f"{row['rank']:4d}. {row['score']:.2f} {row['kind']:7s} {row['type']:6s} "
                     f"sentence {row['sentence']}: "
                     f"{in_sentence(words, row['start'], row['end'])}")
        lines.append(f"      {evidence_text(row)}")
    return "\n".join(lines)


def evidence_list(text: str) -> tuple:
    """--evidence: comma-separated parts of ``EVIDENCE``."""
    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [part for part in parts if part not in EVIDENCE]
    if unknown or not parts:
        raise UsageError(f"--evidence: parts among {', '.join(EVIDENCE)}, comma-separated; "
                         f"got {text!r}")
    return parts


@dataclass(frozen=True)
class Flags(Record):
    """The command's own flags: ``nerspan.audit.suspects``' options."""

    min_systems: int = option(2, "systems that must predict a span gold lacks for it to be a "
                              "candidate (default 2; at most the number of systems)",
                              parse=at_least_one, metavar="N")
    listed: int = option(100, "suspects listed (default 100; those with a score above 0)",
                         parse=whole_number, metavar="N")
    evidence: str = option(",".join(EVIDENCE), "the parts of the evidence the score sums: "
                           f"{', '.join(EVIDENCE)} (default: all)", metavar="PART,...")


def add_suspects_arguments(parser) -> None:
    add_input_arguments(parser)
    add_scored_argument(parser, "its vote weighs its confidence, so confident "
                        "disagreements with gold rank first")
    add_train_arguments(parser, required=False,
                        note="(its labels of the same texts are evidence too)")
    add_flags(parser, Flags)


def run_suspects(args) -> int:
    evidence = evidence_list(args.evidence)
    corpus, systems, scored = load_with_scored(args)
    if corpus.tokens is None:
        raise UsageError(f"{args.gold}: no token column (the suspects are shown in their "
                         "sentences)")
    train = load_training(args) if args.train else None
    context = Evaluation(corpus, args.scheme, args.mode, train)
    spans = {name: context.spans(name) for name in systems}
    # a scored system: its every mention, each vote weighing the mention's confidence
    spans.update({name: mentions.flat_spans(corpus.offsets) for name, mentions in scored.items()})
    found = suspects(context.gold, spans, corpus=corpus, train=train,
                     documents=sentence_documents(args, corpus),
                     confidences={name: m.confidence for name, m in scored.items()},
                     min_systems=args.min_systems, listed=args.listed, evidence=evidence)
    return show_result(args, found.to_dict(), lambda result: suspects_text(result, corpus))


# each command's name -> (its add_arguments(parser), its run(args))
COMMANDS = {"diff": (add_two_arguments, lambda args: run_two(args, diff, diff_text)),
            "agreement": (add_two_arguments, lambda args: run_two(args, agreement,
                                                                   agreement_text)),
            "suspects": (add_suspects_arguments, run_suspects)}
