"""nerspan.reading.columns: the rules of column files, and their errors (file, line, value)."""
from __future__ import annotations

import codecs
import warnings

import pytest

import tough_mentions
from nerspan import FormatError, GOLD, PRED, read_columns
from nerspan.errors import NerspanError, TokenMismatchError
from nerspan.reading.columns import check_tokens, read_predictions, shown, token_line
from nerspan.reading.systems import span_errors_located

from .conftest import shared_path


def write(path, data):
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def test_bom_is_dropped_from_the_first_token(tmp_path):
    path = write(tmp_path / "bom.txt", codecs.BOM_UTF8 + "Paris B-LOC\nis O\n".encode())
    corpus = read_columns(path)
    assert corpus.sentence_tokens(0) == ["Paris", "is"]
    assert read_columns(path, encoding="UTF8").sentence_tokens(0)[0] == "Paris"


def test_bom_in_a_training_file_changes_no_count(tmp_path):
    train = write(tmp_path / "train.txt", codecs.BOM_UTF8 + "Paris B-LOC\nis O\n".encode())
    result = tough_mentions.score([["B-LOC", "O"]], [["B-LOC", "O"]],
                                  tokens=[["Paris", "is"]], train=str(train)).to_dict()
    assert result["counts"]["seen"] == 1 and result["counts"]["unseen_tokens"] == 0


def test_columns_split_on_ascii_whitespace_only(tmp_path):
    path = write(tmp_path / "x.txt", "10\u00a0000 NUM O\nKöln\t \tNE  B-LOC\n")
    corpus = read_columns(path)
    assert corpus.sentence_tokens(0) == ["10\u00a0000", "Köln"]
    assert corpus.tags(GOLD, 0) == ["O", "B-LOC"]


def test_a_row_starting_with_a_tab_has_an_empty_first_column(tmp_path):
    path = write(tmp_path / "x.txt", "CDU\tB-ORG\n\tO\nCSU\tB-ORG\n")
    corpus = read_columns(path)
    assert corpus.sentence_tokens(0) == ["CDU", "", "CSU"]
    assert corpus.tags(GOLD, 0) == ["B-ORG", "O", "B-ORG"]


@pytest.mark.parametrize("text,columns,message", [
    ("a X B-PER\nb X O extra\n", None,
     r"x.txt:2, sentence 0: 4 columns, but line 1 has 3: every row of a column file needs "
     r"the same columns \(a token with a space in it\?\): 'b X O extra'"),
    ("a X B-PER\nb O\n", {GOLD: 2},
     r"x.txt:2, sentence 0: 2 columns, need at least 3"),
    ("a X B-PER\nb O\n", {GOLD: -1},   # counted from the end, 'O' would be read silently
     r"x.txt:2, sentence 0: 2 columns, but line 1 has 3"),
    ("#\turl\t[date]\n1\tParis\tB-LOC\tO\n", None,
     r"x.txt:2, sentence 0: 4 columns, but line 1 has 3: .*comment lines\? give "
     r"comment_prefix / --comment-prefix"),
])
def test_every_row_has_the_columns_of_the_first(tmp_path, text, columns, message):
    path = write(tmp_path / "x.txt", text)
    with pytest.raises(FormatError, match=message):
        read_columns(path, columns)


def test_missing_tag_fills_exactly_one_missing_last_column(tmp_path):
    path = write(tmp_path / "x.txt", "a B-PER\nb\t\n\nc O\n")
    corpus = read_columns(path, missing_tag="O")
    assert corpus.tags(GOLD, 0) == ["B-PER", "O"] and corpus.source.repaired_lines == (2,)


def test_comments_only_where_a_sentence_can_begin(tmp_path):
    # GermEval: '#\t<url>' before each sentence; system outputs: real '#' tokens inside
    path = write(tmp_path / "x.txt", "#\turl\n1\tA\tO\n2\t#\tO\n\n# two\n# lines\n3\tB\tO\n")
    corpus = read_columns(path, comment_prefix="#")
    assert [corpus.sentence_tokens(i) for i in range(2)] == [["1", "2"], ["3"]]
    system = write(tmp_path / "y.txt", "A O\n#\tO\n##\tO\n\n#c\nB O\n")
    corpus = read_columns(system, comment_prefix="#")
    assert [corpus.sentence_tokens(i) for i in range(2)] == [["A", "#", "##"], ["B"]]
    assert [token_line(corpus, p) for p in range(4)] == [1, 2, 3, 6]


