"""Hugging Face Space: hardeval token error rates on unseen and label-shifted tokens."""
from nerlens.space import build_demo

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


def options(chosen: dict) -> dict:
    """The dropdowns as hardeval's options: strict_diff a bool."""
    return {**chosen, "strict_diff": chosen.get("strict_diff") == "True"}


demo = build_demo(
    "hardeval",
    "hardeval: error rates on unseen and label-shifted tokens",
    "Token error rate (TER) on test tokens never seen in training (unseen) and on tokens "
    "whose gold label is not their usual training label (diff-I, diff-O, diff-E); "
    "hardeval = mean TER on unseen and diff, lower is better "
    "(Bernier-Colborne and Langlais, LREC 2020).",
    EXAMPLE,
    options={"error_labels": (("bilou", "bio", "io"), "bilou",
                              "Token labels compared (BILOU as the reference code, BIO or IO)"),
             "strict_diff": (("False", "True"), "False",
                             "Label-shifted only where the gold label never occurs with "
                             "the token in training (the paper's strict variant)")},
    convert=options)

if __name__ == "__main__":
    demo.launch()
