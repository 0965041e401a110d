"""Encodings (nerspan.encodings, nerspan.validation) against seqscore, the reference.

seqscore 0.9.0 is a test-only dependency (setup.cfg's test extra). It has IOB1 ("IOB"),
IOB2 ("BIO"), IOBES ("BIOES"), BILOU, BMES and IO; IOE1 and IOE2 are IOB1 and IOB2 read
backwards with E for B, so seqscore's IOB1/IOB2 on the mirrored sentence is their
reference. Random sentences are valid tags of random mentions (written by seqscore) with
some tags replaced at random: invalid transitions and, for validation, prefixes outside
the scheme.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerlens.cli import main
from nerspan import Corpus, InvalidTagError, decode
from nerspan.encodings import (UnwritableMentionError, WRITINGS, convert, mentions,
                               repair)
from nerspan.schemes import get_scheme
from nerspan.validation import InvalidTransitionError, validate
from tests.conftest import shared_path

seqscore = pytest.importorskip("seqscore")
from click.testing import CliRunner  # noqa: E402  (seqscore's command line needs click)
from seqscore.encoding import get_encoding  # noqa: E402
from seqscore.model import Mention, Span  # noqa: E402
from seqscore.scripts import seqscore as seqscore_cli  # noqa: E402
from seqscore.validation import validate_labels  # noqa: E402

SCHEMES = ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES", "IO"]
PEER_NAMES = {"IOB1": "IOB", "IOB2": "BIO", "IOBES": "BIOES", "BILOU": "BILOU",
              "BMES": "BMES", "IO": "IO"}
MIRRORED = {"IOE1": "IOB1", "IOE2": "IOB2"}  # read backwards, E for B
TYPES = ("PER", "LOC", "ORG")
WORDS = ("Ann", "Oslo", "of", "the", "Bank", "in", "York", "New")


# -- the reference: seqscore, and seqscore on the mirrored sentence --------------------
def mirror_tags(tags, swap=True):
    flip = {"B": "E", "E": "B"} if swap else {}
    out = []
    for tag in reversed(tags):
        prefix, _, kind = tag.partition("-")
        out.append(f"{flip.get(prefix, prefix)}-{kind}" if kind else tag)
    return out


def mirror_mentions(found, n):
    return [(kind, n - end, n - start) for kind, start, end in reversed(found)]


def peer_problems(tags, scheme):
    """seqscore's validation: per invalid transition the index of the token it leads
    into (len(tags): out of the sentence), and the indices of prefixes outside."""
    if scheme in MIRRORED:
        transitions, prefixes = peer_problems(mirror_tags(tags), MIRRORED[scheme])
        n = len(tags)
        return sorted(n - i for i in transitions), sorted(n - 1 - i for i in prefixes)
    errors = validate_labels(tags, get_encoding(PEER_NAMES[scheme])).errors
    # seqscore's errors carry no position: replay its order (per token: prefix, then
    # transition; then the end) against the labels
    transitions, prefixes = [], []
    encoding = get_encoding(PEER_NAMES[scheme])
    previous = "O"
    for i, tag in enumerate(tags + ["O"]):
        state, kind = encoding.split_label(tag)
        before, before_kind = encoding.split_label(previous)
        if i < len(tags) and not encoding.is_valid_state(state):
            prefixes.append(i)
        if not encoding.is_valid_transition(before, before_kind, state, kind):
            transitions.append(i)
        previous = tag
    assert len(transitions) + len(prefixes) == len(errors)
    return transitions, prefixes


def peer_mentions(tags, scheme):
    """seqscore's mentions of valid tags, ``(type, start, end)``; None if invalid."""
    if scheme in MIRRORED:
        found = peer_mentions(mirror_tags(tags), MIRRORED[scheme])
        return None if found is None else mirror_mentions(found, len(tags))
    encoding = get_encoding(PEER_NAMES[scheme])
    if validate_labels(tags, encoding).errors:
        return None
    return [(m.type, m.span.start, m.span.end) for m in encoding.decode_labels(tags)]


def peer_tags(found, n, scheme):
    """seqscore's tags for mentions ``(type, start, end)`` of a sentence of ``n``."""
    if scheme in MIRRORED:
        return mirror_tags(peer_tags(mirror_mentions(found, n), n, MIRRORED[scheme]))
    encoding = get_encoding(PEER_NAMES[scheme])
    return list(encoding.encode_mentions([Mention(Span(a, b), t) for t, a, b in found], n))


