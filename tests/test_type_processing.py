"""Type processing (keep_types, remove_types, type_map) against seqscore's ``process``.

The reference: seqscore 0.9.0's ``process`` (test-only dependency) on random files, after
its ``repair --repair-method conlleval`` where the files hold invalid transitions (its
``process`` reads valid tags only; nerlens's lenient reading is conlleval's repair). The
files seqscore writes are scored without any type option; nerlens scores the original
files with the options: the counts must be the same, in the API, in every family's input
path and on the command line.
"""
from __future__ import annotations

import contextlib
import importlib
import io
import json
import random
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evaluate
import faireval
from benchmarks import bench_type_processing
import nerspan
import tough_mentions
from nerlens.cli import main
from nerspan.type_processing import TypeNotFoundError, TypeProcessing, process_corpus

pytest.importorskip("seqscore")
from click.testing import CliRunner  # noqa: E402
from seqscore.encoding import get_encoding  # noqa: E402
from seqscore.model import AnnotatedSequence  # noqa: E402
from seqscore.processing import TypeMapper  # noqa: E402
from seqscore.scripts import seqscore as seqscore_cli  # noqa: E402

from tests.conftest import REPO  # noqa: E402
from tests.test_encodings import PEER_NAMES, WORDS, file_tags, random_corpus  # noqa: E402

# (keep, remove, map): seqscore's flags and the API's options
PROCESSINGS = [
    (None, None, {"ORG": "PER"}),          # merging two types: adjacent mentions stay two
    (["PER", "ORG"], None, None),
    (None, ["LOC"], None),
    (["GPE", "PER"], None, {"LOC": "GPE"}),
    (None, ["ORG"], {"LOC": "PER"}),
    # a kept or removed type named as written, which the map renames: seqscore's order
    # (mapped first) keeps none of it / removes none of it
    (["LOC", "PER"], None, {"LOC": "GPE"}),
    (None, ["LOC"], {"LOC": "GPE"}),
]


