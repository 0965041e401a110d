"""Files that answer gold's sentences, each read against the gold it answers as the API
scores it: generated output (``read_generated_files``) and scored predictions
(``read_scored_files``: a JSON Lines span file whose spans carry a ``score``, one line per
sentence of gold, or generated output with a ``score`` per entity, which of the two
``file_form`` says), and JSON Lines span files with their spans as they are
(``read_span_answers``). ``Answers.call`` scores one (``nerspan.score``, ``nerspan.sweep``,
``faireval.score``); ``scored_mentions`` gives each scored file's mentions over every
gold sentence, read against the corpus of ``read_scored_systems``. An error in a file names it, its line and its side.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from ..corpus import Corpus
from ..errors import InputTypeError, SentenceCountError, counted
from ..flat import GOLD
from ..records import InputOptions
from ..scored import check_fits
from ..threshold_form import scored_of
from .forms import finished
from .systems import (answers_located, check_jsonl, file_form, named_files, read_answers,
                      read_gold, read_scored_spans, read_span_files, read_systems,
                      span_errors_located)

# what to do with a tag file given as scored predictions ({gold}, {path}: the files)
TAG_FILE = "score its tags (nerlens score {gold} {path})"


@dataclass(frozen=True)
class Answers:
    """One system's file as read against the gold it answers: ``references`` (gold spans
    or a ``Corpus``), ``predictions`` (span lists or generated responses), the reading
    options they are scored with (``inputs`` holding the words the references lack),
    ``located`` (gives the context naming a file and line in an error: one per call) and
    ``read`` (the file as read)."""

    name: str
    references: object
    predictions: list
    scheme: str
    mode: str
    inputs: InputOptions
    located: Callable = nullcontext
    read: dict = field(default_factory=dict)

    def call(self, function, **options):
        """``function`` (``nerspan.score``, ``nerspan.sweep``, ``faireval.score``) on this
        file, ``options``' ``inputs`` keys put over the reading options."""
        inputs = InputOptions.of(self.inputs, **options.pop("inputs", {}))
        with self.located():
            return function(self.references, self.predictions, scheme=self.scheme,
                            mode=self.mode, inputs=inputs, **options)


def read_generated_files(gold, files, *, scheme: str = "IOB2", mode: str = "lenient",
                         inputs=None, outside_scheme_is_error: bool = False,
                         on_repairs=None) -> list[Answers]:
    """Each file of generated output (name -> file, or files named after them) against
    the gold sentences it answers (``read_answers``), gold's tags turned round with
    ``suffix``; the type options are left to the scoring function."""
    inputs = InputOptions.of(inputs)
    check_jsonl(inputs, generated=True)
    if gold is None:
        raise InputTypeError("no gold given (GOLD): the annotation generated output answers")
    corpus = finished(read_gold(gold, scheme=scheme, mode=mode, inputs=inputs,
                                outside_scheme_is_error=outside_scheme_is_error,
                                on_repairs=on_repairs), [GOLD],
                      InputOptions.of(None, suffix=inputs.suffix))
    inputs = inputs.replace(suffix=False)
    return [_generated(corpus, name, path, f"generated {name!r}", scheme, mode, inputs)
            for name, path in named_files(files).items()]


def read_scored_files(gold, paths, *, scheme: str = "IOB2", mode: str = "lenient",
                      inputs=None, outside_scheme_is_error: bool = True, on_repairs=None,
                      tag_file: str = TAG_FILE) -> list[Answers]:
    """Each scored file of ``paths`` (name -> file, or files named after them) against
    ``gold``: a column file or saved split (by default a tag outside ``scheme`` refused), or with
    the input option ``jsonl`` a span file (each file then a scored span file, read by
    ``read_span_files``, which refuses a ``scheme`` other than IOB2)."""
    inputs = InputOptions.of(inputs)
    paths = named_files(paths)
    # the span options read span files; generated output is never read with them
    check_jsonl(inputs, generated=inputs.files.jsonl and any(
        file_form(path, inputs.files.encoding) == "generated" for path in paths.values()))
    if not inputs.files.jsonl:
        corpus = read_gold(gold, scheme=scheme, mode=mode, inputs=inputs,
                           outside_scheme_is_error=outside_scheme_is_error,
                           on_repairs=on_repairs)
        return [scored_file(corpus, name, path, gold, inputs, scheme=scheme, mode=mode,
                            tag_file=tag_file) for name, path in paths.items()]
    spans, systems = read_span_files(gold, paths, scheme=scheme, inputs=inputs)
    return list(_span_answers(gold, spans, systems, scheme, mode, inputs))


