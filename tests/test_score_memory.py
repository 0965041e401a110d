"""``nerlens score`` in little memory gives what it gave before (issue 18).

The command reads a file holding gold and prediction without its token strings
(``keep_tokens=False``) and scores the corpus in blocks of whole sentences
(``nerspan.streaming.score_in_blocks``); ``whole_corpus_scores`` below is the scoring it
replaced (every column decoded whole), kept as the reference. ``nerlens score GOLD PRED`` reads the
prediction file into the gold corpus's vocabularies, comparing its tokens as it reads
(``read_columns(reference=...)``): it scores as the one file holding both columns does.
Results are compared as JSON text, so that key order and every float digit count.
"""
from __future__ import annotations

import json
import random
from contextlib import nullcontext
import warnings

import numpy as np
import pytest

import nerspan
from nerlens.engines import score_corpus
from nerspan.reading.systems import read_systems
from nerspan import GOLD, PRED, Corpus, FormatError, decode, read_columns
from nerspan.schemes import get_scheme
from nerspan.scores import entity_scores
from nerspan.spans import LabelTable
from nerspan.streaming import score_in_blocks
from nerspan.reading import columns as readers
from nerspan.errors import TokenMismatchError

from .test_streaming import REAL, SHARED, assert_same, options_of, reference_columns


def whole_corpus_scores(corpus, systems, scheme="IOB2", mode="lenient") -> dict:
    """``score_in_blocks`` before blocks: every column decoded whole."""
    table = LabelTable.build(corpus.labels, get_scheme(scheme))
    gold = decode(corpus, GOLD, scheme, mode, table)
    out = {}
    for name in systems:
        result = entity_scores(gold, decode(corpus, name, scheme, mode, table)).to_dict()
        result["tokens"] = corpus.n_tokens
        result["accuracy"] = (float(np.mean(corpus.column(name) == corpus.column(GOLD)))
                              if corpus.n_tokens else 0.0)
        out[name] = result
    return out


def assert_blocks_score_as_whole(corpus, systems, scheme="IOB2", mode="lenient",
                                 blocks=(1, 2, 7, 64, 1 << 18)):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nerspan.DecodingWarning)
        expected = json.dumps(whole_corpus_scores(corpus, systems, scheme, mode))
    for block in blocks:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # scoring itself raises no DecodingWarning
            found = score_in_blocks(corpus, systems, scheme, mode, block_tokens=block)
            assert json.dumps({name: result.to_dict() for name, result in found.items()}) \
                == expected
    assert json.dumps(score_corpus(corpus, systems, scheme, mode)) == expected  # the CLI's


def random_systems(seed: int, n_sentences: int = 200) -> Corpus:
    """Gold and two systems of random BIES tags; some sentences empty."""
    rng = random.Random(seed)
    tags = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC"]
    gold = [[rng.choice(tags) for _ in range(rng.choice([0, 1, 2, 5, 9]))]
            for _ in range(n_sentences)]
    corpus = Corpus.from_tags(gold)
    for name in ("a", "b"):
        system = Corpus.from_tags([[rng.choice(tags) for _ in s] for s in gold])
        corpus = corpus.with_columns(system, {GOLD: name})
    return corpus


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("scheme, mode", [("IOB2", "lenient"), ("IOBES", "lenient"),
                                          ("IOB1", "lenient"), ("IOBES", "strict")])
def test_scores_in_blocks_equal_the_whole_corpus(seed, scheme, mode):
    assert_blocks_score_as_whole(random_systems(seed), ["a", "b"], scheme, mode)


def test_snapped_spans_are_counted_in_blocks():
    rng = random.Random(0)
    texts = ["Ada Lovelace wrote notes"] * 30
    widened = {"entity_group": "PER", "start": 0, "end": 7, "word": "Ada Lov", "score": 0.9}
    corpus = nerspan.from_spans([[(0, 2, "PER")] for _ in texts],
                                [[widened] if rng.random() < 0.4 else [] for _ in texts],
                                inputs={'texts': texts, 'snap': True})
    assert corpus.source.snapped[PRED]
    assert_blocks_score_as_whole(corpus, [PRED])


def test_an_error_in_blocks_names_the_sentence_of_the_corpus():
    gold = [["B-PER", "I-PER", "O"]] * 40 + [["O", "S-PER"]] + [["B-LOC"]] * 5
    corpus = Corpus.from_tags(gold, [["O"] * len(s) for s in gold])
    corpus = Corpus(corpus.offsets, {GOLD: corpus.columns[GOLD], "a": corpus.columns[PRED]},
                    corpus.labels)
    with pytest.raises(nerspan.InvalidTagError) as whole:
        whole_corpus_scores(corpus, ["a"], "IOB2", "strict")
    with pytest.raises(nerspan.InvalidTagError) as blocks:
        score_in_blocks(corpus, ["a"], "IOB2", "strict", block_tokens=3)
    assert str(blocks.value) == str(whole.value) and whole.value.sentence == 40


