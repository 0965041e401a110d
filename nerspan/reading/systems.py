"""GOLD plus systems: one ``Corpus`` with a ``gold`` column and one column per system.

The one loader behind ``nerlens.report`` (API), every ``nerlens`` command (``GOLD [PRED
...]``), the manifests of ``buckets --datasets`` / ``hardeval --domains`` and the demo:

    corpus, names = read_systems("test.conll", {"flair": "flair.txt", "bert": "bert.txt"})
    corpus, names = read_systems("test.conll", ["flair.txt", "bert.txt"])  # named by file
    corpus, names = read_systems("both.txt")      # gold second-to-last, prediction last
    corpus, names = read_systems(gold_tags, {"spacy": spacy_tags},
                                 inputs={"tokens": words})
    corpus, names = read_systems("conll_saved/", ["flair.txt"],
                                 inputs={"split": "test"})           # a saved datasets split
    corpus, names = read_systems("test.conll", generated={"gpt": "gpt.jsonl"})  # LLM output

Every file is read with the same input options (``nerspan.InputOptions``: its files part,
``read_columns``'s ``token_column``, ``comment_prefix``, ``encoding``, ``missing_tag``;
the tag columns ``gold_tag_column`` and ``pred_tag_column``), its tags are checked on its
own (an error names that file and line), and a prediction file's tokens must be GOLD's
(``allow_token_mismatch`` accepts and counts differences); ``read_systems`` then
finishes the corpus as every reader does (``nerspan.reading.forms.finished``: ``suffix``
turned round, the type options applied). Column positions are ``*_tag_column`` integers;
the families' ``gold_column`` / ``pred_column`` name a ``Corpus`` column instead.
"""
from __future__ import annotations

import json
import os
import warnings
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np

from .. import errors
from ..corpus import Corpus
from ..migration import migrated
from ..records import InputOptions
from ..errors import (FormatError, InputTypeError, InvalidTagError, NameTakenError,
                            NerspanError, SentenceCountError, TokenMismatchError,
                            TooFewColumnsError, counted)
from ..flat import GOLD, PRED
from ..generative.form import read_typed
from .columns import check_tokens, read_columns, row_width, shown, token_line
from .forms import as_written, finished, read_input
from .generated import read_generated_jsonl
from ..schemes import FALLBACK_PREFIXES, from_suffix, get_scheme
from .span_lists import from_spans, read_span_jsonl
from ..layers import layer_column, layer_columns
from ..spans import LabelTable
from ..tagfiles import TagFile

PathLike = (str, os.PathLike)
SPAN_OPTIONS = ("inclusive_end", "snap", "offsets")   # how span files' spans are read


