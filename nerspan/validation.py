"""Validate a tag column against a scheme: every invalid transition, where it is, the rule.

A transition is the pair (previous tag, tag); every sentence is read as if an ``O`` came
before and after it. Whether a transition is valid is the scheme's ``valid`` table
(``nerspan.schemes``, the same table that counts lenient decoding's repairs), looked up
for every position at once; a tag whose prefix the scheme does not have (``S-PER`` in
IOB2) is a problem of its own, and every transition into or out of it is invalid. This
is seqscore's ``validate`` (``seqscore/validation.py``): the same problems, in the same
order (per token: its prefix, then the transition into it; then the end of the
sentence), on every scheme both have.

>>> v = validate([["O", "I-PER", "I-PER"], ["B-LOC"]], "IOB2")
>>> v.valid, len(v.problems)
(False, 1)
>>> print(v.problems[0].message())
sentence 0, position 1: invalid transition 'O' -> 'I-PER': I-PER may follow only B-PER or I-PER
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass

import numpy as np

from .corpus import GOLD, Corpus
from .errors import NerspanError, counted
from .schemes import N_PREFIXES, O, Scheme, get_scheme, split_tag
from .spans import LabelTable, Transitions, check_tags
from .tagfiles import column_note, tag_source

PREFIX, TRANSITION, END = "prefix", "transition", "end"  # the kinds of problem, in order


class InvalidTransitionError(NerspanError):
    """A tag column holds transitions its scheme does not allow, and nothing was asked
    to repair them."""


@dataclass(frozen=True)
class Problem:
    """One invalid place of a tag column.

    ``kind``: ``"prefix"`` (the tag's prefix is not the scheme's), ``"transition"``
    (``previous`` -> ``tag`` is invalid; ``previous`` None at a sentence's start) or
    ``"end"`` (``previous``, the sentence's last tag, cannot end it; ``tag`` None).
    ``position`` is the token's index in the sentence (for ``"end"``, the last token's),
    ``line`` its line in ``path`` (None for input not read from a file), ``rule`` what
    the scheme requires there.
    """

    kind: str
    sentence: int
    position: int
    previous: str | None
    tag: str | None
    token: str | None
    rule: str
    line: int | None = None
    path: str | None = None

    def message(self) -> str:
        """One line: where (``file:line`` for a file), what, the rule."""
        where = (f"{self.path}:{self.line}" if self.path is not None
                 else f"sentence {self.sentence}, position {self.position}")
        if self.kind == PREFIX:
            what = f"invalid prefix in {self.tag!r}"
        elif self.kind == END:
            what = f"invalid transition {self.previous!r} -> 'O' at the end of the sentence"
        else:
            what = f"invalid transition {self.previous or 'O'!r} -> {self.tag!r}"
        if self.token is not None:
            what += f" ({'after ' if self.kind == END else ''}token {self.token!r})"
        return f"{where}: {what}: {self.rule}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "file": self.path, "line": self.line,
                "sentence": self.sentence, "position": self.position, "token": self.token,
                "previous": self.previous, "tag": self.tag, "rule": self.rule}


@dataclass(frozen=True)
class Validation:
    """The problems of one tag column under one scheme (empty: the column is valid),
    and the size of what was read (``documents``: for files, else None). For a file:
    ``tag_column``, the column validated (as given, negative from the end; -1 the last),
    and ``other_tag_columns``, the other columns that hold tags of the same entity types
    when no column was given (column -> the types shared, ``TagFile.other_tag_columns``).
    """

    scheme: str
    problems: tuple
    tokens: int
    sentences: int
    documents: int | None = None
    path: str | None = None
    tag_column: int | None = None
    other_tag_columns: dict | None = None

    @property
    def valid(self) -> bool:
        return not self.problems

    def messages(self) -> list[str]:
        return [problem.message() for problem in self.problems]

    def text(self) -> str:
        """The problems' messages, then the verdict with the size read, then
        ``column_note`` when there is one (each after the file's name)."""
        size = (f"{self.documents} document(s), {self.sentences} sentence(s), "
                f"{self.tokens} token(s)")
        verdict = (f"valid {self.scheme}" if self.valid else
                   f"{len(self.problems)} problem(s) under {self.scheme}")
        note = self.column_note()
        return "\n".join(self.messages() + [f"{self.path}: {verdict} ({size})"]
                         + ([f"{self.path}: {note}"] if note else []))

    def to_dict(self) -> dict:
        """Plain JSON: the counts and every problem (``Problem.to_dict``)."""
        return {"scheme": self.scheme, "file": self.path, "valid": self.valid,
                "problems": len(self.problems), "tokens": self.tokens,
                "sentences": self.sentences, "documents": self.documents,
                "tag_column": self.tag_column,
                "other_tag_columns": None if self.other_tag_columns is None else
                {str(column): types for column, types in self.other_tag_columns.items()},
                "errors": [problem.to_dict() for problem in self.problems]}

    def column_note(self) -> str | None:
        """Which column of a file was validated, when another holds tags of the same
        types (None otherwise): the one line a reader of "valid" needs.

        >>> Validation("IOB2", (), 3, 1, tag_column=-1, other_tag_columns={1: ["PER"]}
        ...            ).column_note()
        'validated the last column; column 1 holds tags of the same types too (PER): tag_column=1 (--tag-column 1) validates it'
        """
        return column_note(self.tag_column, self.other_tag_columns or {}, "validated",
                           "validates")


def validate(source, scheme: str | Scheme = "IOB2", *, column: str = GOLD, tokens=None,
             types=None, **file_options) -> Validation:
    """Every invalid transition and prefix of a tag column under ``scheme``.

    Args:
        source: a column file (path or ``nerspan.tagfiles.TagFile``), a ``Corpus`` (its
            ``column``), or lists of tags per sentence (with ``tokens``, optionally).
        scheme: the scheme the tags should follow (``nerspan.schemes.SCHEMES``).
        types: a ``nerspan.type_processing.TypeProcessing`` applied to the tags first,
            tag by tag (``TypeProcessing.relabel``: they need not form mentions yet).
        file_options: for a path: ``tag_column`` (default: the last, other columns of
            tags named, ``Validation.other_tag_columns``), ``token_column`` (0),
            ``comment_prefix``, ``encoding`` (see ``TagFile``).

    Raises ``InvalidTagError`` (file:line) for a value that is no tag at all.

    >>> validate([["B-PER", "E-PER"]], "IOBES").valid
    True
    >>> [p.kind for p in validate([["B-PER", "S-PER"]], "IOB2").problems]
    ['prefix', 'transition', 'end']
    """
    corpus, column, file = tag_source(source, column=column, tokens=tokens, **file_options)
    if types is not None:
        corpus = types.relabel(corpus, column)
    scheme = get_scheme(scheme)
    table = LabelTable.build(corpus.labels, scheme)
    check_tags(corpus, corpus.column(column), table, scheme, "lenient", "tags")
    found = find_problems(corpus, column, table, scheme)
    problems = tuple(_problems(corpus, column, table, scheme, found))
    return Validation(scheme.name, problems, corpus.n_tokens, corpus.n_sentences,
                      file.documents(corpus) if file else None, corpus.source.path,
                      file.column if file else None,
                      file.other_tag_columns() if file else None)


def find_problems(corpus: Corpus, column: str, table: LabelTable, scheme: Scheme
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat positions (ascending) of the tags outside ``scheme``, of the tokens whose
    transition in is invalid, and of the last tokens of sentences that cannot end
    there: one look-up per position in the scheme's ``valid`` table (``Transitions``).
    """
    ids = corpus.column(column)
    flags = Transitions(table, (~scheme.tables["valid"]).astype(np.uint8))
    _, heads, tails = corpus.nonempty_sentences
    outside = np.take(table.outside_scheme, ids)
    invalid = flags.at(ids, 0, len(ids), heads) != 0
    invalid |= outside
    after_outside = outside[:-1].copy()
    after_outside[heads[1:] - 1] = False  # a sentence's first tag follows the sentinel O
    invalid[1:] |= after_outside
    last = tails - 1
    end = flags.of(np.take(ids, last), np.full(len(last), flags.sentinel)) != 0
    end |= np.take(outside, last)
    return np.flatnonzero(outside), np.flatnonzero(invalid), last[end]


def _problems(corpus: Corpus, column: str, table: LabelTable, scheme: Scheme, found):
    """``Problem`` records for ``find_problems``'s positions, in seqscore's order."""
    kinds = (PREFIX, TRANSITION, END)
    position = np.concatenate(found)
    kind = np.repeat(np.arange(3), [len(f) for f in found])
    order = np.lexsort((kind, position))
    position, kind = position[order], kind[order]
    ids, labels = corpus.column(column), corpus.labels
    sentence = np.searchsorted(corpus.offsets, position, side="right") - 1
    index = position - corpus.offsets[sentence]
    lines = token_lines(corpus, sentence, index)
    words = (np.asarray(corpus.vocab, dtype=object)[corpus.tokens[position]]
             if corpus.tokens is not None else [None] * len(position))
    rules = {}
    for p, k, s, i, line, word in zip(position.tolist(), kind.tolist(), sentence.tolist(),
                                      index.tolist(), lines, words):
        if k == 2:  # the end: the last tag is the previous one
            previous, tag = labels[ids[p]], None
        else:  # a prefix problem is the tag's alone
            previous, tag = labels[ids[p - 1]] if k == 1 and i else None, labels[ids[p]]
        key = (k, previous, tag)
        if key not in rules:
            rules[key] = rule(scheme, previous, tag, outside=k == 0)
        yield Problem(kinds[k], s, i, previous, tag, word, rules[key], line,
                      corpus.source.path)


def token_lines(corpus: Corpus, sentence: np.ndarray, index: np.ndarray) -> list:
    """The file line of every token (``sentence``, ``index`` in it); Nones when the
    corpus was not read from a file."""
    first = corpus.source.sentence_lines
    return [None] * len(sentence) if first is None else (first[sentence] + index).tolist()


def rule(scheme: str | Scheme, previous: str | None, tag: str | None,
         outside: bool = False) -> str:
    """What ``scheme`` requires where ``previous`` -> ``tag`` breaks it (None: the
    sentence's start or end), read off its ``valid`` table.

    >>> rule("IOBES", "B-PER", None)
    'B-PER must be followed by I-PER or E-PER'
    >>> rule("IOB1", "B-PER", "B-LOC")
    'B-LOC may follow only B-LOC or I-LOC'
    >>> rule("IOB2", None, "S-PER", outside=True)
    'S- is not a prefix of IOB2 (its prefixes: O, B, I)'
    """
    scheme = get_scheme(scheme)
    for label in ([tag] if outside else [previous, tag]):
        if label is not None and split_tag(label)[0] not in scheme.prefixes:
            return (f"{split_tag(label)[0]}- is not a prefix of {scheme.name} "
                    f"(its prefixes: {', '.join(scheme.prefixes)})")
    if previous is not None and not _valid(scheme, previous, "O"):
        return f"{previous} must be followed by {_neighbours(scheme, previous, after=True)}"
    if tag is not None and tag != "O":
        return f"{tag} may follow only {_neighbours(scheme, tag, after=False)}"
    return f"{previous or 'O'} -> {tag or 'O'} is not a {scheme.name} transition"


def _valid(scheme: Scheme, previous: str, tag: str) -> bool:
    (p, p_type), (c, c_type) = split_tag(previous), split_tag(tag)
    code = (scheme.prefixes[p] * N_PREFIXES + scheme.prefixes[c]) * 2 + (p_type == c_type)
    return bool(scheme.tables["valid"][code])


def _neighbours(scheme: Scheme, label: str, after: bool) -> str:
    """The tags that may follow (``after``) or precede ``label``, as a phrase: ``X-T``
    for its own type ``T``, ``X-*`` for any type, ``X-(not T)`` for another type."""
    _, own = split_tag(label)
    phrases = []
    for letter in scheme.prefixes:
        if scheme.prefixes[letter] == O:
            ok = _valid(scheme, label, "O") if after else _valid(scheme, "O", label)
            phrases += ["O"] if ok else []
            continue
        same, other = (f"{letter}-{own}", f"{letter}-{own}~")  # ~: another type
        pairs = [(label, t) if after else (t, label) for t in (same, other)]
        ok_same, ok_other = (_valid(scheme, *pair) for pair in pairs)
        phrases += ([f"{letter}-*"] if ok_same and ok_other else [same] if ok_same
                    else [f"{letter}-(not {own})"] if ok_other else [])
    return ", ".join(phrases[:-1]) + " or " + phrases[-1] if len(phrases) > 1 else phrases[0]


def check_valid(corpus: Corpus, column: str, table: LabelTable, scheme: Scheme) -> None:
    """Raise ``InvalidTransitionError`` naming the first problem of the column (and
    how many there are) unless it is valid under ``scheme``."""
    found = find_problems(corpus, column, table, scheme)
    n = sum(len(f) for f in found)
    if not n:
        return
    first = next(_problems(corpus, column, table, scheme, found))
    # the remedies in both spellings, the API's and the command line's
    listing = "nerspan.validation.validate" + (f"; nerlens validate {shlex.quote(first.path)} "
                                               f"--scheme {scheme.name}" if first.path else "")
    raise InvalidTransitionError(
        f"{counted(n, 'problem')} under {scheme.name}; the first: "
        f"{first.message().split(': ', 1)[1]}. Validate the tags ({listing}) or repair them "
        "first: repair='conlleval' (--repair conlleval) reads them as conlleval.pl does, "
        "repair='discard' (--repair discard) drops the mentions written invalidly",
        first.sentence, first.path, first.line, position=first.position)