def peer_repair(tags, scheme, method):
    """seqscore's repair (IOB2: both methods, IOB1: conlleval; IOE by the mirror)."""
    if scheme in MIRRORED:
        return mirror_tags(peer_repair(mirror_tags(tags), MIRRORED[scheme], method))
    encoding = get_encoding(PEER_NAMES[scheme])
    if not validate_labels(tags, encoding).errors:
        return list(tags)
    return list(encoding.repair_labels(tags, method))


# -- random data --------------------------------------------------------------------------
def random_mentions(rnd, n):
    found, position = [], 0
    while position < n:
        if rnd.random() < 0.4:
            end = min(n, position + rnd.choice((1, 1, 2, 3)))
            found.append((rnd.choice(TYPES), position, end))
            position = end
        else:
            position += rnd.choice((0, 1)) if found else 1  # adjacent mentions too
            if found and found[-1][2] > position:
                position = found[-1][2]
    return found


def letters(scheme):
    return [letter for letter in get_scheme(scheme).prefixes if letter != "O"]


def random_sentence(rnd, scheme, n, corrupt=0.15, outside=""):
    """Valid tags of random mentions (IO: none adjacent of one type), some replaced by
    a random tag of the scheme (or with a prefix of ``outside``)."""
    found = random_mentions(rnd, n)
    if scheme == "IO":
        found = [m for i, m in enumerate(found)
                 if not (i and found[i - 1][2] == m[1] and found[i - 1][0] == m[0])]
    tags = peer_tags(found, n, scheme)
    for i in range(n):
        if rnd.random() < corrupt:
            tags[i] = rnd.choice(["O"] + [f"{p}-{rnd.choice(TYPES)}"
                                          for p in letters(scheme) + list(outside)])
    return tags


def random_corpus(rnd, scheme, n_sentences, **options):
    return [random_sentence(rnd, scheme, rnd.randint(1, 9), **options)
            for _ in range(n_sentences)]


def write_file(path, sentences, rnd, docstarts=True):
    """A ``token<TAB>tag`` file with ``-DOCSTART-`` rows now and then; returns it."""
    lines = []
    for sentence in sentences:
        if docstarts and rnd.random() < 0.2:
            lines += ["-DOCSTART-\tO", ""]
        lines += [f"{rnd.choice(WORDS)}\t{tag}" for tag in sentence] + [""]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def file_tags(path):
    """The tag of every token row of a file (seqscore's output or ours)."""
    return [line.split()[-1] for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("-DOCSTART-")]


# -- validate -----------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SCHEMES), st.randoms(use_true_random=False))
def test_validate_equals_seqscore_on_random_tags(scheme, rnd):
    outside = "S" if scheme in ("IOB1", "IOB2", "IO", "IOE1", "IOE2") else "EU"
    outside = "".join(p for p in outside if p not in get_scheme(scheme).prefixes)
    sentences = random_corpus(rnd, scheme, 30, corrupt=0.2, outside=outside)
    result = validate(sentences, scheme)
    ours = {}
    for problem in result.problems:
        at = len(sentences[problem.sentence]) if problem.kind == "end" else problem.position
        kinds = ours.setdefault(problem.sentence, ([], []))
        kinds[problem.kind == "prefix"].append(at)
    for i, tags in enumerate(sentences):
        assert ours.get(i, ([], [])) == peer_problems(tags, scheme), (scheme, tags)
    assert result.valid == (not ours)


@pytest.mark.parametrize("scheme", sorted(PEER_NAMES))
def test_validate_file_equals_seqscore_validate(tmp_path, scheme):
    rnd = random.Random(scheme)
    outside = "".join(p for p in "SEU" if p not in get_scheme(scheme).prefixes)[:1]
    path = write_file(tmp_path / "tags.txt",
                      random_corpus(rnd, scheme, 200, corrupt=0.1, outside=outside), rnd)
    result = validate(path, scheme)
    with path.open() as handle:
        from seqscore.conll import CoNLLIngester, LineSpec
        docs = CoNLLIngester(get_encoding(PEER_NAMES[scheme]), LineSpec(0, -1)).validate(
            handle, str(path))
    theirs = [(e.line_num, e.token, e.label) for doc in docs for sentence in doc
              for e in sentence.errors]
    ours = [(p.line, p.token, p.tag if p.kind != "end" else p.previous)
            for p in result.problems]
    assert ours == theirs and len(ours) > 10
    assert (result.documents, result.sentences, result.tokens) == (
        len(docs), sum(map(len, docs)), sum(s.n_tokens for doc in docs for s in doc))
    # the command's exit status: 1 when there is any problem
    assert CliRunner().invoke(seqscore_cli.validate,
                              ["--labels", PEER_NAMES[scheme], str(path)]).exit_code == 1


