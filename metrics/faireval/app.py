"""Hugging Face Space: FairEval error types and fair scores for tag sequences."""
from nerlens.space import build_demo

EXAMPLE = {
    "tokens": "John Smith met the Acme board of Big Tech\n"
              "In New York , Ana spoke",
    "references": "B-PER I-PER O O B-LOC O B-ORG I-ORG I-ORG\n"
                  "O B-LOC I-LOC O B-PER O",
    "predictions": "B-PER O O O B-ORG O B-ORG I-ORG O\n"
                   "O B-LOC I-LOC O B-PER B-ORG",
}


def options(chosen: dict) -> dict:
    """The dropdowns as faireval's options (a dropdown cannot offer None)."""
    return {**chosen, "weights": None if chosen.get("weights") == "none" else chosen["weights"]}


demo = build_demo(
    "faireval",
    "FairEval: NER error types without double penalties",
    "Every disagreement becomes one error: labeling (LE), boundary (BE: BEs smaller, "
    "BEl larger, BEo crossing), labeling-boundary (LBE), FN or FP. Fair scores count "
    "LE, BE and LBE as half an FP and half an FN (Ortmann, LREC 2022); the entity scores "
    "are the exact-match ones, the fair scores FairEval's, and the weighted preset adds "
    "weight-table scores.",
    EXAMPLE,
    options={"weights": (("none", "weighted"), "none", "Weight table (none, or the "
                                                        "paper's weighted preset)"),
             "focus": (("target", "system"), "target", "Count label errors under the label "
                                                      "of the target or of the system")},
    convert=options)

if __name__ == "__main__":
    demo.launch()
