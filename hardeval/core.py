"""``score``: token error rates on the hard subsets, and the result object."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Mapping, Sequence

import numpy as np

import nerspan
from nerspan import (Corpus, GOLD, Evaluation, InputOptions, InputTypeError,
                     LengthMismatchError, NerspanError, PRED, SentenceCountError)
from nerspan.evaluation import resolve
from nerspan.layers import (as_layers, in_types, is_layered, layer_column, layer_columns,
                             refuse_layers, tables_as_layers)
from nerspan.migration import migrated
from nerspan.reading.training import TRAIN_FORMS
from nerspan.records import Record, option, switch
from nerspan.schemes import get_scheme
from nerspan.spans import LabelTable, column_spans
from nerspan.threshold_form import stating_threshold
from nerspan.bootstrap import Statistic, ratio_statistic
from nerspan.corpus import as_sentences, first_outside
from nerspan.errors import counted, shown
from nerspan.options import check_int
from nerspan.result import Result, undefined_keys

from .labels import (ERROR_LABELS, check_error_labels, compared_codes, label_names,
                     reads_spans, reference_codes)
from .subsets import (GROUPS, LEAF_NAMES, ONE_LAYER, Subsets, gold_token_classes,
                      kfold_summary, subset_name)

HEADLINE = ("hardeval", "ter", "ter_unseen", "ter_unseen_i", "ter_unseen_o", "ter_diff",
            "ter_diff_i", "ter_diff_o", "ter_diff_e", "ter_other")
# Top-level key of each subset's TER: ter_ + the subset's key.
TER_KEYS = {"all": "ter", **{name: "ter_" + name for name in GROUPS if name != "all"}}


@dataclass(frozen=True)
class SubsetStats:
    """One row of the paper's table: a subset's size and errors.

    ``ter`` is None for an empty subset (``empty`` is then True): 0 would read as a
    perfect score.
    """

    tokens: int
    words: int | None
    errors: int

    @property
    def empty(self) -> bool:
        return self.tokens == 0

    @property
    def ter(self) -> float | None:
        return None if self.tokens == 0 else self.errors / self.tokens

    def to_dict(self) -> dict:
        return {"tokens": self.tokens, "words": self.words, "errors": self.errors,
                "ter": self.ter, "empty": self.empty}


@dataclass(frozen=True)
class HardevalOptions(Record):
    """hardeval's own options (``score``; the command line's flags and the evaluate
    module's features are made of these fields)."""

    strict_diff: bool = switch(
        False, "a token is diff only if its gold label never occurs with it in training "
        "(the paper's strict variant; not the strict decoding mode).")
    error_labels: str = option(
        "bilou", "the labels compared per token: \"bilou\" (the reference code), \"bio\" or "
        "\"io\".", lambda name, value: check_error_labels(value), choices=ERROR_LABELS)
    return_hard_tokens: bool = switch(
        False, "also list the tokens of each subset with their compared labels "
        "(hard_tokens).", flag="--hard-tokens")
    kfold: int | None = option(
        None, "identify the subsets by K-fold cross-validation over the references (GOLD), "
        "each fold against the other K-1 folds: no training data (kfold_subsets).",
        lambda name, value: check_int(name, value, minimum=2), parse=int, metavar="K")
    fold_seed: int = option(
        0, "the seed of kfold's fold of each sentence, drawn from it and the sentence's "
        "place (default 0).", lambda name, value: check_int(name, value, minimum=0), parse=int)

    describes = "hardeval"


