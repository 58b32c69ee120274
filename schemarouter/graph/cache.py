"""Graphs cached by registry fingerprint: built once per registry state, then reused.

Two levels: this process's memory (a server plans many questions on one graph), and a cache file
beside the registry (:mod:`schemarouter.graph.persist`), so a new process (every CLI ``plan``, ``run``
and ``ask``, every server start) loads the graph instead of reading every declaration and building
it again. The fingerprint changes with any declaration change, so neither level is ever stale; an
unsynced registry (no fingerprint) is built fresh every time.

The cache file of a SQLite registry sits beside its database file (``registry.db.graph``); a server
registry (Postgres) gets one in the data directory's ``graph-cache`` folder, named by a digest of its
URL. ``[graph] cache = false`` (or ``SCHEMAROUTER_GRAPH_CACHE=false``) turns the file off. With
``[cache] backend = "redis://..."`` a third level sits between the file and a build: the graph another
server published in Redis (:mod:`schemarouter.graph.shared`).
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import threading
import time
from pathlib import Path
from typing import Literal

from schemarouter.config import home, setting
from schemarouter.graph import persist, shared
from schemarouter.graph.build import SchemaGraph, build_graph, build_graph_in_batches
from schemarouter.graph.dense import dense_enabled, dense_index, lacks_vectors
from schemarouter.registry import Registry
from schemarouter.registry.batches import SourceBatches

log = logging.getLogger(__name__)
_CACHE: dict[str, SchemaGraph] = {}
_LOCK = threading.Lock()
_MAX_ENTRIES = 8
GRAPH_CACHE_ENV = "SCHEMAROUTER_GRAPH_CACHE"
# Where a loaded graph came from: this process's memory, the cache file, Redis (another server built it),
# or a build from the declarations. A server reports it on /healthz, so a fleet shows who built.
GraphSource = Literal["memory", "file", "redis", "built"]


def cache_file(registry: Registry) -> Path | None:
    """Where the graph of ``registry`` is kept on disk (None for an in-memory SQLite database)."""
    url = registry.engine.url
    if url.drivername.startswith("sqlite"):
        database = url.database or ""
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        path = Path(database).expanduser()
        return path.parent / (path.name + ".graph")
    # the URL names the registry (password hidden: it must not shape a file name either)
    name = hashlib.sha256(url.render_as_string(hide_password=True).encode("utf-8")).hexdigest()[:24]
    return home() / "graph-cache" / f"{name}.graph"


def file_cache_enabled() -> bool:
    """Whether graphs are kept in cache files (``[graph] cache``, default true)."""
    return bool(setting("graph", "cache", env=GRAPH_CACHE_ENV, default=True))


# Sources past which a cold start builds the graph batch by batch. It saves memory at any size (10,000
# sources: peak 305 -> 230 MB; 100,000: 2.25 -> 1.43 GB) but costs seconds: pickling each batch, and on
# Postgres a batch's queries (10,000 sources: read and build 5.9 -> 9.2 s on Postgres, 5.7 -> 6.6 s on
# SQLite), which a fleet waits for after every registry change. Below this a whole read fits the memory
# a server has anyway; far above it only batches do.
BATCHED_ABOVE_SOURCES = 20_000


def load_graph(registry: Registry, use_file: bool | None = None) -> SchemaGraph:
    """The schema graph of ``registry``'s current state: from memory, else from its cache file when that
    is whole and current, else built (and then written to the file). ``use_file`` overrides the setting."""
    return load_graph_traced(registry, use_file)[0]


def load_graph_traced(registry: Registry, use_file: bool | None = None) -> tuple[SchemaGraph, GraphSource]:
    """:func:`load_graph`, and where the graph came from (memory, the cache file, Redis, or a build).

    With Redis, a process that must build first takes the registry state's build lock; when another
    holds it, this one waits for the graph that one publishes (:func:`_fetch_or_claim`)."""
    fingerprint = registry.fingerprint()
    if fingerprint is not None:
        with _LOCK:
            cached = _CACHE.get(fingerprint)
        if cached is not None:
            return cached, "memory"
    path = cache_file(registry) if (file_cache_enabled() if use_file is None else use_file) else None
    redis_url = shared.backend()
    lock: shared.BuildLock | None = None
    if fingerprint is not None:
        loaded = persist.read(path, fingerprint) if path is not None else None
        if loaded is not None:
            if path is not None and dense_enabled() and lacks_vectors(loaded):
                # written while dense routing was off (or by another model): embedded once now and kept,
                # not again in every later process
                dense_index(loaded)
                persist.write(path, loaded)
            _remember(fingerprint, loaded)
            return loaded, "file"
        if redis_url is not None:
            started = time.perf_counter()
            fetched, lock = _fetch_or_claim(redis_url, fingerprint)  # built by another server over the same registry
            if fetched is not None:
                if path is not None:
                    persist.write(path, fetched.graph, fetched.data)  # the bytes as fetched: never encoded again
                _remember(fingerprint, fetched.graph)
                log.info("graph of %s loaded from Redis in %.1f s", fingerprint, time.perf_counter() - started)
                return fetched.graph, "redis"
    data: bytes | None = None
    try:
        started = time.perf_counter()
        graph, read_s = build_from_registry(registry)  # labelled with the fingerprint read with it
        fingerprint = graph.fingerprint
        if dense_enabled():
            dense_index(graph)  # embedded once here, so the vectors go into the cache file with the graph
        times = [started, started + read_s, time.perf_counter()]
        if fingerprint is not None:
            _remember(fingerprint, graph)
            # encoded once where Redis shares it: the same bytes go to Redis and to the file (a file
            # alone is written streamed, below, without the bytes in memory)
            data = persist.encode(graph) if redis_url is not None else None
            times.append(time.perf_counter())
            if redis_url is not None:
                shared.publish(redis_url, graph, data)  # first: the servers waiting on the lock need it
            times.append(time.perf_counter())
            # where a build's seconds go (a fleet's change pickup is mostly this), one line per build
            read_s, build_s, encode_s, publish_s = (b - a for a, b in itertools.pairwise(times))
            log.info("graph of %s built: registry read %.1f s, build %.1f s, encoding %.1f s (%.1f MB), "
                     "publishing %.1f s", fingerprint, read_s, build_s, encode_s, len(data or b"") / 1e6, publish_s)
    finally:
        if lock is not None:
            lock.release()
    if path is not None and fingerprint is not None and persist.write(path, graph, data) \
            and not registry.engine.url.drivername.startswith("sqlite"):
        persist.prune(path.parent)
    return graph, "built"


def build_from_registry(registry: Registry) -> tuple[SchemaGraph, float]:
    """The graph of ``registry``'s current state built from its declarations, and the seconds spent
    reading them. The fingerprint read with the declarations (one snapshot) labels the graph: a sync
    committing during the read must not file a graph of new content under the old fingerprint. A
    registry of more than :data:`BATCHED_ABOVE_SOURCES` sources is read and built a batch at a time,
    each batch's declarations spilled once the graph has what it needs of them
    (:func:`build_graph_in_batches`): a cold start then never holds all of them beside the graph. A
    smaller one is read whole and its sources stay live; so is any registry while dense routing is on
    (embedding every endpoint reads every declaration)."""
    with registry.batches() as batches:
        if len(batches) > BATCHED_ABOVE_SOURCES and not dense_enabled():
            try:
                return build_graph_in_batches(batches), batches.read_s
            except OSError as exc:
                # the spill's temporary file could not be written (a full or read-only temporary directory):
                # the graph is still built, from a whole read, with the memory that takes
                log.warning("building the graph in batches failed (%s: the temporary directory must hold the "
                            "registry's declarations, about as large as its graph cache file); reading the "
                            "registry whole instead", exc)
        else:
            return _built_whole(batches)
    with registry.batches() as batches:  # a new snapshot: the batches above were partly read
        return _built_whole(batches)


def _built_whole(batches: SourceBatches) -> tuple[SchemaGraph, float]:
    """The graph of every declaration read at once, and the seconds the reading took."""
    decls = batches.whole()
    return build_graph(decls, decls.fingerprint), batches.read_s


def _fetch_or_claim(url: str, fingerprint: str) -> tuple[shared.Fetched | None, shared.BuildLock | None]:
    """The graph of ``fingerprint`` another server published, waiting for it while another holds the build
    lock; else the lock, held by this process, to build under (None: build without it, because Redis
    cannot lock, the lock is off or the wait ran out). Servers that all heard of one registry change
    thus build its graph once between them instead of each on the same cores."""
    fetched = shared.fetch_entry(url, fingerprint)
    wait_s = shared.build_wait_s()
    if fetched is not None or wait_s <= 0:
        return fetched, None
    lock = shared.BuildLock(url, fingerprint, wait_s)
    deadline = time.monotonic() + wait_s
    waited = False
    while True:
        claimed = lock.acquire()
        if claimed is None:
            return None, None
        if claimed:
            # the holder before may have published and released between the look above and this claim
            if shared.exists(url, fingerprint):
                fetched = shared.fetch_entry(url, fingerprint)
                if fetched is not None:
                    lock.release()
                    return fetched, None
            return None, lock  # build it (replacing a published entry that was unusable)
        if not waited:
            log.info("another process is building the graph of %s; waiting up to %d s for it", fingerprint, wait_s)
            waited = True
        if shared.wait_for_graph(url, fingerprint, deadline):
            # published; an entry that cannot be used (damaged, foreign) is built here and replaced
            return shared.fetch_entry(url, fingerprint), None
        if time.monotonic() >= deadline:
            log.info("no graph of %s published within %d s; building it here", fingerprint, wait_s)
            return None, None
        # the lock went without a graph (its holder failed or died): claim it and build


def _remember(fingerprint: str, graph: SchemaGraph) -> None:
    with _LOCK:
        if len(_CACHE) >= _MAX_ENTRIES:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[fingerprint] = graph


def graph_from_url(url: str | None) -> SchemaGraph:
    """The graph of the registry at ``url`` (the configured one when None), from the cache when current."""
    with Registry.open(url) as registry:
        return load_graph(registry)


def clear_cache() -> None:
    """Forget every graph held in memory (the next load reads the cache file, or rebuilds)."""
    with _LOCK:
        _CACHE.clear()
