"""``nerlens report --workers N`` and ``build_report(..., workers=N)``: the families
scored from partials merged across N local processes give the one-process report, on gold
with layers too; an input error in one block is the one clear error naming the global
sentence, never a report of the other blocks; a family whose partials refuse gold that
nests is named; a system of generated output is scored from partials too.
"""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

import nerlens
import nerspan
from nerlens.cli import main
from nerlens.families import get_family, register_family, unregister_family
from nerlens.report.statistics import keeps_sentences, merged_results
from nerspan import GOLD, Corpus
from nerspan.errors import InputTypeError, InvalidTagError
from nerspan.layers import layer_column, refuse_layers
from nerspan.reading.systems import read_systems

from .conftest import shared_path
from .engine_cases import TRAIN, corpus
from .test_germeval_layers import FLAGS
from .test_report_nesting import GERMEVAL_SYSTEMS


def _without_date(report: str) -> str:
    """The report's JSON less the one field that says when it was made (as text: NaN
    compares equal to NaN)."""
    data = json.loads(report)
    del data["info"]["provenance"]["date"]
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("demo", ["spacy", "generative"])
def test_the_demo_reports_with_two_workers_equal_one(tmp_path, capsys, demo):
    """The demo's two systems (and the generative demo's, which answers some of gold's
    sentences) give the same report.json with --workers 2 as with 1, tough_mentions'
    results and bootstrap intervals included (scored from partials in the workers)."""
    reports = []
    for workers in ("1", "2"):
        folder = tmp_path / workers
        assert main(["report", "--demo", demo, "--bootstrap", "50", "--output", str(folder),
                     "--workers", workers]) == 0
        reports.append(_without_date((folder / "report.json").read_text()))
    capsys.readouterr()
    assert reports[0] == reports[1]
    intervals = json.loads(reports[0])["intervals"]["spacy_sm"]   # compared, not absent
    assert "tough_mentions" in json.loads(reports[0])["info"]["families"]
    assert keeps_sentences(get_family("tough_mentions"))
    assert "tough_mentions.recall_unseen_any" in intervals


def _systems(n_sentences: int) -> tuple:
    gold, pred, words = corpus(n_sentences, seed=3)
    other = [tags[::-1] for tags in pred]
    third = [tags[1:] + tags[:1] for tags in gold]
    return gold, words, {"a": pred, "b": other, "c": third}


def test_a_multi_system_report_with_three_workers_equals_one_process():
    """Three systems of a corpus cut into several blocks (repairs in each): every
    family's result, estimate, bootstrap interval and comparison as in one process, the
    families that merge with per-sentence counts (every built-in one, tough_mentions
    included) taken from the partials."""
    gold, words, systems = _systems(400)
    reports = [nerlens.build_report(gold, systems, TRAIN, tokens=words, bootstrap=100,
                                    seed=4, figures=False, workers=workers).to_json()
               for workers in (1, 3)]
    assert _without_date(reports[0]) == _without_date(reports[1])
    merging = [name for name in json.loads(reports[0])["info"]["families"]
               if keeps_sentences(get_family(name))]
    assert {"tough_mentions", "hardeval", "faireval", "attribute_buckets"} <= set(merging)


def _refusing_partial(references, predictions=None, *, sentence_ids=None,
                      per_sentence: bool = False, **options):
    """hardeval's partial, refusing a sentence holding the word ``BAD`` (an input error
    that only the family sees, so that it is raised inside a worker)."""
    for place, global_id in enumerate(sentence_ids):
        if "BAD" in references.corpus.sentence_tokens(place):
            raise InvalidTagError("the word BAD", sentence=global_id)
    return get_family("hardeval").partial(references, predictions, sentence_ids=sentence_ids,
                                          per_sentence=per_sentence, **options)


def _refusing_score(evaluation, system, **options):
    for sentence in range(evaluation.corpus.n_sentences):
        if "BAD" in evaluation.corpus.sentence_tokens(sentence):
            raise InvalidTagError("the word BAD", sentence=sentence)
    return get_family("hardeval").score(evaluation, system, **options)


@pytest.fixture
def refusing_family():
    register_family(dataclasses.replace(get_family("hardeval"), name="refusing",
                                        score=_refusing_score, partial=_refusing_partial))
    yield "refusing"
    unregister_family("refusing")


