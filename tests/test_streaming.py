"""The streaming reader and the block-wise decoder equal what they replaced (issue 18).

``read_columns`` interns tokens and tags while reading; ``old_read_columns`` below is
the reader it replaced (Python string lists per column, interned column after column),
kept here as the reference. Lenient decoding reads the column in blocks of
``DECODE_BLOCK`` positions; tiny blocks must give what one block gives.
"""
from __future__ import annotations

import random
import tracemalloc

import numpy as np
import pytest

import nerspan
from nerspan import GOLD, PRED, Corpus, decode, read_columns
from nerspan import spans as spans_module
from nerspan.reading import columns as readers
from nerspan.corpus import Interner
from nerspan.reading.columns import DOCSTART, _split_unicode

from .conftest import SHARED


def old_read_columns(path, columns=None, token_column=0, comment_prefix=None,
                     encoding="utf-8-sig", missing_tag=None):
    """The reader before streaming, for well-formed files (no error paths)."""
    columns = dict(columns or {GOLD: -1})
    wanted = list(columns.values()) + ([token_column] if token_column is not None else [])
    values = [[] for _ in wanted]
    lengths, lines, repaired, width, current = [], [], [], None, 0
    with open(path, encoding=encoding) as handle:
        for number, raw in enumerate(handle, 1):
            line = raw.rstrip("\r\n")
            if current == 0 and comment_prefix is not None and line.startswith(comment_prefix):
                continue
            fields = line.split() if line.isascii() else _split_unicode(line)
            if not fields or fields[0] == DOCSTART:
                if current:
                    lengths.append(current)
                    current = 0
                continue
            if line[0] == "\t":
                fields.insert(0, "")
            width = width or len(fields)
            if len(fields) == width - 1:
                fields.append(missing_tag)
                repaired.append(number)
            if current == 0:
                lines.append(number)
            current += 1
            for index, sink in zip(wanted, values):
                sink.append(fields[index])
    if current:
        lengths.append(current)
    labels = Interner()
    interned = {name: np.array([labels[v] for v in values[i]], dtype=np.int32)
                for i, name in enumerate(columns)}
    tokens, vocab = None, ()
    if token_column is not None:
        words = Interner()
        tokens = np.array([words[v] for v in values[-1]], dtype=np.int32)
        vocab = tuple(words)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    return Corpus(offsets, interned, tuple(labels), tokens, vocab,
                  nerspan.corpus.Source(str(path), np.array(lines, dtype=np.int64), tuple(repaired)))


def assert_same(new: Corpus, old: Corpus):
    assert new.labels == old.labels and new.vocab == old.vocab
    np.testing.assert_array_equal(new.offsets, old.offsets)
    assert list(new.columns) == list(old.columns)
    for name in old.columns:
        assert new.columns[name].dtype == np.int32
        np.testing.assert_array_equal(new.columns[name], old.columns[name])
    if old.tokens is None:
        assert new.tokens is None
    else:
        np.testing.assert_array_equal(new.tokens, old.tokens)
    np.testing.assert_array_equal(new.source.sentence_lines, old.source.sentence_lines)
    assert new.source.repaired_lines == old.source.repaired_lines


def real_files():
    """(path, read options) of every shared data file (skipped when absent)."""
    found = []
    for folder in ("conll03", "conll2002", "wnut16", "wnut17"):
        for path in sorted((SHARED / "data" / folder).rglob("*")):
            if path.is_file() and path.suffix in ("", ".txt", ".conll", ".testa", ".testb",
                                                   ".train") and "README" not in path.name \
                    and "LICENSE" not in path.name:
                system = "systems" in path.parts
                found.append((path, {GOLD: -2, PRED: -1} if system else None, None))
    for path in sorted((SHARED / "data" / "germeval2014").rglob("*.tsv")):
        system = "systems" in path.parts
        found.append((path, None if system else {GOLD: 2, "inner": 3}, None if system else "#"))
    return found


def options_of(columns, comment, path) -> dict:
    """Token after the index column in GermEval's own files; germeval systems may lack a
    tag (read with missing_tag, as test_germeval_files does)."""
    germeval_system = "germeval2014" in path.parts and "systems" in path.parts
    return dict(columns=columns, comment_prefix=comment, token_column=1 if comment else 0,
                missing_tag="O" if germeval_system else None)


