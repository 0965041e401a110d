"""Differential test on the 15 real CoNLL-2003 outputs: nerlens equals seqeval."""
from __future__ import annotations

import pytest
from seqeval.metrics import classification_report, f1_score
from seqeval.scheme import IOB2

import nerspan
from nerspan import read_system_file

from .conftest import DATA, shared_path

SYSTEMS = sorted((DATA / "conll03" / "systems").glob("*.txt")) if (DATA / "conll03").exists() else []


def as_lists(corpus, column):
    return [corpus.tags(column, i) for i in range(corpus.n_sentences)]


@pytest.mark.parametrize("path", SYSTEMS or [pytest.param(None, marks=pytest.mark.skip("no data"))],
                         ids=lambda p: p.stem if p else "none")
def test_conll03_system_equals_seqeval(path):
    shared_path("data", "conll03", "systems")
    corpus = read_system_file(path)
    y_true, y_pred = as_lists(corpus, "gold"), as_lists(corpus, "pred")
    for mode, seqeval_kwargs in (("lenient", {}), ("strict", {"mode": "strict", "scheme": IOB2})):
        ours = nerspan.score(corpus, mode=mode).to_dict()
        assert ours["f1"] == pytest.approx(f1_score(y_true, y_pred, **seqeval_kwargs), abs=1e-9)
        report = classification_report(y_true, y_pred, output_dict=True, **seqeval_kwargs)
        for entity_type, row in ours["per_type"].items():
            theirs = report[entity_type]
            assert row["precision"] == pytest.approx(theirs["precision"], abs=1e-9)
            assert row["recall"] == pytest.approx(theirs["recall"], abs=1e-9)
            assert row["f1"] == pytest.approx(theirs["f1-score"], abs=1e-9)
            assert row["support"] == theirs["support"]
        for average in ("macro", "weighted"):
            theirs = report[f"{average} avg"]
            assert ours[f"{average}_precision"] == pytest.approx(theirs["precision"], abs=1e-9)
            assert ours[f"{average}_recall"] == pytest.approx(theirs["recall"], abs=1e-9)
            assert ours[f"{average}_f1"] == pytest.approx(theirs["f1-score"], abs=1e-9)


def test_published_f1_in_file_names():
    """Each file name carries its published F1 x 100; ours agrees to the printed digits
    (the SpanNER span models were converted to BIO, so they may differ slightly)."""
    shared_path("data", "conll03", "systems")
    for path in SYSTEMS:
        published = int(path.stem.rsplit("_", 1)[1]) / 100
        ours = 100 * nerspan.score(read_system_file(path)).micro()[2]
        assert abs(ours - published) < 0.1, path.stem
