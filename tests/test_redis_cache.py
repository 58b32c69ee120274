"""Redis as the shared cache of several servers (the real Redis at 127.0.0.1:6379): responses a run
stored through one server are hits on another, and a graph one process built is loaded, not rebuilt,
by another. Every test writes under a prefix of its own and deletes it afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from schemarouter.api import Router
from schemarouter.config import ConfigError, load, use_file
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.cache import StepCache, cache_settings
from schemarouter.execution.offline import replay
from schemarouter.execution.redis_cache import RedisStepCache, open_step_cache, redis_client
from schemarouter.execution.results import Record, Value
from schemarouter.graph import SchemaGraph, cache, persist, shared
from schemarouter.registry import Registry
from tests.redis_support import REDIS_URL, own_prefix
from tests.routing_support import graph, routing_db  # noqa: F401  (fixtures)


@pytest.fixture
def prefix() -> Iterator[str]:
    with own_prefix() as name:
        yield name


def _records(text: str) -> list[Record]:
    value = Value(field="title", value=text, source="crossref", endpoint="works", source_type="literature",
                  license="CC0-1.0", record_id="10.1/x")
    return [Record(source="crossref", endpoint="works", record_id="10.1/x", values={"title": value})]


def test_what_one_server_stores_another_reads(graph: SchemaGraph, prefix: str) -> None:
    one, two = RedisStepCache(REDIS_URL, prefix=prefix), RedisStepCache(REDIS_URL, prefix=prefix)
    source = graph.decls.sources["crossref"]
    assert two.get("k1", "crossref") is None
    assert one.put("k1", source, _records("shared"), "GET /works")
    found = two.get("k1", "crossref")
    assert found is not None and found.records == _records("shared") and found.request == "GET /works"
    stats = one.stats().sources["crossref"]
    assert (stats.entries, stats.hits, stats.misses, stats.writes) == (1, 1, 1, 1)
    assert two.clear("crossref") == 1 and one.get("k1", "crossref") is None


def test_ttl_secrets_and_zero_ttl(graph: SchemaGraph, prefix: str) -> None:
    store = RedisStepCache(REDIS_URL, prefix=prefix)
    source = graph.decls.sources["crossref"]
    assert not store.put("k", source, _records("sk-live-0123456789abcdef"), None, secrets=["sk-live-0123456789abcdef"])
    assert not store.put("k", source.model_copy(update={"cache_ttl": 0}), _records("x"), None)
    assert store.get("k", "crossref") is None
    assert store.put("k", source.model_copy(update={"cache_ttl": 60}), _records("x"), None)
    ttl = redis_client(REDIS_URL).ttl(f"{prefix}entry:k")
    assert 0 < ttl <= 60  # Redis expires the entry with the source's TTL


def test_a_run_answered_by_one_server_is_a_cache_hit_on_another(graph: SchemaGraph, prefix: str) -> None:
    router = Router(graph)
    plan = router.plan("What is the formation energy of SmPO4?")
    env = {"MP_API_KEY": "x" * 32}
    with replay(sources=graph.sources.values()):  # server one: answered by the recorded API
        first = router.run(plan, cache=RedisStepCache(REDIS_URL, prefix=prefix), env=env)
    assert first.status == "ok" and not first.steps[0].cached
    # server two, no replay: the network is blocked, so only the shared cache can answer
    second = router.run(plan, cache=RedisStepCache(REDIS_URL, prefix=prefix), env=env)
    assert second.status == "ok" and second.steps[0].cached
    assert second.steps[0].records == first.steps[0].records


def test_an_unreachable_redis_is_a_miss_not_an_error(graph: SchemaGraph, caplog: pytest.LogCaptureFixture) -> None:
    store = RedisStepCache("redis://127.0.0.1:1/0")
    assert store.get("k", "crossref") is None
    assert not store.put("k", graph.decls.sources["crossref"], _records("x"), None)
    assert store.disabled and "cannot be used" in caplog.text


def test_the_config_file_selects_the_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCHEMAROUTER_CACHE_BACKEND", raising=False)
    assert cache_settings({}, {}).backend == "sqlite"
    assert type(open_step_cache(cache_settings({}, {}))) is StepCache
    with pytest.raises(SchemaRouterError, match="'memcached' one") as bad:
        cache_settings({}, {"SCHEMAROUTER_CACHE_BACKEND": "memcached://:hunter22@x"})
    assert "hunter22" not in str(bad.value)
    chosen = open_step_cache(cache_settings({"backend": REDIS_URL}, {}))
    assert isinstance(chosen, RedisStepCache) and chosen.url == REDIS_URL
    config = tmp_path / "config.toml"
    config.write_text(f'[cache]\nbackend = "{REDIS_URL}"\n', encoding="utf-8")
    use_file(config)
    try:
        assert load()["cache"]["backend"] == REDIS_URL and shared.backend() == REDIS_URL
        config.write_text('[cache]\nbackend = "memcached://:hunter22@x"\n', encoding="utf-8")
        with pytest.raises(ConfigError, match="backend must be") as bad:
            load()
        assert "'memcached'" in str(bad.value) and "hunter22" not in str(bad.value)
        config.write_text('[cache]\nbackend = "redis://:hunter22@127.0.0.1:6379/0"\n', encoding="utf-8")
        with pytest.raises(ConfigError, match="password") as refused:
            load()
        assert "hunter22" not in str(refused.value)
    finally:
        use_file(None)


def test_a_graph_one_server_built_is_loaded_by_another(
    routing_db: str, prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared, "PREFIX", prefix)
    monkeypatch.setenv("SCHEMAROUTER_CACHE_BACKEND", REDIS_URL)
    monkeypatch.setenv("SCHEMAROUTER_GRAPH_CACHE", "false")  # no cache file: Redis is the only way to share
    builds = []
    original = Registry.batches  # what a build reads every declaration through
    monkeypatch.setattr(Registry, "batches", lambda reg, size=None: builds.append(1) or original(reg, size))
    with Registry.open(routing_db) as reg:
        cache.clear_cache()
        built = cache.load_graph(reg)  # server one builds and publishes
        assert len(builds) == 1
        assert redis_client(REDIS_URL).exists(shared.key(reg.fingerprint() or ""))
        cache.clear_cache()  # server two: nothing in memory, no file
        loaded = cache.load_graph(reg)
        assert len(builds) == 1 and loaded is not built and loaded.fingerprint == built.fingerprint
        question = "Compare the band gap of GaN across MP, JARVIS and AFLOW"
        assert Router(loaded).plan(question).model_dump_json() == Router(built).plan(question).model_dump_json()
        # a damaged shared entry is ignored and rebuilt
        client = redis_client(REDIS_URL)
        data = client.get(shared.key(reg.fingerprint() or ""))
        client.set(shared.key(reg.fingerprint() or ""), data[: len(data) // 2])
        cache.clear_cache()
        cache.load_graph(reg)
        assert len(builds) == 2
        persist.decode(client.get(shared.key(reg.fingerprint() or "")), reg.fingerprint() or "")  # republished whole
    cache.clear_cache()


def test_a_server_says_where_its_graph_came_from(
    routing_db: str, prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/healthz's graph_source: built by this server, or loaded from Redis, memory or the cache file."""
    import shutil

    from schemarouter.service import Service, ServiceConfig
    from schemarouter.service.state import RegistryState

    def health_source(url: str, fresh_process: bool) -> str:
        if fresh_process:
            cache.clear_cache()
        state = RegistryState(url)
        try:
            return str(Service(state, ServiceConfig()).health()["graph_source"])
        finally:
            state.close()

    monkeypatch.setattr(shared, "PREFIX", prefix)
    monkeypatch.setenv("SCHEMAROUTER_CACHE_BACKEND", REDIS_URL)
    monkeypatch.setenv("SCHEMAROUTER_GRAPH_CACHE", "false")
    seen = [health_source(routing_db, True), health_source(routing_db, True), health_source(routing_db, False)]
    assert seen == ["built", "redis", "memory"]  # the first builds and publishes, the next loads it
    monkeypatch.delenv("SCHEMAROUTER_CACHE_BACKEND")
    monkeypatch.setenv("SCHEMAROUTER_GRAPH_CACHE", "true")
    copy = tmp_path / "registry.db"
    shutil.copy(routing_db.removeprefix("sqlite:///"), copy)
    url = f"sqlite:///{copy}"
    assert [health_source(url, True), health_source(url, True)] == ["built", "file"]
    cache.clear_cache()
