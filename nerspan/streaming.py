"""Block-wise scoring: entity scores of many systems on a large corpus in little memory.

``score_in_blocks`` decodes and counts a corpus in blocks of whole sentences (about
``SCORE_BLOCK`` tokens each): mentions never cross a sentence, so the blocks' counts and
repairs add up to the whole corpus's, and only one block's spans are held at once. The
result of each system is ``nerspan.score``'s on the whole corpus, whose ``to_dict()``
also gives ``tokens`` and ``accuracy`` (the share of tokens whose tag is the gold tag),
which is what conlleval.pl prints (``nerlens score`` prints it so).

>>> from nerspan import Corpus
>>> corpus = Corpus.from_tags([["B-PER", "I-PER", "O"], ["B-LOC", "O"]],
...                           columns={"a": [["B-PER", "I-PER", "O"], ["O", "O"]]})
>>> result = score_in_blocks(corpus, block_tokens=2)["a"].to_dict()
>>> result["precision"], result["recall"], result["accuracy"]
(1.0, 0.5, 0.8)
"""
from __future__ import annotations

import dataclasses
import warnings
from typing import Sequence

import numpy as np

from .corpus import Corpus
from .errors import DecodingWarning
from .flat import GOLD, side_name
from .options import check_int
from .schemes import check_mode, get_scheme
from .layers import (decode_layers, is_layered, layer_against, layer_column,
                     layer_columns, own_columns, with_layers)
from .partials import EntityPartial, Shard, merged, spans_partial
from .scores import EntityScores
from .spans import LabelTable, check_tags, decode

# Tokens per block of whole sentences: the spans of a whole 100 MB file would add 0.6x
# the file to the peak memory; a block of 2**18 tokens adds 6 MiB and scores it as fast
# as 2**20 (which adds 27 MiB) or 2**16.
SCORE_BLOCK = 1 << 18


@dataclasses.dataclass(frozen=True)
class TokenScores(EntityScores):
    """``EntityScores`` of a whole corpus scored in blocks, with its tokens and how many
    of them have the gold tag: ``to_dict()`` adds ``tokens`` and ``accuracy``."""

    n_tokens: int = 0
    same_tags: int = 0

    def plain_dict(self) -> dict:
        out = super().plain_dict()
        out["tokens"] = self.n_tokens
        out["accuracy"] = self.same_tags / self.n_tokens if self.n_tokens else 0.0
        return out


def score_in_blocks(corpus: Corpus, systems: Sequence[str] | None = None,
                    scheme: str = "IOB2", mode: str = "lenient", *,
                    block_tokens: int | None = None) -> dict:
    """Entity scores of every system column of ``corpus``: name -> ``TokenScores``.

    Args:
        corpus: a ``Corpus`` with a ``gold`` column and the systems' columns (tokens are
            not needed: ``read_columns(..., token_column=None)`` keeps memory lowest).
        systems: the columns to score (default: every column but ``gold``).
        scheme, mode: how tags are decoded (``nerspan.decode``).
        block_tokens: tokens per block (default ``SCORE_BLOCK``); a longer sentence is
            a block of its own.

    Each result is ``nerspan.score(...)`` of the whole corpus, with ``tokens`` and
    ``accuracy``. Every column's tags are checked before the blocks, so an error
    names the sentence of the corpus. No ``DecodingWarning`` is raised: the result's
    ``repairs`` say what decoding repaired, once per column.
    """
    if not isinstance(corpus, Corpus):
        raise TypeError(f"score_in_blocks takes a nerspan.Corpus, not {type(corpus).__name__}")
    check_mode(mode)
    size = SCORE_BLOCK if block_tokens is None else check_int("block_tokens", block_tokens,
                                                             minimum=1)
    if systems is None:
        systems = [c for c in own_columns(corpus) if c != GOLD]
    if is_layered(corpus, GOLD):
        return layered_in_blocks(corpus, list(systems), scheme, mode, size)
    systems = list(systems)
    scheme = get_scheme(scheme)
    table = LabelTable.build(corpus.labels, scheme)
    for column in (GOLD, *systems):  # before the blocks: errors name the corpus's sentence
        check_tags(corpus, corpus.column(column), table, scheme, mode, side_name(column))
    parts = {name: [] for name in systems}  # per system, per block: its EntityPartial
    same_tags = dict.fromkeys(systems, 0)
    numbers = corpus.source.sentence_numbers
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DecodingWarning)
        for first, block in sentence_blocks(corpus, size):
            gold = decode(block, GOLD, scheme, mode, table)
            for name in systems:
                pred = decode(block, name, scheme, mode, table)
                same_tags[name] += int(np.count_nonzero(block.column(name)
                                                        == block.column(GOLD)))
                parts[name].append(spans_partial(gold, pred, 0.0, Shard(first), numbers))
    return {name: token_scores(merged(parts[name]), corpus.n_tokens, same_tags[name])
            for name in systems}


@dataclasses.dataclass(frozen=True)
class LayeredTokenScores(TokenScores):
    """``TokenScores`` against layered gold (``nerspan.layers``): over the union of the
    layers, with ``layers`` (layer number -> that layer's ``TokenScores``) and
    ``merged`` (gold mentions identical in two layers, counted once). ``accuracy`` at
    the top is against layer 1's tags; each layer's is against its own."""

    layers: dict = dataclasses.field(default_factory=dict)
    merged: int = 0

    def plain_dict(self) -> dict:
        return with_layers(super().plain_dict(), self.layers, self.merged)