def _invoke(command, *args):
    result = CliRunner().invoke(command, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


def seqscore_processed(tmp_path, path, name, keep, remove, mapping, invalid):
    """The file seqscore's process writes (after its conlleval repair: a no-op on valid
    tags; the predictions lose tags at random, so they are not valid)."""
    if invalid:
        repaired = tmp_path / f"{name}.repaired"
        _invoke(seqscore_cli.repair, "--labels", "BIO", "--repair-method", "conlleval", "-q",
                path, repaired)
        path = repaired
    flags = []
    if keep:
        flags += ["--keep-types", ",".join(keep)]
    if remove:
        flags += ["--remove-types", ",".join(remove)]
    if mapping:
        inverted = {}
        for source, target in mapping.items():
            inverted.setdefault(target, []).append(source)
        map_file = tmp_path / f"{name}.map.json"
        map_file.write_text(json.dumps(inverted))
        flags += ["--type-map", map_file]
    out = tmp_path / f"{name}.processed"
    _invoke(seqscore_cli.process, "--labels", "BIO", *flags, path, out)
    return out


def write_tags(path, sentences, words):
    lines = []
    for tags, tokens in zip(sentences, words):
        lines += [f"{w}\t{t}" for w, t in zip(tokens, tags)] + [""]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def per_sentence(tags, sentences):
    out, at = [], 0
    for s in sentences:
        out.append(tags[at:at + len(s)])
        at += len(s)
    return out


def counts(result) -> dict:
    d = result.to_dict()
    return {kind: (row["support"], row["predicted"], row["correct"])
            for kind, row in d["per_type"].items()
            if row["support"] or row["predicted"]}


@pytest.mark.parametrize("invalid", [False, True])
@pytest.mark.parametrize("case", range(len(PROCESSINGS)))
def test_scores_equal_scoring_seqscore_processed_files(tmp_path, case, invalid):
    keep, remove, mapping = PROCESSINGS[case]
    rnd = random.Random(f"{case}{invalid}")
    corrupt = 0.15 if invalid else 0.0
    gold = random_corpus(rnd, "IOB2", 150, corrupt=corrupt)
    pred = [[t if rnd.random() > 0.3 else rnd.choice(["O", "B-PER", "I-LOC", "B-ORG"]
                                                     if invalid else ["O"])
             for t in tags] for tags in gold]
    words = [[rnd.choice(WORDS) for _ in tags] for tags in gold]
    paths = {name: write_tags(tmp_path / f"{name}.txt", tags, words)
             for name, tags in (("gold", gold), ("pred", pred))}
    theirs = {name: per_sentence(file_tags(seqscore_processed(
        tmp_path, path, name, keep, remove, mapping, True)), gold)
        for name, path in paths.items()}
    expected = nerspan.score(theirs["gold"], theirs["pred"])
    options = dict(keep_types=keep, remove_types=remove, type_map=mapping)
    ours = nerspan.score(gold, pred, inputs=options)
    assert counts(ours) == counts(expected) and counts(expected)
    repairs = ours.to_dict()["repairs"]
    changed = sum(repairs[side]["types_mapped"] + repairs[side]["types_removed"]
                  for side in ("gold", "pred"))
    assert changed > 0
    # the command line: the same counts, the flags in seqscore's spelling
    flags = []
    if keep:
        flags += ["--keep-types", ",".join(keep)]
    if remove:
        flags += ["--remove-types", ",".join(remove)]
    if mapping:
        flags += ["--type-map", ",".join(f"{s}={t}" for s, t in mapping.items())]
    cli = _cli_json(["score", str(paths["gold"]), str(paths["pred"]), *flags])
    assert cli["per_type"] == ours.to_dict()["per_type"]
    assert cli["repairs"]["gold"]["types_mapped"] == repairs["gold"]["types_mapped"]


def test_score_notes_the_mentions_changed(tmp_path, capsys):
    path = tmp_path / "both.txt"
    path.write_text("Ann B-PERSON B-PER\nin O O\nOslo B-MISC O\n", encoding="utf-8")
    assert main(["score", str(path), "--type-map", "PERSON=PER", "--remove-types",
                 "MISC"]) == 0
    err = capsys.readouterr().err
    assert "note: 1 mention of gold retyped, 1 dropped (--type-map" in err
    assert "note: 0 mentions of" not in err  # a column without change gets no note


def _cli_json(argv):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--format", "json"])
    assert code == 0
    return json.loads(out.getvalue())


def test_every_family_scores_the_processed_mentions(tmp_path):
    """faireval and a Evaluation read through read_input: the same as processing first."""
    rnd = random.Random(7)
    gold = random_corpus(rnd, "IOB2", 60, corrupt=0.0)
    pred = [[t if rnd.random() > 0.3 else "O" for t in tags] for tags in gold]
    processing = TypeProcessing.of(type_map={"ORG": "PER"}, remove_types=["LOC"])
    corpus = process_corpus(nerspan.Corpus.from_tags(gold, pred), ["gold", "pred"], "IOB2",
                            "lenient", processing)
    processed = [corpus.tags("gold", i) for i in range(corpus.n_sentences)], \
        [corpus.tags("pred", i) for i in range(corpus.n_sentences)]
    direct = faireval.score(*processed).to_dict()
    given = faireval.score(gold, pred, inputs={'type_map': {"ORG": "PER"}, 'remove_types': ["LOC"]}).to_dict()
    assert given["fair_f1"] == direct["fair_f1"] and given["per_type"] == direct["per_type"]
    context = nerspan.Evaluation.build(gold, inputs={'type_map': {"ORG": "PER"}, 'remove_types': ["LOC"]})
    assert set(context.gold.types[t] for t in context.gold.type) == {"PER"}


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["IOB1", "IOB2", "IOE1", "IOE2",
                                                           "IOBES", "BILOU"]))
