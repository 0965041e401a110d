"""Agreement of two annotations of the same tokens (METHODS §10): mention-level F1 with
one as the reference, and Cohen's kappa over the tokens' tags, overall and per type.

Cohen's kappa of two labellings of the same items is ``(p_o - p_e) / (1 - p_e)``:
``p_o`` the share of items both give the same label, ``p_e`` the share expected by
chance, ``sum over labels of p_A(label) * p_B(label)`` (each side's label shares). It is
undefined (None) when ``p_e`` is 1: both sides give every item one and the same label.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..blocks import Heading, Note, Table
from ..flat import GOLD, PRED
from ..scores import EntityScores, entity_scores
from .annotations import read_two
from .overlaps import on_shared_types


def cohen_kappa(a: np.ndarray, b: np.ndarray, n_labels: int | None = None) -> dict:
    """``{"kappa", "observed", "chance"}`` of two labellings (integer arrays of label
    ids, one per item): kappa None when undefined (chance agreement 1), every value
    None without items. Equals scikit-learn's ``cohen_kappa_score`` (unweighted).

    >>> cohen_kappa(np.array([0, 0, 1, 1]), np.array([0, 1, 1, 1]))
    {'kappa': 0.5, 'observed': 0.75, 'chance': 0.5}
    """
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    if not len(a):
        return {"kappa": None, "observed": None, "chance": None}
    n_labels = n_labels or int(max(a.max(), b.max())) + 1
    n = len(a)
    observed = int(np.count_nonzero(a == b)) / n
    chance = float(np.dot(np.bincount(a, minlength=n_labels),
                          np.bincount(b, minlength=n_labels))) / (n * n)
    kappa = (observed - chance) / (1 - chance) if chance < 1 else None
    return {"kappa": kappa, "observed": observed, "chance": chance}


@dataclass(frozen=True)
class Agreement:
    """How far two annotations of the same tokens agree (``agreement``).

    ``mentions``: nerspan's entity scores of B against A as reference (precision = share
    of B's mentions that A has, recall = share of A's that B has; F1 is symmetric);
    ``tags``: Cohen's kappa over every token's tag (``cohen_kappa``); ``per_type``: type
    -> the binary kappa of "the token is inside a mention of this type" on each side
    (``cohen_kappa`` over two booleans per token).
    """

    mentions: EntityScores
    tags: dict
    type_kappa: dict
    names: tuple
    n_tokens: int

    def to_dict(self) -> dict:
        """Plain JSON: ``precision``, ``recall``, ``f1`` of B against A (entity scores,
        seqeval's ``zero_division`` 0; ``undefined`` says where it applied), ``kappa``,
        ``observed_agreement``, ``chance_agreement`` over the tags, per type the six
        entity-score keys and ``kappa``, and the result contract's shared keys."""
        scores = self.mentions.to_dict()
        per_type = {t: {**row, "kappa": self.type_kappa[t]["kappa"]}
                    for t, row in scores["per_type"].items()}
        out = {"names": {"a": self.names[0], "b": self.names[1]},
               "precision": scores["precision"], "recall": scores["recall"],
               "f1": scores["f1"], "kappa": self.tags["kappa"],
               "observed_agreement": self.tags["observed"],
               "chance_agreement": self.tags["chance"], "tokens": self.n_tokens,
               "mentions": {"a": scores["gold"], "b": scores["predicted"],
                            "identical": scores["correct"]},
               "per_type": per_type}
        out["undefined"] = list(scores["undefined"]) + [
            key for key in ("kappa", "observed_agreement", "chance_agreement")
            if out[key] is None] + [f"{t}/kappa" for t, row in per_type.items()
                                    if row["kappa"] is None]
        out["options"] = {**scores["options"], "reference": self.names[0]}
        out["repairs"] = scores["repairs"]
        return out


def agreement_of(two) -> Agreement:
    """The ``Agreement`` of two decoded annotations (``annotations.read_two``)."""
    a, b = on_shared_types(two.a, two.b)
    ids_a, ids_b = two.tag_ids
    tags = cohen_kappa(ids_a, ids_b, len(two.corpus.labels))
    n = two.corpus.n_tokens
    io_a, io_b = a.io_codes(n), b.io_codes(n)
    present = np.union1d(a.type, b.type).tolist()
    type_kappa = {a.types[t]: cohen_kappa(io_a == 1 + t, io_b == 1 + t, 2) for t in present}
    return Agreement(entity_scores(a, b), tags, type_kappa, two.names, n)


def agreement(annotation_a, annotation_b=None, *, columns: tuple = (GOLD, PRED),
              names: tuple | None = None, scheme: str = "IOB2",
              mode: str = "lenient") -> Agreement:
    """The agreement of annotation A and annotation B of the same tokens: mention F1
    with A as the reference, and Cohen's kappa over the tokens' tags, overall and per
    type (``Agreement``).

    ``annotation_a``, ``annotation_b`` and the options are read as
    ``annotations.read_two`` reads them: tag lists per sentence, or a ``Corpus`` with
    both as ``columns``; generated output is refused.

    >>> result = agreement([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]])
    >>> result.to_dict()["f1"], round(result.to_dict()["kappa"], 4)
    (0.5, 0.6667)
    """
    two = read_two(annotation_a, annotation_b, columns=columns, names=names, scheme=scheme,
                   mode=mode)
    return agreement_of(two)


def agreement_parts(result: dict) -> list[tuple]:
    """An agreement (``Agreement.to_dict``) for a terminal, as parts of page blocks: the
    overall numbers, then a row per type."""
    names, mentions = result["names"], result["mentions"]
    rows = [[t, row["precision"], row["recall"], row["f1"], row["kappa"]]
            for t, row in sorted(result["per_type"].items())]
    return [(Heading(f"A = {names['a']} (the reference)"), Heading(f"B = {names['b']}"),
             Heading(f"mentions: A {mentions['a']}, B {mentions['b']}, identical "
                     f"{mentions['identical']}"),
             Table(["", "precision", "recall", "F1", "kappa", "observed", "chance"],
                   [["all", *(result[key] for key in ("precision", "recall", "f1", "kappa",
                                                      "observed_agreement",
                                                      "chance_agreement"))]])),
            (*([Table(["type", "precision", "recall", "F1", "kappa"], rows)] if rows else []),
             Note("Percent (kappa x 100 too). F1 of mentions (B against A; symmetric); "
                  "Cohen's kappa over every token's tag (per type: inside a mention of that "
                  "type or not); - = undefined."))]
