"""The CLI rows of the bad-input matrix: every bad file or flag through every command.

Each case gives exit code 2 and one line on stderr naming the file, line, side and the
offending value (pinned here), never a traceback. An experiment (``report --data NAME
GOLD [TRAIN] --pred [NAME:]SYSTEM=FILE`` or ``report --manifest FILE``, a system's runs
as several files) names the dataset and the system's run as well.
"""
from __future__ import annotations

import codecs
import json
import re
import subprocess
import sys

import pytest

import nerlens.cli.score
from nerlens.cli import main

from .conftest import REPO

COMMANDS = ("score", "tough-mentions", "hardeval", "faireval", "buckets", "report")
WITH_TRAIN = ("tough-mentions", "hardeval", "buckets", "report")
BETA_COMMANDS = ("score", "faireval", "tough-mentions", "buckets",   # those reporting F1
                 "report")
GOLD = "John B-PER\nSmith I-PER\nsaw O\n\nParis B-LOC\n"
TRAIN = "Paris B-LOC\nis O\n\nJohn B-PER\n"


def good_pred(last="Paris B-LOC"):
    return f"John B-PER\nSmith I-PER\nsaw O\n\n{last}\n"


# case -> (file to replace: gold / pred / train, its content, extra flags, message pattern)
CASES = {
    "token_mismatch": ("pred", good_pred("London B-LOC"), [],
                       r"pred.txt:5, sentence 1: token 'London' differs from 'Paris' at "
                       r"\S*gold.txt:5; .*\(--allow-token-mismatch\)"),
    "layer_column_missing": ("gold", GOLD, ["--layers", "1,4"],
                             r"gold.txt: layers names column 4, and the file has 2 "
                             r"columns \(0 to 1; -2 to -1 from the end\)"),
    "extra_column_pred": ("pred", good_pred("Paris B-LOC x"), [],
                          r"pred.txt:5, sentence 1: 3 columns, but line 1 has 2: every row of "
                          r"a column file needs the same columns .*: 'Paris B-LOC x'"),
    "extra_column_gold": ("gold", GOLD.replace("saw O", "saw V O"), [],
                          r"gold.txt:3, sentence 0: 3 columns, but line 1 has 2"),
    "row_without_tag": ("pred", good_pred("Paris"), [],
                        r"pred.txt:5, sentence 1: 1 column, need at least 2 \(a row "
                        r"without its tag\? .*--missing-tag.*\): 'Paris'"),
    "latin1": ("pred", good_pred("Pärïs B-LOC").encode("latin-1"), [],
               r"pred.txt:5: not UTF-8 text: byte 0xe4 at byte offset 31 does not decode; "
               r".*\(--encoding\), e.g. latin-1"),
    "utf16": ("pred", good_pred().encode("utf-16"), [],
              r"pred.txt:1: not UTF-8 text: byte 0xff at byte offset 0 does not decode; it "
              r"starts with a UTF-16 byte-order mark.*--encoding utf-16"),
    "binary": ("pred", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\xff\x03", [],
               r"pred.txt:1: not UTF-8 text: byte 0x8b at byte offset 1 .*binary file"),
    "missing_pred": ("pred", None, [], r"error: \S*nope.txt: no such file$"),
    "directory_pred": ("pred", "dir", [], r"error: \S*pred.txt: is a directory, not a file$"),
    "missing_gold": ("gold", None, [], r"error: \S*nope.txt: no such file$"),
    "invalid_tag_pred": ("pred", good_pred("Paris FOO"), [],
                         r"pred.txt:5, sentence 1: prediction tag 'FOO' is not a tag: "
                         r"expected O or PREFIX-TYPE"),
    "invalid_tag_gold": ("gold", GOLD.replace("saw O", "saw -"), [],
                         r"gold.txt:3, sentence 0: gold tag '-' is not a tag"),
    "strict_outside_scheme_pred": ("pred", good_pred("Paris S-LOC"), ["--mode", "strict"],
                                   r"pred.txt:5, sentence 1: prediction tag 'S-LOC' is not "
                                   r"in the IOB2 scheme"),
    "fewer_sentences": ("pred", "John B-PER\nSmith I-PER\nsaw O\n", [],
                        r"pred.txt, sentence 1: predictions hold 1 sentence, the reference 2 "
                        r"sentences; after its last sentence, the reference goes on at "
                        r"\S*gold.txt:5$"),
    "blank_line_missing": ("pred", "John B-PER\nSmith I-PER\nsaw O\nParis B-LOC\n", [],
                           r"pred.txt:4, sentence 0: predictions hold 1 sentence, the reference "
                           r"2 sentences; they part here: this sentence has 4 tokens, the "
                           r"reference's 3 at \S*gold.txt:4 \(a blank line missing or extra\?\)$"),
    "extra_sentence": ("pred", good_pred() + "\nnow O\n", [],
                       r"pred.txt:7, sentence 2: predictions hold 3 sentences, the reference 2 "
                       r"sentences; the reference has no sentence from this one on$"),
    "fewer_tokens": ("pred", "John B-PER\nSmith I-PER\n\nParis B-LOC\n", [],
                     r"pred.txt:1, sentence 0: length mismatch: predictions have 2 tokens, "
                     r"the reference 3 tokens"),
    "empty_pred": ("pred", "\n\n", [], r"pred.txt: the file is empty: no token in it"),
    "column_out_of_range": ("gold", GOLD, ["--gold-tag-column", "6"],
                            r"gold.txt:1, sentence 0: 2 columns, and no row has 7 \(are "
                            r"the column indexes right\? .*--gold-tag-column, "
                            r"--pred-tag-column, --token-column\)"),
    "unknown_scheme": ("gold", GOLD, ["--scheme", "BIOX"],
                       r"error: unknown tag scheme 'BIOX'; choose one of IOB1, IOB2"),
    # a token, gold, prediction file as GOLD: its last column is no gold (issue 37)
    "two_tag_columns_gold": ("gold", "John B-PER B-PER\nSmith I-PER O\nsaw O O\n\nParis B-LOC "
                                     "B-LOC\n", [],
                             r"gold.txt: gold is read from the last column, and column 1 "
                             r"holds tags of the same entity types \(LOC, PER\): .*"
                             r"--gold-tag-column 1 \(-1: the last\)"),
    "huge_bad_line": ("pred", good_pred("P" * 5_000_000), [],
                      r"pred.txt:5, sentence 1: 1 column, .*: 'P{80}'\.\.\. "
                      r"\(5000000 characters\)$"),
}
TRAIN_CASES = {
    "missing_train": ("train", None, [], r"error: \S*nope.txt: no such file$"),
    "invalid_tag_train": ("train", TRAIN.replace("is O", "is B_LOC"), [],
                          r"train.txt:2, sentence 0: training tag 'B_LOC' is not a tag"),
    "bom_train_latin1": ("train", codecs.BOM_UTF8 + "Pärïs B-LOC\n".encode("latin-1"), [],
                         r"train.txt:1: not UTF-8 text: byte 0xe4 at byte offset 4"),
}
FLAG_CASES = {   # argparse-level: SystemExit(2), one line
    "threshold_out_of_range": (("score",), ["--threshold", "1.5"],
                               r"error: argument --threshold: 1.5 is not a confidence \(a "
                               r"number in \[0, 1\]\)"),
    "threshold_not_a_number": (("score",), ["--threshold=nan"],
                               r"error: argument --threshold: nan is not a confidence \(a "
                               r"number in \[0, 1\]\)"),
    "negative_bootstrap": (("report", "buckets"), ["--bootstrap", "-5"],
                           r"error: argument --bootstrap: bootstrap must be at least 0, not -5"),
    "bootstrap_not_a_number": (("report", "buckets"), ["--bootstrap", "many"],
                               r"error: argument --bootstrap: expected a whole number, not "
                               r"'many'"),
    # any int is a seed, as the API takes it (a negative one too)
    "seed_not_a_whole_number": (("report", "buckets"), ["--seed", "0.5"],
                                r"error: argument --seed: expected a whole number, not '0.5'"),
    "beta_zero": (BETA_COMMANDS, ["--beta", "0"],
                  r"error: argument --beta: beta must be a number > 0 \(the weight of recall "
                  r"against precision in F-beta\), not 0\.0"),
    "beta_negative": (BETA_COMMANDS, ["--beta=-2"],
                      r"error: argument --beta: beta must be a number > 0 .*not -2\.0"),
    "beta_not_a_number": (BETA_COMMANDS, ["--beta", "high"],
                          r"error: argument --beta: expected a number, not 'high'"),
    "beta_infinite": (BETA_COMMANDS, ["--beta", "inf"],
                      r"error: argument --beta: beta must be a number > 0 .*not inf"),
    # finite, but its square overflows (seqeval raises OverflowError) or is 0
    "beta_huge": (BETA_COMMANDS, ["--beta", "1e200"],
                  r"error: argument --beta: beta must be at most 1e\+150 \(F-beta squares it, "
                  r"and the square of a larger beta overflows a float\), not 1e\+200"),
    "beta_tiny": (BETA_COMMANDS, ["--beta", "1e-200"],
                  r"error: argument --beta: beta must be at least 1e-150 \(F-beta squares it, "
                  r"and the square of a smaller beta is 0 in a float: F-beta would be the "
                  r"precision\), not 1e-200"),
    # --weights is read as the flag is (faireval.read_weights): a preset, JSON or a file
    "weights_unknown": (("faireval",), ["--weights", "fairest"],
                        r"error: argument --weights: weights must be a preset \(weighted\), a "
                        r"JSON weight table or a JSON file, not 'fairest'"),
    "weights_key_twice": (("faireval",),
                          ["--weights", '{"BEs": [0.5, 0, 0.5], "BEs": [1, 0, 0]}'],
                          r"error: argument --weights: 'BEs' is given twice in one object "
                          r"\(the second would replace the first\)"),
    "min_overlap_not_a_number": (("faireval",), ["--min-overlap", "half"],
                                 r"error: argument --min-overlap: expected a number, not "
                                 r"'half'"),
    "unknown_matching": (("faireval",), ["--schemas", "semeval", "--matching", "best"],
                         r"error: argument --matching: invalid choice: 'best' \(choose from "
                         r"'grounded', 'strings'\)"),
    "unknown_overlaps": (("faireval",), ["--overlaps", "all"],
                         r"error: argument --overlaps: invalid choice: 'all' \(choose from "
                         r"'drop', 'keep'\)"),
    "unknown_compat": (COMMANDS, ["--compat", "conlleval"],
                       r"error: argument --compat: invalid choice: 'conlleval' \(choose from "
                       r"'interpreteval'\)"),
    "unknown_encoding": (COMMANDS, ["--encoding", "klingon"],
                         r"error: argument --encoding: unknown encoding 'klingon'"),
}


def argv(command, tmp_path, gold, pred, train, extra=()):
    if command == "report":
        return ["report", "--train", str(train), str(gold), str(pred), "--output",
                str(tmp_path / "out"), "--bootstrap", "0", "--no-progress", *extra]
    if command in WITH_TRAIN:
        return [command, "--train", str(train), str(gold), str(pred), *extra]
    return [command, str(gold), str(pred), *extra]


