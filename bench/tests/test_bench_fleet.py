"""The fleet benchmark on a tiny registry: two real servers over one Postgres registry and one Redis database.

What it reports must be what happened (the second server loaded the graph the first built, a run on
one is a cache hit on the other, a registry change reaches both, the clients were spread over both),
its report section must land in the report without disturbing the rest, and it must leave nothing
behind, also when a step fails. How fast is the report's business, not these tests'.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from rich.console import Console
from schemarouter_bench import fleet as fleet_module
from schemarouter_bench import report as reporting
from schemarouter_bench.cli import print_fleet
from schemarouter_bench.dataset import load_queries
from schemarouter_bench.fleet import CLAIM_KEY, DEFAULT_REDIS_URL, FleetError, run_fleet
from schemarouter_bench.frozen import load_frozen

from tests.conftest import POSTGRES_ADMIN_URL, _postgres_or_skip

SOURCES = 40


def _redis_or_skip() -> None:
    import redis

    try:
        redis.Redis.from_url(DEFAULT_REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as err:  # pragma: no cover - depends on the machine
        pytest.skip(f"Redis unreachable at {DEFAULT_REDIS_URL}: {type(err).__name__}")


def _database_exists(url: str) -> bool:
    engine = sa.create_engine(POSTGRES_ADMIN_URL)
    try:
        with engine.connect() as conn:
            found = conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"),
                                 {"n": sa.engine.make_url(url).database})
            return found.first() is not None
    finally:
        engine.dispose()


def _left_in_redis(url: str) -> list[bytes]:
    import redis

    client = redis.Redis.from_url(url)
    return [*client.scan_iter(match="schemarouter:*"), *([CLAIM_KEY.encode()] if client.exists(CLAIM_KEY) else [])]


class Scratch:
    """The scratch database and Redis database a fleet run used (recorded as it made them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[str] = []
        for name in ("scratch_database", "scratch_redis"):
            original = getattr(fleet_module, name)

            @contextmanager
            def tracked(url: str, original: Any = original) -> Iterator[str]:
                with original(url) as made:
                    self.made.append(made)
                    yield made

            monkeypatch.setattr(fleet_module, name, tracked)

    def assert_gone(self) -> None:
        assert self.made, "the run made its scratch database"
        for url in self.made:
            if url.startswith("postgresql"):
                assert not _database_exists(url), "the scratch database was dropped"
            else:
                assert _left_in_redis(url) == [], "the Redis keys and the claim were deleted"


def _run(**overrides: Any) -> dict[str, Any]:
    options: dict[str, Any] = {"sources": SOURCES, "pg_admin_url": POSTGRES_ADMIN_URL, "servers": 2,
                               "clients": 4, "seconds": 0.5, "warmup_s": 0.2, **overrides}
    questions = [q.query for q in load_queries(None)][:20]
    return run_fleet(load_frozen().decls, questions, **options)


@pytest.fixture(scope="module")
def measured() -> Iterator[tuple[dict[str, Any], Scratch]]:
    _postgres_or_skip()
    _redis_or_skip()
    with pytest.MonkeyPatch.context() as monkeypatch:
        scratch = Scratch(monkeypatch)
        yield _run(), scratch


def test_the_second_server_loads_the_graph_the_first_built(measured: tuple[dict[str, Any], Scratch]) -> None:
    result, _ = measured
    assert [s["graph_source"] for s in result["servers"]] == ["built", "redis"]
    assert [s["sources"] for s in result["servers"]] == [SOURCES, SOURCES]
    assert all(s["startup_s"] > 0 and s["rss_mb"] > 10 for s in result["servers"])


def test_a_run_on_one_server_is_a_cache_hit_on_the_other(measured: tuple[dict[str, Any], Scratch]) -> None:
    cache = measured[0]["shared_cache"]
    assert cache["servers"] == [1, 2]
    assert cache["first"] == {"status": "ok", "cached": False, "stub_requests": 1}
    assert cache["second"] == {"status": "ok", "cached": True, "stub_requests": 0}
    assert cache["same_records"] and cache["cache_hit"] is True


def test_a_registry_change_reaches_both_servers(measured: tuple[dict[str, Any], Scratch]) -> None:
    moved = measured[0]["propagation"]
    assert moved["missed"] == [] and moved["change"] == "source add fleet_probe_log"
    assert all(t is not None and t < fleet_module.PICKUP_LIMIT_S for t in moved["pickup_s"])
    assert moved["all_s"] == max(moved["pickup_s"])
    assert sorted(moved["graph_source_after"]) == ["built", "redis"]  # one builds (the build lock), one loads
    assert moved["fingerprint"].startswith("sha256:")
    build = moved["build"]  # read from the builder's log
    assert build["server"] == moved["graph_source_after"].index("built") + 1
    assert all(build[k] >= 0 for k in ("read_s", "build_s", "encode_s", "publish_s", "mb"))


def test_the_clients_are_spread_over_every_server(measured: tuple[dict[str, Any], Scratch]) -> None:
    result = measured[0]
    one, two = result["throughput"]
    assert (one["servers"], two["servers"]) == (1, 2) and one["clients"] == two["clients"] == 4
    for row in (one, two):
        assert row["errors"] == 0 and row["requests"] == sum(row["per_server"]) > 0
        assert 0 < row["p50_ms"] <= row["p99_ms"]
        assert row["server_cpu_ms_per_plan"] > 0 and row["loadgen_cores"] >= 0 and row["other_cores"] >= 0
    assert len(two["per_server"]) == 2 and min(two["per_server"]) > 0, "both servers answered"
    assert result["ratio"] == pytest.approx(two["plans_per_s"] / one["plans_per_s"])
    assert result["cpus"] and result["sources"] == SOURCES
    targets = {t["target"]: t for t in result["targets"]}
    ratio = targets["plans/s, 2 servers / 1 server (" + str(result["cpus"]) + " cores)"]
    assert ratio["measured"] == result["ratio"] and ratio["met"] == (result["ratio"] >= 1.6)


def test_nothing_is_left_behind(measured: tuple[dict[str, Any], Scratch]) -> None:
    result, scratch = measured
    scratch.assert_gone()
    assert len(scratch.made) == 2 and scratch.made[1].endswith(f"/{result['redis_db']}")
    for server in result["servers"]:
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", server["port"])) != 0, "the server process was stopped"


def test_the_report_section_replaces_itself_and_a_whole_report_keeps_it(
    measured: tuple[dict[str, Any], Scratch], tmp_path: Path
) -> None:
    result = measured[0]
    text = "\n".join(reporting.fleet_section(result))
    start, end = reporting.FLEET_MARKERS
    assert text.startswith(start) and text.endswith(end)
    one = result["throughput"][0]
    assert f"| 1 | 4 | {one['plans_per_s']:,.0f} | {one['p50_ms']:,.2f} |" in text
    assert f"**2 servers / 1 server: {result['ratio']:,.2f}x**" in text
    assert "**Shared response cache: hit.**" in text and "stub requests: 0" in text
    assert f"Server {result['propagation']['build']['server']} built it" in text
    assert f"{result['cpus']} CPU cores" in text

    path = tmp_path / "benchmark.md"
    path.write_text("# Benchmark\n\n## Service load\n\nload\n\n## Database sources\n\nsql\n", encoding="utf-8")
    reporting.write_fleet_section(path, result)
    reporting.write_fleet_section(path, result)  # a second run replaces the section, never adds one
    body = path.read_text(encoding="utf-8")
    assert body.count(start) == 1 and body.index("## Service load") < body.index(start) < body.index(
        "## Database sources")
    assert "\nload\n" in body and "\nsql\n" in body

    meta = {"command": "schemarouter bench", "date": "today", "version": "0", "cpus": 2, "python": "3",
            "elapsed_s": 1.0}
    reporting.write({"meta": meta, "routers": [], "scaling": [], "load": None}, path, [])
    rewritten = path.read_text(encoding="utf-8")
    assert text in rewritten, "a whole report run keeps the measured fleet section"


def test_the_console_tables_show_the_figures(measured: tuple[dict[str, Any], Scratch]) -> None:
    result = measured[0]
    console = Console(record=True, width=220)
    print_fleet(result, console)
    out = console.export_text()
    assert f"2 servers / 1 server: {result['ratio']:,.2f}x" in out
    assert "shared response cache hit on server 2: yes" in out
    assert "redis" in out and "built" in out


def test_a_failure_midway_still_stops_the_servers_and_removes_the_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _postgres_or_skip()
    _redis_or_skip()
    scratch = Scratch(monkeypatch)
    started: list[fleet_module.FleetServer] = []
    original = fleet_module.start_server

    def tracked(*args: Any) -> fleet_module.FleetServer:
        started.append(original(*args))
        return started[-1]

    def broken(*_: Any) -> dict[str, Any]:
        raise RuntimeError("load generator broke")

    monkeypatch.setattr(fleet_module, "start_server", tracked)
    monkeypatch.setattr(fleet_module, "throughput", broken)
    with pytest.raises(RuntimeError, match="load generator broke"):
        _run(sources=20)
    assert len(started) == 1 and started[0].process.poll() is not None, "the server was stopped"
    scratch.assert_gone()
    assert len(scratch.made) == 2


def test_an_unreachable_redis_is_one_clear_error_and_drops_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    _postgres_or_skip()
    scratch = Scratch(monkeypatch)
    with pytest.raises(FleetError, match=r"Redis at redis://127\.0\.0\.1:1 is unusable"):
        _run(sources=20, redis_url="redis://127.0.0.1:1")
    scratch.assert_gone()
    assert len(scratch.made) == 1