@dataclass(frozen=True)
class HardevalResult(Result):
    """Token error rates per subset, the hardeval score and the error breakdown.

    ``to_dict()`` also gives ``per_type``: per entity type, the TER of every subset over
    the tokens whose gold label has that type (``ter``, ``ter_unseen``, ...: None where
    the type has no token in the subset), with the ``tokens`` and ``errors`` per subset
    they divide. Gold ``O`` tokens belong to no type: they count in the subsets only.
    """

    subsets: dict                 # name (see ``GROUPS``) -> SubsetStats
    error_labels: str
    strict_diff: bool | None      # None when the subsets were given precomputed
    repairs: dict = field(default_factory=dict)
    hard_tokens: dict | None = None   # with return_hard_tokens: subset -> token rows
    # sentences x leaves x (tokens, errors): what the report's bootstrap resamples
    sentence_counts: np.ndarray | None = field(default=None, repr=False, compare=False)
    options: dict = field(default_factory=dict)   # scheme, mode
    # type -> leaves x (tokens, errors) over the tokens whose gold label has that type
    type_counts: dict = field(default_factory=dict, repr=False, compare=False)
    kfold: dict | None = None     # with the option kfold: ``kfold_summary``

    def ter(self, name: str = "all") -> float | None:
        """The TER of subset ``name`` (a key of ``GROUPS``)."""
        return self.subsets[subset_name(name)].ter

    def undefined(self) -> list:
        """The top-level keys of ``to_dict()`` that are None: ``hardeval`` when unseen
        and diff are both empty, the TER of every empty subset."""
        return undefined_keys({"hardeval": self.hardeval,
                               **{TER_KEYS[n]: s.ter for n, s in self.subsets.items()}})

    @property
    def hardeval_parts(self) -> tuple:
        """The subsets averaged into ``hardeval``: unseen and diff, minus empty ones."""
        return tuple(name for name in ("unseen", "diff") if not self.subsets[name].empty)

    @property
    def hardeval(self) -> float | None:
        """Mean TER on unseen and diff (lower is better).

        An empty subset is left out (``hardeval_parts`` says which were used); None
        when both are empty.
        """
        parts = self.hardeval_parts
        return sum(self.ter(name) for name in parts) / len(parts) if parts else None

    @property
    def error_breakdown(self) -> dict:
        """Share of all errors falling in unseen, diff and other (None without errors)."""
        total = self.subsets["all"].errors
        return {name: (self.subsets[name].errors / total if total else None)
                for name in ("unseen", "diff", "other")}

    def plain_dict(self) -> dict:
        out = {"hardeval": self.hardeval}
        out.update({TER_KEYS[name]: stats.ter for name, stats in self.subsets.items()})
        out["subsets"] = {name: stats.to_dict() for name, stats in self.subsets.items()}
        out["error_breakdown"] = self.error_breakdown
        out["hardeval_parts"] = list(self.hardeval_parts)
        out["per_type"] = {t: _type_row(counts) for t, counts in self.type_counts.items()}
        out["undefined"] = self.undefined()
        out["options"] = {"error_labels": self.error_labels, "strict_diff": self.strict_diff,
                          **self.options}
        out["repairs"] = self.repairs
        if self.hard_tokens is not None:
            out["hard_tokens"] = self.hard_tokens
        if self.kfold is not None:
            out["kfold"] = self.kfold
        return out

    def statistics(self) -> list[Statistic]:
        """Every TER and the hardeval score as bootstrap statistics over sentences.

        Names are ``hardeval.<key of to_dict()>``; each estimate equals that value (NaN
        where it is None). Needs the per-sentence counts that ``score`` keeps.
        """
        if self.sentence_counts is None:
            raise ValueError("this result has no per-sentence counts to resample")
        per_leaf = self.sentence_counts
        out, group_counts = [], {}
        for name, leaves in GROUPS.items():
            counts = group_counts[name] = per_leaf[:, list(leaves), :].sum(axis=1)[:, ::-1]
            out.append(Statistic(f"hardeval.{TER_KEYS[name]}", counts, ratio_statistic,
                                 self.subsets[name].tokens, higher_is_better=False))
        unseen, diff = group_counts["unseen"], group_counts["diff"]  # (errors, tokens) each
        support = min(self.subsets["unseen"].tokens, self.subsets["diff"].tokens)
        out.insert(0, Statistic("hardeval.hardeval", np.concatenate([unseen, diff], axis=1),
                                _mean_of_defined_rates, support, higher_is_better=False))
        return out


