"""Database sources, measured: ``source import-sql``, planning and running on the example lab database.

The lab database of ``docs/private-sources.md`` (docs/examples/halcyon_lab.sqlite, and
halcyon_lab_postgres.sql loaded into a scratch Postgres database) is imported with its three-line
overlay into a registry synced from the installed plugins, as a user would; then three lab questions
are planned and run (live, no response cache, no fallbacks) over and over. Per engine the section
gives the import time (reflection, mapping and validation; median of a few imports), the planning
and the running latency (p50 and p95 over every repetition of every question), and the answer the
band-gap question got, so a figure for a wrong answer cannot pass unnoticed.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

QUESTIONS = (
    "What is the band gap of sample HX-0042 in the Halcyon lab database?",
    "What is the resistivity of sample HX-0090?",
    "Which instrument did experiment 2 use?",
)
IMPORTS = 5


def examples_dir() -> Path | None:
    """The checkout's docs/examples (the lab database); None for an install without the checkout."""
    import schemarouter

    folder = Path(schemarouter.__file__).resolve().parents[1] / "docs" / "examples"
    return folder if (folder / "halcyon_lab.sqlite").is_file() else None


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _postgres(admin_url: str, script: Path) -> tuple[str | None, str | None]:
    """A scratch database loaded with ``script``: its URL, or None and why not."""
    import sqlalchemy as sa

    name = f"sr_bench_sql_{uuid.uuid4().hex[:10]}"
    try:
        admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
    except Exception as exc:  # no server here: the Postgres row says so
        return None, f"Postgres unreachable ({type(exc).__name__})"
    url = sa.engine.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(script.read_text(encoding="utf-8"))
    engine.dispose()
    return url, None


def _drop(admin_url: str, url: str) -> None:
    import sqlalchemy as sa

    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{sa.engine.make_url(url).database}" WITH (FORCE)'))
    admin.dispose()


def measure_engine(engine: str, url: str, overlay: Path, template: Path, folder: Path, repeats: int) -> dict[str, Any]:
    """Import, plan and run on one engine's copy of the lab database."""
    from schemarouter.api import Router, open_graph
    from schemarouter.registry import Registry
    from schemarouter.registry.local import add_local_source
    from schemarouter.sqlsource import import_sql

    imports: list[float] = []
    for _ in range(IMPORTS):
        started = time.perf_counter()
        result = import_sql(url, "labdb", overlay)
        imports.append(time.perf_counter() - started)
    registry_file = folder / f"registry-{engine}.db"
    shutil.copyfile(template, registry_file)
    registry = f"sqlite:///{registry_file}"
    with Registry.open(registry) as reg:
        add_local_source(reg, result.local, "bench")
    router = Router(open_graph(registry)[0])
    plans = {q: router.plan(q, mode="minimal") for q in QUESTIONS}
    plan_ms: list[float] = []
    run_ms: list[float] = []
    step_ms: list[float] = []
    answer = "-"
    for _ in range(repeats):
        for question in QUESTIONS:
            started = time.perf_counter()
            router.plan(question, mode="minimal")
            plan_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            ran = router.run(plans[question], cache=False, fallback=False)
            run_ms.append((time.perf_counter() - started) * 1000)
            step_ms += [s.elapsed_s * 1000 for s in ran.steps]
            if question == QUESTIONS[0]:
                gaps = [v for s in ran.steps for r in s.records for v in r.values.values()
                        if v.field == "band_gap" and v.value is not None]
                answer = f"{gaps[0].value:g} {gaps[0].unit} ({ran.status})" if gaps else f"none ({ran.status})"
    return {
        "engine": engine, "tables": result.report.tables, "views": result.report.views,
        "endpoints": result.report.endpoints, "import_ms": statistics.median(imports) * 1000,
        "plan_p50_ms": _percentile(plan_ms, 0.5), "plan_p95_ms": _percentile(plan_ms, 0.95),
        "run_p50_ms": _percentile(run_ms, 0.5), "run_p95_ms": _percentile(run_ms, 0.95),
        "step_p50_ms": _percentile(step_ms, 0.5),
        "steps": " -> ".join(f"{s.endpoint}" for s in plans[QUESTIONS[0]].steps), "answer": answer,
        "samples": len(run_ms),
    }