def test_processing_equals_retyping_the_decoded_mentions(rnd, scheme):
    """Invariant: decoding the processed tags gives the decoded mentions retyped and
    filtered (every other tag kept), in every scheme, with invalid transitions."""
    outside = "S" if scheme in ("IOB1", "IOB2", "IOE1", "IOE2") else ""
    sentences = random_corpus(rnd, scheme, 20, corrupt=0.2, outside=outside)
    corpus = nerspan.Corpus.from_tags(sentences)
    processing = TypeProcessing.of(type_map={"ORG": "PER"}, remove_types=["LOC"])
    present = {t.partition("-")[2] for s in sentences for t in s} - {""}
    if not {"ORG", "LOC"} <= present:
        return
    before = nerspan.decode(corpus, scheme=scheme)
    after_corpus = process_corpus(corpus, ["gold"], scheme, "lenient", processing)
    after = nerspan.decode(after_corpus, scheme=scheme)
    expected = [[("PER" if k == "ORG" else k, a, b) for k, a, b in s if k != "LOC"]
                for s in before.to_list(corpus)]
    assert after.to_list(after_corpus) == expected
    dropped = sum(k == "LOC" for s in before.to_list(corpus) for k, _, _ in s)
    retyped = sum(k == "ORG" for s in before.to_list(corpus) for k, _, _ in s)
    assert (after.repairs.types_removed, after.repairs.types_mapped) == (dropped, retyped)
    # the tags written anew are valid, and what decoding repaired in them still counts
    assert (after.repairs.invalid_transitions, after.repairs.outside_scheme) == \
        (before.repairs.invalid_transitions, before.repairs.outside_scheme)


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["IOB2", "IOE2", "IOBES",
                                                           "BILOU"]))
def test_strict_mode_keeps_its_discards_counted(rnd, scheme):
    """Strict decoding of the processed tags: the strict mentions retyped and filtered,
    and the chunks it discards counted as before (also those in runs written anew)."""
    sentences = random_corpus(rnd, scheme, 20, corrupt=0.25)
    corpus = nerspan.Corpus.from_tags(sentences)
    processing = TypeProcessing.of(type_map={"ORG": "PER"}, remove_types=["LOC"])
    present = {t.partition("-")[2] for s in sentences for t in s} - {""}
    if not {"ORG", "LOC"} <= present:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nerspan.DecodingWarning)
        before = nerspan.decode(corpus, scheme=scheme, mode="strict")
        after_corpus = process_corpus(corpus, ["gold"], scheme, "strict", processing)
        after = nerspan.decode(after_corpus, scheme=scheme, mode="strict")
    expected = [[("PER" if k == "ORG" else k, a, b) for k, a, b in s if k != "LOC"]
                for s in before.to_list(corpus)]
    assert after.to_list(after_corpus) == expected
    b, a = before.repairs, after.repairs
    assert (a.invalid_transitions, a.outside_scheme, a.discarded_chunks) == \
        (b.invalid_transitions, b.outside_scheme, b.discarded_chunks)
    assert a.lenient_chunks == b.lenient_chunks - a.types_removed


def test_clear_errors():
    gold, pred = [["B-PER", "O", "B-LOC"]], [["B-PER", "O", "O"]]
    with pytest.raises(TypeNotFoundError, match="kept type 'FOO' occurs in no tag"):
        nerspan.score(gold, pred, inputs={'keep_types': ["FOO"]})
    with pytest.raises(TypeNotFoundError, match="removed type 'MISC'"):
        nerspan.score(gold, pred, inputs={'remove_types': ["MISC"]})
    with pytest.raises(TypeNotFoundError, match="mapped type 'PERSON'"):
        nerspan.score(gold, pred, inputs={'type_map': {"PERSON": "PER"}})
    with pytest.raises(TypeError, match="both given"):
        nerspan.score(gold, pred, inputs={'keep_types': ["PER"], 'remove_types': ["LOC"]})
    with pytest.raises(TypeError, match="not a string"):
        nerspan.score(gold, pred, inputs={'keep_types': "PER,LOC"})
    with pytest.raises(TypeError, match="no entity type"):
        nerspan.score(gold, pred, inputs={'type_map': {"PER": "O"}})
    # a type only the predictions have may be removed
    assert nerspan.score(gold, [["B-MISC", "O", "B-LOC"]], inputs={'remove_types': ["MISC"]}).micro() \
        == (1.0, 0.5, 2 / 3)


