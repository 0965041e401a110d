"""Hugging Face Space: FairEval error types and fair scores for tag sequences."""
from nerlens.families import family_package
from nerlens.space import build_demo

# The family package, never the loading script faireval.py beside this file: a Space runs
# app.py from this folder, where `import faireval` would find the script first.
faireval = family_package("faireval")

EXAMPLE = {
    "references": "B-PER I-PER O O B-LOC O B-ORG I-ORG I-ORG\n"
                  "O B-LOC I-LOC O B-PER O",
    "predictions": "B-PER O O O B-ORG O B-ORG I-ORG O\n"
                   "O B-LOC I-LOC O B-PER B-ORG",
}


def compute(references, predictions, weights="none", **options):
    table = None if weights == "none" else weights   # a dropdown cannot offer None
    return faireval.score(references, predictions, weights=table, **options).to_dict()


demo = build_demo(
    "FairEval: NER error types without double penalties",
    "Every disagreement becomes one error: labeling (LE), boundary (BE: BEs smaller, "
    "BEl larger, BEo crossing), labeling-boundary (LBE), FN or FP. Fair scores count "
    "LE, BE and LBE as half an FP and half an FN (Ortmann, LREC 2022); precision, recall "
    "and f1 are the exact-match scores, fair_* the fair ones, weight_table_* those of the "
    "weighted preset.",
    compute, EXAMPLE, needs_tokens=faireval.FAMILY.needs_tokens,
    needs_train=faireval.FAMILY.needs_train,
    options={"weights": (("none", "weighted"), "none"),
             "focus": (("target", "system"), "target")},
    headline="fair_f1")

if __name__ == "__main__":
    demo.launch()
