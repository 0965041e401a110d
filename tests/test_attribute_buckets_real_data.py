"""attribute_buckets on the shared real data (skipped when ../shared/data is absent):
CoNLL-2003 with its 15 system outputs, WNUT-16 with its 2. No published numbers are
pinned; the checks are invariants, cross-checks against plain readings of METHODS.md
section 4, and the paper's qualitative findings."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import attribute_buckets as ab
import nerspan
from attribute_buckets import analysis
from tests.conftest import sequence_counts, shared_path


@pytest.fixture(scope="module")
def conll():
    """The training index and every system's corpus and result (index built once)."""
    index = nerspan.as_train_index(shared_path("data", "conll03", "train.txt"))
    corpora, results = {}, {}
    for path in sorted(shared_path("data", "conll03", "systems").glob("*.txt")):
        corpus = nerspan.read_system_file(path)
        corpora[path.stem] = corpus
        results[path.stem] = ab.score(corpus, train=index)
    return index, corpora, results


def check_invariants(result, corpus):
    d = result.to_dict()
    spans = nerspan.score(corpus)
    assert (d["precision"], d["recall"], d["f1"]) == spans.micro()
    for attribute, rows in d["buckets"].items():
        token = d["attributes"][attribute]["unit"] == "token"
        assert sum(r["gold"] for r in rows) == (corpus.n_tokens if token else spans.n_gold)
        assert sum(r["predicted"] for r in rows) == \
            (corpus.n_tokens if token else spans.n_predicted)
        for r in rows:
            assert r["correct"] <= min(r["gold"], r["predicted"])
            assert all(r[k] is None or 0 <= r[k] <= 1 for k in ("precision", "recall", "f1"))


def test_conll03_fifteen_systems(conll):
    index, corpora, results = conll
    assert len(results) == 15
    for name, result in results.items():
        check_invariants(result, corpora[name])
        published = int(name.rsplit("_", 1)[1])          # the F1 x 100 in the file name
        assert abs(10000 * result.f1 - published) <= 10, name
    # same gold everywhere: the same buckets and gold counts for every system
    first = next(iter(results.values())).to_dict()["buckets"]
    for result in results.values():
        d = result.to_dict()["buckets"]
        for attribute in ab.ATTRIBUTES:
            assert [(r["interval"], r["gold"]) for r in d[attribute]] == \
                [(r["interval"], r["gold"]) for r in first[attribute]]
    # eLen buckets by direct counting of the gold mention lengths
    corpus = next(iter(corpora.values()))
    lengths = Counter(min(len(m), 4) for m in _gold_mentions(corpus))
    assert [r["gold"] for r in first["eLen"]] == [lengths[1], lengths[2], lengths[3], lengths[4]]
    # the paper's finding: mentions never seen consistently labelled ({0}) and never seen
    # in training (eFre {0}) are the hardest, for every one of the 15 systems
    for name, result in results.items():
        econ, efre = result.bucket_f1("eCon"), result.bucket_f1("eFre")
        assert econ[0] < econ[-1], name
        assert efre[0] == min(efre), name


def _gold_mentions(corpus):
    spans = nerspan.decode(corpus, "gold")
    return [range(a, b) for a, b in zip(spans.start.tolist(), spans.end.tolist())]


def test_conll03_values_agree_with_plain_readings(conll):
    index, corpora, results = conll
    name, corpus = next(iter(corpora.items()))
    result = results[name]
    gold = nerspan.decode(corpus, "gold")
    words = corpus.token_strings()
    # eCon for the first 400 gold mentions from a plain count of the training text
    sample = range(400)
    sequences = [tuple(words[gold.start[i]:gold.end[i]]) for i in sample]
    occurrences, annotated = sequence_counts(index, sequences, lowercase=True)
    expected = [annotated[k][gold.types[gold.type[i]]] / occurrences[k] if occurrences[k] else 0.0
                for k, i in enumerate(sample)]
    assert result.tables["eCon"].gold_values[:400] == pytest.approx(expected)
    # eFre: training mentions with the (lowercased) text / all training mentions
    texts = index.mention_types(lowercase=True)
    expected = [sum(texts.get(" ".join(s).lower(), Counter()).values()) / index.n_mentions
                for s in sequences]
    assert result.tables["eFre"].gold_values[:400] == pytest.approx(expected)
    # tCon of the first 2000 tokens from the lowercased label counts
    counts = {}
    train_io = np.zeros(index.corpus.n_tokens, dtype=int)
    for s, a, b in zip(index.spans.type.tolist(), index.spans.start.tolist(),
                       index.spans.end.tolist()):
        train_io[a:b] = 1 + s
    for word, label in zip(index.corpus.token_strings(), train_io.tolist()):
        counts.setdefault(word.lower(), Counter())[label] += 1
    test_io = np.zeros(corpus.n_tokens, dtype=int)
    for t, a, b in zip(gold.type.tolist(), gold.start.tolist(), gold.end.tolist()):
        test_io[a:b] = 1 + index.types.index(gold.types[t])
    expected = []
    for word, label in zip(words[:2000], test_io[:2000].tolist()):
        c = counts.get(word.lower())
        expected.append(c[label] / sum(c.values()) if c else 0.0)
    assert result.tables["tCon"].gold_values[:2000] == pytest.approx(expected)


