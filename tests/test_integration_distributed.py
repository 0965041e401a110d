"""evaluate's multi-process mode and ``evaluate.combine`` over the four modules.

Two processes share ``cache_dir`` and ``experiment_id``; each adds every other batch
(so rank 0's merged data is not in corpus order) with the batch's tokens; rank 0 must
return exactly what one process computes on everything.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from tests.conftest import REPO
from tests.readme_snippets import DOCS, snippet

FAMILIES = ("faireval", "tough_mentions", "hardeval", "attribute_buckets")

# argv: rank (or "single"), cache dir; prints the JSON results on rank 0 / single
WORKER = textwrap.dedent("""
    import json, sys
    import evaluate
    from nerspan import read_columns
    from nerlens.demo import demo_gold, demo_systems, demo_train
    rank, cache_dir, repo = sys.argv[1], sys.argv[2], sys.argv[3]
    gold = read_columns(demo_gold(), columns={"gold": 1})
    pred = read_columns(demo_systems()["spacy_sm"], columns={"pred": 2})
    n = 400
    tokens = [gold.sentence_tokens(i) for i in range(n)]
    refs = [gold.tags("gold", i) for i in range(n)]
    preds = [pred.tags("pred", i) for i in range(n)]
    batches = [(s, min(s + 50, n)) for s in range(0, n, 50)]
    out = {}
    for family in %r:
        options = dict(train=str(demo_train()), cache_dir=cache_dir)
        if rank != "single":
            options.update(num_process=2, process_id=int(rank), experiment_id="dist-" + family)
        module = evaluate.load(repo + "/metrics/" + family, **options)
        mine = batches if rank == "single" else batches[int(rank)::2]
        for a, b in mine:
            batch = dict(predictions=preds[a:b], references=refs[a:b])
            if family != "faireval":  # the words travel with their tags (merged out of order)
                batch["tokens"] = tokens[a:b]
            module.add_batch(**batch)
        out[family] = module.compute()
    if rank != "single":  # the documentation's snippet, verbatim, run by both processes
        import os
        os.chdir(repo)
        namespace = dict(world_size=2, rank=int(rank), shared_cache_dir=cache_dir,
                         my_batches=[(preds[a:b], refs[a:b]) for a, b in batches[int(rank)::2]])
        exec(README_SNIPPET, namespace)
        out["readme"] = namespace["result"]
    if rank in ("single", "0"):
        print(json.dumps(out, default=str))
    else:
        assert all(v is None for v in out.values()), out
""" % (FAMILIES,)).replace("README_SNIPPET", repr(snippet("distributed", DOCS / "evaluate.md")))


def test_two_processes_equal_one(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO), HF_HOME=str(tmp_path / "home"),
               HF_UPDATE_DOWNLOAD_COUNTS="0")
    shared = tmp_path / "shared_cache"
    ranks = [subprocess.Popen([sys.executable, "-c", WORKER, str(rank), str(shared), str(REPO)],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for rank in (0, 1)]
    outputs = [p.communicate(timeout=900) for p in ranks]
    for p, (out, err) in zip(ranks, outputs):
        assert p.returncode == 0, err[-3000:]
    single = subprocess.run([sys.executable, "-c", WORKER, "single", str(tmp_path / "alone"),
                             str(REPO)], env=env, capture_output=True, text=True, timeout=900)
    assert single.returncode == 0, single.stderr[-3000:]
    merged = json.loads(outputs[0][0].strip().splitlines()[-1])
    alone = json.loads(single.stdout.strip().splitlines()[-1])
    assert merged.pop("readme") == alone["faireval"]
    assert merged == alone
    assert set(merged) == set(FAMILIES)


def test_combine_runs_the_four_modules(tmp_path, monkeypatch):
    import evaluate

    from nerlens.demo import demo_train

    # the documentation's snippet, verbatim, in a folder holding its "train.conll" and metrics/
    (tmp_path / "train.conll").write_bytes(demo_train().read_bytes())
    (tmp_path / "metrics").symlink_to(REPO / "metrics")
    monkeypatch.chdir(tmp_path)
    tokens = [["John", "lives", "in", "Berlin"], ["Acme", "hired", "Mary"]]
    refs = [["B-person", "O", "O", "B-location"], ["B-corporation", "O", "B-person"]]
    preds = [["B-person", "O", "O", "B-person"], ["O", "O", "B-person"]]
    namespace = dict(tokens=tokens, predictions=preds, references=refs)
    exec(snippet("combine", DOCS / "evaluate.md"), namespace)
    combined = namespace["scores"]
    for family in FAMILIES:
        alone = evaluate.load(f"metrics/{family}", tokens=tokens,
                              train=str(demo_train())).compute(predictions=preds, references=refs)
        for key, value in alone.items():
            if isinstance(value, float):
                assert combined[f"{family}_{key}"] == value, (family, key)
