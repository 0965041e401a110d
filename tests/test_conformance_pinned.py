"""nerlens against the peers on cases written here, without ../shared.

tests/data/conformance.json holds small cases for every scheme (and random ones) with
the outputs of seqeval 1.2.2 and conlleval.pl 2004-01-26 on them, pinned by
tests/pin_conformance.py. seqeval is a test dependency, so it is also re-run live here.
"""
from __future__ import annotations

import json
import math
import random
import warnings
from pathlib import Path

import pytest

import nerspan
from nerlens.engines import score_corpus
from nerspan.conlleval import conlleval_text
from nerspan import PRED, Corpus, decode, read_columns

from .pin_conformance import seqeval_outputs

PINNED = json.loads((Path(__file__).parent / "data" / "conformance.json").read_text())
CASES = PINNED["cases"]
BY_NAME = {case["name"]: case for case in CASES}
# seqeval's default mode knows B, I, E and S: BILOU's U- and L- are no tags to it
DEFAULT_MODE_PEER = [c["name"] for c in CASES if c["scheme"] != "BILOU"]
STRICT_PEER = [c["name"] for c in CASES if "strict" in c["seqeval"]]
# conlleval.pl prints the empty type's row where nerlens prints it once (documented)
CONLLEVAL_TEXT = [c["name"] for c in CASES if "conlleval" in c and c["name"] != "iob2_untyped_tags"]


def nerlens_report(case: dict, mode: str) -> dict:
    """nerspan's scores in the shape of seqeval's classification_report dict."""
    result = nerspan.score(case["gold"], case["pred"], scheme=case["scheme"], mode=mode)
    d = result.to_dict()
    report = {(name or "_"): {"precision": row["precision"], "recall": row["recall"],
                              "f1-score": row["f1"], "support": row["support"]}
              for name, row in d["per_type"].items()}
    for average, prefix in (("micro avg", ""), ("macro avg", "macro_"),
                            ("weighted avg", "weighted_")):
        report[average] = {"precision": d[prefix + "precision"], "recall": d[prefix + "recall"],
                           "f1-score": d[prefix + "f1"], "support": d["gold"]}
    return report


def assert_same_report(ours: dict, theirs: dict):
    assert sorted(ours) == sorted(theirs)
    for row, values in theirs.items():
        for key, value in values.items():
            if math.isnan(value):
                # seqeval averages over no type at all to NaN; nerlens gives zero_division
                # (0 here) and lists the average among its undefined values
                assert row in ("macro avg", "weighted avg") and len(theirs) == 3, (row, key)
                assert ours[row][key] == 0.0
                continue
            assert ours[row][key] == pytest.approx(value, abs=1e-12), (row, key)


@pytest.mark.parametrize("name", DEFAULT_MODE_PEER)
def test_lenient_equals_seqeval_default_mode(name):
    case = BY_NAME[name]
    assert_same_report(nerlens_report(case, "lenient"), case["seqeval"]["default"])


def random_bilou(rng: random.Random, lengths: list) -> list:
    """Sentences of BILOU tags of these lengths, valid sequences and invalid ones alike."""
    tags = ["O"] + [f"{p}-{t}" for p in "BILU" for t in ("PER", "LOC")]
    return [[rng.choice(tags) for _ in range(n)] for n in lengths]


def as_iobes(sentences: list) -> list:
    return [[{"L": "E", "U": "S"}.get(tag[0], tag[0]) + tag[1:] for tag in s] for s in sentences]


