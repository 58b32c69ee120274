"""The graph cache file: used when whole and current, ignored and rebuilt when torn, stale or foreign.

Every check runs on a real SQLite registry synced from the installed plugins; "rebuilt" is observed
by whether the registry's declarations were read (a loaded cache file reads only the fingerprint).
"""

from __future__ import annotations

import io
import json
import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from schemarouter_bench.dataset import load_queries

from schemarouter.declarations import collect
from schemarouter.graph import cache, persist
from schemarouter.graph.build import SchemaGraph
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from schemarouter.router import Router


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    monkeypatch.delenv("SCHEMAROUTER_GRAPH_CACHE", raising=False)
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(tmp_path / "home"))
    reg = Registry.open(f"sqlite:///{tmp_path / 'registry.db'}")
    reg.sync(collect(make_plugin_manager()))
    cache.clear_cache()
    yield reg
    cache.clear_cache()
    reg.close()


class Loads:
    """Counts reads of every declaration (a build reads them through ``Registry.batches``); a graph from
    the cache file makes none."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = Registry.batches

        def counted(reg: Registry, size: int | None = None) -> object:
            self.count += 1
            return original(reg, size)

        monkeypatch.setattr(Registry, "batches", counted)


def _fresh_load(reg: Registry) -> SchemaGraph:
    """A load as a new process makes it: nothing in memory."""
    cache.clear_cache()
    return cache.load_graph(reg)


def test_a_new_process_loads_the_file_instead_of_building(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    loads = Loads(monkeypatch)
    built = _fresh_load(registry)
    path = cache.cache_file(registry)
    assert path is not None and path.name == "registry.db.graph" and path.exists()
    assert loads.count == 1
    loaded = _fresh_load(registry)
    assert loads.count == 1, "a whole, current cache file must not be rebuilt"
    assert loaded is not built and loaded.fingerprint == built.fingerprint == registry.fingerprint()
    assert list(loaded.endpoints) == list(built.endpoints)
    assert loaded.decls.sources == built.decls.sources
    assert loaded.index.fields_by_name.keys() == built.index.fields_by_name.keys()


def test_plans_from_the_cache_file_equal_plans_from_a_build(registry: Registry) -> None:
    built = _fresh_load(registry)  # builds and writes the file
    loaded = _fresh_load(registry)  # reads it
    assert loaded is not built
    fresh, cached = Router(built), Router(loaded)
    questions = [q.query for q in load_queries()]
    assert len(questions) > 100
    for question in questions:
        expected = fresh.plan(question).model_dump_json()
        assert cached.plan(question).model_dump_json() == expected, question


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "corrupted":  # one byte of the payload flipped: the checksum catches it
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "foreign":
        path.write_bytes(b"not a graph at all\n" * 10)
    elif how == "other_code":  # built by another version of the code: the header's build key differs
        magic, header, payload = data.split(b"\n", 2)
        fields = json.loads(header)
        fields["build"] = "0" * 32
        path.write_bytes(magic + b"\n" + json.dumps(fields).encode() + b"\n" + payload)


@pytest.mark.parametrize("how", ["truncated", "corrupted", "empty", "foreign", "other_code"])
def test_a_damaged_file_is_ignored_rebuilt_and_replaced(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    loads = Loads(monkeypatch)
    _fresh_load(registry)
    path = cache.cache_file(registry)
    assert path is not None
    _damage(path, how)
    graph = _fresh_load(registry)
    assert loads.count == 2, f"a {how} cache file must be rebuilt, not trusted"
    assert graph.fingerprint == registry.fingerprint() and graph.endpoints
    # the rebuild wrote a good file again: the next process loads it
    persist.decode(path.read_bytes(), graph.fingerprint or "")
    _fresh_load(registry)
    assert loads.count == 2


def test_a_stale_file_is_rebuilt_after_the_registry_changes(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    loads = Loads(monkeypatch)
    before = _fresh_load(registry)
    path = cache.cache_file(registry)
    assert path is not None
    old_bytes = path.read_bytes()
    decls = collect(make_plugin_manager())
    dropped = sorted(decls.sources)[0]
    del decls.sources[dropped]
    del decls.owners[dropped]
    registry.sync(decls)
    after = _fresh_load(registry)
    assert loads.count == 2
    assert after.fingerprint != before.fingerprint and dropped not in after.sources
    # an old file put back (a restored backup, a copy from another machine) is stale: rebuilt
    path.write_bytes(old_bytes)
    again = _fresh_load(registry)
    assert loads.count == 3 and dropped not in again.sources


def test_a_header_relabelled_with_the_current_fingerprint_is_refused(registry: Registry) -> None:
    old = _fresh_load(registry)
    data = persist.encode(old)
    magic, header, payload = data.split(b"\n", 2)
    fields = json.loads(header)
    fields["fingerprint"] = "sha256:" + "1" * 64  # a newer registry state, checksum still right
    relabelled = magic + b"\n" + json.dumps(fields).encode() + b"\n" + payload
    with pytest.raises(persist.CacheRejected, match="not the graph the header names"):
        persist.decode(relabelled, fields["fingerprint"])


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("echo owned",))


def test_a_payload_that_would_run_code_is_refused_even_with_a_good_checksum(registry: Registry) -> None:
    payload = pickle.dumps(_Boom())
    fingerprint = registry.fingerprint() or ""
    header = {"format": persist.FORMAT, "fingerprint": fingerprint, "build": persist.build_key(), "sources": 0,
              "size": len(payload), persist.DIGEST: persist.payload_digest(payload)}
    data = persist.MAGIC + json.dumps(header).encode() + b"\n" + payload
    with pytest.raises(persist.CacheRejected, match="no graph holds"):
        persist.decode(data, fingerprint)
    path = cache.cache_file(registry)
    assert path is not None
    path.write_bytes(data)
    assert _fresh_load(registry).endpoints  # ignored and rebuilt


def test_the_setting_turns_the_file_off(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_GRAPH_CACHE", "false")
    _fresh_load(registry)
    path = cache.cache_file(registry)
    assert path is not None and not path.exists()


def test_an_in_memory_registry_has_no_cache_file() -> None:
    with Registry.open("sqlite://") as reg:
        assert cache.cache_file(reg) is None


def test_an_unwritable_place_only_costs_the_file(tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would go", encoding="utf-8")
    graph = SchemaGraph(fingerprint="sha256:x", decls=collect(make_plugin_manager()))
    assert persist.write(blocked / "sub" / "g.graph", graph) is False


@pytest.mark.postgres
def test_a_server_registry_keeps_its_file_in_the_data_directory(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SCHEMAROUTER_GRAPH_CACHE", raising=False)
    with Registry.open(pg_url) as reg:
        reg.sync(collect(make_plugin_manager()))
        loads = Loads(monkeypatch)
        _fresh_load(reg)
        path = cache.cache_file(reg)
        assert path is not None and path.parent == tmp_path / "home" / "graph-cache" and path.exists()
        assert "postgres" not in path.name  # named by a digest of the URL, never the URL itself
        _fresh_load(reg)
        assert loads.count == 1
    cache.clear_cache()


def test_old_server_files_are_pruned(tmp_path: Path) -> None:
    for i in range(persist.KEEP_FILES + 3):
        f = tmp_path / f"{i}.graph"
        f.write_bytes(b"x")
        os.utime(f, (1000 + i, 1000 + i))
    persist.prune(tmp_path)
    kept = sorted(int(p.stem) for p in tmp_path.glob("*.graph"))
    assert kept == list(range(3, persist.KEEP_FILES + 3))


def test_a_file_is_written_streamed_with_no_copy_of_its_bytes_in_memory(
    registry: Registry, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # without Redis nothing is encoded to bytes: the pickler writes into the file
    def no_bytes(graph: SchemaGraph) -> bytes:
        raise AssertionError("the graph was encoded to bytes")

    monkeypatch.setattr(persist, "encode", no_bytes)
    built = _fresh_load(registry)
    path = cache.cache_file(registry)
    assert path is not None
    data = path.read_bytes()
    _magic, header, payload = data.split(b"\n", 2)
    assert len(header) == persist.HEADER_WIDTH, "the header keeps its place, padded"
    fields = json.loads(header)
    assert fields["size"] == len(payload) and fields[persist.DIGEST] == persist.payload_digest(payload)
    loaded = persist.decode(data, built.fingerprint or "")
    question = "What is the band gap of GaN in the Materials Project?"
    assert Router(loaded).plan(question).model_dump_json() == Router(built).plan(question).model_dump_json()
    # a header that would not fit its place is never written over the payload: nothing is written
    monkeypatch.setattr(persist, "HEADER_WIDTH", 40)
    target = tmp_path / "small.graph"
    assert persist.write_streamed(target, built) is False and not target.exists()
    assert not list(tmp_path.glob("small.graph.*.tmp")), "the temporary file is removed"


def test_a_build_embeds_the_endpoints_once_and_the_file_keeps_the_vectors(
        registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("schemarouter_embeddings")
    from schemarouter.graph import dense

    monkeypatch.setenv("SCHEMAROUTER_DENSE", "true")
    built = _fresh_load(registry)
    assert built.memos.of(dense.DenseGraphMemo).built, "the build embeds before the file is written"
    monkeypatch.setattr(dense, "build_dense", lambda *_a: pytest.fail("the endpoints were embedded again"))
    loaded = _fresh_load(registry)
    index = dense.dense_index(loaded)
    assert index is not None and len(index.numbers) == sum(
        1 for i in loaded.endpoints.values() if i.endpoint.access == "read")


def test_without_dense_routing_a_build_embeds_nothing(registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter.graph import dense

    monkeypatch.setenv("SCHEMAROUTER_DENSE", "false")
    assert not _fresh_load(registry).memos.of(dense.DenseGraphMemo).built


def test_a_file_written_without_vectors_gets_them_once_dense_routing_is_on(
        registry: Registry, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("schemarouter_embeddings")
    from schemarouter.graph import dense

    monkeypatch.setenv("SCHEMAROUTER_DENSE", "false")
    _fresh_load(registry)  # the file, without vectors
    monkeypatch.setenv("SCHEMAROUTER_DENSE", "true")
    assert _fresh_load(registry).memos.of(dense.DenseGraphMemo).built, "embedded once, and the file rewritten"
    monkeypatch.setattr(dense, "build_dense", lambda *_a: pytest.fail("the endpoints were embedded again"))
    assert dense.dense_index(_fresh_load(registry)) is not None


class _Unmapped(io.RawIOBase):
    """A readable, seekable stream with no file descriptor and no buffer to view (a pipe's reader, say)."""

    def __init__(self, data: bytes) -> None:
        self._inner = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self._inner.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._inner.seek(offset, whence)


@pytest.mark.parametrize("stream", ["file", "bytes", "unmapped"])
def test_every_kind_of_stream_is_checksummed_before_its_graph_is_used(registry: Registry, stream: str) -> None:
    # the checksum runs beside the unpickling (a descriptor read with pread, a view of a buffer) or,
    # for a stream offering neither, before it; either way a damaged payload never gives a graph
    _fresh_load(registry)
    path = cache.cache_file(registry)
    assert path is not None
    fingerprint = registry.fingerprint() or ""
    data = path.read_bytes()
    middle = len(data) // 2
    damaged = data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]

    def opened(payload: bytes) -> Any:
        if stream == "file":
            path.write_bytes(payload)
            return path.open("rb")
        return io.BytesIO(payload) if stream == "bytes" else io.BufferedReader(_Unmapped(payload))

    with opened(data) as good:
        assert persist.load(good, fingerprint).fingerprint == fingerprint
    with opened(damaged) as bad, pytest.raises(persist.CacheRejected, match="checksum mismatch"):
        persist.load(bad, fingerprint)
    with opened(data[: len(data) - 100]) as short, pytest.raises(persist.CacheRejected, match="truncated"):
        persist.load(short, fingerprint)
