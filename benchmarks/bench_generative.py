"""Grounding speed: generated entities located in their sentences, against a plain
Python ``str.find`` loop over the same texts, in one run.

    python -m benchmarks.bench_generative [--sentences 10000] [--entities 5] [--repeat 3]

Sentences are the synthetic corpus's (``benchmarks.synthetic``); each gets ``--entities``
entities: windows of 1-3 of its tokens, of which one in ten is written in upper case
(found at the case-insensitive level), one in ten with a comma after it (normalised),
one in ten is a text not in the sentence (ungrounded), and the rest as they are (exact).
Times, best of ``--repeat``: ``nerspan.generative.ground`` from entity lists (reading
included), from raw JSON responses (parsing included), and the ``str.find`` loop, which
only finds the first character offset of each text (no tokens, no levels, no record).
The target: the entity lists of 10,000 sentences x 5 entities in under a second.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from benchmarks.common import best_time
from benchmarks.synthetic import make_corpus
from nerspan.generative import ground, read_generated

# a small run, which tests/test_benchmarks.py runs (benchmarks/README.md)
SMALL = ["--sentences", "200", "--repeat", "1"]

TYPES = ("PER", "LOC", "ORG", "MISC")


def entity_lists(tokens: list, per_sentence: int, seed: int = 0) -> list:
    """Per sentence, ``per_sentence`` entity dicts (see the module docstring)."""
    rng = random.Random(seed)
    out = []
    for words in tokens:
        entities = []
        for k in range(per_sentence):
            a = rng.randrange(len(words))
            text = " ".join(words[a:a + rng.randint(1, 3)])
            kind = rng.randrange(10)
            if kind == 0:
                text = text.upper()
            elif kind == 1:
                text += ","
            elif kind == 2:
                text = f"hallucinated entity {k}"
            entities.append({"text": text, "type": rng.choice(TYPES)})
        out.append(entities)
    return out


def find_loop(texts: list, entities: list) -> int:
    """The yardstick: ``str.find`` of every entity text in its sentence, nothing more."""
    found = 0
    for text, listed in zip(texts, entities):
        for entity in listed:
            if text.find(entity["text"]) >= 0:
                found += 1
    return found


def run(n_sentences: int, per_sentence: int, repeat: int) -> dict:
    tokens, _, _ = make_corpus(n_sentences)
    entities = entity_lists(tokens, per_sentence)
    responses = ["```json\n" + json.dumps(listed) + "\n```" for listed in entities]
    texts = [" ".join(words) for words in tokens]
    n_entities = n_sentences * per_sentence
    print(f"== {n_sentences} sentences x {per_sentence} entities ({n_entities} entities), "
          f"best of {repeat}")
    timings = {
        "ground entity lists": best_time(lambda: ground(entities, tokens=tokens), repeat),
        "ground raw JSON responses": best_time(lambda: ground(responses, tokens=tokens),
                                               repeat),
        "read_generated alone": best_time(lambda: read_generated(entities), repeat),
        "plain str.find loop": best_time(lambda: find_loop(texts, entities), repeat),
    }
    base = timings["plain str.find loop"]
    print(f"{'':28s} {'seconds':>9s} {'entities/s':>12s} {'x str.find':>11s}")
    for name, seconds in timings.items():
        print(f"{name:28s} {seconds:9.3f} {n_entities / seconds:12,.0f} {seconds / base:11.1f}")
    record = ground(entities, tokens=tokens).repairs
    print("levels:", record.levels, "| ungrounded:", len(record.ungrounded),
          "| dropped overlaps:", len(record.dropped_overlaps))
    target = timings["ground entity lists"]
    print(f"grounding {n_entities} entities: {target:.3f} s "
          f"({'under' if target < 1 else 'OVER'} one second for 10,000 x 5)"
          if (n_sentences, per_sentence) == (10_000, 5) else "")
    return timings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=10_000)
    parser.add_argument("--entities", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    timings = run(args.sentences, args.entities, args.repeat)
    print(f"(whole benchmark: {time.perf_counter() - start:.1f} s)")
    return timings


if __name__ == "__main__":
    main()