@migrated(record=HardevalOptions)
def score(references, predictions=None, *, tokens=None, train=None, scheme: str | None = None,
          mode: str | None = None, label_list=None, inputs=None, subsets=None,
          strict_diff: bool = False, error_labels: str = "bilou",
          return_hard_tokens: bool = False, options=None) -> HardevalResult:
    """Token error rates on unseen and label-shifted tokens (lower is better).

    Args:
        references, predictions: tag lists per sentence, label ids with ``label_list``,
            span lists per sentence, a ``datasets`` split, or a ``nerspan.Corpus`` (then
            ``predictions`` may be omitted: the columns ``gold_column`` and
            ``pred_column`` are scored); or ``references`` a ``nerspan.Evaluation`` and
            ``predictions`` a system's name (gold decoded and classified once for any
            number of systems: scheme, mode and training index are its own).
        tokens: the test words (a list per sentence), needed unless ``subsets`` are given.
        train: training data: a ``TrainIndex``, a ``Corpus``, a ``datasets`` split, a
            column file path, or a ``(tokens, tags)`` pair of lists per sentence.
        scheme, mode: how gold tags are decoded into mentions (``nerspan.decode``; default
            IOB2, lenient).
        label_list: the tags in id order, when both sides are label ids.
        inputs: the other input options (``nerspan.InputOptions``, or a dict of them).
        subsets: precomputed leaf subset codes per token (flat array or lists per
            sentence), e.g. from ``kfold_subsets``; then no training data is needed.
        strict_diff, error_labels, return_hard_tokens: the options of
            ``HardevalOptions``; ``options``: that record (or a dict), the keywords given
            put over it. Its ``kfold`` (and ``fold_seed``) classify the tokens by k-fold
            cross-validation over the references instead of ``train`` or ``subsets``
            (``kfold_subsets``); the result's ``kfold`` then says how
            (``kfold_summary``).

    Gold with layers (``nerspan.layers``, the input option ``layers``): each layer is
    scored on its own, as the only gold column (``LayeredHardevalResult``: no number for
    the layers together; training data read with layers and precomputed ``subsets``
    are refused: both give one tag or code per token). Span lists that nest, overlap or
    give one span two types are read as such layers (``nerspan.layers.nesting_layers``:
    layer 1 the outermost mentions, layer 2 those inside them, ...; a prediction that
    nests is layered by the same rule, both sides as deep as the deeper); discontinuous
    mentions cannot be tags and are refused (``SpanShapeError``).

    >>> r = score([["B-PER", "O"], ["O", "B-LOC"]], [["B-PER", "O"], ["O", "B-ORG"]],
    ...           tokens=[["Kim", "runs"], ["in", "Paris"]],
    ...           train=([["Kim", "runs"], ["Paris", "is", "in"]],
    ...                  [["B-PER", "O"], ["B-ORG", "O", "O"]]))
    >>> r.ter(), r.ter("diff_e"), r.ter("unseen"), r.hardeval, r.hardeval_parts
    (0.25, 1.0, None, 1.0, ('diff',))
    """
    options = HardevalOptions.of(options).with_keywords(
        strict_diff=strict_diff, error_labels=error_labels,
        return_hard_tokens=return_hard_tokens)
    check_kfold(options, train, subsets)
    context, corpus, gold_column, pred_column = resolve(   # layers: scored one by one
        references, predictions, scheme=scheme, mode=mode, train=train,
        inputs=InputOptions.of(inputs, tokens=tokens, label_list=label_list), layered=True,
        tables=True)
    layered = tables_as_layers(corpus, gold_column, pred_column, context.scheme, context.mode)
    if layered is not None:   # span tables that nest: their layers, as tag columns
        context = Evaluation(layered, context.scheme, context.mode, context.index(train),
                             gold_column, inputs=context.inputs)
        corpus, train = layered, None
    if is_layered(context.corpus, context.gold_column):
        return score_layers(context, corpus, pred_column, train, subsets, options)
    codes, strict_diff_used = leaf_codes(context, corpus, train, subsets, options)
    return stating_threshold(
        score_codes(corpus, codes, gold_column, pred_column, context.scheme, context.mode,
                    options.error_labels, options.return_hard_tokens, strict_diff_used,
                    context, folds_of(options)), predictions, inputs)


@dataclass(frozen=True)
class LayeredHardevalResult(Result):
    """hardeval against gold with layers (``nerspan.layers``): its token error rates are
    defined on one tag per token, so each layer is scored on its own, with the same
    options, as if it were the only gold column (``layers``: layer number -> that
    layer's ``HardevalResult``; ``columns``: layer number -> its gold and prediction
    columns). No number is made up for the layers together: ``to_dict()`` has
    ``layers`` (number -> that layer's dict, with ``layer``, ``gold_column`` and
    ``pred_column`` saying which it is), ``options`` (``layers``: how many) and the
    shared keys, empty (each layer has its own)."""

    layers: dict
    columns: dict
    options: dict = field(default_factory=dict)
    repairs: dict = field(default_factory=dict)
    # what the report reads: no statistics over the layers together, each layer's own
    scored_per_layer: ClassVar[bool] = True

    def undefined(self) -> list:
        return []

    def plain_dict(self) -> dict:
        layers = {name: {"layer": int(name), "gold_column": self.columns[name][0],
                         "pred_column": self.columns[name][1], **result.plain_dict()}
                  for name, result in self.layers.items()}
        return {"layers": layers, "per_type": {}, "undefined": [],
                "options": dict(self.options), "repairs": dict(self.repairs)}

    def statistics(self) -> list[Statistic]:
        raise InputTypeError("hardeval against gold with layers has no numbers over the "
                             "layers together: resample a layer's result "
                             "(result.layers[\"2\"].statistics())")


