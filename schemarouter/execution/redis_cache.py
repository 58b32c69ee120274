"""The response cache in Redis, for several servers over one registry: a run answered by one server is a
cache hit on every other.

Selected by ``[cache] backend = "redis://HOST:PORT/DB"`` (or ``SCHEMAROUTER_CACHE_BACKEND``); the local
SQLite file stays the default. Same keys, payloads, TTLs and secret rule as :class:`StepCache`; Redis
expires entries itself (``SET ... EX``), a set per source lists its keys (for ``cache clear SOURCE`` and
``cache stats``) and a hash per source counts hits, misses and writes. The client is redis-py, the
maintained Redis client for Python. Like the file, an unreachable Redis is a miss with one warning, never
an error: the run goes on without the cache.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from schemarouter.execution.cache import (
    DEFAULT_TTL_S,
    CachedStep,
    CacheSettings,
    CacheStats,
    SourceStats,
    StepCache,
    decode_step,
)
from schemarouter.execution.results import Record
from schemarouter.models import Source

log = logging.getLogger("schemarouter.cache")

PREFIX = "schemarouter:cache:"


def open_step_cache(settings: CacheSettings) -> StepCache | None:
    """The response cache the settings describe: the local file (default) or Redis; None when it is off."""
    if not settings.enabled:
        return None
    if settings.backend != "sqlite":
        return RedisStepCache(settings.backend, settings.default_ttl)
    return StepCache(settings.path, settings.default_ttl)


def redis_client(url: str) -> Any:
    """A redis-py client for ``url`` with short timeouts (a cache must never hold a run up)."""
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)


class RedisStepCache(StepCache):
    """Step results in Redis; every failure to reach it degrades to a miss, never an error."""

    def __init__(self, url: str, default_ttl: int = DEFAULT_TTL_S, clock: Callable[[], float] = time.time,
                 prefix: str = PREFIX) -> None:
        from pathlib import Path

        super().__init__(Path("redis"), default_ttl, clock)
        self.url = url
        self.prefix = prefix
        self._client: Any = None

    def _redis(self) -> Any:
        if self.disabled:
            return None
        if self._client is None:
            self._client = redis_client(self.url)
        return self._client

    def _failed(self, err: Exception) -> None:
        from schemarouter.registry.database import display

        log.warning("warning: the response cache at %s cannot be used (%s); running without it",
                    display(self.url), type(err).__name__)
        self.disabled = True

    def _key(self, key: str) -> str:
        return f"{self.prefix}entry:{key}"

    def _members(self, source: str) -> str:
        return f"{self.prefix}source:{source}"

    def _counters(self, source: str) -> str:
        return f"{self.prefix}counters:{source}"

    def get(self, key: str, source: str) -> CachedStep | None:
        """The stored step if present (Redis drops expired entries); counts a hit or a miss."""
        import redis

        client = self._redis()
        if client is None:
            return None
        try:
            raw = client.get(self._key(key))
            found = None
            if raw is not None:
                try:
                    found = decode_step(raw)
                except (ValueError, KeyError, TypeError):
                    client.delete(self._key(key))
            client.hincrby(self._counters(source), "hits" if found is not None else "misses", 1)
            return found
        except redis.RedisError as err:
            self._failed(err)
            return None

    def put(self, key: str, source: Source, records: list[Record], request: str | None,
            secrets: list[str] | None = None) -> bool:
        """Store a step's records for the source's TTL; False when not stored (TTL 0, a secret in it, no Redis)."""
        import redis

        stored = self.storable(source, records, request, secrets)
        if stored is None:
            return False
        ttl, payload = stored
        client = self._redis()
        if client is None:
            return False
        try:
            with client.pipeline() as pipe:
                pipe.set(self._key(key), payload, ex=ttl)
                pipe.sadd(self._members(source.id), key)
                pipe.hincrby(self._counters(source.id), "writes", 1)
                pipe.execute()
            return True
        except redis.RedisError as err:
            self._failed(err)
            return False

    def _sources(self, client: Any) -> list[str]:
        found = set()
        for pattern in (self._members("*"), self._counters("*")):
            for name in client.scan_iter(match=pattern, count=500):
                text = name.decode() if isinstance(name, bytes) else str(name)
                found.add(text.rsplit(":", 1)[-1])
        return sorted(found)

    def stats(self) -> CacheStats:
        """Entries and hits, misses and writes per source (Redis keeps no expired entries)."""
        import redis

        from schemarouter.registry.database import display

        stats = CacheStats(path=display(self.url), bytes=0)
        client = self._redis()
        if client is None:
            return stats
        try:
            for source in self._sources(client):
                keys = [k.decode() for k in client.smembers(self._members(source))]
                live = sum(1 for k in keys if client.exists(self._key(k)))
                counts = {k.decode(): int(v) for k, v in client.hgetall(self._counters(source)).items()}
                stats.sources[source] = SourceStats(entries=live, hits=counts.get("hits", 0),
                                                    misses=counts.get("misses", 0), writes=counts.get("writes", 0))
        except redis.RedisError as err:
            self._failed(err)
        return stats

    def clear(self, source: str | None = None, expired_only: bool = False) -> int:
        """Delete entries (of one source, or all); expired ones are already gone (Redis expires them)."""
        import redis

        client = self._redis()
        if client is None:
            return 0
        try:
            removed = 0
            for name in ([source] if source is not None else self._sources(client)):
                keys = [k.decode() for k in client.smembers(self._members(name))]
                if expired_only:
                    gone = [k for k in keys if not client.exists(self._key(k))]
                    if gone:
                        client.srem(self._members(name), *gone)
                    continue
                if keys:
                    removed += int(client.delete(*[self._key(k) for k in keys]))
                client.delete(self._members(name), self._counters(name))
            return removed
        except redis.RedisError as err:
            self._failed(err)
            return 0