@migrated
def read_systems(gold, systems=None, *, generated=None, scheme: str = "IOB2",
                 mode: str = "lenient", inputs=None, check: bool = True,
                 outside_scheme_is_error: bool = False,
                 on_repairs: Callable[[Corpus], None] | None = None,
                 keep_tokens: bool = True) -> tuple[Corpus, list[str]]:
    """Read the gold annotation and the systems into one corpus.

    Args:
        gold: a column file (token first or at ``token_column``; tag at
            ``gold_tag_column``, default last), a folder written by a ``datasets``
            split's or ``DatasetDict``'s ``save_to_disk`` (``split``, default ``test``;
            ``tokens_column``, ``tags_column``), tag lists per sentence (with ``tokens``),
            or a ``Corpus`` with a ``gold`` column; with the input option ``jsonl``, a
            JSON Lines span file (``nerspan.read_span_jsonl``).
        systems: name -> a column file (tag at ``pred_tag_column``, default last) or tag
            lists; or a list of files, named after the files (made unique); or None: the
            ``gold`` file holds both (gold second-to-last, prediction last, unless
            ``gold_tag_column``/``pred_tag_column`` say otherwise), named after the file;
            an empty mapping: gold alone (the systems are added apart: generated output
            grounded together, scored files).
        generated: name -> a JSON Lines file of generated output (an LLM's responses,
            ``nerspan.reading.generated``), or a list of such files: each grounded in
            gold's sentences (``add_generated``) as one more system.
        scheme, mode: how tags are checked (``check``): a tag that is no tag is an error;
            under strict mode (or ``outside_scheme_is_error``), a prefix outside ``scheme``.
        inputs: the input options (``nerspan.InputOptions`` or a dict): how files are
            read, span files' options, generated output's, ``suffix`` and the type
            options (applied to the corpus read).
        on_repairs: called with every corpus read from a file in which ``missing_tag``
            filled rows (default: a warning naming the file and lines).
        keep_tokens: False: the corpus holds no tokens (``corpus.tokens`` None), which
            is enough for entity scores; a file holding gold and prediction is then read
            without its token strings (a third less memory), and prediction files are
            still checked against gold's tokens before these are dropped.

    Returns:
        The corpus (column ``gold``, then one column per system) and the system names.
    """
    inputs = InputOptions.of(inputs)
    reading = dict(scheme=scheme, mode=mode, inputs=inputs, check=check,
                   outside_scheme_is_error=outside_scheme_is_error,
                   on_repairs=on_repairs or warn_repairs)
    if gold is None:
        raise InputTypeError("no gold given (GOLD): the annotation the systems are scored "
                             "against")
    none = systems is None or (isinstance(systems, (list, tuple)) and not systems)
    if inputs.layers is not None and (inputs.files.jsonl or none):
        raise InputTypeError("layers reads gold's tag columns of a GOLD column file: give "
                             "the predictions apart (PRED files, systems=), not "
                             + ("JSON Lines span files" if inputs.files.jsonl else
                                "in GOLD's last column"))
    if inputs.threshold is not None and (inputs.files.jsonl or none or generated):
        raise InputTypeError("threshold keeps the scored spans of prediction files (JSON "
                             "Lines span files whose spans carry a \"score\") against a "
                             "gold column file or split: give them as systems, without "
                             "jsonl or generated files")
    check_jsonl(inputs, generated)
    if inputs.files.jsonl:
        corpus, names = read_span_systems(gold, named_files(systems), scheme=scheme,
                                          inputs=inputs)
    elif none and not generated:
        if not isinstance(gold, PathLike) or Path(gold).is_dir():
            raise InputTypeError("no systems given: pass systems=..., or a gold column file "
                                 "holding the predictions in its last column")
        corpus, names = _read_pair_file(gold, keep_tokens, reading)
    else:
        corpus, names = read_gold(gold, **reading), []
        if not none:
            corpus, names = add_systems(corpus, systems, **reading)
    if generated:
        corpus, more = add_generated(corpus, generated, inputs=inputs)
        names = names + more
    if not keep_tokens:
        corpus = corpus.without_tokens()
    # gold alone (its systems added apart): a type named need not occur in gold
    return finished(corpus, [*layer_columns(corpus), *names], inputs,
                    "IOB2" if inputs.files.jsonl else scheme, mode, check=bool(names)), names


@migrated
def add_generated(corpus: Corpus, files, *, inputs=None) -> tuple[Corpus, list[str]]:
    """``corpus`` plus one column per file of generated output (name -> JSON Lines file,
    or a list of files named after them; ``nerspan.reading.generated``).

    Line k answers gold sentence k, or, when the lines carry ``"sentence"`` indices, the
    sentence it names: the corpus is then restricted to those sentences, in the file's
    order (what the model was asked is what is scored), and every file must answer the
    same ones. A line's ``tokens`` (or the words of its ``text``) must be its sentence's.
    Each response is grounded in the sentence's words (the input options' ``occurrences``
    and ``fuzzy``); what reading and grounding did travels with the column into every
    family's ``repairs``. A response's types are matched to gold's types, then to the
    keys of the ``type_map`` the corpus is processed with afterwards, as
    ``nerspan.score`` matches them (``read_typed``, METHODS §6).
    """
    inputs = InputOptions.of(inputs)
    encoding = inputs.files.encoding
    mapped_types = list(inputs.types.type_map or ())
    names, answered = [], None
    for name, path in named_files(files).items():
        check_system_name(name, "generated", corpus.columns)
        if answered is None:
            corpus, read = read_answers(corpus, path, encoding)
        else:
            read = read_generated_jsonl(path, encoding)
            if read["sentences"] != answered["sentences"]:
                raise FormatError(f"answers other sentences than {names[0]!r}'s file: every "
                                  "file of generated output must answer the same ones",
                                  path=os.fspath(path))
            _, read = read_answers(corpus, path, encoding, read, subset=False)
        answered = read
        words = read["tokens"]
        grounding = InputOptions.of({"tokens": words if corpus.tokens is None else None,
                                     "occurrences": inputs.generated.occurrences,
                                     "fuzzy": inputs.generated.fuzzy})
        with answers_located(f"generated {name!r} ({os.fspath(path)})", corpus, read):
            gold = corpus.select([GOLD])
            reading = read_input(gold, read_typed(read["responses"], gold, mapped_types),
                                 inputs=grounding)
        corpus = corpus.with_columns(reading.corpus.select([PRED]), {PRED: name})
        names.append(name)
    return corpus, names


