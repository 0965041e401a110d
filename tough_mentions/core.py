"""``score``: recall on tough mentions, and the result object."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from operator import itemgetter

import numpy as np

from nerspan import PRED, Corpus, Evaluation, InputOptions
from nerspan.evaluation import resolve
from nerspan.layers import layer_columns
from nerspan.migration import migrated
from nerspan.reading.training import TRAIN_FORMS
from nerspan.records import Record, switch
from nerspan.schemes import get_scheme
from nerspan.scores import entity_scores, match
from nerspan.spans import LabelTable, column_spans, repairs_dict
from nerspan.train_index import mention_texts
from nerspan.threshold_form import stating_threshold
from nerspan.result import Result, entity_row, undefined_keys
from nerspan.bootstrap import (Statistic, prf_f1_statistic, ratio_or_zero_statistic,
                               ratio_statistic)

from .subsets import SUBSET_NAMES, SUBSETS, MentionSubsets, classify

# Every subset key, "all" first (the gold mentions as a whole).
ALL_SUBSETS = ("all",) + SUBSETS
# How listed mentions are ordered (``return_mentions``): the keys of their rows.
LISTING = ("sentence", "start", "end", "type", "text", "hit")
# The top-level keys of ``to_dict()`` that hold a number.
HEADLINE = ("precision", "recall", "f1") + tuple(f"recall_{s}" for s in SUBSETS)


@dataclass(frozen=True)
class ToughMentionsOptions(Record):
    """tough_mentions' own options (``score``; the command line's flags and the evaluate
    module's features are made of these fields)."""

    case_sensitive: bool = switch(
        True, "compare mention texts as they are (default) or lowercased; the same "
        "normalisation applies to type confusability in the test set.")
    return_mentions: bool = switch(
        False, "also list the gold mentions of each subset with their hit (mentions).")

    describes = "tough_mentions"


