"""The embedded demo data: WNUT-17 (CC BY 4.0, Derczynski et al. 2017) and spaCy's output.

``train.conll`` and ``test.conll`` are the WNUT-17 training and test splits; the system
file is spaCy ``en_core_web_sm`` 3.8.0 on the test set with OntoNotes types mapped to
WNUT types. See ``nerlens/data/wnut17/LICENSE``. ``generative_responses.jsonl`` holds
responses in the forms LLMs give, written by hand for 24 of the test sentences (the
generative demo, ``nerlens report --demo generative``).
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from nerspan import GOLD, as_train_index, read_columns, read_span_jsonl
from nerspan.reading.systems import read_systems

from nerlens.baseline import MEMORISATION_NOTE, with_memorisation_baseline

DEMO_SYSTEMS = {"spacy_sm": "spacy_sm_mapped_1997.txt"}
# The generative demo's system: LLM-style responses (one JSON object per answered sentence)
DEMO_GENERATED = {"llm": "generative_responses.jsonl"}
# The confidence demo's system: a CRF's mentions on the test split, each with its
# confidence (scripts/build_crf_demo.py; nerspan.scored)
DEMO_SCORED = {"crf": "crf_scored.jsonl"}
# the demo reports (``demo_inputs``, ``nerlens report --demo NAME``); the first is the default
DEMOS = ("spacy", "generative", "confidence")


def demo_path(name: str) -> Path:
    """Path of a file of the embedded WNUT-17 demo (``train.conll``, ``test.conll``, ...)."""
    path = Path(str(resources.files("nerlens") / "data" / "wnut17" / name))
    if not path.exists():
        raise FileNotFoundError(f"demo file {name!r} is missing from the nerlens installation")
    return path


def demo_train() -> Path:
    return demo_path("train.conll")


def demo_gold() -> Path:
    return demo_path("test.conll")


def demo_systems() -> dict[str, Path]:
    return {name: demo_path(file) for name, file in DEMO_SYSTEMS.items()}


def demo_corpus():
    """The demo's gold and systems as one corpus and the system names
    (``nerspan.reading.systems.read_systems``)."""
    return read_systems(demo_gold(), demo_systems())


def demo_scored() -> dict[str, Path]:
    return {name: demo_path(file) for name, file in DEMO_SCORED.items()}


def demo_generated() -> dict[str, Path]:
    return {name: demo_path(file) for name, file in DEMO_GENERATED.items()}


def demo_generative_corpus():
    """The generative demo: the test sentences its responses answer, with gold, spaCy's
    output and the responses grounded (``read_systems(..., generated=...)``)."""
    return read_systems(demo_gold(), demo_systems(), generated=demo_generated())


# What the demo report says first (the page and the terminal show these notes on top)
DEMO_NOTES = (
    "Demo: the WNUT-17 test set (emerging and rare entities in social media text) with "
    "spaCy en_core_web_sm's output, OntoNotes types mapped to WNUT-17 types, and a "
    "memorisation baseline.",
    "WNUT-17's test set was built from entities that do not occur in its training data, "
    "so by design it has no seen mentions: every gold mention is unseen, and recall on "
    "seen mentions (and on seen type-confusable mentions) is undefined.",
)

CONFIDENCE_NOTES = (
    "Confidence demo: the WNUT-17 test set with spaCy en_core_web_sm's output and a CRF's "
    "(sklearn-crfsuite, trained on the WNUT-17 training split by scripts/build_crf_demo.py) "
    "mentions, each with its confidence: the minimum marginal probability of its tokens' "
    "predicted tags. The confidence section turns the CRF's threshold.",
    DEMO_NOTES[1],
)

GENERATIVE_NOTES = (
    "Generative demo: 24 sentences of the WNUT-17 test set, answered by hand-written "
    "responses in the forms large language models give (entity lists, a dict from type to "
    "texts, inline markup, prose and code fences, answers that cannot be read, entities "
    "that are not in the sentence), beside spaCy en_core_web_sm's output on the same "
    "sentences. No model was run.",
    "Each response's entities are located in their sentence (exact, case-insensitive, "
    "normalised text); an entity found nowhere is a wrong prediction, and the error "
    "examples list it with the model's text.",
)


def demo_inputs(name: str, scheme: str = "IOB2", mode: str = "lenient", **ignored) -> tuple:
    """``build_report``'s ``(corpus, system_names, train, notes, sources, scored)`` of the
    demo report ``name`` (``build_report(demo=NAME)``,
    ``nerlens report --demo NAME``): ``spacy``, spaCy's output and a memorisation
    baseline; ``generative``, the LLM-style responses beside spaCy's output;
    ``confidence``, the CRF's scored mentions beside spaCy's output. ``ignored``: the
    inputs given beside it (keyword -> value, None: not given), refused."""
    given = [keyword for keyword, value in ignored.items() if value is not None]
    if given:
        raise ValueError(f"demo={name!r} scores the embedded demo; {', '.join(given)} would "
                         "be ignored: give either the demo or the inputs")
    if name not in DEMOS:
        raise ValueError(f"demo {name!r} (--demo {name}): the demos are {', '.join(DEMOS)}")
    train = as_train_index(read_columns(demo_train(), {GOLD: -1}), scheme, mode)
    sources = {"gold": "demo: WNUT-17 test", "train": "demo: WNUT-17 train",
               "systems": {"spacy_sm": "demo: spaCy en_core_web_sm 3.8.0"}}
    systems, scored = sources["systems"], {}
    if name == "confidence":
        corpus, names = demo_corpus()
        scored = {n: read_span_jsonl(path)["spans"] for n, path in demo_scored().items()}
        systems.update({n: f"demo: a CRF's scored mentions ({file})"
                        for n, file in DEMO_SCORED.items()})
        notes = CONFIDENCE_NOTES
    elif name == "generative":
        corpus, names = demo_generative_corpus()
        sources["gold"] += " (the 24 sentences answered)"
        systems.update({n: f"demo: hand-written LLM-style responses ({file})"
                        for n, file in DEMO_GENERATED.items()})
        notes = GENERATIVE_NOTES
    else:
        corpus, names = demo_corpus()
        corpus, names = with_memorisation_baseline(train, corpus, "memorisation"), [
            *names, "memorisation"]
        systems["memorisation"] = "the memorisation baseline"
        notes = (*DEMO_NOTES, MEMORISATION_NOTE)
    return corpus, names, train, list(notes), sources, scored
