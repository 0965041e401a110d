"""What the engine tests (``tests/test_engines_*.py``) score: a random corpus with
repairs to make, and each family that merges (``nerlens.engines.merging_families()``:
nerspan's entity scores and every registered family whose descriptor merges, so a
family that gains a partial is tested on every engine at once), with the options its
``score`` needs, and its one-pass result to compare with.
"""
from __future__ import annotations

import random
import warnings

import nerspan
from nerlens.engines import ENTITY_SCORES, merging_families
from nerlens.families import get_family
from nerspan.errors import DecodingWarning

# I-MISC opens a mention (a repair in lenient mode); few words, so texts repeat
TAGS = ("O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "I-MISC")
LABELS = list(dict.fromkeys(TAGS))
WORDS = ("Ana", "Lima", "Kim", "UK", "in", "the", "ACME")
TRAIN = nerspan.as_train_index(([["Ana", "Lima", "in", "UK"], ["Kim", "the", "ACME"]],
                                [["B-PER", "B-LOC", "O", "B-ORG"], ["B-PER", "O", "B-ORG"]]))
FAMILIES = merging_families()


def corpus(n_sentences: int, seed: int = 0) -> tuple[list, list, list]:
    """``(gold, pred, words)``: ``n_sentences`` random sentences (empty ones too)."""
    draw = random.Random(seed)
    lengths = [draw.randint(0, 7) for _ in range(n_sentences)]
    gold, pred, words = ([[draw.choice(choices) for _ in range(n)] for n in lengths]
                         for choices in (TAGS, TAGS, WORDS))
    return gold, pred, words


def options(family: str) -> dict:
    """The options ``family``'s score is tested with: training data when it needs it."""
    needs_train = family != ENTITY_SCORES and get_family(family).needs_train
    return {"train": TRAIN} if needs_train else {}


def one_pass(family: str, gold, pred, words=None, **kwargs) -> dict:
    """``family``'s ``to_dict()`` of the whole corpus, scored in one process."""
    score = nerspan.score if family == ENTITY_SCORES else get_family(family).score
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DecodingWarning)
        return score(gold, pred, tokens=words, **options(family), **kwargs).to_dict()


def with_bad_tag(gold: list, pred: list, words: list, where: int) -> tuple:
    """Copies of ``gold``, ``pred`` and ``words`` where sentence ``where`` ends in a tag
    that is none (``X-PER``) on the gold side."""
    gold, pred, words = ([list(s) for s in side] for side in (gold, pred, words))
    for side, value in ((gold, "X-PER"), (pred, "O"), (words, "Kim")):
        side[where].append(value)
    return gold, pred, words