def files(tmp_path, replace=None, content=None):
    paths = {}
    for name, text in (("gold", GOLD), ("pred", good_pred()), ("train", TRAIN)):
        path = tmp_path / f"{name}.txt"
        if name == replace:
            if content is None:
                paths[name] = tmp_path / "nope.txt"
                continue
            if content == "dir":
                path.mkdir()
                paths[name] = path
                continue
            text = content
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


def run(capsys, args):
    try:   # a usage error of the parser (a flag or value 0.2 renamed) exits
        code = main(args)
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def check_one_line(code, err, message):
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("nerlens"), err
    assert re.search(message, lines[0]), lines[0]


MATRIX = ([(case, command) for case in sorted(CASES) for command in COMMANDS]
          + [(case, command) for case in sorted(TRAIN_CASES) for command in WITH_TRAIN])


@pytest.mark.parametrize("case,command", MATRIX)
def test_bad_file_gives_one_line_and_exit_2(tmp_path, capsys, case, command):
    replace, content, extra, message = {**CASES, **TRAIN_CASES}[case]
    paths = files(tmp_path, replace, content)
    code, out, err = run(capsys, argv(command, tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], extra))
    check_one_line(code, err, message)
    assert out == ""


@pytest.mark.parametrize("case,command", [(case, command) for case, (commands, _, _)
                                          in sorted(FLAG_CASES.items())
                                          for command in commands])
def test_bad_flag_is_a_one_line_usage_error(tmp_path, capsys, case, command):
    _, flags, message = FLAG_CASES[case]
    paths = files(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(argv(command, tmp_path, paths["gold"], paths["pred"], paths["train"], flags))
    check_one_line(exit_info.value.code, capsys.readouterr().err, message)


@pytest.mark.parametrize("command", COMMANDS)
def test_the_flags_that_accept_the_input(tmp_path, capsys, command):
    """Each refusal names its remedy; with it the command scores, and says what it did."""
    paths = files(tmp_path, "pred", good_pred("London"))
    code, out, err = run(capsys, argv(command, tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], ["--missing-tag", "O",
                                                       "--allow-token-mismatch"]))
    assert code == 0, err
    # a note of the command line's reader, a warning of the library's (the report's)
    assert re.search(r"pred.txt: 1 row without a tag read with (missing_tag / )?--missing-tag "
                     r"\(lines 5\)", err)
    assert "pred.txt:5: token 'London' differs from 'Paris'" in err and "accepted" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_lenient_outside_scheme_is_repaired_except_in_the_report(tmp_path, capsys, command):
    paths = files(tmp_path, "pred", good_pred("Paris S-LOC"))
    code, _, err = run(capsys, argv(command, tmp_path, paths["gold"], paths["pred"],
                                    paths["train"]))
    if command == "report":
        check_one_line(code, err, r"pred.txt:5, sentence 1: prediction tag 'S-LOC' is not in "
                                  r"the IOB2 scheme")
    else:
        assert code == 0 and "Traceback" not in err


@pytest.mark.parametrize("command", COMMANDS)
def test_gold_equal_to_prediction_is_perfect(tmp_path, capsys, command):
    paths = files(tmp_path)
    code, out, err = run(capsys, argv(command, tmp_path, paths["gold"], paths["gold"],
                                      paths["train"], ["--format", "json"]))
    assert code == 0, err
    result = json.loads(out)
    if command == "report":
        assert result["estimates"]["gold'"]["entity_f1"] == 1.0
    elif command == "hardeval":
        assert result["ter"] == 0.0
    elif command == "faireval":
        assert result["fair_f1"] == 1.0 and result["traditional_f1"] == 1.0
    else:
        assert result["f1"] == 1.0


class ClosedPipe:
    """A stdout whose reader has gone away (``nerlens ... | head``)."""

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("command", COMMANDS)
def test_closed_pipe_ends_quietly(tmp_path, capsys, monkeypatch, command):
    paths = files(tmp_path)
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    code = main(argv(command, tmp_path, paths["gold"], paths["pred"], paths["train"]))
    monkeypatch.undo()
    assert code == 0
    assert capsys.readouterr().err == ""


