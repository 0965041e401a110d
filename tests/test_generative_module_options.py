"""The evaluate modules take generated output's options under the API's names
(``matching``, ``overlaps``, ``occurrences``, ``fuzzy``): faireval keeps overlapping
spans with ``overlaps="keep"`` at load time or compute, as ``faireval.score`` does;
``matching="grounded"`` is every module's default; what no family scores (``matching=
"strings"`` and its ``script="universalner"``, ``word_overlap=True``, which are
``nerspan.score``'s) is an error saying where it applies, never ignored; their 0.1 names
(``compat``, ``partial``) are an error naming the new ones."""
from __future__ import annotations

import evaluate
import pytest

import faireval

from .conftest import REPO

GOLD = [["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC"], ["B-LOC", "O", "B-LOC"]]
TOKENS = [["John", "Smith", "saw", "the", "Paris", "Gazette"], ["Paris", "and", "Paris"]]
# Smith inside John Smith, Paris inside Paris Gazette, Atlantis nowhere
NESTED = ['[["John Smith", "PER"], ["Smith", "PER"], ["Paris Gazette", "LOC"], '
          '["Paris", "LOC"], ["Atlantis", "LOC"]]', "<LOC>Paris</LOC> and Paris"]
TRAIN = dict(train=(TOKENS, GOLD))
MODULES = {"faireval": {}, "hardeval": TRAIN, "tough_mentions": TRAIN,
           "attribute_buckets": TRAIN}


def load(module, **options):
    return evaluate.load(str(REPO / "metrics" / module), **MODULES[module], **options)


def test_faireval_module_keeps_overlaps_as_the_api():
    api = faireval.score(GOLD, NESTED, tokens=TOKENS, inputs={'overlaps': "keep"}).to_dict()
    # by hand: TP John Smith, Paris Gazette, sentence 1's two Paris; FP Smith, the inner
    # Paris and Atlantis (dropped by default but for Atlantis, which has no span)
    assert api["traditional_counts"] == {"TP": 4, "FP": 3, "FN": 0}
    at_compute = load("faireval", tokens=TOKENS).compute(predictions=NESTED, references=GOLD,
                                                         overlaps="keep")
    at_load = load("faireval", tokens=TOKENS, overlaps="keep").compute(predictions=NESTED,
                                                                       references=GOLD)
    for got in (at_compute, at_load):
        assert got["traditional_counts"] == api["traditional_counts"]
        assert got["f1"] == api["f1"] and got["fair_f1"] == api["fair_f1"]
    dropped = load("faireval", tokens=TOKENS).compute(predictions=NESTED, references=GOLD)
    assert dropped["traditional_counts"] == {"TP": 4, "FP": 1, "FN": 0}


def test_faireval_takes_grounded_as_every_family_does():
    default = faireval.score(GOLD, NESTED, tokens=TOKENS, schemas="semeval").to_dict()
    grounded = faireval.score(GOLD, NESTED, tokens=TOKENS, schemas="semeval",
                              inputs={'matching': "grounded"}).to_dict()
    assert grounded == default and grounded["options"]["pairing"] == "greedy"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_grounds_and_refuses_string_matching(module):
    metric = load(module)
    default = metric.compute(predictions=NESTED, references=GOLD, tokens=TOKENS)
    grounded = metric.compute(predictions=NESTED, references=GOLD, tokens=TOKENS,
                              matching="grounded")
    assert grounded == default
    refused = {"word_overlap": True, "script": "universalner"}
    for name, value in refused.items():
        with pytest.raises(ValueError, match=rf"^{name}={value!r} is nerspan.score's, .*the "
                                             rf"{module} module grounds generated output"):
            metric.compute(predictions=NESTED, references=GOLD, tokens=TOKENS,
                           **{name: value})
        with pytest.raises(ValueError, match=rf"the {module} module grounds"):
            load(module, **{name: value})
    for old, new in (("partial", "'word_overlap': True"), ("compat", "'script': 'universalner'")):
        with pytest.raises(TypeError, match=rf"the {module} module takes no {old} since "
                                            rf"nerlens 0\.2: inputs=\{{{new}\}}"):
            metric.compute(predictions=NESTED, references=GOLD, tokens=TOKENS,
                           **{old: refused["word_overlap" if old == "partial" else "script"]})
    with pytest.raises(ValueError, match=r'matching="strings" compares sets'):
        metric.compute(predictions=NESTED, references=GOLD, tokens=TOKENS, matching="strings")
    if module != "faireval":
        with pytest.raises(ValueError, match=r'overlaps="keep" keeps nested and overlapping'):
            metric.compute(predictions=NESTED, references=GOLD, tokens=TOKENS,
                           overlaps="keep")
