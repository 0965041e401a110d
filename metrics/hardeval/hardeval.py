"""hardeval: token error rates on unseen and label-shifted tokens (an evaluate metric)."""
import importlib.util

import evaluate

# Without nerlens, name the one package to install. evaluate's own check reads the
# column-0 imports below (all from nerlens) and asks for "pip install nerlens"; this
# guard says the same to an import that bypasses that check.
if importlib.util.find_spec("nerlens") is None:
    raise ModuleNotFoundError("the hardeval metric needs nerlens: pip install nerlens",
                              name="nerlens")
from nerlens.families import family_package
from nerlens.metric_support import TrainingDataMixin, per_example_option, module_result

# the family package, never this script (run from this folder it would shadow it)
hardeval = family_package("hardeval")

_CITATION = """\
@inproceedings{bernier-colborne-langlais-2020-hardeval,
    title = "{H}ard{E}val: Focusing on Challenging Tokens to Assess Robustness of {NER}",
    author = "Bernier-Colborne, Gabriel and Langlais, Phillippe",
    booktitle = "Proceedings of the Twelfth Language Resources and Evaluation Conference",
    month = may,
    year = "2020",
    address = "Marseille, France",
    publisher = "European Language Resources Association",
    url = "https://aclanthology.org/2020.lrec-1.211",
}
"""

_DESCRIPTION = """\
hardeval (Bernier-Colborne and Langlais, 2020) reports the token error rate (TER) on the
test tokens that are hard for a reason the training data shows: unseen tokens (never in
training; unseen-I inside a gold mention, unseen-O outside) and diff tokens whose gold
label is not their usual training label (diff-I: usually O but gold inside a mention;
diff-O: usually inside a mention but gold O; diff-E: inside, but usually of another
type). The hardeval score is the mean TER on unseen and diff tokens: lower is better.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of predicted tag lists, one per sentence.
    references: list of reference tag lists, same shape.
    predictions may be generated output (an LLM's): per sentence the response (a
        string: JSON, a code fence, inline <TYPE>...</TYPE> markup, prose) or a list of
        {"text", "type"} dicts; each entity is located in the sentence's tokens
        (options occurrences, fuzzy; matching="grounded"), one not found has no token to
        score (counted only); repairs["pred"]["generative"] counts what could not be used.
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
    subsets: precomputed leaf subset codes per token (e.g. hardeval.kfold_subsets(...));
        then no training data is needed. Load the module with subsets=True to make them
        an input given with each batch like the tags (aligned in batched and distributed
        runs); as a compute option they are deprecated.
    kfold, fold_seed: identify the subsets by k-fold cross-validation over the references
        (each fold against the other k-1; no training data): the result's "kfold" gives
        k, the seed, the sentences per fold and the tokens per subset.
    strict_diff: a token is diff only if its gold label never occurs with it in training
        (the paper's strict variant; mode="strict" is about decoding).
    error_labels: "bilou" (default, the reference code), "bio" (raw tags) or "io".
    return_hard_tokens: add "hard_tokens", the tokens of each subset with their compared
        labels.
    scheme: tag scheme, default "IOB2". mode: "lenient" (default) or "strict".
    confusion: also give the entity confusion matrix, confusion[gold type][predicted
        type] over mentions with identical spans ("O": missed, spurious), and
        boundary_errors per type apart (nerspan.Evaluation.confusion).
Returns:
    hardeval: mean of ter_unseen and ter_diff (an empty subset is left out; None when
        both are empty; "hardeval_parts" names the subsets used). Lower is better.
    ter, ter_unseen, ter_unseen_i, ter_unseen_o, ter_diff, ter_diff_i, ter_diff_o,
        ter_diff_e, ter_other: token error rate per subset, None for an empty subset.
    subsets: name -> tokens, words (distinct token strings), errors, ter, empty.
    error_breakdown: share of all errors in unseen, diff and other.
    per_type: gold entity type -> ter, ter_unseen, ... over the tokens of that type, with
        tokens and errors per subset.
    options, repairs: the options used and what decoding repaired (gold and pred).
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/hardeval",
    ...                        train=([["Kim", "lives", "in", "Paris"], ["Paris", "Hilton"]],
    ...                               [["B-PER", "O", "O", "B-LOC"], ["B-PER", "I-PER"]]))
    >>> results = metric.compute(references=[["B-PER", "O", "O", "B-LOC"]],
    ...                          predictions=[["B-PER", "O", "O", "B-PER"]],
    ...                          tokens=[["Ana", "lives", "in", "Paris"]])
    >>> results["ter"], results["ter_unseen"], results["ter_diff"], round(results["ter_other"], 4)
    (0.25, 0.0, None, 0.3333)
    >>> results["hardeval"], results["hardeval_parts"]
    (0.0, ['unseen'])
    >>> results = metric.compute(references=[["B-PER", "O", "O", "B-LOC"]],
    ...                          predictions=[["B-PER", "O", "O", "B-PER"]],
    ...                          tokens=[["Hilton", "lives", "in", "Paris"]])
    >>> results["subsets"]["unseen"]["tokens"], results["subsets"]["other"]["tokens"]
    (0, 4)
"""

@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Hardeval(TrainingDataMixin, evaluate.Metric):
    """Token error rates on unseen and label-shifted tokens."""

    FAMILY = "hardeval"
    DATA = ("subsets",)

    def _per_token(self) -> tuple:
        # evaluate.load(..., subsets=True): the codes are an input of every example
        return ("subsets",) if self._load_options.get("subsets") is True else ()

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=self.input_features(),
            reference_urls=["https://aclanthology.org/2020.lrec-1.211"],
        )

    def _compute(self, predictions, references, tokens=None, train=None, **kwargs):
        settings = self._settings(kwargs)
        predictions, references = self._read(settings, predictions, references,
                                             self._tokens_for(tokens))
        per_example_option("hardeval", "subsets", kwargs.get("subsets"),
                           "subsets" in self._per_token(), "subsets=True")
        index = None   # precomputed subsets, or k-fold over the references: no training
        if settings.get("subsets") is None and settings["family_options"].kfold is None:
            index = self._require_train(self._index_for(train, settings), "hardeval")
        return module_result(hardeval.score, references, predictions, train=index,
                             **settings)