@dataclass(frozen=True)
class ToughMentionsResult(Result):
    """Recall of one system on the tough-mention subsets, and the data composition.

    Keeps, per gold mention, its sentence, type, subset kind and whether it was predicted
    exactly (``hit``), and per predicted mention its sentence and correctness; every
    number of ``to_dict()`` is computed from these arrays, and ``statistics()`` turns
    them into per-sentence counts for the bootstrap.
    """

    subsets: MentionSubsets
    hit: np.ndarray                # bool per gold mention: predicted exactly
    pred_sentence: np.ndarray      # sentence of every predicted mention
    pred_correct: np.ndarray       # bool per predicted mention: identical to a gold one
    n_sentences: int
    precision: float
    recall: float
    f1: float
    options: dict = field(default_factory=dict)
    repairs: dict = field(default_factory=dict)
    mentions: dict | None = None   # with return_mentions: subset -> mention rows
    # type id (of ``subsets.gold.types``) of every predicted mention, for per-type precision
    pred_type: np.ndarray | None = field(default=None, repr=False, compare=False)
    # generated output's record of what reading did (``nerspan.generative``), or None:
    # its entities that found no span are wrong predictions of their type, in the
    # per-type and per-sentence predicted mentions as in the overall precision
    generated: object = field(default=None, repr=False, compare=False)

    # -- counts --------------------------------------------------------------------------
    @property
    def types(self) -> tuple:
        """The entity types of the gold mentions, sorted."""
        gold = self.subsets.gold
        present = np.flatnonzero(np.bincount(gold.type, minlength=len(gold.types)))
        return tuple(gold.types[i] for i in present)

    def _by_type(self, mask: np.ndarray) -> np.ndarray:
        gold = self.subsets.gold
        return np.bincount(gold.type[mask], minlength=len(gold.types))

    # -- output --------------------------------------------------------------------------
    def plain_dict(self) -> dict:
        """The documented keys: overall P/R/F1, recall per subset, counts, per type,
        composition; ``hits``, ``undefined`` (which of precision and recall, nerspan's
        entity scores, took ``zero_division=0``), ``options``, ``repairs`` (and
        ``mentions``) besides. A recall over an empty subset is None (``counts_dict``).
        """
        masks = self.subsets.masks()
        gold = self.subsets.gold
        predicted, correct = self._predicted_by_type()
        counts = SubsetCounts(gold.types, {name: self._by_type(mask)
                                           for name, mask in masks.items()},
                              {name: self._by_type(mask & self.hit)
                               for name, mask in masks.items()}, predicted, correct)
        zero_division = ((["precision"] if not len(self.pred_sentence) else [])
                         + (["recall"] if not len(self.hit) else []))
        return counts_dict((self.precision, self.recall, self.f1), counts, zero_division,
                           self.options, self.repairs, self.mentions)

    def undefined(self) -> list:
        """The top-level keys whose value took ``zero_division`` (precision, recall:
        nerspan's entity scores) or is None (a recall over an empty subset)."""
        return self.to_dict()["undefined"]

    def _predicted_by_type(self) -> tuple:
        """Predicted and correct mentions per type id, or (None, None) without
        ``pred_type``."""
        if self.pred_type is None:
            return None, None
        types = self.subsets.gold.types
        ungrounded = self.generated.ungrounded_by_type() if self.generated is not None \
            else {}
        return (np.bincount(self.pred_type, minlength=len(types))
                + np.array([ungrounded.get(name, 0) for name in types], dtype=np.int64),
                np.bincount(self.pred_type[self.pred_correct], minlength=len(types)))

    def statistics(self) -> list[Statistic]:
        """Every headline number as a ``nerspan.bootstrap.Statistic`` over sentences.

        ``counts`` are per-sentence count matrices; each ``estimate()`` equals the value
        in ``to_dict()`` (NaN where that value is None: an empty subset). Precision,
        recall and F1 follow nerspan's ``zero_division=0`` like the overall scores.

        >>> import tough_mentions
        >>> r = tough_mentions.score([["B-PER", "O"]], [["B-PER", "O"]], tokens=[["Kim", "ran"]],
        ...                          train=([["Kim"]], [["B-PER"]]))
        >>> {s.name: s.estimate() for s in r.statistics()}["tough_mentions.recall_seen"]
        1.0
        """
        n = self.n_sentences
        sentence = self.subsets.gold.sentence
        return sentence_statistics(
            n, sentence, np.ones(len(sentence), dtype=np.int64), self.hit.astype(np.int64),
            self.subsets.masks(), predicted_per_sentence(self.pred_sentence,
                                                         self.generated, n),
            np.bincount(self.pred_sentence[self.pred_correct], minlength=n))


def predicted_per_sentence(pred_sentence: np.ndarray, generated, n_sentences: int
                           ) -> np.ndarray:
    """Predicted mentions per sentence: those placed (``pred_sentence``, each one's
    sentence) and generated output's entities that found no span (``generated``: its
    record, or None), as nerspan's entity precision counts them."""
    predicted = np.bincount(pred_sentence, minlength=n_sentences)
    if generated is not None:
        predicted = predicted + generated.ungrounded_per_sentence(n_sentences)[:n_sentences]
    return predicted


def sentence_statistics(n_sentences: int, sentence: np.ndarray, size: np.ndarray,
                        hits: np.ndarray, masks: dict, predicted: np.ndarray,
                        correct: np.ndarray) -> list[Statistic]:
    """``ToughMentionsResult.statistics()`` of gold cells (one per mention in one pass;
    per sentence and (text, type) group in merged partials): each cell's sentence (0 ..
    ``n_sentences`` - 1), mentions, hits and subset ``masks``; ``predicted`` and
    ``correct`` mentions per sentence."""
    n = n_sentences

    def per_sentence(mask, values):
        return np.bincount(sentence[mask], weights=values[mask], minlength=n).astype(np.int64)

    everything = np.ones(len(sentence), dtype=bool)
    gold_total, gold_hit = per_sentence(everything, size), per_sentence(everything, hits)
    n_pred, n_gold = int(predicted.sum()), int(size.sum())
    stats = [
        Statistic("tough_mentions.precision", np.stack([correct, predicted], 1),
                  ratio_or_zero_statistic, n_pred),
        Statistic("tough_mentions.recall", np.stack([gold_hit, gold_total], 1),
                  ratio_or_zero_statistic, n_gold),
        Statistic("tough_mentions.f1", np.stack([correct, predicted, gold_total], 1),
                  prf_f1_statistic, n_gold),
    ]
    for name in SUBSETS:
        mask = masks[name]
        counts = np.stack([per_sentence(mask, hits), per_sentence(mask, size)], 1)
        stats.append(Statistic(f"tough_mentions.recall_{name}", counts, ratio_statistic,
                               int(size[mask].sum())))
    return stats


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