def score_layers(context: Evaluation, corpus: Corpus, pred_column: str, train, subsets,
                 options: HardevalOptions) -> LayeredHardevalResult:
    """``score`` against the gold layers of ``context``: each gold layer with the
    prediction ``pred_column`` of ``corpus`` (its layer of that number when it has as
    many layers) as the two columns of a corpus of their own, classified against the
    same training index."""
    layers, columns = {}, {}
    context.index(train)   # kept on context: each column is decoded once for every layer
    pairs = shared_layer_pairs(context, pred_column) \
        if corpus is context.corpus and subsets is None else \
        ((*pair, PRED) for pair in layer_pairs(context, corpus, pred_column, None, subsets))
    for name, own, alone, pair, pred in pairs:
        codes, strict_diff = leaf_codes(own, alone, None, None, options)
        layers[name] = score_codes(alone, codes, GOLD, pred, own.scheme, own.mode,
                                   options.error_labels, options.return_hard_tokens,
                                   strict_diff, own, folds_of(options))
        columns[name] = pair
    first = layers["1"].to_dict()["options"]
    return LayeredHardevalResult(layers, columns, {**first, "layers": len(layers)})


def layer_pairs(context: Evaluation, corpus: Corpus, pred_column: str, train, subsets):
    """Per gold layer of ``context``: ``(number, evaluation, corpus, (gold column, pred
    column))``, the layer and the prediction ``pred_column`` of ``corpus`` (its layer of
    that number when it has as many) as the columns ``gold`` and ``pred`` of a corpus of
    their own, with the training index of ``context`` (``train``: its data)."""
    if subsets is not None:
        refuse_layered_subsets(len(layer_columns(context.corpus, context.gold_column)))
    golds = layer_columns(context.corpus, context.gold_column)
    preds = layer_columns(corpus, pred_column)
    if len(preds) not in (1, len(golds)):
        raise InputTypeError(f"the prediction has {len(preds)} layers and gold "
                             f"{len(golds)}: hardeval scores each gold layer against one "
                             "prediction column, or against the prediction's layer of its "
                             "number")
    index = context.index(train)
    for k, gold in enumerate(golds, 1):
        pred = preds[k - 1] if len(preds) > 1 else pred_column
        yield (str(k), *layer_pair(context, corpus, gold, pred, index), (gold, pred))


def layer_pair(context: Evaluation, corpus: Corpus, gold: str, pred: str, index) -> tuple:
    """``(evaluation, corpus)``: gold column ``gold`` of ``context`` and column ``pred``
    of ``corpus`` as the columns ``gold`` and ``pred`` of a corpus of their own, under
    the training ``index``."""
    alone = context.corpus.paired(gold, None).with_columns(corpus.select([pred]),
                                                           {pred: PRED})
    return Evaluation(alone, context.scheme, context.mode, index,
                      inputs=context.inputs), alone


def refuse_layered_subsets(n_layers: int) -> None:
    """Refuse precomputed ``subsets`` (one code per token) for gold of ``n_layers``."""
    raise InputTypeError(f"precomputed subsets give one code per token, and gold has "
                         f"{n_layers} layers whose tokens are classified each by its own "
                         "tag: pass train=..., or read one layer (gold_tag_column)")


def shared_layer_pairs(context: Evaluation, pred_column: str):
    """``layer_pairs`` of a system of ``context``'s own corpus, from the evaluations of
    ``layer_evaluations`` (each gold layer decoded and classified once for every
    system), each with the column of the prediction scored against the layer: the
    pair's corpus is that layer's with every system, named as in ``context``."""
    preds = layer_columns(context.corpus, pred_column)
    evaluations = layer_evaluations(context)
    if len(preds) not in (1, len(evaluations)):   # refused there, saying why
        yield from ((*pair, PRED) for pair in layer_pairs(context, context.corpus,
                                                          pred_column, None, None))
        return
    golds = layer_columns(context.corpus, context.gold_column)
    for k, gold in enumerate(golds, 1):
        pred = preds[k - 1] if len(preds) > 1 else pred_column
        own = evaluations[str(k)]
        yield str(k), own, own.corpus, (gold, pred), pred


