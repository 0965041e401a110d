"""``compute_metrics`` for ``transformers.Trainer`` from nerlens metric families.

    from nerlens.trainer import make_compute_metrics
    compute_metrics = make_compute_metrics(
        label_list=model.config.id2label,          # dict or list, in id order
        eval_tokens=dataset["validation"]["tokens"],
        train=dataset["train"],                    # indexed once, here
        metrics=("faireval", "tough_mentions", "hardeval", "attribute_buckets"))  # default: all
    trainer = Trainer(..., compute_metrics=compute_metrics)

The function receives logits (or predicted ids) and label ids with -100 on ignored
sub-tokens and special tokens; it drops those positions from both sides, maps ids to tags,
runs every family on one ``Corpus`` and returns numbers of the results as flat scalars
prefixed by family (``faireval_fair_f1``, ``tough_mentions_recall_unseen_any``,
``attribute_buckets_eLen_XS_f1``, ...; see ``flat_scalars``; each family's descriptor says
how its nested parts are named, ``Family.logged``). ``detail="headline"`` (the default)
returns each family's headline (``Logged.headline`` and ``Logged.trainer_keys``: 32
numbers for the four families and 3 entity types, 3 more per type); ``detail="all"`` every
number (700 or so), under the same names; given logits, "all" adds the sweep of the
mentions' confidences (``nerspan.scored.scored_tokens``: a mention's confidence is the
minimum of its tokens' probabilities of the predicted tags; METHODS §8):
``confidence_average_precision``, ``confidence_best_threshold``, ``confidence_best_f1``
and ``confidence_ece``. ``metrics`` names registered families (default: every one). With
``batch_eval_metrics=True`` in ``TrainingArguments`` it accumulates batches and computes
at the last one (``compute_result=True``).
"""
from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

import numpy as np

from nerspan import (GOLD, PRED, Corpus, Evaluation, InputOptions, InputTypeError,
                     LabelIdError, LengthMismatchError, as_train_index)
from nerspan.flat import IGNORE_INDEX
from nerspan.corpus import _a, as_label_list, as_sentences
from nerspan.errors import counted
from nerspan.fbeta import check_beta, fbeta_key
from nerspan.migration import migrated
from nerspan.reading.forms import finished
from nerspan.reading.training import TRAIN_FORMS
from nerspan.scored import scored_tokens
from nerspan.sweeps import sweep_spans

from .families import check_families, family_names, get_family, registered

# Top-level parts that hold settings or input diagnostics, not results.
NOT_RESULTS = {"options", "repairs"}
# What compute_metrics logs: each family's headline (a few dozen charts), or every number.
DETAILS = ("headline", "all")
# What detail="all" logs of the sweep of logits' confidences (``Sweep.headline`` keys).
CONFIDENCE_KEYS = ("average_precision", "best_threshold", "best_f1", "ece")


def flat_scalars(prefix: str, result: Mapping, nested: Mapping | None = None,
                 keep=None) -> dict:
    """Every number of a result as a flat ``{name: float}``, names prefixed by ``prefix``.

    Nested mappings are walked, their keys joined with ``_``; a list of rows that carry a
    ``name`` (the buckets of attribute_buckets) is keyed by those names; strings, booleans,
    settings (``options``) and undefined numbers (None, NaN, infinite) are left out.
    ``nested`` names nested parts (``nerspan.family.Logged``: "drop" lends the children
    no name of the part, "suffix:NAME" ends them in ``_NAME``); by default the registered
    family ``prefix``'s (none for another prefix). ``keep(path)``, given, chooses the
    numbers by their name's parts (``Logged.logs``). Raises ValueError when two numbers
    would get the same name.
    """
    if nested is None:
        family = registered().get(prefix)
        nested = family.logged.nested if family is not None else {}
    out: dict = {}
    results = {key: value for key, value in result.items() if key not in NOT_RESULTS}
    for path, value in _numbers(results, (), nested):
        if keep is not None and not keep(path):
            continue
        name = "_".join((prefix,) + path)
        if name in out:
            raise ValueError(f"two numbers of the {prefix} result are both named {name}")
        out[name] = value
    return out


