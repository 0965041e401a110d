"""Generated output (an LLM's responses) in an experiment (issue 31): a dataset's
``"generated"`` runs grounded in its gold sentences as the one-dataset report grounds
them.

A small hand-made experiment: two datasets, a tagger (one run) and an LLM (two runs) on
each. The oracle of every run's numbers is ``nerlens.report`` on the same files
(``read_systems(gold, systems, generated=...)``); the grounding counts are checked by hand.
"""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerlens
from nerlens.cli import main
from nerlens.demo import demo_generated, demo_generative_corpus, demo_gold, demo_systems
from nerlens.experiment import generated
from nerlens.report import generated as report_generated
from nerspan.reading.systems import add_generated, read_gold, read_systems
from nerspan import FormatError

DATASETS = {
    "news": [("John Smith saw Paris .", "B-PER I-PER O B-LOC O"),
             ("Acme hired Mary in Rome", "B-ORG O B-PER O B-LOC")],
    "web": [("Berlin is big", "B-LOC O O"),
            ("Anna met Bob", "B-PER O B-PER")],
}
TAGGER = {"news": ["B-PER I-PER O O O", "B-ORG O B-PER O B-LOC"],
          "web": ["B-LOC O O", "B-PER O O"]}
# dataset -> the LLM's runs, each a response per sentence
LLM = {"news": [['[["John Smith", "PER"], ["Paris", "LOC"]]',
                 '[["Acme", "ORG"], ["Atlantis", "LOC"]]'],            # Atlantis: ungrounded
                ['[["John", "PER"]]',
                 '[["Mary", "PER"], ["rome", "LOC"], ["Mary", "PER"]]']],  # a duplicate
       "web": [['[["Berlin", "LOC"]]', '{"PER": ["Anna", "Bob"]}'],
               ['<LOC>berlin</LOC> is big', "I cannot help with that."]]}  # unreadable


def _columns(path, tokens, tags):
    path.write_text("\n\n".join("\n".join(f"{t} {g}" for t, g in zip(ts.split(), gs.split()))
                                for ts, gs in zip(tokens, tags)) + "\n", encoding="utf-8")
    return path


