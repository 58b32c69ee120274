"""Dense retrieval over every read endpoint: a question finds an endpoint by meaning, not words.

BM25F (:mod:`schemarouter.graph.lexical`) needs a shared word: "who directed the film" never
reaches an endpoint about a movie's crew. This index embeds what each read endpoint declares (the
same declarations BM25F indexes: source, path words, summary, tags, description, parameter and
field names and descriptions) with the static model of the optional distribution
``schemarouter-embeddings``, and ranks endpoints by cosine to the question's vector: one flat
matrix-vector product (no approximate index: at 10,000 sources the matrix is tens of MB and the
product a few milliseconds, and a flat scan is exact).

Built the first time a graph is asked (kept in ``graph.memos``; a graph never changes once built,
so the vectors never go stale), or, for a graph the cache layer builds, right after the build, so
that the vectors travel with the graph into its cache file and to other servers
(:func:`stored_vectors`, read back by :func:`restore_vectors`): a new process does not embed every
endpoint again. Vectors made by another model than the installed one are never read back. Where the
distribution is not installed every call answers nothing and routing is lexical only.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from schemarouter.config import setting
from schemarouter.graph.text import humanize

if TYPE_CHECKING:
    from schemarouter.graph.build import SchemaGraph
    from schemarouter.graph.records import EndpointInfo

Encoder = Callable[[list[str]], npt.NDArray[np.float32]]
MAX_FIELDS = 60  # field names past these (a wide nested record) only dilute the mean of the vectors
MAX_PROSE = 600  # characters of one description: its first sentences say what the endpoint is for
_lock = threading.Lock()  # two threads asking first build the index once


def load_encoder() -> Encoder | None:
    """``schemarouter_embeddings.encode``, or None when that distribution is not installed."""
    try:
        from schemarouter_embeddings import encode
    except ImportError:
        return None
    return encode


@dataclass
class DenseIndex:
    """Unit vectors of the read endpoints (rows), and which endpoint number each row is."""

    encode: Encoder
    numbers: npt.NDArray[np.int64]  # row -> endpoint number (``graph.numbers``), ascending
    vectors: npt.NDArray[np.float32]  # one unit row per read endpoint (a zero row: nothing to embed)
    rows: dict[int, int] = field(default_factory=dict)  # endpoint number -> row

    def scores(self, question: str) -> npt.NDArray[np.float32] | None:
        """The cosine of the question to every row; None when no word of it is known to the model
        (its vector is zero: it says nothing, and every endpoint would tie)."""
        vector = self.encode([question])[0]
        if not vector.any():
            return None
        # einsum, not ``@``: a matrix-vector product through a threaded BLAS hands a few
        # milliseconds of work to threads that, on two busy cores, wait longer than they save
        sims: npt.NDArray[np.float32] = np.einsum("ij,j->i", self.vectors, vector)
        return sims

    def top(self, question: str, k: int, keep: Collection[int] | None = None) -> list[tuple[int, float]]:
        """The ``k`` read endpoints nearest the question (number, cosine), best first, ties by the
        lower number; only those in ``keep`` when given (every row is a read endpoint already).

        ``question`` is the text embedded: a caller that has read the question's values (names,
        identifiers, numbers) does better to take them out first (:func:`without`), since a static
        model averages their tokens in with the words that say what is asked."""
        if k <= 0 or not len(self.numbers):
            return []
        sims = self.scores(question)
        if sims is None:
            return []
        numbers = self.numbers
        if keep is not None:
            at = np.fromiter((r for n in keep if (r := self.rows.get(n)) is not None), dtype=np.int64)
            at.sort()
            sims, numbers = sims[at], numbers[at]
        if k < len(sims):
            # the k best by cosine, plus every row tied with the k-th, ordered below
            kth = np.partition(sims, len(sims) - k)[len(sims) - k]
            picked = np.flatnonzero(sims >= kth)
        else:
            picked = np.arange(len(sims))
        order = picked[np.lexsort((numbers[picked], -sims[picked]))][:k]
        return [(int(numbers[i]), float(sims[i])) for i in order]


def dense_enabled() -> bool:
    """Whether routing reads the dense index too (``[routing] dense``; off by default, and a no-op
    where ``schemarouter-embeddings`` is not installed: the hybrid re-ranker gains a few points on
    large imported inventories and loses questions the lexical one gets right on small registries,
    see docs/routing.md)."""
    return bool(setting("routing", "dense", default=False))


@dataclass(frozen=True)
class StoredVectors:
    """A dense index without its encoder, as a graph cache file keeps it, and the model that made it.
    Plain bytes, not arrays: the cache file's unpickler resolves no numpy function."""

    model: str
    dims: int
    numbers: bytes  # int64, one per row
    vectors: bytes  # float32, rows of ``dims``

    @classmethod
    def of(cls, model: str, index: DenseIndex) -> StoredVectors:
        """The vectors of ``index``, made by ``model``."""
        return cls(model, int(index.vectors.shape[1]) if index.vectors.ndim == 2 else 0,
                   index.numbers.astype(np.int64).tobytes(), index.vectors.astype(np.float32).tobytes())

    def index(self, encode: Encoder) -> DenseIndex:
        """The dense index these vectors are (no copy of them is made)."""
        numbers = np.frombuffer(self.numbers, dtype=np.int64)
        vectors = np.frombuffer(self.vectors, dtype=np.float32).reshape(len(numbers), self.dims)
        return DenseIndex(encode=encode, numbers=numbers, vectors=vectors,
                          rows={int(n): r for r, n in enumerate(numbers)})


@dataclass
class DenseGraphMemo:
    """Per graph: the dense index, once built (``built`` stays True when nothing could be built),
    and the vectors a cache file brought (used instead of embedding again when the model matches)."""

    built: bool = False
    index: DenseIndex | None = None
    stored: StoredVectors | None = None