def test_validate_names_file_line_token_and_rule(tmp_path):
    path = tmp_path / "tags.txt"
    path.write_text("-DOCSTART-\tO\n\nAnn\tI-PER\nruns\tO\n\nOslo\tB-LOC\n", encoding="utf-8")
    result = validate(path, "IOB2")
    (problem,) = result.problems
    assert problem.to_dict() == {
        "kind": "transition", "file": str(path), "line": 3, "sentence": 0, "position": 0,
        "token": "Ann", "previous": None, "tag": "I-PER",
        "rule": "I-PER may follow only B-PER or I-PER"}
    assert problem.message() == (f"{path}:3: invalid transition 'O' -> 'I-PER' (token "
                                 "'Ann'): I-PER may follow only B-PER or I-PER")
    assert result.to_dict()["documents"] == 1 and not result.valid
    end = validate([["B-PER", "I-PER"]], "IOBES").problems[0]
    assert (end.kind, end.position, end.previous, end.tag) == ("end", 1, "I-PER", None)
    assert end.rule == "I-PER must be followed by I-PER or E-PER"
    assert validate([["B-PER", "E-PER"], ["S-LOC"]], "BIOES").valid


def test_ioe1_e_after_o_is_valid():
    # IOE1 writes a one-token mention before one of its type with E-, also after O
    # (seqeval's strict IOE1 starts no mention there: strict decoding still drops it)
    tags = [["O", "E-PER", "I-PER", "O"], ["I-LOC", "E-PER", "I-PER"]]
    assert validate(tags, "IOE1").valid
    assert [peer_mentions(t, "IOE1") for t in tags] == [
        [("PER", 1, 2), ("PER", 2, 3)], [("LOC", 0, 1), ("PER", 1, 2), ("PER", 2, 3)]]
    assert convert(tags, "IOE1", "IOB2").tags() == [["O", "B-PER", "B-PER", "O"],
                                                   ["B-LOC", "B-PER", "B-PER"]]
    assert decode(Corpus.from_tags(tags), "gold", "IOE1").repairs.invalid_transitions == 0


# -- convert ------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SCHEMES), st.randoms(use_true_random=False))
def test_convert_equals_seqscore_for_every_pair(source, rnd):
    sentences = random_corpus(rnd, source, 40, corrupt=0.05)
    found = [peer_mentions(tags, source) for tags in sentences]
    valid = [tags for tags, m in zip(sentences, found) if m is not None]
    found = [m for m in found if m is not None]
    for target in SCHEMES:
        expected = [peer_tags(m, len(tags), target) for tags, m in zip(valid, found)]
        adjacent = [any(a[0] == b[0] and a[2] == b[1] for a, b in zip(m, m[1:]))
                    for m in found]
        if target == "IO" and any(adjacent):
            with pytest.raises(UnwritableMentionError, match="IO cannot write the"):
                convert(valid, source, target)
            # lossy: seqscore's tags, merging them; the pairs merged counted
            merged = convert(valid, source, target, lossy=True)
            assert merged.tags() == expected
            assert merged.counts["merged_pairs"] == sum(
                a[0] == b[0] and a[2] == b[1] for m in found for a, b in zip(m, m[1:]))
            keep = [i for i, a in enumerate(adjacent) if not a]
            valid, found = [valid[i] for i in keep], [found[i] for i in keep]
            expected = [expected[i] for i in keep]
        if valid:
            assert convert(valid, source, target).tags() == expected, (source, target)
    if len(valid) < len(sentences):  # seqscore refuses invalid tags: so does convert
        first = next(i for i, tags in enumerate(sentences)
                     if peer_mentions(tags, source) is None)
        with pytest.raises(InvalidTransitionError, match=f"sentence {first}, position"):
            convert(sentences, source, "IOB2")


@pytest.mark.parametrize("source,target", [("IOB2", "BIOES"), ("IOB1", "BILOU"),
                                           ("BMES", "IOB1"), ("IOBES", "IO")])
