"""Running database sources: a question answered from a real SQLite file and a real Postgres database,
read-only and bound, with the row cap and the time limit holding, and every bad input one line.

Each test imports the example lab database (docs/examples/halcyon_lab*.sql) into a copy of a synced
registry, as a user would, then asks the router and runs the plan through the Python API or the CLI.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from schemarouter.api import Router
from schemarouter.execution.cache import StepCache
from schemarouter.execution.executor import Executor, load_executor
from schemarouter.execution.fallback import Alternative
from schemarouter.execution.registry_adapters import stored_adapters
from schemarouter.execution.sqlconnect import open_engine, read_rows
from schemarouter.plan import Plan, PlanStep
from schemarouter.registry import Registry
from schemarouter.sources.sql import parse_db_url
from tests.sql_support import (  # noqa: F401  (fixtures)
    INJECTION,
    LAB_OVERLAY,
    ODD_SCHEMA,
    QUESTION,
    Lab,
    add_source,
    lab,
    lab_sqlite,
    load_postgres,
    sqlite_script,
    template,
)
from tests.sr_cli import copy_registry, run_main


@pytest.fixture(autouse=True)
def _own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test has its own user directory (its response cache among it)."""
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(tmp_path / "home"))
    for name in ("SCHEMAROUTER_CACHE", "SCHEMAROUTER_CACHE_DIR", "SCHEMAROUTER_TIMEOUT", "LABDB_PASSWORD"):
        monkeypatch.delenv(name, raising=False)


def _run(lab: Lab, steps: list[PlanStep], **env: str) -> list[object]:
    executor = load_executor(lab.registry, env=dict(env))
    return list(executor.run_sync(Plan(query="hand-made", registry_fingerprint=None, steps=steps)).steps)


# ---------------------------------------------------------------- the question
def test_a_sample_question_is_answered_with_unit_and_license(
    lab: Lab, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = lab.digest()
    ran = run_main(capsys, monkeypatch, "run", QUESTION, "--db", lab.registry, "--mode", "minimal")
    assert ran.code == 0, ran.err
    assert "band_gap = 3.62 eV  [labdb 1; experimental; LicenseRef-Halcyon-Internal]" in ran.out
    assert "band_gap = 3.58 eV" in ran.out
    data = json.loads(run_main(capsys, monkeypatch, "run", QUESTION, "--db", lab.registry, "--mode", "minimal",
                               "--json", "--no-cache").out)
    s1, s2 = data["plan"]["steps"]
    assert (s1["endpoint"], s1["params"]) == ("samples", {"sample_name": "HX-0042"})
    assert (s2["endpoint"], s2["params"]) == ("measurements_of_sample", {"sample_id": {"from": "s1", "field": "sample_id",
                                                                                       "pick": "first"}})
    first, second = data["steps"]
    assert "WHERE samples.name = " in first["request"] and "'HX-0042'" in first["request"]
    assert second["request"].split(" FROM ")[0].endswith(
        "SELECT measurements.measurement_id, measurements.sample_id, measurements.band_gap"), "only the planned columns"
    assert lab.digest() == before


def test_injection_in_a_question_stays_a_bound_value(lab: Lab) -> None:
    before = lab.digest()
    router = Router.from_registry(lab.registry)
    result = router.run(f"What is the band gap of sample {INJECTION} in the Halcyon lab database?", cache=False)
    assert result.plan is not None and all(s.source == "labdb" for s in result.plan.steps)
    steps = _run(lab, [
        PlanStep(source="labdb", endpoint="samples", params={"sample_name": INJECTION}, fields=["name"]),
        PlanStep(source="labdb", endpoint="samples", params={"formula_contains": INJECTION}, fields=["name"]),
        PlanStep(source="labdb", endpoint="samples", params={"sample_id": INJECTION}, fields=["name"]),
        PlanStep(source="labdb", endpoint="samples", params={"sample_name": [INJECTION, "HX-0042"]}, fields=["name"]),
    ])
    kinds = [s.error.kind if s.error else "ok" for s in steps]  # type: ignore[attr-defined]
    assert kinds == ["no_records", "no_records", "invalid_step", "ok"]
    assert "sample_id' takes an integer" in steps[2].error.message  # type: ignore[attr-defined]
    assert [r.values["name"].value for r in steps[3].records] == ["HX-0042"]  # type: ignore[attr-defined]
    assert "DROP" not in steps[3].request.split(" with ")[0] and INJECTION in steps[3].request  # type: ignore[attr-defined]
    assert lab.digest() == before, "the database is byte-identical"


def test_rows_come_ordered_and_cut_as_the_step_asks(lab: Lab) -> None:
    def step(**params: object) -> PlanStep:
        return PlanStep(source="labdb", endpoint="measurements", params=dict(params), fields=["band_gap"])

    top, bottom, bad = _run(lab, [step(sort_by="band_gap", descending=True, limit=2), step(sort_by="band_gap", limit=1),
                                  step(sort_by="colour")])
    gaps = [r.values["band_gap"].value for r in top.records]  # type: ignore[attr-defined]
    assert len(gaps) == 2 and gaps == sorted(gaps, reverse=True)
    assert "ORDER BY measurements.band_gap DESC" in top.request  # type: ignore[attr-defined]
    lowest = [r.values["band_gap"].value for r in bottom.records]  # type: ignore[attr-defined]
    assert len(lowest) == 1 and lowest[0] < gaps[-1]
    assert bad.error is not None and bad.error.kind == "invalid_step"  # type: ignore[attr-defined]
    assert "no field 'colour' to order by" in bad.error.message  # type: ignore[attr-defined]


def test_the_connection_cannot_write_even_when_asked(lab: Lab) -> None:
    before = lab.digest()
    engine = open_engine(parse_db_url(lab.url))
    samples = sa.table("samples", sa.column("sample_id"), sa.column("name"), sa.column("formula"))
    try:
        for statement in (sa.insert(samples).values(sample_id=99, name="X", formula="X"), sa.delete(samples),
                          sa.text("DROP TABLE measurements")):
            with pytest.raises(sa.exc.DBAPIError, match=r"(?i)read-only|readonly|read only"):
                read_rows(engine, statement, 1, 5.0)
    finally:
        engine.dispose()
    assert lab.digest() == before


@pytest.mark.postgres
def test_the_run_closes_its_connections(pg_url: str, template: Path, tmp_path: Path) -> None:
    registry = copy_registry(template, tmp_path)
    add_source(registry, load_postgres(pg_url))
    executor = load_executor(registry)  # held: what the run opened must be closed by the run, not by GC
    (step,) = executor.run_sync(Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="labdb", endpoint="samples", params={}, fields=["name"])])).steps
    assert step.error is None and len(executor.adapters["labdb"]._engines) == 0  # type: ignore[attr-defined]
    name = parse_db_url(pg_url).database
    admin = sa.create_engine(pg_url)
    with admin.connect() as conn:
        others = conn.execute(sa.text("SELECT count(*) FROM pg_stat_activity WHERE datname = :n AND pid <> "
                                      "pg_backend_pid()"), {"n": name}).scalar()
    admin.dispose()
    assert others == 0, "the engines a run opened are disposed when it ends"


