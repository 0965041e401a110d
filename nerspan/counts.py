"""Counts of mentions: by type and text, a corpus summary, and the error-count table.

These are seqscore's ``count``, ``summarize`` and ``score --error-counts``
(``seqscore/scripts/seqscore.py``, ``seqscore/scoring.py``), with the same numbers and
rows in the same order. As there, the tags must be valid in their scheme unless
``repair`` names a method (``nerspan.encodings.mentions``). A mention's text is its
tokens joined by one space.

>>> tags = [["B-PER", "O", "B-LOC"], ["B-PER", "O"]]
>>> words = [["Ann", "in", "Oslo"], ["Ann", "left"]]
>>> count(tags, tokens=words)
[{'count': 2, 'type': 'PER', 'text': 'Ann'}, {'count': 1, 'type': 'LOC', 'text': 'Oslo'}]
>>> summarize(tags)["mentions"]
{'LOC': 1, 'PER': 2}
"""
from __future__ import annotations

import dataclasses
import os
from collections import Counter

import numpy as np

from .blocks import Heading, Table
from .corpus import GOLD, PRED, Corpus
from .encodings import mentions
from .errors import InputTypeError
from .layers import refuse_layers
from .reading.columns import check_gold_column, read_predictions
from .schemes import Scheme
from .spans import Spans
from .tagfiles import TAGS, TagFile
from .type_processing import TypeProcessing, label_types, process_spans


def count(source, scheme: str | Scheme = "IOB2", *, repair: str | None = None,
          column: str = GOLD, tokens=None, types: TypeProcessing | None = None,
          **file_options) -> list[dict]:
    """Every mention's type and text with how often it occurs: rows ``{"count", "type",
    "text"}``, the most frequent first, ties in order of first occurrence (seqscore's
    ``count``).

    Args:
        source: a column file (a path or ``TagFile``), several (a list of them: their
            counts added), a ``Corpus`` with tokens (its ``column``), or lists of tags
            per sentence with ``tokens``.
        scheme, repair: how the tags are read (``nerspan.encodings.mentions``).
        types: a ``nerspan.type_processing.TypeProcessing`` (seqscore's ``process``)
            applied to the mentions first.
        file_options: for paths: ``tag_column``, ``token_column``, ``comment_prefix``,
            ``encoding`` (``TagFile``).
    """
    counts = Counter()
    for found in _all_processed(source, scheme, repair, column, tokens, file_options, types):
        kinds = np.asarray(found.spans.types, dtype=object)[found.spans.type].tolist()
        counts.update(zip(kinds, mention_texts(found.corpus, found.spans)))
    return [{"count": n, "type": kind, "text": text}
            for (kind, text), n in counts.most_common()]


def count_text(rows: list[dict]) -> str:
    """``count``'s rows in seqscore's layout: count, type and text tab-separated, no
    header."""
    return "\n".join(f"{row['count']}\t{row['type']}\t{row['text']}" for row in rows)


def _all_processed(source, scheme, repair, column, tokens, file_options, types) -> list:
    """The ``Mentions`` of every source, processed by ``types``."""
    return _processed([mentions(one, scheme, repair=repair, column=column, tokens=tokens,
                                **file_options) for one in _sources(source)], types)


def _processed(found: list, types: TypeProcessing | None) -> list:
    """``Mentions`` processed by ``types``; the types it names must occur in the tags
    of one of them."""
    if types is None:
        return found
    types.check_types(set().union(*(label_types(f.corpus.labels) for f in found)))
    return [dataclasses.replace(f, spans=process_spans(f.spans, types)[0]) for f in found]


def _sources(source) -> list:
    """A list of files for several (paths or ``TagFile``), else ``[source]``."""
    several = isinstance(source, (list, tuple)) and source and all(
        isinstance(one, (str, os.PathLike, TagFile)) for one in source)
    return list(source) if several else [source]


def mention_texts(corpus: Corpus, spans: Spans) -> list[str]:
    """The text of every span (its tokens joined by one space), in order."""
    if corpus.tokens is None:
        raise InputTypeError("counting mentions by text needs the tokens: pass tokens=[[...]] "
                             "(one list per sentence), or a file with a token column")
    words = np.asarray(corpus.vocab, dtype=object)[corpus.tokens].tolist()
    return [" ".join(words[a:b]) for a, b in zip(spans.start.tolist(), spans.end.tolist())]


def summarize(source, scheme: str | Scheme = "IOB2", *, repair: str | None = None,
              column: str = GOLD, tokens=None, types: TypeProcessing | None = None,
              **file_options) -> dict:
    """Documents, sentences, tokens and mentions per type (sorted by type) and in all,
    as seqscore's ``summarize`` counts them (sources as ``count``'s; for several files,
    their sums and, under ``files``, each file's). ``documents`` only for files (the
    ``-DOCSTART-`` rows part them; None for other sources, which do not say)."""
    parts = []
    for found in _all_processed(source, scheme, repair, column, tokens, file_options, types):
        corpus, spans = found.corpus, found.spans
        parts.append({"file": found.file and found.file.path,
                      "documents": found.file.documents(corpus) if found.file else None,
                      "sentences": corpus.n_sentences, "tokens": corpus.n_tokens,
                      "mentions": Counter(dict(zip(spans.types, np.bincount(
                          spans.type, minlength=len(spans.types)).tolist())))})
    mentions_per_type = sum((part.pop("mentions") for part in parts), Counter())
    summary = {key: None if None in values else sum(values)
               for key in ("documents", "sentences", "tokens")
               for values in [[part[key] for part in parts]]}
    summary["mentions"] = {kind: n for kind, n in sorted(mentions_per_type.items()) if n}
    summary["total"] = sum(summary["mentions"].values())
    return {**summary, "files": parts} if len(parts) > 1 else summary


