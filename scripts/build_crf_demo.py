"""Build the scored demo predictions: a CRF trained on WNUT-17, with its confidences.

    pip install "nerlens[demo-build]"       # sklearn-crfsuite, for this script only
    python scripts/build_crf_demo.py         # writes nerlens/data/wnut17/crf_scored.jsonl

Trains a linear-chain CRF (sklearn-crfsuite: L-BFGS, c1 = c2 = 0.1, 100 iterations; the
word features of its tutorial with prefixes, word shapes and two words each side) on the
shipped WNUT-17 training split, tags the test split (the Viterbi path) and gives each
predicted mention a confidence: the minimum over its tokens of the CRF's marginal
probability of the predicted tag (``nerspan.scored.scored_tokens``, METHODS §8). Writes
one JSON line per test sentence, ``{"spans": [{"start", "end", "label", "score"}, ...]}``
with token offsets and scores rounded to 4 decimals, the scored span lists every nerlens
reader takes. There is no seed to fix: L-BFGS draws no random number, and the features
are built in one order, so the same sklearn-crfsuite and python-crfsuite versions give
the same file byte for byte (``tests/test_crf_demo.py`` checks it where sklearn-crfsuite
is installed).

Prints the CRF's scores on the test split read back from the file: F1 (every mention
kept, ``nerspan.score`` of the Viterbi tags), average precision, the best threshold and
its F1, and the expected calibration error.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the nerlens of this checkout
from nerspan import decode, read_columns, read_span_jsonl  # noqa: E402
from nerspan.scored import scored_spans, scored_tokens  # noqa: E402
from nerspan.sweeps import sweep_spans  # noqa: E402

DATA = REPO / "nerlens" / "data" / "wnut17"
OUT = DATA / "crf_scored.jsonl"
DECIMALS = 4
CRF_OPTIONS = {"algorithm": "lbfgs", "c1": 0.1, "c2": 0.1, "max_iterations": 100,
               "all_possible_transitions": True}


def sentences(path: Path) -> tuple[list, list]:
    """``(tokens, tags)`` per sentence of a ``token tag`` file."""
    corpus = read_columns(path, {"gold": 1})
    rows = range(corpus.n_sentences)
    return ([corpus.sentence_tokens(i) for i in rows], [corpus.tags("gold", i) for i in rows])


def shape(word: str) -> str:
    """The word's shape, runs cut to two: ``Paris`` -> ``Xxx``, ``2017`` -> ``dd``."""
    shaped = re.sub("[0-9]", "d", re.sub("[a-z]", "x", re.sub("[A-Z]", "X", word)))
    return re.sub(r"(.)\1+", r"\1\1", shaped)


def word_features(words: list[str], i: int) -> dict:
    """The features of word ``i``: sklearn-crfsuite's tutorial's (without POS tags), with
    prefixes, the word shape, tweet markers and a window of two words each side."""
    word = words[i]
    features = {"bias": 1.0, "lower": word.lower(), "suffix3": word[-3:].lower(),
                "suffix2": word[-2:].lower(), "prefix3": word[:3].lower(),
                "prefix2": word[:2].lower(), "isupper": word.isupper(),
                "istitle": word.istitle(), "isdigit": word.isdigit(), "shape": shape(word),
                "mention": word.startswith("@"), "hashtag": word.startswith("#"),
                "url": word.lower().startswith("http")}
    for offset in (-2, -1, 1, 2):
        if 0 <= i + offset < len(words):
            other = words[i + offset]
            features.update({f"{offset}:lower": other.lower(),
                             f"{offset}:istitle": other.istitle(),
                             f"{offset}:isupper": other.isupper(),
                             f"{offset}:shape": shape(other)})
        else:
            features[f"{offset}:outside"] = True
    return features


def featurised(tokens: list) -> list:
    return [[word_features(words, i) for i in range(len(words))] for words in tokens]


def scored_lines(train: Path, test: Path) -> list[str]:
    """The JSON lines of the CRF's scored mentions on ``test``."""
    import sklearn_crfsuite  # the script's own dependency (nerlens[demo-build])

    train_tokens, train_tags = sentences(train)
    test_tokens, _ = sentences(test)
    crf = sklearn_crfsuite.CRF(**CRF_OPTIONS)
    crf.fit(featurised(train_tokens), train_tags)
    features = featurised(test_tokens)
    labels = ["O"] + sorted(set(crf.classes_) - {"O"})
    index = {label: k for k, label in enumerate(labels)}
    marginals = [np.array([[token.get(label, 0.0) for label in labels] for token in sentence])
                 .reshape(len(sentence), len(labels))
                 for sentence in crf.predict_marginals(features)]
    paths = [[index[tag] for tag in path] for path in crf.predict(features)]
    mentions = scored_tokens(marginals, labels, predicted=paths, logits=False)
    return [json.dumps({"spans": [{**m, "score": round(m["score"], DECIMALS)} for m in spans]})
            for spans in mentions.to_lists()]


def summary(gold_path: Path, scored_path: Path) -> dict:
    """The CRF's scores on the test split, read back from the file."""
    gold = decode(read_columns(gold_path, {"gold": 1}))
    sweep = sweep_spans(gold, scored_spans(read_span_jsonl(scored_path)["spans"]))
    result = sweep.to_dict()
    return {key: result[key] for key in ("precision", "recall", "f1", "predicted",
                                         "average_precision", "best_threshold",
                                         "best_f1", "ece")}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    lines = scored_lines(DATA / "train.conll", DATA / "test.conll")
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    numbers = summary(DATA / "test.conll", args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes, {len(lines)} sentences)")
    for key, value in numbers.items():
        print(f"  {key:<18} {value:.4f}" if isinstance(value, float) else
              f"  {key:<18} {value}")
    return numbers


if __name__ == "__main__":
    main()
