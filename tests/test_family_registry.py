"""A family is one descriptor, and nerlens reads descriptors (issue 29).

- The registry: the built-in families come from the entry point group
  ``nerlens.families`` (in nerlens' setup.cfg), in the report's order; a family
  registers at run time too, and a bad registration is refused.
- The acceptance test: the documentation's ``token_accuracy`` family (docs/adding-a-family.md), installed OUTSIDE the
  repository (a folder with its package and a ``*.dist-info`` declaring the entry point,
  on ``PYTHONPATH``), appears in the report's JSON, page and terminal view, in an
  experiment, in ``nerlens report --families`` and in the Trainer's keys.
- Adding a family touches no module of nerlens: outside the command line, no module of
  nerlens names a family, in code (identifiers, strings; docstrings and comments may).
- Every built-in family's section renders as text too.
"""
from __future__ import annotations

import ast
import doctest
import json
import os
import re
import subprocess
import sys

import pytest

import nerlens
from nerlens.families import (GROUP, check_families, family_names, family_package,
                              get_family, register_family, unregister_family)
from nerlens.report import blocks
from nerlens.report.views import report_view
from nerspan.family import Family

from .conftest import REPO, built_in_families
from .readme_snippets import DOCS, snippet

BUILT_IN = built_in_families()
TOKENS = [["Ana", "Lee", "in", "Rome"], ["at", "Acme", "."], ["Kim", "sang"]]
GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O"], ["B-PER", "O"]]
SYSTEMS = {"tagger": [["B-PER", "O", "O", "B-LOC"], ["O", "B-ORG", "O"], ["B-PER", "O"]],
           "other": [["B-PER", "I-PER", "O", "O"], ["O", "O", "O"], ["B-LOC", "O"]]}


# -- the registry ------------------------------------------------------------------------
def test_the_built_in_families_are_registered_by_entry_points_in_report_order():
    assert BUILT_IN[:4] == ("tough_mentions", "hardeval", "faireval", "attribute_buckets")
    assert set(BUILT_IN) <= set(family_names())
    orders = [get_family(name).order for name in family_names()]
    assert orders == sorted(orders)              # METHODS.md's sections: 1, 2, 3, 4
    for name in BUILT_IN:
        family = get_family(name)
        assert isinstance(family, Family) and family.name == name
        assert family_package(name).FAMILY is family
    assert [get_family(n).needs_train for n in BUILT_IN[:4]] == [True, True, False, True]


def test_a_family_registers_at_run_time_once():
    tiny = Family(name="tiny_family", title="Tiny", order=99, score=lambda *a, **k: None)
    register_family(tiny)
    try:
        assert family_names()[-1] == "tiny_family"
        assert check_families(["tiny_family", "faireval"]) == ("tiny_family", "faireval")
        with pytest.raises(ValueError, match="'tiny_family' is registered already"):
            register_family(Family(name="tiny_family", title="T", order=1, score=print))
        with pytest.raises(TypeError, match="takes a nerspan.family.Family"):
            register_family({"name": "x"})
    finally:
        unregister_family("tiny_family")
    assert "tiny_family" not in family_names()
    with pytest.raises(ValueError, match="unknown metric family 'tiny_family'"):
        check_families(["tiny_family"])


def test_a_descriptor_is_checked_when_made():
    with pytest.raises(ValueError, match="a Python identifier"):
        Family(name="token-accuracy", title="x", order=5, score=print)
    with pytest.raises(TypeError, match="score must be callable"):
        Family(name="x", title="x", order=5, score=None)


