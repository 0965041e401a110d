"""One result protocol: what every family's ``score`` returns, and its per-type rows.

Every result (``nerspan.EntityScores`` and the four families' results) is an immutable
object built once, whose ``to_dict()`` is plain JSON with:

- ``precision``, ``recall``, ``f1`` where the method defines them: nerspan's exact-match
  entity scores (seqeval's ``zero_division``);
- ``per_type``: one row per entity type; a row that has entity scores has them as
  ``precision``, ``recall``, ``f1``, ``support``, ``predicted``, ``correct``
  (``entity_row``);
- ``undefined``: the top-level keys whose value is undefined (None) or took
  ``zero_division`` (``undefined_keys``; nerspan's entity scores add ``TYPE/key`` for
  per-type ratios);
- ``options`` (every option that shaped the numbers, ``scheme`` and ``mode`` included)
  and ``repairs`` (``{"gold": ..., "pred": ...}``, ``nerspan.spans.repairs_dict``).

A family result also has ``statistics()``: its headline numbers as bootstrap
``nerspan.bootstrap.Statistic`` over sentences. ``Result`` and ``FamilyResult`` say it
as protocols; ``tests/test_result_contract.py`` checks every family against them.

>>> entity_row(1, 2, 1)
{'precision': 0.5, 'recall': 1.0, 'f1': 0.6666666666666666, 'support': 1, 'predicted': 2, 'correct': 1}
>>> entity_row(0, 0, 1)["precision"], entity_row(0, 0, 1, zero_division=1.0)["precision"]
(None, 1.0)
>>> undefined_keys({"precision": 0.0, "recall_tcm": None, "f1": 0.0}, ["precision"])
['precision', 'recall_tcm']
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from .fbeta import check_beta, with_fbeta

# The keys every result's ``to_dict()`` has, whatever the family.
SHARED_KEYS = ("per_type", "undefined", "options", "repairs")
# The keys of a per-type row's entity scores (``entity_row``).
ENTITY_ROW_KEYS = ("precision", "recall", "f1", "support", "predicted", "correct")


class Result:
    """What every result is: immutable, built once, read as plain data.

    A result gives its numbers as ``to_dict(beta=1.0)``: plain JSON with the shared keys
    (``SHARED_KEYS``) and its own (``plain_dict``), and with a ``beta`` other than 1 the
    F-beta beside every F1 that has its precision and recall (``nerspan.fbeta``; the
    one place F-beta is added), ``beta`` stated in ``options``. ``undefined()``: the
    top-level keys whose value is undefined or took ``zero_division``.
    """

    options: dict
    repairs: dict
    # methods 0.2 renamed: old name -> what to call instead (each result class its own)
    moved_methods = {}

    def __getattr__(self, name: str):
        """Only for a name the result does not have: a renamed method's error names its
        new spelling."""
        moved = type(self).moved_methods.get(name)
        if moved is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        raise AttributeError(f"{type(self).__name__}.{name}() is {moved} since nerlens 0.2")

    def to_dict(self, beta: float = 1.0) -> dict:
        """The result as plain JSON; ``beta``: also F-beta beside every F1."""
        beta = check_beta(beta)
        out = self.plain_dict()
        if beta == 1:
            return out
        out = with_fbeta(out, beta, self.fbeta_means(beta))
        out["options"] = {**out.get("options", {}), "beta": beta}
        return out

    def plain_dict(self) -> dict:
        """The result's keys (``to_dict`` at ``beta=1``)."""
        raise NotImplementedError

    def fbeta_means(self, beta: float) -> dict:
        """Means over types whose F-beta is no F of means (``macro_f1`` -> its F-beta):
        none but where a result has them."""
        return {}

    def undefined(self) -> list:
        """The top-level keys of ``to_dict()`` whose value is undefined or took
        ``zero_division`` (``to_dict()["undefined"]``)."""
        raise NotImplementedError


@runtime_checkable
class FamilyResult(Protocol):
    """A family's result: a ``Result`` whose numbers the report's bootstrap resamples."""

    def statistics(self) -> list:
        """The headline numbers as ``nerspan.bootstrap.Statistic`` over sentences."""


def entity_row(correct: int, predicted: int, gold: int,
               zero_division: float | None = None) -> dict:
    """One per-type row's entity scores: precision, recall and F1 of ``correct`` of
    ``predicted`` mentions against ``gold`` ones, and the three counts.

    ``zero_division`` None: an undefined ratio is None (precision without predictions,
    recall without gold, F1 without either); a number: it is that number, and F1 comes
    from precision and recall, as seqeval gives them (``nerspan.score``).
    """
    correct, predicted, gold = int(correct), int(predicted), int(gold)
    if zero_division is None:
        precision = correct / predicted if predicted else None
        recall = correct / gold if gold else None
        f1 = 2 * correct / (predicted + gold) if predicted + gold else None
    else:
        precision = correct / predicted if predicted else float(zero_division)
        recall = correct / gold if gold else float(zero_division)
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "support": gold,
            "predicted": predicted, "correct": correct}


def undefined_keys(out: dict, zero_division=()) -> list:
    """``zero_division`` (the keys that took it), then every other top-level key of
    ``out`` whose value is None, in ``out``'s order."""
    listed = list(zero_division)
    return listed + [key for key, value in out.items() if value is None and key not in listed]


__all__ = ["Result", "FamilyResult", "entity_row", "undefined_keys", "SHARED_KEYS",
           "ENTITY_ROW_KEYS"]