def test_seqscore_comment_fixture():
    """seqscore's fixture: a comment before each sentence, '#', '##', '#1' tokens inside."""
    corpus = read_columns(shared_path("fixtures", "seqscore", "test_files",
                                      "minimal_comments.bio"), comment_prefix="#")
    assert (corpus.n_sentences, corpus.n_tokens) == (4, 26)
    assert corpus.sentence_tokens(0)[-4:] == ["#", "##", "#1", "."]


@pytest.mark.parametrize("data,message", [
    ("Smith B-PER\nMüller O\n".encode("latin-1"),
     r"x.txt:2: not UTF-8 text: byte 0xfc at byte offset 13 does not decode; if it is in "
     r"another encoding, give it with encoding= \(--encoding\), e.g. latin-1"),
    ("Smith B-PER\n".encode("utf-16"),
     r"x.txt:1: not UTF-8 text: byte 0xff at byte offset 0 .*UTF-16 byte-order mark"),
    (b"PK\x03\x04\x00\x00\x8a\x91\n", r"x.txt:1: not UTF-8 text: byte 0x8a at byte offset 6 "
                                      r"does not decode; it holds NUL bytes: a binary file"),
])
def test_undecodable_bytes_name_file_line_and_offset(tmp_path, data, message):
    path = write(tmp_path / "x.txt", data)
    with pytest.raises(FormatError, match=message):
        read_columns(path)


def test_other_encodings_are_read_when_given(tmp_path):
    path = write(tmp_path / "x.txt", "Müller B-PER\n".encode("latin-1"))
    assert read_columns(path, encoding="latin-1").sentence_tokens(0) == ["Müller"]
    path = write(tmp_path / "y.txt", "Müller B-PER\n".encode("utf-16"))
    assert read_columns(path, encoding="utf-16").sentence_tokens(0) == ["Müller"]


def test_a_huge_bad_line_is_cut_in_the_message(tmp_path):
    path = write(tmp_path / "x.txt", "a O\n" + "x" * 5_000_000 + "\n")
    with pytest.raises(FormatError) as error:
        read_columns(path)
    message = str(error.value)
    assert len(message) < 300 and "... (5000000 characters)" in message
    assert shown("x" * 81).endswith("... (81 characters)") and shown("x" * 80) == repr("x" * 80)


def test_prediction_tokens_must_match_the_gold_tokens(tmp_path):
    gold = read_columns(write(tmp_path / "gold.txt", "John B-PER\n\nin O\nParis B-LOC\n"))
    pred = write(tmp_path / "pred.txt", "John B-PER\n\nin O\nLondon B-LOC\n")
    with pytest.raises(TokenMismatchError,
                       match=r"pred.txt:4, sentence 1: token 'London' differs from 'Paris' "
                             r"at .*gold.txt:4; .*allow_token_mismatch=True"):
        read_predictions(gold, pred)
    with pytest.warns(UserWarning, match=r"pred.txt:4: token 'London' differs"):
        merged = read_predictions(gold, pred, allow_token_mismatch=True, name="sys")
    assert merged.tags("sys", 1) == ["O", "B-LOC"]
    same = read_columns(write(tmp_path / "same.txt", "John O\n\nin O\nParis O\n"), {PRED: -1})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_tokens(gold, same) == 0


def test_a_shifted_token_column_is_named(tmp_path):
    gold = read_columns(write(tmp_path / "gold.txt", "1\tJohn\tB-PER\n2\tran\tO\n"))
    with pytest.raises(TokenMismatchError, match="is the gold token in another column"):
        read_predictions(gold, write(tmp_path / "pred.txt", "John B-PER\nran O\n"))
    gold = read_columns(tmp_path / "gold.txt", token_column=1)
    assert read_predictions(gold, tmp_path / "pred.txt").tags(PRED, 0) == ["B-PER", "O"]


@pytest.mark.parametrize("side", ["references", None])
def test_an_error_about_gold_read_without_lines_names_its_file_not_a_type_error(side):
    """``span_errors_located``: gold read from a tag file keeps no lines (``{"lines":
    None}``, as for scored span files read against it); an error about its sentence
    names the gold file and the sentence, never fails on the missing lines."""
    with pytest.raises(NerspanError) as caught:
        with span_errors_located("gold.txt", {"lines": None}, "sys.jsonl", {"lines": [1, 2]}):
            raise NerspanError("span label must be a non-empty string", 1, side=side)
    assert type(caught.value) is NerspanError
    assert str(caught.value).startswith("gold.txt, ") and "sentence 1" in str(caught.value)
    with pytest.raises(NerspanError, match=r"^sys\.jsonl:2, predictions, sentence 1: "):
        with span_errors_located("gold.txt", {"lines": None}, "sys.jsonl", {"lines": [1, 2]}):
            raise NerspanError("bad", 1, side="predictions")