def summary_blocks(summary: dict, name: str) -> tuple:
    """``summarize``'s result as page blocks: what was read (``name``) and its size, then
    the mentions per type and in all."""
    return (Heading(f"{name}: {summary['documents']} document(s), {summary['sentences']} "
                    f"sentence(s), {summary['tokens']} token(s)"),
            Table(["type", "mentions"], [[kind, n] for kind, n in summary["mentions"].items()]
                  + [["total", summary["total"]]]))


def error_counts(references, predictions=None, scheme: str | Scheme = "IOB2", *,
                 repair: str | None = None, tokens=None,
                 types: TypeProcessing | None = None, **file_options) -> list[dict]:
    """seqscore's error-count table: the false positives (predicted mentions no gold
    mention equals) and false negatives (gold mentions no prediction equals) by type and
    text, rows ``{"count", "error", "type", "text"}`` with ``error`` ``"FP"`` or
    ``"FN"``, the most frequent first, ties by text (then false positives first, each
    in order of first occurrence).

    Args:
        references, predictions: two column files (paths; ``predictions`` may be a
            ``TagFile``), each read at its own tag column (``tag_column`` of
            ``file_options`` is the reference's; the prediction file's is its last, or
            its ``TagFile``'s), the prediction file with the reference's tokens; a
            ``Corpus`` with columns ``gold`` and ``pred`` (``predictions`` None); or
            lists of tags per sentence (with ``tokens``).
        scheme, repair: how both sides' tags are read (``nerspan.encodings.mentions``).

    >>> gold = [["B-LOC", "I-LOC", "O"]]
    >>> error_counts(gold, [["O", "B-LOC", "O"]], tokens=[["West", "Philly", "."]])
    [{'count': 1, 'error': 'FP', 'type': 'LOC', 'text': 'Philly'}, {'count': 1, 'error': 'FN', 'type': 'LOC', 'text': 'West Philly'}]
    """
    corpus, gold_column, pred_column = _two_columns(references, predictions, tokens,
                                                    file_options)
    gold, pred = (found.spans for found in _processed(  # one corpus: the same types
        [mentions(corpus, scheme, repair=repair, column=c) for c in (gold_column, pred_column)],
        types))
    keys = (pred.key(corpus.n_tokens), gold.key(corpus.n_tokens))
    combined = Counter()
    for error, (spans, own, other) in zip(("FP", "FN"), ((pred, keys[0], keys[1]),
                                                         (gold, keys[1], keys[0]))):
        wrong = spans.take(np.flatnonzero(~np.isin(own, other)))
        kinds = np.asarray(wrong.types, dtype=object)[wrong.type].tolist()
        combined.update((error, kind, text) for kind, text
                        in zip(kinds, mention_texts(corpus, wrong)))
    rows = sorted(combined.items(), key=lambda item: (-item[1], item[0][2]))
    return [{"count": n, "error": error, "type": kind, "text": text}
            for (error, kind, text), n in rows]


def system_error_counts(corpus: Corpus, systems, scheme: str | Scheme = "IOB2",
                        mode: str = "lenient") -> dict:
    """System -> ``error_counts`` of each of ``systems`` (columns of ``corpus``) against
    gold, its mentions read as the entity scores of ``mode`` read them (lenient:
    conlleval's repair; strict: ``discard``); gold with layers refused."""
    refuse_layers(corpus, what="error_counts / --error-counts (seqscore's table pairs one "
                  "gold column)")
    repair = "conlleval" if mode == "lenient" else "discard"
    return {name: error_counts(corpus.paired(GOLD, name), None, scheme, repair=repair)
            for name in systems}


def _two_columns(references, predictions, tokens, file_options) -> tuple[Corpus, str, str]:
    """One corpus holding both sides: ``(corpus, gold column, pred column)``."""
    if isinstance(references, (str, os.PathLike)):
        gold_file = TagFile(os.fspath(references), **file_options)
        # gold beside predictions: its last column is not taken for gold when another
        # holds tags of the same types (a token, gold, prediction file)
        check_gold_column(gold_file.path, gold_file.other_tag_columns())
        # each file's own tag column: the prediction file's last (or its TagFile's), not
        # gold's index (a CoNLL-2003 gold's column 3 is no column of a token-tag file)
        pred_file = predictions if isinstance(predictions, TagFile) else TagFile(
            os.fspath(predictions), None, gold_file.token_column, gold_file.comment_prefix,
            gold_file.encoding)
        corpus = read_predictions(gold_file.read(), pred_file.path, pred_file.column,
                                  token_column=pred_file.token_column,
                                  comment_prefix=pred_file.comment_prefix,
                                  encoding=pred_file.encoding)
        return corpus, TAGS, PRED
    if isinstance(references, Corpus):
        return references, GOLD, PRED
    return Corpus.from_tags(references, predictions, tokens=tokens), GOLD, PRED
