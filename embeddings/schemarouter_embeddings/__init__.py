"""The static sentence-embedding model dense retrieval reads: texts in, unit-length float32 rows out.

Dense retrieval runs for every question, so encoding must cost far less than a transformer
forward pass: the model is static (model2vec; a question's vector is the weighted mean of its
tokens' vectors), distilled from all-MiniLM-L6-v2 and shipped in this package (README: license
and provenance). It is loaded from the package folder on first use, once per process; nothing is
downloaded.
"""

from __future__ import annotations

import threading
from importlib.resources import files
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from model2vec import StaticModel

__all__ = ["MODEL_NAME", "dimensions", "encode"]

MODEL_NAME = "all-MiniLM-L6-v2 (model2vec static, 128 dims, int8)"
_lock = threading.Lock()  # two threads asking first must not load the model twice
_loaded: list[StaticModel] = []


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
    if not texts:
        return np.zeros((0, dimensions()), dtype=np.float32)
    vectors = np.asarray(_model().encode(texts, show_progress_bar=False), dtype=np.float32)
    # model2vec normalizes; normalize again in float32 so a cosine is a plain dot product
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    np.divide(vectors, norms, out=vectors, where=norms > 0)
    return vectors
