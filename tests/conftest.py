"""Shared test helpers: where the shared data and fixtures live."""
from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATA = SHARED / "data"
FIXTURES = SHARED / "fixtures"


def built_in_families() -> tuple:
    """The families nerlens ships: the names its setup.cfg registers in the entry point
    group ``nerlens.families`` (a new built-in family is one line there), in file order."""
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    lines = config.get("options.entry_points", "nerlens.families").splitlines()
    return tuple(line.partition("=")[0].strip() for line in lines if "=" in line)


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when that data is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


def tagged_split(tokens, tags, labels):
    """A ``datasets`` split: string ``tokens`` and ``ner_tags`` as a ClassLabel sequence."""
    import datasets

    features = datasets.Features({
        "tokens": datasets.Sequence(datasets.Value("string")),
        "ner_tags": datasets.Sequence(datasets.ClassLabel(names=labels))})
    return datasets.Dataset.from_dict(
        {"tokens": tokens, "ner_tags": [[labels.index(t) for t in s] for s in tags]},
        features=features)


def sequence_counts(index, sequences, lowercase: bool = True):
    """A plain reading of a ``TrainIndex``'s training text, to check the attribute tables
    against: ``(occurrences, annotated)`` where ``occurrences[i]`` counts the positions
    where ``sequences[i]`` (a tuple of words) occurs within a sentence, annotated or not,
    and ``annotated[i]`` is the Counter of types of training mentions with that text."""
    fold = str.lower if lowercase else str
    keys = [tuple(fold(w) for w in sequence) for sequence in sequences]
    wanted, lengths = set(keys), {len(k) for k in keys} - {0}
    found = Counter()
    corpus = index.corpus
    for i in range(corpus.n_sentences):
        words = [fold(w) for w in corpus.sentence_tokens(i)]
        for n in lengths:
            found.update(w for w in (tuple(words[a:a + n]) for a in range(len(words) - n + 1))
                         if w in wanted)
    texts = index.mention_types(lowercase)
    return ([found[k] if k else 0 for k in keys],
            [texts.get(" ".join(k), Counter()) for k in keys])


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def chromium_path() -> str | None:
    """The browser the browser tests drive: ``NERLENS_CHROMIUM`` (a path or a command
    name), else ``chromium`` on PATH; None when it cannot be found."""
    wanted = os.environ.get("NERLENS_CHROMIUM") or "chromium"
    if os.sep in wanted:
        return wanted if os.access(wanted, os.X_OK) else None
    return shutil.which(wanted)


def need_browser() -> str:
    """The chromium executable, or skip (fail when ``NERLENS_REQUIRE_BROWSER=1``, as CI
    sets it: there a missing browser is an error, not a reason to skip)."""
    path = chromium_path()
    if path is None:
        wanted = os.environ.get("NERLENS_CHROMIUM") or "chromium on PATH"
        reason = (f"no browser ({wanted} not found): set NERLENS_CHROMIUM to a chromium "
                  "executable to run the browser tests")
        if os.environ.get("NERLENS_REQUIRE_BROWSER") == "1":
            pytest.fail(f"NERLENS_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def browser():
    """Headless chromium driven by Playwright, with the system's browser (no download)."""
    from playwright.sync_api import sync_playwright  # a test dependency: never skipped

    executable = need_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True,
                                    args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def nerlens_dist(tmp_path_factory) -> dict:
    """The sdist and the wheel of this checkout, built as a release is (``python -m build``)."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    sdists, wheels = sorted(out.glob("nerlens-*.tar.gz")), sorted(out.glob("nerlens-*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(out.iterdir())
    return {"sdist": sdists[0], "wheel": wheels[0], "build_log": done.stdout + done.stderr}


class FreshVenv:
    """A new virtual environment (no system site-packages) that installs from the index."""

    def __init__(self, path: Path):
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=300)
        self.path = path
        self.bin = path / ("Scripts" if os.name == "nt" else "bin")
        self.python = self.bin / "python"

    def env(self) -> dict:
        """This process's environment without PYTHON* variables: a PYTHONPATH to the
        checkout would make pip take its nerlens.egg-info for an installed nerlens."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        return env

    def pip_install(self, *args: str, cwd: Path | None = None) -> None:
        done = subprocess.run([str(self.python), "-m", "pip", "install", "--quiet", *args],
                              cwd=cwd, env=self.env(), capture_output=True, text=True,
                              timeout=1800)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    def run(self, *args: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
        """Run a command of the environment (``nerlens``, ``python``) as its user would."""
        return subprocess.run([str(self.bin / args[0]), *args[1:]], cwd=cwd, env=self.env(),
                              capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="session")
def fresh_venv(tmp_path_factory) -> FreshVenv:
    """One fresh environment shared by the release and the Space tests: each installs
    into it only what its user would (the wheel; a Space folder's requirements.txt)."""
    return FreshVenv(tmp_path_factory.mktemp("fresh") / "venv")
