"""Hugging Face Space: hardeval token error rates on unseen and label-shifted tokens."""
from nerlens.families import family_package
from nerlens.space import build_demo

# The family package, never the loading script hardeval.py beside this file: a Space runs
# app.py from this folder, where `import hardeval` would find the script first.
hardeval = family_package("hardeval")

EXAMPLE = {
    "tokens": "Ana lives in Paris\n"
              "Kim met Hilton staff in Washington",
    "references": "B-PER O O B-LOC\n"
                  "B-PER O B-ORG O O B-LOC",
    "predictions": "B-PER O O B-PER\n"
                   "B-PER O B-PER O O B-PER",
    "train": "Kim/B-PER lives/O in/O Paris/B-LOC\n"
             "Paris/B-PER Hilton/I-PER met/O staff/O\n"
             "Washington/B-PER said/O in/O Hilton/B-PER",
}


def compute(references, predictions, tokens, train_tokens, train_tags, **options):
    options["strict_diff"] = options.get("strict_diff") == "True"
    return hardeval.score(references, predictions, tokens=tokens, train_tokens=train_tokens,
                          train_tags=train_tags, **options).to_dict()


demo = build_demo(
    "hardeval: error rates on unseen and label-shifted tokens",
    "Token error rate (TER) on test tokens never seen in training (unseen) and on tokens "
    "whose gold label is not their usual training label (diff-I, diff-O, diff-E); "
    "hardeval = mean TER on unseen and diff, lower is better "
    "(Bernier-Colborne and Langlais, LREC 2020).",
    compute, EXAMPLE, needs_tokens=hardeval.FAMILY.needs_tokens,
    needs_train=hardeval.FAMILY.needs_train,
    options={"error_labels": (("bilou", "bio", "io"), "bilou"),
             "strict_diff": (("False", "True"), "False")},
    headline="hardeval")

if __name__ == "__main__":
    demo.launch()
