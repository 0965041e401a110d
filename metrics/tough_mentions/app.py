"""Hugging Face Space: Tough Mentions Recall, recall on unseen and type-confusable mentions."""
from nerlens.space import build_demo

# Every subset occurs: UK, Kim and the LOC Paris are Seen; Newcastle (ORG here, LOC in
# training) and the ORG Paris are Unseen-Type; John Brown and Jordan are Unseen-Tokens;
# Jordan (PER and LOC) and Paris (ORG and LOC) are type-confusable in this test set.
EXAMPLE = {
    "tokens": "John Brown , the Newcastle star from the UK\n"
              "Jordan flew to Jordan with Kim\n"
              "Paris beat Newcastle in Paris",
    "references": "B-PER I-PER O O B-ORG O O O B-LOC\n"
                  "B-PER O O B-LOC O B-PER\n"
                  "B-ORG O B-ORG O B-LOC",
    "predictions": "B-PER I-PER O O B-LOC O O O B-LOC\n"
                   "B-PER O O B-PER O B-PER\n"
                   "B-LOC O B-ORG O B-LOC",
    "train": "Newcastle/B-LOC is/O a/O city/O in/O the/O UK/B-LOC\n"
             "Kim/B-PER lives/O in/O Paris/B-LOC",
}


def options(chosen: dict) -> dict:
    """The dropdowns as options: case_sensitive a bool; mode is the report's decoding."""
    return {**chosen, "case_sensitive": chosen.get("case_sensitive", "True") == "True"}


demo = build_demo(
    "tough_mentions",
    "Tough Mentions Recall: recall on unseen and type-confusable mentions",
    "Recall on the gold mentions the training data does not make easy: Unseen-Tokens "
    "(the text was never a training mention), Unseen-Type (it was, but never of this "
    "type), and type-confusable mentions (TCM: the text has several types in the test "
    "set); precision and F1 overall only (Tu and Lignos, EACL SRW 2021).",
    EXAMPLE,
    options={"case_sensitive": (("True", "False"), "True",
                                "Compare mention texts with training case-sensitively"),
             "mode": (("lenient", "strict"), "lenient",
                      "Decoding of invalid tag sequences (lenient or strict)")},
    convert=options)

if __name__ == "__main__":
    demo.launch()
