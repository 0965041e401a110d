"""Hugging Face Space: attribute_buckets, bucket-wise NER scores by entity and sentence attributes."""
from nerlens.space import build_demo

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


def options(chosen: dict) -> dict:
    """The dropdowns as attribute_buckets' options: n_buckets an int, compat None or a name."""
    compat = chosen.get("compat")
    return {**chosen, "n_buckets": int(chosen.get("n_buckets", 4)),
            "compat": None if compat in ("none", "", None) else compat}


demo = build_demo(
    "attribute_buckets",
    "Attribute buckets: where does the NER system fail?",
    "Entity-level precision, recall and F1 per bucket of eight attributes: entity length "
    "(eLen), sentence length (sLen), entity density (eDen), OOV density (oDen), entity "
    "and token label consistency (eCon, tCon) and frequency (eFre, tFre) in the training "
    "data (Fu, Liu and Neubig, EMNLP 2020).",
    EXAMPLE,
    options={"n_buckets": (("3", "4", "5", "6"), "4", "Buckets per attribute"),
             "compat": (("none", "interpreteval"), "none",
                        "Bucketing (nerlens', or InterpretEval's reference code's)"),
             "frequency_norm": (("ratio", "rank5"), "ratio",
                                "Frequency normalisation (ratio as the paper, rank5 as the "
                                "reference code)")},
    convert=options)

if __name__ == "__main__":
    demo.launch()