@pytest.mark.parametrize("seed", range(3))
def test_bilou_is_read_as_iobes_l_as_e_and_u_as_s(seed):
    """On BILOU data lenient mode is seqeval's default mode with L- read as E- and U- as S-
    (that mode itself does not know L- and U-), and strict mode is seqeval's strict BILOU."""
    from seqeval import scheme as schemes
    from seqeval.metrics import classification_report

    rng = random.Random(seed)
    lengths = [rng.randint(1, 9) for _ in range(300)]
    gold, pred = random_bilou(rng, lengths), random_bilou(rng, lengths)
    case = {"gold": gold, "pred": pred, "scheme": "BILOU"}
    peer = classification_report(as_iobes(gold), as_iobes(pred), output_dict=True,
                                 zero_division=0)
    assert_same_report(nerlens_report(case, "lenient"), json.loads(json.dumps(peer, default=float)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # strict discards chunks of random tags, and says so
        strict = classification_report(gold, pred, output_dict=True, zero_division=0,
                                       mode="strict", scheme=schemes.BILOU)
        assert_same_report(nerlens_report(case, "strict"),
                           json.loads(json.dumps(strict, default=float)))


def test_seqevals_default_mode_does_not_read_l_and_u():
    """The documented difference: seqeval's default mode knows B-, I-, E- and S- only. On
    raw BILOU tags it merges neighbouring U- mentions, loses a mention that a B- of its
    type follows, and can report one twice; nerlens reads L- as E- and U- as S-."""
    from seqeval.metrics.sequence_labeling import get_entities

    # seqeval's ends are inclusive, nerlens's exclusive
    cases = [(["U-PER", "U-PER"], [("PER", 0, 1)], [("PER", 0, 1), ("PER", 1, 2)]),
             (["B-PER", "L-PER", "B-PER", "L-PER"], [("PER", 2, 3)],
              [("PER", 0, 2), ("PER", 2, 4)]),
             (["B-PER", "E-PER", "L-PER", "O"], [("PER", 0, 1), ("PER", 0, 2)],
              [("PER", 0, 2), ("PER", 2, 3)])]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # seqeval: "L-PER seems not to be NE tag"
        for tags, theirs, ours in cases:
            corpus = Corpus.from_tags([tags])
            assert get_entities(tags) == theirs
            assert decode(corpus, "gold", "BILOU").to_list(corpus) == [ours]


@pytest.mark.parametrize("name", STRICT_PEER)
def test_strict_equals_seqeval_strict_mode(name):
    case = BY_NAME[name]
    assert_same_report(nerlens_report(case, "strict"), case["seqeval"]["strict"])


def test_pinned_seqeval_outputs_are_seqevals_today():
    """The differential test proper: seqeval re-run now gives the pinned outputs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval warns about tags it does not know
        for case in CASES:
            assert seqeval_outputs(case) == case["seqeval"], case["name"]


def score_as_conlleval(case: dict) -> dict:
    corpus = Corpus.from_tags(case["gold"], case["pred"])
    return score_corpus(corpus, [PRED], scheme=case["scheme"])[PRED]


@pytest.mark.parametrize("name", CONLLEVAL_TEXT)
def test_printed_report_is_conllevals(name):
    case = BY_NAME[name]
    assert conlleval_text(score_as_conlleval(case)) + "\n" == case["conlleval"]


def test_untyped_tags_counts_are_conllevals():
    """conlleval.pl prints the empty type's row twice; the counts and scores agree."""
    case = BY_NAME["iob2_untyped_tags"]
    ours = conlleval_text(score_as_conlleval(case)).splitlines()
    theirs = case["conlleval"].splitlines()
    assert ours[:2] == theirs[:2]
    assert set(ours[2:]) == set(theirs[2:]) and len(theirs) == len(ours) + 1


def test_iobes_b_after_e_is_two_mentions_as_in_seqeval():
    """conlleval.pl (2004) would continue the chunk at B- after E-; nerlens and seqeval
    start a new mention (documented difference)."""
    case = BY_NAME["iobes_e_then_b"]
    corpus = Corpus.from_tags(case["gold"])
    assert decode(corpus, "gold", "IOBES").to_list(corpus) == [[("MISC", 0, 2), ("MISC", 2, 4)]]
    assert case["seqeval"]["default"]["MISC"]["support"] == 2


def test_docstart_lines_change_only_conllevals_token_count(tmp_path):
    """conlleval.pl reads each -DOCSTART- line as an O/O token (documented difference):
    its token count and accuracy include them, its phrase counts and scores agree."""
    pinned = PINNED["files"]["docstart_lines"]
    path = tmp_path / "docstart.txt"
    path.write_text(pinned["text"])
    got = score_corpus(read_columns(path, {"gold": -2, PRED: -1}), [PRED])[PRED]
    ours, theirs = conlleval_text(got).splitlines(), pinned["conlleval"].splitlines()
    docstarts = pinned["text"].count("-DOCSTART-")
    assert docstarts == 2 and got["tokens"] == 5
    assert theirs[0] == ours[0].replace("processed 5 tokens", f"processed {5 + docstarts} tokens")
    assert theirs[1].split("; ", 1)[1] == ours[1].split("; ", 1)[1]  # all but the accuracy
    assert theirs[2:] == ours[2:]