SYSTEM_FILES = [path for path, columns, _ in REAL if columns == {GOLD: -2, PRED: -1}]


@pytest.mark.skipif(not SYSTEM_FILES, reason="shared data not available")
@pytest.mark.parametrize("path", SYSTEM_FILES,
                         ids=[str(p.relative_to(SHARED / "data")) for p in SYSTEM_FILES])
def test_real_system_files_score_in_blocks_as_whole(path):
    corpus, systems = read_systems(path, keep_tokens=False, on_repairs=lambda c: None)
    assert corpus.tokens is None
    with_tokens, _ = read_systems(path, on_repairs=lambda c: None)
    assert_blocks_score_as_whole(corpus, systems, blocks=(1000, 1 << 18))
    np.testing.assert_array_equal(corpus.columns[systems[0]],
                                  with_tokens.columns[systems[0]])


@pytest.mark.skipif(not REAL, reason="shared data not available")
@pytest.mark.parametrize("path, columns, comment", REAL,
                         ids=[str(p.relative_to(SHARED / "data")) for p, _, _ in REAL])
def test_without_tokens_the_reader_reads_the_same_columns(path, columns, comment):
    options = options_of(columns, comment, path)
    old = reference_columns(path, **dict(options, token_column=None))
    assert_same(read_columns(path, keep_tokens=False, **options), old)


@pytest.mark.parametrize("text", ["a O O\nb O\n", "a O O\nb O O O\n", "O O\n"])
def test_without_tokens_a_row_still_needs_its_token_column(tmp_path, text):
    path = tmp_path / "system.txt"
    path.write_text(text)
    columns = {GOLD: -2, PRED: -1}
    with pytest.raises(FormatError) as with_tokens:
        read_columns(path, columns)
    with pytest.raises(FormatError) as without:
        read_columns(path, columns, keep_tokens=False)
    assert str(without.value) == str(with_tokens.value)


def test_without_tokens_prediction_files_are_still_checked(tmp_path):
    gold, pred = tmp_path / "gold.txt", tmp_path / "pred.txt"
    gold.write_text("Ada B-PER\nwrote O\n")
    pred.write_text("Ada B-PER\nread O\n")
    with pytest.raises(TokenMismatchError, match="'read' differs from 'wrote'"):
        read_systems(gold, [pred], keep_tokens=False)
    pred.write_text("Ada B-PER\nwrote O\n")
    corpus, names = read_systems(gold, [pred], keep_tokens=False)
    assert corpus.tokens is None and corpus.vocab == () and names == ["pred"]


@pytest.mark.parametrize("block", [1, 3, 1 << 18])
def test_token_mismatches_in_blocks_are_every_differing_position(monkeypatch, block):
    rng = random.Random(block)
    words = [[rng.choice("abcde") for _ in range(rng.choice([1, 4, 7]))] for _ in range(50)]
    changed = [[w if rng.random() < 0.9 else w.upper() for w in s] for s in words]
    tags = [["O"] * len(s) for s in words]
    gold, other = Corpus.from_tags(tags, tokens=words), Corpus.from_tags(tags, tokens=changed)
    monkeypatch.setattr(readers, "COMPARE_BLOCK", block)
    expected = [i for i, (a, b) in enumerate(zip(sum(words, []), sum(changed, []))) if a != b]
    assert expected and readers.token_mismatches(gold, other).tolist() == expected


# -- two files: the prediction file read against the gold corpus --------------------------
def column_text(*columns) -> str:
    """Sentences of parallel columns (tokens, tags, ...) as column-file text."""
    return "".join("".join(" ".join(row) + "\n" for row in zip(*sentence)) + "\n"
                   for sentence in zip(*columns))


def random_files(seed: int, n_sentences: int = 120):
    """Tokens, gold tags and predicted tags (some labels only predicted)."""
    rng = random.Random(seed)
    tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    words = [[rng.choice("abcdefgh") * rng.choice([1, 2]) for _ in range(rng.choice([1, 3, 8]))]
             for _ in range(n_sentences)]
    gold = [[rng.choice(tags) for _ in s] for s in words]
    pred = [[rng.choice(tags + ["B-ORG", "I-MISC"]) for _ in s] for s in words]
    return words, gold, pred


