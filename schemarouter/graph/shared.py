"""The built graph shared through Redis, so servers over one registry build it once between them.

With ``[cache] backend = "redis://..."`` a process that finds no current graph in memory or in its
cache file looks in Redis under the registry fingerprint (and the code's build key) before building;
whoever builds publishes it there. The bytes are a cache file's (:mod:`schemarouter.graph.persist`),
checked the same way, so a torn or foreign entry is ignored and rebuilt, never trusted. Entries expire
after a week: a registry state nobody loads any more leaves nothing behind. An unreachable Redis only
means building locally.
"""

from __future__ import annotations

import logging
from typing import Any

from schemarouter.config import setting
from schemarouter.graph import persist
from schemarouter.graph.build import SchemaGraph

log = logging.getLogger(__name__)

PREFIX = "schemarouter:graph:"
TTL_S = 7 * 86_400
# Redis keeps a value of at most 512 MB; a graph whose bytes are larger stays in local files only
MAX_BYTES = 500 * 2**20


def backend() -> str | None:
    """The Redis URL graphs are shared through, or None (the default ``sqlite`` backend shares nothing)."""
    value = setting("cache", "backend", env="SCHEMAROUTER_CACHE_BACKEND", default="sqlite")
    return None if value == "sqlite" else str(value)


def key(fingerprint: str) -> str:
    """The Redis key of the graph of one registry state built by this code."""
    return f"{PREFIX}{fingerprint}:{persist.build_key()}"


def _client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=30)


def fetch(url: str, fingerprint: str) -> SchemaGraph | None:
    """The graph another process published for ``fingerprint``, or None (absent, rejected, Redis down)."""
    try:
        import redis

        data = _client(url).get(key(fingerprint))
    except (ImportError, redis.RedisError) as err:
        log.info("shared graph unavailable (%s); building locally", type(err).__name__)
        return None
    if data is None:
        return None
    try:
        return persist.decode(bytes(data), fingerprint)
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