def read_span_answers(gold, paths, *, scheme: str = "IOB2", mode: str = "lenient",
                      inputs=None):
    """Each JSON Lines span file of ``paths`` (name -> file, or files named after them)
    against ``gold``'s, its spans as they are (nested and overlapping ones too, which
    faireval scores), one at a time; the files checked as ``read_span_files`` checks
    them."""
    inputs = InputOptions.of(inputs)
    spans, systems = read_span_files(gold, named_files(paths), scheme=scheme, inputs=inputs)
    return _span_answers(gold, spans, systems, scheme, mode, inputs)


def _span_answers(gold, spans: dict, systems, scheme: str, mode: str, inputs: InputOptions):
    """An ``Answers`` of each ``(name, path, spans read)`` of ``systems`` (``span_files``)
    against gold's span file as read (``spans``), with gold's words."""
    words = InputOptions.of(inputs, tokens=spans["tokens"], texts=spans["texts"])
    return (Answers(name, spans["spans"], pred["spans"], scheme, mode, words,
                    partial(span_errors_located, gold, spans, path, pred))
            for name, path, pred in systems)


def scored_file(corpus: Corpus, name: str, path, gold_name, inputs: InputOptions, *,
                scheme: str = "IOB2", mode: str = "lenient", tag_file: str = TAG_FILE
                ) -> Answers:
    """One scored file against the gold ``corpus`` (``gold_name`` in errors; ``tag_file``:
    what to do with a tag file instead), scored with ``scheme`` and ``mode``."""
    if file_form(path, inputs.files.encoding) == "generated":
        return _generated(corpus, name, path, f"generated {name!r} ({path})", scheme, mode,
                          inputs)
    read = read_scored_spans(path, corpus, inputs.files.encoding, gold_name=gold_name,
                             tag_file=tag_file.format(gold=gold_name, path=path))
    return Answers(name, corpus, read["spans"], scheme, mode, inputs,
                   partial(span_errors_located, gold_name, {"lines": None}, path, read))


def _generated(corpus: Corpus, name: str, path, side: str, scheme: str, mode: str,
               inputs: InputOptions) -> Answers:
    answered, read = read_answers(corpus, path, inputs.files.encoding)
    words = InputOptions.of(inputs, tokens=read["tokens"]) if answered.tokens is None else inputs
    return Answers(name, answered, read["responses"], scheme, mode, words,
                   partial(answers_located, side, answered, read), read)


def read_scored_systems(gold, systems, scored, *, generated=None, inputs=None,
                        **reading) -> tuple[Corpus, list[str]]:
    """``read_systems``' corpus and system names, when ``scored`` files are read against
    it too (``scored_mentions``): with scored files alone, gold alone (no system in its
    last column), a column file or a saved split, never a span file (``jsonl``), its
    tags outside ``scheme`` refused as ``read_scored_files`` refuses them."""
    inputs = InputOptions.of(inputs)
    alone = bool(scored) and not systems and not generated
    if alone and inputs.files.jsonl:
        raise InputTypeError("scored files (--scored) are read against GOLD as a column file "
                             "or a saved split: leave jsonl (--jsonl) out")
    if alone:
        reading["outside_scheme_is_error"] = True
    return read_systems(gold, {} if alone else systems or None, generated=generated,
                        inputs=inputs, **reading)


def scored_mentions(corpus: Corpus, files: dict, *, gold_name, inputs=None,
                    tag_file: str = TAG_FILE,
                    needed_by: str = "a system with a confidence per mention") -> dict:
    """Name -> the ``ScoredMentions`` of each scored file (name -> path) over every
    sentence of the gold ``corpus`` (``gold_name`` in errors), which generated output
    must answer, in order (for ``needed_by``, its error says)."""
    inputs = InputOptions.of(inputs)
    scored = {}
    for name, path in files.items():
        one = scored_file(corpus, name, path, gold_name, inputs, tag_file=tag_file)
        # generated output's "sentence" indices (its line count is checked as read)
        if one.read.get("sentences") not in (None, list(range(corpus.n_sentences))):
            raise SentenceCountError(
                f"{path} answers {counted(one.references.n_sentences, 'sentence')} of "
                f"{gold_name}'s {corpus.n_sentences} (\"sentence\" indices): {needed_by} "
                "needs every sentence answered, in order; sweep "
                f"the ones answered with nerlens sweep {gold_name} --generated {path}")
        with one.located():   # generated output or span lists, as the API reads them
            scored[name] = scored_of(one.predictions, corpus.select([GOLD]), inputs)
            if "responses" not in one.read:   # generated output is grounded in its sentences
                check_fits(scored[name], corpus, "predictions")
    return scored


__all__ = ["Answers", "TAG_FILE", "read_generated_files", "read_scored_files",
           "read_scored_systems", "read_span_answers", "scored_file", "scored_mentions"]