@contextmanager
def answers_located(side: str, corpus: Corpus, read: dict):
    """An input error while scoring generated output (``read``, a file as
    ``read_generated_jsonl`` reads it) against the gold sentences it answers
    (``corpus``, ``read_answers``) names ``side``, and a sentence by gold's number of it
    and, unless it names a file already, the line of the file that answers it (its
    place among the answered sentences is no sentence number)."""
    try:
        yield
    except NerspanError as error:
        if error.sentence is None:
            raise error.on_side(side) from None
        where = (error.path, error.line) if error.path is not None else \
            (read["path"], read["lines"][error.sentence])
        raise type(error)(error.problem, corpus.source.number(error.sentence), *where,
                          side=side, position=error.position) from None


def read_answers(corpus: Corpus, path, encoding: str = "utf-8", read: dict | None = None,
                 subset: bool = True) -> tuple[Corpus, dict]:
    """The gold ``corpus`` restricted to the sentences a file of generated output answers
    (its ``"sentence"`` indices, in its order; all of them without), and the file as
    ``nerspan.generative.read_generated_jsonl`` reads it (``read``: already read), one
    response per sentence and each line's words its sentence's, checked (``subset``
    False: ``corpus`` is already the answered sentences)."""
    read = read_generated_jsonl(path, encoding) if read is None else read
    sentences = read["sentences"]
    if subset and sentences is not None:
        _check_sentence_indices(sentences, read["lines"], corpus, path)
        corpus = corpus.subset(np.array(sentences, dtype=np.int64))
    if len(read["responses"]) != corpus.n_sentences:
        raise SentenceCountError(f"{counted(len(read['responses']), 'response')} for "
                                 f"{counted(corpus.n_sentences, 'gold sentence')}: one "
                                 'line per sentence, or "sentence" indices', path=os.fspath(path))
    if corpus.tokens is not None and read["tokens"] is not None:
        _check_generated_words(corpus, read["tokens"], read["lines"], path)
    return corpus, read


def _check_sentence_indices(sentences: list, lines: list, corpus: Corpus, path) -> None:
    seen = set()
    for k, i in enumerate(sentences):
        if i >= corpus.n_sentences:
            raise FormatError(f"sentence {i} is past gold's last "
                              f"({counted(corpus.n_sentences, 'sentence')})",
                              path=os.fspath(path), line=lines[k])
        if i in seen:
            raise FormatError(f"sentence {i} is answered twice", path=os.fspath(path), line=lines[k])
        seen.add(i)


def _check_generated_words(corpus: Corpus, words: list, lines: list, path) -> None:
    """Each line's words are its gold sentence's (grounding reads gold's words)."""
    for k, line_words in enumerate(words):
        gold_words = corpus.sentence_tokens(k)
        if list(line_words) != list(gold_words):
            raise TokenMismatchError(f"the line's words {shown(' '.join(line_words))} are not "
                                     f"its gold sentence's {shown(' '.join(gold_words))}",
                                     path=os.fspath(path), line=lines[k])


@migrated(tag_column="inputs={{'gold_tag_column': {value!r}}}")
def read_gold(gold, *, scheme: str = "IOB2", mode: str = "lenient", inputs=None,
              check: bool = True, outside_scheme_is_error: bool = False,
              on_repairs: Callable[[Corpus], None] | None = None) -> Corpus:
    """The gold side alone (the forms of ``read_systems``' ``gold``), its tags checked,
    as read (``read_systems`` finishes the corpus: suffix, types).

    A column file's tags are read from ``gold_tag_column``; None (default): the last
    column, unless another column holds tags of the same entity types (a ``token gold
    prediction`` file): then which one is gold is not guessed (``AmbiguousInputError``,
    ``nerspan.read_columns``).
    """
    inputs = InputOptions.of(inputs)
    files = inputs.files
    if isinstance(gold, PathLike) and Path(gold).is_dir():
        data = load_saved_split(gold, files.split, "test")
        corpus = Corpus.from_dataset(data, tags_column=files.tags_column,
                                     tokens_column=files.tokens_column)
    elif isinstance(gold, PathLike):
        corpus = read_columns(gold, gold_columns(gold, inputs), token_column=files.token_column,
                              comment_prefix=files.comment_prefix, encoding=files.encoding,
                              missing_tag=files.missing_tag)
        (on_repairs or warn_repairs)(corpus)
    elif inputs.layers is not None:
        raise InputTypeError("layers reads tag columns of a GOLD column file; in memory, "
                             "give a Corpus whose columns are the layers (gold, "
                             "nerspan.layers.layer_column('gold', 2), ...)")
    else:  # a Corpus, tag lists or any other form nerspan's dispatcher reads
        corpus = read_input(gold, None, inputs=InputOptions.of(None, tokens=inputs.tokens)
                            ).corpus
        corpus = corpus.select([GOLD])
    if check:
        for k, column in enumerate(layer_columns(corpus), 1):
            check_tags(corpus, column, scheme, mode, "gold" if column == GOLD else
                       f"gold layer {k}", outside_scheme_is_error, inputs.suffix)
    return corpus


