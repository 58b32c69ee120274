"""The step-level response cache: keys, TTLs, secrets, corruption, the executor hook and the CLI."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from schemarouter.api import Router
from schemarouter.cli import cli
from schemarouter.errors import SchemaRouterError
from schemarouter.execution.cache import DEFAULT_TTL_S, StepCache, cache_settings, step_key
from schemarouter.execution.offline import replay
from schemarouter.execution.results import Record, Value
from schemarouter.graph import SchemaGraph
from schemarouter.models import Source
from tests.routing_support import graph, routing_db  # noqa: F401

SECRET = "sk-live-0123456789abcdef"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _records(text: str = "ok") -> list[Record]:
    value = Value(field="title", value=text, source="crossref", endpoint="works", source_type="literature",
                  license="CC0-1.0", record_id="10.1/x")
    return [Record(source="crossref", endpoint="works", record_id="10.1/x", values={"title": value})]


def _source(graph: SchemaGraph, source_id: str, **update: object) -> Source:
    return graph.decls.sources[source_id].model_copy(update=update)


def test_round_trip_ttl_and_counters(tmp_path: Path, graph: SchemaGraph) -> None:
    clock = Clock()
    cache = StepCache(tmp_path / "c.sqlite3", default_ttl=60, clock=clock)
    source = _source(graph, "crossref")
    key = step_key(source, source.endpoints[0], {"doi": "10.1/x"}, ["doi", "title"])
    assert cache.get(key, "crossref") is None
    assert cache.put(key, source, _records(), "https://api.crossref.org/works/10.1/x")
    hit = cache.get(key, "crossref")
    assert hit is not None and hit.records == _records() and hit.request.endswith("10.1/x")  # type: ignore[union-attr]
    clock.now += 61
    assert cache.get(key, "crossref") is None  # expired after the default TTL
    stats = cache.stats().sources["crossref"]
    assert (stats.hits, stats.misses, stats.writes, stats.entries, stats.expired) == (1, 2, 1, 1, 1)
    assert cache.clear(expired_only=True) == 1 and cache.stats().entries == 0


def test_per_source_ttl_and_zero_means_never(tmp_path: Path, graph: SchemaGraph) -> None:
    clock = Clock()
    cache = StepCache(tmp_path / "c.sqlite3", default_ttl=60, clock=clock)
    week = _source(graph, "crossref", cache_ttl=7 * 86_400)
    key = step_key(week, week.endpoints[0], {"doi": "a"}, ["title"])
    cache.put(key, week, _records(), None)
    clock.now += 3 * 86_400
    assert cache.get(key, "crossref") is not None  # the source's own TTL, not the default
    never = _source(graph, "crossref", cache_ttl=0)
    assert not cache.put(step_key(never, never.endpoints[0], {"doi": "b"}, ["title"]), never, _records(), None)


def test_keys_are_digests_and_change_with_the_declaration(graph: SchemaGraph) -> None:
    source = _source(graph, "crossref")
    endpoint = source.endpoints[0]
    key = step_key(source, endpoint, {"doi": "10.1/x", "mailto": SECRET}, ["title"])
    assert len(key) == 64 and int(key, 16) >= 0 and SECRET not in key
    assert key != step_key(source, endpoint, {"doi": "10.1/y", "mailto": SECRET}, ["title"])
    assert key != step_key(source, endpoint, {"doi": "10.1/x", "mailto": SECRET}, ["title", "author"])
    changed = endpoint.model_copy(update={"summary": "another declaration"})
    assert key != step_key(source, changed, {"doi": "10.1/x", "mailto": SECRET}, ["title"])


def test_a_payload_carrying_a_key_is_never_stored(tmp_path: Path, graph: SchemaGraph) -> None:
    cache = StepCache(tmp_path / "c.sqlite3")
    source = _source(graph, "crossref")
    key = step_key(source, source.endpoints[0], {}, ["title"])
    assert not cache.put(key, source, _records(), f"https://api.example/works?api_key={SECRET}", secrets=[SECRET])
    assert cache.get(key, "crossref") is None
    assert SECRET.encode() not in (tmp_path / "c.sqlite3").read_bytes()


def test_a_corrupt_file_is_rebuilt_with_a_warning(tmp_path: Path, graph: SchemaGraph,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    cache = StepCache(path)
    source = _source(graph, "crossref")
    key = step_key(source, source.endpoints[0], {}, ["title"])
    with caplog.at_level(logging.WARNING, logger="schemarouter.cache"):
        assert cache.get(key, "crossref") is None
        assert cache.put(key, source, _records(), None)
    assert "unreadable" in caplog.text and "rebuilding" in caplog.text
    assert cache.get(key, "crossref") is not None
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM entries").fetchone() == (1,)


def test_a_file_deleted_mid_run_is_started_anew(tmp_path: Path, graph: SchemaGraph,
                                                caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "c.sqlite3"
    cache = StepCache(path)
    source = _source(graph, "crossref")
    key = step_key(source, source.endpoints[0], {}, ["title"])
    cache.put(key, source, _records(), None)
    path.unlink()
    with caplog.at_level(logging.WARNING, logger="schemarouter.cache"):
        assert cache.get(key, "crossref") is None
        assert cache.put(key, source, _records("again"), None)
    assert "was deleted" in caplog.text
    assert cache.get(key, "crossref").records[0].values["title"].value == "again"  # type: ignore[union-attr]


def test_an_unusable_location_runs_without_the_cache(tmp_path: Path, graph: SchemaGraph) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = StepCache(blocker / "sub" / "c.sqlite3")  # a folder under a file cannot exist
    source = _source(graph, "crossref")
    assert not cache.put(step_key(source, source.endpoints[0], {}, ["t"]), source, _records(), None)
    assert cache.disabled


def test_a_second_live_run_is_served_from_the_cache(tmp_path: Path, graph: SchemaGraph) -> None:
    router = Router(graph)
    plan = router.plan("What is the formation energy of SmPO4?")
    cache = StepCache(tmp_path / "c.sqlite3")
    with replay(sources=graph.sources.values()):  # the "live" run: requests answered by the recorded API
        first = router.run(plan, cache=cache, env={"MP_API_KEY": "x" * 32})
    assert first.status == "ok" and not first.steps[0].cached
    # no replay now: the network is blocked, so only the cache can answer
    second = router.run(plan, cache=cache, env={"MP_API_KEY": "x" * 32})
    assert second.status == "ok" and second.steps[0].cached
    assert second.steps[0].records == first.steps[0].records
    assert cache.stats().sources["materials_project"].hits == 1


def test_no_cache_and_offline_never_touch_the_cache(tmp_path: Path, graph: SchemaGraph,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_CACHE_DIR", str(tmp_path / "cache"))
    router = Router(graph)
    plan = router.plan("What is the formation energy of SmPO4?")
    with replay(sources=graph.sources.values()):
        assert router.run(plan, cache=False, env={"MP_API_KEY": "x" * 32}).status == "ok"
    assert router.run(plan, offline=True).status == "ok"
    assert not (tmp_path / "cache").exists()
    with replay(sources=graph.sources.values()):
        router.run(plan, env={"MP_API_KEY": "x" * 32})  # the default: the configured cache
    assert StepCache(tmp_path / "cache" / "responses.sqlite3").stats().entries == 1


def test_settings_from_the_table_and_the_environment(tmp_path: Path) -> None:
    assert cache_settings({}, {}).default_ttl == DEFAULT_TTL_S and cache_settings({}, {}).enabled
    table = {"enabled": False, "dir": str(tmp_path), "default_ttl": 30}
    settings = cache_settings(table, {})
    assert (settings.enabled, settings.path, settings.default_ttl) == (False, tmp_path / "responses.sqlite3", 30)
    env = cache_settings(table, {"SCHEMAROUTER_CACHE": "1", "SCHEMAROUTER_CACHE_TTL": "5"})
    assert env.enabled and env.default_ttl == 5


@pytest.mark.parametrize(("table", "env", "message"), [
    ({"enable": True}, {}, "unknown key [cache] enable"),
    ({"default_ttl": "soon"}, {}, "[cache] default_ttl must be a whole number"),
    ({"enabled": "maybe"}, {}, "[cache] enabled must be true or false"),
    ({}, {"SCHEMAROUTER_CACHE_TTL": "-1"}, "SCHEMAROUTER_CACHE_TTL must be a whole number"),
])
def test_bad_settings_are_one_line_errors(table: dict, env: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(SchemaRouterError, match=message.replace("[", r"\[").replace("]", r"\]")):
        cache_settings(table, env)


def test_cache_stats_and_clear_commands(tmp_path: Path, graph: SchemaGraph,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_CACHE_DIR", str(tmp_path))
    cache = StepCache(tmp_path / "responses.sqlite3")
    source = _source(graph, "crossref")
    for doi in ("a", "b"):
        cache.put(step_key(source, source.endpoints[0], {"doi": doi}, ["title"]), source, _records(), None)
    runner = CliRunner()
    shown = runner.invoke(cli, ["cache", "stats", "--json"])
    assert shown.exit_code == 0, shown.output
    assert '"entries": 2' in shown.output and '"crossref"' in shown.output
    assert "2 entries" in runner.invoke(cli, ["cache", "stats"]).output
    assert "removed 0" in runner.invoke(cli, ["cache", "clear", "--source", "pubchem"]).output
    assert "removed 2" in runner.invoke(cli, ["cache", "clear"]).output
    assert cache.stats().entries == 0


def test_a_write_endpoint_is_never_cached(tmp_path: Path, graph: SchemaGraph) -> None:
    from schemarouter.execution.executor import Executor

    executor = Executor(graph.decls, cache=StepCache(tmp_path / "c.sqlite3"))
    source = graph.decls.sources["crossref"]
    endpoint = source.endpoints[0]
    write = endpoint.model_copy(update={"method": "POST", "access": "write"})
    from schemarouter.execution.adapter import StepCall

    call = StepCall(source, write, {}, [], client=None)  # type: ignore[arg-type]
    assert executor._cache_key(call) is None
    assert executor._cache_key(StepCall(source, endpoint, {}, [], client=None)) is not None  # type: ignore[arg-type]
