"""What the nerlens report shows of hardeval, as plain data.

- ``statistic_name``: readable names of the token error rates;
- ``analyses``: the corpus statistics (the paper's Tables 1-2 and the test tokens per
  subset of its Table 4) and the most frequent tokens of each hard subset with each
  system's errors on them;
- ``section``: the error rates, the share of errors per subset and the analyses (page
  blocks);
- ``domains_blocks``: the out-of-domain table of ``core.score_domains`` (page blocks; the
  command line's ``--manifest`` view);
- ``diff_tokens``: the label-shifted tokens a system gets wrong, as error examples;
- ``REPAIRS``: what re-encoding the predictions as BILOU repaired.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from nerspan import GOLD
from nerspan.blocks import Collapsed, Heading, Note, Table, Tiles
from nerspan.family import Repairs, no_gold_note
from nerspan.layers import layer_title

from .analysis import corpus_statistics, systems_hard_tokens, token_errors
from .core import layer_evaluations
from .labels import REFERENCE_KINDS
from .subsets import GROUPS, HEADER_LEGEND, HEADERS, LEAF_NAMES, gold_token_classes

HARD_TOKENS_SHOWN = 5

SUBSETS = {
    "ter": "all tokens", "ter_unseen": "unseen tokens", "ter_unseen_i": "unseen tokens in mentions",
    "ter_unseen_o": "unseen tokens outside mentions", "ter_diff": "label-shifted tokens",
    "ter_diff_i": "label-shifted: mostly O in training, in a mention here",
    "ter_diff_o": "label-shifted: mostly in mentions in training, O here",
    "ter_diff_e": "label-shifted: mostly another type in training",
    "ter_other": "other tokens",
}




def subset_title(subset: str) -> str:
    """A subset's readable name (``unseen_i`` -> ``unseen tokens in mentions``)."""
    return SUBSETS.get(f"ter_{subset}", SUBSETS["ter"] if subset == "all" else subset)


def statistic_name(key: str, first=None) -> str:
    """``ter_unseen`` -> ``token error rate, unseen tokens``.

    >>> statistic_name("hardeval"), statistic_name("ter_diff")
    ('hardeval score (mean TER unseen, label-shifted)', 'token error rate, label-shifted tokens')
    """
    if key == "hardeval":
        return "hardeval score (mean TER unseen, label-shifted)"
    return f"token error rate, {SUBSETS.get(key, key)}"


def per_layer(result: dict) -> bool:
    """Whether ``result`` (a result dict) is hardeval's against gold with layers: each
    layer scored on its own (``LayeredHardevalResult``), nothing over them together."""
    return "layers" in result and "subsets" not in result


def analyses(context, results: dict, settings: dict) -> dict:
    """The corpus statistics (with a training index) and the hard tokens (``hard_tokens_of``,
    the ``settings``' ``top`` most frequent per subset, default ``HARD_TOKENS_SHOWN``; the
    command line's --top) of the gold ``context`` (a ``nerspan.Evaluation``), its subsets
    made as the results' options say; against gold with layers, each layer's (``layers``:
    number -> its analyses)."""
    if results and per_layer(next(iter(results.values()))):
        return {"layers": {name: analyses(own, {system: result["layers"][name]
                                                for system, result in results.items()},
                                          settings)
                           for name, own in layer_evaluations(context).items()}}
    codes = subset_codes(context, next(iter(results.values())))
    statistics = {} if context.train is None else {   # k-fold: no training data to describe
        "corpus_statistics": corpus_statistics(context.train, {"test": context},
                                               context.scheme, context.mode, {"test": codes})}
    return {**statistics, "tokens": hard_tokens_of(
        context, results, settings.get("top", HARD_TOKENS_SHOWN), codes)}


def hard_tokens_of(context, results: dict, top: int = HARD_TOKENS_SHOWN, codes=None) -> dict:
    """The analyses' ``tokens`` alone (the command line's --hard-tokens): the ``top`` most
    frequent tokens of each subset of the gold ``context`` with the errors of every system
    of ``results`` (one gold column's), its subsets made (``codes``: made already) and its
    errors counted as the results' options say (``strict_diff``, ``kfold``,
    ``error_labels``)."""
    first = next(iter(results.values()))
    if per_layer(first):
        raise ValueError("hard tokens (--hard-tokens) rank the tokens of one gold column's "
                         "subsets, and gold has layers (--layers): read one layer "
                         "(--gold-tag-column), or take each layer's from analyses")
    codes = subset_codes(context, first) if codes is None else codes
    return systems_hard_tokens(context, results, codes, top, first["options"]["error_labels"])


def subset_codes(context, result: dict):
    """The leaf code of every gold token of ``context`` as ``result`` (a result dict)
    classified them: its ``strict_diff``, or by its ``kfold``."""
    kfold = result.get("kfold")
    return gold_token_classes(context, result["options"]["strict_diff"],
                              kfold and (kfold["k"], kfold["seed"]))