def test_closed_pipe_in_a_real_process(tmp_path):
    """The reader closes the pipe before nerlens writes: no message, exit code 0."""
    paths = files(tmp_path)
    process = subprocess.Popen([sys.executable, "-m", "nerlens", "score", str(paths["gold"]),
                                str(paths["pred"])], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 0
    assert err == b""


def test_an_internal_error_is_one_line_and_debug_shows_it(tmp_path, capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise IndexError("index 0 is out of bounds")

    monkeypatch.setattr(nerlens.cli.score, "score_corpus", broken)
    paths = files(tmp_path)
    code, _, err = run(capsys, ["score", str(paths["gold"]), str(paths["pred"])])
    check_one_line(code, err, r"internal error: IndexError: index 0 is out of bounds \(run "
                              r"again with --debug")
    with pytest.raises(IndexError):
        main(["score", str(paths["gold"]), str(paths["pred"]), "--debug"])


@pytest.mark.parametrize("command", WITH_TRAIN)
def test_a_bom_is_no_part_of_a_token(tmp_path, capsys, command):
    """A BOM before GOLD's and the training file's first token: the same scores as without."""
    plain = files(tmp_path)
    with_bom = {name: tmp_path / f"bom_{name}.txt" for name in ("gold", "train")}
    for name, path in with_bom.items():
        path.write_bytes(codecs.BOM_UTF8 + plain[name].read_bytes())
    outputs = []
    for gold, train in ((plain["gold"], plain["train"]), (with_bom["gold"], with_bom["train"])):
        code, out, err = run(capsys, argv(command, tmp_path, gold, plain["pred"], train,
                                          ["--format", "json"]))
        assert code == 0, err
        outputs.append(json.loads(out))
    if command == "report":
        outputs = [output["estimates"] for output in outputs]
    assert outputs[0] == outputs[1]


def test_empty_comment_prefix_is_refused(tmp_path, capsys):
    paths = files(tmp_path)
    code, _, err = run(capsys, ["score", str(paths["gold"]), str(paths["pred"]),
                                "--comment-prefix", ""])
    check_one_line(code, err, r"comment_prefix is empty: every line would be a comment")


def test_span_files_drop_a_bom_and_name_undecodable_bytes(tmp_path, capsys):
    spans = "PER\t1\t2\t1, 2\n\nLOC\t1\t1\t1\n"
    plain, with_bom, latin = (tmp_path / name for name in ("a.csv", "b.csv", "c.csv"))
    plain.write_text(spans, encoding="utf-8")
    with_bom.write_bytes(codecs.BOM_UTF8 + spans.encode())
    latin.write_bytes(spans.replace("LOC", "LÖC").encode("latin-1"))
    code, out, err = run(capsys, ["faireval", "--spans", str(with_bom), str(plain),
                                  "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["traditional_f1"] == 1.0
    code, _, err = run(capsys, ["faireval", "--spans", str(plain), str(latin)])
    check_one_line(code, err, r"c.csv:3: not UTF-8 text: byte 0xd6 at byte offset 15")


# -- experiments: --data/--pred and --manifest, a system's runs as several files ------------
# case -> (file to replace: gold / run2 / train, its content, message pattern); each one
# through --data/--pred and through a manifest. Run 2 of system "tagger" is column tagger#2.
EXPERIMENT_CASES = {
    "bad_tag_in_a_run": ("run2", good_pred("Paris FOO"),
                         r"run2.txt:5, dataset 'd1', system 'tagger#2', sentence 1: prediction "
                         r"tag 'FOO' is not a tag: expected O or PREFIX-TYPE"),
    "outside_scheme_in_a_run": ("run2", good_pred("Paris S-LOC"),
                                r"run2.txt:5, dataset 'd1', system 'tagger#2', sentence 1: "
                                r"prediction tag 'S-LOC' is not in the IOB2 scheme"),
    "token_mismatch_in_a_run": ("run2", good_pred("London B-LOC"),
                                r"run2.txt:5, dataset 'd1', system 'tagger#2', sentence 1: token "
                                r"'London' differs from 'Paris' at \S*gold.txt:5"),
    "fewer_sentences_in_a_run": ("run2", "John B-PER\nSmith I-PER\nsaw O\n",
                                 r"run2.txt, dataset 'd1', system 'tagger#2', sentence 1: "
                                 r"predictions hold 1 sentence, the reference 2 sentences; after "
                                 r"its last sentence, the reference goes on at \S*gold.txt:5$"),
    "latin1_run": ("run2", good_pred("Pärïs B-LOC").encode("latin-1"),
                   r"run2.txt:5, dataset 'd1', system 'tagger#2': not UTF-8 text: byte 0xe4 at "
                   r"byte offset 31 does not decode"),
    "missing_run": ("run2", None, r"error: \S*nope.txt: no such file \(dataset 'd1', system "
                                  r"'tagger#2'\)$"),
    "bad_tag_in_gold": ("gold", GOLD.replace("saw O", "saw -"),
                        r"gold.txt:3, dataset 'd1', sentence 0: gold tag '-' is not a tag"),
    "missing_gold": ("gold", None, r"error: \S*nope.txt: no such file \(dataset 'd1'\)$"),
    "bad_tag_in_train": ("train", TRAIN.replace("is O", "is B_LOC"),
                         r"train.txt:2, dataset 'd1', sentence 0: training tag 'B_LOC' is not a "
                         r"tag"),
    "missing_train": ("train", None, r"error: \S*nope.txt: no such file \(dataset 'd1'\)$"),
}


def experiment_files(tmp_path, replace=None, content=None) -> dict:
    """gold.txt, run1.txt, run2.txt and train.txt, one of them replaced (None: a path to
    a file that does not exist)."""
    paths = {}
    for name, text in (("gold", GOLD), ("run1", good_pred()), ("run2", good_pred()),
                       ("train", TRAIN)):
        paths[name] = tmp_path / f"{name}.txt"
        if name == replace:
            if content is None:
                paths[name] = tmp_path / "nope.txt"
                continue
            text = content
        if isinstance(text, bytes):
            paths[name].write_bytes(text)
        else:
            paths[name].write_text(text, encoding="utf-8")
    return paths


def experiment_argv(tmp_path, paths, form: str) -> list:
    """``report`` over dataset d1 with system tagger's two runs, as --data/--pred or as a
    manifest (its file names relative to its folder)."""
    common = ["report", "--no-progress", "--bootstrap", "0", "--output", str(tmp_path / "out")]
    if form == "data":
        return [*common, "--data", "d1", str(paths["gold"]), str(paths["train"]), "--pred",
                f"tagger={paths['run1']}", f"tagger={paths['run2']}"]
    manifest = tmp_path / "experiment.json"
    manifest.write_text(json.dumps({"d1": {
        "gold": paths["gold"].name, "train": paths["train"].name,
        "predictions": {"tagger": [paths["run1"].name, paths["run2"].name]}}}))
    return [*common, "--manifest", str(manifest)]


@pytest.mark.parametrize("form", ["data", "manifest"])
@pytest.mark.parametrize("case", sorted(EXPERIMENT_CASES))
def test_bad_experiment_file_gives_one_line_and_exit_2(tmp_path, capsys, case, form):
    replace, content, message = EXPERIMENT_CASES[case]
    paths = experiment_files(tmp_path, replace, content)
    code, out, err = run(capsys, experiment_argv(tmp_path, paths, form))
    check_one_line(code, err, message)
    assert out == ""


# --data/--pred entries: argv after ``report --no-progress ...`` -> message
DECLARATION_CASES = {
    "pred_without_a_file": (["--data", "d1", "gold.txt", "train.txt", "--pred", "tagger"],
                            r"error: --pred tagger: write SYSTEM=FILE or NAME:SYSTEM=FILE$"),
    "pred_without_a_system": (["--data", "d1", "gold.txt", "train.txt", "--pred", "=run1.txt"],
                              r"error: --pred =run1.txt: write SYSTEM=FILE or "
                              r"NAME:SYSTEM=FILE$"),
    "pred_for_an_unknown_dataset": (["--data", "d1", "gold.txt", "train.txt", "--pred",
                                     "d9:tagger=run1.txt"],
                                    r"error: --pred d9:tagger=run1.txt: no dataset 'd9' "
                                    r"\(declared: d1\)$"),
    "pred_before_any_data": (["--pred", "tagger=run1.txt", "--data", "d1", "gold.txt"],
                             r"error: --pred tagger=run1.txt: no dataset yet: put it after "
                             r"--data"),
    "data_without_pred": (["--data", "d1", "gold.txt", "train.txt"],
                          r"error: --data d1: no predictions: add --pred SYSTEM=FILE after it$"),
    "data_with_four_values": (["--data", "d1", "gold.txt", "train.txt", "x", "--pred",
                               "tagger=run1.txt"],
                              r"error: --data d1 gold.txt train.txt x: give NAME GOLD \[TRAIN\] "
                              r"\(2 or 3 values, not 4\)$"),
    "pattern_matching_no_file": (["--data", "d1", "gold.txt", "train.txt", "--pred",
                                  "tagger=run_*.txt"],
                                 r"error: --pred tagger=run_\*.txt: no file matches "
                                 r"'run_\*.txt'$"),
    "data_and_manifest": (["--manifest", "experiment.json", "--data", "d1", "gold.txt",
                           "train.txt", "--pred", "tagger=run1.txt"],
                          r"error: give --manifest or --data/--pred, not both$"),
    "data_and_gold": (["gold.txt", "run1.txt", "--data", "d1", "gold.txt", "train.txt",
                       "--pred", "tagger=run1.txt"],
                      r"error: an experiment .* reads every file from its declaration: leave "
                      r"out GOLD/PRED$"),
}


@pytest.mark.parametrize("case", sorted(DECLARATION_CASES))
def test_bad_experiment_declaration_gives_one_line_and_exit_2(tmp_path, capsys, monkeypatch,
                                                              case):
    argv, message = DECLARATION_CASES[case]
    experiment_files(tmp_path)
    (tmp_path / "experiment.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, ["report", "--no-progress", "--bootstrap", "0", "--output",
                                  str(tmp_path / "out"), *argv])
    check_one_line(code, err, message)
    assert out == ""


def _entry(**changes) -> dict:
    entry = {"gold": "gold.txt", "train": "train.txt",
             "predictions": {"tagger": ["run1.txt", "run2.txt"]}}
    entry.update(changes)
    return {"d1": {key: value for key, value in entry.items() if value is not None}}


# manifest file name -> (its content, message)
MANIFEST_CASES = {
    "experiment.yaml": ("d1:\n  gold: gold.txt\n",
                        r"error: \S*experiment.yaml:1: not JSON: Expecting value \(column 1\)$"),
    "trailing_comma.json": ('{"d1": {"gold": "gold.txt",\n "train": "train.txt",}}',
                            r"error: \S*trailing_comma.json:2: not JSON: Expecting property name "
                            r"enclosed in double quotes \(column 23\)$"),
    "binary.json": (b"\x1f\x8b\x08\x00\x00", r"error: \S*binary.json:1: not UTF-8 text: byte "
                                             r"0x8b at byte offset 1 does not decode"),
    "list.json": (json.dumps([_entry()]), r"error: \S*list.json: a manifest is a JSON object"),
    "no_gold.json": (json.dumps(_entry(gold=None)),
                     r"error: \S*no_gold.json: dataset 'd1': needs at least \"gold\"$"),
    "entry_not_an_object.json": (json.dumps({"d1": "gold.txt"}),
                                 r"error: \S*entry_not_an_object.json: dataset 'd1': needs at "
                                 r"least \"gold\"$"),
    "unknown_key.json": (json.dumps({"d1": {**_entry()["d1"], "golds": "g.txt"}}),
                         r"dataset 'd1': unknown key\(s\) golds \(allowed: train, gold, "
                         r"predictions, generated, gold_alt\)$"),
    "run_not_a_file_name.json": (json.dumps(_entry(predictions={"tagger": ["run1.txt", 5]})),
                                 r"dataset 'd1': file names must be strings, not 5$"),
    "no_runs.json": (json.dumps(_entry(predictions={"tagger": []})),
                     r"dataset 'd1': system 'tagger' has an empty list of runs$"),
    "run_column_name.json": (json.dumps(_entry(predictions={"tagger#2": "run1.txt"})),
                             r"dataset 'd1': system 'tagger#2': '#' is kept for the run columns"),
    "dataset_twice.json": ('{"d1": {"gold": "gold.txt", "train": "train.txt", "predictions": '
                           '"run1.txt"}, "d1": {"gold": "gold.txt", "predictions": "run2.txt"}}',
                           r"error: \S*dataset_twice.json: 'd1' is given twice in one object "
                           r"\(the second would replace the first\)$"),
    "system_twice.json": ('{"d1": {"gold": "gold.txt", "train": "train.txt", "predictions": '
                          '{"tagger": "run1.txt", "tagger": "run2.txt"}}}',
                          r"error: \S*system_twice.json: 'tagger' is given twice in one "
                          r"object"),
    "no_train.json": (json.dumps(_entry(train=None)),
                      r"error: \S*no_train.json: dataset 'd1' has no \"train\" \(the experiment "
                      r"indexes each training set\)$"),
}


@pytest.mark.parametrize("name", sorted(MANIFEST_CASES))
def test_bad_manifest_gives_one_line_and_exit_2(tmp_path, capsys, name):
    content, message = MANIFEST_CASES[name]
    experiment_files(tmp_path)
    manifest = tmp_path / name
    if isinstance(content, bytes):
        manifest.write_bytes(content)
    else:
        manifest.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, ["report", "--no-progress", "--bootstrap", "0", "--output",
                                  str(tmp_path / "out"), "--manifest", str(manifest)])
    check_one_line(code, err, message)
    assert out == ""


def test_missing_manifest(tmp_path, capsys):
    code, _, err = run(capsys, ["report", "--manifest", str(tmp_path / "nope.json")])
    check_one_line(code, err, r"error: \S*nope.json: no such file$")


# -- JSON Lines span files: a system's own words must be gold's ------------------------------
JSONL_GOLD = ['{"tokens": ["Ada", "Lovelace", "wrote", "in", "London"], '
              '"spans": [[0, 2, "PER"], [4, 5, "LOC"]]}',
              '{"tokens": ["Hi", "there"], "spans": []}']
JSONL_CASES = {
    "other_token": ([JSONL_GOLD[0].replace("London", "Paris"), JSONL_GOLD[1]],
                    r"pred.jsonl:1, predictions, sentence 0: token 'Paris' differs from "
                    r"'London' \(\S*gold.jsonl:1\): the spans of both files must index the "
                    r"same tokens"),
    "fewer_tokens": ([JSONL_GOLD[0].replace(', "London"', ""), JSONL_GOLD[1]],
                     r"pred.jsonl:1, predictions, sentence 0: 4 tokens, where gold has 5"),
    "other_text": (['{"text": "Hi there", "spans": []}', '{"text": "Hi you", "spans": []}'],
                   r"pred.jsonl:2, predictions, sentence 1: token 'you' differs from "
                   r"'there'"),
    "fewer_sentences": ([JSONL_GOLD[0]], r"pred.jsonl: 1 sentence here, 2 in \S*gold.jsonl; "
                                         r"after its last line, gold goes on at "
                                         r"\S*gold.jsonl:2$"),
    "extra_sentence": (JSONL_GOLD + ['{"tokens": ["Bye"], "spans": []}'],
                       r"pred.jsonl:3, sentence 2: 3 sentences here, 2 in \S*gold.jsonl; gold "
                       r"has no sentence from this line on$"),
    "span_past_the_end": ([JSONL_GOLD[0].replace("[4, 5,", "[4, 9,"), JSONL_GOLD[1]],
                          r"pred.jsonl:1, predictions, sentence 0: span \(4, 9, 'LOC'\) "
                          r"reaches past the end of the sentence"),
    "label_not_a_string": ([JSONL_GOLD[0].replace('"LOC"', "7"), JSONL_GOLD[1]],
                           r"pred.jsonl:1, predictions, sentence 0: span label must be a "
                           r"non-empty string, got 7 in \(4, 5, 7\)$"),
    "label_with_whitespace": (['{"spans": []}', '{"spans": [[0, 1, "B-X Y"]]}'],
                              r"pred.jsonl:2, predictions, sentence 1: span label 'B-X Y' "
                              r"contains whitespace, which no entity type holds"),
    "unknown_key": ([JSONL_GOLD[0], '{"tokens": ["Hi", "there"], "spans": [], '
                                    '"txt": "Hi there"}'],
                    r"pred.jsonl:2, sentence 1: unknown key 'txt' \(did you mean 'text'\?\); "
                    r"a line's keys are spans, tokens, text$"),
    "offset_beyond_int64": ([JSONL_GOLD[0].replace("[4, 5,", f"[4, {10**23},"),
                             JSONL_GOLD[1]],
                            r"pred.jsonl:1, predictions, sentence 0: span \(4, "
                            r"100000000000000000000000, 'LOC'\) reaches past the end of any "
                            r"sentence"),
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case", sorted(JSONL_CASES))
def test_a_span_file_that_does_not_fit_gold_gives_one_line_and_exit_2(tmp_path, capsys, case,
                                                                      command):
    """Every command, faireval too (it scored a system's own tokens against gold's spans,
    and named no file or line; its span past the end named no label), refuses a span
    file as its error says."""
    lines, message = JSONL_CASES[case]
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold_lines = JSONL_GOLD if case != "other_text" else [
        '{"text": "Hi there", "spans": []}', '{"text": "Hi there", "spans": []}']
    gold.write_text("\n".join(gold_lines) + "\n", encoding="utf-8")
    pred.write_text("\n".join(lines) + "\n", encoding="utf-8")
    train = files(tmp_path)["train"]
    code, _, err = run(capsys, argv(command, tmp_path, gold, pred, train, ["--jsonl"]))
    check_one_line(code, err, message)


@pytest.mark.parametrize("command, flags, message", [   # faireval's --weights: FLAG_CASES
    ("buckets", ["--attributes", "eLen,eLen"],
     r"error: argument --attributes: attribute 'eLen' is given twice \("),
])
def test_a_name_given_twice_in_an_option_is_refused(tmp_path, capsys, command, flags, message):
    paths = files(tmp_path)
    code, out, err = run(capsys, argv(command, tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], flags))
    check_one_line(code, err, message)


def test_n_buckets_has_a_ceiling(tmp_path, capsys):
    paths = files(tmp_path)
    code, _, err = run(capsys, argv("buckets", tmp_path, paths["gold"], paths["pred"],
                                    paths["train"], ["--n-buckets", "1000000"]))
    check_one_line(code, err, r"error: argument --n-buckets: n_buckets must be at most 1000, "
                              r"not 1000000 \(see")


@pytest.mark.parametrize("command", ["score", "faireval"])
def test_a_span_file_is_read_in_its_encoding_and_without_its_bom(tmp_path, capsys, command):
    gold, bom, latin = (tmp_path / name for name in ("gold.jsonl", "bom.jsonl", "latin.jsonl"))
    gold.write_text("\n".join(JSONL_GOLD) + "\n", encoding="utf-8")
    bom.write_bytes(b"\xef\xbb\xbf" + gold.read_bytes())
    assert run(capsys, [command, "--jsonl", str(bom), str(gold)])[0] == 0
    latin.write_bytes('{"tokens": ["Café", "x"], "spans": [[0, 1, "LOC"]]}\n'.encode("latin-1"))
    assert run(capsys, [command, "--jsonl", str(latin), str(latin), "--encoding",
                        "latin-1"])[0] == 0
    code, _, err = run(capsys, [command, "--jsonl", str(latin), str(latin)])
    check_one_line(code, err, r"latin.jsonl: not utf-8 text: byte 0xe9 at byte offset 16 .*"
                              r"--encoding")


@pytest.mark.parametrize("command", ["score", "report"])
def test_files_given_with_demo_are_refused_not_ignored(tmp_path, capsys, command):
    paths = files(tmp_path)
    code, _, err = run(capsys, [command, "--demo", str(paths["gold"])])
    check_one_line(code, err, r"--demo scores the embedded demo; GOLD would be ignored")


# -- names users give: never gold's, never another system's (issue 28) ----------------------
# GOLD's tags beside a prediction column in which every tag is wrong
PAIR = "John B-PER O\nSmith I-PER O\nsaw O B-LOC\n\nParis B-LOC O\n"
PAIR_COMMANDS = ("score", "tough-mentions", "hardeval", "faireval", "buckets")


def _worst(command: str, result: dict) -> bool:
    """Whether ``result`` scores a system that has no tag right."""
    if command == "hardeval":
        return result["ter"] == 1.0
    return result["traditional_f1" if command == "faireval" else "f1"] == 0.0


@pytest.mark.parametrize("stem", ["gold", "gold'", "pred"])
@pytest.mark.parametrize("command", PAIR_COMMANDS)
def test_a_file_of_gold_and_predictions_is_scored_by_any_name(tmp_path, capsys, command, stem):
    """A ``token gold pred`` file named gold.txt: its system was named "gold" and took the
    gold column's place (every command printed F1 100 for a system that is always wrong)."""
    train = files(tmp_path)["train"]
    (tmp_path / "pair").mkdir()
    pair = tmp_path / "pair" / f"{stem}.txt"
    pair.write_text(PAIR, encoding="utf-8")
    extra = ["--train", str(train)] if command in WITH_TRAIN else []
    code, out, err = run(capsys, [command, *extra, str(pair), "--format", "json"])
    assert code == 0, err
    assert _worst(command, json.loads(out))


def test_files_named_gold_are_systems_named_apart_from_gold(tmp_path, capsys):
    paths = files(tmp_path)
    other = tmp_path / "d"
    other.mkdir()
    (other / "gold.txt").write_text(good_pred("Paris O"), encoding="utf-8")
    code, out, err = run(capsys, ["score", str(paths["gold"]), str(paths["gold"]),
                                  str(other / "gold.txt"), "--format", "json"])
    assert code == 0, err
    result = json.loads(out)
    assert list(result) == ["gold'", "gold''"]
    assert result["gold'"]["f1"] == 1.0 and result["gold''"]["f1"] == pytest.approx(2 / 3)


@pytest.mark.parametrize("form", ["pair file", "prediction file"])
@pytest.mark.parametrize("command", ["report --manifest", "hardeval --manifest",
                                     "buckets --manifest"])
def test_a_manifest_file_named_gold_is_a_system_apart_from_gold(tmp_path, capsys, command,
                                                                form):
    """A manifest's gold file holding the predictions, or its one prediction file, named
    gold.txt: named after the file, as PRED is ("gold'")."""
    paths = experiment_files(tmp_path)
    folder = tmp_path / "d1"
    folder.mkdir()
    if form == "pair file":
        (folder / "gold.txt").write_text(PAIR, encoding="utf-8")
        entry = {"gold": "d1/gold.txt"}
    else:
        (folder / "gold.txt").write_text(good_pred("Paris O"), encoding="utf-8")
        entry = {"gold": paths["gold"].name, "predictions": "d1/gold.txt"}
    manifest = tmp_path / "experiment.json"
    manifest.write_text(json.dumps({"d1": {**entry, "train": paths["train"].name}}))
    flag = command.split()[1]
    extra = (["--bootstrap", "0", "--no-progress", "--output", str(tmp_path / "out")]
             if command.startswith("report") else [])
    code, out, err = run(capsys, [command.split()[0], flag, str(manifest), *extra,
                                  "--format", "json"])
    assert code == 0, err
    result = json.loads(out)
    f1 = 0.0 if form == "pair file" else pytest.approx(2 / 3)  # one mention of two
    if command.startswith("report"):
        assert result["systems"] == ["gold'"]
        assert result["aggregate"]["d1"]["gold'"]["entity_f1"]["mean"] == f1
    elif command.startswith("hardeval"):
        assert result["domains"]["d1"]["f1"] == f1
    else:
        assert list(result["datasets"]["d1"]) == ["gold'"]
        assert result["datasets"]["d1"]["gold'"]["f1"] == f1


# argv after ``report --no-progress ...`` (or a manifest's entry) -> message
NAME_CASES = {
    "pred_named_gold": (["--data", "d1", "gold.txt", "train.txt", "--pred", "gold=run1.txt"],
                        r"error: --pred gold=run1.txt: 'gold' cannot name a system: it is the "
                        r"gold column's name$"),
    "pred_named_gold_in_a_named_dataset": (
        ["--data", "d1", "gold.txt", "train.txt", "--pred", "d1:gold=run1.txt"],
        r"error: --pred d1:gold=run1.txt: 'gold' cannot name a system: it is the gold "
        r"column's name$"),
    "pred_named_as_a_run": (
        ["--data", "d1", "gold.txt", "train.txt", "--pred", "tagger=run1.txt",
         "tagger=run2.txt", "tagger#1=run1.txt"],
        r"error: --pred tagger#1=run1.txt: system 'tagger#1': '#' is kept for the run columns "
        r"\(system#1, system#2, ...\)$"),
    "pred_without_a_name": (["--data", "d1", "gold.txt", "train.txt", "--pred", "d1:=run1.txt"],
                            r"error: --pred d1:=run1.txt: a system's name is a non-empty "
                            r"string, not ''$"),
    "manifest_system_named_gold": (
        ["--manifest", "named.json"],
        r"error: \S*named.json: dataset 'd1': 'gold' cannot name a system: it is the gold "
        r"column's name$"),
}


@pytest.mark.parametrize("case", sorted(NAME_CASES))
def test_a_system_name_that_is_taken_is_refused_naming_where_it_was_given(
        tmp_path, capsys, monkeypatch, case):
    argv, message = NAME_CASES[case]
    experiment_files(tmp_path)
    (tmp_path / "named.json").write_text(json.dumps(_entry(predictions={"gold": "run1.txt"})))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, ["report", "--no-progress", "--bootstrap", "0", "--output",
                                  str(tmp_path / "out"), *argv])
    check_one_line(code, err, message)
    assert out == ""


# -- every hint of an error message, followed (issue 28) --------------------------------------
# case -> (files beside gold.txt, pred.txt and train.txt: name -> text or bytes; the command
# that fails; what its one line must say (the hint); the command the hint leads to; what
# that one prints on stdout + stderr, or ("refused", the one line it fails with)). Paths
# are {name} of a file; "train.txt" etc. are read from the folder.
IOBES = "John B-PER\nSmith E-PER\nsaw O\n\nParis S-LOC\n"
SPANS_GOLD = '{"tokens": ["Ada", "Lovelace", "wrote"], "spans": [[0, 2, "PER"]]}\n'
SPANS_OFF = '{"spans": [{"entity_group": "PER", "start": 0, "end": 7}]}\n'
SCORED = '{"spans": [[0, 2, "PER", 0.9]]}\n{"spans": [[0, 1, "LOC", 0.4]]}\n'
SCORED_LLM = ('{"response": [{"text": "John Smith", "type": "PER", "score": 0.9}]}\n'
              '{"response": {"LOC": [{"text": "Paris", "score": 0.4}]}}\n')
HINT_CASES = {
    "row_without_tag": (
        {"pred.txt": good_pred("Paris")}, "score {gold} {pred}",
        r"a row without its tag\? missing_tag / --missing-tag gives such rows a tag",
        "score {gold} {pred} --missing-tag O",
        r"pred.txt: 1 row without a tag read with --missing-tag \(lines 5\)"),
    "gold_alone_without_predictions": (
        {}, "score {gold}", r"no prediction column \(PRED\): .* give the prediction file\(s\) "
                            r"as PRED",
        "score {gold} {pred}", r"FB1: 100.00"),
    "missing_tag_on_a_file_without_predictions": (
        {}, "score {gold} --missing-tag O", r"no prediction column \(PRED\)",
        "score {gold} {pred}", r"FB1: 100.00"),
    "missing_tag_on_a_prediction_file_without_tags": (
        {"words.txt": "John\nSmith\nsaw\n\nParis\n"}, "score {gold} {words} --missing-tag O",
        r"no row has 2 columns: missing_tag / --missing-tag gives a tag to rows without one, "
        r"not to a file without that column \(are the column indexes right\?",
        "score {gold} {words} --pred-tag-column 1",
        ("refused", r"words.txt:1, sentence 0: 1 column, and no row has 2")),
    "column_out_of_range": (
        {}, "score {gold} {pred} --gold-tag-column 6", r"--gold-tag-column, --pred-tag-column",
        "score {gold} {pred} --gold-tag-column 1", r"FB1: 100.00"),
    "token_mismatch": (
        {"pred.txt": good_pred("London B-LOC")}, "score {gold} {pred}",
        r"accept it with allow_token_mismatch=True \(--allow-token-mismatch\)",
        "score {gold} {pred} --allow-token-mismatch",
        r"token 'London' differs from 'Paris' .* accepted"),
    "token_in_another_column": (
        {"numbered.txt": "1 John B-PER\n2 Smith I-PER\n3 saw O\n\n1 Paris B-LOC\n"},
        "score {numbered} {pred}", r"is the gold token in another column \(token_column / "
                                   r"--token-column\)\?",
        "score {numbered} {pred} --token-column 1", r"FB1: 100.00"),
    "comment_lines": (
        {"commented.txt": "# id 1\n" + GOLD}, "score {commented} {pred}",
        r"comment lines\? give comment_prefix / --comment-prefix",
        "score {commented} {pred} --comment-prefix #", r"FB1: 100.00"),
    "latin1": (
        {"latin.txt": GOLD.replace("Paris", "Pärïs").encode("latin-1"),
         "latin_pred.txt": good_pred("Pärïs B-LOC").encode("latin-1")},
        "score {latin} {latin_pred}", r"give it with encoding= \(--encoding\), e.g. latin-1",
        "score {latin} {latin_pred} --encoding latin-1", r"FB1: 100.00"),
    "utf16": (
        {"wide.txt": GOLD.encode("utf-16"), "wide_pred.txt": good_pred().encode("utf-16")},
        "score {wide} {wide_pred}", r"\(--encoding utf-16\)",
        "score {wide} {wide_pred} --encoding utf-16", r"FB1: 100.00"),
    "tag_outside_the_scheme": (
        {"iobes.txt": IOBES, "iobes_pred.txt": IOBES}, "score {iobes} {iobes_pred} --mode strict",
        r"gold tag 'E-PER' is not in the IOB2 scheme .*see --scheme\)",
        "score {iobes} {iobes_pred} --mode strict --scheme IOBES", r"FB1: 100.00"),
    "span_off_token_boundaries": (
        {"spans.jsonl": SPANS_GOLD, "off.jsonl": SPANS_OFF},
        "score --jsonl {spans} {off}", r"snap=True \(--snap\) widens it",
        "score --jsonl {spans} {off} --snap", r"FB1: 100.00"),
    "scheme_with_span_files": (
        {"spans.jsonl": SPANS_GOLD}, "score --jsonl {spans} {spans} --scheme IOBES",
        r"spans \(--jsonl\) are scored as IOB2 tags: scheme \(--scheme\) applies to tag files",
        "score --jsonl {spans} {spans}", r"FB1: 100.00"),
    "hardeval_without_train": (
        {}, "hardeval {gold} {pred}", r"give --train FILE \(or --kfold K, or --manifest",
        "hardeval {gold} {pred} --train {train}", r"Token error rate \(%\) per subset"),
    "hardeval_kfold_with_train": (
        {}, "hardeval {gold} {pred} --kfold 2 --train {train}", r"drop --train",
        "hardeval {gold} {pred} --kfold 2", r"Subsets by 2-fold cross-validation"),
    "buckets_without_train": (
        {}, "buckets {gold} {pred}", r"give --train FILE",
        "buckets {gold} {pred} --train {train}", r"Self-diagnosis"),
    "report_without_train": (
        {}, "report {gold} {pred} --bootstrap 0 --no-progress --output {out}",
        r"need train=\.\.\. \(--train FILE", "report {gold} {pred} --bootstrap 0 "
        "--no-progress --output {out} --train {train}", r"wrote \S*report.json"),
    "report_without_files": (
        {}, "report --bootstrap 0 --no-progress --output {out}", r"\(or --demo\)",
        "report --bootstrap 0 --no-progress --output {out} --demo", r"wrote \S*report.json"),
    "demo_with_files": (
        {}, "score --demo {gold}", r"give either --demo or files", "score --demo",
        r"FB1:"),
    "data_without_train": (
        {}, "report --bootstrap 0 --no-progress --output {out} --data d1 {gold} --pred "
            "t={pred}", r"give it as the third value or with --train",
        "report --bootstrap 0 --no-progress --output {out} --data d1 {gold} --pred t={pred} "
        "--train {train}", r"wrote \S*experiment.json"),
    "data_without_pred": (
        {}, "report --bootstrap 0 --no-progress --output {out} --data d1 {gold} {train}",
        r"add --pred SYSTEM=FILE after it",
        "report --bootstrap 0 --no-progress --output {out} --data d1 {gold} {train} --pred "
        "t={pred}", r"wrote \S*experiment.json"),
    "pred_before_data": (
        {}, "report --bootstrap 0 --no-progress --output {out} --pred t={pred} --data d1 "
            "{gold} {train}", r"put it after --data NAME GOLD TRAIN, or write NAME:SYSTEM=FILE",
        "report --bootstrap 0 --no-progress --output {out} --pred d1:t={pred} --data d1 "
        "{gold} {train}", r"wrote \S*experiment.json"),
    "experiment_with_gold": (
        {}, "report {gold} --bootstrap 0 --no-progress --output {out} --data d1 {gold} "
            "{train} --pred t={pred}", r"leave out GOLD/PRED",
        "report --bootstrap 0 --no-progress --output {out} --data d1 {gold} {train} --pred "
        "t={pred}", r"wrote \S*experiment.json"),
    "runs_of_one_file": (
        {}, "buckets {gold} {pred} --train {train} --runs",
        r"--runs needs at least two PRED files",
        "buckets {gold} {pred} {gold} --train {train} --runs", r"Friedman test"),
    "corpus_stats_with_pred": (
        {}, "hardeval {gold} {pred} --train {train} --corpus-stats",
        r"give GOLD without PRED files", "hardeval {gold} --train {train} --corpus-stats",
        r"unseen mentions"),
    "corpus_stats_with_confusion": (
        {}, "hardeval {gold} --train {train} --corpus-stats --confusion",
        r"give GOLD without PRED files \(--confusion compares a system with GOLD\)",
        "hardeval {gold} {pred} --train {train} --confusion",
        r"gold \\ pred"),
    "confusion_with_overlaps_kept": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "faireval {gold} --generated {llm} --overlaps keep --confusion",
        r"confusion \(--confusion\) counts flat mentions, overlaps='keep' \(--overlaps keep\) "
        r"keeps nested and overlapping spans: give one of them$",
        "faireval {gold} --generated {llm} --confusion", r"gold \\ pred"),
    "n_buckets_one": (
        {}, "buckets {gold} {pred} --train {train} --n-buckets 1",
        r"--n-buckets: n_buckets must be at least 2", "buckets {gold} {pred} --train {train} --n-buckets 2",
        r"Self-diagnosis"),
    # one flag, one meaning per value: the hint is the command the value applies to
    "matching_strings_on_faireval": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "faireval {gold} --generated {llm} --matching strings",
        r"--matching strings does not apply to nerlens faireval: .*: nerlens score \S*gold.txt "
        r"--generated \S*llm.jsonl --matching strings$",
        "score {gold} --generated {llm} --matching strings", r"scored as strings"),
    "matching_strings_on_report": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "report {gold} --generated {llm} --train {train} --output {out} --matching strings",
        r"--matching strings does not apply to nerlens report: .*: nerlens score",
        "score {gold} --generated {llm} --matching strings", r"scored as strings"),
    "matching_optimal_is_pairing": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "faireval {gold} --generated {llm} --schemas semeval --matching optimal",
        r"--matching optimal is --pairing optimal since nerlens 0\.2 \(see nerlens faireval "
        r"--help\)$",
        "faireval {gold} --generated {llm} --schemas semeval --pairing optimal",
        r"SemEval-2013 schemas"),
    "overlaps_keep_on_hardeval": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "hardeval {gold} --generated {llm} --train {train} --overlaps keep",
        r"--overlaps keep does not apply to nerlens hardeval: .*only faireval scores.*: "
        r"nerlens faireval \S*gold.txt --generated \S*llm.jsonl --overlaps keep$",
        "faireval {gold} --generated {llm} --overlaps keep", r"FairEval scores"),
    "overlaps_keep_without_generated": (   # FILE.jsonl: the user's, here llm.jsonl
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "faireval {gold} {pred} --overlaps keep",
        r"overlaps='keep' \(--overlaps keep\) applies to generated output: give generated="
        r"\[FILE.jsonl\] \(nerlens faireval \S*gold.txt --generated FILE.jsonl --overlaps "
        r"keep\)$",
        "faireval {gold} --generated {llm} --overlaps keep", r"FairEval scores"),
    "script_universalner_on_buckets": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "buckets {gold} --generated {llm} --train {train} --script universalner",
        r"--script universalner does not apply to nerlens buckets: .*: nerlens score "
        r"\S*gold.txt --generated \S*llm.jsonl --matching strings --script universalner$",
        "score {gold} --generated {llm} --matching strings --script universalner",
        r"scored as strings"),
    "compat_universalner_is_script": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "score {gold} --generated {llm} --matching strings --compat universalner",
        r"--compat universalner is --script universalner since nerlens 0\.2 \(see nerlens "
        r"score --help\)$",
        "score {gold} --generated {llm} --matching strings --script universalner",
        r"scored as strings"),
    "compat_interpreteval_on_score": (
        {}, "score {gold} {pred} --compat interpreteval",
        r"--compat interpreteval does not apply to nerlens score: .*: nerlens buckets "
        r"--train TRAIN \S*gold.txt \S*pred.txt --compat interpreteval$",
        "buckets --train {train} {gold} {pred} --compat interpreteval", r"Self-diagnosis"),
    "word_overlap_without_strings": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "score {gold} --generated {llm} --word-overlap",
        r"--word-overlap does not apply to nerlens score: it counts word-overlap matches in "
        r"the string matching of generated output: nerlens score \S*gold.txt --generated "
        r"\S*llm.jsonl --matching strings --word-overlap$",
        "score {gold} --generated {llm} --word-overlap --matching strings",
        r"gold strings found"),
    "strings_with_pred": (
        {"llm.jsonl": '{"response": "[]"}\n{"response": "<LOC>Paris</LOC>"}\n'},
        "score {gold} {pred} --matching strings",
        r"--matching strings scores generated output: give it with --generated FILE.jsonl, "
        r"without PRED files \(nerlens score \S*gold.txt --generated FILE.jsonl --matching "
        r"strings\)$",
        "score {gold} --generated {llm} --matching strings", r"scored as strings"),
    "two_tag_columns": (   # a token, gold, prediction file as GOLD beside PRED (issue 37)
        {"system.txt": "John B-PER B-PER\nSmith I-PER O\nsaw O O\n\nParis B-LOC B-LOC\n"},
        "score {system} {pred}", r"--gold-tag-column 1 \(-1: the last\)",
        "score {system} {pred} --gold-tag-column 1", r"FB1: 100.00"),
    "character_offsets": (
        {"chars.jsonl": '{"text": "Ada met Bob", "spans": [{"label": "PER", "start": 0, '
                        '"end": 3}]}\n',
         "pipe.jsonl": '{"spans": [{"entity_group": "PER", "start": 0, "end": 3, "word": '
                       '"Ada", "score": 0.9}]}\n'},
        "score --jsonl {chars} {pipe}", r"offsets='chars' \(--offsets chars;",
        "score --jsonl {chars} {pipe} --offsets chars", r"FB1: 100.00"),
    "misspelt_key_of_generated_output": (
        {"misspelt.jsonl": '{"response": "[]", "sentense": 1}\n{"response": "[]", '
                           '"sentense": 0}\n',
         "answers.jsonl": '{"response": "[]", "sentence": 1}\n{"response": '
                          '"<PER>John Smith</PER>", "sentence": 0}\n'},
        "score {gold} --generated {misspelt}", r"did you mean 'sentence'\?",
        "score {gold} --generated {answers}", r"FB1:  66.67"),
    # scored predictions (issue 40): --threshold reads span files with scores
    "threshold_without_scored_predictions": (
        {"scored.jsonl": SCORED}, "score {gold} --threshold 0.5",
        r"give GOLD and PRED span files whose spans carry a \"score\" \(nerlens score GOLD "
        r"PRED.jsonl --threshold 0.5\)", "score {gold} {scored} --threshold 0.5",
        r"kept the mentions of confidence >= 0.5: 2 phrases; found: 1 phrases; correct: 1"),
    "threshold_with_confusion": (
        {"scored.jsonl": SCORED}, "score {gold} {scored} --threshold 0.5 --confusion",
        r"--confusion does not apply to scored predictions kept at --threshold: leave it out$",
        "score {gold} {scored} --threshold 0.5", r"FB1:  66.67"),
    "threshold_on_spans_without_scores": (
        {"unscored.jsonl": '{"spans": [[0, 2, "PER"]]}\n{"spans": []}\n',
         "scored.jsonl": SCORED},   # the hint: the spans as (start, end, label, score)
        "score {gold} {unscored} --threshold 0.5",
        r"unscored.jsonl:1, predictions, sentence 0: span 0 \(0, 2, 'PER'\) has no score: "
        r"scored predictions are \(start, end, label, score\)",
        "score {gold} {scored} --threshold 0.5", r"FB1:  66.67"),
    "sweep_generated_with_pred": (
        {"scored.jsonl": SCORED, "llm.jsonl": SCORED_LLM},
        "sweep {gold} {scored} --generated {llm}",
        r"a sweep is of one system: give GOLD .* and either PRED .* or one --generated file .* "
        r"\(nerlens sweep \S*gold.txt --generated \S*llm.jsonl\)$",
        "sweep {gold} --generated {llm}", r"average precision 100.00"),
    "suspects_scored_with_jsonl": (
        {"scored.jsonl": SCORED}, "suspects {gold} --scored {scored} --jsonl",
        r"scored files \(--scored\) are read against GOLD as a column file or a saved "
        r"split: leave jsonl \(--jsonl\) out$",
        "suspects {gold} --scored {scored} --min-systems 1", r"candidates"),
    "threshold_on_a_tag_file": (
        {}, "score {gold} {pred} --threshold 0.5",
        r"pred.txt: not a JSON Lines span file whose spans carry a \"score\"; a tag file "
        r"carries no confidence: score its tags \(nerlens score \S*gold.txt \S*pred.txt\)$",
        "score {gold} {pred}", r"FB1: 100.00"),
    "sweep_of_a_tag_file": (
        {}, "sweep {gold} {pred}", r"a tag file carries no confidence: score its tags "
                                   r"\(nerlens score \S*gold.txt \S*pred.txt\)$",
        "score {gold} {pred}", r"FB1: 100.00"),
    "sweep_of_two_generated_files": (
        {"llm.jsonl": SCORED_LLM, "other.jsonl": SCORED_LLM},
        "sweep {gold} --generated {llm} --generated {other}",
        r"a sweep is of one system: give GOLD .* and either PRED .* or one --generated file .* "
        r"\(nerlens sweep \S*gold.txt --generated \S*llm.jsonl\)$",
        "sweep {gold} --generated {llm}", r"average precision 100.00"),
}


