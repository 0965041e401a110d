"""Hugging Face Space: attribute_buckets, bucket-wise NER scores by entity and sentence attributes."""
from nerlens.families import family_package
from nerlens.space import build_demo

# The family package, never the loading script attribute_buckets.py beside this file: a Space runs
# app.py from this folder, where `import attribute_buckets` would find the script first.
attribute_buckets = family_package("attribute_buckets")

EXAMPLE = {
    "tokens": "Ana visited New York\n"
              "Kim is big in New York Times circles\n"
              "Life in New York is fun .",
    "references": "B-PER O B-LOC I-LOC\n"
                  "B-PER O O O B-ORG I-ORG I-ORG O\n"
                  "O O B-LOC I-LOC O O O",
    "predictions": "B-PER O B-LOC O\n"
                   "B-PER O O O B-LOC I-LOC O O\n"
                   "O O B-LOC I-LOC O O O",
    "train": "Kim/B-PER lives/O in/O New/B-LOC York/I-LOC\n"
             "New/B-ORG York/I-ORG is/O big/O\n"
             "Kim/B-PER met/O Ana/B-PER in/O New/B-LOC York/I-LOC",
}


def compute(references, predictions, tokens, train_tokens, train_tags, **options):
    """The metric's result, with one table per attribute for the page."""
    options["n_buckets"] = int(options.get("n_buckets", 4))
    if options.get("compat") in ("none", "", None):
        options["compat"] = None
    result = attribute_buckets.score(references, predictions, tokens=tokens,
                                     train_tokens=train_tokens, train_tags=train_tags,
                                     **options).to_dict()
    shown = {key: result[key] for key in ("f1", "precision", "recall")}
    for attribute, rows in result["buckets"].items():
        shown[attribute] = [{k: row[k] for k in ("name", "interval", "gold", "predicted",
                                                 "precision", "recall", "f1")} for row in rows]
    return shown


demo = build_demo(
    "attribute_buckets: where does the NER system fail?",
    "Entity-level precision, recall and F1 per bucket of eight attributes: entity length "
    "(eLen), sentence length (sLen), entity density (eDen), OOV density (oDen), entity "
    "and token label consistency (eCon, tCon) and frequency (eFre, tFre) in the training "
    "data (Fu, Liu and Neubig, EMNLP 2020).",
    compute, EXAMPLE, needs_tokens=attribute_buckets.FAMILY.needs_tokens,
    needs_train=attribute_buckets.FAMILY.needs_train,
    options={"n_buckets": (("3", "4", "5", "6"), "4"),
             "compat": (("none", "interpreteval"), "none"),
             "frequency_norm": (("ratio", "rank5"), "ratio")},
    headline="f1")

if __name__ == "__main__":
    demo.launch()
