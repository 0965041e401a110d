"""Hugging Face Space: Tough Mentions Recall, recall on unseen and type-confusable mentions."""
from nerlens.families import family_package
from nerlens.space import build_demo

# The family package, never the loading script tough_mentions.py beside this file: a Space runs
# app.py from this folder, where `import tough_mentions` would find the script first.
tough_mentions = family_package("tough_mentions")

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


def compute(references, predictions, tokens, train_tokens, train_tags, **options):
    options["case_sensitive"] = options.get("case_sensitive", "True") == "True"
    return tough_mentions.score(references, predictions, tokens=tokens,
                                train_tokens=train_tokens, train_tags=train_tags,
                                **options).to_dict()


demo = build_demo(
    "Tough Mentions Recall: recall on unseen and type-confusable mentions",
    "Recall on the gold mentions the training data does not make easy: Unseen-Tokens "
    "(the text was never a training mention), Unseen-Type (it was, but never of this "
    "type), and type-confusable mentions (TCM: the text has several types in the test "
    "set); precision and F1 overall only (Tu and Lignos, EACL SRW 2021).",
    compute, EXAMPLE, needs_tokens=tough_mentions.FAMILY.needs_tokens,
    needs_train=tough_mentions.FAMILY.needs_train,
    options={"case_sensitive": (("True", "False"), "True"),
             "mode": (("lenient", "strict"), "lenient")},
    headline="recall_unseen_any")

if __name__ == "__main__":
    demo.launch()