REAL = real_files() if (SHARED / "data").exists() else []


@pytest.mark.skipif(not REAL, reason="shared data not available")
@pytest.mark.parametrize("path, columns, comment", REAL,
                         ids=[str(p.relative_to(SHARED / "data")) for p, _, _ in REAL])
def test_streaming_reader_equals_old_reader_on_real_files(path, columns, comment):
    options = options_of(columns, comment, path)
    assert_same(read_columns(path, **options), reference_columns(path, **options))


def reference_columns(path, **options) -> Corpus:
    """What the reader before streaming reads from a shared file (skips a file it cannot
    read: the error paths are tested elsewhere)."""
    try:
        return old_read_columns(path, **options)
    except (IndexError, UnicodeDecodeError):
        pytest.skip("not a well-formed file for the reference reader")


EDGE_CASES = {
    "bom_and_docstart": ("\ufeff-DOCSTART- O O\n\nJohn B-PER B-PER\nran O I-PER\n\n\n"
                         "-DOCSTART- O O\nin O B-LOC\nParis B-LOC O\n", {GOLD: -2, PRED: -1}),
    "pred_labels_first": ("a O B-MISC\nb O I-MISC\n\nc B-PER B-ORG\n", {GOLD: -2, PRED: -1}),
    "pred_before_gold_columns": ("a O B-MISC\nb B-LOC I-MISC\n", {PRED: -1, GOLD: -2}),
    "comments_and_hash_tokens": ("# a comment\nx B-PER\n# O\n\n#\tsecond\ny O\n",
                                 {GOLD: -1}),
    "leading_tab_and_unicode_space": ("\tO\nNew\u00a0York B-LOC\n\n\n\nz O\n", {GOLD: -1}),
    "missing_tag": ("John B-PER\nran\n\nParis B-LOC\n", {GOLD: -1}),
    "single_row_no_newline": ("x B-PER", {GOLD: -1}),
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
def test_streaming_reader_equals_old_reader_on_edge_cases(tmp_path, name):
    text, columns = EDGE_CASES[name]
    path = tmp_path / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    options = dict(columns=columns, comment_prefix="#" if "comment" in name else None,
                   missing_tag="O" if name == "missing_tag" else None)
    assert_same(read_columns(path, **options), old_read_columns(path, **options))


def random_corpus(seed: int, n_sentences: int = 300) -> Corpus:
    rng = random.Random(seed)
    tags = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC"]
    make = lambda: [[rng.choice(tags) for _ in range(rng.choice([0, 1, 2, 5, 9]))]  # noqa: E731
                    for _ in range(n_sentences)]
    gold = make()
    pred = [[rng.choice(tags) for _ in s] for s in gold]
    return Corpus.from_tags(gold, pred)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scheme", ["IOB2", "IOBES", "IOB1"])
def test_lenient_decoding_in_small_blocks_equals_one_block(monkeypatch, seed, scheme):
    corpus = random_corpus(seed)
    whole = {column: decode(corpus, column, scheme) for column in (GOLD, PRED)}
    for block in (1, 2, 7, 64):
        monkeypatch.setattr(spans_module, "DECODE_BLOCK", block)
        for column, expected in whole.items():
            found = decode(corpus, column, scheme)
            for field in ("start", "end", "sentence", "type"):
                np.testing.assert_array_equal(getattr(found, field), getattr(expected, field))
            assert found.repairs == expected.repairs


@pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("scheme, mode", [("IOB2", "lenient"), ("IOBES", "lenient"),
                                          ("IOBES", "strict")])
@pytest.mark.parametrize("n_extra", [12, spans_module.PAIR_TABLE_LABELS])
def test_decoding_with_more_labels_equals_decoding_with_few(monkeypatch, seed, scheme, mode,
                                                            n_extra):
    """Up to 15 labels a label pair is read as a byte (``bytes.translate``), up to
    ``PAIR_TABLE_LABELS`` as an int64 index of a pair table, beyond from per-position
    transition codes (``CODE_CHUNK`` positions at a time): unused labels that push the
    vocabulary past either change nothing."""
    few = random_corpus(seed)
    extra = tuple(f"B-X{i}" for i in range(n_extra))
    many = Corpus(few.offsets, few.columns, few.labels + extra, few.tokens, few.vocab)
    for block, chunk in ((1 << 20, 1 << 16), (5, 1 << 16), (1 << 20, 2), (7, 3)):
        monkeypatch.setattr(spans_module, "DECODE_BLOCK", block)
        monkeypatch.setattr(spans_module, "CODE_CHUNK", chunk)
        for column in (GOLD, PRED):
            small = decode(few, column, scheme, mode)
            large = decode(many, column, scheme, mode)
            for field in ("start", "end", "sentence"):
                np.testing.assert_array_equal(getattr(large, field), getattr(small, field))
            assert [large.types[t] for t in large.type] == [small.types[t] for t in small.type]
            assert large.repairs == small.repairs and small.repairs.total


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_decoding_memory_is_linear_in_the_labels(mode):
    """A table per label pair would take (labels + 1)^2 entries: 16M for 4,001 labels
    (128 MiB as int64 codes; 80,000 labels raised MemoryError). Per-label arrays take
    20 kB."""
    labels = ["O"] + [f"{prefix}-T{i}" for i in range(2000) for prefix in "BI"]
    corpus = Corpus.from_ids([[1, 2, 0, 3999]], [[3, 4, 4, 0]], labels)
    table = nerspan.LabelTable.build(corpus.labels, nerspan.get_scheme("IOB2"))
    decode(Corpus.from_tags([["B-A"]]), GOLD, "IOB2", mode)  # imports, caches
    tracemalloc.start()
    try:
        spans = [decode(corpus, column, "IOB2", mode, table) for column in (GOLD, PRED)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert [s.to_list(corpus) for s in spans] == [[[("T0", 0, 2), ("T1999", 3, 4)]],
                                                  [[("T1", 0, 3)]]]


# -- chunks: plain chunks split in C, others line by line ---------------------------------
CHUNKS = [1, 2, 7, 64, 1 << 18]


def random_column_text(seed: int, n_lines: int = 400) -> str:
    """Rows of ``token gold pred``, with runs of blank lines, ``-DOCSTART-`` rows, comment
    lines, rows starting with a tab, Unicode tokens and spaces, here and there."""
    rng = random.Random(seed)
    tags = ["O", "B-PER", "I-PER", "B-LOC"]
    lines = []
    for _ in range(n_lines):
        kind = rng.random()
        if kind < 0.15:
            lines.append(rng.choice(["", "", " ", "\t"]))
        elif kind < 0.17:
            lines.append(rng.choice(["-DOCSTART- O O", "-DOCSTART-", " -DOCSTART- -X- O O",
                                     "a -DOCSTART- O", "-DOCSTART-\u2028 O O"]))
        elif kind < 0.19:
            lines.append(rng.choice(["# a comment", "#\tx y"]))  # a row inside a sentence
        else:
            token = rng.choice(["a", "bb", "#", "Ünï", "x\u00a0y", "-DOCSTART-x"])
            row = f"{token} {rng.choice(tags)}\t{rng.choice(tags)}"
            lines.append(("\t" + row.split(" ", 1)[1]) if rng.random() < 0.02 else row)
    return "\n".join(lines) + rng.choice(["", "\n", "\n\n"])


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("seed", range(6))
def test_reading_in_chunks_equals_the_old_reader(tmp_path, monkeypatch, seed, chunk):
    """Plain chunks (no comment, leading tab or space but ASCII's) in C, others line by
    line, sentences crossing chunks: what the old reader reads, at every chunk size."""
    monkeypatch.setattr(readers, "READ_CHUNK", chunk)
    path = tmp_path / "rows.txt"
    text = random_column_text(seed)
    for plain in (False, True):
        if plain:  # only the C path, but for chunks that cut a line
            text = "\n".join(line for line in text.split("\n") if not (
                line.startswith(("#", "\t")) or readers._OTHER_SPACE.search(line)))
        path.write_text(text, encoding="utf-8")
        for comment in (None, "#"):
            options = dict(columns={GOLD: -2, PRED: -1}, comment_prefix=comment)
            assert_same(read_columns(path, **options), old_read_columns(path, **options))


@pytest.mark.parametrize("text", [
    "a O O\nb O O\n\nc O\nd O O\n", "a O O\n\n\nb O O O\n", "a O O\nb O O\nc O O\nd O\n",
    "a O\n\nb O O\n", "\n\na O\nb O O\n", "a O O\nb\u00a0O O\n\nc O\n"])
def test_errors_name_the_same_line_at_every_chunk_size(tmp_path, monkeypatch, text):
    path = tmp_path / "rows.txt"
    path.write_text(text, encoding="utf-8")
    messages = set()
    for chunk in CHUNKS:
        monkeypatch.setattr(readers, "READ_CHUNK", chunk)
        with pytest.raises(nerspan.FormatError) as error:
            read_columns(path, {GOLD: -2, PRED: -1})
        messages.add(str(error.value))
    assert len(messages) == 1


@pytest.mark.parametrize("chunk", [64, 4096])
@pytest.mark.skipif(not REAL, reason="shared data not available")
def test_real_files_in_small_chunks_equal_the_old_reader(monkeypatch, chunk):
    monkeypatch.setattr(readers, "READ_CHUNK", chunk)
    for path, columns, comment in REAL[::3]:
        options = options_of(columns, comment, path)
        try:
            old = old_read_columns(path, **options)
        except (IndexError, UnicodeDecodeError):
            continue  # not well formed for the reference reader: error paths are elsewhere
        assert_same(read_columns(path, **options), old)


def test_other_space_is_what_str_split_splits_on_beyond_ascii():
    spaces = "".join(chr(c) for c in range(128, 0x110000) if chr(c).isspace())
    assert "".join(readers._OTHER_SPACE.findall(spaces + "a\u200b")) == spaces


# -- nerspan.streaming: block-wise scoring as a library function (issue 29) ---------------
def _systems_corpus(seed: int, n_sentences: int = 80) -> Corpus:
    rng = random.Random(seed)
    tags = ["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    gold = [[rng.choice(tags) for _ in range(rng.choice([0, 1, 3, 8]))]
            for _ in range(n_sentences)]
    return Corpus.from_tags(gold, columns={name: [[rng.choice(tags) for _ in s] for s in gold]
                                           for name in ("a", "b")})


@pytest.mark.parametrize("seed", range(3))
def test_score_in_blocks_equals_nerspan_score_per_system(seed):
    from nerspan.streaming import TokenScores, score_in_blocks
    corpus = _systems_corpus(seed)
    for block in (1, 5, 1 << 18):
        results = score_in_blocks(corpus, block_tokens=block)
        assert list(results) == ["a", "b"]  # default: every column but gold
        for name, scores in results.items():
            assert isinstance(scores, TokenScores)
            result = scores.to_dict()
            whole = nerspan.score(corpus.paired(GOLD, name)).to_dict()
            assert {k: result[k] for k in whole} == whole
            same = corpus.column(name) == corpus.column(GOLD)
            assert result["tokens"] == corpus.n_tokens
            assert result["accuracy"] == np.count_nonzero(same) / corpus.n_tokens


def test_sentence_blocks_cover_the_corpus_in_whole_sentences():
    from nerspan.streaming import sentence_blocks
    corpus = _systems_corpus(4)
    blocks = list(sentence_blocks(corpus, 7))
    assert [first for first, _ in blocks] == sorted({first for first, _ in blocks})
    assert sum(block.n_sentences for _, block in blocks) == corpus.n_sentences
    for first, block in blocks:
        np.testing.assert_array_equal(
            block.column(GOLD), corpus.column(GOLD)[
                corpus.offsets[first]:corpus.offsets[first + block.n_sentences]])
    # about 7 tokens a block (cut at the sentence starts nearest multiples of 7)
    assert len(blocks) >= corpus.n_tokens // 7 // 2 > 1


def test_score_in_blocks_refuses_bad_arguments():
    from nerspan.streaming import score_in_blocks
    with pytest.raises(TypeError, match="nerspan.Corpus"):
        score_in_blocks([["B-PER"]])
    with pytest.raises(ValueError, match="block_tokens"):
        score_in_blocks(_systems_corpus(0), block_tokens=0)
    with pytest.raises(ValueError, match="mode"):
        score_in_blocks(_systems_corpus(0), mode="fuzzy")