def test_training_data_is_processed_too():
    gold, pred, words = [["B-PERSON", "O"]], [["B-PER", "O"]], [["Ann", "sleeps"]]
    mapped = tough_mentions.score(gold, pred, tokens=words, train=([["Ann", "works"]],
                                                                   [["B-PERSON", "O"]]),
                                  inputs={'type_map': {"PERSON": "PER"}}).to_dict()
    by_hand = tough_mentions.score([["B-PER", "O"]], pred, tokens=words,
                                   train=([["Ann", "works"]], [["B-PER", "O"]])).to_dict()
    assert mapped["counts"] == by_hand["counts"] and mapped["recall"] == 1.0


@pytest.mark.parametrize("family", ["nerspan", "tough_mentions", "hardeval", "faireval",
                                    "attribute_buckets"])
def test_every_family_counts_the_changes_in_repairs(family):
    score = importlib.import_module(family).score
    gold = [["B-PERSON", "I-PERSON", "O", "B-LOC"], ["B-MISC", "O"]]
    pred = [["B-PER", "I-PER", "O", "B-LOC"], ["B-MISC", "O"]]
    words = [["Ann", "Lee", "in", "Oslo"], ["Bob", "ran"]]
    extra = {} if family in ("nerspan", "faireval") else dict(
        tokens=words, train=(words, [["B-PERSON", "I-PERSON", "O", "B-LOC"], ["O", "O"]]))
    repairs = score(gold, pred, inputs={'type_map': {"PERSON": "PER"}, 'remove_types': ["MISC"]},
                    **extra).to_dict()["repairs"]
    # gold: one PERSON mention retyped, one MISC dropped; pred: one MISC dropped
    assert (repairs["gold"]["types_mapped"], repairs["gold"]["types_removed"]) == (1, 1)
    assert (repairs["pred"]["types_mapped"], repairs["pred"]["types_removed"]) == (0, 1)
    assert repairs["gold"]["sentences"] == [0, 1]


TYPE_NAMES = ("PER", "LOC", "ORG")


@st.composite
def processings(draw):
    """Random options: a map (maybe merging types), then keep or remove (or neither)."""
    mapping = draw(st.dictionaries(st.sampled_from(TYPE_NAMES),
                                   st.sampled_from(TYPE_NAMES + ("GPE",)), max_size=2))
    # a type as written or as the map makes it (keep LOC with LOC -> GPE keeps none)
    named = sorted({mapping.get(t, t) for t in TYPE_NAMES} | set(TYPE_NAMES))
    which = draw(st.sampled_from(["keep", "remove", "none"]))
    chosen = draw(st.lists(st.sampled_from(named), min_size=1, max_size=2, unique=True))
    return (chosen if which == "keep" else None, chosen if which == "remove" else None,
            {s: t for s, t in mapping.items() if s != t} or None)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["IOB1", "IOB2", "IOBES",
                                                           "BILOU", "BMES"]), processings())
