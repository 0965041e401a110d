"""The text conlleval.pl prints, number for number, of an entity result dict
(``Result.to_dict()`` of ``nerspan.score``, ``nerspan.streaming.score_in_blocks``'s with
its tokens and accuracy): what ``nerlens score`` prints, and what a user of the API
prints to compare with conlleval.pl.

>>> import nerspan
>>> result = nerspan.score([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O"]])
>>> print(conlleval_text(result.to_dict()))
2 phrases; found: 1 phrases; correct: 1.
precision: 100.00%; recall:  50.00%; FB1:  66.67
              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  0
              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1
"""
from __future__ import annotations

from .fbeta import fbeta_key


def conlleval_text(result: dict) -> str:
    """conlleval.pl's lines of ``result`` (scored with a beta other than 1, ``FB<beta>``
    after ``FB1``); scored predictions kept at a threshold and span tables have no tags,
    so no tokens and no accuracy; gold with layers: each layer's counts and scores after
    the union's (a layer's precision counts every prediction: read its recall); with
    ``error_counts``, seqscore's table (count, error, type, text) after."""
    options = result.get("options", {})
    threshold, beta = options.get("threshold"), options.get("beta", 1.0)
    head = (f"processed {result['tokens']} tokens with " if "tokens" in result else
            "" if threshold is None else f"kept the mentions of confidence >= {threshold:g}: ")
    lines = [f"{head}{result['gold']} phrases; found: {result['predicted']} phrases; "
             f"correct: {result['correct']}."]
    if result.get("tokens", True):   # conlleval prints no scores of 0 tokens
        accuracy = f"accuracy: {100 * result['accuracy']:6.2f}%; " if "tokens" in result else ""
        lines.append(accuracy + scores_line(result, beta))
    lines += type_lines(result, beta) + [
        f"layer {k}: {row['gold']} phrases; correct: {row['correct']}; {scores_line(row, beta)}"
        for k, row in result.get("layers", {}).items()]
    if "error_counts" in result:
        lines += ["count\terror\ttype\ttext"] + [
            f"{row['count']}\t{row['error']}\t{row['type']}\t{row['text']}"
            for row in result["error_counts"]]
    return "\n".join(lines)


def strings_text(result: dict) -> str:
    """conlleval's lines of a result of generated output matched as strings: strings,
    not tokens or phrases."""
    options = result["options"]
    found = f"; gold strings found: {result['found']}" if options["word_overlap"] else ""
    return "\n".join([f"scored as strings: {result['gold']} gold strings; found: "
                      f"{result['predicted']} strings; correct: {result['correct']}{found}.",
                      scores_line(result, options.get("beta", 1.0))]
                     + type_lines(result, options.get("beta", 1.0)))


def scores_line(row: dict, beta: float = 1.0) -> str:
    """conlleval's ``precision: ..%; recall: ..%; FB1: ..`` of a row (``FB<beta>`` after,
    a beta other than 1)."""
    key = fbeta_key(beta)
    fb = f"; F{key[1:].upper()}: {100 * row[key]:6.2f}" if beta != 1 else ""
    return (f"precision: {100 * row['precision']:6.2f}%; recall: {100 * row['recall']:6.2f}%; "
            f"FB1: {100 * row['f1']:6.2f}{fb}")


def type_lines(result: dict, beta: float = 1.0) -> list[str]:
    """conlleval's line per type, sorted by type."""
    return [f"{name:>17}: {scores_line(row, beta)}  {row['predicted']}"
            for name, row in sorted(result["per_type"].items())]