@dataclass(frozen=True)
class SubsetCounts:
    """What a result's numbers are computed from, per type: ``size[subset]`` and
    ``hits[subset]`` (gold mentions of the subset, and those predicted exactly; subset
    keys ``ALL_SUBSETS``), ``predicted`` and ``correct`` mentions (or None), arrays in
    the order of ``types`` (a type without gold mention gets no row)."""

    types: tuple
    size: dict
    hits: dict
    predicted: np.ndarray | None = None
    correct: np.ndarray | None = None


def counts_dict(scores: tuple, counts: SubsetCounts, zero_division: list, options: dict,
                repairs: dict, mentions: dict | None = None) -> dict:
    """A result's ``to_dict()`` (``ToughMentionsResult``, and merged partials'): overall
    ``scores`` (precision, recall, F1), ``counts``; ``zero_division``: which of precision
    and recall took it.

    The composition sits beside the counts it divides, so that no type name can
    clash with it: ``composition`` holds each subset's share of all gold mentions,
    ``per_type[t]["composition"]`` its share of the gold mentions of type ``t``.
    """
    size, hits = counts.size, counts.hits
    n_all = int(size["all"].sum())
    out = dict(zip(("precision", "recall", "f1"), scores))
    for name in SUBSETS:
        out[f"recall_{name}"] = _ratio(int(hits[name].sum()), int(size[name].sum()))
    out["counts"] = {name: int(size[name].sum()) for name in ALL_SUBSETS}
    out["hits"] = {name: int(hits[name].sum()) for name in ALL_SUBSETS}
    per_type = {}
    for i in np.flatnonzero(size["all"]).tolist():
        row = entity_row(counts.correct[i], counts.predicted[i], size["all"][i]) \
            if counts.predicted is not None else \
            {"recall": _ratio(int(hits["all"][i]), int(size["all"][i]))}
        row.update({f"recall_{name}": _ratio(int(hits[name][i]), int(size[name][i]))
                    for name in SUBSETS})
        row["counts"] = {name: int(size[name][i]) for name in ALL_SUBSETS}
        row["hits"] = {name: int(hits[name][i]) for name in ALL_SUBSETS}
        row["composition"] = {name: _ratio(int(size[name][i]), int(size["all"][i]))
                              for name in ALL_SUBSETS}
        per_type[counts.types[i]] = row
    out["per_type"] = per_type
    out["composition"] = {name: _ratio(int(size[name].sum()), n_all) for name in ALL_SUBSETS}
    out["undefined"] = undefined_keys(out, zero_division)
    out["options"] = dict(options)
    out["repairs"] = dict(repairs) or repairs_dict(None, None)
    if mentions is not None:
        out["mentions"] = mentions
    return out