# -- the report's section ----------------------------------------------------------------
NO_GOLD = ("no test token lies inside one, so the subsets of such tokens (unseen-I, "
           "diff-I, diff-E) hold none and their error rates are undefined (\u2013); the "
           "other subsets are scored as usual.")


def section(view) -> tuple:
    """How the subsets were made by k-fold, the error rate of every subset per system
    (with the subsets' sizes), the share of the errors in each subset, the corpus
    statistics and the hard tokens; against gold with layers, all of them per layer
    (``layer_sections``)."""
    if per_layer(view.first()):
        return layer_sections(view)
    first = view.first()
    kfold = first.get("kfold")
    folds = (Note(f"Subsets by {kfold['k']}-fold cross-validation over the gold (seed "
                  f"{kfold['seed']}; sentences per fold {kfold['fold_sentences']})"),) \
        if kfold else ()
    names = list(first["subsets"])
    # no hardeval score for the sizes' rows: an empty cell, not the mark of undefined
    sizes = [["tokens", ""] + [first["subsets"][n]["tokens"] for n in names],
             ["% of tokens", ""] + [first["subsets"][n]["tokens"]
                                      / max(first["subsets"]["all"]["tokens"], 1)
                                      for n in names]]
    rows = [[system, r["hardeval"]] + [r["subsets"][n]["ter"] for n in names]
            for system, r in view.results.items()]
    breakdown = [[system] + [r["error_breakdown"][k] for k in ("unseen", "diff", "other")]
                 for system, r in view.results.items()]
    return (*folds, *no_gold_note(view, NO_GOLD),
            Table(["system", "hardeval score"] + [HEADERS.get(n, n) for n in names],
                  sizes + rows,
                  note="Token error rate (%) per subset; lower is better. TER on diff-O and "
                       "unseen-O means little on its own: a system that tags nothing has TER "
                       f"0 there. {HEADER_LEGEND}"),
            Heading("Share of all errors (%)"),
            Table(["system", "unseen", "label-shifted", "other"], breakdown),
            *analyses_blocks(view))


LAYERS_NOTE = (
    "Gold has layers, and hardeval's token error rates are defined on one tag per token: "
    "each layer is scored on its own, as if it were the only gold column, against the "
    "system's layer of that number when it has as many, else its one column. No number "
    "is made for the layers together. Layer k is the k-th tag column given to layers / "
    "--layers (GermEval 2014: 1 outer, 2 inner); span lists that nest are layered by "
    "nesting, layer 1 the outermost mentions, layer 2 those inside them.")


def layer_sections(view) -> tuple:
    """hardeval's section against gold with layers: what a layer is, then for each
    layer its heading and the blocks of ``section`` on that layer alone."""
    out = [Note(LAYERS_NOTE)]
    extra = view.analyses.get("layers", {}) if view.analyses else {}
    for name in view.first()["layers"]:
        layer = replace(view, results={system: result["layers"][name]
                                       for system, result in view.results.items()},
                        analyses=extra.get(name, {}))
        out += [Heading(layer_title(name), 3),
                *(replace(block, level=block.level + 1) if isinstance(block, Heading) else block
                  for block in section(layer))]   # the layer's headings under its own
    return tuple(out)


STATISTICS = {"sentences": "sentences", "tokens": "tokens", "mentions": "mentions",
              "unique_mentions": "distinct mention texts",
              "ambiguous_tokens": "ambiguous tokens",
              "ambiguous_unique_tokens": "distinct ambiguous token strings",
              "ambiguous_mentions": "ambiguous mentions",
              "ambiguous_unique_mentions": "distinct ambiguous mention texts",
              "unseen_mentions": "unseen mentions",
              "unseen_unique_mentions": "distinct unseen mention texts"}


def analyses_blocks(view) -> tuple:
    extra = view.analyses
    if not extra:
        return ()
    return (*(statistics_blocks(extra["corpus_statistics"]) if "corpus_statistics" in extra
              else ()), *hard_tokens_blocks(extra["tokens"], view.systems))


def statistics_blocks(stats: dict, per_subset: bool = False) -> tuple:
    """The corpus statistics (corpus -> ``analysis.corpus_statistics``'s); ``per_subset``:
    the tokens of each subset too (the paper's Table 4)."""
    def cell(value):
        if isinstance(value, dict):
            share = "" if value["share"] is None else f" ({100 * value['share']:.1f}%)"
            return f"{value['count']}{share}"
        return None if value is None else str(value)

    scored = [c for c in stats if "subsets" in stats[c]] if per_subset else []
    return (Heading("Corpus statistics (the paper's Tables 1-2)"),
            Table(["statistic", *stats], [[name] + [cell(stats[c].get(k)) for c in stats]
                                           for k, name in STATISTICS.items()],
                  note="Ambiguous: a token string seen with two or more IO labels, a mention "
                       "text with two or more types; unseen: a mention text that is no "
                       "training mention.")) + ((
        Heading("Tokens per subset (the paper's Table 4)"),
        Table(["subset", *scored], [[HEADERS[name]] + [cell(stats[c]["subsets"][name])
                                                      for c in scored] for name in GROUPS])
    ) if scored else ())


