"""The release: ``python -m build`` makes an sdist and a wheel that pass ``twine check``,
ship the licences, the data attribution and the changelog, carry the one version, and the
wheel installed in a fresh environment runs ``nerlens --version`` and the demo report."""
from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import zipfile

import nerspan
from tests.conftest import REPO


def test_twine_check_passes(nerlens_dist):
    done = subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                           str(nerlens_dist["sdist"]), str(nerlens_dist["wheel"])],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_the_build_warns_about_nothing_left_out(nerlens_dist):
    # setuptools warns when a folder Python can import is not packaged (the demo data was)
    assert "would be ignored" not in nerlens_dist["build_log"]


def test_distributions_ship_licences_attribution_and_changelog(nerlens_dist):
    version = nerspan.__version__
    with zipfile.ZipFile(nerlens_dist["wheel"]) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(f"nerlens-{version}.dist-info/METADATA").decode()
    licences = {n.split("/licenses/", 1)[1] for n in names if "/licenses/" in n}
    assert {"LICENSE", "nerlens/data/wnut17/LICENSE",
            "nerlens/data/wnut17/ATTRIBUTION.md"} <= licences, sorted(names)
    assert {"nerlens/data/wnut17/ATTRIBUTION.md", "nerlens/data/wnut17/train.conll",
            "nerlens/data/wnut17/test.conll"} <= names
    assert "License: MIT" in metadata or "License-Expression: MIT" in metadata
    assert "# Changelog" in metadata and f"## {version}" in metadata  # shown on the index

    with tarfile.open(nerlens_dist["sdist"]) as sdist:
        members = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "nerlens/data/wnut17/ATTRIBUTION.md",
            "metrics/faireval/faireval.py", "tests/data/conformance.json"} <= members
    assert not any("__pycache__" in m or m.endswith(".pyc") for m in members)
    attribution = (REPO / "nerlens" / "data" / "wnut17" / "ATTRIBUTION.md").read_text()
    assert "CC BY 4.0" in attribution and "Derczynski" in attribution


def test_the_version_has_one_source(nerlens_dist):
    version = nerspan.__version__
    assert nerlens_dist["wheel"].name == f"nerlens-{version}-py3-none-any.whl"
    assert "version = attr: nerspan.__version__" in (REPO / "setup.cfg").read_text()
    assert "version" not in (REPO / "pyproject.toml").read_text()
    import nerlens

    assert nerlens.__version__ is nerspan.__version__


def test_the_wheel_in_a_fresh_venv_runs_the_demo(nerlens_dist, fresh_venv, tmp_path):
    fresh_venv.pip_install(str(nerlens_dist["wheel"]))
    done = fresh_venv.run("nerlens", "--version", cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"nerlens {nerspan.__version__}"

    done = fresh_venv.run("nerlens", "report", "--demo", cwd=tmp_path, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert (tmp_path / "report.html").stat().st_size > 10_000
    # the families came from the wheel's entry points (nerlens.families), not a checkout
    assert report["info"]["families"] == ["tough_mentions", "hardeval", "faireval",
                                          "attribute_buckets"]
    # the installed copy, not this checkout, produced it: the venv sees no checkout
    where = fresh_venv.run("python", "-c", "import nerlens; print(nerlens.__file__)",
                           cwd=tmp_path, timeout=120)
    assert str(fresh_venv.path) in where.stdout, where.stdout
    assert "spacy_sm" in done.stdout and "memorisation" in done.stdout  # the summary
    assert {"spacy_sm", "memorisation"} <= set(json.dumps(report).replace('"', " ").split())
