"""A synthetic NER corpus for benchmarks: gold IOB2 tags and predictions with errors.

About 10% of gold mentions receive an error, spread evenly over the kinds: wrong type,
wrong boundary (extended or shrunk), missed; and about as many spurious mentions and
invalid ``I-`` after ``O`` sequences are added. Deterministic for a seed.
"""
from __future__ import annotations

import numpy as np

TYPES = ("PER", "LOC", "ORG", "MISC")


def make_corpus(n_sentences: int = 50_000, mean_length: int = 15, error_rate: float = 0.10,
                seed: int = 0, vocab_size: int = 20_000, types: tuple = TYPES):
    """Return ``(tokens, gold, pred)``: lists of sentences of strings; mention types are
    drawn from ``types``."""
    rng = np.random.default_rng(seed)
    lengths = np.clip(rng.poisson(mean_length, n_sentences), 3, None)
    words = np.array([f"w{i}" for i in range(vocab_size)], dtype=object)
    zipf = rng.zipf(1.3, int(lengths.sum())) % vocab_size
    flat_tokens = words[zipf].tolist()
    tokens, gold, pred = [], [], []
    position = 0
    for n in lengths.tolist():
        sentence = flat_tokens[position:position + n]
        position += n
        g = ["O"] * n
        i = 0
        mentions = []
        while i < n:  # mentions of 1-3 tokens with probability ~0.12 per start
            if rng.random() < 0.12:
                size = min(int(rng.integers(1, 4)), n - i)
                which = int(rng.integers(len(types)))
                t = types[which]
                g[i] = f"B-{t}"
                for k in range(i + 1, i + size):
                    g[k] = f"I-{t}"
                mentions.append((i, i + size, which))
                i += size + 1
            else:
                i += 1
        p = list(g)
        for start, end, which in mentions:
            t = types[which]
            if rng.random() >= error_rate:
                continue
            kind = int(rng.integers(4))
            if kind == 0:  # wrong type
                other = types[(which + 1) % len(types)]
                p[start] = f"B-{other}"
                for k in range(start + 1, end):
                    p[k] = f"I-{other}"
            elif kind == 1:  # wrong boundary
                if end < n and p[end] == "O":
                    p[end] = f"I-{t}"
                elif end - start > 1:
                    p[end - 1] = "O"
                else:
                    p[start] = "O"
            elif kind == 2:  # missed
                for k in range(start, end):
                    p[k] = "O"
            else:  # invalid: I- after O instead of B-
                p[start] = f"I-{t}"
        free = [k for k in range(n) if g[k] == "O" and (k == 0 or g[k - 1] == "O")]
        if free and rng.random() < error_rate * len(mentions) / 2:  # spurious mention
            k = free[int(rng.integers(len(free)))]
            p[k] = f"B-{types[int(rng.integers(len(types)))]}"
        tokens.append(sentence)
        gold.append(g)
        pred.append(p)
    return tokens, gold, pred
