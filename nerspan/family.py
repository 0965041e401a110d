"""A metric family as one descriptor: everything the layers above need to know of it.

A family package (``tough_mentions``, ...) exports one ``Family`` record; nerlens reads
these records (its report, experiment, Trainer helper, command line and Spaces) and names
no family. A family registers its record through the entry point group
``nerlens.families`` (the four built-in families in nerlens' own setup.cfg, another one in
its own distribution's) or at run time with ``nerlens.register_family(record)``.

The record holds data and functions of plain data: results are the family's
``to_dict()``; a report's numbers come to the family's functions as a ``ReportView``, an
experiment's as an ``ExperimentView``; what a family shows is a tuple of page blocks
(``nerspan.blocks``), which nerlens renders; figures are matplotlib Figures by title.

>>> family = Family(name="tiny", title="Tiny", order=9, score=lambda *a, **k: None,
...                 headline=(Headline("accuracy", "acc", "token accuracy"),))
>>> family.key("accuracy"), family.headline[0].title
('tiny.accuracy', 'token accuracy')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

from .blocks import Note
from .bootstrap import MIN_SUPPORT


def _frozen(mapping) -> Mapping:
    return MappingProxyType(dict(mapping or {}))


# -- what a family shows and states --------------------------------------------------------
@dataclass(frozen=True)
class Headline:
    """A headline statistic, one of the handful a reader compares first: ``key`` in the
    family's statistics (without the family prefix), ``column`` its short header in the
    terminal, ``legend`` what the terminal's legend says of it, ``title`` its name in the
    experiment's tables (default: ``legend``), ``undefined``: when it is undefined (the
    pages' example of an undefined number).

    ``value``: for a headline number that is no bootstrap statistic of the family (the
    largest bucket gap), ``value(result dict) -> (number or None, what it is about)``;
    the report's headline table computes it from each system's result (no interval), and
    what reads statistics only (the experiment's tests, the terminal) leaves it out."""

    key: str
    column: str
    legend: str
    title: str = ""
    undefined: str = ""
    value: Callable | None = None

    def __post_init__(self):
        if not self.title:
            object.__setattr__(self, "title", self.legend)


@dataclass(frozen=True)
class Rule:
    """A finding rule: ``text`` (what the page says of the rule) and ``function`` (a view
    -> the findings that hold, ``finding(...)`` dicts). A ``warning`` is about the test
    data rather than the systems: it is stated first."""

    name: str
    text: str
    function: Callable
    warning: bool = False


@dataclass(frozen=True)
class Examples:
    """How a family lists error examples: ``kinds`` (kind -> its human name, in page
    order), ``rows(result, system, context)`` -> ``{kind: [row, ...]}`` for one system
    (``result``: its result dict, scored with the family's ``report_options``;
    ``context``: the report's ``nerspan.Evaluation``), and ``listed``, the result keys
    holding the listing (the report removes them from the results it keeps).
    ``classifies_mentions``: the kinds sort every gold and predicted mention (with
    ``return_pairs=True`` the result lists the correct pairs as ``"TP"`` events), so a page
    may color mentions by kind (the Spaces do).

    A row: ``{"sentence": i, "gold": [type, start, end] or None, "predicted": [...] or
    None}`` (token offsets in the sentence; ``"predicted_tags"`` instead of
    ``"predicted"`` for a mention's tags, ``"error"`` and ``"text"`` as detail), or a
    token: ``{"sentence", "token_index", "token", "subset", "gold_tag", "predicted_tag"}``;
    ``subsets`` names a token row's ``subset`` for the page (key -> human name).
    """

    kinds: Mapping
    rows: Callable
    listed: tuple = ()
    classifies_mentions: bool = False
    subsets: Mapping = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "kinds", _frozen(self.kinds))
        object.__setattr__(self, "subsets", _frozen(self.subsets))
        object.__setattr__(self, "listed", tuple(self.listed))