def layer_evaluations(context: Evaluation) -> dict:
    """Layer number -> an ``Evaluation`` of that gold layer of ``context`` alone (its
    gold) with every system column of ``context``, under its training index: span
    tables that nest written as layers of tags (``as_layers``, as ``score`` reads them),
    tag columns given their decodings on ``context`` (each decoded once). Built once
    and kept on ``context`` (a report scores every system and lists the hard tokens of
    each layer against them)."""
    def build():
        corpus, decoded = context.corpus, {}
        for column in (context.gold_column, *context.systems):
            if corpus.mentions(column) is None:   # tags: decoded on context, reused
                decoded.update({layer_column(column, j): spans for j, spans
                                in enumerate(context.layers(column).layers, 1)})
            corpus, _ = as_layers(corpus, column, context.scheme, context.mode)
        golds = layer_columns(corpus, context.gold_column)
        columns = [c for c in corpus.columns if c not in golds]
        evaluations = {}
        for k, gold in enumerate(golds, 1):
            own = Evaluation(corpus.paired(gold, None).with_columns(corpus.select(columns)),
                             context.scheme, context.mode, context.train,
                             inputs=context.inputs)
            # tag columns written here (as_layers) have type ids of their own
            evaluations[str(k)] = own.with_decoded({
                GOLD if column == gold else column: in_types(spans, own.table.types)
                for column, spans in decoded.items() if column == gold or column in columns})
        return evaluations
    return context.derived(("hardeval.layer_evaluations", id(context.train)), build)


def leaf_codes(context: Evaluation, corpus: Corpus, train, subsets,
               options: HardevalOptions) -> tuple:
    """``(codes, strict_diff)``: the leaf code of every token, precomputed ``subsets``
    checked (``strict_diff`` then None: not known) or classified against training, or
    by k-fold over the gold of ``context`` (``options.kfold``)."""
    if subsets is not None:
        return _check_subsets(corpus, subsets), None
    if options.kfold is None and context.index(train) is None:
        raise ValueError(f"hardeval needs training data: pass train=... ({TRAIN_FORMS}), "
                         "precomputed subsets=... or options={'kfold': k}")
    return gold_token_classes(context, options.strict_diff, folds_of(options)), \
        options.strict_diff


def check_kfold(options: HardevalOptions, train, subsets) -> None:
    """Refuse ``train`` and ``subsets`` beside the option ``kfold``: the subsets come
    from the references alone."""
    if options.kfold is not None and (train is not None or subsets is not None):
        raise ValueError("kfold classifies the tokens by cross-validation over the "
                         "references alone: drop train= and subsets=")


def folds_of(options: HardevalOptions) -> tuple | None:
    """``(k, seed)`` of the option ``kfold``; None without it."""
    return None if options.kfold is None else (options.kfold, options.fold_seed)


@migrated
def score_codes(corpus: Corpus, codes: np.ndarray, gold_column: str = GOLD,
                pred_column: str = PRED, scheme: str = "IOB2", mode: str = "lenient",
                error_labels: str = "bilou", return_hard_tokens: bool = False,
                strict_diff: bool | None = None, context: Evaluation | None = None,
                folds: tuple | None = None) -> HardevalResult:
    """Score one prediction column against leaf subset ``codes`` (classification done);
    ``strict_diff`` only says in ``options`` how the codes were made, ``folds`` (k-fold's
    ``(k, seed)``) in ``kfold``; with the ``context`` (an ``Evaluation``) of ``corpus``'s
    gold, its decoded gold is used."""
    refuse_layers(corpus, gold_column, ONE_LAYER)
    error_labels = check_error_labels(error_labels)
    gold, pred, repairs, types = _compared_labels(
        corpus, gold_column, pred_column, scheme, mode, error_labels, context)
    wrong = gold != pred
    n_leaves = len(LEAF_NAMES)
    codes = np.asarray(codes, dtype=np.int64)
    leaf_tokens = np.bincount(codes, minlength=n_leaves)
    leaf_errors = np.bincount(codes[wrong], minlength=n_leaves)
    stats = subset_stats(leaf_tokens, leaf_errors, distinct_words(word_leaves(corpus, codes)))
    listed = None
    if return_hard_tokens:
        listed = _token_rows(corpus, codes, gold, pred, wrong, error_labels, types)
    return HardevalResult(stats, error_labels, strict_diff, repairs, listed,
                          _sentence_counts(corpus, codes, wrong),
                          {"scheme": get_scheme(scheme).name, "mode": mode},
                          _type_counts(corpus, codes, gold, wrong, error_labels, types,
                                       scheme),
                          None if folds is None else kfold_summary(folds, corpus.n_sentences,
                                                                   codes))


def subset_stats(leaf_tokens: np.ndarray, leaf_errors: np.ndarray,
                 words: dict | None) -> Subsets:
    """Every subset's ``SubsetStats`` from the tokens and errors per leaf; ``words``:
    subset -> its distinct words (None without the test words)."""
    stats = Subsets()
    for name, leaves in GROUPS.items():
        leaves = list(leaves)
        stats[name] = SubsetStats(int(leaf_tokens[leaves].sum()),
                                  None if words is None else words[name],
                                  int(leaf_errors[leaves].sum()))
    return stats