# -- a family from outside the repository ------------------------------------------------
def family_source() -> str:
    """The documentation's token_accuracy family as a module: its examples up to ``FAMILY``."""
    examples = doctest.DocTestParser().get_examples(snippet("token_accuracy", DOCS / "adding-a-family.md"))
    sources = []
    for example in examples:
        sources.append(example.source)
        if example.source.startswith("FAMILY = "):
            return "".join(sources)
    raise LookupError("the documentation's token_accuracy example defines no FAMILY")


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """A folder outside the repository holding the family's package and its
    distribution's metadata, as ``pip install`` would leave them."""
    root = tmp_path_factory.mktemp("site")
    (root / "token_accuracy").mkdir()
    (root / "token_accuracy" / "__init__.py").write_text(family_source(), encoding="utf-8")
    dist = root / "token_accuracy-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: token-accuracy\n"
                                   "Version: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(
        f"[{GROUP}]\ntoken_accuracy = token_accuracy:FAMILY\n", encoding="utf-8")
    for name, tags in {"gold": GOLD, **SYSTEMS}.items():
        (root / f"{name}.txt").write_text(
            "\n\n".join("\n".join(f"{w} {t}" for w, t in zip(words, sentence))
                        for words, sentence in zip(TOKENS, tags)) + "\n", encoding="utf-8")
    return root


def run_outside(outside, *argv, cwd=None) -> subprocess.CompletedProcess:
    """A Python process that finds the outside folder (and this nerlens) on its path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(outside), str(REPO)]),
           "MPLBACKEND": "Agg"}
    return subprocess.run([sys.executable, *argv], cwd=cwd or outside, env=env,
                          capture_output=True, text=True, timeout=600)


API = f"""
import json, nerlens
from nerlens.families import family_names
from nerlens.trainer import make_compute_metrics
TOKENS, GOLD, SYSTEMS = {TOKENS!r}, {GOLD!r}, {SYSTEMS!r}
families = ["token_accuracy", "faireval"]
report = nerlens.build_report(GOLD, SYSTEMS, tokens=TOKENS, families=families, bootstrap=50)
half = lambda rows, k: rows[:2] if k == 0 else rows[1:]
experiment = nerlens.run_experiment(
    {{name: {{"gold": half(GOLD, k), "tokens": half(TOKENS, k),
             "systems": {{s: [half(t, k), half(t, k)] for s, t in SYSTEMS.items()}}}}
     for k, name in enumerate(("a", "b"))}}, families=families, bootstrap=0, figures=False)
labels = ["O", "B-PER", "I-PER", "B-LOC", "B-ORG"]
ids = [[labels.index(t) for t in s] for s in GOLD]
predicted = [[labels.index(t) for t in s] for s in SYSTEMS["tagger"]]
print(json.dumps({{
    "registered": family_names(), "json": json.loads(report.to_json()),
    "html": report.to_html(), "summary": report.summary(),
    "experiment": json.loads(experiment.to_json()), "experiment_html": experiment.to_html(),
    "trainer": make_compute_metrics(labels, metrics=["token_accuracy"], detail="all").compute(
        ids, predicted),
    "trainer_headline": make_compute_metrics(labels, metrics=["token_accuracy"]).compute(
        ids, predicted),
    "headline_keys": make_compute_metrics(labels, metrics=families).headline_keys}}))
