"""The embedded generative demo: LLM-style responses written for 24 WNUT-17 test
sentences (nerlens/data/wnut17/generative_responses.jsonl), of every kind generated
output comes in; its numbers are pinned."""
from __future__ import annotations

import nerspan
from nerlens.demo import demo_gold, demo_path
from nerspan.generative import (add_ungrounded, ground, read_generated_jsonl, read_response,
                                score_strings)

WNUT_TYPES = {"person", "location", "corporation", "product", "creative-work", "group"}


def demo():
    read = read_generated_jsonl(demo_path("generative_responses.jsonl"))
    corpus = nerspan.read_columns(demo_gold())
    mentions = nerspan.decode(corpus, "gold", "IOB2", "lenient").to_list(corpus)
    gold = [[(a, b, t) for t, a, b in mentions[i]] for i in read["sentences"]]
    return read, corpus, gold


def test_every_line_answers_its_test_sentence():
    read, corpus, _ = demo()
    assert len(read["responses"]) == 24
    for k, i in enumerate(read["sentences"]):
        assert read["tokens"][k] == corpus.sentence_tokens(i)
        assert read["texts"][k] == " ".join(corpus.sentence_tokens(i))


def test_the_demo_holds_every_kind_of_response():
    responses = demo()[0]["responses"]
    kinds = {"entity list": [r for r in responses if isinstance(r, list)],
             "type dict": [r for r in responses if isinstance(r, dict)],
             "code fence": [r for r in responses if isinstance(r, str) and "```" in r],
             "markup": [r for r in responses if isinstance(r, str) and "</" in r],
             "prose and JSON": [r for r in responses if isinstance(r, str)
                                and r[:1] not in "[{`" and "[" in r and "</" not in r],
             "pairs": [r for r in responses if isinstance(r, str) and r.startswith("[[")],
             "failures": [r for r in responses if read_response(r)[1] is not None]}
    assert all(kinds.values()), {k: len(v) for k, v in kinds.items()}


def test_the_demo_numbers():
    read, _, gold = demo()
    found = ground(read["responses"], texts=read["texts"], types=WNUT_TYPES)
    r = found.repairs
    assert (r.responses, r.entities, r.usable, r.spans) == (24, 38, 32, 34)
    assert {kind: len(getattr(r, kind)) for kind in (
        "parse_failures", "rejected", "unknown_types", "duplicates", "ungrounded",
        "dropped_overlaps")} == {"parse_failures": 3, "rejected": 2, "unknown_types": 2,
                                 "duplicates": 1, "ungrounded": 4, "dropped_overlaps": 1}
    assert r.levels == {"exact": 27, "case_insensitive": 5, "normalised": 1, "fuzzy": 0}
    assert r.summary() == (
        "32 of 38 entities usable (84%); 3 of 24 responses unreadable; 2 items rejected; "
        "2 entities of an unknown type; 1 entity listed twice; 4 entities ungrounded; "
        "1 overlapping span dropped")
    scores = nerspan.score(gold, found.spans, tokens=read["tokens"])
    d = scores.to_dict()
    assert (d["gold"], d["predicted"], d["correct"]) == (43, 34, 29)
    adjusted = add_ungrounded(scores, found.repairs).to_dict()
    assert (adjusted["predicted"], adjusted["correct"]) == (38, 29)
    assert adjusted["precision"] == 29 / 38
    strings = score_strings(gold, read["responses"], tokens=read["tokens"]).to_dict()
    assert (strings["gold"], strings["predicted"], strings["correct"]) == (41, 37, 27)