# ---------------------------------------------------------------- limits
@pytest.fixture(scope="module")
def ten_million(tmp_path_factory: pytest.TempPathFactory, template: Path) -> tuple[str, Path]:
    """A registry with source ``big``: one SQLite table of 10,000,000 rows, a 0.5 s limit per query."""
    folder = tmp_path_factory.mktemp("big")
    path = folder / "big.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("CREATE TABLE readings (reading_id INTEGER PRIMARY KEY, value REAL, label TEXT)")
    conn.execute("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10000000) "
                 "INSERT INTO readings SELECT x, x * 0.5, 'r' || x FROM n")
    conn.commit()
    conn.close()
    overlay = folder / "overlay.yaml"
    overlay.write_text(LAB_OVERLAY.read_text(encoding="utf-8") + "timeout_s: 0.5\n", encoding="utf-8")
    registry = copy_registry(template, folder)
    add_source(registry, f"sqlite:///{path}", overlay, "big")
    return registry, path


def test_ten_million_rows_return_at_most_the_cap_in_bounded_memory(ten_million: tuple[str, Path]) -> None:
    registry, _ = ten_million
    executor = load_executor(registry)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    step = executor.run_sync(Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="big", endpoint="readings", params={}, fields=["value", "label"])])).steps[0]
    elapsed = time.monotonic() - started
    assert step.error is None and len(step.records) == 200
    assert step.request is not None and step.request.endswith("(first 200 rows: the row cap; more rows match)")
    assert elapsed < 5, f"took {elapsed:.1f} s"
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
    assert grown_mb < 100, f"peak memory grew by {grown_mb:.0f} MB"


def test_a_query_over_ten_million_rows_stops_at_the_time_limit(ten_million: tuple[str, Path]) -> None:
    registry, _ = ten_million
    started = time.monotonic()
    step = load_executor(registry).run_sync(Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="big", endpoint="readings", params={"label_contains": "no such label"}, fields=["value"])
    ])).steps[0]
    elapsed = time.monotonic() - started
    assert step.error is not None and step.error.kind == "timeout"
    assert step.error.message == "big.readings: the query took longer than 0.5 s and was stopped"
    assert elapsed < 3, f"took {elapsed:.1f} s"