@dataclass(frozen=True)
class Logged:
    """What the Trainer logs of a family's result (numbers, flat, prefixed by the
    family's name): ``nested`` names nested parts (part -> ``"drop"``: its children take
    no name of the part; ``"suffix:NAME"``: they end in ``_NAME``), ``headline`` the result
    keys to watch (``metric_for_best_model``), ``trainer_keys`` the other numbers logged by
    default (``detail="headline"``; ``detail="all"`` logs every number): paths in the
    result as its flat names are built (after ``nested``), parts joined by ``/``, ``*``
    standing for any one part (``"per_type/*/f1"``: every type's F1)."""

    nested: Mapping = field(default_factory=dict)
    headline: tuple = ()
    trainer_keys: tuple = ()

    def __post_init__(self):
        object.__setattr__(self, "nested", _frozen(self.nested))
        object.__setattr__(self, "headline", tuple(self.headline))
        object.__setattr__(self, "trainer_keys", tuple(self.trainer_keys))

    def logs(self, path: tuple) -> bool:
        """Whether ``detail="headline"`` logs the number at ``path`` (its name's parts)."""
        return any(_matches(pattern.split("/"), path)
                   for pattern in self.headline + self.trainer_keys)


def _matches(pattern: list, path: tuple) -> bool:
    return len(pattern) == len(path) and all(p in ("*", part) for p, part in zip(pattern, path))


@dataclass(frozen=True)
class Repairs:
    """What a family repairs in the tags beyond nerspan's decoding (hardeval re-encodes
    predictions): ``count(result)`` -> ``{kind: count}`` of one system's result, listed as
    ``source``; ``note`` says what the repairs are."""

    source: str
    count: Callable
    note: str


@dataclass(frozen=True)
class Section:
    """A section of a page: its anchor, title and blocks."""

    anchor: str
    title: str
    blocks: tuple


@dataclass(frozen=True)
class ExperimentPart:
    """What a family adds to an experiment (several datasets, several runs per system):
    ``compute(view)`` -> ``{key: JSON data}`` for each of ``keys`` (each key is then an
    attribute of the experiment and a key of its JSON; ``{}`` when the family did not
    run); ``sections(view)`` -> its ``Section``s of the experiment page, given an empty
    view when the family did not run (they say so); ``figures(view)`` -> ``{title:
    matplotlib Figure}`` across datasets; ``findings``: its rules."""

    keys: tuple
    compute: Callable
    sections: Callable
    figures: Callable | None = None
    findings: tuple = ()

    def __post_init__(self):
        object.__setattr__(self, "keys", tuple(self.keys))
        object.__setattr__(self, "findings", tuple(self.findings))


# -- what a family's functions read --------------------------------------------------------
@dataclass(frozen=True)
class ReportView:
    """One report as one family sees it.

    ``results``: system -> the family's result dict; ``estimates`` and ``intervals``:
    system -> statistic (full name, ``family.key``) -> value / ``{low, high, support,
    too_small}`` (empty without bootstrap); ``analyses``: the family's extra analyses;
    ``figures``: the titles of the figures drawn; ``drawn``: the systems that get
    per-system figures; ``info``: the report's settings (``confidence``, ``baseline``, ...).
    Empty ``results``: the family did not run.
    """

    family: str
    systems: tuple
    results: Mapping
    estimates: Mapping = field(default_factory=dict)
    intervals: Mapping = field(default_factory=dict)
    analyses: Mapping = field(default_factory=dict)
    figures: frozenset = frozenset()
    drawn: tuple = ()
    info: Mapping = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        return bool(self.results)

    def first(self) -> Mapping:
        """The first system's result (what every system's result shares: subsets,
        buckets, counts of gold)."""
        return self.results[self.systems[0]]


@dataclass(frozen=True)
class ExperimentView:
    """An experiment as one family sees it: ``results``: dataset -> report column (a run)
    -> the family's result dict (the datasets where it ran); ``runs``: dataset -> system ->
    its columns; ``data``: what the family's ``compute`` gave (empty while computing);
    ``figures``: the titles of the figures drawn; ``info``: ``alpha``, ``baseline``, ..."""

    family: str
    datasets: tuple
    systems: tuple
    runs: Mapping
    results: Mapping
    data: Mapping = field(default_factory=dict)
    figures: frozenset = frozenset()
    info: Mapping = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        return bool(self.results)


