"""The static sentence-embedding model dense retrieval reads: texts in, unit-length float32 rows out.

Dense retrieval runs for every question, so encoding must cost far less than a transformer
forward pass: the model is static (model2vec; a question's vector is the weighted mean of its
tokens' vectors), distilled from all-MiniLM-L6-v2 and shipped in this package (README: license
and provenance). It is loaded from the package folder on first use, once per process; nothing is
downloaded.

Encoding thousands of endpoint declarations at once is bound by the tokenizer, and those texts
repeat the same words (field names, "the", "identifier") thousands of times. So a batch is split
into words first, as the model's (BERT) pre-tokenizer splits them, each distinct word is tokenized
once, and a text's vector is the mean of its words' token vectors: what model2vec computes, without
tokenizing a repeated word again. Unlike model2vec's own ``encode``, a long text is not cut at the
tokenizer's 512 tokens: every word an endpoint declares counts.
"""

from __future__ import annotations

import re
import threading
from importlib.resources import files
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix

if TYPE_CHECKING:
    from model2vec import StaticModel

__all__ = ["MODEL_NAME", "dimensions", "encode"]

MODEL_NAME = "all-MiniLM-L6-v2 (model2vec static, 128 dims, int8)"
_lock = threading.Lock()  # two threads asking first must not load the model twice
_loaded: list[StaticModel] = []
# BERT's pre-tokenizer splits at whitespace and at every punctuation character (the underscore too)
_WORDS = re.compile(r"[^\W_]+|[^\w\s]|_")
_FEW, _SHORT = 8, 512  # a batch this small of texts this short goes through model2vec's encode


def _model() -> StaticModel:
    if _loaded:
        return _loaded[0]
    with _lock:
        if not _loaded:
            from model2vec import StaticModel

            # a local folder: model2vec reads it without asking the Hugging Face hub
            folder = files("schemarouter_embeddings").joinpath("model")
            _loaded.append(StaticModel.from_pretrained(str(folder), normalize=True))
    return _loaded[0]


def dimensions() -> int:
    """The length of every vector :func:`encode` returns."""
    return int(_model().dim)


def encode(texts: list[str]) -> npt.NDArray[np.float32]:
    """One float32 row per text, each of unit length (a text with no known token: a zero row)."""
    model = _model()
    if not texts:
        return np.zeros((0, model.dim), dtype=np.float32)
    if len(texts) <= _FEW and all(len(t) <= _SHORT for t in texts):
        # a question or two: model2vec's own encode costs less than setting up the batch below, and
        # gives the same vectors (a text of at most 512 characters has at most 512 tokens: none is cut)
        out = np.asarray(model.encode(texts, show_progress_bar=False, use_multiprocessing=False), dtype=np.float32)
    else:
        out = _encode_batch(model, texts)
    # normalize again in float32 so that a cosine is a plain dot product
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def _encode_batch(model: StaticModel, texts: list[str]) -> npt.NDArray[np.float32]:
    """Unnormalized text vectors, each distinct word of the batch tokenized once."""
    known: dict[str, int] = {}  # distinct word -> its row in the word sums
    ids: list[npt.NDArray[np.int32]] = []  # per text, its words' rows (a text's words are not kept)
    for t in texts:
        words = _WORDS.findall(t.lower())
        ids.append(np.fromiter((known.setdefault(w, len(known)) for w in words), dtype=np.int32, count=len(words)))
    sums = _word_sums(model, list(known))
    # each text's vector is the sum of its words' rows (the mean's direction): a sparse (texts x
    # words) count matrix times the word sums, one product for the whole batch
    indptr = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(i) for i in ids], out=indptr[1:])
    columns = np.concatenate(ids)
    del ids
    counts = csr_matrix((np.ones(len(columns), dtype=np.float32), columns, indptr), shape=(len(texts), len(known)))
    return np.asarray(counts @ sums, dtype=np.float32)


def _word_sums(model: StaticModel, words: list[str]) -> npt.NDArray[np.float32]:
    """The sum of each word's token vectors (unknown tokens left out, as model2vec leaves them)."""
    sums = np.zeros((len(words), model.dim), dtype=np.float32)
    if not words:
        return sums
    table = model.embedding  # int8: only the rows used are widened to float32
    unknown = model.unk_token_id
    for i, encoding in enumerate(model.tokenizer.encode_batch_fast(words, add_special_tokens=False)):
        ids = [t for t in encoding.ids if t != unknown]
        if ids:
            sums[i] = table[ids].sum(axis=0, dtype=np.float32)
    return sums