def run_sql_bench(pg_admin_url: str | None, quick: bool = False,
                  say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The section's figures: one row per engine (SQLite always; Postgres when ``pg_admin_url`` answers)."""
    from schemarouter.declarations import collect
    from schemarouter.plugins import plugin_manager
    from schemarouter.registry import Registry

    examples = examples_dir()
    if examples is None:
        return {"skipped": "docs/examples is not here (an install without the checkout)"}
    (say or (lambda _m: None))("database sources (import-sql, plan, run)")
    repeats = 3 if quick else 20
    rows: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        template = folder / "synced.db"
        with Registry.open(f"sqlite:///{template}") as reg:
            reg.sync(collect(plugin_manager()))
        lab = folder / "halcyon_lab.sqlite"
        shutil.copyfile(examples / "halcyon_lab.sqlite", lab)
        overlay = examples / "halcyon_lab_overlay.yaml"
        rows.append(measure_engine("SQLite", f"sqlite:///{lab}", overlay, template, folder, repeats))
        url, why = _postgres(pg_admin_url, examples / "halcyon_lab_postgres.sql") if pg_admin_url else (None, "no URL")
        if url is None:
            skipped["PostgreSQL"] = why or "not measured"
        else:
            try:
                rows.append(measure_engine("PostgreSQL", url, overlay, template, folder, repeats))
            finally:
                _drop(pg_admin_url or "", url)
    from schemarouter_bench.machine import cpu_model

    return {"rows": rows, "skipped": skipped, "questions": list(QUESTIONS), "repeats": repeats, "imports": IMPORTS,
            "machine": f"{os.cpu_count()} CPU cores ({cpu_model()})",
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")}


COLUMNS = [
    ("engine", "engine", 0), ("endpoints", "endpoints", 0), ("import_ms", "import (ms)", 1),
    ("plan_p50_ms", "plan p50 (ms)", 2), ("plan_p95_ms", "plan p95 (ms)", 2), ("run_p50_ms", "run p50 (ms)", 1),
    ("run_p95_ms", "run p95 (ms)", 1), ("step_p50_ms", "SQL step p50 (ms)", 2), ("answer", "band gap of HX-0042", 0),
]


def sql_section(doc: dict[str, Any]) -> list[str]:
    """The Markdown section of ``docs/benchmark.md`` (none when the run did not measure it)."""
    from schemarouter_bench.report import fmt, md_table

    sql = doc.get("sql")
    if not sql or not sql.get("rows"):
        return []
    rows = sql["rows"]
    method = (
        "`schemarouter source import-sql` on the lab database of `docs/private-sources.md` (3 tables, 1 view, "
        "foreign keys; `docs/examples/halcyon_lab.sqlite`, and `halcyon_lab_postgres.sql` loaded into a scratch "
        "Postgres database on this machine) with its three-line overlay (title, source type, license), into a "
        "registry synced from the installed plugins (`bench/schemarouter_bench/sqlbench.py`). *Import* is "
        f"reflection, mapping and validation (median of {sql['imports']}). Then {len(sql['questions'])} questions "
        f"({'; '.join(repr(q) for q in sql['questions'])}) are planned and run {sql['repeats']} times each: *plan* "
        "is `Router.plan`, *run* is `Router.run` of that plan, live, with no response cache and no fallbacks "
        "(adapters made, engine opened, one read-only bound `SELECT` per step, connections closed; most of it is "
        "what every run costs whatever its sources, such as the HTTP client the executor makes). *SQL step* is one "
        "step as the executor times it: the statement built, run in a read-only transaction and its rows "
        "projected. The band-gap "
        f"question plans `{rows[0]['steps']}`: the sample's name, then its measurements through the foreign key. "
        f"Measured {sql.get('date', '')} on {sql.get('machine', 'this machine')}."
    )
    out = [
        "## Database sources",
        "",
        method,
        "",
        *md_table([label for _, label, _ in COLUMNS],
                  [[fmt(r.get(k), d) if isinstance(r.get(k), (int, float)) else str(r.get(k, "-"))
                    for k, _, d in COLUMNS] for r in rows]),
        "",
    ]
    for engine, why in (sql.get("skipped") or {}).items():
        out += [f"- {engine}: not measured ({why}).", ""]
    return out
