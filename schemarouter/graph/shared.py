"""The built graph shared through Redis, so servers over one registry build it once between them.

With ``[cache] backend = "redis://..."`` a process that finds no current graph in memory or in its
cache file looks in Redis under the registry fingerprint (and the code's build key) before building;
whoever builds publishes it there. The bytes are a cache file's (:mod:`schemarouter.graph.persist`),
checked the same way, so a torn or foreign entry is ignored and rebuilt, never trusted. Entries expire
after a week: a registry state nobody loads any more leaves nothing behind. An unreachable Redis only
means building locally.

A registry change reaches every server of a fleet at once (one NOTIFY), and a build of a large registry
is seconds of CPU: four servers building the same graph on shared cores took four times as long as one.
So a server that must build first takes a lock in Redis named by the fingerprint (:class:`BuildLock`:
``SET NX`` with an expiry and a token only its owner can delete); the others wait for the graph it
publishes (:func:`wait_for_graph`) and load that. The wait is bounded (``[graph] build_wait``, 60 s by
default, also the lock's expiry): a builder that died, or whose build outlasts the wait, only costs the
waiters the time to build it themselves, never a server without a graph.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from schemarouter.config import setting
from schemarouter.graph import persist
from schemarouter.graph.build import SchemaGraph

log = logging.getLogger(__name__)

PREFIX = "schemarouter:graph:"
TTL_S = 7 * 86_400
# Redis keeps a value of at most 512 MB; a graph whose bytes are larger stays in local files only
MAX_BYTES = 500 * 2**20
BUILD_WAIT_ENV = "SCHEMAROUTER_GRAPH_BUILD_WAIT"
DEFAULT_BUILD_WAIT_S = 60
# how often a waiting server looks for the published graph: two key lookups, nothing fetched until it is there
POLL_S = 0.2


def backend() -> str | None:
    """The Redis URL graphs are shared through, or None (the default ``sqlite`` backend shares nothing)."""
    value = setting("cache", "backend", env="SCHEMAROUTER_CACHE_BACKEND", default="sqlite")
    return None if value == "sqlite" else str(value)


def build_wait_s() -> int:
    """How long a server waits for another's build of the same registry state (``[graph] build_wait``,
    whole seconds, default 60; 0 turns the build lock off, so every server builds for itself)."""
    return int(setting("graph", "build_wait", env=BUILD_WAIT_ENV, default=DEFAULT_BUILD_WAIT_S))


def key(fingerprint: str) -> str:
    """The Redis key of the graph of one registry state built by this code."""
    return f"{PREFIX}{fingerprint}:{persist.build_key()}"


def lock_key(fingerprint: str) -> str:
    """The Redis key of the build lock of one registry state (and this code: other code builds another graph)."""
    return f"{PREFIX}lock:{fingerprint}:{persist.build_key()}"


def _client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=30)


@dataclass(frozen=True)
class Fetched:
    """A published graph and the bytes it was decoded from: a cache file's bytes, written to the local
    file as they are (encoding the graph again would cost as much as the build's own encoding)."""

    graph: SchemaGraph
    data: bytes


def fetch(url: str, fingerprint: str) -> SchemaGraph | None:
    """The graph another process published for ``fingerprint``, or None (absent, rejected, Redis down)."""
    found = fetch_entry(url, fingerprint)
    return found.graph if found is not None else None


def fetch_entry(url: str, fingerprint: str) -> Fetched | None:
    """:func:`fetch`, with the published bytes."""
    try:
        import redis

        data = _client(url).get(key(fingerprint))
    except (ImportError, redis.RedisError) as err:
        log.info("shared graph unavailable (%s); building locally", type(err).__name__)
        return None
    if data is None:
        return None
    data = bytes(data)
    try:
        return Fetched(persist.decode(data, fingerprint), data)
    except persist.CacheRejected as why:
        log.info("shared graph for %s ignored (%s); rebuilding", fingerprint, why)
        return None


def publish(url: str, graph: SchemaGraph, data: bytes | None = None) -> bool:
    """Share ``graph`` (or its already encoded ``data``) under its fingerprint; False when not shared."""
    if graph.fingerprint is None:
        return False
    payload = data if data is not None else persist.encode(graph)
    if len(payload) > MAX_BYTES:
        log.info("graph of %s is %d bytes, over what Redis holds; not shared", graph.fingerprint, len(payload))
        return False
    try:
        import redis

        _client(url).set(key(graph.fingerprint), payload, ex=TTL_S)
    except (ImportError, redis.RedisError) as err:
        log.info("graph not shared (%s)", type(err).__name__)
        return False
    return True


class BuildLock:
    """The right to build the graph of one registry state for the fleet: a Redis key set only when absent
    (``SET NX``), with an expiry (a holder that dies frees it by itself) and a random token that
    :meth:`release` compares before deleting (redis-py's :class:`redis.lock.Lock`, a Lua compare-and-delete),
    so a holder whose lock expired and was taken by another never deletes the other's."""

    def __init__(self, url: str, fingerprint: str, expiry_s: float) -> None:
        self.url = url
        self.fingerprint = fingerprint
        self.name = lock_key(fingerprint)
        self.expiry_s = max(float(expiry_s), 1.0)
        self._lock: Any = None

    def acquire(self) -> bool | None:
        """True when this process now holds the lock, False when another does, None when Redis cannot
        be used (the caller builds without a lock, as without Redis)."""
        try:
            import redis

            lock = _client(self.url).lock(self.name, timeout=self.expiry_s, blocking=False, thread_local=False)
            if not lock.acquire():
                return False
        except (ImportError, redis.RedisError) as err:
            log.info("graph build lock unavailable (%s); building without it", type(err).__name__)
            return None
        self._lock = lock
        return True

    def release(self) -> None:
        """Give the lock up, if this process still holds it (an expired one may already be another's)."""
        lock, self._lock = self._lock, None
        if lock is None:
            return
        try:
            import redis

            lock.release()
        except redis.RedisError as err:  # expired and perhaps taken over: nothing of ours left to delete
            log.info("graph build lock for %s was no longer held (%s)", self.fingerprint, type(err).__name__)


def wait_for_graph(url: str, fingerprint: str, deadline: float) -> bool:
    """Wait while another process holds the build lock of ``fingerprint`` and has not published its graph.

    True when the graph is there to fetch; False when the lock went without a graph (the builder failed,
    died, or its graph was too large to share: the caller may claim the lock itself), when the deadline
    (``time.monotonic()``) passed, or when Redis failed. Each look is two key lookups, never the graph."""
    try:
        import redis

        client = _client(url)
        while True:
            with client.pipeline(transaction=False) as pipe:
                pipe.exists(key(fingerprint))
                pipe.exists(lock_key(fingerprint))
                published, locked = pipe.execute()
            if published:
                return True
            if not locked or time.monotonic() >= deadline:
                return False
            time.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))
    except (ImportError, redis.RedisError) as err:
        log.info("waiting for the shared graph failed (%s); building locally", type(err).__name__)
        return False


def exists(url: str, fingerprint: str) -> bool:
    """Whether a graph of ``fingerprint`` is published (False when Redis cannot be asked)."""
    try:
        import redis

        return bool(_client(url).exists(key(fingerprint)))
    except (ImportError, redis.RedisError):
        return False