def test_a_block_that_fails_in_a_worker_is_the_one_clear_error(tmp_path, capsys,
                                                               refusing_family):
    """An input error in one block, raised inside a worker, is raised as one process
    raises it, naming the sentence by its global id (not its place in the block): no
    report of the other blocks; the CLI prints it on one line, no traceback."""
    assert keeps_sentences(get_family(refusing_family))   # scored in the workers
    gold, words, systems = _systems(400)
    words[350] = [*words[350], "BAD"]
    gold[350], systems = [*gold[350], "O"], {k: v for k, v in systems.items()}
    for name in systems:
        systems[name][350] = [*systems[name][350], "O"]
    errors = []
    for workers in (1, 2):
        with pytest.raises(InvalidTagError) as raised:
            nerlens.build_report(gold, systems, TRAIN, tokens=words, bootstrap=0,
                                 figures=False, families=[refusing_family],
                                 workers=workers)
        errors.append(str(raised.value))
    assert errors[0] == errors[1] and "sentence 350" in errors[0] and "BAD" in errors[0]
    files = {}
    for name, side in (("gold", gold), *systems.items()):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("\n\n".join("\n".join(f"{w} {t}" for w, t in zip(ws, tags))
                                           for ws, tags in zip(words, side) if tags) + "\n")
    train = tmp_path / "train.txt"
    train.write_text("Ana B-PER\nLima B-LOC\n\nKim B-PER\nACME B-ORG\n")
    capsys.readouterr()
    code = main(["report", str(files["gold"]), str(files["a"]), "--families",
                 refusing_family, "--train", str(train), "--bootstrap", "0", "--output",
                 str(tmp_path / "out"), "--workers", "2"])
    err = capsys.readouterr().err
    assert code == 2 and not (tmp_path / "out" / "report.json").exists()
    assert err.count("\n") == 1 and "Traceback" not in err
    empty_before = sum(not tags for tags in gold[:350])   # the file holds no empty sentence
    assert f"sentence {350 - empty_before}" in err and "BAD" in err


def test_workers_are_checked_and_refused_for_an_experiment(tmp_path, capsys):
    gold, words, systems = _systems(5)
    with pytest.raises(ValueError, match="workers"):
        nerlens.build_report(gold, systems, TRAIN, tokens=words, workers=0)
    with pytest.raises(SystemExit):
        main(["report", "--demo", "--workers", "0"])
    assert "--workers: workers must be at least 1, not 0" in capsys.readouterr().err
    manifest = tmp_path / "manifest.json"
    manifest.write_text("{}")
    assert main(["report", "--manifest", str(manifest), "--workers", "2"]) == 2
    assert "leave out --workers (an experiment's datasets are scored in one process)" in \
        capsys.readouterr().err


# -- gold with layers ------------------------------------------------------------------------
def _layered(n_sentences: int):
    """A Corpus of gold with an outer and an inner layer (empty sentences too) and the
    systems of ``_systems``."""
    gold, words, systems = _systems(n_sentences)
    inner, _, _ = corpus(n_sentences, seed=8)
    inner = [(tags + ["O"] * len(outer))[:len(outer)] for tags, outer in zip(inner, gold)]
    return Corpus.from_tags(gold, tokens=words,
                            columns={layer_column(GOLD, 2): inner, **systems}), list(systems)


def test_a_layered_gold_report_with_two_workers_equals_one_process():
    """Gold with two layers: hardeval (per layer) and attribute_buckets from partials
    merged across two processes, every block holding both layers (none read as the first
    layer alone): the one-process report."""
    layered, names = _layered(300)
    reports = [nerlens.build_report(corpus=layered, system_names=names, train=TRAIN,
                                    bootstrap=50, seed=2, figures=False, workers=workers)
               for workers in (1, 2)]
    assert _without_date(reports[0].to_json()) == _without_date(reports[1].to_json())
    assert {"hardeval", "attribute_buckets"} <= set(reports[0].info["families"])
    assert set(reports[0].results["a"]["hardeval"]["layers"]) == {"1", "2"}
    evaluation = nerspan.Evaluation(layered, train=TRAIN)
    merged = merged_results(evaluation, names, ["hardeval"], workers=2)
    assert set(merged) == {(name, "hardeval") for name in names}   # from the partials
    assert merged["a", "hardeval"].to_dict()["layers"]["2"] == \
        reports[0].results["a"]["hardeval"]["layers"]["2"]


def _flat_partial(references, predictions=None, *, sentence_ids=None,
                  per_sentence: bool = False, **options):
    refuse_layers(references.corpus, what="this partial")
    return get_family("hardeval").partial(references, predictions, sentence_ids=sentence_ids,
                                          per_sentence=per_sentence, **options)


def test_a_family_whose_partials_refuse_layers_is_named():
    """A family that takes gold with layers in one pass but whose partials do not: with
    workers, one error naming it and what to do; without, its report."""
    register_family(dataclasses.replace(get_family("hardeval"), name="flat_partials",
                                        partial=_flat_partial))
    try:
        layered, names = _layered(40)
        report = nerlens.build_report(corpus=layered, system_names=names, train=TRAIN,
                                      bootstrap=0, figures=False, families=["flat_partials"])
        assert report.info["families"] == ["flat_partials"]
        with pytest.raises(InputTypeError, match=r"workers=2\): gold nests, and "
                                                 r"flat_partials's partials do not merge it"):
            nerlens.build_report(corpus=layered, system_names=names, train=TRAIN,
                                 bootstrap=0, figures=False, families=["flat_partials"],
                                 workers=2)
    finally:
        unregister_family("flat_partials")