def _sentence_counts(corpus: Corpus, codes: np.ndarray, wrong: np.ndarray) -> np.ndarray:
    """sentences x leaves x (tokens, errors): one count of (sentence, leaf, wrong) cells;
    a cell's tokens are its right plus its wrong ones."""
    n_leaves = len(LEAF_NAMES)
    cell = (corpus.sentence_of_position * n_leaves + codes) * 2 + wrong
    counts = np.bincount(cell, minlength=corpus.n_sentences * n_leaves * 2)
    counts = counts.reshape(corpus.n_sentences, n_leaves, 2)
    counts[:, :, 0] += counts[:, :, 1]
    return counts


def _type_counts(corpus, codes, gold, wrong, error_labels, types, scheme) -> dict:
    """Entity type -> leaves x (tokens, errors) over the tokens whose gold label (as
    compared, ``error_labels``) has that type; types in the label table's order, those
    without a gold token left out."""
    typed, gold_type = gold_types(corpus, gold, error_labels, scheme)
    n_leaves = len(LEAF_NAMES)
    cell = gold_type.astype(np.int64) * n_leaves + codes[typed]
    size = len(types) * n_leaves
    counts = np.stack([np.bincount(cell, minlength=size),
                       np.bincount(cell[wrong[typed]], minlength=size)], axis=1)
    counts = counts.reshape(len(types), n_leaves, 2)
    return {t: counts[i] for i, t in enumerate(types) if counts[i, :, 0].sum()}


def gold_types(corpus, gold, error_labels, scheme) -> tuple:
    """``(typed, type)``: which tokens' compared gold labels (``error_labels``) have an
    entity type, and the type (index in the label table's types) of each of those."""
    if error_labels == "bio":
        gold_type = LabelTable.build(corpus.labels, get_scheme(scheme)).type[gold]
        typed = gold_type >= 0
        return typed, gold_type[typed]
    # only the typed tokens' types are computed (few, and no per-token temporaries)
    width = 1 if error_labels == "io" else 4
    typed = gold > 0
    return typed, (gold[typed] - 1) // width


def _type_row(counts: np.ndarray) -> dict:
    """One ``per_type`` row: the TER of every subset, then its tokens and errors."""
    tokens = {name: int(counts[list(leaves), 0].sum()) for name, leaves in GROUPS.items()}
    errors = {name: int(counts[list(leaves), 1].sum()) for name, leaves in GROUPS.items()}
    row = {TER_KEYS[name]: (errors[name] / tokens[name] if tokens[name] else None)
           for name in GROUPS}
    row["tokens"], row["errors"] = tokens, errors
    return row


# Mention-level scores averaged beside the TERs in the out-of-domain table (its "avg"
# column gives F1 next to the token error rates).
DOMAIN_KEYS = HEADLINE + ("precision", "recall", "f1")


def average_domains(results: Mapping[str, HardevalResult | dict] | Sequence) -> dict:
    """Macro average over domains (the paper's out-of-domain table and its "avg" column).

    Each headline value (and the mention-level ``precision``, ``recall``, ``f1`` where the
    domains carry them) is the mean of the domains where it is defined (not None);
    ``n_domains`` counts them per key and ``domains`` keeps each domain's headline.

    >>> a = {"hardeval": 0.2, "ter": 0.1, "ter_unseen": 0.3, "f1": 0.9}
    >>> b = {"hardeval": 0.4, "ter": 0.3, "ter_unseen": None, "f1": 0.7}
    >>> avg = average_domains({"news": a, "web": b})
    >>> round(avg["hardeval"], 4), round(avg["ter"], 4), avg["ter_unseen"], round(avg["f1"], 4)
    (0.3, 0.2, 0.3, 0.8)
    >>> avg["n_domains"]["ter_unseen"], avg["n_domains"]["f1"]
    (1, 2)
    """
    if not isinstance(results, Mapping):
        results = {str(i): r for i, r in enumerate(results)}
    if not results:
        raise NerspanError("average_domains needs at least one domain")
    heads = {name: (r.to_dict() if isinstance(r, HardevalResult) else dict(r))
             for name, r in results.items()}
    out, counts = {}, {}
    for key in DOMAIN_KEYS:
        values = [h[key] for h in heads.values() if h.get(key) is not None]
        out[key] = sum(values) / len(values) if values else None
        counts[key] = len(values)
    out["n_domains"] = counts
    out["domains"] = {name: {key: h.get(key) for key in DOMAIN_KEYS} for name, h in heads.items()}
    return out


