"""Tough Mentions Recall: NER recall on unseen and type-confusable mentions (evaluate metric)."""
import importlib.util

import evaluate

# Without nerlens, name the one package to install. evaluate's own check reads the
# column-0 imports below (all from nerlens) and asks for "pip install nerlens"; this
# guard says the same to an import that bypasses that check.
if importlib.util.find_spec("nerlens") is None:
    raise ModuleNotFoundError("the tough_mentions metric needs nerlens: pip install nerlens",
                              name="nerlens")
from nerlens.families import family_package
from nerlens.metric_support import TrainingDataMixin, module_result

# the family package, never this script (run from this folder it would shadow it)
tough_mentions = family_package("tough_mentions")

_CITATION = """\
@inproceedings{tu-lignos-2021-tmr,
    title = "{TMR}: Evaluating {NER} Recall on Tough Mentions",
    author = "Tu, Jingxuan and Lignos, Constantine",
    booktitle = "Proceedings of the 16th Conference of the European Chapter of the Association for Computational Linguistics: Student Research Workshop",
    month = apr,
    year = "2021",
    address = "Online",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2021.eacl-srw.21",
    doi = "10.18653/v1/2021.eacl-srw.21",
    pages = "155--163",
}
@inproceedings{lignos-etal-2022-toward,
    title = "Toward More Meaningful Resources for Lower-resourced Languages",
    author = "Lignos, Constantine and Holley, Nolan and Palen-Michel, Chester and S{\\"a}lev{\\"a}, Jonne",
    booktitle = "Findings of the Association for Computational Linguistics: ACL 2022",
    month = may,
    year = "2022",
    address = "Dublin, Ireland",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2022.findings-acl.44",
    doi = "10.18653/v1/2022.findings-acl.44",
    pages = "523--532",
}
"""

_DESCRIPTION = """\
Tough Mentions Recall (Tu and Lignos, 2021) asks how well a named entity recogniser finds
the gold mentions that its training data does not make easy. Each gold test mention is
Seen (its text was a training mention of the same type), Unseen-Type (its text was a
training mention, but never of this type) or Unseen-Tokens (its text was never a
training mention); Unseen-Any joins the two unseen kinds. Type-confusable mentions
(TCM-All) are those whose text carries at least two different gold types in the test
set; they split into TCM-Unseen (unseen tokens) and TCM-Seen. Recall is reported on
every subset, overall and per type, with the data composition (how many gold mentions
fall in each subset). Precision and F1 are reported only overall: a false positive
belongs to no subset.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predicted tag lists, one per sentence.
    references: list of reference tag lists, same shape.
    predictions may be generated output (an LLM's): per sentence the response (a
        string: JSON, a code fence, inline <TYPE>...</TYPE> markup, prose) or a list of
        {"text", "type"} dicts; each entity is located in the sentence's tokens
        (options occurrences, fuzzy; matching="grounded"), one not found is a wrong
        prediction; repairs["pred"]["generative"] counts what could not be used.
    predictions, references may also be span lists per sentence: dicts {"label", "start",
        "end"} (token offsets, end exclusive) or a transformers token-classification
        pipeline's output dicts (character offsets); options texts, inclusive_end, snap,
        offsets ("chars": the dicts count characters of texts, as spaCy writes them)
        (nerspan.InputOptions, the same in every family); an empty span list is no mention.
    label_list: the tags in id order (a list, or model.config.id2label): predictions and
        references are then label ids as a Trainer gives them (lists or padded arrays of
        ints; positions whose reference id is -100 are dropped from both sides), with the
        numbers of the tag route. At evaluate.load(...) or at compute(...).
    tokens: the test words per sentence (or give them to evaluate.load(...)).
    train: training data: a datasets split, a column file path, a nerspan Corpus or
        TrainIndex; or a (tokens, tags) pair of lists per sentence. Give it
        to evaluate.load(...) to index it once, or to compute(...).
    case_sensitive: compare mention texts exactly (default True) or lowercased.
    return_mentions: add "mentions", the gold mentions of each subset with their hit.
    scheme: tag scheme, default "IOB2". mode: "lenient" (default) or "strict".
    confusion: also give the entity confusion matrix, confusion[gold type][predicted
        type] over mentions with identical spans ("O": missed, spurious), and
        boundary_errors per type apart (nerspan.Evaluation.confusion).
    beta: also report F-beta beside every F1 (a number > 0, seqeval's beta) under a key
        naming it: f2, f0.5 (fair_f2, a schema's f2, per type...); 1 (default) adds none.
Options may also be given to evaluate.load(...); compute(...) overrides them.
Returns:
    precision, recall, f1: overall entity-level scores (exact span and type).
    recall_seen, recall_unseen_any, recall_unseen_tokens, recall_unseen_type,
        recall_tcm_all, recall_tcm_seen, recall_tcm_unseen: recall on each subset, None
        for an empty subset.
    counts, hits: subset ("all" and the seven subsets) -> gold mentions, and how many of
        them were predicted exactly.
    per_type: type -> its recall and recall_<subset>, counts, hits and composition
        (subset -> share of the gold mentions of that type).
    composition: subset -> share of all gold mentions.
    options, repairs: the options used and what lenient decoding repaired.
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/tough_mentions",
    ...                        train=([["Newcastle", "is", "a", "city", "in", "the", "UK"]],
    ...                               [["B-LOC", "O", "O", "O", "O", "O", "B-LOC"]]))
    >>> results = metric.compute(
    ...     tokens=[["John", "Brown", ",", "the", "Newcastle", "star", "from", "the", "UK"]],
    ...     references=[["B-PER", "I-PER", "O", "O", "B-ORG", "O", "O", "O", "B-LOC"]],
    ...     predictions=[["B-PER", "I-PER", "O", "O", "B-LOC", "O", "O", "O", "B-LOC"]])
    >>> results["recall_seen"], results["recall_unseen_type"], results["recall_unseen_tokens"]
    (1.0, 0.0, 1.0)
    >>> results["recall_unseen_any"], round(results["recall"], 4), results["recall_tcm_all"]
    (0.5, 0.6667, None)
    >>> counts = results["counts"]
    >>> counts["seen"], counts["unseen_type"], counts["unseen_tokens"], counts["unseen_any"]
    (1, 1, 1, 2)
    >>> results = metric.compute(tokens=[["Jordan", "flew", "to", "Jordan"]],
    ...                          references=[["B-PER", "O", "O", "B-LOC"]],
    ...                          predictions=[["B-PER", "O", "O", "B-PER"]])
    >>> results["counts"]["tcm_all"], results["recall_tcm_unseen"], results["recall_tcm_seen"]
    (2, 0.5, None)
    >>> results["per_type"]["LOC"]["recall"], results["composition"]["tcm_all"]
    (0.0, 1.0)
    >>> results["per_type"]["LOC"]["composition"]["unseen_tokens"]
    1.0
"""

@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class ToughMentions(TrainingDataMixin, evaluate.Metric):
    """Recall on unseen and type-confusable mentions (Tough Mentions Recall)."""

    FAMILY = "tough_mentions"

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=self.input_features(),
            reference_urls=["https://aclanthology.org/2021.eacl-srw.21",
                            "https://aclanthology.org/2022.findings-acl.44"],
        )

    def _compute(self, predictions, references, tokens=None, train=None, **kwargs):
        settings = self._settings(kwargs)
        predictions, references = self._read(settings, predictions, references,
                                             self._tokens_for(tokens))
        train = self._require_train(self._index_for(train, settings), "tough_mentions")
        return module_result(tough_mentions.score, references, predictions, train=train,
                             **settings)