@pytest.mark.parametrize("case", sorted(HINT_CASES))
def test_each_hint_of_an_error_leads_to_a_command_that_works(tmp_path, capsys, case):
    extra, bad, hint, followed, expected = HINT_CASES[case]
    paths = {name: str(path) for name, path in files(tmp_path).items()}
    paths["out"] = str(tmp_path / "out")
    for name, content in extra.items():
        path = tmp_path / name
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
        paths[path.stem] = str(path)
    code, out, err = run(capsys, [word.format(**paths) for word in bad.split()])
    check_one_line(code, err, hint)
    code, out, err = run(capsys, [word.format(**paths) for word in followed.split()])
    if isinstance(expected, tuple):
        check_one_line(code, err, expected[1])
    else:
        assert code == 0, err
        assert re.search(expected, out + err), out + err


# -- the file tools (issue 30) and the type flags -------------------------------------
FILE_TOOLS = {  # command -> its arguments after FILE (OUT for those that write)
    "validate": [], "count": [], "summarize": [],
    "repair": ["{out}"], "convert": ["{out}", "--to", "IOBES"],
}
SCHEME_FLAG = {"convert": "--from"}
# case -> (the file's content, None: missing; extra flags; message pattern; argparse-level)
FILE_CASES = {
    "missing_file": (None, [], r"error: \S*nope.txt: no such file$", False),
    "latin1": (GOLD.replace("Paris", "Pärïs").encode("latin-1"), [],
               r"gold.txt:5: not UTF-8 text: byte 0xe4 .*\(--encoding\), e.g. latin-1", False),
    "invalid_tag": (GOLD.replace("saw O", "saw -"), [],
                    r"gold.txt:3, tags, sentence 0, position 2: '-' is not a tag", False),
    "invalid_scheme": (GOLD, ["{scheme}", "BIOX"],
                       r"error: argument --(scheme|from): unknown tag scheme 'BIOX'; choose "
                       r"one of IOB1, IOB2", True),
    "map_types_syntax": (GOLD, ["--type-map", "PERSON"],
                         r"error: argument --type-map: expected SRC=DST\[,SRC=DST\] .*not "
                         r"'PERSON'", True),
    "map_types_empty_target": (GOLD, ["--type-map", "PERSON=PER,LOC="],
                               r"error: argument --type-map: expected SRC=DST", True),
    "kept_type_missing": (GOLD, ["--keep-types", "FOO"],
                          r"error: kept type 'FOO' occurs in no tag \(the types: LOC, PER\)$",
                          False),
    "removed_type_missing": (GOLD, ["--remove-types", "PER,MISC"],
                             r"error: removed type 'MISC' occurs in no tag", False),
    "keep_and_remove": (GOLD, ["--keep-types", "PER", "--remove-types", "LOC"],
                        r"error: keep_types \(--keep-types\) and remove_types \(--remove-types\) "
                        r"were both given: give one",
                        False),
    "mapped_type_in_another_case": (GOLD, ["--type-map", "per=X"],
                                    r"error: mapped type 'per' occurs in no tag \(the types: "
                                    r"LOC, PER\); 'per': did you mean 'PER'\? \(type names "
                                    r"are case-sensitive\)$", False),
    "kept_type_missing_with_a_map": (GOLD, ["--type-map", "LOC=GPE", "--keep-types", "FOO"],
                                     r"error: kept type 'FOO' occurs in no tag \(the types: "
                                     r"LOC, PER; by type_map: GPE\)$", False),
    "empty_keep_types": (GOLD, ["--keep-types", ","],
                         r"error: argument --keep-types: expected names separated by "
                         r"commas", True),
}


