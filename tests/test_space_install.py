"""A Space's app run without Gradio says what installs it, and shows no traceback (issue 37).

``python metrics/<family>/app.py`` is the documentation's command (docs/trainer-spaces.md); Gradio is the distribution's
extra ``spaces`` (setup.cfg), so the one line an app prints is ``pip install
"nerlens[spaces]"``. Gradio is hidden from the app's interpreter by a ``sitecustomize``
that puts None in its place in ``sys.modules`` (an import of it then fails as an absent
module's does).
"""
from __future__ import annotations

import configparser
import os
import subprocess
import sys

import pytest

from nerlens.space import SPACES_INSTALL

from tests.conftest import REPO, built_in_families


def test_the_spaces_extra_brings_gradio_and_the_apps_name_it():
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg", encoding="utf-8")
    extra = config.get("options.extras_require", "spaces").split()
    assert [r for r in extra if r.startswith("gradio")] == extra != []
    assert SPACES_INSTALL == 'pip install "nerlens[spaces]"'
    assert SPACES_INSTALL in (REPO / "docs" / "trainer-spaces.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("family", built_in_families())
def test_an_app_without_gradio_names_the_install_command(family, tmp_path):
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['gradio'] = None\n",
                                               encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)]),
           "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, str(REPO / "metrics" / family / "app.py")],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stderr.strip().splitlines() == [
        f"this Space's app needs Gradio: {SPACES_INSTALL}"]
