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

model2vec made the vectors and defines them, but is not imported to encode: the files are read with
``safetensors`` and ``tokenizers`` (what model2vec reads them with), which spares every process that
routes with dense retrieval the import of the Hugging Face hub client (0.87 s to the first vector
with model2vec's loader, 0.30 s without it). A few short texts give model2vec's ``encode`` output to
the bit (a test holds them to it).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from importlib.resources import files

import numpy as np
import numpy.typing as npt
from tokenizers import Tokenizer

__all__ = ["MODEL_NAME", "dimensions", "encode"]

MODEL_NAME = "all-MiniLM-L6-v2 (model2vec static, 128 dims, int8)"
_lock = threading.Lock()  # two threads asking first must not load the model twice
_loaded: list[StaticVectors] = []
# BERT's pre-tokenizer splits at whitespace and at every punctuation character (the underscore too)
_WORDS = re.compile(r"[^\W_]+|[^\w\s]|_")
_FEW, _SHORT = 8, 512  # a batch this small of texts this short is encoded text by text


@dataclass(frozen=True)
class StaticVectors:
    """The model as encoding reads it: the tokenizer, one int8 row per token, and the unknown token."""

    tokenizer: Tokenizer
    embedding: npt.NDArray[np.int8]
    unk_token_id: int | None

    @property
    def dim(self) -> int:
        """The length of a row."""
        return int(self.embedding.shape[1])


def _model() -> StaticVectors:
    if _loaded:
        return _loaded[0]
    with _lock:
        if not _loaded:
            _loaded.append(_load())
    return _loaded[0]


def _load() -> StaticVectors:
    """The shipped model, read as model2vec's ``StaticModel.from_pretrained`` reads a local folder
    (its safetensors file, its tokenizer, padding and truncation as model2vec sets them), without
    importing model2vec: that import brings the Hugging Face hub client and costs most of a second
    in every process that routes with dense retrieval on."""
    from safetensors import safe_open

    folder = files("schemarouter_embeddings").joinpath("model")
    config = json.loads(folder.joinpath("config.json").read_text("utf-8"))
    with safe_open(str(folder.joinpath("model.safetensors")), framework="numpy") as tensors:
        names = set(tensors.keys())
        if names != {"embeddings"}:
            # per-token weights or a token mapping (another model2vec layout) would change every vector
            raise RuntimeError(f"schemarouter-embeddings: unexpected tensors in the model file: {sorted(names)}")
        embedding = tensors.get_tensor("embeddings")
    tokenizer = Tokenizer.from_file(str(folder.joinpath("tokenizer.json")))
    padding = tokenizer.padding
    if padding is not None:  # model2vec keeps the pad token but pads nothing
        tokenizer.enable_padding(pad_id=padding["pad_id"], pad_token=padding["pad_token"],
                                 pad_type_id=padding["pad_type_id"], length=0)
    tokenizer.enable_truncation(int(config.get("max_length", 512)))
    unknown = tokenizer.model.unk_token if hasattr(tokenizer.model, "unk_token") else None
    return StaticVectors(tokenizer, embedding, tokenizer.token_to_id(unknown) if unknown else None)


def dimensions() -> int:
    """The length of every vector :func:`encode` returns."""
    return int(_model().dim)


def encode(texts: list[str]) -> npt.NDArray[np.float32]:
    """One float32 row per text, each of unit length (a text with no known token: a zero row)."""
    model = _model()
    if not texts:
        return np.zeros((0, model.dim), dtype=np.float32)
    if len(texts) <= _FEW and all(len(t) <= _SHORT for t in texts):
        # a question or two: encoding text by text costs less than setting up the batch below
        out = _encode_few(model, texts)
    else:
        out = _encode_batch(model, texts)
    # normalize again in float32 so that a cosine is a plain dot product
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


def _encode_few(model: StaticVectors, texts: list[str]) -> npt.NDArray[np.float32]:
    """What model2vec's ``encode`` gives for a few short texts, to the bit (a text of at most 512
    characters has at most 512 tokens: none is cut): the mean of each text's token rows, unknown
    tokens left out, then normalized as model2vec normalizes."""
    out = np.zeros((len(texts), model.dim), dtype=np.float32)
    unknown = model.unk_token_id
    for i, encoding in enumerate(model.tokenizer.encode_batch_fast(texts, add_special_tokens=False)):
        ids = [t for t in encoding.ids if t != unknown]
        if ids:
            out[i] = model.embedding[ids].mean(axis=0)  # int8 rows: an exact sum, then one division
    norm = np.linalg.norm(out, axis=1, keepdims=True) + 1e-32
    normalized: npt.NDArray[np.float32] = (out / norm).astype(np.float32)
    return normalized


def _encode_batch(model: StaticVectors, texts: list[str]) -> npt.NDArray[np.float32]:
    """Unnormalized text vectors, each distinct word of the batch tokenized once."""
    from scipy.sparse import csr_matrix  # only a batch needs it (a question does not pay the import)

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


def _word_sums(model: StaticVectors, words: list[str]) -> npt.NDArray[np.float32]:
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
