"""One build per registry state across servers sharing Redis (the real Redis at 127.0.0.1:6379): when
several need the graph of one fingerprint, one takes the build lock, builds and publishes, and the others
wait and load what it published; a lock whose holder never publishes only delays a waiter by the bounded
wait; and a graph fetched from Redis reaches the local cache file as the bytes that were fetched, never
encoded again. Every test writes under a key prefix of its own and deletes it afterwards."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from schemarouter.declarations import Declarations
from schemarouter.execution.redis_cache import redis_client
from schemarouter.graph import SchemaGraph, cache, persist, shared
from schemarouter.graph.cache import GraphSource
from schemarouter.registry import Registry
from tests.redis_support import REDIS_URL, own_prefix
from tests.routing_support import routing_db  # noqa: F401  (fixture)


@pytest.fixture
def prefix(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A key prefix of this test's own for graphs and build locks, Redis selected as the backend, no file."""
    with own_prefix("graph:") as name:
        monkeypatch.setattr(shared, "PREFIX", name)
        monkeypatch.setenv("SCHEMAROUTER_CACHE_BACKEND", REDIS_URL)
        monkeypatch.setenv("SCHEMAROUTER_GRAPH_CACHE", "false")  # no cache file: only Redis carries a graph
        cache.clear_cache()
        yield name
        cache.clear_cache()


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads that built a graph, in order (each build takes at least half a second, so
    a second loader started with the first finds the lock held rather than the graph published)."""
    built: list[str] = []
    original = cache.build_graph

    def counted(decls: Declarations, fingerprint: str | None) -> SchemaGraph:
        built.append(threading.current_thread().name)
        time.sleep(0.5)
        return original(decls, fingerprint)

    monkeypatch.setattr(cache, "build_graph", counted)
    return built


def test_two_loaders_of_one_state_build_it_once(routing_db: str, prefix: str, builds: list[str]) -> None:
    start = threading.Barrier(2)
    loaded: dict[str, tuple[SchemaGraph, GraphSource]] = {}
    failed: list[BaseException] = []

    def server(name: str) -> None:  # a server process of its own: its own registry connection
        try:
            with Registry.open(routing_db) as reg:
                start.wait(timeout=10)
                loaded[name] = cache.load_graph_traced(reg)
        except BaseException as err:  # pragma: no cover - reported below
            failed.append(err)

    threads = [threading.Thread(target=server, args=(name,), name=name) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failed and len(loaded) == 2
    assert len(builds) == 1, builds  # one build between them
    builder = builds[0]
    waiter = "two" if builder == "one" else "one"
    assert loaded[builder][1] == "built" and loaded[waiter][1] == "redis"
    graph, fetched = loaded[builder][0], loaded[waiter][0]
    assert fetched is not graph and fetched.fingerprint == graph.fingerprint is not None
    assert sorted(fetched.sources) == sorted(graph.sources)
    # the builder released its lock once it had published
    assert not redis_client(REDIS_URL).exists(shared.lock_key(graph.fingerprint))


def _load_behind_a_lock(url: str, expiry_s: float) -> tuple[str, shared.BuildLock, GraphSource, float]:
    """Another server's lock on the registry's fingerprint (held for ``expiry_s``), then a load: the
    fingerprint, that lock, where the loaded graph came from and how long the load waited."""
    with Registry.open(url) as reg:
        fingerprint = reg.fingerprint()
        assert fingerprint is not None
        held = shared.BuildLock(REDIS_URL, fingerprint, expiry_s=expiry_s)
        assert held.acquire() is True
        started = time.monotonic()
        source = cache.load_graph_traced(reg)[1]
        return fingerprint, held, source, time.monotonic() - started


def test_a_lock_whose_holder_never_publishes_is_waited_out(
    routing_db: str, prefix: str, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(shared.BUILD_WAIT_ENV, "1")
    fingerprint, stuck, source, waited = _load_behind_a_lock(routing_db, expiry_s=60)  # a server hung mid-build
    assert source == "built" and len(builds) == 1
    assert 1.0 <= waited < 10  # it waited out the bounded wait, then built rather than serve nothing
    assert redis_client(REDIS_URL).exists(shared.key(fingerprint))  # and published for the others
    assert redis_client(REDIS_URL).exists(shared.lock_key(fingerprint))  # not its lock to release
    stuck.release()
    assert not redis_client(REDIS_URL).exists(shared.lock_key(fingerprint))


def test_a_lock_whose_holder_died_is_taken_over(
    routing_db: str, prefix: str, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(shared.BUILD_WAIT_ENV, "60")
    fingerprint, _lock, source, waited = _load_behind_a_lock(routing_db, expiry_s=1)  # and the process died
    # the lock expired after a second: the waiter claimed it and built, long before its 60 s were up
    assert source == "built" and len(builds) == 1 and 0.5 <= waited < 10
    assert redis_client(REDIS_URL).exists(shared.key(fingerprint))


def test_only_the_owner_releases_the_lock(routing_db: str, prefix: str) -> None:
    client = redis_client(REDIS_URL)
    first = shared.BuildLock(REDIS_URL, "f" * 16, expiry_s=60)
    second = shared.BuildLock(REDIS_URL, "f" * 16, expiry_s=60)
    assert first.acquire() is True and second.acquire() is False
    client.delete(shared.lock_key("f" * 16))  # the first holder's lock expired...
    assert second.acquire() is True  # ...and another server took it
    first.release()  # the first, finishing late, must not free the second's lock
    assert client.exists(shared.lock_key("f" * 16))
    second.release()
    assert not client.exists(shared.lock_key("f" * 16))


def test_the_file_gets_the_published_bytes_encoded_once(
    routing_db: str, prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMAROUTER_GRAPH_CACHE", "true")
    copy = tmp_path / "registry.db"
    shutil.copy(routing_db.removeprefix("sqlite:///"), copy)
    encoded: list[int] = []
    original = persist.encode

    def counted(graph: SchemaGraph) -> bytes:
        encoded.append(1)
        return original(graph)

    monkeypatch.setattr(persist, "encode", counted)
    client = redis_client(REDIS_URL)
    with Registry.open(f"sqlite:///{copy}") as reg:
        path, fingerprint = cache.cache_file(reg), reg.fingerprint()
        assert path is not None and fingerprint is not None
        assert cache.load_graph_traced(reg)[1] == "built"
        published = client.get(shared.key(fingerprint))
        assert len(encoded) == 1  # one encoding for both Redis and the file
        assert published is not None and path.read_bytes() == published
        path.unlink()  # another server: nothing in memory, no file
        cache.clear_cache()
        assert cache.load_graph_traced(reg)[1] == "redis"
        assert len(encoded) == 1  # the fetched graph was not encoded again for the file
        assert path.read_bytes() == published
        cache.clear_cache()
        assert cache.load_graph_traced(reg)[1] == "file"  # and that file is whole and current


def test_without_redis_or_with_no_wait_there_is_no_lock(
    routing_db: str, prefix: str, builds: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_lock(*_: Any, **__: Any) -> None:
        raise AssertionError("a build lock was taken")

    monkeypatch.setattr(shared, "BuildLock", no_lock)
    monkeypatch.setenv("SCHEMAROUTER_CACHE_BACKEND", "sqlite")
    with Registry.open(routing_db) as reg:
        assert cache.load_graph_traced(reg)[1] == "built"
        cache.clear_cache()
        monkeypatch.setenv("SCHEMAROUTER_CACHE_BACKEND", REDIS_URL)
        monkeypatch.setenv(shared.BUILD_WAIT_ENV, "0")  # the lock turned off: each server builds itself
        assert cache.load_graph_traced(reg)[1] == "built"
    assert len(builds) == 2