def hard_tokens_blocks(tokens: dict, systems) -> tuple:
    """The most frequent tokens of each subset (``analysis.hard_tokens``) with each
    system's errors on them."""
    tiles = [(subset_title(subset),
              Table(["token", "count"] + [f"errors {s}" for s in systems],
                    [[r["token"], r["count"]] + [r["errors"][s] for s in systems]
                     for r in rows], system_columns=2))
             for subset, rows in tokens.items() if rows]
    return (Collapsed("Most frequent hard tokens of each subset, with each system's errors "
                      "on them (the paper's section 3.2)", (Tiles(tiles),)),)


# -- the command line's out-of-domain table -----------------------------------------------
DOMAIN_COLUMNS = {"f1": "F1", "hardeval": "hardeval score", "ter": "TER",
                  "ter_unseen": "unseen", "ter_diff": HEADERS["diff"], "ter_other": "other"}
DOMAINS_NOTE = ("F1 = entity-level micro F1; TER in %, lower is better; avg = macro average "
                "over the domains where a number is defined")


def domains_blocks(averaged: dict) -> tuple:
    """The out-of-domain table of one system (``core.score_domains``, or a system's of
    ``core.systems_over_domains``): one row per domain, entity F1 and TERs, then their
    average (the paper's out-of-domain table)."""
    rows = [[name] + [head[k] for k in DOMAIN_COLUMNS] for name, head in
            averaged["domains"].items()]
    rows.append(["avg"] + [averaged[k] for k in DOMAIN_COLUMNS])
    return (Table(["domain", *DOMAIN_COLUMNS.values()], rows),)


# -- error examples ----------------------------------------------------------------------
def diff_tokens(result: dict, system: str, context) -> dict:
    """The label-shifted (diff) tokens ``system`` gets wrong: sentence, position in the
    sentence, token, subset (diff-I, diff-O, diff-E) and both raw tags. (hardeval compares
    BILOU labels, so a token can be wrong while its raw tags agree: its mention's
    boundary differs.) Against gold with layers, each layer's, the row naming its
    ``layer``."""
    if per_layer(result):
        return {"diff_token": [{**row, "layer": int(name)}
                               for name, own in layer_evaluations(context).items()
                               for row in diff_tokens(result["layers"][name], system,
                                                      own)["diff_token"]]}
    corpus = context.corpus
    codes = gold_token_classes(context)
    system = result.get("pred_column", system)   # a layer's: the system's layer k or all
    errors = token_errors(corpus, system, GOLD, context.scheme, context.mode, context=context)
    diff = np.isin(codes, GROUPS["diff"])
    rows = []
    for position in np.flatnonzero(diff & errors).tolist():
        sentence = int(np.searchsorted(corpus.offsets, position, side="right") - 1)
        rows.append({"sentence": sentence, "token_index": position - int(corpus.offsets[sentence]),
                     "token": corpus.vocab[corpus.tokens[position]],
                     "subset": LEAF_NAMES[codes[position]],
                     "gold_tag": corpus.labels[corpus.column(GOLD)[position]],
                     "predicted_tag": corpus.labels[corpus.column(system)[position]]})
    return {"diff_token": rows}


# -- repairs -----------------------------------------------------------------------------
def reencoding_repairs(result: dict) -> dict:
    """What re-encoding one system's predictions as BILOU repaired (non-zero counts);
    against gold with layers, each prediction column's once: one column scored against
    every layer, as for flat gold; the prediction's own layers, the kind naming each."""
    if per_layer(result):
        first = {}   # prediction column -> the first layer scoring it
        for name, layer in result["layers"].items():
            first.setdefault(layer["pred_column"], name)
        if len(first) == 1:
            return reencoding_repairs(result["layers"][next(iter(first.values()))])
        return {f"{kind}, {layer_title(name)}": count for name in first.values()
                for kind, count in reencoding_repairs(result["layers"][name]).items()}
    repaired = result.get("repairs", {}).get("pred", {})
    return {kind: repaired[kind] for kind in REFERENCE_KINDS if repaired.get(kind)}


REPAIRS = Repairs(
    "hardeval re-encoding", reencoding_repairs,
    "hardeval re-encodes the predictions as BILOU: an I after O is dropped (dropped "
    "inside), B-X I-Y is one mention of type X (mixed type).")