def score_domains(domains: Mapping[str, Mapping], **options) -> dict:
    """Score each domain (a mapping of ``score`` arguments) and macro-average them.

    ``options`` apply to every domain. Each domain also gets the mention-level (entity)
    micro ``precision``, ``recall`` and ``f1`` of its predictions (``nerspan.score``).
    Returns ``averaged_domains`` of the results.
    """
    scored = {}
    for name, arguments in domains.items():
        arguments = {**options, **dict(arguments)}
        scored[name] = (score(**arguments).to_dict(), _entity_micro(arguments))
    return averaged_domains(scored)


def averaged_domains(scored: Mapping[str, tuple]) -> dict:
    """``average_domains`` of one system's scored domains (domain -> (its result dict, the
    entity micro (P, R, F1) of its predictions)) plus ``results``: domain -> its result
    dict with ``precision``, ``recall`` and ``f1`` (before its entity confusion matrix,
    where it has one)."""
    results = {}
    for name, (result, micro) in scored.items():
        result = dict(result)
        matrix = {key: result.pop(key) for key in ("confusion", "boundary_errors")
                  if key in result}
        results[name] = {**result, **dict(zip(("precision", "recall", "f1"), micro)),
                         **matrix}
    return {**average_domains(results), "results": results}


def systems_over_domains(scored: Mapping[str, tuple]) -> dict:
    """System -> ``averaged_domains`` of it, for domains scored on evaluations (domain ->
    (its ``nerspan.Evaluation``, system -> result dict), as ``nerlens hardeval
    --manifest`` scores them): the first domain's systems, which every other domain
    has; a domain's one system is the first's one system under any name."""
    systems = list(next(iter(scored.values()))[1])
    out = {}
    for system in systems:
        per_domain = {}
        for name, (evaluation, results) in scored.items():
            if system not in results and not len(results) == len(systems) == 1:
                raise NerspanError(f"dataset {name!r} lacks the system {system!r} of the "
                                   f"first one: give every dataset its systems "
                                   f"({', '.join(systems)})")
            own = system if system in results else next(iter(results))
            per_domain[name] = (results[own], evaluation.entity_scores(own).micro())
        out[system] = averaged_domains(per_domain)
    return out


def _entity_micro(arguments: Mapping) -> tuple:
    """Entity-level micro (P, R, F1) of one domain's ``score`` arguments."""
    return nerspan.score(arguments.get("references"), arguments.get("predictions"),
                         scheme=arguments.get("scheme"), mode=arguments.get("mode"),
                         label_list=arguments.get("label_list"),
                         inputs=arguments.get("inputs")).micro()


# -- helpers -----------------------------------------------------------------------------
def _mean_of_defined_rates(totals: np.ndarray) -> np.ndarray:
    """hardeval from (unseen errors, unseen tokens, diff errors, diff tokens) totals: the
    mean of the rates that are defined, as ``HardevalResult.hardeval`` (NaN if neither)."""
    rates = np.stack([ratio_statistic(totals[:, 0:2]), ratio_statistic(totals[:, 2:4])])
    defined = ~np.isnan(rates)
    n = defined.sum(axis=0)
    return np.divide(np.where(defined, rates, 0).sum(axis=0), n,
                     out=np.full(len(totals), np.nan), where=n > 0)


def _check_subsets(corpus: Corpus, subsets) -> np.ndarray:
    """Precomputed leaf codes: one per token, each a valid code."""
    if isinstance(subsets, np.ndarray) and subsets.ndim == 1:
        codes = subsets
        if len(codes) != corpus.n_tokens:
            raise LengthMismatchError(f"subsets hold {counted(len(codes), 'code')} for "
                                      f"{counted(corpus.n_tokens, 'token')}")
    else:
        lists = as_sentences(subsets, "subsets")
        lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        if len(lists) != corpus.n_sentences:
            raise SentenceCountError(f"subsets hold {counted(len(lists), 'sentence')}, the "
                                     f"references {corpus.n_sentences}")
        differ = np.flatnonzero(lengths != corpus.lengths)
        if len(differ):
            i = int(differ[0])
            raise corpus.error(LengthMismatchError,
                               f"subsets have {counted(int(lengths[i]), 'code')}, the "
                               f"references {counted(int(corpus.lengths[i]), 'token')}", i)
        flat = [c for s in lists for c in s]
        # exact types first: np.fromiter would truncate 1.9 to 1 and read True as 1
        position = first_outside(flat, (int, np.integer))
        if position is not None:
            sentence = int(np.searchsorted(corpus.offsets, position, side="right") - 1)
            raise corpus.error(NerspanError, f"subset code {shown(flat[position])} is not an "
                               "integer leaf code (hardeval.OTHER ... DIFF_E)", sentence,
                               side="subsets",
                               position=position - int(corpus.offsets[sentence]))
        codes = np.array(flat) if flat else np.zeros(0, dtype=np.int64)
    codes = np.asarray(codes)
    if not np.issubdtype(codes.dtype, np.integer):
        raise NerspanError("subsets must be integer leaf codes (hardeval.OTHER ... DIFF_E)")
    bad = (codes < 0) | (codes >= len(LEAF_NAMES))
    if bad.any():
        position = int(np.argmax(bad))
        sentence = int(np.searchsorted(corpus.offsets, position, side="right") - 1)
        raise corpus.error(NerspanError, f"subset code {int(codes[position])} is not one of "
                           f"0..{len(LEAF_NAMES) - 1} ({', '.join(LEAF_NAMES)})", sentence)
    return codes.astype(np.int64)