def file_tool_argv(command, tmp_path, content, extra):
    path = tmp_path / "gold.txt"
    if content is None:
        path = tmp_path / "nope.txt"
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    rest = [arg.format(out=tmp_path / "out.txt") for arg in FILE_TOOLS[command]]
    flags = [SCHEME_FLAG.get(command, "--scheme") if arg == "{scheme}" else arg
             for arg in extra]
    return [command, str(path), *rest, *flags]


@pytest.mark.parametrize("case,command", [(case, command) for case in sorted(FILE_CASES)
                                          for command in FILE_TOOLS])
def test_file_tools_bad_input_is_one_line(tmp_path, capsys, case, command):
    content, extra, message, usage = FILE_CASES[case]
    argv_ = file_tool_argv(command, tmp_path, content, extra)
    if usage:
        with pytest.raises(SystemExit) as exit_info:
            main(argv_)
        code = exit_info.value.code
        out, err = capsys.readouterr()
    else:
        code, out, err = run(capsys, argv_)
    check_one_line(code, err, message)
    assert out == ""
    assert not (tmp_path / "out.txt").exists()  # nothing half written


def test_convert_to_io_refuses_merging_unless_lossy(tmp_path, capsys):
    """Adjacent mentions of one type, which IO writes as one: one line naming the place
    and both remedies; ``--lossy`` merges them (counted), nothing else changes."""
    path = tmp_path / "gold.txt"
    path.write_text(GOLD.replace("Smith I-PER", "Smith B-PER"), encoding="utf-8")
    out = tmp_path / "out.txt"
    code, stdout, err = run(capsys, ["convert", str(path), str(out), "--to", "IO"])
    check_one_line(code, err, r"gold.txt:2, sentence 0, position 1: IO cannot write the PER "
                              r"mention at 1-2 apart from the one at 0-1 right before it: .* "
                              r"\(1 such pair in all\); convert to a scheme that parts them "
                              r"\(IOB2, IOBES, \.\.\.\), or merge them knowingly \(lossy=True, --lossy: "
                              r"the pairs merged are counted\)$")
    assert stdout == "" and not out.exists()
    code, stdout, err = run(capsys, ["convert", str(path), str(out), "--to", "IO", "--lossy"])
    assert code == 0 and "(IO; 1 merged pair)" in err and "note: 1 pair of adjacent" in err