def gold_columns(path, inputs: InputOptions) -> dict | None:
    """``read_columns``' columns of a GOLD file: its ``gold_tag_column``, or its
    ``layers`` (layer k in ``nerspan.layers.layer_column(GOLD, k)``), each checked to be
    in the file; None: the default."""
    files = inputs.files
    if inputs.layers is None:
        return None if files.gold_tag_column is None else {GOLD: files.gold_tag_column}
    if files.gold_tag_column is not None:
        raise ValueError("layers and gold_tag_column both say where gold's tags are: give "
                         "one (--layers 2,3 reads columns 2 and 3 as gold's layers)")
    width = row_width(path, files.encoding, files.comment_prefix)
    for column in inputs.layers:
        if width and not -width <= column < width:
            raise TooFewColumnsError(
                f"layers names column {column}, and the file has {counted(width, 'column')} "
                f"(0 to {width - 1}; -{width} to -1 from the end)", path=os.fspath(path))
    return {layer_column(GOLD, k): column for k, column in enumerate(inputs.layers, 1)}


@migrated
def add_systems(corpus: Corpus, systems, *, scheme: str = "IOB2", mode: str = "lenient",
                inputs=None, check: bool = True, outside_scheme_is_error: bool = False,
                on_repairs: Callable[[Corpus], None] | None = None, what: str | None = None
                ) -> tuple[Corpus, list[str]]:
    """``corpus`` plus one column per system (the forms of ``read_systems``' ``systems``),
    each read and checked on its own, so that an error names that file and line (and the
    system, when its file does not name it): tags, sentences, lengths, tokens (a file of
    generated output is refused: ``generated=`` reads it). ``what`` the columns are, for
    those errors (default: a prediction file's, a system's; ``"gold version"`` names each
    by its name)."""
    inputs = InputOptions.of(inputs)
    files = inputs.files
    checking = dict(scheme=scheme, mode=mode, outside_scheme_is_error=outside_scheme_is_error,
                    suffix=inputs.suffix)
    names = []
    for name, prediction in _named_systems(systems).items():
        check_system_name(name, "systems", corpus.columns)
        if isinstance(prediction, PathLike) and inputs.threshold is not None:
            with _file_of_system(name, prediction, what):
                corpus = corpus.with_columns(kept_file(prediction, corpus, inputs),
                                             {PRED: name})
        elif isinstance(prediction, PathLike):
            with _file_of_system(name, prediction, what):
                if file_form(prediction, files.encoding) == "generated":  # no "tag" to read
                    gold = corpus.source.path or "GOLD"
                    raise FormatError("holds generated output (a \"response\" per line), "
                                      "not tags: give it with generated= / --generated "
                                      f"(nerlens score {gold} --generated {prediction})",
                                      path=os.fspath(prediction))
                other = read_columns(prediction, {PRED: files.pred_tag_column},
                                     comment_prefix=files.comment_prefix,
                                     encoding=files.encoding, missing_tag=files.missing_tag,
                                     reference=corpus)
                (on_repairs or warn_repairs)(other)
                if check:
                    check_tags(other, PRED, what="prediction" if what is None else
                               f"{what} {name!r}", **checking)
                corpus = corpus.with_columns(other, {PRED: name})
                check_tokens(corpus, other, files.allow_token_mismatch)
        else:
            other = _system_tags(name, prediction, corpus)
            if check:
                check_tags(other, PRED, what=f"{what or 'system'} {name!r}", **checking)
            corpus = corpus.with_columns(other, {PRED: name})
        other = None  # before the next file is read: its tokens and tags are in corpus now
        names.append(name)
    return corpus, names


@contextmanager
def _file_of_system(name: str, path, what: str | None):
    """An error in the file of a system its file does not name (an experiment's run
    ``flair#2``, a system named in a mapping) names the system too (``system 'name'``,
    before the sentence); a gold version's errors name it already (``what``)."""
    try:
        yield
    except NerspanError as error:
        if what is not None or name == system_name(path):
            raise
        where = f"system {name!r}"
        raise error.on_side(where if error.side is None else f"{where}, {error.side}"
                            ) from None


