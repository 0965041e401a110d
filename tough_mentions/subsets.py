"""Which gold test mentions are tough: the subsets of METHODS.md section 1.

Every gold test mention is classified once, on integer arrays:

- its text (tokens joined by one space, lowercased when ``case_sensitive=False``) is
  interned to an id, once per distinct text;
- the training index is turned, once per case setting, into a text -> id table and a
  boolean matrix ``pair_seen[text, type]`` (was this text a training mention of this
  type?), cached in the index so that later evaluations reuse it;
- membership is then array indexing: Seen if the pair was seen, Unseen-Tokens if the
  text was never a training mention, Unseen-Type otherwise;
- type confusability counts the distinct gold types of each text over the TEST mentions.

>>> from nerspan import Corpus, as_train_index, decode
>>> train = as_train_index(([["Newcastle", "is", "in", "the", "UK"]],
...                         [["B-LOC", "O", "O", "O", "B-LOC"]]), "IOB2", "lenient")
>>> test = Corpus.from_tags([["B-LOC", "O", "B-ORG", "O", "B-PER"]],
...                         tokens=[["UK", "beat", "Newcastle", "and", "Kim"]])
>>> subsets = classify(test, decode(test), train)
>>> [SUBSET_NAMES[k] for k in subsets.kind_names()]
['Seen', 'Unseen-Type', 'Unseen-Tokens']
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat

import numpy as np

from nerspan import Corpus, Spans, TrainIndex
from nerspan.train_index import mention_texts
from nerspan.corpus import Interner

# The subsets, in the order of the result keys.
SUBSETS = ("seen", "unseen_any", "unseen_tokens", "unseen_type", "tcm_all", "tcm_seen",
           "tcm_unseen")


@dataclass(frozen=True)
class SubsetNaming:
    """How every view names a subset (the one record the page and the terminal read):
    ``header``, a table's column ("unseen text"); ``title``, in a sentence ("unseen
    mentions (text never a training mention)"); ``paper``, Tu and Lignos's name
    ("Unseen-Tokens", for the reader coming from the paper)."""

    header: str
    title: str
    paper: str


NAMING = {
    "all": SubsetNaming("all", "all mentions", "All"),
    "seen": SubsetNaming("seen", "seen mentions (text and type in training)", "Seen"),
    "unseen_any": SubsetNaming("unseen (any)", "unseen mentions (any)", "Unseen-Any"),
    "unseen_tokens": SubsetNaming("unseen text", "unseen mentions (text never a training "
                                  "mention)", "Unseen-Tokens"),
    "unseen_type": SubsetNaming("unseen type", "unseen mentions (text seen, type never)",
                                "Unseen-Type"),
    "tcm_all": SubsetNaming("TCM", "type-confusable mentions", "TCM-All"),
    "tcm_seen": SubsetNaming("TCM seen", "type-confusable mentions, seen", "TCM-Seen"),
    "tcm_unseen": SubsetNaming("TCM unseen", "type-confusable mentions, unseen",
                               "TCM-Unseen"),
}
# What the headers mean, under every table of them.
SUBSET_LEGEND = ("Seen: text and type occur together in training; unseen text: the text "
                 "is no training mention; unseen type: the text is, never with this type; "
                 "TCM: type-confusable mentions, texts with two or more types in the test "
                 "set (the paper's Seen, Unseen-Tokens, Unseen-Type, TCM-All).")
# Their names in the papers (the metric card).
SUBSET_NAMES = {key: naming.paper for key, naming in NAMING.items()}

# The three disjoint kinds every gold mention has exactly one of.
SEEN, UNSEEN_TYPE, UNSEEN_TOKENS = 0, 1, 2
KIND_KEYS = ("seen", "unseen_type", "unseen_tokens")

_CACHE_KEY = "tough_mentions.train_pairs"  # key of the derived table in the TrainIndex


@dataclass(frozen=True)
class MentionSubsets:
    """The classification of the gold mentions of one test corpus.

    Attributes:
        gold: the gold mentions (``nerspan.Spans``), in corpus order.
        kind: int8 per mention: ``SEEN``, ``UNSEEN_TYPE`` or ``UNSEEN_TOKENS``.
        tcm: bool per mention: its text has at least two gold types in the test set.
        text_id: per mention, the id of its (normalised) text among the test texts.
        case_sensitive: whether texts were compared as they are or lowercased.
        texts: the distinct (normalised) texts, by ``text_id`` (what partials merge by).
    """

    gold: Spans
    kind: np.ndarray
    tcm: np.ndarray
    text_id: np.ndarray
    case_sensitive: bool = True
    texts: tuple = ()

    def __len__(self) -> int:
        return len(self.kind)

    def masks(self) -> dict:
        """Subset key (``"all"`` and ``SUBSETS``) -> boolean mask over the gold mentions."""
        seen = self.kind == SEEN
        unseen_tokens = self.kind == UNSEEN_TOKENS
        return {
            "all": np.ones(len(self.kind), dtype=bool),
            "seen": seen,
            "unseen_any": ~seen,
            "unseen_tokens": unseen_tokens,
            "unseen_type": self.kind == UNSEEN_TYPE,
            "tcm_all": self.tcm,
            "tcm_seen": self.tcm & ~unseen_tokens,
            "tcm_unseen": self.tcm & unseen_tokens,
        }

    def kind_names(self) -> list[str]:
        """The kind of each mention as a subset key (for reading, not for hot paths)."""
        return [KIND_KEYS[k] for k in self.kind.tolist()]


def classify(corpus: Corpus, gold: Spans, index: TrainIndex,
             case_sensitive: bool = True) -> MentionSubsets:
    """Classify the gold mentions ``gold`` of ``corpus`` (which must have tokens)."""
    if corpus.tokens is None:
        raise ValueError("tough_mentions needs the tokens of the test sentences")
    lowercase = not case_sensitive
    texts = mention_texts(corpus, gold, lowercase)
    # ids in order of first occurrence, by C-level dict passes (no Python call per text)
    test_ids = {text: i for i, text in enumerate(dict.fromkeys(texts))}
    text_id = np.fromiter(map(test_ids.__getitem__, texts), dtype=np.int64, count=len(texts))

    train_text_ids, pair_seen, train_types = training_pairs(index, lowercase)
    # Per distinct test text: its row in the training table, -1 if never a training mention.
    row_of_text = np.fromiter(map(train_text_ids.get, test_ids, repeat(-1)), dtype=np.int64,
                              count=len(test_ids))
    train_type_index = {t: i for i, t in enumerate(train_types)}
    column_of_type = np.array([train_type_index.get(t, -1) for t in gold.types] or [-1],
                              dtype=np.int64)

    row = row_of_text[text_id] if len(text_id) else np.zeros(0, dtype=np.int64)
    column = column_of_type[gold.type] if len(gold) else np.zeros(0, dtype=np.int64)
    text_seen = row >= 0
    pair = np.zeros(len(row), dtype=bool)
    known = text_seen & (column >= 0)
    pair[known] = pair_seen[row[known], column[known]]
    kind = np.where(pair, SEEN, np.where(text_seen, UNSEEN_TYPE, UNSEEN_TOKENS)).astype(np.int8)

    return MentionSubsets(gold, kind, confusable(text_id, gold.type, len(test_ids)), text_id,
                          bool(case_sensitive), tuple(test_ids))


def confusable(text_id: np.ndarray, type_id: np.ndarray, n_texts: int) -> np.ndarray:
    """Per mention: does its text occur with at least two different types among these
    mentions?

    >>> confusable(np.array([0, 1, 0, 2]), np.array([3, 3, 1, 3]), 3).tolist()
    [True, False, True, False]
    """
    if not len(text_id):
        return np.zeros(0, dtype=bool)
    n_types = int(type_id.max()) + 1
    pairs = np.unique(text_id * n_types + type_id)
    types_per_text = np.bincount(pairs // n_types, minlength=n_texts)
    return types_per_text[text_id] >= 2


def training_pairs(index: TrainIndex, lowercase: bool = False) -> tuple[dict, np.ndarray, tuple]:
    """The training mentions as ``(text -> row, pair_seen[row, type], types)``.

    Built on first use for each case setting and kept in the index's cache of derived
    tables, so that every later evaluation against the same index reuses it.
    """
    def build():
        texts = mention_texts(index.corpus, index.spans, lowercase) if len(index.spans) else []
        rows = Interner()
        row = np.fromiter(map(rows.__getitem__, texts), dtype=np.int64, count=len(texts))
        pair_seen = np.zeros((len(rows), max(len(index.types), 1)), dtype=bool)
        pair_seen[row, index.spans.type] = True
        return dict(rows), pair_seen, tuple(index.types)
    return index.derived((_CACHE_KEY, bool(lowercase)), build)