def _numbers(node, path: tuple, naming: Mapping):
    """(name parts, finite float) for every number under ``node``, in result order."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            rule = naming.get(key, "") if isinstance(value, (Mapping, list)) else ""
            if rule == "drop":
                yield from _numbers(value, path, naming)
            elif rule.startswith("suffix:"):
                yield from _suffixed(_numbers(value, path, naming), rule[len("suffix:"):])
            else:
                yield from _numbers(value, path + (str(key),), naming)
    elif isinstance(node, list):
        if all(isinstance(row, Mapping) and "name" in row for row in node):
            for row in node:
                yield from _numbers({k: v for k, v in row.items() if k != "name"},
                                    path + (str(row["name"]),), naming)
    elif isinstance(node, (int, float, np.number)) and not isinstance(node, (bool, np.bool_)):
        value = float(node)
        if math.isfinite(value):
            yield path, value


def _suffixed(numbers, suffix: str):
    for path, value in numbers:
        yield path + (suffix,), value


class ComputeMetrics:
    """Callable for ``Trainer(compute_metrics=...)``; see the module docstring."""

    def __init__(self, label_list, metrics: Iterable[str] | None = None, eval_tokens=None,
                 train=None, scheme: str = "IOB2", mode: str = "lenient",
                 options: Mapping[str, Mapping] | None = None, detail: str = "headline",
                 beta: float = 1.0, inputs=None):
        if detail not in DETAILS:
            raise ValueError(f"detail must be one of {', '.join(map(repr, DETAILS))}, not "
                             f"{detail!r}")
        self.detail = detail
        self.label_list = list(as_label_list(label_list))
        self.metrics = check_families(family_names() if metrics is None else metrics)
        self.families = [get_family(name) for name in self.metrics]
        needs_train = [f.name for f in self.families if f.needs_train]
        if needs_train and (train is None or eval_tokens is None):
            raise ValueError(f"{sorted(needs_train)} need train=... ({TRAIN_FORMS}) and "
                             "eval_tokens=... (the evaluation words, a list per sentence)")
        needs_tokens = [f.name for f in self.families if f.needs_tokens]
        if needs_tokens and eval_tokens is None:
            raise ValueError(f"{sorted(needs_tokens)} need eval_tokens=... (the evaluation "
                             "words, a list per sentence)")
        self.eval_tokens = None if eval_tokens is None else [
            list(t) for t in as_sentences(eval_tokens, "eval_tokens")]
        # interned once: every evaluation then works on integer arrays only
        self._words = None if self.eval_tokens is None else Corpus.from_tags(
            [["O"] * len(t) for t in self.eval_tokens], tokens=self.eval_tokens)
        self.scheme, self.mode = scheme, mode
        # suffix: id2label writes PER-B; the type options: applied to every evaluation
        self.inputs = InputOptions.of(inputs)
        self.beta = check_beta(beta)
        self.options = {name: dict(given) for name, given in (options or {}).items()}
        self.index = as_train_index(train, scheme, mode, inputs=self.inputs) \
            if needs_train else None
        self._batches: list = []

    @property
    def headline_keys(self) -> list[str]:
        """The logged keys to watch (``metric_for_best_model``, without the Trainer's
        ``eval_`` prefix): each family's ``Logged.headline``, with ``beta`` the F-beta
        after each F1."""
        return [f"{f.name}_{key}" for f in self.families for key in self._headline(f)]

    def _headline(self, family) -> list:
        """The family's ``Logged.headline`` keys, each F1 followed by its F-beta
        (``beta`` other than 1)."""
        out = []
        for key in family.logged.headline:
            out.append(key)
            if self.beta != 1 and (key == "f1" or key.endswith("_f1")):
                out.append(fbeta_key(self.beta, key[:-2]))
        return out

    def _keeps(self, family):
        """What ``detail="headline"`` logs of the family: its ``Logged`` paths, and the
        F-beta of its headline F1s (a handful: per type F-beta only with "all")."""
        extra = set(self._headline(family)) - set(family.logged.headline)
        return lambda path: family.logged.logs(path) or (len(path) == 1 and path[0] in extra)

    def __call__(self, eval_prediction, compute_result: bool | None = None) -> dict:
        predictions, labels = _unpacked(eval_prediction)
        predictions = predictions[0] if isinstance(predictions, tuple) else predictions
        predictions, labels = _to_numpy(predictions), _to_numpy(labels)
        _check_shapes(predictions, labels, None if compute_result is None else len(self._batches))
        logits = None
        if predictions.ndim == 3:
            before = sum(len(batch[0]) for batch in self._batches)
            logits = predictions if self.detail == "all" else None  # their sweep: "all"
            predictions = _argmax_ids(predictions, labels, len(self.label_list), before)
        if compute_result is None:  # called once with the whole evaluation set
            return self.compute(labels, predictions, logits)
        self._batches.append((labels, predictions, logits))
        if not compute_result:
            return {}
        batches, self._batches = self._batches, []
        refs = _join_padded([batch[0] for batch in batches])
        preds = _join_padded([batch[1] for batch in batches])
        every_logit = None if any(batch[2] is None for batch in batches) else \
            _join_padded([batch[2] for batch in batches], fill=0)
        return self.compute(refs, preds, every_logit)

    def compute(self, labels, predictions, logits=None) -> dict:
        """Every family's flat scalars for one evaluation: one ``nerspan.Evaluation``
        (gold decoded and classified once) that every family scores; given ``logits`` (the
        predictions' logits, sentences x positions x labels), the sweep of their
        confidences too."""
        corpus = Corpus.from_ids(labels, predictions, self.label_list, tokens=self._words)
        # read as every input is (the tags written PER-B turned round, the type options)
        corpus = finished(corpus, [GOLD, PRED], self.inputs, self.scheme, self.mode)
        evaluation = Evaluation(corpus, self.scheme, self.mode, self.index)
        out = {}
        for family in self.families:
            given = self.options.get(family.name, {})
            result = (family.score(evaluation, PRED, **given) if family.options is None
                      else family.score(evaluation, PRED, options=given))
            keep = self._keeps(family) if self.detail == "headline" else None
            out.update(flat_scalars(family.name, result.to_dict(beta=self.beta),
                                    family.logged.nested, keep))
        if logits is not None:
            out.update(self._confidence(evaluation, labels, logits))
        return out

    def _confidence(self, evaluation: Evaluation, labels, logits) -> dict:
        """``confidence_*``: the sweep of the mentions decoded from ``logits``, each with
        its confidence, against the evaluation's gold (undefined numbers left out)."""
        # the labels in id order as the evaluation read them (tags written PER-B turned)
        label_list = evaluation.corpus.labels[:len(self.label_list)]
        mentions = scored_tokens(logits, label_list, label_ids=labels, logits=True,
                                 scheme=self.scheme, mode=self.mode)
        headline = sweep_spans(evaluation.gold, mentions).headline()
        return {f"confidence_{key}": float(headline[key]) for key in CONFIDENCE_KEYS
                if headline[key] is not None}


@migrated
def make_compute_metrics(label_list, metrics: Sequence[str] | None = None, eval_tokens=None,
                         train=None, *, scheme: str = "IOB2", mode: str = "lenient",
                         options: Mapping[str, Mapping] | None = None,
                         detail: str = "headline", beta: float = 1.0,
                         inputs=None) -> ComputeMetrics:
    """Build ``compute_metrics`` for a ``Trainer``; the training data is indexed here, once.
    ``detail``: "headline" (default, each family's ``Logged`` keys) or "all" (every number).
    ``beta``: also F-beta beside every F1 (seqeval's ``beta``, a number > 0), logged under
    a key naming it (``eval_faireval_f2``, ``eval_faireval_fair_f2``); with "headline" the
    F-beta of each headline F1 only. 1 (default) adds nothing. ``options``: family ->
    its options (the family's record). ``inputs``: the input options
    (``nerspan.InputOptions`` or a dict), e.g. ``{"suffix": True}`` when the labels
    (``id2label``) and the training tags are written type first (``PER-B``).
    """
    return ComputeMetrics(label_list, metrics, eval_tokens, train, scheme, mode, options,
                          detail, beta, inputs)


def _unpacked(eval_prediction) -> tuple:
    """``(predictions, label_ids)`` of an ``EvalPrediction``, or of the plain tuple that
    older Trainers pass and that callers outside a Trainer give (a third item, the
    inputs, is not read)."""
    if hasattr(eval_prediction, "predictions"):
        return eval_prediction.predictions, getattr(eval_prediction, "label_ids", None)
    if isinstance(eval_prediction, (tuple, list)) and len(eval_prediction) in (2, 3):
        return eval_prediction[0], eval_prediction[1]
    raise InputTypeError("compute_metrics takes an EvalPrediction or a (predictions, "
                         f"label_ids) tuple, not {_a(type(eval_prediction).__name__)}")


def _check_shapes(predictions: np.ndarray, labels: np.ndarray, batch: int | None) -> None:
    """One prediction (an id, or logits) per label position: a narrower array would be
    padded with -100 when batches are joined, and read as a predicted id."""
    if labels.ndim == 2 and predictions.ndim in (2, 3) \
            and predictions.shape[:2] != labels.shape:
        where = "" if batch is None else f" in batch {batch}"
        raise LengthMismatchError(
            f"predictions{where} have shape {predictions.shape} and label_ids "
            f"{labels.shape}: one prediction is needed per label position (sentences x "
            "tokens)")


def _to_numpy(array) -> np.ndarray:
    if array is None:
        raise InputTypeError("the evaluation holds no predictions or no label_ids: the "
                             "Trainer needs labels in the evaluation set")
    if hasattr(array, "detach"):  # a torch tensor (batch_eval_metrics passes tensors)
        array = array.detach().cpu().numpy()
    return np.asarray(array)


def _argmax_ids(logits: np.ndarray, labels: np.ndarray, n_labels: int, before: int
                ) -> np.ndarray:
    """The predicted ids of ``logits`` (sentences, tokens, classes), whose classes must
    be the labels; a NaN logit where a label is kept would be read as a prediction, so it
    is an error (``before``: sentences of earlier batches, for the error's index)."""
    if logits.shape[-1] != n_labels:
        raise InputTypeError(f"predictions are logits over "
                             f"{counted(logits.shape[-1], 'class', 'classes')}, but label_list "
                             f"has {counted(n_labels, 'label')}: is it the model's id2label?")
    ids = logits.argmax(-1)
    if logits.dtype.kind == "f" and _any_nan(logits):
        # argmax stops at a position's first NaN: a position holds one iff its argmax does
        # (a model may give NaN where a label is -100, e.g. on padding: that is not read)
        at = np.arange(ids.size) * logits.shape[-1] + ids.ravel()
        nan = np.isnan(np.take(logits.reshape(-1), at)).reshape(ids.shape)
        if nan.shape == labels.shape:
            nan &= labels != IGNORE_INDEX
        if nan.any():
            sentence, position = np.argwhere(nan)[0]
            raise LabelIdError("the logits are NaN: no label is predicted",
                               sentence=before + int(sentence), side="predictions",
                               position=int(position))
    return ids


def _any_nan(values: np.ndarray) -> bool:
    """Whether ``values`` may hold a NaN: their sum is NaN (so is inf - inf, which the
    caller's exact check then clears). One pass with no temporary: 4 ms on 15M logits,
    where ``max(axis=-1)`` over 9 classes took 120."""
    with np.errstate(invalid="ignore", over="ignore"):
        return bool(np.isnan(np.add.reduce(values, axis=None)))


def _join_padded(batches: list, fill: int = -100) -> np.ndarray:
    """Batches of 2-D ids (each padded to its own width; or 3-D logits) as one array
    padded with ``fill``, which ``Corpus.from_ids`` drops where the labels have it."""
    width = max(batch.shape[1] for batch in batches)
    out = np.full((sum(len(batch) for batch in batches), width, *batches[0].shape[2:]),
                  fill, dtype=np.result_type(*batches))
    row = 0
    for batch in batches:
        out[row:row + len(batch), :batch.shape[1]] = batch
        row += len(batch)
    return out
