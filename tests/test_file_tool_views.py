"""The file tools' text views are the library's (``Validation.text``, ``Change.message``,
``Retagged.counts_text``, ``nerspan.counts.count_text`` and ``summary_blocks``): what
``nerlens validate``, ``repair``, ``count`` and ``summarize`` print, without seqscore."""
from __future__ import annotations

import contextlib
import io

from nerspan.counts import count, count_text, summarize, summary_blocks
from nerspan.encodings import repair
from nerspan.validation import validate
from nerlens.cli import main
from nerlens.report import blocks

TEXT = "-DOCSTART- O\n\nAna B-PER\nLima I-PER\nin O\nRio I-LOC\n\nKim B-ORG\nwon O\n"


def nerlens(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def test_the_file_tools_print_the_library_s_views(tmp_path):
    path = tmp_path / "tags.txt"
    path.write_text(TEXT, encoding="utf-8")
    found = validate(str(path), "IOB2")
    assert nerlens("validate", path) == (1, found.text() + "\n", "")
    assert found.text().splitlines()[-1] == (f"{path}: 1 problem(s) under IOB2 (1 document(s), "
                                             "2 sentence(s), 6 token(s))")
    fixed = repair(str(path), "IOB2", "conlleval")
    code, out, err = nerlens("repair", path, tmp_path / "out.txt")
    assert out == "".join(change.message() + "\n" for change in fixed.changes)
    assert err == f"wrote {tmp_path / 'out.txt'} ({fixed.counts_text()})\n"
    assert fixed.counts_text() == ("IOB2; 1 invalid transition, 1 changed tag, 3 chunks, "
                                   "0 discarded chunks")
    rows = count(str(path), repair="conlleval")
    assert nerlens("count", path, "--repair", "conlleval")[1] == count_text(rows) + "\n"
    assert count_text(rows).splitlines()[0] == "1\tPER\tAna Lima"
    summary = summarize(str(path), repair="conlleval")
    assert nerlens("summarize", path, "--repair", "conlleval")[1] == \
        blocks.text(summary_blocks(summary, str(path))) + "\n"
