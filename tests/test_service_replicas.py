"""Several servers over one registry: a change made anywhere reaches every server without a restart.

On Postgres two real ``serve`` processes share a database; a ``source add`` from a third process
reaches both through LISTEN/NOTIFY (their fingerprint poll is left at 30 s, so only the
notification can make it quick), and a plan made before the change is reported stale. On SQLite,
which has no notifications, the fingerprint poll picks the change up.
"""

from __future__ import annotations

import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from schemarouter.declarations import collect
from schemarouter.plugins import make_plugin_manager
from schemarouter.registry import Registry
from tests.service_support import Server, serve, service_env, wait_for
from tests.sr_cli import EXAMPLES, copy_registry, synced_template

EXAMPLE = EXAMPLES / "halcyon_synthesis.yaml"
HALCYON = "What was the yield of the LiFePO4 synthesis runs in the Halcyon synthesis log?"
ASPIRIN = "What is the molecular weight of aspirin?"
PICKUP_S = 5.0


def _has_source(server: Server, source_id: str) -> bool:
    return server.call("GET", f"/v1/sources/{source_id}").status_code == 200


@pytest.mark.postgres
def test_two_servers_on_one_postgres_registry_pick_up_a_new_source(pg_url: str, tmp_path: Path) -> None:
    with Registry.open(pg_url) as registry:
        registry.sync(collect(make_plugin_manager()))
        before = registry.fingerprint()
    with ExitStack() as stack:
        first = stack.enter_context(serve(pg_url, tmp_path, "--no-live"))
        second = stack.enter_context(serve(pg_url, tmp_path, "--no-live"))
        for server in (first, second):
            health = server.call("GET", "/healthz").json()
            assert health["registry_fingerprint"] == before
            assert health["registry_watch"].startswith("LISTEN/NOTIFY + 30 s poll")
        old_plan = first.call("POST", "/v1/plan", {"question": ASPIRIN}).json()
        assert not _has_source(second, "halcyon_synthesis")

        added = subprocess.run(
            [sys.executable, "-m", "schemarouter", "source", "add", str(EXAMPLE), "--db", pg_url],
            capture_output=True,
            text=True,
            env=service_env(tmp_path / "home"),
            timeout=120,
            check=False,
        )
        assert added.returncode == 0, added.stderr
        with Registry.open(pg_url) as registry:
            after = registry.fingerprint()
        assert after != before
        took = max(
            wait_for(lambda s=s: _has_source(s, "halcyon_synthesis"), PICKUP_S) for s in (second, first)
        )
        assert took < PICKUP_S
        for server in (first, second):
            assert server.call("GET", "/healthz").json()["registry_fingerprint"] == after

        plan = second.call("POST", "/v1/plan", {"question": HALCYON}).json()
        assert plan["steps"][0]["source"] == "halcyon_synthesis"
        assert plan["registry_fingerprint"] == after
        stale = second.call("POST", "/v1/run", {"plan": old_plan, "offline": True})
        assert stale.status_code == 409 and stale.json()["code"] == "stale_plan"
        assert before in stale.json()["error"] and after in stale.json()["error"]
        # a plan of the current state still runs on the other server
        fresh = first.call("POST", "/v1/plan", {"question": ASPIRIN}).json()
        assert first.call("POST", "/v1/run", {"plan": fresh, "offline": True}).status_code == 200


def test_a_server_started_on_an_empty_registry_serves_once_it_is_synced(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'empty.db'}"
    with serve(db, tmp_path, "--no-live", "--poll", "0.3") as server:
        refused = server.call("POST", "/v1/plan", {"question": ASPIRIN})
        assert refused.status_code == 503 and "registry sync" in refused.json()["error"]
        with Registry.open(db) as registry:
            registry.sync(collect(make_plugin_manager()))
        wait_for(lambda: server.call("GET", "/healthz").json()["sources"] == 19, PICKUP_S)
        assert (
            server.call("POST", "/v1/plan", {"question": ASPIRIN}).json()["steps"][0]["source"] == "pubchem"
        )


def test_sqlite_registry_changes_arrive_by_polling(tmp_path: Path) -> None:
    from schemarouter.registry.local import add_local_source
    from schemarouter.service.state import RegistryState
    from schemarouter.service.watcher import RegistryWatcher
    from schemarouter.sources.local import load_local_source_file

    db = copy_registry(synced_template(tmp_path / "template"), tmp_path)
    state = RegistryState(db)
    watcher = RegistryWatcher(state, poll_s=0.2).start()
    try:
        assert watcher.method == "0.2 s poll"
        before = state.current
        assert "halcyon_synthesis" not in before.graph.sources
        with Registry.open(db) as registry:
            report = add_local_source(registry, load_local_source_file(EXAMPLE), "halcyon example")
        wait_for(lambda: state.current.fingerprint == report.fingerprint, 5.0)
        assert "halcyon_synthesis" in state.current.graph.sources
        assert state.current.router.plan(HALCYON).steps[0].source == "halcyon_synthesis"
        assert "halcyon_synthesis" not in before.graph.sources, "a snapshot is never changed in place"
        time.sleep(0.5)
        assert not state.refresh(), "an unchanged fingerprint does not rebuild"
    finally:
        watcher.stop()
        state.close()


@pytest.mark.postgres
def test_a_listener_that_lost_its_connection_reconnects_and_catches_up(pg_url: str) -> None:
    from sqlalchemy import create_engine, text

    from schemarouter.registry.local import add_local_source
    from schemarouter.service.state import RegistryState
    from schemarouter.service.watcher import RECONNECT_S, RegistryWatcher
    from schemarouter.sources.local import load_local_source_file

    with Registry.open(pg_url) as registry:
        registry.sync(collect(make_plugin_manager()))
    state = RegistryState(pg_url)
    watcher = RegistryWatcher(state).start()
    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    listening = text(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'"
    )
    try:
        def listeners() -> list[object]:
            with engine.connect() as conn:
                return list(conn.execute(listening).all())

        wait_for(lambda: bool(listeners()), 10)
        with engine.connect() as conn:
            killed = conn.execute(
                text(f"SELECT pg_terminate_backend(pid) FROM ({listening.text}) AS l")
            ).all()
        assert killed
        # the change lands while nobody listens: only the reconnect's catch-up read can see it
        with Registry.open(pg_url) as registry:
            report = add_local_source(registry, load_local_source_file(EXAMPLE), "halcyon example")
        wait_for(lambda: state.current.fingerprint == report.fingerprint, RECONNECT_S + 5)
        assert "halcyon_synthesis" in state.current.graph.sources
    finally:
        watcher.stop()
        state.close()
        engine.dispose()