"""


@pytest.fixture(scope="module")
def api(outside):
    done = run_outside(outside, "-c", API)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_an_outside_family_is_registered_by_its_entry_point(api):
    assert api["registered"] == [*family_names(), "token_accuracy"]


def test_an_outside_family_is_in_the_report(api):
    data = api["json"]
    assert data["info"]["families"] == ["token_accuracy", "faireval"]
    result = data["results"]["tagger"]["token_accuracy"]
    assert (result["accuracy"], result["correct"], result["tokens"]) == (8 / 9, 8, 9)
    assert data["estimates"]["tagger"]["token_accuracy.accuracy"] == pytest.approx(8 / 9)
    assert set(data["intervals"]["tagger"]["token_accuracy.accuracy"]) >= {"low", "high"}
    assert "token_accuracy.accuracy" in data["comparisons"]["other vs tagger"]
    page = api["html"]
    assert "<section id='token_accuracy'><h2>Token accuracy: tokens tagged as in gold</h2>" \
        in page
    assert page.index("id='faireval'") < page.index("id='token_accuracy'")  # order 3, 5
    assert ">token accuracy<" in page               # its statistic's name, not its key
    assert "tok acc" in api["summary"] and "tok acc: share of tokens tagged" in api["summary"]


def test_an_outside_family_is_in_the_experiment(api):
    data = api["experiment"]
    assert data["info"]["families"] == ["token_accuracy", "faireval"]
    assert data["aggregate"]["a"]["tagger"]["token_accuracy.accuracy"]["n"] == 2
    assert "token_accuracy.accuracy" in data["wilcoxon"]["tagger vs other"]
    assert "Token accuracy: tokens tagged as in gold" in api["experiment_html"]
    assert "<h4>share of tokens tagged as in gold</h4>" in api["experiment_html"]


def test_an_outside_family_is_in_the_trainer_keys(api):
    assert api["trainer"] == {"token_accuracy_accuracy": pytest.approx(8 / 9),
                              "token_accuracy_correct": 8.0, "token_accuracy_tokens": 9.0}
    # by default only its headline (Logged.headline), under the same name
    assert api["trainer_headline"] == {"token_accuracy_accuracy": pytest.approx(8 / 9)}
    assert api["headline_keys"] == ["token_accuracy_accuracy", "faireval_fair_f1",
                                    "faireval_traditional_f1", "faireval_f1"]


def test_an_outside_family_is_in_the_command_line(outside, tmp_path):
    done = run_outside(outside, "-m", "nerlens", "report", "gold.txt", "tagger.txt",
                       "other.txt", "--families", "token_accuracy,faireval", "--bootstrap",
                       "20", "--output", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "tok acc" in done.stdout
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["results"]["tagger"]["token_accuracy"]["accuracy"] == pytest.approx(8 / 9)
    assert "id='token_accuracy'" in (tmp_path / "report.html").read_text(encoding="utf-8")
    refused = run_outside(outside, "-m", "nerlens", "report", "gold.txt", "tagger.txt",
                          "--families", "token_accuracy,nope")
    assert refused.returncode == 2 and "unknown metric family 'nope'" in refused.stderr


# -- nerlens names no family -------------------------------------------------------------
def _docstrings(tree) -> set:
    """The ids of the docstring nodes of a module, its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def naming(tree, names) -> list:
    """``(line, what)`` of every identifier or string (docstrings aside) naming one of
    ``names`` as a word (``faireval``, ``faireval.fair_f1``, ``faireval_fair_f1``)."""
    word = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z0-9])")
    docstrings, out = _docstrings(tree), []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, (ast.alias,)):
            text = node.name
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            text = node.value
        if text and word.search(text):
            out.append((getattr(node, "lineno", 0), text[:60]))
    return out


def test_no_module_of_nerlens_outside_the_command_line_names_a_family():
    offenders = {}
    for path in sorted((REPO / "nerlens").rglob("*.py")):
        name = path.relative_to(REPO).as_posix()
        if name.startswith("nerlens/cli/"):
            continue
        found = naming(ast.parse(path.read_text(encoding="utf-8")), BUILT_IN)
        if found:
            offenders[name] = found
    assert offenders == {}, f"read the family descriptors instead: {offenders}"


def test_the_name_check_sees_code_and_not_docstrings():
    tree = ast.parse('"""about faireval"""\nx = "hardeval.ter"\ny = tough_mentions_x\n'
                     'import faireval\nz = "attribute buckets"\n')
    assert {text for _, text in naming(tree, BUILT_IN)} == {"hardeval.ter", "tough_mentions_x",
                                                            "faireval"}


# -- blocks as text ----------------------------------------------------------------------
def test_every_built_in_section_renders_as_text():
    from nerspan import as_train_index

    train = as_train_index((TOKENS, GOLD))
    report = nerlens.build_report(GOLD, SYSTEMS, train=train, tokens=TOKENS, bootstrap=0,
                            figures=False)
    for name in BUILT_IN:
        family = get_family(name)
        text = blocks.text(family.section(report_view(report, family)))
        assert text and "<" not in text.replace("<=", ""), name
        assert max(map(len, text.splitlines())) <= 140, name
