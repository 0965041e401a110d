"""A tiny randomly initialised BERT token classifier on the embedded WNUT-17 demo data.

Built from a config and a word-level tokenizer made here, so nothing is downloaded. Used
by the Trainer and evaluator integration tests; a few training steps on the CPU.
"""
from __future__ import annotations

from nerspan import read_columns

from nerlens.demo import demo_gold, demo_train

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def demo_split(path, limit: int | None = None):
    """(tokens, tags) per sentence of a demo column file, the first ``limit`` sentences."""
    corpus = read_columns(path, columns={"gold": 1})
    n = corpus.n_sentences if limit is None else min(limit, corpus.n_sentences)
    tokens = [corpus.sentence_tokens(i) for i in range(n)]
    tags = [corpus.tags("gold", i) for i in range(n)]
    return tokens, tags


def label_list(*tag_lists) -> list[str]:
    labels = sorted({t for tags in tag_lists for sentence in tags for t in sentence} - {"O"})
    return ["O"] + labels


def word_level_tokenizer(sentences):
    """A fast tokenizer whose vocabulary is the words of ``sentences`` (lower-cased)."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = {token: i for i, token in enumerate(SPECIAL)}
    for sentence in sentences:
        for word in sentence:
            vocab.setdefault(word.lower(), len(vocab))
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    backend.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="[PAD]",
                                   unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]",
                                   mask_token="[MASK]")


def tiny_bert(tokenizer, labels, seed: int = 0):
    import torch
    from transformers import BertConfig, BertForTokenClassification

    torch.manual_seed(seed)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=1,
                        num_attention_heads=2, intermediate_size=64,
                        max_position_embeddings=128,
                        id2label=dict(enumerate(labels)),
                        label2id={label: i for i, label in enumerate(labels)})
    # built from a config, a model is in training mode (dropout on); pipelines do not
    # switch it off, so predictions would differ from call to call
    return BertForTokenClassification(config).eval()


def encode(tokenizer, tokens, tags, labels, max_length: int = 128):
    """Tokenised features with word-aligned label ids; -100 on special tokens.

    Every word is one word-level token, so no sub-token is ignored; words past
    ``max_length`` would be cut, so sentences are checked to fit.
    """
    label_id = {label: i for i, label in enumerate(labels)}
    features = []
    for words, word_tags in zip(tokens, tags):
        if len(words) + 2 > max_length:
            raise ValueError(f"sentence of {len(words)} words does not fit {max_length}")
        encoded = tokenizer(words, is_split_into_words=True)
        encoded["labels"] = [-100 if w is None else label_id[word_tags[w]]
                             for w in encoded.word_ids()]
        features.append(dict(encoded))
    return features


def demo_setup(n_train: int = 256, n_eval: int = 64):
    """Everything the integration tests need: data, labels, tokenizer, model."""
    train_tokens, train_tags = demo_split(demo_train(), n_train)
    eval_tokens, eval_tags = demo_split(demo_gold(), n_eval)
    labels = label_list(train_tags, eval_tags)
    tokenizer = word_level_tokenizer(train_tokens + eval_tokens)
    model = tiny_bert(tokenizer, labels)
    return dict(train=(train_tokens, train_tags), eval_tokens=eval_tokens,
                eval_tags=eval_tags, labels=labels, tokenizer=tokenizer, model=model)