def test_mentions_equal_seqscore_type_mapper(rnd, scheme, options):
    """seqscore's ``TypeMapper`` (the API behind its ``process``) on random valid
    sentences: the same mentions as decoding nerlens's processed tags."""
    keep, remove, mapping = options
    sentences = random_corpus(rnd, scheme, 15, corrupt=0.0)
    present = {t.partition("-")[2] for s in sentences for t in s} - {""}
    processing = TypeProcessing.of(keep, remove, mapping)
    corpus = nerspan.Corpus.from_tags(sentences)
    try:
        processed = process_corpus(corpus, ["gold"], scheme, "lenient", processing)
    except TypeNotFoundError:  # a type named that these sentences lack
        assert not set(mapping or {}) <= present or not set(keep or remove or ()) <= {
            (mapping or {}).get(t, t) for t in present} | present
        return
    ours = nerspan.decode(processed, scheme=scheme).to_list(processed)
    encoding = get_encoding(PEER_NAMES[scheme])
    inverted = {}
    for source, target in (mapping or {}).items():
        inverted.setdefault(target, []).append(source)
    mapper = TypeMapper(keep or (), remove or (), inverted)
    theirs = []
    for tags in sentences:
        sequence = AnnotatedSequence(tokens=tuple("w" * len(tags)), labels=tuple(tags),
                                     mentions=tuple(encoding.decode_labels(tags)))
        theirs.append([(m.type, m.span.start, m.span.end)
                       for m in mapper.map_types(sequence).mentions])
    assert ours == theirs


@pytest.mark.parametrize("family", ["faireval", "tough_mentions"])
def test_evaluate_modules_take_the_type_options(family, monkeypatch):
    """The evaluate modules pass them on (at load time or to compute), training data
    included: the same as the family's score."""
    monkeypatch.chdir(REPO)
    gold = [["B-PERSON", "I-PERSON", "O", "B-LOC"], ["B-MISC", "O"]]
    pred = [["B-PER", "I-PER", "O", "B-LOC"], ["B-MISC", "O"]]
    words = [["Ann", "Lee", "in", "Oslo"], ["Bob", "ran"]]
    extra = {} if family == "faireval" else dict(tokens=words, train=(words, gold))
    options = dict(type_map={"PERSON": "PER"}, remove_types=["MISC"])
    expected = importlib.import_module(family).score(gold, pred, inputs=options, **extra).to_dict()
    at_compute = evaluate.load(f"metrics/{family}").compute(
        predictions=pred, references=gold, **options, **extra)
    at_load = evaluate.load(f"metrics/{family}", **options).compute(
        predictions=pred, references=gold, **extra)
    for result in (at_compute, at_load):
        assert result["repairs"] == expected["repairs"]
        assert result["f1"] == expected["f1"]


# seqscore's own test file (tests/conll_annotation/minimal.bio) and the outputs its
# test_process_click.py pins for a kept or removed type that the map renames
MINIMAL = ("This O\nis O\na O\nsentence O\n. O\n\nUniversity B-ORG\nof I-ORG\n"
           "Pennsylvania I-ORG\nis O\nin O\nWest B-LOC\nPhiladelphia I-LOC\n, O\n"
           "Pennsylvania B-LOC\n. O\n")
