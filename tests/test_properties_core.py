"""Property tests of the core (hypothesis), with seqeval as the oracle where it has one."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics.sequence_labeling import get_entities
from seqeval.scheme import BILOU, IOB1, IOB2, IOBES, IOE1, IOE2, Tokens

import nerspan
from nerspan import Corpus, decode
from nerspan.schemes import get_scheme

TYPES = ["PER", "LOC", "X-Y"]
SEQEVAL_SCHEMES = {"IOB1": IOB1, "IOB2": IOB2, "IOE1": IOE1, "IOE2": IOE2, "IOBES": IOBES,
                   "BILOU": BILOU}
ALL_SCHEMES = list(SEQEVAL_SCHEMES) + ["IO", "BMES"]
# random tags under strict mode lose most chunks on purpose: the warning is expected here
pytestmark = pytest.mark.filterwarnings("ignore::nerspan.DecodingWarning")


def tags_of(scheme: str):
    letters = [letter for letter in get_scheme(scheme).prefixes if letter != "O"]
    return st.sampled_from(["O"] + [f"{letter}-{t}" for letter in letters for t in TYPES])


def sentences(scheme: str, max_sentences: int = 6):
    return st.lists(st.lists(tags_of(scheme), min_size=0, max_size=12),
                    min_size=1, max_size=max_sentences)


def as_set(spans, corpus):
    return {(s, t, a, b) for s, sent in enumerate(spans.to_list(corpus)) for t, a, b in sent}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL_SCHEMES).flatmap(lambda s: st.tuples(st.just(s), sentences(s))))
def test_random_sequences_never_crash_and_strict_equals_seqeval(case):
    scheme, sents = case
    corpus = Corpus.from_tags(sents)
    strict = decode(corpus, "gold", scheme, "strict")
    lenient = decode(corpus, "gold", scheme, "lenient")
    for spans in (strict, lenient):
        assert np.all(spans.start < spans.end)
        assert np.all(spans.end[:-1] <= spans.start[1:])  # sorted, never overlapping
    if scheme in SEQEVAL_SCHEMES:
        theirs = {(i, e.tag, e.start, e.end) for i, sent in enumerate(sents)
                  for e in Tokens(sent, SEQEVAL_SCHEMES[scheme]).entities}
        ours = {(s, t or "_", a, b) for s, t, a, b in as_set(strict, corpus)}
        assert ours == theirs


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["IOB1", "IOB2", "IOE1", "IOE2", "IOBES"]).flatmap(
    lambda s: st.tuples(st.just(s), sentences(s))))
def test_lenient_equals_seqeval_default_mode(case):
    scheme, sents = case
    corpus = Corpus.from_tags(sents)
    ours = {(t or "_", a, b) for s, t, a, b in as_set(decode(corpus, "gold", scheme), corpus)
            for a, b in [(a + int(corpus.offsets[s]) + s, b + int(corpus.offsets[s]) + s - 1)]}
    # seqeval joins sentences with an "O" between them: offsets shift by one per sentence
    theirs = set(get_entities([list(sent) for sent in sents]))
    assert ours == theirs


def encode(spans, n, scheme):
    """Tags for non-overlapping ``(type, start, end)`` spans under ``scheme`` (valid input)."""
    tags = ["O"] * n
    previous = None
    for t, a, b in spans:
        adjacent_same = previous is not None and previous[2] == a and previous[0] == t
        for k in range(a, b):
            tags[k] = f"I-{t}"
        if scheme == "IOB2":
            tags[a] = f"B-{t}"
        elif scheme == "IOB1" and adjacent_same:
            tags[a] = f"B-{t}"
        elif scheme == "IOE2":
            tags[b - 1] = f"E-{t}"
        elif scheme == "IOE1" and adjacent_same:
            tags[previous[2] - 1] = f"E-{t}"
        elif scheme in ("IOBES", "BILOU", "BMES"):
            single, begin, inside, end = {"IOBES": "SBIE", "BILOU": "UBIL", "BMES": "SBME"}[scheme]
            if b - a == 1:
                tags[a] = f"{single}-{t}"
            else:
                tags[a] = f"{begin}-{t}"
                for k in range(a + 1, b - 1):
                    tags[k] = f"{inside}-{t}"
                tags[b - 1] = f"{end}-{t}"
        previous = (t, a, b)
    return tags


@st.composite
def valid_sentence(draw, scheme):
    n = draw(st.integers(1, 12))
    spans, position = [], 0
    while position < n:
        if draw(st.booleans()):
            length = draw(st.integers(1, min(3, n - position)))
            t = draw(st.sampled_from(TYPES))
            if scheme == "IO" and spans and spans[-1][2] == position and spans[-1][0] == t:
                position += 1  # IO cannot separate adjacent mentions of one type
                continue
            spans.append((t, position, position + length))
            position += length
        else:
            position += 1
    return spans, encode(spans, n, scheme)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(ALL_SCHEMES).flatmap(
    lambda s: st.tuples(st.just(s), st.lists(valid_sentence(s), min_size=1, max_size=5))))
def test_valid_input_strict_subset_of_lenient_and_both_recover_spans(case):
    scheme, items = case
    corpus = Corpus.from_tags([tags for _, tags in items])
    strict = as_set(decode(corpus, "gold", scheme, "strict"), corpus)
    lenient_spans = decode(corpus, "gold", scheme, "lenient")
    lenient = as_set(lenient_spans, corpus)
    expected = {(s, t, a, b) for s, (spans, _) in enumerate(items) for t, a, b in spans}
    assert strict <= lenient
    if scheme == "IOE1":
        # seqeval's strict IOE1 (which strict mode reproduces) cannot start a mention at
        # an E- right after O (a one-token mention before an adjacent one of its type).
        assert strict <= expected
    else:
        assert strict == expected
    if scheme not in ("IOB1", "IOE1"):  # lenient reads IOB1/IOE1 as conlleval.pl does
        assert lenient == expected
        assert lenient_spans.repairs.total == 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL_SCHEMES).flatmap(
    lambda s: st.tuples(st.just(s), st.lists(st.tuples(*(st.lists(tags_of(s), min_size=3, max_size=3),) * 2),
                                             min_size=1, max_size=8))),
       st.randoms(use_true_random=False), st.sampled_from(["lenient", "strict"]))
def test_scores_in_unit_interval_and_invariant_to_sentence_order(case, rnd, mode):
    scheme, pairs = case
    refs = [r for r, _ in pairs]
    preds = [p for _, p in pairs]
    result = nerspan.score(refs, preds, scheme=scheme, mode=mode).to_dict()
    order = list(range(len(pairs)))
    rnd.shuffle(order)
    shuffled = nerspan.score([refs[i] for i in order], [preds[i] for i in order],
                             scheme=scheme, mode=mode).to_dict()
    for key in ("precision", "recall", "f1", "macro_f1", "weighted_f1"):
        assert 0.0 <= result[key] <= 1.0
        assert shuffled[key] == result[key]
    assert shuffled["per_type"] == result["per_type"]
    assert result["correct"] <= min(result["gold"], result["predicted"])
