"""Support for the evaluate loading scripts in ``metrics/``: training data and tokens.

evaluate passes the keyword arguments of ``evaluate.load(path, **kwargs)`` to the module's
``__init__`` and swallows them unless the class takes them; this mixin takes the training
data and the evaluation tokens there, indexes the training data once, and lets
``compute(...)`` override either. It is a mixin, not an ``EvaluationModule`` subclass, so
that evaluate still finds the script's own metric class first.
"""
from __future__ import annotations

from nerspan import TrainIndex, as_train_index

TRAIN_ARGUMENTS = ("train", "train_tokens", "train_tags")


class TrainingDataMixin:
    """Accept ``train`` / ``train_tokens`` + ``train_tags`` / ``tokens`` / ``scheme`` at load time.

    ``train`` may be a ``nerspan.TrainIndex``, a ``Corpus``, a ``datasets`` split, or a
    column-file path; or give ``train_tokens`` and ``train_tags`` (lists per sentence).
    """

    def __init__(self, *args, train=None, train_tokens=None, train_tags=None, tokens=None,
                 scheme: str = "IOB2", mode: str = "lenient", **kwargs):
        super().__init__(*args, **kwargs)
        self._load_scheme = scheme
        self._load_mode = mode
        self._load_tokens = tokens
        self._load_train = (train, train_tokens, train_tags)
        self._index_cache: dict = {}
        if train is not None or train_tokens is not None:
            self._index_for(train, train_tokens, train_tags)  # index once, at load time

    def _index_for(self, train=None, train_tokens=None, train_tags=None,
                   scheme: str | None = None, mode: str | None = None) -> TrainIndex | None:
        """The training index for these arguments, or for the load-time training data when
        none are given (None when there is none).

        The same training object with the same scheme and mode is indexed only once; a
        ``compute`` with another scheme or mode indexes the training data for it.
        """
        scheme = scheme or self._load_scheme
        mode = mode or self._load_mode
        if train is None and train_tokens is None:
            train, train_tokens, train_tags = self._load_train
            if train is None and train_tokens is None:
                return None
        if isinstance(train, TrainIndex):
            return train
        source = train if train is not None else train_tokens
        key = (id(source), id(train_tags), scheme, mode)
        cached = self._index_cache.get(key)
        if cached is None:
            index = as_train_index(train, scheme, mode, train_tags=train_tags,
                                   train_tokens=train_tokens)
            # keep the sources alive so that their ids cannot be reused by other objects
            cached = self._index_cache[key] = (source, train_tags, index)
        return cached[2]

    def _tokens_for(self, tokens=None):
        """Evaluation tokens: those given to ``compute`` or else those given at load time."""
        return tokens if tokens is not None else self._load_tokens

    def _require_train(self, index, family: str) -> TrainIndex:
        if index is None:
            raise ValueError(
                f"{family} needs training data: pass train=... (a datasets split, a column "
                "file or a TrainIndex) or train_tokens=... and train_tags=... to "
                "evaluate.load(...) or to compute(...)")
        return index