def test_convert_file_equals_seqscore_convert(tmp_path, source, target):
    rnd = random.Random(source + target)
    sentences = random_corpus(rnd, source, 150, corrupt=0.0)
    if target == "IO":  # IO cannot write these (test_io_cannot_keep_adjacent_mentions...)
        sentences = [tags for tags in sentences
                     if not _adjacent(convert([tags], source, "IOB2").tags()[0])]
    path = write_file(tmp_path / "in.txt", sentences, rnd)
    convert(path, source, target).write(tmp_path / "ours.txt")
    result = CliRunner().invoke(seqscore_cli.convert, [
        "--input-labels", PEER_NAMES[source], "--output-labels",
        PEER_NAMES[get_scheme(target).name], str(path), str(tmp_path / "theirs.txt")])
    assert result.exit_code == 0, result.output
    assert file_tags(tmp_path / "ours.txt") == file_tags(tmp_path / "theirs.txt")
    # everything but the tags is the input's, line for line
    ours = (tmp_path / "ours.txt").read_text().splitlines()
    assert [line.split("\t")[0] for line in ours] == [
        line.split("\t")[0] for line in path.read_text().splitlines()]


@pytest.mark.parametrize("source", ["IOB2", "IOBES", "IOB1"])
def test_lossy_io_file_equals_seqscore_convert(tmp_path, capsys, source):
    """Converting to IO with adjacent mentions of one type: refused by default (the API
    and ``nerlens convert``), written as seqscore writes them with ``lossy=True`` /
    ``--lossy``, file for file, and the pairs merged counted (JSON, the note)."""
    rnd = random.Random(f"lossy{source}")
    sentences = random_corpus(rnd, source, 150, corrupt=0.0)
    pairs = sum(a[0] == b[0] and a[2] == b[1] for tags in sentences
                for m in [peer_mentions(tags, source)] for a, b in zip(m, m[1:]))
    assert pairs   # the corpus has some to merge
    path = write_file(tmp_path / "in.txt", sentences, rnd)
    result = CliRunner().invoke(seqscore_cli.convert, [
        "--input-labels", PEER_NAMES[source], "--output-labels", "IO", str(path),
        str(tmp_path / "theirs.txt")])
    assert result.exit_code == 0, result.output
    with pytest.raises(UnwritableMentionError, match=r"or merge them knowingly \(lossy=True"):
        convert(path, source, "IO")
    api = convert(path, source, "IO", lossy=True)
    api.write(tmp_path / "api.txt")
    assert file_tags(tmp_path / "api.txt") == file_tags(tmp_path / "theirs.txt")
    assert api.counts["merged_pairs"] == pairs and api.to_dict()["merged_pairs"] == pairs
    out = tmp_path / "ours.txt"
    assert main(["convert", str(path), str(out), "--from", source, "--to", "IO"]) == 2
    err = capsys.readouterr().err
    assert "or merge them knowingly (lossy=True, --lossy: the pairs merged are counted)" in err
    assert not out.exists()
    assert main(["convert", str(path), str(out), "--from", source, "--to", "IO", "--lossy",
                 "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["merged_pairs"] == pairs
    assert f"note: {pairs} pairs of adjacent mentions of one type merged" in captured.err
    assert file_tags(out) == file_tags(tmp_path / "theirs.txt")
    # to a scheme that parts them, lossy merges nothing
    assert convert(path, source, "IOB2", lossy=True).counts["merged_pairs"] == 0


def _adjacent(iob2_tags):
    return any(tag.startswith("B-") and i and iob2_tags[i - 1][2:] == tag[2:]
               for i, tag in enumerate(iob2_tags))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SCHEMES), st.sampled_from(SCHEMES), st.randoms(use_true_random=False))
def test_round_trips_keep_the_mentions(source, target, rnd):
    """Mentions written in any scheme and read back are the same mentions; tags
    converted there and back are the same tags; only IO refuses, and only adjacent
    mentions of one type."""
    sentences = random_corpus(rnd, "IOB2", 12, corrupt=0.0)
    spans = convert(sentences, "IOB2", "IOB2").corpus
    expected = decode(spans, "gold", "IOB2").to_list(spans)
    try:
        written = convert(sentences, "IOB2", source).tags()
    except UnwritableMentionError:
        assert source == "IO" and any(map(_adjacent, sentences))
        return
    corpus = Corpus.from_tags(written)
    assert decode(corpus, "gold", source).to_list(corpus) == expected
    assert validate(written, source).valid
    try:
        there = convert(written, source, target).tags()
    except UnwritableMentionError as error:
        assert target == "IO" and any(map(_adjacent, sentences)), error
        return
    assert convert(there, target, source).tags() == written


