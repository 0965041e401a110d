"""Generated output in a JSON Lines file: one model response per sentence and line.

Each line is an object with ``"response"`` (any form of ``reading``: the raw response
string, an entity list or a dict from type to texts) and the sentence it answers:
``"tokens"`` (its words) and/or ``"text"``; optionally ``"sentence"``, the sentence's
index in a gold file (the embedded demo's ``generative_responses.jsonl`` points into
its test set that way). A response that is ``null`` is kept (a parse failure, counted);
a line that is not such an object, or holds any other key (a misspelt ``"sentense"``
would pair responses with sentences by line), is a ``FormatError`` naming the file, the
line and, where the line gives it, the sentence.
"""
from __future__ import annotations

import json
import os

from ..errors import EmptyInputError, FormatError, unknown_key

# What a line may hold: anything else (a misspelt key, another tool's field) is refused.
LINE_KEYS = ("response", "tokens", "text", "sentence")


def read_generated_jsonl(path: str | os.PathLike, encoding: str = "utf-8") -> dict:
    """``{"responses", "tokens", "texts", "sentences", "lines", "path"}``, lists in file
    order (``tokens``, ``texts``, ``sentences`` None when no line has them; a line with
    text only has its whitespace-separated words as tokens, a line with tokens only has
    them joined by spaces as its text when other lines have a text), and the file."""
    path = os.fspath(path)
    out = {"responses": [], "tokens": [], "texts": [], "sentences": [], "lines": [],
           "path": path}
    with open(path, encoding="utf-8-sig" if encoding == "utf-8" else encoding) as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                _read_line(line, number, path, out)
    if not out["lines"]:
        raise EmptyInputError("no line in the file of generated output", path=path)
    _every_line_or_none(out, "tokens", 'no "tokens" or "text" here, but other lines have '
                        "them", path)
    _every_line_or_none(out, "sentences", 'no "sentence" here, but other lines have one', path)
    if out["tokens"] is not None and any(text is not None for text in out["texts"]):
        out["texts"] = [" ".join(words) if text is None else text
                        for text, words in zip(out["texts"], out["tokens"])]
    else:
        out["texts"] = None
    return out


def _every_line_or_none(out: dict, key: str, problem: str, path: str) -> None:
    """``out[key]`` stays when every line has the value, becomes None when none has."""
    given = [value is not None for value in out[key]]
    if any(given) and not all(given):
        k = given.index(False)
        raise FormatError(problem, path=path, line=out["lines"][k], sentence=k)
    if not any(given):
        out[key] = None


def _read_line(line: str, number: int, path: str, out: dict) -> None:
    # an error names the file's line, and the gold sentence only where the line gives it:
    # its place among the lines is no sentence number when lines carry "sentence"
    given = None
    fail = lambda problem: FormatError(problem, path=path, line=number,  # noqa: E731
                                       sentence=given)
    try:
        item = json.loads(line)
    except json.JSONDecodeError as error:
        raise fail(f"not JSON: {error.msg}") from None
    if not isinstance(item, dict):
        raise fail('expected an object with a "response"')
    if _is_index(item.get("sentence")):
        given = item["sentence"]
    unknown = unknown_key(item, LINE_KEYS)
    if unknown:   # a misspelt "sentence" would pair responses with sentences by line
        raise fail(unknown)
    if "response" not in item:
        raise fail('expected an object with a "response"')
    words, text, sentence = item.get("tokens"), item.get("text"), item.get("sentence")
    if words is not None and (not isinstance(words, list)
                              or not all(isinstance(w, str) for w in words)):
        raise fail('"tokens" must be a list of strings')
    if text is not None and not isinstance(text, str):
        raise fail('"text" must be a string')
    if sentence is not None and not _is_index(sentence):
        raise fail('"sentence" must be a sentence index (an integer from 0)')
    out["responses"].append(item["response"])
    out["tokens"].append(words if words is not None or text is None else text.split())
    out["texts"].append(text)
    out["sentences"].append(sentence)
    out["lines"].append(number)


def _is_index(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


__all__ = ["read_generated_jsonl", "LINE_KEYS"]