TYPE_CASES = {  # the type flags on every scoring command
    "kept_type_missing": (["--keep-types", "FOO"],
                          r"error: kept type 'FOO' occurs in no tag \(the types: LOC, PER\)$"),
    "mapped_type_missing": (["--type-map", "PERSON=PER"],
                            r"error: mapped type 'PERSON' occurs in no tag"),
    "keep_and_remove": (["--keep-types", "PER", "--remove-types", "LOC"],
                        r"error: keep_types \(--keep-types\) and remove_types "
                        r"\(--remove-types\) were both given"),
    # tags: no type written so; generated output: gold's type written otherwise
    "mapped_type_in_another_case": (
        ["--type-map", "per=X"],
        r"error: mapped type 'per' (occurs in no tag \(the types: LOC, PER\); 'per': did you "
        r"mean 'PER'\? \(type names are case-sensitive\)|is gold's type 'PER' written "
        r"otherwise: .* write it as gold does \('PER'\))$"),
}


@pytest.mark.parametrize("case,command", [(case, command) for case in sorted(TYPE_CASES)
                                          for command in COMMANDS])
def test_type_flags_bad_input_is_one_line(tmp_path, capsys, case, command):
    extra, message = TYPE_CASES[case]
    paths = files(tmp_path)
    code, out, err = run(capsys, argv(command, tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], extra))
    check_one_line(code, err, message)
    assert out == ""


@pytest.mark.parametrize("case", sorted(TYPE_CASES))
def test_type_flags_with_matching_strings_bad_input_is_one_line(tmp_path, capsys, case):
    # string matching processes types as the grounded route does, with its errors
    extra, message = TYPE_CASES[case]
    paths = files(tmp_path)
    generated = tmp_path / "llm.jsonl"
    generated.write_text(PARIS + "\n" + json.dumps({"response": "[]"}) + "\n",
                         encoding="utf-8")
    code, out, err = run(capsys, ["score", str(paths["gold"]), "--generated", str(generated),
                                  "--matching", "strings", *extra])
    # a type named nowhere: named with the file whose strings were read beside gold's
    check_one_line(code, err, message.replace("error: ", "error: (generated 'llm': )?"))
    assert out == ""


