"""Where given token sequences (the texts of some mentions) occur, and how each
occurrence is labelled: exact, case-sensitive, within sentences.

The texts are laid in a trie of levels: level ``l`` numbers the distinct first ``l``
words of the texts at least ``l`` long (a level-``l`` key is ``id at level l - 1 * base +
word l``, numbered by ``np.unique``). A corpus is read against it level by level: the
windows alive at level ``l`` are those whose first ``l`` words begin some text, so the
work is a few sorted searches over the windows that can still match, never every window
of every length, and no Python loop over tokens.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat

import numpy as np

from ..corpus import Corpus
from ..spans import Spans

# An occurrence's label: the type code (1 + type) of the mention it is exactly, or
# ``UNLABELLED`` when every one of its tokens is outside the mentions; an occurrence that
# cuts a mention or holds part of one is neither (``PARTIAL``, not counted).
UNLABELLED, PARTIAL = 0, -1


def shared_words(corpus: Corpus, other: Corpus | None = None) -> tuple[np.ndarray, ...]:
    """Every token of ``corpus`` (and of ``other``) as an id of one joint vocabulary:
    ``corpus``'s words keep their ids, words of ``other`` alone follow."""
    if corpus.tokens is None:
        raise ValueError("the surface forms of mentions need the tokens of the corpus")
    words = np.asarray(corpus.tokens, dtype=np.int64)
    if other is None:
        return (words,)
    index = {w: i for i, w in enumerate(corpus.vocab)}
    mine = np.fromiter(map(index.get, other.vocab, repeat(-1)), dtype=np.int64,
                       count=len(other.vocab))
    missing = mine < 0
    mine[missing] = len(corpus.vocab) + np.arange(int(missing.sum()))
    return words, mine[other.tokens]