def score_json(capsys, *paths) -> str:
    from nerlens.cli import main

    assert main(["score", *map(str, paths), "--format", "json"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("block", [1, 5, 1 << 18])
@pytest.mark.parametrize("seed", range(3))
def test_two_files_score_as_one_file(monkeypatch, capsys, tmp_path, seed, block):
    monkeypatch.setattr(readers, "COMPARE_BLOCK", block)
    words, gold, pred = random_files(seed)
    one, gold_file, pred_file = tmp_path / "one.txt", tmp_path / "gold.txt", tmp_path / "p.txt"
    one.write_text(column_text(words, gold, pred))
    gold_file.write_text(column_text(words, gold))
    pred_file.write_text(column_text(words, pred))
    assert score_json(capsys, gold_file, pred_file) == score_json(capsys, one)


@pytest.mark.skipif(not SYSTEM_FILES, reason="shared data not available")
@pytest.mark.parametrize("path", SYSTEM_FILES[:4],
                         ids=[str(p.relative_to(SHARED / "data")) for p in SYSTEM_FILES[:4]])
def test_real_system_file_split_in_two_scores_as_one(capsys, tmp_path, path):
    rows = [line.split() for line in path.read_text(encoding="utf-8-sig").splitlines()]
    gold_file, pred_file = tmp_path / "gold.txt", tmp_path / "pred.txt"
    gold_file.write_text("".join(" ".join(r[:1] + r[-2:-1]) + "\n" for r in rows))
    pred_file.write_text("".join(" ".join(r[:1] + r[-1:]) + "\n" for r in rows))
    assert score_json(capsys, gold_file, pred_file) == score_json(capsys, path)


def changed_words(words, where: str):
    """``words`` with one token changed (``first``, ``middle``, ``last``), one more
    sentence (``longer``), one fewer (``shorter``) or none changed (``same``)."""
    words = [list(s) for s in words]
    if where == "longer":
        return words + [["z"]]
    if where == "shorter":
        return words[:-1]
    if where != "same":
        s = {"first": 0, "middle": len(words) // 2, "last": len(words) - 1}[where]
        words[s][-1] = "changed"
    return words


@pytest.mark.parametrize("block", [1, 4, 1 << 18])
@pytest.mark.parametrize("where", ["same", "first", "middle", "last", "longer", "shorter"])
def test_prediction_file_read_against_gold_is_read_as_alone(tmp_path, monkeypatch, block,
                                                            where):
    """Read with ``reference=gold`` (into gold's vocabularies, tokens compared block by
    block): the same tokens, tags and lines; the merged corpus, token check and its error
    as without; while the tokens are gold's, neither tokens nor tag ids are copied."""
    monkeypatch.setattr(readers, "COMPARE_BLOCK", block)
    words, gold_tags, pred_tags = random_files(7)
    (tmp_path / "gold.txt").write_text(column_text(words, gold_tags))
    other_words = changed_words(words, where)
    (tmp_path / "pred.txt").write_text(column_text(other_words, pred_tags + [["O"]]))
    gold = read_columns(tmp_path / "gold.txt")
    alone = read_columns(tmp_path / "pred.txt", {PRED: -1})
    against = read_columns(tmp_path / "pred.txt", {PRED: -1}, reference=gold)
    assert against.labels[:len(gold.labels)] == gold.labels
    assert against.vocab[:len(gold.vocab)] == gold.vocab
    assert strings_of(against) == strings_of(alone)
    assert strings_of(against)[1] == sum(other_words, [])
    np.testing.assert_array_equal(against.offsets, alone.offsets)
    np.testing.assert_array_equal(against.source.sentence_lines, alone.source.sentence_lines)
    # a shorter file's tokens are a prefix of gold's: a view too
    assert np.shares_memory(against.tokens, gold.tokens) == (where in ("same", "shorter"))
    if where in ("longer", "shorter"):
        return
    merged, expected = gold.with_columns(against), gold.with_columns(alone)
    assert merged.labels == expected.labels
    np.testing.assert_array_equal(merged.columns[PRED], expected.columns[PRED])
    assert merged.columns[PRED] is against.columns[PRED]
    errors = []
    for other in (alone, against):
        with pytest.raises(TokenMismatchError) if where != "same" else nullcontext() as caught:
            readers.check_tokens(gold, other)
        errors.append(caught and str(caught.value))
    assert errors[0] == errors[1]


def strings_of(corpus: Corpus) -> tuple[list, list]:
    """The prediction tags and the tokens of ``corpus``, as strings."""
    return ([corpus.labels[i] for i in corpus.columns[PRED]],
            [corpus.vocab[i] for i in corpus.tokens])
