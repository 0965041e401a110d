"""Strict decoding in the wrong scheme names the scheme the tags look like.

``--mode strict --scheme IOBES`` on IOB2 tags loses most chunks; the warning (API,
evaluate modules, the report) and ``nerlens score``'s note say which scheme reads them
(``nerspan.spans.likely_scheme``: the one whose strict decoding keeps most chunks), in the
API's words or the command line's flags. By hypothesis: tags written in any scheme and
declared in another that loses most of their chunks are named a scheme that keeps every
chunk, the very scheme when its letters are its own.
"""
from __future__ import annotations

import json
import warnings

import evaluate
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerlens
import nerspan
from nerspan.spans import REPAIR_KINDS
from nerlens.cli import main
from nerspan.schemes import get_scheme
from nerspan.spans import LOOK_ALIKES, likely_scheme
from tests.conftest import REPO
from tests.test_encodings import random_corpus

IOB2_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG"]]
API_HINT = ("do the tags follow IOBES? They read as IOB2 (strict IOB2 decoding keeps every "
            "chunk): declare scheme='IOB2', or use mode='lenient'")
CLI_HINT = ("do the tags follow IOBES? They read as IOB2 (strict IOB2 decoding keeps every "
            "chunk): --scheme IOB2, or use --mode lenient")


def warned(call) -> list[str]:
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        call()
    return sorted(str(w.message) for w in record
                  if issubclass(w.category, nerspan.DecodingWarning))


def test_the_api_and_a_module_name_the_scheme_the_tags_look_like():
    expected = [f"strict IOBES decoding discarded 3 of the 3 chunks of the {side}: {API_HINT}"
                for side in ("predictions", "references")]
    assert warned(lambda: nerspan.score(IOB2_TAGS, IOB2_TAGS, scheme="IOBES",
                                        mode="strict")) == expected
    module = evaluate.load(str(REPO / "metrics" / "faireval"))
    assert warned(lambda: module.compute(predictions=IOB2_TAGS, references=IOB2_TAGS,
                                         scheme="IOBES", mode="strict")) == expected
    report = warned(lambda: nerlens.build_report(
        IOB2_TAGS, {"tagger": IOB2_TAGS}, tokens=[["w"] * len(s) for s in IOB2_TAGS],
        scheme="IOBES", mode="strict", families=["faireval"], bootstrap=0, figures=False))
    assert report and all(message.endswith(API_HINT) for message in report)


def test_the_command_line_names_it_with_its_flags(tmp_path, capsys):
    path = tmp_path / "both.txt"
    path.write_text("\n\n".join("\n".join(f"w {t} {t}" for t in tags) for tags in IOB2_TAGS)
                    + "\n", encoding="utf-8")
    flags = ["--mode", "strict", "--scheme", "IOBES"]
    assert main(["score", str(path), *flags]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [f"note: strict IOBES decoding discarded 3 of the 3 chunks of the {column} "
                   f"column (3 invalid transitions): most of them; {CLI_HINT}"
                   for column in ("gold", "pred")]
    for command in (["faireval", str(path)],
                    ["report", str(path), str(path), "--gold-tag-column", "1", "--families",
                     "faireval", "--bootstrap", "0",
                     "--no-progress", "--output", str(tmp_path / "report")]):
        assert main([*command, *flags]) == 0
        err = capsys.readouterr().err
        lines = [line for line in err.splitlines() if line.startswith("nerlens: warning")]
        assert len(lines) == 2 and all(line.endswith(CLI_HINT) for line in lines), err
        assert "mode='lenient'" not in err


def test_nothing_is_named_when_no_scheme_reads_them_better():
    # all four letters of IOBES, invalid in it: no other scheme has them all
    tags = [["I-PER", "B-LOC", "S-ORG", "E-PER"]]
    corpus = nerspan.Corpus.from_tags(tags)
    assert likely_scheme(corpus, "gold", "IOBES") is None
    messages = warned(lambda: nerspan.score(tags, tags, scheme="IOBES", mode="strict"))
    assert messages and all(m.endswith("(declare their scheme, or use mode='lenient')")
                            for m in messages)


SCHEMES = ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES", "IO"]


@pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")
@settings(max_examples=80, deadline=None)
@given(st.sampled_from(SCHEMES), st.sampled_from(SCHEMES), st.randoms(use_true_random=False))
def test_tags_declared_in_another_scheme_are_named_one_that_reads_them(written, declared, rnd):
    tags = random_corpus(rnd, written, 20, corrupt=0.0)
    corpus = nerspan.Corpus.from_tags(tags)
    used = {t.partition("-")[0] for s in tags for t in s} - {"O"}
    if not used <= set(get_scheme(declared).prefixes):
        return   # strict decoding refuses a prefix outside the declared scheme
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nerspan.DecodingWarning)
        lost = nerspan.decode(corpus, "gold", declared, "strict").repairs
    found = likely_scheme(corpus, "gold", declared)
    if found is None:   # the declared scheme reads them as well as any
        assert lost.discarded_chunks == min(
            nerspan.decode(corpus, "gold", s, "strict").repairs.discarded_chunks
            for s in LOOK_ALIKES if used <= set(get_scheme(s).prefixes))
        return
    name, discarded = found
    own = nerspan.decode(corpus, "gold", written, "strict")
    # no more lost than in the scheme they were written in, and fewer than declared
    assert discarded <= own.repairs.discarded_chunks and discarded < lost.discarded_chunks
    strict = nerspan.decode(corpus, "gold", name, "strict")
    assert strict.repairs.discarded_chunks == discarded
    if written in ("BILOU", "BMES"):   # letters no other scheme has
        assert name == written
    if discarded == own.repairs.discarded_chunks == 0:   # the same mentions, all of them
        assert strict.to_list(corpus) == own.to_list(corpus)


@pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")
def test_results_keep_their_shape():
    """The look-alike is a hint in the warning and the note, not a key of the result."""
    result = nerspan.score(IOB2_TAGS, IOB2_TAGS, scheme="IOBES", mode="strict")
    assert set(json.loads(json.dumps(result.to_dict()))["repairs"]["gold"]) == set(
        REPAIR_KINDS)


def test_the_training_tags_are_named_as_such():
    """Training data decoded in the wrong scheme warns of the training tags (it said
    "the references", which the evaluation's gold is)."""
    messages = warned(lambda: nerspan.as_train_index(
        train=([["w"] * len(s) for s in IOB2_TAGS], IOB2_TAGS),
        scheme="IOBES", mode="strict"))
    # 0.2 has no train_tags keyword (train=(tokens, tags)): the warning says what they are
    assert messages == [f"strict IOBES decoding discarded 3 of the 3 chunks of the "
                        f"training tags: {API_HINT}"]