# -- --generated FILE.jsonl (an LLM's responses) ----------------------------------------------
# A bad file is one line and exit 2, naming the file and line; what the model wrote wrongly
# is no error: counted (a note on stderr, repairs in the JSON) while the other sentence scores.
PARIS = json.dumps({"response": '[["Paris", "LOC"]]'})
GENERATED_FILE_CASES = {
    "not JSON": (["not json", PARIS], r"g.jsonl:1: not JSON: Expecting value"),
    "JSON of the wrong shape": (['["John", "PER"]', PARIS],
                                r'g.jsonl:1: expected an object with a "response"'),
    "tokens of the wrong shape": (
        [json.dumps({"response": "[]", "tokens": "John Smith saw"}),
         json.dumps({"response": "[]", "tokens": ["Paris"]})],
        r'g.jsonl:1: "tokens" must be a list of strings'),
    "another sentence's words": (
        [json.dumps({"response": "[]", "tokens": ["John", "Smith", "saw"]}),
         json.dumps({"response": "[]", "tokens": ["London"]})],
        r"g.jsonl:2: the line's words 'London' are not its gold sentence's 'Paris'"),
    "a line short": ([PARIS], r"g.jsonl: 1 response for 2 gold sentences"),
    "a sentence past the end": ([json.dumps({"response": "[]", "sentence": 7})],
                                r"g.jsonl:1: sentence 7 is past gold's last \(2 sentences\)"),
    "a misspelt key": ([json.dumps({"response": "[]", "sentense": 1}), PARIS],
                       r"g.jsonl:1: unknown key 'sentense' \(did you mean 'sentence'\?\); a "
                       r"line's keys are response, tokens, text, sentence"),
}
# case -> (the first sentence's response, the kind it is counted as)
GENERATED_MODEL_CASES = {
    "not JSON": ("I cannot help with that.", "parse_failures"),
    "JSON of the wrong shape": ("```json\n42\n```", "parse_failures"),
    "a type that is a number": ('[["John Smith", 5]]', "rejected"),
    "an empty string entity": ('[["", "PER"]]', "rejected"),
    "a response of 1 MB": (json.dumps([["x" * 1_000_000, "PER"]]), "ungrounded"),
    "an entity with a misspelt key": ('[{"txt": "John Smith", "type": "PER"}]', "rejected"),
    "a one-word response": ("None", "parse_failures"),
}


def generated_argv(command, tmp_path, paths, generated, extra=()):
    """``argv`` with the predictions given as --generated FILE instead of PRED."""
    args = argv(command, tmp_path, paths["gold"], paths["pred"], paths["train"], extra)
    args.remove(str(paths["pred"]))
    return args + ["--generated", str(generated)]


@pytest.mark.parametrize("case,command", [(case, command) for case in GENERATED_FILE_CASES
                                          for command in COMMANDS])
def test_bad_generated_file_gives_one_line_and_exit_2(tmp_path, capsys, case, command):
    lines, message = GENERATED_FILE_CASES[case]
    generated = tmp_path / "g.jsonl"
    generated.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, generated_argv(command, tmp_path, files(tmp_path), generated))
    check_one_line(code, err, message)
    assert out == ""


@pytest.mark.parametrize("command", COMMANDS)
def test_map_types_syntax_is_a_usage_error(tmp_path, capsys, command):
    paths = files(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(argv(command, tmp_path, paths["gold"], paths["pred"], paths["train"],
                  ["--type-map", "PERSON:PER"]))
    check_one_line(exit_info.value.code, capsys.readouterr().err,
                   r"error: argument --type-map: expected SRC=DST\[,SRC=DST\]")


@pytest.mark.parametrize("case,command", [(case, command) for case in GENERATED_MODEL_CASES
                                          for command in COMMANDS])
def test_a_models_mistake_is_counted_and_the_rest_scores(tmp_path, capsys, case, command):
    response, kind = GENERATED_MODEL_CASES[case]
    generated = tmp_path / "g.jsonl"
    generated.write_text(json.dumps({"response": response}) + "\n" + PARIS + "\n",
                         encoding="utf-8")
    extra = [] if command == "report" else ["--format", "json"]
    code, out, err = run(capsys, generated_argv(command, tmp_path, files(tmp_path), generated,
                                                extra))
    assert code == 0, err
    assert "Traceback" not in err and "note: g: 1 of " in err
    if command == "report":
        data = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
        result = data["results"]["g"]["entity"]
    else:
        result = json.loads(out)
    record = result["repairs"]["pred"]["generative"]
    assert record[kind] == 1 and record["usable"] == 1
    if command not in ("hardeval", "report"):
        # by hand: gold John Smith (PER) and Paris (LOC); Paris found, John Smith missed
        assert result["per_type"]["LOC"]["correct"] == 1 and result["recall"] == 0.5


@pytest.mark.parametrize("flags, named", [   # named as the API and the flag spell them
    (["--min-overlap", "0.5"], "min_overlap (--min-overlap) applies"),
    (["--pairing", "optimal", "--return-instances"],
     "pairing (--pairing), return_instances (--return-instances) apply"),
    (["--return-instances"], "return_instances (--return-instances) applies"),
    (["--pairing", "optimal", "--csv", "x.csv"], "--csv lists the instances of"),
])
def test_semeval_flags_without_schemas_are_refused(tmp_path, capsys, flags, named):
    paths = files(tmp_path)
    code, out, err = run(capsys, argv("faireval", tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], flags))
    check_one_line(code, err, re.escape(named) + r" (to )?the SemEval-2013 schemas: (give "
                                                 r"schemas='semeval' \(|add )--schemas semeval")
    assert out == ""


@pytest.mark.parametrize("value", ["0", "50"])
def test_min_overlap_outside_a_fraction_is_refused_naming_the_flag(tmp_path, capsys, value):
    # the field's check (faireval.semeval.check_min_overlap) as the flag is read
    paths = files(tmp_path)
    code, out, err = run(capsys, argv("faireval", tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], ["--schemas", "semeval",
                                                       "--min-overlap", value]))
    check_one_line(code, err, r"error: argument --min-overlap: min_overlap must be a fraction "
                              rf"of the gold span's tokens in \(0, 1\] .*not {value}\.0 \(see")
    assert out == ""


def test_suffix_with_span_files_is_refused(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"tokens": ["Ada"], "spans": [[0, 1, "PER"]]}\n', encoding="utf-8")
    code, _, err = run(capsys, ["score", "--jsonl", str(gold), str(gold), "--suffix"])
    check_one_line(code, err, r"suffix \(--suffix\) reads tags written type first "
                              r"\(PER-B\); JSON Lines spans \(--jsonl\) have types, not tags")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_suffix_tag_is_named_as_the_file_writes_it(tmp_path, capsys, command):
    paths = files(tmp_path)
    for name in ("gold", "pred", "train"):   # the same files, their tags written PER-B
        text = paths[name].read_text(encoding="utf-8")
        paths[name].write_text(re.sub(r"\b([BI])-(\w+)", r"\2-\1", text), encoding="utf-8")
    paths["pred"].write_text(good_pred("Paris LOC-X").replace("B-PER", "PER-B")
                             .replace("I-PER", "PER-I"), encoding="utf-8")
    code, out, err = run(capsys, argv(command, tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], ["--suffix"]))
    check_one_line(code, err, r"pred.txt:5, sentence 1: prediction tag 'LOC-X' \(read as "
                              r"'X-LOC', written type first\) is not a tag")


# -- generated output in an experiment: run 2 of system "llm" is the bad file -----------------
# Every bad file of --generated, as run 2 of "llm" on dataset d1 (--pred-generated, or the
# manifest's "generated"): the same message, naming the dataset and the run after the file.
def in_experiment(message: str) -> str:
    """A --generated message pattern (``g.jsonl[:LINE][, sentence K]: ...``) as the
    experiment words it: the dataset and the run named after the file and line."""
    return re.sub(r"^(g\.jsonl(?::\d+)?)((?:, sentence \d+)?): ",
                  r"\1, dataset 'd1', system 'llm#2'\2: ", message)


# case -> (run 2's lines, message, run 1's lines: None, two good lines or, when run 2
# names sentences, the same ones answered with nothing)
GENERATED_EXPERIMENT_CASES = {
    **{case: (lines, in_experiment(message), None)
       for case, (lines, message) in GENERATED_FILE_CASES.items()},
    # run 1 answers it first: its file is checked first
    "a sentence past the end": (GENERATED_FILE_CASES["a sentence past the end"][0],
                                r"g1.jsonl:1, dataset 'd1', system 'llm#1': sentence 7 is past "
                                r"gold's last \(2 sentences\)", None),
    "other sentences than run 1": ([json.dumps({"response": "[]", "sentence": 1})],
                                   r"g.jsonl, dataset 'd1', system 'llm#2': answers other "
                                   r"sentences than 'llm#1''s file",
                                   [json.dumps({"response": "[]", "sentence": 0})]),
    "indices where run 1 has none": ([json.dumps({"response": "[]", "sentence": 1})],
                                     r"g.jsonl, dataset 'd1', system 'llm#2': answers other "
                                     r"sentences than 'llm#1''s file",
                                     [PARIS.replace("Paris", "John"), PARIS]),
    "missing run": (None, r"error: \S*nope.jsonl: no such file \(dataset 'd1', system "
                          r"'llm#2'\)$", None),
}


def generated_experiment_argv(tmp_path, run2, run1_lines, form: str) -> list:
    """``report`` over dataset d1: tagger's run and llm's two runs, run 2 last."""
    paths = experiment_files(tmp_path)
    run1 = tmp_path / "g1.jsonl"
    if run1_lines is None:
        text = run2.read_text(encoding="utf-8") if run2.exists() else ""
        answered = [json.loads(line).get("sentence") for line in text.splitlines()
                    if '"sentence"' in line]
        run1_lines = ([json.dumps({"response": "[]", "sentence": k}) for k in answered]
                      if answered else [PARIS.replace("Paris", "John"), PARIS])
    run1.write_text("\n".join(run1_lines) + "\n", encoding="utf-8")
    common = ["report", "--no-progress", "--bootstrap", "0", "--output", str(tmp_path / "out")]
    if form == "data":
        return [*common, "--data", "d1", str(paths["gold"]), str(paths["train"]), "--pred",
                f"tagger={paths['run1']}", "--pred-generated", f"llm={run1}", f"llm={run2}"]
    manifest = tmp_path / "experiment.json"
    manifest.write_text(json.dumps({"d1": {
        "gold": paths["gold"].name, "train": paths["train"].name,
        "predictions": {"tagger": paths["run1"].name},
        "generated": {"llm": [run1.name, run2.name]}}}))
    return [*common, "--manifest", str(manifest)]


@pytest.mark.parametrize("form", ["data", "manifest"])
@pytest.mark.parametrize("case", sorted(GENERATED_EXPERIMENT_CASES))
def test_bad_generated_run_of_an_experiment_gives_one_line_and_exit_2(tmp_path, capsys, case,
                                                                      form):
    lines, message, run1_lines = GENERATED_EXPERIMENT_CASES[case]
    run2 = tmp_path / ("nope.jsonl" if lines is None else "g.jsonl")
    if lines is not None:
        run2.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, generated_experiment_argv(tmp_path, run2, run1_lines, form))
    check_one_line(code, err, message)
    assert out == ""


@pytest.mark.parametrize("argv, message", [
    (["--generated", "g1.jsonl"], r"error: an experiment .* leave out --generated \(give "
                                  r"--pred-generated\)$"),
    (["--pred-generated", "tagger=g1.jsonl"], r"error: --pred-generated tagger=g1.jsonl: "
                                              r"system 'tagger' has runs of --pred and of "
                                              r"--pred-generated on dataset 'd1'"),
    (["--pred-generated", "llm=g1.jsonl", "--type-map", "PER=person"],
     r"error: --keep-types, --remove-types and --type-map do not apply to the generated "
     r"output of an experiment"),
])
def test_bad_generated_declaration_gives_one_line_and_exit_2(tmp_path, capsys, monkeypatch,
                                                             argv, message):
    paths = experiment_files(tmp_path)
    (tmp_path / "g1.jsonl").write_text(PARIS + "\n" + PARIS + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, ["report", "--no-progress", "--bootstrap", "0", "--output",
                                  str(tmp_path / "out"), "--data", "d1", str(paths["gold"]),
                                  str(paths["train"]), "--pred", f"tagger={paths['run1']}",
                                  *argv])
    check_one_line(code, err, message)
    assert out == ""