def _compared_labels(corpus, gold_column, pred_column, scheme, mode, error_labels,
                     context=None):
    """Per-token label codes of gold and prediction under ``error_labels``, the repairs
    made to get them and the type vocabulary the codes use.

    Both columns are read by the same rule (``labels.compared_codes``), so identical
    gold and predictions never differ. An evaluation (``context``) gives the gold decoded
    once and keeps its reference reading (keyed by the label list, which fixes the type
    ids), and the predictions decoded once where they are read as decoded spans."""
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    reference = None
    if context is None:
        gold_spans = column_spans(corpus, gold_column, scheme, mode, table, flat=True)
    else:
        gold_spans = context.gold_spans(table)
        if error_labels == "bilou" and get_scheme(scheme).name == "IOB2":
            reference = context.derived(
                ("hardeval.reference_codes", corpus.labels),
                lambda: reference_codes(corpus, gold_column, table, scheme, mode))
    # pred_spans are read only where the predictions are read as decoded spans: the
    # reference code's reading stays its own
    pred_spans = None
    if context is not None and reads_spans(scheme, error_labels):
        pred_spans = context.pred_spans(corpus, pred_column, table)
    gold, pred, repairs = compared_codes(
        corpus, gold_column, pred_column, gold_spans, table, scheme, mode, error_labels,
        reference, pred_spans)
    return gold, pred, repairs, table.types


def word_leaves(corpus: Corpus, codes: np.ndarray) -> np.ndarray | None:
    """Which (word, leaf) pairs occur: vocabulary x leaves, True where a token of the
    word falls in the leaf (one scatter, no sort of the tokens); None without words."""
    if corpus.tokens is None:
        return None
    occurs = np.zeros((len(corpus.vocab), len(LEAF_NAMES)), dtype=bool)
    occurs[corpus.tokens, codes] = True
    return occurs


def distinct_words(occurs: np.ndarray | None) -> dict | None:
    """Subset -> its distinct words, from ``word_leaves``."""
    if occurs is None:
        return None
    return {name: int(np.count_nonzero(occurs[:, list(leaves)].any(axis=1)))
            for name, leaves in GROUPS.items()}


# The fields of a listed token (``return_hard_tokens``), in row order.
TOKEN_ROW = ("sentence", "position", "token", "gold", "pred", "error")


def token_rows(corpus, positions, gold, pred, wrong, error_labels, types,
               sentence_ids=None) -> list:
    """The tokens at ``positions`` as ``TOKEN_ROW`` tuples; ``sentence_ids``: each
    sentence's global id (default: its index in ``corpus``)."""
    positions = np.asarray(positions, dtype=np.int64)
    words = (np.asarray(corpus.vocab, dtype=object)[corpus.tokens[positions]].tolist()
             if corpus.tokens is not None else [None] * len(positions))
    sentence = corpus.sentence_of_position[positions]
    within = positions - corpus.offsets[sentence]
    if sentence_ids is not None:
        sentence = sentence_ids(sentence)
    return list(zip(sentence.tolist(), within.tolist(), words,
                    label_names(gold[positions], error_labels, types, corpus.labels),
                    label_names(pred[positions], error_labels, types, corpus.labels),
                    wrong[positions].tolist()))


def _token_rows(corpus, codes, gold, pred, wrong, error_labels, types) -> dict:
    """Subset name -> [{sentence, position, token, gold, pred, error}] in corpus order."""
    rows = token_rows(corpus, np.arange(corpus.n_tokens), gold, pred, wrong, error_labels,
                      types)
    return {name: [dict(zip(TOKEN_ROW, rows[p]))
                   for p in np.flatnonzero(np.isin(codes, leaves)).tolist()]
            for name, leaves in GROUPS.items()}
