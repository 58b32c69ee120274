"""A response cache for live runs, at the step level: re-running a question, a batch or the benchmark
does not call rate-limited APIs again.

Why the step level and not HTTP: several adapters talk to their APIs through their own clients
(mp-api and arxiv through ``requests``, pubchempy through ``urllib``), which an httpx-level cache
(hishel) never sees. A step is the one unit every adapter shares, so the cache keys the
*projected* records of a step by (source, endpoint, its declaration, params, fields) and covers
every adapter, whatever client it uses.

Keys are SHA-256 digests, so nothing readable (and no key a request carried) is in them; a payload
that contains the value of the source's key variable is never stored. Each source's entries live
``Source.cache_ttl`` seconds (0: never cached), else the default TTL. The store is one SQLite file
(stdlib ``sqlite3``; it also keeps per-source hit/miss counters for ``schemarouter cache stats``). A
file that is corrupt or was deleted mid-run is rebuilt with a warning and the run goes on.

Settings (``[cache]`` in the config file: ``enabled``, ``dir``, ``default_ttl``) are read by
:func:`cache_settings`; the environment (``SCHEMAROUTER_CACHE``, ``SCHEMAROUTER_CACHE_DIR``,
``SCHEMAROUTER_CACHE_TTL``) wins over the file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemarouter.config import home
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.results import Record
from schemarouter.models import Endpoint, Source

log = logging.getLogger("schemarouter.cache")

DEFAULT_TTL_S = 86_400  # a day: long enough for a batch or benchmark re-run, short enough for live data
FILE_NAME = "responses.sqlite3"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
KEY_VERSION = 1  # bump when the stored shape changes: old entries then simply miss
_SCHEMA = (
    ("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, source TEXT NOT NULL, created REAL NOT NULL, "
     "expires REAL NOT NULL, payload TEXT NOT NULL)"),
    "CREATE INDEX IF NOT EXISTS entries_source ON entries (source)",
    ("CREATE TABLE IF NOT EXISTS counters (source TEXT PRIMARY KEY, hits INTEGER NOT NULL DEFAULT 0, "
     "misses INTEGER NOT NULL DEFAULT 0, writes INTEGER NOT NULL DEFAULT 0)"),
)


@dataclass(frozen=True)
class CacheSettings:
    """Whether the cache is on, where it lives, and the TTL of sources that declare none."""

    enabled: bool = True
    dir: Path | None = None
    default_ttl: int = DEFAULT_TTL_S
    backend: str = "sqlite"  # or a redis:// URL: servers share one cache (execution.redis_cache)

    @property
    def path(self) -> Path:
        """The cache file: in the configured directory, else in the user data directory."""
        return (self.dir or home() / "cache") / FILE_NAME


def _flag(value: Any, where: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise SchemaRouterError(f"{where} must be true or false, not {value!r}")


def _seconds(value: Any, where: str) -> int:
    try:
        seconds = int(str(value).strip()) if not isinstance(value, bool) else -1
    except ValueError:
        seconds = -1
    if seconds < 0:
        raise SchemaRouterError(f"{where} must be a whole number of seconds >= 0, not {value!r}")
    return seconds


def cache_settings(table: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None) -> CacheSettings:
    """Cache settings from the config file's ``[cache]`` table (``enabled``, ``dir``, ``default_ttl``), with
    ``SCHEMAROUTER_CACHE`` (0/1), ``SCHEMAROUTER_CACHE_DIR`` and ``SCHEMAROUTER_CACHE_TTL`` winning."""
    if table is None:  # the config file in effect (schemarouter.config), already checked there
        from schemarouter.config import load

        table = load().get("cache", {})
    table = dict(table)
    env = os.environ if environ is None else environ
    unknown = sorted(set(table) - {"enabled", "dir", "default_ttl", "backend"})
    if unknown:
        raise SchemaRouterError(f"unknown key [cache] {unknown[0]} (known: enabled, dir, default_ttl, backend)")
    enabled = _flag(table.get("enabled", True), "[cache] enabled")
    folder = table.get("dir")
    ttl = _seconds(table.get("default_ttl", DEFAULT_TTL_S), "[cache] default_ttl")
    if env.get("SCHEMAROUTER_CACHE"):
        enabled = _flag(env["SCHEMAROUTER_CACHE"], "SCHEMAROUTER_CACHE")
    if env.get("SCHEMAROUTER_CACHE_DIR"):
        folder = env["SCHEMAROUTER_CACHE_DIR"]
    if env.get("SCHEMAROUTER_CACHE_TTL"):
        ttl = _seconds(env["SCHEMAROUTER_CACHE_TTL"], "SCHEMAROUTER_CACHE_TTL")
    backend = str(env.get("SCHEMAROUTER_CACHE_BACKEND") or table.get("backend") or "sqlite")
    if backend != "sqlite" and not backend.startswith(REDIS_SCHEMES):
        # only the scheme is named: the rest of a URL may carry a password
        raise SchemaRouterError(f'[cache] backend must be "sqlite" or a redis:// URL, not a {backend.split(":", 1)[0]!r} one')
    return CacheSettings(enabled=enabled, dir=Path(str(folder)).expanduser() if folder else None, default_ttl=ttl,
                         backend=backend)


@dataclass(frozen=True)
class CachedStep:
    """A stored step result: its projected records and the (key-free) request description."""

    records: list[Record]
    request: str | None


def encode_step(records: list[Record], request: str | None, secrets: list[str] | None) -> str | None:
    """A step's records as the text a cache stores, or None when the response echoed a secret
    (a key is never kept anywhere)."""
    payload = json.dumps({"records": [r.model_dump(mode="json") for r in records], "request": request},
                         ensure_ascii=False)
    if any(secret and len(secret) >= 4 and secret in payload for secret in secrets or ()):
        return None
    return payload


def decode_step(raw: str | bytes) -> CachedStep:
    """What :func:`encode_step` stored (ValueError, KeyError or TypeError: an entry to drop)."""
    data = json.loads(raw)
    return CachedStep([Record.model_validate(r) for r in data["records"]], data.get("request"))


@dataclass
class SourceStats:
    """Entries and counters of one source."""

    entries: int = 0
    expired: int = 0
    hits: int = 0
    misses: int = 0
    writes: int = 0


@dataclass
class CacheStats:
    """What ``schemarouter cache stats`` shows."""

    path: str
    bytes: int
    sources: dict[str, SourceStats] = field(default_factory=dict)

    @property
    def entries(self) -> int:
        """How many entries the cache holds over all sources."""
        return sum(s.entries for s in self.sources.values())


def step_key(source: Source, endpoint: Endpoint, params: Mapping[str, Any], fields: list[str]) -> str:
    """A digest of what determines a step's records; the endpoint's declaration is in it, so a changed
    declaration (a new path, unit or field) never reuses records projected under the old one."""
    material = json.dumps(
        {"v": KEY_VERSION, "source": source.id, "endpoint": endpoint.model_dump(mode="json"),
         "params": dict(params), "fields": list(fields)},
        sort_keys=True, ensure_ascii=False, default=str,
    )
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class StepCache:
    """Step results in one SQLite file; every failure to read or write it degrades to a miss, never an error."""

    def __init__(self, path: Path, default_ttl: int = DEFAULT_TTL_S, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.default_ttl = default_ttl
        self.clock = clock
        self.disabled = False
        self._existed = False

    @classmethod
    def from_settings(cls, settings: CacheSettings) -> StepCache | None:
        """The local file cache the settings describe, or None when it is off (``execution.redis_cache.
        open_step_cache`` chooses between the file and Redis)."""
        return cls(settings.path, settings.default_ttl) if settings.enabled else None

    def ttl(self, source: Source) -> int:
        """Seconds a source's records stay fresh: its own ``cache_ttl``, else the default."""
        return self.default_ttl if source.cache_ttl is None else source.cache_ttl

    def storable(self, source: Source, records: list[Record], request: str | None,
                 secrets: list[str] | None) -> tuple[int, str] | None:
        """(TTL, encoded step) of what ``put`` would store, or None when nothing is (TTL 0, a secret
        in it): the same rule for every backend."""
        ttl = self.ttl(source)
        if ttl <= 0:
            return None
        payload = encode_step(records, request, secrets)
        return None if payload is None else (ttl, payload)

    # -- storage ---------------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        if self._existed and not self.path.exists():
            log.warning("warning: the response cache %s was deleted; starting a new one", self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=10)
        try:
            for statement in _SCHEMA:
                conn.execute(statement)
        except sqlite3.Error:
            conn.close()
            raise
        self._existed = True
        return conn

    def _rebuild(self, err: Exception) -> None:
        log.warning("warning: the response cache %s is unreadable (%s); rebuilding it", self.path, err)
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        self._existed = False

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection | None]:
        """A connection, rebuilding a corrupt file once; None (and the cache off for this process) if that fails."""
        if self.disabled:
            yield None
            return
        conn: sqlite3.Connection | None = None
        for attempt in (1, 2):
            try:
                conn = self._open()
                break
            except sqlite3.DatabaseError as err:
                if attempt == 1:
                    self._rebuild(err)
                    continue
                self._disable(err)
            except (OSError, sqlite3.Error) as err:
                self._disable(err)
                break
        if conn is None:
            yield None
            return
        try:
            with conn:
                yield conn
        except sqlite3.DatabaseError as err:  # corrupted while in use: next use rebuilds it
            self._rebuild(err)
        finally:
            conn.close()

    def _disable(self, err: Exception) -> None:
        log.warning("warning: the response cache %s cannot be used (%s); running without it", self.path, err)
        self.disabled = True

    def _count(self, conn: sqlite3.Connection, source: str, column: str) -> None:
        conn.execute("INSERT OR IGNORE INTO counters (source) VALUES (?)", (source,))
        conn.execute(f"UPDATE counters SET {column} = {column} + 1 WHERE source = ?", (source,))

    # -- use ---------------------------------------------------------------------------------------
    def get(self, key: str, source: str) -> CachedStep | None:
        """The stored step if present and fresh; counts a hit or a miss."""
        with self._connection() as conn:
            if conn is None:
                return None
            row = conn.execute("SELECT expires, payload FROM entries WHERE key = ?", (key,)).fetchone()
            now = self.clock()
            if row is None or row[0] <= now:
                self._count(conn, source, "misses")
                return None
            try:
                found = decode_step(row[1])
            except (ValueError, KeyError, TypeError):
                conn.execute("DELETE FROM entries WHERE key = ?", (key,))
                self._count(conn, source, "misses")
                return None
            self._count(conn, source, "hits")
            return found
        return None

    def put(self, key: str, source: Source, records: list[Record], request: str | None,
            secrets: list[str] | None = None) -> bool:
        """Store a step's records for the source's TTL; False when not stored (TTL 0, a secret in it, no cache)."""
        stored = self.storable(source, records, request, secrets)
        if stored is None:
            return False
        ttl, payload = stored
        with self._connection() as conn:
            if conn is None:
                return False
            now = self.clock()
            conn.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?)",
                         (key, source.id, now, now + ttl, payload))
            self._count(conn, source.id, "writes")
            return True
        return False

    def stats(self) -> CacheStats:
        """Entries (fresh and expired), hits, misses and writes per source, and the file size."""
        size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*")) if self.path.exists() else 0
        stats = CacheStats(path=str(self.path), bytes=size)
        if not self.path.exists():
            return stats
        with self._connection() as conn:
            if conn is None:
                return stats
            now = self.clock()
            for source, entries, expired in conn.execute(
                "SELECT source, COUNT(*), SUM(expires <= ?) FROM entries GROUP BY source", (now,)
            ):
                stats.sources[source] = SourceStats(entries=entries, expired=int(expired or 0))
            for source, hits, misses, writes in conn.execute("SELECT source, hits, misses, writes FROM counters"):
                s = stats.sources.setdefault(source, SourceStats())
                s.hits, s.misses, s.writes = hits, misses, writes
        return stats

    def clear(self, source: str | None = None, expired_only: bool = False) -> int:
        """Delete entries (of one source, or only expired ones); returns how many."""
        if not self.path.exists():
            return 0
        where: list[str] = []
        args: list[Any] = []
        if source is not None:
            where.append("source = ?")
            args.append(source)
        if expired_only:
            where.append("expires <= ?")
            args.append(self.clock())
        sql = "DELETE FROM entries" + (" WHERE " + " AND ".join(where) if where else "")
        with self._connection() as conn:
            if conn is None:
                return 0
            removed = conn.execute(sql, args).rowcount
            if not expired_only:
                if source is None:
                    conn.execute("DELETE FROM counters")
                else:
                    conn.execute("DELETE FROM counters WHERE source = ?", (source,))
            return int(removed)
        return 0