@dataclass(frozen=True)
class TextTrie:
    """The distinct texts of some windows of a token stream, as trie levels.

    ``keys[l - 1]``: the sorted keys of level ``l``; ``complete[l - 1]``: which ids of
    level ``l`` are a whole text; ``first_id[l - 1]``: the text id of level ``l``'s id 0
    (a text's id is ``first_id[len - 1] + its level id``: unique per text).
    """

    keys: tuple
    complete: tuple
    first_id: tuple
    base: int

    @classmethod
    def build(cls, words: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
              base: int) -> tuple["TextTrie", np.ndarray]:
        """The trie of the windows ``words[starts[i]:starts[i] + lengths[i]]`` (lengths
        >= 1; ``base`` above every word id) and the text id of each window."""
        text_id = np.zeros(len(starts), dtype=np.int64)
        alive, ids = np.arange(len(starts)), np.zeros(len(starts), dtype=np.int64)
        keys, complete, first_id, next_id = [], [], [], 0
        for level in range(1, int(lengths.max(initial=0)) + 1):
            level_keys = ids * base + words[starts[alive] + level - 1]
            unique, inverse = np.unique(level_keys, return_inverse=True)
            done = lengths[alive] == level
            whole = np.zeros(len(unique), dtype=bool)
            whole[inverse[done]] = True
            text_id[alive[done]] = next_id + inverse[done]
            keys.append(unique), complete.append(whole), first_id.append(next_id)
            next_id += len(unique)
            alive, ids = alive[~done], inverse[~done].astype(np.int64)
        return cls(tuple(keys), tuple(complete), tuple(first_id), base), text_id

    @property
    def n_ids(self) -> int:
        return self.first_id[-1] + len(self.keys[-1]) if self.keys else 0

    def occurrences(self, words: np.ndarray, sentence: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(starts, lengths, text ids)`` of every window of ``words`` (within one
        sentence: ``sentence`` per position) that is one of the texts."""
        found = ([], [], [])
        position = np.arange(len(words))
        ids = np.zeros(len(words), dtype=np.int64)
        for level, (keys, whole, first) in enumerate(zip(self.keys, self.complete,
                                                         self.first_id), start=1):
            last = position + level - 1
            inside = last < len(words)
            position, ids, last = position[inside], ids[inside], last[inside]
            same = sentence[last] == sentence[position]
            position, ids, last = position[same], ids[same], last[same]
            wanted = ids * self.base + words[last]
            at = np.minimum(np.searchsorted(keys, wanted), max(len(keys) - 1, 0))
            hit = keys[at] == wanted if len(keys) else np.zeros(len(wanted), dtype=bool)
            position, ids = position[hit], at[hit]
            text = whole[ids]
            found[0].append(position[text])
            found[1].append(np.full(int(text.sum()), level, dtype=np.int64))
            found[2].append(first + ids[text])
        return tuple(np.concatenate(f) if f else np.zeros(0, dtype=np.int64) for f in found)


def occurrence_labels(starts: np.ndarray, lengths: np.ndarray, spans: Spans,
                      n_positions: int, codes: np.ndarray) -> np.ndarray:
    """The label of each occurrence ``[starts, starts + lengths)`` under the flat
    ``spans``: ``codes[type]`` where it is exactly a mention, ``UNLABELLED`` where no
    token of it is inside a mention, else ``PARTIAL``."""
    labels = np.full(len(starts), PARTIAL, dtype=np.int64)
    inside = np.zeros(n_positions + 1, dtype=np.int64)
    np.add.at(inside, spans.start, 1)
    np.add.at(inside, spans.end, -1)
    covered = np.concatenate([[0], np.cumsum(np.cumsum(inside)[:-1] > 0)])
    outside = covered[starts + lengths] - covered[starts] == 0
    labels[outside] = UNLABELLED
    if len(spans):
        at = np.minimum(np.searchsorted(spans.start, starts), len(spans) - 1)
        exact = (spans.start[at] == starts) & (spans.end[at] == starts + lengths)
        labels[exact] = codes[spans.type[at[exact]]]
    return labels


@dataclass(frozen=True)
class LabelCounts:
    """How often each (group, text, label) occurs: ``keys`` sorted, ``counts`` beside;
    a group is a document, or 0 for the whole corpus."""

    keys: np.ndarray
    counts: np.ndarray
    n_texts: int
    n_labels: int

    @classmethod
    def of(cls, texts: np.ndarray, labels: np.ndarray, n_texts: int, n_labels: int,
           groups: np.ndarray | None = None) -> "LabelCounts":
        kept = labels != PARTIAL
        groups = np.zeros(int(kept.sum()), dtype=np.int64) if groups is None else groups[kept]
        keys, counts = np.unique((groups * n_texts + texts[kept]) * n_labels + labels[kept],
                                 return_counts=True)
        return cls(keys, counts, n_texts, n_labels)

    def count(self, texts: np.ndarray, labels: np.ndarray | None = None,
              groups: np.ndarray | None = None) -> np.ndarray:
        """Occurrences of each text with each label (``labels`` None: any label)."""
        groups = np.zeros(len(texts), dtype=np.int64) if groups is None else groups
        row = (groups * self.n_texts + texts) * self.n_labels
        cumulative = np.concatenate([[0], np.cumsum(self.counts)])
        if labels is None:
            low = np.searchsorted(self.keys, row)
            high = np.searchsorted(self.keys, row + self.n_labels)
            return cumulative[high] - cumulative[low]
        wanted = row + labels
        at = np.searchsorted(self.keys, wanted)
        return np.where(self.keys[np.minimum(at, len(self.keys) - 1)] == wanted,
                        cumulative[np.minimum(at + 1, len(self.keys))] - cumulative[at], 0) \
            if len(self.keys) else np.zeros(len(texts), dtype=np.int64)

    def labels_of(self, text: int, group: int = 0) -> dict:
        """label code -> occurrences, of one text (for a listing)."""
        row = (group * self.n_texts + text) * self.n_labels
        low, high = np.searchsorted(self.keys, [row, row + self.n_labels])
        return dict(zip((self.keys[low:high] - row).tolist(), self.counts[low:high].tolist()))