def test_germeval_report_with_two_workers_equals_one(tmp_path, capsys):
    """GermEval 2014 test with both layers and one shared system (skipped when absent):
    report.json with --workers 2 as with one process."""
    gold = shared_path("data", "germeval2014", "NER-de-test.tsv")
    dev = shared_path("data", "germeval2014", "NER-de-dev.tsv")
    system = shared_path("data", "germeval2014", "systems", GERMEVAL_SYSTEMS[0])
    reports = []
    for workers in ("1", "2"):
        folder = tmp_path / workers
        assert main(["report", str(gold), str(system), *FLAGS, "--train", str(dev),
                     "--train-token-column", "1", "--train-tag-column", "2",
                     "--bootstrap", "20", "--output", str(folder),
                     "--workers", workers]) == 0
        reports.append(_without_date((folder / "report.json").read_text()))
    capsys.readouterr()
    assert reports[0] == reports[1]
    assert "hardeval" in json.loads(reports[0])["info"]["families"]


# -- generated output ------------------------------------------------------------------------
def _responses(words: list, seed: int) -> list:
    """An LLM's response per sentence: entity lists of the sentence's words (in another
    case too), of a type gold lacks, of a word found nowhere (of a type no span has),
    listed twice; now and then text that is no entity list."""
    draw = random.Random(seed)
    out = []
    for sentence in words:
        if draw.random() < 0.1:
            out.append("I found no entities.")
            continue
        texts = [*sentence, "Atlantis", *(word.lower() for word in sentence[:1])]
        entities = [{"text": text, "type": "PLANET" if text == "Atlantis" else
                     draw.choice(("PER", "LOC", "EVENT"))}
                    for text in (draw.choice(texts) for _ in range(draw.randint(0, 3)))]
        out.append(entities + entities[:draw.randint(0, 1)])
    return out


def test_a_generated_system_report_with_three_workers_equals_one_process(tmp_path):
    """A system of generated output (an LLM's responses to every sentence: ungrounded
    entities, types gold lacks, unreadable responses, duplicates) beside a tagger: every
    family that merges scores it from partials in the workers (its grounding record's
    totals counted once, its listings by global sentence), the one-process report."""
    gold, pred, words = corpus(300, seed=11)
    path = tmp_path / "llm.jsonl"
    path.write_text("".join(json.dumps({"tokens": tokens, "response": answer}) + "\n"
                            for tokens, answer in zip(words, _responses(words, seed=2))))
    read, names = read_systems(Corpus.from_tags(gold, tokens=words), {"a": pred},
                               generated={"llm": str(path)})
    reports = [nerlens.build_report(corpus=read, system_names=names, train=TRAIN,
                                    bootstrap=50, seed=2, figures=False, workers=workers)
               for workers in (1, 3)]
    assert _without_date(reports[0].to_json()) == _without_date(reports[1].to_json())
    assert reports[0].results["llm"]["entity"]["repairs"]["pred"]["generative"]["ungrounded"]
    merging = [name for name in reports[0].info["families"]
               if keeps_sentences(get_family(name))]
    merged = merged_results(nerspan.Evaluation(read, train=TRAIN), names, merging,
                            workers=3)
    assert {("llm", name) for name in merging} <= set(merged)   # from the partials


def test_a_generated_system_answering_some_sentences_with_three_workers_equals_one(tmp_path):
    """Generated output that answers some of gold's sentences, out of gold's order: the
    corpus of those sentences is scored from partials in the workers (each repaired
    sentence named by its number in gold, as one pass names it), the one-process
    report."""
    gold, _, words = corpus(300, seed=12)
    answered = random.Random(5).sample(range(300), 180)   # shuffled: out of gold's order
    responses = _responses([words[i] for i in answered], seed=3)
    path = tmp_path / "llm.jsonl"
    path.write_text("".join(json.dumps({"sentence": i, "tokens": words[i], "response": answer})
                            + "\n" for i, answer in zip(answered, responses)))
    read, names = read_systems(Corpus.from_tags(gold, tokens=words), None,
                               generated={"llm": str(path)})
    assert read.source.sentence_numbers.tolist() == answered
    reports = [nerlens.build_report(corpus=read, system_names=names, train=TRAIN,
                                    bootstrap=50, seed=2, figures=False, workers=workers)
               for workers in (1, 3)]
    assert _without_date(reports[0].to_json()) == _without_date(reports[1].to_json())
    repairs = reports[0].results["llm"]["faireval"]["repairs"]["pred"]
    assert set(repairs["sentences"]) <= set(answered) and repairs["generative"]["ungrounded"]
    merging = [name for name in reports[0].info["families"]
               if keeps_sentences(get_family(name))]
    merged = merged_results(nerspan.Evaluation(read, train=TRAIN), names, merging,
                            workers=3)
    assert {("llm", name) for name in merging} == set(merged)   # from the partials
    assert {"faireval", "attribute_buckets", "hardeval"} <= set(merging)