# -- one flag, one meaning per value (--matching, --compat, --overlaps, --script) ------------
# (flag, value) -> the commands it applies to; on every other command: one line naming the
# flag, the value and the command
VALUE_COMMANDS = {("--matching", "strings"): ("score",), ("--overlaps", "keep"): ("faireval",),
                  ("--script", "universalner"): ("score",),
                  ("--compat", "interpreteval"): ("buckets",),
                  ("--word-overlap", None): ("score",)}
# a flag (and value) of 0.1 -> its spelling since 0.2, on every command
MOVED_FLAGS = {("--matching", "greedy"): "--pairing greedy",
               ("--matching", "optimal"): "--pairing optimal",
               ("--compat", "universalner"): "--script universalner",
               ("--partial", None): "--word-overlap", ("--map-types", "A=B"): "--type-map"}


@pytest.mark.parametrize("flag,value,command", [
    (flag, value, command) for (flag, value) in MOVED_FLAGS for command in COMMANDS])
def test_a_flag_of_0_1_names_its_new_spelling(tmp_path, capsys, flag, value, command):
    generated = tmp_path / "g.jsonl"
    generated.write_text(PARIS + "\n" + PARIS + "\n", encoding="utf-8")
    extra = [flag] + ([value] if value else [])
    try:   # a usage error of the parser, for a flag gone and for a value moved alike
        code = main(generated_argv(command, tmp_path, files(tmp_path), generated, extra))
    except SystemExit as exit_info:
        code = exit_info.code
    out, err = capsys.readouterr()
    shown = f"{flag} {value}" if value and flag != "--map-types" else flag
    # a moved value: argparse's "argument FLAG: " before the words
    check_one_line(code, err, rf"error: (argument {flag}: )?{shown} is "
                              rf"{MOVED_FLAGS[flag, value]} since nerlens 0\.2")
    assert out == ""


@pytest.mark.parametrize("flag,value,command", [
    (flag, value, command) for (flag, value), takers in VALUE_COMMANDS.items()
    for command in COMMANDS if command not in takers])
def test_a_value_on_a_command_it_does_not_apply_to(tmp_path, capsys, flag, value, command):
    generated = tmp_path / "g.jsonl"
    generated.write_text(PARIS + "\n" + PARIS + "\n", encoding="utf-8")
    extra = [flag] + ([value] if value else [])
    code, out, err = run(capsys, generated_argv(command, tmp_path, files(tmp_path), generated,
                                                extra))
    shown = f"{flag} {value}" if value else flag
    check_one_line(code, err, rf"error: {shown} does not apply to nerlens {command}: .*: "
                              rf"nerlens {VALUE_COMMANDS[flag, value][0]} ")
    assert out == ""


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "report"])
def test_the_default_values_given_change_nothing(tmp_path, capsys, command):
    generated = tmp_path / "g.jsonl"
    generated.write_text(PARIS + "\n" + PARIS + "\n", encoding="utf-8")
    paths = files(tmp_path)
    outputs = []
    for extra in ([], ["--matching", "grounded", "--overlaps", "drop"]):
        code, out, err = run(capsys, generated_argv(command, tmp_path, paths, generated,
                                                    ["--format", "json", *extra]))
        assert code == 0, err
        outputs.append(json.loads(out))
    assert outputs[0] == outputs[1]


# -- nerlens sweep: scored predictions (JSON Lines spans with a score each) -----------------
SCORED = '{"spans": [[0, 2, "PER", 0.9]]}\n{"spans": [[0, 1, "LOC", 0.4]]}\n'
SWEEP_CASES = {  # case -> (PRED's content, extra flags, message pattern)
    "score_above_one": ('{"spans": []}\n{"spans": [[0, 1, "LOC", 1.5]]}\n', [],
                        r"pred.jsonl:2, predictions, sentence 1: span 0 \(0, 1, 'LOC', 1.5\): "
                        r"1.5 is not a confidence \(a number in \[0, 1\]\)$"),
    "score_a_string": ('{"spans": []}\n{"spans": [[0, 1, "LOC", "high"]]}\n', [],
                       r"pred.jsonl:2, predictions, sentence 1: .*'high' \(str\) is not a "
                       r"confidence"),
    "no_score": ('{"spans": []}\n{"spans": [{"start": 0, "end": 1, "label": "LOC"}]}\n', [],
                 r"pred.jsonl:2, predictions, sentence 1: span 0 .* has no score: scored "
                 r"predictions need a confidence per span \('score'\)$"),
    "tuple_without_score": ('{"spans": []}\n{"spans": [[0, 1, "LOC"]]}\n', [],
                            r"pred.jsonl:2, predictions, sentence 1: span 0 \(0, 1, 'LOC'\) "
                            r"has no score"),
    "fewer_lines": ('{"spans": []}\n', [],
                    r"pred.jsonl: 1 line of spans, but \S*gold.txt holds 2 sentences: one "
                    r"line is needed per sentence"),
    "span_past_the_end": ('{"spans": []}\n{"spans": [[0, 3, "LOC", 0.5]]}\n', [],
                          r"pred.jsonl:2, predictions, sentence 1: span \(0, 3, 'LOC'\) "
                          r"reaches past the end of the sentence"),
    "not_json": ('{"spans": []}\nnope\n', [], r"pred.jsonl:2, sentence 1: not JSON"),
    "bad_dev_split": (SCORED, ["--choose-on", "GOLD", "BAD"],
                      r"bad.jsonl:2, predictions, sentence 1: span 0 \(0, 1, 'LOC', -0.1\): "
                      r"-0.1 is not a confidence"),
    "empty_dev_split": (SCORED, ["--choose-on", "GOLD", "EMPTY"],
                        r"choose_on \(--choose-on\): \S*empty.jsonl holds no scored mention to "
                        r"choose a threshold on$"),
    "demo_with_files": (SCORED, ["--demo"], r"--demo scores the embedded demo; GOLD, PRED "
                                            r"would be ignored"),
    "jsonl_with_a_scheme": (SCORED, ["--jsonl", "--scheme", "IOBES"],
                            r"JSON Lines spans \(--jsonl\) are scored as IOB2 "
                            r"tags: scheme \(--scheme\) applies to tag files$"),
    "missing_pred": (None, [], r"error: \S*nope.jsonl: no such file$"),
}


@pytest.mark.parametrize("case", sorted(SWEEP_CASES))
def test_bad_scored_predictions_give_one_line_and_exit_2(tmp_path, capsys, case):
    content, flags, message = SWEEP_CASES[case]
    gold = files(tmp_path)["gold"]
    pred = tmp_path / ("pred.jsonl" if content is not None else "nope.jsonl")
    if content is not None:
        pred.write_text(content, encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text(SCORED.replace("0.4", "-0.1"), encoding="utf-8")
    (tmp_path / "empty.jsonl").write_text('{"spans": []}\n' * 2, encoding="utf-8")
    named = {"GOLD": str(gold), "BAD": str(tmp_path / "bad.jsonl"),
             "EMPTY": str(tmp_path / "empty.jsonl")}
    code, _, err = run(capsys, ["sweep", str(gold), str(pred),
                                *[named.get(flag, flag) for flag in flags]])
    check_one_line(code, err, message)


@pytest.mark.parametrize("case", ["score_above_one", "no_score", "fewer_lines", "not_json",
                                  "span_past_the_end", "missing_pred"])
def test_a_bad_scored_system_of_a_report_gives_one_line_and_exit_2(tmp_path, capsys, case):
    """``nerlens report --scored FILE``: the same errors as ``nerlens sweep``'s PRED."""
    content, _, message = SWEEP_CASES[case]
    paths = files(tmp_path)
    scored = tmp_path / ("pred.jsonl" if content is not None else "nope.jsonl")
    if content is not None:
        scored.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, argv("report", tmp_path, paths["gold"], paths["pred"],
                                    paths["train"], ["--scored", str(scored)]))
    check_one_line(code, err, message)


def test_scored_systems_are_refused_with_the_demo_and_in_an_experiment(tmp_path, capsys):
    paths = files(tmp_path)
    scored = tmp_path / "scored.jsonl"
    scored.write_text(SCORED, encoding="utf-8")
    code, _, err = run(capsys, ["report", "--demo", "confidence", "--scored", str(scored)])
    check_one_line(code, err, r"--demo scores the embedded demo; --scored would be ignored")
    code, _, err = run(capsys, ["report", "--data", "d", str(paths["gold"]), str(paths["train"]),
                                "--pred", f"a={paths['pred']}", "--scored", str(scored),
                                "--output", str(tmp_path / "out")])
    check_one_line(code, err, r"an experiment .* reads every file from its declaration: leave "
                              r"out --scored \(give --pred-scored\)")


def test_layered_gold_is_refused_where_one_gold_column_is_read(tmp_path, capsys):
    """Two tag columns read as gold's layers: scored by ``score``, ``tough-mentions``,
    ``hardeval`` (each layer on its own), ``faireval`` (every layer's mentions),
    ``report`` (its nested view) and ``buckets`` (its mention attributes), refused where
    one gold column is read (``score --error-counts``) naming the option
    (never the first layer alone, silently)."""
    paths = files(tmp_path, "gold", GOLD.replace("B-PER\n", "B-PER B-PER\n")
                  .replace("I-PER\n", "I-PER O\n").replace("saw O\n", "saw O O\n")
                  .replace("B-LOC\n", "B-LOC B-LOC\n"))
    assert main(["score", str(paths["gold"]), str(paths["pred"]), "--layers", "1,2"]) == 0
    code, out, err = run(capsys, ["score", str(paths["gold"]), str(paths["pred"]),
                                  "--layers", "1,2", "--error-counts"])
    check_one_line(code, err, r"gold has 2 layers .*--error-counts")
    # local processes score the layers too, as one process does
    one = run(capsys, ["score", str(paths["gold"]), str(paths["pred"]), "--layers", "1,2",
                       "--format", "json"])
    two = run(capsys, ["score", str(paths["gold"]), str(paths["pred"]), "--layers", "1,2",
                       "--format", "json", "--workers", "2"])
    assert one[0] == 0 and one[1] and two == one
    for scored in ("tough-mentions", "hardeval", "faireval", "report"):
        assert main(argv(scored, tmp_path, paths["gold"], paths["pred"],
                         paths["train"], ["--layers", "1,2"])) == 0
    capsys.readouterr()  # the report's "wrote ..." line
    code, out, err = run(capsys, argv("buckets", tmp_path, paths["gold"], paths["pred"],
                                      paths["train"], ["--layers", "1,2"]))
    check_one_line(code, err, r"spans \(0, 2, 'PER'\) and \(0, 1, 'PER'\) nest: the token "
                              r"attribute tCon reads one label per token")
    assert main(argv("buckets", tmp_path, paths["gold"], paths["pred"], paths["train"],
                     ["--layers", "1,2", "--attributes", "eLen,sLen,eDen,eCon"])) == 0