def test_conll03_analyses_across_systems(conll):
    _, _, results = conll
    model = analysis.model_wise(results)
    for per_attribute in model.values():
        for entry in per_attribute.values():
            assert entry["spearman"] is None or -1 <= entry["spearman"] <= 1
            assert entry["std"] >= 0
    # the weakest system (spaCy, mapped types) is by far the most sensitive to eLen
    stds = {name: m["eLen"]["std"] for name, m in model.items()}
    assert max(stds, key=stds.get).startswith("spacy")
    view = analysis.attribute_wise(results)
    assert set(view) == set(ab.ATTRIBUTES)
    assert all(0 <= v["rho"] <= 1 for a, v in view.items() if a != "tag")
    assert view["tag"] == {"zeta": None, "rho": None}       # types have no order
    assert view["eLen"]["zeta"] == pytest.approx(
        results["spanner_bert_9246"].tables["eLen"].gold_values.mean())
    # frequency: every system gets better with more frequent mentions
    assert view["eFre"]["rho"] > 0.9
    diagnosis = analysis.self_diagnosis(results["spacy_sm_mapped_5953"])
    assert diagnosis["eLen"]["worst"] == "XL" and diagnosis["eLen"]["gap"] > 0.3
    compare = analysis.comparative_diagnosis(results["interpreteval_flair_glove_9303"],
                                             results["spanner_rand_7849"])
    assert compare["eCon"]["most_exceeds"] == "XS"      # random embeddings fail on {0}
    # Friedman across the eFre buckets with the 15 systems as blocks; Wilcoxon between
    # the two InterpretEval systems over all buckets of all attributes
    friedman = analysis.friedman_buckets(list(results.values()), "eFre")
    assert friedman["n_runs"] == 15 and friedman["pvalue"] < 1e-4
    wilcoxon = analysis.wilcoxon(
        [f for a in ab.ATTRIBUTES for f in results["interpreteval_flair_glove_9303"].bucket_f1(a)],
        [f for a in ab.ATTRIBUTES for f in results["interpreteval_elmo_glove_9222"].bucket_f1(a)])
    assert wilcoxon["n_pairs"] == 36 and wilcoxon["pvalue"] < 0.05   # Flair beats ELMo


def test_conll03_bootstrap_and_compat(conll):
    index, corpora, results = conll
    corpus = corpora["interpreteval_flair_glove_9303"]
    boot = ab.score(corpus, train=index, attributes=["eLen", "eCon"], options={'bootstrap': 300, 'seed': 1})
    for attribute in ("eLen", "eCon"):
        for row in boot.to_dict()["buckets"][attribute]:
            low, high = row["f1_interval"]
            assert low <= row["f1"] <= high
    # the small {3}/[4, inf) eLen buckets have wider intervals than {1}
    widths = [r["f1_interval"][1] - r["f1_interval"][0] for r in boot.to_dict()["buckets"]["eLen"]]
    assert widths[3] > widths[0]
    compat = ab.score(corpus, train=index, compat="interpreteval").to_dict()
    assert compat["f1"] == results["interpreteval_flair_glove_9303"].f1
    assert [r["interval"] for r in compat["buckets"]["eCon"]] == \
        ["{0}", "(0, 0.5]", "(0.5, 0.999]", "{1}"]
    for attribute, info in compat["attributes"].items():
        rows = compat["buckets"][attribute]
        assert sum(r["gold"] for r in rows) + info["outside_gold"] == info["n_gold"]
        assert len(rows) <= 4
    # the first accumulated sLen bucket: gold keeps its lowest value, predictions do not
    first = compat["buckets"]["sLen"][0]
    assert first["interval"].startswith("(") and first["gold_interval"].startswith("[")
    assert compat["attributes"]["sLen"]["outside_predicted"] > 0
    assert compat["attributes"]["tCon"]["n_gold"] == \
        sum(len(m) for m in _gold_mentions(corpus))        # entity tokens only


def test_wnut16_two_systems():
    index = nerspan.as_train_index(shared_path("data", "wnut16", "train.txt"))
    results = {}
    for path in sorted(shared_path("data", "wnut16", "systems").glob("*.txt")):
        corpus = nerspan.read_system_file(path)
        result = ab.score(corpus, train=index)
        check_invariants(result, corpus)
        assert abs(10000 * result.f1 - int(path.stem.rsplit("_", 1)[1])) <= 10
        results[path.stem] = result
        compat = ab.score(corpus, train=index, compat="interpreteval").to_dict()
        assert compat["f1"] == result.f1
    assert len(results) == 2
    # on Twitter most test mentions never occur in training: bucket {0} of eFre is large
    first = next(iter(results.values())).to_dict()
    efre = first["buckets"]["eFre"]
    assert efre[0]["gold"] > sum(r["gold"] for r in efre) / 2
    view = analysis.summary(results)
    assert len(view["comparative_diagnosis"]) == 1