# -- the descriptor ------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class Family:
    """A metric family, described once.

    - ``name``: the package's name, the prefix of its statistics (``name.key``) and of its
      Trainer keys (``name_key``); ``title``: its report section's title; ``order``: its
      place in the report (METHODS.md's section number for the built-in families).
    - ``score(references, predictions=None, *, tokens, train, scheme, mode, label_list,
      inputs, <its own options>, options)``: the family's entry point, taking a
      ``nerspan.Evaluation`` as references and a system's name as predictions (the report
      calls ``score(evaluation, system, options=...)``: the evaluation carries scheme,
      mode and training index, and ``evaluation.spans(system)`` gives the system's spans,
      decoded once for every family); returns a result with ``to_dict(beta=1.0)`` and
      ``statistics()`` (``nerspan.bootstrap.Statistic``s named ``name.key``).
      ``options``: the record of its own options (a ``nerspan.records.Record`` class,
      whose fields the command line's flags and the evaluate module's features are
      made of), which ``score`` takes whole as ``options=``. ``needs_train`` /
      ``needs_tokens``: it needs training data / the test words (the one place that
      says so).
    - ``headline``: its ``Headline`` statistics; ``statistic_name(key, first result)``: a
      statistic's human name (None: none); ``same_as_entity``: its statistics that restate
      nerspan's entity scores (the report shows those once, as ``entity_*``).
    - ``report_options``: options of its record the report passes (to list examples, to
      add detail); ``nested_options``: the options under which it takes gold that nests
      (the report passes them then, under the user's own, and says so); ``takes_nested``:
      its ``score`` takes gold that nests (layers, span lists that nest or hold
      discontinuous mentions), or refuses a shape with its own error; False: the report
      leaves it out on such gold unscored, saying why (``NOT_NESTED``); ``settings``:
      report options the family reads, name -> checker (the checked value goes to
      ``analyses``).
    - ``analyses(context, results, settings)``: its extra analyses (JSON); ``examples``:
      how it lists error examples (``Examples``); ``figures(view)`` -> ``{title: Figure}``;
      ``section(view)`` -> its section's blocks; ``overview(view)`` -> blocks shown in the
      report's overview section (called for every registered family, an empty view when
      it did not run); ``findings``: its ``Rule``s; ``repairs``: ``Repairs`` beyond
      decoding; ``plot_command``: the command that draws its per-system figures for every
      system; ``experiment``: its ``ExperimentPart``.
    - ``logged``: what the Trainer logs (``Logged``).
    - ``partial``: optional, ``partial(references, predictions=None, *, the options of
      score, first_sentence=0 or sentence_ids=...)`` -> a picklable partial of one shard
      of the sentences, with ``merge`` (``+``, the empty partial its identity) and
      ``result()`` (``score``'s ``to_dict()`` on the concatenated shards; METHODS.md
      §7, ``nerspan.partials``). None: the family computes in one pass only. Every
      registered family has it (and nerspan's entity scores, ``nerspan.partial``);
      ``merges`` says whether a family does.
    """

    name: str
    title: str
    order: int
    score: Callable
    options: type | None = None
    needs_train: bool = False
    needs_tokens: bool = False
    headline: tuple = ()
    statistic_name: Callable | None = None
    same_as_entity: tuple = ()
    report_options: Mapping = field(default_factory=dict)
    nested_options: Mapping = field(default_factory=dict)
    # declared, not learnt by scoring: a family that never said it takes gold that nests
    # is not tried on it (it might read the first layer alone, silently)
    takes_nested: bool = False
    settings: Mapping = field(default_factory=dict)
    analyses: Callable | None = None
    examples: Examples | None = None
    figures: Callable | None = None
    section: Callable | None = None
    overview: Callable | None = None
    findings: tuple = ()
    repairs: Repairs | None = None
    plot_command: str | None = None
    experiment: ExperimentPart | None = None
    logged: Logged = field(default_factory=Logged)
    partial: Callable | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"a family's name is a Python identifier (its package's name), "
                             f"not {self.name!r}")
        for name in ("score", "partial"):
            if name == "score" or self.partial is not None:
                if not callable(getattr(self, name)):
                    raise TypeError(f"family {self.name!r}: {name} must be callable")
        if isinstance(self.order, bool) or not isinstance(self.order, int):
            raise TypeError(f"family {self.name!r}: order must be an int, not {self.order!r}")
        for name in ("headline", "same_as_entity", "findings"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for name in ("report_options", "nested_options", "settings"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        wrong = [h for h in self.headline if not isinstance(h, Headline)]
        wrong += [r for r in self.findings if not isinstance(r, Rule)]
        if wrong:
            raise TypeError(f"family {self.name!r}: headline takes Headline records and "
                            f"findings Rule records, not {wrong[0]!r}")

    @property
    def merges(self) -> bool:
        """Whether the family computes from partials that merge (``partial``)."""
        return self.partial is not None

    def key(self, statistic: str) -> str:
        """The full name of one of its statistics (``"hardeval.ter"``)."""
        return f"{self.name}.{statistic}"

    def statistic_label(self, key: str, first: Mapping | None = None) -> str | None:
        """The human name of its statistic ``key`` (without the prefix), or None."""
        if self.statistic_name is None:
            return None
        return self.statistic_name(key, first or {})


# why a family whose descriptor does not declare ``takes_nested`` is left out on gold
# that nests
NOT_NESTED = ("it reads one gold tag per token and does not take gold that nests (layers, "
              "nested or discontinuous mentions; Family.takes_nested): score the layers "
              "with nerspan.score or nerlens score, or read one layer (gold_tag_column / "
              "--gold-tag-column)")


# -- what a finding rule uses --------------------------------------------------------------
def finding(rule: str, system, text: str, *, size: float | None = None, **evidence) -> dict:
    """A finding as plain data: ``rule``, ``system`` (None: about the data), ``text``,
    ``size`` (the effect, largest first; report findings only) and ``evidence`` (the
    numbers, fractions).

    >>> finding("r", "a", "a wins.", size=0.1, f1=0.5)
    {'rule': 'r', 'system': 'a', 'text': 'a wins.', 'size': 0.1, 'evidence': {'f1': 0.5}}
    """
    out = {"rule": rule, "system": system, "text": text}
    if size is not None:
        out["size"] = size
    out["evidence"] = evidence
    return out


def percent(value: float) -> str:
    """A fraction as a percentage in a sentence.

    >>> percent(0.1234)
    '12.3%'
    """
    return f"{100 * value:.1f}%"


def interval_text(ci: Mapping) -> str:
    """A bootstrap interval in percent, in brackets.

    >>> interval_text({"low": 0.1, "high": 0.25})
    '[10.0, 25.0]'
    """
    return f"[{100 * ci['low']:.1f}, {100 * ci['high']:.1f}]"


def no_gold_mention(view) -> bool:
    """Whether the report's gold holds no mention (its ``info["mentions"]`` is 0): each
    family's section then says first what that leaves undefined. A report saved before
    it counted them says nothing (False)."""
    return view.info.get("mentions") == 0


def no_gold_note(view, undefined: str) -> tuple:
    """The page block a family's section starts with when gold holds no mention
    (``no_gold_mention``): ``undefined`` says what that leaves undefined in the section;
    no block otherwise."""
    if not no_gold_mention(view):
        return ()
    return (Note(f"Gold holds no mention: {undefined}"),)


def usable(ci: Mapping | None) -> bool:
    """An interval that can carry evidence: defined and on at least ``MIN_SUPPORT`` items."""
    return bool(ci) and ci.get("low") is not None and ci["low"] == ci["low"] \
        and not ci.get("too_small") and ci.get("support", 0) >= MIN_SUPPORT