def add_gold_versions(corpus: Corpus, gold, versions, *, scheme: str = "IOB2",
                      mode: str = "lenient", inputs=None, outside_scheme_is_error: bool = True,
                      on_repairs=None) -> tuple:
    """``(corpus, name -> file)``: the finished ``corpus`` of ``gold`` with a column per
    other version of its gold (``(name, file)`` pairs), read and checked as a system's file
    is (its errors name the file, line and gold version; by default a tag outside
    ``scheme`` refused): with the input option ``jsonl``, span files read against gold's. A name
    given twice, or that names the gold or a system, is refused."""
    inputs, named = InputOptions.of(inputs), {}
    for name, path in versions:
        if name in named or name in corpus.columns:
            taken = "the gold" if name == GOLD else "a system"
            raise NameTakenError(f"--gold-alt {name}=...: " + (
                f"the name {name!r} is given twice" if name in named else
                f"{name!r} names {taken} already: name the gold version apart"))
        named[name] = path
    if not named:
        return corpus, {}
    if inputs.files.jsonl:   # span files, read against GOLD as systems' span files are
        read, names = read_systems(gold, named, scheme=scheme, inputs=inputs)
        return corpus.with_columns(read.select(names), what="gold version"), named
    # the finished corpus's tags back as written, the versions' joined, all finished
    corpus, names = add_systems(as_written(corpus, inputs), named, scheme=scheme, mode=mode,
                                inputs=inputs, outside_scheme_is_error=outside_scheme_is_error,
                                on_repairs=on_repairs, what="gold version")
    return finished(corpus, names, inputs, scheme, mode), dict(zip(names, named.values()))


def sentence_documents(path, corpus: Corpus, inputs=None):
    """The document of every sentence of the GOLD column file ``path`` read into
    ``corpus``, by its ``-DOCSTART-`` rows (``TagFile.sentence_documents``); None for span
    files, saved splits and a file of one document."""
    inputs = InputOptions.of(inputs)
    if inputs.files.jsonl or corpus.source.sentence_lines is None:
        return None
    documents = TagFile(path, encoding=inputs.files.encoding).sentence_documents(corpus)
    return documents if len(documents) and documents.max() > documents.min() else None


def kept_file(path, gold: Corpus, inputs: InputOptions) -> Corpus:
    """A prediction file read with the input option ``threshold``: a scored span file
    (``read_scored_spans``), the mentions of score >= threshold kept
    (``nerspan.threshold_form``, as the API keeps scored span lists), as a one-column
    corpus (``PRED``) of ``gold``'s sentences; an error names the file and line."""
    read = read_scored_spans(path, gold, inputs.files.encoding,
                             tag_file="score it without the input option threshold")
    kept = InputOptions.of({name: inputs.value(name) for name in
                            ("threshold",) + SPAN_OPTIONS})
    with span_errors_located(gold.source.path, {"lines": None}, path, read):
        return read_input(gold.select([GOLD]), read["spans"], inputs=kept
                          ).corpus.select([PRED])


def read_scored_spans(path, gold: Corpus, encoding: str = "utf-8", *, gold_name: str = "gold",
                      tag_file: str = "score its tags") -> dict:
    """A JSON Lines span file whose spans carry a ``score``, one line per sentence of the
    ``gold`` corpus (named ``gold_name`` in an error), as ``read_span_jsonl`` reads it:
    the one reader of scored span files against gold read on its own (``kept_file``,
    ``nerlens score --threshold``, ``sweep``, ``--scored``). A tag file is refused
    (``tag_file``: what to do with it instead), and so is a count of lines that is not
    gold's count of sentences; each names the file."""
    if file_form(path, encoding) == "columns":
        raise FormatError("not a JSON Lines span file whose spans carry a \"score\"; a tag "
                          f"file carries no confidence: {tag_file}", path=os.fspath(path))
    read = read_span_jsonl(path, encoding)
    if len(read["spans"]) != gold.n_sentences:
        raise SentenceCountError(
            f"{counted(len(read['spans']), 'line')} of spans, but {gold_name} holds "
            f"{counted(gold.n_sentences, 'sentence')}: one line is needed per sentence (an "
            "empty \"spans\" list where none)", path=os.fspath(path))
    return read


def file_form(path, encoding: str = "utf-8") -> str:
    """What a prediction file holds, by its first line that is not blank: ``"generated"``
    (an object with a ``"response"`` and no ``"spans"``: generated output), ``"spans"``
    (any other line that opens a JSON object, or no line: a span file, whose reader names
    a bad line) or ``"columns"`` (a column file, whose first line opens no object, or is
    a row whose token is ``{``: ``_brace_row``)."""
    with open(path, encoding=encoding, errors="replace") as handle:
        first = next((line for line in handle if line.strip()), "").lstrip("\ufeff \t")
    if first and not first.startswith("{"):
        return "columns"
    try:
        row = json.loads(first)
    except json.JSONDecodeError:
        return "columns" if _brace_row(first) else "spans"
    return "generated" if "response" in row and "spans" not in row else "spans"


def _brace_row(line: str) -> bool:
    """Whether a line that is not JSON is a column file's row whose token is ``{`` (``{ O``:
    the token alone, then its columns; no quoted key, as an object's line has)."""
    fields = line.split()
    return len(fields) > 1 and fields[0] == "{" and '"' not in line