def _jsonl(path, responses):
    path.write_text("".join(json.dumps({"response": r}) + "\n" for r in responses),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """dataset -> {"gold", "train", "tagger", "llm": [run files]} (every path a str)."""
    folder = tmp_path_factory.mktemp("generated_experiment")
    every = [s for sentences in DATASETS.values() for s in sentences]
    train = _columns(folder / "train.txt", *zip(*every))
    out = {}
    for name, sentences in DATASETS.items():
        tokens, gold = zip(*sentences)
        out[name] = {"gold": str(_columns(folder / f"{name}_gold.txt", tokens, gold)),
                     "train": str(train),
                     "tagger": str(_columns(folder / f"{name}_tagger.txt", tokens,
                                            TAGGER[name])),
                     "llm": [str(_jsonl(folder / f"{name}_llm_{k}.jsonl", run))
                             for k, run in enumerate(LLM[name], 1)]}
    return out


def _declared(files) -> dict:
    return {name: {"gold": f["gold"], "train": f["train"], "systems": {"tagger": f["tagger"]},
                   "generated": {"llm": f["llm"]}}
            for name, f in files.items()}


@pytest.fixture(scope="module")
def experiment(files):
    return nerlens.run_experiment(_declared(files), bootstrap=0, figures=False)


def _same(a, b) -> bool:
    """Equal, an undefined number (NaN) equal to itself."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


@pytest.mark.parametrize("name", list(DATASETS))
@pytest.mark.parametrize("k", [1, 2])
def test_each_run_scores_as_the_one_dataset_report_of_its_file(files, experiment, name, k):
    f = files[name]
    corpus, names = read_systems(f["gold"], {"tagger": f["tagger"]},
                                 generated={"llm": f["llm"][k - 1]})
    one = nerlens.build_report(corpus=corpus, system_names=names, train=f["train"], bootstrap=0,
                         figures=False)
    mine = experiment.reports[name]
    assert experiment.runs[name] == {"tagger": ["tagger"], "llm": ["llm#1", "llm#2"]}
    assert _same(mine.estimates[f"llm#{k}"], one.estimates["llm"])
    assert _same(mine.estimates["tagger"], one.estimates["tagger"])
    as_json = lambda r, c: json.loads(r.to_json())["results"][c]  # noqa: E731
    assert as_json(mine, f"llm#{k}") == as_json(one, "llm")
    assert mine.info["provenance"]["inputs"]["systems"][f"llm#{k}"] == f["llm"][k - 1]
    # the experiment's record of the run is the report's, its listings left in the report
    record = report_generated.records(one.results)["llm"]
    assert experiment.generated[name]["llm"][f"llm#{k}"] == \
        {key: value for key, value in record.items() if key != "listed"}


def test_grounding_counted_per_dataset_and_run_by_hand(experiment):
    news, web = experiment.generated["news"]["llm"], experiment.generated["web"]["llm"]
    # news run 1: 4 entities, Atlantis not in its sentence; 3 found exactly
    assert (news["llm#1"]["entities"], news["llm#1"]["ungrounded"],
            news["llm#1"]["levels"]["exact"]) == (4, 1, 3)
    # news run 2: Mary listed twice, rome found case-insensitively
    assert (news["llm#2"]["duplicates"], news["llm#2"]["levels"]["case_insensitive"],
            news["llm#2"]["usable"]) == (1, 1, 3)
    # web run 2: one response unreadable, berlin found case-insensitively
    assert (web["llm#2"]["parse_failures"], web["llm#2"]["levels"]["case_insensitive"]) == (1, 1)
    assert web["llm#1"]["usable"] == web["llm#1"]["entities"] == 3
    # the tagger has no record; the JSON carries them
    assert "tagger" not in experiment.generated["news"]
    assert json.loads(experiment.to_json())["generated"]["web"]["llm"]["llm#2"][
        "parse_failures"] == 1


def test_findings_and_page_state_grounding_per_dataset_and_run(files, experiment):
    stated = [f for f in experiment.findings if f["rule"] == "generated_output"]
    assert [(f["evidence"]["dataset"], f["system"]) for f in stated] == \
        [("news", "llm#1"), ("news", "llm#2"), ("web", "llm#1"), ("web", "llm#2")]
    assert experiment.findings[:4] == stated
    assert stated[0]["text"].startswith("news: 25.0% of llm#1's entities are not in the sentence")
    assert "1 of 2 responses could not be read" in stated[3]["text"]
    page = experiment.to_html()
    assert "generated_output" in page and "25.0% of llm#1" in page
    # the page's table: a row per dataset and run, its counts and levels as in the JSON
    header, rows = generated.table_rows(experiment)
    assert [row[:2] for row in rows] == [["news", "llm#1"], ["news", "llm#2"],
                                         ["web", "llm#1"], ["web", "llm#2"]]
    news_1 = dict(zip(header, rows[0]))
    assert (news_1["entities"], news_1["ungrounded"], news_1["found exact"]) == (4, 1, 3)
    assert "Generated output: what grounding did" in page
    plain = nerlens.run_experiment({"news": {"gold": files["news"]["gold"],
                                         "systems": {"tagger": files["news"]["tagger"]}}},
                               bootstrap=0, figures=False, families=("faireval",))
    assert plain.generated == {} and "what grounding did" not in plain.to_html()
    assert "news: 25.0% of llm#1" in experiment.summary()


def test_mean_over_runs_is_the_mean_of_the_runs(experiment):
    for name, report in experiment.reports.items():
        runs = [report.estimates[c]["entity_f1"] for c in ("llm#1", "llm#2")]
        cell = experiment.aggregate[name]["llm"]["entity_f1"]
        assert cell["n"] == 2 and cell["mean"] == pytest.approx(sum(runs) / 2)


def test_a_system_may_be_generated_on_one_dataset_and_a_tagger_on_another(files):
    declared = _declared(files)
    web = declared["web"]
    web["systems"]["llm"] = web["systems"]["tagger"]   # the tagger's output, as "llm"
    del web["generated"]
    exp = nerlens.run_experiment(declared, bootstrap=0, figures=False, families=("faireval",))
    assert exp.systems == ["tagger", "llm"] and exp.runs["web"]["llm"] == ["llm"]
    assert exp.runs["news"]["llm"] == ["llm#1", "llm#2"] and list(exp.generated) == ["news"]
    assert exp.aggregate["web"]["llm"]["entity_f1"] == exp.aggregate["web"]["tagger"]["entity_f1"]


def test_generated_output_alone_and_grounding_options(files):
    declared = {name: {"gold": f["gold"], "generated": {"llm": f["llm"]}}
                for name, f in files.items()}
    exp = nerlens.run_experiment(declared, bootstrap=0, figures=False, families=("faireval",))
    assert exp.systems == ["llm"]
    # fuzzy grounding reaches what the exact levels miss, as read_systems(fuzzy=...) does
    fuzzy = nerlens.run_experiment(declared, bootstrap=0, figures=False, families=("faireval",),
                                   inputs={"fuzzy": 0.5, "occurrences": "ordered"})
    f = files["news"]
    corpus, names = read_systems(f["gold"], generated={"llm": f["llm"][0]},
                                 inputs={'fuzzy': 0.5, 'occurrences': "ordered"})
    one = nerlens.build_report(corpus=corpus, system_names=names, bootstrap=0, figures=False,
                               families=("faireval",))
    assert _same(fuzzy.reports["news"].estimates["llm#1"], one.estimates["llm"])


def test_sentence_indices_restrict_the_dataset_for_every_system(tmp_path, files):
    """Runs answering sentence 1 only: the tagger is scored on that sentence too."""
    runs = [_jsonl(tmp_path / f"s{k}.jsonl", []) for k in (1, 2)]
    for path in runs:
        path.write_text(json.dumps({"response": '[["Mary", "PER"]]', "sentence": 1}) + "\n",
                        encoding="utf-8")
    f = files["news"]
    exp = nerlens.run_experiment({"news": {"gold": f["gold"], "systems": {"tagger": f["tagger"]},
                                       "generated": {"llm": [str(p) for p in runs]}}},
                             bootstrap=0, figures=False, families=("faireval",))
    # sentence 1 alone: Acme, Mary, Rome; the tagger finds all three
    assert exp.reports["news"].results["tagger"]["entity"]["gold"] == 3
    assert exp.reports["news"].estimates["tagger"]["entity_f1"] == 1.0


def test_the_demo_responses_as_two_runs_score_as_the_generative_demo_report():
    """The embedded WNUT-17 responses (with "sentence" indices into its test set) as two
    runs of one system: each run's numbers are ``nerlens report --demo generative``'s."""
    [(name, path)] = demo_generated().items()
    exp = nerlens.run_experiment({"wnut17": {"gold": str(demo_gold()),
                                         "systems": {"spacy_sm": str(demo_systems()["spacy_sm"])},
                                         "generated": {name: [str(path), str(path)]}}},
                             bootstrap=0, figures=False, families=("faireval",))
    corpus, names = demo_generative_corpus()
    one = nerlens.build_report(corpus=corpus, system_names=names, bootstrap=0, figures=False,
                         families=("faireval",))
    mine = exp.reports["wnut17"]
    for column in (f"{name}#1", f"{name}#2"):
        assert _same(mine.estimates[column], one.estimates[name])
    assert _same(mine.estimates["spacy_sm"], one.estimates["spacy_sm"])
    assert exp.aggregate["wnut17"][name]["entity_f1"]["std"] == 0.0


@pytest.mark.parametrize("change, error, message", [
    (lambda d, f: d["web"]["generated"].update(llm=[f["web"]["llm"][0], "nope.jsonl"]),
     FileNotFoundError, "no such file (dataset 'web', system 'llm#2')"),
    (lambda d, f: d["web"]["generated"].update(tagger=f["web"]["llm"]), ValueError,
     "dataset 'web': system 'tagger' is given in \"systems\" and in \"generated\""),
    (lambda d, f: d["web"]["generated"].update(llm=[]), ValueError,
     "dataset 'web': system 'llm' has no generated output"),
    (lambda d, f: d["web"].update(generated=["x.jsonl"]), TypeError,
     "dataset 'web': \"generated\" maps each system's name"),
    (lambda d, f: d["web"]["generated"].update(llm=[[["B-PER"]]]), TypeError,
     "dataset 'web', system 'llm': generated output is a JSON Lines file"),
    (lambda d, f: d["web"]["generated"].update(llm=[f["web"]["llm"][0], f["news"]["gold"]]),
     FormatError, "news_gold.txt:1, dataset 'web', system 'llm#2': not JSON"),
])
def test_bad_generated_declarations_name_the_dataset_and_run(files, change, error, message):
    declared = _declared(files)
    change(declared, files)
    with pytest.raises(error) as raised:
        nerlens.run_experiment(declared, bootstrap=0, figures=False, families=("faireval",))
    assert message in str(raised.value)


@pytest.mark.parametrize("option", [dict(occurrences="each"), dict(fuzzy=1.5)])
def test_grounding_options_are_checked_without_generated_output(files, option):
    declared = {"news": {"gold": files["news"]["gold"],
                         "systems": {"tagger": files["news"]["tagger"]}}}
    with pytest.raises(ValueError, match=next(iter(option))):
        nerlens.run_experiment(declared, bootstrap=0, figures=False, families=("faireval",),
                               inputs=option)


def test_add_generated_refuses_indices_after_a_file_without(files, tmp_path):
    """Every file answers the first file's sentences: a later file naming sentences would
    restrict the corpus and lose the first file's other answers."""
    f = files["news"]
    indexed = tmp_path / "indexed.jsonl"
    indexed.write_text(json.dumps({"response": "[]", "sentence": 1}) + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match="answers other sentences than 'a'"):
        add_generated(read_gold(f["gold"]), {"a": f["llm"][0], "b": str(indexed)})


# -- the command line: the manifest's "generated" and --pred-generated -----------------------
def test_cli_manifest_and_declaration_give_the_api_numbers(files, experiment, tmp_path, capsys):
    manifest = tmp_path / "experiment.json"
    manifest.write_text(json.dumps({
        name: {"gold": f["gold"], "train": f["train"], "predictions": {"tagger": f["tagger"]},
               "generated": {"llm": f["llm"]}} for name, f in files.items()}))
    common = ["report", "--no-progress", "--bootstrap", "0", "--format", "json"]
    assert main([*common, "--output", str(tmp_path / "m"), "--manifest", str(manifest)]) == 0
    by_manifest = json.loads(capsys.readouterr().out)
    declared = []
    for name, f in files.items():
        declared += ["--data", name, f["gold"], f["train"], "--pred", f"tagger={f['tagger']}",
                     "--pred-generated", *[f"llm={p}" for p in f["llm"]]]
    assert main([*common, "--output", str(tmp_path / "d"), *declared]) == 0
    by_flags = json.loads(capsys.readouterr().out)
    api = json.loads(experiment.to_json())
    for cli in (by_manifest, by_flags):
        assert cli["runs"] == api["runs"] and cli["aggregate"] == api["aggregate"]
        assert cli["generated"] == api["generated"]
        assert [f["text"] for f in cli["findings"]] == [f["text"] for f in api["findings"]]
    inputs = by_flags["datasets"]["web"]["info"]["provenance"]["inputs"]["systems"]
    assert inputs["llm#2"] == files["web"]["llm"][1]


def test_cli_grounding_flags_reach_the_experiment(files, tmp_path, capsys):
    f = files["news"]
    argv = ["report", "--no-progress", "--bootstrap", "0", "--format", "json",
            "--families", "faireval", "--output", str(tmp_path), "--data", "news", f["gold"],
            f["train"], "--pred-generated", f"llm={f['llm'][0]}", "--fuzzy", "0.5"]
    assert main(argv) == 0
    cli = json.loads(capsys.readouterr().out)
    api = nerlens.run_experiment({"news": {"gold": f["gold"], "generated": {"llm": f["llm"][0]}}},
                                 bootstrap=0, figures=False, families=("faireval",),
                                 inputs={"fuzzy": 0.5})
    assert cli["generated"] == json.loads(api.to_json())["generated"]
    assert cli["generated"]["news"]["llm"]["llm"]["levels"]["fuzzy"] == \
        api.generated["news"]["llm"]["llm"]["levels"]["fuzzy"]


# -- property: gold's own strings as the LLM's answer score perfectly -------------------------
TYPES = ("PER", "LOC", "ORG")


@st.composite
def sentences(draw):
    """Sentences of distinct words (each entity's text occurs once) and their gold spans."""
    out, word = [], 0
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(1, 7))
        tokens = [f"w{word + i}" for i in range(n)]
        word += n
        tags, i = ["O"] * n, 0
        while i < n:
            length = draw(st.integers(0, 3))
            if length and i + length <= n:
                kind = draw(st.sampled_from(TYPES))
                tags[i:i + length] = [f"B-{kind}"] + [f"I-{kind}"] * (length - 1)
                i += length
            else:
                i += 1
        out.append((tokens, tags))
    return out


