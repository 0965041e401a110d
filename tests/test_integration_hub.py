"""Loading the four modules by name from a Hub: a local server with the Spaces layout.

``evaluate.load("<org>/<family>")`` must download the script, cache it, compute, and
then work again offline from the cache with the server gone. (The publish script's dry
run is tested with the Spaces, in test_spaces_browser.py.)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import REPO
from tests.hub_server import SpaceServer
from tests.readme_snippets import DOCS, snippet

ORG = "your-org"  # the documentation's snippet uses this name
FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")
HEADLINE = {"faireval": "fair_f1", "tough_mentions": "recall", "hardeval": "ter",
            "attribute_buckets": "f1"}

# each module loaded by name, computed on the embedded demo's first sentences
LOAD_AND_COMPUTE = textwrap.dedent("""
    import json, sys
    import evaluate
    from nerspan import read_columns
    from nerlens.demo import demo_gold, demo_systems, demo_train
    gold = read_columns(demo_gold(), columns={"gold": 1})
    pred = read_columns(demo_systems()["spacy_sm"], columns={"pred": 2})
    n = 200
    tokens = [gold.sentence_tokens(i) for i in range(n)]
    refs = [gold.tags("gold", i) for i in range(n)]
    preds = [pred.tags("pred", i) for i in range(n)]
    out = {}
    for family in sys.argv[2:]:
        module = evaluate.load(sys.argv[1] + "/" + family, tokens=tokens, train=str(demo_train()))
        out[family] = module.compute(predictions=preds, references=refs)
    print(json.dumps(out, default=str))
""")


def _run(env, families=FAMILIES):
    done = subprocess.run([sys.executable, "-c", LOAD_AND_COMPUTE, ORG, *families],
                          env=env, capture_output=True, text=True, timeout=600, cwd="/")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def hub_env(tmp_path_factory):
    home = tmp_path_factory.mktemp("hf_home")
    env = dict(os.environ, HF_HOME=str(home), HF_UPDATE_DOWNLOAD_COUNTS="0",
               HF_HUB_DISABLE_TELEMETRY="1", PYTHONPATH=str(REPO))
    env.pop("HF_EVALUATE_OFFLINE", None)
    return env, home


def test_load_by_name_downloads_caches_and_works_offline(hub_env):
    env, home = hub_env
    with SpaceServer(REPO / "metrics", ORG) as server:
        online = _run(dict(env, HF_ENDPOINT=server.endpoint))
        fetched = {path for method, path in server.requests if method == "GET"}
    for family in FAMILIES:
        assert f"/spaces/{ORG}/{family}/resolve/main/{family}.py" in fetched
    cached = list((home / "modules" / "evaluate_modules" / "metrics").glob(f"{ORG}--*"))
    assert sorted(p.name for p in cached if p.is_dir()) == sorted(f"{ORG}--{f}" for f in FAMILIES)

    # the server is gone: offline mode takes the cached copies and gives the same numbers
    offline = _run(dict(env, HF_ENDPOINT="http://127.0.0.1:9", HF_EVALUATE_OFFLINE="1"))
    assert offline == online

    # and they are the numbers of the installed families called directly
    from nerspan import read_columns
    from nerlens.demo import demo_gold, demo_systems, demo_train

    gold = read_columns(demo_gold(), columns={"gold": 1})
    pred = read_columns(demo_systems()["spacy_sm"], columns={"pred": 2})
    refs = [gold.tags("gold", i) for i in range(200)]
    preds = [pred.tags("pred", i) for i in range(200)]
    tokens = [gold.sentence_tokens(i) for i in range(200)]
    for family, key in HEADLINE.items():
        kwargs = {} if family == "faireval" else dict(tokens=tokens, train=str(demo_train()))
        direct = __import__(family).score(refs, preds, **kwargs).to_dict()
        assert online[family][key] == pytest.approx(direct[key], abs=1e-12), family


def test_readme_hub_snippet(hub_env):
    env, _ = hub_env
    with SpaceServer(REPO / "metrics", ORG) as server:
        done = subprocess.run([sys.executable, "-c", snippet("hub", DOCS / "evaluate.md")], capture_output=True,
                              text=True, timeout=600, cwd="/",
                              env=dict(env, HF_ENDPOINT=server.endpoint))
    assert done.returncode == 0, done.stderr[-3000:]
    import faireval

    direct = faireval.score([["B-PER", "O", "O"]], [["B-PER", "I-PER", "O"]]).to_dict()
    assert done.stdout.split() == [str(direct["fair_f1"]), str(direct["counts"]["BE"])]