@cache
def model_key() -> str | None:
    """A digest of the installed model's files (None where none is installed): vectors stored by
    another model, or another build of it, are not this model's."""
    try:
        folder = files("schemarouter_embeddings").joinpath("model")
    except ModuleNotFoundError:
        return None
    digest = hashlib.sha256()
    for item in sorted(folder.iterdir(), key=lambda f: f.name):
        if item.is_file():
            digest.update(item.name.encode("utf-8"))
            digest.update(item.read_bytes())
    return digest.hexdigest()[:32]


def dense_index(graph: SchemaGraph, encoder: Encoder | None = None) -> DenseIndex | None:
    """The graph's dense index, built on first use (or read back from the vectors its cache file
    brought, where the installed model made them); None when no encoder is installed.
    ``encoder`` replaces the installed model (the first call decides; tests)."""
    memo = graph.memos.of(DenseGraphMemo)
    if not memo.built:
        with _lock:
            if not memo.built:
                encode = encoder or load_encoder()
                stored = memo.stored
                if encode is None:
                    memo.index = None
                elif encoder is None and stored is not None and stored.model == model_key():
                    memo.index = stored.index(encode)
                else:
                    memo.index = build_dense(graph, encode)
                memo.stored = None
                memo.built = True
    return memo.index


def stored_vectors(graph: SchemaGraph) -> StoredVectors | None:
    """The graph's dense vectors for its cache file, where they were built with the installed model."""
    memo = graph.memos.of(DenseGraphMemo)
    index = memo.index
    if index is None:
        return memo.stored  # none built here: whatever the file brought, if anything
    model = model_key()
    if model is None or index.encode is not load_encoder():
        return None  # made by another encoder (a test's): not the installed model's vectors
    return StoredVectors.of(model, index)


def lacks_vectors(graph: SchemaGraph) -> bool:
    """Whether the installed model would embed ``graph``'s endpoints on first use: no index is built and
    none came with it from a cache file made by this model (False where no model is installed)."""
    memo = graph.memos.of(DenseGraphMemo)
    if memo.built:
        return False
    return load_encoder() is not None and (memo.stored is None or memo.stored.model != model_key())


def restore_vectors(graph: SchemaGraph, stored: StoredVectors | None) -> None:
    """Hand the vectors a cache file brought to ``graph``'s dense index (read on its first use)."""
    if stored is not None:
        graph.memos.of(DenseGraphMemo).stored = stored


def top(graph: SchemaGraph, question: str, k: int, keep: Collection[int] | None = None) -> list[tuple[int, float]]:
    """:meth:`DenseIndex.top` over the graph's index; empty when no encoder is installed."""
    index = dense_index(graph)
    return index.top(question, k, keep) if index is not None else []


def without(text: str, values: Iterable[str]) -> str:
    """``text`` with each of ``values`` taken out (longest first), or ``text`` itself when nothing
    would be left."""
    out = text
    for value in sorted({v for v in values if v}, key=len, reverse=True):
        out = out.replace(value, " ")
    return out if out.strip() else text


def build_dense(graph: SchemaGraph, encode: Encoder) -> DenseIndex:
    """Embed every read endpoint of ``graph``. Copies of one declaration (the same text) are
    embedded once."""
    numbers: list[int] = []
    texts: list[str] = []
    for key, number in sorted(graph.numbers.items(), key=lambda item: item[1]):
        info = graph.endpoints[key]
        if info.access == "read":
            numbers.append(number)
            texts.append(endpoint_text(info))
    distinct = list(dict.fromkeys(texts))
    where = {text: i for i, text in enumerate(distinct)}
    unique = encode(distinct) if distinct else np.zeros((0, 1), dtype=np.float32)
    vectors = np.ascontiguousarray(unique[[where[t] for t in texts]], dtype=np.float32)
    del unique
    return DenseIndex(encode=encode, numbers=np.asarray(numbers, dtype=np.int64), vectors=vectors,
                      rows={n: r for r, n in enumerate(numbers)})


def endpoint_text(info: EndpointInfo) -> str:
    """What an endpoint declares, as words a sentence model reads: the text BM25F indexes
    (:func:`schemarouter.graph.lexical.endpoint_document`), unstemmed and in reading order, each part
    once. A static model's vector is the mean of its tokens' vectors, so a part written twice weighs
    twice: a tool listed with its name as title, path, summary and tag (as tool-selection inventories
    list them) would be mostly its name, and tools named alike would look alike whatever they do.
    Parts are compared by their letters and digits ("Create QR Code", "/CreateQRCode")."""
    src, ep = info.source, info.endpoint
    parts: list[str] = [src.title or humanize(src.id)]
    path = " ".join(humanize(s) for s in ep.path.split("?", 1)[0].split("/") if s and not s.startswith("{"))
    parts.extend(p for p in (path, ep.summary, " ".join(humanize(t) for t in ep.tags)) if p)
    if ep.description:
        parts.append(ep.description[:MAX_PROSE])
    for p in ep.parameters:
        parts.append(humanize(p.name))
        if p.description:
            parts.append(p.description[:MAX_PROSE])
    names = dict.fromkeys(humanize(f.name) for f in list(info.fields.values())[:MAX_FIELDS])
    parts.append(", ".join(names))
    for f in list(info.fields.values())[:MAX_FIELDS]:
        if f.field.description:
            parts.append(f.field.description[:MAX_PROSE])
    once: dict[str, str] = {}  # letters and digits -> the part as first written
    for part in parts:
        key = "".join(ch for ch in part.lower() if ch.isalnum())
        if key and key not in once:
            once[key] = part.strip()
    return ". ".join(once.values())