@pytest.mark.parametrize("which", ["keep", "remove"])
def test_a_kept_or_removed_type_is_named_as_written(tmp_path, which, monkeypatch):
    """``type_map={"LOC": "GPE"}`` with ``keep_types=["LOC"]`` (or ``remove_types``):
    LOC occurs as written, so it is no error; mentions are mapped first, so none is kept
    (none removed), as seqscore's ``process`` does and its tests pin (its
    minimal_no_names.bio, minimal_GPE.bio). The same through the API, an evaluate
    module, ``nerlens convert`` (the file seqscore writes, tag for tag), ``nerlens score``
    and ``nerlens report``."""
    source = tmp_path / "minimal.bio"
    source.write_text(MINIMAL, encoding="utf-8")
    keep, remove = (["LOC"], None) if which == "keep" else (None, ["LOC"])
    theirs = file_tags(seqscore_processed(tmp_path, source, "minimal", keep, remove,
                                          {"LOC": "GPE"}, False))
    written = [line.split()[1] for line in MINIMAL.splitlines() if line]
    # what seqscore's tests pin: no name at all; or every LOC a GPE
    assert theirs == (["O"] * len(written) if which == "keep"
                      else [t.replace("LOC", "GPE") for t in written])
    flags = ["--type-map", "LOC=GPE", f"--{which}-types", "LOC"]
    out = tmp_path / "ours.bio"
    assert main(["convert", str(source), str(out), "--from", "IOB2", "--to", "IOB2",
                 *flags]) == 0
    assert file_tags(out) == theirs
    # scored: the processed file's mentions, on both sides
    tags = [written[:5], written[5:]]
    options = dict(type_map={"LOC": "GPE"}, keep_types=keep, remove_types=remove)
    expected = counts(nerspan.score([theirs[:5], theirs[5:]], [theirs[:5], theirs[5:]]))
    assert counts(nerspan.score(tags, tags, inputs=options)) == expected
    monkeypatch.chdir(REPO)
    module = evaluate.load("metrics/faireval").compute(predictions=tags, references=tags,
                                                        **options)
    assert {t: row["support"] for t, row in module["per_type"].items()} == \
        {t: c[0] for t, c in expected.items()}
    assert _cli_json(["score", str(source), str(source), *flags])["per_type"] == \
        nerspan.score(tags, tags, inputs=options).to_dict()["per_type"]
    # the report (ORG kept too: a report of a gold without mentions is another matter)
    if which == "keep":
        flags[-1], options["keep_types"] = "LOC,ORG", ["LOC", "ORG"]
    report_dir = tmp_path / "report"
    assert main(["report", str(source), str(source), "--bootstrap", "0", "--no-progress",
                 "--families", "faireval", "--output", str(report_dir), *flags]) == 0
    data = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    entity = next(iter(data["results"].values()))["entity"]
    assert entity["per_type"] == nerspan.score(tags, tags, inputs=options).to_dict()["per_type"]
    assert sorted(entity["per_type"]) == (["ORG"] if which == "keep" else ["GPE", "ORG"])


def test_the_type_scaling_benchmark_runs_at_a_small_size(capsys):
    """benchmarks/bench_type_processing (thousands of types) at a small size, so that it
    never rots; its exponent line is printed. No time is asserted."""
    rows = bench_type_processing.main(["--sentences", "300", "--types", "20", "60",
                                       "--repeat", "1"])
    assert [row["types"] for row in rows] == [20, 60]
    assert all(row["occur"] <= row["types"] for row in rows)
    assert "exponent (time ~ types^k): processing" in capsys.readouterr().out
    assert bench_type_processing.exponent([1, 10, 100], [2, 20, 200]) == pytest.approx(1)


def test_io_tags_a_map_makes_adjacent_of_one_type_are_refused_with_the_remedy(tmp_path):
    """IO cannot write two adjacent mentions of one type apart: a map that makes them so
    is refused naming the place and what to do (not the converter's lossy=True, which
    scoring does not take); converted to IOB2 first, they stay two mentions."""
    tags = [["I-ORG", "I-PER", "O"]]
    with pytest.raises(nerspan.NerspanError, match=(
            r"sentence 0, position 1: IO cannot write the PER mention at 1-2 apart from the "
            r"one at 0-1 right before it: .*; type_map made them one type \(seqscore's "
            r"process would merge them\): convert the tags to a scheme that parts them first "
            r"\(nerspan.encodings.convert, nerlens convert IN OUT --from IO --to IOB2\), or "
            r"map the types apart$")):
        nerspan.score(tags, tags, scheme="IO", inputs={'type_map': {"ORG": "PER"}})
    iob2 = nerspan.encodings.convert(tags, "IO", "IOB2").tags()
    assert iob2 == [["B-ORG", "B-PER", "O"]]
    result = nerspan.score(iob2, iob2, inputs={'type_map': {"ORG": "PER"}}).to_dict()
    assert result["per_type"]["PER"]["support"] == 2
