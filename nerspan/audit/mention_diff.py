"""The diff of two annotations of the same tokens (METHODS §10): the tags that differ,
and every mention of either side by the kind of change it is part of.

The kinds are data (``DIFF_KINDS``, one record each); every mention of A and every
mention of B gets exactly one, in this order of precedence:

- ``identical``: the same fragments and type on the other side;
- ``retyped``: the same fragments, another type;
- of the rest, mentions of one type that overlap each other across the sides form groups
  (a group is a connected set: A's mentions never overlap each other, nor B's):
  ``split`` (one mention of A, several of B), ``merged`` (several of A, one of B),
  ``reshaped`` (one and one: other boundaries; or several and several);
- ``retyped_reshaped``: type and boundaries both changed: the mention overlaps no
  mention of its type on the other side, but some of another type (that mention may be
  part of another change: A's ``[0, 3) PER`` against B's ``[0, 1) PER`` and
  ``[1, 3) ORG`` is a reshape and B's ORG is ``retyped_reshaped``);
- ``removed`` (A only) / ``added`` (B only): overlapping nothing on the other side.

Sides are flat (one tag column each). Everything is computed in NumPy passes over the
mentions (a sort of the mentions by type and start for the groups); only the listing of
changes in ``to_dict`` builds one Python row per changed mention.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..blocks import Heading, Table
from ..corpus import Corpus
from ..errors import counted
from ..flat import GOLD, PRED
from ..scores import match
from ..spans import Spans, repairs_dict
from .annotations import read_two
from .overlaps import check_flat, on_shared_types, overlap_runs, partners


@dataclass(frozen=True)
class DiffKind:
    """One kind of change: its name (the result's key), the sides it occurs on, what it
    means."""

    name: str
    sides: tuple
    doc: str


DIFF_KINDS = (
    DiffKind("identical", ("a", "b"), "the same fragments and type on both sides"),
    DiffKind("retyped", ("a", "b"), "the same fragments, another type"),
    DiffKind("reshaped", ("a", "b"), "the same type, other boundaries, overlapping one "
             "to one (or several to several)"),
    DiffKind("split", ("a", "b"), "one mention of A overlaps several of B of its type"),
    DiffKind("merged", ("a", "b"), "several mentions of A overlap one of B of their type"),
    DiffKind("retyped_reshaped", ("a", "b"), "type and boundaries both changed: "
             "overlapping mentions of other types only"),
    DiffKind("removed", ("a",), "in A only: overlapping nothing of B"),
    DiffKind("added", ("b",), "in B only: overlapping nothing of A"),
)
KIND = {kind.name: code for code, kind in enumerate(DIFF_KINDS)}
LISTED = 20   # changes the text view lists (``diff_parts``; the JSON lists every one)


def mention_kinds(a: Spans, b: Spans) -> tuple[np.ndarray, np.ndarray]:
    """The kind (an index of ``DIFF_KINDS``) of every mention of ``a`` and of ``b``:
    two flat annotations of the same positions, on shared types (``on_shared_types``).

    >>> from nerspan import Corpus, decode
    >>> c = Corpus.from_tags([["B-PER", "I-PER", "I-PER", "O", "B-LOC"]],
    ...                      [["B-PER", "B-PER", "I-PER", "O", "B-ORG"]])
    >>> kind_a, kind_b = mention_kinds(decode(c), decode(c, "pred"))
    >>> [DIFF_KINDS[k].name for k in kind_a], [DIFF_KINDS[k].name for k in kind_b]
    (['split', 'retyped'], ['split', 'split', 'retyped'])
    """
    check_flat(a, "A")
    check_flat(b, "B")
    kind_a = np.full(len(a), -1, dtype=np.int8)
    kind_b = np.full(len(b), -1, dtype=np.int8)
    exact_a, exact_b = match(a, b)
    kind_a[exact_a], kind_b[exact_b] = KIND["identical"], KIND["identical"]
    same, exact = partners(a, b)
    retyped = (same >= 0) & ~exact
    kind_a[retyped], kind_b[same[retyped]] = KIND["retyped"], KIND["retyped"]
    _group_kinds(a, b, kind_a, kind_b)
    for mine, theirs, kinds, alone in ((a, b, kind_a, "removed"), (b, a, kind_b, "added")):
        rest = np.flatnonzero(kinds < 0)
        overlapping = overlap_runs(mine.take(rest), theirs)[1] > 0
        kinds[rest] = np.where(overlapping, KIND["retyped_reshaped"], KIND[alone])
    return kind_a, kind_b


def _group_kinds(a: Spans, b: Spans, kind_a: np.ndarray, kind_b: np.ndarray) -> None:
    """Set the kind of the mentions (not yet of a kind) that overlap a mention of their
    type on the other side: ``split``, ``merged`` or ``reshaped``, by the sizes of the
    group of such overlaps they are in.

    Each mention is laid on a line where every type has its own stretch (``type *
    (positions + 1) + position``); sorted by start there, a mention starts a new group
    where it starts at or after every end before it (touching is not overlapping).
    """
    rest_a, rest_b = np.flatnonzero(kind_a < 0), np.flatnonzero(kind_b < 0)
    stretch = int(a.offsets[-1]) + 1
    start = np.concatenate([a.type[rest_a].astype(np.int64) * stretch + a.start[rest_a],
                            b.type[rest_b].astype(np.int64) * stretch + b.start[rest_b]])
    if not len(start):
        return
    end = start + np.concatenate([a.length[rest_a], b.length[rest_b]])
    from_a = np.arange(len(start)) < len(rest_a)
    order = np.argsort(start, kind="stable")
    reach = np.maximum.accumulate(end[order])
    new = np.ones(len(order), dtype=bool)
    new[1:] = start[order][1:] >= reach[:-1]
    group = np.empty(len(order), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    n_a = np.bincount(group[from_a], minlength=group.max() + 1)[group]
    n_b = np.bincount(group[~from_a], minlength=group.max() + 1)[group]
    kind = np.select([(n_a == 1) & (n_b >= 2), (n_a >= 2) & (n_b == 1)],
                     [KIND["split"], KIND["merged"]], KIND["reshaped"]).astype(np.int8)
    grouped = (n_a > 0) & (n_b > 0)
    kind_a[rest_a[grouped[from_a]]] = kind[from_a][grouped[from_a]]
    kind_b[rest_b[grouped[~from_a]]] = kind[~from_a][grouped[~from_a]]


@dataclass(frozen=True)
class Diff:
    """The diff of annotation A against annotation B of the same tokens (``diff``).

    ``a``, ``b``: the mentions of each side (on shared types); ``kind_a``, ``kind_b``:
    the kind of each (an index of ``DIFF_KINDS``); ``changed_tags``: the positions whose
    tag differs; ``corpus``: the tokens (for the texts of the listed changes) and
    sentence offsets; ``names``: what A and B are called.
    """

    a: Spans
    b: Spans
    kind_a: np.ndarray
    kind_b: np.ndarray
    changed_tags: np.ndarray
    corpus: Corpus
    names: tuple = ("a", "b")

    def kinds(self) -> dict:
        """kind -> ``{"a": mentions of A, "b": mentions of B}`` of that kind."""
        count_a = np.bincount(self.kind_a, minlength=len(DIFF_KINDS))
        count_b = np.bincount(self.kind_b, minlength=len(DIFF_KINDS))
        return {kind.name: {"a": int(count_a[k]), "b": int(count_b[k])}
                for k, kind in enumerate(DIFF_KINDS)}

    def per_type(self) -> dict:
        """type -> kind -> ``{"a", "b"}``: A's mentions counted under their type, B's
        under theirs (a retyped mention counts once on each side's type)."""
        n_kinds, types = len(DIFF_KINDS), self.a.types
        cells = [np.bincount(side.type.astype(np.int64) * n_kinds + kinds,
                             minlength=len(types) * n_kinds).reshape(len(types), n_kinds)
                 for side, kinds in ((self.a, self.kind_a), (self.b, self.kind_b))]
        return {t: {kind.name: {"a": int(cells[0][i, k]), "b": int(cells[1][i, k])}
                    for k, kind in enumerate(DIFF_KINDS)}
                for i, t in enumerate(types) if cells[0][i].any() or cells[1][i].any()}

    def retyped_pairs(self) -> dict:
        """A's type -> B's type -> retyped mentions (the same fragments)."""
        same, _ = partners(self.a, self.b)
        chosen = self.kind_a == KIND["retyped"]
        pairs, counts = np.unique(np.stack([self.a.type[chosen], self.b.type[same[chosen]]]),
                                  axis=1, return_counts=True)
        out: dict = {}
        for (ta, tb), n in zip(pairs.T.tolist(), counts.tolist()):
            out.setdefault(self.a.types[ta], {})[self.b.types[tb]] = n
        return out

    def kind_sentences(self) -> dict:
        """kind -> the sentences (ascending) holding a mention of that kind, either side."""
        sentence = np.concatenate([self.a.sentence, self.b.sentence])
        kinds = np.concatenate([self.kind_a, self.kind_b])
        return {kind.name: np.unique(sentence[kinds == k]).tolist()
                for k, kind in enumerate(DIFF_KINDS)}

    def changes(self) -> list[dict]:
        """Every mention that is not identical, as a row ``{"sentence", "start", "end"``
        (sentence-relative), ``"type", "side", "kind", "text"}`` (``text`` None without
        tokens), by sentence, start, then side."""
        rows = []
        for side, spans, kinds in (("a", self.a, self.kind_a), ("b", self.b, self.kind_b)):
            chosen = np.flatnonzero(kinds != KIND["identical"])
            sentence = spans.sentence[chosen]
            base = self.corpus.offsets[sentence]
            texts = self._texts(spans.start[chosen], spans.end[chosen])
            for s, a, e, t, k, text in zip(sentence.tolist(), (spans.start[chosen] - base).tolist(),
                                           (spans.end[chosen] - base).tolist(),
                                           spans.type[chosen].tolist(), kinds[chosen].tolist(),
                                           texts):
                rows.append({"sentence": s, "start": a, "end": e, "type": spans.types[t],
                             "side": side, "kind": DIFF_KINDS[k].name, "text": text})
        return sorted(rows, key=lambda row: (row["sentence"], row["start"], row["side"]))

    def _texts(self, starts: np.ndarray, ends: np.ndarray) -> list:
        if self.corpus.tokens is None:
            return [None] * len(starts)
        words = self.corpus.vocab
        return [" ".join(words[i] for i in self.corpus.tokens[s:e])
                for s, e in zip(starts.tolist(), ends.tolist())]

    def to_dict(self) -> dict:
        """Plain JSON: the counts of changed tags and of mentions by kind (overall, per
        type, and A's type -> B's type of the retyped), the sentences of each kind, the
        changes listed (``changes``), and the result contract's shared keys (``repairs``:
        A's as ``gold``, B's as ``pred``)."""
        sentence_of = self.corpus.sentence_of_position
        kinds = self.kinds()
        changed = [k for k in kinds if k != "identical"]
        return {
            "names": {"a": self.names[0], "b": self.names[1]},
            "sentences": self.corpus.n_sentences, "tokens": self.corpus.n_tokens,
            "changed_tags": int(len(self.changed_tags)),
            "changed_tag_sentences": np.unique(sentence_of[self.changed_tags]).tolist(),
            "mentions": {"a": len(self.a), "b": len(self.b)},
            "changed_mentions": {side: sum(kinds[k][side] for k in changed) for side in "ab"},
            "kinds": kinds,
            "kind_sentences": self.kind_sentences(),
            "retyped_pairs": self.retyped_pairs(),
            "per_type": self.per_type(),
            "changes": self.changes(),
            "undefined": [],
            "options": {"scheme": self.a.scheme, "mode": self.a.mode},
            "repairs": repairs_dict(self.a.repairs, self.b.repairs),
        }


def diff_spans(a: Spans, b: Spans, corpus: Corpus, changed_tags: np.ndarray | None = None,
               names: tuple = ("a", "b")) -> Diff:
    """The ``Diff`` of two flat annotations of ``corpus``'s tokens given as spans;
    ``changed_tags``: the positions whose tags differ (None: none known, as for span
    input, which has no tags of its own)."""
    a, b = on_shared_types(a, b)
    kind_a, kind_b = mention_kinds(a, b)
    changed = np.zeros(0, dtype=np.int64) if changed_tags is None else changed_tags
    return Diff(a, b, kind_a, kind_b, np.asarray(changed, dtype=np.int64), corpus,
                tuple(names))


def diff(annotation_a, annotation_b=None, *, columns: tuple = (GOLD, PRED),
         names: tuple | None = None, tokens=None, scheme: str = "IOB2",
         mode: str = "lenient") -> Diff:
    """The diff of annotation A against annotation B of the same tokens (METHODS §10):
    the tags that differ and every mention by kind of change (``DIFF_KINDS``).

    ``annotation_a``, ``annotation_b`` and the options are read as
    ``annotations.read_two`` reads them: tag lists per sentence, or a ``Corpus`` with
    both as ``columns``; generated output is refused.

    >>> d = diff([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-ORG"]],
    ...          tokens=[["Ana", "Lima", "in", "Rio"]])
    >>> d.to_dict()["kinds"]["retyped"], d.to_dict()["changed_tags"]
    ({'a': 1, 'b': 1}, 2)
    >>> [(c["side"], c["kind"], c["text"]) for c in d.changes()]
    [('a', 'reshaped', 'Ana Lima'), ('b', 'reshaped', 'Ana'), ('a', 'retyped', 'Rio'), ('b', 'retyped', 'Rio')]
    """
    two = read_two(annotation_a, annotation_b, columns=columns, names=names, tokens=tokens,
                   scheme=scheme, mode=mode)
    return diff_spans(two.a, two.b, two.corpus, two.changed_tags, two.names)


def diff_parts(result: dict, listed: int = LISTED) -> list[tuple]:
    """A diff (``Diff.to_dict``) for a terminal, as parts of page blocks (a blank line
    between parts): the counts, the kinds by side and per type, the retyped pairs and the
    first ``listed`` changes, a line each."""
    names, kinds = result["names"], result["kinds"]
    parts = [(Heading(f"A = {names['a']}"), Heading(f"B = {names['b']}"), Heading(
        f"{counted(result['changed_tags'], 'changed tag')} in "
        f"{counted(len(result['changed_tag_sentences']), 'sentence')} (of "
        f"{counted(result['tokens'], 'token')}, {counted(result['sentences'], 'sentence')}); "
        f"mentions: A {result['mentions']['a']}, B {result['mentions']['b']}; changed: A "
        f"{result['changed_mentions']['a']}, B {result['changed_mentions']['b']}")),
        (Table(["kind", "A", "B", "sentences"], [
            [k.name] + [kinds[k.name][side] if side in k.sides else None for side in "ab"]
            + [len(result["kind_sentences"][k.name])] for k in DIFF_KINDS]),)]
    changed = [k.name for k in DIFF_KINDS if k.name != "identical"]
    if result["per_type"]:
        parts.append((Heading("Per type (A/B mentions of each kind):"), Table(
            ["type"] + changed, [[t] + [f"{row[k]['a']}/{row[k]['b']}" for k in changed]
                                 for t, row in result["per_type"].items()])))
    pairs = [f"{a} -> {b} {n}" for a, row in result["retyped_pairs"].items()
             for b, n in row.items()]
    if pairs:
        parts.append((Heading("Retyped: " + ", ".join(pairs)),))
    shown, more = result["changes"][:listed], len(result["changes"]) - listed
    if shown:
        parts.append(tuple(map(Heading, [
            "sentence  side  kind              type    tokens  text",
            *(f"{c['sentence']:>8}  {c['side'].upper():4s}  {c['kind']:16s}  {c['type']:6s}  "
              f"{c['start']:>3}-{c['end']:<3}  {c['text'] or ''}".rstrip() for c in shown),
            *([f"({more} more changes in --format json)"] if more > 0 else [])])))
    return parts