def _entities(tokens, tags):
    found, i = [], 0
    while i < len(tags):
        if tags[i].startswith("B-"):
            j = i + 1
            while j < len(tags) and tags[j] == "I-" + tags[i][2:]:
                j += 1
            found.append([" ".join(tokens[i:j]), tags[i][2:]])
            i = j
        else:
            i += 1
    return found


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(sentences(), min_size=2, max_size=2))
def test_gold_strings_as_the_answer_score_perfectly(tmp_path, data):
    declared = {}
    for d, sents in enumerate(data):
        gold = _columns(tmp_path / f"g{d}.txt", [" ".join(t) for t, _ in sents],
                        [" ".join(g) for _, g in sents])
        answers = [json.dumps(_entities(t, g)) for t, g in sents]
        runs = [str(_jsonl(tmp_path / f"r{d}_{k}.jsonl", answers)) for k in (1, 2)]
        declared[f"d{d}"] = {"gold": str(gold), "generated": {"llm": runs}}
    exp = nerlens.run_experiment(declared, bootstrap=0, figures=False, families=("faireval",))
    for name, (tokens_tags) in zip(declared, data):
        has_mentions = any(t != "O" for _, tags in tokens_tags for t in tags)
        cell = exp.aggregate[name]["llm"]["entity_f1"]
        if has_mentions:
            assert cell["mean"] == 1.0 and cell["std"] == 0.0 and cell["n"] == 2
        for run in exp.generated[name]["llm"].values():
            assert run["usable"] == run["entities"] and run["ungrounded"] == 0
            assert run["levels"]["exact"] == run["entities"]