@pytest.mark.postgres
def test_postgres_caps_rows_and_cancels_a_slow_statement(pg_url: str, template: Path, tmp_path: Path) -> None:
    load_postgres(pg_url, """
        CREATE VIEW ten_million AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10000000)
          SELECT n FROM r;
        CREATE VIEW slow AS SELECT g AS n, (pg_sleep(0.01) IS NULL)::int AS z FROM generate_series(1, 1000) AS g;""")
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text(LAB_OVERLAY.read_text(encoding="utf-8") + "timeout_s: 0.5\nrow_cap: 50\n", encoding="utf-8")
    registry = copy_registry(template, tmp_path)
    add_source(registry, pg_url, overlay, "pg")
    executor = load_executor(registry)
    started = time.monotonic()
    capped, slow = executor.run_sync(Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="pg", endpoint="ten_million", params={}, fields=["n"]),
        PlanStep(source="pg", endpoint="slow", params={"z_min": 2}, fields=["n", "z"]),
    ])).steps
    assert capped.error is None and len(capped.records) == 50
    assert slow.error is not None and slow.error.kind == "timeout", slow.error
    assert time.monotonic() - started < 5


# ---------------------------------------------------------------- failures
def test_a_view_that_fails_to_query_is_one_line_and_the_rest_still_answers(lab: Lab, template: Path,
                                                                            tmp_path: Path) -> None:
    if lab.engine == "sqlite":
        lab.execute("CREATE TABLE scratch (x REAL); CREATE VIEW ratios AS SELECT x FROM scratch;")
    else:
        lab.execute("CREATE VIEW ratios AS SELECT sample_id, 1 / (sample_id - sample_id) AS x FROM samples;")
    add_source(lab.registry, lab.url)  # re-import: the view is there and readable
    if lab.engine == "sqlite":
        lab.execute("DROP TABLE scratch;")  # now it is not
    samples, ratios = _run(lab, [
        PlanStep(source="labdb", endpoint="samples", params={"sample_name": "HX-0042"}, fields=["formula"]),
        PlanStep(source="labdb", endpoint="ratios", params={}, fields=["x"]),
    ])
    assert samples.error is None and samples.records[0].values["formula"].value == "LiFePO4"  # type: ignore[attr-defined]
    assert ratios.error is not None and ratios.error.kind == "query_failed"  # type: ignore[attr-defined]
    message = ratios.error.message  # type: ignore[attr-defined]
    assert message.startswith("labdb.ratios: the database refused the query (") and "\n" not in message
    assert ("no such table" in message) if lab.engine == "sqlite" else ("division by zero" in message)


def test_a_database_that_is_gone_is_unreachable(lab: Lab) -> None:
    lab.go_away()
    (step,) = _run(lab, [PlanStep(source="labdb", endpoint="samples", params={}, fields=["name"])])
    assert step.error is not None and step.error.kind == "network"  # type: ignore[attr-defined]
    assert step.error.message.startswith("labdb.samples: the database cannot be reached (")  # type: ignore[attr-defined]
    assert "\n" not in step.error.message  # type: ignore[attr-defined]
    if lab.file is not None:
        assert not lab.file.exists(), "a read-only open never creates the file"


@pytest.mark.postgres
def test_a_postgres_database_that_goes_away_mid_run(pg_url: str, template: Path, tmp_path: Path) -> None:
    load_postgres(pg_url)
    load_postgres(pg_url, "CREATE VIEW slow AS SELECT g AS n, (pg_sleep(0.05) IS NULL)::int AS z "
                          "FROM generate_series(1, 200) AS g;")
    registry = copy_registry(template, tmp_path)
    add_source(registry, pg_url)
    name = parse_db_url(pg_url).database

    def terminate() -> None:
        time.sleep(1.0)
        admin = sa.create_engine(pg_url.rsplit("/", 1)[0] + "/test", isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"), {"n": name})
        admin.dispose()

    killer = threading.Thread(target=terminate)
    killer.start()
    samples, slow = load_executor(registry).run_sync(Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="labdb", endpoint="samples", params={"sample_name": "HX-0042"}, fields=["formula"]),
        PlanStep(source="labdb", endpoint="slow", params={}, fields=["n", "z"]),
    ])).steps
    killer.join()
    assert samples.error is None and samples.records[0].values["formula"].value == "LiFePO4"
    assert slow.error is not None and slow.error.kind == "network", slow.error
    assert "the database cannot be reached" in slow.error.message and "\n" not in slow.error.message