def read_span_systems(gold, systems: Mapping, *, scheme: str = "IOB2", inputs=None
                      ) -> tuple[Corpus, list[str]]:
    """JSON Lines span files (``nerspan.read_span_jsonl``): ``gold`` and name -> file,
    read with the span input options (``inclusive_end``, ``snap``, ``offsets``)."""
    inputs = InputOptions.of(inputs)
    gold_spans, pairs = read_span_files(gold, systems, scheme=scheme, inputs=inputs)
    span_options = {name: inputs.value(name) for name in SPAN_OPTIONS}
    corpus, snapped = None, {}
    for name, path, system in pairs:
        with span_errors_located(gold, gold_spans, path, system):
            pair = from_spans(gold_spans["spans"], system["spans"], gold_spans["tokens"],
                              inputs={"texts": gold_spans["texts"], **span_options})
        snapped.update({name if column == PRED else column: sentences
                        for column, sentences in pair.source.snapped.items()})
        if corpus is None:
            corpus = pair.select([GOLD])
        corpus = corpus.with_columns(pair.select([PRED]), {PRED: name}, f"{name} spans")
    return corpus.with_source(replace(corpus.source, snapped=snapped)), list(systems)


def read_span_files(gold, systems: Mapping, *, scheme: str = "IOB2", inputs=None) -> tuple:
    """``(gold's span file as read, (name, path, spans read) of each system's span file
    in turn)``: JSON Lines span files checked (``check_span_input``), each system's to
    hold gold's sentences, tokens and text (``span_files``)."""
    encoding = check_span_input(gold, systems, scheme, inputs).files.encoding
    gold_spans = read_span_jsonl(gold, encoding)
    return gold_spans, span_files(gold, gold_spans, systems, encoding)


def check_span_input(gold, systems, scheme: str, inputs) -> InputOptions:
    """The input options of JSON Lines span files (``gold`` and ``systems``) as read:
    spans are scored as IOB2 tags, have no suffix tags, and need gold and a system."""
    inputs = InputOptions.of(inputs)
    if get_scheme(scheme).name != "IOB2":
        raise ValueError("JSON Lines spans (--jsonl) are scored as IOB2 tags: scheme "
                         "(--scheme) applies to tag files")
    if inputs.suffix:
        raise InputTypeError("suffix (--suffix) reads tags written type first (PER-B); JSON "
                             "Lines spans (--jsonl) have types, not tags: leave it out")
    if not gold or not systems:
        raise ValueError("JSON Lines span input (--jsonl) needs a gold file and at least "
                         "one system (PRED) file")
    return inputs


def check_jsonl(inputs: InputOptions, generated=None) -> None:
    """The span options read span files (``jsonl``; scored ones: ``threshold``): given
    for other input, they would be ignored in silence. Generated output is grounded in
    gold's words, never with span files."""
    if generated and inputs.files.jsonl:
        raise InputTypeError("generated output (--generated) is grounded in GOLD read as a "
                             "column file or a saved split, not with jsonl (--jsonl) span "
                             "files")
    named = [InputOptions.spelled(name) for name in SPAN_OPTIONS
             if inputs.value(name) not in (None, False)]
    if named and not inputs.files.jsonl and inputs.threshold is None:
        one = len(named) == 1
        raise InputTypeError(f"{', '.join(named)} read{'s' if one else ''} JSON Lines span "
                             "files: add jsonl=True (--jsonl) if GOLD and the systems are "
                             f"such files, else leave {'it' if one else 'them'} out")


def span_files(gold_path, gold: dict, systems: Mapping, encoding: str = "utf-8"):
    """``(name, path, spans read)`` of each system's JSON Lines span file (name -> path),
    one at a time, each checked to hold ``gold``'s sentences, tokens and text."""
    for name, path in systems.items():
        system = read_span_jsonl(path, encoding)
        _check_same_words(gold, system, os.fspath(gold_path), os.fspath(path))
        yield name, path, system


@contextmanager
def span_errors_located(gold_path, gold: dict, path, system: dict):
    """An input error about a sentence of a pair of span files (``read_span_jsonl``'s
    ``gold`` and ``system``) names the file and line of the side it is about (the file
    alone where its reader keeps no lines: gold read from a tag file, ``{"lines": None}``)."""
    try:
        yield
    except NerspanError as error:
        if error.path is not None or error.sentence is None:
            raise
        where, read = (path, system) if error.side == "predictions" else (gold_path, gold)
        lines = read.get("lines")
        line = lines[error.sentence] if lines and error.sentence < len(lines) else None
        raise type(error)(error.problem, error.sentence, os.fspath(where), line,
                          side=error.side, position=error.position) from None