def test_every_scheme_has_a_writing():
    from nerspan.schemes import SCHEMES as ALL
    assert {scheme.name for scheme in ALL.values()} == set(WRITINGS)


# -- repair -------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["IOB2", "IOE2", "IOB1", "IOE1"]), st.randoms(use_true_random=False))
def test_repair_equals_seqscore(scheme, rnd):
    sentences = random_corpus(rnd, scheme, 30, corrupt=0.25)
    methods = ("conlleval", "discard") if scheme in ("IOB2", "IOE2") else ("conlleval",)
    for method in methods:
        result = repair(sentences, scheme, method)
        expected = [peer_repair(tags, scheme, method) for tags in sentences]
        assert result.tags() == expected, (scheme, method)
        changed = [(i, k) for i, (a, b) in enumerate(zip(sentences, expected))
                   for k in range(len(a)) if a[k] != b[k]]
        assert [(c.sentence, c.position) for c in result.changes] == changed
        assert result.counts["changed_tags"] == len(changed)
        problems = validate(sentences, scheme).problems
        assert result.counts["invalid_transitions"] == len(problems)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SCHEMES), st.randoms(use_true_random=False))
def test_repairs_of_every_scheme(scheme, rnd):
    """On every scheme: repaired tags are valid; conlleval keeps the lenient chunks
    (conlleval.pl's), discard those already written as the scheme writes them, which
    is strict decoding (seqeval's) on every scheme but IOB1 and IOE1."""
    sentences = random_corpus(rnd, scheme, 30, corrupt=0.25)
    corpus = Corpus.from_tags(sentences)
    lenient = decode(corpus, "gold", scheme).to_list(corpus)
    kept = {}
    for method in ("conlleval", "discard"):
        result = repair(sentences, scheme, method)
        assert validate(result.tags(), scheme).valid
        fixed = Corpus.from_tags(result.tags())
        kept[method] = decode(fixed, "gold", scheme).to_list(fixed)
        assert repair(result.tags(), scheme, method).changes == ()
    assert kept["conlleval"] == lenient
    assert all(set(d) <= set(c) for d, c in zip(kept["discard"], kept["conlleval"]))
    if scheme not in ("IOB1", "IOE1"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert kept["discard"] == decode(corpus, "gold", scheme, "strict").to_list(corpus)
    chunks = sum(map(len, lenient))
    assert repair(sentences, scheme, "discard").counts["discarded_chunks"] == \
        chunks - sum(map(len, kept["discard"]))


@pytest.mark.parametrize("scheme,method", [("IOB2", "conlleval"), ("IOB2", "discard"),
                                           ("IOB1", "conlleval")])
def test_repair_file_equals_seqscore_repair(tmp_path, scheme, method):
    rnd = random.Random(scheme + method)
    path = write_file(tmp_path / "in.txt", random_corpus(rnd, scheme, 200, corrupt=0.2), rnd)
    result = repair(path, scheme, method)
    result.write(tmp_path / "ours.txt")
    run = CliRunner().invoke(seqscore_cli.repair, [
        "--labels", PEER_NAMES[scheme], "--repair-method", method, "-q", str(path),
        str(tmp_path / "theirs.txt")])
    assert run.exit_code == 0, run.output
    assert file_tags(tmp_path / "ours.txt") == file_tags(tmp_path / "theirs.txt")
    lines = path.read_text().splitlines()
    assert result.changes and all(
        lines[c.line - 1].split("\t") == [c.token, c.tag] for c in result.changes)
    assert result.to_dict()["changed_tags"] == len(result.to_dict()["changes"])


@pytest.mark.parametrize("name,method", [("samples/invalid_repair_conlleval.bio", "conlleval"),
                                         ("samples/invalid_repair_discard.bio", "discard"),
                                         ("conll_annotation/invalid1_BIO_discard.txt",
                                          "discard")])
def test_repair_fixtures(name, method):
    expected = shared_path("fixtures", "seqscore", name)
    source = expected.parent / ("invalid.bio" if name.startswith("samples") else
                                "invalid1.bio")
    assert repair(source, "IOB2", method).tags() == [
        s for s in _sentences(file_tags(expected), source)]


def _sentences(flat, source):
    corpus = convert(source, "IOB2", "IOB2", repair="conlleval").corpus
    offsets = corpus.offsets.tolist()
    return [flat[a:b] for a, b in zip(offsets[:-1], offsets[1:])]


def test_repair_of_the_bioes_fixture():
    # seqscore repairs no BIOES: both methods by nerlens's rules, written out here
    source = shared_path("fixtures", "seqscore", "conll_annotation", "invalid1.bioes")
    org, o = ["B-ORG", "I-ORG", "E-ORG"], ["O"] * 3
    fixed = repair(source, "BIOES", "conlleval")
    assert fixed.tags()[1:] == [org + ["O", "O", "S-LOC", "S-LOC", "O", "S-LOC", "O"],
                                org, org, org, ["S-LOC"]]
    assert repair(source, "BIOES", "discard").tags()[1:] == [
        o + ["O", "O", "S-LOC", "O", "O", "O", "O"], o, o, o, ["O"]]
    assert fixed.counts == {"invalid_transitions": 9, "changed_tags": 8, "chunks": 8,
                            "discarded_chunks": 0}


# -- bad input ----------------------------------------------------------------------------
def test_unknown_names_list_the_choices():
    with pytest.raises(ValueError, match="unknown tag scheme 'BIOX'; choose one of IOB1, "
                                         "IOB2, BIO, IOE1"):
        validate([["O"]], "BIOX")
    with pytest.raises(ValueError, match="unknown tag scheme 'IOX'"):
        convert([["O"]], "IOB2", "IOX")
    with pytest.raises(ValueError, match="unknown repair method 'lenient'; choose "
                                         "'conlleval', 'discard'$"):
        repair([["O"]], "IOB2", "lenient")
    with pytest.raises(ValueError, match=r"choose 'conlleval', 'discard' or None"):
        convert([["O"]], "IOB2", "IO", repair="strict")


def test_bad_tags_name_the_file_and_line(tmp_path):
    path = tmp_path / "tags.txt"
    path.write_text("Ann\tB-PER\n\nOslo\tPER\n", encoding="utf-8")
    for run in (lambda: validate(path, "IOB2"), lambda: repair(path, "IOB2"),
                lambda: convert(path, "IOB2", "IO")):
        with pytest.raises(InvalidTagError, match=rf"{path}:3, tags, sentence 1, position 0: "
                                                  r"'PER' is not a tag"):
            run()
    path.write_text("Ann\tB-PER\nOslo\tS-LOC\n", encoding="utf-8")
    with pytest.raises(InvalidTagError, match=rf"{path}:2, tags, sentence 0, position 1: "
                                              r"tag 'S-LOC' is not in the IOB2 scheme"):
        repair(path, "IOB2")


def test_invalid_tags_are_refused_unless_repaired(tmp_path):
    path = tmp_path / "tags.txt"
    path.write_text("Ann\tB-PER\n\nin\tO\nOslo\tI-LOC\n", encoding="utf-8")
    with pytest.raises(InvalidTransitionError, match=(
            rf"{path}:4, sentence 1, position 1: 1 problem under IOB2; the first: invalid "
            r"transition 'O' -> 'I-LOC' \(token 'Oslo'\): I-LOC may follow only B-LOC or "
            r"I-LOC\. Validate .* repair='conlleval'")):
        convert(path, "IOB2", "IOBES")
    converted = convert(path, "IOB2", "IOBES", repair="conlleval")
    assert converted.tags() == [["S-PER"], ["O", "S-LOC"]]
    assert [c.to_dict() for c in converted.changes] == [
        {"file": str(path), "line": 4, "sentence": 1, "position": 1, "token": "Oslo",
         "tag": "I-LOC", "repaired": "B-LOC"}]
    with pytest.raises(InvalidTransitionError, match="1 problem under IOB2"):
        mentions([["O", "I-LOC"]], "IOB2")


def test_io_cannot_keep_adjacent_mentions_of_one_type(tmp_path):
    path = tmp_path / "tags.txt"
    path.write_text("x\tO\n\nAnn\tB-PER\nBob\tB-PER\nin\tO\nOslo\tB-LOC\nParis\tB-LOC\n",
                    encoding="utf-8")
    with pytest.raises(UnwritableMentionError, match=(
            rf"{path}:4, sentence 1, position 1: IO cannot write the PER mention at 1-2 apart "
            r"from the one at 0-1 right before it: .* \(2 such pairs in all\)")):
        convert(path, "IOB2", "IO")
    assert convert([["B-PER", "B-LOC"]], "IOB2", "IO").tags() == [["I-PER", "I-LOC"]]
