"""Helpers for the database-source tests: the example lab database on SQLite and on Postgres, and what
proves that nothing was written to it.

The lab database is docs/examples/halcyon_lab.sql (SQLite, shipped built as halcyon_lab.sqlite) and
docs/examples/halcyon_lab_postgres.sql; the Postgres one is loaded into the fresh database the
``pg_url`` fixture makes for each test. The ``lab`` fixture gives both, imported into a registry.
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from schemarouter.registry import Registry
from schemarouter.registry.local import add_local_source
from schemarouter.sources.sql import parse_db_url
from schemarouter.sqlsource import import_sql
from tests.sr_cli import EXAMPLES, copy_registry, synced_template

LAB_SQLITE = EXAMPLES / "halcyon_lab.sqlite"
LAB_SQLITE_SCRIPT = EXAMPLES / "halcyon_lab.sql"
LAB_POSTGRES_SCRIPT = EXAMPLES / "halcyon_lab_postgres.sql"
LAB_OVERLAY = EXAMPLES / "halcyon_lab_overlay.yaml"
QUESTION = "What is the band gap of sample HX-0042 in the Halcyon lab database?"
INJECTION = "x'; DROP TABLE samples; --"
# reserved words, non-ASCII and spaced names, binary and untyped columns, per-row units, a broken view
ODD_SCHEMA = """
CREATE TABLE "order" ( -- orders, a reserved word
  id INTEGER PRIMARY KEY,
  "select" TEXT,                -- also reserved
  "größe (K)" REAL,             -- Probengröße [K]
  温度 REAL,
  "Proben Name" TEXT UNIQUE,
  payload BLOB,
  untyped
);
CREATE TABLE "Proben Daten" (nr INTEGER PRIMARY KEY, "order" INTEGER REFERENCES "order" (id), wert REAL);
CREATE TABLE conditions (id INTEGER PRIMARY KEY, value REAL, unit TEXT, pressure REAL, pressure_unit TEXT);
CREATE TABLE gone (x INTEGER);
CREATE VIEW broken AS SELECT x FROM gone;
DROP TABLE gone;
INSERT INTO "order" VALUES (1, 'sel', 1.5, 21.0, 'Probe Ä', x'00ff', 'free');
INSERT INTO "Proben Daten" VALUES (7, 1, 0.5);
INSERT INTO conditions VALUES (1, 3.5, 'GPa', 101.3, 'kPa');
"""


def lab_sqlite(directory: Path) -> str:
    """A copy of the shipped lab database in ``directory``; its SQLAlchemy URL."""
    target = directory / "halcyon_lab.sqlite"
    shutil.copyfile(LAB_SQLITE, target)
    return f"sqlite:///{target}"


def load_postgres(url: str, script: Path | str = LAB_POSTGRES_SCRIPT) -> str:
    """Run ``script`` (a file, or SQL text) in the Postgres database at ``url``; the URL."""
    text = script.read_text(encoding="utf-8") if isinstance(script, Path) else script
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(text)
    finally:
        engine.dispose()
    return url


def sqlite_script(path: Path, script: str) -> str:
    """A new SQLite file at ``path`` built by ``script``; its URL."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(script)
        conn.commit()
    finally:
        conn.close()
    return f"sqlite:///{path}"


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def postgres_digest(url: str) -> str:
    """Every row of every table and view of the public schema, and the list of them, as one digest: any
    write, drop or change shows."""
    engine = sa.create_engine(url)
    digest = hashlib.sha256()
    try:
        with engine.connect() as conn:
            tables = conn.exec_driver_sql(
                "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public' "
                "ORDER BY table_name").fetchall()
            digest.update(repr(tables).encode())
            for name, _kind in tables:
                rows = conn.exec_driver_sql(f'SELECT * FROM "{name}" ORDER BY 1').fetchall()
                digest.update(repr((name, rows)).encode())
    finally:
        engine.dispose()
    return digest.hexdigest()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synced registry (the first-party plugins), copied for each test."""
    return synced_template(tmp_path_factory.mktemp("template"))


class Lab:
    """The lab database on one engine, imported as source ``labdb`` into its own registry."""

    def __init__(self, engine: str, url: str, registry: str, file: Path | None) -> None:
        self.engine = engine
        self.url = url
        self.registry = registry
        self.file = file

    def digest(self) -> str:
        """Everything in the database: equal before and after means nothing was written."""
        return file_digest(self.file) if self.file is not None else postgres_digest(self.url)

    def go_away(self) -> None:
        """The database disappears: the file is moved, or the Postgres database dropped."""
        if self.file is not None:
            self.file.rename(self.file.with_suffix(".moved"))
            return
        name = parse_db_url(self.url).database
        admin = sa.create_engine(self.url.rsplit("/", 1)[0] + "/test", isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :n"), {"n": name})
            conn.execute(sa.text(f'DROP DATABASE "{name}"'))
        admin.dispose()

    def execute(self, script: str) -> None:
        """Change the database behind the source's back (a test's own setup, never schemarouter)."""
        if self.file is not None:
            sqlite_script(self.file, script)
        else:
            load_postgres(self.url, script)


def add_source(registry: str, url: str, overlay: Path = LAB_OVERLAY, source_id: str = "labdb") -> None:
    """Import the database at ``url`` as ``source_id`` into the registry, as ``source import-sql`` does."""
    with Registry.open(registry) as reg:
        add_local_source(reg, import_sql(url, source_id, overlay).local, "test")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def lab(request: pytest.FixtureRequest, template: Path, tmp_path: Path) -> Lab:
    """The lab database on SQLite, then on Postgres, imported as ``labdb``."""
    registry = copy_registry(template, tmp_path)
    if request.param == "sqlite":
        url = lab_sqlite(tmp_path)
        file: Path | None = Path(url.removeprefix("sqlite:///"))
    else:
        url, file = load_postgres(request.getfixturevalue("pg_url")), None
    add_source(registry, url)
    return Lab(request.param, url, registry, file)