def layered_in_blocks(corpus: Corpus, systems: list, scheme, mode: str,
                      size: int, mapped=None) -> dict:
    """``score_in_blocks`` when gold has layers: per block, each layer decoded on its
    own and the union; each system's partials over the union and per layer.
    ``mapped(LayeredBlocks, "block", blocks)``: the blocks' ``LayeredBlocks.block``, in
    order, computed elsewhere (``nerlens.engines``: in local processes); None: here."""
    scheme = get_scheme(scheme)
    table = LabelTable.build(corpus.labels, scheme)
    gold_columns = layer_columns(corpus, GOLD)
    for column in gold_columns + [c for name in systems for c in layer_columns(corpus, name)]:
        check_tags(corpus, corpus.column(column), table, scheme, mode, side_name(column))
    scoring = LayeredBlocks(tuple(systems), scheme, mode, table,
                            corpus.source.sentence_numbers)
    blocks = sentence_blocks(corpus, size)
    found = (scoring.block(*block) for block in blocks) if mapped is None else \
        mapped(scoring, "block", list(blocks))
    n_merged, parts = 0, {name: {} for name in systems}
    for block_merged, block_parts in found:
        n_merged += block_merged
        for name, by_part in block_parts.items():
            for part, partial in by_part.items():
                parts[name].setdefault(part, []).append(partial)
    return {name: _layered_scores(corpus, name, parts[name], n_merged) for name in systems}


@dataclasses.dataclass(frozen=True)
class LayeredBlocks:
    """What scores one block of ``layered_in_blocks`` (shipped once to each process
    that scores blocks): the systems, the decoding, each sentence's number."""

    systems: tuple
    scheme: object
    mode: str
    table: LabelTable
    numbers: object = None

    def block(self, first: int, block: Corpus) -> tuple[int, dict]:
        """``(gold mentions merged across layers, system -> part -> partial)`` of the
        ``block`` whose first sentence is sentence ``first`` of the whole (parts:
        ``"union"`` and each layer's number)."""
        shard, parts = Shard(first), {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DecodingWarning)
            gold = decode_layers(block, GOLD, self.scheme, self.mode, self.table)
            for name in self.systems:
                pred = decode_layers(block, name, self.scheme, self.mode, self.table)
                parts[name] = {"union": spans_partial(gold.union, pred.union, 0.0, shard,
                                                      self.numbers)}
                for k, layer in enumerate(gold.layers, 1):
                    parts[name][str(k)] = spans_partial(layer, layer_against(pred, k), 0.0,
                                                        shard, self.numbers)
        return gold.merged, parts


def _layered_scores(corpus: Corpus, name: str, parts: dict, n_merged: int
                    ) -> LayeredTokenScores:
    """One system's ``LayeredTokenScores`` from its partials (``layered_in_blocks``)."""
    pred_columns = layer_columns(corpus, name)

    def same(k: int) -> int:
        pred_column = pred_columns[k - 1] if len(pred_columns) >= k else name
        return int(np.count_nonzero(corpus.column(layer_column(GOLD, k))
                                    == corpus.column(pred_column)))
    layers = {k: token_scores(merged(partials), corpus.n_tokens, same(int(k)))
              for k, partials in parts.items() if k != "union"}
    whole = token_scores(merged(parts["union"]), corpus.n_tokens, same(1))
    return LayeredTokenScores(**{f.name: getattr(whole, f.name)
                                 for f in dataclasses.fields(TokenScores)},
                              layers=layers, merged=n_merged)


def sentence_blocks(corpus: Corpus, size: int = SCORE_BLOCK):
    """``(first sentence, block)`` for blocks of whole sentences of about ``size``
    tokens (a longer sentence is a block of its own), each a ``Corpus`` of views of
    ``corpus``'s arrays, with the file lines of its sentences for error messages. A
    corpus of at most ``size`` tokens is one block: itself."""
    if corpus.n_tokens <= size:
        yield 0, corpus
        return
    cuts = np.searchsorted(corpus.offsets, np.arange(size, corpus.n_tokens, size))
    bounds = np.unique(np.concatenate([[0], cuts, [corpus.n_sentences]])).tolist()
    for first, stop in zip(bounds[:-1], bounds[1:]):
        yield first, corpus.block(first, stop)


def token_scores(whole: EntityPartial, n_tokens: int, same_tags: int) -> TokenScores:
    """One system's ``TokenScores`` from its blocks' partials merged (a generated
    system's too: each block's record holds its sentences' ungrounded entities, wrong
    predictions, and the output's totals go with one block, ``Corpus.block``)."""
    scores = whole.result()
    return TokenScores(**{f.name: getattr(scores, f.name)
                          for f in dataclasses.fields(EntityScores)},
                       n_tokens=n_tokens, same_tags=same_tags)


__all__ = ["score_in_blocks", "sentence_blocks", "SCORE_BLOCK", "TokenScores",
           "LayeredTokenScores", "token_scores", "layered_in_blocks", "LayeredBlocks"]