@pytest.mark.postgres
def test_the_password_comes_from_its_variable_only(pg_url: str, template: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    load_postgres(pg_url)
    registry = copy_registry(template, tmp_path)
    secret = "pw-Sup3r-s3cret"
    add_source(registry, pg_url.replace("postgres@", f"postgres:{secret}@"))
    (missing,) = _run(Lab("postgres", pg_url, registry, None),
                      [PlanStep(source="labdb", endpoint="samples", params={}, fields=["name"])])
    assert missing.error is not None and missing.error.kind == "missing_credentials"  # type: ignore[attr-defined]
    assert "LABDB_PASSWORD" in missing.error.message  # type: ignore[attr-defined]
    monkeypatch.setenv("LABDB_PASSWORD", secret)
    ran = run_main(capsys, monkeypatch, "run", QUESTION, "--db", registry, "--json", "--no-cache")
    assert ran.code == 0 and "3.62" in ran.out, ran.err
    assert secret not in ran.out + ran.err


def test_an_offline_run_still_reads_the_database_but_sends_no_stand_in_password(
    lab: Lab, template: Path, tmp_path: Path,
) -> None:
    result = Router.from_registry(lab.registry).run(QUESTION, mode="minimal", offline=True)
    assert [v.value for s in result.steps for r in s.records for f, v in r.values.items() if f == "band_gap"][:1] == [3.62]
    if lab.engine == "postgres":
        folder = tmp_path / "with-password"
        folder.mkdir()
        registry = copy_registry(template, folder)
        add_source(registry, lab.url.replace("postgres@", "postgres:pw-x1y2z3@"))
        offline = Router.from_registry(registry).run(QUESTION, mode="minimal", offline=True)
        assert offline.steps[0].error is not None and offline.steps[0].error.kind == "missing_credentials"


# ---------------------------------------------------------------- cache and fallback
def test_the_response_cache_serves_a_repeated_step(lab: Lab, tmp_path: Path) -> None:
    router = Router.from_registry(lab.registry)
    cache = StepCache(tmp_path / "cache.sqlite3")
    first = router.run(QUESTION, mode="minimal", cache=cache)
    lab.execute("UPDATE measurements SET band_gap = 9.99 WHERE measurement_id = 1;")
    second = router.run(QUESTION, mode="minimal", cache=cache)
    assert [s.cached for s in first.steps] == [False, False] and [s.cached for s in second.steps] == [True, True]
    assert second.steps[1].records[0].values["band_gap"].value == 3.62, "served from the cache, not the database"
    fresh = router.run(QUESTION, mode="minimal", cache=False)
    assert fresh.steps[1].records[0].values["band_gap"].value == 9.99


def test_a_failed_database_step_falls_back_like_any_other(lab: Lab, tmp_path: Path) -> None:
    (tmp_path / "copy").mkdir()
    add_source(lab.registry, lab_sqlite(tmp_path / "copy"), source_id="labcopy")
    with Registry.open(lab.registry) as reg:
        decls = reg.load()
    step = PlanStep(source="labdb", endpoint="samples", params={"sample_name": "HX-0042"}, fields=["formula"])

    def substitutes(plan: Plan, index: int) -> list[Alternative]:
        return [Alternative(step=step.model_copy(update={"source": "labcopy"}), reason="the same lab database, copied")]

    lab.go_away()
    executor = Executor(decls, stored_adapters(decls.adapter_specs), substitutes=substitutes, env={})
    (answered,) = asyncio.run(executor.run(Plan(query="q", registry_fingerprint=None, steps=[step]))).steps
    assert answered.source == "labcopy" and answered.records[0].values["formula"].value == "LiFePO4"
    assert answered.fallback is not None and answered.fallback.error.kind == "network"
    assert answered.fallback.source == "labdb"


def test_reserved_and_non_ascii_names_are_queried_quoted(template: Path, tmp_path: Path) -> None:
    url = sqlite_script(tmp_path / "odd.sqlite", ODD_SCHEMA)
    registry = copy_registry(template, tmp_path)
    add_source(registry, url, source_id="odd")
    executor = load_executor(registry)
    order, proben = executor.run_sync(Plan(query="q", registry_fingerprint=None, steps=[
        PlanStep(source="odd", endpoint="order", params={"select_contains": "SEL", "order_id": 1,
                                                          "proben_name": "Probe Ä"},
                 fields=["select", "groesse_k", "column_4", "payload", "untyped"]),
        PlanStep(source="odd", endpoint="proben_daten_of_order", params={"order": 1}, fields=["wert"]),
    ])).steps
    assert order.error is None, order.error
    values = {k: (v.value, v.unit) for k, v in order.records[0].values.items()}
    assert values["select"] == ("sel", None) and values["groesse_k"] == (1.5, "K") and values["column_4"] == (21.0, None)
    assert values["payload"] == ("<2 bytes of binary data>", None) and values["untyped"] == ("free", None)
    assert '"order"."select"' in (order.request or "") and '"order"."温度"' in (order.request or "")
    assert proben.error is None and proben.records[0].values["wert"].value == 0.5
    assert 'FROM "Proben Daten"' in (proben.request or "")