@migrated
def score(references, predictions=None, *, tokens=None, train=None, scheme: str | None = None,
          mode: str | None = None, label_list=None, inputs=None, case_sensitive: bool = True,
          return_mentions: bool = False, options=None) -> ToughMentionsResult:
    """Tough Mentions Recall: recall on unseen and type-confusable gold mentions.

    Args:
        references, predictions: tag lists per sentence, label ids with ``label_list``
            (-100 positions dropped), span lists per sentence, a ``datasets`` split, a
            ``nerspan.Corpus`` (then ``predictions`` may be omitted: its columns
            ``gold_column`` and ``pred_column`` are scored), or as ``references`` a
            ``nerspan.Evaluation`` and as ``predictions`` a system's name (gold decoded
            and classified once for many systems; its scheme, mode, index).
        tokens: the test words (a list per sentence), needed unless the input holds them.
        train: the training data: a ``nerspan.TrainIndex`` (reused as is: index once,
            score many times), a ``Corpus``, a ``datasets`` split, a column file path, or
            a ``(tokens, tags)`` pair of lists per sentence.
        scheme, mode: how tags are decoded (``nerspan.decode``; IOB2, lenient); the
            training data too, unless ``train`` is a prebuilt index.
        label_list: the tags in id order, when both sides are label ids.
        inputs: the other input options (``nerspan.InputOptions``, or a dict of them).
        case_sensitive, return_mentions: the options of ``ToughMentionsOptions``;
            ``options``: that record (or a dict), the keywords given put over it.

    Subsets (METHODS.md section 1): Seen (the text occurs in training as a mention of
    this type), Unseen-Type (a training mention text, never with this type),
    Unseen-Tokens (never a training mention text), Unseen-Any (both unseen kinds);
    TCM-All (the text has at least two gold types in the test set), TCM-Unseen
    (TCM-All and Unseen-Tokens), TCM-Seen (the rest of TCM-All).

    >>> r = score([["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "O", "B-LOC"]],
    ...           [["B-PER", "I-PER", "O", "O", "B-LOC", "O", "O", "O", "B-LOC"]],
    ...           tokens=[["John", "Brown", ",", "the", "Newcastle", "star", "from", "the",
    ...                    "UK"]],
    ...           train=([["Newcastle", "is", "a", "city", "in", "the", "UK"]],
    ...                  [["B-LOC", "O", "O", "O", "O", "O", "B-LOC"]]))
    >>> d = r.to_dict()
    >>> d["counts"]["seen"], d["counts"]["unseen_type"], d["counts"]["unseen_tokens"]
    (1, 1, 1)
    >>> d["recall_seen"], d["recall_unseen_type"], d["recall_unseen_tokens"], d["recall_tcm_all"]
    (1.0, 0.0, 1.0, None)
    """
    options = ToughMentionsOptions.of(options).with_keywords(
        case_sensitive=case_sensitive, return_mentions=return_mentions)
    context, corpus, pred_column, table = scoring_inputs(
        references, predictions, train=train, scheme=scheme, mode=mode,
        inputs=InputOptions.of(inputs, tokens=tokens, label_list=label_list))
    subsets = gold_subsets(context, options.case_sensitive, table)
    result = score_subsets(corpus, subsets, pred_column, context.scheme, context.mode,
                           options.return_mentions, table, context)
    result.options.update(layers_option(context))
    return stating_threshold(result, predictions, inputs)


def layers_option(context: Evaluation) -> dict:
    """``{"layers": {"gold": n, "train": n}}`` where gold or the training data has
    layers (tag columns, or training span lists that nest), else ``{}``: flat results
    unchanged."""
    layers = {"gold": len(layer_columns(context.corpus, context.gold_column)),
              "train": context.train.layers}
    return {"layers": layers} if max(layers.values()) > 1 else {}


def scoring_inputs(references, predictions, *, train, scheme, mode,
                   inputs: InputOptions) -> tuple:
    """``(evaluation, corpus, pred column, label table)`` of ``score``'s arguments,
    checked: the test words, the predictions and the training data are there. Either
    side may be span lists that nest, overlap, repeat a span with two types or split a
    mention in fragments: mentions are read from the span table (``tables``), never
    from tags."""
    context, corpus, _, pred_column = resolve(references, predictions, scheme=scheme,
                                              mode=mode, train=train, inputs=inputs,
                                              layered=True, tables=True)
    if corpus.tokens is None:
        raise ValueError("tough_mentions needs the test tokens: pass tokens=... (the words "
                         "of each sentence) or a Corpus with tokens")
    if pred_column not in corpus.columns:
        raise ValueError("tough_mentions needs predictions: pass predictions=... (or a "
                         f"Corpus with a {pred_column!r} column)")
    if context.index(train) is None:
        raise ValueError(f"tough_mentions needs training data: pass train=... ({TRAIN_FORMS})")
    return context, corpus, pred_column, LabelTable.build(corpus.labels,
                                                          get_scheme(context.scheme))