def _check_same_words(gold: dict, system: dict, gold_path: str, path: str) -> None:
    """A system's span file must hold gold's sentences, with gold's tokens and text where
    it has its own: its spans are read against gold's words."""
    n, n_gold = len(system["spans"]), len(gold["spans"])
    counts = f"{counted(n, 'sentence')} here, {n_gold} in {gold_path}"
    if n < n_gold:  # named where the files part
        raise SentenceCountError(f"{counts}; after its last line, gold goes on at "
                                 f"{gold_path}:{gold['lines'][n]}", path=path)
    if n > n_gold:
        raise SentenceCountError(f"{counts}; gold has no sentence from this line on", n_gold,
                                 path, system["lines"][n_gold])
    for key, what in (("tokens", "tokens"), ("texts", "text")):
        ours, theirs = system[key], gold[key]
        if ours is None or theirs is None:
            continue
        k = next((k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
        if k is not None:
            if key == "tokens" and len(ours[k]) == len(theirs[k]):
                j = next(j for j, (a, b) in enumerate(zip(ours[k], theirs[k])) if a != b)
                problem = f"token {shown(ours[k][j])} differs from {shown(theirs[k][j])}"
            elif key == "tokens":
                problem = f"{counted(len(ours[k]), 'token')}, where gold has {len(theirs[k])}"
            else:
                problem = f"text {shown(ours[k])} differs from {shown(theirs[k])}"
            raise TokenMismatchError(f"{problem} ({gold_path}:{gold['lines'][k]}): the "
                                     f"spans of both files must index the same {what}",
                                     sentence=k, path=path, line=system["lines"][k],
                                     side="predictions")


def load_saved_split(path, split: str | None = None, default_split: str = "test"):
    """A ``datasets`` split saved with ``save_to_disk`` (of a ``DatasetDict``: ``split``,
    default ``default_split``)."""
    import datasets

    loaded = datasets.load_from_disk(str(path))
    if isinstance(loaded, datasets.DatasetDict):
        name = split or default_split
        if name not in loaded:
            raise ValueError(f"{path}: no split {name!r} (has {sorted(loaded)})")
        loaded = loaded[name]
    return loaded


def system_name(path) -> str:
    """A system's default name: its file name without the extension."""
    return Path(path).stem


def named_files(paths, taken=()) -> dict:
    """Name -> file: a mapping as given (its names checked), a file or a list of files
    named after them, made unique, apart from the systems ``taken`` too (``gold.txt`` is
    ``gold'``: gold's name is gold's).

    >>> named_files(["a/gold.txt", "b/gold.txt", "run.txt"])
    {"gold'": 'a/gold.txt', "gold''": 'b/gold.txt', 'run': 'run.txt'}
    """
    if isinstance(paths, Mapping):
        return {check_system_name(name): path for name, path in paths.items()}
    names: dict = {}
    for path in [] if paths is None else ([paths] if isinstance(paths, PathLike) else paths):
        name = system_name(path)
        while name in names or name in taken or name == GOLD:
            name += "'"
        names[name] = path
    return names


def check_system_name(name, where: str = "systems", taken=()) -> str:
    """``name`` if a system may take it: a non-empty string, neither ``GOLD`` (gold is
    never addressed by a name a system can take) nor among ``taken`` (the columns there
    are already); otherwise an error naming ``where`` the name was given."""
    if not isinstance(name, str) or not name:
        raise InputTypeError(f"a system's name is a non-empty string, not {errors.shown(name)}",
                             side=where)
    if name == GOLD:
        raise NameTakenError(f"{name!r} cannot name a system: it is the gold column's name",
                              side=where)
    if name in taken:
        raise NameTakenError(f"{name!r} is given twice: each system (each run) has a "
                              "column of its own", side=where)
    return name


def check_system_names(names, where: str, taken=()) -> list:
    """``names`` as a list, each one ``check_system_name`` accepts, none given twice nor
    among ``taken``."""
    checked: list = []
    for name in names:
        checked.append(check_system_name(name, where, [*taken, *checked]))
    return checked


def check_tags(corpus: Corpus, column: str, scheme: str, mode: str, what: str,
               outside_scheme_is_error: bool = False, suffix: bool = False) -> None:
    """Raise ``InvalidTagError`` naming the file, line and tag of the first tag of
    ``column`` that is no tag, or (strict mode, or ``outside_scheme_is_error``) whose
    prefix is not in ``scheme``; ``suffix``: the tags are written type first (``PER-B``),
    the tag is named as written and as read."""
    scheme = get_scheme(scheme)
    read = tuple(from_suffix(label) for label in corpus.labels) if suffix else corpus.labels
    table = LabelTable.build(read, scheme)
    unreadable = np.array([label in table.unreadable for label in read], dtype=bool)
    bad = unreadable | (table.outside_scheme if mode == "strict" or outside_scheme_is_error
                        else False)
    if not bad.any():  # the common case: no bad label, no pass over the column
        return
    hits = bad[corpus.column(column)]
    if not hits.any():
        return
    position = int(np.argmax(hits))
    label_id = int(corpus.column(column)[position])
    tag = shown(corpus.labels[label_id])
    if suffix:
        tag += f" (read as {shown(read[label_id])}, written type first)"
    if unreadable[label_id]:
        letters = ", ".join(sorted(set(scheme.prefixes) | set(FALLBACK_PREFIXES)))
        problem = (f"{what} tag {tag} is not a tag: expected O or PREFIX-TYPE with a "
                   f"prefix among {letters}")
    else:
        problem = (f"{what} tag {tag} is not in the {scheme.name} scheme (allowed "
                   f"prefixes: {', '.join(scheme.prefixes)}; see --scheme)")
    sentence = int(np.searchsorted(corpus.offsets, position, side="right") - 1)
    raise InvalidTagError(problem, sentence=sentence, path=corpus.source.path,
                          line=token_line(corpus, position))


def repaired_lines_text(corpus: Corpus, option: str = "missing_tag") -> str | None:
    """"N rows without a tag read with OPTION (lines a, b, ...)" for the rows
    ``missing_tag`` filled, or None."""
    lines = corpus.source.repaired_lines
    if not lines:
        return None
    shown_lines = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
    return f"{counted(len(lines), 'row')} without a tag read with {option} (lines {shown_lines})"


def warn_repairs(corpus: Corpus) -> None:
    """The default ``on_repairs``: one warning for the rows ``missing_tag`` filled."""
    text = repaired_lines_text(corpus, "missing_tag / --missing-tag")
    if text:
        warnings.warn(f"{corpus.source.path}: {text}", stacklevel=4)


# -- helpers -----------------------------------------------------------------------------
def _read_pair_file(path, keep_tokens: bool, reading: dict) -> tuple[Corpus, list[str]]:
    """One file holding gold (default second-to-last) and prediction (last) columns."""
    files = reading["inputs"].files
    gold_column = -2 if files.gold_tag_column is None else files.gold_tag_column
    try:
        corpus = read_columns(path, {GOLD: gold_column, PRED: files.pred_tag_column},
                              token_column=files.token_column,
                              comment_prefix=files.comment_prefix, encoding=files.encoding,
                              missing_tag=files.missing_tag, keep_tokens=keep_tokens)
    except TooFewColumnsError as error:  # most likely a gold file alone: say what is missing
        raise TooFewColumnsError(
            "no prediction column (PRED): given alone, GOLD must hold token, gold and "
            "prediction columns, and no row has them; give the prediction file(s) as PRED "
            "(systems= in Python), or where the tag columns are (gold_tag_column, "
            "pred_tag_column / --gold-tag-column, --pred-tag-column)", error.sentence,
            error.path, error.line) from None
    reading["on_repairs"](corpus)
    if reading["check"]:
        for column, what in ((GOLD, "gold"), (PRED, "prediction")):
            check_tags(corpus, column, reading["scheme"], reading["mode"], what,
                       reading["outside_scheme_is_error"], reading["inputs"].suffix)
    [name] = named_files([path])
    return corpus.renamed({PRED: name}), [name]


def _named_systems(systems) -> dict:
    """Name -> predictions of ``read_systems``' ``systems``."""
    if isinstance(systems, Mapping) or isinstance(systems, PathLike) or (
            isinstance(systems, Sequence)
            and all(isinstance(s, PathLike) for s in systems)):
        return named_files(systems)
    raise InputTypeError("systems must map each system's name to its predictions (a "
                         f"column file or tag lists), or list column files, not a "
                         f"{type(systems).__name__}")


def _system_tags(name: str, prediction, gold: Corpus) -> Corpus:
    """A system's predictions (tag lists, or any form nerspan's dispatcher reads beside
    gold: span lists, generated output) as a one-column corpus (column ``PRED``) of
    ``gold``'s sentences: spans are placed in gold's words, whatever their last span
    reaches; errors (a shape too) name the system."""
    if prediction is None:
        raise InputTypeError(f"system {name!r} is None: pass its predictions (a column file "
                             "or tag lists per sentence)")
    try:
        return read_input(gold.select([GOLD]), prediction).corpus.select([PRED])
    except NerspanError as error:
        raise error.on_side(f"system {name!r}") from None


__all__ = ["read_systems", "read_gold", "add_systems", "add_gold_versions",
           "sentence_documents", "add_generated",
           "read_answers",
           "answers_located", "read_span_systems", "read_span_files", "check_span_input", "check_jsonl",
           "span_files", "kept_file",
           "read_scored_spans", "file_form",
           "span_errors_located", "load_saved_split", "system_name", "named_files",
           "check_system_name", "check_system_names", "check_tags", "warn_repairs",
           "repaired_lines_text"]