def gold_subsets(context: Evaluation, case_sensitive: bool = True,
                 table: LabelTable | None = None) -> MentionSubsets:
    """The classification of the context's gold mentions, made once per context and case
    setting; its ``gold`` in the type ids of ``table`` (a scoring corpus's table)."""
    subsets = context.derived(
        ("tough_mentions.subsets", bool(case_sensitive)),
        lambda: classify(context.corpus, context.gold, context.train, case_sensitive))
    gold = context.gold_spans(table)
    return subsets if gold is subsets.gold else replace(subsets, gold=gold)


def score_subsets(corpus: Corpus, subsets: MentionSubsets, pred_column: str = PRED,
                  scheme: str = "IOB2", mode: str = "lenient", return_mentions: bool = False,
                  table: LabelTable | None = None,
                  context: Evaluation | None = None) -> ToughMentionsResult:
    """Score one prediction column against gold mentions already classified.

    ``subsets`` comes from ``classify(corpus, gold, index)`` with ``gold`` decoded from
    ``corpus`` with the same scheme, mode and label table: one classification serves any
    number of systems (columns) of the same corpus (``gold_subsets`` of a gold
    ``context`` keeps it, and the context keeps the mention texts ``return_mentions``
    lists). With a ``context`` (an ``Evaluation``), the predictions come from it:
    decoded once per system (its scheme and mode, which ``score`` passes) whatever else
    scores them.
    """
    table = table if table is not None else LabelTable.build(corpus.labels, get_scheme(scheme))
    gold = subsets.gold
    pred = (column_spans(corpus, pred_column, scheme, mode, table) if context is None
            else context.pred_spans(corpus, pred_column, table))
    hit, pred_correct = match(gold, pred)
    scores = entity_scores(gold, pred)
    precision, recall, f1 = scores.micro()
    repairs = dict(scores.repairs)
    options = result_options(subsets.case_sensitive, scheme, mode)
    listed = _mention_rows(corpus, subsets, hit, context) if return_mentions else None
    return ToughMentionsResult(subsets, hit, pred.sentence, pred_correct, corpus.n_sentences,
                               precision, recall, f1, options, repairs, listed, pred.type,
                               generated_record(pred))


# -- helpers -----------------------------------------------------------------------------
def generated_record(pred) -> object:
    """The predictions' generated-output record (``Repairs.generated``), or None."""
    return pred.repairs.generated if pred.repairs is not None else None


def result_options(case_sensitive: bool, scheme: str, mode: str) -> dict:
    """A result's ``options``: the case setting, the scheme's name and the mode."""
    return {"case_sensitive": bool(case_sensitive), "scheme": get_scheme(scheme).name,
            "mode": mode}


def _mention_rows(corpus: Corpus, subsets: MentionSubsets, hit: np.ndarray,
                  context: Evaluation | None = None) -> dict:
    """Subset key -> the gold mentions in it, in corpus order, as readable rows (their
    texts kept in the gold ``context`` for the next system)."""
    gold = subsets.gold
    base = corpus.offsets[gold.sentence]
    texts = (mention_texts(corpus, gold) if context is None else
             context.derived("tough_mentions.mention_texts",
                             lambda: mention_texts(context.corpus, context.gold)))
    rows = [{"sentence": s, "start": a, "end": b, "type": gold.types[t], "text": text, "hit": h}
            for s, a, b, t, text, h in zip(gold.sentence.tolist(), (gold.start - base).tolist(),
                                           (gold.end - base).tolist(), gold.type.tolist(),
                                           texts, hit.tolist())]
    # mentions of one start and end (nested lists: several types, fragments) by type,
    # then text: the order merged partials list them in
    order = sorted(range(len(rows)), key=lambda i: (*itemgetter(*LISTING)(rows[i]),))
    masks = subsets.masks()
    return {name: [rows[i] for i in order if masks[name][i]] for name in masks}


__all__ = ["score", "score_subsets", "gold_subsets", "scoring_inputs", "SubsetCounts",
           "sentence_statistics", "predicted_per_sentence", "generated_record",
           "counts_dict", "result_options", "layers_option", "ToughMentionsOptions", "ToughMentionsResult",
           "HEADLINE", "ALL_SUBSETS", "SUBSET_NAMES", "LISTING"]
